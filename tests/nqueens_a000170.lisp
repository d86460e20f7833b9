;;; nqueens_a000170.lisp — the native nqueens-count against OEIS A000170 for
;;; n = 1..17 (n = 17 is about 35 CPU seconds, spread over the cores), kept
;;; out of tests/lisp/ so that it does not also run under GC torture: the
;;; kernel does not allocate. With LIPQ_TEST_QUICK (the sanitizer run) n stops at 15.
(require 'test)
(defvar *a000170*
  '(1 0 0 2 10 4 40 92 352 724 2680 14200 73712 365596 2279184 14772512 95815104))
(dolist (n (iota (if (getenv "LIPQ_TEST_QUICK") 15 17) 1))
  (assert-equal (nth (1- n) *a000170*) (nqueens-count n)))
(test-summary)
