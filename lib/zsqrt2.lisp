;;; zsqrt2.lisp — exact arithmetic in Z[√2] and geometry on the 45° lattice.
;;; (require 'zsqrt2)
;;;
;;; A number of Z[√2] is a cons (a . b) meaning a + b√2, a and b integers of
;;; any size. Everything here is exact: there are no floats anywhere; signs
;;; and comparisons use the fact that √2 is irrational (a² = 2b² only when
;;; a = b = 0).
;;;
;;;   (z a [b])            make a + b√2                 +z-zero+ +z-one+ +z-sqrt2+
;;;   (z-int x)            the Z[√2] number of an integer (a Z[√2] passes through)
;;;   z+ z- (binary) z-neg z* z-conj z-norm (integer a² − 2b²) z-mul-sqrt2
;;;   z-div-sqrt2          exact division by √2 (error unless a is even)
;;;   z-zerop z-sign (−1, 0, 1) z-cmp z= z< z<= z> z>= z-abs z-min z-max
;;;   z-floor-scaled x s   floor(x·s) for an integer s ≥ 0 (exact; for drawing)
;;;   z-string x [den]     "a+b√2" text of x/den (den default 1), e.g. "3/2+√2"
;;;
;;; Points are conses (X . Y) of Z[√2] numbers (pt X Y); integers are accepted
;;; wherever a coordinate is expected by pt. The 8 directions k·45° (k = 0..7)
;;; have the integer step vectors (1,0) (1,1) (0,1) (−1,1) (−1,0) (−1,−1) (0,−1)
;;; (1,−1).
;;;
;;;   pt pt-x pt-y pt+ pt- pt-scale pt= pt-cross pt-dot
;;;   pt-rot90 pt-rot45 (exact; error if the image leaves Z[√2]²) pt-rot45-times-sqrt2
;;;   pt-mirror (x → −x)
;;;   dir-step k           the integer step vector of direction k (a cons of fixnums)
;;;   dir-rot k [n]        direction k turned by n·45° (default 1)
;;;   pt-direction v       direction index 0..7 of a vector, or nil
;;;   pt-length v          exact length of a vector lying in one of the 8 directions
;;;
;;; Polygons are lists of points (counter-clockwise unless said otherwise):
;;;   orient a b c         sign of the turn a→b→c
;;;   segments-meet-p      closed segments ab and cd share a point
;;;   polygon-area2        twice the signed area (Z[√2])
;;;   polygon-simple-p     no two non-adjacent edges meet (adjacent ones only at their vertex)
;;;   polygon-ccw          the polygon oriented counter-clockwise
;;;   polygon-clean        drop repeated points and straight vertices; nil on a spike
;;;   polygon-turns        list of (length . turn) per edge (turn in 45° units, −3..3)
;;;   polygon-canon        congruence key: equal keys iff congruent (rotations by
;;;                        multiples of 45°, translations, reflections)
;;;   polygon-convex-key-p is the polygon of this key convex?

;;; ------------------------------------------------------------ numbers

(defun z (a &optional (b 0)) (cons a b))
(defconstant +z-zero+ (cons 0 0))
(defconstant +z-one+ (cons 1 0))
(defconstant +z-sqrt2+ (cons 0 1))

(defun z-p (x) (and (consp x) (integerp (car x)) (integerp (cdr x))))
(defun z-int (x)
  (cond ((integerp x) (cons x 0))
        ((z-p x) x)
        (t (error "z-int: not an integer or Z[sqrt2] number: ~s" x))))

(defun z+ (x y) (cons (+ (car x) (car y)) (+ (cdr x) (cdr y))))
(defun z- (x y) (cons (- (car x) (car y)) (- (cdr x) (cdr y))))
(defun z-neg (x) (cons (- (car x)) (- (cdr x))))
(defun z* (x y)
  (let ((a (car x)) (b (cdr x)) (c (car y)) (d (cdr y)))
    (cons (+ (* a c) (* 2 b d)) (+ (* a d) (* b c)))))
(defun z-conj (x) (cons (car x) (- (cdr x))))
(defun z-norm (x) (- (* (car x) (car x)) (* 2 (cdr x) (cdr x))))
(defun z-mul-sqrt2 (x) (cons (* 2 (cdr x)) (car x)))
(defun z-div-sqrt2 (x)
  (if (oddp (car x))
      (error "z-div-sqrt2: ~a is not divisible by sqrt2 in Z[sqrt2]" (z-string x))
      (cons (cdr x) (/ (car x) 2))))
(defun z-zerop (x) (and (= (car x) 0) (= (cdr x) 0)))

;; Sign of a + b√2, exactly: when a and b have opposite signs compare a² with
;; 2b² (they are never equal unless both are 0).
(defun z-sign (x)
  (let ((a (car x)) (b (cdr x)))
    (cond ((and (>= a 0) (>= b 0)) (if (and (= a 0) (= b 0)) 0 1))
          ((and (<= a 0) (<= b 0)) -1)
          ((> a 0) (if (> (* a a) (* 2 b b)) 1 -1))
          (t (if (> (* 2 b b) (* a a)) 1 -1)))))

(defun z-cmp (x y) (z-sign (z- x y)))
(defun z= (x y) (and (= (car x) (car y)) (= (cdr x) (cdr y))))
(defun z< (x y) (< (z-cmp x y) 0))
(defun z<= (x y) (<= (z-cmp x y) 0))
(defun z> (x y) (> (z-cmp x y) 0))
(defun z>= (x y) (>= (z-cmp x y) 0))
(defun z-abs (x) (if (< (z-sign x) 0) (z-neg x) x))
(defun z-min (x y) (if (z< y x) y x))
(defun z-max (x y) (if (z> y x) y x))

;; floor((a + b√2)·s) for an integer s ≥ 0, exactly: b√2·s = ±√(2b²s²).
(defun z-floor-scaled (x s)
  (let* ((a (* (car x) s)) (b (* (cdr x) s)) (r (isqrt (* 2 b b))))
    (cond ((>= b 0) (+ a r))                           ; floor(√m) = isqrt(m)
          ((= (* r r) (* 2 b b)) (- a r))              ; only when b = 0
          (t (- a r 1)))))                             ; floor(−√m) = −isqrt(m) − 1

;; Text of the rational number n/d in lowest terms ("3", "-1/2").
(defun %ratio-string (n d)
  (let ((g (gcd n d)))
    (if (= g d) (format nil "~d" (/ n g))
        (format nil "~d/~d" (/ n g) (/ d g)))))

;; "a+b√2" style text of x/den; √2 is written r2 (ASCII), e.g. "2-3/2r2".
(defun z-string (x &optional (den 1))
  (let ((a (car x)) (b (cdr x)))
    (cond ((= b 0) (%ratio-string a den))
          (t (let ((bs (cond ((= b den) "") ((= b (- den)) "-") (t (%ratio-string b den)))))
               (if (= a 0)
                   (concat bs "r2")
                   (concat (%ratio-string a den) (if (> b 0) "+" "-")
                           (cond ((= (abs b) den) "") (t (%ratio-string (abs b) den)))
                           "r2")))))))

;;; ------------------------------------------------------------ points and directions

(defun pt (x y) (cons (z-int x) (z-int y)))
(defun pt-x (p) (car p))
(defun pt-y (p) (cdr p))
(defun pt+ (p q) (cons (z+ (car p) (car q)) (z+ (cdr p) (cdr q))))
(defun pt- (p q) (cons (z- (car p) (car q)) (z- (cdr p) (cdr q))))
(defun pt-scale (p k) (let ((k (z-int k))) (cons (z* (car p) k) (z* (cdr p) k))))
(defun pt= (p q) (and (z= (car p) (car q)) (z= (cdr p) (cdr q))))
(defun pt-cross (u v) (z- (z* (car u) (cdr v)) (z* (cdr u) (car v))))
(defun pt-dot (u v) (z+ (z* (car u) (car v)) (z* (cdr u) (cdr v))))
(defun pt-rot90 (p) (cons (z-neg (cdr p)) (car p)))
(defun pt-mirror (p) (cons (z-neg (car p)) (cdr p)))
;; Rotation by +45°: ((x − y)/√2, (x + y)/√2).
(defun pt-rot45 (p)
  (cons (z-div-sqrt2 (z- (car p) (cdr p))) (z-div-sqrt2 (z+ (car p) (cdr p)))))
;; √2 times the rotation by +45° (always in Z[√2]²): (x − y, x + y).
(defun pt-rot45-times-sqrt2 (p)
  (cons (z- (car p) (cdr p)) (z+ (car p) (cdr p))))

(defconstant +dir-steps+
  #((1 . 0) (1 . 1) (0 . 1) (-1 . 1) (-1 . 0) (-1 . -1) (0 . -1) (1 . -1)))
(defun dir-step (k) (aref +dir-steps+ (mod k 8)))
(defun dir-rot (k &optional (n 1)) (mod (+ k n) 8))

;; Direction index of a vector (X, Y), or nil if it is not along one of the 8.
(defun pt-direction (v)
  (let* ((x (car v)) (y (cdr v)) (sx (z-sign x)) (sy (z-sign y)))
    (cond ((= sy 0) (cond ((> sx 0) 0) ((< sx 0) 4) (t nil)))
          ((= sx 0) (if (> sy 0) 2 6))
          ((z= x y) (if (> sx 0) 1 5))
          ((z= x (z-neg y)) (if (> sx 0) 7 3))
          (t nil))))

;; Exact length of a vector along one of the 8 directions.
(defun pt-length (v)
  (let ((d (pt-direction v)))
    (cond ((null d) (error "pt-length: not a 45-degree direction: ~s" v))
          ((evenp d) (if (z-zerop (car v)) (z-abs (cdr v)) (z-abs (car v))))
          (t (z-mul-sqrt2 (z-abs (car v)))))))

;;; ------------------------------------------------------------ polygons

(defun orient (a b c) (z-sign (pt-cross (pt- b a) (pt- c a))))

;; p collinear with a-b: is it inside the closed segment?
(defun %on-segment-p (a b p)
  (and (<= (* (z-cmp (car p) (car a)) (z-cmp (car p) (car b))) 0)
       (<= (* (z-cmp (cdr p) (cdr a)) (z-cmp (cdr p) (cdr b))) 0)))

(defun segments-meet-p (a b c d)
  (let ((o1 (orient a b c)) (o2 (orient a b d)) (o3 (orient c d a)) (o4 (orient c d b)))
    (or (and (< (* o1 o2) 0) (< (* o3 o4) 0))
        (and (= o1 0) (%on-segment-p a b c))
        (and (= o2 0) (%on-segment-p a b d))
        (and (= o3 0) (%on-segment-p c d a))
        (and (= o4 0) (%on-segment-p c d b)))))

(defun polygon-area2 (pts)
  (let ((s +z-zero+) (p pts))
    (while p
      (setq s (z+ s (pt-cross (car p) (if (cdr p) (cadr p) (car pts)))))
      (setq p (cdr p)))
    s))

(defun polygon-ccw (pts) (if (< (z-sign (polygon-area2 pts)) 0) (reverse pts) pts))

;; Edges as a vector of (a . b) point pairs.
(defun %edges (pts)
  (let* ((n (length pts)) (v (make-vector n nil)) (p pts))
    (dotimes (i n)
      (aset v i (cons (car p) (if (cdr p) (cadr p) (car pts))))
      (setq p (cdr p)))
    v))

(defun polygon-simple-p (pts)
  (let* ((e (%edges pts)) (n (vector-length e)) (ok t))
    (dotimes (i n)
      (do ((j (+ i 2) (1+ j))) ((or (>= j n) (not ok)))
        (unless (and (= i 0) (= j (- n 1)))
          (when (segments-meet-p (car (aref e i)) (cdr (aref e i))
                                 (car (aref e j)) (cdr (aref e j)))
            (setq ok nil)))))
    ;; adjacent edges may only share their common vertex: no backtracking spike
    (when ok
      (dotimes (i n)
        (let ((d1 (pt-direction (pt- (cdr (aref e i)) (car (aref e i)))))
              (d2 (pt-direction (pt- (cdr (aref e (mod (1+ i) n)))
                                     (car (aref e (mod (1+ i) n)))))))
          (when (and d1 d2 (= (mod (- d1 d2) 8) 4)) (setq ok nil)))))
    ok))

;; Remove repeated points and straight vertices; nil if some vertex reverses
;; (a spike: the polygon overlaps itself) or an edge is not along the 8 directions.
(defun polygon-clean (pts)
  (let ((v (list-to-vector pts)) (changed t) (bad nil))
    (while (and changed (not bad) (>= (vector-length v) 3))
      (setq changed nil)
      (let ((n (vector-length v)) (i 0))
        (while (and (< i n) (not changed))
          (when (pt= (aref v i) (aref v (mod (1+ i) n)))
            (setq v (%vector-delete v (mod (1+ i) n)) changed t))
          (setq i (1+ i)))
        (setq i 0)
        (while (and (< i n) (not changed) (not bad))
          (let* ((a (aref v (mod (+ i n -1) n))) (b (aref v i)) (c (aref v (mod (1+ i) n)))
                 (d1 (pt-direction (pt- b a))) (d2 (pt-direction (pt- c b))))
            (cond ((or (null d1) (null d2)) (setq bad t))
                  ((= d1 d2) (setq v (%vector-delete v i) changed t))
                  ((= (mod (- d1 d2) 8) 4) (setq bad t))))
          (setq i (1+ i)))))
    (if bad nil (vector-to-list v))))

(defun %vector-delete (v k)
  (let* ((n (vector-length v)) (w (make-vector (1- n) nil)) (j 0))
    (dotimes (i n)
      (unless (= i k) (aset w j (aref v i)) (setq j (1+ j))))
    w))

;; Per edge: (length . turn at its end), turn in 45° units −3..3 (0 = straight).
(defun polygon-turns (pts)
  (let* ((e (%edges pts)) (n (vector-length e)) (ds (make-vector n 0)) (out nil))
    (dotimes (i n)
      (let* ((v (pt- (cdr (aref e i)) (car (aref e i)))) (d (pt-direction v)))
        (unless d (error "polygon-turns: edge ~d is not along a 45-degree direction" i))
        (aset ds i d)))
    (dotimes (i n)
      (let ((v (pt- (cdr (aref e i)) (car (aref e i))))
            (tt (mod (- (aref ds (mod (1+ i) n)) (aref ds i)) 8)))
        (push (cons (pt-length v) (if (> tt 4) (- tt 8) tt)) out)))
    (nreverse out)))

;; Lexicographic order of two equally long lists of integers.
(defun %int-list< (x y)
  (loop
    (cond ((null x) (return nil))
          ((< (car x) (car y)) (return t))
          ((> (car x) (car y)) (return nil)))
    (setq x (cdr x) y (cdr y))))

;; Congruence key of a (clean) polygon: the flat list a b turn a b turn ...
;; of its (edge length, turn) cycle, minimal over all starting edges and both
;; orientations (the mirror image pairs length[n−1−i] with turn[n−2−i]).
;; The (length, turn) cycle is unchanged by translations and by rotations
;; through any multiple of 45°, so two polygons on the two lattices can be equal.
(defun polygon-canon (pts)
  (let* ((seq (list-to-vector (polygon-turns (polygon-ccw pts))))
         (n (vector-length seq))
         (mir (make-vector n nil))
         (best nil))
    (dotimes (i n)
      (aset mir i (cons (car (aref seq (mod (- n 1 i) n))) (cdr (aref seq (mod (- n 2 i) n))))))
    (dolist (s (list seq mir))
      (dotimes (k n)
        (let ((key nil))
          (dotimes (i n)
            (let ((e (aref s (mod (+ k i) n))))
              (setq key (cons (cdr e) (cons (cdar e) (cons (caar e) key))))))
          (setq key (nreverse key))
          (when (or (null best) (%int-list< key best)) (setq best key)))))
    best))

;; Convex iff every turn (each third element of the key) is positive.
(defun polygon-convex-key-p (key)
  (let ((ok t))
    (while key
      (when (<= (caddr key) 0) (setq ok nil))
      (setq key (cdddr key)))
    ok))
