;;; Tests for scripts/tangram.lisp: the 53 = 22 + 31 tangram pentagons (2
;;; convex), the 13 convex tangrams, valid dissections, a well-formed SVG.
;;; Under LIPQ_TEST_QUICK only single tilings and the SVG checker run.
(require 'test)
(defvar *tangram-library* t)
(load "scripts/tangram.lisp")

(defvar quick (getenv "LIPQ_TEST_QUICK"))

;;; ------------------------------------------------------------ a small XML well-formedness checker
;; Tags must nest and balance, attribute values must be quoted, text may not
;; hold a raw < or a bare &. Returns t or a string describing the first problem.
(defun xml-check (s)
  (let ((n (string-length s)) (i 0) (stack nil) (roots 0) (err nil))
    (labels ((ch (k) (char-code s k))
             (name-end (k) (let ((k k))
                             (while (and (< k n) (not (member (ch k) '(32 10 9 13 47 62)))) (setq k (1+ k)))
                             k))
             (fail (msg) (setq err (format nil "~a at ~d" msg i))))
      (while (and (< i n) (not err))
        (let ((c (ch i)))
          (cond
            ((= c 60)                                  ; <
             (cond
               ((and (< (1+ i) n) (= (ch (1+ i)) 63))  ; <? ... ?>
                (let ((e (string-search "?>" s i))) (if e (setq i (+ e 2)) (fail "unterminated <?"))))
               ((and (< (1+ i) n) (= (ch (1+ i)) 47))  ; </name>
                (let* ((e (name-end (+ i 2))) (nm (substring s (+ i 2) e)))
                  (cond ((or (>= e n) (/= (ch e) 62)) (fail "bad end tag"))
                        ((not (equal nm (car stack))) (fail (format nil "</~a> closes <~a>" nm (car stack))))
                        (t (pop stack) (setq i (1+ e))))))
               (t                                      ; <name attr="v" ...> or .../>
                (let* ((e (name-end (1+ i))) (nm (substring s (1+ i) e)) (k e) (done nil))
                  (when (= (string-length nm) 0) (fail "empty tag name"))
                  (while (and (not done) (not err))
                    (while (and (< k n) (member (ch k) '(32 10 9 13))) (setq k (1+ k)))
                    (cond ((>= k n) (fail "unterminated tag"))
                          ((= (ch k) 62)
                           (if (and (null stack) (> roots 0)) (fail "second root element"))
                           (when (null stack) (setq roots (1+ roots)))
                           (push nm stack) (setq i (1+ k) done t))
                          ((and (= (ch k) 47) (< (1+ k) n) (= (ch (1+ k)) 62))
                           (when (null stack) (setq roots (1+ roots)))
                           (setq i (+ k 2) done t))
                          (t (let ((es (string-search "=" s k)))
                               (if (or (null es) (>= (1+ es) n) (/= (ch (1+ es)) 34))
                                   (fail "attribute value not quoted")
                                   (let ((q (string-search "\"" s (+ es 2))))
                                     (if q (setq k (1+ q)) (fail "unterminated attribute"))))))))))))
            ((= c 38)                                  ; & must start an entity
             (let ((semi (string-search ";" s i)))
               (if (and semi (< (- semi i) 8)) (setq i (1+ semi)) (fail "bare &"))))
            ((and (= c 62) (null stack)) (fail "stray >"))
            (t (setq i (1+ i)))))))
    (cond (err err)
          (stack (format nil "unclosed <~a>" (car stack)))
          ((/= roots 1) "no root element")
          (t t))))

(assert-equal t (xml-check "<?xml version=\"1.0\"?>\n<svg a=\"1\"><g><polygon points=\"1,2\"/></g><text x=\"1\">a &amp; b</text></svg>\n"))
(assert-true (stringp (xml-check "<svg><g></svg>")))
(assert-true (stringp (xml-check "<svg><g></g>")))
(assert-true (stringp (xml-check "<svg a=1></svg>")))
(assert-true (stringp (xml-check "<svg>a & b</svg>")))
(assert-true (stringp (xml-check "<svg></svg><svg></svg>")))
(assert-true (stringp (xml-check "<svg><polygon points=\"1,2/></svg>")))

;;; ------------------------------------------------------------ dissections
(defun remove-duplicates-equal (l)
  (let ((out nil)) (dolist (x l) (unless (member x out) (push x out))) (nreverse out)))
(defun count-substrings (needle s)
  (let ((n 0) (i (string-search needle s)))
    (while i (setq n (1+ n) i (string-search needle s (1+ i))))
    n))

;; Congruence keys of the tans (half units), by type symbol.
(defvar tan-keys
  (mapcar (lambda (tv) (cons (car tv) (polygon-canon (half-pts (cdr tv))))) +tan-verts+))
(defun piece-type (name) (intern (string-downcase (substring name 0 1))))

;; A dissection of an outline (half units) is valid if it has exactly the 7
;; tans (names S1 S2 M1 L1 L2 Q1 P1, possibly with '), each congruent to its
;; tan, and the piece areas add up to the outline's area 8 (64 in half units).
(defun valid-dissection-p (outline dis)
  (and (equal (sort (mapcar (lambda (d) (substring (car d) 0 2)) dis) #'string<)
              '("L1" "L2" "M1" "P1" "Q1" "S1" "S2"))
       (every (lambda (d) (equal (polygon-canon (cdr d)) (cdr (assq (piece-type (car d)) tan-keys)))) dis)
       (equal (polygon-area2 outline) (z 64))
       (equal (reduce #'z+ (mapcar (lambda (d) (z-abs (polygon-area2 (cdr d)))) dis)) (z 64))))

;; The convex pentagon (0,0) (3,3) (3,4) (2,5) (0,3) is snug; the pentagon
;; (0,0) (2,2) (6,2) (6,3) (0,3) has area 8 but no tiling.
(defvar p-yes '((0 . 0) (3 . 3) (3 . 4) (2 . 5) (0 . 3)))
(defvar p-no '((0 . 0) (2 . 2) (6 . 2) (6 . 3) (0 . 3)))
(assert-equal 16 (iarea2 p-yes))
(assert-equal 16 (iarea2 p-no))
(assert-equal 32 (length (cells-of p-yes)))
(let ((dis (tile-lattice p-yes +full+)))
  (assert-equal 7 (length dis))
  (assert-true (valid-dissection-p (half-pts p-yes)
                                   (mapcar (lambda (d) (cons (car d) (half-pts (cdr d)))) dis))))
(assert-equal nil (tile-lattice p-no +full+))
;; the Lisp search agrees with the native exact cover
(unless quick
  (let ((*use-native-xc* nil))
    (assert-equal 7 (length (tile-lattice p-yes +full+)))
    (assert-equal nil (tile-lattice p-no +full+)))
  ;; the 2×2 square: two large triangles, but not S+S+M+Q (same area)
  (assert-equal 2 (length (tile-lattice '((0 . 0) (2 . 0) (2 . 2) (0 . 2)) '(0 0 2 0 0))))
  (assert-equal nil (tile-lattice '((0 . 0) (2 . 0) (2 . 2) (0 . 2)) '(2 1 0 1 0))))
(assert-equal 3 (length (turn-sequences 3)))
(assert-equal 23 (length (turn-sequences 4)))
(unless quick (assert-equal 180 (length (turn-sequences 5))))

;;; ------------------------------------------------------------ the full run
(unless quick
  (let* ((r (tangram-run))
         (snug (result r 'snug)) (ns (result r 'nonsnug)) (conv (result r 'convex)))
    (assert-equal 31 (length (result r 'candidates)))
    (assert-equal 22 (length snug))
    (assert-equal 31 (length ns))
    (assert-equal 53 (+ (length snug) (length ns)))
    (assert-equal 2 (+ (count-convex snug) (count-convex ns)))
    (assert-equal 0 (count-convex ns))
    (assert-equal 13 (length conv))
    (assert-equal '((3 . 1) (4 . 6) (5 . 2) (6 . 4)) (convex-by-vertices conv))
    ;; the 2 convex pentagons are exactly the convex tangrams with 5 vertices
    (assert-equal (sort (mapcar #'car (remove-if-not (lambda (f) (polygon-convex-key-p (car f))) snug)) #'%int-list<)
                  (sort (mapcar #'car (remove-if-not (lambda (c) (= (length (cadr c)) 5)) conv)) #'%int-list<))
    ;; 53 pairwise non-congruent pentagons, each with a valid dissection
    (let ((keys (mapcar #'car (append snug ns))))
      (assert-equal 53 (length (remove-duplicates-equal keys))))
    (assert-true (every (lambda (f) (= 5 (length (cadr f)))) (append snug ns)))
    (assert-true (every (lambda (f) (valid-dissection-p (cadr f) (caddr f))) (append snug ns conv)))
    ;; non-snug: the pieces do not all lie on one lattice (some piece is turned)
    (assert-true (every (lambda (f) (some (lambda (d) (string-search "'" (car d))) (caddr f))) ns))
    ;; the SVG sheet
    (let ((svg (svg-sheet r)))
      (assert-equal t (xml-check svg))
      (assert-equal (+ 53 13 2) (count-substrings "<text" svg))
      (assert-equal (* 7 (+ 53 13)) (count-substrings "<title>" svg)))
    ;; the Lisp exact-cover search finds the same 22 snug pentagons
    (let ((*use-native-xc* nil))
      (assert-equal 22 (length (remove-if-not (lambda (c) (tile-lattice (cdr c) +full+))
                                              (result r 'candidates)))))))

(test-summary)
