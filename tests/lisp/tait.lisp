;;; tait.lisp — Tait's problem (scripts/tait.lisp): the paper's Table 1, the
;;; supplementary table (and its wrong n = 7 entry), the safe bound, the
;;; bound witness, and the n = 5 printouts against the paper's text.
(require 'test)
(defvar *tait-no-main* t)
(load "scripts/tait.lisp")

(defvar *quick* (getenv "LIPQ_TEST_QUICK"))
(defun counts (f ns) (mapcar f ns))

;;; The measures on the paper's n = 5 solution: D' = 9 9 7 5 3 1.
(defvar *sol5* (tait-first-solution 5 1))
(assert-equal '(9 9 7 5 3 1) (mapcar #'dprime *sol5*))
(assert-equal '(9 8 6 4 2 1) (mapcar #'stone-changes *sol5*))
(assert-equal '(0 1 1 1 1 0) (mapcar #'interior-runs *sol5*))
(assert-true (final-state-p '(0 0 0 0 2 2 2 1 1 1)))
(assert-false (final-state-p '(1 1 0 0 2 2)))          ; D = 1 but not final: D' = 2
(assert-equal '((0 4 (0 0 1 2 1 2)) (1 4 (1 0 0 2 2 1)) (2 4 (1 2 0 0 1 2)))
              (list-moves '(1 2 1 2 0 0)))

;;; Integer states agree with lists.
(let ((s '(1 2 0 0 2 1 1 0 0 2)))
  (assert-equal s (key-to-list (list-to-key s 3) 3 10))
  (assert-equal (stone-changes s) (key-changes (list-to-key s 3) 3))
  (assert-equal (interior-runs s) (key-gaps (list-to-key s 3) 3 10))
  (assert-equal (mapcar (lambda (m) (list-to-key (caddr m) 3)) (list-moves s))
                (let ((out nil)) (key-successors (list-to-key s 3) 3 10 (lambda (k) (push k out)))
                     (nreverse out))))

;;; Table 1 with the paper's own program (hand-written recursion, quad nodes).
(if *quick*
    (assert-equal '(1 1) (counts (lambda (n) (tait-search n 1 #'paper-keep)) '(4 5)))
    (assert-equal '(1 1 1 2 16) (counts (lambda (n) (tait-search n 1 #'paper-keep)) '(4 5 6 7 8))))
(tait-search 5 1 #'paper-keep)
(assert-equal '(62 504) (list *tait-kept* *tait-generated*))

;;; The native driver gives the same counts.
(when (boundp 'dfs)
  (assert-equal (if *quick* '(1) '(1 1 1 2))
                (counts (lambda (n) (tait-search-native n 1 #'paper-keep)) (if *quick* '(4) '(4 5 6 7)))))

;;; Table 1 to n = 10 and the supplementary table, by layered counting with
;;; the same bound (2); the exact counts with the safe bound.
(defun paper-counts (pairs ns) (counts (lambda (n) (car (mitm-count n pairs #'key-paper-keep))) ns))
(defun exact-counts (pairs ns) (counts (lambda (n) (car (mitm-count n pairs #'key-safe-keep))) ns))
(unless *quick*
  (assert-equal '(32 96) (paper-counts 1 '(9 10)))
  (assert-equal '(1 1 1 2 16 32) (exact-counts 1 '(4 5 6 7 8 9)))
  (assert-equal '(1 1 1 1 4 16) (paper-counts 2 '(3 4 5 6 7 8)))
  (assert-equal '(1 1 1 1 9) (exact-counts 2 '(3 4 5 6 7)))
  ;; the two-pair DFS with the paper's program also prints 4 at n = 7
  (assert-equal 4 (tait-search 7 2 #'paper-keep)))
(when *quick*
  (assert-equal '(1 1) (paper-counts 1 '(5 6)))
  (assert-equal '(1 1) (paper-counts 2 '(3 4))))

;;; The paper's supplementary entry for n = 7 is wrong: 9 solutions, 4 survive (2).
;;; (Too big for GC torture; the quick run checks the same machinery at n = 3.)
(if *quick*
    (assert-equal 1 (length (solution-paths 3 2 #'key-safe-keep)))
(let* ((paths (solution-paths 7 2 #'key-safe-keep))
       (cut (remove-if-not (lambda (p) (paper-cut-depth p 7 18)) paths)))
  (assert-equal 9 (length paths))
  (assert-equal 5 (length cut))
  (assert-equal 4 (car (mitm-count 7 2 #'key-paper-keep)))
  ;; the witness: cut at i = 4 where two interior gaps make D' = 8 > 7
  (assert-true (member 4 (mapcar (lambda (p) (paper-cut-depth p 7 18)) cut)))
  (dolist (p paths)
    (assert-true (key-final-p (car (last p)) 7 18))
    (assert-equal 8 (length p)))))

;;; (2) is not a lower bound on the distance; the safe bound is.
(let ((r (if *quick* (check-bounds 3 1) (check-bounds 4 1))))
  (assert-equal (if *quick* 140 630) (car r))
  (assert-true (> (cadr r) 0))
  (assert-equal 0 (caddr r)))
(unless *quick*
  (assert-equal 0 (caddr (check-bounds 3 2))))

;;; The printouts, character for character as in the paper.
(assert-equal (read-file "tests/expected/tait-n5.txt")
              (concat (solution-text *sol5*) (code-char 10)))
(assert-equal (read-file "tests/expected/tait-tree-n5.txt")
              (concat (tait-tree-text 5 2) (code-char 10) (tait-tree-text 5 4) (code-char 10)))

(test-summary)
