// builtins.h — how native functions are exposed to Lisp.
//
// Each file in builtins/ covers one area and ends with a registration table,
// as Lua's libraries do:
//
//     static const BuiltinDef list_lib[] = {
//         {"car", bi_car, 1, 1, "(car x): the first element of the pair x."},
//         ...
//     };
//     void open_lists(Interp& I) { register_builtins(I, list_lib); }
//
// A native receives its arguments on the value stack (already rooted) and the
// count; arity has been checked against min/max (max -1: any number) before
// the call. Errors: I.type_error("car", "a list", x) gives "car: not a list: x".
#pragma once
#include "../interp/interp.h"

#include <cstddef>

namespace lipq {

struct BuiltinDef {
    const char* name;
    NativeFn fn;
    int16_t min_args, max_args;
    const char* doc;
};

template <size_t N>
void register_builtins(Interp& I, const BuiltinDef (&defs)[N]) {
    for (const BuiltinDef& d : defs) I.defun_native(d.name, d.fn, d.min_args, d.max_args, d.doc);
}

// Argument helpers: each names the function in its error message.
int64_t arg_fixnum(Interp& I, const char* fn, Value v);        // a fixnum (errors on bignums)
int64_t arg_index(Interp& I, const char* fn, Value v);         // a fixnum >= 0
const std::string& arg_string(Interp& I, const char* fn, Value v);
std::string arg_string_designator(Interp& I, const char* fn, Value v);   // string or symbol
Value arg_symbol(Interp& I, const char* fn, Value v);
Value arg_list(Interp& I, const char* fn, Value v);
Value arg_function(Interp& I, const char* fn, Value v);

// Equality used by lists, hash tables and the search drivers.
bool eql(Value a, Value b);
bool equal_values(Value a, Value b);
uint64_t equal_hash(Value v);   // consistent with equal_values

// Calling Lisp from natives (arguments are pushed on the value stack).
Value call0(Interp& I, Value f);
Value call1(Interp& I, Value f, Value x);
Value call2(Interp& I, Value f, Value x, Value y);

// One opener per file.
void open_lists(Interp&);
void open_numbers(Interp&);
void open_symbols(Interp&);
void open_strings(Interp&);
void open_io(Interp&);
void open_control(Interp&);
void open_hash(Interp&);
void open_vectors(Interp&);
void open_all_builtins(Interp&);

} // namespace lipq
