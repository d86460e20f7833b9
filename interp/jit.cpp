// jit.cpp — the second tier: a hot function's node tree compiled by libgccjit.
//
// What a compiled function is. For a simple proto P (required parameters
// only, none boxed, not a DF) one C function is generated:
//
//   Value entry(Interp* I, Value* base, const SourcePos* site)
//       a whole call: link the ActiveCall, count depth and check the C stack,
//       poll, run the body, unlink. Compiled callers call it directly
//       (p->jit_entry) and run a tail call it returns; a JitBodyNode holding
//       it replaces p->body, so every call path of the tree (call nodes,
//       invoke, apply, tail-call loops) runs it too, with site null: then a
//       tail call goes back to the tree's loop. A call is cheap because the
//       node tree's indirect call per node is gone.
//
//   Where the body starts with tests on the arguments that can end in an
//   argument or a constant (fib's (< n 2) -> n), entry is only those tests
//   (leaf_prefix): it returns such a leaf at once, without a frame, and
//   otherwise tail-calls the whole call, entry_full(I, base, site, resume),
//   which goes on after its prologue where the tests left it. A closed body
//   (closed_body: only its own calls, inlined builtins and control) is
//   translated twice, the second time without the guards of its builtins
//   and self calls: a closed loop within one function, a closed recursion
//   (fib, tak) as a function pair of its own that calls itself. If a closed
//   loop's self tail calls take pure arguments ((cdr x), (1- n) ...), the
//   prefix runs the whole loop, with no frame, and hands over only when
//   something fails; a caller's prefix may run such a loop too, inlined
//   (inline_call: takl's mas testing (shorterp y x)).
//
// The rules the compiled code keeps, so that nothing observable changes:
// - Values that must survive a possible collection live in value-stack
//   slots: arguments and locals in the frame as before, and temporaries
//   (an operand parked while the next is computed, a call's function and
//   arguments) in slots above the frame, allocated at compile time like a
//   stack. Before anything that may collect or call back (a helper, a
//   callee, a tree node), I->sp is set just above the live slots. The
//   collector does not move objects, so a value in a register stays valid
//   as long as a slot holds it too: variables are read from locals that
//   copy their slots (vars_), and a call's arguments are stored in their
//   slots only when something after them may collect.
// - Every inline fast path is guarded as in prims.cpp (the symbol still holds
//   the builtin, the operands are fixnums or pairs, no overflow); anything
//   else calls the same slow path the tree uses, with the same results and
//   errors. Globals are read at each call, so redefinition works.
// - Whatever the compiler does not translate (closures, catch, special
//   bindings, calls of computed functions ...) runs as a tree node called from
//   the compiled code with a Frame on the same slots: any function the tree
//   accepts is compiled, some parts of it simply stay interpreted.
// - Errors are C++ exceptions thrown by the helpers; GCC emits unwind tables,
//   so they pass through compiled frames to the same handlers as before, and
//   the machine state is restored by the same MachineState snapshots.
// - Calls poll for interrupts and budgets, and loops and go poll, as in the
//   tree; depth and C-stack limits are checked per call.
#include "jit.h"

#include "nodes.h"

#if !LIPQ_HAVE_GCCJIT
// Built without libgccjit's header: every function stays in the node tree.
namespace lipq {
bool jit_available(Interp& I) {
    I.jit_stats.unavailable = "built without libgccjit";
    return false;
}
void jit_compile(Interp& I, Proto*) { I.jit_threshold = 0; }
void jit_release(Proto*) {}
} // namespace lipq
#else

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <dlfcn.h>
#include <libgccjit.h>
#include <mutex>
#include <pthread.h>
#include <signal.h>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#pragma GCC diagnostic ignored "-Winvalid-offsetof"

#if defined(__SANITIZE_ADDRESS__)
#define LIPQ_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LIPQ_ASAN 1
#endif
#endif
#ifndef LIPQ_ASAN
#define LIPQ_ASAN 0
#endif

namespace lipq {

// ---- libgccjit, loaded on first use -----------------------------------------------

#define LIPQ_GCCJIT_FUNCTIONS(X)                                                                      \
    X(gcc_jit_context_acquire) X(gcc_jit_context_release) X(gcc_jit_context_set_int_option)           \
    X(gcc_jit_context_set_bool_option) X(gcc_jit_context_set_bool_allow_unreachable_blocks) X(gcc_jit_context_set_bool_use_external_driver) X(gcc_jit_context_set_bool_print_errors_to_stderr)           \
    X(gcc_jit_context_add_command_line_option) X(gcc_jit_context_add_driver_option) X(gcc_jit_context_compile)                             \
    X(gcc_jit_context_get_first_error) X(gcc_jit_result_get_code) X(gcc_jit_result_release)           \
    X(gcc_jit_context_get_type) X(gcc_jit_type_get_pointer) X(gcc_jit_context_new_field)              \
    X(gcc_jit_context_new_struct_type) X(gcc_jit_struct_as_type) X(gcc_jit_context_new_param)         \
    X(gcc_jit_context_new_function) X(gcc_jit_context_new_function_ptr_type)                          \
    X(gcc_jit_function_new_block) X(gcc_jit_function_new_local) X(gcc_jit_param_as_rvalue)            \
    X(gcc_jit_lvalue_as_rvalue) X(gcc_jit_lvalue_access_field) X(gcc_jit_lvalue_get_address)          \
    X(gcc_jit_rvalue_dereference) X(gcc_jit_context_new_rvalue_from_long)                             \
    X(gcc_jit_context_new_rvalue_from_ptr) X(gcc_jit_context_new_binary_op)                           \
    X(gcc_jit_context_new_comparison) X(gcc_jit_context_new_unary_op) X(gcc_jit_context_new_cast)     \
    X(gcc_jit_context_new_bitcast) X(gcc_jit_context_new_call) X(gcc_jit_context_new_call_through_ptr) \
    X(gcc_jit_block_add_assignment) X(gcc_jit_block_add_eval) X(gcc_jit_block_end_with_jump)          \
    X(gcc_jit_block_end_with_conditional) X(gcc_jit_block_end_with_return)                            \
    X(gcc_jit_param_as_lvalue) X(gcc_jit_type_get_volatile) X(gcc_jit_rvalue_set_bool_require_tail_call) \
    X(gcc_jit_context_new_array_access) X(gcc_jit_context_get_builtin_function)

namespace {

struct GccJit {
#define LIPQ_DECLARE(f) decltype(&::f) f = nullptr;
    LIPQ_GCCJIT_FUNCTIONS(LIPQ_DECLARE)
#undef LIPQ_DECLARE
    std::string error;   // empty: loaded
};

// One process-wide copy (read-only once loaded; libgccjit itself serialises
// compilations), loaded under a once-flag.
const GccJit& gccjit() {
    static GccJit api;
    static std::once_flag once;
    std::call_once(once, [] {
        void* h = dlopen("libgccjit.so.0", RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char* e = dlerror();
            api.error = std::string("cannot load libgccjit.so.0 (") + (e ? e : "?") + ")";
            return;
        }
#define LIPQ_LOAD(f)                                                       \
    api.f = reinterpret_cast<decltype(&::f)>(dlsym(h, #f));                \
    if (!api.f && api.error.empty()) api.error = "libgccjit lacks " #f;
        LIPQ_GCCJIT_FUNCTIONS(LIPQ_LOAD)
#undef LIPQ_LOAD
    });
    return api;
}

// ---- what compiled code calls ---------------------------------------------------------
// Plain functions taking and returning words, so that the generated code can
// declare them with integer types (Value is one word, returned in a register).

Value h_poll(Interp* I) {
    I->poll_slow();
    return NIL;
}
Value h_call_overflow(Interp* I, ActiveCall* call) {
    --I->depth;
    I->current_call = call->prev;
    I->stack_overflow();
}
Value h_stack_overflow(Interp* I) { I->stack_overflow(); }
Value h_prim(Interp* I, PrimNode* m, Value x, Value y) { return prim_on_values(*I, m, x, y); }
Value h_cons(Interp* I, Value x, Value y) { return I->cons(x, y); }
Value h_box(Interp* I, Value v) { return obj_value(I->heap.make<Box>(v)); }
Value h_call(Interp* I, Value* base, int64_t nargs, const SourcePos* site) {
    return call_prepared(*I, base, int(nargs), site);
}
Value h_finish_tail(Interp* I, Value* base) { return finish_tail_call(*I, base); }

// The body node that replaces a compiled proto's tree: the tree's call path
// has linked the call already, so the entry's own ActiveCall (same base, no
// site) is a duplicate that Interp::backtrace leaves out; the depth counts
// one more at such a crossing from the tree into compiled code.
struct JitBodyNode : Node {
    Proto::JitEntry code;
    static Value run(Node* n, Frame& f) { return static_cast<JitBodyNode*>(n)->code(f.I, f.slots, nullptr); }
    explicit JitBodyNode(Proto::JitEntry e) : Node(run), code(e) {}
};

// A construct the compiler leaves to the tree for the whole function.
struct Refuse {
    const char* why;
};

bool is_predicate(PrimOp op) {
    switch (op) {
    case PrimOp::Lt: case PrimOp::Gt: case PrimOp::Le: case PrimOp::Ge: case PrimOp::NumEq: case PrimOp::NumNe:
    case PrimOp::Null: case PrimOp::Consp: case PrimOp::Atom: case PrimOp::Zerop: case PrimOp::Eq: case PrimOp::Eql:
        return true;
    default:
        return false;
    }
}
gcc_jit_comparison comparison(PrimOp op) {
    switch (op) {
    case PrimOp::Lt: return GCC_JIT_COMPARISON_LT;
    case PrimOp::Gt: return GCC_JIT_COMPARISON_GT;
    case PrimOp::Le: return GCC_JIT_COMPARISON_LE;
    case PrimOp::Ge: return GCC_JIT_COMPARISON_GE;
    case PrimOp::NumEq: return GCC_JIT_COMPARISON_EQ;
    default: return GCC_JIT_COMPARISON_NE;
    }
}

// Nodes whose evaluation cannot collect (so an operand computed before them
// needs no parking).
// A call site that may be (funcall f args...): then a compiled f is entered
// from here (funcall_compiled).
static bool is_funcall(CallGlobal* m) { return m->sym->name == "funcall" && !m->args.empty(); }

// An ActiveCall site that is not null (so the callee runs its own tail calls,
// as when called from compiled code) and names no position (so backtraces
// and error locations read as for the tree, where funcall invokes f without
// a site).
static const SourcePos no_site{};

bool cannot_collect(Node* n) {
    return dynamic_cast<ConstNode*>(n) || dynamic_cast<LocalRef*>(n) || dynamic_cast<CapRef*>(n) ||
           dynamic_cast<GlobalRef*>(n);
}
// The same where the inlined builtins are known to hold (a closed loop's
// unguarded copy): then car, cdr, cadr, cddr and the tests below only read,
// and their slow paths only fail (a type error), which leaves this function.
bool cannot_collect_unguarded(Node* n) {
    if (cannot_collect(n)) return true;
    auto* m = dynamic_cast<PrimNode*>(n);
    if (!m) return false;
    switch (m->op) {
    case PrimOp::Car: case PrimOp::Cdr: case PrimOp::Cadr: case PrimOp::Cddr:
    case PrimOp::Null: case PrimOp::Consp: case PrimOp::Atom: case PrimOp::Eq:
        return cannot_collect_unguarded(m->a) && (!m->b || cannot_collect_unguarded(m->b));
    default: return false;
    }
}

using RV = gcc_jit_rvalue*;
using LV = gcc_jit_lvalue*;
using BB = gcc_jit_block*;

// libgccjit runs GCC's driver and compiler in this process, and they install
// signal handlers of their own (GCC's driver answers SIGINT by deleting its
// temporary files and killing the process; the compiler catches SIGSEGV) and
// leave them there. So a compilation runs with every signal blocked in this
// thread and every handler saved and put back afterwards; a Ctrl-C meanwhile
// waits and then reaches lipq's own handler. The mutex keeps two interpreters'
// compilations from restoring each other's view of the handlers.
class SignalsKept {
public:
    SignalsKept() : lock_(mutex()) {
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &mask_);
        for (int s = 1; s < NSIG_KEPT; s++) sigaction(s, nullptr, &saved_[s]);
    }
    ~SignalsKept() {
        for (int s = 1; s < NSIG_KEPT; s++)
            if (s != SIGKILL && s != SIGSTOP) sigaction(s, &saved_[s], nullptr);
        pthread_sigmask(SIG_SETMASK, &mask_, nullptr);
    }
private:
    static constexpr int NSIG_KEPT = 32;   // the classic signals; GCC touches no real-time one
    static std::mutex& mutex() {
        static std::mutex m;
        return m;
    }
    std::lock_guard<std::mutex> lock_;
    sigset_t mask_;
    struct sigaction saved_[NSIG_KEPT];
};

// GCC runs on a thread of its own, with a stack of its own. A function gets
// hot wherever it is called, also at the bottom of a deep recursion with
// little of the C stack left, and GCC's passes and the gcc process it starts
// (vfork) need far more than the interpreter's margin. The caller waits: this
// is only a bigger stack, not concurrency. The thread inherits the caller's
// mask (every signal blocked, SignalsKept) but lets the synchronous ones
// through: a fault in GCC then reaches a handler that reports it (GCC's own
// or a sanitizer's) instead of killing the process without a word.
static gcc_jit_result* compile_on_own_stack(const GccJit& g, gcc_jit_context* cx, std::string& error) {
    struct Job {
        const GccJit* g;
        gcc_jit_context* cx;
        gcc_jit_result* result;
    } job{&g, cx, nullptr};
    auto run = [](void* p) -> void* {
        sigset_t faults;
        sigemptyset(&faults);
        for (int s : {SIGSEGV, SIGBUS, SIGILL, SIGFPE}) sigaddset(&faults, s);
        pthread_sigmask(SIG_UNBLOCK, &faults, nullptr);
        auto* j = static_cast<Job*>(p);
        j->result = j->g->gcc_jit_context_compile(j->cx);
        return nullptr;
    };
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t(64) << 20);   // address space; pages are touched as used
    pthread_t t;
    int rc = pthread_create(&t, &attr, run, &job);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        error = "no thread for the compiler";
        return nullptr;
    }
    pthread_join(t, nullptr);
    return job.result;
}

// ---- the translator ---------------------------------------------------------------------

class Translator {
public:
    Translator(const GccJit& g, Interp& in, std::vector<Proto*> ps) : g_(g), I_(in), batch_(std::move(ps)) {}
    ~Translator() {
        if (cx_) g_.gcc_jit_context_release(cx_);
    }

    // Compiles every proto of the batch in one GCC run; returns the code or
    // null (why in error; refused: the index of a proto left to the tree).
    gcc_jit_result* translate(int* refused);
    std::string error;
    std::vector<Proto::JitEntry> entries;
    std::vector<bool> closed;   // per proto: translated with an unguarded copy too (closed_body)
    uint64_t inlined = 0;       // call sites of closed loops inlined into prefixes

private:
    const GccJit& g_;
    Interp& I_;
    std::vector<Proto*> batch_;
    std::vector<std::string> fnames_;   // the C name of each entry
    Proto* P_ = nullptr;   // the one being translated
    gcc_jit_context* cx_ = nullptr;
    gcc_jit_type *u64_ = nullptr, *i64_ = nullptr, *bool_ = nullptr, *u8_ = nullptr, *u16_ = nullptr,
                 *i16_ = nullptr, *i32_ = nullptr, *vi32_ = nullptr, *vptr_ = nullptr;
    gcc_jit_type *frame_t_ = nullptr, *call_t_ = nullptr;
    gcc_jit_field *frame_f_[3] = {}, *call_f_[3] = {};
    gcc_jit_function *fn_ = nullptr, *entry_fn_ = nullptr, *expect_fn_ = nullptr;
    RV I_v_ = nullptr, base_ = nullptr, self_ = nullptr, frame_addr_ = nullptr;
    RV site_ = nullptr;
    LV frame_ = nullptr;                 // a Frame for tree nodes, filled where one is called
    LV native_call_ = nullptr;           // the ActiveCall of a builtin called from here (one at a time)
    bool may_tail_ = false;              // some way to the epilogue carries a TAILCALL
    BB exit_ = nullptr;
    LV result_ = nullptr;
    BB cur_ = nullptr, top_ = nullptr;   // cur_ null: the code here is unreachable
    int temp_ = 0, max_temp_ = 0;        // temporaries: slots from P->frame_size on
    int names_ = 0;
    int nesting_ = 0;
    static constexpr int MAX_NESTING = 400;
    struct ProgInfo {
        std::vector<BB> labels;
        BB exit;
        LV result;
    };
    std::unordered_map<ProgNode*, ProgInfo> progs_;
    std::unordered_set<Node*> jumps_;   // go/return nodes translated to jumps

    // -- building blocks --
    std::string name(const char* k) { return std::string(k) + std::to_string(names_++); }
    RV word(uint64_t x) { return g_.gcc_jit_context_new_rvalue_from_long(cx_, u64_, long(x)); }
    RV word(Value v) { return word(v.raw); }
    RV ptr_word(const void* p) { return word(uint64_t(reinterpret_cast<uintptr_t>(p))); }
    RV as_rv(LV l) { return g_.gcc_jit_lvalue_as_rvalue(l); }
    LV local(gcc_jit_type* t, const char* k = "v") {
        return g_.gcc_jit_function_new_local(fn_, nullptr, t, name(k).c_str());
    }
    // Every block must end in a jump or return, reachable or not: blocks are
    // recorded, and those that translation left open (dead code after a go,
    // a return or a tail call) end with a return at the end.
    std::vector<BB> blocks_;
    std::unordered_set<BB> ended_;
    BB block(const char* k = "b") {
        BB b = g_.gcc_jit_function_new_block(fn_, name(k).c_str());
        blocks_.push_back(b);
        return b;
    }
    // The body's value: to the epilogue (which runs a TAILCALL and unlinks).
    void ret(RV v) {
        assign(result_, v);
        jump(exit_);
    }
    // Leave the function (the epilogue, and after helpers that throw).
    void end_return(RV v) {
        if (cur_) {
            g_.gcc_jit_block_end_with_return(cur_, nullptr, v);
            ended_.insert(cur_);
        }
        cur_ = nullptr;
    }
    RV bin(gcc_jit_binary_op op, RV a, RV b, gcc_jit_type* t = nullptr) {
        return g_.gcc_jit_context_new_binary_op(cx_, nullptr, op, t ? t : u64_, a, b);
    }
    RV cmp(gcc_jit_comparison op, RV a, RV b) { return g_.gcc_jit_context_new_comparison(cx_, nullptr, op, a, b); }
    RV signed_(RV a) { return g_.gcc_jit_context_new_bitcast(cx_, nullptr, a, i64_); }
    RV land(RV a, RV b) { return bin(GCC_JIT_BINARY_OP_LOGICAL_AND, a, b, bool_); }
    RV lnot(RV a) { return g_.gcc_jit_context_new_unary_op(cx_, nullptr, GCC_JIT_UNARY_OP_LOGICAL_NEGATE, bool_, a); }
    RV eq(RV a, RV b) { return cmp(GCC_JIT_COMPARISON_EQ, a, b); }
    RV ne(RV a, RV b) { return cmp(GCC_JIT_COMPARISON_NE, a, b); }
    RV add(RV a, uint64_t k) { return bin(GCC_JIT_BINARY_OP_PLUS, a, word(k)); }
    // The word of type t at address a + off.
    // An element of an array of t at a (when off is a multiple of t's size),
    // as for slots: GCC then addresses it as off(reg) instead of computing
    // a + off into a register of its own, often a callee-saved one.
    LV mem(RV a, int64_t off, gcc_jit_type* t = nullptr) {
        if (!t) t = u64_;
        int64_t size = t == u8_ ? 1 : t == i16_ || t == u16_ ? 2 : t == i32_ || t == vi32_ ? 4 : t == u64_ || t == i64_ ? 8 : 0;
        RV base = g_.gcc_jit_context_new_bitcast(cx_, nullptr, a, vptr_);
        if (size && off % size == 0) {
            RV p = g_.gcc_jit_context_new_cast(cx_, nullptr, base, g_.gcc_jit_type_get_pointer(t));
            return g_.gcc_jit_context_new_array_access(cx_, nullptr, p, g_.gcc_jit_context_new_rvalue_from_long(cx_, i64_, long(off / size)));
        }
        RV addr = off ? bin(GCC_JIT_BINARY_OP_PLUS, a, word(uint64_t(off))) : a;
        RV p = g_.gcc_jit_context_new_bitcast(cx_, nullptr, addr, vptr_);
        p = g_.gcc_jit_context_new_cast(cx_, nullptr, p, g_.gcc_jit_type_get_pointer(t));
        return g_.gcc_jit_rvalue_dereference(p, nullptr);
    }
    // A slot of the frame, as an element of the array at base: GCC then sees
    // that slots at different indices are different words (with integer
    // address arithmetic it reloaded a slot after every store to another).
    LV slot(int i) {
        RV p = g_.gcc_jit_context_new_cast(cx_, nullptr, g_.gcc_jit_context_new_bitcast(cx_, nullptr, base_, vptr_),
                                           g_.gcc_jit_type_get_pointer(u64_));
        return g_.gcc_jit_context_new_array_access(cx_, nullptr, p, g_.gcc_jit_context_new_rvalue_from_long(cx_, i64_, i));
    }
    // The frame's variables (arguments and let slots) are also held in
    // locals, one per slot: every write goes to both, every read comes from
    // the local. The slot keeps the value rooted and visible to tree nodes
    // and backtraces; the local lets GCC keep it in a register. Reading the
    // slot instead, GCC had to load it again after every helper call on any
    // path before the read (the slots' memory escapes), and in a loop such as
    // shorterp's that was most of the loads. Only a tree node can write a
    // slot behind the compiled code's back (a setq it runs): after one,
    // every local is read again from its slot (fallback).
    std::vector<LV> vars_;
    RV var(int i) { return as_rv(vars_.at(size_t(i))); }
    void set_var(int i, RV v) {
        RV k = keep(v);   // v may be a call: evaluated once
        assign(slot(i), k);
        assign(vars_.at(size_t(i)), k);
    }
    void reload_vars() {
        for (size_t i = 0; i < vars_.size(); i++) assign(vars_[i], as_rv(slot(int(i))));
    }
    LV field(RV obj, size_t off, gcc_jit_type* t = nullptr) { return mem(obj, int64_t(off), t); }
    LV interp(size_t off, gcc_jit_type* t = nullptr) { return mem(I_v_, int64_t(off), t); }
    // Materialise into a fresh local (so later stores cannot change it).
    RV keep(RV v, gcc_jit_type* t = nullptr) {
        LV l = local(t ? t : u64_);
        assign(l, v);
        return as_rv(l);
    }
    void assign(LV l, RV v) {
        if (cur_) g_.gcc_jit_block_add_assignment(cur_, nullptr, l, v);
    }
    void eval(RV v) {
        if (cur_) g_.gcc_jit_block_add_eval(cur_, nullptr, v);
    }
    void jump(BB to) {
        if (cur_) {
            g_.gcc_jit_block_end_with_jump(cur_, nullptr, to);
            ended_.insert(cur_);
        }
        cur_ = nullptr;
    }
    // expect: +1 if c is nearly always true (a guard, a fast path's test),
    // -1 if nearly always false (a limit reached, a poll due). GCC then lays
    // out the likely way as the straight line, the slow paths out of it (by
    // the order of creation, the fast case's block often came after the
    // slow one and every turn of a loop jumped out and back).
    void branch(RV c, BB yes, BB no, int expect = 0) {
        if (cur_ && expect) {
            if (!expect_fn_) expect_fn_ = g_.gcc_jit_context_get_builtin_function(cx_, "__builtin_expect");
            gcc_jit_type* l = g_.gcc_jit_context_get_type(cx_, GCC_JIT_TYPE_LONG);
            RV a[2] = {g_.gcc_jit_context_new_cast(cx_, nullptr, c, l),
                       g_.gcc_jit_context_new_rvalue_from_long(cx_, l, expect > 0 ? 1 : 0)};
            c = ne(g_.gcc_jit_context_new_call(cx_, nullptr, expect_fn_, 2, a), g_.gcc_jit_context_new_rvalue_from_long(cx_, l, 0));
        }
        if (cur_) {
            g_.gcc_jit_block_end_with_conditional(cur_, nullptr, c, yes, no);
            ended_.insert(cur_);
        }
        cur_ = nullptr;
    }
    void end_open_blocks() {
        for (BB b : blocks_)
            if (!ended_.count(b)) {
                g_.gcc_jit_block_end_with_return(b, nullptr, word(NIL));
                ended_.insert(b);
            }
    }
    // A call of a C++ function at a fixed address, all parameters words.
    RV call(const void* f, std::initializer_list<RV> args, gcc_jit_type* ret = nullptr) {
        std::vector<gcc_jit_type*> pt(args.size(), u64_);
        gcc_jit_type* ft = g_.gcc_jit_context_new_function_ptr_type(cx_, nullptr, ret ? ret : u64_, int(pt.size()),
                                                                    pt.data(), 0);
        RV fp = g_.gcc_jit_context_new_rvalue_from_ptr(cx_, ft, const_cast<void*>(f));
        std::vector<RV> a(args);
        return g_.gcc_jit_context_new_call_through_ptr(cx_, nullptr, fp, int(a.size()), a.data());
    }
    RV call_word(RV fword, std::initializer_list<RV> args) {
        std::vector<gcc_jit_type*> pt(args.size(), u64_);
        gcc_jit_type* ft = g_.gcc_jit_context_new_function_ptr_type(cx_, nullptr, u64_, int(pt.size()), pt.data(), 0);
        RV fp = g_.gcc_jit_context_new_bitcast(cx_, nullptr, fword, ft);
        std::vector<RV> a(args);
        return g_.gcc_jit_context_new_call_through_ptr(cx_, nullptr, fp, int(a.size()), a.data());
    }
    template <class F>
    const void* fnaddr(F f) { return reinterpret_cast<const void*>(f); }

    // Fill the ActiveCall record `rec` {I->current_call, base, site} and make
    // it the current call; *prev (if asked): the call it links to. Returns
    // its address.
    RV link_call(LV rec, RV base, RV site, RV* prev = nullptr) {
        LV cc = interp(offsetof(Interp, current_call));
        RV p = keep(as_rv(cc));
        if (prev) *prev = p;
        assign(g_.gcc_jit_lvalue_access_field(rec, nullptr, call_f_[0]), p);
        assign(g_.gcc_jit_lvalue_access_field(rec, nullptr, call_f_[1]), base);
        assign(g_.gcc_jit_lvalue_access_field(rec, nullptr, call_f_[2]), site);
        RV addr = g_.gcc_jit_context_new_bitcast(cx_, nullptr, g_.gcc_jit_lvalue_get_address(rec, nullptr), u64_);
        assign(cc, addr);
        return addr;
    }
    // I->sp = base + temp_ (everything below is live and initialised).
    void set_sp() { assign(interp(offsetof(Interp, sp)), add(base_, uint64_t(temp_) * 8)); }
    int push_temp() {
        int t = temp_++;
        if (temp_ > max_temp_) max_temp_ = temp_;
        return t;
    }
    void poll() {
        if (!cur_) return;
        // volatile: interrupt() sets poll_count from a signal handler or another
        // thread, and a loop without calls must still see it.
        LV pc = interp(offsetof(Interp, poll_count), vi32_);
        RV n = keep(bin(GCC_JIT_BINARY_OP_MINUS, as_rv(pc), g_.gcc_jit_context_new_rvalue_from_long(cx_, i32_, 1), i32_), i32_);
        assign(pc, n);
        BB slow = block("poll"), go = block("polled");
        branch(cmp(GCC_JIT_COMPARISON_LE, n, g_.gcc_jit_context_new_rvalue_from_long(cx_, i32_, 0)), slow, go, -1);
        cur_ = slow;
        set_sp();
        eval(call(fnaddr(h_poll), {I_v_}));
        jump(go);
        cur_ = go;
    }

    // -- the node tree --
    RV expr(Node* n);
    void cond(Node* n, BB yes, BB no);
    // Branch on a non-empty and/or to yes or no, each part tested by test(part, yes, no).
    template <class Test>
    void and_or(AndOrNode* m, BB yes, BB no, Test test) {
        for (size_t i = 0; i + 1 < m->parts.size(); i++) {
            BB next = block();
            if (m->is_and) test(m->parts[i], next, no);
            else test(m->parts[i], yes, next);
            cur_ = next;
        }
        test(m->parts.back(), yes, no);
    }
    RV fallback(Node* n);
    RV if_else(Node* cond, Node* then, Node* els);
    void emit(gcc_jit_function* f, gcc_jit_param* const* params, gcc_jit_function* full, gcc_jit_param* const* full_params);
    void emit_pair(const std::string& fname, gcc_jit_function_kind kind);
    RV int32(int k) { return g_.gcc_jit_context_new_rvalue_from_long(cx_, i32_, k); }
    RV prim(PrimNode* m, BB yes = nullptr, BB no = nullptr, LV slow_value = nullptr);
    std::pair<RV, RV> predicate(PrimNode* m, RV x, RV y);

    // -- leaf exits (see emit) --
    std::unordered_map<Node*, BB> entry_of_;   // a branch of an if -> the block that computes it
    std::vector<BB> resumes_;                   // where a call resumes after the prologue ([0]: top_)
    RV resume_ = nullptr;                       // which of them (the full call's fourth parameter)
    BB leaf_full_ = nullptr;
    bool pure_operand(Node* n);
    RV pure_value(Node* n);
    // A closed loop's prefix loops itself (see leaf_prefix): its arguments
    // are then locals, written back to the slots when it hands over.
    bool closed_ = false;
    bool loop_prefix_ = false;
    std::vector<LV> pv_;
    // Its turns are counted in a local and taken from I->poll_count every
    // TURNS_PER_POLL turns and when it leaves (flush_turns): a volatile
    // decrement at every turn made the loop one chain of stores and loads
    // through memory, each turn waiting for the last one's store.
    static constexpr int TURNS_PER_POLL = 64;
    LV turns_ = nullptr;
    void flush_turns() {
        if (!loop_prefix_ || !cur_) return;
        LV pc = interp(offsetof(Interp, poll_count), vi32_);
        assign(pc, bin(GCC_JIT_BINARY_OP_MINUS, as_rv(pc), as_rv(turns_), i32_));
        assign(turns_, int32(0));
    }
    BB prefix_head_ = nullptr;
    bool self_tail_pure(Node* n);
    RV arg_value(int i) { return loop_prefix_ ? as_rv(pv_.at(size_t(i))) : as_rv(slot(i)); }
    void cxr(PrimOp op, RV x, LV r, BB fail);
    std::pair<RV, RV> arith(PrimOp op, RV x, RV y);
    bool leaf_test(Node* n);
    bool leaf_or_part(Node* n);
    bool has_leaf(Node* n);
    void leaf(Node* n);
    void leaf_cond(Node* n, BB yes, BB no);
    void leaf_return(RV v);
    void full_at_depth_limit();
    void resume_at(BB b);
    void leaf_prefix();
    int leaf_depth_margin_ = 0;   // calls inlined into the prefix: their depth must be clear too

    // -- a call of a closed loop, inlined into the prefix (see inline_call) --
    std::unordered_map<CallGlobal*, Closure*> inlinable_;   // per call site; null: not inlinable
    std::unordered_set<CallGlobal*> inlined_sites_;         // those inline_call has translated
    bool inlining_ = false;        // analysing or translating an inlined body (no nesting)
    LV inline_result_ = nullptr;   // in an inlined body: where a leaf's value goes,
    BB inline_join_ = nullptr;     // and where it goes on
    Closure* inlinable(CallGlobal* c);
    bool decided(Node* n);
    RV inline_call(CallGlobal* c);
    // What the prefix's translation depends on, saved while another body is
    // analysed or inlined.
    struct PrefixContext {
        Proto* P;
        std::vector<std::pair<Symbol*, Value>> assumed;
        Symbol* self_sym;
        RV self;
        std::vector<LV> pv;
        LV turns;
        bool loop_prefix, unguarded, inlining;
        BB leaf_full, prefix_head, inline_join;
        LV inline_result;
    };
    PrefixContext save_prefix() {
        return {P_, assumed_, self_sym_, self_, pv_, turns_, loop_prefix_, unguarded_, inlining_,
                leaf_full_, prefix_head_, inline_join_, inline_result_};
    }
    void restore_prefix(const PrefixContext& c) {
        P_ = c.P, assumed_ = c.assumed, self_sym_ = c.self_sym, self_ = c.self, pv_ = c.pv, turns_ = c.turns;
        loop_prefix_ = c.loop_prefix, unguarded_ = c.unguarded, inlining_ = c.inlining;
        leaf_full_ = c.leaf_full, prefix_head_ = c.prefix_head, inline_join_ = c.inline_join, inline_result_ = c.inline_result;
    }
    gcc_jit_function* full_fn_ = nullptr;   // the full call, when the entry is a leaf prefix

    // -- closed bodies, run without guards (see closed_body) --
    enum class Closed { no, loop, recursion };
    Closed kind_ = Closed::no;      // P_'s body (closed_body, before emit)
    bool unguarded_ = false;        // translating the version that assumes what assumed_ says
    std::vector<std::pair<Symbol*, Value>> assumed_;   // inlined builtins, and the self call's symbol
    Symbol* self_sym_ = nullptr;    // the symbol every call of the body names (its own)
    BB top_check_ = nullptr;        // a closed loop: the test of assumed_, then to the right top
    gcc_jit_function* unguarded_entry_ = nullptr;   // a closed recursion's unguarded pair, while the guarded one is emitted
    Closed closed_body();
    RV assumptions_hold();
    void enter_unguarded();
    RV always() { return eq(word(uint64_t(0)), word(uint64_t(0))); }
    bool may_collect(Node* n) { return !(unguarded_ ? cannot_collect_unguarded(n) : cannot_collect(n)); }
    RV value_of(Symbol* sym) { return as_rv(field(ptr_word(sym), offsetof(Symbol, value))); }
    // The symbol of an inlined builtin still holds it (known, when unguarded).
    RV builtin_ok(Symbol* sym, Value expect) { return unguarded_ ? always() : eq(value_of(sym), word(expect)); }
    RV call_global(CallGlobal* m);
    void call_native(RV fnv, RV cbase, int n, RV site, LV r, BB join, BB generic);
    void funcall_compiled(RV fnv, RV cbase, int n, RV site, LV r, BB join, BB other);
    RV prog(ProgNode* m);
    // ((fnv & 7) == 0 && fnv != 0): a headered object
    RV is_obj_word(RV v) { return land(eq(bin(GCC_JIT_BINARY_OP_BITWISE_AND, v, word(7)), word(0)), ne(v, word(0))); }
    RV untag(RV v) { return bin(GCC_JIT_BINARY_OP_BITWISE_AND, v, word(~TAG_MASK)); }
    RV is_pair_word(RV v) { return eq(bin(GCC_JIT_BINARY_OP_BITWISE_AND, v, word(3)), word(2)); }
    RV is_fix_word(RV v) { return ne(bin(GCC_JIT_BINARY_OP_BITWISE_AND, v, word(1)), word(0)); }
};

RV Translator::if_else(Node* cond_node, Node* then, Node* els) {
    LV r = local(u64_);
    BB a = block("then"), b = block("else"), join = block("fi");
    entry_of_[then] = a;   // for leaf_prefix, which may resume a call here
    entry_of_[els] = b;
    cond(cond_node, a, b);
    cur_ = a;
    assign(r, expr(then));
    jump(join);
    cur_ = b;
    assign(r, expr(els));
    jump(join);
    cur_ = join;
    return as_rv(r);
}

RV Translator::fallback(Node* n) {
    if (!cur_) return word(NIL);
    // A tree node may return TAILCALL (a tail call inside it), unless it is a
    // call not in tail position (it runs its callee's tail calls itself) or a
    // variable.
    auto* c = dynamic_cast<CallGlobal*>(n);
    if (!(c && !c->tail) && !dynamic_cast<GlobalRef*>(n)) may_tail_ = true;
    set_sp();
    assign(g_.gcc_jit_lvalue_access_field(frame_, nullptr, frame_f_[0]), base_);
    assign(g_.gcc_jit_lvalue_access_field(frame_, nullptr, frame_f_[1]), self_);
    assign(g_.gcc_jit_lvalue_access_field(frame_, nullptr, frame_f_[2]), I_v_);
    RV v = keep(call(fnaddr(n->fn), {ptr_word(n), frame_addr_}));
    reload_vars();   // the node may have set a variable
    return v;
}

// Branch on n: to yes if its value is not nil, else to no. A predicate (null,
// <, eq ...) and an and/or of them branch straight to the targets, with no
// t/nil or bool made in between (GCC at -O1 does not thread those jumps).
void Translator::cond(Node* n, BB yes, BB no) {
    if (!cur_) return;
    if (auto* m = dynamic_cast<PrimNode*>(n); m && is_predicate(m->op)) {
        prim(m, yes, no);
        return;
    }
    if (auto* m = dynamic_cast<AndOrNode*>(n)) {
        if (m->parts.empty()) {   // (and) is t, (or) nil
            jump(m->is_and ? yes : no);
            return;
        }
        and_or(m, yes, no, [this](Node* part, BB y, BB n) { cond(part, y, n); });
        return;
    }
    branch(ne(expr(n), word(NIL)), yes, no);
}

// ---- closed bodies -------------------------------------------------------------------
// A loop such as shorterp's (and y (or (null x) (shorterp (cdr x) (cdr y))))
// or queens' conflict (a while over car, cdr, =, + ...) tests at every turn
// that each inlined builtin's symbol still holds the builtin, and that the
// self call's symbol still holds this function; fib and tak test the same at
// every call. Only Lisp code can change them, and such a body runs none: its
// nodes are variables, constants, control (if, and/or, progn, while,
// prog/go/return, let), inlined builtins (whose slow paths are the builtins
// themselves: they compute, allocate or fail, and call no Lisp function) and
// calls of its own symbol with its own arity (which run this same body). So
// the body is translated twice: guarded, as always, and unguarded, entered
// when everything assumed holds; a call of a redefined function or builtin
// goes the guarded way and sees the new definition.
// - A closed loop (while, go, or a self tail call in a body that does not
//   also recurse): emit makes both copies in one function, the unguarded one
//   entered at the top (one test per call, not per turn).
// - A closed recursion (fib, tak: self calls not in tail position): the
//   unguarded copy is a function pair of its own whose self calls call
//   itself, so a whole recursion runs without a guard; the guarded entry
//   tests the assumptions first and tail-calls it (enter_unguarded): one
//   test for the outermost call.
// Other bodies are not worth a second copy: GCC's time grows with the code.
Translator::Closed Translator::closed_body() {
    assumed_.clear();
    self_sym_ = nullptr;
    bool loop = false, self_tail = false, self_nontail = false;
    for (auto& owned : P_->nodes) {
        Node* n = owned.get();
        if (dynamic_cast<ConstNode*>(n) || dynamic_cast<LocalRef*>(n) || dynamic_cast<CapRef*>(n) ||
            dynamic_cast<GlobalRef*>(n) || dynamic_cast<LocalSet*>(n) || dynamic_cast<CapSet*>(n) ||
            dynamic_cast<IfNode*>(n) || dynamic_cast<IfTestNode*>(n) || dynamic_cast<SeqNode*>(n) ||
            dynamic_cast<AndOrNode*>(n) || dynamic_cast<JitBodyNode*>(n))   // (a compiled callee's, see inlinable)
            continue;
        if (auto* m = dynamic_cast<Bind*>(n)) {
            if (m->fn != Bind::plain && m->fn != Bind::boxed) return Closed::no;
        } else if (auto* m = dynamic_cast<PrimNode*>(n)) {
            std::pair<Symbol*, Value> a{m->sym, m->expect};
            if (std::find(assumed_.begin(), assumed_.end(), a) == assumed_.end()) assumed_.push_back(a);
        } else if (dynamic_cast<WhileNode*>(n)) {
            loop = true;
        } else if (auto* m = dynamic_cast<ProgNode*>(n)) {
            if (m->fn != ProgNode::plain) return Closed::no;
        } else if (auto* m = dynamic_cast<GoNode*>(n)) {
            if (!m->signal) return Closed::no;
            loop = true;
        } else if (auto* m = dynamic_cast<ReturnNode*>(n)) {
            if (!m->signal) return Closed::no;
        } else if (auto* m = dynamic_cast<CallGlobal*>(n)) {
            if (int(m->args.size()) != P_->nreq || (self_sym_ && m->sym != self_sym_)) return Closed::no;
            self_sym_ = m->sym;
            (m->tail ? self_tail : self_nontail) = true;
        } else {
            return Closed::no;
        }
    }
    // A self tail call is a loop unless the body also recurses (tak's tail
    // call takes three recursive calls: a tree, not a loop).
    if (self_nontail) return Closed::recursion;
    return loop || self_tail ? Closed::loop : Closed::no;
}
RV Translator::assumptions_hold() {
    RV all = self_sym_ ? eq(value_of(self_sym_), self_) : always();
    for (auto [sym, expect] : assumed_) all = land(all, eq(value_of(sym), word(expect)));
    return all;
}
// A closed recursion's guarded entry, first of all: where the assumptions
// hold, the call is the unguarded pair's (a tail call: no frame here).
void Translator::enter_unguarded() {
    if (!unguarded_entry_ || !cur_) return;
    BB go = block("unguarded"), stay = block("guarded");
    RV own_self = self_;
    self_ = as_rv(slot(-1));   // this call's closure (base_ is this function's)
    branch(assumptions_hold(), go, stay, 1);
    self_ = own_self;
    cur_ = go;
    RV args[3] = {I_v_, base_, site_};
    RV c = g_.gcc_jit_context_new_call(cx_, nullptr, unguarded_entry_, 3, args);
    g_.gcc_jit_rvalue_set_bool_require_tail_call(c, 1);
    end_return(c);
    cur_ = stay;
}

// ---- leaf exits ---------------------------------------------------------------------
// Many calls end at once: (fib n) with n < 2 returns n, (tak x y z) with
// y >= x returns z, and in such recursions these leaf calls are half or more
// of all calls. A leaf call runs no code that can fail, allocate, call or
// loop, so it needs none of the call's bookkeeping (the ActiveCall link is
// for backtraces, the C-stack and value-stack checks for code that goes
// deeper, the poll for loops and calls that come later). leaf_prefix decides
// such calls before the prologue, by the tests of the body's if/and/or spine
// on the arguments and constants, with the same guards as the fast paths:
// where the tests lead to an argument or a constant, it is returned at once;
// where they lead to a branch that does more, the call resumes after the
// prologue at the block that computes that branch (the tests are not made
// twice); where a guard fails (a builtin redefined, not a fixnum), the call
// starts from the top, and the body decides as usual. What differs from a
// full call: nothing that a program sees. The depth limit is checked the same
// (a leaf at the limit goes the full way and fails); a leaf call does not poll
// (the caller's call polled, and so will the next) and is not counted by a
// step limit, which counts polls.
// An argument, a constant, or car, cdr, cadr, cddr, 1+, 1-, +, - of such:
// what the prefix computes on its fast paths (a failed guard: the full call).
bool Translator::pure_operand(Node* n) {
    if (dynamic_cast<ConstNode*>(n)) return true;
    if (auto* l = dynamic_cast<LocalRef*>(n))
        return l->fn == LocalRef::plain && l->slot < P_->nreq;   // an argument (let slots are not set yet)
    auto* m = dynamic_cast<PrimNode*>(n);
    if (!m) return false;
    switch (m->op) {
    case PrimOp::Car: case PrimOp::Cdr: case PrimOp::Cadr: case PrimOp::Cddr:
    case PrimOp::Add1: case PrimOp::Sub1: return pure_operand(m->a);
    case PrimOp::Add: case PrimOp::Sub: return pure_operand(m->a) && pure_operand(m->b);
    default: return false;
    }
}
RV Translator::pure_value(Node* n) {
    if (auto* c = dynamic_cast<ConstNode*>(n)) return word(c->v);
    if (auto* l = dynamic_cast<LocalRef*>(n)) return arg_value(l->slot);
    auto* m = static_cast<PrimNode*>(n);
    RV x = keep(pure_value(m->a));
    RV y = m->b ? keep(pure_value(m->b)) : word(NIL);
    BB go = block();
    branch(builtin_ok(m->sym, m->expect), go, leaf_full_, 1);
    cur_ = go;
    if (m->op == PrimOp::Add1 || m->op == PrimOp::Sub1 || m->op == PrimOp::Add || m->op == PrimOp::Sub) {
        auto [guard, v] = arith(m->op, x, y);
        BB fast = block();
        branch(guard, fast, leaf_full_, 1);
        cur_ = fast;
        return v;
    }
    LV r = local(u64_);
    cxr(m->op, x, r, leaf_full_);
    return as_rv(r);
}
// A self tail call the prefix can make itself: a jump to its top with new
// arguments computed by pure_value.
bool Translator::self_tail_pure(Node* n) {
    auto* c = dynamic_cast<CallGlobal*>(n);
    if (!c || !c->tail || c->sym != self_sym_ || int(c->args.size()) != P_->nreq) return false;
    for (Node* a : c->args)
        if (!pure_operand(a)) return false;
    return true;
}
// Can leaf_cond decide n? A predicate on arguments and constants, (not <test>),
// an and/or of tests, or an argument itself.
bool Translator::leaf_test(Node* n) {
    if (pure_operand(n)) return true;
    if (auto* c = dynamic_cast<CallGlobal*>(n)) return inlinable(c) != nullptr;
    if (auto* m = dynamic_cast<PrimNode*>(n); m && is_predicate(m->op)) {
        if (m->op == PrimOp::Null && !pure_operand(m->a)) return leaf_test(m->a);
        return pure_operand(m->a) && (!m->b || pure_operand(m->b));
    }
    if (auto* m = dynamic_cast<AndOrNode*>(n)) {
        for (Node* p : m->parts)
            if (!leaf_test(p)) return false;
        return !m->parts.empty();
    }
    return false;
}
// A part of an or whose value, when true, is known: t for a predicate (its
// guards held), the argument itself for an argument.
bool Translator::leaf_or_part(Node* n) {
    auto* m = dynamic_cast<PrimNode*>(n);
    return pure_operand(n) || (m && is_predicate(m->op) && leaf_test(n));
}
// The test and branches of an if (either node), or nulls.
static std::array<Node*, 3> if_parts(Node* n) {
    if (auto* m = dynamic_cast<IfNode*>(n)) return {m->test, m->then, m->els};
    if (auto* m = dynamic_cast<IfTestNode*>(n)) return {m->cond, m->then, m->els};
    return {nullptr, nullptr, nullptr};
}
// Does some way through n's spine end in a leaf?
bool Translator::has_leaf(Node* n) {
    if (pure_operand(n)) return true;
    if (auto [test, then, els] = if_parts(n); test) return leaf_test(test) && (has_leaf(then) || has_leaf(els));
    if (auto* m = dynamic_cast<AndOrNode*>(n); m && m->parts.size() > 1)
        return m->is_and ? leaf_test(m->parts[0]) : leaf_or_part(m->parts[0]);
    return false;
}
// At the depth limit the full call reports it; else return v, leaving I->sp
// as the epilogue does. (Checked here, not first: a call that is not a leaf
// does not pay for it twice.)
// Where this call (and an inlined callee, leaf_depth_margin_) would be past
// the depth limit, the full call from the top, which reports it; else on.
void Translator::full_at_depth_limit() {
    BB go = block("belowlimit");
    RV depth = as_rv(interp(offsetof(Interp, depth), i32_));
    if (leaf_depth_margin_) depth = bin(GCC_JIT_BINARY_OP_PLUS, depth, int32(leaf_depth_margin_), i32_);
    branch(cmp(GCC_JIT_COMPARISON_GE, depth, as_rv(interp(offsetof(Interp, max_depth), i32_))), leaf_full_, go, -1);
    cur_ = go;
}
void Translator::leaf_return(RV v) {
    if (!cur_) return;
    if (inline_join_) {   // an inlined body's value, for the prefix that inlined it
        flush_turns();
        assign(inline_result_, v);
        jump(inline_join_);
        return;
    }
    full_at_depth_limit();
    flush_turns();
    assign(interp(offsetof(Interp, sp)), bin(GCC_JIT_BINARY_OP_MINUS, base_, word(8)));
    end_return(v);
}
// The full call, to go on at b after its prologue: a tail call, so that the
// prefix needs no frame and the full call's frame is the only one.
void Translator::resume_at(BB b) {
    if (!cur_) return;
    if (inline_join_) {   // in an inlined body: the prefix that inlined it gives up (leaf_full_ flushes)
        jump(leaf_full_);
        return;
    }
    // Resumed after an inlined call, the full call does not make it: where it
    // would have failed at the depth limit, start from the top.
    if (leaf_depth_margin_ && b != top_) full_at_depth_limit();
    size_t k = 0;
    while (k < resumes_.size() && resumes_[k] != b) k++;
    if (k == resumes_.size()) resumes_.push_back(b);
    if (loop_prefix_)   // the full call reads the arguments from the slots
        for (size_t i = 0; i < pv_.size(); i++) assign(slot(int(i)), as_rv(pv_[i]));
    flush_turns();
    RV args[4] = {I_v_, base_, site_, int32(int(k))};
    RV c = g_.gcc_jit_context_new_call(cx_, nullptr, full_fn_, 4, args);
    g_.gcc_jit_rvalue_set_bool_require_tail_call(c, 1);
    end_return(c);
}
// Branch on test n (leaf_test(n) holds) to yes or no; a failed guard starts
// the call from the top.
void Translator::leaf_cond(Node* n, BB yes, BB no) {
    if (pure_operand(n)) {
        branch(ne(pure_value(n), word(NIL)), yes, no);
        return;
    }
    if (auto* c = dynamic_cast<CallGlobal*>(n)) {
        branch(ne(inline_call(c), word(NIL)), yes, no);
        return;
    }
    if (auto* m = dynamic_cast<PrimNode*>(n)) {
        BB go = block("leaftest");
        if (m->op == PrimOp::Null && !pure_operand(m->a)) {   // (not <test>)
            branch(builtin_ok(m->sym, m->expect), go, leaf_full_, 1);
            cur_ = go;
            leaf_cond(m->a, no, yes);
            return;
        }
        RV x = pure_value(m->a);
        RV y = m->b ? pure_value(m->b) : word(NIL);
        auto [guard, c] = predicate(m, x, y);
        branch(guard, go, leaf_full_, 1);
        cur_ = go;
        branch(c, yes, no);
        return;
    }
    and_or(static_cast<AndOrNode*>(n), yes, no, [this](Node* part, BB y, BB n) { leaf_cond(part, y, n); });
}
// Decide n, a node of the body's spine in tail position, as far as pure tests go.
void Translator::leaf(Node* n) {
    if (!cur_) return;
    if (pure_operand(n)) {
        leaf_return(pure_value(n));
        return;
    }
    if (auto [test, then, els] = if_parts(n); test && has_leaf(n)) {
        BB a = block("leafthen"), b = block("leafelse");
        leaf_cond(test, a, b);
        cur_ = a;
        leaf(then);
        cur_ = b;
        leaf(els);
        return;
    }
    if (auto* m = dynamic_cast<AndOrNode*>(n); m && has_leaf(n)) {
        for (size_t i = 0; i + 1 < m->parts.size(); i++) {
            Node* part = m->parts[i];
            if (!(m->is_and ? leaf_test(part) : leaf_or_part(part))) {
                auto it = entry_of_.find(part);   // not in tail position: resumed where the full call computes it
                resume_at(it != entry_of_.end() ? it->second : top_);
                return;
            }
            BB next = block(), exit = block("leafexit");
            if (m->is_and) {
                leaf_cond(part, next, exit);
                cur_ = exit;
                leaf_return(word(NIL));
            } else {
                leaf_cond(part, exit, next);
                cur_ = exit;
                leaf_return(pure_operand(part) ? pure_value(part) : word(I_.sym.t));
            }
            cur_ = next;
            if (i + 2 == m->parts.size()) {   // the last part: its value is the and/or's
                leaf(m->parts.back());
                return;
            }
        }
    }
    if (loop_prefix_ && self_tail_pure(n)) {
        auto* c = static_cast<CallGlobal*>(n);
        std::vector<RV> v;
        for (Node* a : c->args) v.push_back(keep(pure_value(a)));
        for (size_t i = 0; i < v.size(); i++) assign(pv_[i], v[i]);
        // Count the turn (a self tail call polls); every TURNS_PER_POLL
        // turns, poll: when one is due, the full call (which polls first)
        // goes on with the new arguments.
        RV t = keep(bin(GCC_JIT_BINARY_OP_PLUS, as_rv(turns_), int32(1), i32_), i32_);
        assign(turns_, t);
        BB batch = block("leafturns"), due = block("leafpoll");
        branch(cmp(GCC_JIT_COMPARISON_GE, t, int32(TURNS_PER_POLL)), batch, prefix_head_, -1);
        cur_ = batch;
        flush_turns();
        LV pc = interp(offsetof(Interp, poll_count), vi32_);
        branch(cmp(GCC_JIT_COMPARISON_LE, as_rv(pc), int32(0)), due, prefix_head_, -1);
        cur_ = due;
        resume_at(top_);
        return;
    }
    auto it = entry_of_.find(n);
    resume_at(it != entry_of_.end() ? it->second : top_);
}
// The prefix itself, from cur_ (the function's first block). In a closed
// loop whose self tail calls take pure arguments (shorterp's (cdr x) (cdr y)),
// the prefix is the whole loop: arguments in locals, the assumptions of the
// unguarded copy checked once on entry, and a self tail call a jump back to
// its top, so a call of such a function (takl's mas calls shorterp) makes
// no frame at all unless something fails or is due. It hands over to the
// full call with the arguments of the turn it is in, from the top (nothing
// before was observable: tests, and computations without allocation).
void Translator::leaf_prefix() {
    BB go = cur_;
    loop_prefix_ = false;
    // With a call inlined, a leaf must leave room for the callee's depth: the
    // full call would fail there.
    leaf_depth_margin_ = 0;
    for (auto& owned : P_->nodes)
        if (auto* c = dynamic_cast<CallGlobal*>(owned.get()); c && inlinable(c)) leaf_depth_margin_ = 1;
    if (closed_)
        for (auto& owned : P_->nodes)
            if (self_tail_pure(owned.get())) loop_prefix_ = true;
    pv_.clear();
    if (loop_prefix_) {
        for (int i = 0; i < P_->nreq; i++) pv_.push_back(local(u64_, "arg"));
        turns_ = local(i32_, "turns");
    }
    leaf_full_ = block("leaffull");
    cur_ = leaf_full_;
    resume_at(top_);
    cur_ = go;
    if (!loop_prefix_) {
        leaf(P_->body);
        return;
    }
    for (int i = 0; i < P_->nreq; i++) assign(pv_[size_t(i)], as_rv(slot(i)));
    assign(turns_, int32(0));
    RV full_self = self_;
    self_ = as_rv(slot(-1));   // (self_ of the full call is made of its own parameter)
    prefix_head_ = block("leafloop");
    if (unguarded_) jump(prefix_head_);   // a closed recursion's unguarded pair
    else branch(assumptions_hold(), prefix_head_, leaf_full_, 1);
    cur_ = prefix_head_;
    bool was_unguarded = unguarded_;
    unguarded_ = true;
    leaf(P_->body);
    unguarded_ = was_unguarded;
    loop_prefix_ = false;
    self_ = full_self;
}

// ---- closed loops inlined into a prefix -------------------------------------------
// takl's mas begins (if (not (shorterp y x)) z ...): the test is a call, so
// the prefix could decide nothing, and every call of mas paid the whole
// prologue and epilogue, three quarters of them only to return z. shorterp
// is a closed loop that its own prefix decides entirely (every way through
// its body ends in a leaf or a pure self tail call): such a callee's body is
// translated into the caller's prefix, its arguments in locals. The callee's
// assumptions are checked once — among them that the symbol still holds its
// closure (kept alive by the caller's constants, so that the address cannot
// come back as another closure) — then its loop runs unguarded; anything
// that fails (a guard, a poll that is due) gives the whole call to the full
// function from the top, which calls the callee as before — nothing was
// observable until then. (A body that decided() accepts loops by self tail
// calls, so the callee's assumptions include "its symbol holds it".) The
// inlined call does not poll and is not counted
// by a step limit, like a leaf call.
Node* tree_body(Proto* q) { return q->tree_body ? q->tree_body : q->body; }

Closure* Translator::inlinable(CallGlobal* c) {
    if (inlining_ || c->tail) return nullptr;
    if (auto it = inlinable_.find(c); it != inlinable_.end()) return it->second;
    Closure* found = nullptr;
    Value v = c->sym->value;
    if (is_closure(v)) {
        Closure* k = as_closure(v);
        Proto* q = k->proto;
        bool args_pure = true;
        for (Node* a : c->args) args_pure = args_pure && pure_operand(a);
        if (q != P_ && q->simple && int(c->args.size()) == q->nreq && q->nodes.size() <= 100 && args_pure) {
            PrefixContext saved = save_prefix();
            P_ = q;
            inlining_ = true;
            if (closed_body() == Closed::loop && self_sym_ == c->sym && decided(tree_body(q)))
                found = k;
            restore_prefix(saved);
        }
    }
    inlinable_[c] = found;
    return found;
}
// Does leaf() decide n entirely (a leaf or a pure self tail call at the end
// of every way), with P_ the body's proto?
bool Translator::decided(Node* n) {
    if (pure_operand(n) || self_tail_pure(n)) return true;
    if (auto [test, then, els] = if_parts(n); test) return has_leaf(n) && decided(then) && decided(els);
    if (auto* m = dynamic_cast<AndOrNode*>(n); m && m->parts.size() > 1 && has_leaf(n)) {
        for (size_t i = 0; i + 1 < m->parts.size(); i++)
            if (!(m->is_and ? leaf_test(m->parts[i]) : leaf_or_part(m->parts[i]))) return false;
        return decided(m->parts.back());
    }
    return false;
}
// The value of call c (inlinable), in the prefix: its body as a loop of
// this function, ending at a join with the value in a local.
RV Translator::inline_call(CallGlobal* c) {
    Closure* k = inlinable(c);
    if (inlined_sites_.insert(c).second) {
        P_->constants.push_back(obj_value(k));   // (see above: the address stays this closure's)
        inlined++;
    }
    std::vector<RV> args;
    for (Node* a : c->args) args.push_back(keep(pure_value(a)));
    PrefixContext saved = save_prefix();
    P_ = k->proto;
    inlining_ = true;
    closed_body();   // the callee's assumed_, and self_sym_ (c->sym, checked to hold k)
    self_ = ptr_word(k);
    LV result = local(u64_, "inlined");
    BB join = block("inlined"), fail = block("inlinefail");
    pv_.clear();
    for (size_t i = 0; i < args.size(); i++) {
        pv_.push_back(local(u64_, "iarg"));
        assign(pv_.back(), args[i]);
    }
    turns_ = local(i32_, "iturns");
    assign(turns_, int32(0));
    loop_prefix_ = true;
    leaf_full_ = fail;
    inline_result_ = result;
    inline_join_ = join;
    prefix_head_ = block("inlineloop");
    branch(assumptions_hold(), prefix_head_, fail, 1);
    cur_ = prefix_head_;
    unguarded_ = true;
    leaf(tree_body(P_));
    cur_ = fail;
    flush_turns();
    jump(saved.leaf_full);
    restore_prefix(saved);
    cur_ = join;
    return as_rv(result);
}

RV Translator::expr(Node* n) {
    if (!cur_) return word(NIL);
    // Deeply nested code stays in the tree (the translator recurses on the C stack).
    struct Depth {
        int& d;
        explicit Depth(int& x) : d(x) {
            if (++d > MAX_NESTING) throw Refuse{"nested too deeply"};
        }
        ~Depth() { --d; }
    } depth(nesting_);
    if (auto* m = dynamic_cast<ConstNode*>(n)) return word(m->v);
    if (auto* m = dynamic_cast<LocalRef*>(n)) {
        RV v = keep(var(m->slot));
        if (m->fn == LocalRef::boxed) v = keep(as_rv(field(v, offsetof(Box, v))));
        return v;
    }
    if (auto* m = dynamic_cast<CapRef*>(n)) {
        RV v = keep(as_rv(field(self_, offsetof(Closure, cap) + size_t(m->idx) * 8)));
        if (m->fn == CapRef::boxed) v = keep(as_rv(field(v, offsetof(Box, v))));
        return v;
    }
    if (auto* m = dynamic_cast<GlobalRef*>(n)) {
        LV r = local(u64_);
        assign(r, value_of(m->sym));
        BB unbound = block(), join = block();
        branch(eq(as_rv(r), word(UNBOUND)), unbound, join, -1);
        cur_ = unbound;
        assign(r, fallback(n));   // the tree's error
        jump(join);
        cur_ = join;
        return as_rv(r);
    }
    if (auto* m = dynamic_cast<LocalSet*>(n)) {
        RV v = expr(m->val);
        if (m->fn == LocalSet::boxed) assign(field(var(m->slot), offsetof(Box, v)), v);
        else set_var(m->slot, v);
        return v;
    }
    if (auto* m = dynamic_cast<Bind*>(n)) {
        if (m->fn != Bind::plain && m->fn != Bind::boxed) return fallback(n);
        set_var(m->slot, m->val ? expr(m->val) : word(NIL));
        if (m->fn == Bind::boxed) {   // a variable captured and assigned lives in a Box
            set_sp();                 // the value is rooted in its slot while the box is made
            set_var(m->slot, call(fnaddr(h_box), {I_v_, var(m->slot)}));
        }
        return word(NIL);
    }
    if (auto* m = dynamic_cast<CapSet*>(n)) {   // always boxed (nodes.h)
        RV v = keep(expr(m->val));
        RV box = as_rv(field(self_, offsetof(Closure, cap) + size_t(m->idx) * 8));
        assign(field(box, offsetof(Box, v)), v);
        return v;
    }
    if (auto [test, then, els] = if_parts(n); test) return if_else(test, then, els);
    if (auto* m = dynamic_cast<SeqNode*>(n)) {
        RV v = word(NIL);
        for (Node* part : m->body) v = expr(part);
        return v;
    }
    if (auto* m = dynamic_cast<AndOrNode*>(n)) {
        LV r = local(u64_);
        BB join = block("andor");
        for (size_t i = 0; i < m->parts.size(); i++) {
            if (i > 0) entry_of_[m->parts[i]] = cur_;   // a block of its own (for leaf_prefix)
            if (i + 1 == m->parts.size()) {
                assign(r, expr(m->parts[i]));   // the last part's value, whatever it is (a tail call too)
                break;
            }
            BB next = block();
            if (m->is_and) {
                assign(r, word(NIL));
                cond(m->parts[i], next, join);
            } else if (auto* p = dynamic_cast<PrimNode*>(m->parts[i]); p && is_predicate(p->op)) {
                // The fast path's true is t; the builtin (redefined, or not on
                // fixnums) gives its own value.
                assign(r, word(I_.sym.t));
                prim(p, join, next, r);
            } else {
                RV v = expr(m->parts[i]);
                assign(r, v);
                branch(ne(v, word(NIL)), join, next);
            }
            cur_ = next;
        }
        jump(join);
        cur_ = join;
        return as_rv(r);
    }
    if (auto* m = dynamic_cast<PrimNode*>(n)) return prim(m);
    if (auto* m = dynamic_cast<CallGlobal*>(n)) return call_global(m);
    if (auto* m = dynamic_cast<ProgNode*>(n)) {
        if (m->fn != ProgNode::plain) return fallback(n);
        return prog(m);
    }
    if (auto* m = dynamic_cast<GoNode*>(n)) {
        auto it = progs_.find(m->target);
        if (!m->signal || it == progs_.end()) return fallback(n);
        jumps_.insert(n);
        poll();
        jump(it->second.labels.at(size_t(m->label)));
        return word(NIL);
    }
    if (auto* m = dynamic_cast<ReturnNode*>(n)) {
        auto it = progs_.find(m->target);
        if (!m->signal || it == progs_.end()) return fallback(n);
        jumps_.insert(n);
        RV v = m->val ? expr(m->val) : word(NIL);
        assign(it->second.result, v);
        jump(it->second.exit);
        return word(NIL);
    }
    if (auto* m = dynamic_cast<WhileNode*>(n)) {
        BB head = block("while"), body = block("do"), done = block("done");
        jump(head);
        cur_ = head;
        cond(m->test, body, done);
        cur_ = body;
        expr(m->body);
        poll();
        jump(head);
        cur_ = done;
        return word(NIL);
    }
    return fallback(n);
}

RV Translator::prog(ProgNode* m) {
    ProgInfo& info = progs_[m];
    info = ProgInfo{};   // a closed loop's body is translated twice
    info.exit = block("progexit");
    info.result = local(u64_, "progval");
    for (size_t i = 0; i < m->stmts.size(); i++) info.labels.push_back(block("label"));
    for (Node* b : m->inits) expr(b);
    for (size_t i = 0; i < m->stmts.size(); i++) {
        jump(info.labels[i]);
        cur_ = info.labels[i];
        expr(m->stmts[i]);
    }
    assign(info.result, word(NIL));
    jump(info.exit);
    cur_ = info.exit;
    return as_rv(info.result);
}

// A predicate's fast path on its operands' values: guard (the symbol still
// holds the builtin, the operands are of the kind the fast path decides)
// and, where the guard holds, the predicate's truth.
std::pair<RV, RV> Translator::predicate(PrimNode* m, RV x, RV y) {
    RV ok = builtin_ok(m->sym, m->expect);
    switch (m->op) {
    case PrimOp::Null: return {ok, eq(x, word(NIL))};
    case PrimOp::Consp: return {ok, is_pair_word(x)};
    case PrimOp::Atom: return {ok, lnot(is_pair_word(x))};
    case PrimOp::Eq: return {ok, eq(x, y)};
    case PrimOp::Zerop: return {land(ok, is_fix_word(x)), eq(x, word(make_fixnum(0)))};
    case PrimOp::Eql:   // identical words; or two fixnums, not identical: false
        return {land(ok, bin(GCC_JIT_BINARY_OP_LOGICAL_OR, eq(x, y), land(is_fix_word(x), is_fix_word(y)), bool_)), eq(x, y)};
    default:   // a comparison: the tagging keeps the order
        return {land(ok, is_fix_word(bin(GCC_JIT_BINARY_OP_BITWISE_AND, x, y))), cmp(comparison(m->op), signed_(x), signed_(y))};
    }
}

// The fast path of car, cdr, cadr or cddr of x into r (a pair's field, or
// nil of nil), else a jump to fail; cur_ is left where r is set.
void Translator::cxr(PrimOp op, RV x, LV r, BB fail) {
    BB join = block("cxr");
    if (op == PrimOp::Car || op == PrimOp::Cdr) {
        BB pair = block("pair"), other = block(), nil = block();
        branch(is_pair_word(x), pair, other, 1);
        cur_ = pair;
        assign(r, as_rv(field(untag(x), op == PrimOp::Car ? 0 : 8)));
        jump(join);
        cur_ = other;
        branch(eq(x, word(NIL)), nil, fail);
        cur_ = nil;
        assign(r, word(NIL));
        jump(join);
    } else {
        BB second = block(), pair = block("pair");
        branch(is_pair_word(x), second, fail, 1);
        cur_ = second;
        RV d = keep(as_rv(field(untag(x), 8)));
        branch(is_pair_word(d), pair, fail, 1);
        cur_ = pair;
        assign(r, as_rv(field(untag(d), op == PrimOp::Cadr ? 0 : 8)));
        jump(join);
    }
    cur_ = join;
}

// The fast path of 1+, 1-, + or - on x and y: (the operands are fixnums
// and the result is one, the result).
std::pair<RV, RV> Translator::arith(PrimOp op, RV x, RV y) {
    if (op == PrimOp::Add1 || op == PrimOp::Sub1) {
        // tagged: +-2; overflow of the word is "not a fixnum"
        RV inrange = op == PrimOp::Add1 ? cmp(GCC_JIT_COMPARISON_LE, signed_(x), signed_(word(uint64_t(INT64_MAX - 2))))
                                        : cmp(GCC_JIT_COMPARISON_GE, signed_(x), signed_(word(uint64_t(INT64_MIN + 2))));
        return {land(is_fix_word(x), inrange), bin(op == PrimOp::Add1 ? GCC_JIT_BINARY_OP_PLUS : GCC_JIT_BINARY_OP_MINUS, x, word(2))};
    }
    // x + (y-1) or x - (y-1) on the words; overflow by the sign rule
    RV y1 = bin(GCC_JIT_BINARY_OP_MINUS, y, word(1));
    RV s = keep(bin(op == PrimOp::Add ? GCC_JIT_BINARY_OP_PLUS : GCC_JIT_BINARY_OP_MINUS, x, y1));
    RV ovf_bits = op == PrimOp::Add
        ? bin(GCC_JIT_BINARY_OP_BITWISE_AND, bin(GCC_JIT_BINARY_OP_BITWISE_XOR, x, s), bin(GCC_JIT_BINARY_OP_BITWISE_XOR, y1, s))
        : bin(GCC_JIT_BINARY_OP_BITWISE_AND, bin(GCC_JIT_BINARY_OP_BITWISE_XOR, x, y1), bin(GCC_JIT_BINARY_OP_BITWISE_XOR, x, s));
    RV no_ovf = cmp(GCC_JIT_COMPARISON_GE, signed_(ovf_bits), g_.gcc_jit_context_new_rvalue_from_long(cx_, i64_, 0));
    return {land(is_fix_word(bin(GCC_JIT_BINARY_OP_BITWISE_AND, x, y)), no_ovf), s};
}

// The operation of a PrimNode: operands left to right, the guarded fast path,
// else prim_on_values (the builtin itself). A predicate given yes/no branches
// to them (cond) and returns nothing; slow_value, if given, receives the
// builtin's value when the builtin decides.
RV Translator::prim(PrimNode* m, BB yes, BB no, LV slow_value) {
    PrimOp op = m->op;
    RV x = expr(m->a);
    RV y = word(NIL);
    if (m->b) {
        bool park = may_collect(m->b) && !dynamic_cast<ConstNode*>(m->a);
        int t = 0;
        if (park) {
            t = push_temp();
            assign(slot(t), x);
        }
        y = expr(m->b);
        if (park) temp_ = t;
    }
    if (!cur_) return yes ? nullptr : word(NIL);
    auto slow = [&]() {
        set_sp();
        return call(fnaddr(h_prim), {I_v_, ptr_word(m), x, y});
    };
    if (op == PrimOp::Mul || op == PrimOp::Aref) return keep(slow());   // fast path in prim_on_values
    RV ok = builtin_ok(m->sym, m->expect);
    BB fast = block("fast"), other = block("slow"), join = block("join");

    if (is_predicate(op)) {
        auto [guard, c] = predicate(m, x, y);
        // As a value (no targets given): t on the fast path's true, nil on
        // its false, else the builtin's own value (a redefined < may return
        // anything): the same branches, into two blocks that set it.
        LV value = nullptr;
        if (!yes) {
            value = slow_value = local(u64_);
            assign(value, word(I_.sym.t));
            yes = block("true");
            no = block("false");
        }
        branch(guard, fast, other, 1);
        cur_ = fast;
        branch(c, yes, no);
        cur_ = other;
        RV v = keep(slow());
        if (slow_value) assign(slow_value, v);
        branch(ne(v, word(NIL)), yes, no);
        if (!value) return nullptr;
        cur_ = no;
        assign(value, word(NIL));
        jump(yes);
        cur_ = yes;
        return as_rv(value);
    }

    // Each case branches to `fast` (where it computes r) or to `other` (the builtin).
    LV r = local(u64_);
    switch (op) {
    case PrimOp::Cons: {
        // Heap::cons's fast path: the next cell of the current run; at the
        // run's end, the heap (which may collect: x and y are kept alive).
        BB bump = block("bump"), refill = block("refill");
        branch(ok, fast, other, 1);
        cur_ = fast;
        size_t run = offsetof(Interp, heap) + Heap::cons_run_offset();
        LV next = interp(run);
        RV c = keep(as_rv(next));
        branch(ne(c, as_rv(interp(run + 8))), bump, refill, 1);
        cur_ = bump;
        assign(next, add(c, sizeof(Cons)));
        assign(mem(c, 0), x);
        assign(mem(c, 8), y);
        assign(r, bin(GCC_JIT_BINARY_OP_BITWISE_OR, c, word(TAG_CONS)));
        jump(join);
        cur_ = refill;
        set_sp();
        assign(r, call(fnaddr(h_cons), {I_v_, x, y}));
        break;
    }
    case PrimOp::Car: case PrimOp::Cdr: case PrimOp::Cadr: case PrimOp::Cddr:
        branch(ok, fast, other, 1);
        cur_ = fast;
        cxr(op, x, r, other);
        break;
    case PrimOp::Add1: case PrimOp::Sub1: case PrimOp::Add: case PrimOp::Sub: {
        auto [guard, v] = arith(op, x, y);
        branch(land(ok, guard), fast, other, 1);
        cur_ = fast;
        assign(r, v);
        break;
    }
    default: throw Refuse{"a primitive without a translation"};
    }
    jump(join);
    cur_ = other;
    assign(r, slow());
    jump(join);
    cur_ = join;
    return as_rv(r);
}

// A call of a global. The function is read first (as the tree does); a
// closure that is not a DF or a builtin gets its arguments computed here into
// slots above the frame, then: this same function -> our own entry, called
// directly; a compiled simple closure -> its entry; anything else ->
// call_prepared. A DF, an unbound symbol or a non-function goes the tree way.
// In tail position: a call of this function with its own arity becomes a
// jump to the top; other closures return TAILCALL to the call loop.
RV Translator::call_global(CallGlobal* m) {
    int n = int(m->args.size());
    // Unguarded, the symbol is known to hold this function (assumed_).
    RV fnv = keep(unguarded_ ? self_ : value_of(m->sym));
    RV type = as_rv(field(fnv, offsetof(Obj, type), u8_));
    RV flags = as_rv(field(fnv, offsetof(Obj, flags), u16_));
    RV is_closure = eq(type, g_.gcc_jit_context_new_rvalue_from_long(cx_, u8_, long(Type::Closure)));
    RV not_df = eq(bin(GCC_JIT_BINARY_OP_BITWISE_AND, flags, g_.gcc_jit_context_new_rvalue_from_long(cx_, u16_, CLOSURE_FEXPR), u16_),
                   g_.gcc_jit_context_new_rvalue_from_long(cx_, u16_, 0));
    RV is_native = eq(type, g_.gcc_jit_context_new_rvalue_from_long(cx_, u8_, long(Type::Native)));
    LV r = local(u64_, "callval");
    BB direct = block("call"), tree = block("treecall"), join = block("called"), checks = block();
    // This function calling itself (the usual hot case) needs no further test.
    if (unguarded_) jump(direct);
    else branch(eq(fnv, self_), direct, checks, 1);
    cur_ = checks;
    RV ours = land(is_obj_word(fnv), bin(GCC_JIT_BINARY_OP_LOGICAL_OR, is_native, land(is_closure, not_df), bool_));
    branch(ours, direct, tree, 1);

    cur_ = tree;
    RV tv = fallback(m);
    if (m->tail) {
        ret(tv);
    } else {
        assign(r, tv);
        jump(join);
    }

    cur_ = direct;
    // The function, then the arguments, go in slots from t: the callee's frame
    // starts at t + 1. A value must be in its slot (rooted) before anything
    // that may collect is computed; the rest are stored once all are known,
    // and a self tail call, which takes them from the locals, stores none.
    // I->sp covers only the slots stored (temp_ = t + stored): the others
    // may hold anything, and an argument's own temporaries use them.
    int t = temp_;
    max_temp_ = std::max(max_temp_, t + 1 + n);
    std::vector<RV> vals;
    int stored = 0;   // fnv and vals[0 .. stored - 2] are in their slots
    auto store_upto = [&](int k) {
        for (; stored < k; stored++) assign(slot(t + stored), stored == 0 ? fnv : vals[size_t(stored - 1)]);
        temp_ = t + stored;
    };
    for (Node* a : m->args) {
        if (may_collect(a)) store_upto(int(vals.size()) + 1);
        vals.push_back(keep(expr(a)));
    }
    RV cbase = add(base_, uint64_t(t + 1) * 8);
    bool own_arity = n == P_->nreq;
    if (m->tail) {
        if (own_arity) {
            BB loop = block("selftail"), other = block("tail");
            if (unguarded_) jump(loop);
            else branch(eq(fnv, self_), loop, other, 1);
            cur_ = loop;
            for (int i = 0; i < n; i++) set_var(i, vals[size_t(i)]);
            for (int i = n; i < P_->frame_size; i++) set_var(i, word(NIL));
            temp_ = t;
            poll();
            jump(top_check_ && !unguarded_ ? top_check_ : top_);
            cur_ = other;
        }
        store_upto(n + 1);
        BB closure_tail = block("tail"), native_tail = block("tailbuiltin");
        branch(is_closure, closure_tail, native_tail);
        cur_ = closure_tail;
        assign(interp(offsetof(Interp, tail_fn)), fnv);
        assign(interp(offsetof(Interp, tail_args)), cbase);
        assign(interp(offsetof(Interp, tail_argc), i32_), g_.gcc_jit_context_new_rvalue_from_long(cx_, i32_, n));
        temp_ = t + 1 + n;
        set_sp();
        may_tail_ = true;
        ret(word(TAILCALL));
        // A builtin in tail position is simply called, as the tree does: it
        // does not grow the Lisp stack, and its arguments (often the
        // recursive call, as in (append r (f (cdr xs)))) stay compiled.
        cur_ = native_tail;
        set_sp();   // I->sp = cbase + n, as for any call
        BB native_done = block("tailbuiltin_done"), native_generic = block("tailbuiltin_generic");
        if (is_funcall(m)) {
            BB builtin = block();
            funcall_compiled(fnv, cbase, n, ptr_word(&m->pos), r, native_done, builtin);
            cur_ = builtin;
        }
        call_native(fnv, cbase, n, ptr_word(&m->pos), r, native_done, native_generic);
        cur_ = native_generic;
        assign(r, call(fnaddr(h_call), {I_v_, cbase, word(uint64_t(n)), ptr_word(&m->pos)}));
        jump(native_done);
        cur_ = native_done;
        ret(as_rv(r));
        temp_ = t;
        return word(NIL);   // what follows a tail call is unreachable
    }
    store_upto(n + 1);
    set_sp();   // I->sp = cbase + n, as invoke expects
    RV site = ptr_word(&m->pos);
    BB self_call = block("self"), compiled = block("compiled"), generic = block("generic"), check = block();
    if (own_arity && unguarded_) jump(self_call);
    else if (own_arity) branch(eq(fnv, self_), self_call, check, 1);
    else jump(check);
    cur_ = self_call;
    if (own_arity) {
        RV a[3] = {I_v_, cbase, site};
        assign(r, g_.gcc_jit_context_new_call(cx_, nullptr, entry_fn_, 3, a));
    }
    jump(join);
    cur_ = check;
    // a compiled simple closure of this arity?
    BB closure = block(), native = block("native");
    branch(is_closure, closure, native);
    cur_ = native;
    if (is_funcall(m)) {
        BB builtin = block();
        funcall_compiled(fnv, cbase, n, site, r, join, builtin);
        cur_ = builtin;
    }
    call_native(fnv, cbase, n, site, r, join, generic);
    cur_ = closure;
    RV proto = keep(as_rv(field(fnv, offsetof(Closure, proto))));
    RV entry_word = keep(as_rv(field(proto, offsetof(Proto, jit_entry))));
    RV arity_ok = eq(as_rv(field(proto, offsetof(Proto, simple_nargs), i32_)), g_.gcc_jit_context_new_rvalue_from_long(cx_, i32_, n));
    branch(land(arity_ok, ne(entry_word, word(0))), compiled, generic);
    cur_ = compiled;
    assign(r, call_word(entry_word, {I_v_, cbase, site}));
    jump(join);
    cur_ = generic;
    assign(r, call(fnaddr(h_call), {I_v_, cbase, word(uint64_t(n)), site}));
    jump(join);
    temp_ = t;
    cur_ = join;
    return as_rv(r);
}

// A builtin (fnv, known to be a Native) with arity and a C++ function: what
// call_builtin_linked does (eval.cpp), here, so that a builtin costs an
// indirect call, not two more calls and the checks again. Link an ActiveCall
// (backtraces name the builtin; errors restore current_call through the
// MachineState snapshots, as for the tree), check the C stack, call, unlink.
// Anything else goes to `generic`.
void Translator::call_native(RV fnv, RV cbase, int n, RV site, LV r, BB join, BB generic) {
    RV fn = keep(as_rv(field(fnv, offsetof(Native, fn))));
    RV lo = as_rv(field(fnv, offsetof(Native, min_args), i16_));
    RV hi = as_rv(field(fnv, offsetof(Native, max_args), i16_));
    RV n16 = g_.gcc_jit_context_new_rvalue_from_long(cx_, i16_, n), zero16 = g_.gcc_jit_context_new_rvalue_from_long(cx_, i16_, 0);
    RV arity_ok = land(cmp(GCC_JIT_COMPARISON_LE, lo, n16),
                       bin(GCC_JIT_BINARY_OP_LOGICAL_OR, cmp(GCC_JIT_COMPARISON_LT, hi, zero16), cmp(GCC_JIT_COMPARISON_LE, n16, hi), bool_));
    BB go = block("builtin"), deep = block("builtin_deep"), run = block();
    branch(land(ne(fn, word(0)), arity_ok), go, generic);
    cur_ = go;
    if (!native_call_) native_call_ = local(call_t_, "bcall");
    LV cc = interp(offsetof(Interp, current_call));
    RV prev;
    RV addr = link_call(native_call_, cbase, site, &prev);
    branch(cmp(GCC_JIT_COMPARISON_LT, addr, as_rv(interp(offsetof(Interp, cstack_limit)))), deep, run, -1);
    cur_ = deep;
    assign(cc, prev);
    eval(call(fnaddr(h_stack_overflow), {I_v_}));   // throws
    end_return(word(NIL));
    cur_ = run;
    gcc_jit_type* pt[3] = {u64_, u64_, i32_};
    gcc_jit_type* ft = g_.gcc_jit_context_new_function_ptr_type(cx_, nullptr, u64_, 3, pt, 0);
    RV args[3] = {I_v_, cbase, g_.gcc_jit_context_new_rvalue_from_long(cx_, i32_, n)};
    assign(r, g_.gcc_jit_context_new_call_through_ptr(cx_, nullptr, g_.gcc_jit_context_new_bitcast(cx_, nullptr, fn, ft), 3, args));
    assign(interp(offsetof(Interp, sp)), bin(GCC_JIT_BINARY_OP_MINUS, cbase, word(8)));
    assign(cc, prev);
    jump(join);
}

// (funcall f args...), fnv a builtin: if it is funcall and f a compiled simple
// closure taking the n - 1 arguments, link funcall's ActiveCall as the
// builtin's would be and enter f's machine code on the arguments where they
// are, with no invoke and no tree in between (flat-map, filter and every
// search driver that calls a lambda). Anything else goes to `other`.
void Translator::funcall_compiled(RV fnv, RV cbase, int n, RV site, LV r, BB join, BB other) {
    BB check = block(), closure = block(), go = block("funcall");
    RV fn = as_rv(field(fnv, offsetof(Native, fn)));
    branch(eq(fn, ptr_word(fnaddr(funcall_builtin))), check, other);
    cur_ = check;
    RV f = keep(as_rv(mem(cbase, 0)));
    RV f_is_closure = eq(as_rv(field(f, offsetof(Obj, type), u8_)), g_.gcc_jit_context_new_rvalue_from_long(cx_, u8_, long(Type::Closure)));
    branch(land(is_obj_word(f), f_is_closure), closure, other);
    cur_ = closure;
    RV proto = keep(as_rv(field(f, offsetof(Closure, proto))));
    RV entry = keep(as_rv(field(proto, offsetof(Proto, jit_entry))));
    RV arity_ok = eq(as_rv(field(proto, offsetof(Proto, simple_nargs), i32_)), g_.gcc_jit_context_new_rvalue_from_long(cx_, i32_, n - 1));
    branch(land(arity_ok, ne(entry, word(0))), go, other);
    cur_ = go;
    if (!native_call_) native_call_ = local(call_t_, "bcall");
    RV prev;
    link_call(native_call_, cbase, site, &prev);   // f's entry checks the C stack, deeper
    assign(r, call_word(entry, {I_v_, add(cbase, 8), ptr_word(&no_site)}));
    assign(interp(offsetof(Interp, sp)), bin(GCC_JIT_BINARY_OP_MINUS, cbase, word(8)));
    assign(interp(offsetof(Interp, current_call)), prev);
    jump(join);
}

// The function named fname (its entry becomes entry_fn_) and, where the body
// has a leaf prefix, fname_full behind it; then emit.
void Translator::emit_pair(const std::string& fname, gcc_jit_function_kind kind) {
    gcc_jit_param* ep[3];
    gcc_jit_param* fp[4] = {};
    const char* pnames[4] = {"I", "base", "site", "resume"};
    for (int i = 0; i < 3; i++) ep[i] = g_.gcc_jit_context_new_param(cx_, nullptr, u64_, pnames[i]);
    entry_fn_ = g_.gcc_jit_context_new_function(cx_, nullptr, kind, u64_, fname.c_str(), 3, ep, 0);
    gcc_jit_function* full = nullptr;
    if (has_leaf(P_->body)) {
        for (int i = 0; i < 4; i++) fp[i] = g_.gcc_jit_context_new_param(cx_, nullptr, i < 3 ? u64_ : i32_, pnames[i]);
        full = g_.gcc_jit_context_new_function(cx_, nullptr, GCC_JIT_FUNCTION_INTERNAL, u64_, (fname + "_full").c_str(), 4, fp, 0);
    }
    emit(entry_fn_, ep, full, fp);
}

// The compiled function of P_: the call's bookkeeping (what link_call and
// enter_simple do in eval.cpp), the body, then the undoing (see the top of
// the file).
void Translator::emit(gcc_jit_function* f, gcc_jit_param* const* params, gcc_jit_function* full,
                      gcc_jit_param* const* full_params) {
    // With a leaf prefix, f is the prefix and full the call (with one more
    // parameter: where to resume); else f is the call.
    fn_ = full ? full : f;
    gcc_jit_param* const* ps = full ? full_params : params;
    blocks_.clear();
    progs_.clear();
    jumps_.clear();
    nesting_ = 0;
    may_tail_ = false;
    I_v_ = g_.gcc_jit_param_as_rvalue(ps[0]);
    base_ = g_.gcc_jit_param_as_rvalue(ps[1]);
    site_ = g_.gcc_jit_param_as_rvalue(ps[2]);
    resume_ = full ? g_.gcc_jit_param_as_rvalue(ps[3]) : nullptr;
    frame_ = local(frame_t_, "frame");
    vars_.clear();
    for (int i = 0; i < P_->frame_size; i++) vars_.push_back(local(u64_, "var"));
    native_call_ = nullptr;
    frame_addr_ = g_.gcc_jit_context_new_bitcast(cx_, nullptr, g_.gcc_jit_lvalue_get_address(frame_, nullptr), u64_);
    entry_of_.clear();
    resumes_.clear();
    cur_ = block("prologue");
    if (!full) enter_unguarded();
    // Link the ActiveCall, count depth, check the C stack, poll.
    LV call_rec = local(call_t_, "call");
    LV cc = interp(offsetof(Interp, current_call));
    RV call_addr = link_call(call_rec, base_, site_);
    LV depth = interp(offsetof(Interp, depth), i32_);
    RV d = keep(bin(GCC_JIT_BINARY_OP_PLUS, as_rv(depth), int32(1), i32_), i32_);
    assign(depth, d);
    BB over = block("deep"), fine = block("ok");
    RV too_deep = bin(GCC_JIT_BINARY_OP_LOGICAL_OR,
                      cmp(GCC_JIT_COMPARISON_GT, d, as_rv(interp(offsetof(Interp, max_depth), i32_))),
                      cmp(GCC_JIT_COMPARISON_LT, call_addr, as_rv(interp(offsetof(Interp, cstack_limit)))), bool_);
    branch(too_deep, over, fine, -1);
    cur_ = over;
    eval(call(fnaddr(h_call_overflow), {I_v_, call_addr}));   // throws
    end_return(word(NIL));
    cur_ = fine;
    temp_ = P_->nreq;   // I->sp is at the arguments' end, as the caller left it
    poll();
    // Read from memory at each use, as are the ActiveCall's prev and site in
    // the epilogue: the slot and the record do not change during the call, and
    // three fewer values held across calls are three callee-saved registers
    // GCC does not save and restore in every call.
    self_ = as_rv(slot(-1));
    exit_ = block("exit");
    result_ = local(u64_, "result");
    BB stack_check = cur_;   // ended below, once the temporaries are known

    // The body (a self tail call jumps back to top_, having set the frame).
    top_ = block("top");
    resumes_.push_back(top_);
    cur_ = top_;
    temp_ = max_temp_ = P_->frame_size;
    // A closed loop is translated twice here; a closed recursion's unguarded
    // pair is emitted on its own (translate), its prefix may loop (closed_).
    bool closed = kind_ == Closed::loop;
    closed_ = closed || (kind_ == Closed::recursion && unguarded_);
    top_check_ = closed ? block("assume") : nullptr;
    ret(expr(P_->body));
    if (closed) {
        // A closed loop: the body again, without the guards of its inlined
        // builtins and self calls, entered where they all hold (top_check_).
        // Nothing in it can change a symbol's value (no other calls, no tree
        // nodes; a builtin's slow path does not run Lisp code), so what held
        // at the top holds until it returns.
        auto entries = entry_of_;   // resumes stay in the guarded version
        BB guarded_top = top_;
        top_ = block("top_unguarded");
        cur_ = top_;
        temp_ = P_->frame_size;
        unguarded_ = true;
        ret(expr(P_->body));
        unguarded_ = false;
        cur_ = top_check_;
        branch(assumptions_hold(), top_, guarded_top, 1);
        top_ = guarded_top;
        entry_of_ = std::move(entries);
    }
    // Every go/return aimed at a translated prog must have become a jump: one
    // left inside a tree node would return SIGNAL to code that ignores it.
    for (auto& node : P_->nodes) {
        ProgNode* target = nullptr;
        if (auto* gn = dynamic_cast<GoNode*>(node.get())) target = gn->target;
        if (auto* rn = dynamic_cast<ReturnNode*>(node.get())) target = rn->target;
        if (target && progs_.count(target) && !jumps_.count(node.get()))
            throw Refuse{"a go or return inside an untranslated form"};
    }

    // The value-stack check covers the frame and every temporary.
    cur_ = stack_check;
    BB overflow = block("overflow"), fits = block();
    RV end = add(base_, uint64_t(max_temp_ + 1) * 8);
    branch(cmp(GCC_JIT_COMPARISON_GT, end, as_rv(interp(offsetof(Interp, stack_hi)))), overflow, fits, -1);
    cur_ = overflow;
    eval(call(fnaddr(h_stack_overflow), {I_v_}));   // throws
    ret(word(NIL));
    cur_ = fits;
    for (int i = 0; i < P_->nreq; i++) assign(vars_[size_t(i)], as_rv(slot(i)));
    for (int i = P_->nreq; i < P_->frame_size; i++) set_var(i, word(NIL));
    BB after_prologue = cur_;

    // The epilogue. Entered from the tree (no site), a tail call goes back to
    // the tree's call loop, which runs it in this frame; called from compiled
    // code, it is run here.
    // (Without a way for a TAILCALL to get here, there is nothing to test.)
    cur_ = exit_;
    if (may_tail_) {
        BB tail = block("tailcall"), done = block("done");
        branch(land(eq(as_rv(result_), word(TAILCALL)), ne(as_rv(g_.gcc_jit_lvalue_access_field(call_rec, nullptr, call_f_[2])), word(0))), tail, done);
        cur_ = tail;
        assign(result_, call(fnaddr(h_finish_tail), {I_v_, base_}));
        jump(done);
        cur_ = done;
    }
    assign(interp(offsetof(Interp, sp)), bin(GCC_JIT_BINARY_OP_MINUS, base_, word(8)));
    assign(depth, bin(GCC_JIT_BINARY_OP_MINUS, as_rv(depth), int32(1), i32_));
    assign(cc, as_rv(g_.gcc_jit_lvalue_access_field(call_rec, nullptr, call_f_[0])));
    end_return(as_rv(result_));

    if (full) {
        // The prefix, in f: it returns a leaf's value or calls full (a tail
        // call: f has no frame of its own), which resumes where it is told.
        RV full_args[3] = {I_v_, base_, site_};
        full_fn_ = full;
        fn_ = f;
        I_v_ = g_.gcc_jit_param_as_rvalue(params[0]);
        base_ = g_.gcc_jit_param_as_rvalue(params[1]);
        site_ = g_.gcc_jit_param_as_rvalue(params[2]);
        cur_ = block("entry");
        enter_unguarded();
        leaf_prefix();
        fn_ = full;
        I_v_ = full_args[0], base_ = full_args[1], site_ = full_args[2];
        cur_ = after_prologue;
        for (size_t k = 1; k < resumes_.size(); k++) {
            BB next = block();
            branch(eq(resume_, int32(int(k))), resumes_[k], next);
            cur_ = next;
        }
    } else {
        cur_ = after_prologue;
    }
    jump(top_check_ ? top_check_ : top_);
    end_open_blocks();
}

gcc_jit_result* Translator::translate(int* refused) {
    *refused = -1;
    // GCC's time grows with the function: a huge one (a generated table, a
    // long top-level form) stays in the tree.
    for (size_t k = 0; k < batch_.size(); k++)
        if (batch_[k]->nodes.size() > 4000) {
            *refused = int(k);
            error = "too large";
            return nullptr;
        }
    cx_ = g_.gcc_jit_context_acquire();
    expect_fn_ = nullptr;
    if (!cx_) {
        error = "gcc_jit_context_acquire failed";
        return nullptr;
    }
    g_.gcc_jit_context_set_int_option(cx_, GCC_JIT_INT_OPTION_OPTIMIZATION_LEVEL, 1);
    g_.gcc_jit_context_set_bool_allow_unreachable_blocks(cx_, 1);
    // The assembler and linker are run by the gcc command, not by GCC's driver
    // inside this process: that one sets SIGINT to SIG_IGN for a moment, which
    // throws away a Ctrl-C that is waiting (see SignalsKept).
    g_.gcc_jit_context_set_bool_use_external_driver(cx_, 1);
    g_.gcc_jit_context_set_bool_print_errors_to_stderr(cx_, 0);   // (jit-stats) has the message
    // LIPQ_JIT_DUMP=1: print the generated assembly on stderr (for developers).
    if (const char* d = std::getenv("LIPQ_JIT_DUMP"); d && d[0] == '1')
        g_.gcc_jit_context_set_bool_option(cx_, GCC_JIT_BOOL_OPTION_DUMP_GENERATED_CODE, 1);
    g_.gcc_jit_context_add_command_line_option(cx_, "-fexceptions");
    // The linker is told to leave out libc and libgcc: the code calls the
    // helpers by address, and anything else it might name (memcpy, the
    // unwinder) is found in the process when the object is loaded. Scanning
    // the libraries was a quarter of the gcc command's 40 ms per compilation.
    g_.gcc_jit_context_add_driver_option(cx_, "-nodefaultlibs");
    g_.gcc_jit_context_add_command_line_option(cx_, "-fno-semantic-interposition");
    // Aligned branch targets: at -O1 GCC packs the code, and the same
    // functions ran up to 10 % faster or slower with where a loop or a
    // call's return happened to fall (one instruction more or less moved
    // takl by 10 %). With 32-byte alignment: fib -16 %, tait -5 %, takl
    // +3 %, tak, queens and flatqueens level (README, "Third round").
    // Not in AddressSanitizer builds: GCC 12 caches a parsed -falign-*=N in a
    // static table keyed by the option's text, and that text is libgccjit's
    // copy of the command line, freed after each compilation; the next
    // compilation's lookup strcmp()s the stale key. In a plain build this
    // reads a freed 17-byte block (a cache miss at worst: the value is parsed
    // again); ASan's strcmp interceptor reports it as a use after free and
    // stops. Only code layout differs between the two builds.
#if !LIPQ_ASAN
    for (const char* o : {"-falign-functions=32", "-falign-jumps=32", "-falign-loops=32"})
        g_.gcc_jit_context_add_command_line_option(cx_, o);
#endif
    u64_ = g_.gcc_jit_context_get_type(cx_, GCC_JIT_TYPE_UNSIGNED_LONG_LONG);
    i64_ = g_.gcc_jit_context_get_type(cx_, GCC_JIT_TYPE_LONG_LONG);
    i32_ = g_.gcc_jit_context_get_type(cx_, GCC_JIT_TYPE_INT);
    vi32_ = g_.gcc_jit_type_get_volatile(i32_);   // poll_count (see poll)
    i16_ = g_.gcc_jit_context_get_type(cx_, GCC_JIT_TYPE_SHORT);
    u8_ = g_.gcc_jit_context_get_type(cx_, GCC_JIT_TYPE_UNSIGNED_CHAR);
    u16_ = g_.gcc_jit_context_get_type(cx_, GCC_JIT_TYPE_UNSIGNED_SHORT);
    bool_ = g_.gcc_jit_context_get_type(cx_, GCC_JIT_TYPE_BOOL);
    vptr_ = g_.gcc_jit_context_get_type(cx_, GCC_JIT_TYPE_VOID_PTR);
    // struct Frame { Value* slots; Closure* self; Interp* I; } and
    // struct ActiveCall { ActiveCall* prev; Value* base; const SourcePos* site; }, as words.
    static_assert(sizeof(Frame) == 24 && offsetof(Frame, self) == 8 && offsetof(Frame, I) == 16);
    static_assert(sizeof(ActiveCall) == 24 && offsetof(ActiveCall, base) == 8 && offsetof(ActiveCall, site) == 16);
    const char* fnames[3] = {"slots", "self", "I"};
    const char* cnames[3] = {"prev", "base", "site"};
    for (int i = 0; i < 3; i++) {
        frame_f_[i] = g_.gcc_jit_context_new_field(cx_, nullptr, u64_, fnames[i]);
        call_f_[i] = g_.gcc_jit_context_new_field(cx_, nullptr, u64_, cnames[i]);
    }
    frame_t_ = g_.gcc_jit_struct_as_type(g_.gcc_jit_context_new_struct_type(cx_, nullptr, "Frame", 3, frame_f_));
    call_t_ = g_.gcc_jit_struct_as_type(g_.gcc_jit_context_new_struct_type(cx_, nullptr, "ActiveCall", 3, call_f_));

    for (size_t k = 0; k < batch_.size(); k++) {
        P_ = batch_[k];
        // Named after the function, so that perf and callgrind say which it is.
        std::string fname = "lipq_" + std::to_string(k) + "_";
        for (char c : P_->name) fname += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
        fnames_.push_back(fname);
        try {
            kind_ = closed_body();
            closed.push_back(kind_ != Closed::no);
            unguarded_entry_ = nullptr;
            if (kind_ == Closed::recursion) {   // the unguarded pair first: its self calls call it
                unguarded_ = true;
                emit_pair(fname + "_unguarded", GCC_JIT_FUNCTION_INTERNAL);
                unguarded_ = false;
                unguarded_entry_ = entry_fn_;
            }
            emit_pair(fname, GCC_JIT_FUNCTION_EXPORTED);
        } catch (Refuse& r) {
            *refused = int(k);
            error = r.why;
            return nullptr;
        }
    }
    gcc_jit_result* res;
    {
        SignalsKept kept;
        res = compile_on_own_stack(g_, cx_, error);
    }
    if (!res) {
        const char* e = g_.gcc_jit_context_get_first_error(cx_);
        if (e) error = e;
        if (error.empty()) error = "libgccjit: compilation failed";
        return nullptr;
    }
    for (size_t k = 0; k < batch_.size(); k++) {
        entries.push_back(reinterpret_cast<Proto::JitEntry>(g_.gcc_jit_result_get_code(res, fnames_[k].c_str())));
    }
    return res;
}

// The code of one GCC run, shared by the protos compiled in it.
struct JitCode {
    gcc_jit_result* result;
    int users;
};

} // namespace

bool jit_available(Interp& I) {
    const GccJit& g = gccjit();
    if (!g.error.empty()) {
        I.jit_stats.unavailable = g.error;
        return false;
    }
    return true;
}

// A GCC run costs 50-100 ms whatever it compiles (the gcc, as and ld
// processes dominate), so the function that got hot takes along the other
// simple functions already warm (a quarter of the threshold), up to 16.
static std::vector<Proto*> batch_for(Interp& I, Proto* hot) {
    std::vector<Proto*> batch{hot};
    uint32_t warm = std::max<uint32_t>(1, I.jit_threshold / 4);
    I.heap.for_each_object([&](Obj* o) {
        if (o->type != Type::Proto || batch.size() >= 16) return;
        auto* q = static_cast<Proto*>(o);
        if (q != hot && q->simple && q->jit_state == 0 && q->calls >= warm && !q->primed_by_loops(I.jit_threshold))
            batch.push_back(q);
    });
    return batch;
}

void jit_compile(Interp& I, Proto* p) {
    if (p->jit_state != 0 || I.jit_threshold == 0 || !p->simple) return;
    if (!jit_available(I)) {
        p->jit_state = 2;
        I.jit_threshold = 0;   // do not ask again
        return;
    }
    auto t0 = std::chrono::steady_clock::now();
    std::vector<Proto*> batch = batch_for(I, p);
    for (Proto* q : batch) q->jit_state = 2;   // tried (1 once installed)
    gcc_jit_result* res = nullptr;
    std::vector<Proto::JitEntry> entries;
    std::vector<bool> closed;
    // A proto the translator refuses leaves the batch, and the rest is tried again.
    while (!batch.empty()) {
        Translator tr(gccjit(), I, batch);
        int refused = -1;
        try {
            res = tr.translate(&refused);
        } catch (std::exception& e) {
            tr.error = e.what();
        }
        if (res && tr.entries.size() == batch.size()) {
            entries = tr.entries;
            closed = tr.closed;
            I.jit_stats.inlined += tr.inlined;
            break;
        }
        if (res) gccjit().gcc_jit_result_release(res);
        res = nullptr;
        if (refused < 0) {
            // libgccjit failed (no gcc command, no assembler ...): the batch stays
            // in the tree, and so does everything else from now on.
            I.jit_stats.failed += batch.size();
            I.jit_stats.unavailable = "compilation failed: " + tr.error;
            I.jit_threshold = 0;
            batch.clear();
            break;
        }
        I.jit_stats.refused++;
        batch.erase(batch.begin() + refused);
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    I.jit_stats.seconds += seconds;
    // LIPQ_JIT_LOG=1: one line per GCC run on stderr (for developers tuning the threshold).
    if (const char* l = std::getenv("LIPQ_JIT_LOG"); l && l[0] == '1') {
        std::string line = "jit: " + std::to_string(int(seconds * 1000)) + " ms:";
        for (Proto* q : batch) line += " " + q->name;
        std::fprintf(stderr, "%s\n", line.c_str());
    }
    if (!res) return;
    auto* code = new JitCode{res, 0};
    for (size_t k = 0; k < batch.size(); k++) {
        Proto* q = batch[k];
        if (!entries[k]) continue;
        auto node = std::make_unique<JitBodyNode>(entries[k]);
        q->tree_body = q->body;   // for callers that inline it (Translator::inlinable)
        q->body = node.get();
        q->nodes.push_back(std::move(node));
        q->jit_code = code;
        code->users++;
        q->jit_entry = entries[k];
        q->jit_state = 1;
        I.jit_stats.compiled++;
        I.jit_stats.unguarded += closed[k];
    }
    if (code->users == 0) {
        gccjit().gcc_jit_result_release(res);
        delete code;
    }
}

void jit_release(Proto* p) {
    if (!p->jit_code) return;
    auto* code = static_cast<JitCode*>(p->jit_code);
    if (--code->users == 0) {
        gccjit().gcc_jit_result_release(code->result);
        delete code;
    }
    p->jit_code = nullptr;
    p->jit_entry = nullptr;
}

} // namespace lipq
#endif // LIPQ_HAVE_GCCJIT
