;;; queens: list-based incremental backtracking (M. Hiroi's nqueen1):
;;; ps = queens placed so far (most recent first), the "used" set is a
;;; member test on ps, conflict checks the diagonals.  n = 11 (2680
;;; solutions), repeated; prints the sum of the counts.
(defun conflict (y ps)
  (let ((d 1) (hit nil))
    (while (and ps (not hit))
      (let ((y1 (car ps)))
        (when (or (= (+ y1 d) y) (= (- y1 d) y))
          (setq hit t)))
      (setq d (1+ d))
      (setq ps (cdr ps)))
    hit))

(defun nqueen1 (xs ps k)
  (if (= k 0)
      1
      (let ((c 0))
        (dolist (x xs)
          (when (and (not (member x ps)) (not (conflict x ps)))
            (setq c (+ c (nqueen1 xs (cons x ps) (1- k))))))
        c)))

(defun range (n)
  (let ((l nil) (i (1- n)))
    (while (>= i 0)
      (setq l (cons i l))
      (setq i (1- i)))
    l))

(defun main ()
  (let ((xs (range 11)) (s 0))
    (dotimes (i 12)
      (setq s (+ s (nqueen1 xs nil 11))))
    (print s)))

(main)
