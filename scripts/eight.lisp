;;; eight.lisp — the 8-puzzle by breadth-first search, and its whole state space.
;;;
;;; Seed: Makoto Hiroi, "JavaScript Junk Scripts", eight.js.  A board is a
;;; vector of 9 (0 is the space), cells numbered
;;;     0 1 2
;;;     3 4 5
;;;     6 7 8
;;; A move slides the piece next to the space into it.  The seed's BFS goes from
;;; 8,6,7,2,5,4,3,0,1 to 1,2,3,4,5,6,7,8,0 and prints the 32 boards of the
;;; shortest solution it finds first (31 moves).  Then, beyond the seed: a
;;; breadth-first sweep from the goal over all 181440 reachable positions, with
;;; the number of positions at each distance and the positions farthest away.
;;;
;;;   lipq scripts/eight.lisp          the solution, then the sweep, then timings
;;;   lipq scripts/eight.lisp solve    only the solution (tests/expected/seeds/eight.txt)
;;;   lipq scripts/eight.lisp sweep    only the sweep (tests/expected/seeds/eight-sweep.txt)
;;;   add "quick" to skip the slower variants (the native-driver re-runs)
;;;
;;; Lines starting with ";" are timings and notes.

;; The neighbours of each cell, in the seed's order (the order decides which of
;; the several shortest solutions comes out).
(defvar *eight-adjacent*
  #((1 3) (0 2 4) (1 5) (0 4 6) (1 3 5 7) (2 4 8) (3 7) (4 6 8) (5 7)))

(defvar *eight-start* #(8 6 7 2 5 4 3 0 1))
(defvar *eight-goal* #(1 2 3 4 5 6 7 8 0))

;; The board after the piece at cell P slides into the space at S.
(defun eight-move (board p s)
  (let ((nb (copy-vector board)))
    (aset nb s (aref board p))
    (aset nb p 0)
    nb))

(defun eight-space (board)
  (do ((i 0 (1+ i))) ((eql (aref board i) 0) i)))

(defun eight-board-string (board) (string-join (vector-to-list board) ","))

;;; By hand, as the seed: a FIFO of states (board space . previous-state),
;;; a table of boards already seen (a board is marked when it is enqueued, so
;;; its parent is the first state that reached it); the goal test is done when
;;; a state leaves the queue.  The FIFO is a list with a pointer to its last cell.

(defun eight-bfs (start goal)
  (let ((seen (make-hash-table 'equal))
        (head (list (list* start (eight-space start) nil)))
        tail)
    (setq tail head)
    (puthash start t seen)
    (loop
      (when (null head) (return nil))
      (let* ((st (pop head)) (b (car st)) (s (cadr st)))
        (when (equal b goal) (return st))
        (dolist (x (aref *eight-adjacent* s))
          (let ((nb (eight-move b x s)))
            (unless (gethash nb seen)
              (puthash nb t seen)
              (let ((cell (list (list* nb x st))))
                (if head (rplacd tail cell) (setq head cell))
                (setq tail cell)))))))))

;; The chain of boards from the start to the state ST (the seed's print_answer).
(defun eight-answer (st)
  (if (null st) nil (append (eight-answer (cddr st)) (list (car st)))))

;;; With the native bfs driver: states are boards, successors in the seed's
;;; order, the path is the list of boards start..goal.

(defun eight-successors (board)
  (let ((s (eight-space board)))
    (mapcar (lambda (x) (eight-move board x s)) (aref *eight-adjacent* s))))

(defun eight-goal-p (board) (equal board *eight-goal*))

;;; The sweep: breadth-first from the goal, one layer at a time.  DIST maps each
;;; board seen so far to its distance; a layer is a list of boards.

(defun eight-sweep (goal)
  (let ((dist (make-hash-table 'equal))
        (frontier (list goal))
        (hist (list 1))
        (d 0))
    (puthash goal 0 dist)
    (loop
      (let ((next nil))
        (dolist (b frontier)
          (let ((s (eight-space b)))
            (dolist (x (aref *eight-adjacent* s))
              (let ((nb (eight-move b x s)))
                (unless (gethash nb dist)
                  (puthash nb (1+ d) dist)
                  (push nb next))))))
        (when (null next)
          (return (list (nreverse hist) frontier dist)))
        (incf d)
        (push (length next) hist)
        (setq frontier next)))))

;; The sweep printed as node's eight_hist.js prints it.
(defun eight-print-sweep (result)
  (let ((hist (first result)) (far (second result)) (dist (third result)) (total 0) (d 0))
    (write-line "distance count cumulative")
    (dolist (c hist)
      (incf total c)
      (format t "~d ~d ~d~%" d c total)
      (incf d))
    (format t "total ~d~%" total)
    (format t "max distance ~d~%" (1- (length hist)))
    (write-line "positions at max distance (sorted):")
    (dolist (s (sort (mapcar #'eight-board-string far) #'string<))
      (write-line s))
    (format t "distance of ~a = ~d~%" (eight-board-string *eight-start*) (gethash *eight-start* dist))))

(defun eight-cpu (t0) (seconds-string (- (get-internal-run-time) t0)))

(defun eight-main (solve sweep quick)
  (let ((drivers (and (boundp 'bfs) (not quick))))
    (when solve
      (let* ((t0 (get-internal-run-time))
             (answer (eight-answer (eight-bfs *eight-start* *eight-goal*)))
             (t-hand (eight-cpu t0)))
        (dolist (b answer) (write-line (eight-board-string b)))
        (format t "; solve by hand (FIFO + equal hash table): ~d moves, ~a CPU s~%" (1- (length answer)) t-hand)
        (cond (drivers
               (let* ((t1 (get-internal-run-time))
                      (path (bfs *eight-start* #'eight-successors #'eight-goal-p :test :equal :mode :first))
                      (t-drv (eight-cpu t1)))
                 (format t "; solve with native bfs: ~d moves, ~a CPU s, same boards: ~a, stats ~s~%"
                         (1- (length path)) t-drv (if (equal path answer) "yes" "NO") (last-search-stats))))
              ((not (boundp 'bfs))
               (format t "; native search drivers (bfs) not available in this build: skipped~%")))))
    (when sweep
      (let* ((t0 (get-internal-run-time))
             (result (eight-sweep *eight-goal*))
             (t-hand (eight-cpu t0)))
        (eight-print-sweep result)
        (format t "; sweep by hand (layers + equal hash table): ~a CPU s~%" t-hand)
        (when drivers
          ;; A goal that never holds makes bfs visit the whole space.
          (let ((t1 (get-internal-run-time)))
            (bfs *eight-goal* #'eight-successors (lambda (b) nil) :test :equal :mode :first)
            (format t "; sweep with native bfs (no goal): ~a CPU s, stats ~s~%"
                    (eight-cpu t1) (last-search-stats))))))))

;; For scripts/demo.lisp: (label value seed's-value) triples.
(defun eight-demo ()
  (let ((answer (eight-answer (eight-bfs *eight-start* *eight-goal*))))
    (list (list "eight: moves from 8,6,7,2,5,4,3,0,1" (1- (length answer)) 31)
          (list "eight: second board" (eight-board-string (second answer)) "8,6,7,2,0,4,3,5,1"))))

(unless (boundp '*seeds-demo*)
  (let ((solve (member "solve" *args*)) (sweep (member "sweep" *args*)))
    (eight-main (or solve (not sweep)) (or sweep (not solve))
                (or (member "quick" *args*) (getenv "LIPQ_TEST_QUICK")))))
