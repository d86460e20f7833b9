// compile.cpp — analysis of S-expressions into node trees (see compiler.h).
//
// One recursive pass: compile(form, ctx) expands macros, resolves every
// variable (frame slot, closure capture, or global), and builds the node.
// ctx says where the form stands:
//   Expr — its value is used and more work follows,
//   Tail — its value is the function's result (calls here are tail calls),
//   Stmt — a statement of a PROG (or a branch of one): go/return here travel
//          as the cheap SIGNAL marker instead of a C++ exception.
#include "compiler.h"

#include "nodes.h"

#include <algorithm>
#include <unordered_map>

namespace lipq {

void trace_proto(Tracer& t, Proto* p) {
    for (Value v : p->constants) t.mark(v);
    t.mark(p->source);
    t.mark(p->name_sym);
}
void delete_proto(Proto* p) {
    jit_release(p);
    delete p;
}
size_t proto_bytes(Proto* p) {
    return sizeof(Proto) + p->nodes.size() * 64 + p->constants.capacity() * sizeof(Value);
}

enum class Ctx { Expr, Tail, Stmt };

struct Compiler::Impl {
    Interp& I;
    explicit Impl(Interp& in) : I(in) {}

    // ---- lexical structure ----
    struct Fn;
    // PrimOrder: a primitive reads this local after evaluating its other
    // operand, (= i (1+ p)), which is right only if nothing assigns it.
    enum UseKind { RefLocal, SetLocal, RefCap, BindUse, ParamUse, PrimOperand, PrimOrder };
    struct Var {
        Value sym;
        int slot;
        Fn* owner;
        bool captured = false, assigned = false;
        std::vector<std::pair<Node*, UseKind>> uses;
    };
    struct Block {
        ProgNode* node;
        Value name;                 // nil for prog, do, dolist ...
        bool in_stmt;               // stands in statement position of the enclosing block
        std::vector<std::pair<Value, int>> labels;
    };
    struct Fn {
        Fn* parent;
        Proto* proto;
        std::vector<Var*> scope;
        std::vector<std::unique_ptr<Var>> owned;
        std::vector<Var*> captures;
        std::vector<std::unique_ptr<Block>> block_store;
        std::vector<Block*> blocks;
        int nslots = 0, max_slots = 0;
    };
    Fn* fn = nullptr;
    std::vector<Value> held;        // values the compiler must keep alive (expansions, protos)

    // ---- helpers ----
    template <class T, class... A>
    T* mk(A&&... a) {
        T* n = new T(std::forward<A>(a)...);
        fn->proto->nodes.emplace_back(n);
        return n;
    }
    Value keep(Value v) {
        if (is_heap(v)) fn->proto->constants.push_back(v);
        return v;
    }
    Value hold(Value v) { held.push_back(v); return v; }
    Symbol* sym_of(Value v) { return as_symbol(v); }
    bool is_sym(Value v, Value s) { return v == s; }
    Value S(const char* name) { return I.intern(name); }

    [[noreturn]] void syntax(const std::string& msg, Value form) {
        std::string where;
        auto it = I.positions.find(form.raw);
        if (it != I.positions.end()) where = " at " + I.format_pos(it->second);
        I.error(msg + ": " + I.describe(form, 120) + where);
    }
    SourcePos pos_of(Value form) {
        auto it = I.positions.find(form.raw);
        return it == I.positions.end() ? SourcePos{} : it->second;
    }
    std::vector<Value> to_vector(Value list, Value whole) {
        std::vector<Value> out;
        Value x = list;
        for (; is_pair(x); x = cdr(x)) {
            out.push_back(x);   // the cell: callers take car
            if (out.size() > 10000000) syntax("list too long", whole);
        }
        if (!is_nil(x)) syntax("malformed form (dotted list)", whole);
        return out;
    }
    std::vector<Value> elements(Value list, Value whole) {
        std::vector<Value> cells = to_vector(list, whole);
        for (auto& c : cells) c = car(c);
        return cells;
    }

    int alloc_slot() {
        int s = fn->nslots++;
        fn->max_slots = std::max(fn->max_slots, fn->nslots);
        return s;
    }
    Var* declare(Value sym, int slot) {
        if (!is_obj(sym) || as_obj(sym)->type != Type::Symbol) I.error("not a variable name: " + I.describe(sym));
        if (as_symbol(sym)->flags & SYM_CONSTANT) I.error("cannot bind the constant " + as_symbol(sym)->name);
        auto v = std::make_unique<Var>();
        v->sym = sym;
        v->slot = slot;
        v->owner = fn;
        Var* p = v.get();
        fn->owned.push_back(std::move(v));
        fn->scope.push_back(p);
        return p;
    }
    bool is_special(Value sym) { return is_obj(sym) && (as_symbol(sym)->flags & SYM_SPECIAL); }

    static void prim_general(Node* node) {
        auto* pn = static_cast<PrimNode*>(node);
        pn->fn = pn->general;
        pn->test = pn->test_general;
    }
    void finish_var(Var* v) {
        if (v->assigned)
            for (auto& [node, kind] : v->uses)
                if (kind == PrimOrder) prim_general(node);
        if (!(v->captured && v->assigned)) return;
        for (auto& [node, kind] : v->uses) {
            switch (kind) {
            case PrimOrder: break;   // done above
            case RefLocal: node->fn = LocalRef::boxed; break;
            case SetLocal: node->fn = LocalSet::boxed; break;
            case RefCap: node->fn = CapRef::boxed; break;
            case BindUse: node->fn = Bind::boxed; break;
            case ParamUse: v->owner->proto->boxed_params.push_back(v->slot); break;
            case PrimOperand:
                // The primitive read the slot directly: make it evaluate its operand nodes.
                prim_general(node);
                break;
            }
        }
    }
    struct ScopeMark { size_t vars; int slots; };
    ScopeMark mark() { return {fn->scope.size(), fn->nslots}; }
    void release(ScopeMark m) {
        for (size_t i = m.vars; i < fn->scope.size(); i++) finish_var(fn->scope[i]);
        fn->scope.resize(m.vars);
        fn->nslots = m.slots;
    }

    struct Ref { enum Kind { Local, Capture, Global } kind; Var* var; int index; };
    int capture_index(Fn* f, Var* v) {
        for (size_t i = 0; i < f->captures.size(); i++)
            if (f->captures[i] == v) return int(i);
        f->captures.push_back(v);
        return int(f->captures.size() - 1);
    }
    Ref resolve_in(Fn* f, Value sym) {
        for (auto it = f->scope.rbegin(); it != f->scope.rend(); ++it)
            if ((*it)->sym == sym) return {Ref::Local, *it, (*it)->slot};
        if (!f->parent) return {Ref::Global, nullptr, 0};
        Ref r = resolve_in(f->parent, sym);
        if (r.kind == Ref::Global) return r;
        r.var->captured = true;
        return {Ref::Capture, r.var, capture_index(f, r.var)};
    }
    Ref resolve(Value sym) {
        if (is_special(sym)) return {Ref::Global, nullptr, 0};
        return resolve_in(fn, sym);
    }

    // ---- the dispatcher ----
    using Special = Node* (Impl::*)(Value form, Ctx ctx);
    std::unordered_map<uint64_t, Special> specials;
    std::unordered_map<Node*, Var*> local_refs;   // LocalRef node -> its variable

    void init() {
        auto def = [&](const char* name, Special s) { specials[I.intern(name).raw] = s; };
        def("quote", &Impl::c_quote);
        def("function", &Impl::c_function);
        def("lambda", &Impl::c_lambda);
        def("if", &Impl::c_if);
        def("cond", &Impl::c_cond);
        def("and", &Impl::c_and);
        def("or", &Impl::c_or);
        def("setq", &Impl::c_setq);
        def("progn", &Impl::c_progn);
        def("prog", &Impl::c_prog);
        def("block", &Impl::c_block);
        def("go", &Impl::c_go);
        def("return", &Impl::c_return);
        def("return-from", &Impl::c_return_from);
        def("let", &Impl::c_let);
        def("let*", &Impl::c_letstar);
        def("while", &Impl::c_while);
        def("catch", &Impl::c_catch);
        def("unwind-protect", &Impl::c_unwind_protect);
        def("errset", &Impl::c_errset);
        def("de", &Impl::c_defun);
        def("defun", &Impl::c_defun);
        def("df", &Impl::c_df);
        def("dm", &Impl::c_dm);
        def("defmacro", &Impl::c_defmacro);
        def("defvar", &Impl::c_defvar);
        def("defparameter", &Impl::c_defparameter);
        def("defconstant", &Impl::c_defconstant);
        def("quasiquote", &Impl::c_quasiquote);
        def("destructuring-bind", &Impl::c_destructuring_bind);
        def("labels", &Impl::c_labels);
        def("flet", &Impl::c_flet);
        def("declare", &Impl::c_declare);
        def("eval-when", &Impl::c_eval_when);
    }

    Node* konst(Value v) { return mk<ConstNode>(keep(v)); }

    Node* compile(Value x, Ctx ctx) {
        I.check_cstack();
        if (is_pair(x)) return compile_pair(x, ctx);
        if (is_nil(x)) return konst(NIL);
        if (is_obj(x) && as_obj(x)->type == Type::Symbol) return compile_symbol(x);
        return konst(x);   // numbers, strings, vectors, quads evaluate to themselves
    }

    Node* compile_symbol(Value x) {
        Symbol* s = as_symbol(x);
        if (s->flags & SYM_CONSTANT) {
            if (s->flags & SYM_KEYWORD) return konst(x);
            if (s->value != UNBOUND) return konst(s->value);
        }
        Ref r = resolve(x);
        switch (r.kind) {
        case Ref::Local: {
            auto* n = mk<LocalRef>(r.index);
            r.var->uses.push_back({n, RefLocal});
            local_refs[n] = r.var;
            return n;
        }
        case Ref::Capture: {
            auto* n = mk<CapRef>(r.index);
            r.var->uses.push_back({n, RefCap});
            return n;
        }
        case Ref::Global: break;
        }
        // At the REPL, `*` read as a variable is the last value printed (as in
        // Common Lisp); the symbol's own value stays the multiplication
        // function, so (* a b), #'* and (apply '* l) still multiply. %* holds
        // the multiplication function until the REPL prints something.
        if (x == I.sym.star1) s = as_symbol(I.intern("%*"));
        keep(x);
        return mk<GlobalRef>(s);
    }

    Node* compile_pair(Value x, Ctx ctx) {
        Value head = car(x);
        if (is_obj(head) && as_obj(head)->type == Type::Symbol) {
            auto sp = specials.find(head.raw);
            if (sp != specials.end()) return (this->*(sp->second))(x, ctx);
            Ref r = resolve(head);
            if (r.kind == Ref::Global) {
                Value g = as_symbol(head)->value;
                if (is_macro(g)) {
                    Value expansion = hold(expand_macro(g, x));
                    // Keep the expansion's position so errors point at the use.
                    if (is_pair(expansion) && !I.positions.count(expansion.raw)) {
                        auto it = I.positions.find(x.raw);
                        if (it != I.positions.end()) I.positions[expansion.raw] = it->second;
                    }
                    return compile(expansion, ctx);
                }
                return compile_global_call(as_symbol(head), x, ctx);
            }
        }
        std::vector<Value> args = elements(cdr(x), x);
        Node* f = compile(head, Ctx::Expr);
        std::vector<Node*> an;
        for (Value a : args) an.push_back(compile(a, Ctx::Expr));
        return mk<CallExpr>(f, std::move(an), keep(cdr(x)), pos_of(x), ctx == Ctx::Tail);
    }

    OperandKind operand_kind(Node* n) {
        if (n->fn == LocalRef::plain && local_refs.count(n)) return OperandLocal;
        if (auto* c = dynamic_cast<ConstNode*>(n); c && is_fixnum(c->v)) return OperandConst;
        return OperandAny;
    }

    Node* compile_global_call(Symbol* s, Value x, Ctx ctx) {
        std::vector<Value> args = elements(cdr(x), x);
        Value fnval = s->value;
        PrimVariants pv;
        // The inline operation is chosen by the symbol's name, so the symbol must
        // hold the builtin of that name: after (setq car cdr), (car x) calls cdr.
        if ((args.size() == 1 || args.size() == 2) && is_native(fnval) && as_native(fnval)->fn &&
            s->name == as_native(fnval)->name && select_prim(s->name, int(args.size()), OperandAny, OperandAny, &pv)) {
            Node* a = compile(args[0], Ctx::Expr);
            Node* b = args.size() > 1 ? compile(args[1], Ctx::Expr) : nullptr;
            select_prim(s->name, int(args.size()), operand_kind(a), b ? operand_kind(b) : OperandAny, &pv);
            keep(fnval);
            auto* pn = mk<PrimNode>(pv.run, s, fnval, a, b, pos_of(x));
            pn->general = pv.general;
            pn->op = pv.op;
            pn->test = pv.test;
            pn->test_general = pv.test_general;
            auto setup = [&](Node* op, OperandKind k, int* slot, Value* kval) {
                if (k == OperandLocal) {
                    Var* v = local_refs[op];
                    *slot = v->slot;
                    v->uses.push_back({pn, PrimOperand});
                } else if (k == OperandConst) {
                    *kval = static_cast<ConstNode*>(op)->v;
                }
            };
            setup(a, pv.ka, &pn->slot_a, &pn->k_a);
            if (b) setup(b, pv.kb, &pn->slot_b, &pn->k_b);
            if (b && pv.ka == OperandLocal && pv.kb == OperandAny) local_refs[a]->uses.push_back({pn, PrimOrder});
            return pn;
        }
        std::vector<Node*> an;
        an.reserve(args.size());
        for (Value a : args) an.push_back(compile(a, Ctx::Expr));
        keep(obj_value(s));
        if (an.size() <= CALL_UNROLLED) return mk<CallGlobalN>(s, std::move(an), keep(cdr(x)), pos_of(x), ctx == Ctx::Tail);
        return mk<CallGlobal>(s, std::move(an), keep(cdr(x)), pos_of(x), ctx == Ctx::Tail);
    }

    // (if test then else), using the predicate's test function when it has one.
    Node* make_if(Node* t, Node* a, Node* b) {
        if (t->test) return mk<IfTestNode>(t, a, b);
        return mk<IfNode>(t, a, b);
    }

    Value expand_macro(Value m, Value form) {
        Macro* mac = as_macro(m);
        Root f(I, form);
        if (mac->whole_form) return I.call(mac->expander, {form});
        return I.apply_list(mac->expander, cdr(form));
    }

    Node* compile_body(Value forms, Ctx ctx, Value whole) {
        std::vector<Value> fs = elements(forms, whole);
        // Declarations and (in function bodies) docstrings are skipped by callers.
        std::vector<Value> kept;
        for (Value f : fs)
            if (!(is_pair(f) && car(f) == S("declare"))) kept.push_back(f);
        if (kept.empty()) return konst(NIL);
        if (kept.size() == 1) return compile(kept[0], ctx);
        std::vector<Node*> ns;
        for (size_t i = 0; i < kept.size(); i++) {
            bool last = i + 1 == kept.size();
            ns.push_back(compile(kept[i], ctx == Ctx::Stmt ? Ctx::Stmt : (last ? ctx : Ctx::Expr)));
        }
        return mk<SeqNode>(std::move(ns), ctx == Ctx::Stmt);
    }

    // ---- special forms ----
    Value arg(Value form, int i) {
        Value x = cdr(form);
        for (; i > 0 && is_pair(x); --i) x = cdr(x);
        if (!is_pair(x)) syntax(std::string(I.symbol_name(car(form))) + ": missing argument", form);
        return car(x);
    }
    size_t nargs(Value form) { return elements(cdr(form), form).size(); }
    void want_args(Value form, size_t lo, size_t hi) {
        size_t n = nargs(form);
        if (n < lo || n > hi)
            syntax(std::string(I.symbol_name(car(form))) + ": wrong number of arguments", form);
    }

    Node* c_quote(Value form, Ctx) {
        want_args(form, 1, 1);
        return konst(arg(form, 0));
    }
    Node* c_declare(Value, Ctx) { return konst(NIL); }
    Node* c_eval_when(Value form, Ctx ctx) { return compile_body(cddr(form), ctx, form); }
    static Value cddr(Value x) { return is_pair(x) && is_pair(cdr(x)) ? cdr(cdr(x)) : NIL; }

    Node* c_function(Value form, Ctx ctx) {
        want_args(form, 1, 1);
        Value f = arg(form, 0);
        if (is_pair(f) && car(f) == I.sym.lambda) return c_lambda(f, ctx);
        if (f == I.sym.star1 && resolve(f).kind == Ref::Global) return mk<GlobalRef>(as_symbol(f));   // #'* multiplies
        return compile(f, Ctx::Expr);
    }

    Node* c_lambda(Value form, Ctx) {
        if (!is_pair(cdr(form))) syntax("lambda: missing lambda list", form);
        Proto* p = compile_proto(I.sym.lambda, car(cdr(form)), cdr(cdr(form)), false, form);
        return make_closure_node(p);
    }

    Node* c_if(Value form, Ctx ctx) {
        size_t n = nargs(form);
        if (n < 2) syntax("if: needs a test and a consequent", form);
        Node* t = compile(arg(form, 0), Ctx::Expr);
        Node* a = compile(arg(form, 1), ctx);
        Node* b = n > 2 ? compile_body(cdr(cdr(cdr(form))), ctx, form) : konst(NIL);
        return make_if(t, a, b);
    }

    Node* c_cond(Value form, Ctx ctx) {
        std::vector<Value> clauses = elements(cdr(form), form);
        return cond_from(clauses, 0, ctx, form);
    }
    Node* cond_from(const std::vector<Value>& cl, size_t i, Ctx ctx, Value form) {
        if (i == cl.size()) return konst(NIL);
        Value c = cl[i];
        if (!is_pair(c)) syntax("cond: a clause must be a list", form);
        Value test = car(c), body = cdr(c);
        if (is_nil(body)) {
            Node* t = compile(test, Ctx::Expr);
            if (i + 1 == cl.size()) return t;
            return mk<AndOrNode>(std::vector<Node*>{t, cond_from(cl, i + 1, ctx, form)}, false);
        }
        if (test == I.sym.t) return compile_body(body, ctx, form);
        Node* t = compile(test, Ctx::Expr);
        Node* a = compile_body(body, ctx, form);
        return make_if(t, a, cond_from(cl, i + 1, ctx, form));
    }

    Node* andor(Value form, Ctx ctx, bool is_and) {
        std::vector<Value> parts = elements(cdr(form), form);
        if (parts.empty()) return konst(is_and ? I.sym.t : NIL);
        if (parts.size() == 1) return compile(parts[0], ctx == Ctx::Tail ? ctx : Ctx::Expr);
        std::vector<Node*> ns;
        for (size_t i = 0; i < parts.size(); i++)
            ns.push_back(compile(parts[i], i + 1 == parts.size() && ctx == Ctx::Tail ? Ctx::Tail : Ctx::Expr));
        return mk<AndOrNode>(std::move(ns), is_and);
    }
    Node* c_and(Value form, Ctx ctx) { return andor(form, ctx, true); }
    Node* c_or(Value form, Ctx ctx) { return andor(form, ctx, false); }

    Node* assign(Value sym, Node* val, Value form) {
        if (!is_obj(sym) || as_obj(sym)->type != Type::Symbol) syntax("setq: not a variable", form);
        if (as_symbol(sym)->flags & SYM_CONSTANT) syntax("setq: cannot assign a constant", form);
        Ref r = resolve(sym);
        switch (r.kind) {
        case Ref::Local: {
            r.var->assigned = true;
            auto* n = mk<LocalSet>(r.index, val);
            r.var->uses.push_back({n, SetLocal});
            return n;
        }
        case Ref::Capture:
            r.var->assigned = true;
            return mk<CapSet>(r.index, val);
        case Ref::Global: break;
        }
        keep(sym);
        return mk<GlobalSet>(as_symbol(sym), val);
    }

    Node* c_setq(Value form, Ctx) {
        std::vector<Value> xs = elements(cdr(form), form);
        if (xs.size() % 2) syntax("setq: odd number of arguments", form);
        if (xs.empty()) return konst(NIL);
        std::vector<Node*> ns;
        for (size_t i = 0; i < xs.size(); i += 2) ns.push_back(assign(xs[i], compile(xs[i + 1], Ctx::Expr), form));
        if (ns.size() == 1) return ns[0];
        return mk<SeqNode>(std::move(ns), false);
    }

    Node* c_progn(Value form, Ctx ctx) { return compile_body(cdr(form), ctx, form); }

    // Bindings of let, let*, prog, in execution order. Lexical variables get a
    // Bind into their slot; a special variable gets a Bind into a scratch slot
    // and then a BindSpecial, which needs an enclosing DynamicExtent
    // (*has_special). let evaluates every init before binding any variable;
    // let* binds each in turn.
    std::vector<Node*> compile_bindings(Value bindings, bool sequential, Value form, bool* has_special) {
        std::vector<Value> bs = elements(bindings, form);
        std::vector<Node*> out, specials_after;
        std::vector<std::pair<Value, Bind*>> pend;
        *has_special = false;
        for (Value b : bs) {
            Value sym = b, init = NIL;
            bool has_init = false;
            if (is_pair(b)) {
                sym = car(b);
                if (is_pair(cdr(b))) { init = car(cdr(b)); has_init = true; }
            }
            if (!is_obj(sym) || as_obj(sym)->type != Type::Symbol) syntax("not a variable name in bindings", form);
            int slot = alloc_slot();
            Node* v = has_init ? compile(init, Ctx::Expr) : nullptr;
            auto* bn = mk<Bind>(slot, v);
            out.push_back(bn);
            if (is_special(sym)) {
                *has_special = true;
                Node* bs_node = mk<BindSpecial>(as_symbol(sym), slot);
                (sequential ? out : specials_after).push_back(bs_node);
            } else if (sequential) {
                declare(sym, slot)->uses.push_back({bn, BindUse});
            } else {
                pend.push_back({sym, bn});
            }
        }
        for (auto& [sym, bn] : pend) declare(sym, bn->slot)->uses.push_back({bn, BindUse});
        out.insert(out.end(), specials_after.begin(), specials_after.end());
        return out;
    }

    Node* let_like(Value form, Ctx ctx, bool sequential) {
        if (!is_pair(cdr(form))) syntax("let: missing bindings", form);
        ScopeMark m = mark();
        bool dynamic;
        std::vector<Node*> binds = compile_bindings(car(cdr(form)), sequential, form, &dynamic);
        Node* body = compile_body(cddr(form), dynamic && ctx == Ctx::Tail ? Ctx::Expr : ctx, form);
        release(m);
        if (dynamic) return mk<DynamicExtent>(std::move(binds), body);
        if (binds.empty()) return body;
        binds.push_back(body);
        return mk<SeqNode>(std::move(binds), false);
    }
    Node* c_let(Value form, Ctx ctx) { return let_like(form, ctx, false); }
    Node* c_letstar(Value form, Ctx ctx) { return let_like(form, ctx, true); }

    Node* prog_like(Value form, Ctx ctx, Value name, Value vars, Value body) {
        ScopeMark m = mark();
        auto* p = mk<ProgNode>();
        bool dynamic;
        std::vector<Node*> binds = compile_bindings(vars, false, form, &dynamic);
        if (!dynamic) p->inits = binds;
        auto blk = std::make_unique<Block>();
        blk->node = p;
        blk->name = name;
        blk->in_stmt = ctx == Ctx::Stmt;
        std::vector<Value> items = elements(body, form);
        int index = 0;
        for (Value it : items) {
            if (!is_pair(it)) {
                if (is_nil(it)) continue;
                blk->labels.push_back({it, index});
            } else {
                index++;
            }
        }
        Block* b = blk.get();
        fn->block_store.push_back(std::move(blk));
        fn->blocks.push_back(b);
        for (Value it : items)
            if (is_pair(it)) p->stmts.push_back(compile(it, Ctx::Stmt));
        fn->blocks.pop_back();
        p->is_stmt = ctx == Ctx::Stmt;
        release(m);
        if (dynamic) return mk<DynamicExtent>(std::move(binds), p);
        return p;
    }
    Node* c_prog(Value form, Ctx ctx) {
        if (!is_pair(cdr(form))) syntax("prog: missing variable list", form);
        return prog_like(form, ctx, NIL, car(cdr(form)), cddr(form));
    }
    Node* c_block(Value form, Ctx ctx) {
        if (!is_pair(cdr(form))) syntax("block: missing name", form);
        // A block's body is not a tagbody: wrap each form so atoms are not labels.
        Value name = car(cdr(form));
        ScopeMark m = mark();
        auto* p = mk<ProgNode>();
        auto blk = std::make_unique<Block>();
        blk->node = p;
        blk->name = name;
        blk->in_stmt = ctx == Ctx::Stmt;
        Block* b = blk.get();
        fn->block_store.push_back(std::move(blk));
        fn->blocks.push_back(b);
        std::vector<Value> items = elements(cddr(form), form);
        // The value of the last form is the block's value: return it explicitly.
        for (size_t i = 0; i < items.size(); i++) {
            Node* s = compile(items[i], Ctx::Stmt);
            if (i + 1 == items.size()) s = mk<ReturnNode>(p, s, true);
            p->stmts.push_back(s);
        }
        fn->blocks.pop_back();
        p->is_stmt = ctx == Ctx::Stmt;
        release(m);
        return p;
    }

    // Can a go/return from here reach block `target` as a SIGNAL?
    bool signal_path(Ctx ctx, Block* target) {
        if (ctx != Ctx::Stmt) return false;
        for (auto it = fn->blocks.rbegin(); it != fn->blocks.rend(); ++it) {
            if (*it == target) return true;
            if (!(*it)->in_stmt) return false;
        }
        return false;
    }

    Node* c_go(Value form, Ctx ctx) {
        want_args(form, 1, 1);
        Value label = arg(form, 0);
        for (auto it = fn->blocks.rbegin(); it != fn->blocks.rend(); ++it) {
            for (auto& [l, idx] : (*it)->labels) {
                if (l == label || (is_fixnum(l) && l == label)) {
                    bool sig = signal_path(ctx, *it);
                    if (!sig) (*it)->node->fn = ProgNode::catching;
                    return mk<GoNode>((*it)->node, idx, sig);
                }
            }
        }
        syntax("go: no such label in an enclosing prog", form);
    }

    Node* return_to(Block* b, Value val, Ctx ctx) {
        Node* v = is_nil(val) ? nullptr : compile(val, Ctx::Expr);
        bool sig = signal_path(ctx, b);
        if (!sig) b->node->fn = ProgNode::catching;
        return mk<ReturnNode>(b->node, v, sig);
    }
    Node* c_return(Value form, Ctx ctx) {
        want_args(form, 0, 1);
        for (auto it = fn->blocks.rbegin(); it != fn->blocks.rend(); ++it)
            if (is_nil((*it)->name)) return return_to(*it, is_pair(cdr(form)) ? arg(form, 0) : NIL, ctx);
        syntax("return: not inside a prog, do or block", form);
    }
    Node* c_return_from(Value form, Ctx ctx) {
        want_args(form, 1, 2);
        Value name = arg(form, 0);
        for (auto it = fn->blocks.rbegin(); it != fn->blocks.rend(); ++it)
            if ((*it)->name == name) return return_to(*it, nargs(form) > 1 ? arg(form, 1) : NIL, ctx);
        syntax("return-from: no enclosing block of that name", form);
    }

    Node* c_while(Value form, Ctx) {
        if (!is_pair(cdr(form))) syntax("while: missing test", form);
        Node* t = compile(arg(form, 0), Ctx::Expr);
        Node* b = compile_body(cddr(form), Ctx::Expr, form);
        return mk<WhileNode>(t, b);
    }

    Node* c_catch(Value form, Ctx) {
        if (!is_pair(cdr(form))) syntax("catch: missing tag", form);
        Node* t = compile(arg(form, 0), Ctx::Expr);
        return mk<CatchNode>(t, compile_body(cddr(form), Ctx::Expr, form));
    }
    Node* c_unwind_protect(Value form, Ctx) {
        if (!is_pair(cdr(form))) syntax("unwind-protect: missing body", form);
        Node* b = compile(arg(form, 0), Ctx::Expr);
        return mk<UnwindProtectNode>(b, compile_body(cddr(form), Ctx::Expr, form));
    }
    Node* c_errset(Value form, Ctx) {
        want_args(form, 1, 2);
        Node* f = compile(arg(form, 0), Ctx::Expr);
        Node* fl = nargs(form) > 1 ? compile(arg(form, 1), Ctx::Expr) : nullptr;
        return mk<ErrsetNode>(f, fl);
    }

    Value skip_docstring(Value body) {
        if (is_pair(body) && is_string(car(body)) && is_pair(cdr(body))) return cdr(body);
        return body;
    }
    Value def_name(Value form) {
        if (!is_pair(cdr(form)) || !is_pair(cddr(form))) syntax("definition: expected a name and a lambda list", form);
        Value name = arg(form, 0);
        if (!is_obj(name) || as_obj(name)->type != Type::Symbol) syntax("definition: the name must be a symbol", form);
        return name;
    }
    Node* c_defun(Value form, Ctx) {
        Value name = def_name(form);
        Proto* p = compile_proto(name, arg(form, 1), skip_docstring(cdr(cddr(form))), false, form);
        keep(name);
        return mk<DefineNode>(as_symbol(name), make_closure_node(p), 0);
    }
    Node* c_df(Value form, Ctx) {
        Value name = def_name(form);
        // (df name (l) ...) or (df name (l env) ...): l gets the argument forms.
        std::vector<Value> params = elements(arg(form, 1), form);
        if (params.empty() || params.size() > 2) syntax("df: expected (args) or (args env)", form);
        Value ll = hold(I.list({params[0]}));
        if (params.size() == 2) ll = hold(I.list({params[0], I.sym.optional, params[1]}));
        Proto* p = compile_proto(name, ll, skip_docstring(cdr(cddr(form))), true, form);
        keep(name);
        return mk<DefineNode>(as_symbol(name), make_closure_node(p), 0);
    }
    Node* c_dm(Value form, Ctx) {
        Value name = def_name(form);
        Proto* p = compile_proto(name, arg(form, 1), skip_docstring(cdr(cddr(form))), false, form);
        keep(name);
        return mk<DefineNode>(as_symbol(name), make_closure_node(p), 1);
    }
    Node* c_defmacro(Value form, Ctx) {
        Value name = def_name(form);
        Value ll = arg(form, 1);
        Value body = skip_docstring(cdr(cddr(form)));
        // The expander takes the whole form and destructures its arguments.
        Value whole = hold(I.gensym("form"));
        Value bind_whole = NIL;
        if (is_pair(ll) && car(ll) == I.sym.whole && is_pair(cdr(ll))) {
            bind_whole = car(cdr(ll));
            ll = cddr(ll);
        }
        // (destructuring-bind ll (cdr whole) . body)
        Value db = hold(I.cons(S("destructuring-bind"),
                               I.cons(ll, I.cons(I.list({S("cdr"), whole}), body))));
        if (!is_nil(bind_whole))
            db = hold(I.list({S("let"), I.list({I.list({bind_whole, whole})}), db}));
        Value lambda_list = hold(I.list({whole}));
        Proto* p = compile_proto(name, lambda_list, hold(I.list({db})), false, form);
        keep(name);
        return mk<DefineNode>(as_symbol(name), make_closure_node(p), 1);
    }

    Node* defvar_like(Value form, bool always, bool constant) {
        if (!is_pair(cdr(form))) syntax("defvar: missing name", form);
        Value name = arg(form, 0);
        if (!is_obj(name) || as_obj(name)->type != Type::Symbol) syntax("defvar: the name must be a symbol", form);
        Symbol* s = as_symbol(name);
        s->flags |= SYM_SPECIAL;   // at compile time, so later code binds it dynamically
        if (!is_pair(cddr(form))) return konst(name);
        Value init = car(cddr(form));
        Value q = hold(I.list({I.sym.quote, name}));
        // Built one allocation at a time: every piece is held before the next is made.
        Value set = hold(I.list({S("setq"), name, init}));
        Value code = hold(I.list({S("progn"), set, q}));
        if (!always) {
            Value test = hold(I.list({S("boundp"), q}));
            code = hold(I.list({S("if"), test, q, code}));
        }
        Node* n = compile(code, Ctx::Expr);
        if (constant) {
            // Evaluate now so later code can fold it; mark constant afterwards.
            return mk<SeqNode>(std::vector<Node*>{n, mk<CallGlobal>(as_symbol(S("%make-constant")),
                                                                   std::vector<Node*>{konst(name)}, NIL,
                                                                   pos_of(form), false)},
                               false);
        }
        return n;
    }
    Node* c_defvar(Value form, Ctx) { return defvar_like(form, false, false); }
    Node* c_defparameter(Value form, Ctx) { return defvar_like(form, true, false); }
    Node* c_defconstant(Value form, Ctx) { return defvar_like(form, true, true); }

    Node* c_quasiquote(Value form, Ctx ctx) {
        want_args(form, 1, 1);
        Value e = hold(qq(arg(form, 0), 1));
        return compile(e, ctx);
    }

    Node* c_destructuring_bind(Value form, Ctx ctx) {
        if (!is_pair(cdr(form)) || !is_pair(cddr(form))) syntax("destructuring-bind: expected a pattern and a value", form);
        ScopeMark m = mark();
        std::vector<Node*> ns;
        int t = alloc_slot();
        ns.push_back(mk<Bind>(t, compile(arg(form, 1), Ctx::Expr)));
        destructure(arg(form, 0), t, ns, form);
        ns.push_back(compile_body(cdr(cddr(form)), ctx, form));
        release(m);
        return mk<SeqNode>(std::move(ns), false);
    }
    void bind_var(Value sym, Node* val, std::vector<Node*>& ns, Value form) {
        if (!is_obj(sym) || as_obj(sym)->type != Type::Symbol) syntax("destructuring: not a variable", form);
        int slot = alloc_slot();
        auto* b = mk<Bind>(slot, val);
        ns.push_back(b);
        declare(sym, slot)->uses.push_back({b, BindUse});
    }
    void destructure(Value pat, int t, std::vector<Node*>& ns, Value form) {
        bool optional = false, rest_done = false;
        Value x = pat;
        if (is_pair(x) && car(x) == I.sym.whole) {
            bind_var(car(cdr(x)), mk<LocalRef>(t), ns, form);
            x = cddr(x);
        }
        for (; is_pair(x); x = cdr(x)) {
            Value p = car(x);
            if (p == I.sym.optional) { optional = true; continue; }
            if (p == I.sym.rest || p == I.sym.body) {
                if (!is_pair(cdr(x))) syntax("destructuring: &rest needs a variable", form);
                bind_var(car(cdr(x)), mk<LocalRef>(t), ns, form);
                rest_done = true;
                x = cdr(x);
                continue;
            }
            if (p == I.sym.key || p == I.sym.aux) syntax("destructuring: &key and &aux are not supported", form);
            if (rest_done) syntax("destructuring: nothing may follow the &rest variable", form);
            if (!optional) {
                if (is_pair(p)) {
                    int sub = alloc_slot();
                    ns.push_back(mk<Bind>(sub, mk<PopNode>(t, false, nullptr)));
                    destructure(p, sub, ns, form);
                } else {
                    bind_var(p, mk<PopNode>(t, false, nullptr), ns, form);
                }
            } else {
                Value var = p;
                Node* d = nullptr;
                if (is_pair(p)) {
                    var = car(p);
                    if (is_pair(cdr(p))) d = compile(car(cdr(p)), Ctx::Expr);
                }
                bind_var(var, mk<PopNode>(t, true, d), ns, form);
            }
        }
        if (!is_nil(x)) bind_var(x, mk<LocalRef>(t), ns, form);   // dotted rest
        else if (!rest_done) ns.push_back(mk<EndCheckNode>(t));
    }

    Node* c_labels(Value form, Ctx ctx) {
        // (labels ((f (x) ...) ...) body): the functions see each other.
        if (!is_pair(cdr(form))) syntax("labels: missing definitions", form);
        std::vector<Value> defs = elements(arg(form, 0), form);
        ScopeMark m = mark();
        std::vector<Node*> ns;
        std::vector<Var*> vars;
        for (Value d : defs) {
            if (!is_pair(d) || !is_pair(cdr(d))) syntax("labels: malformed definition", form);
            int slot = alloc_slot();
            auto* b = mk<Bind>(slot, nullptr);
            ns.push_back(b);
            Var* v = declare(car(d), slot);
            v->uses.push_back({b, BindUse});
            vars.push_back(v);
        }
        for (size_t i = 0; i < defs.size(); i++) {
            Value d = defs[i];
            Proto* p = compile_proto(car(d), car(cdr(d)), skip_docstring(cddr(d)), false, d);
            ns.push_back(assign(car(d), make_closure_node(p), form));
        }
        ns.push_back(compile_body(cddr(form), ctx, form));
        release(m);
        return mk<SeqNode>(std::move(ns), false);
    }
    Node* c_flet(Value form, Ctx ctx) {
        if (!is_pair(cdr(form))) syntax("flet: missing definitions", form);
        std::vector<Value> defs = elements(arg(form, 0), form);
        ScopeMark m = mark();
        std::vector<Node*> ns;
        std::vector<std::pair<Value, int>> pend;
        for (Value d : defs) {
            if (!is_pair(d) || !is_pair(cdr(d))) syntax("flet: malformed definition", form);
            int slot = alloc_slot();
            Proto* p = compile_proto(car(d), car(cdr(d)), skip_docstring(cddr(d)), false, d);
            auto* b = mk<Bind>(slot, make_closure_node(p));
            ns.push_back(b);
            pend.push_back({car(d), slot});
        }
        for (size_t i = 0; i < pend.size(); i++)
            declare(pend[i].first, pend[i].second)->uses.push_back({ns[i], BindUse});
        ns.push_back(compile_body(cddr(form), ctx, form));
        release(m);
        return mk<SeqNode>(std::move(ns), false);
    }

    // ---- lambdas ----
    Node* make_closure_node(Proto* p) {
        keep(obj_value(p));
        // The captures compile_proto just computed, as seen from here.
        std::vector<CaptureSource> caps = std::move(pending_caps);
        pending_caps.clear();
        return mk<MakeClosure>(p, std::move(caps));
    }

    Proto* compile_proto(Value name, Value lambda_list, Value body, bool fexpr, Value form) {
        Proto* p = I.heap.make<Proto>();
        hold(obj_value(p));
        p->name = is_obj(name) && as_obj(name)->type == Type::Symbol ? std::string(I.symbol_name(name)) : "lambda";
        p->name_sym = name;
        p->fexpr = fexpr;
        p->pos = pos_of(form);
        p->source = I.cons(lambda_list, body);
        Fn ctx;
        ctx.parent = fn;
        ctx.proto = p;
        Fn* saved = fn;
        fn = &ctx;
        try {
            compile_lambda_into(ctx, lambda_list, body, form);
        } catch (...) {
            fn = saved;
            throw;
        }
        fn = saved;
        // Captures become the sources of the MakeClosure node built next by
        // the caller; stash them on the proto for make_closure_node.
        pending_caps.clear();
        for (Var* v : ctx.captures) {
            if (v->owner == fn) pending_caps.push_back({true, v->slot});
            else pending_caps.push_back({false, capture_index(fn, v)});
        }
        return p;
    }
    std::vector<CaptureSource> pending_caps;

    // Set by compile_toplevel: a top-level form's body is not compiled for
    // tail calls, so the frame of the function it calls keeps its call site.
    bool toplevel_body = false;

    void compile_lambda_into(Fn& ctx, Value ll, Value body, Value form) {
        Proto* p = ctx.proto;
        Ctx body_ctx = toplevel_body ? Ctx::Expr : Ctx::Tail;
        toplevel_body = false;
        enum { Req, Opt, Rest, Aux, Done } mode = Req;
        std::vector<Var*> params;
        std::vector<std::pair<Value, Value>> patterns;   // (pattern, slot) destructured in the prologue
        std::vector<std::pair<Value, Value>> aux;
        std::vector<Value> special_params;
        Value x = ll;
        if (!is_list(x) && !(is_obj(x) && as_obj(x)->type == Type::Symbol)) syntax("lambda: bad lambda list", form);
        for (; is_pair(x); x = cdr(x)) {
            Value a = car(x);
            if (a == I.sym.optional) { mode = Opt; continue; }
            if (a == I.sym.rest || a == I.sym.body) { mode = Rest; continue; }
            if (a == I.sym.aux) { mode = Aux; continue; }
            if (a == I.sym.key) syntax("lambda: &key is not supported (use &optional or a plist)", form);
            switch (mode) {
            case Req: {
                int slot = alloc_slot();
                p->nreq++;
                if (is_pair(a)) { patterns.push_back({a, make_fixnum(slot)}); break; }
                params.push_back(declare_param(a, slot, special_params));
                break;
            }
            case Opt: {
                int slot = alloc_slot();
                Value var = is_pair(a) ? car(a) : a;
                Node* d = nullptr;
                if (is_pair(a) && is_pair(cdr(a))) d = compile(car(cdr(a)), Ctx::Expr);
                p->nopt++;
                p->opt_defaults.push_back(d);
                params.push_back(declare_param(var, slot, special_params));
                break;
            }
            case Rest: {
                int slot = alloc_slot();
                p->rest = true;
                params.push_back(declare_param(a, slot, special_params));
                mode = Done;
                break;
            }
            case Aux:
                aux.push_back({is_pair(a) ? car(a) : a, is_pair(a) && is_pair(cdr(a)) ? car(cdr(a)) : NIL});
                break;
            case Done: syntax("lambda: nothing may follow the &rest parameter", form);
            }
        }
        if (!is_nil(x)) {   // (a b . rest) or a lone symbol: the rest of the arguments
            int slot = alloc_slot();
            p->rest = true;
            params.push_back(declare_param(x, slot, special_params));
        }
        // Prologue: destructuring patterns, &aux, special parameters.
        std::vector<Node*> pro;
        for (auto& [pat, slotv] : patterns) destructure(pat, int(fixnum_value(slotv)), pro, form);
        for (auto& [var, init] : aux) {
            int slot = alloc_slot();
            auto* b = mk<Bind>(slot, is_nil(init) ? nullptr : compile(init, Ctx::Expr));
            pro.push_back(b);
            declare(var, slot)->uses.push_back({b, BindUse});
        }
        Node* b;
        if (!special_params.empty()) {
            std::vector<Node*> dyn;
            for (size_t i = 0; i + 1 < special_params.size(); i += 2)
                dyn.push_back(mk<BindSpecial>(as_symbol(special_params[i]), int(fixnum_value(special_params[i + 1]))));
            b = mk<DynamicExtent>(dyn, compile_body(body, Ctx::Expr, form));
        } else {
            b = compile_body(body, body_ctx, form);
        }
        if (!pro.empty()) {
            pro.push_back(b);
            b = mk<SeqNode>(std::move(pro), false);
        }
        p->body = b;
        for (Var* v : ctx.scope) finish_var(v);
        ctx.scope.clear();
        p->frame_size = ctx.max_slots;
        p->simple = !p->fexpr && !p->rest && p->nopt == 0 && p->boxed_params.empty();
        p->simple_nargs = p->simple ? p->nreq : -1;
    }
    Var* declare_param(Value sym, int slot, std::vector<Value>& special_params) {
        if (is_special(sym)) {
            // Bound dynamically in the prologue; the slot just carries the argument.
            special_params.push_back(sym);
            special_params.push_back(make_fixnum(slot));
            return nullptr;
        }
        Var* v = declare(sym, slot);
        v->uses.push_back({nullptr, ParamUse});
        return v;
    }

    // ---- quasiquote ----
    bool is_form(Value x, Value head) { return is_pair(x) && car(x) == head && is_pair(cdr(x)) && is_nil(cddr(x)); }
    Value qq(Value x, int depth) {
        I.check_cstack();
        if (is_vector(x)) {
            Value l = NIL;
            {
                Root r(I, NIL);
                auto& items = as_vector(x)->items;
                for (size_t i = items.size(); i-- > 0;) { l = I.cons(items[i], r); r = l; }
            }
            Root lst(I, l);
            Value e = qq(lst, depth);
            Root er(I, e);
            return I.list({S("apply"), I.list({I.sym.function, S("vector")}), er});
        }
        if (!is_pair(x)) {
            if (is_nil(x) || (is_obj(x) && as_obj(x)->type == Type::Symbol)) return I.list({I.sym.quote, x});
            return x;
        }
        if (is_form(x, I.sym.unquote)) {
            if (depth == 1) return car(cdr(x));
            Root inner(I, qq(car(cdr(x)), depth - 1));
            return I.list({S("list"), I.list({I.sym.quote, I.sym.unquote}), inner});
        }
        if (is_form(x, I.sym.quasiquote)) {
            Root inner(I, qq(car(cdr(x)), depth + 1));
            return I.list({S("list"), I.list({I.sym.quote, I.sym.quasiquote}), inner});
        }
        // A list: build (%qq-append seg1 seg2 ... tail)
        Root segs(I, NIL);   // reversed list of segment forms
        Root singles(I, NIL);   // pending single elements, reversed
        auto flush = [&]() {
            if (is_nil(singles.get())) return;
            Value l = nreverse_list(singles.get());
            singles = NIL;
            Root lr(I, l);
            Value seg = I.cons(S("list"), lr);
            segs = I.cons(seg, segs);
        };
        Value y = x;
        Root yr(I, y);
        for (; is_pair(y); y = cdr(y), yr = y) {
            Value e = car(y);
            if (is_sym(e, I.sym.unquote) && depth == 1 && is_pair(cdr(y)) && is_nil(cddr(y))) {
                // `(a . ,b)  reads as (a unquote b)
                flush();
                segs = I.cons(car(cdr(y)), segs);
                y = NIL;
                yr = NIL;
                break;
            }
            if (is_form(e, I.sym.unquote_splicing) && depth == 1) {
                flush();
                segs = I.cons(car(cdr(e)), segs);
                continue;
            }
            Value q = qq(e, depth);
            singles = I.cons(q, singles);
        }
        flush();
        if (!is_nil(y)) {
            Value tail = qq(y, depth);
            segs = I.cons(tail, segs);
        } else if (is_nil(segs.get())) {
            return NIL;
        }
        Value parts = nreverse_list(segs.get());
        segs = parts;
        if (is_nil(cdr(parts))) return car(parts);
        return I.cons(S("%qq-append"), segs);
    }
};

Compiler::Compiler(Interp& I) : impl_(std::make_unique<Impl>(I)) {
    impl_->init();
    Impl* impl = impl_.get();
    I.extra_roots.push_back([impl](Tracer& t) { for (Value v : impl->held) t.mark(v); });
}
Compiler::~Compiler() = default;

Value Compiler::compile_toplevel(Value form) {
    Impl& c = *impl_;
    Interp& I = c.I;
    size_t held = c.held.size();
    Impl::Fn* saved_fn = c.fn;
    struct Restore {
        Impl& c; size_t held; Impl::Fn* fn;
        ~Restore() { c.held.resize(held); c.fn = fn; }
    } restore{c, held, saved_fn};
    c.held.push_back(form);
    c.fn = nullptr;
    Value body = c.hold(I.list({form}));
    c.toplevel_body = true;
    Proto* p = c.compile_proto(NIL, NIL, body, false, form);
    p->name = "toplevel";
    Root pr(I, obj_value(p));
    Closure* cl = I.heap.make_closure(p, 0);
    return obj_value(cl);   // top-level protos are never DFs
}

Value Compiler::compile_lambda(Value name, Value lambda_list, Value body, bool fexpr) {
    Impl& c = *impl_;
    size_t held = c.held.size();
    Impl::Fn* saved_fn = c.fn;
    struct Restore {
        Impl& c; size_t held; Impl::Fn* fn;
        ~Restore() { c.held.resize(held); c.fn = fn; }
    } restore{c, held, saved_fn};
    c.fn = nullptr;
    c.held.push_back(lambda_list);
    c.held.push_back(body);
    Proto* p = c.compile_proto(name, lambda_list, body, fexpr, body);
    Root pr(c.I, obj_value(p));
    Closure* cl = c.I.heap.make_closure(p, 0);
    if (p->fexpr) cl->flags |= CLOSURE_FEXPR;
    return obj_value(cl);
}

Value Compiler::macroexpand_1(Value form, bool* expanded) {
    *expanded = false;
    if (!is_pair(form) || !is_obj(car(form)) || as_obj(car(form))->type != Type::Symbol) return form;
    Value g = as_symbol(car(form))->value;
    if (!is_macro(g)) return form;
    *expanded = true;
    return impl_->expand_macro(g, form);
}

Value Compiler::macroexpand(Value form) {
    Root f(impl_->I, form);
    bool ex = true;
    while (ex) f = macroexpand_1(f, &ex);
    return f;
}

Value Compiler::expand_quasiquote(Value x) { return impl_->qq(x, 1); }

} // namespace lipq
