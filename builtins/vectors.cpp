// vectors.cpp — one-dimensional vectors of any values.
#include "builtins.h"

namespace lipq {

namespace {

Vector* arg_vector(Interp& I, const char* fn, Value v) {
    if (!is_vector(v)) I.type_error(fn, "a vector", v);
    return as_vector(v);
}
size_t arg_vindex(Interp& I, const char* fn, Vector* v, Value i) {
    int64_t k = arg_index(I, fn, i);
    if (size_t(k) >= v->items.size())
        I.error(std::string(fn) + ": index " + std::to_string(k) + " out of range for a vector of length " +
                std::to_string(v->items.size()));
    return size_t(k);
}

Value bi_vector(Interp& I, Value* a, int n) {
    Value v = I.make_vector(size_t(n), NIL);
    for (int i = 0; i < n; i++) as_vector(v)->items[size_t(i)] = a[i];
    return v;
}
Value bi_make_vector(Interp& I, Value* a, int n) {
    int64_t len = arg_index(I, "make-vector", a[0]);
    if (len > (int64_t(1) << 32)) I.error("make-vector: too large: " + std::to_string(len));
    return I.make_vector(size_t(len), n > 1 ? a[1] : NIL);
}
Value bi_aref(Interp& I, Value* a, int) {
    Vector* v = arg_vector(I, "aref", a[0]);
    return v->items[arg_vindex(I, "aref", v, a[1])];
}
Value bi_aset(Interp& I, Value* a, int) {
    Vector* v = arg_vector(I, "aset", a[0]);
    v->items[arg_vindex(I, "aset", v, a[1])] = a[2];
    return a[2];
}
Value bi_vector_length(Interp& I, Value* a, int) {
    return make_fixnum(int64_t(arg_vector(I, "vector-length", a[0])->items.size()));
}
Value bi_vector_to_list(Interp& I, Value* a, int) {
    Vector* v = arg_vector(I, "vector-to-list", a[0]);
    Value l = NIL;
    for (size_t i = v->items.size(); i-- > 0;) l = I.cons(v->items[i], l);
    return l;
}
Value bi_list_to_vector(Interp& I, Value* a, int) {
    int64_t n = list_length(I, a[0], "list-to-vector");
    Value v = I.make_vector(size_t(n), NIL);
    size_t i = 0;
    for (Value x = a[0]; is_pair(x); x = cdr(x)) as_vector(v)->items[i++] = car(x);
    return v;
}
Value bi_vector_push(Interp& I, Value* a, int) {
    Vector* v = arg_vector(I, "vector-push", a[1]);
    v->items.push_back(a[0]);
    I.heap.note_bytes(sizeof(Value));
    return make_fixnum(int64_t(v->items.size() - 1));
}
Value bi_vector_pop(Interp& I, Value* a, int) {
    Vector* v = arg_vector(I, "vector-pop", a[0]);
    if (v->items.empty()) I.error("vector-pop: empty vector");
    Value x = v->items.back();
    v->items.pop_back();
    return x;
}
Value bi_copy_vector(Interp& I, Value* a, int) {
    arg_vector(I, "copy-vector", a[0]);
    Value v = I.make_vector(0, NIL);
    as_vector(v)->items = as_vector(a[0])->items;
    I.heap.note_bytes(as_vector(v)->items.size() * sizeof(Value));
    return v;
}
Value bi_fill(Interp& I, Value* a, int) {
    Vector* v = arg_vector(I, "fill", a[0]);
    for (auto& x : v->items) x = a[1];
    return a[0];
}

const BuiltinDef vector_lib[] = {
    {"vector", bi_vector, 0, -1, "(vector x ...): a new vector of the arguments."},
    {"make-vector", bi_make_vector, 1, 2, "(make-vector n [fill]): a vector of n elements."},
    {"make-array", bi_make_vector, 1, 2, "(make-array n [fill]): a vector of n elements."},
    {"aref", bi_aref, 2, 2, "(aref v i): element i of v."},
    {"vref", bi_aref, 2, 2, "(vref v i): element i of v."},
    {"aset", bi_aset, 3, 3, "(aset v i x): set element i of v to x; returns x."},
    {"vset", bi_aset, 3, 3, "(vset v i x): set element i of v to x; returns x."},
    {"vector-length", bi_vector_length, 1, 1, "(vector-length v): the number of elements."},
    {"vector-to-list", bi_vector_to_list, 1, 1, "(vector-to-list v): the elements as a list."},
    {"list-to-vector", bi_list_to_vector, 1, 1, "(list-to-vector l): the elements as a vector."},
    {"vector-push", bi_vector_push, 2, 2, "(vector-push x v): append x to v; returns its index."},
    {"vector-pop", bi_vector_pop, 1, 1, "(vector-pop v): remove and return the last element."},
    {"copy-vector", bi_copy_vector, 1, 1, "(copy-vector v): a shallow copy."},
    {"fill", bi_fill, 2, 2, "(fill v x): set every element of v to x."},
};

} // namespace

void open_vectors(Interp& I) { register_builtins(I, vector_lib); }

} // namespace lipq
