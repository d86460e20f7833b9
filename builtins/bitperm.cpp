// bitperm.cpp — bit permutations of non-negative integers used as bit sets,
// the tools for canonicalising a bitboard under a symmetry group natively:
//
//   (bit-permute x perm)      bit i of x goes to bit (aref perm i)
//   (bit-min-image x perms)   the least of x and its images under each perm
//   (bit-indices x)           the list of positions of the 1 bits, ascending
//
// A board of n*n squares numbered r*n+c has its 8 symmetries as 8 vectors of
// n*n square numbers; (bit-min-image a sym7) with the 7 non-identity ones is
// the canonical representative of a under the dihedral group.
#include "bitperm.h"

#include <algorithm>

namespace lipq {

namespace bits {

void parse_perm(Interp& I, const char* who, Value v, std::vector<uint32_t>& out) {
    if (!is_vector(v)) I.type_error(who, "a vector of bit positions", v);
    const auto& items = as_vector(v)->items;
    out.resize(items.size());
    for (size_t i = 0; i < items.size(); i++) {
        Value x = items[i];
        if (!is_fixnum(x) || fixnum_value(x) < 0 || fixnum_value(x) >= (int64_t(1) << 24))
            I.error(std::string(who) + ": a bit position must be a fixnum in 0..2^24-1, got " + I.describe(x));
        out[i] = uint32_t(fixnum_value(x));
    }
}

void parse_perm_set(Interp& I, const char* who, Value perms, PermSet& ps) {
    std::vector<Value> vs;
    if (is_vector(perms)) vs = as_vector(perms)->items;
    else if (is_list(perms)) {
        for (Value p = perms; is_pair(p); p = cdr(p)) vs.push_back(car(p));
    } else I.type_error(who, "a list or vector of permutation vectors", perms);
    ps.count = vs.size();
    ps.nbits = 0;
    ps.img.clear();
    std::vector<uint32_t> one;
    uint32_t maxbit = 0;
    for (size_t t = 0; t < vs.size(); t++) {
        parse_perm(I, who, vs[t], one);
        if (t == 0) ps.nbits = one.size();
        else if (one.size() != ps.nbits)
            I.error(std::string(who) + ": the permutation vectors differ in length");
        for (uint32_t b : one) maxbit = std::max(maxbit, b);
        ps.img.insert(ps.img.end(), one.begin(), one.end());
    }
    size_t top = std::max<size_t>(ps.nbits, size_t(maxbit) + 1);
    ps.words = (top + 63) / 64;
    if (ps.words == 0) ps.words = 1;
}

void min_image_words(const PermSet& ps, const u64* x, u64* dst, u64* scratch) {
    const size_t W = ps.words, T = ps.count, nb = ps.nbits;
    std::memset(scratch, 0, T * W * sizeof(u64));
    for (size_t w = 0; w < W && w * 64 < nb; w++) {
        u64 m = x[w];
        while (m) {
            size_t i = w * 64 + size_t(__builtin_ctzll(m));
            m &= m - 1;
            const uint32_t* p = &ps.img[i];
            for (size_t t = 0; t < T; t++) {
                uint32_t j = p[t * nb];
                scratch[t * W + (j >> 6)] |= u64(1) << (j & 63);
            }
        }
    }
    const u64* best = x;
    for (size_t t = 0; t < T; t++)
        if (compare_words(scratch + t * W, best, W) < 0) best = scratch + t * W;
    std::memcpy(dst, best, W * sizeof(u64));
}

} // namespace bits

namespace {

using bits::u64;

// The words of a non-negative integer argument, at least `min_words` long.
std::vector<u64> arg_words(Interp& I, const char* who, Value v, size_t min_words = 0) {
    int64_t n = bits::word_count(v);
    if (n < 0) I.type_error(who, "a non-negative integer", v);
    std::vector<u64> w(std::max<size_t>(size_t(n), min_words));
    bits::read_words(v, w.data(), w.size());
    return w;
}

size_t highest_bit_plus_one(const std::vector<u64>& w) {
    for (size_t i = w.size(); i-- > 0;)
        if (w[i]) return i * 64 + 64 - size_t(__builtin_clzll(w[i]));
    return 0;
}

void check_fits(Interp& I, const char* who, const std::vector<u64>& w, size_t nbits, Value x) {
    if (highest_bit_plus_one(w) > nbits)
        I.error(std::string(who) + ": " + I.describe(x) + " has a 1 bit beyond the " + std::to_string(nbits) +
                " positions the permutation covers");
}

Value bi_bit_permute(Interp& I, Value* a, int) {
    std::vector<uint32_t> perm;
    bits::parse_perm(I, "bit-permute", a[1], perm);
    std::vector<u64> x = arg_words(I, "bit-permute", a[0]);
    check_fits(I, "bit-permute", x, perm.size(), a[0]);
    uint32_t top = 0;
    for (uint32_t b : perm) top = std::max(top, b);
    std::vector<u64> r(size_t(top) / 64 + 1, 0);
    for (size_t w = 0; w < x.size(); w++) {
        u64 m = x[w];
        while (m) {
            size_t i = w * 64 + size_t(__builtin_ctzll(m));
            m &= m - 1;
            r[perm[i] >> 6] |= u64(1) << (perm[i] & 63);
        }
    }
    return bits::from_words(I, r.data(), r.size());
}

Value bi_bit_min_image(Interp& I, Value* a, int) {
    bits::PermSet ps;
    bits::parse_perm_set(I, "bit-min-image", a[1], ps);
    if (ps.count == 0) {
        if (bits::word_count(a[0]) < 0) I.type_error("bit-min-image", "a non-negative integer", a[0]);
        return a[0];
    }
    std::vector<u64> x = arg_words(I, "bit-min-image", a[0], ps.words);
    check_fits(I, "bit-min-image", x, ps.nbits, a[0]);
    std::vector<u64> dst(ps.words), scratch(ps.count * ps.words);
    bits::min_image_words(ps, x.data(), dst.data(), scratch.data());
    return bits::from_words(I, dst.data(), dst.size());
}

Value bi_bit_indices(Interp& I, Value* a, int) {
    std::vector<u64> x = arg_words(I, "bit-indices", a[0]);
    Root r(I, NIL);
    for (size_t w = x.size(); w-- > 0;) {
        u64 m = x[w];
        while (m) {
            int hi = 63 - __builtin_clzll(m);
            m &= ~(u64(1) << hi);
            r = I.cons(make_fixnum(int64_t(w * 64 + size_t(hi))), r);
        }
    }
    return r;
}

const BuiltinDef bitperm_lib[] = {
    {"bit-permute", bi_bit_permute, 2, 2,
     "(bit-permute x perm): the integer with bit (aref perm i) set for each 1 bit i of the non-negative "
     "integer x; perm is a vector of bit positions covering every 1 bit of x."},
    {"bit-min-image", bi_bit_min_image, 2, 2,
     "(bit-min-image x perms): the least of x and (bit-permute x p) for each p in perms (a list or "
     "vector of equally long permutation vectors): a canonical form of x under a symmetry group."},
    {"bit-indices", bi_bit_indices, 1, 1,
     "(bit-indices x): the positions of the 1 bits of the non-negative integer x, ascending."},
};

} // namespace

void open_bitperm(Interp& I) { register_builtins(I, bitperm_lib); }

} // namespace lipq
