// fuzz_eval.cpp — libFuzzer target: evaluate arbitrary forms under a step
// budget, a time budget, a heap limit and a depth limit.
//
// Whatever the forms do, evaluation must end in a value or a clean Lisp
// error: no crash, no sanitizer report, no escaping C++ exception, no hang
// (libFuzzer's -timeout catches a budget that is not enforced). Functions
// that touch the outside world (files, stdin, exit) or lift the budgets are
// removed before the run. GC torture for this target: LIPQ_FUZZ_TORTURE=1.
#include "fuzz_common.h"

#include <cstdio>

using namespace lipq;

namespace {

void setup(Interp& I) {
    static const char* const banned[] = {
        "exit", "quit", "read", "read-line", "load", "read-file", "write-file",
        "file-exists-p", "dribble", "save", "restore", "set-time-limit", "set-step-limit",
        "set-heap-limit", "set-depth-limit", "getenv", "sleep", "system", "run-program",
        "shell", "delete-file", "rename-file", "open", "with-open-file", "directory",
    };
    for (const char* name : banned) {
        Value s = I.intern(name);
        I.set_global(s, UNBOUND);
        as_symbol(s)->flags |= SYM_CONSTANT;   // (defun exit ...) or (setq load ...) cannot bring it back
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 8192) return 0;
    Interp& I = lipq_fuzz::interp(2000, setup);
    std::string_view src(reinterpret_cast<const char*>(data), size);
    I.set_step_limit(200000);
    I.set_time_limit(2.0);
    I.heap.set_limit(size_t(64) << 20);
    I.max_depth = 20000;
    // Each top-level form on its own: an error in one does not skip the rest
    // (the seeds start with (require 'test) and go on for pages).
    try {
        Reader r(I, src, I.file_id("<fuzz>"), true);
        for (int n = 0; n < 1000; n++) {
            Value form = r.read();
            if (form == END_OF_FILE) break;
            Root f(I, form);
            try {
                I.eval(f);
            } catch (LispError&) {
            } catch (NonLocalExit&) {
                // go/return/throw with no target at top level: the REPL reports it.
            }
            I.positions.clear();
        }
    } catch (LispError&) {
        // a reader error ends the input
    } catch (BudgetExceeded&) {
        // a budget error was caught by the forms and they went on: stopped for good
    }
    I.set_step_limit(0);
    I.set_time_limit(0);
    I.positions.clear();
    I.tail_fn = NIL;
    I.in_flight = NIL;
    I.throw_tag = NIL;
    return 0;
}
