;;; flatqueens: the functional N-queens with flat-map
;;; (nextBadCols / nextGoodCols / innerQ), n = 8 (92 solutions), repeated;
;;; prints the sum of the solution counts.
(defun flat-map (f xs)
  (if (null xs)
      nil
      (let ((r (funcall f (car xs))))  ; f before the rest: it may count
        (append r (flat-map f (cdr xs))))))

(defun filter (p xs)
  (cond ((null xs) nil)
        ((funcall p (car xs)) (cons (car xs) (filter p (cdr xs))))
        (t (filter p (cdr xs)))))

(defun range (n)
  (let ((l nil))
    (do ((i (- n 1) (- i 1))) ((< i 0) l)
      (setq l (cons i l)))))

;; element i of pres (length L) is at distance L - i from the next row
(defun next-bad-cols (pres)
  (let ((d (length pres)))
    (flat-map (lambda (e)
                (let ((r (list e (- e d) (+ e d))))
                  (setq d (- d 1))
                  r))
              pres)))

(defun next-good-cols (n pres)
  (filter (lambda (e) (not (member e (next-bad-cols pres))))
          (range n)))

(defun inner-q (n k pres)
  (if (= k 0)
      (list pres)
      (flat-map (lambda (e) (inner-q n (- k 1) (append pres (list e))))
                (next-good-cols n pres))))

(defun n-queens (n) (inner-q n n nil))

(defun main ()
  (let ((s 0))
    (dotimes (i 120)
      (setq s (+ s (length (n-queens 8)))))
    (format t "~D~%" s)))

(main)
