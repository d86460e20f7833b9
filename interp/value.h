// value.h — the tagged 64-bit Value word.
//
// Every Lisp value is one machine word. The low three bits say what it is:
//
//   ...xx1   fixnum: a 63-bit signed integer, stored shifted left by one
//   ...000   pointer to a heap object with a header (symbol, string, ...);
//            the all-zero word is NIL, which is therefore also "false"
//   ...010   pointer to a cons cell (two words, no header)
//   ...110   pointer to a quad cell (four words, no header)
//   ...100   an immediate marker (unbound, end of file, internal signals)
//
// Cons and quad cells carry no header so that a cons is 16 bytes; the
// collector keeps them on pages of their own and finds their mark bits from
// the address. A quad's first two words are its car and cdr, laid out as in a
// cons, so car/cdr (and every list function built on them) work on both
// without asking which one they hold: `is_pair` is a single mask test.
#pragma once
#include <cstdint>
#include <cstring>
#include <functional>

namespace lipq {

struct Obj;
struct Cons;
struct Quad;

struct Value {
    uint64_t raw = 0;

    constexpr Value() = default;
    constexpr explicit Value(uint64_t r) : raw(r) {}

    constexpr bool operator==(const Value& o) const { return raw == o.raw; }
    constexpr bool operator!=(const Value& o) const { return raw != o.raw; }
};

// ---- tags -----------------------------------------------------------------
constexpr uint64_t TAG_MASK = 7;
constexpr uint64_t TAG_OBJ = 0;
constexpr uint64_t TAG_CONS = 2;
constexpr uint64_t TAG_IMM = 4;
constexpr uint64_t TAG_QUAD = 6;

constexpr Value NIL{0};
// Immediate markers. None of them is ever visible to Lisp code.
constexpr Value UNBOUND{0x04};     // value of a symbol with no global value
constexpr Value TAILCALL{0x0c};    // "the callee is in Interp::tail_*": trampolined
constexpr Value SIGNAL{0x14};      // a go/return travelling up through statements
constexpr Value END_OF_FILE{0x1c}; // the reader's end-of-input marker
constexpr Value NO_VALUE{0x24};    // "argument not supplied" and similar

// ---- fixnums --------------------------------------------------------------
constexpr int64_t FIXNUM_MAX = (int64_t(1) << 61) * 2 - 1;  // 2^62 - 1
constexpr int64_t FIXNUM_MIN = -FIXNUM_MAX - 1;             // -2^62

constexpr bool is_fixnum(Value v) { return v.raw & 1; }
constexpr int64_t fixnum_value(Value v) { return int64_t(v.raw) >> 1; }
constexpr Value make_fixnum(int64_t n) { return Value((uint64_t(n) << 1) | 1); }
constexpr bool fits_fixnum(int64_t n) { return n >= FIXNUM_MIN && n <= FIXNUM_MAX; }

// ---- pointers -------------------------------------------------------------
constexpr bool is_nil(Value v) { return v.raw == 0; }
constexpr bool truthy(Value v) { return v.raw != 0; }
constexpr bool is_obj(Value v) { return (v.raw & TAG_MASK) == TAG_OBJ && v.raw != 0; }
constexpr bool is_cons(Value v) { return (v.raw & TAG_MASK) == TAG_CONS; }
constexpr bool is_quad(Value v) { return (v.raw & TAG_MASK) == TAG_QUAD; }
constexpr bool is_pair(Value v) { return (v.raw & 3) == 2; }   // cons or quad
constexpr bool is_list(Value v) { return is_nil(v) || is_pair(v); }
constexpr bool is_imm(Value v) { return (v.raw & TAG_MASK) == TAG_IMM; }
constexpr bool is_heap(Value v) { return v.raw != 0 && (v.raw & 1) == 0 && !is_imm(v); }

inline Obj* as_obj(Value v) { return reinterpret_cast<Obj*>(v.raw); }
inline Value obj_value(const Obj* o) { return Value(reinterpret_cast<uint64_t>(o)); }

// car and cdr share their offsets in cons and quad cells.
inline Value* pair_words(Value v) { return reinterpret_cast<Value*>(v.raw & ~TAG_MASK); }
inline Value car(Value v) { return pair_words(v)[0]; }
inline Value cdr(Value v) { return pair_words(v)[1]; }
inline void set_car(Value v, Value x) { pair_words(v)[0] = x; }
inline void set_cdr(Value v, Value x) { pair_words(v)[1] = x; }
// The two extra fields of a quad cell (only valid when is_quad).
inline Value cbr(Value v) { return pair_words(v)[2]; }
inline Value ccr(Value v) { return pair_words(v)[3]; }
inline void set_cbr(Value v, Value x) { pair_words(v)[2] = x; }
inline void set_ccr(Value v, Value x) { pair_words(v)[3] = x; }

} // namespace lipq

template <> struct std::hash<lipq::Value> {
    size_t operator()(lipq::Value v) const noexcept {
        uint64_t x = v.raw;
        x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33;
        return size_t(x);
    }
};
