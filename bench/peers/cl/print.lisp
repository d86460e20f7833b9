;;; print: print a large structure with shared tails, cycles and a shared
;;; DAG with *print-circle*, read it back, verify the sharing; repeated.
;;; Prints the sum of the per-round checksums.
(defun build (n)
  (let ((l nil))
    (do ((i (- n 1) (- i 1))) ((< i 0) l)
      (setq l (cons i l)))))

;; nodes 0..m in order; node i = (i . node[(i-1)/3]), node 0 = (0):
;; a tree of lists sharing their tails, like search states.
(defun make-tree (m)
  (let* ((nodes (list (list 0)))
         (tail nodes)
         (pp nodes))
    (do ((i 1 (+ i 1))) ((> i m) nodes)
      (rplacd tail (list (cons i (car pp))))
      (setq tail (cdr tail))
      (when (= (mod i 3) 0) (setq pp (cdr pp))))))

;; circular list (start 1 2 .. len-1 start 1 ...)
(defun make-cycle (start len)
  (let ((l (build len)))
    (rplacd (last l) l)
    (rplaca l start)
    l))

;; (s s) where s is the dag of depth-1: 2^depth paths, depth+1 conses pairs
(defun make-dag (depth)
  (if (= depth 0)
      (list 'leaf)
      (let ((s (make-dag (- depth 1))))
        (list s s))))

(defun make-structure ()
  (let ((cycles nil))
    (do ((i 299 (- i 1))) ((< i 0))
      (setq cycles (cons (make-cycle i (+ 2 (mod i 5))) cycles)))
    (list (make-tree 3000) cycles (make-dag 20))))

(defun check (w)
  (let ((nodes (car w)) (cycles (cadr w)) (dag (caddr w)) (s 0))
    (let ((pp nodes) (i 0))                    ; 4501500 + 3000
      (dolist (node nodes)
        (setq s (+ s (car node)))
        (when (> i 0)
          (when (eq (cdr node) (car pp)) (setq s (+ s 1)))
          (when (= (mod i 3) 0) (setq pp (cdr pp))))
        (setq i (+ i 1))))
    (let ((i 0))                               ; 300 + 44850
      (dolist (c cycles)
        (when (eq (nthcdr (+ 2 (mod i 5)) c) c) (setq s (+ s 1 (car c))))
        (setq i (+ i 1))))
    (do ((d dag (car d))) ((not (eq (car d) (cadr d))))   ; 20
      (setq s (+ s 1)))
    s))

(defun main ()
  (let ((w (make-structure)) (total 0))
    (dotimes (i 54)
      (let* ((str (let ((*print-circle* t) (*print-pretty* nil))
                    (prin1-to-string w)))
             (w2 (read-from-string str)))
        (setq total (+ total (check w2)))))
    (format t "~D~%" total)))

(main)
