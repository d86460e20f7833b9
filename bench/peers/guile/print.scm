;;; print: print a large structure with shared tails, cycles and a shared
;;; DAG with SRFI-38 write-with-shared-structure (Guile's write has no
;;; readable datum labels), read it back with read-with-shared-structure,
;;; verify the sharing; repeated.  Prints the sum of the per-round checksums.
(use-modules (srfi srfi-38))

(define (build n)
  (let loop ((i (- n 1)) (l '()))
    (if (< i 0) l (loop (- i 1) (cons i l)))))

;; nodes 0..m in order; node i = (i . node[(i-1)/3]), node 0 = (0):
;; a tree of lists sharing their tails, like search states.
(define (make-tree m)
  (let* ((nodes (list (list 0))))
    (let loop ((i 1) (tail nodes) (pp nodes))
      (if (> i m)
          nodes
          (begin
            (set-cdr! tail (list (cons i (car pp))))
            (loop (+ i 1) (cdr tail) (if (= (modulo i 3) 0) (cdr pp) pp)))))))

;; circular list (start 1 2 .. len-1 start 1 ...)
(define (make-cycle start len)
  (let ((l (build len)))
    (set-cdr! (last-pair l) l)
    (set-car! l start)
    l))

(define (make-dag depth)
  (if (= depth 0)
      (list 'leaf)
      (let ((s (make-dag (- depth 1))))
        (list s s))))

(define (make-structure)
  (let loop ((i 299) (cycles '()))
    (if (< i 0)
        (list (make-tree 3000) cycles (make-dag 20))
        (loop (- i 1) (cons (make-cycle i (+ 2 (modulo i 5))) cycles)))))

(define (nthcdr n l) (if (= n 0) l (nthcdr (- n 1) (cdr l))))

(define (check w)
  (let ((nodes (car w)) (cycles (cadr w)) (dag (caddr w)) (s 0))
    (let loop ((l nodes) (pp nodes) (i 0))          ; 4501500 + 3000
      (if (not (null? l))
          (let ((node (car l)))
            (set! s (+ s (car node)))
            (if (> i 0)
                (begin
                  (if (eq? (cdr node) (car pp)) (set! s (+ s 1)))
                  (loop (cdr l) (if (= (modulo i 3) 0) (cdr pp) pp) (+ i 1)))
                (loop (cdr l) pp (+ i 1))))))
    (let loop ((l cycles) (i 0))                     ; 300 + 44850
      (if (not (null? l))
          (let ((c (car l)))
            (if (eq? (nthcdr (+ 2 (modulo i 5)) c) c)
                (set! s (+ s 1 (car c))))
            (loop (cdr l) (+ i 1)))))
    (let loop ((d dag))                              ; 20
      (if (and (pair? (cdr d)) (eq? (car d) (cadr d)))
          (begin (set! s (+ s 1)) (loop (car d)))))
    s))

(define (main)
  (let ((w (make-structure)))
    (let loop ((i 0) (total 0))
      (if (< i 54)
          (let* ((str (call-with-output-string
                       (lambda (port) (write-with-shared-structure w port))))
                 (w2 (call-with-input-string str read-with-shared-structure)))
            (loop (+ i 1) (+ total (check w2))))
          (begin (display total) (newline))))))

(main)
