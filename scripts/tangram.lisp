;;; tangram.lisp — every pentagon the seven tangram pieces can form, found
;;; automatically, with exact arithmetic (integers and Z[√2]; no floats).
;;;
;;;   lipq scripts/tangram.lisp [quick] [--svg FILE] [--lisp-xc]
;;;
;;; Prints the snug and non-snug pentagons (exact vertices and one dissection
;;; each), the cross-check against the 13 convex tangrams (Wang & Hsiung 1942),
;;; phase timings, and writes an SVG sheet of all figures (default
;;; tangram-pentagons.svg in the current directory). "quick" prints only the
;;; counts (no vertex lists, no SVG). --lisp-xc uses the exact-cover search
;;; written in Lisp below instead of the native exact-cover primitive.
;;;
;;; Units. "Tan units": the small triangle has legs 1; the tangram square has
;;; side 2√2 and area 8. Lattice figures (all pieces on one lattice Z²) are
;;; handled with fixnums in tan units. Figures that mix the lattice with its
;;; 45°-rotated copy use "half units" (tan units × 2) so that every coordinate
;;; lies in Z[√2] (R45 of a lattice point (x, y) is ((x−y)√2, (x+y)√2) in half
;;; units) — see lib/zsqrt2.lisp.
;;;
;;; Method (after the 1970s paper reproduced in the seeds and Pohl & Richter,
;;; "The complete characterization of tangram pentagons", 2020):
;;;  1. Lattice n-gons: a simple polygon with edges in the 8 directions is a
;;;     turn sequence plus edge lengths; the last two lengths follow from
;;;     closing the polygon (Cramer's rule), the one before is restricted to the
;;;     interval where both are positive and within the bounds. Edge bounds:
;;;     along one line every convex tan contributes at most one edge, so an
;;;     axis edge is at most 2+2+2+1+1+1+1 = 10 and a diagonal edge at most
;;;     8√2 (2√2+2√2+√2+√2+√2+√2). Congruent copies are merged by
;;;     polygon-canon (rotations by 45°, reflections).
;;;  2. Snug pentagons (all seven tans on one lattice): exact cover of the
;;;     pentagon's quarter cells (each unit square cut by both diagonals into 4
;;;     triangles; 32 cells in all) by the tans in their 8 orientations.
;;;  3. Non-snug pentagons: by the lemma, a triangle made of some tans glued to a
;;;     triangle or quadrilateral made of the others, rotated by 45°. Every
;;;     tileable lattice triangle (one multiset of tans) is glued along every
;;;     edge to every tileable lattice triangle/quadrilateral of the complement,
;;;     rotated 45° and turned into all 8 positions; the union must be a simple
;;;     pentagon (exactly) not congruent to a snug one.
;;;  4. Cross-check: convex lattice polygons of area 8 (a box with four 45°
;;;     corners cut off) tileable by the 7 tans: 13.

(require 'zsqrt2)

;;; ------------------------------------------------------------ lattice polygons (fixnums)

(defun %axis-max (d) (if (evenp d) 10 8))   ; see the bounds above

;; All turn sequences (turns in 45° units, no straight or reversing vertex)
;; of length n summing to 8 (one counter-clockwise revolution), in
;; lexicographic order over -3 -2 -1 1 2 3.
(defun turn-sequences (n &optional convex)
  (let ((vals (if convex '(1 2 3) '(-3 -2 -1 1 2 3))) (out nil))
    (labels ((rec (k sum acc)
               (if (= k n)
                   (when (= sum 8) (push (reverse acc) out))
                   (dolist (v vals)
                     (let ((s (+ sum v)) (left (- n k 1)))
                       (when (<= (abs (- 8 s)) (* 3 left))
                         (rec (1+ k) s (cons v acc))))))))
      (rec 0 0 nil))
    (nreverse out)))

;; Integers t with lo <= c0 + c1·t <= hi, as (from . to) (empty when from > to).
(defun %lin-range (c0 c1 lo hi)
  (cond ((= c1 0) (if (and (<= lo c0) (<= c0 hi)) (cons -1000000 1000000) (cons 1 0)))
        ((> c1 0) (cons (- (floor (- c0 lo) c1)) (floor (- hi c0) c1)))
        (t (cons (- (floor (- hi c0) (- c1))) (floor (- c0 lo) (- c1))))))

(defun iarea2 (pts)
  (let ((s 0) (p pts))
    (while p
      (let ((a (car p)) (b (if (cdr p) (cadr p) (car pts))))
        (setq s (+ s (- (* (car a) (cdr b)) (* (cdr a) (car b))))))
      (setq p (cdr p)))
    s))

;; Lattice points (tan units, fixnum pairs) -> Z[√2] points in half units.
(defun half-pts (pts) (mapcar (lambda (p) (pt (* 2 (car p)) (* 2 (cdr p)))) pts))

(defvar *stats* nil)            ; alist of counters
(defun stat-incf (name &optional (k 1))
  (let ((c (assq name *stats*)))
    (if c (rplacd c (+ (cdr c) k)) (push (cons name k) *stats*))))

;; All simple lattice n-gons with 8-direction edges whose twice-area is in
;; area2s, one per congruence class: a list of (key . points), points in tan
;; units, counter-clockwise, in order of discovery.
(defun enum-lattice-polys (n area2s)
  (let ((seen (make-hash-table 'equal)) (out nil) (ds (make-vector n 0)))
    (dolist (ts (turn-sequences n))
      (dolist (d0 '(0 1))     ; quarter turns keep Z²: the first direction mod 2 suffices
        (aset ds 0 d0)
        (let ((tt ts))
          (dotimes (i (1- n)) (aset ds (1+ i) (mod (+ (aref ds i) (car tt)) 8)) (setq tt (cdr tt))))
        (let* ((w (dir-step (aref ds (- n 3)))) (u (dir-step (aref ds (- n 2))))
               (v (dir-step (aref ds (- n 1))))
               (det (- (* (car u) (cdr v)) (* (cdr u) (car v))))
               (amax (%axis-max (aref ds (- n 2)))) (bmax (%axis-max (aref ds (- n 1))))
               (wxv (- (* (car w) (cdr v)) (* (cdr w) (car v))))
               (uxw (- (* (car u) (cdr w)) (* (cdr u) (car w))))
               (alo (min det (* det amax))) (ahi (max det (* det amax)))
               (blo (min det (* det bmax))) (bhi (max det (* det bmax))))
          (labels ((rec (k x y pts)
                     (if (< k (- n 3))
                         (let ((st (dir-step (aref ds k))) (lmax (%axis-max (aref ds k))))
                           (do ((l 1 (1+ l))) ((> l lmax))
                             (let ((nx (+ x (* l (car st)))) (ny (+ y (* l (cdr st)))))
                               (rec (1+ k) nx ny (cons (cons nx ny) pts)))))
                         (close-last x y pts)))
                   ;; last free edge t·w, then a·u + b·v closes: a·det = a0 − t·(w×v) ...
                   (close-last (x y pts)
                     (let* ((a0 (- (- (* x (cdr v)) (* y (car v)))))
                            (b0 (- (- (* (car u) y) (* (cdr u) x))))
                            (ra (%lin-range a0 (- wxv) alo ahi))
                            (rb (%lin-range b0 (- uxw) blo bhi))
                            (from (max 1 (car ra) (car rb)))
                            (to (min (%axis-max (aref ds (- n 3))) (cdr ra) (cdr rb))))
                       (do ((tl from (1+ tl))) ((> tl to))
                         (stat-incf 'closures)
                         (let ((an (- a0 (* tl wxv))) (bn (- b0 (* tl uxw))))
                           (when (and (= (rem an det) 0) (= (rem bn det) 0))
                             (let* ((a (/ an det))
                                    (px (+ x (* tl (car w)))) (py (+ y (* tl (cdr w))))
                                    (qx (+ px (* a (car u)))) (qy (+ py (* a (cdr u))))
                                    (poly (reverse (cons (cons qx qy) (cons (cons px py) pts)))))
                               (when (memq (iarea2 poly) area2s)
                                 (let ((hp (half-pts poly)))
                                   (when (polygon-simple-p hp)
                                     (let ((key (polygon-canon hp)))
                                       (unless (gethash key seen)
                                         (puthash key t seen)
                                         (push (cons key poly) out)))))))))))))
            (rec 0 0 0 (list (cons 0 0)))))))
    (nreverse out)))

;; Convex lattice polygons of twice-area a2: a W×H box with 45° corner cuts of
;; legs c0..c3 (c0 bottom-left, c1 bottom-right, c2 top-right, c3 top-left);
;; c3 follows from the area. (key . points) per congruence class.
(defun enum-convex-lattice (a2)
  (let ((seen (make-hash-table 'equal)) (out nil))
    (do ((wd 1 (1+ wd))) ((> wd 12))
      (do ((ht 1 (1+ ht))) ((> ht 12))
        (let ((r (- (* 2 wd ht) a2)))
          (when (>= r 0)
            (do ((c0 0 (1+ c0))) ((or (> c0 (min wd ht)) (> (* c0 c0) r)))
              (do ((c1 0 (1+ c1))) ((or (> c1 (- wd c0)) (> (+ (* c0 c0) (* c1 c1)) r)))
                (do ((c2 0 (1+ c2))) ((or (> c2 (min wd (- ht c1)))
                                          (> (+ (* c0 c0) (* c1 c1) (* c2 c2)) r)))
                  (let* ((r3 (- r (* c0 c0) (* c1 c1) (* c2 c2))) (c3 (isqrt r3)))
                    (when (and (= (* c3 c3) r3) (<= (+ c2 c3) wd) (<= (+ c3 c0) ht))
                      (let* ((poly (list (cons c0 0) (cons (- wd c1) 0) (cons wd c1)
                                         (cons wd (- ht c2)) (cons (- wd c2) ht) (cons c3 ht)
                                         (cons 0 (- ht c3)) (cons 0 c0)))
                             (hp (polygon-clean (half-pts poly)))
                             (key (polygon-canon hp)))
                        (unless (gethash key seen)
                          (puthash key t seen)
                          (push (cons key poly) out))))))))))))
    (nreverse out)))

;;; ------------------------------------------------------------ tans, quarter cells, exact cover

;; The tans in their L0 position (tan units), in the order S M L Q P.
(defconstant +tan-types+ '(s m l q p))
(defconstant +tan-counts+ '(2 1 2 1 1))
(defconstant +tan-verts+
  '((s (0 . 0) (1 . 0) (0 . 1))                 ; small triangle, legs 1
    (m (0 . 0) (2 . 0) (1 . 1))                 ; medium triangle, legs √2
    (l (0 . 0) (2 . 0) (0 . 2))                 ; large triangle, legs 2
    (q (0 . 0) (1 . 0) (1 . 1) (0 . 1))         ; square, side 1
    (p (0 . 0) (1 . 0) (2 . 1) (1 . 1))))       ; parallelogram, sides 1 and √2
(defconstant +tan-names+
  '((s "S1" "S2") (m "M1") (l "L1" "L2") (q "Q1") (p "P1")))

;; The 8 symmetries of the square lattice (rotations first, then reflections).
(defconstant +d4+
  (list (lambda (p) (cons (car p) (cdr p))) (lambda (p) (cons (- (cdr p)) (car p)))
        (lambda (p) (cons (- (car p)) (- (cdr p)))) (lambda (p) (cons (cdr p) (- (car p))))
        (lambda (p) (cons (- (car p)) (cdr p))) (lambda (p) (cons (cdr p) (car p)))
        (lambda (p) (cons (car p) (- (cdr p)))) (lambda (p) (cons (- (cdr p)) (- (car p))))))

;; Quarter cell (x, y, q) of the unit square [x,x+1]×[y,y+1], q = 0 bottom,
;; 1 right, 2 top, 3 left, as one fixnum; translating by (dx, dy) adds
;; dx·256 + dy·4. Coordinates must stay within -32..31.
(defun cell-code (x y q) (+ (* (+ x 32) 256) (* (+ y 32) 4) q))
(defun cell-shift (dx dy) (+ (* dx 256) (* dy 4)))
(defconstant +qcent6+ #((3 . 1) (5 . 3) (3 . 5) (1 . 3)))   ; centroids × 6

;; Is the integer point (px, py) inside the polygon pts6 (never on its boundary)?
(defun %inside6 (px py pts6)
  (let ((inside nil) (p pts6))
    (while p
      (let* ((a (car p)) (b (if (cdr p) (cadr p) (car pts6)))
             (x1 (car a)) (y1 (cdr a)) (x2 (car b)) (y2 (cdr b)))
        (unless (eq (> y1 py) (> y2 py))
          (let ((lhs (+ (* (- x1 px) (- y2 y1)) (* (- py y1) (- x2 x1)))))
            (when (eq (> lhs 0) (> (- y2 y1) 0)) (setq inside (not inside))))))
      (setq p (cdr p)))
    inside))

;; The quarter cells (codes, ascending) of a lattice polygon (tan units).
(defun cells-of (pts)
  (let ((x0 (reduce #'min (mapcar #'car pts))) (x1 (reduce #'max (mapcar #'car pts)))
        (y0 (reduce #'min (mapcar #'cdr pts))) (y1 (reduce #'max (mapcar #'cdr pts)))
        (pts6 (mapcar (lambda (p) (cons (* 6 (car p)) (* 6 (cdr p)))) pts))
        (out nil))
    (do ((x x0 (1+ x))) ((>= x x1))
      (do ((y y0 (1+ y))) ((>= y y1))
        (dotimes (q 4)
          (let ((c (aref +qcent6+ q)))
            (when (%inside6 (+ (* 6 x) (car c)) (+ (* 6 y) (cdr c)) pts6)
              (push (cell-code x y q) out))))))
    (sort out #'<)))

;; type -> list of (vertices . cells) over its distinct lattice orientations.
(defvar *tan-orientations*
  (mapcar (lambda (tv)
            (let ((res nil))
              (dolist (g +d4+)
                (let* ((vs (mapcar g (cdr tv)))
                       (mx (reduce #'min (mapcar #'car vs))) (my (reduce #'min (mapcar #'cdr vs)))
                       (vs (mapcar (lambda (p) (cons (- (car p) mx) (- (cdr p) my))) vs))
                       (cs (cells-of vs)))
                  (unless (member cs (mapcar #'cdr res)) (push (cons vs cs) res))))
              (cons (car tv) (nreverse res))))
          +tan-verts+))

(defvar *use-native-xc* (boundp 'exact-cover))

;; Exact cover in Lisp (fallback and cross-check): rows are (mask . row) with
;; one bit per column; branch on the lowest uncovered column (the first empty
;; quarter cell). Returns the list of chosen rows or nil.
(defun xc-lisp (rows full)
  (let ((sol nil))
    (labels ((search (covered)
               (stat-incf 'xc-nodes)
               (if (= covered full)
                   t
                   (let ((bit (let ((u (logxor full covered))) (logand u (- u)))) (r rows) (found nil))
                     (while (and r (not found))
                       (let ((m (caar r)))
                         (when (and (/= 0 (logand m bit)) (= 0 (logand m covered)))
                           (push (cdar r) sol)
                           (if (search (logior covered m))
                               (setq found t)
                               (pop sol))))
                       (setq r (cdr r)))
                     found))))
      (if (search 0) sol nil))))

;; Can the tans counts = (s m l q p) tile the lattice polygon pts (tan units)?
;; Returns a dissection, a list of (name . vertices) (tan units), or nil.
(defun tile-lattice (pts counts)
  (let* ((region (cells-of pts))
         (need (let ((s 0) (c counts))
                 (dolist (tv *tan-orientations*)
                   (setq s (+ s (* (car c) (length (cdadr tv))))) (setq c (cdr c)))
                 s)))
    (stat-incf 'xc-calls)
    (when (= (length region) need)
      (let ((inreg (make-hash-table)) (info (make-hash-table)) (rows nil) (c counts))
        (dolist (cc region) (puthash cc t inreg))
        (dolist (tv *tan-orientations*)
          (let ((k (car c)) (names (cdr (assq (car tv) +tan-names+))))
            (when (> k 0)
              (dolist (o (cdr tv))
                (let* ((cs (cdr o)) (anchor (car cs)))
                  (dolist (r region)
                    (when (= (mod r 4) (mod anchor 4))
                      (let* ((delta (- r anchor))
                             (pc (mapcar (lambda (x) (+ x delta)) cs)))
                        (when (every (lambda (x) (gethash x inreg)) pc)
                          (let* ((dx (- (floor r 256) (floor anchor 256)))
                                 (dy (- (floor (mod r 256) 4) (floor (mod anchor 256) 4)))
                                 (vs (mapcar (lambda (p) (cons (+ (car p) dx) (+ (cdr p) dy)))
                                             (car o))))
                            (dotimes (i k)
                              (let ((row (cons (nth i names) (copy-list pc))))
                                (puthash row (cons (nth i names) vs) info)
                                (push row rows))))))))))))
          (setq c (cdr c)))
        (setq rows (nreverse rows))
        (let ((sol (if *use-native-xc*
                       (exact-cover rows :mode :first)
                       (xc-lisp-rows rows region))))
          (when sol
            (sort (mapcar (lambda (r) (gethash r info)) sol)
                  (lambda (a b) (string< (car a) (car b))))))))))

;; Translate rows (name cell ...) into bit masks for xc-lisp.
(defun xc-lisp-rows (rows region)
  (let ((idx (make-hash-table 'equal)) (n 0))
    (dolist (c region) (puthash c n idx) (setq n (1+ n)))
    (dolist (r rows)
      (unless (gethash (car r) idx) (puthash (car r) n idx) (setq n (1+ n))))
    (xc-lisp (mapcar (lambda (r)
                       (let ((m 0))
                         (dolist (c r) (setq m (logior m (ash 1 (gethash c idx)))))
                         (cons m r)))
                     rows)
             (1- (ash 1 n)))))

;;; ------------------------------------------------------------ the enumeration

(defun %now () (get-internal-real-time))
(defvar *timings* nil)
(defmacro timed (label &body body)
  (let ((t0 (gensym "t")) (v (gensym "v")))
    `(let* ((,t0 (%now)) (,v (progn ,@body)))
       (push (cons ,label (- (%now) ,t0)) *timings*)
       ,v)))

(defconstant +full+ '(2 1 2 1 1))

;; All sub-multisets of the tans except the empty and the full one, in this
;; order: S count slowest, P fastest.
(defun sub-multisets ()
  (let ((out nil))
    (dotimes (s 3) (dotimes (m 2) (dotimes (l 3) (dotimes (q 2) (dotimes (p 2)
      (let ((n (+ s m l q p)))
        (when (and (> n 0) (< n 7)) (push (list s m l q p) out))))))))
    (nreverse out)))

(defun %cells-of-counts (c) (+ (* 2 (nth 0 c)) (* 4 (nth 1 c)) (* 8 (nth 2 c)) (* 4 (nth 3 c)) (* 4 (nth 4 c))))

(defun %vec (l) (list-to-vector l))

;; Number the pieces of a combined dissection per type (S1 S2 M1 L1 L2 Q1 P1),
;; keeping the ' of turned pieces: both parts number their own pieces from 1.
(defun %renumber (dis)
  (let ((seen nil))
    (mapcar (lambda (d)
              (let* ((ty (substring (car d) 0 1)) (e (assoc ty seen)))
                (if e (rplacd e (1+ (cdr e))) (push (setq e (cons ty 1)) seen))
                (cons (concat ty (cdr e) (if (string-search "'" (car d)) "'" "")) (cdr d))))
            dis)))

;; Glue the snug triangle pa = (3 key points dissection) (lattice L0, half
;; units) to the snug part pb turned by the lattice map g and rotated by 45°,
;; along every pair of antiparallel edges, with one end of the common segment
;; coincident (either end). For every simple pentagon obtained call
;; (found key outline dissection triangle-outline (3 nb)). Returns the number
;; of edge alignments tried.
(defun glue (pa pb g found)
  (let* ((tp (%vec (polygon-ccw (half-pts (caddr pa))))) (nt (vector-length tp))
         (rot (lambda (p) (pt-rot45 (pt (* 2 (car p)) (* 2 (cdr p))))))
         (pp (%vec (polygon-ccw (mapcar rot (mapcar g (caddr pb))))))
         (np (vector-length pp))
         (n 0))
    (dotimes (i nt)
      (let ((dt (pt-direction (pt- (aref tp (mod (1+ i) nt)) (aref tp i)))))
        (dotimes (j np)
          (when (= (pt-direction (pt- (aref pp (mod (1+ j) np)) (aref pp j))) (dir-rot dt 4))
            (dolist (sh (list (pt- (aref tp i) (aref pp (mod (1+ j) np)))
                              (pt- (aref tp (mod (1+ i) nt)) (aref pp j))))
              (setq n (1+ n))
              ;; the cycle: all of T after edge i, then all of P after edge j
              (let ((cyc nil))
                (dotimes (k nt) (push (aref tp (mod (+ i 1 k) nt)) cyc))
                (dotimes (k np) (push (pt+ (aref pp (mod (+ j 1 k) np)) sh) cyc))
                (setq cyc (polygon-clean (nreverse cyc)))
                (when (and cyc (= (length cyc) 5) (polygon-simple-p cyc))
                  (unless (equal (polygon-area2 cyc) (z 64))
                    (error "tangram: glued pentagon of wrong area ~s" cyc))
                  (funcall found (polygon-canon cyc) cyc
                           (%renumber
                            (append (mapcar (lambda (d) (cons (car d) (half-pts (cdr d)))) (cadddr pa))
                                   (mapcar (lambda (d)
                                             (cons (concat (car d) "'")
                                                   (mapcar (lambda (p) (pt+ (funcall rot p) sh))
                                                           (mapcar g (cdr d)))))
                                           (cadddr pb))))
                           (vector-to-list tp)
                           (list 3 (car pb))))))))))
    n))

;; The whole computation. Returns an alist of results.
(defun tangram-run (&optional (convex-check t))
  (setq *stats* nil *timings* nil)
  (let* ((t-start (%now))
         (cands (timed "enumerate lattice pentagons" (enum-lattice-polys 5 '(16))))
         (snug (make-hash-table 'equal)) (snug-list nil)
         (nonsnug (make-hash-table 'equal)) (nonsnug-list nil)
         (outlines (make-hash-table 'equal))
         (parts (make-hash-table 'equal))
         (n-pairs 0) (n-align 0) convex convex-cands)
    ;; 1. snug pentagons
    (timed "exact cover of the pentagon candidates"
      (dolist (c cands)
        (let ((dis (tile-lattice (cdr c) +full+)))
          (when dis
            (puthash (car c) t snug)
            (push (list (car c) (half-pts (cdr c))
                        (mapcar (lambda (d) (cons (car d) (half-pts (cdr d)))) dis)
                        nil nil)
                  snug-list)))))
    ;; 2. snug triangles and quadrilaterals for every sub-multiset
    (let* ((tris (timed "enumerate lattice triangles" (enum-lattice-polys 3 (iota 16 1))))
           (quads (timed "enumerate lattice quadrilaterals" (enum-lattice-polys 4 (iota 16 1))))
           (by-area (make-hash-table)))
      (dolist (c (append tris quads))
        (let ((a (iarea2 (cdr c)))) (puthash a (cons c (gethash a by-area)) by-area)))
      (timed "exact cover of the parts"
        (dolist (sub (sub-multisets))
          (let ((lst nil))
            (dolist (c (reverse (gethash (/ (%cells-of-counts sub) 2) by-area)))
              (setq n-pairs (1+ n-pairs))
              (let ((dis (tile-lattice (cdr c) sub)))
                (when dis (push (list (length (cdr c)) (car c) (cdr c) dis) lst))))
            (puthash sub (nreverse lst) parts)))))
    ;; 3. glue a triangle (lattice L0) to a triangle/quadrilateral rotated by 45°
    (timed "gluing"
      (dolist (sub (sub-multisets))
        (let ((comp (mapcar #'- +full+ sub)))
          (dolist (pa (gethash sub parts))
            (when (= (car pa) 3)
              (dolist (pb (gethash comp parts))
                (dolist (g +d4+)
                  (setq n-align
                        (+ n-align
                           (glue pa pb g
                                 (lambda (key cyc dis group split)
                                   (unless (member split (gethash key outlines))
                                     (puthash key (cons split (gethash key outlines)) outlines))
                                   (unless (or (gethash key snug) (gethash key nonsnug))
                                     (puthash key t nonsnug)
                                     (push (list key cyc dis group) nonsnug-list)))))))))))))
    ;; 4. cross-check: convex tangrams
    (when convex-check
      (timed "convex cross-check"
        (setq convex-cands (enum-convex-lattice 16))
        (dolist (c convex-cands)
          (let ((dis (tile-lattice (cdr c) +full+)))
            (when dis
              (push (list (car c) (polygon-clean (half-pts (cdr c)))
                          (mapcar (lambda (d) (cons (car d) (half-pts (cdr d)))) dis) nil)
                    convex))))))
    (let ((total (- (%now) t-start)))
      (list (cons 'candidates cands)
            (cons 'snug (%sort-figures snug-list))
            (cons 'nonsnug (%sort-figures nonsnug-list))
            (cons 'outlines outlines)
            (cons 'parts-pairs n-pairs)
            (cons 'alignments n-align)
            (cons 'convex (sort (nreverse convex) (lambda (a b) (< (length (cadr a)) (length (cadr b))))))
            (cons 'convex-candidates convex-cands)
            (cons 'timings (reverse *timings*))
            (cons 'total total)
            (cons 'stats *stats*)))))

;; Figures are (key outline dissection group-outline ...); order: convex first,
;; then by key.
(defun %sort-figures (l)
  (sort l (lambda (a b)
            (let ((ca (polygon-convex-key-p (car a))) (cb (polygon-convex-key-p (car b))))
              (cond ((and ca (not cb)) t)
                    ((and cb (not ca)) nil)
                    (t (%int-list< (car a) (car b))))))))

(defun result (r name) (cdr (assq name r)))

;;; ------------------------------------------------------------ output

;; Translate a figure so that min x = min y = 0 (exact).
(defun %normalize (outline dis group)
  (let* ((mx (reduce #'z-min (mapcar #'car outline)))
         (my (reduce #'z-min (mapcar #'cdr outline)))
         (sh (cons (z-neg mx) (z-neg my)))
         (mv (lambda (pts) (mapcar (lambda (p) (pt+ p sh)) pts))))
    (list (funcall mv outline)
          (mapcar (lambda (d) (cons (car d) (funcall mv (cdr d)))) dis)
          (and group (funcall mv group)))))

;; Points in half units printed in tan units: "(2+3/2r2, 0)".
(defun fmt-pts (pts)
  (string-join (mapcar (lambda (p) (format nil "(~a, ~a)" (z-string (car p) 2) (z-string (cdr p) 2)))
                       pts)
               " "))

(defun %split-text (outlines key)
  (let ((s (sort (copy-list (gethash key outlines)) (lambda (a b) (< (cadr a) (cadr b))))))
    (string-join (mapcar (lambda (x) (if (= (cadr x) 3) "tri+tri" "tri+quad")) s) ", ")))

(defun count-convex (figs)
  (let ((n 0)) (dolist (f figs) (when (polygon-convex-key-p (car f)) (setq n (1+ n)))) n))

;; Number of convex tangrams by number of vertices: ((3 . n3) (4 . n4) ...).
(defun convex-by-vertices (convex)
  (let ((out nil))
    (dolist (c convex)
      (let* ((n (length (cadr c))) (e (assoc n out)))
        (if e (rplacd e (1+ (cdr e))) (push (cons n 1) out))))
    (sort out (lambda (a b) (< (car a) (car b))))))

;; Labelled, normalised figures: (label outline dissection group).
(defun figure-items (r)
  (let ((items nil))
    (dolist (tag '(snug nonsnug))
      (let ((i 0))
        (dolist (f (result r tag))
          (setq i (1+ i))
          (let ((nf (%normalize (cadr f) (caddr f) (cadddr f))))
            (push (list (format nil "~a #~d~a" (if (eq tag 'snug) "snug" "non-snug") i
                                (if (polygon-convex-key-p (car f)) " (convex)" ""))
                        (car nf) (cadr nf) (caddr nf) (car f) tag)
                  items)))))
    (nreverse items)))

(defun print-figures (r)
  (format t "~%Coordinates in tan units (small-triangle leg = 1); a+b/2r2 means a + (b/2)*sqrt(2);~%")
  (format t "piece names ending in ' belong to the 45-degree-rotated group.~%")
  (dolist (it (figure-items r))
    (format t "~%~a  vertices: ~a~a~%" (car it) (fmt-pts (cadr it))
            (if (eq (nth 5 it) 'nonsnug)
                (concat "  splits: " (%split-text (result r 'outlines) (nth 4 it)))
                ""))
    (dolist (d (caddr it))
      (format t "    ~4a ~a~%" (car d) (fmt-pts (cdr d))))))

(defun print-summary (r)
  (let* ((snug (result r 'snug)) (ns (result r 'nonsnug)) (conv (result r 'convex)))
    (format t "lattice pentagon candidates (area 8, up to congruence): ~d~%" (length (result r 'candidates)))
    (format t "snug parts: ~d (tan multiset, lattice triangle/quadrilateral) pairs tried~%" (result r 'parts-pairs))
    (format t "glued pentagon outlines (up to congruence): ~d from ~d edge alignments~%"
            (hash-table-count (result r 'outlines)) (result r 'alignments))
    (format t "SNUG pentagons: ~d   NON-SNUG pentagons: ~d   TOTAL: ~d   (convex: ~d)~%"
            (length snug) (length ns) (+ (length snug) (length ns)) (+ (count-convex snug) (count-convex ns)))
    (when (result r 'convex-candidates)
      (format t "CONVEX tangrams: ~d of ~d convex lattice candidates; by vertices: ~a~%"
              (length conv) (length (result r 'convex-candidates))
              (string-join (mapcar (lambda (e) (format nil "~d-gons ~d" (car e) (cdr e)))
                                   (convex-by-vertices conv))
                           ", ")))))

(defun print-timings (r)
  (format t "~%exact cover: ~a (~d calls~a)~%"
          (if *use-native-xc* "native exact-cover" "Lisp search (--lisp-xc)")
          (cdr (assq 'xc-calls (result r 'stats)))
          (if *use-native-xc* "" (format nil ", ~d search nodes" (cdr (assq 'xc-nodes (result r 'stats))))))
  (dolist (e (result r 'timings))
    (format t "  ~40a ~a s~%" (car e) (seconds-string (cdr e))))
  (format t "  ~40a ~a s~%" "TOTAL" (seconds-string (result r 'total))))

;;; ------------------------------------------------------------ SVG

(defconstant +colors+
  '(("S1" . "#e6194b") ("S2" . "#f080a0") ("M1" . "#3cb44b") ("L1" . "#4363d8")
    ("L2" . "#42d4f4") ("Q1" . "#f58231") ("P1" . "#911eb4")))

;; Hundredths of a pixel as text: 1234 -> "12.34".
(defun %px (h)
  (let ((r (mod h 100)))
    (format nil "~d.~a~d" (floor h 100) (if (< r 10) "0" "") r)))

;; One figure at (ox, oy) in a 160-pixel box; coordinates are exact values
;; rounded down to 1/1000 half unit, then scaled (20 px per half unit at most).
(defun svg-figure (label outline dis group ox oy)
  (let* ((m (lambda (v) (z-floor-scaled v 1000)))
         (xs (mapcar (lambda (p) (funcall m (car p))) outline))
         (ys (mapcar (lambda (p) (funcall m (cdr p))) outline))
         (x0 (reduce #'min xs)) (y0 (reduce #'min ys))
         (ext (max (- (reduce #'max xs) x0) (- (reduce #'max ys) y0)))
         (sc (lambda (d) (if (<= ext 8000) (* 2 d) (floor (* d 16000) ext))))
         (pts (lambda (ps)
                (string-join
                 (mapcar (lambda (p)
                           (concat (%px (+ (* 100 ox) (funcall sc (- (funcall m (car p)) x0)))) ","
                                   (%px (- (* 100 (+ oy 160)) (funcall sc (- (funcall m (cdr p)) y0))))))
                         ps)
                 " ")))
         (out nil))
    (dolist (d dis)
      (push (format nil "<polygon points=\"~a\" fill=\"~a\" fill-opacity=\"0.8\" stroke=\"black\" stroke-width=\"0.8\"><title>~a</title></polygon>"
                    (funcall pts (cdr d)) (cdr (assoc (substring (car d) 0 2) +colors+)) (car d))
            out))
    (when group
      (push (format nil "<polygon points=\"~a\" fill=\"none\" stroke=\"black\" stroke-width=\"2.5\" stroke-dasharray=\"5,3\"/>"
                    (funcall pts group))
            out))
    (push (format nil "<polygon points=\"~a\" fill=\"none\" stroke=\"black\" stroke-width=\"2\"/>" (funcall pts outline)) out)
    (push (format nil "<text x=\"~d\" y=\"~d\" font-size=\"12\">~a</text>" ox (- oy 6) label) out)
    (nreverse out)))

;; The SVG sheet: the pentagons, then the convex tangrams.
(defun svg-sheet (r)
  (let* ((cols 6) (cell 190)
         (items (figure-items r))
         (conv (mapcar (lambda (c)
                         (let ((nf (%normalize (cadr c) (caddr c) nil)))
                           (list (format nil "convex ~d-gon" (length (cadr c))) (car nf) (cadr nf) nil)))
                       (result r 'convex)))
         (rows1 (floor (+ (length items) cols -1) cols))
         (rows2 (floor (+ (length conv) cols -1) cols))
         (y2 (+ 40 (* rows1 cell) 40))
         (height (+ y2 (* rows2 cell) 10))
         (lines nil) (idx 0))
    (push "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" lines)
    (push (format nil "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"~d\" height=\"~d\" viewBox=\"0 0 ~d ~d\" font-family=\"sans-serif\">"
                  (* cols cell) height (* cols cell) height)
          lines)
    (push "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>" lines)
    (push (format nil "<text x=\"10\" y=\"25\" font-size=\"16\">The ~d tangram pentagons: ~d snug + ~d non-snug (dashed: the triangle group; ' = piece turned 45 degrees)</text>"
                  (length items) (length (result r 'snug)) (length (result r 'nonsnug)))
          lines)
    (dolist (it items)
      (dolist (l (svg-figure (car it) (cadr it) (caddr it) (cadddr it)
                             (+ 10 (* cell (mod idx cols))) (+ 50 (* cell (floor idx cols)))))
        (push l lines))
      (setq idx (1+ idx)))
    (when conv
      (push (format nil "<text x=\"10\" y=\"~d\" font-size=\"16\">Cross-check: the ~d convex tangrams (Wang and Hsiung 1942)</text>"
                    (- y2 15) (length conv))
            lines)
      (setq idx 0)
      (dolist (it conv)
        (dolist (l (svg-figure (car it) (cadr it) (caddr it) nil
                               (+ 10 (* cell (mod idx cols))) (+ y2 10 (* cell (floor idx cols)))))
          (push l lines))
        (setq idx (1+ idx))))
    (push "</svg>" lines)
    (concat (string-join (nreverse lines) (code-char 10)) (code-char 10))))

;;; ------------------------------------------------------------ main

(defun tangram-main (args)
  (let ((quick nil) (svg "tangram-pentagons.svg"))
    (while args
      (cond ((equal (car args) "quick") (setq quick t))
            ((equal (car args) "--lisp-xc") (setq *use-native-xc* nil))
            ((equal (car args) "--svg")
             (unless (cdr args) (error "tangram: --svg needs a file name"))
             (setq svg (cadr args) args (cdr args)))
            (t (error "tangram: unknown argument ~s (use: [quick] [--svg FILE] [--lisp-xc])" (car args))))
      (setq args (cdr args)))
    (let ((r (tangram-run)))
      (print-summary r)
      (unless quick
        (print-figures r)
        (write-file svg (svg-sheet r))
        (format t "~%SVG sheet written to ~a~%" svg)
        (print-timings r))
      r)))

;; For scripts/demo.lisp: (label computed published) triples.
(defun tangram-demo ()
  (let* ((r (tangram-run)) (snug (result r 'snug)) (ns (result r 'nonsnug)))
    (list (list "tangram: snug pentagons" (length snug) 22)
          (list "tangram: non-snug pentagons" (length ns) 31)
          (list "tangram: convex pentagons" (+ (count-convex snug) (count-convex ns)) 2)
          (list "tangram: convex tangrams (Wang & Hsiung 1942)" (length (result r 'convex)) 13))))

(unless (or (boundp '*seeds-demo*) (and (boundp '*tangram-library*) *tangram-library*))
  (tangram-main *args*))
