(let ((x (list 1 2))) (setf (cdr (cdr x)) x) (prin1-to-string x))
(defun f (n) (if (< n 2) n (+ (f (- n 1)) (f (- n 2))))) (f 15)
(errset (car 1)) (catch (quote k) (throw (quote k) 5))
(let ((h (make-hash-table (quote equal)))) (puthash (list 1) 2 h) (gethash (list 1) h))