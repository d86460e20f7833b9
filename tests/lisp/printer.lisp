;;; printer.lisp — the labelled printer from Lisp: the exact strings of the
;;; issue (LIPQ and Common Lisp notations), both modes (*print-shared*),
;;; limits, pprint, and text round trips through read-from-string.

(require 'test)

(defun circular3 ()
  (let ((l (list 'a 'b 'c))) (rplacd (cddr l) l) l))

(defun shared-tail ()
  (let* ((tl (list 2 1 2 2 1)) (l (append (list 1 0 0 2 1 2 1) tl)))
    (list l tl)))

;; print, read back, print again: the same text (so the same structure).
(defun reprint (x) (prin1-to-string (read-from-string (prin1-to-string x))))

;;; ---- LIPQ notation (the default) -------------------------------------------

(assert-equal t *print-shared*)
(assert-equal 'lipq *print-labels*)
(assert-equal "($1:a b c . $1)" (prin1-to-string (circular3)))
(assert-equal "(($1:1 2) $1)" (prin1-to-string (let ((s (list 1 2))) (list s s))))
(assert-equal "($1:$1 2)" (prin1-to-string (let ((l (list 1 2))) (rplaca l l) l)))
(assert-equal "((1 0 0 2 1 2 1 $1:2 1 2 2 1) $1)" (prin1-to-string (shared-tail)))
(assert-equal "(#($1:1 2) $1)" (prin1-to-string (let ((v (vector 1 2))) (list v v))))
(assert-equal "#q($1:1 2 $1 4)" (prin1-to-string (let ((q (qcons 1 2 3 4))) (rplacc q q) q)))
(assert-equal "(1 . #q(a b c d))" (prin1-to-string (cons 1 (qcons 'a 'b 'c 'd))))
;; symbols, numbers and strings are never labelled
(assert-equal "(\"s\" \"s\" x x 100000000000000000000 100000000000000000000)"
              (let ((s "s") (b (expt 10 20))) (prin1-to-string (list s s 'x 'x b b))))
;; print never loops on a cycle
(assert-equal "($1:a b c . $1)" (let ((*print-shared* nil)) (prin1-to-string (circular3))))

;;; ---- Common Lisp notation ---------------------------------------------------

(let ((*print-labels* 'cl))
  (assert-equal "#1=(a b c . #1#)" (prin1-to-string (circular3)))
  (assert-equal "(#1=(1 2) #1#)" (prin1-to-string (let ((s (list 1 2))) (list s s))))
  (assert-equal "#1=(#1# 2)" (prin1-to-string (let ((l (list 1 2))) (rplaca l l) l)))
  (assert-equal "((1 0 0 2 1 2 1 . #1=(2 1 2 2 1)) #1#)" (prin1-to-string (shared-tail)))
  (assert-equal "(#1=#q(a b c d) #1#)" (prin1-to-string (let ((q (qcons 'a 'b 'c 'd))) (list q q)))))

;;; ---- cycle-only mode ------------------------------------------------------------

(let ((*print-shared* nil))
  (assert-equal "((1 2) (1 2))" (prin1-to-string (let ((s (list 1 2))) (list s s))))
  (assert-equal "((1 0 0 2 1 2 1 2 1 2 2 1) (2 1 2 2 1))" (prin1-to-string (shared-tail)))
  (assert-equal "(a $1:b c . $1)"
                (prin1-to-string (let ((l (list 'a 'b 'c))) (rplacd (cddr l) (cdr l)) l)))
  (let ((*print-labels* 'cl))
    (assert-equal "(a . #1=(b c . #1#))"
                  (prin1-to-string (let ((l (list 'a 'b 'c))) (rplacd (cddr l) (cdr l)) l)))))

;;; ---- round trips -----------------------------------------------------------------

(let ((x (circular3)))
  (assert-equal (prin1-to-string x) (reprint x))
  (let ((y (read-from-string (prin1-to-string x))))
    (assert-true (eq (cdddr y) y))))
(let* ((x (shared-tail)) (y (read-from-string (prin1-to-string x))))
  (assert-true (eq (nthcdr 7 (car y)) (cadr y)))
  (assert-equal (prin1-to-string x) (prin1-to-string y)))
(dolist (labels '(lipq cl))
  (let ((*print-labels* labels))
    (let* ((v (vector 1 2 3)) (q (qcons v 'b 'c 'd)))
      (aset v 2 q)
      (let ((y (read-from-string (prin1-to-string (list q v)))))
        (assert-true (eq (car (car y)) (cadr y)))
        (assert-true (eq (aref (cadr y) 2) (car y)))
        (assert-equal (prin1-to-string (list q v)) (prin1-to-string y))))))

;;; ---- limits -----------------------------------------------------------------------

(let ((*print-length* 3))
  (assert-equal "(1 2 3 ...)" (prin1-to-string '(1 2 3 4 5)))
  (assert-equal "#(1 2 3 ...)" (prin1-to-string (vector 1 2 3 4))))
(let ((*print-level* 2))
  (assert-equal "(1 (2 #))" (prin1-to-string '(1 (2 (3 (4)))))))

;;; ---- pprint -------------------------------------------------------------------------

(setq tait "(((($1:1 1 2 2 1 2 0 0 1 2 2 1) ($2:(1 0 0 2 1 2 1 $3:2 1 2 2 1) ($4:(1 2 $5:1 2 1 2 1 2 1 2 0 0) nil $5 0) $3 1) $1 2) $2 $4))")
(assert-equal tait (prin1-to-string (read-from-string tait)))
(assert-equal "(((($1:1 1 2 2 1 2 0 0 1 2 2 1)
   ($2:(1 0 0 2 1 2 1 $3:2 1 2 2 1)
    ($4:(1 2 $5:1 2 1 2 1 2 1 2 0 0) nil $5 0)
    $3 1)
   $1 2)
  $2 $4))" (pprint-to-string (read-from-string tait)))
(assert-equal tait (prin1-to-string (read-from-string (pprint-to-string (read-from-string tait) 30))))
(assert-equal "(1 2 3)" (pprint-to-string '(1 2 3)))
(let ((long nil))
  (dotimes (i 50) (push i long))
  (assert-true (string-search (code-char 10) (pprint-to-string long)))
  (assert-equal (prin1-to-string long) (prin1-to-string (read-from-string (pprint-to-string long 20))))
  (let ((*print-right-margin* 200))
    (assert-false (string-search (code-char 10) (pprint-to-string long)))))
(assert-error (pprint-to-string 1 0) "width")

(test-summary)
