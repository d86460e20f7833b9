// number.h — generic integer arithmetic: fixnums and bignums.
//
// Integers are lipq's only numbers. A value is a fixnum when it fits in 63
// bits and a Bignum (boost cpp_int) otherwise; bignums are always normalized,
// so a bignum never holds a value in the fixnum range and two integers are
// equal exactly when they are both fixnums with the same word or both bignums
// with equal magnitudes. Every function here returns normalized results:
// fixnum operations that overflow promote, bignum results that fit demote.
//
// Each operation takes the name of the Lisp function it serves (`who`) and
// uses it in its errors: "+: not an integer: foo", "quotient: division by
// zero". Operands are read before anything is allocated, so callers need not
// root them for the duration of the call (the result, once returned, is the
// caller's to root if it allocates again).
//
// The bit operations (logand, logior, logxor, lognot, ash, logcount,
// integer-length, logbitp) have Common Lisp semantics: integers behave as
// infinite two's-complement bit strings, negative numbers included.
#pragma once
#include "interp.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace lipq {

// ---- conversions ------------------------------------------------------------
// The exact value of an integer (v must satisfy is_integer).
BigInt to_bigint(Value v);
// The integer n as a Value: a fixnum if it fits, else a new Bignum.
Value normalize(Interp& I, BigInt&& n);
Value normalize(Interp& I, const BigInt& n);
// Errors "who: not an integer: v" unless v is an integer.
void check_integer(Interp& I, const char* who, Value v);
// True (and *out set) when v is an integer that fits in an int64_t; false
// for a bigger integer or anything that is not an integer.
bool integer_to_int64(Value v, int64_t* out);
// Sign of an integer: -1, 0 or 1.
int num_sign(Value v);
// Parity of an integer (v must satisfy is_integer).
bool num_oddp(Value v);
// A hash consistent with num_equal (for equal/eql hash tables).
size_t num_hash(Value v);

// ---- arithmetic ---------------------------------------------------------------
Value num_add(Interp& I, Value a, Value b, const char* who = "+");
Value num_sub(Interp& I, Value a, Value b, const char* who = "-");
Value num_mul(Interp& I, Value a, Value b, const char* who = "*");
Value num_neg(Interp& I, Value a, const char* who = "-");
Value num_abs(Interp& I, Value a, const char* who = "abs");
// Division. All error "who: division by zero" when b = 0.
Value num_quotient(Interp& I, Value a, Value b, const char* who = "quotient");   // truncates toward 0
Value num_remainder(Interp& I, Value a, Value b, const char* who = "rem");       // sign of a
Value num_mod(Interp& I, Value a, Value b, const char* who = "mod");             // sign of b
Value num_floor(Interp& I, Value a, Value b, const char* who = "floor");         // rounds toward -inf

// ---- comparison ---------------------------------------------------------------
int num_compare(Interp& I, Value a, Value b, const char* who = "<");   // -1, 0, 1
bool num_equal(Value a, Value b);   // a, b integers; no type check (usable from eql/equal)

// ---- number theory -------------------------------------------------------------
Value num_gcd(Interp& I, Value a, Value b, const char* who = "gcd");   // always >= 0
Value num_lcm(Interp& I, Value a, Value b, const char* who = "lcm");   // always >= 0
// base^e for e >= 0 (error on a negative exponent or an absurdly large result).
Value num_expt(Interp& I, Value base, Value e, const char* who = "expt");
// floor(sqrt(a)) for a >= 0.
Value num_isqrt(Interp& I, Value a, const char* who = "isqrt");

// ---- bits (two's complement, as in Common Lisp) ----------------------------------
Value num_logand(Interp& I, Value a, Value b, const char* who = "logand");
Value num_logior(Interp& I, Value a, Value b, const char* who = "logior");
Value num_logxor(Interp& I, Value a, Value b, const char* who = "logxor");
Value num_lognot(Interp& I, Value a, const char* who = "lognot");
// a * 2^count, rounding toward -inf when count < 0. count must be a fixnum.
Value num_ash(Interp& I, Value a, Value count, const char* who = "ash");
int64_t num_logcount(Interp& I, Value a, const char* who = "logcount");
int64_t num_integer_length(Interp& I, Value a, const char* who = "integer-length");
// Bit `index` (an integer >= 0) of a.
bool num_logbitp(Interp& I, Value index, Value a, const char* who = "logbitp");

// ---- text ---------------------------------------------------------------------
// Parses an optional sign followed by one or more digits of `radix` (2..36,
// letters in either case). Returns false, leaving *out alone, when the text is
// not such an integer. *out should be a rooted location if the caller keeps
// allocating afterwards.
bool parse_integer(Interp& I, std::string_view digits, int radix, Value* out);
// The digits of an integer in radix 2..36, lowercase letters, '-' if negative.
std::string integer_to_string(Value v, int radix = 10);

} // namespace lipq
