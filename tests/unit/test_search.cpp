// test_search.cpp — the search drivers from C++: an interrupt (as Ctrl-C
// raises it) in the middle of a search unwinds cleanly and leaves the
// interpreter usable; a callback error keeps the callback's backtrace frames;
// a thread interrupting nqueens-count stops the workers.
#include <doctest/doctest.h>

#include "interp/lipq.h"

#include <chrono>
#include <string>
#include <thread>

using namespace lipq;

namespace {

const char* kDefs =
    "(setq *search-progress* nil)"
    "(defun bin-succ (n) (list (* 2 n) (1+ (* 2 n))))"
    "(defun qsafe (c s) (let ((d 1) (ok t)) (dolist (x s) (when (or (= x c) (= (abs (- x c)) d)) (setq ok nil)) (setq d (1+ d))) ok))"
    "(defun qsucc (s) (let ((r nil)) (dotimes (c 6) (when (qsafe c s) (push (cons c s) r))) (nreverse r)))"
    "(defun qgoal (s) (= (length s) 6))";

bool contains(const std::vector<std::string>& v, const std::string& s) {
    for (auto& x : v)
        if (x.find(s) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("an interrupted dfs unwinds cleanly and the interpreter still works") {
    for (int torture = 0; torture < 2; torture++) {
        Lisp lisp;
        lisp.interp().heap.set_torture(torture == 1);
        lisp.eval(kDefs);
        int calls = 0;
        // The goal test interrupts the interpreter on its 5000th call, as a
        // SIGINT handler would; the driver's next poll raises Interrupted.
        lisp.def("tick", [&](Value) {
            if (++calls == (torture ? 300 : 5000)) lisp.interrupt();
            return false;
        });
        bool interrupted = false;
        try {
            lisp.eval("(dfs 1 bin-succ tick)");
        } catch (Interrupted&) {
            interrupted = true;
        }
        CHECK(interrupted);
        CHECK(lisp.eval("(cadr (member :stopped (last-search-stats)))").str() == ":unwound");
        CHECK(lisp.eval("(> (cadr (member :nodes (last-search-stats))) 100)").as<bool>());
        // Everything still works: searches, collections, the value stack.
        CHECK(lisp.eval("(dfs nil qsucc qgoal)").as<int64_t>() == 4);
        lisp.eval("(gc)");
        CHECK(lisp.eval("(length (bfs 1 bin-succ (lambda (n) (= n 11)) :mode :first))").as<int64_t>() == 4);
        CHECK(lisp.eval("(length (exact-cover '((a b) (c) (a) (b c) (b)) :mode :all))").as<int64_t>() == 3);
    }
}

TEST_CASE("a callback error keeps the callback's frames in the backtrace") {
    Lisp lisp;
    lisp.eval(kDefs);
    lisp.eval("(defun inner-check (n) (if (> n 40) (error \"too big: ~d\" n) nil))"
              "(defun my-goal (n) (not (null (inner-check n))))");
    bool caught = false;
    try {
        lisp.eval("(dfs 1 bin-succ my-goal)");
    } catch (Error& e) {
        caught = true;
        CHECK(std::string(e.what()).find("too big: ") != std::string::npos);
        CHECK(contains(e.backtrace(), "inner-check"));
        CHECK(contains(e.backtrace(), "my-goal"));
        CHECK(contains(e.backtrace(), "dfs"));
    }
    CHECK(caught);
    // errset catches it as an ordinary Lisp error
    CHECK(lisp.eval("(errset (dfs 1 bin-succ my-goal) nil)").is_nil());
    CHECK(lisp.eval("(dfs nil qsucc qgoal)").as<int64_t>() == 4);
}

TEST_CASE("interrupting nqueens-count from another thread stops its workers") {
    Lisp lisp;
    std::thread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        lisp.interrupt();
    });
    auto t0 = std::chrono::steady_clock::now();
    bool interrupted = false;
    try {
        lisp.eval("(nqueens-count 22 2)");   // hours of work
    } catch (Interrupted&) {
        interrupted = true;
    }
    t.join();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CHECK(interrupted);
    CHECK(secs < 10.0);
    CHECK(lisp.eval("(nqueens-count 8)").as<int64_t>() == 92);
}

TEST_CASE("the search statistics belong to each interpreter") {
    Lisp a, b;
    a.eval(kDefs);
    b.eval(kDefs);
    a.eval("(dfs nil qsucc qgoal)");
    CHECK(b.eval("(last-search-stats)").is_nil());
    b.eval("(dfs 1 bin-succ (lambda (n) nil) :max-depth 3)");
    CHECK(a.eval("(cadr (member :solutions (last-search-stats)))").as<int64_t>() == 4);
    CHECK(b.eval("(cadr (member :nodes (last-search-stats)))").as<int64_t>() == 15);
}
