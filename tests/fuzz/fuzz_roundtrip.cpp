// fuzz_roundtrip.cpp — libFuzzer target: read -> print -> read gives an
// isomorphic structure.
//
// For each datum the input reads to, print it with *print-shared* t (every
// shared object labelled), in LIPQ style ($1: / $1) and in Common Lisp style
// (#1= / #1#), read the text back and check that the two graphs are
// isomorphic: a bijection between the cells, quads and vectors of both that
// maps car to car, cdr to cdr and so on, with equal atoms (same symbol, same
// integer, same string contents). Printing the copy must give the same text
// again. Cycle-only printing (*print-shared* nil) must read back too.
// A failure aborts (a finding).
#include "fuzz_common.h"

#include <cstdio>
#include <unordered_map>
#include <utility>
#include <vector>

using namespace lipq;

namespace {

[[noreturn]] void fail(const char* what, const std::string& text) {
    std::fprintf(stderr, "round trip failed: %s\n--- printed ---\n%.2000s\n", what, text.c_str());
    std::abort();
}

bool atoms_equal(Value a, Value b) {
    if (a.raw == b.raw) return true;
    if (is_bignum(a) && is_bignum(b)) return as_bignum(a)->n == as_bignum(b)->n;
    if (is_string(a) && is_string(b)) return as_string(a)->s == as_string(b)->s;
    return false;
}

bool is_node(Value v) { return is_pair(v) || is_vector(v); }

// Graph isomorphism from the roots a and b, with a bijection on nodes.
bool isomorphic(Value a, Value b) {
    std::unordered_map<uint64_t, uint64_t> fwd, back;
    std::vector<std::pair<Value, Value>> work{{a, b}};
    while (!work.empty()) {
        auto [x, y] = work.back();
        work.pop_back();
        if (!is_node(x) || !is_node(y)) {
            if (is_node(x) || is_node(y)) return false;
            if (!atoms_equal(x, y)) return false;
            continue;
        }
        auto f = fwd.find(x.raw);
        auto g = back.find(y.raw);
        if (f != fwd.end() || g != back.end()) {
            if (f == fwd.end() || g == back.end() || f->second != y.raw || g->second != x.raw) return false;
            continue;
        }
        fwd[x.raw] = y.raw;
        back[y.raw] = x.raw;
        if (is_pair(x)) {
            if (is_quad(x) != is_quad(y)) return false;
            int n = is_quad(x) ? 4 : 2;
            for (int i = 0; i < n; i++) work.push_back({pair_words(x)[i], pair_words(y)[i]});
        } else {
            if (!is_vector(y)) return false;
            auto& xi = as_vector(x)->items;
            auto& yi = as_vector(y)->items;
            if (xi.size() != yi.size()) return false;
            for (size_t i = 0; i < xi.size(); i++) work.push_back({xi[i], yi[i]});
        }
    }
    return true;
}

void check_style(Interp& I, Value v, bool cl) {
    PrintOptions o;
    o.shared = true;
    o.cl_labels = cl;
    std::string text = print_to_string(I, v, o);
    Value w;
    try {
        w = read_from_string(I, text);
    } catch (LispError& e) {
        fail((std::string("printed text does not read back: ") + e.message).c_str(), text);
    }
    Root keep(I, w);
    if (!isomorphic(v, w)) fail(cl ? "not isomorphic (CL labels)" : "not isomorphic (LIPQ labels)", text);
    std::string again = print_to_string(I, w, o);
    if (again != text) fail(("printing the copy gives other text:\n" + again).c_str(), text);
    // Cycle-only labels lose sharing but must still read.
    o.shared = false;
    std::string text2 = print_to_string(I, v, o);
    try {
        (void)read_from_string(I, text2);
    } catch (LispError& e) {
        fail((std::string("cycle-only text does not read back: ") + e.message).c_str(), text2);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 4096) return 0;   // larger inputs add nothing the reader target does not cover
    Interp& I = lipq_fuzz::interp();
    std::string_view src(reinterpret_cast<const char*>(data), size);
    try {
        Reader r(I, src, I.file_id("<fuzz>"), false);
        for (int n = 0; n < 64; n++) {
            Value v;
            try {
                v = r.read();
            } catch (LispError&) {
                break;   // not readable: nothing to round-trip
            }
            if (v == END_OF_FILE) break;
            Root keep(I, v);
            check_style(I, v, false);
            check_style(I, v, true);
        }
    } catch (LispError& e) {
        // Only the heap limit may stop a round trip.
        if (e.message.find("heap exhausted") == std::string::npos) fail(e.message.c_str(), "");
    }
    return 0;
}
