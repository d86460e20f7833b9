;;; print: print a large structure with shared tails, cycles and a shared
;;; DAG with prin1-to-string (lipq prints shared structure with labels by
;;; default), read it back with read-from-string, verify the sharing;
;;; repeated.  Prints the sum of the per-round checksums.
;;; Uses rplaca/rplacd (LISP 1.6) to make the cycles.
(defun build (n)
  (let ((l nil) (i (1- n)))
    (while (>= i 0)
      (setq l (cons i l))
      (setq i (1- i)))
    l))

(defun drop (n l)                     ; nthcdr
  (while (> n 0)
    (setq l (cdr l))
    (setq n (1- n)))
  l)

(defun last-pair (l)
  (while (cdr l) (setq l (cdr l)))
  l)

;; nodes 0..m in order; node i = (i . node[(i-1)/3]), node 0 = (0):
;; a tree of lists sharing their tails, like search states.
(defun make-tree (m)
  (let* ((nodes (list (list 0)))
         (tail nodes)
         (pp nodes)
         (i 1))
    (while (<= i m)
      (rplacd tail (list (cons i (car pp))))
      (setq tail (cdr tail))
      (when (= (mod i 3) 0) (setq pp (cdr pp)))
      (setq i (1+ i)))
    nodes))

;; circular list (start 1 2 .. len-1 start 1 ...)
(defun make-cycle (start len)
  (let ((l (build len)))
    (rplacd (last-pair l) l)
    (rplaca l start)
    l))

;; (s s) where s is the dag of depth-1
(defun make-dag (depth)
  (if (= depth 0)
      (list 'leaf)
      (let ((s (make-dag (1- depth))))
        (list s s))))

(defun make-structure ()
  (let ((cycles nil) (i 299))
    (while (>= i 0)
      (setq cycles (cons (make-cycle i (+ 2 (mod i 5))) cycles))
      (setq i (1- i)))
    (list (make-tree 3000) cycles (make-dag 20))))

(defun check (w)
  (let ((nodes (car w)) (cycles (cadr w)) (dag (caddr w)) (s 0))
    (let ((pp nodes) (i 0))                    ; 4501500 + 3000
      (dolist (node nodes)
        (setq s (+ s (car node)))
        (when (> i 0)
          (when (eq (cdr node) (car pp)) (setq s (+ s 1)))
          (when (= (mod i 3) 0) (setq pp (cdr pp))))
        (setq i (1+ i))))
    (let ((i 0))                               ; 300 + 44850
      (dolist (c cycles)
        (when (eq (drop (+ 2 (mod i 5)) c) c) (setq s (+ s 1 (car c))))
        (setq i (1+ i))))
    (let ((d dag))                             ; 20
      (while (eq (car d) (cadr d))
        (setq s (+ s 1))
        (setq d (car d))))
    s))

(defun main ()
  (let ((w (make-structure)) (total 0))
    (dotimes (i 54)
      (let* ((str (prin1-to-string w))
             (w2 (read-from-string str)))
        (setq total (+ total (check w2)))))
    (print total)))

(main)
