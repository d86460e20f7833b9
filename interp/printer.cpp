// printer.cpp — the printer. See printer.h for the notations.
//
// Two passes. The first finds which containers (pairs, quads, vectors) need
// labels: in shared mode, those reached more than once; in cycle mode, the
// targets of back edges of a depth-first walk in printing order (every cycle
// has one). Both walks use an explicit stack. The second pass prints from an
// explicit task stack; label numbers are given in order of first appearance.
#include "printer.h"

#include "compiler.h"
#include "number.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <vector>

namespace lipq {

static int right_margin_setting(Interp& I) {
    Value m = I.global(I.intern("*print-right-margin*"));
    if (is_fixnum(m) && fixnum_value(m) > 0) return int(std::min<int64_t>(fixnum_value(m), 1 << 20));
    return 79;
}

PrintOptions PrintOptions::from_interp(Interp& I) {
    PrintOptions o;
    o.shared = truthy(I.global(I.sym.print_shared));
    o.cl_labels = I.global(I.sym.print_labels) == I.sym.cl;
    Value len = I.global(I.sym.print_length), lev = I.global(I.sym.print_level);
    if (is_fixnum(len) && fixnum_value(len) >= 0) o.length = fixnum_value(len);
    if (is_fixnum(lev) && fixnum_value(lev) >= 0) o.level = fixnum_value(lev);
    o.pretty = truthy(I.global(I.sym.print_pretty));
    if (o.pretty) o.right_margin = right_margin_setting(I);
    Value b = I.global(I.sym.print_base);
    if (is_fixnum(b) && fixnum_value(b) >= 2 && fixnum_value(b) <= 36) o.base = int(fixnum_value(b));
    return o;
}

std::string symbol_print_name(std::string_view name) {
    bool needs_bars = name.empty();
    bool maybe_number = !name.empty();
    size_t digits = 0;
    for (size_t i = 0; i < name.size(); i++) {
        unsigned char c = static_cast<unsigned char>(name[i]);
        if (std::isupper(c) || std::isspace(c) || c == '(' || c == ')' || c == '"' || c == ';' || c == '\'' ||
            c == '`' || c == ',' || c == '|' || c == '\\' || (c == '#' && i == 0))
            needs_bars = true;
        if (std::isdigit(c)) digits++;
        else if (!((c == '+' || c == '-') && i == 0) && !(c == '.' && i + 1 == name.size())) maybe_number = false;
    }
    if (maybe_number && digits > 0) needs_bars = true;
    if (name == ".") needs_bars = true;
    if (name.size() > 1 && name[0] == '$' && std::isdigit(static_cast<unsigned char>(name[1]))) needs_bars = true;
    if (!needs_bars) return std::string(name);
    std::string s = "|";
    for (char c : name) {
        if (c == '|' || c == '\\') s += '\\';
        s += c;
    }
    return s + "|";
}

namespace {

bool is_container(Value v) { return is_pair(v) || is_vector(v); }

void append_string_literal(std::string& out, const std::string& s) {
    out += '"';
    for (char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
            if (static_cast<unsigned char>(c) < 32 || c == 127) {
                static const char* hex = "0123456789abcdef";
                out += "\\x";
                out += hex[(c >> 4) & 15];
                out += hex[c & 15];
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

struct PrettyMark {
    enum Kind : uint8_t { Open, Close, Sep } kind;
    size_t pos;   // Open: where the group's text starts; Close: just after ')'; Sep: the space
    size_t aux;   // Open: just after the opening parenthesis (the indentation column)
    bool form = false;   // Open: a list whose first element is a symbol (code-like)
};

struct Printer {
    Interp& I;
    const PrintOptions& o;
    std::string& out;
    // Label state per container: 0 = no label needed, 1 = needs one (not yet
    // printed), otherwise (number << 1) once printed.
    std::unordered_map<uint64_t, int64_t> labels;
    int64_t next_label = 1;

    Printer(Interp& in, const PrintOptions& op, std::string& s) : I(in), o(op), out(s) {}

    template <class F>
    void for_children(Value v, F f) {
        if (is_pair(v)) {
            f(car(v));
            if (is_quad(v)) { f(cbr(v)); f(ccr(v)); }
            f(cdr(v));
        } else {
            for (Value x : as_vector(v)->items) f(x);
        }
    }

    void find_shared(Value root) {
        std::unordered_map<uint64_t, uint8_t> seen;
        std::vector<Value> stack{root};
        while (!stack.empty()) {
            Value v = stack.back();
            stack.pop_back();
            if (!is_container(v)) continue;
            auto [it, fresh] = seen.try_emplace(v.raw, 1);
            if (!fresh) {
                if (it->second == 1) { it->second = 2; labels[v.raw] = 1; }
                continue;
            }
            // Push in reverse so the walk goes in printing order (not needed
            // for counting, but keeps the two modes alike).
            if (is_pair(v)) {
                stack.push_back(cdr(v));
                if (is_quad(v)) { stack.push_back(ccr(v)); stack.push_back(cbr(v)); }
                stack.push_back(car(v));
            } else {
                auto& items = as_vector(v)->items;
                for (size_t i = items.size(); i-- > 0;) stack.push_back(items[i]);
            }
        }
    }

    void find_cycles(Value root) {
        // Depth-first in printing order; gray = on the current path.
        enum : uint8_t { Gray = 1, Black = 2 };
        std::unordered_map<uint64_t, uint8_t> color;
        struct Item { Value v; size_t next; };
        std::vector<Item> stack;
        auto enter = [&](Value v) {
            if (!is_container(v)) return;
            auto it = color.find(v.raw);
            if (it != color.end()) {
                if (it->second == Gray) labels[v.raw] = 1;
                return;
            }
            color[v.raw] = Gray;
            stack.push_back({v, 0});
        };
        enter(root);
        while (!stack.empty()) {
            Item& top = stack.back();
            Value v = top.v;
            size_t n = is_pair(v) ? (is_quad(v) ? 4 : 2) : as_vector(v)->items.size();
            if (top.next == n) {
                color[v.raw] = Black;
                stack.pop_back();
                continue;
            }
            size_t i = top.next++;
            Value child;
            if (is_pair(v)) {
                static const int order[4] = {0, 2, 3, 1};   // car cbr ccr cdr
                child = is_quad(v) ? pair_words(v)[order[i]] : pair_words(v)[i];
            } else {
                child = as_vector(v)->items[i];
            }
            enter(child);
        }
    }

    // 0: no label; >0: already printed with that number; -1: needs a label now.
    int64_t label_state(Value v) {
        auto it = labels.find(v.raw);
        if (it == labels.end()) return 0;
        if (it->second == 1) return -1;
        return it->second >> 1;
    }
    int64_t define_label(Value v) {
        int64_t n = next_label++;
        labels[v.raw] = n << 1;
        return n;
    }
    void ref(int64_t n) {
        if (o.cl_labels) out += "#" + std::to_string(n) + "#";
        else out += "$" + std::to_string(n);
    }
    void def(int64_t n) {
        if (o.cl_labels) out += "#" + std::to_string(n) + "=";
        else out += "$" + std::to_string(n) + ":";
    }

    void atom(Value v) {
        if (is_fixnum(v) || is_bignum(v)) { out += integer_to_string(v, o.base); return; }
        if (is_nil(v)) { out += "nil"; return; }
        if (is_imm(v)) {
            out += v == UNBOUND ? "#<unbound>" : v == END_OF_FILE ? "#<eof>" : "#<internal>";
            return;
        }
        Obj* ob = as_obj(v);
        switch (ob->type) {
        case Type::Symbol: {
            auto& name = static_cast<Symbol*>(ob)->name;
            if (!o.escape) out += name;
            else if (!(ob->flags & SYM_INTERNED)) out += "#:" + symbol_print_name(name);
            else out += symbol_print_name(name);
            return;
        }
        case Type::String:
            if (o.escape) append_string_literal(out, static_cast<String*>(ob)->s);
            else out += static_cast<String*>(ob)->s;
            return;
        case Type::Closure: {
            Proto* p = static_cast<Closure*>(ob)->proto;
            out += p->fexpr ? "#<fexpr " : "#<function ";
            out += p->name + ">";
            return;
        }
        case Type::Native: out += std::string("#<builtin ") + static_cast<Native*>(ob)->name + ">"; return;
        case Type::Macro: {
            Value e = static_cast<Macro*>(ob)->expander;
            out += "#<macro " + (is_closure(e) ? as_closure(e)->proto->name : std::string("?")) + ">";
            return;
        }
        case Type::HashTable: {
            auto* h = static_cast<HashTable*>(ob);
            out += std::string("#<hash-table ") + (h->equal_keys ? "equal " : "eq ") + std::to_string(h->count) + ">";
            return;
        }
        case Type::Foreign: out += std::string("#<") + static_cast<Foreign*>(ob)->type_name() + ">"; return;
        case Type::Proto: out += "#<code>"; return;
        case Type::Box: out += "#<box>"; return;
        default: out += "#<object>"; return;
        }
    }

    // ---- output, with break marks for the pretty printer ----
    // Flat text goes to `out`. When `marks` is set, the printer also records
    // where groups open and close and where a space may become a line break;
    // layout() then decides the breaks in one linear pass.
    std::vector<PrettyMark>* marks = nullptr;
    void open_group(size_t start, bool form = false) {
        if (marks) marks->push_back({PrettyMark::Open, start, out.size(), form});
    }
    void close_group(const char* text) {
        out += text;
        if (marks) marks->push_back({PrettyMark::Close, out.size(), 0});
    }
    void sep() {
        if (marks) marks->push_back({PrettyMark::Sep, out.size(), 0});
        out += ' ';
    }

    // The print loop.
    enum class K { Val, ListRest, Close, VecRest, QuadRest, DotThenVal };
    struct Task { K k; Value v; size_t i; int64_t depth; const char* text; };

    void run(Value root) {
        if (o.shared) find_shared(root);
        else find_cycles(root);
        std::vector<Task> tasks;
        tasks.push_back({K::Val, root, 0, 0, nullptr});
        size_t polls = 0;
        while (!tasks.empty()) {
            if (out.size() > o.max_chars) { out += "..."; return; }
            if ((++polls & 0xFFFF) == 0) {
                I.poll();
                // Shared structure printed without labels can grow exponentially.
                if (out.size() > I.heap.limit()) I.error("print: the printed text exceeds the heap limit");
            }
            Task t = tasks.back();
            tasks.pop_back();
            switch (t.k) {
            case K::Close: close_group(t.text); break;
            case K::DotThenVal:
                sep();
                out += ". ";
                tasks.push_back({K::Val, t.v, 0, t.depth, nullptr});
                break;
            case K::Val: {
                Value v = t.v;
                if (!is_container(v)) { atom(v); break; }
                int64_t ls = label_state(v);
                if (ls > 0) { ref(ls); break; }
                if (o.level >= 0 && t.depth >= o.level) { out += "#"; break; }
                size_t start = out.size();
                if (is_quad(v) || is_vector(v)) {
                    bool quad = is_quad(v);
                    if (ls < 0 && o.cl_labels) def(define_label(v));
                    out += quad ? "#q(" : "#(";
                    open_group(start);
                    if (ls < 0 && !o.cl_labels) def(define_label(v));
                    tasks.push_back({quad ? K::QuadRest : K::VecRest, v, 0, t.depth, nullptr});
                    break;
                }
                if (ls < 0 && o.cl_labels) def(define_label(v));
                out += "(";
                open_group(start, is_symbol(car(v)) && !is_nil(car(v)));
                tasks.push_back({K::ListRest, v, 0, t.depth, nullptr});
                break;
            }
            case K::ListRest: {
                // t.v: the spine cell holding element number t.i.
                Value x = t.v;
                if (t.i > 0) {
                    int64_t ls = label_state(x);
                    if (ls > 0) {   // already printed: a reference in cdr position
                        sep();
                        out += ". ";
                        ref(ls);
                        close_group(")");
                        break;
                    }
                    if (ls < 0 && o.cl_labels) {
                        // Shared tail: . #n=(rest...)
                        sep();
                        out += ". ";
                        size_t start = out.size();
                        def(define_label(x));
                        out += "(";
                        open_group(start);
                        tasks.push_back({K::Close, NIL, 0, 0, ")"});
                        tasks.push_back({K::ListRest, x, 0, t.depth, nullptr});
                        break;
                    }
                    if (o.length >= 0 && int64_t(t.i) >= o.length) { sep(); close_group("...)"); break; }
                    sep();
                    if (ls < 0) def(define_label(x));
                } else {
                    int64_t ls = label_state(x);
                    if (ls < 0 && !o.cl_labels) def(define_label(x));
                    if (o.length == 0) { close_group("...)"); break; }
                }
                Value next = cdr(x);
                if (is_nil(next)) tasks.push_back({K::Close, NIL, 0, 0, ")"});
                else if (is_cons(next)) tasks.push_back({K::ListRest, next, t.i + 1, t.depth, nullptr});
                else {
                    tasks.push_back({K::Close, NIL, 0, 0, ")"});
                    tasks.push_back({K::DotThenVal, next, 0, t.depth + 1, nullptr});
                }
                tasks.push_back({K::Val, car(x), 0, t.depth + 1, nullptr});
                break;
            }
            case K::QuadRest: {
                static const int order[4] = {0, 2, 3, 1};
                if (t.i == 4) { close_group(")"); break; }
                if (t.i > 0) sep();
                tasks.push_back({K::QuadRest, t.v, t.i + 1, t.depth, nullptr});
                tasks.push_back({K::Val, pair_words(t.v)[order[t.i]], 0, t.depth + 1, nullptr});
                break;
            }
            case K::VecRest: {
                auto& items = as_vector(t.v)->items;
                if (t.i >= items.size()) { close_group(")"); break; }
                if (o.length >= 0 && int64_t(t.i) >= o.length) {
                    if (t.i) sep();
                    close_group("...)");
                    break;
                }
                if (t.i > 0) sep();
                tasks.push_back({K::VecRest, t.v, t.i + 1, t.depth, nullptr});
                tasks.push_back({K::Val, items[t.i], 0, t.depth + 1, nullptr});
                break;
            }
            }
        }
    }
};

// ---- the pretty printer's layout ----
//
// Input: the flat text and its marks. A group that fits (with whatever is
// glued after its closing parenthesis) between the current column and the
// right margin stays on one line. A group that does not is broken: its
// elements start at the column just after its opening parenthesis (two
// columns in, after the operator and first argument, when the list starts with
// a symbol); a composite element (a list, vector or quad) gets a line of its
// own, and runs of atoms are filled onto lines. This is how LIPQ printed its Tait search
// trees. Only spaces between elements change into line breaks, so the text
// reads back exactly as the flat form.
void layout(const std::string& flat, const std::vector<PrettyMark>& marks, int width, int start_col,
            std::string& out) {
    const size_t n = marks.size();
    const size_t end = flat.size();
    // next_sep[i]: position of the first Sep mark after mark i (or the end).
    std::vector<size_t> next_sep(n + 1, end);
    for (size_t i = n; i-- > 0;)
        next_sep[i] = (i + 1 < n && marks[i + 1].kind == PrettyMark::Sep) ? marks[i + 1].pos : next_sep[i + 1];
    // item_end[i] for a Sep: where the element after it ends, counting the
    // closing parentheses glued to it (the next Sep at the same or an outer
    // level).
    std::vector<size_t> item_end(n, end);
    {
        std::vector<std::pair<size_t, int>> pending;   // (mark index, depth)
        int depth = 0;
        for (size_t i = 0; i < n; i++) {
            switch (marks[i].kind) {
            case PrettyMark::Open: depth++; break;
            case PrettyMark::Close: depth--; break;
            case PrettyMark::Sep:
                while (!pending.empty() && pending.back().second >= depth) {
                    item_end[pending.back().first] = marks[i].pos;
                    pending.pop_back();
                }
                pending.push_back({i, depth});
                break;
            }
        }
    }
    // fit_end[i] for an Open: the end of the group with what is glued to it.
    std::vector<size_t> fit_end(n, end);
    {
        std::vector<size_t> open;
        for (size_t i = 0; i < n; i++) {
            if (marks[i].kind == PrettyMark::Open) open.push_back(i);
            else if (marks[i].kind == PrettyMark::Close && !open.empty()) {
                fit_end[open.back()] = next_sep[i];
                open.pop_back();
            }
        }
    }
    const int margin = width < 20 ? 20 : width;
    const int max_indent = margin * 2 / 3;
    struct Group { int indent; bool broken; bool prev_composite; bool form; bool first_sep; };
    std::vector<Group> groups;
    out.reserve(out.size() + end + end / 8);
    size_t copied = 0;
    int64_t col = start_col;
    auto copy_to = [&](size_t p) {
        for (size_t k = copied; k < p; k++) {
            char c = flat[k];
            out += c;
            if (c == '\n') col = 0;
            else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) col++;
        }
        copied = p;
    };
    for (size_t i = 0; i < n; i++) {
        const PrettyMark& m = marks[i];
        copy_to(m.pos);
        switch (m.kind) {
        case PrettyMark::Open: {
            Group g;
            // Data lists align their elements just inside the parenthesis;
            // code-like lists (a symbol first) keep the first argument on the
            // operator's line and indent the rest by two.
            g.form = m.form;
            g.first_sep = true;
            int64_t paren_col = col + int64_t(m.aux - m.pos) - 1;
            g.indent = int(std::min<int64_t>(m.form ? paren_col + 2 : paren_col + 1, max_indent));
            g.prev_composite = i + 1 < n && marks[i + 1].kind == PrettyMark::Open;
            g.broken = col + int64_t(fit_end[i] - m.pos) > margin;
            groups.push_back(g);
            break;
        }
        case PrettyMark::Close:
            if (!groups.empty()) groups.pop_back();
            break;
        case PrettyMark::Sep: {
            Group* g = groups.empty() ? nullptr : &groups.back();
            bool composite = i + 1 < n && marks[i + 1].kind == PrettyMark::Open && marks[i + 1].pos < item_end[i];
            bool brk = false;
            if (g && g->broken) {
                int64_t w = int64_t(item_end[i] - m.pos - 1);
                bool fits = col + 1 + w <= margin;
                if (g->form) brk = !fits || (g->prev_composite && !g->first_sep);
                else brk = composite || g->prev_composite || !fits;
                g->prev_composite = composite;
            }
            if (g) g->first_sep = false;
            if (brk) {
                out += '\n';
                out.append(size_t(g->indent), ' ');
                col = g->indent;
            } else {
                out += ' ';
                col++;
            }
            copied = m.pos + 1;
            break;
        }
        }
    }
    copy_to(end);
}

} // namespace

void print_value(Interp& I, Value v, const PrintOptions& o, std::string& out) {
    if (o.pretty && o.max_chars == SIZE_MAX) {
        std::string flat;
        std::vector<PrettyMark> marks;
        Printer p(I, o, flat);
        p.marks = &marks;
        p.run(v);
        layout(flat, marks, o.right_margin, o.start_column, out);
        return;
    }
    Printer p(I, o, out);
    p.run(v);
}

std::string pprint_to_string(Interp& I, Value v, int width) {
    PrintOptions o = PrintOptions::from_interp(I);
    o.escape = true;
    o.pretty = true;
    o.right_margin = width > 0 ? width : right_margin_setting(I);
    return print_to_string(I, v, o);
}

std::string print_to_string(Interp& I, Value v, const PrintOptions& o) {
    std::string s;
    print_value(I, v, o, s);
    return s;
}

std::string prin1_to_string(Interp& I, Value v) {
    PrintOptions o = PrintOptions::from_interp(I);
    o.escape = true;
    return print_to_string(I, v, o);
}

std::string princ_to_string(Interp& I, Value v) {
    PrintOptions o = PrintOptions::from_interp(I);
    o.escape = false;
    return print_to_string(I, v, o);
}

} // namespace lipq
