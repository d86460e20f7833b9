(import (chezscheme))
;;; flatqueens: the functional N-queens with flat-map
;;; (nextBadCols / nextGoodCols / innerQ), n = 8 (92 solutions), repeated;
;;; prints the sum of the solution counts.
(define (flat-map f xs)
  (if (null? xs)
      '()
      (let ((r (f (car xs))))          ; f before the rest: it may count
        (append r (flat-map f (cdr xs))))))

(define (filter* p xs)
  (cond ((null? xs) '())
        ((p (car xs)) (cons (car xs) (filter* p (cdr xs))))
        (else (filter* p (cdr xs)))))

(define (range n)
  (let loop ((i (- n 1)) (l '()))
    (if (< i 0) l (loop (- i 1) (cons i l)))))

;; element i of pres (length L) is at distance L - i from the next row
(define (next-bad-cols pres)
  (let ((d (length pres)))
    (flat-map (lambda (e)
                (let ((r (list e (- e d) (+ e d))))
                  (set! d (- d 1))
                  r))
              pres)))

(define (next-good-cols n pres)
  (filter* (lambda (e) (not (memv e (next-bad-cols pres))))
           (range n)))

(define (inner-q n k pres)
  (if (= k 0)
      (list pres)
      (flat-map (lambda (e) (inner-q n (- k 1) (append pres (list e))))
                (next-good-cols n pres))))

(define (n-queens n) (inner-q n n '()))

(define (main)
  (let loop ((i 0) (s 0))
    (if (< i 120)
        (loop (+ i 1) (+ s (length (n-queens 8))))
        (begin (display s) (newline)))))

(main)
