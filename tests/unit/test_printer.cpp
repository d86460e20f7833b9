// test_printer.cpp — the labelled printer and the pretty printer
// (interp/printer.h): the exact LIPQ and Common Lisp notations, both modes,
// limits, layout, and a property test: random graphs of cons/quad cells,
// vectors and atoms with random sharing and cycles print and read back to an
// isomorphic structure (shared mode) or a bisimilar one (cycle-only mode).
#include <doctest/doctest.h>

#include "interp/interp.h"
#include "interp/number.h"
#include "interp/printer.h"
#include "interp/reader.h"

#include <cstdint>
#include <random>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

using namespace lipq;

namespace {

PrintOptions opts(bool shared, bool cl) {
    PrintOptions o;
    o.shared = shared;
    o.cl_labels = cl;
    return o;
}

std::string pr(Interp& I, Value v, bool shared = true, bool cl = false) {
    return print_to_string(I, v, opts(shared, cl));
}

std::string eval_print(Interp& I, const std::string& src, bool shared = true, bool cl = false) {
    Root v(I, I.eval_string(src));
    return pr(I, v, shared, cl);
}

// ---- structure comparison --------------------------------------------------

bool is_container(Value v) { return is_pair(v) || is_vector(v); }

size_t n_fields(Value v) { return is_pair(v) ? (is_quad(v) ? 4 : 2) : as_vector(v)->items.size(); }

Value field(Value v, size_t i) { return is_pair(v) ? pair_words(v)[i] : as_vector(v)->items[i]; }

// Atoms that print alike read back alike: numbers by value, strings by
// content, symbols by identity (interned).
bool same_atom(Value a, Value b) {
    if (is_container(a) || is_container(b)) return false;
    bool an = is_fixnum(a) || is_bignum(a), bn = is_fixnum(b) || is_bignum(b);
    if (an || bn) return an && bn && num_equal(a, b);
    if (is_string(a) || is_string(b)) return is_string(a) && is_string(b) && as_string(a)->s == as_string(b)->s;
    return a == b;
}

bool same_shape(Value a, Value b) {
    if (is_cons(a) != is_cons(b) || is_quad(a) != is_quad(b) || is_vector(a) != is_vector(b)) return false;
    return n_fields(a) == n_fields(b);
}

// Isomorphism: a bijection between the containers reachable from a and from
// b that respects kinds, atoms and every field (so sharing and cycles too).
bool isomorphic(Value a, Value b) {
    std::unordered_map<uint64_t, uint64_t> fwd, bwd;
    std::vector<std::pair<Value, Value>> work{{a, b}};
    while (!work.empty()) {
        auto [x, y] = work.back();
        work.pop_back();
        if (!is_container(x) || !is_container(y)) {
            if (!same_atom(x, y)) return false;
            continue;
        }
        auto f = fwd.find(x.raw);
        auto g = bwd.find(y.raw);
        if (f != fwd.end() || g != bwd.end()) {
            if (f == fwd.end() || g == bwd.end() || f->second != y.raw || g->second != x.raw) return false;
            continue;
        }
        if (!same_shape(x, y)) return false;
        fwd[x.raw] = y.raw;
        bwd[y.raw] = x.raw;
        for (size_t i = 0; i < n_fields(x); i++) work.push_back({field(x, i), field(y, i)});
    }
    return true;
}

// Bisimilarity: a and b unfold to the same (possibly infinite) tree. The
// greatest fixed point: a pair already under examination is assumed equal.
bool bisimilar(Value a, Value b) {
    struct H { size_t operator()(const std::pair<uint64_t, uint64_t>& p) const { return p.first * 31 + p.second; } };
    std::unordered_set<std::pair<uint64_t, uint64_t>, H> seen;
    std::vector<std::pair<Value, Value>> work{{a, b}};
    while (!work.empty()) {
        auto [x, y] = work.back();
        work.pop_back();
        if (!is_container(x) || !is_container(y)) {
            if (!same_atom(x, y)) return false;
            continue;
        }
        if (!seen.insert({x.raw, y.raw}).second) continue;
        if (!same_shape(x, y)) return false;
        for (size_t i = 0; i < n_fields(x); i++) work.push_back({field(x, i), field(y, i)});
    }
    return true;
}

// Containers reachable from root, and how many references each has (the
// root counts one for being the root).
std::unordered_map<uint64_t, int> in_degrees(Value root) {
    std::unordered_map<uint64_t, int> deg;
    std::vector<Value> work{root};
    if (is_container(root)) deg[root.raw] = 1;
    std::unordered_set<uint64_t> done;
    while (!work.empty()) {
        Value v = work.back();
        work.pop_back();
        if (!is_container(v) || !done.insert(v.raw).second) continue;
        for (size_t i = 0; i < n_fields(v); i++) {
            Value c = field(v, i);
            if (is_container(c)) { deg[c.raw]++; work.push_back(c); }
        }
    }
    return deg;
}

bool reaches_itself(Value v) {
    std::unordered_set<uint64_t> seen;
    std::vector<Value> work;
    for (size_t i = 0; i < n_fields(v); i++) work.push_back(field(v, i));
    while (!work.empty()) {
        Value x = work.back();
        work.pop_back();
        if (!is_container(x)) continue;
        if (x == v) return true;
        if (!seen.insert(x.raw).second) continue;
        for (size_t i = 0; i < n_fields(x); i++) work.push_back(field(x, i));
    }
    return false;
}

// Label definitions in printed text ($n: or #n=), outside strings and |..|.
int count_label_defs(const std::string& s, bool cl) {
    int n = 0;
    bool in_str = false, in_bar = false;
    for (size_t i = 0; i < s.size(); i++) {
        char c = s[i];
        if (in_str) { if (c == '\\') i++; else if (c == '"') in_str = false; continue; }
        if (in_bar) { if (c == '\\') i++; else if (c == '|') in_bar = false; continue; }
        if (c == '"') { in_str = true; continue; }
        if (c == '|') { in_bar = true; continue; }
        if (c == (cl ? '#' : '$') && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
            size_t j = i + 1;
            while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) j++;
            if (j < s.size() && s[j] == (cl ? '=' : ':')) n++;
        }
    }
    return n;
}

// ---- random graphs -----------------------------------------------------------

struct Graph {
    Root holder;   // a vector of the nodes (keeps them alive)
    Value root() const { return as_vector(holder)->items[0]; }
    explicit Graph(Interp& I) : holder(I, NIL) {}
};

const char* const kSymbols[] = {"a", "b", "foo", "nil-ish", "Foo", "1", "$1", "a b", "#x", ".", "x|y", "+", "-5a", "$", "t"};
const char* const kStrings[] = {"", "s", "hello world", "quote\"d", "back\\slash", "line\nbreak", "tab\t"};

Value random_leaf(Interp& I, std::mt19937_64& rng) {
    switch (rng() % 6) {
    case 0: return NIL;
    case 1: return make_fixnum(int64_t(rng() % 2001) - 1000);
    case 2: {
        std::string digits = (rng() & 1) ? "-" : "";
        int len = 19 + int(rng() % 30);
        digits += char('1' + rng() % 9);
        for (int i = 1; i < len; i++) digits += char('0' + rng() % 10);
        Value v = NIL;
        parse_integer(I, digits, 10, &v);
        return v;
    }
    case 3: return I.make_string(kStrings[rng() % (sizeof kStrings / sizeof *kStrings)]);
    case 4: return make_fixnum(int64_t(rng() % 5));
    default: return I.intern(kSymbols[rng() % (sizeof kSymbols / sizeof *kSymbols)]);
    }
}

// n containers (cons 60%, quad 20%, vector 20%); every field is an atom, a
// later node (tree-like: mostly cdr chains), or with probability share_pct
// any node at all (sharing, cycles, self-loops).
void random_graph(Interp& I, std::mt19937_64& rng, Graph& g, int n, int share_pct) {
    g.holder = I.make_vector(size_t(n), NIL);
    for (int i = 0; i < n; i++) {
        int k = int(rng() % 10);
        Value c;
        if (k < 6) c = I.cons(NIL, NIL);
        else if (k < 8) c = I.quad(NIL, NIL, NIL, NIL);
        else c = I.make_vector(rng() % 5, NIL);
        as_vector(g.holder)->items[size_t(i)] = c;
    }
    for (int i = 0; i < n; i++) {
        Value c = as_vector(g.holder)->items[size_t(i)];
        size_t nf = n_fields(c);
        for (size_t f = 0; f < nf; f++) {
            int r = int(rng() % 100);
            Value x;
            if (r < share_pct) x = as_vector(g.holder)->items[rng() % size_t(n)];
            else if (r < share_pct + 40 && i + 1 < n) {
                // cdr fields usually continue a list with the next node
                int j = (is_cons(c) && f == 1 && (rng() & 1)) ? i + 1 : i + 1 + int(rng() % size_t(n - i - 1));
                x = as_vector(g.holder)->items[size_t(j)];
            } else {
                x = random_leaf(I, rng);
            }
            c = as_vector(g.holder)->items[size_t(i)];   // (unchanged: the GC does not move)
            if (is_pair(c)) pair_words(c)[f] = x;
            else as_vector(c)->items[f] = x;
        }
    }
}

std::string error_of_read(Interp& I, const std::string& s) {
    try {
        read_from_string(I, s);
    } catch (const LispError& e) {
        return e.message;
    }
    return "";
}

} // namespace

TEST_CASE("the exact strings of the issue and of the paper") {
    Interp I;
    CHECK(eval_print(I, "(let ((l (list 'a 'b 'c))) (rplacd (cddr l) l) l)") == "($1:a b c . $1)");
    CHECK(eval_print(I, "(let ((s (list 1 2))) (list s s))") == "(($1:1 2) $1)");
    CHECK(eval_print(I, "(let ((l (list 1 2))) (rplaca l l) l)") == "($1:$1 2)");
    CHECK(eval_print(I, "(let* ((tl (list 2 1 2 2 1)) (l (append (list 1 0 0 2 1 2 1) tl))) (list l tl))") ==
          "((1 0 0 2 1 2 1 $1:2 1 2 2 1) $1)");
    // Common Lisp notation of the same structures.
    CHECK(eval_print(I, "(let ((l (list 'a 'b 'c))) (rplacd (cddr l) l) l)", true, true) == "#1=(a b c . #1#)");
    CHECK(eval_print(I, "(let ((s (list 1 2))) (list s s))", true, true) == "(#1=(1 2) #1#)");
    CHECK(eval_print(I, "(let ((l (list 1 2))) (rplaca l l) l)", true, true) == "#1=(#1# 2)");
    CHECK(eval_print(I, "(let* ((tl (list 2 1 2 2 1)) (l (append (list 1 0 0 2 1 2 1) tl))) (list l tl))", true, true) ==
          "((1 0 0 2 1 2 1 . #1=(2 1 2 2 1)) #1#)");
    // The Tait search tree of the paper (seed 002, section 4) reads and
    // prints back character for character (the paper writes NIL).
    const std::string tait =
        "(((($1:1 1 2 2 1 2 0 0 1 2 2 1) ($2:(1 0 0 2 1 2 1 $3:2 1 2 2 1) ($4:(1 2 $5:1 2 1 2 1 2 1 2 0 0) nil $5 0) "
        "$3 1) $1 2) $2 $4))";
    Root t(I, read_from_string(I, tait));
    CHECK(pr(I, t) == tait);
    // $2 is the four-element node whose first element is a state.
    Value a = car(t);                 // (B $2 $4)
    Value node2 = car(cdr(car(a)));   // B = (state $2:(...) $1 2)
    CHECK(list_length(I, node2, "test") == 4);
    CHECK(is_cons(car(node2)));
    CHECK(car(cdr(a)) == node2);
}

TEST_CASE("cycle-only mode labels only what closes a cycle") {
    Interp I;
    CHECK(eval_print(I, "(let ((s (list 1 2))) (list s s))", false) == "((1 2) (1 2))");
    CHECK(eval_print(I, "(let ((l (list 'a 'b 'c))) (rplacd (cddr l) l) l)", false) == "($1:a b c . $1)");
    CHECK(eval_print(I, "(let ((l (list 'a 'b 'c))) (rplacd (cddr l) (cdr l)) l)", false) == "(a $1:b c . $1)");
    CHECK(eval_print(I, "(let ((l (list 'a 'b 'c))) (rplacd (cddr l) (cdr l)) l)", false, true) == "(a . #1=(b c . #1#))");
    // A shared cycle: the second reference reuses the label.
    CHECK(eval_print(I, "(let ((l (list 'a))) (rplacd l l) (list l l))", false) == "(($1:a . $1) $1)");
    // Through vectors and quads.
    CHECK(eval_print(I, "(let ((v (vector 1 2))) (aset v 1 v) (list v))", false) == "(#($1:1 $1))");
    CHECK(eval_print(I, "(let ((q (qcons 1 2 3 4))) (rplacc q q) q)", false) == "#q($1:1 2 $1 4)");
    CHECK(eval_print(I, "(let ((q (qcons 1 2 3 4))) (rplacc q q) q)", false, true) == "#1=#q(1 2 #1# 4)");
}

TEST_CASE("vectors and quads: shared, printed, read back") {
    Interp I;
    CHECK(eval_print(I, "(let ((v (vector 1 2))) (list v v))") == "(#($1:1 2) $1)");
    CHECK(eval_print(I, "(let ((v (vector))) (list v v))") == "(#($1:) $1)");
    CHECK(eval_print(I, "(let ((q (qcons 'a 'b 'c 'd))) (list q q))") == "(#q($1:a b c d) $1)");
    CHECK(eval_print(I, "(let ((q (qcons 'a 'b 'c 'd))) (list q q))", true, true) == "(#1=#q(a b c d) #1#)");
    CHECK(eval_print(I, "(cons 1 (qcons 1 2 3 4))") == "(1 . #q(1 2 3 4))");
    CHECK(eval_print(I, "(let ((l (list 1 2))) (vector l (cdr l) l))") == "#(($1:1 $2:2) $2 $1)");
    Root v(I, read_from_string(I, "(#($1:) $1 #q($2:a $2 c d))"));
    CHECK(car(v) == car(cdr(v)));
    Value q = car(cdr(cdr(v)));
    CHECK(is_quad(q));
    CHECK(cbr(q) == q);
    CHECK(pr(I, v) == "(#($1:) $1 #q($2:a $2 c d))");
}

TEST_CASE("symbols, numbers and strings are never labelled") {
    Interp I;
    CHECK(eval_print(I, "(let ((s \"str\") (b (expt 10 30))) (list s s b b 'x 'x))") ==
          "(\"str\" \"str\" 1000000000000000000000000000000 1000000000000000000000000000000 x x)");
    // Symbols that look like labels print with bars and read back as symbols.
    Root s(I, I.intern("$1"));
    CHECK(pr(I, s) == "|$1|");
    CHECK(read_from_string(I, "|$1|") == s);
    CHECK(read_from_string(I, "$1x") == I.intern("$1x"));
}

TEST_CASE("print-length and print-level") {
    Interp I;
    PrintOptions o;
    o.length = 3;
    Root l(I, I.eval_string("(list 1 2 3 4 5 (list 6 (list 7 (list 8))))"));
    CHECK(print_to_string(I, l, o) == "(1 2 3 ...)");
    o.length = -1;
    o.level = 2;
    CHECK(print_to_string(I, l, o) == "(1 2 3 4 5 (6 #))");
    o.length = 0;
    CHECK(print_to_string(I, l, o) == "(...)");
    // A 1,000,000-element cycle under a length limit.
    o = PrintOptions();
    o.length = 4;
    Root c(I, I.eval_string("(let ((l (list 'a 'b))) (rplacd (cdr l) l) l)"));
    CHECK(print_to_string(I, c, o) == "($1:a b . $1)");
    Root v(I, I.eval_string("(vector 1 2 3 4 5 6)"));
    CHECK(print_to_string(I, v, o) == "#(1 2 3 4 ...)");
}

TEST_CASE("deep and long structures print and read without recursion") {
    Interp I;
    const int quick = std::getenv("LIPQ_TEST_QUICK") ? 10 : 1;
    // 100,000-deep car nesting.
    int depth = 100000 / quick;
    std::string s(size_t(depth), '(');
    s += "x";
    s += std::string(size_t(depth), ')');
    Root d(I, read_from_string(I, s));
    CHECK((pr(I, d) == s));
    CHECK((pr(I, d, false, true) == s));
    // 1,000,000-element list.
    int n = 1000000 / quick;
    Root l(I, NIL);
    for (int i = 0; i < n; i++) l = I.cons(make_fixnum(i % 10), l);
    std::string t = pr(I, l);
    CHECK(t.size() == size_t(2 * n + 1));
    Root back(I, read_from_string(I, t));
    CHECK(isomorphic(l, back));
    // Made circular: labelled, and read back circular.
    Value last = l;
    while (is_pair(cdr(last))) last = cdr(last);
    set_cdr(last, l);
    std::string c = pr(I, l, false);
    CHECK(c.substr(0, 4) == "($1:");
    CHECK(c.substr(c.size() - 6) == " . $1)");
    Root cb(I, read_from_string(I, c));
    CHECK(isomorphic(l, cb));
    // A million open parentheses: a clean reader error.
    std::string opens(1000000, '(');
    std::string e = error_of_read(I, opens);
    CHECK(e.find("missing )") != std::string::npos);
}

TEST_CASE("the pretty printer breaks lines and keeps the text readable") {
    Interp I;
    Root tait(I, read_from_string(I,
        "(((($1:1 1 2 2 1 2 0 0 1 2 2 1) ($2:(1 0 0 2 1 2 1 $3:2 1 2 2 1) ($4:(1 2 $5:1 2 1 2 1 2 1 2 0 0) nil $5 0) "
        "$3 1) $1 2) $2 $4))"));
    std::string p = pprint_to_string(I, tait, 79);
    CHECK(p ==
          "(((($1:1 1 2 2 1 2 0 0 1 2 2 1)\n"
          "   ($2:(1 0 0 2 1 2 1 $3:2 1 2 2 1)\n"
          "    ($4:(1 2 $5:1 2 1 2 1 2 1 2 0 0) nil $5 0)\n"
          "    $3 1)\n"
          "   $1 2)\n"
          "  $2 $4))");
    Root back(I, read_from_string(I, p));
    CHECK(isomorphic(tait, back));
    // Short structures stay on one line; long atom runs are filled.
    Root shortl(I, I.eval_string("(list 1 2 3)"));
    CHECK(pprint_to_string(I, shortl, 79) == "(1 2 3)");
    Root nums(I, I.eval_string("(let ((r nil)) (dotimes (i 40) (push i r)) r)"));
    std::string f = pprint_to_string(I, nums, 30);
    size_t start = 0;
    int lines = 0;
    while (start < f.size()) {
        size_t nl = f.find('\n', start);
        if (nl == std::string::npos) nl = f.size();
        CHECK(nl - start <= 30);
        start = nl + 1;
        lines++;
    }
    CHECK(lines > 1);
    CHECK(lines < 10);
    // Code-like lists keep the operator and first argument together.
    Root code(I, read_from_string(I, "(defun foo (x y) (let ((a (+ x y)) (b (* x y))) (list a b x y a b x y a b)))"));
    CHECK(pprint_to_string(I, code, 40) ==
          "(defun foo (x y)\n"
          "  (let ((a (+ x y)) (b (* x y)))\n"
          "    (list a b x y a b x y a b)))");
    // The REPL setting: *print-pretty* makes prin1 pretty.
    I.set_global(I.sym.print_pretty, I.sym.t);
    I.set_global(I.intern("*print-right-margin*"), make_fixnum(30));
    CHECK(prin1_to_string(I, nums) == f);
    I.set_global(I.sym.print_pretty, NIL);
    CHECK(prin1_to_string(I, nums).find('\n') == std::string::npos);
}

TEST_CASE("property: random graphs round-trip, both notations, both modes") {
    Interp I;
    std::mt19937_64 rng(20260522);
    const int cases = std::getenv("LIPQ_TEST_QUICK") ? 150 : 1500;
    int checked = 0, with_labels = 0, with_cycles = 0;
    for (int k = 0; k < cases; k++) {
        Graph g(I);
        int n = 1 + int(rng() % 40);
        int share = (k % 4 == 0) ? 0 : int(rng() % 30);
        random_graph(I, rng, g, n, share);
        Value x = g.root();
        auto deg = in_degrees(x);
        int shared_count = 0;
        bool cyclic = false;
        for (auto& [raw, d] : deg) {
            if (d >= 2) shared_count++;
            Value c;
            c.raw = raw;
            if (!cyclic && reaches_itself(c)) cyclic = true;
        }
        with_cycles += cyclic;
        for (int mode = 0; mode < 4; mode++) {
            bool shared = mode < 2, cl = mode & 1;
            PrintOptions o = opts(shared, cl);
            std::string text = print_to_string(I, x, o);
            Root y(I, NIL);
            try {
                y = read_from_string(I, text);
            } catch (const LispError& e) {
                FAIL_CHECK("read failed: " << e.message << "\n  text: " << text);
                continue;
            }
            int defs = count_label_defs(text, cl);
            if (shared) {
                // Every shared container, and only those, gets a label.
                CHECK_MESSAGE(defs == shared_count, text);
                CHECK_MESSAGE(isomorphic(x, y), text);
            } else {
                CHECK_MESSAGE(defs <= shared_count, text);
                CHECK_MESSAGE(bisimilar(x, y), text);
                // No label unless there is a cycle; and in the read-back
                // structure every shared container lies on a cycle.
                if (!cyclic) CHECK_MESSAGE(defs == 0, text);
                for (auto& [raw, d] : in_degrees(y)) {
                    Value c;
                    c.raw = raw;
                    if (d >= 2) CHECK_MESSAGE(reaches_itself(c), text);
                }
            }
            // Printing is canonical: the read-back prints identically.
            CHECK(print_to_string(I, y, o) == text);
            // The pretty form reads back to the same structure.
            o.pretty = true;
            o.right_margin = 20 + int(rng() % 60);
            std::string pretty = print_to_string(I, x, o);
            Root z(I, read_from_string(I, pretty));
            CHECK_MESSAGE(isomorphic(y, z), pretty);
            with_labels += defs > 0;
            checked++;
        }
    }
    CHECK(checked == cases * 4);
    CHECK(with_labels > cases);       // the generator does make shared structure
    CHECK(with_cycles > cases / 4);   // ... and cycles
    MESSAGE("round trips: " << checked << ", with labels: " << with_labels << ", graphs with cycles: " << with_cycles);
}

TEST_CASE("property under GC torture: printing and reading are collection-safe") {
    Interp I;
    std::mt19937_64 rng(7);
    I.heap.set_torture(true);
    for (int k = 0; k < 40; k++) {
        Graph g(I);
        random_graph(I, rng, g, 1 + int(rng() % 25), int(rng() % 30));
        for (int mode = 0; mode < 4; mode++) {
            PrintOptions o = opts(mode < 2, mode & 1);
            std::string text = print_to_string(I, g.root(), o);
            Root y(I, read_from_string(I, text));
            if (mode < 2) CHECK(isomorphic(g.root(), y));
            else CHECK(bisimilar(g.root(), y));
        }
    }
    I.heap.set_torture(false);
}
