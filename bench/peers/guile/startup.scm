(display (+ 1 2))
(newline)
