// debug.cpp — tracing, dribble files, and the last uncaught error.
//
// (trace f g ...) replaces the global value of each symbol with a native
// wrapper that prints the call (indented by the depth of traced calls in
// progress), calls the original function and prints what it returned.
// (untrace f ...) puts the original back; (untrace) untraces everything.
// The original function is kept on the symbol's property list, so the
// collector sees it.
//
// (dribble "file") copies everything the session prints (results, errors,
// and at the REPL what was typed) to the file until (dribble).
//
// The REPL keeps the last uncaught error in *last-error*: (last-error) gives
// (message where frames), (last-error-frames) the frames, and (backtrace)
// prints them numbered.
#include "debug.h"

#include "builtins.h"

#include "../interp/printer.h"

#include <cstdio>
#include <ctime>

namespace lipq {

// ---- error reports -------------------------------------------------------------------

std::string format_error_report(const LispError& e, size_t max_frames) {
    std::string msg = "error: " + e.message;
    if (!e.where.empty()) msg += "\n  at " + e.where;
    msg += "\n";
    if (max_frames > 0 && !e.backtrace.empty()) {
        msg += "backtrace (innermost first):\n";
        size_t shown = 0;
        for (auto& f : e.backtrace) {
            if (shown == max_frames) break;
            msg += "  " + f + "\n";
            shown++;
        }
        size_t more = e.backtrace.size() - shown + e.frames_dropped;
        if (more > 0) msg += "  ... " + std::to_string(more) + " more (see (backtrace))\n";
    }
    return msg;
}

void record_last_error(Interp& I, const LispError& e) {
    Root frames(I, NIL);
    for (size_t i = e.backtrace.size(); i-- > 0;) {
        Value s = I.make_string(e.backtrace[i]);
        frames = I.cons(s, frames);
    }
    if (e.frames_dropped) {
        Root tail(I, I.make_string("... " + std::to_string(e.frames_dropped) + " more frames"));
        Value l = I.cons(tail, NIL);
        if (is_nil(frames)) frames = l;
        else {
            Value p = frames;
            while (is_pair(cdr(p))) p = cdr(p);
            set_cdr(p, l);
        }
    }
    Root where(I, e.where.empty() ? NIL : I.make_string(e.where));
    Root msg(I, I.make_string(e.message));
    Value rec = I.list({msg, where, frames});
    I.set_global("*last-error*", rec);
}

namespace {

Value last_error_record(Interp& I) {
    Value v = I.global(I.intern("*last-error*"));
    return v == UNBOUND ? NIL : v;
}

Value bi_last_error(Interp& I, Value*, int) { return last_error_record(I); }

Value bi_last_error_frames(Interp& I, Value*, int) {
    Value r = last_error_record(I);
    if (!is_pair(r) || !is_pair(cdr(r)) || !is_pair(cdr(cdr(r)))) return NIL;
    return car(cdr(cdr(r)));
}

// (backtrace): print the frames of the last uncaught error, numbered.
Value bi_backtrace(Interp& I, Value*, int) {
    Value r = last_error_record(I);
    if (!is_pair(r)) {
        I.out("no error recorded\n");
        return NIL;
    }
    std::string s = "error: " + princ_to_string(I, car(r)) + "\n";
    if (is_pair(cdr(r)) && is_string(car(cdr(r)))) s += "  at " + as_string(car(cdr(r)))->s + "\n";
    int i = 0;
    for (Value p = bi_last_error_frames(I, nullptr, 0); is_pair(p); p = cdr(p), i++)
        s += "  " + std::to_string(i) + ": " + princ_to_string(I, car(p)) + "\n";
    I.out(s);
    return NIL;
}

// (current-backtrace): the Lisp calls in progress, innermost first, as strings.
Value bi_current_backtrace(Interp& I, Value*, int) {
    std::vector<std::string> frames = I.backtrace(1000);
    Root l(I, NIL);
    // Skip this call itself.
    for (size_t i = frames.size(); i-- > 1;) {
        Value s = I.make_string(frames[i]);
        l = I.cons(s, l);
    }
    return l;
}

// ---- trace ------------------------------------------------------------------------------

Value key_original(Interp& I) { return I.intern("%traced-function"); }
Value key_wrapper(Interp& I) { return I.intern("%trace-wrapper"); }
Value depth_symbol(Interp& I) { return I.intern("%trace-depth"); }

int64_t trace_depth(Interp& I) {
    Value v = I.global(depth_symbol(I));
    return is_fixnum(v) ? fixnum_value(v) : 0;
}

std::string trace_indent(int64_t d) {
    return std::string(size_t(2 * (d < 40 ? d : 40)), ' ') + std::to_string(d) + ": ";
}

struct DepthRestore {
    Interp& I;
    int64_t d;
    ~DepthRestore() { I.set_global(depth_symbol(I), make_fixnum(d)); }
};

Value traced_call(Interp& I, Symbol* s, Value* a, int n) {
    Value orig = I.get_prop(obj_value(s), key_original(I));
    if (!is_function(orig)) I.error("trace: the original function of " + s->name + " is gone");
    int64_t d = trace_depth(I);
    std::string line = trace_indent(d) + "(" + symbol_print_name(s->name);
    for (int i = 0; i < n; i++) line += " " + I.describe(a[i], 200);
    line += ")\n";
    I.out(line);
    DepthRestore restore{I, d};
    I.set_global(depth_symbol(I), make_fixnum(d + 1));
    Root v(I, I.apply(orig, a, n));
    I.out(trace_indent(d) + symbol_print_name(s->name) + " returned " + I.describe(v, 200) + "\n");
    return v;
}

bool is_traced(Interp& I, Value sym) {
    Value w = I.get_prop(sym, key_wrapper(I));
    return !is_nil(w) && as_symbol(sym)->value == w;
}

void trace_one(Interp& I, Value sym) {
    if (!is_symbol(sym) || is_nil(sym)) I.type_error("trace", "a symbol", sym);
    if (is_traced(I, sym)) return;
    Symbol* s = as_symbol(sym);
    Value f = s->value;
    if (!is_function(f)) I.error("trace: " + s->name + " is not a function");
    Native* w = I.heap.make<Native>();
    Root wr(I, obj_value(w));
    w->owned_name = s->name;
    w->name = w->owned_name.c_str();
    w->doc = "A traced function: (untrace f) restores it.";
    w->lambda = [s](Interp& In, Value* a, int n) { return traced_call(In, s, a, n); };
    I.put_prop(sym, key_original(I), f);
    I.put_prop(sym, key_wrapper(I), wr);
    s->value = wr;
    for (auto& [t, name] : I.traced)
        if (t == s) return;
    I.traced.push_back({s, s->name});
}

void untrace_one(Interp& I, Value sym) {
    if (!is_symbol(sym) || is_nil(sym)) I.type_error("untrace", "a symbol", sym);
    Symbol* s = as_symbol(sym);
    if (is_traced(I, sym)) s->value = I.get_prop(sym, key_original(I));
    I.put_prop(sym, key_wrapper(I), NIL);
    I.put_prop(sym, key_original(I), NIL);
    for (size_t i = 0; i < I.traced.size(); i++)
        if (I.traced[i].first == s) {
            I.traced.erase(I.traced.begin() + long(i));
            break;
        }
}

Value traced_list(Interp& I) {
    Root l(I, NIL);
    for (size_t i = I.traced.size(); i-- > 0;) {
        Value s = obj_value(I.traced[i].first);
        if (is_traced(I, s)) l = I.cons(s, l);
    }
    return l;
}

// (%trace '(f g ...)): trace each; with () list what is traced.
Value bi_trace(Interp& I, Value* a, int) {
    for (Value p = a[0]; is_pair(p); p = cdr(p)) trace_one(I, car(p));
    return traced_list(I);
}

Value bi_untrace(Interp& I, Value* a, int) {
    if (is_nil(a[0])) {
        while (!I.traced.empty()) untrace_one(I, obj_value(I.traced.back().first));
        return NIL;
    }
    for (Value p = a[0]; is_pair(p); p = cdr(p)) untrace_one(I, car(p));
    return traced_list(I);
}

// The macros (trace f ...) and (untrace f ...) quote their arguments for %trace / %untrace.
Value expand_quoting(Interp& I, const char* target, Value* a, int n) {
    Root args(I, list_from(I, a, size_t(n)));
    Root q(I, I.list({I.sym.quote, args}));
    return I.list({I.intern(target), q});
}
Value bi_expand_trace(Interp& I, Value* a, int n) { return expand_quoting(I, "%trace", a, n); }
Value bi_expand_untrace(Interp& I, Value* a, int n) { return expand_quoting(I, "%untrace", a, n); }

// ---- dribble -------------------------------------------------------------------------

Value bi_dribble(Interp& I, Value* a, int n) {
    if (I.dribble) {
        std::fputs("; dribble ends\n", I.dribble);
        std::fclose(I.dribble);
        I.dribble = nullptr;
    }
    if (n == 0 || is_nil(a[0])) {
        std::string was = I.dribble_path;
        I.dribble_path.clear();
        return was.empty() ? NIL : I.make_string(was);
    }
    const std::string& path = arg_string(I, "dribble", a[0]);
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) I.error("dribble: cannot open file: " + path);
    std::time_t now = std::time(nullptr);
    char date[64];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
    std::fprintf(f, "; lipq session recorded %s\n", date);
    std::fflush(f);
    I.dribble = f;
    I.dribble_path = path;
    return a[0];
}

const BuiltinDef debug_lib[] = {
    {"%trace", bi_trace, 1, 1, "Internal: (trace f ...) expands into this."},
    {"%untrace", bi_untrace, 1, 1, "Internal: (untrace f ...) expands into this."},
    {"dribble", bi_dribble, 0, 1, "(dribble \"file\"): record the session's output (and REPL input) in file; (dribble) stops."},
    {"last-error", bi_last_error, 0, 0, "(last-error): the last uncaught error as (message where frames), or nil."},
    {"last-error-frames", bi_last_error_frames, 0, 0, "(last-error-frames): the call frames of the last uncaught error, innermost first."},
    {"backtrace", bi_backtrace, 0, 0, "(backtrace): print the last uncaught error and all its frames, numbered."},
    {"current-backtrace", bi_current_backtrace, 0, 0, "(current-backtrace): the calls in progress, innermost first, as strings."},
};

void define_macro(Interp& I, const char* name, NativeFn expander, const char* doc) {
    Native* n = I.heap.make<Native>();
    Root nr(I, obj_value(n));
    n->name = name;
    n->fn = expander;
    n->doc = doc;
    Macro* m = I.heap.make<Macro>(nr.get(), false);
    I.set_global(name, obj_value(m));
}

} // namespace

void open_debug(Interp& I) {
    register_builtins(I, debug_lib);
    define_macro(I, "trace", bi_expand_trace,
                 "(trace f ...): print each call of the functions f ... and what it returns; (trace) lists them.");
    define_macro(I, "untrace", bi_expand_untrace, "(untrace f ...): stop tracing f ...; (untrace) stops all.");
    I.set_global("*last-error*", NIL);
    I.set_global("%trace-depth", make_fixnum(0));
    // `*` read as a variable gives %* (see compile.cpp); until the REPL
    // stores a result there it is the multiplication function.
    I.set_global("%*", I.global(I.sym.star1));
}

} // namespace lipq
