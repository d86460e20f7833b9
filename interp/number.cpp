// number.cpp — generic integer arithmetic (see number.h).
//
// Shape of every operation: a fast path for two fixnums using the compiler's
// overflow-checking builtins, then a slow path on BigInt views of the
// operands (a fixnum is widened into a small local BigInt, which needs no
// heap memory; a bignum is used in place, not copied), and `normalize` to
// turn the result back into a fixnum when it fits.
//
// cpp_int stores sign and magnitude, so its &, |, ^, >> do not give two's
// complement results on negative numbers. The bit operations below only
// apply them to non-negative numbers and reach the negative cases through
// lognot: for x < 0, ~x = -x - 1 >= 0.
#include "number.h"

#include <boost/multiprecision/integer.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <numeric>

namespace lipq {

namespace mp = boost::multiprecision;

namespace {

// Results larger than this many bits are refused (expt, ash) rather than
// attempted: 2^30 bits is 128 MiB for a single number.
constexpr int64_t MAX_RESULT_BITS = int64_t(1) << 30;

[[noreturn]] void division_by_zero(Interp& I, const char* who) {
    I.error(std::string(who) + ": division by zero");
}

[[noreturn]] void too_large(Interp& I, const char* who) {
    I.error(std::string(who) + ": result too large");
}

inline const BigInt& big(Value v) { return as_bignum(v)->n; }

// A read-only BigInt view of an integer Value, without copying bignums.
class BigView {
public:
    explicit BigView(Value v) {
        if (is_fixnum(v)) {
            tmp_ = fixnum_value(v);
            p_ = &tmp_;
        } else {
            p_ = &as_bignum(v)->n;
        }
    }
    BigView(const BigView&) = delete;
    BigView& operator=(const BigView&) = delete;
    const BigInt& operator*() const { return *p_; }
    const BigInt* operator->() const { return p_; }
private:
    BigInt tmp_;
    const BigInt* p_;
};

inline void check2(Interp& I, const char* who, Value a, Value b) {
    if (!is_integer(a)) I.type_error(who, "an integer", a);
    if (!is_integer(b)) I.type_error(who, "an integer", b);
}

// ---- BigInt helpers with two's-complement semantics ----

inline BigInt big_not(const BigInt& x) { return -x - 1; }

BigInt big_and(const BigInt& a, const BigInt& b) {
    bool na = a.sign() < 0, nb = b.sign() < 0;
    if (!na && !nb) return a & b;
    if (na && nb) return big_not(BigInt(big_not(a) | big_not(b)));   // ~(~a | ~b)
    const BigInt& p = na ? b : a;        // the non-negative one
    BigInt cn = big_not(na ? a : b);     // ~(the negative one), >= 0
    return p - (p & cn);                 // p & ~cn
}

BigInt big_ior(const BigInt& a, const BigInt& b) {
    bool na = a.sign() < 0, nb = b.sign() < 0;
    if (!na && !nb) return a | b;
    if (na && nb) return big_not(BigInt(big_not(a) & big_not(b)));   // ~(~a & ~b)
    const BigInt& p = na ? b : a;
    BigInt cn = big_not(na ? a : b);
    return big_not(BigInt(cn - (cn & p)));   // p | ~cn = ~(cn & ~p)
}

BigInt big_xor(const BigInt& a, const BigInt& b) {
    bool na = a.sign() < 0, nb = b.sign() < 0;
    if (!na && !nb) return a ^ b;
    if (na && nb) return big_not(a) ^ big_not(b);   // ~a ^ ~b
    const BigInt& p = na ? b : a;
    BigInt cn = big_not(na ? a : b);
    return big_not(BigInt(p ^ cn));   // p ^ ~cn = ~(p ^ cn)
}

// Number of bits in the magnitude of a non-negative x (0 for 0).
int64_t big_bit_length(const BigInt& x) {
    if (x.is_zero()) return 0;
    return int64_t(mp::msb(x)) + 1;
}

// CL integer-length: bits needed in two's complement, excluding the sign.
int64_t big_integer_length(const BigInt& x) {
    if (x.sign() < 0) return big_bit_length(big_not(x));
    return big_bit_length(x);
}

int64_t fix_integer_length(int64_t x) {
    uint64_t u = uint64_t(x < 0 ? ~x : x);
    return u == 0 ? 0 : 64 - std::countl_zero(u);
}

int64_t big_popcount(const BigInt& x) {   // x >= 0
    int64_t c = 0;
    const auto& be = x.backend();
    auto limbs = be.limbs();
    for (size_t i = 0; i < be.size(); ++i) c += std::popcount(limbs[i]);
    return c;
}

int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

// The largest k with radix^k < 2^64, and radix^k.
void chunk_for_radix(int radix, int* k, uint64_t* power) {
    uint64_t p = 1;
    int n = 0;
    for (;;) {
        uint64_t next;
        if (__builtin_mul_overflow(p, uint64_t(radix), &next)) break;
        p = next;
        ++n;
    }
    *k = n;
    *power = p;
}

// floor(sqrt(x)) for 0 <= x <= FIXNUM_MAX (so r <= 2^31 and r*r cannot overflow).
int64_t fix_isqrt(int64_t x) {
    int64_t r = int64_t(std::sqrt(double(x)));
    while (r > 0 && r * r > x) --r;
    while ((r + 1) * (r + 1) <= x) ++r;
    return r;
}

} // namespace

// ---- conversions ------------------------------------------------------------

BigInt to_bigint(Value v) {
    if (is_fixnum(v)) return BigInt(fixnum_value(v));
    return big(v);
}

Value normalize(Interp& I, BigInt&& n) {
    if (n.backend().size() <= 1 && n >= FIXNUM_MIN && n <= FIXNUM_MAX)
        return make_fixnum(n.convert_to<int64_t>());
    size_t limb_bytes = n.backend().size() * sizeof(mp::limb_type);
    Value v = obj_value(I.heap.make<Bignum>(std::move(n)));
    I.heap.note_bytes(limb_bytes);   // the limbs live outside the object
    return v;
}

Value normalize(Interp& I, const BigInt& n) { return normalize(I, BigInt(n)); }

Value Interp::make_int(int64_t n) {
    if (fits_fixnum(n)) return make_fixnum(n);
    return obj_value(heap.make<Bignum>(BigInt(n)));
}

Value Interp::make_int(const BigInt& n) { return normalize(*this, n); }

void check_integer(Interp& I, const char* who, Value v) {
    if (!is_integer(v)) I.type_error(who, "an integer", v);
}

bool integer_to_int64(Value v, int64_t* out) {
    if (is_fixnum(v)) {
        *out = fixnum_value(v);
        return true;
    }
    if (!is_bignum(v)) return false;   // not an integer at all (found by UBSan: game-solve's :order score)
    const BigInt& n = big(v);
    if (n >= INT64_MIN && n <= INT64_MAX) {
        *out = n.convert_to<int64_t>();
        return true;
    }
    return false;
}

int num_sign(Value v) {
    if (is_fixnum(v)) {
        int64_t x = fixnum_value(v);
        return (x > 0) - (x < 0);
    }
    return big(v).sign();
}

bool num_oddp(Value v) {
    if (is_fixnum(v)) return fixnum_value(v) & 1;
    const BigInt& n = big(v);   // sign and magnitude: the low limb gives the parity
    return n.backend().limbs()[0] & 1;
}

size_t num_hash(Value v) {
    if (is_fixnum(v)) return std::hash<Value>()(v);
    const auto& be = big(v).backend();
    uint64_t h = be.sign() ? 0x9e3779b97f4a7c15ULL : 0x7f4a7c159e3779b9ULL;
    auto limbs = be.limbs();
    for (size_t i = 0; i < be.size(); ++i) {
        h ^= uint64_t(limbs[i]) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    }
    return std::hash<Value>()(Value(h));
}

// ---- arithmetic ---------------------------------------------------------------

Value num_add(Interp& I, Value a, Value b, const char* who) {
    if (is_fixnum(a) && is_fixnum(b)) [[likely]] {
        // (2x+1) + 2y = 2(x+y)+1: overflows int64 exactly when x+y leaves
        // the fixnum range.
        int64_t r;
        if (!__builtin_add_overflow(int64_t(a.raw), int64_t(b.raw - 1), &r)) return Value(uint64_t(r));
        return I.make_int(fixnum_value(a) + fixnum_value(b));   // fits int64
    }
    check2(I, who, a, b);
    BigView x(a), y(b);
    return normalize(I, BigInt(*x + *y));
}

Value num_sub(Interp& I, Value a, Value b, const char* who) {
    if (is_fixnum(a) && is_fixnum(b)) [[likely]] {
        int64_t r;
        if (!__builtin_sub_overflow(int64_t(a.raw), int64_t(b.raw - 1), &r)) return Value(uint64_t(r));
        return I.make_int(fixnum_value(a) - fixnum_value(b));
    }
    check2(I, who, a, b);
    BigView x(a), y(b);
    return normalize(I, BigInt(*x - *y));
}

Value num_mul(Interp& I, Value a, Value b, const char* who) {
    if (is_fixnum(a) && is_fixnum(b)) [[likely]] {
        int64_t r;
        if (!__builtin_mul_overflow(fixnum_value(a), fixnum_value(b), &r)) return I.make_int(r);
        BigInt p = fixnum_value(a);
        p *= fixnum_value(b);
        return normalize(I, std::move(p));
    }
    check2(I, who, a, b);
    BigView x(a), y(b);
    return normalize(I, BigInt(*x * *y));
}

Value num_neg(Interp& I, Value a, const char* who) {
    if (is_fixnum(a)) return I.make_int(-fixnum_value(a));   // -2^62 negates to a bignum
    check_integer(I, who, a);
    return normalize(I, BigInt(-big(a)));
}

Value num_abs(Interp& I, Value a, const char* who) {
    if (is_fixnum(a)) {
        int64_t x = fixnum_value(a);
        return x < 0 ? I.make_int(-x) : a;
    }
    check_integer(I, who, a);
    return big(a).sign() < 0 ? normalize(I, BigInt(-big(a))) : a;
}

Value num_quotient(Interp& I, Value a, Value b, const char* who) {
    check2(I, who, a, b);
    if (num_sign(b) == 0) division_by_zero(I, who);
    if (is_fixnum(a) && is_fixnum(b)) return I.make_int(fixnum_value(a) / fixnum_value(b));
    BigView x(a), y(b);
    return normalize(I, BigInt(*x / *y));   // cpp_int division truncates
}

Value num_remainder(Interp& I, Value a, Value b, const char* who) {
    check2(I, who, a, b);
    if (num_sign(b) == 0) division_by_zero(I, who);
    if (is_fixnum(a) && is_fixnum(b)) return make_fixnum(fixnum_value(a) % fixnum_value(b));
    BigView x(a), y(b);
    return normalize(I, BigInt(*x % *y));   // sign of the dividend
}

Value num_mod(Interp& I, Value a, Value b, const char* who) {
    check2(I, who, a, b);
    if (num_sign(b) == 0) division_by_zero(I, who);
    if (is_fixnum(a) && is_fixnum(b)) {
        int64_t y = fixnum_value(b);
        int64_t r = fixnum_value(a) % y;
        if (r != 0 && ((r < 0) != (y < 0))) r += y;
        return make_fixnum(r);
    }
    BigView x(a), y(b);
    BigInt r = *x % *y;
    if (!r.is_zero() && ((r.sign() < 0) != (y->sign() < 0))) r += *y;
    return normalize(I, std::move(r));
}

Value num_floor(Interp& I, Value a, Value b, const char* who) {
    check2(I, who, a, b);
    if (num_sign(b) == 0) division_by_zero(I, who);
    if (is_fixnum(a) && is_fixnum(b)) {
        int64_t x = fixnum_value(a), y = fixnum_value(b);
        int64_t q = x / y, r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) --q;
        return I.make_int(q);
    }
    BigView x(a), y(b);
    BigInt q, r;
    mp::divide_qr(*x, *y, q, r);
    if (!r.is_zero() && ((r.sign() < 0) != (y->sign() < 0))) --q;
    return normalize(I, std::move(q));
}

// ---- comparison ---------------------------------------------------------------

int num_compare(Interp& I, Value a, Value b, const char* who) {
    if (is_fixnum(a) && is_fixnum(b)) [[likely]] {
        int64_t x = fixnum_value(a), y = fixnum_value(b);
        return (x > y) - (x < y);
    }
    check2(I, who, a, b);
    int c;
    if (is_fixnum(a)) c = -big(b).compare(fixnum_value(a));
    else if (is_fixnum(b)) c = big(a).compare(fixnum_value(b));
    else c = big(a).compare(big(b));
    return (c > 0) - (c < 0);
}

bool num_equal(Value a, Value b) {
    if (a == b) return true;
    if (is_fixnum(a) && is_fixnum(b)) return false;
    // Normalized bignums never equal fixnums, but compare honestly anyway.
    if (is_fixnum(a)) return big(b) == fixnum_value(a);
    if (is_fixnum(b)) return big(a) == fixnum_value(b);
    return big(a) == big(b);
}

// ---- number theory -------------------------------------------------------------

Value num_gcd(Interp& I, Value a, Value b, const char* who) {
    check2(I, who, a, b);
    if (is_fixnum(a) && is_fixnum(b)) {
        int64_t x = fixnum_value(a), y = fixnum_value(b);
        uint64_t g = std::gcd(uint64_t(x < 0 ? -x : x), uint64_t(y < 0 ? -y : y));
        return I.make_int(int64_t(g));   // at most 2^62
    }
    BigView x(a), y(b);
    BigInt g = mp::gcd(BigInt(abs(*x)), BigInt(abs(*y)));
    return normalize(I, std::move(g));
}

Value num_lcm(Interp& I, Value a, Value b, const char* who) {
    check2(I, who, a, b);
    if (num_sign(a) == 0 || num_sign(b) == 0) return make_fixnum(0);
    if (is_fixnum(a) && is_fixnum(b)) {
        int64_t x = fixnum_value(a), y = fixnum_value(b);
        uint64_t ux = uint64_t(x < 0 ? -x : x), uy = uint64_t(y < 0 ? -y : y);
        uint64_t g = std::gcd(ux, uy), r;
        if (!__builtin_mul_overflow(ux / g, uy, &r) && r <= uint64_t(INT64_MAX)) return I.make_int(int64_t(r));
    }
    BigView x(a), y(b);
    BigInt ax = abs(*x), ay = abs(*y);
    BigInt g = mp::gcd(ax, ay);
    BigInt r = (ax / g) * ay;
    return normalize(I, std::move(r));
}

Value num_expt(Interp& I, Value base, Value e, const char* who) {
    check2(I, who, base, e);
    if (num_sign(e) < 0) I.error(std::string(who) + ": negative exponent: " + I.describe(e));
    if (is_fixnum(base)) {
        int64_t b = fixnum_value(base);
        if (b == 0) return make_fixnum(num_sign(e) == 0 ? 1 : 0);
        if (b == 1) return make_fixnum(1);
        if (b == -1) return make_fixnum(num_oddp(e) ? -1 : 1);
    }
    if (!is_fixnum(e)) too_large(I, who);
    int64_t n = fixnum_value(e);
    if (n == 0) return make_fixnum(1);
    if (n == 1) return base;
    // |base| >= 2, so the result has at least (length(|base|) - 1) * n + 1 bits.
    int64_t len = is_fixnum(base) ? fix_integer_length(fixnum_value(base) < 0 ? -fixnum_value(base) : fixnum_value(base))
                                  : big_bit_length(abs(big(base)));
    if (n > MAX_RESULT_BITS / (len - 1)) too_large(I, who);
    if (is_fixnum(base)) {
        // Square and multiply in 64 bits while nothing overflows.
        int64_t result = 1, sq = fixnum_value(base);
        uint64_t k = uint64_t(n);
        bool ok = true;
        for (;;) {
            if (k & 1) {
                if (__builtin_mul_overflow(result, sq, &result)) { ok = false; break; }
            }
            k >>= 1;
            if (!k) break;
            if (__builtin_mul_overflow(sq, sq, &sq)) { ok = false; break; }
        }
        if (ok) return I.make_int(result);
    }
    BigView x(base);
    return normalize(I, BigInt(mp::pow(*x, unsigned(n))));
}

Value num_isqrt(Interp& I, Value a, const char* who) {
    check_integer(I, who, a);
    if (num_sign(a) < 0) I.type_error(who, "a non-negative integer", a);
    if (is_fixnum(a)) return make_fixnum(fix_isqrt(fixnum_value(a)));
    BigInt r = mp::sqrt(big(a));   // integer square root, rounded down
    return normalize(I, std::move(r));
}

// ---- bits ---------------------------------------------------------------------

Value num_logand(Interp& I, Value a, Value b, const char* who) {
    if (is_fixnum(a) && is_fixnum(b)) return Value(a.raw & b.raw);   // tag bit survives
    check2(I, who, a, b);
    BigView x(a), y(b);
    return normalize(I, big_and(*x, *y));
}

Value num_logior(Interp& I, Value a, Value b, const char* who) {
    if (is_fixnum(a) && is_fixnum(b)) return Value(a.raw | b.raw);
    check2(I, who, a, b);
    BigView x(a), y(b);
    return normalize(I, big_ior(*x, *y));
}

Value num_logxor(Interp& I, Value a, Value b, const char* who) {
    if (is_fixnum(a) && is_fixnum(b)) return Value((a.raw ^ b.raw) | 1);
    check2(I, who, a, b);
    BigView x(a), y(b);
    return normalize(I, big_xor(*x, *y));
}

Value num_lognot(Interp& I, Value a, const char* who) {
    if (is_fixnum(a)) return make_fixnum(~fixnum_value(a));
    check_integer(I, who, a);
    return normalize(I, big_not(big(a)));
}

Value num_ash(Interp& I, Value a, Value count, const char* who) {
    check2(I, who, a, count);
    int sa = num_sign(a);
    if (sa == 0) return make_fixnum(0);
    if (!is_fixnum(count)) {
        if (num_sign(count) < 0) return make_fixnum(sa < 0 ? -1 : 0);
        too_large(I, who);
    }
    int64_t s = fixnum_value(count);
    if (s == 0) return a;
    if (s > 0) {
        // integer-length + s <= 62 is exactly "the result is a fixnum".
        if (is_fixnum(a) && s <= 62 && fix_integer_length(fixnum_value(a)) + s <= 62)
            return make_fixnum(fixnum_value(a) * (int64_t(1) << s));
        int64_t len = is_fixnum(a) ? fix_integer_length(fixnum_value(a)) : big_integer_length(big(a));
        if (s > MAX_RESULT_BITS - len) too_large(I, who);
        BigView x(a);
        BigInt mag = abs(*x);
        mag <<= unsigned(s);
        if (sa < 0) mag = -mag;
        return normalize(I, std::move(mag));
    }
    int64_t t = -s;   // s >= -2^62, so no overflow
    if (is_fixnum(a)) {
        int64_t x = fixnum_value(a);
        return make_fixnum(t >= 63 ? (x < 0 ? -1 : 0) : (x >> t));   // arithmetic shift
    }
    const BigInt& x = big(a);
    if (t >= big_integer_length(x)) return make_fixnum(sa < 0 ? -1 : 0);
    if (sa > 0) return normalize(I, BigInt(x >> unsigned(t)));
    // floor(x / 2^t) for x < 0 is ~(~x >> t).
    BigInt c = big_not(x);
    c >>= unsigned(t);
    return normalize(I, big_not(c));
}

int64_t num_logcount(Interp& I, Value a, const char* who) {
    if (is_fixnum(a)) {
        int64_t x = fixnum_value(a);
        return std::popcount(uint64_t(x < 0 ? ~x : x));
    }
    check_integer(I, who, a);
    const BigInt& x = big(a);
    return x.sign() < 0 ? big_popcount(big_not(x)) : big_popcount(x);
}

int64_t num_integer_length(Interp& I, Value a, const char* who) {
    if (is_fixnum(a)) return fix_integer_length(fixnum_value(a));
    check_integer(I, who, a);
    return big_integer_length(big(a));
}

bool num_logbitp(Interp& I, Value index, Value a, const char* who) {
    check2(I, who, index, a);
    if (num_sign(index) < 0) I.type_error(who, "a non-negative integer", index);
    bool neg = num_sign(a) < 0;
    if (!is_fixnum(index)) return neg;   // beyond every stored bit: the sign
    int64_t i = fixnum_value(index);
    if (is_fixnum(a)) {
        int64_t x = fixnum_value(a);
        return i >= 63 ? neg : ((x >> i) & 1);
    }
    const BigInt& x = big(a);
    if (i >= big_integer_length(x)) return neg;
    if (!neg) return mp::bit_test(x, unsigned(i));
    return !mp::bit_test(big_not(x), unsigned(i));
}

// ---- text ---------------------------------------------------------------------

bool parse_integer(Interp& I, std::string_view s, int radix, Value* out) {
    if (radix < 2 || radix > 36) return false;
    size_t i = 0;
    bool neg = false;
    if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        i = 1;
    }
    if (i == s.size()) return false;
    for (size_t j = i; j < s.size(); ++j)
        if (digit_value(s[j]) >= radix) return false;

    // Most literals fit in 64 bits.
    uint64_t acc = 0;
    bool overflow = false;
    for (size_t j = i; j < s.size(); ++j) {
        if (__builtin_mul_overflow(acc, uint64_t(radix), &acc) ||
            __builtin_add_overflow(acc, uint64_t(digit_value(s[j])), &acc)) {
            overflow = true;
            break;
        }
    }
    if (!overflow) {
        if (!neg && acc <= uint64_t(FIXNUM_MAX)) {
            *out = make_fixnum(int64_t(acc));
            return true;
        }
        if (neg && acc <= uint64_t(FIXNUM_MAX) + 1) {
            *out = make_fixnum(-int64_t(acc));
            return true;
        }
        BigInt n = acc;
        if (neg) n = -n;
        *out = normalize(I, std::move(n));
        return true;
    }

    // Long literals: take the digits in chunks that fit in a 64-bit word.
    int k;
    uint64_t chunk_power;
    chunk_for_radix(radix, &k, &chunk_power);
    size_t ndigits = s.size() - i;
    size_t first = ndigits % size_t(k);
    if (first == 0) first = size_t(k);
    BigInt n = 0;
    size_t j = i;
    size_t len = first;
    while (j < s.size()) {
        uint64_t chunk = 0, mult = 1;
        for (size_t e = j + len; j < e; ++j) {
            chunk = chunk * uint64_t(radix) + uint64_t(digit_value(s[j]));
            mult *= uint64_t(radix);
        }
        n *= mult;
        n += chunk;
        len = size_t(k);
    }
    if (neg) n = -n;
    *out = normalize(I, std::move(n));
    return true;
}

std::string integer_to_string(Value v, int radix) {
    if (radix < 2 || radix > 36) radix = 10;
    if (is_fixnum(v)) {
        char buf[72];
        auto res = std::to_chars(buf, buf + sizeof buf, fixnum_value(v), radix);
        return std::string(buf, res.ptr);
    }
    const BigInt& x = big(v);
    if (radix == 10) return x.str();

    // Peel off chunks of k digits (the remainder of dividing by radix^k),
    // least significant first.
    int k;
    uint64_t chunk_power;
    chunk_for_radix(radix, &k, &chunk_power);
    BigInt m = abs(x), q, r;
    const BigInt divisor = chunk_power;
    std::string out;   // reversed digits
    static constexpr char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    while (!m.is_zero()) {
        mp::divide_qr(m, divisor, q, r);
        uint64_t c = r.convert_to<uint64_t>();
        m.swap(q);
        for (int d = 0; d < k; ++d) {
            if (m.is_zero() && c == 0) break;   // no leading zeros in the top chunk
            out.push_back(digits[c % uint64_t(radix)]);
            c /= uint64_t(radix);
        }
    }
    if (x.sign() < 0) out.push_back('-');
    std::reverse(out.begin(), out.end());
    return out;
}

} // namespace lipq
