;;; demo.lisp — every puzzle script at a quick size, with its headline results.
;;;
;;;   lipq scripts/demo.lisp        (run from the repository root)
;;;
;;; Each puzzle script in *demo-scripts* is loaded without running its main
;;; program (*seeds-demo* is bound), then its demo function returns
;;; (label value seed's-value) triples: the value is computed now, the seed's
;;; value is what the seed published.  A script that is not present is skipped.
;;; The last line says whether everything agreed; the exit status is 1 if not.
;;;
;;; A new puzzle script joins the demo by defining NAME-demo and adding
;;; ("NAME.lisp" NAME-demo) below.

(defvar *seeds-demo* t)

(defvar *demo-scripts*
  '(("queens.lisp" queens-demo)
    ("queue.lisp" queue-demo)
    ("keiro.lisp" keiro-demo)
    ("knight.lisp" knight-demo)
    ("eight.lisp" eight-demo)
    ("tait.lisp" tait-demo)
    ("queens-game.lisp" queens-game-demo)
    ("tangram.lisp" tangram-demo)))

;; The scripts live beside this file; the demo is meant to run from the
;; repository root, but also works from scripts/.
(defun demo-path (file)
  (cond ((file-exists-p (concat "scripts/" file)) (concat "scripts/" file))
        ((file-exists-p file) file)))

(defun demo-run ()
  (let ((failures 0) (t-all (get-internal-run-time)))
    (dolist (entry *demo-scripts*)
      (let ((path (demo-path (first entry))))
        (if (null path)
            (format t "; ~a: not present, skipped~%" (first entry))
            (let ((t0 (get-internal-run-time)))
              (load path)
              (dolist (r (funcall (symbol-value (second entry))))
                (destructuring-bind (label value seed) r
                  (let ((ok (equal value seed)))
                    (unless ok (incf failures))
                    (format t "~46a ~a~a~%" label
                            (if (stringp value) value (prin1-to-string value))
                            (if ok "" (concat "   <-- the seed has " (prin1-to-string seed)))))))
              (format t "; ~a: ~a CPU s~%" (first entry)
                      (seconds-string (- (get-internal-run-time) t0) 2))))))
    (format t "; demo total: ~a CPU s~%" (seconds-string (- (get-internal-run-time) t-all) 2))
    (if (= failures 0)
        (write-line "demo: all puzzles agree with the seeds")
        (progn (format t "demo: ~d result(s) differ from the seeds~%" failures)
               (exit 1)))))

(demo-run)
