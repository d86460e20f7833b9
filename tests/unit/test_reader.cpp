// test_reader.cpp — the reader's label syntax (interp/reader.h): LIPQ $n:/$n
// and Common Lisp #n=/#n#, what each names, and the errors for bad labels
// (with line:column).
#include <doctest/doctest.h>

#include "interp/interp.h"
#include "interp/printer.h"
#include "interp/reader.h"

#include <string>

using namespace lipq;

namespace {

std::string error_of_read(Interp& I, const std::string& s) {
    try {
        read_from_string(I, s);
    } catch (const LispError& e) {
        return e.message;
    }
    return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

} // namespace

TEST_CASE("LIPQ labels name cells") {
    Interp I;
    Root c(I, read_from_string(I, "($1:a b c . $1)"));
    CHECK(cdr(cdr(cdr(c))) == c);
    Root s(I, read_from_string(I, "(($1:1 2) $1)"));
    CHECK(car(s) == car(cdr(s)));
    Root self(I, read_from_string(I, "($1:$1 2)"));
    CHECK(car(self) == self);
    // A label inside a list names the cell holding the next element, so a
    // later reference is the tail from there.
    Root t(I, read_from_string(I, "((1 0 0 2 1 2 1 $1:2 1 2 2 1) $1)"));
    Value tail = car(cdr(t));
    Value l = car(t);
    for (int i = 0; i < 7; i++) l = cdr(l);
    CHECK(l == tail);
    // A label on a labelled element that is itself a list: ($2:($1:x) $1 $2)
    Root n(I, read_from_string(I, "(($2:($1:x) $1) $2)"));
    Value inner = car(n);
    CHECK(car(cdr(n)) == inner);
    CHECK(car(cdr(inner)) == car(inner));
    // Just inside #( or #q( a label names the vector or quad itself.
    Root v(I, read_from_string(I, "#($1:1 $1)"));
    CHECK(as_vector(v)->items[1] == v);
    Root q(I, read_from_string(I, "#q($1:1 $1 3 $1)"));
    CHECK(cbr(q) == q);
    CHECK(cdr(q) == q);
    CHECK(car(q) == make_fixnum(1));
}

TEST_CASE("Common Lisp labels name data") {
    Interp I;
    Root c(I, read_from_string(I, "#1=(a b c . #1#)"));
    CHECK(cdr(cdr(cdr(c))) == c);
    Root s(I, read_from_string(I, "(#1=(1 2) #1#)"));
    CHECK(car(s) == car(cdr(s)));
    Root self(I, read_from_string(I, "#1=(#1# 2)"));
    CHECK(car(self) == self);
    Root v(I, read_from_string(I, "#1=#(1 #1# #2=(x) #2#)"));
    CHECK(as_vector(v)->items[1] == v);
    CHECK(as_vector(v)->items[2] == as_vector(v)->items[3]);
    Root q(I, read_from_string(I, "#1=#q(#1# 2 #1# 4)"));
    CHECK(car(q) == q);
    CHECK(ccr(q) == q);
    Root a(I, read_from_string(I, "(#1=x #1#)"));
    CHECK(car(a) == car(cdr(a)));
}

TEST_CASE("bad labels are reader errors with line:column") {
    Interp I;
    std::string e = error_of_read(I, "(a\n  $7)");
    CHECK(contains(e, "label $7 is not defined"));
    CHECK(contains(e, ":2:3"));
    e = error_of_read(I, "(a #7#)");
    CHECK(contains(e, "label #7# is not defined"));
    CHECK(contains(e, ":1:4"));
    e = error_of_read(I, "($1:a\n $1:b)");
    CHECK(contains(e, "label $1: defined twice"));
    CHECK(contains(e, ":2:2"));
    e = error_of_read(I, "(#1=a #1=b)");
    CHECK(contains(e, "label #1= defined twice"));
    CHECK(contains(e, ":1:7"));
    e = error_of_read(I, "#1=#1#");
    CHECK(contains(e, "#1#"));
    e = error_of_read(I, "($1:)");
    CHECK(contains(e, "a label must be followed by a datum"));
    e = error_of_read(I, "$1:a");
    CHECK(contains(e, "must stand inside a list"));
    e = error_of_read(I, "(a . $1:b)");
    CHECK(contains(e, "must stand inside a list"));
    e = error_of_read(I, "#q(1 2 3)");
    CHECK(contains(e, "four fields"));
    e = error_of_read(I, "#q(1 2 3 4 5)");
    CHECK(contains(e, "four fields"));
    // Labels are local to one datum.
    CHECK(error_of_read(I, "($1:a)").empty());
    Reader r(I, "($1:a) $1", I.file_id("<t>"), false);
    Root first(I, r.read());
    e = "";
    try { r.read(); } catch (const LispError& x) { e = x.message; }
    CHECK(contains(e, "label $1 is not defined"));
}

TEST_CASE("a million nested parentheses: an error when open, a value when closed") {
    Interp I;
    std::string s(1000000, '(');
    CHECK(contains(error_of_read(I, s), "missing )"));
    s += std::string(1000000, ')');
    Root v(I, read_from_string(I, s));
    int depth = 0;
    for (Value x = v; is_pair(x); x = car(x)) depth++;
    CHECK(depth == 999999);   // the innermost () is nil
}
