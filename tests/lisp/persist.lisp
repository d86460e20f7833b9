;;; persist.lisp — (save file obj) / (restore file): any structure, cycles and
;;; sharing included, goes through the printer and comes back isomorphic;
;;; hash tables come back as tables; bad and cut-short files are errors; a
;;; failed save leaves the previous file alone. Runs normally and under GC
;;; torture (LIPQ_GC_TORTURE=1 LIPQ_TEST_QUICK=1: smaller sizes).
(require 'test)

(defvar *quick* (getenv "LIPQ_TEST_QUICK"))
(defvar *dir* (or (getenv "TMPDIR") "/tmp"))
(defvar *stamp* (get-internal-real-time))
(defvar *files* nil)
(defun tmpfile (tag)
  (let ((f (format nil "~a/lipq-persist-~a-~a.sav" *dir* *stamp* tag)))
    (push f *files*)
    f))

(defun shared-text (x)
  (let ((*print-shared* t)) (prin1-to-string x)))

;; save then restore; the copy prints (with every shared object labelled)
;; exactly as the original, so it has the same shape and the same sharing.
(defun round-trip (tag x)
  (let ((f (tmpfile tag)))
    (save f x)
    (restore f)))
(defun same-shape (x y) (string= (shared-text x) (shared-text y)))

;;; ---- atoms ----
(dolist (x (list nil t 0 -1 4611686018427387903 4611686018427387904
                 (- (expt 3 200)) 'foo '|Mixed Case| '|a(b)c| "" "a \"quoted\" \\ string
with a new line" (code-char 0)))
  (assert-equal x (round-trip "atom" x)))

;;; ---- lists, dotted lists, vectors, quads ----
(let ((x (list 1 '(2 . 3) (vector 'a "b" (vector)) (list) '(nested (deeper (deepest))))))
  (assert-equal x (round-trip "list" x)))
(let* ((q (read-from-string "#q(1 2 3 4)"))
       (y (round-trip "quad" (list q q))))
  (assert-equal '(1 2 3 4) (list (car (car y)) (cbr (car y)) (ccr (car y)) (cdr (car y))))
  (assert-true (eq (car y) (cadr y))))

;;; ---- sharing and cycles ----
(let* ((s (list 1 2))
       (x (list s s (vector s)))
       (y (round-trip "shared" x)))
  (assert-equal x y)
  (assert-true (eq (car y) (cadr y)))
  (assert-true (eq (car y) (aref (caddr y) 0)))
  (assert-false (eq (car y) s)))
(let ((ring (list 'a 'b 'c)))
  (setf (cdr (cddr ring)) ring)
  (let ((y (round-trip "ring" ring)))
    (assert-true (same-shape ring y))
    (assert-true (eq y (cdddr y)))
    (assert-equal '(a b c a b) (list (nth 0 y) (nth 1 y) (nth 2 y) (nth 3 y) (nth 4 y)))))
(let ((v (vector 1 nil 3)))
  (setf (aref v 1) v)                         ; a vector that holds itself
  (let ((y (round-trip "selfvec" v)))
    (assert-true (eq y (aref y 1)))
    (assert-equal 3 (aref y 2))))
;; A DAG with heavy sharing: 2^n paths, n+1 cells.
(let ((d nil))
  (dotimes (i 40) (setq d (cons d d)))
  (let ((y (round-trip "dag" d)))
    (assert-true (same-shape d y))
    (assert-true (eq (car y) (cdr y)))))

;;; ---- hash tables ----
(let ((h (make-hash-table 'equal))
      (e (make-hash-table)))
  (puthash '(1 2) "one-two" h)
  (puthash "key" 'sym h)
  (puthash 'e e h)
  (puthash 'self h h)
  (puthash 'k '(v) e)
  (let* ((y (round-trip "hash" (list h h e)))
         (h2 (car y)))
    (assert-true (hash-table-p h2))
    (assert-true (eq h2 (cadr y)))
    (assert-equal 4 (hash-table-count h2))
    (assert-equal "one-two" (gethash (list 1 2) h2))
    (assert-equal 'sym (gethash "key" h2))
    (assert-true (eq h2 (gethash 'self h2)))
    (assert-true (eq (caddr y) (gethash 'e h2)))
    (assert-equal '(v) (gethash 'k (caddr y)))))

;;; ---- a larger result: a list of solutions with shared tails ----
(let* ((n (if *quick* 300 20000))
       (tail (list 'shared 'tail))
       (sols nil))
  (dotimes (i n) (push (cons i tail) sols))
  (let ((y (round-trip "big" sols)))
    (assert-equal n (length y))
    (assert-equal (car sols) (car y))
    (assert-true (eq (cdr (car y)) (cdr (cadr y))))
    (assert-true (same-shape sols y))))

;;; ---- what cannot be saved, and bad files ----
(let ((f (tmpfile "keep")))
  (save f '(the good value))
  (assert-error (save f (list 1 (lambda (x) x))) "cannot save")
  (assert-error (save f (list (gensym))) "uninterned")
  (assert-equal '(the good value) (restore f))   ; the failed saves left it alone
  ;; cut short at every length: always an error, never a partial value
  (let ((text (read-file f)) (bad 0))
    (dotimes (k (string-length text))
      (when (< k (- (string-length text) 1))
        (write-file f (substring text 0 k))
        (unless (null (errset (restore f) nil)) (setq bad (1+ bad)))))
    (assert-equal 0 bad)
    (write-file f text)
    (assert-equal '(the good value) (restore f))))
(let ((f (tmpfile "bad")))
  (write-file f "(not a save file)")
  (assert-error (restore f) "not a lipq save file")
  (write-file f (format nil ";; lipq save 1~%(a b~%;; end~%"))
  (assert-error (restore f) "corrupt")
  (write-file f (format nil ";; lipq save 1~%(a) (b)~%;; end~%"))
  (assert-error (restore f) "more than one")
  (write-file f (format nil ";; lipq save 1~%(a $7 b)~%;; end~%"))
  (assert-error (restore f) "not defined"))
(assert-error (restore (format nil "~a/lipq-no-such-file-~a" *dir* *stamp*)) "cannot open")
(assert-error (save "/nonexistent-dir-for-lipq/x.sav" 1) "cannot create")
(assert-error (save 12 1) "save")

;;; ---- the file is plain text: a header, the printed object, an end line ----
(let ((f (tmpfile "text")))
  (save f (let ((s (list 'x))) (list s s)))
  (assert-equal (format nil ";; lipq save 1~%(($1:x) $1)~%;; end~%") (read-file f)))

(dolist (f *files*) (delete-file f))
(assert-false (file-exists-p (car *files*)))
(test-summary)
