// structures.cpp — native data structures for search scripts: a FIFO queue,
// a fixed-size ring buffer (the operations of the seed's queue.js) and a
// priority queue. Each is a Foreign object that traces what it holds.
//
//   (make-queue) (enqueue q x) (dequeue q) (queue-peek q) (queue-length q)
//   (queue-empty-p q) (queue-clear q) (queue-to-list q) (queue-p x)
//   (make-ring-buffer capacity) (ring-enqueue r x) (ring-dequeue r) (ring-peek r)
//   (ring-length r) (ring-capacity r) (ring-empty-p r) (ring-full-p r) (ring-clear r)
//   (ring-to-list r) (ring-buffer-p x)
//   (make-pqueue [less-fn]) (pq-push pq item priority) (pq-pop pq) (pq-peek pq)
//   (pq-peek-priority pq) (pq-length pq) (pq-empty-p pq) (pq-clear pq) (pqueue-p x)
#include "search_common.h"

#include "../interp/number.h"

#include <deque>
#include <vector>

namespace lipq {

namespace {

// ---- queue ---------------------------------------------------------------------------

struct Queue : Foreign {
    std::deque<Value> items;
    const char* type_name() const override { return "queue"; }
    void trace(Tracer& t) override { for (Value v : items) t.mark(v); }
    size_t byte_size() const override { return sizeof(*this) + items.size() * sizeof(Value); }
};

template <class T>
T* as_struct(Value v) {
    if (!is_type(v, Type::Foreign)) return nullptr;
    return dynamic_cast<T*>(as_foreign(v));
}

Queue* arg_queue(Interp& I, const char* fn, Value v) {
    Queue* q = as_struct<Queue>(v);
    if (!q) I.type_error(fn, "a queue", v);
    return q;
}

Value bi_make_queue(Interp& I, Value*, int) { return obj_value(I.heap.make<Queue>()); }
Value bi_enqueue(Interp& I, Value* a, int) {
    Queue* q = arg_queue(I, "enqueue", a[0]);
    q->items.push_back(a[1]);
    I.heap.note_bytes(sizeof(Value));
    return a[1];
}
Value bi_dequeue(Interp& I, Value* a, int) {
    Queue* q = arg_queue(I, "dequeue", a[0]);
    if (q->items.empty()) I.error("dequeue: the queue is empty");
    Value v = q->items.front();
    q->items.pop_front();
    return v;
}
Value bi_queue_peek(Interp& I, Value* a, int) {
    Queue* q = arg_queue(I, "queue-peek", a[0]);
    return q->items.empty() ? NIL : q->items.front();
}
Value bi_queue_length(Interp& I, Value* a, int) {
    return make_fixnum(int64_t(arg_queue(I, "queue-length", a[0])->items.size()));
}
Value bi_queue_empty_p(Interp& I, Value* a, int) {
    return bool_value(I, arg_queue(I, "queue-empty-p", a[0])->items.empty());
}
Value bi_queue_full_p(Interp& I, Value* a, int) {
    arg_queue(I, "queue-full-p", a[0]);
    return NIL;   // a queue grows as needed (the seed's is_full is always false)
}
Value bi_queue_clear(Interp& I, Value* a, int) {
    arg_queue(I, "queue-clear", a[0])->items.clear();
    return a[0];
}
Value bi_queue_to_list(Interp& I, Value* a, int) {
    Queue* q = arg_queue(I, "queue-to-list", a[0]);
    Root l(I, NIL);
    for (size_t i = q->items.size(); i-- > 0;) {
        if (i >= q->items.size()) continue;   // cannot shrink here, but stay safe
        l = I.cons(q->items[i], l);
    }
    return l;
}
Value bi_queue_p(Interp& I, Value* a, int) { return bool_value(I, as_struct<Queue>(a[0]) != nullptr); }

// ---- ring buffer ---------------------------------------------------------------------

struct Ring : Foreign {
    std::vector<Value> buf;
    size_t head = 0, count = 0;
    explicit Ring(size_t cap) : buf(cap, NIL) {}
    const char* type_name() const override { return "ring-buffer"; }
    void trace(Tracer& t) override {
        for (size_t i = 0; i < count; i++) t.mark(buf[(head + i) % buf.size()]);
    }
    size_t byte_size() const override { return sizeof(*this) + buf.size() * sizeof(Value); }
};

Ring* arg_ring(Interp& I, const char* fn, Value v) {
    Ring* r = as_struct<Ring>(v);
    if (!r) I.type_error(fn, "a ring buffer", v);
    return r;
}

Value bi_make_ring(Interp& I, Value* a, int) {
    int64_t cap = arg_index(I, "make-ring-buffer", a[0]);
    if (cap < 1) I.error("make-ring-buffer: the capacity must be at least 1");
    if (cap > (int64_t(1) << 32)) I.error("make-ring-buffer: capacity too large");
    Ring* r = I.heap.make<Ring>(size_t(cap));
    I.heap.note_bytes(size_t(cap) * sizeof(Value));
    return obj_value(r);
}
Value bi_ring_enqueue(Interp& I, Value* a, int) {
    Ring* r = arg_ring(I, "ring-enqueue", a[0]);
    if (r->count == r->buf.size()) I.error("ring-enqueue: the ring buffer is full");
    r->buf[(r->head + r->count) % r->buf.size()] = a[1];
    r->count++;
    return a[1];
}
Value bi_ring_dequeue(Interp& I, Value* a, int) {
    Ring* r = arg_ring(I, "ring-dequeue", a[0]);
    if (r->count == 0) I.error("ring-dequeue: the ring buffer is empty");
    Value v = r->buf[r->head];
    r->buf[r->head] = NIL;
    r->head = (r->head + 1) % r->buf.size();
    r->count--;
    return v;
}
Value bi_ring_peek(Interp& I, Value* a, int) {
    Ring* r = arg_ring(I, "ring-peek", a[0]);
    return r->count ? r->buf[r->head] : NIL;
}
Value bi_ring_length(Interp& I, Value* a, int) { return make_fixnum(int64_t(arg_ring(I, "ring-length", a[0])->count)); }
Value bi_ring_capacity(Interp& I, Value* a, int) {
    return make_fixnum(int64_t(arg_ring(I, "ring-capacity", a[0])->buf.size()));
}
Value bi_ring_empty_p(Interp& I, Value* a, int) { return bool_value(I, arg_ring(I, "ring-empty-p", a[0])->count == 0); }
Value bi_ring_full_p(Interp& I, Value* a, int) {
    Ring* r = arg_ring(I, "ring-full-p", a[0]);
    return bool_value(I, r->count == r->buf.size());
}
Value bi_ring_clear(Interp& I, Value* a, int) {
    Ring* r = arg_ring(I, "ring-clear", a[0]);
    std::fill(r->buf.begin(), r->buf.end(), NIL);
    r->head = r->count = 0;
    return a[0];
}
Value bi_ring_to_list(Interp& I, Value* a, int) {
    Ring* r = arg_ring(I, "ring-to-list", a[0]);
    Root l(I, NIL);
    for (size_t i = r->count; i-- > 0;) l = I.cons(r->buf[(r->head + i) % r->buf.size()], l);
    return l;
}
Value bi_ring_p(Interp& I, Value* a, int) { return bool_value(I, as_struct<Ring>(a[0]) != nullptr); }

// ---- priority queue ------------------------------------------------------------------
// A binary heap of (priority, sequence number, item): lowest priority first,
// equal priorities in insertion order. Integer priorities are compared
// natively; with a less function, (less a b) decides and a tie is when
// neither (less a b) nor (less b a).

struct PQueue : Foreign {
    struct Entry { Value prio; uint64_t seq; Value item; };
    std::vector<Entry> heap;
    Value less = NIL;
    uint64_t next_seq = 0;
    bool busy = false;   // a less function is running: no reentrant changes
    bool dirty = false;  // a less function failed in mid-sift: reorder before use
    const char* type_name() const override { return "pqueue"; }
    void trace(Tracer& t) override {
        for (auto& e : heap) { t.mark(e.prio); t.mark(e.item); }
        t.mark(less);
    }
    size_t byte_size() const override { return sizeof(*this) + heap.capacity() * sizeof(Entry); }
};

PQueue* arg_pq(Interp& I, const char* fn, Value v, bool modifying) {
    PQueue* p = as_struct<PQueue>(v);
    if (!p) I.type_error(fn, "a priority queue", v);
    if (modifying && p->busy)
        I.error(std::string(fn) + ": the priority queue is being reordered (called from its less function)");
    return p;
}

struct BusyGuard {
    PQueue* p;
    explicit BusyGuard(PQueue* q) : p(q) { p->busy = true; }
    ~BusyGuard() { p->busy = false; }
};

// true if entry i must come out before entry j.
bool pq_before(Interp& I, PQueue* p, size_t i, size_t j) {
    const auto& a = p->heap[i];
    const auto& b = p->heap[j];
    if (is_nil(p->less)) {
        if (is_fixnum(a.prio) && is_fixnum(b.prio)) {
            if (a.prio != b.prio) return fixnum_value(a.prio) < fixnum_value(b.prio);
            return a.seq < b.seq;
        }
        int c = num_compare(I, a.prio, b.prio, "pq-push");
        return c != 0 ? c < 0 : a.seq < b.seq;
    }
    uint64_t sa = a.seq, sb = b.seq;
    Value pa = a.prio, pb = b.prio;   // rooted by the queue (which the caller's argument roots)
    if (truthy(fcall2(I, p->less, pa, pb))) return true;
    if (truthy(fcall2(I, p->less, pb, pa))) return false;
    return sa < sb;
}

void sift_up(Interp& I, PQueue* p, size_t i) {
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!pq_before(I, p, i, parent)) break;
        std::swap(p->heap[i], p->heap[parent]);
        i = parent;
    }
}

void sift_down(Interp& I, PQueue* p, size_t i) {
    size_t n = p->heap.size();
    for (;;) {
        size_t l = 2 * i + 1, best = i;
        if (l < n && pq_before(I, p, l, best)) best = l;
        if (l + 1 < n && pq_before(I, p, l + 1, best)) best = l + 1;
        if (best == i) break;
        std::swap(p->heap[i], p->heap[best]);
        i = best;
    }
}

// After a less function threw in mid-sift the heap order may be broken:
// rebuild it (Floyd) before the next use.
void ensure_ordered(Interp& I, PQueue* p) {
    if (!p->dirty) return;
    BusyGuard g(p);
    for (size_t i = p->heap.size() / 2; i-- > 0;) sift_down(I, p, i);
    p->dirty = false;
}

struct DirtyOnThrow {
    PQueue* p;
    bool ok = false;
    ~DirtyOnThrow() { if (!ok) p->dirty = true; }
};

Value bi_make_pqueue(Interp& I, Value* a, int n) {
    Value less = n > 0 ? optional_function(I, "make-pqueue", "the less function", a[0]) : NIL;
    PQueue* p = I.heap.make<PQueue>();
    p->less = less;
    return obj_value(p);
}
Value bi_pq_push(Interp& I, Value* a, int) {
    PQueue* p = arg_pq(I, "pq-push", a[0], true);
    if (is_nil(p->less) && !is_integer(a[2]))
        I.type_error("pq-push", "an integer priority (or give make-pqueue a less function)", a[2]);
    ensure_ordered(I, p);
    p->heap.push_back({a[2], p->next_seq++, a[1]});
    I.heap.note_bytes(sizeof(PQueue::Entry));
    BusyGuard g(p);
    DirtyOnThrow d{p};
    sift_up(I, p, p->heap.size() - 1);
    d.ok = true;
    return a[1];
}
Value bi_pq_pop(Interp& I, Value* a, int) {
    PQueue* p = arg_pq(I, "pq-pop", a[0], true);
    if (p->heap.empty()) I.error("pq-pop: the priority queue is empty");
    ensure_ordered(I, p);
    Root item(I, p->heap[0].item);
    p->heap[0] = p->heap.back();
    p->heap.pop_back();
    if (!p->heap.empty()) {
        BusyGuard g(p);
        DirtyOnThrow d{p};
        sift_down(I, p, 0);
        d.ok = true;
    }
    return item;
}
Value bi_pq_peek(Interp& I, Value* a, int) {
    PQueue* p = arg_pq(I, "pq-peek", a[0], true);
    ensure_ordered(I, p);
    return p->heap.empty() ? NIL : p->heap[0].item;
}
Value bi_pq_peek_priority(Interp& I, Value* a, int) {
    PQueue* p = arg_pq(I, "pq-peek-priority", a[0], true);
    ensure_ordered(I, p);
    return p->heap.empty() ? NIL : p->heap[0].prio;
}
Value bi_pq_length(Interp& I, Value* a, int) { return make_fixnum(int64_t(arg_pq(I, "pq-length", a[0], false)->heap.size())); }
Value bi_pq_empty_p(Interp& I, Value* a, int) { return bool_value(I, arg_pq(I, "pq-empty-p", a[0], false)->heap.empty()); }
Value bi_pq_clear(Interp& I, Value* a, int) {
    PQueue* p = arg_pq(I, "pq-clear", a[0], true);
    p->heap.clear();
    p->dirty = false;
    return a[0];
}
Value bi_pq_p(Interp& I, Value* a, int) { return bool_value(I, as_struct<PQueue>(a[0]) != nullptr); }

const BuiltinDef structures_lib[] = {
    {"make-queue", bi_make_queue, 0, 0, "(make-queue): an empty FIFO queue."},
    {"enqueue", bi_enqueue, 2, 2, "(enqueue q x): add x at the back of q; returns x."},
    {"dequeue", bi_dequeue, 1, 1, "(dequeue q): remove and return the front of q (error when empty)."},
    {"queue-peek", bi_queue_peek, 1, 1, "(queue-peek q): the front of q without removing it; nil when empty."},
    {"queue-length", bi_queue_length, 1, 1, "(queue-length q): the number of items in q."},
    {"queue-empty-p", bi_queue_empty_p, 1, 1, "(queue-empty-p q): t if q holds nothing."},
    {"queue-full-p", bi_queue_full_p, 1, 1, "(queue-full-p q): always nil (a queue grows)."},
    {"queue-clear", bi_queue_clear, 1, 1, "(queue-clear q): remove everything; returns q."},
    {"queue-to-list", bi_queue_to_list, 1, 1, "(queue-to-list q): the items, front first."},
    {"queue-p", bi_queue_p, 1, 1, "(queue-p x): t if x is a queue."},
    {"make-ring-buffer", bi_make_ring, 1, 1, "(make-ring-buffer capacity): an empty fixed-size FIFO."},
    {"ring-enqueue", bi_ring_enqueue, 2, 2, "(ring-enqueue r x): add x at the back (error when full); returns x."},
    {"ring-dequeue", bi_ring_dequeue, 1, 1, "(ring-dequeue r): remove and return the front (error when empty)."},
    {"ring-peek", bi_ring_peek, 1, 1, "(ring-peek r): the front without removing it; nil when empty."},
    {"ring-length", bi_ring_length, 1, 1, "(ring-length r): the number of items held."},
    {"ring-capacity", bi_ring_capacity, 1, 1, "(ring-capacity r): the fixed capacity."},
    {"ring-empty-p", bi_ring_empty_p, 1, 1, "(ring-empty-p r): t if r holds nothing."},
    {"ring-full-p", bi_ring_full_p, 1, 1, "(ring-full-p r): t if r holds capacity items."},
    {"ring-clear", bi_ring_clear, 1, 1, "(ring-clear r): remove everything; returns r."},
    {"ring-to-list", bi_ring_to_list, 1, 1, "(ring-to-list r): the items, front first."},
    {"ring-buffer-p", bi_ring_p, 1, 1, "(ring-buffer-p x): t if x is a ring buffer."},
    {"make-pqueue", bi_make_pqueue, 0, 1,
     "(make-pqueue [less-fn]): an empty priority queue; integer priorities, or any priorities ordered by (less-fn a b)."},
    {"pq-push", bi_pq_push, 3, 3, "(pq-push pq item priority): add item; returns item."},
    {"pq-pop", bi_pq_pop, 1, 1, "(pq-pop pq): remove and return the item of lowest priority (ties: first pushed first)."},
    {"pq-peek", bi_pq_peek, 1, 1, "(pq-peek pq): the item pq-pop would return; nil when empty."},
    {"pq-peek-priority", bi_pq_peek_priority, 1, 1, "(pq-peek-priority pq): the lowest priority; nil when empty."},
    {"pq-length", bi_pq_length, 1, 1, "(pq-length pq): the number of items."},
    {"pq-empty-p", bi_pq_empty_p, 1, 1, "(pq-empty-p pq): t if pq holds nothing."},
    {"pq-clear", bi_pq_clear, 1, 1, "(pq-clear pq): remove everything; returns pq."},
    {"pqueue-p", bi_pq_p, 1, 1, "(pqueue-p x): t if x is a priority queue."},
};

} // namespace

void open_structures(Interp& I) { register_builtins(I, structures_lib); }

} // namespace lipq
