;;; queens.lisp — 8 queens and N queens in every style the seeds show.
;;;
;;; Seeds: Makoto Hiroi, "JavaScript Junk Scripts" (nqueens.js: nqueen0 generates
;;; permutations and filters them, nqueen1 backtracks), and a functional
;;; JavaScript N-queens (nextBadCols / nextGoodCols / innerQ with flatMap).
;;; Added here: a bitboard version in lipq and lipq's native nqueens-count.
;;;
;;; A board is a list of rows, one per column: (1 3 0 2) has its queens at
;;; (0,1) (1,3) (2,0) (3,2).  While searching, the board is kept newest first,
;;; so placing a queen is a cons and the queens it must not attack are at
;;; distance 1, 2, 3 ... along the list.
;;;
;;;   lipq scripts/queens.lisp [SECTION...] [quick|full]
;;;     sections: nqueen0     solutions for n = 4..8 and their counts (the seed's listing)
;;;               nqueen1     counts for n = 8..12 (full: 8..14; quick: 8..10)
;;;               functional  (nqueens 4) as the seed writes it, and the count for 8
;;;               table       the seed's timing table, every method, measured here
;;;     no section: all four.
;;;
;;; Lines starting with ";" are timings and notes; the rest is deterministic
;;; (tests/expected/seeds/queens-*.txt).  Times are CPU seconds of this process.

;;; ---- shared pieces -------------------------------------------------------

;; Does a queen on row Y attack one of QS, the queens of the previous columns,
;; newest first (so the first is D = 1 column away)?  Same row or diagonal.
(defun queen-attacks-p (y d qs)
  (cond ((null qs) nil)
        ((= (abs (- y (car qs))) d) t)
        (t (queen-attacks-p y (1+ d) (cdr qs)))))

;; The seed's is_safe: no two queens of board B on a diagonal (rows differ by
;; construction, B being a permutation).
(defun queen-safe-p (b)
  (or (null b)
      (and (not (queen-attacks-p (car b) 1 (cdr b)))
           (queen-safe-p (cdr b)))))

(defun board-string (b) (string-join b ","))

;;; ---- (0) nqueen0: generate every permutation, keep the safe ones ------------

;; The seed's higher-order permutation: call FN on every N-permutation of XS,
;; choosing elements in the order of XS (so 0..n-1 gives lexicographic order).
;; YS is the permutation so far, newest first.
(defun permutation (fn n xs &optional ys (k 0))
  (if (= k n)
      (funcall fn (reverse ys))
      (dolist (x xs)
        (unless (memq x ys)
          (permutation fn n xs (cons x ys) (1+ k))))))

;; The printing version: each safe permutation, then the count.
(defun nqueen0-print (size)
  (let ((c 0))
    (permutation (lambda (b)
                   (when (queen-safe-p b)
                     (write-line (board-string b))
                     (incf c)))
                 size (iota size))
    (print c)))

;; The counting version (timed in the table).
(defun nqueen0 (size)
  (let ((c 0))
    (permutation (lambda (b) (when (queen-safe-p b) (incf c))) size (iota size))
    c))

;; The same with the native permutation generator.
(defun nqueen0-native (size)
  (let ((c 0))
    (map-permutations (lambda (b) (when (queen-safe-p b) (incf c))) (iota size))
    c))

;;; ---- (1) nqueen1: backtracking, checking each queen as it is placed ----------

;; Call FN on every solution (in column order); PS is the board so far, newest first.
(defun nqueen1 (fn xs n &optional ps (k 0))
  (if (= k n)
      (funcall fn (reverse ps))
      (dolist (x xs)
        (unless (or (memq x ps) (queen-attacks-p x 1 ps))
          (nqueen1 fn xs n (cons x ps) (1+ k))))))

(defun nqueen1-count (size)
  (let ((c 0))
    (nqueen1 (lambda (b) (incf c)) (iota size) size)
    c))

;; The same search through the native dfs driver: a state is a board (newest
;; first), its successors are the safe ways to place the next queen.
(defun nqueen1-dfs (size)
  (let ((cols (iota size)))
    (dfs nil
         (lambda (ps)
           (let ((out nil))
             (dolist (x cols)
               (unless (or (memq x ps) (queen-attacks-p x 1 ps))
                 (push (cons x ps) out)))
             (nreverse out)))
         (lambda (ps) (= (length ps) size))
         :mode :count)))

;;; ---- (2) the functional version of seed 001, curried as there -------------------

;; ((next-bad-cols) pres): for the queen in row i of PRES, the columns it
;; attacks in the next row, which is d = (length pres) - i rows below it:
;; e, e - d, e + d.  MAPCON hands us each tail, and d is the tail's length.
(defun next-bad-cols (pres)
  (mapcon (lambda (tail)
            (let ((e (car tail)) (d (length tail)))
              (list e (- e d) (+ e d))))
          pres))

;; ((next-good-cols n) pres): the columns 0..n-1 that are not bad, ascending.
(defun next-good-cols (n)
  (lambda (pres)
    (let ((bad (next-bad-cols pres)))
      (remove-if (lambda (e) (memq e bad)) (iota n)))))

;; (((inner-q n) k) pres): every way to finish PRES with K more queens.
(defun inner-q (n)
  (lambda (k)
    (lambda (pres)
      (if (= k 0)
          (list pres)
          (flatmap (lambda (e) (((inner-q n) (1- k)) (append pres (list e))))
                   ((next-good-cols n) pres))))))

(defun nqueens (n) (((inner-q n) n) nil))

;; JSON for a list of lists of numbers, as the seed writes (nqueens 4).
(defun json-string (x)
  (if (listp x)
      (concat "[" (string-join (mapcar #'json-string x) ",") "]")
      (princ-to-string x)))

;;; ---- (3) bitboard, in lipq ---------------------------------------------------

;; Columns, left diagonals and right diagonals under attack are bit sets; the
;; free squares of the next row are the zero bits, taken lowest first.
(defun nqueens-bitboard (n)
  (let ((all (1- (ash 1 n))))
    (labels ((place (cols ld rd)
               (if (= cols all)
                   1
                   (prog (avail bit (count 0))
                     (setq avail (logand all (lognot (logior cols ld rd))))
                     next
                     (when (zerop avail) (return count))
                     (setq bit (logand avail (- avail)))
                     (setq avail (logxor avail bit))
                     (setq count (+ count (place (logior cols bit)
                                                 (ash (logior ld bit) 1)
                                                 (ash (logior rd bit) -1))))
                     (go next)))))
      (place 0 0 0))))

;;; ---- measuring ---------------------------------------------------------------

;; The methods of the table: (name label largest-n-quick largest-n largest-n-full function).
;; A method that needs a native function this build lacks is left out.
(defun queens-methods ()
  (remove-if
   #'null
   (list (list 'nqueen0 "(0) nqueen0: permutations + filter" 8 9 11 #'nqueen0)
         (if (boundp 'map-permutations)
             (list 'nqueen0-native "(0') nqueen0, native map-permutations" 8 10 11 #'nqueen0-native))
         (list 'nqueen1 "(1) nqueen1: backtracking" 10 12 14 #'nqueen1-count)
         (if (boundp 'dfs)
             (list 'nqueen1-dfs "(1') nqueen1, native dfs driver" 10 12 13 #'nqueen1-dfs))
         (list 'functional "(2) functional (seed 001)" 10 11 12 (lambda (n) (length (nqueens n))))
         (list 'bitboard "(3) bitboard in lipq" 10 12 14 #'nqueens-bitboard)
         (if (boundp 'nqueens-count)
             (list 'native "(4) native nqueens-count" 10 14 14 #'nqueens-count)))))

;; Results so far: (method . n) -> (count . cpu-microseconds); a method runs
;; once per size even when two sections need it.
(defvar *queens-results* (make-hash-table 'equal))

(defun queens-run (method fn n)
  (let ((key (cons method n)))
    (or (gethash key *queens-results*)
        (let* ((t0 (get-internal-run-time))
               (c (funcall fn n))
               (r (cons c (- (get-internal-run-time) t0))))
          (puthash key r *queens-results*)
          r))))


;;; ---- sections ----------------------------------------------------------------

(defun queens-section-nqueen0 ()
  (do ((size 4 (1+ size))) ((> size 8))
    (format t "----- ~d -----~%" size)
    (nqueen0-print size)))

(defun queens-section-nqueen1 (max)
  (do ((size 8 (1+ size))) ((> size max))
    (format t "----- ~d -----~%" size)
    (let ((r (queens-run 'nqueen1 #'nqueen1-count size)))
      (print (car r))
      (format t "; ~a CPU s~%" (seconds-string (cdr r))))))

(defun queens-section-functional ()
  (let ((q4 (nqueens 4)))
    (write-line (json-string q4))
    (print (car (queens-run 'functional (lambda (n) (length (nqueens n))) 8)))
    (format t "; (nqueens 4) => ~s~%" q4)))

;; The seed's table: a column per n, a row per method, CPU seconds.  Every
;; method must find the same number of solutions as nqueen1 (checked here).
(defun queens-section-table (max quick full)
  (let ((methods (queens-methods)) (sizes nil))
    (do ((n 8 (1+ n))) ((> n max)) (push n sizes))
    (setq sizes (nreverse sizes))
    (write-line "; N-queens, CPU seconds on this machine (----: not run at this size)")
    (format t "; ~40a" "n")
    (dolist (n sizes) (format t "~8d" n))
    (terpri)
    (let ((counts (mapcar (lambda (n) (car (queens-run 'nqueen1 #'nqueen1-count n)))
                          sizes)))
      (format t "; ~40a" "solutions")
      (dolist (c counts) (format t "~8d" c))
      (terpri)
      (dolist (m methods)
        (destructuring-bind (name label quick-n n-default full-n fn) m
          (format t "; ~40a" label)
          (let ((limit (cond (full full-n) (quick quick-n) (t n-default))))
            (mapc (lambda (n c)
                    (if (> n limit)
                        (format t "~8@a" "----")
                        (let ((r (queens-run name fn n)))
                          (unless (eql (car r) c)
                            (error "queens: ~a found ~d solutions for n = ~d, nqueen1 ~d"
                                   label (car r) n c))
                          (format t "~8@a" (seconds-string (cdr r) 2)))))
                  sizes counts)))
        (terpri)))
    (format t "; all methods agree on every count shown~%")
    (unless (boundp 'dfs)
      (format t "; native search drivers (dfs, map-permutations, nqueens-count) missing in this build: rows skipped~%"))))

(defun queens-main (args)
  (let* ((quick (or (member "quick" args) (getenv "LIPQ_TEST_QUICK")))
         (full (member "full" args))
         (max (cond (full 14) (quick 10) (t 12)))
         (all (not (or (member "nqueen0" args) (member "nqueen1" args)
                       (member "functional" args) (member "table" args)))))
    (when (or all (member "nqueen0" args)) (queens-section-nqueen0))
    (when (or all (member "nqueen1" args)) (queens-section-nqueen1 max))
    (when (or all (member "functional" args)) (queens-section-functional))
    (when (or all (member "table" args)) (queens-section-table max quick full))))

;; For scripts/demo.lisp: (label value seed's-value) triples.
(defun queens-demo ()
  (list (list "queens: (nqueens 4), seed 001" (nqueens 4) '((1 3 0 2) (2 0 3 1)))
        (list "queens: nqueen0 counts n=4..7" (mapcar #'nqueen0 '(4 5 6 7)) '(2 10 4 40))
        (list "queens: nqueen1 counts n=8..10" (mapcar #'nqueen1-count '(8 9 10)) '(92 352 724))
        (list "queens: bitboard n=11" (nqueens-bitboard 11) 2680)
        (if (boundp 'nqueens-count)
            (list "queens: native nqueens-count n=12" (nqueens-count 12) 14200)
            (list "queens: native nqueens-count" "not in this build" "not in this build"))))

(unless (boundp '*seeds-demo*)
  (queens-main *args*))
