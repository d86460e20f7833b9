// interp.h — the interpreter object: everything one lipq world owns.
//
// There is no global mutable state: the symbol table, the heap, the value
// stack, the settings and the interrupt flag all live in an Interp, so several
// interpreters can run in one process (each used by one thread at a time).
//
// Memory safety rule for C++ code: any call that allocates may collect. A
// Value kept in a C++ local across such a call must be reachable from a root:
// declare it as a `Root` (RAII, see below), or keep it on the value stack.
// Arguments of natives are on the value stack already.
#pragma once
#include "heap.h"
#include "jit.h"
#include "object.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lipq {

struct Node;
struct Proto;
struct ActiveCall;
class Compiler;

// ---- errors ------------------------------------------------------------------

struct SourcePos {
    uint32_t file = 0;   // index into Interp::files (0: no file)
    uint32_t line = 0, col = 0;
    bool known() const { return line != 0; }
};

// A Lisp error: catchable by errset / catch-error, carries its message, the
// Lisp call stack it unwound through and where in the source it happened.
struct LispError : std::exception {
    std::string message;
    std::vector<std::string> backtrace;   // innermost call first
    size_t frames_dropped = 0;
    std::string where;                    // "file:line:col" of the innermost known call site
    explicit LispError(std::string m) : message(std::move(m)) {}
    const char* what() const noexcept override { return message.c_str(); }
    void add_frame(std::string f);
};

// Ctrl-C. Not a LispError: errset does not catch it, so an interrupt always
// gets back to the REPL (unwind-protect cleanups still run).
struct Interrupted : std::exception {
    const char* what() const noexcept override { return "interrupted"; }
};

// A time or step budget that ran out again after its (catchable) LispError was
// caught: like an interrupt, errset cannot stop it, so a script that catches
// every error still ends (unwind-protect cleanups run).
struct BudgetExceeded : Interrupted {
    const char* msg;
    explicit BudgetExceeded(const char* m) : msg(m) {}
    const char* what() const noexcept override { return msg; }
};

// (exit n): unwinds everything (cleanups run) up to the embedding program.
struct ExitRequest {
    int code;
};

// Non-local exits travelling as C++ exceptions: go/return from expression
// positions, and catch/throw. The value in flight is kept in Interp::in_flight.
struct NonLocalExit {
    enum Kind { Go, Return, Throw } kind;
    const void* target;   // Prog node (go/return) — the frame disambiguates recursion
    const Value* frame;   // frame base of the target activation
    int label;            // go: statement index
};

// ---- the interpreter -----------------------------------------------------------

struct Settings {
    size_t heap_limit = 0;          // bytes; 0: a share of physical memory
    int max_depth = 1000000;        // nested Lisp calls
    size_t value_stack_slots = 1u << 24;
    double time_limit_s = 0;        // 0: none
    uint64_t step_limit = 0;        // calls + loop iterations; 0: none
    // Compile a simple function to machine code after this many calls
    // (jit.h); 0: never. The environment's LIPQ_JIT=0 turns it off and
    // LIPQ_JIT_THRESHOLD=N sets it.
    uint32_t jit_threshold = 10000;
};

class Interp {
public:
    explicit Interp(const Settings& s = Settings());
    ~Interp();
    Interp(const Interp&) = delete;
    Interp& operator=(const Interp&) = delete;

    // ---- entry points (see also lipq.h for the embedding API) ----
    Value eval(Value form);                        // compile and run one form
    Value eval_string(std::string_view src, const std::string& filename = "<string>");
    Value load_file(const std::string& path);
    Value apply(Value fn, Value* args, int nargs); // args must be rooted
    Value apply_list(Value fn, Value arglist);
    Value call(Value fn, std::initializer_list<Value> args);

    // ---- allocation ----
    Heap heap;
    Value cons(Value a, Value d) { return heap.cons(a, d); }
    Value quad(Value a, Value b, Value c, Value d) { return heap.quad(a, b, c, d); }
    Value list(std::initializer_list<Value> xs);
    Value make_string(std::string s) { return obj_value(heap.make<String>(std::move(s))); }
    Value make_vector(size_t n, Value fill);
    Value make_int(int64_t n);
    Value make_int(const BigInt& n);
    Value intern(std::string_view name);
    Symbol* intern_sym(std::string_view name) { return as_symbol(intern(name)); }
    Value gensym(const std::string& prefix = "g");

    // ---- symbols and globals ----
    std::string_view symbol_name(Value sym) const;
    Value global(Value sym) const;          // UNBOUND if none
    void set_global(Value sym, Value v);
    // The same by name. Prefer it to set_global(intern(name), v): interning a
    // new name allocates, and a v not rooted elsewhere could be collected.
    void set_global(std::string_view name, Value v);
    void defun_native(const char* name, NativeFn fn, int min, int max, const char* doc);
    Value get_prop(Value sym, Value key);
    void put_prop(Value sym, Value key, Value v);
    Value& plist_ref(Value sym);

    // Well-known symbols.
    struct Syms {
        Value t, quote, progn, quasiquote, unquote, unquote_splicing, function, lambda,
            optional, rest, body, key, aux, whole, print_shared, print_labels, print_length,
            print_level, print_pretty, print_escape, print_base, lipq, cl, star1, star2, star3,
            gc_stats_keys;
    } sym;

    // ---- errors ----
    [[noreturn]] void error(std::string msg);
    [[noreturn]] void type_error(const char* fn, const char* expected, Value got);
    [[noreturn]] void arity_error(Value fn, int nargs);
    std::string describe(Value v, size_t max_len = 200);   // prin1, cut short
    // Print "error: message", the backtrace and where, on the error output.
    void report_error(const LispError& e, bool with_backtrace);
    std::vector<std::string> backtrace(size_t max_frames = 24);

    // ---- value stack ----
    Value* stack_lo = nullptr;
    Value* sp = nullptr;
    Value* stack_hi = nullptr;
    void push(Value v) { if (sp >= stack_hi) stack_overflow(); *sp++ = v; }
    [[noreturn]] void stack_overflow();

    // ---- roots held by C++ code ----
    std::vector<Value*> roots;        // LIFO, see Root
    std::vector<Value> temp_roots;    // scratch for the heap and the compiler
    // Long-lived references for the embedding API.
    std::vector<Value> persistent;
    std::vector<size_t> persistent_free;

    // ---- execution state ----
    int depth = 0;
    int max_depth;
    const char* cstack_limit = nullptr;   // below this address: "stack depth exceeded"
    void set_cstack_limit_from_current_thread();
    void check_cstack() {
        char here;
        if (&here < cstack_limit) [[unlikely]] stack_overflow();
    }
    // Tail call in flight (see Interp::apply_closure).
    Value tail_fn = NIL;
    Value* tail_args = nullptr;
    int tail_argc = 0;
    // go/return travelling as SIGNAL through statements.
    int sig_kind = 0;            // NonLocalExit::Kind
    const void* sig_target = nullptr;
    int sig_label = 0;
    Value in_flight = NIL;       // value carried by return / throw
    ActiveCall* current_call = nullptr;   // innermost call, for backtraces
    std::vector<Value> catch_tags;        // tags of the active catches (for throw's check)
    Value throw_tag = NIL;                // tag of the throw in flight
    // Dynamic bindings of special variables: (symbol, saved value).
    std::vector<std::pair<Symbol*, Value>> special_stack;
    void unbind_specials_to(size_t mark);

    // ---- interrupts and budgets ----
    // interrupt() is async-signal-safe and thread-safe: a signal handler or
    // another thread may call it. The evaluator polls at calls and loop turns.
    void interrupt() { interrupt_flag.store(true, std::memory_order_relaxed); poll_count = 1; }
    std::atomic<bool> interrupt_flag{false};
    int32_t poll_count = 1024;
    void poll() { if (--poll_count <= 0) [[unlikely]] poll_slow(); }
    void poll_slow();
    void set_time_limit(double seconds);
    void set_step_limit(uint64_t steps);
    std::chrono::steady_clock::time_point deadline{};
    bool has_deadline = false;
    uint64_t steps_left = 0;
    bool has_step_limit = false;
    // After a budget's error, a grace period (a tenth of the budget, at least
    // 1 s or 100,000 steps) for handlers and cleanups; then BudgetExceeded.
    bool time_grace = false, step_grace = false;
    double time_limit_s = 0;
    uint64_t step_limit = 0;

    // ---- the second tier (jit.h) ----
    uint32_t jit_threshold = 0;
    JitStats jit_stats;

    // ---- source positions (for error messages) ----
    std::vector<std::string> files{"<none>"};
    uint32_t file_id(const std::string& name);
    std::unordered_map<uint64_t, SourcePos> positions;   // list cell -> where it was read
    bool track_positions = false;
    std::string format_pos(SourcePos p) const;
    SourcePos current_toplevel_pos;

    // ---- output ----
    std::function<void(std::string_view)> write_out;
    std::function<void(std::string_view)> write_err;
    void out(std::string_view s);
    std::string dribble_path;
    std::FILE* dribble = nullptr;
    int out_column = 0;

    // ---- the rest of the machine ----
    std::unique_ptr<Compiler> compiler;
    Settings settings;
    Value script_args = NIL;
    std::string stdin_pending;            // text read from stdin but not yet parsed by (read)
    std::vector<std::string> load_stack;  // files being loaded (for relative paths and messages)
    uint64_t gensym_counter = 0;
    std::vector<std::pair<Symbol*, std::string>> traced;   // (trace f) bookkeeping
    LispError* last_error_ptr = nullptr;
    std::unique_ptr<LispError> last_error;

    // GC support.
    void trace_roots(Tracer& t);
    // Hooks so other subsystems can report roots (REPL history, drivers ...).
    std::vector<std::function<void(Tracer&)>> extra_roots;

private:
    std::unordered_map<std::string, Symbol*> symtab_;
    Value nil_plist_ = NIL;
    void init_symbols();
    void load_prelude();
    void* stack_mapping_ = nullptr;
    size_t stack_mapping_bytes_ = 0;
};

// What a C++ entry point into the evaluator must put back when an evaluation
// it started ends by an exception (an error, an interrupt, an exit): the value
// stack, the call depth and chain, special bindings and catch tags. Used by
// Interp::eval/apply/call (as a guard), by the embedding API and by the REPL.
struct MachineState {
    Interp& I;
    Value* sp;
    int depth;
    ActiveCall* call;
    size_t specials, catches;
    explicit MachineState(Interp& in)
        : I(in), sp(in.sp), depth(in.depth), call(in.current_call), specials(in.special_stack.size()),
          catches(in.catch_tags.size()) {}
    void restore() {
        I.sp = sp;
        I.depth = depth;
        I.current_call = call;
        I.unbind_specials_to(specials);
        if (I.catch_tags.size() > catches) I.catch_tags.resize(catches);
    }
    // After the outermost evaluation: also drop a pending interrupt and the
    // values an unfinished tail call, return or throw left in flight.
    void restore_outermost() {
        restore();
        I.interrupt_flag.store(false);
        drop_in_flight();
    }
    void drop_in_flight() {
        I.tail_fn = NIL;
        I.in_flight = NIL;
        I.throw_tag = NIL;
    }
};

// ---- RAII rooting ---------------------------------------------------------------
// A Value held by C++ code across allocations.  Use like a Value:
//     Root x(I, I.cons(a, b));  ...  I.cons(x, y) ...
class Root {
public:
    Root(Interp& I, Value v = NIL) : I_(I), v_(v) { I.roots.push_back(&v_); }
    ~Root() { I_.roots.pop_back(); }
    Root(const Root&) = delete;
    Root& operator=(const Root&) = delete;
    Root& operator=(Value v) { v_ = v; return *this; }
    operator Value() const { return v_; }
    Value get() const { return v_; }
    Value* ptr() { return &v_; }
private:
    Interp& I_;
    Value v_;
};

// Keeps the value stack pointer where it was: natives that push scratch
// values use it so every exit path, exceptions included, pops them.
struct StackMark {
    Interp& I;
    Value* saved;
    explicit StackMark(Interp& in) : I(in), saved(in.sp) {}
    ~StackMark() { I.sp = saved; }
};

// Restores special-variable bindings on scope exit.
struct SpecialMark {
    Interp& I;
    size_t mark;
    explicit SpecialMark(Interp& in) : I(in), mark(in.special_stack.size()) {}
    ~SpecialMark() { I.unbind_specials_to(mark); }
};

// Bind a special variable for the extent of a C++ scope.
struct SpecialBinding {
    SpecialMark m;
    SpecialBinding(Interp& I, Value sym, Value v) : m(I) {
        Symbol* s = as_symbol(sym);
        I.special_stack.push_back({s, s->value});
        s->value = v;
    }
};

// ---- small helpers used everywhere ----------------------------------------------
inline Value bool_value(Interp& I, bool b) { return b ? I.sym.t : NIL; }
int64_t list_length(Interp& I, Value list, const char* who);   // errors on improper/cyclic
Value list_from(Interp& I, const Value* xs, size_t n);
Value nreverse_list(Value list);

} // namespace lipq
