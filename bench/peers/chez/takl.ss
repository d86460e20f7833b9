(import (chezscheme))
;;; takl: Gabriel's TAKL, tak on lists of length 18 12 6; repeated, sums the
;;; lengths of the results (7 each).
(define (listn n)
  (if (= n 0)
      '()
      (cons n (listn (- n 1)))))

(define (shorterp x y)
  (and (not (null? y))
       (or (null? x) (shorterp (cdr x) (cdr y)))))

(define (mas x y z)
  (if (not (shorterp y x))
      z
      (mas (mas (cdr x) y z)
           (mas (cdr y) z x)
           (mas (cdr z) x y))))

(define (main)
  (let ((l18 (listn 18)) (l12 (listn 12)) (l6 (listn 6)))
    (let loop ((i 0) (s 0))
      (if (< i 450)
          (loop (+ i 1) (+ s (length (mas l18 l12 l6))))
          (begin (display s) (newline))))))

(main)
