;;; search.lisp — the native search drivers (dfs, bfs, iddfs, idastar),
;;; their modes and limits, error paths, an interrupted search, callbacks
;;; that throw, the generators and last-search-stats.
(require 'test)
(setq *search-progress* nil)

(defvar *quick* (getenv "LIPQ_TEST_QUICK"))

;;; ---- helpers ----------------------------------------------------------------

;; N-queens with placements as lists (newest queen first).
(defvar *qn* 6)
(defun sq-safe (c s)
  (let ((d 1) (ok t))
    (dolist (x s)
      (when (or (= x c) (= (abs (- x c)) d)) (setq ok nil))
      (setq d (1+ d)))
    ok))
(defun sq-succ (s)
  (let ((r nil))
    (dotimes (c *qn*) (when (sq-safe c s) (push (cons c s) r)))
    (nreverse r)))
(defun sq-all (s)
  (let ((r nil))
    (dotimes (c *qn*) (push (cons c s) r))
    (nreverse r)))
(defun sq-goal (s) (= (length s) *qn*))
(defun sq-prune (s depth) (and s (not (sq-safe (car s) (cdr s)))))

;; The same count by a plain recursive function (the reference).
(defun sq-rec (s)
  (if (sq-goal s) 1
      (let ((n 0)) (dolist (c (sq-succ s)) (setq n (+ n (sq-rec c)))) n)))

(defun stat (key) (cadr (member key (last-search-stats))))

;; A path is valid if it starts at start, each step is a successor of the
;; previous state and the last state satisfies goal.
(defun valid-path (path start succ goal)
  (and (equal (car path) start)
       (funcall goal (car (last path)))
       (let ((ok t))
         (do ((p path (cdr p))) ((null (cdr p)) ok)
           (unless (member (cadr p) (funcall succ (car p))) (setq ok nil))))))

;; A000170 (OEIS), n = 1..12.
(defvar *a000170* '(1 0 0 2 10 4 40 92 352 724 2680 14200))

;;; ---- dfs ------------------------------------------------------------------------

(dolist (n '(4 5 6 7))
  (setq *qn* n)
  (assert-equal (nth (1- n) *a000170*) (dfs nil sq-succ sq-goal))
  (assert-equal (sq-rec nil) (dfs nil sq-succ sq-goal :mode :count))
  (assert-equal (nth (1- n) *a000170*) (dfs nil sq-all sq-goal :prune sq-prune)))

(setq *qn* 6)
(let ((first (dfs nil sq-succ sq-goal :mode :first))
      (all (dfs nil sq-succ sq-goal :mode :all)))
  (assert-true (valid-path first nil sq-succ sq-goal))
  (assert-equal (1+ *qn*) (length first))          ; start + one state per queen
  (assert-equal 4 (length all))
  (assert-equal first (car all))                    ; search order: first comes first
  (assert-true (every (lambda (p) (valid-path p nil sq-succ sq-goal)) all))
  ;; search order = successors tried in the order returned: the goal states
  ;; (first queen = last element) come out in increasing column order here
  (assert-equal (sort (mapcar (lambda (p) (car (last p))) all)
                      (lambda (a b) (string< (prin1-to-string (reverse a)) (prin1-to-string (reverse b)))))
                (mapcar (lambda (p) (car (last p))) all)))

;; :each calls the function with each path and returns the count
(let ((seen nil))
  (assert-equal 4 (dfs nil sq-succ sq-goal :mode :each :on-solution (lambda (p) (push p seen))))
  (assert-equal (dfs nil sq-succ sq-goal :mode :all) (reverse seen)))
;; :on-solution alone implies :each
(let ((k 0))
  (assert-equal 4 (dfs nil sq-succ sq-goal :on-solution (lambda (p) (setq k (1+ k)))))
  (assert-equal 4 k))

;; no solution
(assert-equal 0 (let ((*qn* 3)) (dfs nil sq-succ sq-goal)))
(assert-equal nil (let ((*qn* 3)) (dfs nil sq-succ sq-goal :mode :first)))
(assert-equal nil (let ((*qn* 2)) (dfs nil sq-succ sq-goal :mode :all)))

;; the start itself can be the goal: a path of one state
(assert-equal '(5) (dfs 5 (lambda (x) (list x)) (lambda (x) (= x 5)) :mode :first))

;; an infinite binary tree: n -> 2n, 2n+1
(defun bin-succ (n) (list (* 2 n) (1+ (* 2 n))))
(assert-equal '(1 3 6 13) (dfs 1 bin-succ (lambda (n) (= n 13)) :max-depth 3 :mode :first))
(assert-equal nil (dfs 1 bin-succ (lambda (n) (= n 13)) :max-depth 2 :mode :first))
;; :max-depth counts the states expanded: 2^0 + ... + 2^4 nodes to depth 4
(assert-equal 0 (dfs 1 bin-succ (lambda (n) nil) :max-depth 4))
(assert-equal 31 (stat :nodes))
(assert-equal 4 (stat :depth))
;; goal states are leaves: every node >= 4 is a goal, so only the 4 at depth 2 count
(assert-equal 4 (dfs 1 bin-succ (lambda (n) (>= n 4))))
;; :max-nodes stops an endless search
(assert-equal 0 (dfs 1 bin-succ (lambda (n) nil) :max-nodes 1000))
(assert-equal 1000 (stat :nodes))
(assert-equal :max-nodes (stat :stopped))
;; :max-solutions
(assert-equal 3 (dfs 1 bin-succ (lambda (n) (>= n 8)) :max-solutions 3))
(assert-equal '((1 2 4 8) (1 2 4 9)) (dfs 1 bin-succ (lambda (n) (>= n 8)) :mode :all :max-solutions 2))
(assert-equal :max-solutions (stat :stopped))
;; :with-depth passes the depth to successors
(let ((depths nil))
  (dfs 1 (lambda (n d) (push d depths) (if (< d 2) (bin-succ n) nil)) (lambda (n) nil) :with-depth t)
  (assert-equal '(0 1 1 2 2 2 2) (sort depths <)))
;; prune receives (state depth)
(let ((calls nil))
  (assert-equal 2 (dfs 1 bin-succ (lambda (n) (>= n 4))
                       :prune (lambda (n d) (push (cons n d) calls) (= n 3))))
  (assert-true (member '(3 . 1) calls))
  (assert-true (member '(1 . 0) calls)))
;; :no-cycles skips states already on the path
(assert-equal 2 (dfs 'a (lambda (s) (case s (a '(b c)) (b '(a d)) (c '(a d)) (t nil)))
                     (lambda (s) (eq s 'd)) :no-cycles t))

;;; ---- errors and non-local exits ----------------------------------------------------

(assert-error (dfs 1 42 (lambda (n) t)) "dfs")
(assert-error (dfs 1 bin-succ (lambda (n) nil) :bogus 3) "unknown keyword")
(assert-error (dfs 1 bin-succ (lambda (n) nil) :mode :sideways) ":mode")
(assert-error (dfs 1 bin-succ (lambda (n) nil) :max-depth) "no value")
(assert-error (dfs 1 bin-succ (lambda (n) nil) :mode :each) "on-solution")
(assert-error (dfs 1 (lambda (n) 7) (lambda (n) nil)) "must return a list")
(assert-error (dfs 1 (lambda (n) '(2 . 3)) (lambda (n) nil)) "improper list")
;; an error in a callback propagates as a Lisp error with its message
(defun exploding-goal (n) (if (= n 6) (error "boom at ~d" n) nil))
(assert-error (dfs 1 bin-succ exploding-goal :max-depth 5) "boom at 6")
(assert-error (dfs nil sq-succ sq-goal :on-solution (lambda (p) (error "callback refused"))) "callback refused")
(assert-error (bfs 1 bin-succ (lambda (n) (car n))) "car")
;; the stats remember that the search was cut short
(assert-equal :unwound (stat :stopped))
;; throw out of a callback: a non-local exit through the native loop
(assert-equal (dfs nil sq-succ sq-goal :mode :first)
              (catch 'found (dfs nil sq-succ sq-goal :on-solution (lambda (p) (throw 'found p)))))
;; after all that the interpreter is fine and searches still work
(assert-equal 4 (dfs nil sq-succ sq-goal))

;; An interrupted search: a step limit fires inside the native loop (the same
;; path as Ctrl-C: the driver polls the interpreter); the search unwinds cleanly.
(assert-error (progn (set-step-limit 20000) (dfs 1 bin-succ (lambda (n) nil))) "step limit")
(set-step-limit 0)
(assert-true (> (stat :nodes) 1000))
(assert-equal :unwound (stat :stopped))
(assert-equal 4 (dfs nil sq-succ sq-goal))
(assert-true (member (dfs nil sq-succ sq-goal :mode :first) (dfs nil sq-succ sq-goal :mode :all)))

;;; ---- bfs --------------------------------------------------------------------------

;; 1 -> 25 with the moves *2 and +3
(defun arith-succ (n) (if (> n 100) nil (list (* n 2) (+ n 3))))
(defun is-25 (n) (= n 25))
(let ((p (bfs 1 arith-succ is-25)))
  (assert-true (valid-path p 1 arith-succ is-25))
  ;; shortest: no dfs path of smaller depth exists
  (assert-equal nil (dfs 1 arith-succ is-25 :max-depth (- (length p) 2) :mode :first))
  (assert-true (dfs 1 arith-succ is-25 :max-depth (- (length p) 1) :mode :first)))
(assert-equal nil (bfs 2 (lambda (n) (if (< n 50) (list (+ n 2)) nil)) is-25))
(assert-equal (length (bfs 2 (lambda (n) (if (< n 50) (list (+ n 2)) nil)) (lambda (n) (= n 50))))
              (stat :seen))            ; 2, 4, ..., 50: all seen, the last one is the goal
(assert-equal '(7) (bfs 7 arith-succ (lambda (n) (= n 7))))

;; all shortest paths on a grid: from (0 . 0) to (a . b) there are C(a+b, a)
(defun grid-succ (p)
  (let ((r nil))
    (when (< (car p) 3) (push (cons (1+ (car p)) (cdr p)) r))
    (when (< (cdr p) 4) (push (cons (car p) (1+ (cdr p))) r))
    (nreverse r)))
(let ((paths (bfs '(0 . 0) grid-succ (lambda (p) (equal p '(3 . 4))) :mode :all)))
  (assert-equal (length (combinations (iota 7) 3)) (length paths))
  (assert-true (every (lambda (p) (= (length p) 8)) paths))
  (assert-true (every (lambda (p) (valid-path p '(0 . 0) grid-succ (lambda (p) (equal p '(3 . 4))))) paths))
  ;; all distinct
  (let ((h (make-hash-table 'equal)))
    (dolist (p paths) (puthash p t h))
    (assert-equal (length paths) (hash-table-count h)))
  ;; discovery order: the first one is the :first path
  (assert-equal (bfs '(0 . 0) grid-succ (lambda (p) (equal p '(3 . 4)))) (car paths))
  (assert-equal (length paths) (bfs '(0 . 0) grid-succ (lambda (p) (equal p '(3 . 4))) :mode :count))
  (assert-equal (* 4 5) (stat :seen)))   ; every cell of the 4 x 5 grid is within distance 7
;; :key: states carry a history but are visited by position only
(let ((p (bfs '((0 . 0)) (lambda (s) (mapcar (lambda (q) (cons q s)) (grid-succ (car s))))
              (lambda (s) (equal (car s) '(2 . 2))) :key car)))
  (assert-equal 5 (length p))
  (assert-equal '(2 . 2) (car (car (last p)))))
;; :test :eq with fixnum states
(assert-equal (bfs 1 arith-succ is-25) (bfs 1 arith-succ is-25 :test :eq))
(assert-error (bfs 1 arith-succ is-25 :test :bogus) ":test")
;; :max-nodes
(assert-equal nil (bfs 1 bin-succ (lambda (n) (= n 100000)) :max-nodes 100))
(assert-equal :max-nodes (stat :stopped))

;;; ---- iddfs and idastar ----------------------------------------------------------------

(let ((b (bfs 1 arith-succ is-25 :mode :all))
      (i (iddfs 1 arith-succ is-25 :mode :all)))
  (assert-equal (length b) (length i))
  (assert-true (every (lambda (p) (member p b)) i))
  (assert-equal (length (car b)) (length (iddfs 1 arith-succ is-25 :mode :first)))
  (assert-equal (length b) (iddfs 1 arith-succ is-25)))
;; a finite tree without a solution ends
(assert-equal 0 (iddfs 1 (lambda (n) (if (< n 20) (bin-succ n) nil)) (lambda (n) nil)))
(assert-equal nil (iddfs 1 bin-succ (lambda (n) (= n 1000)) :max-depth 5 :mode :first))

;; the 8-puzzle: states are lists of 9 (0 = blank)
(defvar *goal8* '(1 2 3 4 5 6 7 8 0))
(defun swap-nth (l i j)
  (let ((v (list-to-vector l)))
    (let ((x (aref v i))) (aset v i (aref v j)) (aset v j x))
    (vector-to-list v)))
(defun p8-succ (s)
  (let* ((b (position 0 s)) (r (quotient b 3)) (c (rem b 3)) (out nil))
    (when (> r 0) (push (swap-nth s b (- b 3)) out))
    (when (< r 2) (push (swap-nth s b (+ b 3)) out))
    (when (> c 0) (push (swap-nth s b (- b 1)) out))
    (when (< c 2) (push (swap-nth s b (+ b 1)) out))
    out))
(defun manhattan (s)
  (let ((d 0) (i 0))
    (dolist (x s)
      (unless (= x 0)
        (let ((g (1- x)))
          (setq d (+ d (abs (- (quotient i 3) (quotient g 3))) (abs (- (rem i 3) (rem g 3)))))))
      (setq i (1+ i)))
    d))
(defun p8-goal (s) (equal s *goal8*))
(defvar *start8* '(4 1 3 7 2 6 0 5 8))
(let ((b (bfs *start8* p8-succ p8-goal))
      (a (idastar *start8* p8-succ p8-goal manhattan :mode :first)))
  (assert-true (valid-path a *start8* p8-succ p8-goal))
  (assert-equal (length b) (length a))
  (assert-equal (1- (length a)) (stat :depth))           ; the final bound = the cost
  ;; explicit unit costs give the same; doubled costs give the same path length
  (assert-equal (length a) (length (idastar *start8* p8-succ p8-goal manhattan :cost (lambda (x y) 1) :mode :first)))
  (assert-equal (length a) (length (idastar *start8* p8-succ p8-goal manhattan :cost (lambda (x y) 2) :mode :first)))
  ;; :all: every optimal path; each valid and of the same length
  (let ((all (idastar *start8* p8-succ p8-goal manhattan :mode :all)))
    (assert-true (>= (length all) 1))
    (assert-true (every (lambda (p) (and (= (length p) (length a)) (valid-path p *start8* p8-succ p8-goal))) all))
    (assert-equal (length all) (iddfs *start8* p8-succ p8-goal))))
;; :max-bound cuts the search
(assert-equal nil (idastar *start8* p8-succ p8-goal manhattan :max-bound 3 :mode :first))
(assert-error (idastar *start8* p8-succ p8-goal (lambda (s) 'x)) "heuristic")

;;; ---- stats ------------------------------------------------------------------------------

(dfs nil sq-succ sq-goal)
(assert-equal 4 (stat :solutions))
(assert-equal 'dfs (stat :driver))
(assert-true (integerp (stat :seconds-ms)))
(assert-equal (stat :nodes) (stat :seen))
(assert-equal (list :nodes :seen :solutions :seconds-ms :depth)
              (let ((s (last-search-stats)) (r nil))
                (dotimes (i 5) (push (car s) r) (setq s (cddr s)))
                (nreverse r)))
;; progress output can be forced; it goes to stderr and does not change results
(assert-equal 4 (dfs nil sq-succ sq-goal :progress t))

;;; ---- generators --------------------------------------------------------------------------

(assert-equal '((a b) (a c) (b a) (b c) (c a) (c b)) (permutations '(a b c) 2))
(assert-equal '((1 2 3) (1 3 2) (2 1 3) (2 3 1) (3 1 2) (3 2 1)) (permutations '(1 2 3)))
(assert-equal '(nil) (permutations '(1 2 3) 0))
(assert-equal nil (permutations '(1 2) 3))
(assert-equal '(nil) (permutations nil))
(assert-equal 120 (length (permutations (iota 5))))
(assert-equal '((x x) (x x)) (permutations '(x x)))     ; positions, not values
(let ((n 0) (last nil))
  (assert-equal 24 (map-permutations (lambda (p) (setq n (1+ n)) (setq last p)) '(1 2 3 4)))
  (assert-equal 24 n)
  (assert-equal '(4 3 2 1) last))
;; fresh lists: changing one does not change the next
(let ((ps nil))
  (map-permutations (lambda (p) (rplaca p 'z) (push p ps)) '(1 2) 2)
  (assert-equal '((z 1) (z 2)) ps))
(assert-equal '((a b) (a c) (a d) (b c) (b d) (c d)) (combinations '(a b c d) 2))
(assert-equal '(nil) (combinations '(a b) 0))
(assert-equal nil (combinations '(a b) 3))
(assert-equal 252 (map-combinations (lambda (c) nil) (iota 10) 5))
(assert-error (combinations '(a b) -1))
(assert-error (map-permutations (lambda (p) (error "stop here")) '(1 2 3)) "stop here")
;; the seed's permutation order for 4-queens by brute force
(assert-equal '((1 3 0 2) (2 0 3 1))
              (let ((r nil))
                (map-permutations (lambda (p) (when (let ((ok t) (i 0))
                                                      (dolist (x p) (let ((j 0)) (dolist (y p) (when (and (< i j) (= (abs (- x y)) (- j i))) (setq ok nil)) (setq j (1+ j)))) (setq i (1+ i)))
                                                      ok)
                                                (push p r)))
                                  (iota 4))
                (nreverse r)))

;;; ---- bit helpers --------------------------------------------------------------------------

(assert-equal 5 (bit-set 1 2))
(assert-equal 1 (bit-clear 5 2))
(assert-equal 5 (bit-clear 5 1))
(assert-equal 4 (bit-flip 5 0))
(assert-equal (expt 2 100) (bit-set 0 100))
(assert-equal (1+ (expt 2 100)) (bit-flip (expt 2 100) 0))
(assert-true (logbitp 70 (bit-set 0 70)))
(assert-equal 8 (lowest-bit 40))
(assert-equal 0 (lowest-bit 0))
(assert-equal (expt 2 80) (lowest-bit (* 3 (expt 2 80))))
(assert-equal '(0 2 5) (bit-positions 37))
(assert-equal '(3 64) (bit-positions (+ 8 (expt 2 64))))
(assert-equal nil (bit-positions 0))
(assert-error (bit-positions -1))
(assert-error (bit-set 1 -1))

(test-summary)
