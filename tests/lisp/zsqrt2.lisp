;;; Tests for lib/zsqrt2.lisp: exact Z[√2] arithmetic, signs and comparisons
;;; (including bignums and numbers extremely close to 0), 45° lattice points,
;;; rotations and the polygon helpers.
(require 'test)
(require 'zsqrt2)

;;; arithmetic
(assert-equal '(5 . 7) (z+ (z 2 3) (z 3 4)))
(assert-equal '(-1 . -1) (z- (z 2 3) (z 3 4)))
(assert-equal '(-2 . -3) (z-neg (z 2 3)))
(assert-equal '(30 . 17) (z* (z 2 3) (z 3 4)))            ; (2+3√2)(3+4√2) = 6+24 + (8+9)√2
(assert-equal '(2 . 0) (z* +z-sqrt2+ +z-sqrt2+))
(assert-equal '(-1 . 0) (z* (z 1 1) (z 1 -1)))             ; (1+√2)(1−√2) = −1
(assert-equal '(2 . -3) (z-conj (z 2 3)))
(assert-equal -14 (z-norm (z 2 3)))                        ; 4 − 18
(assert-equal (z-norm (z* (z 2 3) (z 5 -1))) (* (z-norm (z 2 3)) (z-norm (z 5 -1))))   ; multiplicative
(assert-equal '(6 . 2) (z-mul-sqrt2 (z 2 3)))
(assert-equal '(3 . 1) (z-div-sqrt2 (z 2 3)))
(assert-equal '(2 . 3) (z-div-sqrt2 (z-mul-sqrt2 (z 2 3))))
(assert-error (z-div-sqrt2 (z 1 0)) "not divisible")
(assert-equal '(7 . 0) (z-int 7))
(assert-error (z-int "x") "z-int")
(assert-true (z-zerop (z- (z 4 -9) (z 4 -9))))
(assert-false (z-zerop (z 0 1)))

;;; signs: exact even when a + b√2 is tiny. Pell numbers: x² − 2y² = 1 gives
;;; 0 < x − y√2 = 1/(x + y√2); with y > 10^30 a float could not tell.
(defun pell (k) (let ((u (z 1 0))) (dotimes (i k) (setq u (z* u (z 3 2)))) u))
(let* ((p (pell 40)) (x (car p)) (y (cdr p)))
  (assert-true (bignump y))
  (assert-equal 1 (z-norm p))
  (assert-equal 1 (z-sign (z x (- y))))                   ; x − y√2 > 0 (about 10^-31)
  (assert-equal -1 (z-sign (z (- x) y)))
  (assert-equal -1 (z-sign (z (- x 1) (- y))))            ; (x−1) − y√2 < 0
  (assert-equal 1 (z-cmp (z x 0) (z 0 y)))                ; x > y√2
  (assert-true (z< (z 0 y) (z x 0)))
  (assert-true (z> (z x (- y)) +z-zero+))
  ;; x − y√2 = 1/(x + y√2) < 1/x: x(x − y√2) < 1 < 2x(x − y√2)
  (assert-true (z< (z* (z x 0) (z x (- y))) +z-one+))
  (assert-true (z> (z* (z (* 2 x) 0) (z x (- y))) +z-one+)))
(assert-equal 0 (z-sign +z-zero+))
(assert-equal 1 (z-sign (z 3 -2)))                         ; 3 > 2√2
(assert-equal -1 (z-sign (z 1 -1)))
(assert-equal 1 (z-sign (z -1 1)))
(assert-equal -1 (z-sign (z -3 2)))
(assert-equal 1 (z-sign (z 99 -70)))                        ; 0.00505...
(assert-equal -1 (z-sign (z -99 70)))
(assert-equal -1 (z-sign (z 1393 -985)))                   ; -0.000359...
(assert-true (z= (z 1 2) (z 1 2)))
(assert-false (z= (z 1 2) (z 2 1)))
(assert-true (z<= (z 1 2) (z 1 2)))
(assert-true (z>= (z 0 3) (z 4 0)))                        ; 3√2 ≈ 4.24
(assert-equal '(3 . -2) (z-abs (z 3 -2)))                    ; 3 − 2√2 > 0
(assert-equal '(-1 . 1) (z-abs (z 1 -1)))
(assert-equal '(4 . 0) (z-min (z 4 0) (z 0 3)))
(assert-equal '(0 . 3) (z-max (z 4 0) (z 0 3)))
;; ordering a list of numbers agrees with a scaled exact floor
(let ((xs (list (z 3 -2) (z 0 1) (z 1 0) (z -1 1) (z 7 -5) (z 2 -1) (z 10 -7))))
  (let ((sorted (sort (copy-list xs) #'z<)))
    (assert-true (every (lambda (a b) (z< a b)) (butlast sorted) (cdr sorted)))
    (assert-equal (sort (mapcar (lambda (x) (z-floor-scaled x 1000000)) xs) #'<)
                  (mapcar (lambda (x) (z-floor-scaled x 1000000)) sorted))))
(assert-equal 1414 (z-floor-scaled (z 0 1) 1000))
(assert-equal -1415 (z-floor-scaled (z 0 -1) 1000))
(assert-equal 2414 (z-floor-scaled (z 1 1) 1000))
(assert-equal 171 (z-floor-scaled (z 3 -2) 1000))          ; 0.17157...
(assert-equal 5000 (z-floor-scaled (z 5 0) 1000))
(assert-equal "3" (z-string (z 6 0) 2))
(assert-equal "3/2-1/2r2" (z-string (z 3 -1) 2))
(assert-equal "r2" (z-string (z 0 2) 2))
(assert-equal "-r2" (z-string (z 0 -1)))
(assert-equal "2+3r2" (z-string (z 2 3)))

;;; points, directions, rotation by 45°
(assert-equal '((1 . 0) 2 . 0) (pt 1 2))
(assert-equal 0 (pt-direction (pt 5 0)))
(assert-equal 1 (pt-direction (pt (z 0 1) (z 0 1))))
(assert-equal 3 (pt-direction (pt -2 2)))
(assert-equal 6 (pt-direction (pt 0 (z 1 -2))))             ; 1 − 2√2 < 0
(assert-equal nil (pt-direction (pt 1 2)))
(assert-equal nil (pt-direction (pt 0 0)))
(assert-equal '(0 . 3) (pt-length (pt 3 3)))               ; 3√2
(assert-equal '(0 . 2) (pt-length (pt 0 (z 0 -2))))
(assert-error (pt-length (pt 1 2)) "not a 45-degree")
(assert-equal '((0 . 1) 0 . 1) (pt-rot45 (pt 2 0)))          ; (2,0) -> (√2, √2)
(assert-equal (pt 0 2) (pt-rot45 (pt-rot45 (pt 2 0))))
(assert-error (pt-rot45 (pt 1 0)) "not divisible")
(let ((p (pt (z 2 4) (z -6 2))))
  (assert-equal (pt-rot90 p) (pt-rot45 (pt-rot45 p)))
  (let ((q p)) (dotimes (i 8) (setq q (pt-rot45 q))) (assert-equal p q))
  (assert-equal (pt-rot45-times-sqrt2 p) (pt-scale (pt-rot45 p) +z-sqrt2+)))
(dotimes (k 8)
  (let ((s (dir-step k)))
    (assert-equal k (pt-direction (pt (car s) (cdr s))))
    ;; rotating the step by 45° gives direction k+1 (√2 times the step for odd k)
    (assert-equal (dir-rot k) (pt-direction (pt-rot45-times-sqrt2 (pt (car s) (cdr s)))))))
(assert-equal 0 (dir-rot 7))
(assert-equal 2 (dir-rot 6 4))
(assert-equal '(0 . 0) (pt-cross (pt 1 1) (pt 2 2)))
(assert-equal '(1 . 0) (pt-cross (pt 1 0) (pt 0 1)))

;;; polygons
(defvar sq (list (pt 0 0) (pt 2 0) (pt 2 2) (pt 0 2)))
(assert-equal '(8 . 0) (polygon-area2 sq))
(assert-equal '(-8 . 0) (polygon-area2 (reverse sq)))
(assert-equal sq (polygon-ccw (reverse (reverse sq))))
(assert-true (polygon-simple-p sq))
(assert-false (polygon-simple-p (list (pt 0 0) (pt 2 0) (pt 0 2) (pt 2 2))))   ; bow tie
(assert-true (segments-meet-p (pt 0 0) (pt 2 2) (pt 0 2) (pt 2 0)))
(assert-true (segments-meet-p (pt 0 0) (pt 2 0) (pt 2 0) (pt 3 1)))          ; touching ends
(assert-false (segments-meet-p (pt 0 0) (pt 1 0) (pt 2 0) (pt 3 0)))         ; collinear, apart
(assert-equal 1 (orient (pt 0 0) (pt 1 0) (pt 0 1)))
(assert-equal (list (pt 0 0) (pt 2 0) (pt 2 2) (pt 0 2))
              (polygon-clean (list (pt 0 0) (pt 1 0) (pt 2 0) (pt 2 2) (pt 2 2) (pt 0 2))))
(assert-equal nil (polygon-clean (list (pt 0 0) (pt 2 0) (pt 1 0) (pt 1 1))))  ; spike
;; congruence keys: a right isosceles triangle, rotated by 45°, mirrored, translated
(let* ((tri (list (pt 0 0) (pt 4 0) (pt 0 4)))
       (rot (mapcar #'pt-rot45 tri))
       (mir (reverse (mapcar #'pt-mirror tri)))
       (mov (mapcar (lambda (p) (pt+ p (pt (z 1 3) (z -2 1)))) tri)))
  (assert-equal (polygon-canon tri) (polygon-canon rot))
  (assert-equal (polygon-canon tri) (polygon-canon mir))
  (assert-equal (polygon-canon tri) (polygon-canon mov))
  (assert-false (equal (polygon-canon tri) (polygon-canon (list (pt 0 0) (pt 2 0) (pt 0 2)))))
  (assert-true (polygon-convex-key-p (polygon-canon tri))))
;; a chiral shape: the parallelogram and its mirror image are congruent
;; (reflections allowed), the L-shaped hexagon is not convex
(let ((par (list (pt 0 0) (pt 2 0) (pt 4 2) (pt 2 2))))
  (assert-equal (polygon-canon par) (polygon-canon (reverse (mapcar #'pt-mirror par))))
  (assert-equal (polygon-canon par) (polygon-canon (mapcar #'pt-rot45 par))))
(let ((ell (list (pt 0 0) (pt 4 0) (pt 4 2) (pt 2 2) (pt 2 4) (pt 0 4))))
  (assert-false (polygon-convex-key-p (polygon-canon ell)))
  (assert-equal 6 (length (polygon-turns ell)))
  (assert-equal '((4 . 0) . 2) (car (polygon-turns ell))))

(test-summary)
