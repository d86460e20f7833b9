;;; tait: Tait's problem (scripts/tait.lisp, "the paper's program"), one pair
;;; of empties, n = 9: 1 2 1 2 ... 1 2 0 0; a move lifts two adjacent stones
;;; into two adjacent empty cells, order kept.  Depth-first search to depth n,
;;; children in the paper's order (source p, then target q, left to right),
;;; pruned by the paper's bound on the difference D' (after i >= 2 moves,
;;; D' <= 2(n-i)+1); a state at depth n with D' = 1 is a solution.  32
;;; solutions; repeated; prints the sum of the counts.
(defun tait-start (n)
  (let ((s (list 0 0)) (i 0))
    (loop while (< i n) do
      (setq s (cons 1 (cons 2 s)))
      (setq i (1+ i)))
    s))

(defun stone-changes (s)
  (let ((c 0) (prev 0))
    (loop while s do
      (let ((x (car s)))
        (when (/= x 0)
          (when (and (/= prev 0) (/= x prev)) (setq c (1+ c)))
          (setq prev x)))
      (setq s (cdr s)))
    c))

(defun interior-runs (s)
  (let ((g 0) (seen nil) (gap nil))
    (loop while s do
      (if (= (car s) 0)
          (when seen (setq gap t))
          (progn
            (when gap (setq g (1+ g)))
            (setq gap nil)
            (setq seen t)))
      (setq s (cdr s)))
    g))

(defun dprime (s) (+ (stone-changes s) (interior-runs s)))

(defun empty-pairs (s q)
  (cond ((null (cdr s)) nil)
        ((and (= (car s) 0) (= (cadr s) 0)) (cons q (empty-pairs (cdr s) (1+ q))))
        (t (empty-pairs (cdr s) (1+ q)))))

(defun move-state (s i p q a b)
  (if (null s)
      nil
      (cons (cond ((= i p) 0) ((= i (1+ p)) 0) ((= i q) a) ((= i (1+ q)) b) (t (car s)))
            (move-state (cdr s) (1+ i) p q a b))))

(defun tait-search (s level n)
  (if (= level n)
      (if (= (dprime s) 1) 1 0)
      (let ((targets (empty-pairs s 0)) (ptr s) (p 0) (i (1+ level)) (c 0))
        (loop while (cdr ptr) do
          (when (and (/= (car ptr) 0) (/= (cadr ptr) 0))
            (dolist (q targets)
              (let ((child (move-state s 0 p q (car ptr) (cadr ptr))))
                (when (or (< i 2) (<= (dprime child) (+ (* 2 (- n i)) 1)))
                  (setq c (+ c (tait-search child i n)))))))
          (setq ptr (cdr ptr))
          (setq p (1+ p)))
        c)))

(defun main ()
  (let ((s 0))
    (dotimes (i 15)
      (setq s (+ s (tait-search (tait-start 9) 0 9))))
    (format t "~D~%" s)))

(main)
