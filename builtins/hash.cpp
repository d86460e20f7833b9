// hash.cpp — hash tables keyed by eq (identity; integers by value) or equal
// (structure). Entries stay in insertion order, so iteration is deterministic.
#include "builtins.h"

#include <cstring>

namespace lipq {

namespace {

uint64_t mix(uint64_t x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

uint64_t bignum_hash(Value v) {
    std::string s = as_bignum(v)->n.str(16);
    return std::hash<std::string>()(s);
}

} // namespace

// Bounded walk: the first 64 nodes decide the hash (equal structures agree).
uint64_t equal_hash(Value v) {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    Value stack[64];
    int sp = 0, budget = 64;
    stack[sp++] = v;
    while (sp > 0 && budget-- > 0) {
        Value x = stack[--sp];
        uint64_t k;
        if (is_pair(x)) {
            k = is_quad(x) ? 0x51 : 0x43;
            if (sp < 62) { stack[sp++] = cdr(x); stack[sp++] = car(x); }
        } else if (is_string(x)) {
            k = std::hash<std::string>()(as_string(x)->s);
        } else if (is_bignum(x)) {
            k = bignum_hash(x);
        } else if (is_vector(x)) {
            auto& items = as_vector(x)->items;
            k = 0x56 + items.size();
            for (size_t i = items.size(); i-- > 0 && sp < 63;) stack[sp++] = items[i];
        } else {
            k = x.raw;
        }
        h = mix(h ^ k) + 0x9e3779b97f4a7c15ULL;
    }
    return h;
}

namespace {

uint64_t key_hash(HashTable* t, Value k) {
    if (t->equal_keys) return equal_hash(k);
    return is_bignum(k) ? bignum_hash(k) : mix(k.raw);
}
bool key_eq(HashTable* t, Value a, Value b) { return t->equal_keys ? equal_values(a, b) : eql(a, b); }

// Index slots hold entry numbers; -1 empty, -2 deleted.
int64_t find_slot(HashTable* t, Value k, bool* found) {
    *found = false;
    if (t->index.empty()) return -1;
    size_t mask = t->index.size() - 1;
    size_t i = key_hash(t, k) & mask;
    int64_t first_free = -1;
    for (size_t probes = 0; probes <= mask; probes++, i = (i + 1) & mask) {
        int32_t e = t->index[i];
        if (e == -1) return first_free >= 0 ? first_free : int64_t(i);
        if (e == -2) { if (first_free < 0) first_free = int64_t(i); continue; }
        if (key_eq(t, t->entries[size_t(e)].key, k)) { *found = true; return int64_t(i); }
    }
    return first_free;
}

void rebuild(HashTable* t, size_t cap) {
    // Compact the entries and re-index.
    std::vector<HashTable::Entry> live;
    live.reserve(t->count);
    for (auto& e : t->entries) if (e.live) live.push_back(e);
    t->entries.swap(live);
    t->index.assign(cap, -1);
    size_t mask = cap - 1;
    for (size_t n = 0; n < t->entries.size(); n++) {
        size_t i = key_hash(t, t->entries[n].key) & mask;
        while (t->index[i] != -1) i = (i + 1) & mask;
        t->index[i] = int32_t(n);
    }
}

HashTable* arg_table(Interp& I, const char* fn, Value v) {
    if (!is_hashtable(v)) I.type_error(fn, "a hash table", v);
    return as_hashtable(v);
}

} // namespace

Value hash_get(HashTable* t, Value k, Value deflt) {
    bool found;
    int64_t s = find_slot(t, k, &found);
    return found ? t->entries[size_t(t->index[size_t(s)])].value : deflt;
}

void hash_put(Interp& I, HashTable* t, Value k, Value v) {
    bool found;
    int64_t s = find_slot(t, k, &found);
    if (found) { t->entries[size_t(t->index[size_t(s)])].value = v; return; }
    bool regrow = (t->entries.size() + 1) * 4 >= t->index.size() * 3;
    size_t cap = 16;
    if (regrow)
        while (cap * 3 <= (t->count + 1) * 4 * 2) cap *= 2;
    // Growing the index or the entries may pass the heap limit: make room
    // first (this may collect, or raise "heap exhausted"), as for any other
    // allocation. Without this, filling a table with fixnums ran far past
    // any limit (nothing else allocated, so nothing checked).
    size_t more = regrow ? cap * sizeof(int32_t) + (t->count + 1) * sizeof(HashTable::Entry) : 0;
    if (t->entries.size() == t->entries.capacity())
        more += std::max<size_t>(t->entries.capacity(), 4) * sizeof(HashTable::Entry);
    if (more) {
        Root rt(I, obj_value(t)), rk(I, k), rv(I, v);
        I.heap.reserve(more);
    }
    if (regrow) {
        rebuild(t, cap);
        I.heap.note_bytes(cap * sizeof(int32_t));
        s = find_slot(t, k, &found);
    }
    t->index[size_t(s)] = int32_t(t->entries.size());
    t->entries.push_back({k, v, true});
    t->count++;
    I.heap.note_bytes(sizeof(HashTable::Entry));
}

bool hash_remove(HashTable* t, Value k) {
    bool found;
    int64_t s = find_slot(t, k, &found);
    if (!found) return false;
    int32_t e = t->index[size_t(s)];
    t->entries[size_t(e)].live = false;
    t->entries[size_t(e)].key = t->entries[size_t(e)].value = NIL;
    t->index[size_t(s)] = -2;
    t->count--;
    return true;
}

namespace {

// (make-hash-table ['equal]) or (make-hash-table :test 'equal)
Value bi_make_hash_table(Interp& I, Value* a, int n) {
    bool equal = false;
    for (int i = 0; i < n; i++) {
        Value x = a[i];
        if (is_symbol(x) && I.symbol_name(x) == ":test") continue;
        if (is_native(x)) x = I.intern(as_native(x)->name);
        if (is_symbol(x)) {
            auto name = I.symbol_name(x);
            if (name == "equal") equal = true;
            else if (name == "eq" || name == "eql") equal = false;
            else I.error("make-hash-table: the test must be eq, eql or equal");
        }
    }
    return obj_value(I.heap.make<HashTable>(equal));
}
Value bi_gethash(Interp& I, Value* a, int n) {
    return hash_get(arg_table(I, "gethash", a[1]), a[0], n > 2 ? a[2] : NIL);
}
Value bi_puthash(Interp& I, Value* a, int) {
    hash_put(I, arg_table(I, "puthash", a[2]), a[0], a[1]);
    return a[1];
}
Value bi_remhash(Interp& I, Value* a, int) {
    return bool_value(I, hash_remove(arg_table(I, "remhash", a[1]), a[0]));
}
Value bi_clrhash(Interp& I, Value* a, int) {
    HashTable* t = arg_table(I, "clrhash", a[0]);
    t->entries.clear();
    t->index.clear();
    t->count = 0;
    return a[0];
}
Value bi_hash_count(Interp& I, Value* a, int) {
    return make_fixnum(int64_t(arg_table(I, "hash-table-count", a[0])->count));
}
Value bi_hash_table_p(Interp& I, Value* a, int) { return bool_value(I, is_hashtable(a[0])); }
// (maphash f table): f on each key and value, in insertion order.
Value bi_maphash(Interp& I, Value* a, int) {
    HashTable* t = arg_table(I, "maphash", a[1]);
    for (size_t i = 0; i < t->entries.size(); i++) {
        if (!t->entries[i].live) continue;
        call2(I, a[0], t->entries[i].key, t->entries[i].value);
    }
    return NIL;
}
Value collect(Interp& I, HashTable* t, int what) {
    Root l(I, NIL);
    for (size_t i = t->entries.size(); i-- > 0;) {
        auto& e = t->entries[i];
        if (!e.live) continue;
        Value x = what == 0 ? e.key : what == 1 ? e.value : I.cons(e.key, e.value);
        l = I.cons(x, l);
    }
    return l;
}
Value bi_hash_keys(Interp& I, Value* a, int) { return collect(I, arg_table(I, "hash-table-keys", a[0]), 0); }
Value bi_hash_values(Interp& I, Value* a, int) { return collect(I, arg_table(I, "hash-table-values", a[0]), 1); }
Value bi_hash_alist(Interp& I, Value* a, int) { return collect(I, arg_table(I, "hash-table-alist", a[0]), 2); }
Value bi_sxhash(Interp& I, Value* a, int) {
    return make_fixnum(int64_t(equal_hash(a[0]) & uint64_t(FIXNUM_MAX)));
    (void)I;
}

const BuiltinDef hash_lib[] = {
    {"make-hash-table", bi_make_hash_table, 0, 2, "(make-hash-table ['equal]): a table keyed by eq (default) or equal."},
    {"gethash", bi_gethash, 2, 3, "(gethash key table [default]): the value stored under key."},
    {"puthash", bi_puthash, 3, 3, "(puthash key value table): store value under key; returns value."},
    {"remhash", bi_remhash, 2, 2, "(remhash key table): remove key; t if it was there."},
    {"clrhash", bi_clrhash, 1, 1, "(clrhash table): remove every entry."},
    {"hash-table-count", bi_hash_count, 1, 1, "(hash-table-count table): the number of entries."},
    {"hash-table-p", bi_hash_table_p, 1, 1, "(hash-table-p x): t if x is a hash table."},
    {"maphash", bi_maphash, 2, 2, "(maphash f table): call (f key value) for each entry, oldest first."},
    {"hash-table-keys", bi_hash_keys, 1, 1, "(hash-table-keys table): the keys, oldest first."},
    {"hash-table-values", bi_hash_values, 1, 1, "(hash-table-values table): the values, oldest first."},
    {"hash-table-alist", bi_hash_alist, 1, 1, "(hash-table-alist table): ((key . value) ...), oldest first."},
    {"sxhash", bi_sxhash, 1, 1, "(sxhash x): a hash code consistent with equal."},
};

} // namespace

void open_hash(Interp& I) { register_builtins(I, hash_lib); }

} // namespace lipq
