// heap.cpp — pages, free lists, marking and sweeping. See heap.h for the design.
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

// One pass over the pages of one cell size: the unmarked cells, in address
// order, become the free list, and the mark bits are cleared. A free cell's
// car links to the next, tagged as a cell, so a stray trace of a free cell is
// harmless; its other fields hold `fill` (nil, or POISON under torture).
// The bitmap is read a word (64 cells) at a time, and only the free cells are
// visited. Returns the number of live cells.
template <class Cell>
size_t sweep_pages(const std::vector<void*>& pages, size_t first, size_t slots, uint64_t tag, Value fill,
                   Cell** free_head, size_t* free_count) {
    Cell* head = nullptr;
    Value* last_link = nullptr;   // the car of the last free cell found
    size_t nfree = 0, live = 0;
    for (void* p : pages) {
        auto* bits = static_cast<uint64_t*>(p);
        auto* cells = static_cast<Cell*>(p);
        for (size_t w = 0; w < slots / 64; w++) {
            uint64_t used = bits[w];
            live += size_t(__builtin_popcountll(used));
            if (w * 64 < first)   // the slots under the bitmap are not cells
                used |= first - w * 64 >= 64 ? ~uint64_t(0) : (uint64_t(1) << (first - w * 64)) - 1;
            for (uint64_t free = ~used; free; free &= free - 1) {
                Cell* c = &cells[w * 64 + size_t(__builtin_ctzll(free))];
                if (last_link) *last_link = Value(reinterpret_cast<uint64_t>(c) | tag);
                else head = c;
                last_link = &c->car;
                c->cdr = fill;
                if constexpr (std::is_same_v<Cell, Quad>) c->cbr = c->ccr = fill;
                nfree++;
            }
        }
        std::memset(bits, 0, BITMAP_BYTES);
    }
    if (last_link) *last_link = NIL;
    *free_head = head;
    *free_count = nfree;
    return live;
}

void Heap::sweep() {
    Value fill = torture_ ? POISON : NIL;
    size_t live_cells = sweep_pages(cons_pages_, CONS_FIRST, CONS_SLOTS, TAG_CONS, fill, &cons_free_, &cons_free_count_);
    size_t live_quads = sweep_pages(quad_pages_, QUAD_FIRST, QUAD_SLOTS, TAG_QUAD, fill, &quad_free_, &quad_free_count_);
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
    stats_.heap_bytes = (cons_pages_.size() + quad_pages_.size()) * PAGE_BYTES + objs_bytes;
}

// ---- collection ------------------------------------------------------------------

void Heap::collect() { maybe_collect_with(NIL, NIL, nullptr); }

bool Heap::maybe_collect_with(Value e1, Value e2, Obj* eo) {
    if (collecting_ || inhibit > 0) return false;
    collecting_ = true;
    uint64_t t0 = now_ns();
    {
        Tracer t(*this);
        mark_from_roots(t, e1, e2, eo);
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

void Heap::add_page(bool is_quad_page) {
    check_limit(PAGE_BYTES);
    void* p = std::aligned_alloc(PAGE_BYTES, PAGE_BYTES);
    if (!p) I_.error("heap exhausted: out of memory");
    std::memset(p, 0, BITMAP_BYTES);
    stats_.heap_bytes += PAGE_BYTES;
    if (!is_quad_page) {
        cons_pages_.push_back(p);
        auto* slots = static_cast<Cons*>(p);
        Cons* head = cons_free_;
        for (size_t i = CONS_SLOTS; i-- > CONS_FIRST;) {
            slots[i].car = head ? Value(reinterpret_cast<uint64_t>(head) | TAG_CONS) : NIL;
            slots[i].cdr = NIL;
            head = &slots[i];
        }
        cons_free_ = head;
        cons_free_count_ += CONS_SLOTS - CONS_FIRST;
    } else {
        quad_pages_.push_back(p);
        auto* slots = static_cast<Quad*>(p);
        Quad* head = quad_free_;
        for (size_t i = QUAD_SLOTS; i-- > QUAD_FIRST;) {
            slots[i].car = head ? Value(reinterpret_cast<uint64_t>(head) | TAG_QUAD) : NIL;
            slots[i].cdr = slots[i].cbr = slots[i].ccr = NIL;
            head = &slots[i];
        }
        quad_free_ = head;
        quad_free_count_ += QUAD_SLOTS - QUAD_FIRST;
    }
}

Value Heap::cons_slow(Value a, Value d) {
    if (!cons_free_) {
        // Everything handed out at the last refill has been used.
        since_gc_ += cons_free_count_ * sizeof(Cons);
        stats_.allocated_bytes += cons_free_count_ * sizeof(Cons);
        cons_free_count_ = 0;
        if (collection_due()) maybe_collect_with(a, d);
        // Too little came back: grow rather than collect again soon.
        if (!torture_ && cons_free_count_ < (CONS_SLOTS - CONS_FIRST) / 8) add_page(false);
    } else if (torture_) {
        maybe_collect_with(a, d);
    }
    if (!cons_free_) add_page(false);
    Cons* c = cons_free_;
    cons_free_ = reinterpret_cast<Cons*>(c->car.raw & ~TAG_MASK);
    if (torture_) { cons_free_count_--; since_gc_ += sizeof(Cons); }
    c->car = a;
    c->cdr = d;
    return Value(reinterpret_cast<uint64_t>(c) | TAG_CONS);
}

Value Heap::quad(Value a, Value b, Value c, Value d) {
    if (!quad_free_ || torture_) {
        if (!quad_free_) {
            since_gc_ += quad_free_count_ * sizeof(Quad);
            stats_.allocated_bytes += quad_free_count_ * sizeof(Quad);
            quad_free_count_ = 0;
        }
        if (collection_due()) {
            // Four values to protect: keep two in temp roots.
            I_.temp_roots.push_back(b);
            I_.temp_roots.push_back(c);
            try { maybe_collect_with(a, d); } catch (...) { I_.temp_roots.resize(I_.temp_roots.size() - 2); throw; }
            c = I_.temp_roots.back(); I_.temp_roots.pop_back();
            b = I_.temp_roots.back(); I_.temp_roots.pop_back();
        }
        if (!torture_ && quad_free_count_ < (QUAD_SLOTS - QUAD_FIRST) / 8) add_page(true);
        if (!quad_free_) add_page(true);
    }
    Quad* q = quad_free_;
    quad_free_ = reinterpret_cast<Quad*>(q->car.raw & ~TAG_MASK);
    if (torture_) { quad_free_count_--; since_gc_ += sizeof(Quad); }
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
        constexpr size_t chunk = 1u << 16;
        char* mem = static_cast<char*>(::operator new(chunk));
        closure_chunks_.push_back(mem);
        for (size_t off = chunk; off >= CLOSURE_SLOT_BYTES; off -= CLOSURE_SLOT_BYTES) {
            void* slot = mem + off - CLOSURE_SLOT_BYTES;
            *static_cast<void**>(slot) = closure_free_;
            closure_free_ = slot;
        }
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
    for (void* p : cons_pages_) std::free(p);
    for (void* p : quad_pages_) std::free(p);
    for (void* p : closure_chunks_) ::operator delete(p);
}

} // namespace lipq
