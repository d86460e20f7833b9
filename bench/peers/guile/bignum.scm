;;; bignum: 5000! by repeated multiplication, then its decimal digit sum by
;;; repeated division by 10 (quotient and remainder as two operations);
;;; repeated; prints the sum of the digit sums (67698 each).
(define (fact n)
  (let loop ((i 2) (f 1))
    (if (> i n) f (loop (+ i 1) (* f i)))))

(define (digit-sum x)
  (let loop ((x x) (s 0))
    (if (> x 0)
        (loop (quotient x 10) (+ s (remainder x 10)))
        s)))

(define (main)
  (let loop ((i 0) (s 0))
    (if (< i 5)
        (loop (+ i 1) (+ s (digit-sum (fact 5000))))
        (begin (display s) (newline)))))

(main)
