;;; tak: Takeuchi function, (tak 18 12 6) = 7, repeated; prints the sum.
(defun tak (x y z)
  (if (not (< y x))
      z
      (tak (tak (1- x) y z)
           (tak (1- y) z x)
           (tak (1- z) x y))))

(defun main ()
  (let ((s 0))
    (dotimes (i 2500)
      (setq s (+ s (tak 18 12 6))))
    (print s)))

(main)
