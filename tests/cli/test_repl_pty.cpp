// test_repl_pty.cpp — the interactive REPL driven as a person would, in a
// pseudo-terminal: define a function, call it, continue a form over lines,
// press Ctrl-C during a long computation and at the prompt, then Ctrl-D.
#include <doctest/doctest.h>

#include "process.h"

#include <sys/stat.h>
#include <unistd.h>

using clitest::PtySession;
using clitest::TempDir;

TEST_CASE("repl: interactive session in a pseudo-terminal") {
    TempDir home;
    PtySession s({}, home.path);
    INFO("the terminal so far:\n" << s.output());   // shown with any failure below
    REQUIRE(s.expect("lipq> "));

    s.send("(defun sq (x) (* x x))\r");
    CHECK(s.expect("sq"));
    CHECK(s.expect("lipq> "));
    s.send("(sq 12)\r");
    CHECK(s.expect("144"));
    CHECK(s.expect("lipq> "));

    // A form over two lines: continuation prompt, then the value.
    s.send("(+ 1\r");
    CHECK(s.expect("... "));
    s.send("41)\r");
    CHECK(s.expect("42"));
    CHECK(s.expect("lipq> "));

    // Ctrl-C during a long loop returns to the prompt; definitions survive.
    s.send("(defun forever (n) (forever (+ n 1)))\r");
    CHECK(s.expect("lipq> "));
    s.send("(forever 0)\r");
    usleep(400 * 1000);
    s.mark();
    s.send("\x03");
    CHECK(s.expect("interrupted", 5));
    CHECK(s.expect("lipq> "));
    s.send("(sq 13)\r");
    CHECK(s.expect("169"));
    CHECK(s.expect("lipq> "));

    // Ctrl-C at an idle prompt, twice: the session goes on.
    s.send("\x03");
    CHECK(s.expect("lipq> "));
    s.send("\x03");
    CHECK(s.expect("lipq> "));
    // Ctrl-C while typing abandons the line.
    s.send("(sq");
    usleep(100 * 1000);
    s.send("\x03");
    CHECK(s.expect("lipq> "));
    s.send("(sq 3)\r");
    CHECK(s.expect("9"));
    CHECK(s.expect("lipq> "));

    // An error prints the message and returns to the prompt.
    s.send("(sq 'x)\r");
    CHECK(s.expect("error: "));
    CHECK(s.expect("lipq> "));
    s.send("(length (last-error-frames))\r");
    CHECK(s.expect("lipq> "));

    // Ctrl-D at an empty prompt leaves with status 0.
    s.send("\x04");
    CHECK(s.wait_exit() == 0);

    // The history was saved in the home directory.
    std::string hist = clitest::read_file(home.path + "/.lipq_history");
#ifdef LIPQ_HAVE_LIBEDIT
    CHECK(hist.find("sq\\04012") != std::string::npos);
    CHECK(hist.find("(+\\0401\\04041)") != std::string::npos);   // the two-line form, as one entry
#endif
}

TEST_CASE("repl: history from an earlier session can be recalled") {
#ifdef LIPQ_HAVE_LIBEDIT
    TempDir home;
    {
        PtySession s({}, home.path);
        REQUIRE(s.expect("lipq> "));
        s.send("(+ 100 23)\r");
        CHECK(s.expect("123"));
        CHECK(s.expect("lipq> "));
        s.send("\x04");
        CHECK(s.wait_exit() == 0);
    }
    PtySession s({}, home.path);
    REQUIRE(s.expect("lipq> "));
    s.send("\x1b[A");   // up arrow: the previous session's last line
    usleep(200 * 1000);
    s.send("\r");
    CHECK(s.expect("123"));
    s.send("(exit 5)\r");
    CHECK(s.wait_exit() == 5);
#endif
}

TEST_CASE("repl: UTF-8 typed at the prompt reaches the reader intact") {
    TempDir home;
    PtySession s({}, home.path);
    INFO("the terminal so far:\n" << s.output());
    REQUIRE(s.expect("lipq> "));
    s.send("(list \"h\xc3\xa9llo\" (length \"\xe2\x86\x92\"))\r");   // "héllo", "→" (3 bytes)
    CHECK(s.expect("(\"h\xc3\xa9llo\" 3)"));
    CHECK(s.expect("lipq> "));
    s.send("\x04");
    CHECK(s.wait_exit() == 0);
}
