// control.cpp — eval/apply, errors, throw, the collector, time, the process.
#include "builtins.h"

#include "../interp/compiler.h"
#include "../interp/nodes.h"
#include "../interp/printer.h"

#include <chrono>
#include <cstdlib>

namespace lipq {

std::string format_string(Interp& I, const std::string& ctl, const Value* args, int nargs, int out_column);

namespace {

Value bi_eval(Interp& I, Value* a, int) { return I.eval(a[0]); }

// (apply f a b ... list)
Value bi_apply(Interp& I, Value* a, int n) {
    Value last = a[n - 1];
    if (!is_list(last)) I.type_error("apply", "a list", last);
    // Spread: f, the middle arguments, then the elements of the last list.
    StackMark m(I);
    Value* base = I.sp + 1;
    I.push(a[0]);
    for (int i = 1; i < n - 1; i++) I.push(a[i]);
    int count = n - 2;
    for (Value x = last; is_pair(x); x = cdr(x), count++) I.push(car(x));
    return invoke(I, base, count, nullptr);
}

// (error fmt args...) or (error 'message ...) (LISP 1.6 style).
Value bi_error(Interp& I, Value* a, int n) {
    std::string msg;
    if (is_string(a[0])) {
        msg = format_string(I, as_string(a[0])->s, a + 1, n - 1, 0);
    } else {
        for (int i = 0; i < n; i++) {
            if (i) msg += ' ';
            msg += i == 0 ? princ_to_string(I, a[i]) : prin1_to_string(I, a[i]);
        }
    }
    I.error(msg);
}

Value bi_throw(Interp& I, Value* a, int n) {
    Value tag = a[0];
    bool found = false;
    for (Value t : I.catch_tags)
        if (t == tag) { found = true; break; }
    if (!found) I.error("throw: no catch for the tag " + I.describe(tag));
    I.throw_tag = tag;
    I.in_flight = n > 1 ? a[1] : NIL;
    throw NonLocalExit{NonLocalExit::Throw, nullptr, nullptr, 0};
}

Value alist_entry(Interp& I, const char* key, uint64_t v) {
    Value k = I.intern(key);
    return I.cons(k, I.make_int(int64_t(v)));
}

Value gc_alist(Interp& I) {
    const GcStats& s = I.heap.stats();
    Root l(I, NIL);
    struct { const char* k; uint64_t v; } items[] = {
        {"collections", s.collections},  {"live-bytes", s.live_bytes},
        {"heap-bytes", s.heap_bytes},     {"live-cells", s.live_cells},
        {"gc-ms", s.total_ns / 1000000},  {"max-pause-us", s.max_pause_ns / 1000},
        {"allocated-bytes", s.allocated_bytes}, {"heap-limit", I.heap.limit()},
    };
    for (size_t i = sizeof(items) / sizeof(items[0]); i-- > 0;) {
        Value e = alist_entry(I, items[i].k, items[i].v);
        l = I.cons(e, l);
    }
    return l;
}

// (gc): collect now; returns statistics as an alist.
Value bi_gc(Interp& I, Value*, int) {
    I.heap.collect();
    return gc_alist(I);
}
Value bi_gc_stats(Interp& I, Value*, int) { return gc_alist(I); }

// (jit-stats): what the second tier (interp/jit.h) has done.
Value bi_jit_stats(Interp& I, Value*, int) {
    const JitStats& s = I.jit_stats;
    Root l(I, NIL);
    if (!s.unavailable.empty()) {   // (unavailable . "why")
        l = I.make_string(s.unavailable);
        l = I.cons(I.intern("unavailable"), l);
        l = I.cons(l, NIL);
    }
    struct { const char* k; uint64_t v; } items[] = {
        {"compiled", s.compiled}, {"unguarded", s.unguarded}, {"inlined", s.inlined}, {"refused", s.refused}, {"failed", s.failed},
        {"compile-ms", uint64_t(s.seconds * 1000)}, {"threshold", I.jit_threshold},
    };
    for (size_t i = sizeof(items) / sizeof(items[0]); i-- > 0;) {
        Value e = alist_entry(I, items[i].k, items[i].v);
        l = I.cons(e, l);
    }
    return l;
}
// (set-jit-threshold n): compile a function after n calls; 0 turns the JIT off.
Value bi_set_jit_threshold(Interp& I, Value* a, int) {
    I.jit_threshold = uint32_t(std::min<int64_t>(arg_index(I, "set-jit-threshold", a[0]), UINT32_MAX));
    return a[0];
}
// (jit-compiled-p f): is the function f (or the function named f) running as machine code?
Value bi_jit_compiled_p(Interp& I, Value* a, int) {
    Value f = a[0];
    if (is_obj(f) && as_obj(f)->type == Type::Symbol) f = as_symbol(f)->value;
    return bool_value(I, is_closure(f) && as_closure(f)->proto->jit_state == 1);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// (%time thunk): call thunk, report elapsed time and GC work on the error stream.
Value bi_time(Interp& I, Value* a, int) {
    GcStats before = I.heap.stats();
    auto t0 = std::chrono::steady_clock::now();
    Value v = call0(I, a[0]);
    double dt = seconds_since(t0);
    const GcStats& after = I.heap.stats();
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "; time: %.3f s elapsed, %llu collections (%.3f s), %.1f MB allocated\n", dt,
                  (unsigned long long)(after.collections - before.collections),
                  double(after.total_ns - before.total_ns) / 1e9,
                  double(after.allocated_bytes - before.allocated_bytes) / 1e6);
    if (I.write_err) I.write_err(buf);
    else std::fputs(buf, stderr);
    return v;
}

Value bi_internal_real_time(Interp& I, Value*, int) {
    auto now = std::chrono::steady_clock::now().time_since_epoch();
    return I.make_int(int64_t(std::chrono::duration_cast<std::chrono::microseconds>(now).count()));
}
// (runtime): milliseconds of CPU time used by the process.
Value bi_runtime(Interp& I, Value*, int) {
    return I.make_int(int64_t(double(std::clock()) * 1000.0 / CLOCKS_PER_SEC));
}

Value bi_macroexpand_1(Interp& I, Value* a, int) {
    bool ex;
    return I.compiler->macroexpand_1(a[0], &ex);
}
Value bi_macroexpand(Interp& I, Value* a, int) { return I.compiler->macroexpand(a[0]); }

Value bi_exit(Interp& I, Value* a, int n) {
    int code = 0;
    if (n > 0 && is_fixnum(a[0])) code = int(fixnum_value(a[0]));
    else if (n > 0 && is_nil(a[0])) code = 1;
    (void)I;
    throw ExitRequest{code};
}

Value bi_identity(Interp&, Value* a, int) { return a[0]; }

// (%form-position form): "file:line:col" where the form was read, or nil.
Value bi_form_position(Interp& I, Value* a, int) {
    auto it = I.positions.find(a[0].raw);
    if (it == I.positions.end()) {
        if (I.current_toplevel_pos.known()) return I.make_string(I.format_pos(I.current_toplevel_pos));
        return NIL;
    }
    return I.make_string(I.format_pos(it->second));
}

Value bi_getenv(Interp& I, Value* a, int) {
    const char* v = std::getenv(arg_string(I, "getenv", a[0]).c_str());
    return v ? I.make_string(v) : NIL;
}

// (error-message): the message of the last error caught by errset, or nil.
Value bi_error_message(Interp& I, Value*, int) {
    if (!I.last_error) return NIL;
    return I.make_string(I.last_error->message);
}

Value bi_functionp_doc(Interp& I, Value* a, int) {
    Value f = a[0];
    if (is_symbol(f) && !is_nil(f)) f = I.global(f);
    if (is_native(f)) return I.make_string(as_native(f)->doc);
    return NIL;
}

// (set-limits :heap bytes :depth n :time seconds :steps n) style setters
Value bi_set_time_limit(Interp& I, Value* a, int) {
    if (is_nil(a[0])) { I.set_time_limit(0); return NIL; }
    I.set_time_limit(double(arg_fixnum(I, "set-time-limit", a[0])) / 1000.0);
    return a[0];
}
Value bi_set_step_limit(Interp& I, Value* a, int) {
    I.set_step_limit(is_nil(a[0]) ? 0 : uint64_t(arg_index(I, "set-step-limit", a[0])));
    return a[0];
}
Value bi_set_heap_limit(Interp& I, Value* a, int) {
    I.heap.set_limit(size_t(arg_index(I, "set-heap-limit", a[0])));
    return a[0];
}
Value bi_set_depth_limit(Interp& I, Value* a, int) {
    I.max_depth = int(arg_index(I, "set-depth-limit", a[0]));
    return a[0];
}

const BuiltinDef control_lib[] = {
    {"eval", bi_eval, 1, 1, "(eval form): evaluate form in the global environment."},
    {"funcall", funcall_builtin, 1, -1, "(funcall f args...): call f on the arguments."},
    {"apply", bi_apply, 2, -1, "(apply f args... list): call f on the arguments and the elements of list."},
    {"error", bi_error, 1, -1, "(error control args...): signal an error with a formatted message."},
    {"throw", bi_throw, 1, 2, "(throw tag [value]): return value from the innermost (catch tag ...)."},
    {"gc", bi_gc, 0, 0, "(gc): collect garbage now; returns statistics as an alist."},
    {"gc-stats", bi_gc_stats, 0, 0, "(gc-stats): the collector's statistics, without collecting."},
    {"jit-stats", bi_jit_stats, 0, 0, "(jit-stats): functions compiled to machine code (unguarded: of those, closed loops and recursions; inlined: calls of closed loops inlined into callers), refused, failed; compile time."},
    {"set-jit-threshold", bi_set_jit_threshold, 1, 1, "(set-jit-threshold n): compile a function after n calls; 0: never."},
    {"jit-compiled-p", bi_jit_compiled_p, 1, 1, "(jit-compiled-p f): t if f (or the function named f) runs as machine code."},
    {"%time", bi_time, 1, 1, "Internal: (time form) calls this with a thunk."},
    {"get-internal-real-time", bi_internal_real_time, 0, 0, "Microseconds on a monotonic clock."},
    {"runtime", bi_runtime, 0, 0, "(runtime): CPU milliseconds used by the process."},
    {"macroexpand-1", bi_macroexpand_1, 1, 1, "(macroexpand-1 form): expand one macro call."},
    {"macroexpand", bi_macroexpand, 1, 1, "(macroexpand form): expand until the head is not a macro."},
    {"exit", bi_exit, 0, 1, "(exit [code]): leave lipq with the exit status code (default 0)."},
    {"quit", bi_exit, 0, 1, "(quit [code]): leave lipq."},
    {"identity", bi_identity, 1, 1, "(identity x): x."},
    {"%form-position", bi_form_position, 1, 1, "Internal: where a form was read, as \"file:line:col\"."},
    {"getenv", bi_getenv, 1, 1, "(getenv name): an environment variable, or nil."},
    {"error-message", bi_error_message, 0, 0, "(error-message): the message of the last error errset caught."},
    {"documentation", bi_functionp_doc, 1, 1, "(documentation f): the doc string of a builtin."},
    {"set-time-limit", bi_set_time_limit, 1, 1, "(set-time-limit ms): error after ms milliseconds; nil: none."},
    {"set-step-limit", bi_set_step_limit, 1, 1, "(set-step-limit n): error after about n calls and loop turns."},
    {"set-heap-limit", bi_set_heap_limit, 1, 1, "(set-heap-limit bytes): the live heap may not exceed this."},
    {"set-depth-limit", bi_set_depth_limit, 1, 1, "(set-depth-limit n): at most n nested calls."},
};

} // namespace

void open_control(Interp& I) { register_builtins(I, control_lib); }

} // namespace lipq
