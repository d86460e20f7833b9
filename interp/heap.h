// heap.h — allocation and the precise mark-and-sweep collector.
//
// Cons and quad cells live on 64 KiB pages of equal-sized slots, with the
// mark bits in a bitmap at the start of each page (found from a cell's address
// by masking). A collection leaves the bits of the cells it found live set,
// and the allocator hands out the runs of clear bits in address order: a
// cons is a pointer bump within a run (no free list to build, no link to
// load), and the allocator moves to the next run, page by page, when one is
// used up. Marking starts by clearing the bitmaps. Objects with a header are
// allocated with new and threaded onto one list. Nothing ever moves, so C++
// code that keeps a Value alive only has to make it reachable (see Root in
// interp.h), never update it.
//
// A collection marks from the interpreter's roots with an explicit stack (no
// recursion, so a million-element list or a 100,000-deep nesting is no
// problem), then sweeps. It runs when the bytes handed out since the last one
// exceed the live bytes it found (the heap may double), or when the live
// bytes it found plus those handed out since would pass `limit`, and never
// lets the live heap exceed `limit`: that is a Lisp error, "heap exhausted".
// Near the limit, a collection that leaves less than 1/64 of the limit free
// for what is being allocated counts as full: so collections there are at
// least limit/64 bytes of allocation apart (no collection at every allocation).
//
// GC torture (LIPQ_GC_TORTURE=1 in the environment, or set_torture) collects
// at every allocation and poisons freed cells, so a value that C++ code forgot
// to root is reused at once and the bug shows up in the first test that
// touches it.
#pragma once
#include "object.h"

#include <cstddef>
#include <vector>

namespace lipq {

constexpr size_t PAGE_BYTES = 1u << 16;

struct GcStats {
    uint64_t collections = 0;
    uint64_t total_ns = 0;        // time spent collecting
    uint64_t max_pause_ns = 0;
    uint64_t last_pause_ns = 0;
    size_t live_bytes = 0;        // found live by the last collection
    size_t heap_bytes = 0;        // pages + objects currently held
    size_t live_cells = 0;        // cons + quad cells live after the last collection
    uint64_t allocated_bytes = 0; // total handed out since the interpreter started
};

class Heap;

// What Foreign::trace and Interp::trace_roots use to report references.
class Tracer {
public:
    explicit Tracer(Heap& h) : heap_(h) {}
    void mark(Value v);
    void mark(Obj* o) { if (o) mark(obj_value(o)); }
private:
    friend class Heap;
    Heap& heap_;
    std::vector<Value> stack_;
};

class Heap {
public:
    explicit Heap(Interp& I);
    ~Heap();
    Heap(const Heap&) = delete;
    Heap& operator=(const Heap&) = delete;

    // (Under torture a run is one cell long: every cons takes the slow way.)
    Value cons(Value a, Value d) {
        Cons* c = cons_.next;
        if (c == cons_.end) [[unlikely]] return cons_slow(a, d);
        cons_.next = c + 1;
        c->car = a;
        c->cdr = d;
        return Value(reinterpret_cast<uint64_t>(c) | TAG_CONS);
    }
    Value quad(Value a, Value b, Value c, Value d);   // car, cbr, ccr, cdr
    // Where the current cons run's next and end pointers are in a Heap (the
    // JIT inlines cons's fast path).
    static size_t cons_run_offset();
    // Every headered object, newest first (the JIT looks for warm functions).
    template <class F>
    void for_each_object(F f) const {
        for (Obj* o = objects_; o; o = o->next) f(o);
    }

    // Allocate a headered object. The object is built first, then (if a
    // collection is due) it is kept alive through it, so Values passed to the
    // constructor are safe without any rooting by the caller.
    // The object counts with its payload (string bytes, vector slots ...).
    template <class T, class... Args>
    T* make(Args&&... args) {
        T* o = new T(std::forward<Args>(args)...);
        adopt(o, object_bytes(o));
        return o;
    }
    Closure* make_closure(Proto* p, uint32_t ncap);
    // Account extra bytes held outside the object (a growing vector, a bignum)
    void note_bytes(size_t n) { since_gc_ += n; stats_.allocated_bytes += n; stats_.heap_bytes += n; }
    // Make room for `bytes` more before allocating them outside the heap's
    // view (a big vector or string): collects if needed, and raises "heap
    // exhausted" when they would not fit under the limit.
    // The caller must keep every Value it still needs reachable (Root).
    void reserve(size_t bytes) { if (live_estimate() + bytes > limit_) check_limit(bytes); }
    // What may be live now: found live by the last collection plus handed
    // out since (cells count when their free list has been used up). Free
    // slots in pages are not in it: the limit is on live data.
    size_t live_estimate() const { return stats_.live_bytes + since_gc_; }

    void collect();
    const GcStats& stats() const { return stats_; }
    void set_limit(size_t bytes) { limit_ = bytes; }
    size_t limit() const { return limit_; }
    void set_torture(bool on) {
        torture_ = on;
        if (on) cons_.end = cons_.next, quad_.end = quad_.next;   // from the next cell on
    }
    bool torture() const { return torture_; }

    // Temporarily disable collection (used while a collection could see a
    // half-built structure that is not yet reachable). Nested; RAII below.
    int inhibit = 0;

private:
    friend class Tracer;
    struct Page;
    Value cons_slow(Value a, Value d);
    void adopt(Obj* o, size_t bytes);
    bool maybe_collect_with(Value extra1, Value extra2 = NIL, Obj* extra_obj = nullptr);   // false: not now
    bool collection_due() const { return torture_ || since_gc_ + stats_.live_bytes > next_gc_; }
    template <class Cell> struct Space;
    template <class Cell> bool next_run(Space<Cell>& sp);
    template <class Cell> void add_page(Space<Cell>& sp);
    template <class Cell> size_t finish_marking(Space<Cell>& sp);
    template <class Cell> void refill(Space<Cell>& sp, Value e1, Value e2);
    void mark_from_roots(Tracer& t, Value e1, Value e2, Obj* eo);
    void trace_children(Tracer& t, Value v);
    void sweep();
    void free_object(Obj* o);
    size_t object_bytes(Obj* o) const;
    void check_limit(size_t wanted);

    // ---- closure slots (see make_closure in heap.cpp) ----
    // Closures with up to CLOSURE_SLOT_CAPS captures take a 64-byte slot from
    // chunks owned by the heap instead of operator new; a swept closure's slot
    // goes back on this free list. They stay ordinary headered objects.
    static constexpr uint32_t CLOSURE_SLOT_CAPS = 4;
    static constexpr size_t CLOSURE_SLOT_BYTES = 64;
    void* closure_free_ = nullptr;
    char* closure_fresh_ = nullptr;       // the newest chunk's slots not yet handed out
    char* closure_fresh_end_ = nullptr;
    std::vector<void*> closure_chunks_;
    void* closure_slot();
    void free_closure(Closure* c);

    Interp& I_;
    // The pages of one cell size, and where allocation is in them: the run
    // [next, end) is free; the next run is searched from bit `bit` of page
    // `page` (bits below it were searched, or handed out, since the last
    // collection).
    template <class Cell>
    struct Space {
        Cell* next = nullptr;
        Cell* end = nullptr;
        std::vector<void*> pages;
        size_t page = 0, bit = 0;
        size_t free_cells = 0;   // clear bits after the last collection (or page added)
    };
    Space<Cons> cons_;
    Space<Quad> quad_;
    Obj* objects_ = nullptr;
    size_t since_gc_ = 0;         // bytes handed out since the last collection
    size_t next_gc_ = 8u << 20;   // collect when live + since_gc_ exceeds this
    size_t limit_;
    bool torture_ = false;
    bool collecting_ = false;
    GcStats stats_;
};

struct GcInhibit {
    Heap& h;
    explicit GcInhibit(Heap& heap) : h(heap) { ++h.inhibit; }
    ~GcInhibit() { --h.inhibit; }
};

} // namespace lipq
