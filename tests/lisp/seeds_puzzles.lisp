;;; seeds_puzzles.lisp — unit checks of the seed puzzle scripts' functions,
;;; small sizes only (this file also runs under GC torture).  The scripts are
;;; loaded without running their main programs (*seeds-demo* is bound).

(require 'test)
(defvar *seeds-demo* t)
(load "scripts/queens.lisp")
(load "scripts/queue.lisp")
(load "scripts/keiro.lisp")
(load "scripts/eight.lisp")
(load "scripts/knight.lisp")

(defvar *small* (if (getenv "LIPQ_TEST_QUICK") 5 7))

;;; queens
(assert-true (queen-attacks-p 2 1 '(1)))          ; diagonal neighbour
(assert-false (queen-attacks-p 3 1 '(1)))
(assert-true (queen-attacks-p 3 1 '(0 1)))        ; two columns back
(assert-true (queen-safe-p '(1 3 0 2)))
(assert-false (queen-safe-p '(0 2 1 3)))
;; the seed 001 trace of (nqueens 4)
(assert-equal '(2 3) ((next-good-cols 4) '(0)))
(assert-equal '(1) ((next-good-cols 4) '(0 3)))
(assert-equal nil ((next-good-cols 4) '(0 3 1)))
(assert-equal '(3) ((next-good-cols 4) '(1)))
(assert-equal '(0 1) ((next-good-cols 4) '(3)))
(assert-equal '((1 3 0 2) (2 0 3 1)) (nqueens 4))
;; every method gives the same count for n = 1 .. *small* (1 0 0 2 10 4 40)
(do ((n 1 (1+ n))) ((> n *small*))
  (let ((c (length (nqueens n))))
    (assert-equal c (nqueen0 n))
    (assert-equal c (nqueen1-count n))
    (assert-equal c (nqueens-bitboard n))
    (when (boundp 'nqueens-count) (assert-equal c (nqueens-count n)))
    (when (boundp 'dfs) (assert-equal c (nqueen1-dfs n)))
    (when (boundp 'map-permutations) (assert-equal c (nqueen0-native n)))))
;; nqueen1 and the functional version list the solutions in the same order
(let ((sols nil))
  (nqueen1 (lambda (b) (push b sols)) (iota 6) 6)
  (assert-equal (nqueens 6) (nreverse sols)))
;; the seed's permutation: lexicographic, k-permutations too
(let ((ps nil))
  (permutation (lambda (p) (push p ps)) 2 '(0 1 2))
  (assert-equal '((0 1) (0 2) (1 0) (1 2) (2 0) (2 1)) (nreverse ps)))
(assert-equal "[[1,3,0,2],[2,0,3,1]]" (json-string '((1 3 0 2) (2 0 3 1))))

;;; queue and ring buffer
(let ((q (make-two-stack-queue)))
  (assert-true (funcall q 'is-empty))
  (assert-equal 1 (funcall q 'enqueue 1))
  (funcall q 'enqueue 2)
  (assert-equal 1 (funcall q 'peek))      ; the bottom of the rear stack
  (assert-equal 1 (funcall q 'dequeue))
  (funcall q 'enqueue 3)
  (assert-equal 2 (funcall q 'peek))
  (assert-equal 2 (funcall q 'length))
  (assert-equal '(2 3) (list (funcall q 'dequeue) (funcall q 'dequeue)))
  (assert-equal nil (funcall q 'dequeue))
  (assert-error (funcall q 'frobnicate) "unknown message"))
(let ((r (make-ring-buffer 2)))
  (assert-equal 1 (funcall r 'enqueue 1))
  (assert-equal 2 (funcall r 'enqueue 2))
  (assert-true (funcall r 'is-full))
  (assert-equal nil (funcall r 'enqueue 3))        ; full: refused
  (assert-equal 1 (funcall r 'dequeue))
  (assert-equal 4 (funcall r 'enqueue 4))          ; wraps around
  (assert-equal '(2 4) (list (funcall r 'dequeue) (funcall r 'dequeue)))
  (assert-equal nil (funcall r 'peek)))
(assert-equal "true" (js-string t))
(assert-equal "false" (js-string nil))

;;; keiro
(assert-equal "[ 0, 2, 4, 6 ]" (js-array-string '(0 2 4 6)))
(let ((routes nil))
  (keiro-dfs (lambda (p) (push p routes)) 6 (list 0))
  (assert-equal '((0 1 2 4 6) (0 1 3 4 6) (0 2 1 3 4 6) (0 2 4 6)) (nreverse routes)))
(let ((routes nil))
  (keiro-bfs (lambda (p) (push p routes)) 0 6)
  (assert-equal '(4 5 5 6) (mapcar #'length (nreverse routes))))
(let ((routes nil))                     ; a route to the start itself
  (keiro-bfs (lambda (p) (push p routes)) 5 5)
  (assert-equal '((5)) routes))
(assert-equal (keiro-lines-by-hand) (keiro-lines-by-hand))
(when (boundp 'dfs)
  (assert-equal (keiro-lines-by-hand) (keiro-lines-with-drivers)))

;;; eight
(assert-equal #(1 2 3 4 5 6 7 0 8) (eight-move #(1 2 3 4 5 6 7 8 0) 7 8))
(assert-equal 8 (eight-space #(1 2 3 4 5 6 7 8 0)))
(assert-equal "1,2,3,4,5,6,7,8,0" (eight-board-string *eight-goal*))
;; a short instance: two moves from the goal
(let ((answer (eight-answer (eight-bfs #(1 2 3 4 5 6 0 7 8) *eight-goal*))))
  (assert-equal '(#(1 2 3 4 5 6 0 7 8) #(1 2 3 4 5 6 7 0 8) #(1 2 3 4 5 6 7 8 0)) answer))
(assert-equal '(#(1 2 3 4 5 0 7 8 6) #(1 2 3 4 5 6 7 0 8)) (eight-successors *eight-goal*))

;;; knight: board layout
(let ((b (knight-make-board)))
  (assert-equal -1 (board-ref b 1 2))
  (assert-equal 0 (board-ref b 2 2))
  (assert-equal 0 (board-ref b 6 6))
  (assert-equal -1 (board-ref b 7 6))
  (assert-equal '("0,0,0,0,0" "0,0,0,0,0" "0,0,0,0,0" "0,0,0,0,0" "0,0,0,0,0") (knight-board-lines b)))
(assert-equal '((39 20) (31 20)) (knight-extend '(20)))   ; from the corner: only two jumps
(assert-equal '("1,0,0,0,0" "0,0,2,0,0" "0,0,0,0,0" "0,0,0,0,0" "0,0,0,0,0") (knight-path-lines '(31 20)))

(test-summary)
