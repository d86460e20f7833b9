;;; takl: Gabriel's TAKL, tak on lists of length 18 12 6; repeated, sums the
;;; lengths of the results (7 each).
(defun listn (n)
  (if (= n 0)
      nil
      (cons n (listn (1- n)))))

(defun shorterp (x y)
  (and y (or (null x) (shorterp (cdr x) (cdr y)))))

(defun mas (x y z)
  (if (not (shorterp y x))
      z
      (mas (mas (cdr x) y z)
           (mas (cdr y) z x)
           (mas (cdr z) x y))))

(defun main ()
  (let ((l18 (listn 18)) (l12 (listn 12)) (l6 (listn 6)) (s 0))
    (dotimes (i 450)
      (setq s (+ s (length (mas l18 l12 l6)))))
    (print s)))

(main)
