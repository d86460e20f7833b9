// prims.cpp — inline fast paths for the hottest builtins (car, cdr, +, <, eq ...).
//
// A call such as (- n 1) compiles to a PrimNode instead of a generic call.
// Its run function is chosen by operation and by how each operand is got:
// OperandLocal reads the frame slot, OperandConst is a fixnum constant, and
// OperandAny evaluates the operand's node. So (- n 1) costs one indirect
// call, not three, and touches no stack. Every fast path first checks that
// the symbol still holds the builtin and that the operands are of the easy
// type (fixnums that do not overflow, pairs); anything else goes the generic
// way through invoke(), with the same results and errors as a normal call.
//
// Predicates (< = null ...) also provide a `test` function returning a C++
// bool, which IfTestNode uses so that (if (< n 2) ...) never builds t or nil.
#include "nodes.h"

#include <cstring>
#include <type_traits>

namespace lipq {

PrimNode::PrimNode(Node::Fn f, Symbol* s, Value e, Node* x, Node* y, SourcePos p)
    : Node(f), sym(s), expect(e), a(x), b(y), pos(p), general(f) {}

static Value run_if_test(Node* n, Frame& f) {
    auto* m = static_cast<IfTestNode*>(n);
    return m->cond->test(m->cond, f) ? ev(m->then, f) : ev(m->els, f);
}
IfTestNode::IfTestNode(Node* t, Node* a, Node* b) : Node(run_if_test), cond(t), then(a), els(b) {}

namespace {

// The general way: call whatever the symbol holds now on the given values.
[[gnu::noinline]] Value prim_slow_values(Interp& I, PrimNode* m, Value x, Value y, int nargs) {
    Value* base = I.sp + 1;
    *I.sp++ = m->sym->value;
    *I.sp++ = x;
    if (nargs == 2) *I.sp++ = y;
    return invoke(I, base, nargs, &m->pos);
}
inline Value prim_slow(PrimNode* m, Frame& f, Value x, Value y, int nargs) { return prim_slow_values(*f.I, m, x, y, nargs); }

template <int K>
inline Value operand(Node* n, int slot, Value k, Frame& f) {
    if constexpr (K == OperandLocal) return f.slots[slot];
    else if constexpr (K == OperandConst) return k;
    else return ev(n, f);
}

// Both operands, left to right. Only (Any, Any) evaluates code after holding
// a value, so only it parks the first operand on the value stack (the second
// operand's evaluation may collect). (Local, Any) reads the local last.
template <int KA, int KB>
inline void operands(PrimNode* m, Frame& f, Value& x, Value& y) {
    if constexpr (KA == OperandAny && KB == OperandAny) {
        Interp& I = *f.I;
        *I.sp++ = ev(m->a, f);
        y = ev(m->b, f);
        x = *--I.sp;
    } else if constexpr (KA == OperandLocal && KB == OperandAny) {
        // The local is never assigned (see select_prim): reading it last is
        // the same, and it stays rooted in its slot meanwhile.
        y = ev(m->b, f);
        x = f.slots[m->slot_a];
    } else {
        x = operand<KA>(m->a, m->slot_a, m->k_a, f);
        y = operand<KB>(m->b, m->slot_b, m->k_b, f);
    }
}

inline bool still_builtin(PrimNode* m) { return m->sym->value == m->expect; }

// A predicate's test (eq_test, compare_test ...) decides on its fast path, or
// calls the builtin: then `value`, if given, receives the builtin's own value,
// which the predicate as a value returns (a redefined < may return anything
// but t). The fast path leaves `value` alone: the caller sets it to t.
inline bool slow_test(PrimNode* m, Frame& f, Value x, Value y, int nargs, Value* value) {
    Value r = prim_slow(m, f, x, y, nargs);
    if (value) *value = r;
    return truthy(r);
}
template <bool (*Test)(PrimNode*, Frame&, Value*)>
Value test_value(Node* n, Frame& f) {
    Value v = f.I->sym.t;
    return Test(static_cast<PrimNode*>(n), f, &v) ? v : NIL;
}

// ---- binary operations --------------------------------------------------------------
// Fixnums are computed on their tagged words (2n+1): x+y-1, x-y+1 and <, =
// ... on the words directly. The tagged word is the whole 64-bit range, so
// overflow of the word is exactly "the result is not a fixnum".
struct Add {
    static bool fix(Value x, Value y, Value* r) {
        int64_t s;
        if (__builtin_add_overflow(int64_t(x.raw), int64_t(y.raw - 1), &s)) return false;
        *r = Value(uint64_t(s));
        return true;
    }
};
struct Sub {
    static bool fix(Value x, Value y, Value* r) {
        int64_t s;
        if (__builtin_sub_overflow(int64_t(x.raw), int64_t(y.raw - 1), &s)) return false;
        *r = Value(uint64_t(s));
        return true;
    }
};
struct Mul {
    static bool fix(Value x, Value y, Value* r) {
        int64_t s;
        if (__builtin_mul_overflow(fixnum_value(x), fixnum_value(y), &s) || !fits_fixnum(s)) return false;
        *r = make_fixnum(s);
        return true;
    }
};
struct Lt { static bool cmp(int64_t x, int64_t y) { return x < y; } };
struct Gt { static bool cmp(int64_t x, int64_t y) { return x > y; } };
struct Le { static bool cmp(int64_t x, int64_t y) { return x <= y; } };
struct Ge { static bool cmp(int64_t x, int64_t y) { return x >= y; } };
struct NumEq { static bool cmp(int64_t x, int64_t y) { return x == y; } };
struct NumNe { static bool cmp(int64_t x, int64_t y) { return x != y; } };

// Both operands fixnums? A constant operand is one already (the compiler
// only makes fixnum constants OperandConst).
template <int KA, int KB>
inline bool both_fixnums(Value x, Value y) {
    if constexpr (KA == OperandConst) return is_fixnum(y);
    else if constexpr (KB == OperandConst) return is_fixnum(x);
    else return (x.raw & y.raw) & 1;
}

template <class Op, int KA, int KB>
Value arith(Node* n, Frame& f) {
    auto* m = static_cast<PrimNode*>(n);
    Value x, y;
    operands<KA, KB>(m, f, x, y);
    Value r;
    if (still_builtin(m) && both_fixnums<KA, KB>(x, y) && Op::fix(x, y, &r)) [[likely]] return r;
    return prim_slow(m, f, x, y, 2);
}

template <class Op, int KA, int KB>
bool compare_test(PrimNode* m, Frame& f, Value* value = nullptr) {
    Value x, y;
    operands<KA, KB>(m, f, x, y);
    if (still_builtin(m) && both_fixnums<KA, KB>(x, y)) [[likely]]
        return Op::cmp(int64_t(x.raw), int64_t(y.raw));   // the tagging keeps the order
    return slow_test(m, f, x, y, 2, value);
}
template <class Op, int KA, int KB>
Value compare(Node* n, Frame& f) { return test_value<compare_test<Op, KA, KB>>(n, f); }

template <int KA, int KB>
bool eq_test(PrimNode* m, Frame& f, Value* value = nullptr) {
    Value x, y;
    operands<KA, KB>(m, f, x, y);
    if (still_builtin(m)) [[likely]] return x == y;
    return slow_test(m, f, x, y, 2, value);
}
template <int KA, int KB>
bool eq_t(Node* m, Frame& f) { return eq_test<KA, KB>(static_cast<PrimNode*>(m), f); }
template <int KA, int KB>
Value eq(Node* n, Frame& f) { return test_value<eq_test<KA, KB>>(n, f); }

template <int KA, int KB>
Value cons(Node* n, Frame& f) {
    auto* m = static_cast<PrimNode*>(n);
    Value x, y;
    operands<KA, KB>(m, f, x, y);
    if (still_builtin(m)) [[likely]] return f.I->cons(x, y);
    return prim_slow(m, f, x, y, 2);
}

// (aref v i) / (vref v i): a vector and an in-range fixnum index (boards in the
// puzzle scripts); anything else, errors included, goes through the builtin.
inline bool aref_fast(Value x, Value y, Value* r) {
    if (!is_vector(x) || !is_fixnum(y)) return false;
    int64_t k = fixnum_value(y);
    Vector* v = as_vector(x);
    if (k < 0 || uint64_t(k) >= v->items.size()) return false;
    *r = v->items[size_t(k)];
    return true;
}
template <int KA, int KB>
Value aref_run(Node* n, Frame& f) {
    auto* m = static_cast<PrimNode*>(n);
    Value x, y, r;
    operands<KA, KB>(m, f, x, y);
    if (still_builtin(m) && aref_fast(x, y, &r)) [[likely]] return r;
    return prim_slow(m, f, x, y, 2);
}

// (eql x y): identical words are eql; two different fixnums are not; the rest
// (bignums ...) goes through the builtin.
template <int KA, int KB>
bool eql_test(PrimNode* m, Frame& f, Value* value = nullptr) {
    Value x, y;
    operands<KA, KB>(m, f, x, y);
    if (still_builtin(m)) [[likely]] {
        if (x == y) return true;
        if (is_fixnum(x) && is_fixnum(y)) return false;
    }
    return slow_test(m, f, x, y, 2, value);
}
template <int KA, int KB>
bool eql_t(Node* m, Frame& f) { return eql_test<KA, KB>(static_cast<PrimNode*>(m), f); }
template <int KA, int KB>
Value eql_run(Node* n, Frame& f) { return test_value<eql_test<KA, KB>>(n, f); }

// ---- one-argument operations ---------------------------------------------------------
// fast(x, &r): true with the result when the fast path applies.
struct Car { static bool fast(Value x, Value* r) { if (is_pair(x)) { *r = car(x); return true; } if (is_nil(x)) { *r = NIL; return true; } return false; } };
struct Cdr { static bool fast(Value x, Value* r) { if (is_pair(x)) { *r = cdr(x); return true; } if (is_nil(x)) { *r = NIL; return true; } return false; } };
struct Cadr { static bool fast(Value x, Value* r) { if (is_pair(x) && is_pair(cdr(x))) { *r = car(cdr(x)); return true; } return false; } };
struct Cddr { static bool fast(Value x, Value* r) { if (is_pair(x) && is_pair(cdr(x))) { *r = cdr(cdr(x)); return true; } return false; } };
struct Add1 {
    static bool fast(Value x, Value* r) {
        int64_t s;
        if (!is_fixnum(x) || __builtin_add_overflow(int64_t(x.raw), int64_t(2), &s)) return false;
        *r = Value(uint64_t(s));
        return true;
    }
};
struct Sub1 {
    static bool fast(Value x, Value* r) {
        int64_t s;
        if (!is_fixnum(x) || __builtin_sub_overflow(int64_t(x.raw), int64_t(2), &s)) return false;
        *r = Value(uint64_t(s));
        return true;
    }
};

template <class Op, int KA>
Value unary(Node* n, Frame& f) {
    auto* m = static_cast<PrimNode*>(n);
    Value x = operand<KA>(m->a, m->slot_a, m->k_a, f);
    Value r;
    if (still_builtin(m) && Op::fast(x, &r)) [[likely]] return r;
    return prim_slow(m, f, x, NIL, 1);
}

// Predicates: test(x) gives 0/1, or -1 when the fast path does not apply.
struct Null { static int test(Value x) { return is_nil(x); } };
struct Consp { static int test(Value x) { return is_pair(x); } };
struct Atom { static int test(Value x) { return !is_pair(x); } };
struct Zerop { static int test(Value x) { return is_fixnum(x) ? x == make_fixnum(0) : -1; } };

template <class Op, int KA>
bool pred_test(PrimNode* m, Frame& f, Value* value = nullptr) {
    if constexpr (std::is_same_v<Op, Null> && KA == OperandAny) {
        // (not x) / (null x) on a node with a test of its own: no t or nil made.
        if (m->a->test && still_builtin(m)) [[likely]] return !m->a->test(m->a, f);
    }
    Value x = operand<KA>(m->a, m->slot_a, m->k_a, f);
    if (still_builtin(m)) [[likely]] {
        int r = Op::test(x);
        if (r >= 0) return r;
    }
    return slow_test(m, f, x, NIL, 1, value);
}
template <class Op, int KA>
Value pred(Node* n, Frame& f) { return test_value<pred_test<Op, KA>>(n, f); }

// ---- the table ------------------------------------------------------------------------
// For each builtin: its run functions by operand kinds [ka][kb] (one-argument
// builtins use [ka][0]), and for predicates the test functions likewise.
struct Grid {
    Node::Fn run[3][3];
    PrimTest test[3][3];
    PrimOp op;
};

#define GRID2(F) {{F<0, 0>, F<0, 1>, F<0, 2>}, {F<1, 0>, F<1, 1>, F<1, 2>}, {F<2, 0>, F<2, 1>, F<2, 2>}}
#define NOTEST {{nullptr, nullptr, nullptr}, {nullptr, nullptr, nullptr}, {nullptr, nullptr, nullptr}}

template <class Op> struct ArithF { template <int A, int B> static Value f(Node* n, Frame& fr) { return arith<Op, A, B>(n, fr); } };
template <class Op> struct CmpF {
    template <int A, int B> static Value f(Node* n, Frame& fr) { return compare<Op, A, B>(n, fr); }
    template <int A, int B> static bool t(Node* m, Frame& fr) { return compare_test<Op, A, B>(static_cast<PrimNode*>(m), fr); }
};
template <class Op> struct UnF { template <int A, int B> static Value f(Node* n, Frame& fr) { return unary<Op, A>(n, fr); } };
template <class Op> struct PredF {
    template <int A, int B> static Value f(Node* n, Frame& fr) { return pred<Op, A>(n, fr); }
    template <int A, int B> static bool t(Node* m, Frame& fr) { return pred_test<Op, A>(static_cast<PrimNode*>(m), fr); }
};

#define ARITH(Op) GRID2(ArithF<Op>::template f), NOTEST
#define CMP(Op) GRID2(CmpF<Op>::template f), GRID2(CmpF<Op>::template t)
#define UN(Op) GRID2(UnF<Op>::template f), NOTEST
#define PRED(Op) GRID2(PredF<Op>::template f), GRID2(PredF<Op>::template t)

const Grid g_add = {ARITH(Add), PrimOp::Add}, g_sub = {ARITH(Sub), PrimOp::Sub}, g_mul = {ARITH(Mul), PrimOp::Mul};
const Grid g_lt = {CMP(Lt), PrimOp::Lt}, g_gt = {CMP(Gt), PrimOp::Gt}, g_le = {CMP(Le), PrimOp::Le},
           g_ge = {CMP(Ge), PrimOp::Ge}, g_numeq = {CMP(NumEq), PrimOp::NumEq}, g_numne = {CMP(NumNe), PrimOp::NumNe};
const Grid g_eq = {GRID2(eq), GRID2(eq_t), PrimOp::Eq};
const Grid g_cons = {GRID2(cons), NOTEST, PrimOp::Cons};
const Grid g_aref = {GRID2(aref_run), NOTEST, PrimOp::Aref};
const Grid g_eql = {GRID2(eql_run), GRID2(eql_t), PrimOp::Eql};
const Grid g_car = {UN(Car), PrimOp::Car}, g_cdr = {UN(Cdr), PrimOp::Cdr}, g_cadr = {UN(Cadr), PrimOp::Cadr},
           g_cddr = {UN(Cddr), PrimOp::Cddr};
const Grid g_add1 = {UN(Add1), PrimOp::Add1}, g_sub1 = {UN(Sub1), PrimOp::Sub1};
const Grid g_null = {PRED(Null), PrimOp::Null}, g_consp = {PRED(Consp), PrimOp::Consp}, g_atom = {PRED(Atom), PrimOp::Atom},
           g_zerop = {PRED(Zerop), PrimOp::Zerop};

struct Entry { const char* name; int nargs; const Grid* grid; };
const Entry entries[] = {
    {"car", 1, &g_car},       {"cdr", 1, &g_cdr},       {"cadr", 1, &g_cadr},   {"cddr", 1, &g_cddr},
    {"null", 1, &g_null},     {"not", 1, &g_null},      {"consp", 1, &g_consp}, {"atom", 1, &g_atom},
    {"1+", 1, &g_add1},       {"add1", 1, &g_add1},     {"1-", 1, &g_sub1},     {"sub1", 1, &g_sub1},
    {"zerop", 1, &g_zerop},   {"cons", 2, &g_cons},     {"eq", 2, &g_eq},       {"+", 2, &g_add},
    {"plus", 2, &g_add},      {"-", 2, &g_sub},         {"difference", 2, &g_sub}, {"*", 2, &g_mul},
    {"times", 2, &g_mul},     {"<", 2, &g_lt},          {"lessp", 2, &g_lt},    {">", 2, &g_gt},
    {"greaterp", 2, &g_gt},   {"<=", 2, &g_le},         {">=", 2, &g_ge},       {"=", 2, &g_numeq},
    {"/=", 2, &g_numne},      {"aref", 2, &g_aref},     {"vref", 2, &g_aref},     {"eql", 2, &g_eql},
};

} // namespace

bool select_prim(std::string_view name, int nargs, OperandKind ka, OperandKind kb, PrimVariants* out) {
    for (const Entry& e : entries) {
        if (e.nargs != nargs || name != e.name) continue;
        // (L, Any) reads the local after evaluating the other operand: the
        // compiler switches the node to `general` if the local is assigned
        // anywhere (then that read could see the assignment).
        if (nargs == 1) kb = OperandAny;
        out->ka = ka;
        out->kb = kb;
        out->run = e.grid->run[ka][kb];
        out->general = e.grid->run[0][0];
        out->test = e.grid->test[ka][kb];
        out->test_general = e.grid->test[0][0];
        out->op = e.grid->op;
        return true;
    }
    return false;
}

Value prim_on_values(Interp& I, PrimNode* m, Value x, Value y) {
    Value r;
    if (still_builtin(m)) {
        if (m->op == PrimOp::Mul && is_fixnum(x) && is_fixnum(y) && Mul::fix(x, y, &r)) return r;
        if (m->op == PrimOp::Aref && aref_fast(x, y, &r)) return r;
    }
    return prim_slow_values(I, m, x, y, m->b ? 2 : 1);
}

} // namespace lipq
