;;; tait.lisp — Tait's problem (おしどりの遊び), Takeuchi & Okuno, section 4.
;;;
;;; 2n stones alternate, 1 2 1 2 ... 1 2, with empty cells 0 0 at the right end.
;;; A move lifts the stones of two adjacent cells p, p+1 and puts them, order
;;; kept, into two adjacent cells q, q+1 that were empty. Goal: all 1s in one
;;; block and all 2s in another (either colour first, empties outside the
;;; block), in the minimum number of moves, which is n.
;;;
;;;   lipq scripts/tait.lisp            the paper's tables, the bound check, n = 11..14
;;;   lipq scripts/tait.lisp quick      the same, small (n <= 8, n <= 12 exact)
;;;   lipq scripts/tait.lisp full       also the paper-faithful DFS to n = 10 on both
;;;                                     boards with both drivers, and exact counts as
;;;                                     far as *tait-big-seconds* (default 300 s) allow
;;;   lipq scripts/tait.lisp tree [L [n]]   search-tree snapshot(s) with $n: labels
;;;                                     (default: the paper's two figures, n = 5)
;;;   lipq scripts/tait.lisp solution [n]   the first solution in the paper's format
;;;
;;; Three engines, all in lipq:
;;;  1. The paper's program: states are lists of cells, search nodes are quad
;;;     cells #q(state parent next-expand-pointer level), the difference D'
;;;     prunes with the paper's bound (2); driven by hand-written recursion or
;;;     by the native DFS primitive (dfs).
;;;  2. Integer states (stone colours as bits + the set of empty cells as bits)
;;;     counted layer by layer in hash tables, with the paper's bound or with a
;;;     provably safe bound: the exact counts.
;;;  3. Meet in the middle on integer states for larger n (one pair).

;;; ------------------------------------------------------------------
;;; The board and the differences, on lists of cells (0 = empty)

(defun tait-start (n pairs)
  (let ((s nil))
    (dotimes (i (* 2 pairs)) (push 0 s))
    (dotimes (i n) (push 2 s) (push 1 s))
    s))

;; D of formula (1), read as the paper's lemma and solution require: the
;; number of colour changes in the stone sequence, looking through empty cells
;; (a change across an interior gap counts once).
(defun stone-changes (s)
  (let ((c 0) (prev 0))
    (dolist (x s c)
      (unless (= x 0)
        (if (and (/= prev 0) (/= x prev)) (setq c (1+ c)))
        (setq prev x)))))

;; The number of interior runs of empty cells (stones on both sides).
(defun interior-runs (s)
  (let ((g 0) (seen nil) (gap nil))
    (dolist (x s g)
      (cond ((= x 0) (if seen (setq gap t)))
            (t (if gap (setq g (1+ g)))
               (setq gap nil)
               (setq seen t))))))

;; The paper's redefined difference: interior empty pairs count 1 as well.
(defun dprime (s) (+ (stone-changes s) (interior-runs s)))

;; Rule (III): a state is final when D' = 1.
(defun final-state-p (s) (= (dprime s) 1))

;; Bound (2): after i moves (i >= 2) a state on a minimal path has D' <= 2(n-i)+1.
(defun paper-keep (s i n)
  (or (< i 2) (<= (dprime s) (+ (* 2 (- n i)) 1))))

;; The safe bound: c <= 2(n-i)+1, and c >= 2n-2i after the first move
;; (proof in the output of tait-bound-section).
(defun safe-keep (s i n)
  (let ((c (stone-changes s)))
    (and (<= c (+ (* 2 (- n i)) 1))
         (or (< i 1) (>= c (- (* 2 n) (* 2 i)))))))

;; The cells q with q and q+1 both empty, left to right.
(defun empty-pairs (s)
  (let ((out nil) (q 0))
    (while (cdr s)
      (if (and (= (car s) 0) (= (cadr s) 0)) (push q out))
      (setq s (cdr s))
      (setq q (1+ q)))
    (nreverse out)))

;; The state after moving the stones of cells p, p+1 into cells q, q+1.
(defun move-state (s p q)
  (let ((a (nth p s)) (b (nth (1+ p) s)) (i 0) (out nil) (p1 (1+ p)) (q1 (1+ q)))
    (dolist (x s)
      (push (cond ((= i p) 0) ((= i p1) 0) ((= i q) a) ((= i q1) b) (t x)) out)
      (setq i (1+ i)))
    (nreverse out)))

;; All successors in the paper's order (source p left to right, then target
;; q left to right) as (p q state) triples.
(defun list-moves (s)
  (let ((targets (empty-pairs s)) (out nil) (p 0) (ptr s))
    (while (cdr ptr)
      (when (and (/= (car ptr) 0) (/= (cadr ptr) 0))
        (dolist (q targets) (push (list p q (move-state s p q)) out)))
      (setq ptr (cdr ptr))
      (setq p (1+ p)))
    (nreverse out)))

;;; ------------------------------------------------------------------
;;; 1. The paper's program. A node is the quad cell
;;;    #q(state parent next-expand-pointer level)
;;; with the pointer a tail of the state list at the next source cell to try.

(defun node-state (nd) (car nd))
(defun node-parent (nd) (cbr nd))
(defun node-pointer (nd) (ccr nd))
(defun node-level (nd) (cdr nd))
(defun make-node (state parent level) (qcons state parent state level))

;; The nodes from nd up to the root, newest first — what the paper prints.
(defun node-branch (nd)
  (let ((out nil))
    (while nd (push nd out) (setq nd (node-parent nd)))
    (nreverse out)))
(defun node-path (nd) (reverse (mapcar #'node-state (node-branch nd))))

(defvar *tait-generated* 0)   ; children tested against the bound
(defvar *tait-kept* 0)        ; nodes kept (root included)

;; Hand-written recursion, expanding each node through its pointer as the
;; paper describes. keep: (state i n) -> true to keep. on-node: called with
;; every new node (for the tree printouts); on-solution: with each final node.
;; Returns the number of solutions.
(defun tait-search (n pairs keep &optional on-solution on-node)
  (let ((count 0) (root (make-node (tait-start n pairs) nil 0)))
    (setq *tait-generated* 0)
    (setq *tait-kept* 1)
    (labels ((expand (node)
               (let ((s (node-state node)) (level (node-level node)))
                 (if (= level n)
                     (when (final-state-p s)
                       (setq count (1+ count))
                       (if on-solution (funcall on-solution node)))
                     (let ((targets (empty-pairs s)) (ptr s) (p 0) (i (1+ level)))
                       (while (cdr ptr)
                         (when (and (/= (car ptr) 0) (/= (cadr ptr) 0))
                           (dolist (q targets)
                             (let ((child (move-state s p q)))
                               (setq *tait-generated* (1+ *tait-generated*))
                               (when (funcall keep child i n)
                                 (rplacc node (cdr ptr))
                                 (let ((c (make-node child node i)))
                                   (setq *tait-kept* (1+ *tait-kept*))
                                   (if on-node (funcall on-node c))
                                   (expand c))))))
                         (setq ptr (cdr ptr))
                         (setq p (1+ p))))))))
      (expand root))
    count))

;; The same search driven by the native depth-first primitive: the driver
;; keeps the stack; the closures know the puzzle. The nodes are still quads.
(defun tait-search-native (n pairs keep)
  (dfs (make-node (tait-start n pairs) nil 0)
       (lambda (node)
         (let ((i (1+ (node-level node))))
           (mapcar (lambda (m) (make-node (caddr m) node i)) (list-moves (node-state node)))))
       (lambda (node) (and (= (node-level node) n) (final-state-p (node-state node))))
       :prune (lambda (node i) (not (funcall keep (node-state node) i n)))
       :max-depth n))

;;; ------------------------------------------------------------------
;;; Printing in the paper's layout.
;;;
;;; lipq's printer gives the labels ($n: for a cell reached twice). The paper's
;;; LIPQ printer also broke lines: a list too long for the line prints its
;;; first element after "(", every further list element on a line of its own
;;; (indented one space), runs of atoms after a list together on one line, and
;;; closes with " )". paper-layout parses prin1's flat text and lays it out so.

(defvar *paper-width* 72)

;; Parse flat printer text into items: an atom is a string; a list is
;; (:list prefix item...) where prefix is its label ("$2:" or "").
(defun parse-printed (text)
  (let ((pos 0) (len (string-length text)))
    (labels ((ch (i) (substring text i (1+ i)))
             (skip () (while (and (< pos len) (string= (ch pos) " ")) (setq pos (1+ pos))))
             (item ()
               (skip)
               (let ((start pos))
                 ;; a label prefix $n: may stand before "(" or an atom
                 (when (string= (ch pos) "$")
                   (while (and (< pos len) (not (member (ch pos) '(":" " " ")" "(") 'equal)))
                     (setq pos (1+ pos)))
                   (if (and (< pos len) (string= (ch pos) ":")) (setq pos (1+ pos))))
                 (cond ((and (< pos len) (string= (ch pos) "("))
                        (let ((prefix (substring text start pos)) (elems nil))
                          (setq pos (1+ pos))
                          (skip)
                          (while (not (string= (ch pos) ")"))
                            (push (item) elems)
                            (skip))
                          (setq pos (1+ pos))
                          (cons :list (cons prefix (nreverse elems)))))
                       (t (while (and (< pos len) (not (member (ch pos) '(" " ")") 'equal)))
                            (setq pos (1+ pos)))
                          (substring text start pos))))))
      (item))))

(defun flat-text (it)
  (if (stringp it)
      (if (string= it "nil") "NIL" it)   ; LIPQ printed NIL in capitals
      (concat (cadr it) "(" (string-join (mapcar #'flat-text (cddr it)) " ") ")")))

;; Lay out item it starting at column col; returns the text.
(defun layout-item (it col)
  (let ((flat (flat-text it)))
    (if (or (stringp it) (<= (+ col (string-length flat)) *paper-width*))
        flat
        (let* ((elems (cddr it))
               (out (concat "(" (cadr it) (layout-item (car elems) (+ col 1 (string-length (cadr it))))))
               (after-list (not (stringp (car elems)))))
          (dolist (e (cdr elems))
            (cond ((not (stringp e))
                   (setq out (concat out (code-char 10) " " (layout-item e 1)))
                   (setq after-list t))
                  (after-list
                   (setq out (concat out (code-char 10) " " (flat-text e)))
                   (setq after-list nil))
                  (t (setq out (concat out " " (flat-text e))))))
          (concat out " )")))))

(defun paper-layout (x) (layout-item (parse-printed (prin1-to-string x)) 0))

;; The paper's view of the current branch: nodes as 4-element lists
;; (state parent pointer level), newest first. Converting each quad once keeps
;; the sharing (a node is both an element and its child's parent).
(defun branch-as-lists (nd)
  (let ((memo nil))
    (labels ((conv (q)
               (if (null q) nil
                   (let ((hit (assq q memo)))
                     (if hit (cdr hit)
                         (let ((l (list (node-state q) (conv (node-parent q))
                                        (node-pointer q) (node-level q))))
                           (push (cons q l) memo)
                           l))))))
      (mapcar #'conv (node-branch nd)))))

(defun first-k (l k) (if (or (null l) (<= k 0)) nil (cons (car l) (first-k (cdr l) (1- k)))))

(defun tait-first-solution (n pairs)
  (catch 'found
    (tait-search n pairs #'paper-keep (lambda (nd) (throw 'found (node-path nd))))
    nil))

;; The paper's search-tree figure: the branch as it stands when the node at
;; `level' on the first solution's path is created.
(defun tait-tree-text (n level)
  (let ((sol (tait-first-solution n 1)))
    (catch 'snap
      (tait-search n 1 #'paper-keep nil
                   (lambda (nd)
                     (when (and (= (node-level nd) level)
                                (equal (node-path nd) (first-k sol (1+ level))))
                       (throw 'snap (paper-layout (branch-as-lists nd))))))
      nil)))

;;; ------------------------------------------------------------------
;;; 2. Integer states. key = seq + empties * 2^(2n): bit j of seq is 1 when the
;;; j-th stone from the left is a 2; bit k of empties is 1 when cell k is empty.

(defun low-mask (k) (1- (ash 1 k)))

(defun list-to-key (s n)
  (let ((seq 0) (emp 0) (j 0) (k 0))
    (dolist (x s)
      (cond ((= x 0) (setq emp (logior emp (ash 1 k))))
            (t (if (= x 2) (setq seq (logior seq (ash 1 j))))
               (setq j (1+ j))))
      (setq k (1+ k)))
    (+ seq (ash emp (* 2 n)))))

(defun key-to-list (key n cells)
  (let* ((n2 (* 2 n)) (seq (logand key (low-mask n2))) (emp (ash key (- n2))) (j 0) (out nil))
    (dotimes (k cells)
      (cond ((logbitp k emp) (push 0 out))
            (t (push (if (logbitp j seq) 2 1) out)
               (setq j (1+ j)))))
    (nreverse out)))

(defun key-changes (key n)
  (let ((seq (logand key (low-mask (* 2 n)))))
    (logcount (logand (logxor seq (ash seq -1)) (low-mask (1- (* 2 n)))))))

(defun key-gaps (key n cells)
  (let* ((emp (ash key (- (* 2 n))))
         (occ (logand (lognot emp) (low-mask cells)))
         (below (1- (logand occ (- occ))))          ; cells left of the first stone
         (inner (logand emp (low-mask (integer-length occ)) (lognot below))))
    (logcount (logand inner (lognot (ash inner 1))))))

;; Call (f child-key) for every successor of key, in the paper's order.
(defun key-successors (key n cells f)
  (let* ((n2 (* 2 n))
         (seq (logand key (low-mask n2)))
         (emp (ash key (- n2)))
         (occ (logand (lognot emp) (low-mask cells)))
         (src (logand occ (ash occ -1)))
         (tgt (logand emp (ash emp -1))))
    (dolist (p (bit-positions src))
      (let* ((j (- p (logcount (logand emp (low-mask p)))))
             (x (logand (ash seq (- j)) 3))
             (lowj (low-mask j))
             (rest (logior (logand seq lowj) (logand (ash seq -2) (lognot lowj))))
             (emp1 (logior emp (ash 3 p))))
        (dolist (q (bit-positions tgt))
          (let* ((emp2 (logxor emp1 (ash 3 q)))
                 (r (- q (logcount (logand emp2 (low-mask q)))))
                 (lowr (low-mask r)))
            (funcall f (+ (logior (logand rest lowr) (ash x r) (ash (logand rest (lognot lowr)) 2))
                          (ash emp2 n2)))))))))

;; Keep tests on keys: (key i n cells) -> true to keep.
(defun key-paper-keep (key i n cells)
  (or (< i 2) (<= (+ (key-changes key n) (key-gaps key n cells)) (+ (* 2 (- n i)) 1))))
(defun key-safe-keep (key i n cells)
  (let ((c (key-changes key n)))
    (and (<= c (+ (* 2 (- n i)) 1))
         (or (< i 1) (>= c (- (* 2 n) (* 2 i)))))))
(defun key-final-p (key n cells)
  (and (= (key-changes key n) 1) (= (key-gaps key n cells) 0)))

;; One layer of the count: table key -> number of paths; i = depth of the new layer.
(defun next-layer (layer i n cells keep)
  (let ((new (make-hash-table)))
    (maphash (lambda (key cnt)
               (key-successors key n cells
                               (lambda (ch)
                                 (when (funcall keep ch i n cells)
                                   (puthash ch (+ cnt (gethash ch new 0)) new)))))
             layer)
    new))

;; Count the n-move solutions layer by layer. Returns (count . states-seen).
(defun layer-count (n pairs keep)
  (let* ((cells (+ (* 2 n) (* 2 pairs)))
         (layer (make-hash-table))
         (seen 1)
         (total 0))
    (puthash (list-to-key (tait-start n pairs) n) 1 layer)
    (dotimes (d n)
      (setq layer (next-layer layer (1+ d) n cells keep))
      (setq seen (+ seen (hash-table-count layer))))
    (maphash (lambda (key cnt) (if (key-final-p key n cells) (setq total (+ total cnt)))) layer)
    (cons total seen)))

;; The final keys of a board.
(defun final-keys (n pairs)
  (let* ((cells (+ (* 2 n) (* 2 pairs))) (e (* 2 pairs)) (out nil))
    (dotimes (left (1+ e))
     ;; one pair stays a pair: 0 1..1 2..2 0 is not reachable
     (unless (and (= pairs 1) (= left 1))
      (dolist (colours (list (append (make-list n 1) (make-list n 2))
                             (append (make-list n 2) (make-list n 1))))
        (push (list-to-key (append (make-list left 0) colours (make-list (- e left) 0)) n) out))))
    (nreverse out)))

(defun make-list (k x) (let ((out nil)) (dotimes (i k) (push x out)) out))

;;; 3. Meet in the middle: forward layers to depth k from the start, backward
;;; layers to depth k from the final states (moves are reversible, so the
;;; same successor function serves), both pruned by keep; the count is the sum
;;; over the middle layer of forward * backward. Returns (count . states).
(defun mitm-count (n pairs keep)
  (let* ((cells (+ (* 2 n) (* 2 pairs)))
         (k (floor n 2))
         (fwd (make-hash-table))
         (bwd (make-hash-table))
         (seen 0)
         (total 0))
    (puthash (list-to-key (tait-start n pairs) n) 1 fwd)
    (dotimes (d k)
      (setq fwd (next-layer fwd (1+ d) n cells keep))
      (setq seen (+ seen (hash-table-count fwd))))
    (dolist (f (final-keys n pairs)) (puthash f 1 bwd))
    (let ((d n))
      (while (> d k)
        (setq d (1- d))
        (setq bwd (next-layer bwd d n cells keep))
        (setq seen (+ seen (hash-table-count bwd)))))
    (maphash (lambda (key cnt)
               (let ((b (gethash key bwd)))
                 (if b (setq total (+ total (* cnt b))))))
             fwd)
    (cons total seen)))

;;; ------------------------------------------------------------------
;;; Timing and the paper's tables

;; CPU time of the process (the machine may be shared), in microseconds.
(defun tait-clock () (if (boundp 'get-internal-run-time) (get-internal-run-time) (get-internal-real-time)))
(defmacro timed (form)
  `(let ((t0 (tait-clock)))
     (let ((v ,form)) (cons v (- (tait-clock) t0)))))

(defun secs (us) (concat (seconds-string us 2) " s"))

(defparameter *paper-table1* '((4 1 "2 s") (5 1 "7 s") (6 1 "27 s") (7 2 "2 min 13 s")
                               (8 16 "11 min 1 s") (9 32 "56 min 57 s") (10 96 "5 h 23 min 30 s")))
(defparameter *paper-supp* '((3 1) (4 1) (5 1) (6 1) (7 4) (8 16) (9 32) (10 96)))

(defun solution-text (path) (paper-layout path))

;;; Backward layers: table i holds the states at depth i that keep allows and
;;; that reach a final state in n-i moves through allowed states, with the
;;; number of such completions. (vector of n+1 tables)
(defun backward-layers (n pairs keep)
  (let* ((cells (+ (* 2 n) (* 2 pairs))) (v (make-vector (1+ n) nil)) (b (make-hash-table)))
    (dolist (f (final-keys n pairs)) (puthash f 1 b))
    (aset v n b)
    (let ((d n))
      (while (> d 0)
        (setq d (1- d))
        (setq b (next-layer b d n cells keep))
        (aset v d b)))
    v))

;; All solution paths (lists of keys) under keep, by a DFS that only enters
;; states known to complete: no dead ends, paper's move order.
(defun solution-paths (n pairs keep)
  (let* ((cells (+ (* 2 n) (* 2 pairs))) (bl (backward-layers n pairs keep)) (out nil))
    (labels ((walk (key i path)
               (if (= i n)
                   (push (reverse path) out)
                   (key-successors key n cells
                                   (lambda (ch)
                                     (if (gethash ch (aref bl (1+ i)))
                                         (walk ch (1+ i) (cons ch path))))))))
      (let ((start (list-to-key (tait-start n pairs) n)))
        (if (gethash start (aref bl 0)) (walk start 0 (list start)))))
    (nreverse out)))

;; The first depth i >= 2 at which the paper's bound (2) cuts a path, or nil.
(defun paper-cut-depth (path n cells)
  (let ((i 0) (cut nil))
    (dolist (key path cut)
      (if (and (not cut) (not (key-paper-keep key i n cells))) (setq cut i))
      (setq i (1+ i)))))

(defun print-annotated-path (path n cells)
  (let ((i 0) (cut (paper-cut-depth path n cells)))
    (dolist (key path)
      (let* ((c (key-changes key n)) (g (key-gaps key n cells)) (d (+ c g)) (b (+ (* 2 (- n i)) 1)))
        (format t ";   ~a  i=~d c=~d g=~d D'=~d~a~%"
                (prin1-to-string (key-to-list key n cells)) i c g d
                (cond ((eql i cut) (format nil " > ~d  <- the paper prunes here" b))
                      ((and (>= i 2) (> d b)) (format nil " > ~d" b))
                      ((= i n) "  final")
                      (t ""))))
      (setq i (1+ i)))))

;; Exact distances to the nearest final state over a whole (small) board, by
;; breadth-first search backward from the final states (moves are reversible).
;; Returns a list of (m . states-at-distance-m).
(defun distance-layers (n pairs)
  (let* ((cells (+ (* 2 n) (* 2 pairs))) (seen (make-hash-table)) (frontier (final-keys n pairs))
         (layers nil))
    (dolist (f frontier) (puthash f t seen))
    (while frontier
      (push frontier layers)
      (let ((next nil))
        (dolist (k frontier)
          (key-successors k n cells
                          (lambda (ch) (unless (gethash ch seen) (puthash ch t seen) (push ch next)))))
        (setq frontier (nreverse next))))
    (let ((m -1))
      (mapcar (lambda (l) (setq m (1+ m)) (cons m l)) (nreverse layers)))))

;; Check both bounds as lower bounds on the distance m: the paper's D' <= 2m+1
;; and the safe c <= 2m+1. Returns (states paper-violations safe-violations first-witness).
(defun check-bounds (n pairs)
  (let ((cells (+ (* 2 n) (* 2 pairs))) (total 0) (pv 0) (sv 0) (witness nil))
    (dolist (layer (distance-layers n pairs))
      (let ((m (car layer)))
        (dolist (k (cdr layer))
          (setq total (1+ total))
          (let ((c (key-changes k n)) (g (key-gaps k n cells)))
            (when (> (+ c g) (+ (* 2 m) 1))
              (setq pv (1+ pv))
              (unless witness (setq witness (list k m c g))))
            (if (> c (+ (* 2 m) 1)) (setq sv (1+ sv)))))))
    (list total pv sv witness)))

;;; ------------------------------------------------------------------
;;; The report

(defvar *tait-big-seconds* 300)   ; budget for the n >= 11 table in full mode

(defun boards-cells (n pairs) (+ (* 2 n) (* 2 pairs)))
(defun native-dfs-p () (boundp 'dfs))

(defun factor-string (x)
  (let ((out nil) (p 2))
    (while (and (> x 1) (<= (* p p) x))
      (let ((e 0))
        (while (= (rem x p) 0) (setq x (/ x p)) (setq e (1+ e)))
        (if (> e 0) (push (if (= e 1) (format nil "~d" p) (format nil "~d^~d" p e)) out)))
      (setq p (1+ p)))
    (if (> x 1) (push (format nil "~d" x) out))
    (string-join (nreverse out) "*")))

(defun tait-section-solution (n)
  (format t "~%;; The solution for n = ~d in the paper's format (paper's program, first solution found)~%" n)
  (let ((sol (tait-first-solution n 1)))
    (if sol (princ (solution-text sol)) (format t ";; (none in ~d moves)" n))
    (terpri)))

(defun tait-section-tree (n levels)
  (dolist (level levels)
    (format t "~%;; Search tree, n = ~d, when the level-~d node of the solution is created:~%" n level)
    (format t ";; the branch (node_~d ... node_0), node = (state parent next-expand-pointer level)~%" level)
    (let ((text (tait-tree-text n level)))
      (if text (progn (princ text) (terpri))
          (format t ";; (no solution path reaches level ~d)~%" level)))))

;; The paper's program on one board for n in ns: hand-written recursion and
;; the native driver. Returns a list of (n count) for the checks.
(defun tait-section-paper (pairs ns)
  (let ((paper (if (= pairs 1) *paper-table1* *paper-supp*)) (rows nil))
    (format t "~%;; ~a: the paper's program (bound (2), nodes as quads), board 2n+~d~%"
            (if (= pairs 1) "Table 1, one pair of empties" "Supplementary table, two pairs of empties")
            (* 2 pairs))
    (format t ";;  n  paper  lipq   kept  children  hand-DFS  native-dfs  paper's time (PDP-11/20)~%")
    (dolist (n ns)
      (let* ((h (timed (tait-search n pairs #'paper-keep)))
             (kept *tait-kept*) (gen *tait-generated*)
             (nat (if (native-dfs-p) (timed (tait-search-native n pairs #'paper-keep))))
             (pp (assoc n paper)))
        (when (and nat (/= (car nat) (car h)))
          (error "tait: native dfs found ~d, hand-written ~d for n = ~d" (car nat) (car h) n))
        (format t ";; ~2d  ~5a ~5d ~6d ~9d ~9a ~11a ~a~%" n (if pp (cadr pp) "-") (car h) kept gen
                (secs (cdr h)) (if nat (secs (cdr nat)) "n/a")
                (if (and pp (caddr pp)) (caddr pp) (if (= pairs 1) "-" "(not given)")))
        (push (list n (car h)) rows)))
    (unless (native-dfs-p) (format t ";; (the native dfs primitive is missing in this build)~%"))
    (nreverse rows)))

;; Exact counts (safe bound) beside the paper's pruning, both boards, by meet
;; in the middle on integer states. dfs-rows: the DFS counts to check against.
(defun tait-section-exact (ns dfs1 dfs2)
  (format t "~%;; Exact counts: meet in the middle on integer states with the SAFE bound,~%")
  (format t ";; beside the same count with the paper's bound (2) and the paper's tables~%")
  (format t ";;     one pair (2n+2)                 two pairs (2n+4)~%")
  (format t ";;  n  exact  bound(2)  paper  time    exact  bound(2)  paper  time~%")
  (let ((diffs nil))
    (dolist (n ns)
      (let ((cols nil))
        (dolist (pairs '(1 2))
          (let* ((e0 (timed (mitm-count n pairs #'key-safe-keep)))
                 (e (cons (caar e0) (cdr e0)))                 ; (count . microseconds)
                 (p (cons (car (mitm-count n pairs #'key-paper-keep)) nil))
                 (tab (assoc n (if (= pairs 1) *paper-table1* *paper-supp*)))
                 (d (assoc n (if (= pairs 1) dfs1 dfs2))))
            (when (and d (/= (cadr d) (car p)))
              (error "tait: DFS ~d vs layered ~d with bound (2), n = ~d, ~d pair(s)" (cadr d) (car p) n pairs))
            (when (/= (car e) (car p)) (push (list n pairs (car e) (car p)) diffs))
            (push (format nil "~5d  ~5d~a  ~5a  ~6a" (car e) (car p) (if (/= (car e) (car p)) " *" "  ")
                          (if tab (cadr tab) "-") (seconds-string (cdr e) 2))
                  cols)))
        (format t ";; ~2d ~a   ~a~%" n (cadr cols) (car cols))))
    (format t ";; (* = the paper's bound (2) cuts real solutions; times are for the exact count)~%")
    (nreverse diffs)))

(defun tait-section-bounds (cut-n)
  (format t "~%;; Is bound (2) a valid lower bound? Exact distance m to the goal over every~%")
  (format t ";; state of small boards (breadth-first from the final states):~%")
  (format t ";;  board            states  D'>2m+1 (paper)  c>2m+1 (safe)~%")
  (let ((first-witness nil))
    (dolist (b '((4 1) (5 1) (3 2) (4 2)))
      (let* ((r (check-bounds (car b) (cadr b))))
        (format t ";;  n=~d, ~d pair~a    ~7d  ~15d  ~13d~%" (car b) (cadr b) (if (= (cadr b) 1) " " "s")
                (car r) (cadr r) (caddr r))
        (if (and (not first-witness) (cadddr r)) (setq first-witness (cons (car b) (cons (cadr b) (cadddr r)))))))
    (when first-witness
      (destructuring-bind (n pairs key m c g) first-witness
        (let* ((cells (boards-cells n pairs)) (fin nil))
          (key-successors key n cells (lambda (ch) (if (and (not fin) (key-final-p ch n cells)) (setq fin ch))))
          (format t ";; witness: ~a is ~d move from the goal ~a,~%;;   yet D' = ~d + ~d = ~d > 2m+1 = ~d.~%"
                  (prin1-to-string (key-to-list key n cells)) m
                  (if fin (prin1-to-string (key-to-list fin n cells)) "?")
                  c g (+ c g) (+ (* 2 m) 1))))))
  (format t ";; So (2) is not a lower bound on the distance. It is safe exactly when no such~%")
  (format t ";; state lies on a minimal path; the safe bound c <= 2m+1 never fails (lemma:~%")
  (format t ";; a move lifts x y from between a,b and sets it between e,f; the change in c is~%")
  (format t ";; ([a/=b]-[a/=x]-[y/=b]) + ([e/=x]+[y/=f]-[e/=f]) >= -2, since the first part~%")
  (format t ";; is -2 only if x=y/=a=b and the second -1 only if x/=y; the first move lowers~%")
  (format t ";; c by at most 1, so after i >= 1 moves also c >= 2n-2i). Both are used as the SAFE bound.~%")
  (let* ((n cut-n) (pairs 2) (cells (boards-cells n pairs))
         (r (timed (solution-paths n pairs #'key-safe-keep)))
         (paths (car r))
         (cut (remove-if-not (lambda (p) (paper-cut-depth p n cells)) paths)))
    (format t "~%;; Two pairs, n = ~d: ~d solutions exist (all listed by a dead-end-free DFS, ~a);~%"
            n (length paths) (secs (cdr r)))
    (format t ";; the paper's bound (2) cuts ~d of them, leaving ~d. The first one it cuts:~%"
            (length cut) (- (length paths) (length cut)))
    (if cut (print-annotated-path (car cut) n cells))
    (length cut)))

;; One pair, n = from.., exact counts by meet in the middle, until the
;; budget (microseconds) is spent or n = upto is done.
(defun tait-section-big (from upto budget)
  (format t "~%;; Beyond the paper: one pair, exact counts (safe bound, meet in the middle)~%")
  (format t ";;  n         count  factors                  states      time      bound (2)~%")
  (let ((t0 (tait-clock)) (n from) (rows nil))
    (while (and (<= n upto) (< (- (tait-clock) t0) budget))
      (let* ((r (timed (mitm-count n 1 #'key-safe-keep)))
             (p (if (<= n 11) (car (mitm-count n 1 #'key-paper-keep)))))
        (format t ";; ~2d  ~12d  ~22a ~8d  ~8a  ~a~%" n (caar r) (factor-string (caar r)) (cdar r) (secs (cdr r))
                (cond ((null p) "-") ((= p (caar r)) (format nil "~d (same)" p))
                      (t (format nil "~d DIFFERS" p))))
        (push (list n (caar r) (cdar r) (cdr r)) rows)
        (setq n (1+ n))))
    (setq rows (nreverse rows))
    (let* ((lastrow (car (last rows))) (prev (if (cdr rows) (nth (- (length rows) 2) rows)))
           (edo 783820800000))
      (format t ";; The Edo book (1713) gives ~d = ~a minimal solutions for n = 23.~%"
              edo (factor-string edo))
      (when lastrow
        (format t ";; Reached n = ~d here; ~d / a(~d) = ~a~%" (car lastrow) edo (car lastrow)
                (if (= (rem edo (cadr lastrow)) 0) (format nil "~d exactly" (/ edo (cadr lastrow)))
                    (format nil "~d remainder ~d" (floor edo (cadr lastrow)) (rem edo (cadr lastrow))))))
      (when (and lastrow prev)
        (let* ((gs (/ (* 100 (caddr lastrow)) (caddr prev)))   ; state growth per n, in percent
               (gt (/ (* 100 (cadddr lastrow)) (max 1 (cadddr prev))))
               (k (- 23 (car lastrow)))
               (states (caddr lastrow)) (us (cadddr lastrow)))
          (dotimes (i k) (setq states (/ (* states gs) 100)) (setq us (/ (* us gt) 100)))
          (format t ";; States grow about x~a and CPU time about x~a per step of n. Extrapolated, n = 23~%"
                  (seconds-string (* gs 10000) 2) (seconds-string (* gt 10000) 2))
          (format t ";; needs about ~d states in hash tables and ~a s (~a days) of CPU here.~%"
                  states (seconds-string us 0) (seconds-string (floor us 86400) 1))
          (format t ";; Checking the Edo figure this way is out of reach: it needs the layers on disk~%")
          (format t ";; (sorted runs merged instead of hash tables), the symmetry group (mirror x colour~%")
          (format t ";; swap) to quarter the backward half, and a compiled inner loop - or a product~%")
          (format t ";; formula for a(n), which the small prime factors above suggest.~%")))
      rows)))

(defun arg-number (x lo hi)
  (let ((v (string-to-number x)))
    (if (and (integerp v) (<= lo v hi)) v
        (error "tait: expected a number from ~d to ~d, got ~s" lo hi x))))

(defun tait-main (args)
  (let* ((quick (or (member "quick" args) (getenv "LIPQ_TEST_QUICK")))
         (full (member "full" args))
         (tree (member "tree" args))
         (sol (member "solution" args)))
    (cond (tree
           (let ((level (if (cadr tree) (arg-number (cadr tree) 1 12)))
                 (n (if (caddr tree) (arg-number (caddr tree) 3 12) 5)))
             (tait-section-tree n (if level (list level) '(2 4)))))
          (sol (tait-section-solution (if (cadr sol) (arg-number (cadr sol) 1 12) 5)))
          (t
           (let* ((dfsmax (cond (quick 8) (full 10) (t 9)))
                  (t1 (tait-section-paper 1 (iota (- dfsmax 3) 4)))
                  (t2 (tait-section-paper 2 (iota (- dfsmax 2) 3))))
             (tait-section-solution 5)
             (tait-section-tree 5 '(2 4))
             (let ((diffs (tait-section-exact (iota (if quick 6 8) 3) t1 t2)))
               (dolist (d diffs)
                 (format t ";; n = ~d, ~d pair~a: exact ~d, the paper's pruning ~d~%"
                         (car d) (cadr d) (if (= (cadr d) 1) "" "s") (caddr d) (cadddr d))))
             (tait-section-bounds 7)
             (tait-section-big 11 (cond (quick 11) (full 15) (t 14))
                               (* 1000000 (cond (quick 60) (full *tait-big-seconds*) (t 60))))
             (format t "~%;; Exact: every count in the 'exact' columns and the n >= 11 table (safe bound,~%")
             (format t ";; proved above). The paper's Table 1 is right; its supplementary table is wrong~%")
             (format t ";; at n = 7 (4 printed, 9 exist): its bound (2) cuts real two-pair solutions.~%"))))))

;; For scripts/demo.lisp: (label value expected) triples.
(defun tait-demo ()
  (list (list "tait: Table 1 (paper's program) n=4..7"
              (mapcar (lambda (n) (tait-search n 1 #'paper-keep)) '(4 5 6 7)) '(1 1 1 2))
        (list "tait: two pairs n=7, paper's pruning vs exact"
              (list (car (mitm-count 7 2 #'key-paper-keep)) (car (mitm-count 7 2 #'key-safe-keep))) '(4 9))
        (list "tait: n=5 solution, last state" (car (last (tait-first-solution 5 1)))
              '(0 0 2 2 2 2 2 1 1 1 1 1))))

(unless (or (boundp '*seeds-demo*) (boundp '*tait-no-main*))
  (tait-main *args*))
