// embed.cpp — the embedding API (lipq.h): Lisp, Ref, conversions.
#include "lipq.h"

#include "../builtins/debug.h"
#include "nodes.h"
#include "number.h"
#include "printer.h"

#include <pthread.h>

namespace lipq {

// ---- Ref -------------------------------------------------------------------------------

Ref::Ref(Interp& I, Value v) : I_(&I) {
    if (!I.persistent_free.empty()) {
        slot_ = I.persistent_free.back();
        I.persistent_free.pop_back();
        I.persistent[slot_] = v;
    } else {
        slot_ = I.persistent.size();
        I.persistent.push_back(v);
    }
}

Ref::Ref(const Ref& o) : Ref() {
    if (o.I_) *this = Ref(*o.I_, o.value());
}

Ref& Ref::operator=(const Ref& o) {
    if (this == &o) return *this;
    Ref copy(o);
    return *this = std::move(copy);
}

Ref& Ref::operator=(Ref&& o) noexcept {
    if (this == &o) return *this;
    release();
    I_ = o.I_;
    slot_ = o.slot_;
    o.I_ = nullptr;
    return *this;
}

void Ref::release() {
    if (!I_) return;
    I_->persistent[slot_] = NIL;
    I_->persistent_free.push_back(slot_);
    I_ = nullptr;
}

std::string Ref::str(bool readably) const {
    if (!I_) return "nil";
    Interp& I = *I_;
    Value v = value();
    std::string s;
    detail::guarded(I, [&]() -> Value {
        s = readably ? prin1_to_string(I, v) : princ_to_string(I, v);
        return NIL;
    });
    return s;
}

std::vector<Ref> Ref::elements() const {
    std::vector<Ref> out;
    if (!I_) return out;
    Interp& I = *I_;
    Value v = value();
    detail::guarded(I, [&]() -> Value {
        if (lipq::is_vector(v)) {
            for (Value x : as_vector(v)->items) out.emplace_back(I, x);
        } else {
            if (!lipq::is_list(v)) I.error("not a list or vector: " + I.describe(v));
            int64_t n = list_length(I, v, "lipq::Ref::elements");
            Value p = v;
            for (int64_t i = 0; i < n; i++, p = cdr(p)) out.emplace_back(I, car(p));
        }
        return NIL;
    });
    return out;
}

// ---- conversions ------------------------------------------------------------------------

int64_t lisp_to_int64(Interp& I, Value v) {
    if (is_fixnum(v)) return fixnum_value(v);
    if (is_bignum(v)) {
        const BigInt& n = as_bignum(v)->n;
        if (n >= BigInt(INT64_MIN) && n <= BigInt(INT64_MAX)) return int64_t(n);
        I.error("integer too large for int64_t: " + I.describe(v, 60));
    }
    I.error("not an integer: " + I.describe(v));
}

std::string lisp_to_string(Interp& I, Value v) {
    if (is_string(v)) return as_string(v)->s;
    if (is_symbol(v)) return std::string(I.symbol_name(v));
    I.error("not a string: " + I.describe(v));
}

// ---- entering Lisp from C++ ----------------------------------------------------------------

namespace detail {

namespace {
// The bounds of the calling thread's stack, found once per thread.
struct ThreadStack {
    const char* lo = nullptr;
    const char* hi = nullptr;
    ThreadStack() {
        pthread_attr_t attr;
        void* addr = nullptr;
        size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            pthread_attr_getstack(&attr, &addr, &size);
            pthread_attr_destroy(&attr);
        }
        lo = static_cast<const char*>(addr);
        hi = lo + size;
    }
};
thread_local ThreadStack this_thread_stack;
} // namespace

Value guarded(Interp& I, const std::function<Value()>& f) {
    bool outermost = I.current_call == nullptr && I.depth == 0;
    if (outermost) {
        // The interpreter may have been created on another thread: its C++
        // stack check must use this thread's stack.
        const ThreadStack& ts = this_thread_stack;
        if (ts.lo && (I.cstack_limit < ts.lo || I.cstack_limit >= ts.hi)) I.set_cstack_limit_from_current_thread();
    }
    MachineState saved(I);
    auto restore = [&] {
        if (outermost) saved.restore_outermost();
        else saved.restore();
    };
    try {
        return f();
    } catch (LispError& e) {
        restore();
        try {
            record_last_error(I, e);
        } catch (...) {
        }
        throw Error(e.message, e.where, e.backtrace);
    } catch (Interrupted&) {
        restore();
        throw;
    } catch (ExitRequest& r) {
        restore();
        throw Exit(r.code);
    } catch (NonLocalExit&) {
        restore();
        throw Error("go, return or throw outside its target");
    } catch (...) {
        restore();
        throw;
    }
}

Value invoke(Interp& I, Value* base, int nargs) { return lipq::invoke(I, base, nargs, nullptr); }

} // namespace detail

// ---- Lisp ------------------------------------------------------------------------------------

Lisp::Lisp(const Settings& s) : I_(std::make_unique<Interp>(s)) {}

Lisp::~Lisp() = default;

Ref Lisp::eval(std::string_view src, const std::string& name) {
    return guard([&]() -> Value { return I_->eval_string(src, name); });
}

Ref Lisp::load(const std::string& path) {
    return guard([&]() -> Value { return I_->load_file(path); });
}

Ref Lisp::global(std::string_view name) {
    return guard([&]() -> Value {
        Value v = I_->global(I_->intern(name));
        if (v == UNBOUND) I_->error("unbound variable: " + std::string(name));
        return v;
    });
}

void Lisp::define(std::string_view name, detail::RawFn f, int min_args, int max_args) {
    std::string fname(name);
    guard([&]() -> Value {
        Native* n = I_->heap.make<Native>();
        Root nr(*I_, obj_value(n));
        n->owned_name = fname;
        n->name = n->owned_name.c_str();
        n->min_args = int16_t(min_args);
        n->max_args = int16_t(max_args);
        n->doc = "A function defined by the host program.";
        // C++ exceptions thrown by the host's function become Lisp errors
        // (errset catches them); a lipq::Error from a nested call keeps its message.
        n->lambda = [fname, f = std::move(f)](Interp& I, Value* a, int nargs) -> Value {
            try {
                return f(I, a, nargs);
            } catch (LispError&) {
                throw;
            } catch (Interrupted&) {
                throw;
            } catch (Exit& e) {
                throw ExitRequest{e.code};
            } catch (Error& e) {
                I.error(e.what());
            } catch (std::exception& e) {
                I.error(fname + ": " + e.what());
            }
        };
        I_->set_global(I_->intern(fname), nr);
        return NIL;
    });
}

} // namespace lipq
