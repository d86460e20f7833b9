// search_common.h — shared by the search builtins (search.cpp, exactcover.cpp,
// generators.cpp, structures.cpp): fast calls into Lisp, keyword arguments,
// search modes, the progress line and the per-interpreter statistics of the
// last search (see (last-search-stats)).
#pragma once
#include "builtins.h"

#include "../interp/nodes.h"

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace lipq {

// Calls into Lisp without the StackMark of call1/call2: invoke() leaves I.sp
// where it found it, and an exception unwinds to a handler that resets it.
inline Value fcall1(Interp& I, Value f, Value x) {
    Value* base = I.sp + 1;
    I.push(f);
    I.push(x);
    return invoke(I, base, 1, nullptr);
}
inline Value fcall2(Interp& I, Value f, Value x, Value y) {
    Value* base = I.sp + 1;
    I.push(f);
    I.push(x);
    I.push(y);
    return invoke(I, base, 2, nullptr);
}

// Keyword arguments a[from..n): (:name value ...). out[i] receives the value
// given for names[i], or NO_VALUE. Unknown keywords and a missing value are
// errors naming fn.
void parse_keywords(Interp& I, const char* fn, Value* a, int from, int n,
                    std::initializer_list<const char*> names, Value* out);

enum class SearchMode { Count, First, All, Each };
// v: NO_VALUE (the default dflt), :count, :first, :all or :each.
SearchMode parse_mode(Interp& I, const char* fn, Value v, SearchMode dflt);
// A non-negative fixnum limit, or -1 when v is NO_VALUE or nil.
int64_t parse_limit(Interp& I, const char* fn, const char* what, Value v);
// A function argument (or NIL when v is NO_VALUE or nil).
Value optional_function(Interp& I, const char* fn, const char* what, Value v);

// What (last-search-stats) reports. Written into the interpreter's own stats
// object (the value of the symbol %last-search-stats: no global state) when
// the driver returns or unwinds (error, Ctrl-C): writing it never allocates.
struct SearchStats {
    int64_t nodes = 0, seen = 0, solutions = 0, depth = 0;
    const char* stopped = nullptr;   // why the search ended early, or null
};

class StatsScope {
public:
    StatsScope(Interp& I, const char* driver);   // allocates the stats object if needed
    ~StatsScope();                                // records st (and the elapsed time)
    SearchStats st;
private:
    Interp& I_;
    const char* driver_;
    std::chrono::steady_clock::time_point t0_;
    void* target_;   // the stats object (kept alive by its symbol)
};

// The progress line on stderr: at most once a second, only when enabled (the
// :progress argument, else *search-progress*: t, nil, or :auto = stderr is a
// terminal). Cleared when the search ends.
class Progress {
public:
    Progress(Interp& I, const char* driver, Value progress_arg);
    ~Progress();
    // Cheap: looks at the clock every 4096 calls.
    void tick(const SearchStats& s) {
        if (!on_) return;
        if (++calls_ & 4095) return;
        report(s);
    }
    bool on() const { return on_; }
private:
    void report(const SearchStats& s);
    Interp& I_;
    const char* driver_;
    bool on_ = false, tty_ = false, printed_ = false;
    uint64_t calls_ = 0;
    std::chrono::steady_clock::time_point t0_, last_;
};

} // namespace lipq
