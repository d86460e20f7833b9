(import (chezscheme))
;;; tait: Tait's problem (scripts/tait.lisp, "the paper's program"), one pair
;;; of empties, n = 9: 1 2 1 2 ... 1 2 0 0; a move lifts two adjacent stones
;;; into two adjacent empty cells, order kept.  Depth-first search to depth n,
;;; children in the paper's order (source p, then target q, left to right),
;;; pruned by the paper's bound on the difference D' (after i >= 2 moves,
;;; D' <= 2(n-i)+1); a state at depth n with D' = 1 is a solution.  32
;;; solutions; repeated; prints the sum of the counts.
(define (tait-start n)
  (let loop ((i 0) (s (list 0 0)))
    (if (< i n) (loop (+ i 1) (cons 1 (cons 2 s))) s)))

(define (stone-changes s)
  (let loop ((s s) (c 0) (prev 0))
    (if (null? s)
        c
        (let ((x (car s)))
          (if (not (= x 0))
              (loop (cdr s) (if (and (not (= prev 0)) (not (= x prev))) (+ c 1) c) x)
              (loop (cdr s) c prev))))))

(define (interior-runs s)
  (let loop ((s s) (g 0) (seen #f) (gap #f))
    (cond ((null? s) g)
          ((= (car s) 0) (loop (cdr s) g seen (if seen #t gap)))
          (else (loop (cdr s) (if gap (+ g 1) g) #t #f)))))

(define (dprime s) (+ (stone-changes s) (interior-runs s)))

(define (empty-pairs s q)
  (cond ((null? (cdr s)) '())
        ((and (= (car s) 0) (= (cadr s) 0)) (cons q (empty-pairs (cdr s) (+ q 1))))
        (else (empty-pairs (cdr s) (+ q 1)))))

(define (move-state s i p q a b)
  (if (null? s)
      '()
      (cons (cond ((= i p) 0) ((= i (+ p 1)) 0) ((= i q) a) ((= i (+ q 1)) b) (else (car s)))
            (move-state (cdr s) (+ i 1) p q a b))))

(define (tait-search s level n)
  (if (= level n)
      (if (= (dprime s) 1) 1 0)
      (let ((targets (empty-pairs s 0)) (i (+ level 1)))
        (let loop ((ptr s) (p 0) (c 0))
          (if (null? (cdr ptr))
              c
              (loop (cdr ptr) (+ p 1)
                    (if (and (not (= (car ptr) 0)) (not (= (cadr ptr) 0)))
                        (let tloop ((ts targets) (c c))
                          (if (null? ts)
                              c
                              (let ((child (move-state s 0 p (car ts) (car ptr) (cadr ptr))))
                                (tloop (cdr ts)
                                       (if (or (< i 2) (<= (dprime child) (+ (* 2 (- n i)) 1)))
                                           (+ c (tait-search child i n))
                                           c)))))
                        c)))))))

(define (main)
  (let loop ((i 0) (s 0))
    (if (< i 15)
        (loop (+ i 1) (+ s (tait-search (tait-start 9) 0 9)))
        (begin (display s) (newline)))))

(main)
