// heap.cpp — pages, allocation runs, marking and sweeping. See heap.h for the design.
#include "heap.h"

#include "compiler.h"
#include "interp.h"

#include <chrono>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <vector>

namespace lipq {

namespace {

// Page layout: the first 512 bytes hold a 4096-bit mark bitmap; the rest are
// slots. Cons slots are 16 bytes (bit index = offset / 16), quad slots 32
// bytes (bit index = offset / 32).
constexpr size_t BITMAP_BYTES = 512;
constexpr size_t CONS_FIRST = BITMAP_BYTES / sizeof(Cons);
constexpr size_t CONS_SLOTS = PAGE_BYTES / sizeof(Cons);
constexpr size_t QUAD_FIRST = BITMAP_BYTES / sizeof(Quad);
constexpr size_t QUAD_SLOTS = PAGE_BYTES / sizeof(Quad);
static_assert(BITMAP_BYTES * 8 >= CONS_SLOTS && CONS_SLOTS % 64 == 0 && QUAD_SLOTS % 64 == 0);
// What freed cells hold in torture mode beyond their free-list link: an
// immediate that no code accepts as any kind of value.
constexpr Value POISON{0xDEADBEEFDEADBEE4ULL};

// Where the cells of each size are on their pages.
template <class Cell> struct Layout;
template <> struct Layout<Cons> {
    static constexpr size_t first = CONS_FIRST, slots = CONS_SLOTS;
};
template <> struct Layout<Quad> {
    static constexpr size_t first = QUAD_FIRST, slots = QUAD_SLOTS;
};

// Clear a page's mark bits before marking. The slots under the bitmap are
// not cells: their bits stay set, so that the allocator never hands them out.
template <class Cell>
void clear_marks(void* page) {
    auto* bits = static_cast<uint64_t*>(page);
    std::memset(bits, 0, BITMAP_BYTES);
    constexpr size_t first = Layout<Cell>::first;
    static_assert(first < 64);
    bits[0] = (uint64_t(1) << first) - 1;
}

inline uint64_t* page_bits(uint64_t addr) {
    return reinterpret_cast<uint64_t*>(addr & ~uint64_t(PAGE_BYTES - 1));
}

// Test-and-set the mark bit of a cell; true if it was already set.
inline bool test_and_mark(Value v) {
    uint64_t addr = v.raw & ~TAG_MASK;
    unsigned shift = is_quad(v) ? 5 : 4;
    size_t bit = (addr & (PAGE_BYTES - 1)) >> shift;
    uint64_t* bits = page_bits(addr);
    uint64_t m = uint64_t(1) << (bit & 63);
    if (bits[bit >> 6] & m) return true;
    bits[bit >> 6] |= m;
    return false;
}

uint64_t now_ns() {
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::steady_clock::now().time_since_epoch())
                        .count());
}

} // namespace

// ---- marking ---------------------------------------------------------------------

void Tracer::mark(Value v) {
    if (v.raw == 0 || (v.raw & 1) || is_imm(v)) return;
    if ((v.raw & TAG_MASK) == TAG_OBJ) {
        Obj* o = as_obj(v);
        if (o->marked) return;
        o->marked = true;
    } else if (test_and_mark(v)) {
        return;
    }
    stack_.push_back(v);
}

void Heap::trace_children(Tracer& t, Value v) {
    if (is_pair(v)) {
        Value* w = pair_words(v);
        t.mark(w[0]);
        t.mark(w[1]);
        if (is_quad(v)) { t.mark(w[2]); t.mark(w[3]); }
        return;
    }
    Obj* o = as_obj(v);
    switch (o->type) {
    case Type::Symbol: {
        auto* s = static_cast<Symbol*>(o);
        t.mark(s->value);
        t.mark(s->plist);
        break;
    }
    case Type::Vector:
        for (Value x : static_cast<Vector*>(o)->items) t.mark(x);
        break;
    case Type::Closure: {
        auto* c = static_cast<Closure*>(o);
        t.mark(reinterpret_cast<Obj*>(c->proto));
        for (uint32_t i = 0; i < c->ncap; i++) t.mark(c->cap[i]);
        break;
    }
    case Type::Proto: trace_proto(t, reinterpret_cast<Proto*>(o)); break;
    case Type::Box: t.mark(static_cast<Box*>(o)->v); break;
    case Type::Macro: t.mark(static_cast<Macro*>(o)->expander); break;
    case Type::HashTable:
        for (auto& e : static_cast<HashTable*>(o)->entries)
            if (e.live) { t.mark(e.key); t.mark(e.value); }
        break;
    case Type::Foreign: static_cast<Foreign*>(o)->trace(t); break;
    case Type::String: case Type::Bignum: case Type::Native: break;
    }
}

void Heap::mark_from_roots(Tracer& t, Value e1, Value e2, Obj* eo) {
    t.mark(e1);
    t.mark(e2);
    if (eo) trace_children(t, obj_value(eo));   // not yet on the object list
    I_.trace_roots(t);
    while (!t.stack_.empty()) {
        Value v = t.stack_.back();
        t.stack_.pop_back();
        trace_children(t, v);
    }
}

// ---- sweeping --------------------------------------------------------------------

size_t Heap::object_bytes(Obj* o) const {
    switch (o->type) {
    case Type::Symbol: return sizeof(Symbol) + static_cast<Symbol*>(o)->name.capacity();
    case Type::String: return sizeof(String) + static_cast<String*>(o)->s.capacity();
    case Type::Vector: return sizeof(Vector) + static_cast<Vector*>(o)->items.capacity() * sizeof(Value);
    case Type::Bignum: {
        auto& n = static_cast<Bignum*>(o)->n;
        return sizeof(Bignum) + n.backend().size() * sizeof(boost::multiprecision::limb_type);
    }
    case Type::Closure: return sizeof(Closure) + static_cast<Closure*>(o)->ncap * sizeof(Value);
    case Type::Native: return sizeof(Native);
    case Type::Proto: return proto_bytes(reinterpret_cast<Proto*>(o));
    case Type::Box: return sizeof(Box);
    case Type::Macro: return sizeof(Macro);
    case Type::HashTable: {
        auto* h = static_cast<HashTable*>(o);
        return sizeof(HashTable) + h->entries.capacity() * sizeof(HashTable::Entry) +
               h->index.capacity() * sizeof(int32_t);
    }
    case Type::Foreign: return static_cast<Foreign*>(o)->byte_size();
    }
    return sizeof(Obj);
}

void Heap::free_object(Obj* o) {
    switch (o->type) {
    case Type::Symbol: delete static_cast<Symbol*>(o); break;
    case Type::String: delete static_cast<String*>(o); break;
    case Type::Vector: delete static_cast<Vector*>(o); break;
    case Type::Bignum: delete static_cast<Bignum*>(o); break;
    case Type::Closure: free_closure(static_cast<Closure*>(o)); break;
    case Type::Native: delete static_cast<Native*>(o); break;
    case Type::Proto: delete_proto(reinterpret_cast<Proto*>(o)); break;
    case Type::Box: delete static_cast<Box*>(o); break;
    case Type::Macro: delete static_cast<Macro*>(o); break;
    case Type::HashTable: delete static_cast<HashTable*>(o); break;
    case Type::Foreign: delete static_cast<Foreign*>(o); break;
    }
}

// After marking, the set bits of a space are its live cells (and the slots
// under the bitmaps); the clear ones are free, and allocation starts again
// from the first page. Nothing is written to the free cells (no free list),
// except under torture, where they are poisoned: a value some C++ code forgot
// to root then holds an immediate that nothing accepts. Returns the number
// of live cells.
template <class Cell>
size_t Heap::finish_marking(Space<Cell>& sp) {
    constexpr size_t first = Layout<Cell>::first, slots = Layout<Cell>::slots;
    size_t live = 0;
    for (void* p : sp.pages) {
        auto* bits = static_cast<uint64_t*>(p);
        for (size_t w = 0; w < slots / 64; w++) {
            live += size_t(__builtin_popcountll(bits[w]));
            if (!torture_) continue;
            for (uint64_t free = ~bits[w]; free; free &= free - 1) {
                Cell* c = &static_cast<Cell*>(p)[w * 64 + size_t(__builtin_ctzll(free))];
                c->car = c->cdr = POISON;
                if constexpr (std::is_same_v<Cell, Quad>) c->cbr = c->ccr = POISON;
            }
        }
        live -= first;
    }
    sp.free_cells = sp.pages.size() * (slots - first) - live;
    sp.next = sp.end = nullptr;
    sp.page = 0;
    sp.bit = 0;
    return live;
}

// The next run of free cells from the space's position on, as the run to
// allocate from (counted as handed out: since_gc_); false at the last page's end.
template <class Cell>
bool Heap::next_run(Space<Cell>& sp) {
    constexpr size_t words = Layout<Cell>::slots / 64;
    for (; sp.page < sp.pages.size(); sp.page++, sp.bit = 0) {
        auto* bits = static_cast<uint64_t*>(sp.pages[sp.page]);
        for (size_t w = sp.bit / 64; w < words; w++) {
            uint64_t free = ~bits[w];
            if (w == sp.bit / 64) free &= ~uint64_t(0) << (sp.bit % 64);
            if (!free) continue;
            size_t start = w * 64 + size_t(__builtin_ctzll(free));
            // The run ends at the next set bit, in this word or a later one.
            uint64_t used = bits[w] & (~uint64_t(0) << (start % 64));
            size_t end;
            if (used) {
                end = w * 64 + size_t(__builtin_ctzll(used));
            } else {
                size_t v = w + 1;
                while (v < words && bits[v] == 0) v++;
                end = v < words ? v * 64 + size_t(__builtin_ctzll(bits[v])) : words * 64;
            }
            sp.bit = end;
            auto* cells = static_cast<Cell*>(sp.pages[sp.page]);
            sp.next = cells + start;
            sp.end = cells + end;
            size_t bytes = (end - start) * sizeof(Cell);
            since_gc_ += bytes;
            stats_.allocated_bytes += bytes;
            return true;
        }
    }
    return false;
}

void Heap::sweep() {
    size_t live_cells = finish_marking(cons_);
    size_t live_quads = finish_marking(quad_);
    size_t live = live_cells * sizeof(Cons) + live_quads * sizeof(Quad);
    live_cells += live_quads;

    Obj** link = &objects_;
    size_t objs_bytes = 0;
    while (Obj* o = *link) {
        if (o->marked) {
            o->marked = false;
            objs_bytes += object_bytes(o);
            link = &o->next;
        } else {
            *link = o->next;
            free_object(o);
        }
    }
    live += objs_bytes;
    stats_.live_bytes = live;
    stats_.live_cells = live_cells;
    stats_.heap_bytes = (cons_.pages.size() + quad_.pages.size()) * PAGE_BYTES + objs_bytes;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
size_t Heap::cons_run_offset() {
    static_assert(offsetof(Space<Cons>, end) == offsetof(Space<Cons>, next) + sizeof(Cons*));
    return offsetof(Heap, cons_) + offsetof(Space<Cons>, next);
}
#pragma GCC diagnostic pop

// ---- collection ------------------------------------------------------------------

void Heap::collect() { maybe_collect_with(NIL, NIL, nullptr); }

bool Heap::maybe_collect_with(Value e1, Value e2, Obj* eo) {
    if (collecting_ || inhibit > 0) return false;
    collecting_ = true;
    uint64_t t0 = now_ns();
    for (void* p : cons_.pages) clear_marks<Cons>(p);
    for (void* p : quad_.pages) clear_marks<Quad>(p);
    try {
        Tracer t(*this);
        mark_from_roots(t, e1, e2, eo);
    } catch (...) {
        // (Out of memory for the mark stack.) The bitmaps are half made: set
        // every bit, so that no cell is handed out before a collection that
        // completes (allocation adds pages meanwhile); objects stay.
        for (auto* pages : {&cons_.pages, &quad_.pages})
            for (void* p : *pages) std::memset(p, 0xff, BITMAP_BYTES);
        cons_.next = cons_.end = nullptr;
        quad_.next = quad_.end = nullptr;
        cons_.page = cons_.pages.size();
        quad_.page = quad_.pages.size();
        for (Obj* o = objects_; o; o = o->next) o->marked = false;
        collecting_ = false;
        throw;
    }
    if (eo) eo->marked = false;   // it is linked by the caller after this
    sweep();
    since_gc_ = 0;
    next_gc_ = std::max<size_t>(stats_.live_bytes * 2, 8u << 20);
    uint64_t dt = now_ns() - t0;
    stats_.collections++;
    stats_.total_ns += dt;
    stats_.last_pause_ns = dt;
    if (dt > stats_.max_pause_ns) stats_.max_pause_ns = dt;
    collecting_ = false;
    if (stats_.live_bytes > limit_)
        I_.error("heap exhausted: " + std::to_string(stats_.live_bytes >> 20) +
                 " MiB live exceeds the heap limit of " + std::to_string(limit_ >> 20) + " MiB");
    return true;
}

void Heap::check_limit(size_t wanted) {
    if (live_estimate() + wanted <= limit_) return;
    // Within 1/64 of the limit after a collection counts as full: otherwise
    // every allocation would collect a nearly full heap again (thrashing).
    if (wanted > limit_ || (maybe_collect_with(NIL) && stats_.live_bytes + wanted > limit_ - limit_ / 64))
        I_.error("heap exhausted: " + std::to_string(wanted >> 20) + " MiB more do not fit under the heap limit of " +
                 std::to_string(limit_ >> 20) + " MiB");
}

// A new page: all free, and the space's last, so the allocator reaches it
// after every run before it.
template <class Cell>
void Heap::add_page(Space<Cell>& sp) {
    check_limit(PAGE_BYTES);
    void* p = std::aligned_alloc(PAGE_BYTES, PAGE_BYTES);
    if (!p) I_.error("heap exhausted: out of memory");
    clear_marks<Cell>(p);
    stats_.heap_bytes += PAGE_BYTES;
    sp.pages.push_back(p);
    sp.free_cells += Layout<Cell>::slots - Layout<Cell>::first;
}

// The run is used up (or torture): the next one, after a collection if one
// is due, or on a new page. e1 and e2 are kept alive through a collection.
template <class Cell>
void Heap::refill(Space<Cell>& sp, Value e1, Value e2) {
    constexpr size_t page_cells = Layout<Cell>::slots - Layout<Cell>::first;
    if (torture_ || collection_due()) {
        maybe_collect_with(e1, e2);
        // Too little came back: grow rather than collect again soon.
        if (!torture_ && sp.free_cells < page_cells / 8) add_page(sp);
    }
    if (next_run(sp)) return;
    add_page(sp);   // may collect (check_limit): then the search starts again at the first page
    if (!next_run(sp)) I_.error("heap exhausted: no free cell after adding a page");
}

Value Heap::cons_slow(Value a, Value d) {
    refill(cons_, a, d);
    Cons* c = cons_.next++;
    if (torture_) cons_.end = cons_.next;   // the next cons collects again
    c->car = a;
    c->cdr = d;
    return Value(reinterpret_cast<uint64_t>(c) | TAG_CONS);
}

Value Heap::quad(Value a, Value b, Value c, Value d) {
    if (quad_.next == quad_.end) {
        // Four values to protect: keep two in temp roots.
        I_.temp_roots.push_back(b);
        I_.temp_roots.push_back(c);
        try { refill(quad_, a, d); } catch (...) { I_.temp_roots.resize(I_.temp_roots.size() - 2); throw; }
        c = I_.temp_roots.back(); I_.temp_roots.pop_back();
        b = I_.temp_roots.back(); I_.temp_roots.pop_back();
    }
    Quad* q = quad_.next++;
    if (torture_) quad_.end = quad_.next;
    q->car = a;
    q->cdr = d;
    q->cbr = b;
    q->ccr = c;
    return Value(reinterpret_cast<uint64_t>(q) | TAG_QUAD);
}

void Heap::adopt(Obj* o, size_t bytes) {
    since_gc_ += bytes;
    stats_.allocated_bytes += bytes;
    if (collection_due() || live_estimate() > limit_) {   // since_gc_ includes bytes
        try {
            // The new object itself is not in live_bytes: check that it fits.
            if (maybe_collect_with(NIL, NIL, o) && stats_.live_bytes + bytes > limit_ - limit_ / 64)
                I_.error("heap exhausted: " + std::to_string((stats_.live_bytes + bytes) >> 20) +
                         " MiB live exceeds the heap limit of " + std::to_string(limit_ >> 20) + " MiB");
        } catch (...) {
            free_object(o);
            throw;
        }
    }
    o->next = objects_;
    objects_ = o;
    stats_.heap_bytes += bytes;
}

// ---- closure slots ------------------------------------------------------------------
// Small closures (a lambda made in a loop, typically) are carved from 64 KiB
// chunks with a free list: allocation is a pop, and sweeping one a push,
// instead of malloc and free. The chunks are released with the heap.
void* Heap::closure_slot() {
    static_assert(sizeof(Closure) + (CLOSURE_SLOT_CAPS - 1) * sizeof(Value) <= CLOSURE_SLOT_BYTES);
    if (!closure_free_) {
        // A fresh chunk is handed out slot by slot, not threaded onto the
        // free list at once: that wrote to all of its 16 pages, and at start-up
        // a page touched is a page fault (≈ 20 µs each on a slow VM).
        constexpr size_t chunk = 1u << 16;
        if (closure_fresh_ == closure_fresh_end_) {
            char* mem = static_cast<char*>(::operator new(chunk));
            closure_chunks_.push_back(mem);
            closure_fresh_ = mem;
            closure_fresh_end_ = mem + chunk / CLOSURE_SLOT_BYTES * CLOSURE_SLOT_BYTES;
        }
        void* slot = closure_fresh_;
        closure_fresh_ += CLOSURE_SLOT_BYTES;
        return slot;
    }
    void* slot = closure_free_;
    closure_free_ = *static_cast<void**>(slot);
    return slot;
}

void Heap::free_closure(Closure* c) {
    uint32_t ncap = c->ncap;
    c->~Closure();
    if (ncap > CLOSURE_SLOT_CAPS) {
        ::operator delete(c);
        return;
    }
    if (torture_) std::memset(static_cast<void*>(c), 0xdb, CLOSURE_SLOT_BYTES);
    *reinterpret_cast<void**>(c) = closure_free_;
    closure_free_ = c;
}

Closure* Heap::make_closure(Proto* p, uint32_t ncap) {
    size_t bytes = sizeof(Closure) + (ncap ? ncap - 1 : 0) * sizeof(Value);
    void* mem = ncap <= CLOSURE_SLOT_CAPS ? closure_slot() : ::operator new(bytes);
    auto* c = new (mem) Closure(p, ncap);
    for (uint32_t i = 0; i < ncap; i++) c->cap[i] = NIL;
    adopt(c, bytes);
    return c;
}

Heap::Heap(Interp& I) : I_(I) {
    limit_ = size_t(1) << 40;
    if (const char* t = std::getenv("LIPQ_GC_TORTURE")) torture_ = t[0] && t[0] != '0';
}

Heap::~Heap() {
    while (Obj* o = objects_) {
        objects_ = o->next;
        free_object(o);
    }
    for (void* p : cons_.pages) std::free(p);
    for (void* p : quad_.pages) std::free(p);
    for (void* p : closure_chunks_) ::operator delete(p);
}

} // namespace lipq
