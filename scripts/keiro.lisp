;;; keiro.lisp — route search on the seed's 7-node graph (keiro = route).
;;;
;;; Seed: Makoto Hiroi, "JavaScript Junk Scripts", keiro.js.  From node 0 to
;;; node 6, print every simple path by depth-first search, by breadth-first
;;; search and by iterative deepening, in the seed's order and in node's array
;;; notation ("[ 0, 2, 4, 6 ]").
;;;
;;;   lipq scripts/keiro.lisp          the seed's output, then timing lines (";")
;;;   lipq scripts/keiro.lisp quick    the same with fewer timing repetitions
;;;
;;; Each search is written twice: by hand (recursion, and a FIFO of paths), and
;;; with the native search drivers dfs / bfs (when this build has them).  Both
;;; must print the same lines; the script checks that and prints the timings
;;; (lines starting with ";").
;;;
;;;   1 --- 3 --- 5
;;;  /|     |
;;; 0 |     |
;;;  \|     |
;;;   2 --- 4 --- 6

;; The adjacency lists, in the seed's order (the order decides the output order).
(defvar *keiro-adjacent*
  #((1 2) (0 2 3) (0 1 4) (1 4 5) (2 3 6) (3) (4)))

(defun keiro-neighbours (node) (aref *keiro-adjacent* node))

;; node's console.log of an array of numbers: "[ 0, 1, 2 ]".
(defun js-array-string (xs)
  (if xs (concat "[ " (string-join xs ", ") " ]") "[]"))

;; Paths are kept reversed while searching (the newest node first, so
;; extending one is a cons); EMIT gets them in start..goal order.

;;; By hand.

;; Depth-first: from the last node, try each neighbour not yet on the path.
;; A path that reaches the goal is reported and not extended.
(defun keiro-dfs (emit goal path)
  (if (eql (car path) goal)
      (funcall emit (reverse path))
      (dolist (q (keiro-neighbours (car path)))
        (unless (memq q path)
          (keiro-dfs emit goal (cons q path))))))

;; Breadth-first: a FIFO of whole paths, kept as a list with a pointer to its
;; last cell (the LISP 1.5 "tconc" queue).  There is no visited set: every
;; simple path is enqueued, so all of them come out, shortest first.
(defun keiro-bfs (emit start goal)
  (prog (head tail path)
    (setq head (list (list start)) tail head)
    loop
    (when (null head) (return nil))
    (setq path (car head) head (cdr head))
    (if (eql (car path) goal)
        (funcall emit (reverse path))
        (dolist (y (keiro-neighbours (car path)))
          (unless (memq y path)
            (let ((cell (list (cons y path))))
              (if head (rplacd tail cell) (setq head cell))
              (setq tail cell)))))
    (go loop)))

;; Iterative deepening: for LIMIT = 1 .. 7 nodes, a depth-first search that
;; only looks at paths of exactly LIMIT nodes.
(defun keiro-dfsi (emit goal limit path depth)
  (if (= depth limit)
      (when (eql (car path) goal) (funcall emit (reverse path)))
      (dolist (x (keiro-neighbours (car path)))
        (unless (memq x path)
          (keiro-dfsi emit goal limit (cons x path) (1+ depth))))))

(defun keiro-ids (emit start goal)
  (do ((limit 1 (1+ limit)))
      ((> limit (vector-length *keiro-adjacent*)))
    (funcall emit (format nil "----- ~d -----" limit))
    (keiro-dfsi emit goal limit (list start) 1)))

(defun keiro-lines-by-hand ()
  (let ((out nil))
    (labels ((emit (x) (push (if (stringp x) x (js-array-string x)) out)))
      (emit "----- depth first search -----")
      (keiro-dfs #'emit 6 (list 0))
      (emit "----- breadth first search -----")
      (keiro-bfs #'emit 0 6)
      (emit "----- ids -----")
      (keiro-ids #'emit 0 6))
    (nreverse out)))

;;; With the native drivers.  A search state is a whole reversed path, so the
;;; drivers' own bookkeeping (visited sets, depth limits) cannot lose a simple
;;; path: every state is new.  The solution path the drivers return is the list
;;; of states start..goal; its last state is the route we want.

(defun keiro-extend (path)
  (let ((out nil))
    (dolist (q (keiro-neighbours (car path)))
      (unless (memq q path) (push (cons q path) out)))
    (nreverse out)))

(defun keiro-lines-with-drivers ()
  (let ((out nil) (goalp (lambda (path) (eql (car path) 6))))
    (labels ((emit (x) (push (if (stringp x) x (js-array-string x)) out))
             (route (states) (reverse (car (last states)))))
      (emit "----- depth first search -----")
      (dolist (states (dfs (list 0) #'keiro-extend goalp :mode :all))
        (emit (route states)))
      (emit "----- breadth first search -----")
      ;; all simple paths in breadth-first order = all solutions of a dfs
      ;; sorted stably by length (the drivers' bfs returns shortest paths only).
      (dolist (states (keiro-stable-sort-by-length (dfs (list 0) #'keiro-extend goalp :mode :all)))
        (emit (route states)))
      (emit "----- ids -----")
      (do ((limit 1 (1+ limit))) ((> limit 7))
        (emit (format nil "----- ~d -----" limit))
        (let ((lim limit))
          (dfs (list 0) #'keiro-extend
               (lambda (path) (and (eql (car path) 6) (= (length path) lim)))
               :max-depth (1- lim) :mode :each
               :on-solution (lambda (states) (emit (route states)))))))
    (nreverse out)))

;; A stable sort by length, by hand: group the paths by length, shortest first.
(defun keiro-stable-sort-by-length (paths)
  (let ((lens (sort (let ((ls nil)) (dolist (p paths) (pushnew (length p) ls)) ls) #'<))
        (out nil))
    (dolist (n lens)
      (dolist (p paths)
        (when (= (length p) n) (push p out))))
    (nreverse out)))

(defun keiro-time (thunk reps)
  (let ((t0 (get-internal-run-time)))
    (dotimes (i reps) (funcall thunk))
    (quotient (- (get-internal-run-time) t0) reps)))

(defun keiro-main (quick)
  (let ((lines (keiro-lines-by-hand)) (reps (if quick 200 5000)))
    (dolist (l lines) (write-line l))
    (format t "; by hand: ~d CPU microseconds per run of all three searches (~d runs)~%"
            (keiro-time #'keiro-lines-by-hand reps) reps)
    (if (boundp 'dfs)
        (let ((dl (keiro-lines-with-drivers)))
          (format t "; native drivers: ~d CPU microseconds per run (~d runs)~%"
                  (keiro-time #'keiro-lines-with-drivers reps) reps)
          (format t "; native drivers print the same lines: ~a~%" (if (equal dl lines) "yes" "NO")))
        (format t "; native search drivers (dfs) not available in this build: skipped~%"))))

;; For scripts/demo.lisp: (label value seed's-value) triples.
(defun keiro-demo ()
  (let ((dfs-routes nil) (bfs-routes nil) (ids-routes nil))
    (keiro-dfs (lambda (p) (push p dfs-routes)) 6 (list 0))
    (keiro-bfs (lambda (p) (push p bfs-routes)) 0 6)
    (keiro-ids (lambda (p) (when (consp p) (push p ids-routes))) 0 6)
    (list (list "keiro: routes 0->6 (dfs bfs ids)"
                (mapcar #'length (list dfs-routes bfs-routes ids-routes)) '(4 4 4))
          (list "keiro: first route found by bfs"
                (js-array-string (car (last bfs-routes))) "[ 0, 2, 4, 6 ]"))))

(unless (boundp '*seeds-demo*)
  (keiro-main (or (member "quick" *args*) (getenv "LIPQ_TEST_QUICK"))))
