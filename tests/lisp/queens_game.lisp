;;; queens_game.lisp — game-solve (builtins/game.cpp), the bit permutation
;;; helpers (builtins/bitperm.cpp) and the two-player N-queens game of
;;; scripts/queens-game.lisp: the winners for n = 1..10 (11 and 12 when not
;;; LIPQ_TEST_QUICK), Grundy values of Nim and Kayles, options and errors.

(require 'test)

(defvar *seeds-demo* t)          ; load the script without running it
(load "scripts/queens-game.lisp")

(defvar *quick* (getenv "LIPQ_TEST_QUICK"))

;;; ---- bit helpers ------------------------------------------------------------------

(assert-equal nil (bit-indices 0))
(assert-equal '(0 2 5) (bit-indices 37))
(assert-equal '(3 70 130) (bit-indices (+ 8 (expt 2 70) (expt 2 130))))
(assert-equal 6 (bit-permute 3 #(1 2 0)))
(assert-equal (expt 2 99) (bit-permute 1 (let ((v (make-vector 100 0))) (aset v 0 99) v)))
;; reversing 100 bits twice is the identity
(let ((rev (make-vector 100 0)) (x (+ 12345 (expt 3 60))))
  (dotimes (i 100) (aset rev i (- 99 i)))
  (assert-equal x (bit-permute (bit-permute x rev) rev))
  (assert-true (/= x (bit-permute x rev))))
(assert-equal 1 (bit-min-image 4 '(#(2 1 0) #(0 2 1))))
(assert-equal 4 (bit-min-image 4 nil))
(assert-error (bit-permute 8 #(0 1 2)) "beyond")
(assert-error (bit-permute -1 #(0 1 2)) "non-negative")
(assert-error (bit-permute 1 #(a)) "bit position")
(assert-error (bit-min-image 1 '(#(0 1) #(0))) "differ in length")

;; the symmetry classes of the squares of an n x n board: 1, 1, 3, 3, 6 for n = 1..5
(defun qgt-classes (n)
  (let* ((b (qg-board n)) (seen nil))
    (dotimes (s (* n n)) (pushnew (bit-min-image (ash 1 s) (third b)) seen))
    (length seen)))
(assert-equal '(1 1 3 3 6 6) (mapcar qgt-classes '(1 2 3 4 5 6)))

;;; ---- Nim and Kayles: Grundy values ---------------------------------------------------

;; Nim on a sorted list of heaps: the Grundy value is the xor of the heaps.
(defun nim-children (heaps)
  (let ((out nil))
    (do ((pre nil (cons (car rest) pre)) (rest heaps (cdr rest))) ((null rest))
      (dotimes (k (car rest))
        (push (sort (append (reverse pre) (if (> k 0) (list k)) (cdr rest)) (lambda (a b) (< a b))) out)))
    out))

(assert-equal 0 (game-solve '(1 2 3) nim-children :want :grundy))
(assert-equal (logxor 3 5 7) (game-solve '(3 5 7) nim-children :want :grundy))
(assert-equal (logxor 2 4 5 6) (game-solve '(2 4 5 6) nim-children :want :grundy))
(assert-false (game-solve '(1 2 3) nim-children))
(assert-true (game-solve '(1 2 4) nim-children))
;; the winning move goes to a position of nim-sum 0
(let ((r (game-solve '(1 2 4) nim-children :want :move)))
  (assert-equal 0 (apply logxor (car r)))
  (assert-true (integerp (cadr r))))
(assert-equal nil (game-solve '(1 2 3) nim-children :want :move))
;; a canonical function (sorting) and a key function (strings: the `equal' table)
(assert-equal 1 (game-solve '(3 5 7) nim-children :want :grundy :canonical (lambda (p) (sort (copy-list p) <))))
(assert-equal 1 (game-solve '(3 5 7) nim-children :want :grundy :key prin1-to-string))
(assert-true (> (cadr (memq :hits (last-game-stats))) 0))
;; misere Nim: with every heap 1, the player to move wins iff the count is even
(assert-true (game-solve '(1 1) nim-children :misere t))
(assert-false (game-solve '(1 1 1) nim-children :misere t))
(assert-false (game-solve '(1 1 1) nim-children :misere t :want :move))
(assert-true (game-solve '(1 1 1) nim-children))

;; A single Nim heap as an integer, with integer keys: grundy(k) = k.
(defun heap-children (k) (let ((out nil)) (dotimes (i k) (push i out)) out))
(assert-equal 37 (game-solve 37 heap-children :want :grundy))
(assert-true (<= 38 (cadr (memq :entries (last-game-stats)))))
;; Subtraction game {1, 2, 3}: grundy(n) = n mod 4, a deep game (an explicit stack)
(defun sub3-children (k) (remove-if (lambda (x) (< x 0)) (list (- k 1) (- k 2) (- k 3))))
(assert-equal (rem 2001 4) (game-solve 2001 sub3-children :want :grundy))
(assert-true (>= (cadr (memq :max-depth (last-game-stats))) 500))
(assert-false (game-solve (if *quick* 400 20000) sub3-children))

;; Kayles (knock down 1 or 2 adjacent pins of a row) as Node Kayles would be
;; different; here rows of pins, position = sorted list of row lengths.
;; Known Grundy values of Kayles rows 0..11: 0 1 2 3 1 4 3 2 1 4 2 6.
(defun kayles-children (rows)
  (let ((out nil))
    (do ((pre nil (cons (car rest) pre)) (rest rows (cdr rest))) ((null rest))
      (let ((r (car rest)))
        (dolist (take '(1 2))
          (dotimes (left (1+ (- r take)))
            (let ((right (- r take left)))
              (push (sort (remove 0 (append (reverse pre) (list left right) (cdr rest))) <) out))))))
    out))
(assert-equal '(0 1 2 3 1 4 3 2 1 4 2 6)
              (mapcar (lambda (n) (game-solve (if (= n 0) nil (list n)) kayles-children :want :grundy))
                      '(0 1 2 3 4 5 6 7 8 9 10 11)))

;;; ---- options and errors -------------------------------------------------------------

(assert-error (game-solve 3 heap-children :want :draw) ":want")
(assert-error (game-solve 3 heap-children :colour 1) "unknown option")
(assert-error (game-solve 3 heap-children :want) "pairs")
(assert-error (game-solve 3 (lambda (k) 'oops)) "not a list")
(assert-error (game-solve 3 (lambda (k) (error "boom ~d" k))) "boom")
(assert-error (game-solve 3 #(1 0)) "keeps its own bit")
(assert-error (game-solve 8 #(0 0 0)) "beyond")
(assert-error (game-solve -1 #(0 0 0)) "non-negative")
(assert-error (game-solve 3 heap-children :misere t :want :grundy) "misere")
(assert-error (game-solve 60 sub3-children :max-nodes 10) "node limit")
(assert-true (<= (cadr (memq :nodes (last-game-stats))) 11))
(assert-error (game-solve 3 heap-children :order (lambda (x) 'a)) "score")
;; The native mode is Node Kayles: on a path of k vertices (a move removes a vertex and
;; its neighbours) it is Dawson's Kayles with k+1 pins: Grundy values 1 1 2 0 3 1 for k = 1..6.
(defun path-masks (k)
  (let ((v (make-vector k 0)) (full (1- (ash 1 k))))
    (dotimes (i k)
      (aset v i (logand full (lognot (logior (ash 1 i) (ash 1 (1+ i)) (if (> i 0) (ash 1 (1- i)) 0))))))
    v))
(assert-equal '(1 1 2 0 3 1)
              (mapcar (lambda (k) (game-solve (1- (ash 1 k)) (path-masks k) :want :grundy)) '(1 2 3 4 5 6)))
;; the same through the Lisp mode
(assert-equal '(1 1 2 0 3 1)
              (mapcar (lambda (k)
                        (let ((m (path-masks k)))
                          (game-solve (1- (ash 1 k))
                                      (lambda (a) (mapcar (lambda (s) (logand a (aref m s))) (bit-indices a)))
                                      :want :grundy)))
                      '(1 2 3 4 5 6)))

;;; ---- the queens game ---------------------------------------------------------------------

(defun qgt-winner (n mode) (first (qg-solve n mode)))

;; n = 1..10 in the native mode: odd n first, 2 4 6 8 first, 10 second
(let ((ns (qg-iota 1 (if *quick* 8 10))))
  (assert-equal (mapcar (lambda (n) (if (or (oddp n) (<= n 8)) "first" "second")) ns)
                (mapcar (lambda (n) (qgt-winner n :native)) ns)))
(assert-equal 10 (length (qg-iota 1 10)))
;; the Lisp-function mode agrees
(assert-equal (mapcar (lambda (n) (qgt-winner n :native)) (qg-iota 1 (if *quick* 6 9)))
              (mapcar (lambda (n) (qgt-winner n :lisp)) (qg-iota 1 (if *quick* 6 9))))
(unless *quick*
  (assert-equal "second" (qgt-winner 10 :lisp)))

;; the winning first move really wins: after it, the opponent has no winning move
(let* ((n 8) (r (qg-solve n :native)) (b (qg-board n)) (s (second r)))
  (assert-true (integerp s))
  (assert-false (game-solve (logand (first b) (aref (second b) s)) (second b) :canonical (third b))))
;; without symmetry and ordering the result is the same
(let ((b (qg-board 6)))
  (assert-true (game-solve (first b) (second b)))
  (assert-true (game-solve (first b) (qg-children-fn (second b)) :tt-min-bits 4)))

;; Grundy values of the start (Node Kayles on the queen graph): n = 2..6 are 1 2 1 3 1
(assert-equal '(1 2 1 3 1)
              (mapcar (lambda (n) (let ((b (qg-board n)))
                                    (game-solve (first b) (second b) :canonical (third b) :want :grundy)))
                      '(2 3 4 5 6)))

;; the plain version (no primitive) agrees for n <= 6 (<= 4 quick)
(assert-equal (mapcar (lambda (n) (qgt-winner n :native)) (qg-iota 1 (if *quick* 4 6)))
              (mapcar (lambda (n) (first (qgp-solve n))) (qg-iota 1 (if *quick* 4 6))))

;; n = 11 and 12 (a few CPU seconds in the native mode)
(unless *quick*
  (assert-equal "first" (qgt-winner 11 :native))
  (let ((t0 (get-internal-run-time)))
    (assert-equal "second" (qgt-winner 12 :native))
    (assert-true (< (- (get-internal-run-time) t0) 60000000))))

(test-summary)
