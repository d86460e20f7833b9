// symbols.cpp — symbols, property lists, global values.
#include "builtins.h"

#include "../interp/printer.h"

namespace lipq {

namespace {

Value bi_gensym(Interp& I, Value* a, int n) {
    std::string prefix = n > 0 ? arg_string_designator(I, "gensym", a[0]) : "g";
    return I.gensym(prefix);
}
Value bi_make_symbol(Interp& I, Value* a, int) {
    return obj_value(I.heap.make<Symbol>(arg_string(I, "make-symbol", a[0])));
}
Value bi_intern(Interp& I, Value* a, int) { return I.intern(arg_string_designator(I, "intern", a[0])); }
Value bi_symbol_name(Interp& I, Value* a, int) {
    return I.make_string(std::string(I.symbol_name(arg_symbol(I, "symbol-name", a[0]))));
}
Value bi_symbol_value(Interp& I, Value* a, int) {
    Value v = I.global(arg_symbol(I, "symbol-value", a[0]));
    if (v == UNBOUND) I.error("symbol-value: unbound variable: " + I.describe(a[0]));
    return v;
}
Value bi_boundp(Interp& I, Value* a, int) {
    Value s = arg_symbol(I, "boundp", a[0]);
    return bool_value(I, is_nil(s) || I.global(s) != UNBOUND);
}
Value bi_set(Interp& I, Value* a, int) {
    I.set_global(arg_symbol(I, "set", a[0]), a[1]);
    return a[1];
}
Value bi_makunbound(Interp& I, Value* a, int) {
    Value s = arg_symbol(I, "makunbound", a[0]);
    if (is_nil(s) || (as_symbol(s)->flags & SYM_CONSTANT)) I.error("makunbound: cannot unbind a constant");
    as_symbol(s)->value = UNBOUND;
    return s;
}
Value bi_get(Interp& I, Value* a, int) { return I.get_prop(arg_symbol(I, "get", a[0]), a[1]); }
// LISP 1.6 argument order: (putprop symbol value indicator)
Value bi_putprop(Interp& I, Value* a, int) {
    I.put_prop(arg_symbol(I, "putprop", a[0]), a[2], a[1]);
    return a[1];
}
// (%put symbol indicator value): the order setf uses.
Value bi_put(Interp& I, Value* a, int) {
    I.put_prop(arg_symbol(I, "put", a[0]), a[1], a[2]);
    return a[2];
}
Value bi_remprop(Interp& I, Value* a, int) {
    Value& pl = I.plist_ref(arg_symbol(I, "remprop", a[0]));
    Value prev = NIL;
    for (Value p = pl; is_pair(p) && is_pair(cdr(p)); prev = cdr(p), p = cdr(cdr(p))) {
        if (car(p) == a[1]) {
            if (is_nil(prev)) pl = cdr(cdr(p));
            else set_cdr(prev, cdr(cdr(p)));
            return I.sym.t;
        }
    }
    return NIL;
}
Value bi_plist(Interp& I, Value* a, int) { return I.plist_ref(arg_symbol(I, "plist", a[0])); }
Value bi_setplist(Interp& I, Value* a, int) {
    I.plist_ref(arg_symbol(I, "setplist", a[0])) = a[1];
    return a[1];
}
Value bi_keywordp(Interp& I, Value* a, int) {
    return bool_value(I, is_obj(a[0]) && as_obj(a[0])->type == Type::Symbol && (as_obj(a[0])->flags & SYM_KEYWORD));
}
Value bi_make_constant(Interp& I, Value* a, int) {
    Value s = arg_symbol(I, "%make-constant", a[0]);
    if (!is_nil(s)) as_symbol(s)->flags |= SYM_CONSTANT;
    return s;
}
Value bi_special(Interp& I, Value* a, int) {
    Value s = arg_symbol(I, "%declare-special", a[0]);
    if (!is_nil(s)) as_symbol(s)->flags |= SYM_SPECIAL;
    return s;
}

// (explode x): the characters of x's printed form as one-letter symbols.
Value bi_explode(Interp& I, Value* a, int) {
    std::string s = prin1_to_string(I, a[0]);
    Value l = NIL;
    // Walk UTF-8 characters backwards.
    size_t end = s.size();
    while (end > 0) {
        size_t start = end - 1;
        while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) start--;
        Value sym = I.intern(s.substr(start, end - start));
        l = I.cons(sym, l);
        end = start;
    }
    return l;
}
// (implode list): a symbol whose name is the concatenated names (or strings, or digits).
Value bi_implode(Interp& I, Value* a, int) {
    std::string s;
    for (Value x = arg_list(I, "implode", a[0]); is_pair(x); x = cdr(x)) {
        Value c = car(x);
        if (is_string(c)) s += as_string(c)->s;
        else if (is_symbol(c)) s += I.symbol_name(c);
        else s += princ_to_string(I, c);
    }
    return I.intern(s);
}

const BuiltinDef symbol_lib[] = {
    {"gensym", bi_gensym, 0, 1, "(gensym [prefix]): a new uninterned symbol."},
    {"make-symbol", bi_make_symbol, 1, 1, "(make-symbol name): a new uninterned symbol named name."},
    {"intern", bi_intern, 1, 1, "(intern name): the symbol with that name (created if needed)."},
    {"symbol-name", bi_symbol_name, 1, 1, "(symbol-name s): the name of s as a string."},
    {"symbol-value", bi_symbol_value, 1, 1, "(symbol-value s): the global (or current dynamic) value of s."},
    {"boundp", bi_boundp, 1, 1, "(boundp s): t if s has a global value."},
    {"set", bi_set, 2, 2, "(set s v): set the global value of the symbol s."},
    {"makunbound", bi_makunbound, 1, 1, "(makunbound s): remove the global value of s."},
    {"get", bi_get, 2, 2, "(get s indicator): the property of s under indicator, or nil."},
    {"putprop", bi_putprop, 3, 3, "(putprop s value indicator): set a property (LISP 1.6 order); returns value."},
    {"put", bi_put, 3, 3, "(put s indicator value): set a property; returns value."},
    {"remprop", bi_remprop, 2, 2, "(remprop s indicator): remove a property; t if it was there."},
    {"plist", bi_plist, 1, 1, "(plist s): the property list of s."},
    {"symbol-plist", bi_plist, 1, 1, "(symbol-plist s): the property list of s."},
    {"setplist", bi_setplist, 2, 2, "(setplist s l): replace the property list of s."},
    {"keywordp", bi_keywordp, 1, 1, "(keywordp x): t if x is a keyword (:name)."},
    {"%make-constant", bi_make_constant, 1, 1, "Internal: mark a symbol constant (defconstant)."},
    {"%declare-special", bi_special, 1, 1, "Internal: mark a symbol special (defvar)."},
    {"explode", bi_explode, 1, 1, "(explode x): the characters of x's printed form, as symbols."},
    {"implode", bi_implode, 1, 1, "(implode l): the symbol named by joining the elements of l."},
};

} // namespace

void open_symbols(Interp& I) { register_builtins(I, symbol_lib); }

} // namespace lipq
