// micro.cpp — micro-benchmarks of the interpreter's internals (issue 10):
// call overhead, tail calls, primitive nodes, allocation, and GC pauses.
// Built only when Google Benchmark is installed (Debian: libbenchmark-dev):
//   cmake --build build --target lipq_micro && build/bench/micro/lipq_micro
// The figures are printed, never asserted (see bench/README.md).
#include <benchmark/benchmark.h>

#include "interp/interp.h"

#include <algorithm>
#include <chrono>
#include <vector>

using namespace lipq;

namespace {

// One interpreter per benchmark, with the functions it times defined.
struct World {
    Interp I;
    explicit World(const char* defs) {
        I.set_cstack_limit_from_current_thread();
        I.eval_string(defs, "<micro>");
    }
    Value run(const char* src) { return I.eval_string(src, "<micro>"); }
};

// Non-tail calls of a global closure: (fib 20) makes 21,891 calls.
void BM_CallFib(benchmark::State& st) {
    World w("(defun fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))");
    for (auto _ : st) benchmark::DoNotOptimize(w.run("(fib 20)"));
    st.SetItemsProcessed(st.iterations() * 21891);   // items = calls
}
BENCHMARK(BM_CallFib);

// Three-argument calls, with tail calls between them: (tak 18 12 6), 63,609 calls.
void BM_CallTak(benchmark::State& st) {
    World w("(defun tak (x y z) (if (not (< y x)) z"
            " (tak (tak (1- x) y z) (tak (1- y) z x) (tak (1- z) x y))))");
    for (auto _ : st) benchmark::DoNotOptimize(w.run("(tak 18 12 6)"));
    st.SetItemsProcessed(st.iterations() * 63609);
}
BENCHMARK(BM_CallTak);

// A self tail call in a loop: 100,000 iterations reuse one frame.
void BM_TailLoop(benchmark::State& st) {
    World w("(defun count-down (n acc) (if (= n 0) acc (count-down (1- n) (1+ acc))))");
    for (auto _ : st) benchmark::DoNotOptimize(w.run("(count-down 100000 0)"));
    st.SetItemsProcessed(st.iterations() * 100000);
}
BENCHMARK(BM_TailLoop);

// A while loop of primitive nodes only (no calls): 100,000 turns.
void BM_WhileLoop(benchmark::State& st) {
    World w("(defun spin (n) (let ((i 0) (s 0)) (while (< i n) (setq s (+ s i)) (setq i (1+ i))) s))");
    for (auto _ : st) benchmark::DoNotOptimize(w.run("(spin 100000)"));
    st.SetItemsProcessed(st.iterations() * 100000);
}
BENCHMARK(BM_WhileLoop);

// Calling a closure through funcall (the generic invoke path).
void BM_Funcall(benchmark::State& st) {
    World w("(defun app (f n) (let ((i 0)) (while (< i n) (funcall f i) (setq i (1+ i)))))");
    for (auto _ : st) benchmark::DoNotOptimize(w.run("(app (lambda (x) x) 100000)"));
    st.SetItemsProcessed(st.iterations() * 100000);
}
BENCHMARK(BM_Funcall);

// Allocation from Lisp: a list of 100,000 conses, built, mapped and reversed.
void BM_ConsLisp(benchmark::State& st) {
    World w("(defun build (n) (let ((l nil) (i (1- n))) (while (>= i 0) (setq l (cons i l)) (setq i (1- i))) l))");
    for (auto _ : st) benchmark::DoNotOptimize(w.run("(length (reverse (mapcar #'1+ (build 100000))))"));
    st.SetItemsProcessed(st.iterations() * 300000);   // items = conses
}
BENCHMARK(BM_ConsLisp);

// Allocation from C++: the free-list pop of Heap::cons, collections included.
void BM_ConsRaw(benchmark::State& st) {
    Interp I;
    for (auto _ : st) {
        Root l(I, NIL);
        for (int i = 0; i < 100000; i++) l = I.cons(make_fixnum(i), l);
        benchmark::DoNotOptimize(l.get());
    }
    st.SetItemsProcessed(st.iterations() * 100000);
}
BENCHMARK(BM_ConsRaw);

// Percentiles of a sample of nanosecond durations, as benchmark counters (µs).
void percentiles(benchmark::State& st, std::vector<uint64_t> ns) {
    if (ns.empty()) return;
    std::sort(ns.begin(), ns.end());
    auto at = [&](double q) { return double(ns[std::min(ns.size() - 1, size_t(q * double(ns.size())))]) / 1e3; };
    st.counters["p50_us"] = at(0.50);
    st.counters["p90_us"] = at(0.90);
    st.counters["p99_us"] = at(0.99);
    st.counters["max_us"] = double(ns.back()) / 1e3;
    st.counters["pauses"] = double(ns.size());
}

// GC pauses as they happen in an allocation-heavy program (the cons
// benchmark's work at a tenth of its size): each collection's pause is read
// from the heap's statistics.
void BM_GcPausesCons(benchmark::State& st) {
    World w("(defun build (n) (let ((l nil) (i (1- n))) (while (>= i 0) (setq l (cons i l)) (setq i (1- i))) l))");
    std::vector<uint64_t> pauses;
    for (auto _ : st) {
        uint64_t seen = w.I.heap.stats().collections;
        // Chunks, so that every collection's pause is sampled.
        for (int k = 0; k < 30; k++) {
            w.run("(length (reverse (mapcar #'1+ (build 30000))))");
            const GcStats& s = w.I.heap.stats();
            if (s.collections != seen) {
                pauses.push_back(s.last_pause_ns);
                seen = s.collections;
            }
        }
    }
    percentiles(st, pauses);
}
BENCHMARK(BM_GcPausesCons)->Unit(benchmark::kMillisecond);

// A full collection with a given number of live conses (a rooted list).
void BM_GcFull(benchmark::State& st) {
    Interp I;
    Root keep(I, NIL);
    for (int64_t i = 0; i < st.range(0); i++) keep = I.cons(make_fixnum(i), keep);
    std::vector<uint64_t> pauses;
    for (auto _ : st) {
        auto t0 = std::chrono::steady_clock::now();
        I.heap.collect();
        auto t1 = std::chrono::steady_clock::now();
        pauses.push_back(uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count()));
    }
    percentiles(st, pauses);
    st.SetItemsProcessed(st.iterations() * st.range(0));   // items = live cells marked and swept
}
BENCHMARK(BM_GcFull)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
