;;; queue.lisp — the seed's two-stack Queue and RingBuffer, driven by its test program.
;;;
;;; Seed: Makoto Hiroi, "JavaScript Junk Scripts", queue.js + test_queue.js.
;;; Each queue is an object in the old Lisp way: a closure that takes a message
;;; (is-empty, is-full, length, enqueue, dequeue, peek) and arguments.  The test
;;; program is written once, against the messages, and prints exactly what
;;; `node test_queue.js` prints.
;;;
;;;   lipq scripts/queue.lisp          the seed's output, then timing lines (";")
;;;   lipq scripts/queue.lisp quick    the same with a smaller timing loop
;;;
;;; Lines starting with ";" are timings and notes; everything else is the
;;; deterministic output (tests/expected/seeds/queue.txt).

;; The two-stack queue: items are pushed onto REAR; DEQUEUE pops FRONT, first
;; moving the whole of REAR onto FRONT (which reverses it) when FRONT is empty.
(defun make-two-stack-queue ()
  (let ((front nil) (rear nil))
    (lambda (msg &rest args)
      (case msg
        (is-empty (and (null front) (null rear)))
        (is-full nil)
        (length (+ (length front) (length rear)))
        (enqueue (push (car args) rear) (car args))
        (dequeue
         (when (null front)
           (while rear (push (pop rear) front)))
         (pop front))
        ;; peek: the top of FRONT, else the bottom of REAR (the seed's _rear[0]).
        (peek (if front (car front) (car (last rear))))
        (t (error "queue: unknown message ~s" msg))))))

;; The ring buffer: a fixed vector; FRONT is the next item to leave, REAR the
;; next free slot, CNT the number of items.  Both indices wrap at SIZE.
(defun make-ring-buffer (size)
  (let ((buff (make-vector size 0)) (front 0) (rear 0) (cnt 0))
    (lambda (msg &rest args)
      (case msg
        (is-empty (= cnt 0))
        (is-full (= cnt size))
        (length cnt)
        (enqueue
         (unless (= cnt size)
           (aset buff rear (car args))
           (setq rear (mod (1+ rear) size))
           (incf cnt)
           (car args)))
        (dequeue
         (unless (= cnt 0)
           (prog1 (aref buff front)
             (setq front (mod (1+ front) size))
             (decf cnt))))
        (peek (unless (= cnt 0) (aref buff front)))
        (t (error "ring-buffer: unknown message ~s" msg))))))

;; The native queue of lipq (builtins) behind the same messages, when present.
(defun make-native-queue-object ()
  (let ((q (make-queue)))
    (lambda (msg &rest args)
      (case msg
        (is-empty (queue-empty-p q))
        (is-full nil)
        (length (queue-length q))
        (enqueue (enqueue q (car args)) (car args))
        (dequeue (dequeue q))
        (peek (queue-peek q))
        (t (error "native queue: unknown message ~s" msg))))))

;; JavaScript prints booleans as true/false.
(defun js-string (x)
  (cond ((eq x t) "true")
        ((null x) "false")
        (t (princ-to-string x))))

;; test_queue.js, as a list of output lines.  The RingBuffer section asks
;; is_full once more before the length (one extra line), as the seed does.
(defun queue-test-lines (title q ring-p)
  (let ((out nil))
    (labels ((say (x) (push (js-string x) out))
             (send (&rest m) (apply q m)))
      (push (concat "----- " title " -----") out)
      (say (send 'is-empty))
      (say (send 'is-full))
      (say (send 'length))
      (say (send 'enqueue 10))
      (say (send 'is-empty))
      (say (send 'is-full))
      (say (send 'length))
      (say (send 'peek))
      (dolist (x '(20 30 40)) (send 'enqueue x))
      (say (send 'dequeue))
      (say (send 'peek))
      (dolist (x '(50 60 70)) (send 'enqueue x))
      (when ring-p (say (send 'is-full)))
      (say (send 'length))
      (while (not (send 'is-empty)) (say (send 'dequeue)))
      (say (send 'is-empty))
      (say (send 'is-full))
      (say (send 'length))
      (nreverse out))))

(defun queue-microseconds (thunk)
  (let ((t0 (get-internal-run-time)))
    (funcall thunk)
    (- (get-internal-run-time) t0)))

;; n rounds of (enqueue 3 items, dequeue 2), then drain: the same work for every queue.
(defun queue-exercise (q n)
  (dotimes (i n)
    (funcall q 'enqueue i) (funcall q 'enqueue i) (funcall q 'enqueue i)
    (funcall q 'dequeue) (funcall q 'dequeue))
  (while (not (funcall q 'is-empty)) (funcall q 'dequeue)))

(defun queue-main (quick)
  (dolist (line (queue-test-lines "Queue" (make-two-stack-queue) nil)) (write-line line))
  (dolist (line (queue-test-lines "RingBuffer" (make-ring-buffer 6) t)) (write-line line))
  (let ((n (if quick 20000 200000)))
    (format t "; timing: ~d rounds of 3 enqueues + 2 dequeues, then drain~%" n)
    (format t "; two-stack queue (lisp closure): ~a CPU s~%"
            (seconds-string (queue-microseconds (lambda () (queue-exercise (make-two-stack-queue) n)))))
    (format t "; ring buffer (lisp closure, size ~d): ~a CPU s~%" (1+ n)
            (seconds-string (queue-microseconds (lambda () (queue-exercise (make-ring-buffer (1+ n)) n)))))
    (if (boundp 'make-queue)
        (progn
          (format t "; native queue behind the same messages: ~a CPU s~%"
                  (seconds-string (queue-microseconds (lambda () (queue-exercise (make-native-queue-object) n)))))
          (format t "; native queue passes the seed's test program: ~a~%"
                  (if (equal (cdr (queue-test-lines "Queue" (make-native-queue-object) nil))
                             (cdr (queue-test-lines "Queue" (make-two-stack-queue) nil)))
                      "yes" "NO")))
        (format t "; native queue (make-queue) not available in this build: skipped~%"))))

;; For scripts/demo.lisp: (label value seed's-value) triples.
(defun queue-demo ()
  (let ((q (queue-test-lines "Queue" (make-two-stack-queue) nil))
        (r (queue-test-lines "RingBuffer" (make-ring-buffer 6) t)))
    (list (list "queue: test_queue.js lines (Queue, Ring)"
                (list (length q) (length r)) '(21 22))
          (list "queue: RingBuffer(6) dequeues" (subseq r 13 19) '("20" "30" "40" "50" "60" "70")))))

(unless (boundp '*seeds-demo*)
  (queue-main (or (member "quick" *args*) (getenv "LIPQ_TEST_QUICK"))))
