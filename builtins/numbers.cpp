// numbers.cpp — integer builtins: LISP 1.6 names (plus, difference, times,
// quotient, remainder, add1, sub1, greaterp, lessp, minus ...) and the
// Common Lisp ones (+ - * / mod rem 1+ 1- = < ...). All arithmetic goes
// through interp/number.h; integers are the only numbers.
//
// `/` and `quotient` truncate toward zero (there are no ratios): (/ 7 2) is
// 3, and (/ x) is an error unless x is 1 or -1.
//
// random keeps its state in the special variable *random-state*, a cons of
// two 32-bit fixnums that random updates in place, so each interpreter has
// its own generator (and a fixed initial seed, for reproducible runs).
#include "builtins.h"
#include "../interp/number.h"

#include <chrono>
#include <string>

namespace lipq {

// ---- argument helpers (declared in builtins.h) ----------------------------------

int64_t arg_fixnum(Interp& I, const char* fn, Value v) {
    if (!is_fixnum(v)) I.type_error(fn, "a fixnum", v);
    return fixnum_value(v);
}

int64_t arg_index(Interp& I, const char* fn, Value v) {
    if (!is_fixnum(v) || fixnum_value(v) < 0) I.type_error(fn, "a non-negative fixnum", v);
    return fixnum_value(v);
}

namespace {

Value check_int(Interp& I, const char* who, Value v) {
    if (!is_integer(v)) I.type_error(who, "an integer", v);
    return v;
}

void check_all(Interp& I, const char* who, Value* args, int n) {
    for (int i = 0; i < n; ++i) check_int(I, who, args[i]);
}

int arg_radix(Interp& I, const char* who, Value* args, int nargs, int pos) {
    if (nargs <= pos || is_nil(args[pos])) return 10;
    int64_t r = arg_fixnum(I, who, args[pos]);
    if (r < 2 || r > 36) I.error(std::string(who) + ": radix must be between 2 and 36: " + std::to_string(r));
    return int(r);
}

// ---- + - * / ----
// The sums and products accumulate in a machine word while they fit and then
// in one BigInt, so a long argument list allocates only its result.

Value add_impl(Interp& I, Value* args, int n, const char* who) {
    int64_t acc = 0;
    int i = 0;
    for (; i < n; ++i) {
        Value v = args[i];
        if (!is_fixnum(v)) break;
        int64_t r;
        if (__builtin_add_overflow(acc, fixnum_value(v), &r)) break;
        acc = r;
    }
    if (i == n) return I.make_int(acc);
    BigInt sum = acc;
    for (; i < n; ++i) {
        Value v = check_int(I, who, args[i]);
        if (is_fixnum(v)) sum += fixnum_value(v);
        else sum += as_bignum(v)->n;
    }
    return normalize(I, std::move(sum));
}

Value mul_impl(Interp& I, Value* args, int n, const char* who) {
    int64_t acc = 1;
    int i = 0;
    for (; i < n; ++i) {
        Value v = args[i];
        if (!is_fixnum(v)) break;
        int64_t r;
        if (__builtin_mul_overflow(acc, fixnum_value(v), &r)) break;
        acc = r;
    }
    if (i == n) return I.make_int(acc);
    BigInt prod = acc;
    for (; i < n; ++i) {
        Value v = check_int(I, who, args[i]);
        if (is_fixnum(v)) prod *= fixnum_value(v);
        else prod *= as_bignum(v)->n;
    }
    return normalize(I, std::move(prod));
}

Value sub_impl(Interp& I, Value* args, int n, const char* who) {
    if (n == 1) return num_neg(I, args[0], who);
    check_all(I, who, args, n);
    // a - (b + c + ...): the subtrahends are summed like +.
    Value acc = args[0];
    for (int i = 1; i < n; ++i) acc = num_sub(I, acc, args[i], who);   // acc is read before allocating
    return acc;
}

Value div_impl(Interp& I, Value* args, int n, const char* who) {
    check_all(I, who, args, n);
    if (n == 1) {
        Value x = args[0];
        if (num_sign(x) == 0) I.error(std::string(who) + ": division by zero");
        if (x == make_fixnum(1) || x == make_fixnum(-1)) return x;
        I.error(std::string(who) + ": the reciprocal of " + I.describe(x) + " is not an integer");
    }
    Value acc = args[0];
    for (int i = 1; i < n; ++i) acc = num_quotient(I, acc, args[i], who);
    return acc;
}

Value bi_add(Interp& I, Value* a, int n) { return add_impl(I, a, n, "+"); }
Value bi_plus(Interp& I, Value* a, int n) { return add_impl(I, a, n, "plus"); }
Value bi_mul(Interp& I, Value* a, int n) { return mul_impl(I, a, n, "*"); }
Value bi_times(Interp& I, Value* a, int n) { return mul_impl(I, a, n, "times"); }
Value bi_sub(Interp& I, Value* a, int n) { return sub_impl(I, a, n, "-"); }
Value bi_difference(Interp& I, Value* a, int n) { return sub_impl(I, a, n, "difference"); }
Value bi_div(Interp& I, Value* a, int n) { return div_impl(I, a, n, "/"); }
Value bi_quotient(Interp& I, Value* a, int n) { return div_impl(I, a, n, "quotient"); }

Value bi_rem(Interp& I, Value* a, int) { return num_remainder(I, a[0], a[1], "rem"); }
Value bi_remainder(Interp& I, Value* a, int) { return num_remainder(I, a[0], a[1], "remainder"); }
Value bi_mod(Interp& I, Value* a, int) { return num_mod(I, a[0], a[1], "mod"); }
Value bi_floor(Interp& I, Value* a, int n) {
    check_int(I, "floor", a[0]);
    if (n < 2) return a[0];
    return num_floor(I, a[0], a[1], "floor");
}

Value bi_1plus(Interp& I, Value* a, int) { return num_add(I, check_int(I, "1+", a[0]), make_fixnum(1), "1+"); }
Value bi_add1(Interp& I, Value* a, int) { return num_add(I, check_int(I, "add1", a[0]), make_fixnum(1), "add1"); }
Value bi_1minus(Interp& I, Value* a, int) { return num_sub(I, check_int(I, "1-", a[0]), make_fixnum(1), "1-"); }
Value bi_sub1(Interp& I, Value* a, int) { return num_sub(I, check_int(I, "sub1", a[0]), make_fixnum(1), "sub1"); }
Value bi_minus(Interp& I, Value* a, int) { return num_neg(I, a[0], "minus"); }
Value bi_abs(Interp& I, Value* a, int) { return num_abs(I, a[0], "abs"); }
Value bi_signum(Interp& I, Value* a, int) { return make_fixnum(num_sign(check_int(I, "signum", a[0]))); }

// ---- comparisons ----

template <class Ok>
Value compare_chain(Interp& I, Value* args, int n, const char* who, Ok ok) {
    check_all(I, who, args, n);
    for (int i = 0; i + 1 < n; ++i)
        if (!ok(num_compare(I, args[i], args[i + 1], who))) return NIL;
    return I.sym.t;
}

Value bi_num_eq(Interp& I, Value* a, int n) { return compare_chain(I, a, n, "=", [](int c) { return c == 0; }); }
Value bi_lt(Interp& I, Value* a, int n) { return compare_chain(I, a, n, "<", [](int c) { return c < 0; }); }
Value bi_gt(Interp& I, Value* a, int n) { return compare_chain(I, a, n, ">", [](int c) { return c > 0; }); }
Value bi_le(Interp& I, Value* a, int n) { return compare_chain(I, a, n, "<=", [](int c) { return c <= 0; }); }
Value bi_ge(Interp& I, Value* a, int n) { return compare_chain(I, a, n, ">=", [](int c) { return c >= 0; }); }
Value bi_lessp(Interp& I, Value* a, int n) { return compare_chain(I, a, n, "lessp", [](int c) { return c < 0; }); }
Value bi_greaterp(Interp& I, Value* a, int n) { return compare_chain(I, a, n, "greaterp", [](int c) { return c > 0; }); }

Value bi_num_ne(Interp& I, Value* a, int n) {
    check_all(I, "/=", a, n);
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (num_equal(a[i], a[j])) return NIL;
    return I.sym.t;
}

Value extremum(Interp& I, Value* a, int n, const char* who, int want) {
    check_all(I, who, a, n);
    Value best = a[0];
    for (int i = 1; i < n; ++i)
        if (num_compare(I, a[i], best, who) == want) best = a[i];
    return best;
}
Value bi_max(Interp& I, Value* a, int n) { return extremum(I, a, n, "max", 1); }
Value bi_min(Interp& I, Value* a, int n) { return extremum(I, a, n, "min", -1); }

// ---- predicates ----

Value bi_zerop(Interp& I, Value* a, int) { return bool_value(I, num_sign(check_int(I, "zerop", a[0])) == 0); }
Value bi_plusp(Interp& I, Value* a, int) { return bool_value(I, num_sign(check_int(I, "plusp", a[0])) > 0); }
Value bi_minusp(Interp& I, Value* a, int) { return bool_value(I, num_sign(check_int(I, "minusp", a[0])) < 0); }
Value bi_oddp(Interp& I, Value* a, int) { return bool_value(I, num_oddp(check_int(I, "oddp", a[0]))); }
Value bi_evenp(Interp& I, Value* a, int) { return bool_value(I, !num_oddp(check_int(I, "evenp", a[0]))); }
Value bi_integerp(Interp& I, Value* a, int) { return bool_value(I, is_integer(a[0])); }
Value bi_fixnump(Interp& I, Value* a, int) { return bool_value(I, is_fixnum(a[0])); }
Value bi_bignump(Interp& I, Value* a, int) { return bool_value(I, is_bignum(a[0])); }

// ---- number theory ----

Value bi_gcd(Interp& I, Value* a, int n) {
    check_all(I, "gcd", a, n);
    if (n == 0) return make_fixnum(0);
    Value acc = num_abs(I, a[0], "gcd");
    for (int i = 1; i < n; ++i) acc = num_gcd(I, acc, a[i], "gcd");
    return acc;
}

Value bi_lcm(Interp& I, Value* a, int n) {
    check_all(I, "lcm", a, n);
    if (n == 0) return make_fixnum(1);
    Value acc = num_abs(I, a[0], "lcm");
    for (int i = 1; i < n; ++i) acc = num_lcm(I, acc, a[i], "lcm");
    return acc;
}

Value bi_expt(Interp& I, Value* a, int) { return num_expt(I, a[0], a[1], "expt"); }
Value bi_isqrt(Interp& I, Value* a, int) { return num_isqrt(I, a[0], "isqrt"); }

// ---- bits ----

Value bi_logand(Interp& I, Value* a, int n) {
    check_all(I, "logand", a, n);
    Value acc = make_fixnum(-1);
    for (int i = 0; i < n; ++i) acc = num_logand(I, acc, a[i], "logand");
    return acc;
}

Value bi_logior(Interp& I, Value* a, int n) {
    check_all(I, "logior", a, n);
    Value acc = make_fixnum(0);
    for (int i = 0; i < n; ++i) acc = num_logior(I, acc, a[i], "logior");
    return acc;
}

Value bi_logxor(Interp& I, Value* a, int n) {
    check_all(I, "logxor", a, n);
    Value acc = make_fixnum(0);
    for (int i = 0; i < n; ++i) acc = num_logxor(I, acc, a[i], "logxor");
    return acc;
}

Value bi_lognot(Interp& I, Value* a, int) { return num_lognot(I, a[0], "lognot"); }
Value bi_ash(Interp& I, Value* a, int) { return num_ash(I, a[0], a[1], "ash"); }
Value bi_logcount(Interp& I, Value* a, int) { return make_fixnum(num_logcount(I, a[0], "logcount")); }
Value bi_integer_length(Interp& I, Value* a, int) {
    return make_fixnum(num_integer_length(I, a[0], "integer-length"));
}
Value bi_logbitp(Interp& I, Value* a, int) { return bool_value(I, num_logbitp(I, a[0], a[1], "logbitp")); }

// ---- text ----

Value bi_number_to_string(Interp& I, Value* a, int n) {
    check_int(I, "number-to-string", a[0]);
    int radix = arg_radix(I, "number-to-string", a, n, 1);
    return I.make_string(integer_to_string(a[0], radix));
}

Value bi_string_to_number(Interp& I, Value* a, int n) {
    const std::string& s = arg_string(I, "string-to-number", a[0]);
    int radix = arg_radix(I, "string-to-number", a, n, 1);
    size_t b = s.find_first_not_of(" \t\r\n\f\v");
    if (b == std::string::npos) return NIL;
    size_t e = s.find_last_not_of(" \t\r\n\f\v");
    std::string digits = s.substr(b, e - b + 1);   // copy: parsing may allocate
    Value out = NIL;
    if (!parse_integer(I, digits, radix, &out)) return NIL;
    return out;
}

// ---- random ----
// splitmix64 over a 64-bit state kept as (hi . lo), two 32-bit fixnums.

constexpr const char* RANDOM_STATE = "*random-state*";
constexpr uint64_t DEFAULT_SEED = 0x1f2e3d4c5b6a7988ULL;

uint64_t splitmix_scramble(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

Value make_state(Interp& I, uint64_t s) {
    return I.cons(make_fixnum(int64_t(s >> 32)), make_fixnum(int64_t(s & 0xffffffffu)));
}

bool valid_state(Value st) {
    if (!is_pair(st)) return false;
    Value hi = car(st), lo = cdr(st);
    return is_fixnum(hi) && is_fixnum(lo) && fixnum_value(hi) >= 0 && fixnum_value(hi) <= 0xffffffffLL &&
           fixnum_value(lo) >= 0 && fixnum_value(lo) <= 0xffffffffLL;
}

class Rng {
public:
    Rng(Interp& I, const char* who) {
        st_ = I.global(I.intern(RANDOM_STATE));
        if (!valid_state(st_)) I.error(std::string(who) + ": *random-state* is not a random state");
        s_ = (uint64_t(fixnum_value(car(st_))) << 32) | uint64_t(fixnum_value(cdr(st_)));
    }
    uint64_t next() {
        s_ += 0x9e3779b97f4a7c15ULL;
        return splitmix_scramble(s_);
    }
    // Writes the state back (no allocation: the cons is updated in place).
    // Called before anything that may allocate.
    void save() {
        set_car(st_, make_fixnum(int64_t(s_ >> 32)));
        set_cdr(st_, make_fixnum(int64_t(s_ & 0xffffffffu)));
    }
private:
    Value st_;
    uint64_t s_;
};

Value bi_random(Interp& I, Value* a, int) {
    Value lim = a[0];
    if (!is_integer(lim) || num_sign(lim) <= 0) I.type_error("random", "a positive integer", lim);
    Rng rng(I, "random");
    if (is_fixnum(lim)) {
        uint64_t n = uint64_t(fixnum_value(lim));
        uint64_t bound = UINT64_MAX - UINT64_MAX % n;   // reject the uneven tail
        uint64_t x;
        do x = rng.next(); while (x >= bound);
        rng.save();
        return make_fixnum(int64_t(x % n));
    }
    const BigInt& n = as_bignum(lim)->n;
    int64_t bits = num_integer_length(I, lim, "random");
    int64_t words = (bits + 63) / 64;
    int top_bits = int(bits - (words - 1) * 64);
    BigInt r;
    do {   // uniform on [0, 2^bits), below n with probability > 1/2
        r = 0;
        for (int64_t w = 0; w < words; ++w) {
            uint64_t x = rng.next();
            if (w == 0 && top_bits < 64) x &= (uint64_t(1) << top_bits) - 1;
            r <<= 64;
            r += x;
        }
    } while (r >= n);
    rng.save();
    return normalize(I, std::move(r));
}

Value bi_make_random_state(Interp& I, Value* a, int n) {
    Value arg = n > 0 ? a[0] : NIL;
    uint64_t seed;
    if (is_nil(arg)) {
        Value st = I.global(I.intern(RANDOM_STATE));
        if (!valid_state(st)) I.error("make-random-state: *random-state* is not a random state");
        seed = (uint64_t(fixnum_value(car(st))) << 32) | uint64_t(fixnum_value(cdr(st)));
    } else if (arg == I.sym.t) {
        seed = splitmix_scramble(uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                                 uint64_t(reinterpret_cast<uintptr_t>(&I)));
    } else if (is_integer(arg)) {
        BigInt m = to_bigint(arg);
        seed = splitmix_scramble(uint64_t(m.convert_to<int64_t>()) ^ DEFAULT_SEED);
        if (is_bignum(arg)) seed ^= splitmix_scramble(std::hash<std::string>()(m.str()));
    } else if (valid_state(arg)) {
        seed = (uint64_t(fixnum_value(car(arg))) << 32) | uint64_t(fixnum_value(cdr(arg)));
    } else {
        I.type_error("make-random-state", "a random state, an integer, t or nil", arg);
    }
    return make_state(I, seed);
}

const BuiltinDef number_lib[] = {
    // LISP 1.6
    {"plus", bi_plus, 0, -1, "(plus n ...): the sum of the integers n (0 with none)."},
    {"difference", bi_difference, 1, -1, "(difference n m ...): n minus the m's; with one argument, -n."},
    {"times", bi_times, 0, -1, "(times n ...): the product of the integers n (1 with none)."},
    {"quotient", bi_quotient, 1, -1, "(quotient n m ...): n divided by each m, truncating toward zero."},
    {"remainder", bi_remainder, 2, 2, "(remainder n m): the remainder of (quotient n m); it has the sign of n."},
    {"add1", bi_add1, 1, 1, "(add1 n): n + 1."},
    {"sub1", bi_sub1, 1, 1, "(sub1 n): n - 1."},
    {"minus", bi_minus, 1, 1, "(minus n): -n."},
    {"greaterp", bi_greaterp, 1, -1, "(greaterp n m ...): t if the integers are strictly decreasing."},
    {"lessp", bi_lessp, 1, -1, "(lessp n m ...): t if the integers are strictly increasing."},
    // Common Lisp
    {"+", bi_add, 0, -1, "(+ n ...): the sum of the integers n (0 with none)."},
    {"-", bi_sub, 1, -1, "(- n m ...): n minus the m's; (- n) is -n."},
    {"*", bi_mul, 0, -1, "(* n ...): the product of the integers n (1 with none)."},
    {"/", bi_div, 1, -1, "(/ n m ...): n divided by each m, truncating toward zero; (/ n) only for n = 1 or -1."},
    {"rem", bi_rem, 2, 2, "(rem n m): the remainder of truncating division; it has the sign of n."},
    {"mod", bi_mod, 2, 2, "(mod n m): n modulo m; the result has the sign of m."},
    {"floor", bi_floor, 1, 2, "(floor n &optional m): n divided by m (default 1), rounded toward minus infinity."},
    {"1+", bi_1plus, 1, 1, "(1+ n): n + 1."},
    {"1-", bi_1minus, 1, 1, "(1- n): n - 1."},
    {"abs", bi_abs, 1, 1, "(abs n): the absolute value of n."},
    {"signum", bi_signum, 1, 1, "(signum n): -1, 0 or 1, the sign of n."},
    {"=", bi_num_eq, 1, -1, "(= n m ...): t if all the integers are equal."},
    {"/=", bi_num_ne, 1, -1, "(/= n m ...): t if no two of the integers are equal."},
    {"<", bi_lt, 1, -1, "(< n m ...): t if the integers are strictly increasing."},
    {">", bi_gt, 1, -1, "(> n m ...): t if the integers are strictly decreasing."},
    {"<=", bi_le, 1, -1, "(<= n m ...): t if the integers never decrease."},
    {">=", bi_ge, 1, -1, "(>= n m ...): t if the integers never increase."},
    {"max", bi_max, 1, -1, "(max n ...): the largest of the integers."},
    {"min", bi_min, 1, -1, "(min n ...): the smallest of the integers."},
    {"zerop", bi_zerop, 1, 1, "(zerop n): t if the integer n is 0."},
    {"plusp", bi_plusp, 1, 1, "(plusp n): t if the integer n is greater than 0."},
    {"minusp", bi_minusp, 1, 1, "(minusp n): t if the integer n is less than 0."},
    {"oddp", bi_oddp, 1, 1, "(oddp n): t if the integer n is odd."},
    {"evenp", bi_evenp, 1, 1, "(evenp n): t if the integer n is even."},
    {"numberp", bi_integerp, 1, 1, "(numberp x): t if x is a number (integers are the only numbers)."},
    {"integerp", bi_integerp, 1, 1, "(integerp x): t if x is an integer, fixnum or bignum."},
    {"fixnump", bi_fixnump, 1, 1, "(fixnump x): t if x is an integer small enough to be a fixnum (63 bits)."},
    {"bignump", bi_bignump, 1, 1, "(bignump x): t if x is an integer too large to be a fixnum."},
    {"gcd", bi_gcd, 0, -1, "(gcd n ...): the greatest common divisor of the integers, >= 0 (0 with none)."},
    {"lcm", bi_lcm, 0, -1, "(lcm n ...): the least common multiple of the integers, >= 0 (1 with none)."},
    {"expt", bi_expt, 2, 2, "(expt base power): base raised to the non-negative integer power."},
    {"isqrt", bi_isqrt, 1, 1, "(isqrt n): the greatest integer whose square is at most n (n >= 0)."},
    {"logand", bi_logand, 0, -1, "(logand n ...): bitwise and, in two's complement (-1 with none)."},
    {"logior", bi_logior, 0, -1, "(logior n ...): bitwise inclusive or, in two's complement (0 with none)."},
    {"logxor", bi_logxor, 0, -1, "(logxor n ...): bitwise exclusive or, in two's complement (0 with none)."},
    {"lognot", bi_lognot, 1, 1, "(lognot n): the bitwise complement of n, that is -n - 1."},
    {"ash", bi_ash, 2, 2, "(ash n count): n shifted left by count bits (right, rounding down, if count < 0)."},
    {"logcount", bi_logcount, 1, 1, "(logcount n): the number of 1 bits in n, or of 0 bits if n < 0."},
    {"integer-length", bi_integer_length, 1, 1, "(integer-length n): the number of bits needed for n, sign excluded."},
    {"logbitp", bi_logbitp, 2, 2, "(logbitp index n): t if bit index of n (two's complement) is 1."},
    {"random", bi_random, 1, 1, "(random n): a random integer in [0, n) from *random-state*; n > 0."},
    {"make-random-state", bi_make_random_state, 0, 1,
     "(make-random-state &optional x): a new random state: a copy of *random-state* (nil), fresh (t), or seeded by an integer."},
    {"number-to-string", bi_number_to_string, 1, 2, "(number-to-string n &optional radix): the digits of n in radix 2..36 (default 10)."},
    {"string-to-number", bi_string_to_number, 1, 2,
     "(string-to-number s &optional radix): the integer written in s (radix 2..36, default 10), or nil."},
};

} // namespace

void open_numbers(Interp& I) {
    register_builtins(I, number_lib);
    Value rs = I.intern(RANDOM_STATE);
    if (I.global(rs) == UNBOUND) {
        Root sym(I, rs);
        Value st = make_state(I, DEFAULT_SEED);
        I.set_global(sym, st);
    }
    as_symbol(rs)->flags |= SYM_SPECIAL;
}

} // namespace lipq
