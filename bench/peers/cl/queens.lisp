;;; queens: list-based incremental backtracking (M. Hiroi's nqueen1):
;;; ps = queens placed so far (most recent first), the "used" set is a
;;; member test on ps, conflict checks the diagonals.  n = 11 (2680
;;; solutions), repeated; prints the sum of the counts.
(defun conflict (y ps)
  (do ((d 1 (+ d 1))
       (p ps (cdr p)))
      ((null p) nil)
    (let ((y1 (car p)))
      (when (or (= (+ y1 d) y) (= (- y1 d) y))
        (return t)))))

(defun nqueen1 (xs ps k)
  (if (= k 0)
      1
      (let ((c 0))
        (dolist (x xs)
          (when (and (not (member x ps)) (not (conflict x ps)))
            (setq c (+ c (nqueen1 xs (cons x ps) (- k 1))))))
        c)))

(defun range (n)
  (let ((l nil))
    (do ((i (- n 1) (- i 1))) ((< i 0) l)
      (setq l (cons i l)))))

(defun main ()
  (let ((xs (range 11)) (s 0))
    (dotimes (i 12)
      (setq s (+ s (nqueen1 xs nil 11))))
    (format t "~D~%" s)))

(main)
