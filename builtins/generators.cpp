// generators.cpp — permutations and combinations of a list, as lists or one
// call per arrangement (the seed's permutation(fn, n, xs)), plus bit helpers
// on integers used as bit vectors.
//
//   (permutations list [k])        all k-permutations (default k = length),
//                                  in lexicographic order of positions
//   (map-permutations f list [k])  (f perm) for each, a fresh list each time; the count
//   (combinations list k)          all k-subsets, in lexicographic order of positions
//   (map-combinations f list k)    (f comb) for each; the count
//   (bit-set x i) (bit-clear x i) (bit-flip x i) (lowest-bit x) (bit-positions x)
#include "search_common.h"

#include "../interp/number.h"

#include <vector>

namespace lipq {

namespace {

// The elements, copied into a Lisp vector (so that a callback that changes
// the list cannot free them).
Value elements_vector(Interp& I, const char* fn, Value list) {
    int64_t n = list_length(I, list, fn);
    Value v = I.make_vector(size_t(n), NIL);
    auto& items = as_vector(v)->items;
    size_t i = 0;
    for (Value l = list; is_pair(l); l = cdr(l)) items[i++] = car(l);
    return v;
}

Value list_of_indices(Interp& I, Value vec, const std::vector<size_t>& idx, size_t k) {
    Root l(I, NIL);
    for (size_t i = k; i-- > 0;) l = I.cons(as_vector(vec)->items[idx[i]], l);
    return l;
}

// Enumerate k-permutations of n positions in lexicographic order, calling
// emit(idx) for each. Iterative: idx[l] is the position chosen at level l.
template <class Emit>
void each_permutation(Interp& I, size_t n, size_t k, Emit emit) {
    if (k > n) return;
    std::vector<size_t> idx(k + 1, 0);
    std::vector<char> used(n, 0);
    if (k == 0) { emit(idx); return; }
    const size_t NONE = size_t(-1);
    idx[0] = NONE;
    size_t l = 0;
    for (;;) {
        size_t j = idx[l] == NONE ? 0 : idx[l] + 1;
        if (idx[l] != NONE) used[idx[l]] = 0;
        while (j < n && used[j]) j++;
        if (j == n) {
            idx[l] = NONE;
            if (l == 0) return;
            l--;
            continue;
        }
        idx[l] = j;
        used[j] = 1;
        if (l + 1 == k) {
            I.poll();
            emit(idx);
        } else {
            l++;
            idx[l] = NONE;
        }
    }
}

template <class Emit>
void each_combination(Interp& I, size_t n, size_t k, Emit emit) {
    if (k > n) return;
    std::vector<size_t> c(k);
    for (size_t i = 0; i < k; i++) c[i] = i;
    for (;;) {
        I.poll();
        emit(c);
        size_t i = k;
        while (i > 0 && c[i - 1] == n - k + (i - 1)) i--;
        if (i == 0) return;
        c[i - 1]++;
        for (size_t j = i; j < k; j++) c[j] = c[j - 1] + 1;
    }
}

size_t arg_k(Interp& I, const char* fn, Value* a, int n, int at, size_t dflt) {
    if (n <= at || (is_nil(a[at]) && n > at)) return dflt;
    return size_t(arg_index(I, fn, a[at]));
}

Value bi_permutations(Interp& I, Value* a, int n) {
    Root vec(I, elements_vector(I, "permutations", a[0]));
    size_t len = as_vector(vec)->items.size();
    size_t k = arg_k(I, "permutations", a, n, 1, len);
    Root out(I, NIL);
    each_permutation(I, len, k, [&](const std::vector<size_t>& idx) {
        Value p = list_of_indices(I, vec, idx, k);
        out = I.cons(p, out);
    });
    return nreverse_list(out);
}

Value bi_map_permutations(Interp& I, Value* a, int n) {
    Value f = arg_function(I, "map-permutations", a[0]);
    Root vec(I, elements_vector(I, "map-permutations", a[1]));
    size_t len = as_vector(vec)->items.size();
    size_t k = arg_k(I, "map-permutations", a, n, 2, len);
    int64_t count = 0;
    each_permutation(I, len, k, [&](const std::vector<size_t>& idx) {
        Value p = list_of_indices(I, vec, idx, k);
        fcall1(I, f, p);
        count++;
    });
    return I.make_int(count);
}

Value bi_combinations(Interp& I, Value* a, int) {
    Root vec(I, elements_vector(I, "combinations", a[0]));
    size_t len = as_vector(vec)->items.size();
    size_t k = size_t(arg_index(I, "combinations", a[1]));
    Root out(I, NIL);
    each_combination(I, len, k, [&](const std::vector<size_t>& idx) {
        Value p = list_of_indices(I, vec, idx, k);
        out = I.cons(p, out);
    });
    return nreverse_list(out);
}

Value bi_map_combinations(Interp& I, Value* a, int) {
    Value f = arg_function(I, "map-combinations", a[0]);
    Root vec(I, elements_vector(I, "map-combinations", a[1]));
    size_t len = as_vector(vec)->items.size();
    size_t k = size_t(arg_index(I, "map-combinations", a[2]));
    int64_t count = 0;
    each_combination(I, len, k, [&](const std::vector<size_t>& idx) {
        Value p = list_of_indices(I, vec, idx, k);
        fcall1(I, f, p);
        count++;
    });
    return I.make_int(count);
}

// ---- integers as bit vectors -----------------------------------------------------------

Value bit_mask(Interp& I, const char* fn, Value index) {
    if (!is_fixnum(index) || fixnum_value(index) < 0) I.type_error(fn, "a non-negative bit index", index);
    if (fixnum_value(index) > (int64_t(1) << 24)) I.error(std::string(fn) + ": bit index too large");
    return num_ash(I, make_fixnum(1), index, fn);
}

Value bi_bit_set(Interp& I, Value* a, int) {
    check_integer(I, "bit-set", a[0]);
    Root m(I, bit_mask(I, "bit-set", a[1]));
    return num_logior(I, a[0], m, "bit-set");
}
Value bi_bit_clear(Interp& I, Value* a, int) {
    check_integer(I, "bit-clear", a[0]);
    Root m(I, bit_mask(I, "bit-clear", a[1]));
    m = num_lognot(I, m, "bit-clear");
    return num_logand(I, a[0], m, "bit-clear");
}
Value bi_bit_flip(Interp& I, Value* a, int) {
    check_integer(I, "bit-flip", a[0]);
    Root m(I, bit_mask(I, "bit-flip", a[1]));
    return num_logxor(I, a[0], m, "bit-flip");
}
// (lowest-bit x) = (logand x (- x)): the lowest set bit of x as a number (0 for 0).
Value bi_lowest_bit(Interp& I, Value* a, int) {
    check_integer(I, "lowest-bit", a[0]);
    if (is_fixnum(a[0])) {
        int64_t x = fixnum_value(a[0]);
        if (x != FIXNUM_MIN) return make_fixnum(x & -x);
    }
    Root neg(I, num_neg(I, a[0], "lowest-bit"));
    return num_logand(I, a[0], neg, "lowest-bit");
}
// (bit-positions x): the indices of the 1 bits of x >= 0, lowest first.
Value bi_bit_positions(Interp& I, Value* a, int) {
    check_integer(I, "bit-positions", a[0]);
    if (num_sign(a[0]) < 0) I.type_error("bit-positions", "a non-negative integer", a[0]);
    std::vector<int64_t> pos;
    if (is_fixnum(a[0])) {
        uint64_t x = uint64_t(fixnum_value(a[0]));
        while (x) {
            pos.push_back(__builtin_ctzll(x));
            x &= x - 1;
        }
    } else {
        int64_t len = num_integer_length(I, a[0], "bit-positions");
        for (int64_t i = 0; i < len; i++)
            if (num_logbitp(I, make_fixnum(i), a[0], "bit-positions")) pos.push_back(i);
    }
    Root l(I, NIL);
    for (size_t i = pos.size(); i-- > 0;) l = I.cons(make_fixnum(pos[i]), l);
    return l;
}

const BuiltinDef generators_lib[] = {
    {"permutations", bi_permutations, 1, 2,
     "(permutations list [k]): all k-permutations of list (default: all of it), in lexicographic order of positions."},
    {"map-permutations", bi_map_permutations, 2, 3,
     "(map-permutations f list [k]): call (f perm) on each k-permutation (a fresh list each time); returns the count."},
    {"combinations", bi_combinations, 2, 2,
     "(combinations list k): all k-element subsets of list, in lexicographic order of positions."},
    {"map-combinations", bi_map_combinations, 3, 3,
     "(map-combinations f list k): call (f comb) on each k-element subset; returns the count."},
    {"bit-set", bi_bit_set, 2, 2, "(bit-set x i): x with bit i set."},
    {"bit-clear", bi_bit_clear, 2, 2, "(bit-clear x i): x with bit i cleared."},
    {"bit-flip", bi_bit_flip, 2, 2, "(bit-flip x i): x with bit i inverted."},
    {"lowest-bit", bi_lowest_bit, 1, 1, "(lowest-bit x): (logand x (- x)), the lowest 1 bit of x (0 for 0)."},
    {"bit-positions", bi_bit_positions, 1, 1, "(bit-positions x): the indices of the 1 bits of x >= 0, lowest first."},
};

} // namespace

void open_generators(Interp& I) { register_builtins(I, generators_lib); }

} // namespace lipq
