;;; prelude.lisp — the part of lipq written in lipq, loaded into every interpreter.
;;;
;;; Control macros (when, unless, do, dolist, dotimes, case ...), places
;;; (setf, push, pop, incf, decf) and small conveniences. The loops expand
;;; into PROG, so RETURN leaves them and their bodies may hold GO labels, as
;;; in LISP 1.6 and Common Lisp.

(defmacro when (test &body body) `(if ,test (progn ,@body)))
(defmacro unless (test &body body) `(if ,test nil (progn ,@body)))

(defmacro prog1 (first &body rest)
  (let ((v (gensym "v")))
    `(let ((,v ,first)) ,@rest ,v)))
(defmacro prog2 (first second &body rest)
  (let ((v (gensym "v")))
    `(progn ,first (let ((,v ,second)) ,@rest ,v))))

(defmacro loop (&body body)
  (let ((top (gensym "loop")))
    `(prog () ,top ,@body (go ,top))))

;; Parallel assignment.
(defmacro psetq (&rest pairs)
  (if (null (cddr pairs))
      `(setq ,@pairs)
      (let ((temps nil) (sets nil) (p pairs))
        (while p
          (let ((g (gensym "p")))
            (setq temps (cons (list g (cadr p)) temps))
            (setq sets (cons (car p) (cons g sets))))
          (setq p (cddr p)))
        `(let ,(nreverse temps) (setq ,@sets) nil))))

(defmacro do (specs end &body body)
  (let ((top (gensym "do"))
        (steps (mapcan (lambda (s) (if (and (consp s) (cddr s)) (list (car s) (caddr s)))) specs)))
    `(prog ,(mapcar (lambda (s) (if (consp s) (list (car s) (cadr s)) s)) specs)
        ,top
        (if ,(car end) (return (progn ,@(cdr end))))
        ,@body
        ,@(if steps (list (cons 'psetq steps)))
        (go ,top))))

(defmacro do* (specs end &body body)
  (let ((top (gensym "do"))
        (steps (mapcan (lambda (s) (if (and (consp s) (cddr s)) (list (car s) (caddr s)))) specs)))
    `(prog ,(mapcar (lambda (s) (if (consp s) (list (car s) (cadr s)) s)) specs)
        ,top
        (if ,(car end) (return (progn ,@(cdr end))))
        ,@body
        ,@(if steps (list (cons 'setq steps)))
        (go ,top))))

(defmacro dolist (spec &body body)
  (let ((tail (gensym "tail")) (top (gensym "dolist")) (var (car spec)))
    `(prog ((,tail ,(cadr spec)) ,var)
        ,top
        (if (null ,tail) (return (progn (setq ,var nil) ,(caddr spec))))
        (setq ,var (car ,tail))
        ,@body
        (setq ,tail (cdr ,tail))
        (go ,top))))

(defmacro dotimes (spec &body body)
  (let ((n (gensym "n")) (top (gensym "dotimes")) (var (car spec)))
    `(prog ((,var 0) (,n ,(cadr spec)))
        ,top
        (if (>= ,var ,n) (return ,(caddr spec)))
        ,@body
        (setq ,var (1+ ,var))
        (go ,top))))

;; (case key (k body...) ((k1 k2) body...) (t body...)); selectq is LISP 1.6's name.
(defmacro case (key &body clauses)
  (let ((k (gensym "key")))
    `(let ((,k ,key))
       (cond ,@(mapcar (lambda (c)
                         (let ((keys (car c)))
                           (cond ((memq keys '(t otherwise)) `(t ,@(cdr c)))
                                 ((consp keys) `((member ,k ',keys 'eql) ,@(cdr c)))
                                 (t `((eql ,k ',keys) ,@(cdr c))))))
                       clauses)))))
(defmacro selectq (key &body clauses) `(case ,key ,@clauses))

;;; Places.

(defun %set-car (x v) (rplaca x v) v)
(defun %set-cdr (x v) (rplacd x v) v)
(defun %set-cbr (x v) (rplacb x v) v)
(defun %set-ccr (x v) (rplacc x v) v)

;; The setter form for a place, given the new value form.
(defun %setf-expand (place value)
  (cond ((symbolp place) `(setq ,place ,value))
        ((not (consp place)) (error "setf: not a place: ~s" place))
        (t (let ((op (car place)) (args (cdr place)))
             (case op
               (car `(%set-car ,(car args) ,value))
               (cdr `(%set-cdr ,(car args) ,value))
               (cbr `(%set-cbr ,(car args) ,value))
               (ccr `(%set-ccr ,(car args) ,value))
               (caar `(%set-car (car ,(car args)) ,value))
               (cadr `(%set-car (cdr ,(car args)) ,value))
               (cdar `(%set-cdr (car ,(car args)) ,value))
               (cddr `(%set-cdr (cdr ,(car args)) ,value))
               (caddr `(%set-car (cddr ,(car args)) ,value))
               (cadddr `(%set-car (cdddr ,(car args)) ,value))
               (nth `(%set-car (nthcdr ,(car args) ,(cadr args)) ,value))
               (get `(put ,(car args) ,(cadr args) ,value))
               (gethash `(puthash ,(car args) ,value ,(cadr args)))
               ((aref vref) `(aset ,(car args) ,(cadr args) ,value))
               (symbol-value `(set ,(car args) ,value))
               (t (let ((expanded (macroexpand-1 place)))
                    (if (eq expanded place)
                        (error "setf: no setter for ~s" op)
                        (%setf-expand expanded value)))))))))

(defmacro setf (&rest pairs)
  (if (null (cddr pairs))
      (%setf-expand (car pairs) (cadr pairs))
      `(progn ,@(let ((out nil))
                  (while pairs
                    (setq out (cons (%setf-expand (car pairs) (cadr pairs)) out))
                    (setq pairs (cddr pairs)))
                  (nreverse out)))))

(defmacro push (x place) `(setf ,place (cons ,x ,place)))
(defmacro pushnew (x place) `(if (member ,x ,place) ,place (setf ,place (cons ,x ,place))))
(defmacro pop (place)
  (let ((v (gensym "v")))
    `(let ((,v (car ,place))) (setf ,place (cdr ,place)) ,v)))
(defmacro incf (place &optional (delta 1)) `(setf ,place (+ ,place ,delta)))
(defmacro decf (place &optional (delta 1)) `(setf ,place (- ,place ,delta)))

;;; Odds and ends.

(defmacro time (form) `(%time (lambda () ,form)))
(defmacro with-gensyms (names &body body)
  `(let ,(mapcar (lambda (n) `(,n (gensym ,(symbol-name n)))) names) ,@body))
(defmacro assert (test &optional message)
  `(unless ,test (error "assertion failed: ~a" ,(or message (prin1-to-string test)))))

(defun flatmap (f l) (mapcan (lambda (x) (copy-list (funcall f x))) l))
(defun 1st (l) (car l))
(defun second (l) (cadr l))
(defun third (l) (caddr l))
(defun fourth (l) (cadddr l))
(defun fifth (l) (car (cddddr l)))
(defun first (l) (car l))
(defun rest (l) (cdr l))
(defun list-length (l) (length l))
