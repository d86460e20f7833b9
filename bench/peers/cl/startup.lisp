(format t "~D~%" (+ 1 2))
