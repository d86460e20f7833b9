;;; print_read.lisp — throughput of the labelled printer and the reader.
;;;
;;;   build/lipq bench/print_read.lisp          (sizes: 1,000,000 / 100,000 / 1,000,000)
;;;   LIPQ_BENCH_SCALE=10 build/lipq bench/print_read.lisp   (each size divided by 10)
;;;
;;; Structures: a 1,000,000-element list (flat, and made circular), a
;;; 100,000-deep car-nested list, and a random graph of 1,000,000 quad cells
;;; whose fields point at random cells (sharing and cycles everywhere) or
;;; hold fixnums. Times are CPU time. For each: print (prin1-to-string) and read
;;; (read-from-string) times, in cells per second, with *print-shared* t
;;; (every shared cell labelled) and nil (labels only for cycles), in LIPQ
;;; and Common Lisp notation. Every read is checked to print back to the
;;; same text.

(defvar *scale* (let ((s (getenv "LIPQ_BENCH_SCALE"))) (if s (read-from-string s) 1)))

;; CPU microseconds (the machine may be shared: wall time is noisier)
(defun now () (get-internal-run-time))

(defun rate (cells us)
  (if (= us 0) "inf" (format nil "~d" (quotient (* cells 1000000) us))))

(defun bench-one (name x cells shared labels)
  (let ((*print-shared* shared) (*print-labels* labels))
    (gc)
    (let* ((t0 (now))
           (s (prin1-to-string x))
           (t1 (now))
           (y (read-from-string s))
           (t2 (now))
           (ok (equal s (prin1-to-string y))))
      (format t "~a  shared=~a ~a: ~d cells, ~d chars; print ~d ms (~a cells/s), read ~d ms (~a cells/s)~a~%"
              name (if shared "t  " "nil") labels cells (length s)
              (quotient (- t1 t0) 1000) (rate cells (- t1 t0))
              (quotient (- t2 t1) 1000) (rate cells (- t2 t1))
              (if ok "" "  MISMATCH"))
      ok)))

(defun make-long-list (n)
  (let ((l nil))
    (dotimes (i n) (setq l (cons (rem i 1000) l)))
    l))

(defun make-deep (n)
  (let ((x 'x))
    (dotimes (i n) (setq x (list x)))
    x))

;; n quad cells (four fields each): car and cdr point at a random cell or
;; hold a fixnum, cbr points at a random cell, ccr at the next cell (so every
;; cell is reachable from cell 0). Sharing and cycles through every field.
(defun make-random-graph (n)
  (let ((v (make-vector n nil)))
    (dotimes (i n) (aset v i (qcons nil nil nil nil)))
    (dotimes (i n)
      (let ((c (aref v i)))
        (rplaca c (if (= (random 2) 0) (aref v (random n)) (random 100000)))
        (rplacb c (aref v (random n)))
        (rplacc c (if (< (+ i 1) n) (aref v (+ i 1)) nil))
        (rplacd c (if (= (random 2) 0) (aref v (random n)) (random 100000)))))
    (aref v 0)))

(defun count-cells (x)
  ;; the containers reachable from x
  (let ((seen (make-hash-table)) (stack (list x)) (n 0))
    (while stack
      (let ((c (pop stack)))
        (when (and (consp c) (not (gethash c seen)))
          (puthash c t seen)
          (setq n (1+ n))
          (push (car c) stack)
          (push (cdr c) stack)
          (when (quadp c) (push (cbr c) stack) (push (ccr c) stack)))))
    n))

(let* ((n (quotient 1000000 *scale*))
       (l (make-long-list n)))
  (bench-one "list      " l n t 'lipq)
  (bench-one "list      " l n nil 'lipq)
  (bench-one "list      " l n t 'cl)
  (rplacd (last l) l)
  (bench-one "circular  " l n t 'lipq)
  (bench-one "circular  " l n nil 'lipq)
  (bench-one "circular  " l n t 'cl))

(let* ((n (quotient 100000 *scale*))
       (d (make-deep n)))
  (bench-one "car-deep  " d n t 'lipq)
  (bench-one "car-deep  " d n nil 'lipq))

(let* ((n (quotient 1000000 *scale*))
       (g (make-random-graph n))
       (cells (count-cells g)))
  ;; *print-shared* nil would copy every shared cell (exponential output):
  ;; only the labelled modes are meaningful here.
  (bench-one "graph     " g cells t 'lipq)
  (bench-one "graph     " g cells t 'cl))
