// test_jit.cpp — the second tier (interp/jit.h): functions compiled to
// machine code must behave exactly as in the node tree — results, bignum
// overflow, redefinition, errors with their backtrace, depth limits, tail
// calls, prog loops, interrupts, and the collector (run under
// LIPQ_GC_TORTURE=1 too: torture.jit). Each case compiles at the first call.
#include <doctest/doctest.h>

#include "interp/interp.h"
#include "interp/printer.h"
#include "on_stack.h"

#include <cstdlib>
#include <string>
#include <thread>

using namespace lipq;

namespace {

Settings eager() {
    Settings s;
    s.jit_threshold = 1;
    return s;
}
std::string evs(Interp& I, const std::string& src) {
    Value v = I.eval_string(src, "<jit>");
    Root r(I, v);
    return prin1_to_string(I, v);
}
// The error src raises (a LispError saying "no error" when it raises none).
LispError raised(Interp& I, const std::string& src) {
    try {
        I.eval_string(src, "<jit>");
    } catch (LispError& e) {
        return e;
    }
    return LispError("no error");
}
std::string error_of(Interp& I, const std::string& src) { return raised(I, src).message; }
bool have_jit(Interp& I) {
    if (jit_available(I)) return true;
    MESSAGE("no JIT here: " << I.jit_stats.unavailable);
    return false;
}
// Evaluates src (which should run forever), interrupting it from another
// thread after 300 ms: was it interrupted? (The flag is cleared after.)
bool interrupted_in(Interp& I, const std::string& src) {
    std::thread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        I.interrupt();
    });
    bool interrupted = false;
    try {
        I.eval_string(src, "<jit>");
    } catch (Interrupted&) {
        interrupted = true;
    }
    t.join();
    I.interrupt_flag.store(false);
    return interrupted;
}

} // namespace

TEST_CASE("jit: compiled functions compute what the tree computes") {
    Interp I(eager());
    if (!have_jit(I)) return;
    evs(I, "(defun fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))");
    CHECK(evs(I, "(fib 20)") == "6765");
    CHECK(evs(I, "(jit-compiled-p 'fib)") == "t");
    // Bignums: the fixnum fast path overflows into the builtin.
    evs(I, "(defun twice (x) (+ x x))");
    CHECK(evs(I, "(twice 4611686018427387903)") == "9223372036854775806");
    CHECK(evs(I, "(twice (twice (expt 2 70)))") == evs(I, "(expt 2 72)"));
    evs(I, "(defun dec (x) (1- x))");
    CHECK(evs(I, "(dec -4611686018427387904)") == "-4611686018427387905");
    CHECK(evs(I, "(jit-compiled-p 'twice)") == "t");
    // Lists, predicates, let, setq, while, dolist (prog/go), cond, and/or.
    evs(I, "(defun count-odd (l) (let ((c 0)) (dolist (x l) (when (and (numberp x) (oddp x)) (setq c (1+ c)))) c))");
    CHECK(evs(I, "(count-odd '(1 2 3 a 5 (7)))") == "3");
    evs(I, "(defun rev (l) (let ((r nil)) (while l (setq r (cons (car l) r)) (setq l (cdr l))) r))");
    CHECK(evs(I, "(rev '(1 2 3))") == "(3 2 1)");
    evs(I, "(defun classify (x) (cond ((null x) 'empty) ((atom x) 'atom) ((eq (car x) 'q) 'quote) (t 'list)))");
    CHECK(evs(I, "(list (classify nil) (classify 3) (classify '(q 1)) (classify '(1)))") == "(empty atom quote list)");
    evs(I, "(defun first-big (l) (prog () top (cond ((null l) (return nil)) ((> (car l) 10) (return (car l)))) (setq l (cdr l)) (go top)))");
    CHECK(evs(I, "(first-big '(1 5 30 2))") == "30");
    CHECK(evs(I, "(first-big '(1 5))") == "nil");
    // A closure inside a compiled function stays in the tree and still works.
    evs(I, "(defun adder (n) (mapcar (lambda (x) (+ x n)) '(1 2 3)))");
    CHECK(evs(I, "(adder 10)") == "(11 12 13)");
    CHECK(evs(I, "(jit-compiled-p 'adder)") == "t");
}

TEST_CASE("jit: redefinition, tail calls and deep recursion") {
    Interp I(eager());
    if (!have_jit(I)) return;
    evs(I, "(defun g (x) (* x 2))");
    evs(I, "(defun f (x) (+ (g x) 1))");
    CHECK(evs(I, "(f 5)") == "11");
    evs(I, "(defun g (x) (* x 3))");
    CHECK(evs(I, "(f 5)") == "16");
    // car redefined under compiled code: the builtin check sees it.
    evs(I, "(defun second-of (l) (car (cdr l)))");
    CHECK(evs(I, "(second-of '(1 2 3))") == "2");
    // Mutual tail recursion a million deep runs in constant stack.
    evs(I, "(defun ev? (n) (if (= n 0) t (od? (- n 1))))");
    evs(I, "(defun od? (n) (if (= n 0) nil (ev? (- n 1))))");
    CHECK(evs(I, "(ev? 1000000)") == "t");
    // A self tail call is a loop.
    evs(I, "(defun spin (n acc) (if (= n 0) acc (spin (- n 1) (+ acc 1))))");
    CHECK(evs(I, "(spin 3000000 0)") == "3000000");
    // Deep non-tail recursion: the depth limit, then the interpreter goes on.
    evs(I, "(defun deep (n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))");
    CHECK(evs(I, "(deep 10000)") == "10000");
    CHECK(error_of(I, "(deep 100000000)").find("stack depth exceeded") != std::string::npos);
    CHECK(I.depth == 0);
    CHECK(evs(I, "(deep 100)") == "100");
}

TEST_CASE("jit: errors in compiled code carry message, place and backtrace") {
    Interp I(eager());
    if (!have_jit(I)) return;
    evs(I, "(defun head (x) (car x))");
    evs(I, "(defun use (x) (list (head x)))");
    CHECK(evs(I, "(use '(7))") == "(7)");
    CHECK(evs(I, "(jit-compiled-p 'use)") == "t");
    {
        LispError e = raised(I, "(use 5)");
        CHECK(e.message.find("car: not a list: 5") != std::string::npos);
        std::string bt;
        for (auto& line : e.backtrace) bt += line + "\n";
        CHECK(bt.find("head") != std::string::npos);
        CHECK(bt.find("use") != std::string::npos);
    }
    CHECK(I.sp - I.stack_lo < 64);
    CHECK(evs(I, "(errset (use 5) nil)") == "nil");
    // A builtin called from compiled code (linked there, not through the tree):
    // its error names it, with the caller in the backtrace; then all is unlinked.
    evs(I, "(defun size (l) (length l))");
    evs(I, "(defun sizes (l) (list (size l)))");
    CHECK(evs(I, "(sizes '(1 2 3))") == "(3)");
    CHECK(evs(I, "(jit-compiled-p 'size)") == "t");
    {
        LispError e = raised(I, "(sizes 7)");
        CHECK(e.message.find("length: not a proper list: 7") != std::string::npos);
        REQUIRE(e.backtrace.size() >= 3);
        CHECK(e.backtrace[0].find("length") == 0);
        CHECK(e.backtrace[1].find("size") == 0);
        CHECK(e.backtrace[2].find("sizes") == 0);
    }
    CHECK(I.current_call == nullptr);
    CHECK(I.sp - I.stack_lo < 64);
    CHECK(evs(I, "(sizes '(a))") == "(1)");
    evs(I, "(defun undefined-call (x) (no-such-function x))");
    CHECK(error_of(I, "(undefined-call 1)").find("undefined function: no-such-function") != std::string::npos);
}

TEST_CASE("jit: a compiled loop is interrupted, and the collector sees its values") {
    Interp I(eager());
    if (!have_jit(I)) return;
    evs(I, "(defun forever (n) (forever (+ n 1)))");
    CHECK(interrupted_in(I, "(forever 0)"));
    CHECK(evs(I, "(jit-compiled-p 'forever)") == "t");
    // Values parked by compiled code survive collections in between.
    evs(I, "(defun build (n) (if (= n 0) nil (cons (list n (* n n)) (build (- n 1)))))");
    evs(I, "(defun total (l) (if (null l) 0 (+ (cadr (car l)) (total (cdr l)))))");
    CHECK(evs(I, "(total (build 300))") == "9045050");
    I.heap.collect();
    CHECK(evs(I, "(length (build 1000))") == "1000");
}

TEST_CASE("jit: set-jit-threshold 0 keeps new functions in the tree") {
    Interp I(eager());
    if (!have_jit(I)) return;
    evs(I, "(set-jit-threshold 0)");
    evs(I, "(defun sq (x) (* x x))");
    CHECK(evs(I, "(sq 9)") == "81");
    CHECK(evs(I, "(jit-compiled-p 'sq)") == "nil");
    CHECK(evs(I, "(cdr (assoc 'threshold (jit-stats)))") == "0");
}

TEST_CASE("jit: without the gcc command, functions stay in the tree and the JIT turns itself off") {
    Interp I(eager());
    if (!have_jit(I)) return;
    std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
    setenv("PATH", "/nonexistent", 1);
    evs(I, "(defun fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))");
    std::string r = evs(I, "(fib 15)");
    setenv("PATH", saved.c_str(), 1);
    CHECK(r == "610");
    CHECK(evs(I, "(jit-compiled-p 'fib)") == "nil");
    CHECK(evs(I, "(cdr (assoc 'failed (jit-stats)))") == "1");
    CHECK(evs(I, "(cdr (assoc 'threshold (jit-stats)))") == "0");
    CHECK(evs(I, "(stringp (cdr (assoc 'unavailable (jit-stats))))") == "t");
    CHECK(evs(I, "(fib 16)") == "987");
}

TEST_CASE("jit: a function that gets hot with the C stack nearly used up is compiled") {
    // GCC and the gcc/as/ld processes it starts need far more C stack than the
    // interpreter's margin (256 KiB, or an eighth of a small stack), and a
    // function gets hot wherever it is called: here at the bottom of a
    // recursion that has used up a 256 KiB thread stack (an embedder's
    // thread; the margin is then 32 KiB). Compiled on the caller's stack, GCC
    // overran it and the test died of SIGSEGV (checked by undoing the fix).
    std::string out;
    run_on_stack(size_t(256) << 10, [&] {
        Settings s;
        s.jit_threshold = 0;   // the recursion itself stays in the tree
        s.max_depth = 100000000;
        Interp I(s);
        if (!jit_available(I)) return;
        evs(I, "(defun leaf (x) (+ x 1))");
        evs(I, "(defun probe (n) (let ((r (errset (probe (1+ n)) nil)))"
               "  (cond (r (car r))"
               "        (t (set-jit-threshold 10)"
               "           (let ((s 0)) (dotimes (i 100) (setq s (leaf s))) (list (> n 50) s))))))");
        out = evs(I, "(probe 0)");   // one at a time: the operands of + are unsequenced
        out += " " + evs(I, "(jit-compiled-p 'leaf)");
        out += " " + evs(I, "(leaf 41)");
    });
    if (out.empty()) return;   // no JIT here (have_jit says why in the other cases)
    // The C stack ran out past depth 50; leaf was compiled there, and runs.
    CHECK(out == "(t 100) t 42");
}

TEST_CASE("jit: loops count toward the threshold") {
    Settings s;
    s.jit_threshold = 100;   // a call counts 1, a loop turn 1/TURNS_PER_CALL
    Interp I(s);
    if (!have_jit(I)) return;
    // A tail call of itself counts as a call: compiled during its only call.
    evs(I, "(defun spin (n acc) (if (= n 0) acc (spin (- n 1) (+ acc 1))))");
    CHECK(evs(I, "(spin 500 0)") == "500");
    CHECK(evs(I, "(jit-compiled-p 'spin)") == "t");
    // A while loop turning 100 * TURNS_PER_CALL times: compiled at the next call.
    evs(I, "(defun count-up (n) (let ((i 0)) (while (< i n) (setq i (1+ i))) i))");
    CHECK(evs(I, "(count-up 5000)") == "5000");
    CHECK(evs(I, "(jit-compiled-p 'count-up)") == "nil");
    // ... not taken along when another function gets hot first.
    evs(I, "(defun tiny (x) x)");
    evs(I, "(dotimes (i 150) (tiny i))");
    CHECK(evs(I, "(jit-compiled-p 'tiny)") == "t");
    CHECK(evs(I, "(jit-compiled-p 'count-up)") == "nil");
    CHECK(evs(I, "(count-up 10)") == "10");
    CHECK(evs(I, "(jit-compiled-p 'count-up)") == "t");
    CHECK(evs(I, "(count-up 7)") == "7");
    // A prog loop (dotimes) likewise; fewer turns leave it in the tree.
    evs(I, "(defun total (n) (let ((s 0)) (dotimes (i n) (setq s (+ s i))) s))");
    CHECK(evs(I, "(total 500)") == "124750");
    CHECK(evs(I, "(total 3)") == "3");
    CHECK(evs(I, "(jit-compiled-p 'total)") == "nil");
    CHECK(evs(I, "(total 2000)") == "1999000");
    CHECK(evs(I, "(total 4)") == "6");
    CHECK(evs(I, "(jit-compiled-p 'total)") == "t");
}

TEST_CASE("jit: a function reached only by tail calls counts its calls and is compiled") {
    Settings s;
    s.jit_threshold = 100;
    Interp I(s);
    if (!have_jit(I)) return;
    // leaf is only ever tail-called: from the tree's call loop first, then
    // from via's machine code. Its calls were not counted, and it stayed in
    // the tree forever (flatqueens' inner-q, called from a lambda).
    evs(I, "(defun leaf (x) (+ x 1))");
    evs(I, "(defun via (x) (leaf x))");
    CHECK(evs(I, "(let ((s 0)) (dotimes (i 300) (setq s (+ s (via i)))) s)") == "45150");
    CHECK(evs(I, "(jit-compiled-p 'via)") == "t");
    CHECK(evs(I, "(jit-compiled-p 'leaf)") == "t");
    CHECK(evs(I, "(via 41)") == "42");
}

namespace {
// The error src raises, as one string: message, place, backtrace.
std::string error_report(Interp& I, const std::string& src) {
    LispError e = raised(I, src);
    std::string r = e.message + " @ " + e.where;
    for (auto& line : e.backtrace) r += " | " + line;
    return r;
}
Settings tree_only() {
    Settings s;
    s.jit_threshold = 0;
    return s;
}
// The same definitions in an interpreter that never compiles (T) and one that
// compiles every function at its first call (I).
struct TwoTiers {
    Interp T{tree_only()}, I{eager()};
    void define(std::initializer_list<const char*> defs) {
        for (const char* d : defs) {
            evs(T, d);
            evs(I, d);
        }
    }
    // x prints the same in both, in I twice (compiled at the first call).
    void same(const char* x) {
        std::string want = evs(T, x);
        CHECK(evs(I, x) == want);
        CHECK(evs(I, x) == want);
    }
};
} // namespace

TEST_CASE("jit: funcall enters a compiled closure; a builtin in tail position is called from compiled code") {
    TwoTiers both;
    Interp &T = both.T, &I = both.I;
    if (!have_jit(I)) return;
    // The lambdas are made by functions, so that each is one proto: compiled
    // at its first call, entered from funcall's call site after that (a
    // lambda typed at the top level is a new proto each time).
    both.define({
        "(defun flat-map (f xs) (if (null xs) nil (append (funcall f (car xs)) (flat-map f (cdr xs)))))",
        "(defun call1 (f x) (list (funcall f x)))",
        "(defun call1-tail (f x) (funcall f x))",
        "(defun twice-of (x) (* 2 x))",
        "(defun head-of (l) (car l))",
        "(defun pair10-fn () (lambda (x) (list x (* x 10))))",
        "(defun twice-fn () (lambda (x) (twice-of x)))",
        "(defun inc-fn () (lambda (x) (+ x 1)))",
        "(defun head-fn () (lambda (x) (head-of x)))",
        "(defun first-of-2-fn () (lambda (x y) x))",
        "(defun id-fn () (lambda (x) x))",
        "(defun make-counter () (let ((n 0)) (lambda () (setq n (1+ n)))))",
    });
    const char* exprs[] = {
        "(flat-map (pair10-fn) '(1 2 3))",
        "(call1 (twice-fn) 4)",        // the lambda's tail call runs in its frame
        "(call1-tail (inc-fn) 4)",
        "(call1 'car '(5 6))",         // a symbol, a builtin: the generic way
        "(call1 (head-fn) '(7 8))",
        "(let ((c (make-counter))) (funcall c) (funcall c) (list (funcall c) (funcall c)))",
    };
    for (const char* x : exprs) both.same(x);
    CHECK(evs(I, "(jit-compiled-p 'flat-map)") == "t");
    CHECK(evs(I, "(jit-compiled-p 'call1)") == "t");
    CHECK(evs(I, "(jit-compiled-p (head-fn))") == "t");
    CHECK(evs(I, "(jit-compiled-p (make-counter))") == "t");
    // Errors read the same from both tiers, backtrace included: inside the
    // closure, a closure of the wrong arity, something not a function, a
    // builtin in tail position.
    const char* bad[] = {
        "(call1 (head-fn) 5)",
        "(call1-tail (head-fn) 5)",
        "(call1 (first-of-2-fn) 1)",
        "(call1 42 1)",
        "(flat-map (id-fn) '(1 2))",   // append: not a list
    };
    for (const char* x : bad) {
        std::string want = error_report(T, x);
        CHECK(want.find("no error") == std::string::npos);
        CHECK(error_report(I, x) == want);
        CHECK(error_report(I, x) == want);
        CHECK(I.current_call == nullptr);
        CHECK(I.sp - I.stack_lo < 64);
    }
}

TEST_CASE("jit: predicates and and/or branch straight to their targets, with the tree's values") {
    TwoTiers both;
    Interp &T = both.T, &I = both.I;
    if (!have_jit(I)) return;
    // In a test (if, while, and/or inside them) a predicate jumps to its
    // target; as a value, (or (< x y) ...) is t on the fast path and the
    // builtin's own value otherwise. Each runs on fixnums (the fast path),
    // on bignums (the builtin), and with < redefined.
    both.define({
        "(defun pick (x y) (or (< x y) (eq x 5) (list x y)))",
        "(defun less (x y) (< x y))",
        "(defun both (x y) (and (< x y) (not (null y)) (list x y)))",
        "(defun sel (x y) (if (or (null x) (and (consp y) (< (car y) 3))) 'yes 'no))",
        "(defun sel2 (x) (if (and) (if (or) 'no x) 'no))",
        "(defun cnt (n) (let ((k 0)) (while (and (> n 0) (not (= n 5))) (setq n (- n 1)) (setq k (+ k 1))) k))",
    });
    const char* exprs[] = {
        "(list (pick 1 2) (pick 2 1) (pick 5 5) (pick 100000000000000000000000 1000000000000000000000001) (pick 100000000000000000000000 1))",
        "(list (both 1 2) (both 2 1) (both 100000000000000000000000 1000000000000000000000001) (both 1 100000000000000000000000))",
        "(list (sel nil 0) (sel 1 '(2)) (sel 1 '(3)) (sel 1 '(-100000000000000000000000)) (sel 1 5))",
        "(list (sel2 7) (cnt 0) (cnt 3) (cnt 9) (cnt -100000000000000000000000))",
    };
    for (const char* x : exprs) both.same(x);
    CHECK(evs(I, "(jit-compiled-p 'pick)") == "t");
    CHECK(evs(I, "(jit-compiled-p 'cnt)") == "t");
    // Errors from a predicate in branch position read the same.
    std::string want = error_report(T, "(sel 1 '(a))");
    CHECK(want.find("no error") == std::string::npos);
    CHECK(error_report(I, "(sel 1 '(a))") == want);
    // < redefined to give a value other than t: compiled code keeps it.
    both.define({"(defun < (x y) (if (eq x y) nil (list 'lt x y)))"});
    both.same("(list (pick 1 2) (pick 2 2) (both 1 2) (sel 1 '(2)) (sel 1 '(3)) (less 1 2) (less 2 2))");
    CHECK(evs(T, "(list (pick 1 2) (less 1 2))") == "((lt 1 2) (lt 1 2))");
    CHECK(evs(I, "(list (pick 1 2) (less 1 2))") == "((lt 1 2) (lt 1 2))");
}

TEST_CASE("jit: leaf calls return before the call's bookkeeping, with the tree's values, errors and depth limit") {
    TwoTiers both;
    Interp &T = both.T, &I = both.I;
    if (!have_jit(I)) return;
    // Each has a leaf prefix (Translator::leaf_prefix): pure tests on the
    // arguments that end in an argument or a constant, and branches that do
    // more (resumed after the prologue, some with let slots, some with a
    // self tail call). They run on fixnums (the fast paths decide), on
    // bignums and symbols (a guard fails: the full call decides).
    both.define({
        "(defun fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))",
        "(defun tak (x y z) (if (not (< y x)) z (tak (tak (1- x) y z) (tak (1- y) z x) (tak (1- z) x y))))",
        "(defun shorterp (x y) (and y (or (null x) (shorterp (cdr x) (cdr y)))))",
        "(defun cls (x y) (cond ((eq x 'a) 'first) ((null y) x) ((< x y) (list 'less (cls 'a y))) (t (list x y))))",
        "(defun either (x y) (or x y))",
        "(defun lastcdr (x) (if (consp x) (lastcdr (cdr x)) x))",
        "(defun withlet (n) (if (< n 0) n (let ((k (* n 2)) (j (list n))) (if (> k 10) (cons k j) (withlet (- n 3))))))",
        "(defun nl (x) (if (not (< x 3)) 'big 'small))",
        "(defun kind (x) (if (zerop x) 'zero (if (eql x 1) \"one\" (if (and (> x 5) (< x 9)) x (list x)))))",
    });
    const char* exprs[] = {
        "(list (fib 0) (fib 1) (fib 15) (fib -100000000000000000000000))",
        "(list (tak 18 12 6) (tak 3 2 1) (tak 1 2 3) (tak 3 100000000000000000000000 1))",
        "(list (shorterp '(1 2) '(1 2 3)) (shorterp '(1 2 3) '(1)) (shorterp nil nil) (shorterp nil '(1)) (shorterp '(1) nil))",
        "(list (cls 'a 1) (cls 1 2) (cls 3 2) (cls 3 nil) (cls -100000000000000000000000 2) (cls 2 100000000000000000000000))",
        "(list (either nil nil) (either 1 nil) (either nil 2) (either 3 4))",
        "(list (lastcdr '(1 2 . 3)) (lastcdr 5) (lastcdr '(1 2 3)))",
        "(list (withlet -1) (withlet 7) (withlet 5) (withlet 2) (withlet 100000000000000000000000))",
        "(list (nl 5) (nl 1) (nl 100000000000000000000000))",
        "(list (kind 0) (kind 1) (kind 6) (kind 9) (kind 100000000000000000000000))",
    };
    for (const char* x : exprs) both.same(x);
    for (const char* f : {"fib", "tak", "shorterp", "cls", "either", "lastcdr", "withlet", "nl", "kind"})
        CHECK(evs(I, std::string("(jit-compiled-p '") + f + ")") == "t");
    // Errors from the full call after a leaf test, the same report as the tree's.
    for (const char* x : {"(cls 'b 2)", "(tak 'x 1 2)", "(withlet 'q)", "(kind \"s\")"}) {
        std::string want = error_report(T, x);
        CHECK(want.find("no error") == std::string::npos);
        CHECK(error_report(I, x) == want);
    }
    // A builtin the prefix tests, redefined afterwards: the full call runs it.
    both.define({"(defun < (x y) (if (eq x y) nil (list 'lt x y)))", "(defun not (x) (if (eq x 'no) t nil))"});
    both.same("(list (fib 1) (fib 2) (cls 1 2) (cls 'a 3))");
    both.same("(list (nl 5) (nl 3) (nl 'no))");
}

TEST_CASE("jit: a leaf call at the depth limit reports it as a full call does") {
    // leafy's deepest call is a leaf (decided by the prefix); full's is not
    // (its leaf value is computed, (car '(0))): both must stop at the same n.
    Settings s = eager();
    s.max_depth = 60;
    Interp I(s);
    if (!have_jit(I)) return;
    evs(I, "(defun leafy (n) (if (< n 1) 0 (+ 1 (leafy (- n 1)))))");
    evs(I, "(defun full (n) (if (< n 1) (car '(0)) (+ 1 (full (- n 1)))))");
    evs(I, "(leafy 3) (full 3)");
    CHECK(evs(I, "(jit-compiled-p 'leafy)") == "t");
    CHECK(evs(I, "(jit-compiled-p 'full)") == "t");
    int last_leafy = -1, last_full = -1;
    for (int n = 40; n < 70; n++) {
        if (error_of(I, "(leafy " + std::to_string(n) + ")") == "no error") last_leafy = n;
        if (error_of(I, "(full " + std::to_string(n) + ")") == "no error") last_full = n;
    }
    CHECK(last_full > 40);
    CHECK(last_full < 69);
    CHECK(last_leafy == last_full);
    CHECK(error_of(I, "(leafy 100)").find("stack depth exceeded") != std::string::npos);
    CHECK(I.depth == 0);
}

TEST_CASE("jit: a closed loop runs without guards only while its builtins and its own symbol hold") {
    TwoTiers both;
    Interp &T = both.T, &I = both.I;
    if (!have_jit(I)) return;
    // Closed loops (Translator::closed_loop): only inlined builtins, control
    // and calls of their own symbol; translated twice, the unguarded copy
    // entered when every assumption holds.
    both.define({
        "(defun shorterp (x y) (and y (or (null x) (shorterp (cdr x) (cdr y)))))",
        "(defun walk (l n) (if (null l) n (walk (cdr l) (+ n (car l)))))",
        "(defun hits (y ps) (let ((d 1) (hit nil)) (while (and ps (not hit)) (let ((y1 (car ps))) "
        "(when (or (= (+ y1 d) y) (= (- y1 d) y)) (setq hit t))) (setq d (1+ d)) (setq ps (cdr ps))) hit))",
        "(defun build (n) (let ((l nil)) (while (> n 0) (setq l (cons n l)) (setq n (1- n))) l))",
    });
    const char* exprs[] = {
        "(list (shorterp '(1 2) '(1 2 3)) (shorterp '(1 2 3) '(1)) (shorterp nil '(1)))",
        "(list (walk '(1 2 3) 0) (walk '(4611686018427387903 4611686018427387903) 0) (walk nil 5))",
        "(list (hits 3 '(1 2 5)) (hits 4 '(0 7 9)) (hits 0 nil))",
        "(build 12)",
    };
    for (const char* x : exprs) both.same(x);
    for (const char* f : {"shorterp", "walk", "hits", "build"})
        CHECK(evs(I, std::string("(jit-compiled-p '") + f + ")") == "t");
    // An error inside the unguarded copy: the tree's report.
    for (const char* x : {"(walk '(1 a) 0)", "(shorterp '(1 . 2) '(1 2 3))", "(hits 3 '(1 b))"}) {
        std::string want = error_report(T, x);
        CHECK(want.find("no error") == std::string::npos);
        CHECK(error_report(I, x) == want);
    }
    // The function's own symbol given another function: a closure of the old
    // definition calls the new one from its loop, as in the tree.
    both.define({"(setq old-walk walk)", "(defun walk (l n) (list 'new n))"});
    both.same("(funcall old-walk '(1 2 3) 10)");
    CHECK(evs(I, "(funcall old-walk '(1 2 3) 10)") == "(new 11)");
    // A builtin redefined after compilation: the loop runs the new one.
    CHECK(evs(I, "(list (shorterp '(1 2 3 4 5) '(1 2 3)) (hits 9 '(1 2 3 4)))") == "(nil nil)");
    both.define({"(defun cdr (x) nil)"});
    both.same("(list (shorterp '(1 2 3 4 5) '(1 2 3)) (hits 9 '(1 2 3 4)))");
    CHECK(evs(I, "(shorterp '(1 2 3 4 5) '(1 2 3))") == "nil");
    CHECK(evs(I, "(hits 9 '(1 2 3 4 5 6 7 8))") == "nil");
    CHECK(evs(I, "(hits 4 '(1 2))") == "nil");   // t with the builtin cdr (2 + 2 = 4)
    TwoTiers again;
    again.define({"(defun build (n) (let ((l nil)) (while (> n 0) (setq l (cons n l)) (setq n (1- n))) l))"});
    again.same("(build 3)");
    again.define({"(defun cons (a b) (list 'c a b))"});
    again.same("(build 3)");
    CHECK(evs(again.I, "(build 2)") == "(c 1 (c 2 nil))");
}

TEST_CASE("jit: variables held in locals are read again after a tree node sets them; arguments stay rooted") {
    TwoTiers both;
    Interp& I = both.I;
    if (!have_jit(I)) return;
    // The compiled code reads variables from locals (vars_ in jit.cpp), not
    // from their slots. catch stays a tree node, and its setq writes the
    // slots: the compiled code after it must see the new values.
    both.define({
        "(defun set-in-tree (n) (let ((x 0) (y n)) (catch 'k (setq x (+ n 1)) (setq n 7)) (list x y n)))",
        "(defun set-then-loop (l) (let ((s 0)) (catch 'k (setq l (cdr l))) (while l (setq s (+ s (car l))) (setq l (cdr l))) s))",
        // Arguments are stored in their slots only before something that may
        // collect (here the second list): under GC torture a lost root shows.
        "(defun pair-of (a b) (list a b))",
        "(defun lists (n) (pair-of (list n 1) (pair-of (list n 2) (list n 3))))",
        // Self tail calls take their arguments from locals (a closed loop
        // and a consing loop).
        "(defun last-of (l) (if (cdr l) (last-of (cdr l)) (car l)))",
        "(defun count-to (i n acc) (if (= i n) acc (count-to (1+ i) n (cons (list i) acc))))",
    });
    const char* exprs[] = {
        "(set-in-tree 4)", "(set-then-loop '(100 1 2 3))", "(lists 5)",
        "(last-of '(1 2 3 4))", "(count-to 0 6 nil)",
    };
    for (const char* x : exprs) both.same(x);
    CHECK(evs(I, "(set-in-tree 4)") == "(5 4 7)");
    CHECK(evs(I, "(set-then-loop '(100 1 2 3))") == "6");
    for (const char* f : {"set-in-tree", "set-then-loop", "lists", "last-of", "count-to"})
        CHECK(evs(I, std::string("(jit-compiled-p '") + f + ")") == "t");
}

TEST_CASE("jit: a closed loop's prefix runs the loop itself, with the tree's values and errors, and is interrupted") {
    TwoTiers both;
    Interp &T = both.T, &I = both.I;
    if (!have_jit(I)) return;
    // Closed loops whose self tail calls take pure arguments (cdr, 1-, + ...
    // of arguments): the entry (leaf_prefix) loops on its own, arguments in
    // locals, and hands over to the full call, from the top of the turn it
    // is in, when a guard fails or a poll is due.
    both.define({
        "(defun shorterp (x y) (and y (or (null x) (shorterp (cdr x) (cdr y)))))",
        "(defun walk (l n) (if (null l) n (walk (cdr l) (+ n (car l)))))",
        "(defun nth-tail (n l) (if (= n 0) l (nth-tail (1- n) (cddr l))))",
        "(defun count-down (n acc) (if (< n 1) acc (count-down (- n 1) (+ acc 2))))",
    });
    const char* exprs[] = {
        "(list (shorterp '(1 2) '(1 2 3)) (shorterp '(1 2 3) '(1)) (shorterp nil nil) (shorterp '(1 2 3) '(1 2 3)))",
        "(list (walk '(1 2 3) 0) (walk nil 7) (walk '(4611686018427387903 4611686018427387903) 0))",
        "(list (nth-tail 2 '(1 2 3 4 5 6)) (nth-tail 0 '(1)) (nth-tail 3 '(1 2 3 4)))",
        "(list (count-down 10 0) (count-down 0 5) (count-down 3 4611686018427387900))",
    };
    for (const char* x : exprs) both.same(x);
    for (const char* f : {"shorterp", "walk", "nth-tail", "count-down"})
        CHECK(evs(I, std::string("(jit-compiled-p '") + f + ")") == "t");
    // A guard that fails some turns in: the full call goes on from there and
    // reports what the tree reports.
    for (const char* x : {"(shorterp '(1 2 3 . 4) '(1 2 3 4 5 6))", "(walk '(1 2 a 4) 0)", "(nth-tail 2 '(1 2 . 3))",
                          "(count-down 'a 0)"}) {
        std::string want = error_report(T, x);
        CHECK(want.find("no error") == std::string::npos);
        CHECK(error_report(I, x) == want);
    }
    // A loop that never ends (circular lists) still polls: interrupted.
    CHECK(interrupted_in(I, "(let ((c (list 1 2))) (rplacd (cdr c) c) (shorterp c c))"));
    CHECK(I.depth == 0);
    both.same("(shorterp '(1) '(1 2))");
}

TEST_CASE("jit: a closed recursion runs without guards only while its builtins and its own symbol hold") {
    TwoTiers both;
    Interp &T = both.T, &I = both.I;
    if (!have_jit(I)) return;
    // Closed recursions (Translator::closed_body): self calls not in tail
    // position, only inlined builtins and control besides. The guarded entry
    // tests the assumptions once and hands the call to the unguarded pair,
    // whose self calls call itself.
    both.define({
        "(defun fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))",
        "(defun tak (x y z) (if (not (< y x)) z (tak (tak (1- x) y z) (tak (1- y) z x) (tak (1- z) x y))))",
        "(defun dbl (n x) (if (= n 0) x (+ (dbl (1- n) x) (dbl (1- n) x))))",
        "(defun sum-leaves (x) (if (consp x) (+ (sum-leaves (car x)) (sum-leaves (cdr x))) (if (null x) 0 x)))",
        "(defun depth-sum (l d) (let ((s 0)) (while l (setq s (+ s (if (consp (car l)) (depth-sum (car l) (1+ d)) d))) "
        "(setq l (cdr l))) s))",
    });
    const char* exprs[] = {
        "(list (fib 0) (fib 1) (fib 15))",
        "(list (tak 18 12 6) (tak 1 2 3))",
        "(list (dbl 3 4611686018427387903) (dbl 0 7))",   // a fixnum sum overflows into a bignum
        "(list (sum-leaves '(1 (2 3) ((4)) 5 . 6)) (sum-leaves nil))",
        "(depth-sum '(a (b (c d)) e ((f))) 0)",
    };
    for (const char* x : exprs) both.same(x);
    for (const char* f : {"fib", "tak", "dbl", "sum-leaves", "depth-sum"})
        CHECK(evs(I, std::string("(jit-compiled-p '") + f + ")") == "t");
    CHECK(evs(I, "(cdr (assoc 'unguarded (jit-stats)))") == "5");
    // Errors deep inside the unguarded recursion: the tree's report, backtrace included.
    for (const char* x : {"(fib 'a)", "(sum-leaves '(1 (2 a) 3))", "(tak 3 2 'z)", "(depth-sum '(1 (2 . 3)) 0)"}) {
        std::string want = error_report(T, x);
        CHECK(want.find("no error") == std::string::npos);
        CHECK(error_report(I, x) == want);
    }
    // Interrupted deep in a long recursion: the machine state is restored.
    CHECK(interrupted_in(I, "(fib 80)"));
    CHECK(I.depth == 0);
    both.same("(fib 10)");
    // The function's own symbol given another function: a closure of the old
    // definition calls the new one from its recursion, as in the tree.
    both.define({"(setq old-fib fib)", "(defun fib (n) (list 'new n))"});
    both.same("(funcall old-fib 1)");
    CHECK(error_report(I, "(funcall old-fib 4)") == error_report(T, "(funcall old-fib 4)"));
    // A builtin redefined after compilation: the recursion runs the new one.
    CHECK(evs(I, "(list (tak 18 12 6) (sum-leaves '((1 . 2) 3)))") == "(7 6)");
    both.define({"(setq lt-calls 0)", "(defun < (a b) (setq lt-calls (1+ lt-calls)) (> b a))", "(defun car (x) 10)"});
    both.same("(list (tak 18 12 6) (tak 2 4 8))");
    // Every test goes through the new <: one per call, 63,609 calls of tak.
    both.same("(progn (setq lt-calls 0) (tak 18 12 6) lt-calls)");
    CHECK(evs(I, "(progn (setq lt-calls 0) (tak 18 12 6) lt-calls)") == "63609");
    both.same("(sum-leaves '((1 . 2) 3))");
    CHECK(evs(I, "(sum-leaves '((1 . 2) 3))") == "20");
}

TEST_CASE("jit: a closed loop called in a prefix's test is inlined there, with the tree's values, errors, depth limit and interrupts") {
    TwoTiers both;
    Interp &T = both.T, &I = both.I;
    if (!have_jit(I)) return;
    // takl's mas tests (not (shorterp y x)) first: shorterp, a closed loop
    // its own prefix decides, is translated into mas's prefix
    // (Translator::inline_call), so a call of mas that returns z makes no frame.
    both.define({
        "(defun shorterp (x y) (and y (or (null x) (shorterp (cdr x) (cdr y)))))",
        "(defun mas (x y z) (if (not (shorterp y x)) z (mas (mas (cdr x) y z) (mas (cdr y) z x) (mas (cdr z) x y))))",
        "(defun listn (n) (if (= n 0) nil (cons n (listn (1- n)))))",
        "(defun longer (x y) (if (shorterp y x) 'yes 'no))",
    });
    both.same("(length (mas (listn 18) (listn 12) (listn 6)))");
    both.same("(list (longer '(1 2 3) '(1)) (longer '(1) '(1 2 3)) (longer nil nil) (longer '(1 2) nil))");
    for (const char* f : {"shorterp", "mas", "longer"})
        CHECK(evs(I, std::string("(jit-compiled-p '") + f + ")") == "t");
    CHECK(evs(I, "(>= (cdr (assoc 'inlined (jit-stats))) 2)") == "t");
    // The inlined loop fails some turns in (not a list): the caller's full
    // call reports what the tree reports, backtrace included.
    for (const char* x : {"(longer '(1 2 . 3) '(1 2 3 4 5))", "(mas '(1 2 3 . 4) '(1 2 3 4 5) nil)"}) {
        std::string want = error_report(T, x);
        CHECK(want.find("no error") == std::string::npos);
        CHECK(error_report(I, x) == want);
    }
    // A loop that never ends (circular lists), inlined: still interrupted.
    CHECK(interrupted_in(I, "(let ((c (list 1 2))) (rplacd (cdr c) c) (longer c c))"));
    CHECK(I.depth == 0);
    // The callee redefined, or a builtin it uses: the caller sees the new one.
    both.define({"(defun shorterp (x y) (list 'new x y))"});
    both.same("(list (longer '(1 2 3) '(1)) (longer nil nil))");
    both.define({"(defun shorterp (x y) (and y (or (null x) (shorterp (cdr x) (cdr y)))))", "(defun cdr (x) nil)"});
    both.same("(list (longer '(1 2 3) '(1)) (longer '(1) '(1 2 3)) (longer '(1 2) '(1 2 3)))");
    CHECK(evs(I, "(longer '(1 2 3) '(1 2))") == "no");   // yes with the builtin cdr
}

TEST_CASE("jit: a prefix with an inlined call stops at the depth limit where a full call does") {
    // deep's leaf, (if (shorterp x y) 1 0), is decided in the prefix with
    // shorterp inlined; deep-full's, (if (shorterp x y) (car (list 1)) 0), needs
    // the full call, which calls shorterp one level deeper. At the limit the
    // prefix must go the full way and fail as deep-full does.
    Settings s = eager();
    s.max_depth = 60;
    Interp I(s);
    if (!have_jit(I)) return;
    evs(I, "(defun shorterp (x y) (and y (or (null x) (shorterp (cdr x) (cdr y)))))");
    evs(I, "(defun deep (n x y) (if (< n 1) (if (shorterp x y) 1 0) (+ 1 (deep (- n 1) x y))))");
    evs(I, "(defun deep-full (n x y) (if (< n 1) (if (shorterp x y) (car (list 1)) 0) (+ 1 (deep-full (- n 1) x y))))");
    // deep-call calls shorterp from its full call (a let is no test): the reference.
    evs(I, "(defun deep-call (n x y) (if (< n 1) (let ((r (shorterp x y))) (if r 1 0)) (+ 1 (deep-call (- n 1) x y))))");
    evs(I, "(deep 3 '(1) '(1 2)) (deep-full 3 '(1) '(1 2)) (deep-call 3 '(1) '(1 2))");
    for (const char* f : {"deep", "deep-full", "deep-call"})
        CHECK(evs(I, std::string("(jit-compiled-p '") + f + ")") == "t");
    CHECK(evs(I, "(cdr (assoc 'inlined (jit-stats)))") == "2");
    int last[3] = {-1, -1, -1};
    for (int n = 40; n < 70; n++) {
        int k = 0;
        for (const char* f : {"(deep ", "(deep-full ", "(deep-call "}) {
            if (error_of(I, f + std::to_string(n) + " nil '(1))") == "no error") last[k] = n;
            k++;
        }
    }
    CHECK(last[2] > 40);
    CHECK(last[2] < 69);
    CHECK(last[0] == last[2]);
    CHECK(last[1] == last[2]);
    CHECK(I.depth == 0);
}
