(import (chezscheme))
;;; tak: Takeuchi function, (tak 18 12 6) = 7, repeated; prints the sum.
(define (tak x y z)
  (if (not (< y x))
      z
      (tak (tak (- x 1) y z)
           (tak (- y 1) z x)
           (tak (- z 1) x y))))

(define (main)
  (let loop ((i 0) (s 0))
    (if (< i 2500)
        (loop (+ i 1) (+ s (tak 18 12 6)))
        (begin (display s) (newline)))))

(main)
