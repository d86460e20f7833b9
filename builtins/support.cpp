// support.cpp — helpers shared by the builtin files: argument checking and
// calling Lisp functions from C++.
#include "builtins.h"

#include "../interp/nodes.h"
#include "debug.h"

namespace lipq {

const std::string& arg_string(Interp& I, const char* fn, Value v) {
    if (!is_string(v)) I.type_error(fn, "a string", v);
    return as_string(v)->s;
}

std::string arg_string_designator(Interp& I, const char* fn, Value v) {
    if (is_string(v)) return as_string(v)->s;
    if (is_symbol(v)) return std::string(I.symbol_name(v));
    I.type_error(fn, "a string or symbol", v);
}

Value arg_symbol(Interp& I, const char* fn, Value v) {
    if (!is_symbol(v)) I.type_error(fn, "a symbol", v);
    return v;
}

Value arg_list(Interp& I, const char* fn, Value v) {
    if (!is_list(v)) I.type_error(fn, "a list", v);
    return v;
}

// A function, or a symbol whose global value is one (LISP 1.6 style 'car).
Value arg_function(Interp& I, const char* fn, Value v) {
    if (is_function(v)) return v;
    if (is_obj(v) && as_obj(v)->type == Type::Symbol && is_function(as_symbol(v)->value)) return v;
    I.type_error(fn, "a function", v);
}

Value call0(Interp& I, Value f) {
    StackMark m(I);
    Value* base = I.sp + 1;
    I.push(f);
    return invoke(I, base, 0, nullptr);
}

Value call1(Interp& I, Value f, Value x) {
    StackMark m(I);
    Value* base = I.sp + 1;
    I.push(f);
    I.push(x);
    return invoke(I, base, 1, nullptr);
}

Value call2(Interp& I, Value f, Value x, Value y) {
    StackMark m(I);
    Value* base = I.sp + 1;
    I.push(f);
    I.push(x);
    I.push(y);
    return invoke(I, base, 2, nullptr);
}

void open_extras(Interp&);   // builtins/extras.cpp

// The search family (builtins/search.cpp, structures.cpp, generators.cpp,
// exactcover.cpp, nqueens.cpp).
void open_search(Interp&);
void open_structures(Interp&);
void open_generators(Interp&);
void open_exactcover(Interp&);
void open_nqueens(Interp&);

void open_pprint(Interp&);   // builtins/pprint.cpp

// The game-tree solver and bit permutations (builtins/game.cpp, bitperm.cpp).
void open_game(Interp&);
void open_bitperm(Interp&);

void open_persist(Interp&);   // builtins/persist.cpp: save, restore

void open_all_builtins(Interp& I) {
    open_lists(I);
    open_numbers(I);
    open_symbols(I);
    open_strings(I);
    open_io(I);
    open_control(I);
    open_hash(I);
    open_vectors(I);
    open_game(I);
    open_bitperm(I);
    open_search(I);
    open_structures(I);
    open_generators(I);
    open_exactcover(I);
    open_nqueens(I);
    open_pprint(I);
    open_extras(I);
    open_debug(I);
    open_persist(I);
}

} // namespace lipq
