// eval.cpp — running node trees: variable access, control, calls.
//
// The call path: a call node pushes the function and then each argument on
// the value stack and calls invoke(). For a closure, invoke() makes those
// slots the callee's frame (locals follow the arguments), runs the body, and
// loops while the body ends in a tail call, reusing the same frame.
#include "nodes.h"

#include <cstring>

namespace lipq {

// ---- calls -------------------------------------------------------------------------

namespace {

[[noreturn]] void not_a_function(Interp& I, Value fn) {
    if (fn == UNBOUND) I.error("undefined function");
    if (is_macro(fn)) I.error("a macro cannot be called as a function: " + I.describe(fn));
    I.error("not a function: " + I.describe(fn));
}

// Bind arguments beyond the simple case: optionals, rest list, boxing.
void bind_complex(Interp& I, Proto* p, Closure* c, Value* base, int nargs) {
    int fixed = p->nreq + p->nopt;
    if (nargs < p->nreq || (nargs > fixed && !p->rest)) I.arity_error(base[-1], nargs);
    Value rest = NIL;
    if (p->rest) {
        for (int i = nargs - 1; i >= fixed; --i) rest = I.cons(base[i], rest);
    }
    Value* end = base + p->frame_size;
    for (Value* s = base + std::min(nargs, fixed); s < end; ++s) *s = NIL;
    if (p->rest) base[fixed] = rest;
    I.sp = end;
    Frame fr{base, c, &I};
    for (int i = std::max(nargs, p->nreq); i < fixed; i++) {
        Node* d = p->opt_defaults[i - p->nreq];
        if (d) base[i] = ev(d, fr);
    }
    for (int slot : p->boxed_params) base[slot] = obj_value(I.heap.make<Box>(base[slot]));
}


} // namespace

// Run the function at base[-1] on base[0..nargs), and every tail call it
// makes, in this frame. The caller has linked the ActiveCall and counted the
// depth; on return I.sp is somewhere above base (the caller resets it).
[[gnu::noinline]] static Value run_frame(Interp& I, Value* base, int nargs) {
    Value fn = base[-1];
    for (;;) {
        if (is_closure(fn)) [[likely]] {
            Closure* c = as_closure(fn);
            Proto* p = c->proto;
            Value* end = base + p->frame_size;
            if (end > I.stack_hi) [[unlikely]] I.stack_overflow();
            if (p->simple && nargs == p->nreq) [[likely]] {
                // Reached by a tail call too: it counts toward the JIT threshold.
                if (++p->calls == I.jit_threshold) [[unlikely]] jit_compile(I, p);
                for (Value* s = base + nargs; s < end; ++s) *s = NIL;
                I.sp = end;
            } else {
                if (p->fexpr) {
                    // Called with evaluated arguments (apply, funcall): pass them as the list.
                    Value l = list_from(I, base, size_t(nargs));
                    base[0] = l;
                    nargs = 1;
                    I.sp = base + 1;
                }
                bind_complex(I, p, c, base, nargs);
            }
            Frame fr{base, c, &I};
            Value v = ev(p->body, fr);
            if (v != TAILCALL) [[likely]] return v;
            fn = I.tail_fn;
            nargs = I.tail_argc;
            base[-1] = fn;
            std::memmove(base, I.tail_args, size_t(nargs) * sizeof(Value));
            I.sp = base + nargs;
            I.poll();
            continue;
        }
        if (is_native(fn)) {
            Native* n = as_native(fn);
            if (nargs < n->min_args || (n->max_args >= 0 && nargs > n->max_args)) I.arity_error(fn, nargs);
            return n->fn ? n->fn(I, base, nargs) : n->lambda(I, base, nargs);
        }
        // A symbol names its global function (LISP 1.6: (mapcar 'car l)).
        if (is_obj(fn) && as_obj(fn)->type == Type::Symbol && is_function(as_symbol(fn)->value)) {
            fn = as_symbol(fn)->value;
            base[-1] = fn;
            continue;
        }
        I.current_call = I.current_call->prev;
        I.depth--;
        not_a_function(I, fn);
    }
}

// The fast path of a call: fn is a closure of a "simple" proto (required
// parameters only, none boxed, not a DF) taking exactly nargs arguments.
static inline bool simple_call(Value fn, int nargs) {
    if (!is_obj(fn) || as_obj(fn)->type != Type::Closure) return false;
    return as_closure(fn)->proto->simple_nargs == nargs;
}

// Link a call into the chain (for backtraces) and count it against the
// depth limit and the C stack; undone by the caller when the call returns.
[[gnu::always_inline]] static inline void link_call(Interp& I, ActiveCall& call) {
    I.current_call = &call;
    if (++I.depth > I.max_depth || reinterpret_cast<const char*>(&call) < I.cstack_limit) [[unlikely]] {
        --I.depth;
        I.current_call = call.prev;
        I.stack_overflow();
    }
}

// Loops count toward the JIT threshold (jit.h) too, or a function called a
// few times whose loop turns a million times would never be compiled. A
// tail call of the function itself counts as a call: at the threshold it is
// compiled, and the next turn already runs the machine code (the body node
// is replaced). A turn of a while or prog loop cannot leave the tree (there
// is no switching a running activation to machine code); threshold turns
// make the function's next call its last interpreted one, so the function
// is compiled when it is called again, and a loop that runs once (a search
// driver, a script's top level) costs no compilation. A turn weighs a tenth
// of a call (Proto::TURNS_PER_CALL): the body of a loop is usually a few
// operations, and at one turn, one call the quick sizes of scripts/demo.lisp
// compiled 21 batches of functions (3.0 CPU s) instead of 12 (2.1 s).
[[gnu::always_inline]] static inline void count_turn(Interp& I, Closure* self) {
    if (self) self->proto->count_turn(I.jit_threshold);
}

// Enter a simple closure: link the call, run the body, and loop in the same
// frame while it ends in a tail call of another simple closure (anything else
// goes to run_frame). Inlined into the call nodes. `checked`: the caller has
// made sure the frame fits on the value stack.
template <bool checked = false>
[[gnu::always_inline]] static inline Value enter_simple(Interp& I, Closure* c, Value* base, int nargs,
                                                         const SourcePos* site) {
    ActiveCall call{I.current_call, base, site};
    link_call(I, call);
    I.poll();
    Proto* p = c->proto;
    if (++p->calls == I.jit_threshold) [[unlikely]] jit_compile(I, p);
    Value* end = base + p->frame_size;
    if (!checked && end > I.stack_hi) [[unlikely]] I.stack_overflow();
    Value v;
    for (;;) {
        for (Value* s = base + nargs; s < end; ++s) *s = NIL;
        I.sp = end;
        Frame fr{base, c, &I};
        v = ev(p->body, fr);
        if (v != TAILCALL) [[likely]] break;
        Value fn = I.tail_fn;
        nargs = I.tail_argc;
        const Value* from = I.tail_args;   // at or above base: a forward copy is safe
        for (int i = 0; i < nargs; i++) base[i] = from[i];
        I.sp = base + nargs;
        I.poll();
        if (fn == obj_value(c) && nargs == p->simple_nargs) {   // a self tail call (a loop) keeps c, p and end
            if (++p->calls == I.jit_threshold) [[unlikely]] jit_compile(I, p);
        } else {
            base[-1] = fn;
            if (!simple_call(fn, nargs)) [[unlikely]] {
                v = run_frame(I, base, nargs);
                break;
            }
            c = as_closure(fn);
            p = c->proto;
            end = base + p->frame_size;
            if (end > I.stack_hi) [[unlikely]] I.stack_overflow();
            // A function reached only by tail calls (one driven by another's
            // loop, a state machine) is called as often as any other.
            if (++p->calls == I.jit_threshold) [[unlikely]] jit_compile(I, p);
        }
    }
    I.sp = base - 1;
    I.depth--;
    I.current_call = call.prev;
    return v;
}

Value invoke(Interp& I, Value* base, int nargs, const SourcePos* site) {
    Value fn = base[-1];
    if (simple_call(fn, nargs)) return enter_simple(I, as_closure(fn), base, nargs, site);
    ActiveCall call{I.current_call, base, site};
    link_call(I, call);
    I.poll();
    Value v = run_frame(I, base, nargs);
    I.sp = base - 1;
    I.depth--;
    I.current_call = call.prev;
    return v;
}

Value funcall_builtin(Interp& I, Value* a, int n) { return invoke(I, a + 1, n - 1, nullptr); }

Value finish_tail_call(Interp& I, Value* base) {
    Value fn = I.tail_fn;
    int nargs = I.tail_argc;
    const Value* from = I.tail_args;   // above base: a forward copy is safe
    for (int i = 0; i < nargs; i++) base[i] = from[i];
    base[-1] = fn;
    I.sp = base + nargs;
    I.poll();
    return run_frame(I, base, nargs);
}

// ---- constants and variables --------------------------------------------------------

static Value run_const(Node* n, Frame&) { return static_cast<ConstNode*>(n)->v; }
ConstNode::ConstNode(Value x) : Node(run_const), v(x) {}

LocalRef::LocalRef(int s) : Node(plain), slot(s) {}
Value LocalRef::plain(Node* n, Frame& f) { return f.slots[static_cast<LocalRef*>(n)->slot]; }
Value LocalRef::boxed(Node* n, Frame& f) { return as_box(f.slots[static_cast<LocalRef*>(n)->slot])->v; }

CapRef::CapRef(int i) : Node(plain), idx(i) {}
Value CapRef::plain(Node* n, Frame& f) { return f.self->cap[static_cast<CapRef*>(n)->idx]; }
Value CapRef::boxed(Node* n, Frame& f) { return as_box(f.self->cap[static_cast<CapRef*>(n)->idx])->v; }

static Value run_global_ref(Node* n, Frame& f) {
    Symbol* s = static_cast<GlobalRef*>(n)->sym;
    Value v = s->value;
    if (v == UNBOUND) [[unlikely]] f.I->error("unbound variable: " + s->name);
    return v;
}
GlobalRef::GlobalRef(Symbol* s) : Node(run_global_ref), sym(s) {}

LocalSet::LocalSet(int s, Node* v) : Node(plain), slot(s), val(v) {}
Value LocalSet::plain(Node* n, Frame& f) {
    auto* m = static_cast<LocalSet*>(n);
    Value v = ev(m->val, f);
    f.slots[m->slot] = v;
    return v;
}
Value LocalSet::boxed(Node* n, Frame& f) {
    auto* m = static_cast<LocalSet*>(n);
    Value v = ev(m->val, f);
    as_box(f.slots[m->slot])->v = v;
    return v;
}

static Value run_cap_set(Node* n, Frame& f) {
    auto* m = static_cast<CapSet*>(n);
    Value v = ev(m->val, f);
    as_box(f.self->cap[m->idx])->v = v;
    return v;
}
CapSet::CapSet(int i, Node* v) : Node(run_cap_set), idx(i), val(v) {}

static Value run_global_set(Node* n, Frame& f) {
    auto* m = static_cast<GlobalSet*>(n);
    Value v = ev(m->val, f);
    if (m->sym->flags & SYM_CONSTANT) f.I->error("setq: cannot assign the constant " + m->sym->name);
    m->sym->value = v;
    return v;
}
GlobalSet::GlobalSet(Symbol* s, Node* v) : Node(run_global_set), sym(s), val(v) {}

Bind::Bind(int s, Node* v) : Node(plain), slot(s), val(v) {}
Value Bind::plain(Node* n, Frame& f) {
    auto* m = static_cast<Bind*>(n);
    f.slots[m->slot] = m->val ? ev(m->val, f) : NIL;
    return NIL;
}
Value Bind::boxed(Node* n, Frame& f) {
    auto* m = static_cast<Bind*>(n);
    Value v = m->val ? ev(m->val, f) : NIL;
    f.slots[m->slot] = v;   // rooted while the box is made
    f.slots[m->slot] = obj_value(f.I->heap.make<Box>(v));
    return NIL;
}

static Value run_bind_special(Node* n, Frame& f) {
    auto* m = static_cast<BindSpecial*>(n);
    f.I->special_stack.push_back({m->sym, m->sym->value});
    m->sym->value = f.slots[m->slot];
    return NIL;
}
BindSpecial::BindSpecial(Symbol* s, int sl) : Node(run_bind_special), sym(s), slot(sl) {}

static Value run_dynamic_extent(Node* n, Frame& f) {
    auto* m = static_cast<DynamicExtent*>(n);
    SpecialMark mark(*f.I);
    for (Node* b : m->binds) ev(b, f);
    return ev(m->body, f);
}
DynamicExtent::DynamicExtent(std::vector<Node*> b, Node* bd)
    : Node(run_dynamic_extent), binds(std::move(b)), body(bd) {}

// ---- control ---------------------------------------------------------------------

static Value run_if(Node* n, Frame& f) {
    auto* m = static_cast<IfNode*>(n);
    return truthy(ev(m->test, f)) ? ev(m->then, f) : ev(m->els, f);
}
IfNode::IfNode(Node* t, Node* a, Node* b) : Node(run_if), test(t), then(a), els(b) {}

static Value run_seq(Node* n, Frame& f) {
    auto& b = static_cast<SeqNode*>(n)->body;
    size_t last = b.size() - 1;
    for (size_t i = 0; i < last; i++) ev(b[i], f);
    return ev(b[last], f);
}
static Value run_seq_stmt(Node* n, Frame& f) {
    auto& b = static_cast<SeqNode*>(n)->body;
    Value v = NIL;
    for (Node* s : b) {
        v = ev(s, f);
        if (v == SIGNAL) return v;
    }
    return v;
}
// Unrolled: the loop version keeps the vector, its end and the index in
// callee-saved registers; these save only the node and the frame.
static Value run_seq2(Node* n, Frame& f) {
    auto* m = static_cast<SeqNode*>(n);
    ev(m->part[0], f);
    return ev(m->part[1], f);
}
static Value run_seq3(Node* n, Frame& f) {
    auto* m = static_cast<SeqNode*>(n);
    ev(m->part[0], f);
    ev(m->part[1], f);
    return ev(m->part[2], f);
}
static Value run_seq4(Node* n, Frame& f) {
    auto* m = static_cast<SeqNode*>(n);
    ev(m->part[0], f);
    ev(m->part[1], f);
    ev(m->part[2], f);
    return ev(m->part[3], f);
}
SeqNode::SeqNode(std::vector<Node*> b, bool statements)
    : Node(statements ? run_seq_stmt : run_seq), body(std::move(b)), statements(statements) {
    if (!statements && body.size() >= 2 && body.size() <= 4) {
        for (size_t i = 0; i < body.size(); i++) part[i] = body[i];
        fn = body.size() == 2 ? run_seq2 : body.size() == 3 ? run_seq3 : run_seq4;
    }
}

static Value run_and(Node* n, Frame& f) {
    Value v = NIL;
    for (Node* p : static_cast<AndOrNode*>(n)->parts) {
        v = ev(p, f);
        if (!truthy(v)) return NIL;
    }
    return v;
}
static Value run_or(Node* n, Frame& f) {
    for (Node* p : static_cast<AndOrNode*>(n)->parts) {
        Value v = ev(p, f);
        if (truthy(v)) return v;
    }
    return NIL;
}
static bool test_and(Node* n, Frame& f) {
    for (Node* p : static_cast<AndOrNode*>(n)->parts)
        if (!ev_test(p, f)) return false;
    return true;
}
static bool test_or(Node* n, Frame& f) {
    for (Node* p : static_cast<AndOrNode*>(n)->parts)
        if (ev_test(p, f)) return true;
    return false;
}
static Value run_and2(Node* n, Frame& f) {
    auto* m = static_cast<AndOrNode*>(n);
    return ev_test(m->a, f) ? ev(m->b, f) : NIL;
}
static Value run_or2(Node* n, Frame& f) {
    auto* m = static_cast<AndOrNode*>(n);
    Value v = ev(m->a, f);
    return truthy(v) ? v : ev(m->b, f);
}
static bool test_and2(Node* n, Frame& f) {
    auto* m = static_cast<AndOrNode*>(n);
    return ev_test(m->a, f) && ev_test(m->b, f);
}
static bool test_or2(Node* n, Frame& f) {
    auto* m = static_cast<AndOrNode*>(n);
    return ev_test(m->a, f) || ev_test(m->b, f);
}
AndOrNode::AndOrNode(std::vector<Node*> p, bool is_and_)
    : Node(is_and_ ? run_and : run_or), parts(std::move(p)), is_and(is_and_) {
    if (parts.size() == 2) {
        a = parts[0];
        b = parts[1];
        fn = is_and ? run_and2 : run_or2;
        test = is_and ? test_and2 : test_or2;
    } else {
        test = is_and ? test_and : test_or;
    }
}

// ---- calls -----------------------------------------------------------------------

namespace {

// Call `fn` on argument forms that have not been evaluated yet.
inline Value call_with(Interp& I, Frame& f, Value fn, const std::vector<Node*>& args, Value forms,
                       const SourcePos* site) {
    size_t n = args.size();
    if (I.sp + n + 1 > I.stack_hi) [[unlikely]] I.stack_overflow();
    Value* base = I.sp + 1;
    if (is_closure(fn) && (as_obj(fn)->flags & CLOSURE_FEXPR)) [[unlikely]] {
        // DF: the argument forms, unevaluated; invoke() gathers them into one list.
        *I.sp++ = fn;
        for (Value x = forms; is_pair(x); x = cdr(x)) I.push(car(x));
        return invoke(I, base, int(I.sp - base), site);
    }
    *I.sp++ = fn;
    for (Node* a : args) {
        Value v = ev(a, f);
        *I.sp++ = v;
    }
    return invoke(I, base, int(n), site);
}

inline Value tail_call_with(Interp& I, Frame& f, Value fn, const std::vector<Node*>& args, Value forms,
                            const SourcePos* site) {
    if (!is_closure(fn) || (as_obj(fn)->flags & CLOSURE_FEXPR)) return call_with(I, f, fn, args, forms, site);
    size_t n = args.size();
    if (I.sp + n + 2 > I.stack_hi) [[unlikely]] I.stack_overflow();
    *I.sp++ = fn;   // rooted while the arguments are evaluated
    Value* base = I.sp;
    for (Node* a : args) {
        Value v = ev(a, f);
        *I.sp++ = v;
    }
    I.tail_fn = fn;
    I.tail_args = base;
    I.tail_argc = int(n);
    return TAILCALL;
}

} // namespace

[[noreturn]] static void undefined_function(Interp& I, Symbol* s) { I.error("undefined function: " + s->name); }

static Value run_call_global(Node* n, Frame& f) {
    auto* m = static_cast<CallGlobal*>(n);
    if (m->sym->value == UNBOUND) [[unlikely]] undefined_function(*f.I, m->sym);
    return call_with(*f.I, f, m->sym->value, m->args, m->forms, &m->pos);
}
static Value run_call_global_tail(Node* n, Frame& f) {
    auto* m = static_cast<CallGlobal*>(n);
    if (m->sym->value == UNBOUND) [[unlikely]] undefined_function(*f.I, m->sym);
    return tail_call_with(*f.I, f, m->sym->value, m->args, m->forms, &m->pos);
}
template <int N>
[[gnu::always_inline]] static inline void push_args(CallGlobalN* m, Frame& f, Interp& I) {
    if constexpr (N > 0) { Value v = ev(m->arg[0], f); *I.sp++ = v; }
    if constexpr (N > 1) { Value v = ev(m->arg[1], f); *I.sp++ = v; }
    if constexpr (N > 2) { Value v = ev(m->arg[2], f); *I.sp++ = v; }
    if constexpr (N > 3) { Value v = ev(m->arg[3], f); *I.sp++ = v; }
    if constexpr (N > 4) { Value v = ev(m->arg[4], f); *I.sp++ = v; }
    if constexpr (N > 5) { Value v = ev(m->arg[5], f); *I.sp++ = v; }
}

// A builtin whose arguments are at base[0..nargs) (the builtin itself at
// base[-1]): linked into the call chain for backtraces and checked against
// the C stack; it polls and counts depth itself when it calls back into Lisp
// (through invoke). Returns with I.sp == base - 1.
[[gnu::always_inline]] static inline Value call_builtin_linked(Interp& I, Native* nat, Value* base, int nargs,
                                                               const SourcePos* site) {
    ActiveCall call{I.current_call, base, site};
    I.current_call = &call;
    if (reinterpret_cast<const char*>(&call) < I.cstack_limit) [[unlikely]] {
        I.current_call = call.prev;
        I.stack_overflow();
    }
    Value v = nat->fn(I, base, nargs);
    I.sp = base - 1;
    I.current_call = call.prev;
    return v;
}

Value call_prepared(Interp& I, Value* base, int nargs, const SourcePos* site) {
    Value fn = base[-1];
    if (is_native(fn)) {
        Native* nat = as_native(fn);
        if (nat->fn && nargs >= nat->min_args && (nat->max_args < 0 || nargs <= nat->max_args))
            return call_builtin_linked(I, nat, base, nargs, site);
    }
    return invoke(I, base, nargs, site);
}

// Everything but a simple closure, out of line so that the fast path of the
// call nodes below saves fewer registers.
template <int N>
[[gnu::noinline]] static Value call_global_other(CallGlobalN* m, Frame& f, Value fn) {
    Interp& I = *f.I;
    if (!is_obj(fn) || (as_obj(fn)->flags & CLOSURE_FEXPR)) {
        if (fn == UNBOUND) undefined_function(I, m->sym);
        return call_with(I, f, fn, m->args, m->forms, &m->pos);
    }
    Value* base = I.sp + 1;
    if (base + N > I.stack_hi) [[unlikely]] I.stack_overflow();
    *I.sp++ = fn;
    push_args<N>(m, f, I);
    return call_prepared(I, base, N, &m->pos);
}

template <int N>
static Value run_call_global_n(Node* n, Frame& f) {
    auto* m = static_cast<CallGlobalN*>(n);
    Interp& I = *f.I;
    Value fn = m->sym->value;
    if (!is_obj(fn)) [[unlikely]] return call_global_other<N>(m, f, fn);
    if (as_obj(fn)->type != Type::Closure) {
        Native* nat = as_native(fn);
        if (as_obj(fn)->type == Type::Native && nat->fn && N >= nat->min_args &&
            (nat->max_args < 0 || N <= nat->max_args)) {
            // A builtin: see call_builtin_linked.
            Value* base = I.sp + 1;
            if (base + N > I.stack_hi) [[unlikely]] I.stack_overflow();
            *I.sp++ = fn;
            push_args<N>(m, f, I);
            return call_builtin_linked(I, nat, base, N, &m->pos);
        }
        return call_global_other<N>(m, f, fn);
    }
    Proto* p = as_closure(fn)->proto;
    if (p->simple_nargs != N) [[unlikely]] return call_global_other<N>(m, f, fn);
    // One check covers the function, the arguments and the callee's frame
    // (frame_size >= N); fn stays rooted in base[-1] while the arguments
    // are evaluated (they may redefine the symbol).
    Value* base = I.sp + 1;
    if (base + p->frame_size > I.stack_hi) [[unlikely]] I.stack_overflow();
    *I.sp++ = fn;
    push_args<N>(m, f, I);
    return enter_simple<true>(I, as_closure(fn), base, N, &m->pos);
}

[[gnu::noinline]] static Value tail_call_other(CallGlobalN* m, Frame& f, Value fn) {
    if (fn == UNBOUND) undefined_function(*f.I, m->sym);
    return call_with(*f.I, f, fn, m->args, m->forms, &m->pos);
}

// The same in tail position: the arguments go above the frame and the
// enclosing call loop (enter_simple, run_frame) moves them down.
template <int N>
static Value run_call_global_n_tail(Node* n, Frame& f) {
    auto* m = static_cast<CallGlobalN*>(n);
    Interp& I = *f.I;
    Value fn = m->sym->value;
    if (!is_obj(fn) || as_obj(fn)->type != Type::Closure || (as_obj(fn)->flags & CLOSURE_FEXPR)) [[unlikely]]
        return tail_call_other(m, f, fn);
    if (I.sp + N + 1 > I.stack_hi) [[unlikely]] I.stack_overflow();
    *I.sp++ = fn;   // rooted while the arguments are evaluated (they may redefine the symbol)
    Value* args = I.sp;
    push_args<N>(m, f, I);
    I.tail_fn = fn;
    I.tail_args = args;
    I.tail_argc = N;
    return TAILCALL;
}

static Node::Fn call_global_n_fn(size_t n, bool tail) {
    switch (n) {
    case 0: return tail ? run_call_global_n_tail<0> : run_call_global_n<0>;
    case 1: return tail ? run_call_global_n_tail<1> : run_call_global_n<1>;
    case 2: return tail ? run_call_global_n_tail<2> : run_call_global_n<2>;
    case 3: return tail ? run_call_global_n_tail<3> : run_call_global_n<3>;
    case 4: return tail ? run_call_global_n_tail<4> : run_call_global_n<4>;
    case 5: return tail ? run_call_global_n_tail<5> : run_call_global_n<5>;
    default: return tail ? run_call_global_n_tail<6> : run_call_global_n<6>;
    }
}

CallGlobalN::CallGlobalN(Symbol* s, std::vector<Node*> a, Value fm, SourcePos p, bool tail)
    : CallGlobal(s, std::move(a), fm, p, tail) {
    for (size_t i = 0; i < args.size() && i < CALL_UNROLLED; i++) arg[i] = args[i];
    fn = call_global_n_fn(args.size(), tail);
}

CallGlobal::CallGlobal(Symbol* s, std::vector<Node*> a, Value fm, SourcePos p, bool tail)
    : Node(tail ? run_call_global_tail : run_call_global), sym(s), args(std::move(a)), forms(fm), pos(p), tail(tail) {}

static Value run_call_expr(Node* n, Frame& f) {
    auto* m = static_cast<CallExpr*>(n);
    Interp& I = *f.I;
    Value fn = ev(m->fn, f);
    // fn must stay rooted while the arguments are evaluated: call_with pushes
    // it first, before evaluating anything.
    return call_with(I, f, fn, m->args, m->forms, &m->pos);
}
static Value run_call_expr_tail(Node* n, Frame& f) {
    auto* m = static_cast<CallExpr*>(n);
    Interp& I = *f.I;
    Value fn = ev(m->fn, f);
    if (!is_closure(fn) || (as_obj(fn)->flags & CLOSURE_FEXPR)) return call_with(I, f, fn, m->args, m->forms, &m->pos);
    // Keep fn rooted during argument evaluation: park it in tail_fn's slot on the stack.
    *I.sp++ = fn;
    Value* base = I.sp;
    for (Node* a : m->args) {
        Value v = ev(a, f);
        *I.sp++ = v;
    }
    I.tail_fn = base[-1];
    I.tail_args = base;
    I.tail_argc = int(m->args.size());
    return TAILCALL;
}
CallExpr::CallExpr(Node* fn_, std::vector<Node*> a, Value fm, SourcePos p, bool tail)
    : Node(tail ? run_call_expr_tail : run_call_expr), fn(fn_), args(std::move(a)), forms(fm), pos(p) {}

static Value run_make_closure(Node* n, Frame& f) {
    auto* m = static_cast<MakeClosure*>(n);
    Closure* c = f.I->heap.make_closure(m->proto, uint32_t(m->caps.size()));
    if (m->proto->fexpr) c->flags |= CLOSURE_FEXPR;
    for (size_t i = 0; i < m->caps.size(); i++) {
        const CaptureSource& s = m->caps[i];
        c->cap[i] = s.from_local ? f.slots[s.index] : f.self->cap[s.index];
    }
    return obj_value(c);
}
MakeClosure::MakeClosure(Proto* p, std::vector<CaptureSource> c) : Node(run_make_closure), proto(p), caps(std::move(c)) {}

// ---- prog, go, return ----------------------------------------------------------------

ProgNode::ProgNode() : Node(plain) {}

namespace {
// Runs the statements from `start`; returns the prog's value, or SIGNAL when
// a go/return for an outer block passes through (only in statement position).
inline Value prog_loop(ProgNode* m, Frame& f, size_t i) {
    Interp& I = *f.I;
    size_t n = m->stmts.size();
    while (i < n) {
        Value v = ev(m->stmts[i], f);
        if (v == SIGNAL) [[unlikely]] {
            if (I.sig_target != m) return SIGNAL;
            if (I.sig_kind == NonLocalExit::Go) {
                i = size_t(I.sig_label);
                I.poll();
                count_turn(I, f.self);
                continue;
            }
            Value r = I.in_flight;
            I.in_flight = NIL;
            return r;
        }
        i++;
    }
    return NIL;
}
} // namespace

Value ProgNode::plain(Node* n, Frame& f) {
    auto* m = static_cast<ProgNode*>(n);
    for (Node* b : m->inits) ev(b, f);
    return prog_loop(m, f, 0);
}

Value ProgNode::catching(Node* n, Frame& f) {
    auto* m = static_cast<ProgNode*>(n);
    Interp& I = *f.I;
    for (Node* b : m->inits) ev(b, f);
    Value* sp = I.sp;
    int depth = I.depth;
    ActiveCall* call = I.current_call;
    size_t specials = I.special_stack.size();
    size_t start = 0;
    for (;;) {
        try {
            return prog_loop(m, f, start);
        } catch (NonLocalExit& e) {
            if (e.target != m || e.frame != f.slots) throw;
            I.sp = sp;
            I.depth = depth;
            I.current_call = call;
            I.unbind_specials_to(specials);
            if (e.kind == NonLocalExit::Return) {
                Value r = I.in_flight;
                I.in_flight = NIL;
                return r;
            }
            start = size_t(e.label);
        }
    }
}

static Value run_go_signal(Node* n, Frame& f) {
    auto* m = static_cast<GoNode*>(n);
    f.I->sig_kind = NonLocalExit::Go;
    f.I->sig_target = m->target;
    f.I->sig_label = m->label;
    return SIGNAL;
}
static Value run_go_throw(Node* n, Frame& f) {
    auto* m = static_cast<GoNode*>(n);
    throw NonLocalExit{NonLocalExit::Go, m->target, f.slots, m->label};
}
GoNode::GoNode(ProgNode* t, int l, bool sig)
    : Node(sig ? run_go_signal : run_go_throw), target(t), label(l), signal(sig) {}

static Value run_return_signal(Node* n, Frame& f) {
    auto* m = static_cast<ReturnNode*>(n);
    Value v = m->val ? ev(m->val, f) : NIL;
    f.I->in_flight = v;
    f.I->sig_kind = NonLocalExit::Return;
    f.I->sig_target = m->target;
    return SIGNAL;
}
static Value run_return_throw(Node* n, Frame& f) {
    auto* m = static_cast<ReturnNode*>(n);
    Value v = m->val ? ev(m->val, f) : NIL;
    f.I->in_flight = v;
    throw NonLocalExit{NonLocalExit::Return, m->target, f.slots, 0};
}
ReturnNode::ReturnNode(ProgNode* t, Node* v, bool sig)
    : Node(sig ? run_return_signal : run_return_throw), target(t), val(v), signal(sig) {}

static Value run_while(Node* n, Frame& f) {
    auto* m = static_cast<WhileNode*>(n);
    Interp& I = *f.I;
    while (ev_test(m->test, f)) {
        ev(m->body, f);
        I.poll();
        count_turn(I, f.self);
    }
    return NIL;
}
WhileNode::WhileNode(Node* t, Node* b) : Node(run_while), test(t), body(b) {}

// ---- catch, throw, unwind-protect, errset ----------------------------------------

static Value run_catch(Node* n, Frame& f) {
    auto* m = static_cast<CatchNode*>(n);
    Interp& I = *f.I;
    Value tag = ev(m->tag, f);
    I.catch_tags.push_back(tag);
    Value* sp = I.sp;
    int depth = I.depth;
    ActiveCall* call = I.current_call;
    size_t specials = I.special_stack.size();
    size_t ntags = I.catch_tags.size();
    try {
        Value v = ev(m->body, f);
        I.catch_tags.pop_back();
        return v;
    } catch (NonLocalExit& e) {
        if (e.kind != NonLocalExit::Throw || I.throw_tag != tag) {
            I.catch_tags.resize(ntags - 1);
            throw;
        }
        I.catch_tags.resize(ntags - 1);
        I.sp = sp;
        I.depth = depth;
        I.current_call = call;
        I.unbind_specials_to(specials);
        Value v = I.in_flight;
        I.in_flight = NIL;
        I.throw_tag = NIL;
        return v;
    } catch (...) {
        I.catch_tags.resize(ntags - 1);
        throw;
    }
}
CatchNode::CatchNode(Node* t, Node* b) : Node(run_catch), tag(t), body(b) {}

static Value run_unwind_protect(Node* n, Frame& f) {
    auto* m = static_cast<UnwindProtectNode*>(n);
    Interp& I = *f.I;
    Value* sp = I.sp;
    int depth = I.depth;
    ActiveCall* call = I.current_call;
    size_t specials = I.special_stack.size();
    Value v;
    try {
        v = ev(m->body, f);
    } catch (...) {
        // Run the cleanup with the machine as it was on entry, keeping what
        // is in flight (a return value or a thrown value) safe meanwhile.
        I.sp = sp;
        I.depth = depth;
        I.current_call = call;
        I.unbind_specials_to(specials);
        Root flying(I, I.in_flight), tag(I, I.throw_tag);
        ev(m->cleanup, f);
        I.in_flight = flying;
        I.throw_tag = tag;
        throw;
    }
    *I.sp++ = v;   // keep the result rooted during the cleanup
    ev(m->cleanup, f);
    return *--I.sp;
}
UnwindProtectNode::UnwindProtectNode(Node* b, Node* c) : Node(run_unwind_protect), body(b), cleanup(c) {}

static Value run_errset(Node* n, Frame& f) {
    auto* m = static_cast<ErrsetNode*>(n);
    Interp& I = *f.I;
    Value* sp = I.sp;
    int depth = I.depth;
    ActiveCall* call = I.current_call;
    size_t specials = I.special_stack.size();
    size_t ntags = I.catch_tags.size();
    try {
        Value v = ev(m->form, f);
        return I.cons(v, NIL);
    } catch (LispError& e) {
        I.sp = sp;
        I.depth = depth;
        I.current_call = call;
        I.unbind_specials_to(specials);
        I.catch_tags.resize(ntags);
        I.last_error = std::make_unique<LispError>(e);
        bool print = m->flag ? truthy(ev(m->flag, f)) : true;
        if (print) I.report_error(e, false);
        return NIL;
    }
}
ErrsetNode::ErrsetNode(Node* fm, Node* fl) : Node(run_errset), form(fm), flag(fl) {}

// ---- destructuring -----------------------------------------------------------------

static Value run_pop(Node* n, Frame& f) {
    auto* m = static_cast<PopNode*>(n);
    Value l = f.slots[m->slot];
    if (is_pair(l)) {
        f.slots[m->slot] = cdr(l);
        return car(l);
    }
    if (!is_nil(l)) f.I->error("destructuring: not a list: " + f.I->describe(l));
    if (m->optional) return m->deflt ? ev(m->deflt, f) : NIL;
    f.I->error("destructuring: too few elements");
}
PopNode::PopNode(int s, bool opt, Node* d) : Node(run_pop), slot(s), deflt(d), optional(opt) {}

static Value run_end_check(Node* n, Frame& f) {
    auto* m = static_cast<EndCheckNode*>(n);
    if (!is_nil(f.slots[m->slot]))
        f.I->error("destructuring: too many elements: " + f.I->describe(f.slots[m->slot]));
    return NIL;
}
EndCheckNode::EndCheckNode(int s) : Node(run_end_check), slot(s) {}

static Value run_define(Node* n, Frame& f) {
    auto* m = static_cast<DefineNode*>(n);
    Interp& I = *f.I;
    Value v = ev(m->val, f);
    if (m->sym->flags & SYM_CONSTANT) I.error("cannot redefine the constant " + m->sym->name);
    if (is_closure(v)) {
        Proto* p = as_closure(v)->proto;
        if (p->name == "lambda") p->name = m->sym->name;
        p->name_sym = obj_value(m->sym);
    }
    if (m->kind != 0) {
        *I.sp++ = v;
        v = obj_value(I.heap.make<Macro>(v, m->kind == 1));
        --I.sp;
    }
    m->sym->value = v;
    return obj_value(m->sym);
}
DefineNode::DefineNode(Symbol* s, Node* v, int k) : Node(run_define), sym(s), val(v), kind(k) {}

} // namespace lipq
