// lipq.h — the embedding API: run lipq inside a C++ program.
//
//     #include "interp/lipq.h"
//
//     lipq::Lisp lisp;                                   // one interpreter
//     lisp.def("square", [](int64_t x) { return x * x; });
//     lipq::Ref r = lisp.eval("(square 12)");            // 144
//     int64_t n = r.as<int64_t>();
//     lisp.eval("(defun greet (who) (concat \"hello, \" who))");
//     std::string s = lisp.call("greet", "world").as<std::string>();
//
// Values come back as lipq::Ref: a handle that keeps its value alive across
// garbage collections (a persistent root) until the Ref is destroyed. Refs
// are copyable; they must not outlive their Lisp.
//
// Lisp errors reach C++ as lipq::Error (what() is the message; where() and
// backtrace() say where). An exception thrown by a C++ function defined with
// def() becomes a Lisp error, catchable by errset, and an Error again when it
// gets back to C++. Ctrl-C style interrupts (Lisp::interrupt(), callable from
// any thread) arrive as lipq::Interrupted; (exit n) as lipq::Exit.
//
// Threads: a Lisp belongs to one thread at a time. Several Lisp objects, each
// used by its own thread, run independently (there is no global state).
#pragma once
#include "interp.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

namespace lipq {

class Lisp;
class Ref;

// A Lisp error that reached C++.
class Error : public std::runtime_error {
public:
    Error(const std::string& message, std::string where = "", std::vector<std::string> backtrace = {})
        : std::runtime_error(message), where_(std::move(where)), backtrace_(std::move(backtrace)) {}
    const std::string& where() const { return where_; }   // "file:line:col" or ""
    const std::vector<std::string>& backtrace() const { return backtrace_; }   // innermost first
private:
    std::string where_;
    std::vector<std::string> backtrace_;
};

// (exit n) was evaluated.
class Exit : public std::exception {
public:
    explicit Exit(int c) : code(c) {}
    int code;
    const char* what() const noexcept override { return "exit"; }
};

// ---- conversions between C++ and Lisp values ----------------------------------------
// to_lisp: integers, bool (t / nil), strings, std::vector<T> (a list), Ref,
// Value, nullptr (nil). from_lisp<T>: int64_t and the other integer types,
// bool (anything but nil is true), std::string (a string, or a symbol's name),
// std::vector<T> (from a list or a vector), Ref, Value. A value of the wrong
// kind raises a Lisp error ("not an integer: ...").

template <class T> struct Convert;   // specialised below

template <class T>
Value to_lisp(Interp& I, const T& x) { return Convert<std::decay_t<T>>::to(I, x); }
inline Value to_lisp(Interp& I, const char* s) { return I.make_string(s); }
template <class T>
T from_lisp(Interp& I, Value v) { return Convert<std::decay_t<T>>::from(I, v); }

// ---- Ref: a value kept alive for C++ ----------------------------------------------

class Ref {
public:
    Ref() = default;
    Ref(Interp& I, Value v);
    Ref(const Ref& o);
    Ref(Ref&& o) noexcept : I_(o.I_), slot_(o.slot_) { o.I_ = nullptr; }
    Ref& operator=(const Ref& o);
    Ref& operator=(Ref&& o) noexcept;
    ~Ref() { release(); }

    Value value() const { return I_ ? I_->persistent[slot_] : NIL; }
    operator Value() const { return value(); }
    Interp* interp() const { return I_; }

    bool is_nil() const { return lipq::is_nil(value()); }
    bool is_integer() const { return lipq::is_integer(value()); }
    bool is_string() const { return lipq::is_string(value()); }
    bool is_symbol() const { return lipq::is_symbol(value()); }
    bool is_list() const { return lipq::is_list(value()); }
    bool is_function() const { return lipq::is_function(value()); }
    explicit operator bool() const { return !is_nil(); }

    // Converted to a C++ type; throws lipq::Error when it does not fit.
    template <class T> T as() const;
    // As prin1 writes it ("(1 2 \"x\")"); princ style with readably = false.
    std::string str(bool readably = true) const;
    // The elements of a list (or vector), each as a Ref.
    std::vector<Ref> elements() const;

    // Call the value as a function.
    template <class... A> Ref operator()(A&&... args) const;

private:
    void release();
    Interp* I_ = nullptr;
    size_t slot_ = 0;
};

// ---- arguments of a variadic native -----------------------------------------------

class Args {
public:
    Args(Interp& I, Value* v, int n) : I_(I), v_(v), n_(n) {}
    int size() const { return n_; }
    Value operator[](int i) const { return v_[i]; }
    template <class T> T get(int i) const { return from_lisp<T>(I_, v_[i]); }
    Ref ref(int i) const { return Ref(I_, v_[i]); }
    Interp& interp() const { return I_; }
private:
    Interp& I_;
    Value* v_;
    int n_;
};

namespace detail {
template <class F> struct Sig : Sig<decltype(&F::operator())> {};
template <class C, class R, class... A> struct Sig<R (C::*)(A...) const> { using Ret = R; using Params = std::tuple<A...>; };
template <class C, class R, class... A> struct Sig<R (C::*)(A...)> { using Ret = R; using Params = std::tuple<A...>; };
template <class R, class... A> struct Sig<R (*)(A...)> { using Ret = R; using Params = std::tuple<A...>; };
template <class R, class... A> struct Sig<R(A...)> { using Ret = R; using Params = std::tuple<A...>; };

template <class R, class F, class... X>
Value result(Interp& I, F& f, X&&... xs) {
    if constexpr (std::is_void_v<R>) {
        f(std::forward<X>(xs)...);
        return NIL;
    } else {
        return to_lisp(I, f(std::forward<X>(xs)...));
    }
}

// Converts the arguments (a failure names the function), then calls f.
template <class F, class... P, size_t... K>
Value call_typed(Interp& I, F& f, const std::string& name, Value* a, std::tuple<P...>*, std::index_sequence<K...>) {
    using R = typename Sig<F>::Ret;
    std::tuple<std::decay_t<P>...> args;
    try {
        ((std::get<K>(args) = from_lisp<std::decay_t<P>>(I, a[K])), ...);
    } catch (LispError& e) {
        I.error(name + ": " + e.message);
    }
    return result<R>(I, f, std::move(std::get<K>(args))...);
}

using RawFn = std::function<Value(Interp&, Value*, int)>;
// Runs f as an entry into Lisp from C++: on a Lisp error, restores the
// interpreter's stacks and throws lipq::Error (Interrupted, Exit likewise).
Value guarded(Interp& I, const std::function<Value()>& f);
// Calls the function at base[-1] on the pushed arguments (see nodes.h: invoke).
Value invoke(Interp& I, Value* base, int nargs);
} // namespace detail

// ---- the interpreter -----------------------------------------------------------------

class Lisp {
public:
    explicit Lisp(const Settings& s = Settings());
    ~Lisp();
    Lisp(const Lisp&) = delete;
    Lisp& operator=(const Lisp&) = delete;

    Interp& interp() { return *I_; }

    // Evaluate every form in src; the value of the last one.
    Ref eval(std::string_view src, const std::string& name = "<eval>");
    // Load a file of Lisp code (a first line starting with #! is skipped).
    Ref load(const std::string& path);

    // Call a global function by name, or any function value.
    template <class... A> Ref call(std::string_view fn, A&&... args) {
        return call(global(fn), std::forward<A>(args)...);
    }
    template <class... A> Ref call(const Ref& fn, A&&... args) {
        return guard([&]() -> Value {
            StackMark m(*I_);
            Value* base = I_->sp + 1;
            I_->push(fn.value());
            (I_->push(to_lisp(*I_, args)), ...);
            return detail::invoke(*I_, base, int(sizeof...(A)));
        });
    }

    // Define a global function implemented in C++. Three forms:
    //   def("add", [](int64_t a, int64_t b) { return a + b; });   // typed: arity and conversions automatic
    //   def("sum", [](lipq::Args a) { ... }, 0, -1);              // any arguments (min, max; -1 = any)
    //   def("raw", [](lipq::Interp& I, lipq::Value* a, int n) -> lipq::Value { ... }, 1, 1);
    template <class F> void def(std::string_view name, F f, int min_args = -2, int max_args = -2);

    // Global variables.
    template <class T> void set(std::string_view name, const T& v) {
        guard([&]() -> Value {
            Root x(*I_, to_lisp(*I_, v));
            I_->set_global(I_->intern(name), x);
            return NIL;
        });
    }
    Ref global(std::string_view name);   // throws Error when unbound

    // Make Lisp values.
    template <class T> Ref value(const T& v) { return guard([&]() -> Value { return to_lisp(*I_, v); }); }
    Ref value(const char* s) { return guard([&]() -> Value { return I_->make_string(s); }); }
    Ref symbol(std::string_view name) { return guard([&]() -> Value { return I_->intern(name); }); }
    template <class T> Ref vector(const std::vector<T>& xs);   // a Lisp vector #(...)
    Ref nil() { return Ref(*I_, NIL); }

    // Where the output of print, format t ... goes (default: stdout), and the
    // error output of (time ...) etc. (default: stderr).
    void on_output(std::function<void(std::string_view)> sink) { I_->write_out = std::move(sink); }
    void on_error_output(std::function<void(std::string_view)> sink) { I_->write_err = std::move(sink); }

    // Stop the running evaluation (it throws lipq::Interrupted). Thread-safe
    // and async-signal-safe.
    void interrupt() { I_->interrupt(); }

    // Runs f (which returns a Value) as an entry into Lisp: restores the
    // interpreter after an error and turns Lisp errors into lipq::Error.
    template <class F> Ref guard(F&& f) { return Ref(*I_, detail::guarded(*I_, std::function<Value()>(std::forward<F>(f)))); }

private:
    void define(std::string_view name, detail::RawFn f, int min_args, int max_args);
    std::unique_ptr<Interp> I_;
};

// ---- templates ------------------------------------------------------------------------

template <class F> void Lisp::def(std::string_view name, F f, int min_args, int max_args) {
    if constexpr (std::is_invocable_v<F&, Interp&, Value*, int>) {
        define(name, detail::RawFn(std::move(f)), min_args == -2 ? 0 : min_args, max_args == -2 ? -1 : max_args);
    } else if constexpr (std::is_invocable_v<F&, Args>) {
        using R = std::invoke_result_t<F&, Args>;
        define(name, [f = std::move(f)](Interp& I, Value* a, int n) mutable {
            return detail::result<R>(I, f, Args(I, a, n));
        }, min_args == -2 ? 0 : min_args, max_args == -2 ? -1 : max_args);
    } else {
        using P = typename detail::Sig<F>::Params;
        constexpr int N = int(std::tuple_size_v<P>);
        define(name, [f = std::move(f), n = std::string(name)](Interp& I, Value* a, int) mutable {
            return detail::call_typed(I, f, n, a, static_cast<P*>(nullptr), std::make_index_sequence<N>());
        }, N, N);
    }
}

template <class T> Ref Lisp::vector(const std::vector<T>& xs) {
    return guard([&]() -> Value {
        Root v(*I_, I_->make_vector(xs.size(), NIL));
        for (size_t i = 0; i < xs.size(); i++) {
            Value x = to_lisp(*I_, xs[i]);
            as_vector(v)->items[i] = x;
        }
        return v.get();
    });
}

template <class T> T Ref::as() const {
    if (!I_) throw Error("lipq::Ref: empty reference");
    try {
        return from_lisp<T>(*I_, value());
    } catch (LispError& e) {
        throw Error(e.message);
    }
}

template <class... A> Ref Ref::operator()(A&&... args) const {
    if (!I_) throw Error("lipq::Ref: empty reference");
    Interp& I = *I_;
    Value fn = value();
    return Ref(I, detail::guarded(I, [&]() -> Value {
        StackMark m(I);
        Value* base = I.sp + 1;
        I.push(fn);
        (I.push(to_lisp(I, args)), ...);
        return detail::invoke(I, base, int(sizeof...(A)));
    }));
}

// ---- conversions --------------------------------------------------------------------------

int64_t lisp_to_int64(Interp& I, Value v);   // errors unless an integer in range
std::string lisp_to_string(Interp& I, Value v);

template <class T> struct Convert {
    static_assert(std::is_integral_v<T>, "lipq: no conversion for this type");
    static Value to(Interp& I, T x) {
        if constexpr (std::is_same_v<T, bool>) return x ? I.sym.t : NIL;
        else if constexpr (std::is_unsigned_v<T> && sizeof(T) >= 8) {
            if (x > uint64_t(INT64_MAX)) return I.make_int(BigInt(x));
            return I.make_int(int64_t(x));
        } else return I.make_int(int64_t(x));
    }
    static T from(Interp& I, Value v) {
        if constexpr (std::is_same_v<T, bool>) return !lipq::is_nil(v);
        else {
            int64_t n = lisp_to_int64(I, v);
            if (n < int64_t(std::numeric_limits<T>::min()) ||
                (n > 0 && uint64_t(n) > uint64_t(std::numeric_limits<T>::max())))
                I.error("integer out of range for the C++ type: " + I.describe(v));
            return T(n);
        }
    }
};
template <> struct Convert<std::string> {
    static Value to(Interp& I, const std::string& s) { return I.make_string(s); }
    static std::string from(Interp& I, Value v) { return lisp_to_string(I, v); }
};
template <> struct Convert<std::string_view> {
    static Value to(Interp& I, std::string_view s) { return I.make_string(std::string(s)); }
};
template <> struct Convert<const char*> {
    static Value to(Interp& I, const char* s) { return I.make_string(s); }
};
template <> struct Convert<char*> {
    static Value to(Interp& I, const char* s) { return I.make_string(s); }
};
template <size_t N> struct Convert<char[N]> {
    static Value to(Interp& I, const char* s) { return I.make_string(s); }
};
template <> struct Convert<Value> {
    static Value to(Interp&, Value v) { return v; }
    static Value from(Interp&, Value v) { return v; }
};
template <> struct Convert<Ref> {
    static Value to(Interp&, const Ref& r) { return r.value(); }
    static Ref from(Interp& I, Value v) { return Ref(I, v); }
};
template <> struct Convert<std::nullptr_t> {
    static Value to(Interp&, std::nullptr_t) { return NIL; }
};
template <class T> struct Convert<std::vector<T>> {
    static Value to(Interp& I, const std::vector<T>& xs) {
        Root l(I, NIL);
        for (size_t i = xs.size(); i-- > 0;) {
            Value x = to_lisp(I, xs[i]);   // cons keeps both arguments alive
            l = I.cons(x, l);
        }
        return l;
    }
    static std::vector<T> from(Interp& I, Value v) {
        std::vector<T> out;
        if (is_vector(v)) {
            Root keep(I, v);
            for (size_t i = 0; i < as_vector(v)->items.size(); i++) out.push_back(from_lisp<T>(I, as_vector(v)->items[i]));
            return out;
        }
        if (!is_list(v)) I.error("not a list or vector: " + I.describe(v));
        Root keep(I, v);
        int64_t n = list_length(I, v, "lipq::from_lisp");
        Value p = v;
        for (int64_t i = 0; i < n; i++, p = cdr(p)) out.push_back(from_lisp<T>(I, car(p)));
        return out;
    }
};

} // namespace lipq
