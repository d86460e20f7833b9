// test_cli.cpp — the lipq command through pipes: options, exit statuses,
// scripts and their arguments, the non-interactive REPL, trace, dribble.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include "process.h"

using clitest::read_file;
using clitest::run_lipq;
using clitest::TempDir;

namespace {
bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}

TEST_CASE("cli: -e evaluates and prints") {
    auto r = run_lipq({"-e", "(+ 1 2)"});
    CHECK(r.status == 0);
    CHECK(r.out == "3\n");
    r = run_lipq({"-e", "(defvar *z* 6)", "-e", "(* *z* 7)"});
    CHECK(r.status == 0);
    CHECK(r.out == "*z*\n42\n");
}

TEST_CASE("cli: an uncaught error exits non-zero with the message on stderr") {
    auto r = run_lipq({"-e", "(car 1)"});
    CHECK(r.status == 1);
    CHECK(r.out == "");
    CHECK(has(r.err, "car: not a list: 1"));
}

TEST_CASE("cli: --help, --version, bad options") {
    auto r = run_lipq({"--help"});
    CHECK(r.status == 0);
    CHECK(has(r.out, "usage: lipq"));
    CHECK(has(r.out, "--heap-limit"));
    r = run_lipq({"--version"});
    CHECK(r.status == 0);
    CHECK(has(r.out, "lipq "));
    r = run_lipq({"--no-such-option"});
    CHECK(r.status == 2);
    CHECK(has(r.err, "unknown option"));
    r = run_lipq({"-e"});
    CHECK(r.status == 2);
}

TEST_CASE("cli: scripts, #! lines, *args*, exit codes, file:line:col of errors") {
    TempDir d;
    std::string ok = d.file("args.lisp",
                            "#!/usr/bin/env lipq\n"
                            "(print (length *args*))\n"
                            "(dolist (a *args*) (princ a) (princ \"|\"))\n");
    auto r = run_lipq({ok, "one", "two words", "-e"});   // options after the script are its arguments
    CHECK(r.status == 0);
    CHECK(r.out == "3\none|two words|-e|");

    std::string bad = d.file("bad.lisp",
                             "(defun inner (x) (car x))\n"
                             "(defun outer (y) (list (inner y)))\n"
                             "(print 'before)\n"
                             "(outer 42)\n"
                             "(print 'never)\n");
    r = run_lipq({bad});
    CHECK(r.status == 1);
    CHECK(r.out == "before\n");
    CHECK(has(r.err, "car: not a list: 42"));
    CHECK(has(r.err, bad + ":1:"));          // where car was called
    CHECK(has(r.err, "outer"));              // in the backtrace
    CHECK(has(r.err, bad + ":4:"));          // the top-level call site

    r = run_lipq({d.file("exit.lisp", "(print 1)\n(exit 3)\n(print 2)\n")});
    CHECK(r.status == 3);
    CHECK(r.out == "1\n");

    r = run_lipq({d.path + "/missing.lisp"});
    CHECK(r.status != 0);
    CHECK(has(r.err, "missing.lisp"));

    r = run_lipq({d.file("unclosed.lisp", "(print 1)\n(print (+ 1 2)\n")});
    CHECK(r.status == 1);
    CHECK(has(r.err, "unclosed.lisp:2:"));
}

TEST_CASE("cli: SIGINT stops a running script with status 130") {
    TempDir d;
    std::string spin = d.file("spin.lisp", "(print 'started)\n(defun spin (n) (spin (+ n 1)))\n(spin 0)\n");
    auto r = run_lipq({spin}, "", 500);
    CHECK(r.status == 130);
    CHECK(has(r.err, "interrupted"));
}

TEST_CASE("cli: limits") {
    auto r = run_lipq({"--stack-limit", "1000", "-e", "(progn (defun deep (n) (+ 1 (deep (+ n 1)))) (deep 0))"});
    CHECK(r.status == 1);
    CHECK(has(r.err, "stack depth exceeded"));
    r = run_lipq({"--time-limit", "0.3", "-e", "(loop)"});
    CHECK(r.status == 1);
    CHECK(has(r.err, "time limit"));
}

TEST_CASE("cli: the REPL reads standard input when it is not a terminal") {
    auto r = run_lipq({}, "(+ 1 2)\n");
    CHECK(r.status == 0);
    CHECK(r.out == "3\n");
    // Several forms on a line, a form over several lines, strings with newlines.
    r = run_lipq({}, "(+ 1 1) (+ 2\n 2)\n(concat \"a\n\" \"b\")\n");
    CHECK(r.out == "2\n4\n\"a\\nb\"\n");
    // An error does not stop the session; the status says something failed.
    r = run_lipq({}, "(car 1)\n(+ 2 2)\n");
    CHECK(r.status == 1);
    CHECK(r.out == "4\n");
    CHECK(has(r.err, "car: not a list"));
    // An unfinished form at the end of input is an error.
    r = run_lipq({}, "(+ 1 2)\n(+ 3\n");
    CHECK(r.status == 1);
    CHECK(r.out == "3\n");
    // (exit n) leaves with n.
    r = run_lipq({}, "(exit 4)\n(print 'no)\n");
    CHECK(r.status == 4);
    CHECK(r.out == "");
}

TEST_CASE("cli: *, ** and *** hold the last results; * still multiplies") {
    auto r = run_lipq({}, "(+ 2 3)\n(* * 2)\n(list * ** ***)\n(apply '* '(2 3 4))\n(funcall #'* 5 5)\n");
    CHECK(r.status == 0);
    CHECK(r.out == "5\n10\n(10 5 nil)\n24\n25\n");
    // `*` typed alone is the last result too, not the multiplication function.
    r = run_lipq({}, "(+ 1 2)\n*\n(list * 4)\n**\n");
    CHECK(r.out == "3\n3\n(3 4)\n3\n");
}

TEST_CASE("cli: -l loads a file before the REPL") {
    TempDir d;
    std::string lib = d.file("lib.lisp", "(defun triple (x) (* 3 x))\n");
    auto r = run_lipq({"-l", lib}, "(triple 14)\n");
    CHECK(r.status == 0);
    CHECK(r.out == "42\n");
}

TEST_CASE("cli: the last error's frames can be inspected") {
    auto r = run_lipq({}, "(defun g (x) (car x))\n(defun h (x) (list (g x)))\n(h 9)\n"
                          "(length (last-error-frames))\n(car (last-error))\n(backtrace)\n");
    CHECK(r.status == 1);
    CHECK(has(r.out, "\"car: not a list: 9\""));
    CHECK(has(r.out, "0: car"));
    CHECK(has(r.out, "1: g"));
    CHECK(has(r.out, "2: h"));
}

TEST_CASE("cli: trace and untrace") {
    auto r = run_lipq({}, "(defun down (n) (if (< n 1) 'done (down (- n 1))))\n"
                          "(trace down)\n(down 2)\n(untrace down)\n(down 3)\n(trace)\n");
    CHECK(r.status == 0);
    CHECK(has(r.out, "0: (down 2)\n  1: (down 1)\n    2: (down 0)\n    2: down returned done\n"
                     "  1: down returned done\n0: down returned done\ndone\n"));
    // After untrace: no trace lines for (down 3), and nothing is traced.
    CHECK(!has(r.out, "(down 3)"));
    CHECK(has(r.out, "done\nnil\n"));
    // A traced function that fails: the depth resets for the next call.
    r = run_lipq({}, "(defun bad (x) (car x))\n(trace bad)\n(bad 1)\n(bad '(7))\n");
    CHECK(has(r.out, "0: (bad 1)\n0: (bad (7))\n0: bad returned 7\n"));
    r = run_lipq({}, "(trace no-such-function)\n");
    CHECK(has(r.err, "not a function"));
}

TEST_CASE("cli: dribble records the session") {
    TempDir d;
    std::string log = d.path + "/session.txt";
    auto r = run_lipq({}, "(dribble \"" + log + "\")\n(+ 20 22)\n(car 5)\n(print 'x)\n(dribble)\n(+ 1 1)\n");
    CHECK(r.status == 1);
    std::string text = read_file(log);
    CHECK(has(text, "(+ 20 22)\n42\n"));
    CHECK(has(text, "car: not a list: 5"));
    CHECK(has(text, "(print 'x)\nx\nx\n"));
    CHECK(!has(text, "(+ 1 1)"));
}

TEST_CASE("cli: time reports elapsed time and GC figures") {
    auto r = run_lipq({"-e", "(time (length (let ((l nil)) (dotimes (i 1000) (push i l)) l)))"});
    CHECK(r.status == 0);
    CHECK(r.out == "1000\n");
    CHECK(has(r.err, "; time:"));
    CHECK(has(r.err, "collections"));
}
