;;; bignum: 5000! by repeated multiplication, then its decimal digit sum by
;;; repeated division by 10 (quotient and remainder as two operations);
;;; repeated; prints the sum of the digit sums (67698 each).
(defun fact (n)
  (let ((f 1))
    (do ((i 2 (+ i 1))) ((> i n) f)
      (setq f (* f i)))))

(defun digit-sum (x)
  (let ((s 0))
    (loop while (> x 0)
          do (setq s (+ s (mod x 10)))
             (setq x (floor x 10)))
    s))

(defun main ()
  (let ((s 0))
    (dotimes (i 5)
      (setq s (+ s (digit-sum (fact 5000)))))
    (format t "~D~%" s)))

(main)
