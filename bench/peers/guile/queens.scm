;;; queens: list-based incremental backtracking (M. Hiroi's nqueen1):
;;; ps = queens placed so far (most recent first), the "used" set is a
;;; member test on ps, conflict checks the diagonals.  n = 11 (2680
;;; solutions), repeated; prints the sum of the counts.
(define (conflict y ps)
  (let loop ((d 1) (p ps))
    (cond ((null? p) #f)
          ((let ((y1 (car p)))
             (or (= (+ y1 d) y) (= (- y1 d) y)))
           #t)
          (else (loop (+ d 1) (cdr p))))))

(define (nqueen1 xs ps k)
  (if (= k 0)
      1
      (let loop ((l xs) (c 0))
        (if (null? l)
            c
            (let ((x (car l)))
              (if (and (not (memv x ps)) (not (conflict x ps)))
                  (loop (cdr l) (+ c (nqueen1 xs (cons x ps) (- k 1))))
                  (loop (cdr l) c)))))))

(define (range n)
  (let loop ((i (- n 1)) (l '()))
    (if (< i 0) l (loop (- i 1) (cons i l)))))

(define (main)
  (let ((xs (range 11)))
    (let loop ((i 0) (s 0))
      (if (< i 12)
          (loop (+ i 1) (+ s (nqueen1 xs '() 11)))
          (begin (display s) (newline))))))

(main)
