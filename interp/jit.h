// jit.h — the second tier: hot functions compiled to machine code.
//
// A "simple" function (required parameters only, none boxed, not a DF) that
// the node-tree evaluator has entered Interp::jit_threshold times is handed
// to jit_compile(). It translates the function's node tree into libgccjit's
// IR and lets GCC compile it; the result replaces the proto's body node (so
// every existing call path runs it) and adds a direct entry point that other
// compiled code calls without going through the node tree at all.
//
// libgccjit is loaded with dlopen on first use: lipq starts as fast without
// it, and runs (interpreted only) on a machine that does not have it.
// See jit.cpp for what is compiled and how it keeps the interpreter's rules.
#pragma once
#include <cstdint>
#include <string>

namespace lipq {

class Interp;
struct Proto;

struct JitStats {
    uint64_t compiled = 0;     // functions now running as machine code
    uint64_t unguarded = 0;    // of those, closed loops and recursions, with a copy without guards
    uint64_t inlined = 0;      // calls of closed loops inlined into a caller's prefix
    uint64_t refused = 0;      // not compilable (a construct the JIT leaves to the tree)
    uint64_t failed = 0;       // libgccjit reported an error
    double seconds = 0;        // time spent compiling
    std::string unavailable;   // why there is no JIT (empty: available or not tried)
};

// Compile p if it can be and has not been tried. Never throws; on any
// failure p keeps running in the node tree.
void jit_compile(Interp& I, Proto* p);
// Free p's machine code (the proto is being freed).
void jit_release(Proto* p);
// Is libgccjit loadable? (loads it; sets stats.unavailable when not)
bool jit_available(Interp& I);

} // namespace lipq
