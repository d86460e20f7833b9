;;; tak: Takeuchi function, (tak 18 12 6) = 7, repeated; prints the sum.
(defun tak (x y z)
  (if (not (< y x))
      z
      (tak (tak (- x 1) y z)
           (tak (- y 1) z x)
           (tak (- z 1) x y))))

(defun main ()
  (let ((s 0))
    (dotimes (i 2500)
      (setq s (+ s (tak 18 12 6))))
    (format t "~D~%" s)))

(main)
