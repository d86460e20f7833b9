// lists.cpp — pairs, quad cells, lists, equality, mapping and sorting.
//
// GC discipline here: a list being built is kept reachable either as an
// argument of the next cons (the heap roots those) or in a Root.
#include "builtins.h"

#include "../interp/nodes.h"
#include "../interp/number.h"

#include <algorithm>

namespace lipq {

namespace {

// ---- building helpers --------------------------------------------------------------

// Appends to a list under construction; the head is rooted.
struct ListBuilder {
    Interp& I;
    Root head;
    Value tail = NIL;
    explicit ListBuilder(Interp& in) : I(in), head(in, NIL) {}
    void add(Value v) {
        Value cell = I.cons(v, NIL);
        if (is_nil(head.get())) head = cell;
        else set_cdr(tail, cell);
        tail = cell;
    }
    Value get() const { return head.get(); }
};

Value check_list(Interp& I, const char* fn, Value v) {
    if (!is_list(v)) I.type_error(fn, "a list", v);
    return v;
}

// ---- car/cdr family ----------------------------------------------------------------

Value cxr(Interp& I, const char* name, const char* path, Value x) {
    // path: the letters between c and r, applied right to left
    size_t n = std::strlen(path);
    Value v = x;
    for (size_t i = n; i-- > 0;) {
        if (is_nil(v)) return NIL;
        if (!is_pair(v)) I.type_error(name, "a list", v);
        v = path[i] == 'a' ? car(v) : cdr(v);
    }
    return v;
}

#define CXR(fname, lname, path) \
    Value fname(Interp& I, Value* a, int) { return cxr(I, lname, path, a[0]); }
CXR(bi_car, "car", "a")
CXR(bi_cdr, "cdr", "d")
CXR(bi_caar, "caar", "aa")
CXR(bi_cadr, "cadr", "ad")
CXR(bi_cdar, "cdar", "da")
CXR(bi_cddr, "cddr", "dd")
CXR(bi_caaar, "caaar", "aaa")
CXR(bi_caadr, "caadr", "aad")
CXR(bi_cadar, "cadar", "ada")
CXR(bi_caddr, "caddr", "add")
CXR(bi_cdaar, "cdaar", "daa")
CXR(bi_cdadr, "cdadr", "dad")
CXR(bi_cddar, "cddar", "dda")
CXR(bi_cdddr, "cdddr", "ddd")
CXR(bi_cadddr, "cadddr", "addd")
CXR(bi_cddddr, "cddddr", "dddd")

Value bi_cons(Interp& I, Value* a, int) { return I.cons(a[0], a[1]); }

Value bi_qcons(Interp& I, Value* a, int) { return I.quad(a[0], a[1], a[2], a[3]); }

Value bi_cbr(Interp& I, Value* a, int) {
    if (!is_quad(a[0])) I.type_error("cbr", "a quad cell", a[0]);
    return cbr(a[0]);
}
Value bi_ccr(Interp& I, Value* a, int) {
    if (!is_quad(a[0])) I.type_error("ccr", "a quad cell", a[0]);
    return ccr(a[0]);
}
Value bi_rplaca(Interp& I, Value* a, int) {
    if (!is_pair(a[0])) I.type_error("rplaca", "a pair", a[0]);
    set_car(a[0], a[1]);
    return a[0];
}
Value bi_rplacd(Interp& I, Value* a, int) {
    if (!is_pair(a[0])) I.type_error("rplacd", "a pair", a[0]);
    set_cdr(a[0], a[1]);
    return a[0];
}
Value bi_rplacb(Interp& I, Value* a, int) {
    if (!is_quad(a[0])) I.type_error("rplacb", "a quad cell", a[0]);
    set_cbr(a[0], a[1]);
    return a[0];
}
Value bi_rplacc(Interp& I, Value* a, int) {
    if (!is_quad(a[0])) I.type_error("rplacc", "a quad cell", a[0]);
    set_ccr(a[0], a[1]);
    return a[0];
}

Value bi_list(Interp& I, Value* a, int n) { return list_from(I, a, size_t(n)); }

Value bi_list_star(Interp& I, Value* a, int n) {
    Value l = a[n - 1];
    for (int i = n - 1; i-- > 0;) l = I.cons(a[i], l);
    return l;
}

// ---- predicates --------------------------------------------------------------------

Value bi_consp(Interp& I, Value* a, int) { return bool_value(I, is_pair(a[0])); }
Value bi_quadp(Interp& I, Value* a, int) { return bool_value(I, is_quad(a[0])); }
Value bi_atom(Interp& I, Value* a, int) { return bool_value(I, !is_pair(a[0])); }
Value bi_listp(Interp& I, Value* a, int) { return bool_value(I, is_list(a[0])); }
Value bi_null(Interp& I, Value* a, int) { return bool_value(I, is_nil(a[0])); }
Value bi_symbolp(Interp& I, Value* a, int) { return bool_value(I, is_symbol(a[0])); }
Value bi_stringp(Interp& I, Value* a, int) { return bool_value(I, is_string(a[0])); }
Value bi_vectorp(Interp& I, Value* a, int) { return bool_value(I, is_vector(a[0])); }
Value bi_functionp(Interp& I, Value* a, int) { return bool_value(I, is_function(a[0])); }
Value bi_eq(Interp& I, Value* a, int) { return bool_value(I, a[0] == a[1]); }

} // namespace

bool eql(Value a, Value b) {
    if (a == b) return true;
    if (is_bignum(a) && is_bignum(b)) return as_bignum(a)->n == as_bignum(b)->n;
    return false;
}

// Structural equality, iterative (deep lists do not overflow the C++ stack).
// Like Common Lisp's, it does not terminate on circular structure.
namespace {
// The pending pairs of equal_values: a small buffer on the C++ stack, spilling
// to the heap only for wide or deep structure (no malloc for the common case).
struct EqualWork {
    std::pair<Value, Value> small[32];
    std::vector<std::pair<Value, Value>> big;
    size_t n = 0;
    bool empty() const { return n == 0 && big.empty(); }
    void push_back(std::pair<Value, Value> p) {
        if (n < 32) small[n++] = p;
        else big.push_back(p);
    }
    std::pair<Value, Value> pop() {
        if (!big.empty()) { auto p = big.back(); big.pop_back(); return p; }
        return small[--n];
    }
};
} // namespace

bool equal_values(Value a, Value b) {
    if (a == b) return true;
    // Fixnums, nil and immediates are equal only when identical.
    if (!is_heap(a) || !is_heap(b)) return false;
    EqualWork work;
    work.push_back({a, b});
    while (!work.empty()) {
        auto [x, y] = work.pop();
        for (;;) {
            if (x == y) break;
            if (is_pair(x) && is_pair(y)) {
                if (is_quad(x) != is_quad(y)) return false;
                if (is_quad(x)) {
                    work.push_back({cbr(x), cbr(y)});
                    work.push_back({ccr(x), ccr(y)});
                }
                work.push_back({car(x), car(y)});
                x = cdr(x);
                y = cdr(y);
                continue;
            }
            if (!is_obj(x) || !is_obj(y)) return false;
            Obj* ox = as_obj(x);
            Obj* oy = as_obj(y);
            if (ox->type != oy->type) return false;
            if (ox->type == Type::Bignum) {
                if (as_bignum(x)->n != as_bignum(y)->n) return false;
            } else if (ox->type == Type::String) {
                if (as_string(x)->s != as_string(y)->s) return false;
            } else if (ox->type == Type::Vector) {
                auto& vx = as_vector(x)->items;
                auto& vy = as_vector(y)->items;
                if (vx.size() != vy.size()) return false;
                for (size_t i = 0; i < vx.size(); i++) work.push_back({vx[i], vy[i]});
            } else {
                return false;
            }
            break;
        }
    }
    return true;
}

namespace {

Value bi_eql(Interp& I, Value* a, int) { return bool_value(I, eql(a[0], a[1])); }
Value bi_equal(Interp& I, Value* a, int) { return bool_value(I, equal_values(a[0], a[1])); }

// ---- list operations ----------------------------------------------------------------

Value bi_length(Interp& I, Value* a, int) {
    Value x = a[0];
    if (is_string(x)) return make_fixnum(int64_t(as_string(x)->s.size()));
    if (is_vector(x)) return make_fixnum(int64_t(as_vector(x)->items.size()));
    if (is_type(x, Type::HashTable)) return make_fixnum(int64_t(as_hashtable(x)->count));
    return make_fixnum(list_length(I, x, "length"));
}

Value bi_append(Interp& I, Value* a, int n) {
    if (n == 0) return NIL;
    ListBuilder b(I);
    for (int i = 0; i + 1 < n; i++) {
        check_list(I, "append", a[i]);
        for (Value x = a[i]; is_pair(x); x = cdr(x)) b.add(car(x));
    }
    if (is_nil(b.get())) return a[n - 1];
    set_cdr(b.tail, a[n - 1]);
    return b.get();
}

Value bi_nconc(Interp& I, Value* a, int n) {
    Value result = NIL, last = NIL;
    for (int i = 0; i < n; i++) {
        Value x = a[i];
        if (is_nil(x)) continue;
        if (!is_pair(x)) {
            if (i == n - 1) { if (is_nil(last)) return x; set_cdr(last, x); return result; }
            I.type_error("nconc", "a list", x);
        }
        if (is_nil(last)) result = x;
        else set_cdr(last, x);
        last = x;
        while (is_pair(cdr(last))) last = cdr(last);
    }
    return result;
}

Value bi_reverse(Interp& I, Value* a, int) {
    check_list(I, "reverse", a[0]);
    Value r = NIL;
    for (Value x = a[0]; is_pair(x); x = cdr(x)) r = I.cons(car(x), r);
    return r;
}

Value bi_nreverse(Interp& I, Value* a, int) {
    check_list(I, "nreverse", a[0]);
    return nreverse_list(a[0]);
}

Value bi_nthcdr(Interp& I, Value* a, int) {
    int64_t n = arg_index(I, "nthcdr", a[0]);
    Value x = a[1];
    for (; n > 0 && is_pair(x); --n) x = cdr(x);
    if (n > 0 && !is_nil(x)) I.type_error("nthcdr", "a list", a[1]);
    return n > 0 ? NIL : x;
}

Value bi_nth(Interp& I, Value* a, int) {
    int64_t n = arg_index(I, "nth", a[0]);
    Value x = a[1];
    for (; n > 0 && is_pair(x); --n) x = cdr(x);
    if (!is_pair(x)) {
        if (!is_nil(x)) I.type_error("nth", "a list", a[1]);
        return NIL;
    }
    return car(x);
}

Value bi_last(Interp& I, Value* a, int) {
    Value x = check_list(I, "last", a[0]);
    if (is_nil(x)) return NIL;
    while (is_pair(cdr(x))) x = cdr(x);
    return x;
}

Value bi_butlast(Interp& I, Value* a, int) {
    ListBuilder b(I);
    for (Value x = check_list(I, "butlast", a[0]); is_pair(x) && is_pair(cdr(x)); x = cdr(x)) b.add(car(x));
    return b.get();
}

Value bi_copy_list(Interp& I, Value* a, int) {
    ListBuilder b(I);
    Value x = check_list(I, "copy-list", a[0]);
    for (; is_pair(x); x = cdr(x)) b.add(car(x));
    if (!is_nil(b.get())) set_cdr(b.tail, x);
    return b.get();
}

// copy (LISP 1.6) / copy-tree: copies every pair, iteratively along cdr.
Value copy_tree(Interp& I, Value x, int depth) {
    if (!is_pair(x)) return x;
    if (depth > 100000) I.error("copy: structure nested too deeply");
    I.check_cstack();   // a small C stack (an embedder's thread) runs out sooner
    Root src(I, x);
    ListBuilder b(I);
    Value y = x;
    for (; is_cons(y); y = cdr(y)) {
        Root cur(I, y);
        Value c = copy_tree(I, car(y), depth + 1);
        b.add(c);
        y = cur.get();
    }
    if (is_quad(y)) {
        Root q(I, y);
        Value f[4];
        Root r0(I, copy_tree(I, car(q), depth + 1));
        Root r1(I, copy_tree(I, cbr(q), depth + 1));
        Root r2(I, copy_tree(I, ccr(q), depth + 1));
        Root r3(I, copy_tree(I, cdr(q), depth + 1));
        f[0] = r0; f[1] = r1; f[2] = r2; f[3] = r3;
        y = I.quad(f[0], f[1], f[2], f[3]);
    }
    if (is_nil(b.get())) return y;
    set_cdr(b.tail, y);
    return b.get();
}
Value bi_copy(Interp& I, Value* a, int) { return copy_tree(I, a[0], 0); }

using Test = bool (*)(Value, Value);
bool test_eq(Value a, Value b) { return a == b; }

Test pick_test(Interp& I, const char* fn, Value* a, int n, int idx, Test deflt) {
    if (n <= idx || is_nil(a[idx])) return deflt;
    Value t = a[idx];
    if (is_symbol(t)) t = I.global(t);   // 'eql as well as #'eql
    if (t == I.global(I.intern("eq"))) return test_eq;
    if (t == I.global(I.intern("eql"))) return eql;
    if (t == I.global(I.intern("equal"))) return equal_values;
    I.error(std::string(fn) + ": the test must be eq, eql or equal");
}

Value bi_member(Interp& I, Value* a, int n) {
    if (n == 2 && !is_heap(a[0])) {
        // A fixnum, nil or other immediate is equal only to itself: memq.
        for (Value x = check_list(I, "member", a[1]); is_pair(x); x = cdr(x))
            if (a[0] == car(x)) return x;
        return NIL;
    }
    Test t = pick_test(I, "member", a, n, 2, equal_values);
    for (Value x = check_list(I, "member", a[1]); is_pair(x); x = cdr(x))
        if (t(a[0], car(x))) return x;
    return NIL;
}
Value bi_memq(Interp& I, Value* a, int) {
    for (Value x = check_list(I, "memq", a[1]); is_pair(x); x = cdr(x))
        if (a[0] == car(x)) return x;
    return NIL;
}
Value bi_assoc(Interp& I, Value* a, int n) {
    Test t = pick_test(I, "assoc", a, n, 2, equal_values);
    for (Value x = check_list(I, "assoc", a[1]); is_pair(x); x = cdr(x))
        if (is_pair(car(x)) && t(a[0], car(car(x)))) return car(x);
    return NIL;
}
Value bi_assq(Interp& I, Value* a, int) {
    for (Value x = check_list(I, "assq", a[1]); is_pair(x); x = cdr(x))
        if (is_pair(car(x)) && a[0] == car(car(x))) return car(x);
    return NIL;
}
Value bi_rassoc(Interp& I, Value* a, int) {
    for (Value x = check_list(I, "rassoc", a[1]); is_pair(x); x = cdr(x))
        if (is_pair(car(x)) && equal_values(a[0], cdr(car(x)))) return car(x);
    return NIL;
}

Value bi_remove(Interp& I, Value* a, int n) {
    Test t = pick_test(I, "remove", a, n, 2, equal_values);
    ListBuilder b(I);
    for (Value x = check_list(I, "remove", a[1]); is_pair(x); x = cdr(x))
        if (!t(a[0], car(x))) b.add(car(x));
    return b.get();
}
Value bi_delete(Interp& I, Value* a, int n) {
    Test t = pick_test(I, "delete", a, n, 2, equal_values);
    Value head = check_list(I, "delete", a[1]);
    while (is_pair(head) && t(a[0], car(head))) head = cdr(head);
    for (Value x = head; is_pair(x) && is_pair(cdr(x));) {
        if (t(a[0], car(cdr(x)))) set_cdr(x, cdr(cdr(x)));
        else x = cdr(x);
    }
    return head;
}

Value subst(Interp& I, Value nu, Value old, Value tree, int depth) {
    if (equal_values(old, tree)) return nu;
    if (!is_cons(tree)) return tree;
    if (depth > 100000) I.error("subst: structure nested too deeply");
    I.check_cstack();
    Root t(I, tree), n(I, nu), o(I, old);
    Root a(I, subst(I, n, o, car(t), depth + 1));
    Value d = subst(I, n, o, cdr(t), depth + 1);
    return I.cons(a, d);
}
Value bi_subst(Interp& I, Value* a, int) { return subst(I, a[0], a[1], a[2], 0); }

Value bi_qq_append(Interp& I, Value* a, int n) { return bi_append(I, a, n); }

// ---- mapping ------------------------------------------------------------------------
// The function and lists stay on the value stack (args); each call pushes its
// own arguments above them.

// Call f with the current elements (cars) of the n lists at ls; returns false
// when any list is exhausted.
bool call_on_cars(Interp& I, Value f, Value* ls, int n, bool cells, Value* out) {
    for (int i = 0; i < n; i++)
        if (!is_pair(ls[i])) return false;
    StackMark m(I);
    Value* base = I.sp + 1;
    I.push(f);
    for (int i = 0; i < n; i++) I.push(cells ? ls[i] : car(ls[i]));
    *out = invoke(I, base, n, nullptr);
    for (int i = 0; i < n; i++) ls[i] = cdr(ls[i]);
    return true;
}

template <bool Cells, int Mode>   // Mode 0: collect (mapcar), 1: none (mapc), 2: nconc (mapcan)
Value map_generic(Interp& I, Value* a, int n) {
    const char* name = Mode == 0 ? (Cells ? "maplist" : "mapcar") : Mode == 1 ? (Cells ? "mapl" : "mapc") : (Cells ? "mapcon" : "mapcan");
    arg_function(I, name, a[0]);
    for (int i = 1; i < n; i++) check_list(I, name, a[i]);
    // Walk copies of the list pointers, kept on the stack.
    StackMark m(I);
    Value* ls = I.sp;
    for (int i = 1; i < n; i++) I.push(a[i]);
    ListBuilder b(I);
    Root last(I, NIL);
    Value v;
    while (call_on_cars(I, a[0], ls, n - 1, Cells, &v)) {
        if (Mode == 0) b.add(v);
        else if (Mode == 2 && !is_nil(v)) {
            if (!is_pair(v)) continue;
            if (is_nil(b.get())) b.head = v;
            else set_cdr(b.tail, v);
            Value t = v;
            while (is_pair(cdr(t))) t = cdr(t);
            b.tail = t;
        }
    }
    return Mode == 1 ? a[1] : b.get();
}

Value bi_mapcar(Interp& I, Value* a, int n) { return map_generic<false, 0>(I, a, n); }
Value bi_mapc(Interp& I, Value* a, int n) { return map_generic<false, 1>(I, a, n); }
Value bi_mapcan(Interp& I, Value* a, int n) { return map_generic<false, 2>(I, a, n); }
Value bi_maplist(Interp& I, Value* a, int n) { return map_generic<true, 0>(I, a, n); }
Value bi_mapl(Interp& I, Value* a, int n) { return map_generic<true, 1>(I, a, n); }
Value bi_mapcon(Interp& I, Value* a, int n) { return map_generic<true, 2>(I, a, n); }

// (reduce f list [initial])
Value bi_reduce(Interp& I, Value* a, int n) {
    arg_function(I, "reduce", a[0]);
    Value l = check_list(I, "reduce", a[1]);
    Root acc(I, NIL);
    if (n > 2) acc = a[2];
    else if (is_nil(l)) return call0(I, a[0]);
    else { acc = car(l); l = cdr(l); }
    Root rest(I, l);
    while (is_pair(rest.get())) {
        acc = call2(I, a[0], acc, car(rest));
        rest = cdr(rest);
    }
    return acc;
}
template <bool Keep>
Value filter(Interp& I, Value* a, const char* name) {
    arg_function(I, name, a[0]);
    ListBuilder b(I);
    Root rest(I, check_list(I, name, a[1]));
    while (is_pair(rest.get())) {
        Value x = car(rest);
        if (truthy(call1(I, a[0], x)) == Keep) b.add(car(rest));
        rest = cdr(rest);
    }
    return b.get();
}
Value bi_remove_if(Interp& I, Value* a, int) { return filter<false>(I, a, "remove-if"); }
Value bi_remove_if_not(Interp& I, Value* a, int) { return filter<true>(I, a, "remove-if-not"); }

Value bi_every(Interp& I, Value* a, int n) {
    arg_function(I, "every", a[0]);
    StackMark m(I);
    Value* ls = I.sp;
    for (int i = 1; i < n; i++) I.push(check_list(I, "every", a[i]));
    Value v = I.sym.t;
    Value r;
    while (call_on_cars(I, a[0], ls, n - 1, false, &r)) {
        if (!truthy(r)) return NIL;
        v = r;
    }
    return v;
}
Value bi_some(Interp& I, Value* a, int n) {
    arg_function(I, "some", a[0]);
    StackMark m(I);
    Value* ls = I.sp;
    for (int i = 1; i < n; i++) I.push(check_list(I, "some", a[i]));
    Value r;
    while (call_on_cars(I, a[0], ls, n - 1, false, &r))
        if (truthy(r)) return r;
    return NIL;
}

Value bi_find_if(Interp& I, Value* a, int) {
    arg_function(I, "find-if", a[0]);
    Root rest(I, check_list(I, "find-if", a[1]));
    while (is_pair(rest.get())) {
        if (truthy(call1(I, a[0], car(rest)))) return car(rest);
        rest = cdr(rest);
    }
    return NIL;
}
Value bi_count_if(Interp& I, Value* a, int) {
    arg_function(I, "count-if", a[0]);
    Root rest(I, check_list(I, "count-if", a[1]));
    int64_t k = 0;
    while (is_pair(rest.get())) {
        if (truthy(call1(I, a[0], car(rest)))) k++;
        rest = cdr(rest);
    }
    return make_fixnum(k);
}
Value bi_position(Interp& I, Value* a, int) {
    int64_t i = 0;
    for (Value x = check_list(I, "position", a[1]); is_pair(x); x = cdr(x), i++)
        if (equal_values(a[0], car(x))) return make_fixnum(i);
    return NIL;
}
Value bi_count(Interp& I, Value* a, int) {
    int64_t k = 0;
    for (Value x = check_list(I, "count", a[1]); is_pair(x); x = cdr(x))
        if (equal_values(a[0], car(x))) k++;
    return make_fixnum(k);
}

// (sort list predicate): a stable merge sort. The elements are copied into a
// vector (rooted on the value stack), sorted there, and written back into the
// list's own cells, so the list is sorted in place as in Common Lisp.
Value bi_sort(Interp& I, Value* a, int) {
    arg_function(I, "sort", a[1]);
    Value l = a[0];
    bool is_vec = is_vector(l);
    if (!is_vec) check_list(I, "sort", l);
    int64_t n = is_vec ? int64_t(as_vector(l)->items.size()) : list_length(I, l, "sort");
    if (n < 2) return l;
    Value src = I.make_vector(size_t(n), NIL);
    I.push(src);
    Value tmp = I.make_vector(size_t(n), NIL);
    I.push(tmp);
    {
        auto& s = as_vector(src)->items;
        if (is_vec) s = as_vector(l)->items;
        else { size_t i = 0; for (Value x = l; is_pair(x); x = cdr(x)) s[i++] = car(x); }
    }
    // Bottom-up merge sort between the two vectors (indices only: the
    // predicate may allocate, and both vectors stay rooted).
    Value from = src, to = tmp;
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                Value x = as_vector(from)->items[size_t(i)], y = as_vector(from)->items[size_t(j)];
                // Take from the right only when right < left (stability).
                if (truthy(call2(I, a[1], y, x))) { as_vector(to)->items[size_t(k++)] = y; j++; }
                else { as_vector(to)->items[size_t(k++)] = x; i++; }
            }
            while (i < mid) as_vector(to)->items[size_t(k++)] = as_vector(from)->items[size_t(i++)];
            while (j < hi) as_vector(to)->items[size_t(k++)] = as_vector(from)->items[size_t(j++)];
        }
        std::swap(from, to);
    }
    auto& sorted = as_vector(from)->items;
    I.sp -= 2;
    if (is_vec) { as_vector(l)->items = sorted; return l; }
    size_t i = 0;
    for (Value x = l; is_pair(x); x = cdr(x)) set_car(x, sorted[i++]);
    return l;
}

Value bi_iota(Interp& I, Value* a, int n) {
    // (iota count [start [step]])
    int64_t count = arg_index(I, "iota", a[0]);
    int64_t start = n > 1 ? arg_fixnum(I, "iota", a[1]) : 0;
    int64_t step = n > 2 ? arg_fixnum(I, "iota", a[2]) : 1;
    Value l = NIL;
    for (int64_t i = count; i-- > 0;) l = I.cons(make_fixnum(start + i * step), l);
    return l;
}

Value bi_acons(Interp& I, Value* a, int) {
    Value p = I.cons(a[0], a[1]);
    return I.cons(p, a[2]);
}

const BuiltinDef list_lib[] = {
    {"car", bi_car, 1, 1, "(car x): the first element of the pair x; (car nil) is nil."},
    {"cdr", bi_cdr, 1, 1, "(cdr x): the rest of the pair x; (cdr nil) is nil."},
    {"caar", bi_caar, 1, 1, "(caar x) = (car (car x))."},
    {"cadr", bi_cadr, 1, 1, "(cadr x) = (car (cdr x))."},
    {"cdar", bi_cdar, 1, 1, "(cdar x) = (cdr (car x))."},
    {"cddr", bi_cddr, 1, 1, "(cddr x) = (cdr (cdr x))."},
    {"caaar", bi_caaar, 1, 1, "(caaar x)."},
    {"caadr", bi_caadr, 1, 1, "(caadr x)."},
    {"cadar", bi_cadar, 1, 1, "(cadar x)."},
    {"caddr", bi_caddr, 1, 1, "(caddr x) = (car (cddr x))."},
    {"cdaar", bi_cdaar, 1, 1, "(cdaar x)."},
    {"cdadr", bi_cdadr, 1, 1, "(cdadr x)."},
    {"cddar", bi_cddar, 1, 1, "(cddar x)."},
    {"cdddr", bi_cdddr, 1, 1, "(cdddr x)."},
    {"cadddr", bi_cadddr, 1, 1, "(cadddr x): the fourth element."},
    {"cddddr", bi_cddddr, 1, 1, "(cddddr x)."},
    {"cons", bi_cons, 2, 2, "(cons a d): a new pair."},
    {"qcons", bi_qcons, 4, 4, "(qcons a b c d): a new quad cell with car a, cbr b, ccr c, cdr d."},
    {"cbr", bi_cbr, 1, 1, "(cbr q): the second field of the quad cell q."},
    {"ccr", bi_ccr, 1, 1, "(ccr q): the third field of the quad cell q."},
    {"rplaca", bi_rplaca, 2, 2, "(rplaca x v): set the car of x to v; returns x."},
    {"rplacd", bi_rplacd, 2, 2, "(rplacd x v): set the cdr of x to v; returns x."},
    {"rplacb", bi_rplacb, 2, 2, "(rplacb q v): set the cbr of the quad q to v; returns q."},
    {"rplacc", bi_rplacc, 2, 2, "(rplacc q v): set the ccr of the quad q to v; returns q."},
    {"list", bi_list, 0, -1, "(list x ...): a new list of the arguments."},
    {"list*", bi_list_star, 1, -1, "(list* a ... tail): like list, the last argument being the tail."},
    {"consp", bi_consp, 1, 1, "(consp x): t if x is a pair (cons or quad cell)."},
    {"quadp", bi_quadp, 1, 1, "(quadp x): t if x is a quad cell."},
    {"atom", bi_atom, 1, 1, "(atom x): t if x is not a pair."},
    {"listp", bi_listp, 1, 1, "(listp x): t if x is nil or a pair."},
    {"null", bi_null, 1, 1, "(null x): t if x is nil."},
    {"not", bi_null, 1, 1, "(not x): t if x is nil."},
    {"symbolp", bi_symbolp, 1, 1, "(symbolp x): t if x is a symbol (nil included)."},
    {"stringp", bi_stringp, 1, 1, "(stringp x): t if x is a string."},
    {"vectorp", bi_vectorp, 1, 1, "(vectorp x): t if x is a vector."},
    {"functionp", bi_functionp, 1, 1, "(functionp x): t if x can be called."},
    {"eq", bi_eq, 2, 2, "(eq a b): t if a and b are the same object (fixnums: the same number)."},
    {"eql", bi_eql, 2, 2, "(eql a b): eq, or equal integers."},
    {"equal", bi_equal, 2, 2, "(equal a b): structural equality of lists, vectors, strings, numbers."},
    {"length", bi_length, 1, 1, "(length x): elements of a list or vector, characters (bytes) of a string."},
    {"append", bi_append, 0, -1, "(append l ...): a new list of the elements of the lists; shares the last."},
    {"nconc", bi_nconc, 0, -1, "(nconc l ...): destructively concatenate the lists."},
    {"reverse", bi_reverse, 1, 1, "(reverse l): a new list in reverse order."},
    {"nreverse", bi_nreverse, 1, 1, "(nreverse l): reverse l destructively."},
    {"nth", bi_nth, 2, 2, "(nth n l): element n (from 0) of l, or nil."},
    {"nthcdr", bi_nthcdr, 2, 2, "(nthcdr n l): l after n cdrs."},
    {"last", bi_last, 1, 1, "(last l): the last pair of l."},
    {"butlast", bi_butlast, 1, 1, "(butlast l): a copy of l without its last element."},
    {"copy-list", bi_copy_list, 1, 1, "(copy-list l): a copy of the spine of l."},
    {"copy", bi_copy, 1, 1, "(copy x): a copy of every pair in x (LISP 1.6)."},
    {"copy-tree", bi_copy, 1, 1, "(copy-tree x): a copy of every pair in x."},
    {"member", bi_member, 2, 3, "(member x l [test]): the tail of l starting with an element equal to x."},
    {"memq", bi_memq, 2, 2, "(memq x l): the tail of l starting with x (eq)."},
    {"assoc", bi_assoc, 2, 3, "(assoc key alist [test]): the first pair whose car is equal to key."},
    {"assq", bi_assq, 2, 2, "(assq key alist): the first pair whose car is eq to key."},
    {"rassoc", bi_rassoc, 2, 2, "(rassoc v alist): the first pair whose cdr is equal to v."},
    {"remove", bi_remove, 2, 3, "(remove x l [test]): a copy of l without the elements equal to x."},
    {"delete", bi_delete, 2, 3, "(delete x l [test]): l without the elements equal to x, destructively."},
    {"subst", bi_subst, 3, 3, "(subst new old tree): a copy of tree with new for every old (equal)."},
    {"%qq-append", bi_qq_append, 0, -1, "Backquote's append."},
    {"mapcar", bi_mapcar, 2, -1, "(mapcar f l ...): the list of (f x ...) for successive elements."},
    {"mapc", bi_mapc, 2, -1, "(mapc f l ...): call f on successive elements; returns the first list."},
    {"mapcan", bi_mapcan, 2, -1, "(mapcan f l ...): like mapcar, the results joined with nconc."},
    {"maplist", bi_maplist, 2, -1, "(maplist f l ...): the list of (f tail ...) for successive tails."},
    {"mapl", bi_mapl, 2, -1, "(mapl f l ...): call f on successive tails."},
    {"mapcon", bi_mapcon, 2, -1, "(mapcon f l ...): like maplist, the results joined with nconc."},
    {"reduce", bi_reduce, 2, 3, "(reduce f l [init]): combine the elements left to right with f."},
    {"remove-if", bi_remove_if, 2, 2, "(remove-if p l): the elements for which p is false."},
    {"remove-if-not", bi_remove_if_not, 2, 2, "(remove-if-not p l): the elements for which p is true."},
    {"filter", bi_remove_if_not, 2, 2, "(filter p l): the elements for which p is true."},
    {"every", bi_every, 2, -1, "(every p l ...): true if p holds for all elements."},
    {"some", bi_some, 2, -1, "(some p l ...): the first true value of p on the elements."},
    {"find-if", bi_find_if, 2, 2, "(find-if p l): the first element satisfying p."},
    {"count-if", bi_count_if, 2, 2, "(count-if p l): how many elements satisfy p."},
    {"position", bi_position, 2, 2, "(position x l): the index of the first element equal to x."},
    {"count", bi_count, 2, 2, "(count x l): how many elements are equal to x."},
    {"sort", bi_sort, 2, 2, "(sort seq less): sort a list or vector in place, stably, by the predicate."},
    {"iota", bi_iota, 1, 3, "(iota n [start [step]]): the list start, start+step, ... (n elements)."},
    {"acons", bi_acons, 3, 3, "(acons key value alist): alist with (key . value) in front."},
};

} // namespace

void open_lists(Interp& I) { register_builtins(I, list_lib); }

} // namespace lipq
