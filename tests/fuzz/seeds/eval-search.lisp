(dfs 1 (lambda (n) (if (< n 100) (list (* 2 n) (+ 1 (* 2 n))))) (lambda (n) (= n 77)))
(permutations (list 1 2 3))
(exact-cover (quote ((a b) (b c) (c) (a))))
(nqueens-count 6)