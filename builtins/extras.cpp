// extras.cpp — small builtins that the puzzle scripts (scripts/*.lisp) needed.
#include "builtins.h"

#include <cstdio>
#include <ctime>

namespace lipq {

namespace {

// (seconds-string microseconds [digits]): a duration in microseconds (as given by
// differences of get-internal-real-time) as decimal seconds with DIGITS (0..6,
// default 3) digits after the point, rounded half up: 1234567 -> "1.235".
// lipq has no floats, so without this every script did the arithmetic by hand.
Value bi_seconds_string(Interp& I, Value* a, int n) {
    int64_t us = arg_fixnum(I, "seconds-string", a[0]);
    int64_t digits = n > 1 ? arg_fixnum(I, "seconds-string", a[1]) : 3;
    if (digits < 0 || digits > 6) I.error("seconds-string: digits must be between 0 and 6");
    bool neg = us < 0;
    uint64_t u = neg ? uint64_t(0) - uint64_t(us) : uint64_t(us);
    uint64_t unit = 1;
    for (int64_t i = digits; i < 6; i++) unit *= 10;   // microseconds per last digit
    uint64_t q = (u + unit / 2) / unit;                 // value in units of 10^-digits s
    uint64_t scale = 1;
    for (int64_t i = 0; i < digits; i++) scale *= 10;
    char buf[64];
    if (digits == 0)
        std::snprintf(buf, sizeof buf, "%s%llu", neg ? "-" : "", (unsigned long long)q);
    else
        std::snprintf(buf, sizeof buf, "%s%llu.%0*llu", neg ? "-" : "", (unsigned long long)(q / scale),
                      int(digits), (unsigned long long)(q % scale));
    return I.make_string(buf);
}

// (get-internal-run-time): microseconds of CPU time used by the process (all
// threads), from CLOCK_PROCESS_CPUTIME_ID.  On a shared machine this measures
// the work done, where get-internal-real-time also counts the waiting.
Value bi_internal_run_time(Interp& I, Value*, int) {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return I.make_int(int64_t(ts.tv_sec) * 1000000 + int64_t(ts.tv_nsec) / 1000);
}

// (subseq seq start [end]): a fresh copy of the elements of a list, vector or
// string from START below END (default: the end).  Indices out of range, or a
// dotted or circular list, are errors.
Value bi_subseq(Interp& I, Value* a, int n) {
    Value seq = a[0];
    int64_t start = arg_index(I, "subseq", a[1]);
    bool has_end = n > 2 && !is_nil(a[2]);
    int64_t end = has_end ? arg_index(I, "subseq", a[2]) : -1;
    auto range_error = [&](int64_t len) {
        I.error("subseq: bad range " + std::to_string(start) + ".." +
                (has_end ? std::to_string(end) : std::string("end")) + " for a sequence of length " +
                std::to_string(len));
    };
    if (is_string(seq)) {
        const std::string& s = as_string(seq)->s;
        int64_t len = int64_t(s.size());
        if (!has_end) end = len;
        if (start > end || end > len) range_error(len);
        return I.make_string(s.substr(size_t(start), size_t(end - start)));
    }
    if (is_vector(seq)) {
        int64_t len = int64_t(as_vector(seq)->items.size());
        if (!has_end) end = len;
        if (start > end || end > len) range_error(len);
        Value v = I.make_vector(size_t(end - start), NIL);   // may collect: seq is rooted in a[]
        for (int64_t i = start; i < end; i++)
            as_vector(v)->items[size_t(i - start)] = as_vector(a[0])->items[size_t(i)];
        return v;
    }
    if (!is_nil(seq) && !is_pair(seq)) I.type_error("subseq", "a list, vector or string", seq);
    int64_t len = list_length(I, seq, "subseq");   // errors on dotted / circular lists
    if (!has_end) end = len;
    if (start > end || end > len) range_error(len);
    Root head(I, NIL);
    Root tail(I, NIL);
    Value x = a[0];
    for (int64_t i = 0; i < start; i++) x = cdr(x);
    for (int64_t i = start; i < end; i++) {
        Root rest(I, cdr(x));
        Value cell = I.cons(car(x), NIL);
        if (is_nil(head)) head = cell; else set_cdr(tail, cell);
        tail = cell;
        x = rest;
    }
    return head;
}

const BuiltinDef extras_lib[] = {
    {"subseq", bi_subseq, 2, 3,
     "(subseq seq start [end]): a copy of the elements of a list, vector or string from start below end."},
    {"get-internal-run-time", bi_internal_run_time, 0, 0,
     "(get-internal-run-time): CPU microseconds used by the process (all threads)."},
    {"seconds-string", bi_seconds_string, 1, 2,
     "(seconds-string microseconds [digits]): decimal seconds, e.g. (seconds-string 1234567 2) => \"1.23\"."},
};

} // namespace

void open_extras(Interp& I) { register_builtins(I, extras_lib); }

} // namespace lipq
