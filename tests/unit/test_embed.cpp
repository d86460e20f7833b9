// test_embed.cpp — the embedding API (interp/lipq.h).
#include <doctest/doctest.h>

#include "interp/lipq.h"

#include <atomic>
#include <chrono>
#include <thread>

using lipq::Lisp;
using lipq::Ref;

TEST_CASE("embed: eval returns values that convert to C++") {
    Lisp lisp;
    CHECK(lisp.eval("(+ 1 2)").as<int64_t>() == 3);
    CHECK(lisp.eval("(concat \"ab\" \"cd\")").as<std::string>() == "abcd");
    CHECK(lisp.eval("'hello").as<std::string>() == "hello");
    CHECK(lisp.eval("(list 1 2 3)").as<std::vector<int>>() == std::vector<int>{1, 2, 3});
    CHECK(lisp.eval("#(4 5)").as<std::vector<int64_t>>() == std::vector<int64_t>{4, 5});
    CHECK(lisp.eval("nil").is_nil());
    CHECK(lisp.eval("(< 1 2)").as<bool>());
    CHECK(lisp.eval("(list 1 \"x\" 'y)").str() == "(1 \"x\" y)");
    CHECK(lisp.eval("\"x\"").str(false) == "x");
    auto parts = lisp.eval("(list 10 20 30)").elements();
    REQUIRE(parts.size() == 3);
    CHECK(parts[2].as<int>() == 30);
    // Big integers: out of int64_t range is an error, within it converts.
    CHECK_THROWS_AS(lisp.eval("(expt 2 100)").as<int64_t>(), lipq::Error);
    CHECK(lisp.eval("(- (expt 2 62) 1)").as<int64_t>() == (int64_t(1) << 62) - 1);
    CHECK_THROWS_AS(lisp.eval("300").as<int8_t>(), lipq::Error);
}

TEST_CASE("embed: C++ values go in") {
    Lisp lisp;
    lisp.set("*xs*", std::vector<int64_t>{3, 1, 2});
    CHECK(lisp.eval("(apply '+ *xs*)").as<int>() == 6);
    lisp.set("*name*", std::string("lipq"));
    CHECK(lisp.eval("(length *name*)").as<int>() == 4);
    Ref v = lisp.vector(std::vector<std::string>{"a", "b"});
    CHECK(v.str() == "#(\"a\" \"b\")");
    CHECK(lisp.value(uint64_t(1) << 63).str() == "9223372036854775808");
    CHECK(lisp.value(std::vector<std::vector<int>>{{1}, {2, 3}}).str() == "((1) (2 3))");
    CHECK(lisp.global("*name*").as<std::string>() == "lipq");
    CHECK_THROWS_AS(lisp.global("no-such-variable"), lipq::Error);
}

TEST_CASE("embed: calling Lisp functions from C++") {
    Lisp lisp;
    lisp.eval("(defun greet (who n) (format nil \"~a x~d\" who n))");
    CHECK(lisp.call("greet", "world", 3).as<std::string>() == "world x3");
    Ref f = lisp.eval("(lambda (x) (* x 10))");
    CHECK(f(7).as<int>() == 70);
    CHECK(lisp.call(f, 8).as<int>() == 80);
    CHECK(lisp.call("list").is_nil());
}

TEST_CASE("embed: native functions defined with C++ lambdas") {
    Lisp lisp;
    lisp.def("add3", [](int64_t a, int64_t b, int64_t c) { return a + b + c; });
    CHECK(lisp.eval("(add3 1 2 3)").as<int>() == 6);
    // Arity is checked from the lambda's parameters.
    CHECK_THROWS_WITH_AS(lisp.eval("(add3 1 2)"), doctest::Contains("wrong number of arguments"), lipq::Error);
    // Conversion failures are Lisp errors naming the value.
    CHECK_THROWS_WITH_AS(lisp.eval("(add3 1 2 \"x\")"), doctest::Contains("\"x\""), lipq::Error);

    lisp.def("count-args", [](lipq::Args a) { return a.size(); });
    CHECK(lisp.eval("(count-args 1 2 3 4)").as<int>() == 4);

    lisp.def("words", [](std::string s) {
        std::vector<std::string> out;
        std::string w;
        for (char c : s + " ") {
            if (c == ' ') { if (!w.empty()) out.push_back(w); w.clear(); }
            else w += c;
        }
        return out;
    });
    CHECK(lisp.eval("(length (words \"a bb ccc\"))").as<int>() == 3);
    CHECK(lisp.eval("(cadr (words \"a bb ccc\"))").as<std::string>() == "bb");

    // A native that calls back into Lisp.
    lisp.def("twice", [&lisp](Ref f, Ref x) { return lisp.call(f, lisp.call(f, x)); });
    CHECK(lisp.eval("(twice (lambda (x) (* x x)) 3)").as<int>() == 81);

    // void result is nil; raw form.
    int called = 0;
    lisp.def("poke", [&called]() { called++; });
    CHECK(lisp.eval("(poke)").is_nil());
    CHECK(called == 1);
    lisp.def("raw-first", [](lipq::Interp&, lipq::Value* a, int) -> lipq::Value { return a[0]; }, 1, 1);
    CHECK(lisp.eval("(raw-first 'q)").str() == "q");
}

TEST_CASE("embed: errors become C++ exceptions, and C++ exceptions Lisp errors") {
    Lisp lisp;
    try {
        lisp.eval("(defun f (x) (car x))\n(f 5)", "test.lisp");
        FAIL("no exception");
    } catch (lipq::Error& e) {
        CHECK(std::string(e.what()) == "car: not a list: 5");
        CHECK(e.where().find("test.lisp:1:") == 0);
        REQUIRE(!e.backtrace().empty());
        CHECK(e.backtrace()[0].find("car") == 0);
    }
    // The interpreter is still usable.
    CHECK(lisp.eval("(+ 2 2)").as<int>() == 4);
    CHECK_THROWS_WITH_AS(lisp.eval("(error \"bad ~a\" 42)"), "bad 42", lipq::Error);
    CHECK_THROWS_AS(lisp.eval("(+ 1"), lipq::Error);
    CHECK_THROWS_AS(lisp.call("no-such-function", 1), lipq::Error);

    lisp.def("fail", [](std::string m) -> int { throw std::runtime_error(m); });
    CHECK_THROWS_WITH_AS(lisp.eval("(fail \"boom\")"), "fail: boom", lipq::Error);
    // errset catches errors raised by C++ code.
    CHECK(lisp.eval("(errset (fail \"x\") nil)").is_nil());
    CHECK(lisp.eval("(progn (errset (fail \"zz\") nil) (error-message))").as<std::string>() == "fail: zz");
    // (exit n)
    try {
        lisp.eval("(exit 7)");
        FAIL("no exit");
    } catch (lipq::Exit& e) {
        CHECK(e.code == 7);
    }
    CHECK(lisp.eval("(* 6 7)").as<int>() == 42);
}

TEST_CASE("embed: output goes to the sink") {
    Lisp lisp;
    std::string out;
    lisp.on_output([&out](std::string_view s) { out += s; });
    lisp.eval("(princ \"hi\") (print 42) (format t \"~d!\" 7)");
    CHECK(out == "hi42\n7!");
}

TEST_CASE("embed: Refs keep values alive through collections") {
    Lisp lisp;
    std::vector<Ref> kept;
    for (int i = 0; i < 50; i++) kept.push_back(lisp.eval("(list " + std::to_string(i) + " (concat \"z\" \"zz\") (list 'a 'b))"));
    Ref copy = kept[10];
    Ref moved = std::move(kept[20]);
    // Allocate a lot and collect, several times.
    for (int round = 0; round < 3; round++) {
        lisp.eval("(let ((l nil)) (dotimes (i 20000) (push (list i i) l)) (length l))");
        lisp.eval("(gc)");
    }
    for (int i = 0; i < 50; i++) {
        if (i == 20) continue;
        CHECK(kept[size_t(i)].elements()[0].as<int>() == i);
        CHECK(kept[size_t(i)].str().find("(a b)") != std::string::npos);
    }
    CHECK(copy.elements()[0].as<int>() == 10);
    CHECK(moved.elements()[0].as<int>() == 20);
    // Released slots are reused.
    size_t slots = lisp.interp().persistent.size();
    kept.clear();
    for (int i = 0; i < 40; i++) kept.push_back(lisp.value(i));
    CHECK(lisp.interp().persistent.size() == slots);
}

TEST_CASE("embed: interrupt from another thread") {
    Lisp lisp;
    std::thread t([&lisp] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        lisp.interrupt();
    });
    CHECK_THROWS_AS(lisp.eval("(defun spin () (loop)) (spin)"), lipq::Interrupted);
    t.join();
    CHECK(lisp.eval("(+ 1 1)").as<int>() == 2);
}

TEST_CASE("embed: two interpreters in two threads at once") {
    // Each thread builds its own interpreter and runs a computation that
    // allocates (so both collectors run), with global state of the same names.
    std::atomic<int> running{0};
    auto work = [&running](int seed, int64_t* result, std::string* err) {
        try {
            Lisp lisp;
            lisp.def("seed", [seed]() { return seed; });
            lisp.eval("(defvar *acc* nil)");
            running++;
            while (running < 2) std::this_thread::yield();   // both interpreters exist now
            Ref r = lisp.eval(
                "(let ((s 0))"
                "  (dotimes (i 20000)"
                "    (setq *acc* (cons (list i (seed)) *acc*))"
                "    (setq s (+ s (* (seed) i))))"
                "  (gc)"
                "  (+ s (length *acc*)))");
            *result = r.as<int64_t>();
        } catch (std::exception& e) {
            *err = e.what();
        }
    };
    int64_t r1 = 0, r2 = 0;
    std::string e1, e2;
    std::thread a(work, 3, &r1, &e1), b(work, 5, &r2, &e2);
    a.join();
    b.join();
    CHECK(e1 == "");
    CHECK(e2 == "");
    int64_t tri = int64_t(20000) * 19999 / 2;
    CHECK(r1 == 3 * tri + 20000);
    CHECK(r2 == 5 * tri + 20000);
}
