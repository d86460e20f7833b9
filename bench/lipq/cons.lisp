;;; cons: allocation-heavy list work: build (0 .. n-1), map 1+, reverse, sum;
;;; repeated; prints the total.
(defun build (n)
  (let ((l nil) (i (1- n)))
    (while (>= i 0)
      (setq l (cons i l))
      (setq i (1- i)))
    l))

(defun sum (l)
  (let ((s 0))
    (dolist (x l) (setq s (+ s x)))
    s))

(defun main ()
  (let ((total 0))
    (dotimes (i 13)
      (let* ((l (build 1000000))
             (m (mapcar (lambda (x) (+ x 1)) l))
             (r (reverse m)))
        (setq total (+ total (sum r)))))
    (print total)))

(main)
