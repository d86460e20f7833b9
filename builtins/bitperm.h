// bitperm.h — limb-level access to non-negative integers, shared by
// bitperm.cpp (bit permutations) and game.cpp (the game-tree solver).
//
// A non-negative lipq integer is read as little-endian 64-bit words
// (fixnum: one word; bignum: boost cpp_int limbs, read in place) and an
// integer is rebuilt from words without going through arithmetic.
#pragma once
#include "builtins.h"
#include "../interp/number.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace lipq::bits {

using u64 = uint64_t;
static_assert(sizeof(boost::multiprecision::limb_type) == sizeof(u64), "64-bit limbs expected");

// Number of 64-bit words needed for the non-negative integer v (0 for 0),
// or -1 when v is not a non-negative integer.
inline int64_t word_count(Value v) {
    if (is_fixnum(v)) {
        int64_t x = fixnum_value(v);
        return x < 0 ? -1 : (x ? 1 : 0);
    }
    if (!is_bignum(v)) return -1;
    const BigInt& b = as_bignum(v)->n;
    if (b.sign() < 0) return -1;
    return int64_t(b.backend().size());
}

// Copies the words of the non-negative integer v into out[0..n), zero-padding
// (the caller has checked word_count(v) <= n).
inline void read_words(Value v, u64* out, size_t n) {
    if (n == 0) return;   // out may be null (an empty std::vector's data())
    std::memset(out, 0, n * sizeof(u64));
    if (is_fixnum(v)) {
        if (n) out[0] = u64(fixnum_value(v));
        return;
    }
    const BigInt& b = as_bignum(v)->n;
    size_t k = b.backend().size();
    if (k > n) k = n;
    std::memcpy(out, b.backend().limbs(), k * sizeof(u64));   // n > 0, so k > 0
}

// The integer whose words are w[0..n).
inline Value from_words(Interp& I, const u64* w, size_t n) {
    while (n && !w[n - 1]) n--;
    if (n == 0) return make_fixnum(0);
    if (n == 1 && w[0] <= u64(FIXNUM_MAX)) return make_fixnum(int64_t(w[0]));
    BigInt b;
    b.backend().resize(unsigned(n), unsigned(n));
    std::memcpy(b.backend().limbs(), w, n * sizeof(u64));
    b.backend().normalize();
    return normalize(I, std::move(b));
}

inline int popcount_words(const u64* w, size_t n) {
    int c = 0;
    for (size_t i = 0; i < n; i++) c += __builtin_popcountll(w[i]);
    return c;
}

// Compare as unsigned integers: -1, 0, 1.
inline int compare_words(const u64* a, const u64* b, size_t n) {
    for (size_t i = n; i-- > 0;)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

// A list of bit permutations (each a vector of bit images) parsed once.
struct PermSet {
    size_t nbits = 0;                 // every permutation covers bits 0..nbits-1
    size_t count = 0;
    std::vector<uint32_t> img;        // img[t * nbits + i] = image of bit i under perm t
    size_t words = 0;                 // words holding bits 0..nbits-1 and every image
};

// Parses a vector of non-negative fixnums (the image of each bit).
void parse_perm(Interp& I, const char* who, Value v, std::vector<uint32_t>& out);
// Parses a list or vector of such vectors (all of the same length).
void parse_perm_set(Interp& I, const char* who, Value perms, PermSet& ps);
// dst[0..ps.words) = the least of x and its images under every permutation.
// x has ps.words words, no bit at or beyond ps.nbits (the caller checks);
// scratch holds ps.count * ps.words words.
void min_image_words(const PermSet& ps, const u64* x, u64* dst, u64* scratch);

} // namespace lipq::bits
