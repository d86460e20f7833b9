// pprint.cpp — the pretty printer and printer settings exposed to Lisp.
//
// (pprint x [width])            the pretty form of x on a fresh line, then a new line
// (pprint-to-string x [width])  the same text as a string (no new lines around it)
// *print-right-margin*          the default width (79)
//
// The pretty form obeys *print-shared*, *print-labels*, *print-length* and
// *print-level* like prin1, and only turns spaces between elements into line
// breaks, so it reads back to the same structure as the flat form.
#include "builtins.h"

#include "../interp/printer.h"

namespace lipq {

namespace {

int pprint_width(Interp& I, const char* fn, Value* a, int n) {
    if (n < 2 || is_nil(a[1])) return 0;
    int64_t w = arg_fixnum(I, fn, a[1]);
    if (w < 1) I.error(std::string(fn) + ": the width must be positive");
    return int(std::min<int64_t>(w, 1 << 20));
}

Value bi_pprint(Interp& I, Value* a, int n) {
    std::string s = pprint_to_string(I, a[0], pprint_width(I, "pprint", a, n));
    if (I.out_column != 0) I.out("\n");
    s += '\n';
    I.out(s);
    return NIL;
}

Value bi_pprint_to_string(Interp& I, Value* a, int n) {
    return I.make_string(pprint_to_string(I, a[0], pprint_width(I, "pprint-to-string", a, n)));
}

const BuiltinDef pprint_lib[] = {
    {"pprint", bi_pprint, 1, 2,
     "(pprint x [width]): write x readably on a fresh line, broken over lines within width "
     "(default *print-right-margin*), then a new line; returns nil."},
    {"pprint-to-string", bi_pprint_to_string, 1, 2,
     "(pprint-to-string x [width]): what pprint would write, without the surrounding new lines."},
};

} // namespace

void open_pprint(Interp& I) {
    register_builtins(I, pprint_lib);
    Value m = I.intern("*print-right-margin*");
    as_symbol(m)->flags |= SYM_SPECIAL;
    if (as_symbol(m)->value == UNBOUND) as_symbol(m)->value = make_fixnum(79);
}

} // namespace lipq
