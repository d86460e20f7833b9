;;; reader.lisp — reading labels: LIPQ $n: / $n (names a cell) and Common
;;; Lisp #n= / #n# (names a datum), quad cells #q(...), and the errors for bad
;;; labels, which give line:column.

(require 'test)

;;; ---- LIPQ labels ------------------------------------------------------------

(let ((c (read-from-string "($1:a b c . $1)")))
  (assert-true (eq (cdddr c) c))
  (assert-equal 'c (caddr c)))
(let ((s (read-from-string "(($1:1 2) $1)")))
  (assert-true (eq (car s) (cadr s)))
  (assert-equal '(1 2) (car s)))
(let ((x (read-from-string "($1:$1 2)")))
  (assert-true (eq (car x) x)))
;; a label inside a list names the cell that holds the next element
(let ((x (read-from-string "((1 0 0 2 1 2 1 $1:2 1 2 2 1) $1)")))
  (assert-true (eq (nthcdr 7 (car x)) (cadr x)))
  (assert-equal '(2 1 2 2 1) (cadr x)))
;; just inside #( or #q( a label names the vector or quad
(let ((v (read-from-string "#($1:1 $1)")))
  (assert-true (eq (aref v 1) v)))
(let ((q (read-from-string "#q($1:a $1 c d)")))
  (assert-true (quadp q))
  (assert-true (eq (cbr q) q))
  (assert-equal 'c (ccr q))
  (assert-equal 'd (cdr q)))
;; $1x and |$1| are symbols
(assert-true (symbolp (read-from-string "$1x")))
(assert-equal "|$1|" (prin1-to-string (read-from-string "|$1|")))

;;; ---- Common Lisp labels --------------------------------------------------------

(let ((c (read-from-string "#1=(a b c . #1#)")))
  (assert-true (eq (cdddr c) c)))
(let ((s (read-from-string "(#1=(1 2) #1#)")))
  (assert-true (eq (car s) (cadr s))))
(let ((x (read-from-string "((1 0 0 2 1 2 1 . #1=(2 1 2 2 1)) #1#)")))
  (assert-true (eq (nthcdr 7 (car x)) (cadr x))))
(let ((v (read-from-string "#1=#(1 #1# #2=(x) #2#)")))
  (assert-true (eq (aref v 1) v))
  (assert-true (eq (aref v 2) (aref v 3))))

;;; ---- bad labels: clear errors with line:column -------------------------------------

(assert-error (read-from-string "(a $7)") "label $7 is not defined at <string>:1:4")
(assert-error (read-from-string "(a
  #7#)") "label #7# is not defined at <string>:2:3")
(assert-error (read-from-string "($1:a $1:b)") "label $1: defined twice at <string>:1:7")
(assert-error (read-from-string "(#1=a #1=b)") "label #1= defined twice at <string>:1:7")
(assert-error (read-from-string "#1=#1#") "itself")
(assert-error (read-from-string "($1:)") "a label must be followed by a datum")
(assert-error (read-from-string "$1:a") "inside a list")
(assert-error (read-from-string "#q(1 2 3)") "four fields")
(assert-error (read-from-string "((((") "missing )")

;;; ---- deep nesting -----------------------------------------------------------------

(let* ((n (if (getenv "LIPQ_TEST_QUICK") 1000 100000))
       (x 'x))
  (dotimes (i n) (setq x (list x)))
  (let* ((s (prin1-to-string x)) (y (read-from-string s)) (d 0))
    (assert-equal (+ 1 (* 2 n)) (length s))
    (while (consp y) (setq y (car y)) (setq d (1+ d)))
    (assert-equal n d)
    (assert-equal 'x y)))

(test-summary)
