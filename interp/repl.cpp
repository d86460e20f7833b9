// repl.cpp — scripts, -e, and the read-eval-print loop.
#include "repl.h"

#include "printer.h"
#include "reader.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace lipq {

namespace {

// Run f, reporting an uncaught error. Returns false on error.
template <class F>
bool guarded(Interp& I, F f, bool* exited, int* code) {
    Value* sp = I.sp;
    int depth = I.depth;
    ActiveCall* call = I.current_call;
    size_t specials = I.special_stack.size();
    auto restore = [&] {
        I.sp = sp;
        I.depth = depth;
        I.current_call = call;
        I.unbind_specials_to(specials);
        I.catch_tags.clear();
        I.interrupt_flag.store(false);
    };
    try {
        f();
        return true;
    } catch (LispError& e) {
        restore();
        I.report_error(e, true);
    } catch (Interrupted&) {
        restore();
        std::fputs("interrupted\n", stderr);
    } catch (ExitRequest& r) {
        restore();
        *exited = true;
        *code = r.code;
    } catch (NonLocalExit&) {
        restore();
        std::fputs("error: go, return or throw outside its target\n", stderr);
    }
    return false;
}

Value make_args(Interp& I, const std::vector<std::string>& args) {
    Root l(I, NIL);
    for (size_t i = args.size(); i-- > 0;) {
        Value s = I.make_string(args[i]);
        l = I.cons(s, l);
    }
    return l;
}

int repl(Interp& I) {
    bool tty = isatty(0);
    std::string buf;
    bool exited = false;
    int code = 0;
    for (;;) {
        if (tty) std::fputs(buf.empty() ? "lipq> " : "  ... ", stdout), std::fflush(stdout);
        std::string line;
        if (!std::getline(std::cin, line)) break;
        buf += line;
        buf += '\n';
        // Read every complete form in the buffer.
        bool incomplete = false;
        guarded(I, [&] {
            for (;;) {
                Reader r(I, buf, I.file_id("<repl>"), true);
                Value form;
                try {
                    form = r.read();
                } catch (LispError& e) {
                    if (e.message.find("unexpected end of input") != std::string::npos ||
                        e.message.find("unterminated") != std::string::npos) {
                        incomplete = true;
                        return;
                    }
                    buf.clear();
                    throw;
                }
                if (form == END_OF_FILE) { buf.clear(); return; }
                buf.erase(0, r.offset());
                Root f(I, form);
                Value v = I.eval(f);
                I.positions.clear();
                as_symbol(I.sym.star3)->value = as_symbol(I.sym.star2)->value;
                as_symbol(I.sym.star2)->value = as_symbol(I.sym.star1)->value;
                as_symbol(I.sym.star1)->value = v;
                I.out(prin1_to_string(I, v) + "\n");
            }
        }, &exited, &code);
        if (exited) return code;
        if (!incomplete) buf.clear();
    }
    return 0;
}

} // namespace

int run_main(Interp& I, const std::vector<std::string>& exprs, const std::vector<std::string>& preload,
             const std::string& script, const std::vector<std::string>& args) {
    bool exited = false;
    int code = 0;
    I.set_global(I.intern("*args*"), make_args(I, args));
    for (auto& f : preload) {
        if (!guarded(I, [&] { I.load_file(f); }, &exited, &code)) return exited ? code : 1;
    }
    if (!exprs.empty()) {
        for (auto& e : exprs) {
            bool ok = guarded(I, [&] {
                Value v = I.eval_string(e, "<-e>");
                I.out(prin1_to_string(I, v) + "\n");
            }, &exited, &code);
            if (exited) return code;
            if (!ok) return 1;
        }
        return 0;
    }
    if (!script.empty()) {
        I.load_stack.push_back(script);
        bool ok = guarded(I, [&] { I.load_file(script); }, &exited, &code);
        std::fflush(stdout);
        if (exited) return code;
        return ok ? 0 : 1;
    }
    return repl(I);
}

} // namespace lipq
