// interp.cpp — the Interp object: construction, symbols, errors, entry points.
#include "interp.h"

#include "../builtins/builtins.h"
#include "compiler.h"
#include "nodes.h"
#include "printer.h"
#include "reader.h"

#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace lipq {

extern const char* const prelude_source;   // lib/prelude.lisp, built into the binary

// ---- errors ------------------------------------------------------------------------

void LispError::add_frame(std::string f) {
    if (backtrace.size() < 40) backtrace.push_back(std::move(f));
    else frames_dropped++;
}

std::vector<std::string> Interp::backtrace(size_t max_frames) {
    std::vector<std::string> out;
    size_t n = 0;
    for (ActiveCall* c = current_call; c; c = c->prev) {
        // Compiled code entered from the tree links the same activation again,
        // without a site (jit.cpp, JitBodyNode): one line is enough.
        if (!c->site && c->prev && c->prev->base == c->base) continue;
        n++;
        if (out.size() >= max_frames) continue;
        Value fn = c->base[-1];
        std::string name;
        if (is_closure(fn)) name = as_closure(fn)->proto->name;
        else if (is_native(fn)) name = as_native(fn)->name;
        else name = describe(fn, 40);
        if (c->site && c->site->known()) name += " (called at " + format_pos(*c->site) + ")";
        out.push_back(name);
    }
    if (n > out.size()) out.push_back("... " + std::to_string(n - out.size()) + " more frames");
    return out;
}

void Interp::error(std::string msg) {
    LispError e(std::move(msg));
    // Where: the innermost call site we know, else the top-level form.
    for (ActiveCall* c = current_call; c; c = c->prev)
        if (c->site && c->site->known()) { e.where = format_pos(*c->site); break; }
    if (e.where.empty() && current_toplevel_pos.known()) e.where = format_pos(current_toplevel_pos);
    e.backtrace = backtrace();
    throw e;
}

void Interp::type_error(const char* fn, const char* expected, Value got) {
    std::string exp = expected;
    // "a list" -> "not a list"
    error(std::string(fn) + ": not " + exp + ": " + describe(got));
}

void Interp::arity_error(Value fn, int nargs) {
    std::string name = is_closure(fn) ? as_closure(fn)->proto->name
                       : is_native(fn) ? std::string(as_native(fn)->name)
                                       : describe(fn);
    std::string want;
    if (is_closure(fn)) {
        Proto* p = as_closure(fn)->proto;
        want = std::to_string(p->nreq);
        if (p->rest) want += " or more";
        else if (p->nopt) want += " to " + std::to_string(p->nreq + p->nopt);
    } else if (is_native(fn)) {
        Native* n = as_native(fn);
        want = std::to_string(n->min_args);
        if (n->max_args < 0) want += " or more";
        else if (n->max_args != n->min_args) want += " to " + std::to_string(n->max_args);
    }
    error(name + ": wrong number of arguments: got " + std::to_string(nargs) + ", expected " + want);
}

void Interp::stack_overflow() {
    // Leave room to report: the error path itself needs some stack.
    error("stack depth exceeded (" + std::to_string(depth) + " nested calls)");
}

std::string Interp::describe(Value v, size_t max_len) {
    std::string s;
    try {
        PrintOptions o = PrintOptions::from_interp(*this);
        o.escape = true;
        o.max_chars = max_len;
        s = print_to_string(*this, v, o);
    } catch (...) {
        s = "#<unprintable>";
    }
    if (s.size() > max_len) s = s.substr(0, max_len) + "...";
    return s;
}

void Interp::report_error(const LispError& e, bool with_backtrace) {
    std::string msg = "error: " + e.message;
    if (!e.where.empty()) msg += "\n  at " + e.where;
    msg += "\n";
    if (with_backtrace && !e.backtrace.empty()) {
        msg += "backtrace (innermost first):\n";
        for (auto& f : e.backtrace) msg += "  " + f + "\n";
    }
    if (write_err) write_err(msg);
    else std::fputs(msg.c_str(), stderr);
}

// ---- construction ------------------------------------------------------------------

namespace {
// The memory this process may really use: physical memory, or less when a
// container's cgroup limit or an address-space / data rlimit says so.
size_t usable_memory() {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    size_t m = (pages > 0 && page > 0) ? size_t(pages) * size_t(page) : size_t(8) << 30;
    for (const char* f : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
        if (std::FILE* in = std::fopen(f, "r")) {
            unsigned long long v = 0;
            if (std::fscanf(in, "%llu", &v) == 1 && v > 0 && v < m) m = size_t(v);   // "max": no limit
            std::fclose(in);
        }
    }
    for (int r : {RLIMIT_AS, RLIMIT_DATA}) {
        struct rlimit rl;
        if (getrlimit(r, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
            // The address space also holds the value stack and the C stack.
            size_t reserved = size_t(1) << 30;
            size_t v = rl.rlim_cur > reserved ? size_t(rl.rlim_cur) - reserved : size_t(rl.rlim_cur) / 2;
            if (v < m) m = v;
        }
    }
    return m;
}

// Half of the usable memory: the live heap may briefly need about as much
// again (a string or vector being built, the collector's mark stack), and a
// runaway allocation must end in "heap exhausted", not in the OOM killer.
size_t default_heap_limit() {
    size_t m = usable_memory() / 2;
    return std::max(m, size_t(64) << 20);
}
} // namespace

Interp::Interp(const Settings& s) : heap(*this), settings(s) {
    heap.set_limit(s.heap_limit ? s.heap_limit : default_heap_limit());
    max_depth = s.max_depth;
    jit_threshold = s.jit_threshold;
    if (const char* j = std::getenv("LIPQ_JIT"); j && (j[0] == '0' || std::string_view(j) == "off")) jit_threshold = 0;
    if (const char* j = std::getenv("LIPQ_JIT_THRESHOLD"); j && jit_threshold) jit_threshold = uint32_t(std::strtoul(j, nullptr, 10));
    stack_mapping_bytes_ = s.value_stack_slots * sizeof(Value);
    stack_mapping_ = mmap(nullptr, stack_mapping_bytes_, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (stack_mapping_ == MAP_FAILED) throw std::runtime_error("lipq: cannot reserve the value stack");
    stack_lo = static_cast<Value*>(stack_mapping_);
    stack_hi = stack_lo + s.value_stack_slots - 16;
    sp = stack_lo + 1;   // stack_lo[0] stays nil: invoke reads base[-1]
    set_cstack_limit_from_current_thread();
    if (s.time_limit_s > 0) set_time_limit(s.time_limit_s);
    if (s.step_limit) set_step_limit(s.step_limit);
    init_symbols();
    compiler = std::make_unique<Compiler>(*this);
    open_all_builtins(*this);
    load_prelude();
}

Interp::~Interp() {
    if (dribble) std::fclose(dribble);
    compiler.reset();
    extra_roots.clear();
    // The heap destructor frees every object; the value stack goes last.
    if (stack_mapping_) munmap(stack_mapping_, stack_mapping_bytes_);
}

void Interp::set_cstack_limit_from_current_thread() {
    pthread_attr_t attr;
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstack(&attr, &addr, &size);
        pthread_attr_destroy(&attr);
    }
    char here;
    if (addr && size) {
        // Keep 256 KiB (or an eighth of a small stack) for error reporting and natives.
        size_t margin = std::min<size_t>(256 * 1024, size / 8);
        cstack_limit = static_cast<char*>(addr) + margin;
        if (cstack_limit > &here) cstack_limit = &here - 64 * 1024;
    } else {
        cstack_limit = &here - 4 * 1024 * 1024;
    }
}

void Interp::init_symbols() {
    auto constant = [&](const char* name) {
        Value v = intern(name);
        as_symbol(v)->flags |= SYM_CONSTANT;
        return v;
    };
    sym.t = constant("t");
    as_symbol(sym.t)->value = sym.t;
    sym.quote = intern("quote");
    sym.progn = intern("progn");
    sym.quasiquote = intern("quasiquote");
    sym.unquote = intern("unquote");
    sym.unquote_splicing = intern("unquote-splicing");
    sym.function = intern("function");
    sym.lambda = intern("lambda");
    sym.optional = intern("&optional");
    sym.rest = intern("&rest");
    sym.body = intern("&body");
    sym.key = intern("&key");
    sym.aux = intern("&aux");
    sym.whole = intern("&whole");
    sym.lipq = intern("lipq");
    sym.cl = intern("cl");
    auto special = [&](const char* name, Value v) {
        Value s = intern(name);
        as_symbol(s)->flags |= SYM_SPECIAL;
        as_symbol(s)->value = v;
        return s;
    };
    sym.print_shared = special("*print-shared*", sym.t);
    sym.print_labels = special("*print-labels*", sym.lipq);
    sym.print_length = special("*print-length*", NIL);
    sym.print_level = special("*print-level*", NIL);
    sym.print_pretty = special("*print-pretty*", NIL);
    sym.print_escape = special("*print-escape*", sym.t);
    sym.print_base = special("*print-base*", make_fixnum(10));
    sym.star1 = special("*", NIL);
    sym.star2 = special("**", NIL);
    sym.star3 = special("***", NIL);
    sym.gc_stats_keys = NIL;
}

void Interp::load_prelude() {
    eval_string(prelude_source, "<prelude>");
}

// ---- symbols ---------------------------------------------------------------------

Value Interp::intern(std::string_view name) {
    if (name == "nil") return NIL;
    auto it = symtab_.find(std::string(name));
    if (it != symtab_.end()) return obj_value(it->second);
    Symbol* s = heap.make<Symbol>(std::string(name));
    s->flags |= SYM_INTERNED;
    if (!name.empty() && name[0] == ':') {
        s->flags |= SYM_CONSTANT | SYM_KEYWORD;
        s->value = obj_value(s);
    }
    symtab_.emplace(s->name, s);
    return obj_value(s);
}

Value Interp::gensym(const std::string& prefix) {
    Symbol* s = heap.make<Symbol>(prefix + std::to_string(++gensym_counter));
    return obj_value(s);
}

std::string_view Interp::symbol_name(Value sym) const {
    if (is_nil(sym)) return "nil";
    return as_symbol(sym)->name;
}

Value Interp::global(Value s) const { return is_nil(s) ? NIL : as_symbol(s)->value; }

void Interp::set_global(Value s, Value v) {
    if (is_nil(s) || (as_symbol(s)->flags & SYM_CONSTANT)) error("cannot assign the constant " + describe(s));
    as_symbol(s)->value = v;
}

void Interp::set_global(std::string_view name, Value v) {
    Root rv(*this, v);
    Value s = intern(name);
    set_global(s, rv);
}

void Interp::defun_native(const char* name, NativeFn fn, int min, int max, const char* doc) {
    Native* n = heap.make<Native>();
    n->name = name;
    n->fn = fn;
    n->min_args = int16_t(min);
    n->max_args = int16_t(max);
    n->doc = doc;
    Root r(*this, obj_value(n));
    as_symbol(intern(name))->value = obj_value(n);
}

Value& Interp::plist_ref(Value s) { return is_nil(s) ? nil_plist_ : as_symbol(s)->plist; }

Value Interp::get_prop(Value s, Value key) {
    for (Value p = plist_ref(s); is_pair(p) && is_pair(cdr(p)); p = cdr(cdr(p)))
        if (car(p) == key) return car(cdr(p));
    return NIL;
}

void Interp::put_prop(Value s, Value key, Value v) {
    for (Value p = plist_ref(s); is_pair(p) && is_pair(cdr(p)); p = cdr(cdr(p)))
        if (car(p) == key) { set_car(cdr(p), v); return; }
    Root sr(*this, s), kr(*this, key), vr(*this, v);
    Value tail = cons(vr, plist_ref(s));
    Value cell = cons(kr, tail);
    plist_ref(sr) = cell;
}

// ---- allocation helpers -------------------------------------------------------------

Value Interp::list(std::initializer_list<Value> xs) {
    // The arguments are not rooted: copy them onto the value stack first.
    StackMark m(*this);
    Value* base = sp;
    for (Value x : xs) push(x);
    return list_from(*this, base, xs.size());
}

Value list_from(Interp& I, const Value* xs, size_t n) {
    // xs may be on the value stack (rooted); the partial list is rooted through cons's argument.
    Value l = NIL;
    for (size_t i = n; i-- > 0;) l = I.cons(xs[i], l);
    return l;
}

Value nreverse_list(Value l) {
    Value prev = NIL;
    while (is_pair(l)) {
        Value next = cdr(l);
        set_cdr(l, prev);
        prev = l;
        l = next;
    }
    return prev;
}

int64_t list_length(Interp& I, Value l, const char* who) {
    int64_t n = 0;
    Value slow = l;
    for (Value x = l; !is_nil(x); x = cdr(x), n++) {
        if (!is_pair(x)) I.type_error(who, "a proper list", l);
        // slow stays at index n/2: if x ever meets it again, the list is circular.
        if (n > 0 && (n & 1) == 0) {
            slow = cdr(slow);
            if (slow == x) I.error(std::string(who) + ": circular list");
        }
    }
    return n;
}

Value Interp::make_vector(size_t n, Value fill) {
    Root f(*this, fill);
    if (n > (size_t(1) << 40)) error("make-vector: too large: " + std::to_string(n));
    heap.reserve(n * sizeof(Value) + sizeof(Vector));
    Vector* v = heap.make<Vector>();
    v->items.assign(n, fill);
    heap.note_bytes(n * sizeof(Value));
    return obj_value(v);
}

// ---- evaluation entry points ----------------------------------------------------------

namespace {
// Every way into the evaluator from C++ leaves the machine as it found it,
// whether the evaluation returns or throws (an error, an interrupt, an exit).
struct EntryGuard {
    MachineState saved;
    explicit EntryGuard(Interp& in) : saved(in) {}
    ~EntryGuard() {
        saved.restore();
        // Leaving the outermost evaluation: nothing can be waiting for a
        // value in flight or a tail call, so drop them (they are roots: a
        // value left there by an error would stay alive until the next one).
        if (saved.depth == 0 && !saved.call && saved.catches == 0) saved.drop_in_flight();
    }
};
} // namespace

Value Interp::eval(Value form) {
    if (is_obj(form) && as_obj(form)->type == Type::Symbol && form != sym.star1) {   // `*`: see compile.cpp
        Symbol* s = as_symbol(form);
        if (s->value == UNBOUND) error("unbound variable: " + s->name);
        return s->value;
    }
    if (!is_pair(form) && !is_obj(form)) return form;   // fixnums, nil
    if (!is_pair(form) && as_obj(form)->type != Type::Symbol) return form;
    EntryGuard guard(*this);
    Root f(*this, form);
    // A top-level PROGN (also one a macro expands into) is a sequence of
    // top-level forms, as in Common Lisp: each is compiled only after the one
    // before has run, so (progn (defmacro m ...) (m ...)) uses the new macro.
    for (int expansions = 0;; expansions++) {
        bool expanded = false;
        Value x = compiler->macroexpand_1(f, &expanded);
        if (!expanded) break;
        if (expansions >= max_depth)
            error("macro expansion does not end: " + describe(car(f), 60) + " expanded " +
                  std::to_string(expansions) + " times (the depth limit)");
        f = x;
    }
    if (is_pair(f) && car(f) == sym.progn) {
        Root rest(*this, cdr(f));
        Root last(*this, NIL);
        for (; is_pair(rest); rest = cdr(rest)) last = eval(car(rest));
        return last;
    }
    Value closure = compiler->compile_toplevel(f);
    push(closure);
    Value* base = sp;
    return invoke(*this, base, 0, nullptr);
}

Value Interp::apply(Value fn, Value* args, int nargs) {
    EntryGuard guard(*this);
    if (sp + nargs + 1 > stack_hi) stack_overflow();
    Value* base = sp + 1;
    *sp++ = fn;
    for (int i = 0; i < nargs; i++) *sp++ = args[i];
    return invoke(*this, base, nargs, nullptr);
}

Value Interp::apply_list(Value fn, Value arglist) {
    EntryGuard guard(*this);
    Value* base = sp + 1;
    push(fn);
    int n = 0;
    for (Value x = arglist; is_pair(x); x = cdr(x), n++) push(car(x));
    Value v = invoke(*this, base, n, nullptr);
    return v;
}

Value Interp::call(Value fn, std::initializer_list<Value> args) {
    EntryGuard guard(*this);
    Value* base = sp + 1;
    push(fn);
    for (Value a : args) push(a);
    return invoke(*this, base, int(args.size()), nullptr);
}

Value Interp::eval_string(std::string_view src, const std::string& filename) {
    Reader r(*this, src, file_id(filename), true);
    Root result(*this, NIL);
    SourcePos saved = current_toplevel_pos;
    for (;;) {
        Value form = r.read();
        if (form == END_OF_FILE) break;
        Root f(*this, form);
        current_toplevel_pos = r.last_pos();
        result = eval(f);
        positions.clear();
    }
    current_toplevel_pos = saved;
    return result;
}

Value Interp::load_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) error("load: cannot open file: " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string src = ss.str();
    // A script may start with #!
    if (src.size() >= 2 && src[0] == '#' && src[1] == '!') {
        size_t nl = src.find('\n');
        src = nl == std::string::npos ? "" : std::string(nl, ' ') + src.substr(nl);
    }
    return eval_string(src, path);
}

uint32_t Interp::file_id(const std::string& name) {
    for (size_t i = 1; i < files.size(); i++)
        if (files[i] == name) return uint32_t(i);
    files.push_back(name);
    return uint32_t(files.size() - 1);
}

std::string Interp::format_pos(SourcePos p) const {
    std::string f = p.file < files.size() ? files[p.file] : "?";
    return f + ":" + std::to_string(p.line) + ":" + std::to_string(p.col);
}

// ---- output ------------------------------------------------------------------------

void Interp::out(std::string_view s) {
    if (s.empty()) return;
    if (write_out) write_out(s);
    else std::fwrite(s.data(), 1, s.size(), stdout);
    if (dribble) std::fwrite(s.data(), 1, s.size(), dribble);
    size_t nl = s.rfind('\n');
    out_column = nl == std::string_view::npos ? out_column + int(s.size()) : int(s.size() - nl - 1);
}

// ---- roots, budgets ------------------------------------------------------------------

void Interp::trace_roots(Tracer& t) {
    for (Value* p = stack_lo; p < sp; ++p) t.mark(*p);
    for (Value* r : roots) t.mark(*r);
    for (Value v : temp_roots) t.mark(v);
    for (Value v : persistent) t.mark(v);
    for (auto& [name, s] : symtab_) t.mark(obj_value(s));
    t.mark(nil_plist_);
    t.mark(tail_fn);
    t.mark(in_flight);
    t.mark(throw_tag);
    t.mark(script_args);
    for (Value v : catch_tags) t.mark(v);
    for (auto& [s, v] : special_stack) { t.mark(obj_value(s)); t.mark(v); }
    for (auto& hook : extra_roots) hook(t);
}

void Interp::unbind_specials_to(size_t m) {
    while (special_stack.size() > m) {
        auto [s, v] = special_stack.back();
        special_stack.pop_back();
        s->value = v;
    }
}

void Interp::poll_slow() {
    // (Compiled loops take their turns off in batches: what went below zero
    // counts toward the next 1024.)
    poll_count = 1024 + std::min<int32_t>(poll_count, 0);
    if (interrupt_flag.exchange(false, std::memory_order_relaxed)) throw Interrupted();
    if (has_step_limit) {
        if (steps_left <= 1024) {
            if (step_grace) throw BudgetExceeded("step limit exceeded (the error was caught, and evaluation went on)");
            step_grace = true;
            steps_left = std::max<uint64_t>(step_limit / 10, 100000);
            error("step limit exceeded");
        }
        steps_left -= 1024;
    }
    if (has_deadline && std::chrono::steady_clock::now() > deadline) {
        if (time_grace) throw BudgetExceeded("time limit exceeded (the error was caught, and evaluation went on)");
        time_grace = true;
        deadline = std::chrono::steady_clock::now() +
                   std::chrono::microseconds(int64_t(std::max(time_limit_s / 10, 1.0) * 1e6));
        error("time limit exceeded");
    }
}

void Interp::set_time_limit(double seconds) {
    has_deadline = seconds > 0;
    time_grace = false;
    time_limit_s = seconds;
    deadline = std::chrono::steady_clock::now() +
               std::chrono::microseconds(int64_t(seconds * 1e6));
}

void Interp::set_step_limit(uint64_t steps) {
    has_step_limit = steps > 0;
    step_grace = false;
    step_limit = steps;
    steps_left = steps;
}

} // namespace lipq
