;;; queens-game.lisp — the two-player N-queens game (seed 002, section 2), solved.
;;;
;;; Two players take turns putting a queen on an n x n board on a square that
;;; no queen already there attacks; the player who cannot put one loses.  The
;;; seed: for odd n the first player wins (centre, then mirror the opponent);
;;; n = 2, 4, 6, 8 first player (Nozaki, by hand), n = 10 second player
;;; (Arisawa, HITAC-8410, 100 min), and on the author's PDP-11/20 in assembler
;;; n = 8 first (2 s), n = 10 second (25 min), n = 12 second (6.5 hours).
;;;
;;;   lipq scripts/queens-game.lisp [quick|full|beyond|plain|N ...] [limit=SECONDS]
;;;     quick    n = 1..9 with the primitive, and the plain version for n <= 6
;;;     full     the table for n = 1..12 beside the seed's times, the plain
;;;              version for n <= 10, then the attempts beyond the seed
;;;     beyond   only the attempts beyond the seed: n = 13, 14, 15, 16
;;;     plain    only the plain-lipq version, n = 1..10
;;;     N        one board size with the primitive (both modes)
;;;     limit=S  CPU-time bound per attempt beyond the seed (default 300 s)
;;;   No argument: full.
;;;
;;; The model.  A position is the set A of squares still available (empty and
;;; not attacked), a bitboard: bit r*n+c for the square in row r, column c.
;;; Putting a queen on s leaves (logand A (aref keep s)), where keep[s] is the
;;; board minus every square s attacks (s included).  The queens already on the
;;; board do not matter beyond A, so the game is Node Kayles on the queen graph.
;;; The table key of A is its least image under the 8 symmetries of the square
;;; (bit-min-image with the 7 non-identity permutations), and the moves are
;;; tried most destructive first (:order :logcount: the fewest squares left).
;;;
;;; The solver is the native primitive game-solve (builtins/game.cpp), used
;;; two ways: with the game given as a Lisp function (the children of A,
;;; computed by a lipq closure for every expanded position), and in its native
;;; bitboard mode (the vector keep itself: the search then never calls Lisp).
;;; The plain version at the end uses no primitive: a recursive negamax in
;;; lipq with an `equal' hash table, for comparison.
;;;
;;; Lines starting with ";" are timings (CPU seconds of this process) and notes.

;;; ---- the board ---------------------------------------------------------------

;; (full keep syms): the full board, the vector of keep masks and the list of
;; the 7 non-identity symmetries as square permutation vectors.
(defun qg-board (n)
  (let* ((nn (* n n)) (full (1- (expt 2 nn))) (keep (make-vector nn 0)) (m (1- n)) (syms nil))
    (dotimes (s nn)
      (let ((r (quotient s n)) (c (rem s n)) (att 0))
        (dotimes (s2 nn)
          (let ((r2 (quotient s2 n)) (c2 (rem s2 n)))
            (when (or (= r r2) (= c c2) (= (- r c) (- r2 c2)) (= (+ r c) (+ r2 c2)))
              (setq att (logior att (ash 1 s2))))))
        (aset keep s (logxor full att))))
    ;; the images of (r, c) under rotations by 90, 180, 270 degrees and the 4 reflections
    (dolist (f (list (lambda (r c) (cons c (- m r))) (lambda (r c) (cons (- m r) (- m c)))
                     (lambda (r c) (cons (- m c) r)) (lambda (r c) (cons r (- m c)))
                     (lambda (r c) (cons (- m r) c)) (lambda (r c) (cons c r))
                     (lambda (r c) (cons (- m c) (- m r)))))
      (let ((v (make-vector nn 0)))
        (dotimes (s nn)
          (let ((img (funcall f (quotient s n) (rem s n))))
            (aset v s (+ (* (car img) n) (cdr img)))))
        (push v syms)))
    (list full keep syms)))

;; The game as a Lisp function: the positions after each move, in square order.
(defun qg-children-fn (keep)
  (lambda (a) (mapcar (lambda (s) (logand a (aref keep s))) (bit-indices a))))

(defun qg-square-name (n s) (format nil "(~d,~d)" (1+ (quotient s n)) (1+ (rem s n))))

;; Solve the n x n game: mode :lisp (children by the closure) or :native.
;; Returns (winner move stats cpu-us): winner "first"/"second", move the
;; winning first square (or nil), stats the primitive's plist.
(defun qg-solve (n mode &optional extra)
  (let* ((b (qg-board n)) (full (first b)) (keep (second b)) (syms (third b))
         (t0 (get-internal-run-time))
         (r (apply game-solve full (if (eq mode :native) keep (qg-children-fn keep))
                   :canonical syms :order :logcount :want :move extra))
         (dt (- (get-internal-run-time) t0)))
    ;; r = nil (the player to move, the first player, loses) or (child square)
    (list (if r "first" "second") (if r (cadr r)) (last-game-stats) dt)))

(defun qg-stat (stats key) (cadr (memq key stats)))

;;; ---- the seed's results ----------------------------------------------------------

(defun qg-seed-winner (n)
  (cond ((oddp n) "first") ((<= n 8) "first") (t "second")))
(defun qg-seed-note (n)
  (cond ((= n 1) "odd: first")
        ((= n 2) "first (Nozaki, by hand)")
        ((oddp n) "odd: first (centre + mirror)")
        ((<= n 6) "first (Nozaki, by hand)")
        ((= n 8) "first (by hand; PDP-11/20 asm < 2 s)")
        ((= n 10) "second (HITAC-8410 100 min; PDP-11/20 25 min)")
        ((= n 12) "second (PDP-11/20 6.5 h)")
        (t "-")))

;;; ---- the table n = 1..12 ----------------------------------------------------------

(defun qg-table (ns)
  (format t "~%The two-player N-queens game: winner, a winning first move (row,col) 1-based,~%")
  (format t "positions expanded (nodes), and CPU time: the game as a Lisp function / native mode.~%")
  (format t "~3a ~7a ~9a ~9a ~10a ~10a  ~a~%" "n" "winner" "move" "nodes" "lisp fn s" "native s" "seed")
  (let ((all-agree t))
    (dolist (n ns)
      (let* ((rl (qg-solve n :lisp)) (rn (qg-solve n :native)))
        (unless (and (equal (first rl) (first rn)) (equal (first rl) (qg-seed-winner n)))
          (setq all-agree nil))
        (format t "~3a ~7a ~9a ~9a ~10a ~10a  ~a~%" n (first rl)
                (if (second rl) (qg-square-name n (second rl)) "-")
                (qg-stat (third rl) :nodes)
                (seconds-string (fourth rl) 3) (seconds-string (fourth rn) 3)
                (qg-seed-note n))))
    (format t "~a~%" (if all-agree "all winners agree with the seed (both modes)"
                         "DISAGREEMENT with the seed"))
    all-agree))

;; For a second-player win, a winning reply to each first move (one per symmetry class).
(defun qg-replies (n)
  (let* ((b (qg-board n)) (full (first b)) (keep (second b)) (syms (third b)) (seen nil) (out nil))
    (dolist (s (bit-indices full))
      (let ((cls (bit-min-image (ash 1 s) syms)))
        (unless (member cls seen)
          (push cls seen)
          (let ((r (game-solve (logand full (aref keep s)) keep :canonical syms :order :logcount :want :move)))
            (push (list s (if r (cadr r))) out)))))
    (nreverse out)))

(defun qg-print-replies (n)
  (format t "n = ~d, second player wins: a winning reply to each first move (one per symmetry class):~%" n)
  (let ((col 0))
    (dolist (p (qg-replies n))
      (format t "  ~a->~a" (qg-square-name n (first p)) (if (second p) (qg-square-name n (second p)) "NONE"))
      (setq col (1+ col))
      (when (= (rem col 6) 0) (terpri)))
    (fresh-line)))

;;; ---- beyond the seed -----------------------------------------------------------------

(defvar *qg-limit* 300)

;; Native mode, bounded by *qg-limit* CPU seconds; the table skips positions
;; with fewer than 8 squares (re-searching them is cheaper than storing them).
;; A progress function counts the first moves decided, for an honest report
;; when the bound is reached.
(defvar *qg-root-done* 0)
(defvar *qg-root-total* 0)
(defun qg-beyond (ns)
  (format t "~%Beyond the seed (native mode, at most ~d CPU s each, table for |A| >= 8):~%" *qg-limit*)
  (dolist (n ns)
    (setq *qg-root-done* 0 *qg-root-total* (* n n))
    (let* ((t0 (get-internal-run-time))
           (r (errset (qg-solve n :native
                                (list :max-cpu-seconds *qg-limit* :tt-min-bits 8 :table-limit (ash 1 26)
                                      :progress (lambda (i k move value nodes)
                                                  (setq *qg-root-done* (1+ i)))))
                      nil))
           (dt (- (get-internal-run-time) t0))
           (st (last-game-stats)))
      (if r
          (let ((r (car r)))
            (format t "n = ~d: ~a player wins~a; ~d nodes, ~d table entries, ~a CPU s~%" n (first r)
                    (if (second r) (concat ", first move " (qg-square-name n (second r))) "")
                    (qg-stat st :nodes) (qg-stat st :entries) (seconds-string dt 1)))
          (format t "n = ~d: not settled: ~a; ~d of the ~d first moves refuted, ~d nodes, ~d table entries, ~a CPU s~%"
                  n (error-message) *qg-root-done* *qg-root-total*
                  (qg-stat st :nodes) (qg-stat st :entries) (seconds-string dt 1))))))

;;; ---- the plain version: no primitive ---------------------------------------------------

;; Recursive negamax on the available set A, most destructive move first, with
;; an `equal' hash table on A (no symmetry reduction).  Only lipq arithmetic.
(defvar *qgp-table* nil)
(defvar *qgp-nodes* 0)

(defun qgp-children (a keep nn)
  (let ((kids nil))
    (dotimes (s nn)
      (when (logbitp s a) (push (logand a (aref keep s)) kids)))
    (sort kids (lambda (x y) (< (logcount x) (logcount y))))))

(defun qgp-wins (a keep nn)
  (let ((known (gethash a *qgp-table*)))
    (if known
        (eq known 'win)
        (let ((win nil))
          (setq *qgp-nodes* (1+ *qgp-nodes*))
          (dolist (c (qgp-children a keep nn))
            (when (not (qgp-wins c keep nn))
              (setq win t)
              (return nil)))
          (puthash a (if win 'win 'loss) *qgp-table*)
          win))))

;; (winner nodes cpu-us)
(defun qgp-solve (n)
  (let* ((b (qg-board n)) (t0 (get-internal-run-time)))
    (setq *qgp-table* (make-hash-table 'equal) *qgp-nodes* 0)
    (let ((w (qgp-wins (first b) (second b) (* n n))))
      (list (if w "first" "second") *qgp-nodes* (- (get-internal-run-time) t0)))))

(defun qg-plain (ns)
  (format t "~%The plain-lipq version (recursive negamax, hash table on A, no symmetry, no primitive):~%")
  (format t "~3a ~7a ~9a ~9a~%" "n" "winner" "nodes" "CPU s")
  (dolist (n ns)
    (let ((r (qgp-solve n)))
      (format t "~3a ~7a ~9a ~9a~a~%" n (first r) (second r) (seconds-string (third r) 2)
              (if (equal (first r) (qg-seed-winner n)) "" "   <-- DISAGREES with the seed")))))

;;; ---- main --------------------------------------------------------------------------------

(defun qg-iota (a b) (if (> a b) nil (cons a (qg-iota (1+ a) b))))

(defun queens-game-main (args)
  (let ((modes nil))
    (dolist (a args)
      (cond ((and (> (string-length a) 6) (string= (substring a 0 6) "limit="))
             (setq *qg-limit* (string-to-number (substring a 6))))
            (t (push a modes))))
    (setq modes (nreverse modes))
    (when (null modes) (setq modes '("full")))
    (dolist (m modes)
      (cond ((string= m "quick") (qg-table (qg-iota 1 9)) (qg-plain (qg-iota 1 6)))
            ((string= m "full")
             (qg-table (qg-iota 1 12))
             (qg-print-replies 10)
             (qg-plain (qg-iota 1 10))
             (qg-beyond '(13 14 15 16)))
            ((string= m "beyond") (qg-beyond '(13 14 15 16)))
            ((string= m "plain") (qg-plain (qg-iota 1 10)))
            ((string-to-number m) (qg-table (list (string-to-number m))))
            (t (error "queens-game: unknown argument ~s (quick, full, beyond, plain, N, limit=S)" m))))))

;;; ---- demo ---------------------------------------------------------------------------------

;; (label value seed's-value) triples for scripts/demo.lisp.
(defun queens-game-demo ()
  (list (list "queens-game: winners n=2,4,6,8 (primitive)"
              (mapcar (lambda (n) (first (qg-solve n :lisp))) '(2 4 6 8)) '("first" "first" "first" "first"))
        (list "queens-game: winner n=10 (primitive)" (first (qg-solve 10 :native)) "second")
        (list "queens-game: winners n=3,5,7,9 (odd)"
              (mapcar (lambda (n) (first (qg-solve n :native))) '(3 5 7 9)) '("first" "first" "first" "first"))))

(unless (boundp '*seeds-demo*)
  (queens-game-main *args*))
