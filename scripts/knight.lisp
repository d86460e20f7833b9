;;; knight.lisp — knight's tours of the 5x5 board from a corner.
;;;
;;; Seed: Makoto Hiroi, "JavaScript Junk Scripts", knight.js.  The board is a
;;; 9x9 array whose outer two rows and columns are a wall (-1), so a knight's
;;; jump never needs a range check: a move is legal when the target holds 0.
;;; Plain backtracking from board[2][2] finds every tour (304).
;;;
;;;   lipq scripts/knight.lisp         tours #1, #2, #303, #304 and the count (the
;;;                                    seed's listing without its elision line)
;;;   lipq scripts/knight.lisp all     every tour, then the count (node's full output)
;;;   lipq scripts/knight.lisp quick   as the default, without the slower timing variants
;;;
;;; Lines starting with ";" are timings and notes.

(defvar *knight-dx* #(1 2 2 1 -1 -2 -2 -1))    ; row deltas, in the seed's order
(defvar *knight-dy* #(-2 -1 1 2 2 1 -1 -2))    ; column deltas

(defmacro board-ref (board x y) `(aref (aref ,board ,x) ,y))

;; A 9x9 board: -1 in the wall, 0 inside (rows and columns 2..6).
(defun knight-make-board ()
  (let ((board (make-vector 9)))
    (dotimes (x 9)
      (let ((row (make-vector 9 -1)))
        (aset board x row)
        (when (<= 2 x 6)
          (do ((y 2 (1+ y))) ((> y 6)) (aset row y 0)))))
    board))

;; The playing area, one string per row: "1,16,21,10,25".
(defun knight-board-lines (board)
  (let ((out nil))
    (do ((x 2 (1+ x))) ((> x 6))
      (let ((cells nil))
        (do ((y 6 (1- y))) ((< y 2)) (push (board-ref board x y) cells))
        (push (string-join cells ",") out)))
    (nreverse out)))

;;; By hand: the seed's recursion.  N is the number of the knight's current
;;; square (x, y); each legal jump writes n+1, recurses and clears the square.
(defun knight-search (emit board n x y)
  (if (= n 25)
      (funcall emit board)
      (dotimes (i 8)
        (let ((x1 (+ x (aref *knight-dx* i))) (y1 (+ y (aref *knight-dy* i))))
          (when (eql (board-ref board x1 y1) 0)
            (setf (board-ref board x1 y1) (1+ n))
            (knight-search emit board (1+ n) x1 y1)
            (setf (board-ref board x1 y1) 0))))))

;; Every tour, as a list of its 5 printed rows, in the seed's order.
(defun knight-tours-by-hand ()
  (let ((board (knight-make-board)) (tours nil))
    (setf (board-ref board 2 2) 1)
    (knight-search (lambda (b) (push (knight-board-lines b) tours)) board 1 2 2)
    (nreverse tours)))

;; Counting only, the same search.
(defun knight-count-by-hand ()
  (let ((board (knight-make-board)) (c 0))
    (setf (board-ref board 2 2) 1)
    (knight-search (lambda (b) (incf c)) board 1 2 2)
    c))

;;; With the native dfs driver.  A state is the knight's path so far, newest
;;; square first (a square is x*9+y); the successors are the jumps to squares
;;; inside the board that are not on the path; the goal is a path of 25 squares.
(defun knight-square-free-p (sq path)
  (and (<= 2 (quotient sq 9) 6) (<= 2 (rem sq 9) 6) (not (memq sq path))))

(defun knight-extend (path)
  (let ((out nil) (sq (car path)))
    (dotimes (i 8)
      (let ((s1 (+ sq (* 9 (aref *knight-dx* i)) (aref *knight-dy* i))))
        (when (knight-square-free-p s1 path) (push (cons s1 path) out))))
    (nreverse out)))

(defun knight-goal-p (path) (= (length path) 25))

;; A path (newest square first) drawn as the seed's board.
(defun knight-path-lines (path)
  (let ((board (knight-make-board)) (n (length path)))
    (dolist (sq path)
      (setf (board-ref board (quotient sq 9) (rem sq 9)) n)
      (decf n))
    (knight-board-lines board)))

(defun knight-tours-with-driver ()
  (let ((tours nil))
    (dfs (list (+ (* 2 9) 2)) #'knight-extend #'knight-goal-p :mode :each
         :on-solution (lambda (states) (push (knight-path-lines (car (last states))) tours)))
    (nreverse tours)))

(defun knight-print-tour (rows)
  (dolist (r rows) (write-line r))
  (terpri))

(defun knight-ms (t0) (seconds-string (- (get-internal-run-time) t0)))

(defun knight-main (all quick)
  (let* ((t0 (get-internal-run-time))
         (tours (knight-tours-by-hand))
         (t-hand (knight-ms t0)))
    (if all
        (mapc #'knight-print-tour tours)
        (let ((n (length tours)))
          (knight-print-tour (nth 0 tours))
          (knight-print-tour (nth 1 tours))
          (knight-print-tour (nth (- n 2) tours))
          (knight-print-tour (nth (- n 1) tours))))
    (print (length tours))
    (format t "; by hand, collecting every tour: ~a CPU s~%" t-hand)
    (unless quick
      (let ((t1 (get-internal-run-time)))
        (format t "; by hand, counting only: ~d tours in ~a CPU s~%" (knight-count-by-hand) (knight-ms t1))))
    (cond
      (quick (format t "; quick: the native dfs variants are skipped~%"))
      ((boundp 'dfs)
        (let* ((t2 (get-internal-run-time))
               (dtours (knight-tours-with-driver))
               (t-drv (knight-ms t2))
               (t3 (get-internal-run-time))
               (count (dfs (list 20) #'knight-extend #'knight-goal-p :mode :count)))
          (format t "; native dfs, collecting every tour: ~a CPU s (same tours in the same order: ~a)~%"
                  t-drv (if (equal dtours tours) "yes" "NO"))
          (format t "; native dfs, :mode :count: ~d in ~a CPU s~%" count (knight-ms t3))))
      (t (format t "; native search drivers (dfs) not available in this build: skipped~%")))))

;; For scripts/demo.lisp: (label value seed's-value) triples.
(defun knight-demo ()
  (let ((tours (knight-tours-by-hand)))
    (list (list "knight: tours of 5x5 from a corner" (length tours) 304)
          (list "knight: first tour, top row" (car (car tours)) "1,16,21,10,25"))))

(unless (boundp '*seeds-demo*)
  (knight-main (member "all" *args*) (or (member "quick" *args*) (getenv "LIPQ_TEST_QUICK"))))
