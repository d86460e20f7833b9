// test_number.cpp — the integer tower (interp/number.h): fixnum/bignum
// promotion and demotion, arithmetic against known values, division signs,
// two's-complement bit operations on numbers of any size, radix text.
#include <doctest/doctest.h>

#include "interp/interp.h"
#include "interp/number.h"

#include <string>
#include <string_view>

using namespace lipq;

namespace {

// Parse a decimal (or other radix) literal; the caller roots the result.
Value num(Interp& I, std::string_view s, int radix = 10) {
    Value v = NIL;
    bool ok = parse_integer(I, s, radix, &v);
    REQUIRE_MESSAGE(ok, "could not parse " << std::string(s));
    return v;
}

std::string str(Value v, int radix = 10) { return integer_to_string(v, radix); }

Value fx(int64_t n) { return make_fixnum(n); }

// The message of the LispError thrown by f, or "" if none.
template <class F>
std::string error_of(F f) {
    try {
        f();
    } catch (const LispError& e) {
        return e.message;
    }
    return "";
}

// num_equal(f(), g()) where both may allocate: f's result is rooted while g
// runs (a collection could otherwise free it).
template <class F, class G>
bool same(Interp& I, F f, G g) {
    Root a(I, f());
    Value b = g();
    return num_equal(a, b);
}

// 2^e2 3^e3 k
Value pow23(Interp& I, int64_t e2, int64_t e3, int64_t k) {
    Root a(I, num_expt(I, fx(2), fx(e2)));
    Root b(I, num_expt(I, fx(3), fx(e3)));
    Root ab(I, num_mul(I, a, b));
    return num_mul(I, ab, fx(k));
}

// A small deterministic generator for property checks (local state only).
struct TestRng {
    uint64_t s;
    uint64_t next() {
        s += 0x9e3779b97f4a7c15ULL;
        uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int64_t fixnum() {   // spread over all magnitudes, both signs
        int shift = int(next() % 63);
        int64_t x = int64_t(next() >> 2) >> shift;
        return (next() & 1) ? x : -x - 1;
    }
};

} // namespace

TEST_CASE("number: parsing and printing fixnums") {
    Interp I;
    CHECK(num(I, "0") == fx(0));
    CHECK(num(I, "-0") == fx(0));
    CHECK(num(I, "+17") == fx(17));
    CHECK(num(I, "-17") == fx(-17));
    CHECK(num(I, "007") == fx(7));   // decimal, not octal
    CHECK(num(I, "ff", 16) == fx(255));
    CHECK(num(I, "FF", 16) == fx(255));
    CHECK(num(I, "-101", 2) == fx(-5));
    CHECK(num(I, "zz", 36) == fx(1295));
    CHECK(num(I, "777", 8) == fx(511));

    Value v = NIL;
    for (const char* bad : {"", "+", "-", "12a", "1.5", " 1", "1 ", "--1", "+-1", "1+", "0x10", "1e5"}) {
        CAPTURE(bad);
        CHECK_FALSE(parse_integer(I, bad, 10, &v));
    }
    CHECK_FALSE(parse_integer(I, "2", 2, &v));
    CHECK_FALSE(parse_integer(I, "g", 16, &v));
    CHECK_FALSE(parse_integer(I, "1", 1, &v));
    CHECK_FALSE(parse_integer(I, "1", 37, &v));
    CHECK(v == NIL);   // untouched by failures

    CHECK(str(fx(0)) == "0");
    CHECK(str(fx(-42)) == "-42");
    CHECK(str(fx(255), 16) == "ff");
    CHECK(str(fx(-5), 2) == "-101");
    CHECK(str(fx(1295), 36) == "zz");
    CHECK(str(fx(FIXNUM_MAX)) == "4611686018427387903");
    CHECK(str(fx(FIXNUM_MIN)) == "-4611686018427387904");
}

TEST_CASE("number: parsing and printing bignums in any radix") {
    Interp I;
    Root a(I, num(I, "340282366920938463463374607431768211455"));   // 2^128 - 1
    CHECK(is_bignum(a));
    CHECK(str(a, 16) == "ffffffffffffffffffffffffffffffff");
    CHECK(str(a, 2) == std::string(128, '1'));
    Root b(I, num(I, "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 16));
    CHECK(num_equal(a, b));
    Root c(I, num(I, "-100000000000000000000000000000000", 16));   // -(2^128)
    CHECK(str(c) == "-340282366920938463463374607431768211456");
    CHECK(str(c, 8) == "-4" + std::string(42, '0'));
    CHECK(str(c, 16) == "-1" + std::string(32, '0'));

    // Round trips across radices, with zeros inside the chunks.
    const char* samples[] = {
        "1000000000000000000000000000000000000000000000001",
        "-98765432109876543210987654321098765432109876543210",
        "4611686018427387904",    // FIXNUM_MAX + 1
        "-4611686018427387905",   // FIXNUM_MIN - 1
        "18446744073709551616",   // 2^64
        "-18446744073709551615",
    };
    for (const char* s : samples) {
        Root x(I, num(I, s));
        CHECK(is_bignum(x));
        CHECK(str(x) == s);
        for (int radix : {2, 3, 7, 8, 10, 16, 36}) {
            CAPTURE(s);
            CAPTURE(radix);
            std::string t = str(x, radix);
            Root y(I, num(I, t, radix));
            CHECK(num_equal(x, y));
        }
    }
    CHECK(str(num(I, "36893488147419103232"), 36) == "7sas224c9kxkw");   // 2^65
}

TEST_CASE("number: promotion at the fixnum boundary and demotion back") {
    Interp I;
    Root max(I, fx(FIXNUM_MAX));
    Root min(I, fx(FIXNUM_MIN));

    Root up(I, num_add(I, max, fx(1)));
    CHECK(is_bignum(up));
    CHECK(str(up) == "4611686018427387904");
    Root back(I, num_sub(I, up, fx(1)));
    CHECK(is_fixnum(back));
    CHECK(back.get() == max.get());

    Root down(I, num_sub(I, min, fx(1)));
    CHECK(is_bignum(down));
    CHECK(str(down) == "-4611686018427387905");
    CHECK(num_add(I, down, fx(1)) == min.get());

    CHECK(is_fixnum(num_add(I, max, fx(0))));
    CHECK(is_fixnum(num_add(I, max, min)));
    CHECK(num_add(I, max, min) == fx(-1));
    CHECK(str(num_add(I, max, max)) == "9223372036854775806");
    CHECK(str(num_sub(I, min, max)) == "-9223372036854775807");
    CHECK(str(num_neg(I, min)) == "4611686018427387904");
    CHECK(is_bignum(num_neg(I, min)));
    CHECK(str(num_abs(I, min)) == "4611686018427387904");
    CHECK(num_neg(I, max) == fx(-FIXNUM_MAX));
    CHECK(str(num_quotient(I, min, fx(-1))) == "4611686018427387904");
    CHECK(num_remainder(I, min, fx(-1)) == fx(0));

    Root p(I, num_mul(I, fx(int64_t(1) << 31), fx(int64_t(1) << 31)));   // 2^62
    CHECK(is_bignum(p));
    CHECK(str(p) == "4611686018427387904");
    CHECK(num_mul(I, fx(-(int64_t(1) << 31)), fx(int64_t(1) << 31)) == min.get());   // -2^62 fits
    CHECK(str(num_mul(I, max, max)) == "21267647932558653957237540927630737409");
    CHECK(num_quotient(I, p, fx(2)) == fx(int64_t(1) << 61));

    // Bignum results that fit are always fixnums.
    Root big1(I, num(I, "100000000000000000000000000000"));
    Root big2(I, num(I, "99999999999999999999999999999"));
    Root d(I, num_sub(I, big1, big2));
    CHECK(d.get() == fx(1));
    CHECK(num_quotient(I, big1, big2) == fx(1));
    CHECK(num_sub(I, big1, big1) == fx(0));
    CHECK(num_mul(I, big1, fx(0)) == fx(0));

    Value v = NIL;
    REQUIRE(parse_integer(I, "-4611686018427387904", 10, &v));
    CHECK(v == min.get());
    REQUIRE(parse_integer(I, "4611686018427387903", 10, &v));
    CHECK(v == max.get());
    Value w = NIL;
    REQUIRE(parse_integer(I, "00000000000000000000000000000000000012", 10, &w));
    CHECK(w == fx(12));

    int64_t out = 0;
    CHECK(integer_to_int64(up, &out));
    CHECK(out == FIXNUM_MAX + 1);
    CHECK_FALSE(integer_to_int64(num_mul(I, up, fx(4)), &out));
    CHECK(I.make_int(int64_t(INT64_MIN)) != NIL);
    CHECK(str(I.make_int(INT64_MIN)) == "-9223372036854775808");
    CHECK(I.make_int(BigInt(5)) == fx(5));
}

TEST_CASE("number: products and powers against known values") {
    Interp I;
    Root e(I, num_expt(I, fx(2), fx(200)));
    CHECK(str(e) == "1606938044258990275541962092341162602522202993782792835301376");

    Root a(I, num(I, "123456789012345678901234567890"));
    Root b(I, num(I, "98765432109876543210"));
    CHECK(str(num_mul(I, a, b)) == "12193263113702179522496570642237463801111263526900");
    CHECK(str(num_mul(I, b, a)) == "12193263113702179522496570642237463801111263526900");
    CHECK(str(num_mul(I, num_neg(I, a), b)) == "-12193263113702179522496570642237463801111263526900");
    CHECK(str(num_add(I, a, b)) == "123456789111111111011111111100");
    CHECK(str(num_sub(I, b, a)) == "-123456788913580246791358024680");

    CHECK(num_expt(I, fx(3), fx(0)) == fx(1));
    CHECK(num_expt(I, fx(0), fx(0)) == fx(1));
    CHECK(num_expt(I, fx(0), fx(5)) == fx(0));
    CHECK(num_expt(I, fx(-2), fx(3)) == fx(-8));
    CHECK(num_expt(I, fx(-1), num(I, "100000000000000000000001")) == fx(-1));
    CHECK(num_expt(I, fx(1), num(I, "100000000000000000000001")) == fx(1));
    CHECK(num_expt(I, fx(2), fx(61)) == fx(int64_t(1) << 61));
    CHECK(is_bignum(num_expt(I, fx(2), fx(62))));
    CHECK(num_expt(I, fx(-2), fx(62)) != fx(0));
    CHECK(str(num_expt(I, fx(-2), fx(63))) == "-9223372036854775808");
    CHECK(str(num_expt(I, fx(10), fx(30))) == "1000000000000000000000000000000");
    CHECK(str(num_expt(I, fx(-3), fx(41))) == "-36472996377170786403");
    Root ten30(I, num(I, "1000000000000000000000000000000"));
    CHECK(str(num_expt(I, ten30, fx(2))) == "1" + std::string(60, '0'));
    CHECK(error_of([&] { num_expt(I, fx(2), fx(-1)); }).find("expt") == 0);
    CHECK(error_of([&] { num_expt(I, fx(2), fx(int64_t(1) << 40)); }).find("expt") == 0);
    CHECK(error_of([&] { num_expt(I, fx(2), num(I, "100000000000000000000001")); }).find("expt") == 0);

    // 1000!: 2568 digits whose sum is 10539.
    Root f(I, fx(1));
    for (int i = 2; i <= 1000; ++i) f = num_mul(I, f, fx(i));
    std::string digits = str(f);
    CHECK(digits.size() == 2568);
    int sum = 0;
    for (char ch : digits) sum += ch - '0';
    CHECK(sum == 10539);
    // And dividing it back down demotes to 1.
    for (int i = 1000; i >= 2; --i) f = num_quotient(I, f, fx(i));
    CHECK(f.get() == fx(1));
}

TEST_CASE("number: division signs") {
    Interp I;
    struct Case { int64_t a, b, q, r, m, fl; };
    const Case cases[] = {
        {7, 2, 3, 1, 1, 3},     {-7, 2, -3, -1, 1, -4},  {7, -2, -3, 1, -1, -4},
        {-7, -2, 3, -1, -1, 3}, {6, 3, 2, 0, 0, 2},      {-6, 3, -2, 0, 0, -2},
        {0, 5, 0, 0, 0, 0},     {1, -5, 0, 1, -4, -1},   {-1, 5, 0, -1, 4, -1},
    };
    for (const Case& c : cases) {
        CAPTURE(c.a);
        CAPTURE(c.b);
        CHECK(num_quotient(I, fx(c.a), fx(c.b)) == fx(c.q));
        CHECK(num_remainder(I, fx(c.a), fx(c.b)) == fx(c.r));
        CHECK(num_mod(I, fx(c.a), fx(c.b)) == fx(c.m));
        CHECK(num_floor(I, fx(c.a), fx(c.b)) == fx(c.fl));
    }

    // The same with bignums: a = ±(10^30 + 7), b = ±10^15.
    Root p(I, num(I, "1000000000000000000000000000007"));
    Root n(I, num(I, "-1000000000000000000000000000007"));
    Root d(I, num(I, "1000000000000000"));
    Root nd(I, num(I, "-1000000000000000"));
    CHECK(str(num_quotient(I, p, d)) == "1000000000000000");
    CHECK(str(num_remainder(I, p, d)) == "7");
    CHECK(str(num_quotient(I, n, d)) == "-1000000000000000");
    CHECK(str(num_remainder(I, n, d)) == "-7");
    CHECK(str(num_mod(I, n, d)) == "999999999999993");
    CHECK(str(num_floor(I, n, d)) == "-1000000000000001");
    CHECK(str(num_quotient(I, p, nd)) == "-1000000000000000");
    CHECK(str(num_remainder(I, p, nd)) == "7");
    CHECK(str(num_mod(I, p, nd)) == "-999999999999993");
    CHECK(str(num_mod(I, n, nd)) == "-7");
    CHECK(str(num_floor(I, p, nd)) == "-1000000000000001");
    CHECK(str(num_floor(I, n, nd)) == "1000000000000000");
    // Small dividend, big divisor.
    CHECK(num_quotient(I, fx(-5), p) == fx(0));
    CHECK(num_remainder(I, fx(-5), p) == fx(-5));
    CHECK(str(num_mod(I, fx(-5), p)) == "1000000000000000000000000000002");
    CHECK(num_mod(I, fx(5), p) == fx(5));
    CHECK(num_floor(I, fx(-5), p) == fx(-1));

    CHECK(error_of([&] { num_quotient(I, fx(1), fx(0)); }) == "quotient: division by zero");
    CHECK(error_of([&] { num_quotient(I, p, fx(0), "/"); }) == "/: division by zero");
    CHECK(error_of([&] { num_remainder(I, fx(1), fx(0)); }) == "rem: division by zero");
    CHECK(error_of([&] { num_mod(I, p, fx(0)); }) == "mod: division by zero");
    CHECK(error_of([&] { num_floor(I, fx(0), fx(0)); }) == "floor: division by zero");
}

TEST_CASE("number: comparison and equality") {
    Interp I;
    Root big(I, num(I, "100000000000000000000"));
    Root nbig(I, num(I, "-100000000000000000000"));
    Root big2(I, num(I, "100000000000000000000"));
    CHECK(num_compare(I, fx(1), fx(2)) == -1);
    CHECK(num_compare(I, fx(2), fx(2)) == 0);
    CHECK(num_compare(I, fx(3), fx(2)) == 1);
    CHECK(num_compare(I, fx(FIXNUM_MAX), big) == -1);
    CHECK(num_compare(I, big, fx(FIXNUM_MAX)) == 1);
    CHECK(num_compare(I, nbig, fx(FIXNUM_MIN)) == -1);
    CHECK(num_compare(I, fx(FIXNUM_MIN), nbig) == 1);
    CHECK(num_compare(I, nbig, big) == -1);
    CHECK(num_compare(I, big, big2) == 0);
    CHECK(big.get() != big2.get());   // distinct objects ...
    CHECK(num_equal(big, big2));      // ... equal numbers
    CHECK(num_hash(big) == num_hash(big2));
    CHECK_FALSE(num_equal(big, nbig));
    CHECK_FALSE(num_equal(big, fx(1)));
    CHECK(num_equal(fx(5), fx(5)));
    CHECK(num_sign(nbig) == -1);
    CHECK(num_sign(fx(0)) == 0);
    CHECK(num_sign(big) == 1);
    CHECK(num_oddp(fx(-3)));
    CHECK_FALSE(num_oddp(fx(-4)));
    CHECK(num_oddp(num(I, "-100000000000000000001")));
    CHECK_FALSE(num_oddp(nbig));
}

TEST_CASE("number: type errors name the function") {
    Interp I;
    Root foo(I, I.intern("foo"));
    CHECK(error_of([&] { num_add(I, foo, fx(1)); }).find("+: not an integer") == 0);
    CHECK(error_of([&] { num_add(I, fx(1), foo, "plus"); }).find("plus: not an integer") == 0);
    CHECK(error_of([&] { num_mul(I, foo, fx(1)); }).find("*: not an integer") == 0);
    CHECK(error_of([&] { num_compare(I, fx(1), foo); }).find("<: not an integer") == 0);
    CHECK(error_of([&] { num_logand(I, foo, fx(1)); }).find("logand: not an integer") == 0);
    CHECK(error_of([&] { num_quotient(I, foo, fx(0)); }).find("quotient: not an integer") == 0);
    CHECK(error_of([&] { num_isqrt(I, fx(-4)); }).find("isqrt") == 0);
    CHECK(error_of([&] { num_logbitp(I, fx(-1), fx(4)); }).find("logbitp") == 0);
    CHECK(error_of([&] { num_neg(I, NIL); }).find("-: not an integer") == 0);
}

TEST_CASE("number: gcd, lcm, isqrt") {
    Interp I;
    CHECK(num_gcd(I, fx(-12), fx(18)) == fx(6));
    CHECK(num_gcd(I, fx(0), fx(0)) == fx(0));
    CHECK(num_gcd(I, fx(0), fx(-7)) == fx(7));
    CHECK(str(num_gcd(I, fx(FIXNUM_MIN), fx(0))) == "4611686018427387904");
    CHECK(num_lcm(I, fx(4), fx(-6)) == fx(12));
    CHECK(num_lcm(I, fx(0), fx(6)) == fx(0));

    // gcd(2^100 3^50, 2^80 3^70 5) = 2^80 3^50
    Root x(I, pow23(I, 100, 50, 1));
    Root y(I, pow23(I, 80, 70, 5));
    Root g(I, pow23(I, 80, 50, 1));
    CHECK(num_equal(num_gcd(I, x, y), g));
    CHECK(num_equal(num_gcd(I, num_neg(I, x), y), g));
    // lcm = 2^100 3^70 5
    Root l(I, pow23(I, 100, 70, 5));
    CHECK(num_equal(num_lcm(I, x, y), l));
    // Consecutive Fibonacci numbers are coprime.
    Root f1(I, fx(1)), f2(I, fx(1));
    for (int i = 0; i < 300; ++i) {
        Root t(I, num_add(I, f1, f2));
        f1 = f2.get();
        f2 = t.get();
    }
    CHECK(is_bignum(f2));
    CHECK(num_gcd(I, f1, f2) == fx(1));
    CHECK(num_gcd(I, fx(12), num(I, "1000000000000000000000000000002")) == fx(6));

    CHECK(num_isqrt(I, fx(0)) == fx(0));
    CHECK(num_isqrt(I, fx(1)) == fx(1));
    CHECK(num_isqrt(I, fx(15)) == fx(3));
    CHECK(num_isqrt(I, fx(16)) == fx(4));
    CHECK(num_isqrt(I, fx(FIXNUM_MAX)) == fx(2147483647));
    CHECK(num_isqrt(I, fx(int64_t(2147483647) * 2147483647)) == fx(2147483647));
    CHECK(num_isqrt(I, fx(int64_t(2147483647) * 2147483647 - 1)) == fx(2147483646));
    CHECK(num_isqrt(I, fx(int64_t(2147483647) * 2147483647 + 2 * int64_t(2147483647))) == fx(2147483647));
    Root h(I, num_expt(I, fx(10), fx(100)));
    CHECK(str(num_isqrt(I, h)) == "1" + std::string(50, '0'));
    CHECK(str(num_isqrt(I, num_sub(I, h, fx(1)))) == std::string(50, '9'));
    CHECK(num_isqrt(I, num(I, "4611686018427387904")) == fx(int64_t(1) << 31));   // 2^62
    Root two(I, num_mul(I, fx(2), num_expt(I, fx(10), fx(200))));
    CHECK(str(num_isqrt(I, two)) ==   // floor(sqrt(2) 10^100)
          "14142135623730950488016887242096980785696718753769480731766797379907324784621070388503875343276415727");
    Root r(I, num_isqrt(I, two));
    CHECK(num_compare(I, num_mul(I, r, r), two) <= 0);
    Root r1(I, num_add(I, r, fx(1)));
    CHECK(num_compare(I, num_mul(I, r1, r1), two) > 0);
}

TEST_CASE("number: bit operations on fixnums, Common Lisp semantics") {
    Interp I;
    CHECK(num_logand(I, fx(-1), fx(12345)) == fx(12345));
    CHECK(num_logand(I, fx(12), fx(10)) == fx(8));
    CHECK(num_logior(I, fx(12), fx(10)) == fx(14));
    CHECK(num_logxor(I, fx(12), fx(10)) == fx(6));
    CHECK(num_logand(I, fx(-8), fx(15)) == fx(8));
    CHECK(num_logior(I, fx(-8), fx(3)) == fx(-5));
    CHECK(num_logxor(I, fx(-1), fx(5)) == fx(-6));
    CHECK(num_lognot(I, fx(0)) == fx(-1));
    CHECK(num_lognot(I, fx(-1)) == fx(0));
    CHECK(num_lognot(I, fx(FIXNUM_MAX)) == fx(FIXNUM_MIN));
    CHECK(num_ash(I, fx(-5), fx(-1)) == fx(-3));
    CHECK(num_ash(I, fx(5), fx(-1)) == fx(2));
    CHECK(num_ash(I, fx(-1), fx(-100)) == fx(-1));
    CHECK(num_ash(I, fx(1), fx(-100)) == fx(0));
    CHECK(num_ash(I, fx(3), fx(4)) == fx(48));
    CHECK(num_ash(I, fx(-3), fx(4)) == fx(-48));
    CHECK(num_ash(I, fx(0), fx(1000000)) == fx(0));
    CHECK(num_ash(I, fx(7), num(I, "-100000000000000000000")) == fx(0));
    CHECK(num_ash(I, fx(-7), num(I, "-100000000000000000000")) == fx(-1));
    CHECK(str(num_ash(I, fx(1), fx(62))) == "4611686018427387904");
    CHECK(num_ash(I, fx(-1), fx(62)) == fx(FIXNUM_MIN));
    CHECK(str(num_ash(I, fx(-3), fx(100))) == "-3802951800684688204490109616128");
    CHECK(error_of([&] { num_ash(I, fx(1), fx(int64_t(1) << 40)); }).find("ash") == 0);
    CHECK(num_logcount(I, fx(-1)) == 0);
    CHECK(num_logcount(I, fx(0)) == 0);
    CHECK(num_logcount(I, fx(255)) == 8);
    CHECK(num_logcount(I, fx(-256)) == 8);
    CHECK(num_logcount(I, fx(13)) == 3);
    CHECK(num_logcount(I, fx(-13)) == 2);   // -13 = ...10011
    CHECK(num_integer_length(I, fx(-1)) == 0);
    CHECK(num_integer_length(I, fx(0)) == 0);
    CHECK(num_integer_length(I, fx(1)) == 1);
    CHECK(num_integer_length(I, fx(255)) == 8);
    CHECK(num_integer_length(I, fx(256)) == 9);
    CHECK(num_integer_length(I, fx(-256)) == 8);
    CHECK(num_integer_length(I, fx(-257)) == 9);
    CHECK(num_integer_length(I, fx(FIXNUM_MAX)) == 62);
    CHECK(num_integer_length(I, fx(FIXNUM_MIN)) == 62);
    CHECK(num_logbitp(I, fx(0), fx(5)));
    CHECK_FALSE(num_logbitp(I, fx(1), fx(5)));
    CHECK(num_logbitp(I, fx(100), fx(-1)));
    CHECK_FALSE(num_logbitp(I, fx(100), fx(1)));
    CHECK(num_logbitp(I, num(I, "100000000000000000000"), fx(-5)));
    CHECK_FALSE(num_logbitp(I, fx(1), fx(-3)));   // -3 = ...101
    CHECK(num_logbitp(I, fx(2), fx(-3)));
}

TEST_CASE("number: bit operations on bignums, Common Lisp semantics") {
    Interp I;
    Root p100(I, num_expt(I, fx(2), fx(100)));
    Root p101(I, num_expt(I, fx(2), fx(101)));
    Root m(I, num_sub(I, p101, fx(1)));   // 2^101 - 1
    // (logand (- (expt 2 100)) (1- (expt 2 101))) = 2^100
    CHECK(num_equal(num_logand(I, num_neg(I, p100), m), p100));
    CHECK(num_equal(num_logand(I, fx(-1), p100), p100));
    CHECK(num_equal(num_logand(I, p100, fx(-1)), p100));
    CHECK(num_logand(I, p100, fx(12345)) == fx(0));
    CHECK(num_logand(I, num_neg(I, p100), fx(12345)) == fx(0));
    CHECK(num_logand(I, num_sub(I, p100, fx(1)), fx(-4)) != fx(0));
    CHECK(same(I, [&] { return num_lognot(I, p100); }, [&] { return num_sub(I, num_neg(I, p100), fx(1)); }));
    CHECK(num_logior(I, num_neg(I, p100), m) == fx(-1));
    // ...11 1 (100 zeros) ^ ...00 1 (100 ones) = ...11 0 (100 ones) = -2^100 - 1
    CHECK(same(I, [&] { return num_logxor(I, num_neg(I, p100), m); }, [&] { return num_lognot(I, p100); }));
    CHECK(num_integer_length(I, p100) == 101);
    CHECK(num_integer_length(I, num_neg(I, p100)) == 100);
    CHECK(num_integer_length(I, num_sub(I, num_neg(I, p100), fx(1))) == 101);
    CHECK(num_logcount(I, m) == 101);
    CHECK(num_logcount(I, num_neg(I, p100)) == 100);   // ~(-2^100) = 2^100 - 1
    CHECK(num_logbitp(I, fx(100), p100));
    CHECK_FALSE(num_logbitp(I, fx(99), p100));
    CHECK(num_logbitp(I, fx(100), num_neg(I, p100)));
    CHECK(num_logbitp(I, fx(1000), num_neg(I, p100)));
    CHECK_FALSE(num_logbitp(I, fx(99), num_neg(I, p100)));
    CHECK(num_ash(I, p100, fx(-100)) == fx(1));
    CHECK(num_ash(I, num_neg(I, p100), fx(-100)) == fx(-1));
    CHECK(num_ash(I, num_sub(I, num_neg(I, p100), fx(1)), fx(-100)) == fx(-2));   // floor
    CHECK(num_ash(I, num_add(I, num_neg(I, p100), fx(1)), fx(-100)) == fx(-1));
    CHECK(num_ash(I, num_neg(I, p100), fx(-101)) == fx(-1));
    CHECK(num_ash(I, num_neg(I, p100), fx(-5000)) == fx(-1));
    CHECK(num_ash(I, p100, fx(-5000)) == fx(0));
    CHECK(num_equal(num_ash(I, fx(1), fx(100)), p100));
    CHECK(num_equal(num_ash(I, p100, fx(1)), p101));

    // Property check: with k = 100 and 0 <= p, q < 2^k, the integer
    // x 2^k + p has the bits of x above the bits of p, so
    //   op(x 2^k + p, y 2^k + q) = op(x, y) 2^k + op(p, q)
    // checks the bignum paths against the fixnum ones for every sign.
    TestRng rng{12345};
    Root K(I, fx(100));
    for (int iter = 0; iter < 300; ++iter) {
        int64_t x = rng.fixnum(), y = rng.fixnum(), pl = rng.fixnum(), ql = rng.fixnum();
        if (pl < 0) pl = -(pl + 1);
        if (ql < 0) ql = -(ql + 1);
        CAPTURE(x);
        CAPTURE(y);
        Root P(I, num_add(I, num_ash(I, fx(pl), fx(38)), fx(ql & 0x3fffffffff)));   // < 2^100
        Root Q(I, num_add(I, num_ash(I, fx(ql), fx(38)), fx(pl & 0x3fffffffff)));
        Root X(I, num_add(I, num_ash(I, fx(x), K), P));
        Root Y(I, num_add(I, num_ash(I, fx(y), K), Q));
        auto combine = [&](Value hi, Value lo) { return num_add(I, num_ash(I, hi, K), lo); };
        {
            Root lo(I, num_logand(I, P, Q));
            CHECK(same(I, [&] { return num_logand(I, X, Y); }, [&] { return combine(num_logand(I, fx(x), fx(y)), lo); }));
        }
        {
            Root lo(I, num_logior(I, P, Q));
            CHECK(same(I, [&] { return num_logior(I, X, Y); }, [&] { return combine(num_logior(I, fx(x), fx(y)), lo); }));
        }
        {
            Root lo(I, num_logxor(I, P, Q));
            CHECK(same(I, [&] { return num_logxor(I, X, Y); }, [&] { return combine(num_logxor(I, fx(x), fx(y)), lo); }));
        }
        {
            Root lo(I, num_sub(I, num_sub(I, num_ash(I, fx(1), K), fx(1)), P));   // 2^k - 1 - p
            CHECK(same(I, [&] { return num_lognot(I, X); }, [&] { return combine(num_lognot(I, fx(x)), lo); }));
        }
        CHECK(num_ash(I, X, num_neg(I, K)) == fx(x));
        int64_t s = int64_t(rng.next() % 90);
        Root twos(I, num_expt(I, fx(2), fx(s)));
        CHECK(same(I, [&] { return num_ash(I, X, fx(-s)); }, [&] { return num_floor(I, X, twos); }));
        CHECK(same(I, [&] { return num_ash(I, X, fx(s)); }, [&] { return num_mul(I, X, twos); }));
        int64_t pc = num_logcount(I, P);
        CHECK(num_logcount(I, X) == num_logcount(I, fx(x)) + (x < 0 ? 100 - pc : pc));
        if (x != 0 && x != -1) CHECK(num_integer_length(I, X) == num_integer_length(I, fx(x)) + 100);
        int64_t bit = int64_t(rng.next() % 170);
        bool expect = bit >= 100 ? num_logbitp(I, fx(bit - 100), fx(x)) : num_logbitp(I, fx(bit), P);
        CHECK(num_logbitp(I, fx(bit), X) == expect);
        // Fixnum paths agree with C++'s two's complement.
        CHECK(num_logand(I, fx(x), fx(y)) == fx(x & y));
        CHECK(num_logior(I, fx(x), fx(y)) == fx(x | y));
        CHECK(num_logxor(I, fx(x), fx(y)) == fx(x ^ y));
    }
}

TEST_CASE("number: arithmetic identities across the boundary") {
    Interp I;
    TestRng rng{777};
    for (int iter = 0; iter < 500; ++iter) {
        int64_t x = rng.fixnum(), y = rng.fixnum();
        CAPTURE(x);
        CAPTURE(y);
        Root X(I, fx(x)), Y(I, fx(y));
        Root s(I, num_add(I, X, Y));
        CHECK(str(s) == (BigInt(x) + y).str());
        CHECK(num_sub(I, s, Y) == X.get());
        Root d(I, num_sub(I, X, Y));
        CHECK(str(d) == (BigInt(x) - y).str());
        CHECK(num_add(I, d, Y) == X.get());
        Root p(I, num_mul(I, X, Y));
        CHECK(str(p) == (BigInt(x) * y).str());
        if (y != 0) {
            CHECK(num_quotient(I, p, Y) == X.get());
            CHECK(num_remainder(I, p, Y) == fx(0));
            Root q(I, num_quotient(I, X, Y));
            Root r(I, num_remainder(I, X, Y));
            CHECK(num_add(I, num_mul(I, q, Y), r) == X.get());
            Root f(I, num_floor(I, X, Y));
            Root mo(I, num_mod(I, X, Y));
            CHECK(num_add(I, num_mul(I, f, Y), mo) == X.get());
            CHECK((num_sign(mo) == 0 || num_sign(mo) == num_sign(Y)));
        }
        CHECK(num_compare(I, X, Y) == (x < y ? -1 : x > y ? 1 : 0));
        int c = (BigInt(x) * y).compare(BigInt(x) + y);
        CHECK(num_compare(I, p, s) == (c > 0) - (c < 0));
    }
}
