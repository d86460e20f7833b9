// fuzz_common.h — shared set-up for the libFuzzer targets (tests/fuzz).
//
// One interpreter serves many inputs (building one loads the prelude, which
// costs far more than a typical input); it is replaced every few thousand
// inputs so that interned symbols and other per-interpreter state do not
// grow without bound over a long run.
#pragma once
#include "interp/interp.h"
#include "interp/printer.h"
#include "interp/reader.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

namespace lipq_fuzz {

inline lipq::Settings fuzz_settings() {
    lipq::Settings s;
    s.heap_limit = size_t(64) << 20;   // small: GC of a big heap under ASan is slow, and the limit paths get fuzzed
    s.max_depth = 20000;
    s.value_stack_slots = 1u << 20;
    return s;
}

// The interpreter for this input; `fresh_every` inputs get a new one.
inline lipq::Interp& interp(int fresh_every = 5000, void (*setup)(lipq::Interp&) = nullptr) {
    static std::unique_ptr<lipq::Interp> I;
    static int uses = 0;
    if (!I || ++uses >= fresh_every) {
        I.reset();
        I = std::make_unique<lipq::Interp>(fuzz_settings());
        I->write_out = [](std::string_view) {};
        I->write_err = [](std::string_view) {};
        if (const char* t = std::getenv("LIPQ_FUZZ_TORTURE")) I->heap.set_torture(t[0] == '1');
        if (setup) setup(*I);
        uses = 0;
    }
    return *I;
}

} // namespace lipq_fuzz
