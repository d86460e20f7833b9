;;; search_overhead.lisp — the cost of driving a search natively (dfs calling
;;; Lisp closures for successors, goal and prune) against the same search
;;; written as a recursive lipq function calling the same functions.
;;;
;;;   build/lipq bench/search_overhead.lisp [n]      (default n = 10)
;;;
;;; Two searches: n-queens with placements as lists (successors generate the
;;; safe columns, goal = n queens), and the same with the safety test moved
;;; to a prune function (successors give all n columns). Each is timed
;;; (CPU ms, best of 3) both ways; the ratio is recursive / driver (above 1:
;;; the driver is faster).

(defvar *n* (if (and (boundp '*args*) *args*) (string-to-number (car *args*)) 10))

(defun ov-safe (c s)
  (let ((d 1) (ok t))
    (while (and ok s)
      (let ((x (car s)))
        (when (or (= x c) (= (abs (- x c)) d)) (setq ok nil)))
      (setq s (cdr s))
      (setq d (1+ d)))
    ok))

(defun ov-succ (s)
  (let ((r nil) (c (1- *n*)))
    (while (>= c 0)
      (when (ov-safe c s) (setq r (cons (cons c s) r)))
      (setq c (1- c)))
    r))

(defun ov-all-succ (s)
  (let ((r nil) (c (1- *n*)))
    (while (>= c 0)
      (setq r (cons (cons c s) r))
      (setq c (1- c)))
    r))

(defun ov-goal (s) (= (length s) *n*))

;; prune: the newest queen attacks an older one
(defun ov-prune (s depth)
  (and s (not (ov-safe (car s) (cdr s)))))

;; ---- the recursive versions ----
(defun rec-count (s)
  (if (ov-goal s)
      1
      (let ((n 0))
        (dolist (c (ov-succ s)) (setq n (+ n (rec-count c))))
        n)))

(defun rec-count-prune (s depth)
  (cond ((ov-prune s depth) 0)
        ((ov-goal s) 1)
        (t (let ((n 0) (d (1+ depth)))
             (dolist (c (ov-all-succ s)) (setq n (+ n (rec-count-prune c d))))
             n))))

(defun best-of-3 (thunk)
  (let ((best nil) (val nil))
    (dotimes (i 3)
      (let ((t0 (runtime)))
        (setq val (funcall thunk))
        (let ((dt (- (runtime) t0)))
          (when (or (null best) (< dt best)) (setq best dt)))))
    (cons best val)))

(defun ratio-string (a b)
  ;; a / b with two decimals (integers only)
  (if (= b 0) "inf"
      (let ((x (quotient (+ (* a 100) (quotient b 2)) b)))
        (format nil "~d.~a~d" (quotient x 100) (if (< (rem x 100) 10) "0" "") (rem x 100)))))

(defun compare (name driver recursive)
  (let* ((d (best-of-3 driver))
         (r (best-of-3 recursive)))
    (unless (equal (cdr d) (cdr r))
      (format t "MISMATCH ~a: driver ~s, recursive ~s~%" name (cdr d) (cdr r))
      (exit 1))
    (format t "~a: ~d solutions, ~d nodes; driver ~d ms, recursive ~d ms, ratio recursive/driver ~a~%"
            name (cdr d) *nodes* (car d) (car r) (ratio-string (car r) (car d)))))

(defvar *nodes* 0)
(setq *search-progress* nil)

(defun nodes-of-last () (cadr (member :nodes (last-search-stats))))

(format t "n = ~d~%" *n*)
(dfs nil ov-succ ov-goal)
(setq *nodes* (nodes-of-last))
(compare "safe successors"
         (lambda () (dfs nil ov-succ ov-goal))
         (lambda () (rec-count nil)))
(dfs nil ov-all-succ ov-goal :prune ov-prune)
(setq *nodes* (nodes-of-last))
(compare "all successors + prune"
         (lambda () (dfs nil ov-all-succ ov-goal :prune ov-prune))
         (lambda () (rec-count-prune nil 0)))
