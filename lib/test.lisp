;;; test.lisp — assertions for lipq test scripts: (require 'test).
;;;
;;; Each assertion reports file:line:column of a failure. A script ends with
;;; (test-summary), which prints "N passed, N failed" and exits non-zero if
;;; anything failed. An error inside an assertion is a failure, not a crash.

(defvar *tests-passed* 0)
(defvar *tests-failed* 0)

(defun %pass () (setq *tests-passed* (1+ *tests-passed*)) t)
(defun %fail (where form detail)
  (setq *tests-failed* (1+ *tests-failed*))
  (format t "~a: FAIL ~s~%    ~a~%" (or where "?") form detail)
  nil)

(defun %assert-equal (expected result form where)
  (cond ((null result) (%fail where form (concat "error: " (error-message))))
        ((equal expected (car result)) (%pass))
        (t (%fail where form (format nil "expected ~s~%    got      ~s" expected (car result))))))

(defmacro assert-equal (&whole w expected expr)
  `(%assert-equal ,expected (errset ,expr nil) ',expr ,(%form-position w)))

(defmacro assert-true (&whole w expr)
  `(let ((r (errset ,expr nil)))
     (cond ((null r) (%fail ,(%form-position w) ',expr (concat "error: " (error-message))))
           ((car r) (%pass))
           (t (%fail ,(%form-position w) ',expr "expected true, got nil")))))

(defmacro assert-false (&whole w expr)
  `(let ((r (errset ,expr nil)))
     (cond ((null r) (%fail ,(%form-position w) ',expr (concat "error: " (error-message))))
           ((null (car r)) (%pass))
           (t (%fail ,(%form-position w) ',expr (format nil "expected nil, got ~s" (car r)))))))

;; (assert-error expr [substring]): expr must signal an error (whose message
;; contains substring, when given).
(defmacro assert-error (&whole w expr &optional substring)
  `(let ((r (errset ,expr nil)))
     (cond (r (%fail ,(%form-position w) ',expr (format nil "expected an error, got ~s" (car r))))
           ((and ,substring (null (string-search ,substring (error-message))))
            (%fail ,(%form-position w) ',expr (format nil "error message ~s lacks ~s" (error-message) ,substring)))
           (t (%pass)))))

(defun test-summary ()
  (format t "~d passed, ~d failed~%" *tests-passed* *tests-failed*)
  (exit (if (= *tests-failed* 0) 0 1)))
