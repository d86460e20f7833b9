;;; exactcover.lisp — exact-cover (Algorithm X with dancing links): small
;;; cases by hand, error paths, N-queens with secondary columns against
;;; OEIS A000170 and nqueens-count, and the 6 x 10 pentomino rectangle
;;; (2339 solutions up to symmetry, 9356 in all). With LIPQ_TEST_QUICK set
;;; (the GC-torture run) the sizes are smaller and the pentominoes count only
;;; the symmetry-reduced solutions.
(require 'test)
(setq *search-progress* nil)
(defvar *quick* (getenv "LIPQ_TEST_QUICK"))

(defun stat (key) (cadr (member key (last-search-stats))))

;;; ---- small cases --------------------------------------------------------------------

;; Knuth's example (TAOCP 7.2.2.1 (6)): columns a..g, one solution
(defvar *knuth-rows* '((c e) (a d g) (b c f) (a d f) (b g) (d e g)))
(assert-equal 1 (exact-cover *knuth-rows*))
(let ((sol (exact-cover *knuth-rows* :mode :first)))
  ;; the rows themselves (eq), each column exactly once
  (assert-true (every (lambda (r) (memq r *knuth-rows*)) sol))
  (assert-equal '(a b c d e f g) (sort (copy-list (apply append sol)) string<))
  (assert-equal 3 (length sol))
  ;; columns in order of first appearance: c e a d g b f; c is the first with
  ;; the fewest candidates (2), so a row with c is chosen first
  (assert-true (memq 'c (car sol))))
(assert-equal (list (exact-cover *knuth-rows* :mode :first)) (exact-cover *knuth-rows* :mode :all))

(defvar *rows2* '((a b) (c) (a) (b c) (b)))
(assert-equal 3 (exact-cover *rows2*))
(let ((all (exact-cover *rows2* :mode :all)))
  (assert-equal 3 (length all))
  (dolist (s all) (assert-equal '(a b c) (sort (copy-list (apply append s)) string<))))
(let ((seen nil))
  (assert-equal 3 (exact-cover *rows2* :mode :each :on-solution (lambda (s) (push s seen))))
  (assert-equal (exact-cover *rows2* :mode :all) (reverse seen)))
(assert-equal 2 (exact-cover *rows2* :max-solutions 2))
(assert-equal :max-solutions (stat :stopped))
;; no solution; a primary column that no row covers
(assert-equal 0 (exact-cover '((a b) (b c))))
(assert-equal nil (exact-cover '((a b) (b c)) :mode :first))
(assert-equal 0 (exact-cover '((a) (b)) :primary '(a b z)))
;; secondary columns: covered at most once
(assert-equal 3 (exact-cover '((a x) (b x) (a) (b)) :secondary '(x)))   ; (a x)(b), (b x)(a), (a)(b)
(assert-equal 3 (length (exact-cover '((a x) (b x) (a) (b)) :secondary '(x) :mode :all :max-solutions 10)))
;; column names of any kind, compared with equal
(assert-equal 1 (exact-cover (list (list "s" '(1 2)) (list 3) (list (list 1 2) 3))))
(assert-equal 1 (exact-cover (list (list "s" (list 1 2)) (list 3)) :primary (list "s" 3 '(1 2))))
;; no primary columns: the empty solution
(assert-equal '(nil) (exact-cover nil :mode :all))

;; errors
(assert-error (exact-cover '((a a))) "twice")
(assert-error (exact-cover '((a b)) :primary '(a)) "neither primary nor secondary")
(assert-error (exact-cover '((a b)) :primary '(a) :secondary '(a b)) "both primary and secondary")
(assert-error (exact-cover '(a b)) "row must be a list")
(assert-error (exact-cover '((a)) :mode :sideways) ":mode")
(assert-error (exact-cover *rows2* :on-solution (lambda (s) (error "no thanks"))) "no thanks")
(assert-equal '((a b) (c))
              (catch 'got (exact-cover *rows2* :on-solution (lambda (s) (throw 'got s)))))
(assert-equal 3 (exact-cover *rows2*))

;;; ---- N-queens as exact cover ---------------------------------------------------------------

(defun queens-rows (n)
  (let ((rows nil))
    (dotimes (r n)
      (dotimes (c n)
        (push (list (list 'r r) (list 'c c) (list 'a (+ r c)) (list 'b (- r c))) rows)))
    (nreverse rows)))
(defun queens-secondary (n)
  (let ((s nil))
    (dotimes (k (1- (* 2 n)))
      (push (list 'a k) s)
      (push (list 'b (- k (1- n))) s))
    s))
(defun queens-ec (n) (exact-cover (queens-rows n) :secondary (queens-secondary n)))

(defvar *a000170* '(1 0 0 2 10 4 40 92 352 724 2680 14200))
(dolist (n (iota (if *quick* 6 12) 1))
  (assert-equal (nth (1- n) *a000170*) (queens-ec n))
  (assert-equal (nqueens-count n) (queens-ec n)))
;; the 8-queens solutions found are valid placements
(let ((sols (exact-cover (queens-rows 8) :secondary (queens-secondary 8) :mode :all)))
  (assert-equal 92 (length sols))
  (assert-true (every (lambda (s) (= 8 (length s))) sols)))

;;; ---- nqueens-count ----------------------------------------------------------------------------

(dolist (n (iota (if *quick* 10 12) 1))
  (assert-equal (nth (1- n) *a000170*) (nqueens-count n)))
(assert-equal 1 (nqueens-count 0))
(assert-equal (nqueens-count 11 1) (nqueens-count 11 3))
(assert-equal (nqueens-count 12) (nqueens-count 12 1))
(assert-error (nqueens-count -1))
(assert-error (nqueens-count 40) "at most")

;;; ---- pentominoes: the 6 x 10 rectangle ---------------------------------------------------------

(defvar *pentominoes*
  '((f (0 1) (0 2) (1 0) (1 1) (2 1))
    (i (0 0) (0 1) (0 2) (0 3) (0 4))
    (l (0 0) (1 0) (2 0) (3 0) (3 1))
    (n (0 1) (1 1) (2 0) (2 1) (3 0))
    (p (0 0) (0 1) (1 0) (1 1) (2 0))
    (t (0 0) (0 1) (0 2) (1 1) (2 1))
    (u (0 0) (0 2) (1 0) (1 1) (1 2))
    (v (0 0) (1 0) (2 0) (2 1) (2 2))
    (w (0 0) (1 0) (1 1) (2 1) (2 2))
    (x (0 1) (1 0) (1 1) (1 2) (2 1))
    (y (0 1) (1 0) (1 1) (2 1) (3 1))
    (z (0 0) (0 1) (1 1) (2 1) (2 2))))

(defun cell< (a b) (or (< (car a) (car b)) (and (= (car a) (car b)) (< (cadr a) (cadr b)))))
(defun normalize (cells)
  (let ((r0 (apply min (mapcar car cells))) (c0 (apply min (mapcar cadr cells))))
    (sort (mapcar (lambda (p) (list (- (car p) r0) (- (cadr p) c0))) cells) cell<)))
;; the 8 symmetries of the square
(defun orientations (cells)
  (let ((out nil) (cur cells))
    (dotimes (k 4)
      (setq cur (mapcar (lambda (p) (list (cadr p) (- (car p)))) cur))       ; rotate
      (dolist (o (list cur (mapcar (lambda (p) (list (car p) (- (cadr p)))) cur)))   ; and mirror
        (let ((nrm (normalize o)))
          (unless (member nrm out) (push nrm out)))))
    (nreverse out)))
(assert-equal 63 (apply + (mapcar (lambda (p) (length (orientations (cdr p)))) *pentominoes*)))
(assert-equal 1 (length (orientations (cdr (assoc 'x *pentominoes*)))))
(assert-equal 8 (length (orientations (cdr (assoc 'f *pentominoes*)))))

;; rows: (piece cell ...), cells numbered r*10+c. only-quadrant: the X
;; pentomino's centre restricted to the upper-left quarter (rows 0-2,
;; columns 0-4), which picks one solution of each class of 4 (no X can sit on
;; a centre line of a 6 x 10 board).
(defun pentomino-rows (h w only-quadrant)
  (let ((rows nil))
    (dolist (p *pentominoes*)
      (dolist (o (orientations (cdr p)))
        (dotimes (r h)
          (dotimes (c w)
            (let ((cells (mapcar (lambda (q) (list (+ r (car q)) (+ c (cadr q)))) o)))
              (when (and (every (lambda (q) (and (< (car q) h) (< (cadr q) w))) cells)
                         (or (not only-quadrant) (not (eq (car p) 'x))
                             (and (<= (+ r 1) (quotient (1- h) 2)) (<= (+ c 1) (quotient (1- w) 2)))))
                (push (cons (car p) (mapcar (lambda (q) (+ (* w (car q)) (cadr q))) cells)) rows)))))))
    (nreverse rows)))

(unless *quick*   ; (the board's rows take long to build under GC torture)
(let ((reduced (exact-cover (pentomino-rows 6 10 t))))
  (assert-equal 2339 reduced)
  (progn
    ;; all solutions, and the same number of classes by canonical forms
    (let ((classes (make-hash-table 'equal)) (w 10) (h 6))
      (assert-equal 9356
                    (exact-cover (pentomino-rows h w nil)
                                 :on-solution
                                 (lambda (sol)
                                   ;; board as a vector of piece names; canonical = least printed form
                                   (let ((forms nil))
                                     (dolist (tr '((nil . nil) (t . nil) (nil . t) (t . t)))
                                       (let ((v (make-vector (* w h) nil)))
                                         (dolist (row sol)
                                           (dolist (cell (cdr row))
                                             (let ((r (quotient cell w)) (c (rem cell w)))
                                               (when (car tr) (setq r (- h 1 r)))
                                               (when (cdr tr) (setq c (- w 1 c)))
                                               (aset v (+ (* r w) c) (car row)))))
                                         (push (prin1-to-string v) forms)))
                                     (puthash (car (sort forms string<)) t classes)))))
      (assert-equal reduced (hash-table-count classes))))))
;; tilings of a 3 x 5 board by distinct pentominoes: exact cover with the
;; pieces as secondary columns, against a dfs that fills the lowest empty cell
(let* ((rows (pentomino-rows 3 5 nil))
       (pieces (mapcar car *pentominoes*))
       (masks (mapcar (lambda (r) (cons (car r) (apply logior (mapcar (lambda (c) (ash 1 c)) (cdr r))))) rows))
       (full (1- (ash 1 15))))
  (let ((ec (exact-cover rows :secondary pieces))
        (d (dfs (cons 0 nil)
                (lambda (st)
                  (let* ((occ (car st)) (low (lowest-bit (logand full (lognot occ)))) (out nil))
                    (dolist (m masks)
                      (when (and (/= 0 (logand (cdr m) low)) (= 0 (logand (cdr m) occ))
                                 (= low (lowest-bit (cdr m))) (not (memq (car m) (cdr st))))
                        (push (cons (logior occ (cdr m)) (cons (car m) (cdr st))) out)))
                    out))
                (lambda (st) (= (car st) full)))))
    (assert-true (> ec 0))
    (assert-equal d ec)))

(test-summary)
