// test_core.cpp — the heap, rooting, limits and the evaluator from C++.
#include <cstdlib>
#include <doctest/doctest.h>

#include "interp/interp.h"
#include "interp/printer.h"

#include <thread>

using namespace lipq;

namespace {
std::string show(Interp& I, Value v) { return prin1_to_string(I, v); }
Value ev(Interp& I, const char* src) { return I.eval_string(src, "<test>"); }
} // namespace

TEST_CASE("cons cells are 16 bytes and quad cells 32") {
    CHECK(sizeof(Cons) == 16);
    CHECK(sizeof(Quad) == 32);
    CHECK(sizeof(Value) == 8);
}

TEST_CASE("fixnums are immediate and round-trip at the edges") {
    for (int64_t n : {int64_t(0), int64_t(-1), int64_t(42), FIXNUM_MAX, FIXNUM_MIN}) {
        Value v = make_fixnum(n);
        CHECK(is_fixnum(v));
        CHECK(fixnum_value(v) == n);
    }
    CHECK_FALSE(is_fixnum(NIL));
    CHECK(is_nil(NIL));
}

TEST_CASE("a rooted list survives collections, an unrooted one is reclaimed") {
    Interp I;
    I.heap.collect();
    size_t base = I.heap.stats().live_bytes;
    {
        Root keep(I, NIL);
        for (int i = 0; i < 100000; i++) keep = I.cons(make_fixnum(i), keep);
        I.heap.collect();
        CHECK(I.heap.stats().live_bytes >= base + 100000 * sizeof(Cons));
        // The list is intact.
        int64_t n = 0, expect = 99999;
        for (Value x = keep; is_pair(x); x = cdr(x), expect--) {
            CHECK(fixnum_value(car(x)) == expect);
            n++;
        }
        CHECK(n == 100000);
    }
    I.heap.collect();
    CHECK(I.heap.stats().live_bytes < base + 100000 * sizeof(Cons) / 10);
}

TEST_CASE("the allocator hands out the free cells between live ones, never a live one") {
    // After a collection the allocator bumps through the runs of clear mark
    // bits (Heap::next_run): holes one cell wide, runs across bitmap words,
    // whole free pages. Cons and quad cells alike.
    Interp I;
    const int64_t n = I.heap.torture() ? 600 : 60000;   // under torture every cell collects
    for (bool quads : {false, true}) {
        auto cell = [&](int64_t i, Value rest) {
            return quads ? I.quad(make_fixnum(i), make_fixnum(i + 1), make_fixnum(i + 2), rest) : I.cons(make_fixnum(i), rest);
        };
        auto intact = [&](Value l, int64_t first, int64_t step, int64_t n) {
            int64_t k = 0;
            for (Value x = l; is_pair(x); x = cdr(x), k++) {
                int64_t want = first - k * step;
                if (fixnum_value(car(x)) != want || (quads && fixnum_value(cbr(x)) != want + 1)) return false;
            }
            return k == n;
        };
        Root keep(I, NIL);
        for (int64_t i = 0; i < n; i++) keep = cell(i, keep);
        // Every other cell unlinked: one-cell holes, after the collection,
        // all over the pages that hold the list.
        for (Value x = keep; is_pair(x) && is_pair(cdr(x)); x = cdr(x)) set_cdr(x, cdr(cdr(x)));
        I.heap.collect();
        size_t pages = I.heap.stats().heap_bytes;
        Root fresh(I, NIL);
        for (int64_t i = 0; i < n * 5 / 12; i++) fresh = cell(-i, fresh);
        CHECK(I.heap.stats().heap_bytes == pages);   // the holes were used, no page added
        CHECK(intact(keep, n - 1, 2, n / 2));
        CHECK(intact(fresh, 1 - n * 5 / 12, -1, n * 5 / 12));
        // Again after dropping the kept list: long runs.
        keep = NIL;
        I.heap.collect();
        Root more(I, NIL);
        for (int64_t i = 0; i < 2 * n; i++) more = cell(i, more);
        CHECK(intact(fresh, 1 - n * 5 / 12, -1, n * 5 / 12));
        CHECK(intact(more, 2 * n - 1, 1, 2 * n));
    }
}

TEST_CASE("cyclic garbage is collected") {
    Interp I;
    I.heap.collect();
    size_t base = I.heap.stats().live_bytes;
    for (int round = 0; round < 200; round++) {
        Root head(I, I.cons(NIL, NIL));
        Value last = head;
        for (int i = 0; i < 1000; i++) {
            Value c = I.cons(make_fixnum(i), NIL);
            set_cdr(last, c);
            last = c;
        }
        set_cdr(last, head);   // a ring, dropped at the end of the round
    }
    I.heap.collect();
    CHECK(I.heap.stats().live_bytes < base + 64 * 1024);
}

TEST_CASE("exceeding the heap limit is a Lisp error, and the interpreter goes on") {
    Settings s;
    s.heap_limit = 32u << 20;
    Interp I(s);
    CHECK_THROWS_WITH_AS(ev(I, "(let ((l nil)) (while t (setq l (cons l l))))"),
                         doctest::Contains("heap exhausted"), LispError);
    CHECK(show(I, ev(I, "(+ 1 2)")) == "3");
    // The error is catchable from Lisp too.
    CHECK(show(I, ev(I, "(errset (let ((l nil)) (while t (setq l (cons 1 l)))) nil)")) == "nil");
}

TEST_CASE("deep recursion works up to the limit and fails cleanly beyond it") {
    Interp I;
    ev(I, "(defun f (n) (if (= n 0) 0 (+ 1 (f (- n 1)))))");
    // On this thread's stack (8 MiB); ASan's frames are several times bigger.
    const char* n = std::getenv("LIPQ_SANITIZED") ? "3000" : "10000";
    CHECK(show(I, ev(I, (std::string("(f ") + n + ")").c_str())) == n);
    CHECK_THROWS_WITH_AS(ev(I, "(f 10000000)"), doctest::Contains("stack depth exceeded"), LispError);
    CHECK(show(I, ev(I, "(f 100)")) == "100");
}

TEST_CASE("errors carry the message, the backtrace and the source position") {
    Interp I;
    ev(I, "(defun g (x) (car x))\n(defun h (x) (list (g x)))");
    try {
        I.eval_string("\n\n  (h 5)", "demo.lisp");
        FAIL("no error");
    } catch (LispError& e) {
        CHECK(e.message == "car: not a list: 5");
        REQUIRE(e.backtrace.size() >= 3);
        CHECK(e.backtrace[0].rfind("car", 0) == 0);
        CHECK(e.backtrace[1].rfind("g ", 0) == 0);
        CHECK(e.backtrace[2].rfind("h (called at demo.lisp:3:3)", 0) == 0);
        CHECK(e.where.find("<test>:1:") != std::string::npos);   // car's call site, inside g
    }
}

TEST_CASE("syntax errors name file:line:column") {
    Interp I;
    CHECK_THROWS_WITH_AS(I.eval_string("(a b\n  (c d)", "x.lisp"), doctest::Contains("x.lisp:1:1"), LispError);
    CHECK_THROWS_WITH_AS(I.eval_string("'(a))", "y.lisp"), doctest::Contains("y.lisp:1:5"), LispError);
    CHECK_THROWS_WITH_AS(I.eval_string("\"abc", "z.lisp"), doctest::Contains("unterminated string"), LispError);
}

TEST_CASE("a million nested parentheses do not crash the reader") {
    Interp I;
    std::string deep(1000000, '(');
    CHECK_THROWS_WITH_AS(I.eval_string(deep, "deep.lisp"), doctest::Contains("missing )"), LispError);
    // Balanced and quoted: reads, and the structure can be walked.
    std::string q = "(quote " + std::string(100000, '(') + std::string(100000, ')') + ")";
    Value v = I.eval_string(q, "deep2.lisp");
    int depth = 0;
    while (is_pair(v)) { v = car(v); depth++; }
    CHECK(depth == 99999);   // 100000 parentheses: the innermost is ()
}

TEST_CASE("interrupts stop a running loop and the interpreter stays usable") {
    Interp I;
    std::thread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        I.interrupt();
    });
    CHECK_THROWS_AS(ev(I, "(let ((i 0)) (while t (setq i (1+ i))))"), Interrupted);
    t.join();
    CHECK(show(I, ev(I, "(list 1 2)")) == "(1 2)");
}

TEST_CASE("two interpreters are independent, even on two threads at once") {
    auto work = [](int k, std::string* out) {
        Interp I;
        I.eval_string("(defvar *k* " + std::to_string(k) + ")", "<t>");
        I.eval_string("(defun fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))", "<t>");
        Value v = I.eval_string("(list *k* (fib 22) (length (let ((l nil)) (dotimes (i 100000 l) (push i l)))))", "<t>");
        *out = prin1_to_string(I, v);
    };
    std::string a, b;
    std::thread ta(work, 1, &a), tb(work, 2, &b);
    ta.join();
    tb.join();
    CHECK(a == "(1 17711 100000)");
    CHECK(b == "(2 17711 100000)");
}
