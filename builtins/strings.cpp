// strings.cpp — strings and format.
#include "builtins.h"

#include "../interp/number.h"
#include "../interp/printer.h"

#include <algorithm>
#include <cctype>

namespace lipq {

// (format dest control args...) directives: ~a ~s ~d ~b ~o ~x (with an
// optional minimum width: ~5d pads on the left, ~5a on the right, ~5@a on the
// left), ~% newline,
// ~& fresh line, ~~ tilde.
std::string format_string(Interp& I, const std::string& ctl, const Value* args, int nargs, int out_column) {
    std::string out;
    int ai = 0;
    auto next = [&]() -> Value {
        if (ai >= nargs) I.error("format: not enough arguments for \"" + ctl + "\"");
        return args[ai++];
    };
    for (size_t i = 0; i < ctl.size(); i++) {
        char c = ctl[i];
        if (c != '~') { out += c; continue; }
        if (++i >= ctl.size()) I.error("format: ~ at the end of the control string");
        int width = -1;
        while (i < ctl.size() && std::isdigit(static_cast<unsigned char>(ctl[i]))) {
            width = (width < 0 ? 0 : width) * 10 + (ctl[i] - '0');
            i++;
        }
        bool at_sign = false;   // ~N@a: pad on the left (right-justify), as in Common Lisp
        if (i < ctl.size() && ctl[i] == '@') { at_sign = true; i++; }
        if (i >= ctl.size()) I.error("format: incomplete directive");
        char d = char(std::tolower(static_cast<unsigned char>(ctl[i])));
        std::string piece;
        bool left_pad = at_sign;
        switch (d) {
        case 'a': piece = princ_to_string(I, next()); break;
        case 's': piece = prin1_to_string(I, next()); break;
        case 'd': case 'b': case 'o': case 'x': {
            Value v = next();
            int radix = d == 'd' ? 10 : d == 'b' ? 2 : d == 'o' ? 8 : 16;
            piece = is_integer(v) ? integer_to_string(v, radix) : princ_to_string(I, v);
            left_pad = true;
            break;
        }
        case '%': out += '\n'; continue;
        case '&': {
            size_t nl = out.rfind('\n');
            bool at_start = out.empty() ? out_column == 0 : nl == out.size() - 1;
            if (!at_start) out += '\n';
            continue;
        }
        case '~': out += '~'; continue;
        default: I.error(std::string("format: unknown directive ~") + d);
        }
        if (width > 0 && int(piece.size()) < width) {
            std::string pad(size_t(width) - piece.size(), ' ');
            piece = left_pad ? pad + piece : piece + pad;
        }
        out += piece;
    }
    return out;
}

namespace {

Value bi_format(Interp& I, Value* a, int n) {
    std::string s = format_string(I, arg_string(I, "format", a[1]), a + 2, n - 2, is_nil(a[0]) ? 0 : I.out_column);
    if (is_nil(a[0])) return I.make_string(std::move(s));
    I.out(s);
    return NIL;
}

std::string as_text(Interp& I, Value v) {
    if (is_string(v)) return as_string(v)->s;
    return princ_to_string(I, v);
}

Value bi_concat(Interp& I, Value* a, int n) {
    std::string s;
    for (int i = 0; i < n; i++) s += as_text(I, a[i]);
    return I.make_string(std::move(s));
}

Value bi_substring(Interp& I, Value* a, int n) {
    const std::string& s = arg_string(I, "substring", a[0]);
    int64_t start = arg_index(I, "substring", a[1]);
    int64_t end = n > 2 && !is_nil(a[2]) ? arg_index(I, "substring", a[2]) : int64_t(s.size());
    if (start > end || end > int64_t(s.size()))
        I.error("substring: index out of range: " + std::to_string(start) + ".." + std::to_string(end) +
                " of a string of length " + std::to_string(s.size()));
    return I.make_string(s.substr(size_t(start), size_t(end - start)));
}

int compare_strings(Interp& I, const char* fn, Value* a) {
    std::string x = arg_string_designator(I, fn, a[0]), y = arg_string_designator(I, fn, a[1]);
    return x.compare(y);
}
Value bi_string_eq(Interp& I, Value* a, int) { return bool_value(I, compare_strings(I, "string=", a) == 0); }
Value bi_string_lt(Interp& I, Value* a, int) { return bool_value(I, compare_strings(I, "string<", a) < 0); }
Value bi_string_gt(Interp& I, Value* a, int) { return bool_value(I, compare_strings(I, "string>", a) > 0); }

Value bi_string(Interp& I, Value* a, int) { return I.make_string(as_text(I, a[0])); }

Value bi_string_upcase(Interp& I, Value* a, int) {
    std::string s = arg_string_designator(I, "string-upcase", a[0]);
    for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
    return I.make_string(std::move(s));
}
Value bi_string_downcase(Interp& I, Value* a, int) {
    std::string s = arg_string_designator(I, "string-downcase", a[0]);
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return I.make_string(std::move(s));
}
Value bi_string_length(Interp& I, Value* a, int) {
    return make_fixnum(int64_t(arg_string(I, "string-length", a[0]).size()));
}
// (char-code s i): the byte at index i; (code-char n): a one-byte string.
Value bi_char_code(Interp& I, Value* a, int n) {
    const std::string& s = arg_string(I, "char-code", a[0]);
    int64_t i = n > 1 ? arg_index(I, "char-code", a[1]) : 0;
    if (i >= int64_t(s.size())) I.error("char-code: index out of range: " + std::to_string(i));
    return make_fixnum(static_cast<unsigned char>(s[size_t(i)]));
}
Value bi_code_char(Interp& I, Value* a, int) {
    int64_t c = arg_fixnum(I, "code-char", a[0]);
    if (c < 0 || c > 255) I.error("code-char: not a byte: " + std::to_string(c));
    return I.make_string(std::string(1, char(c)));
}
Value bi_string_search(Interp& I, Value* a, int n) {
    const std::string& needle = arg_string(I, "string-search", a[0]);
    const std::string& hay = arg_string(I, "string-search", a[1]);
    int64_t start = n > 2 ? arg_index(I, "string-search", a[2]) : 0;
    size_t p = hay.find(needle, size_t(std::min<int64_t>(start, int64_t(hay.size()))));
    return p == std::string::npos ? NIL : make_fixnum(int64_t(p));
}
Value bi_split_string(Interp& I, Value* a, int n) {
    const std::string& s = arg_string(I, "split-string", a[0]);
    std::string sep = n > 1 ? arg_string(I, "split-string", a[1]) : " ";
    if (sep.empty()) I.error("split-string: empty separator");
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        size_t p = s.find(sep, start);
        parts.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
        if (p == std::string::npos) break;
        start = p + sep.size();
    }
    Root l(I, NIL);
    for (size_t i = parts.size(); i-- > 0;) {
        Value str = I.make_string(parts[i]);
        l = I.cons(str, l);
    }
    return l;
}
Value bi_string_join(Interp& I, Value* a, int n) {
    std::string sep = n > 1 ? arg_string(I, "string-join", a[1]) : "";
    std::string s;
    bool first = true;
    for (Value x = arg_list(I, "string-join", a[0]); is_pair(x); x = cdr(x)) {
        if (!first) s += sep;
        first = false;
        s += as_text(I, car(x));
    }
    return I.make_string(std::move(s));
}
Value bi_string_trim(Interp& I, Value* a, int) {
    std::string s = arg_string(I, "string-trim", a[0]);
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) b++;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) e--;
    return I.make_string(s.substr(b, e - b));
}

const BuiltinDef string_lib[] = {
    {"format", bi_format, 2, -1, "(format dest control args...): dest nil returns a string, t prints. ~a ~s ~d ~b ~o ~x ~% ~& ~~; ~Na pads to width N, ~N@a on the left."},
    {"concat", bi_concat, 0, -1, "(concat x ...): a string joining the printed (princ) forms of the arguments."},
    {"substring", bi_substring, 2, 3, "(substring s start [end]): the bytes from start below end."},
    {"string=", bi_string_eq, 2, 2, "(string= a b): t if the strings (or symbol names) are equal."},
    {"string<", bi_string_lt, 2, 2, "(string< a b): t if a sorts before b."},
    {"string>", bi_string_gt, 2, 2, "(string> a b): t if a sorts after b."},
    {"string", bi_string, 1, 1, "(string x): x as a string (princ form for non-strings)."},
    {"string-upcase", bi_string_upcase, 1, 1, "(string-upcase s): s in upper case (ASCII)."},
    {"string-downcase", bi_string_downcase, 1, 1, "(string-downcase s): s in lower case (ASCII)."},
    {"string-length", bi_string_length, 1, 1, "(string-length s): the length of s in bytes."},
    {"char-code", bi_char_code, 1, 2, "(char-code s [i]): the byte at index i (default 0) of s."},
    {"code-char", bi_code_char, 1, 1, "(code-char n): a one-byte string."},
    {"string-search", bi_string_search, 2, 3, "(string-search needle s [start]): index of needle in s, or nil."},
    {"split-string", bi_split_string, 1, 2, "(split-string s [sep]): the parts of s between separators (default a space)."},
    {"string-join", bi_string_join, 1, 2, "(string-join list [sep]): join the princ forms of the elements."},
    {"string-trim", bi_string_trim, 1, 1, "(string-trim s): s without leading and trailing white space."},
};

} // namespace

void open_strings(Interp& I) { register_builtins(I, string_lib); }

} // namespace lipq
