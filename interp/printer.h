// printer.h — S-expressions to text, with labels for shared and cyclic structure.
//
// LIPQ style (the default): a label names a CELL. `$1:` stands just before
// the element the labelled cell holds — for a whole list just inside its
// opening parenthesis — and later references are `$1` (after a dot in cdr
// position). A circular list of a, b, c prints as ($1:a b c . $1); (list s s)
// with s = (1 2) prints as (($1:1 2) $1). Common Lisp style: #1= and #1#.
//
// With *print-shared* t every object reached twice is labelled (so printing
// and reading back preserves all sharing); with nil only what closes a cycle.
// Symbols, numbers and strings are never labelled. The printer never recurses
// on the C++ stack, so any structure prints.
#pragma once
#include "interp.h"

#include <cstdint>
#include <string>

namespace lipq {

struct PrintOptions {
    bool escape = true;          // prin1 (readable) rather than princ
    bool shared = true;          // label every shared object (else: only cycles)
    bool cl_labels = false;      // #n= / #n# instead of $n: / $n
    int64_t length = -1;         // *print-length*: elements per list (-1: all)
    int64_t level = -1;          // *print-level*: nesting depth (-1: all)
    size_t max_chars = SIZE_MAX; // stop (with "...") after this much output
    int base = 10;
    bool pretty = false;         // *print-pretty*: break long structures over lines
    int right_margin = 79;       // *print-right-margin*
    int start_column = 0;        // column the output starts at (for the layout)
    static PrintOptions from_interp(Interp& I);
};

void print_value(Interp& I, Value v, const PrintOptions& o, std::string& out);
std::string print_to_string(Interp& I, Value v, const PrintOptions& o);
std::string prin1_to_string(Interp& I, Value v);   // with the current settings
std::string princ_to_string(Interp& I, Value v);
// The pretty form (prin1 settings, line breaks within `width` columns, or
// *print-right-margin* when width <= 0). Reads back exactly as the flat form.
std::string pprint_to_string(Interp& I, Value v, int width = 0);

// Symbol names as prin1 writes them (|Foo| when needed).
std::string symbol_print_name(std::string_view name);

} // namespace lipq
