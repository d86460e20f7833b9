;;; seeds_extras.lisp — the language pieces added while writing the seed
;;; puzzle scripts: seconds-string, get-internal-run-time, subseq, format ~N@a,
;;; fourth/fifth, and the inline fast paths of aref/vref/eql (which must give
;;; the same results and errors as the builtins).

(require 'test)

;; seconds-string: microseconds -> decimal seconds, rounded half up
(assert-equal "1.235" (seconds-string 1234567))
(assert-equal "1.23" (seconds-string 1234567 2))
(assert-equal "0.00" (seconds-string 4999 2))
(assert-equal "0.01" (seconds-string 5000 2))
(assert-equal "1.00" (seconds-string 999999 2))
(assert-equal "2" (seconds-string 1500000 0))
(assert-equal "0.000001" (seconds-string 1 6))
(assert-equal "-0.50" (seconds-string -500000 2))
(assert-error (seconds-string 1 7) "digits")
(assert-error (seconds-string "x") "seconds-string")

;; get-internal-run-time: CPU microseconds, never decreasing
(let ((a (get-internal-run-time)))
  (dotimes (i 1000) (cons i i))
  (assert-true (<= a (get-internal-run-time))))

;; subseq on lists, vectors and strings
(assert-equal '(2 3) (subseq '(1 2 3 4) 1 3))
(assert-equal '(3 4) (subseq '(1 2 3 4) 2))
(assert-equal nil (subseq '(1 2 3) 3))
(assert-equal '(1 2 3) (subseq '(1 2 3) 0 nil))
(assert-equal #(2 3) (subseq #(1 2 3) 1))
(assert-equal "ell" (subseq "hello" 1 4))
(let* ((l (list 1 2 3)) (c (subseq l 0)))
  (assert-true (equal l c))
  (assert-false (eq l c)))
(assert-error (subseq '(1 2) 1 5) "bad range")
(assert-error (subseq '(1 2) 2 1) "bad range")
(assert-error (subseq '(1 2 . 3) 0) "subseq")
(assert-error (subseq 42 0) "subseq")
(assert-error (subseq #(1 2) -1) "subseq")

;; format: ~N@a pads on the left
(assert-equal "   ab|cd   |" (format nil "~5@a|~5a|" "ab" "cd"))
(assert-equal "toolong" (format nil "~3@a" "toolong"))
(assert-equal "   42" (format nil "~5@a" 42))

;; fourth, fifth
(assert-equal 4 (fourth '(1 2 3 4 5)))
(assert-equal 5 (fifth '(1 2 3 4 5)))
(assert-equal nil (fifth '(1 2)))

;; aref / vref / eql: fast paths and the general way agree
(let ((v (vector 10 20 30)) (i 2))
  (assert-equal 30 (aref v i))
  (assert-equal 10 (vref v 0))
  (assert-error (aref v 3) "out of range")
  (assert-error (aref v -1) "aref")
  (assert-error (aref '(1 2) 0) "not a vector")
  (assert-error (aref v 'x) "aref"))
(let ((big (expt 2 80)))
  (assert-true (eql big (expt 2 80)))     ; two bignums, not the same object
  (assert-false (eql big (1+ big)))
  (assert-true (eql 5 (+ 2 3)))
  (assert-false (eql 5 6))
  (assert-true (eql 'a 'a))
  (assert-false (eql "a" "a")))
;; a redefined aref is honoured by compiled calls
(defun seeds-aref-user (v i) (aref v i))
(let ((old aref))
  (setq aref (lambda (v i) (list 'mine i)))
  (assert-equal '(mine 1) (seeds-aref-user #(1 2) 1))
  (setq aref old))
(assert-equal 2 (seeds-aref-user #(1 2) 1))

(test-summary)
