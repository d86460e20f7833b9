(import (chezscheme))
;;; cons: allocation-heavy list work: build (0 .. n-1), map 1+, reverse, sum;
;;; repeated; prints the total.
(define (build n)
  (let loop ((i (- n 1)) (l '()))
    (if (< i 0) l (loop (- i 1) (cons i l)))))

(define (sum l)
  (let loop ((l l) (s 0))
    (if (null? l) s (loop (cdr l) (+ s (car l))))))

(define (main)
  (let loop ((i 0) (total 0))
    (if (< i 13)
        (let* ((l (build 1000000))
               (m (map (lambda (x) (+ x 1)) l))
               (r (reverse m)))
          (loop (+ i 1) (+ total (sum r))))
        (begin (display total) (newline)))))

(main)
