// host.cpp — a C++ program that embeds lipq.
//
// It defines C++ functions for Lisp, runs a Lisp search that uses them, calls
// Lisp functions from C++, converts values both ways, and handles errors.
// It checks the Lisp answers against C++ computations and exits non-zero if
// any disagree.
#include "interp/lipq.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {

// n-queens by brute force in C++, to check the Lisp answer.
int queens_cpp(int n, int row = 0, unsigned cols = 0, unsigned d1 = 0, unsigned d2 = 0) {
    if (row == n) return 1;
    int count = 0;
    for (int c = 0; c < n; c++) {
        unsigned a = 1u << c, b = 1u << (row + c), d = 1u << (row - c + n);
        if ((cols & a) || (d1 & b) || (d2 & d)) continue;
        count += queens_cpp(n, row + 1, cols | a, d1 | b, d2 | d);
    }
    return count;
}

int failures = 0;
void check(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
    if (!ok) failures++;
}

} // namespace

int main() {
    lipq::Lisp lisp;

    // Capture what Lisp prints.
    std::string printed;
    lisp.on_output([&printed](std::string_view s) { printed += s; });

    // A C++ function with typed parameters: arity and conversions are automatic.
    lisp.def("safe-square?", [](int64_t r1, int64_t c1, int64_t r2, int64_t c2) {
        return c1 != c2 && r1 - c1 != r2 - c2 && r1 + c1 != r2 + c2;
    });
    // A variadic one.
    lisp.def("host-sum", [](lipq::Args a) {
        int64_t s = 0;
        for (int i = 0; i < a.size(); i++) s += a.get<int64_t>(i);
        return s;
    });

    // Lisp code: count n-queens solutions using the C++ predicate.
    lisp.eval(R"(
      (defun ok-with-all (r c placed)
        (cond ((null placed) t)
              ((safe-square? r c (car (car placed)) (cdr (car placed)))
               (ok-with-all r c (cdr placed)))
              (t nil)))
      (defun queens (n &optional (row 0) placed)
        (if (= row n)
            1
            (let ((count 0))
              (dotimes (c n)
                (when (ok-with-all row c placed)
                  (setq count (+ count (queens n (+ row 1) (cons (cons row c) placed))))))
              count)))
    )");

    for (int n = 4; n <= 7; n++) {
        int64_t lisp_count = lisp.call("queens", n).as<int64_t>();
        std::printf("queens %d: %lld solutions\n", n, (long long)lisp_count);
        check(lisp_count == queens_cpp(n), "queens " + std::to_string(n) + " agrees with C++");
    }

    // Vectors in and out.
    std::vector<int64_t> xs{5, 3, 9, 1};
    lisp.set("*xs*", xs);
    std::vector<int64_t> sorted = lisp.eval("(sort (copy-list *xs*) '<)").as<std::vector<int64_t>>();
    check(sorted == std::vector<int64_t>{1, 3, 5, 9}, "sorted list comes back as a std::vector");
    check(lisp.eval("(apply 'host-sum *xs*)").as<int64_t>() == 18, "variadic C++ function");

    // A Lisp function value held in C++ (it survives collections) and called.
    lipq::Ref add = lisp.eval("(lambda (a b) (+ a b))");
    lisp.eval("(gc)");
    check(add(40, 2).as<int>() == 42, "calling a Lisp closure held in a Ref");

    // Output capture.
    lisp.eval("(format t \"hello from ~a~%\" \"lisp\")");
    check(printed == "hello from lisp\n", "output captured by the sink");

    // Lisp errors are C++ exceptions.
    try {
        lisp.eval("(car 'not-a-list)");
        check(false, "error raised");
    } catch (const lipq::Error& e) {
        std::printf("caught: %s\n", e.what());
        check(std::string(e.what()).find("not a list") != std::string::npos, "Lisp error arrives as lipq::Error");
    }

    std::printf(failures ? "host: %d checks FAILED\n" : "host: all checks passed\n", failures);
    return failures ? 1 : 0;
}
