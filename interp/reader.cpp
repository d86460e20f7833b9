// reader.cpp — the iterative reader. See reader.h.
#include "reader.h"

#include "number.h"

#include <cctype>
#include <unordered_map>
#include <unordered_set>

namespace lipq {

namespace {

bool is_delimiter(char c) {
    return std::isspace(static_cast<unsigned char>(c)) || c == '(' || c == ')' || c == '"' || c == ';' ||
           c == '\'' || c == '`' || c == ',';
}

} // namespace

struct Reader::Impl {
    Interp& I;
    std::string_view src;
    size_t& pos;
    uint32_t file;
    bool track;
    uint32_t line = 1, col = 1;

    // An open list / vector / quote-like wrapper. Heads live in `held`
    // (registered as a GC root) at index `slot`.
    enum Kind { List, Vector, Quad, Wrap };
    struct Open {
        Kind kind;
        size_t slot;         // held[slot]: the list built so far (head)
        Value tail = NIL;    // last cell (reachable from head)
        Value wrap = NIL;    // Wrap: the symbol (quote, function ...)
        SourcePos pos;
        bool dotted = false;       // saw " . "
        bool after_dot = false;    // the datum after the dot has been read
        bool car_pending = false;  // the last cell's car is still to be read ($n: label)
        size_t count = 0;          // Vector / Quad: fields delivered so far
        bool labelled = false;     // Vector / Quad: a $n: label named it
        int cl_label = -1;         // Wrap used for #n= : define label n to the datum
    };
    std::vector<Open> stack;
    std::vector<Value> held;
    // Labels: LIPQ $n names a cell; CL #n names a datum.
    std::unordered_map<int64_t, Value> lipq_labels;
    std::unordered_map<int64_t, Value> cl_labels;
    std::unordered_map<int64_t, Value> cl_placeholders;
    std::unordered_set<int64_t> cl_defined;
    std::unordered_multiset<int64_t> cl_open;   // #n= whose datum is being read
    bool need_fixup = false;
    size_t hook_index;

    Impl(Interp& in, std::string_view s, size_t& p, uint32_t f, bool t) : I(in), src(s), pos(p), file(f), track(t) {
        hook_index = I.extra_roots.size();
        I.extra_roots.push_back([this](Tracer& tr) {
            for (Value v : held) tr.mark(v);
            for (auto& [k, v] : lipq_labels) tr.mark(v);
            for (auto& [k, v] : cl_labels) tr.mark(v);
            for (auto& [k, v] : cl_placeholders) tr.mark(v);
        });
    }
    ~Impl() {
        // Readers nest (read-from-string inside a load): ours is the last hook.
        if (I.extra_roots.size() == hook_index + 1) I.extra_roots.pop_back();
        else I.extra_roots[hook_index] = [](Tracer&) {};
    }

    SourcePos here() const { return SourcePos{file, line, col}; }
    [[noreturn]] void fail(const std::string& msg, SourcePos p) {
        I.error("read: " + msg + " at " + I.format_pos(p));
    }
    [[noreturn]] void fail(const std::string& msg) { fail(msg, here()); }

    bool eof() const { return pos >= src.size(); }
    char peek(size_t k = 0) const { return pos + k < src.size() ? src[pos + k] : '\0'; }
    char get() {
        char c = src[pos++];
        if (c == '\n') { line++; col = 1; }
        else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) col++;   // count UTF-8 characters
        return c;
    }

    void skip_space() {
        while (!eof()) {
            char c = peek();
            if (std::isspace(static_cast<unsigned char>(c))) { get(); continue; }
            if (c == ';') { while (!eof() && peek() != '\n') get(); continue; }
            if (c == '#' && peek(1) == '|') {
                SourcePos start = here();
                get(); get();
                int depth = 1;
                while (depth > 0) {
                    if (eof()) fail("unterminated #| comment", start);
                    if (peek() == '|' && peek(1) == '#') { get(); get(); depth--; }
                    else if (peek() == '#' && peek(1) == '|') { get(); get(); depth++; }
                    else get();
                }
                continue;
            }
            break;
        }
    }

    Value read_string() {
        SourcePos start = here();
        get();   // opening quote
        std::string s;
        for (;;) {
            if (eof()) fail("unterminated string (opened here)", start);
            char c = get();
            if (c == '"') break;
            if (c == '\\') {
                if (eof()) fail("unterminated string (opened here)", start);
                char e = get();
                switch (e) {
                case 'n': s += '\n'; break;
                case 't': s += '\t'; break;
                case 'r': s += '\r'; break;
                case '0': s += '\0'; break;
                case 'e': s += '\x1b'; break;
                case 'x': {
                    int v = 0, n = 0;
                    while (n < 2 && std::isxdigit(static_cast<unsigned char>(peek()))) {
                        char h = get();
                        v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
                        n++;
                    }
                    if (n == 0) fail("\\x in a string needs hex digits");
                    s += char(v);
                    break;
                }
                default: s += e; break;   // \" \\ and anything else: the character itself
                }
                continue;
            }
            s += c;
        }
        return I.make_string(std::move(s));
    }

    // A token of constituent characters; |...| and \x keep case. Returns the
    // text and whether any part was escaped (then it is always a symbol).
    std::string read_token(bool* escaped) {
        std::string t;
        *escaped = false;
        SourcePos start = here();
        while (!eof()) {
            char c = peek();
            if (c == '|') {
                *escaped = true;
                get();
                for (;;) {
                    if (eof()) fail("unterminated |symbol|", start);
                    char d = get();
                    if (d == '|') break;
                    if (d == '\\' && !eof()) d = get();
                    t += d;
                }
                continue;
            }
            if (c == '\\') {
                *escaped = true;
                get();
                if (eof()) fail("\\ at end of input");
                t += get();
                continue;
            }
            if (is_delimiter(c)) break;
            get();
            t += char(std::tolower(static_cast<unsigned char>(c)));
        }
        return t;
    }

    Value parse_atom(const std::string& t, bool escaped, SourcePos p) {
        if (!escaped) {
            size_t i = (t[0] == '+' || t[0] == '-') ? 1 : 0;
            bool digits = i < t.size();
            size_t j = i;
            for (; j < t.size() && std::isdigit(static_cast<unsigned char>(t[j])); j++) {}
            if (digits && j > i) {
                if (j == t.size() || (j + 1 == t.size() && t[j] == '.')) {
                    Value v;
                    std::string num = t.substr(0, j);
                    if (!parse_integer(I, num, 10, &v)) fail("bad number " + t, p);
                    return v;
                }
                if (t[j] == '.' && j + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[j + 1])))
                    fail("floating-point numbers are not supported: " + t, p);
                if (t[j] == '/' ) fail("ratios are not supported: " + t, p);
            }
            if (t == ".") fail("unexpected dot", p);
            if (t == "nil") return NIL;
        }
        return I.intern(t);
    }

    // ---- building ----
    void open(Kind k, SourcePos p, Value wrap = NIL, int cl_label = -1) {
        Open o;
        o.kind = k;
        o.slot = held.size();
        held.push_back(NIL);
        // Vectors and quads exist from their opening parenthesis on, so a
        // label just inside names them and references inside can reach them.
        if (k == Vector) held.back() = I.make_vector(0, NIL);
        if (k == Quad) held.back() = I.quad(NIL, NIL, NIL, NIL);
        o.pos = p;
        o.wrap = wrap;
        o.cl_label = cl_label;
        stack.push_back(o);
    }
    void append(Open& o, Value v) {
        Value cell = I.cons(v, NIL);
        if (is_nil(held[o.slot])) held[o.slot] = cell;
        else set_cdr(o.tail, cell);
        o.tail = cell;
    }
    // Give a finished datum to the innermost open construct. Returns true
    // (with *out set) when the datum is complete at top level.
    bool deliver(Value v, Value* out) {
        for (;;) {
            if (stack.empty()) { *out = v; return true; }
            Open& o = stack.back();
            if (o.kind == Wrap) {
                Value w = o.wrap;
                int lbl = o.cl_label;
                SourcePos p = o.pos;
                held.pop_back();
                stack.pop_back();
                if (lbl >= 0) {
                    if (auto it = cl_open.find(lbl); it != cl_open.end()) cl_open.erase(it);
                    auto ph = cl_placeholders.find(lbl);
                    if (ph != cl_placeholders.end() && ph->second == v)
                        fail("label #" + std::to_string(lbl) + "= is defined as #" + std::to_string(lbl) +
                                 "# (itself)",
                             p);
                    define_cl(lbl, v, p);
                } else {
                    held.push_back(v);
                    Value tail = I.cons(v, NIL);
                    held.back() = tail;
                    v = I.cons(w, tail);
                    held.pop_back();
                    if (track) I.positions[v.raw] = p;
                }
                continue;
            }
            if (o.kind == Vector) {
                as_vector(held[o.slot])->items.push_back(v);
                I.heap.note_bytes(sizeof(Value));
                o.count++;
                return false;
            }
            if (o.kind == Quad) {
                static const int field_of[4] = {0, 2, 3, 1};   // car cbr ccr cdr
                if (o.count >= 4) fail("#q( has exactly four fields: car cbr ccr cdr", o.pos);
                pair_words(held[o.slot])[field_of[o.count++]] = v;
                return false;
            }
            if (o.car_pending) {
                set_car(o.tail, v);
                o.car_pending = false;
                return false;
            }
            if (o.dotted) {
                if (o.after_dot) fail("more than one datum after a dot", o.pos);
                if (is_nil(held[o.slot])) fail("a dot must follow at least one element", o.pos);
                set_cdr(o.tail, v);
                o.after_dot = true;
                return false;
            }
            append(o, v);
            return false;
        }
    }
    Value close(SourcePos p) {
        if (stack.empty() || stack.back().kind == Wrap) fail("unexpected )", p);
        Open o = stack.back();
        if (o.car_pending) fail("a label must be followed by a datum", p);
        if (o.dotted && !o.after_dot) fail("expected a datum after the dot", p);
        Value head = held[o.slot];
        held.pop_back();
        stack.pop_back();
        if (o.kind == Quad && o.count != 4) fail("#q( needs exactly four fields: car cbr ccr cdr", o.pos);
        if (o.kind != List) return head;
        if (track && is_pair(head)) I.positions[head.raw] = o.pos;
        return head;
    }

    void define_cl(int64_t n, Value v, SourcePos p) {
        if (cl_defined.count(n)) fail("label #" + std::to_string(n) + "= defined twice", p);
        cl_defined.insert(n);
        cl_labels[n] = v;
    }

    // Replace CL placeholders (forward references) by their objects.
    Value fixup(Value root) {
        std::unordered_map<uint64_t, Value> subst;
        for (auto& [n, ph] : cl_placeholders) {
            auto it = cl_labels.find(n);
            if (it == cl_labels.end()) fail("label #" + std::to_string(n) + "# is never defined");
            subst[ph.raw] = it->second;
        }
        // Chains of labels (#1=#2#) resolve by repeated substitution.
        for (auto& [k, v] : subst) {
            int guard = 0;
            while (subst.count(v.raw) && guard++ < 1000) v = subst[v.raw];
        }
        auto fix = [&](Value v) { auto it = subst.find(v.raw); return it == subst.end() ? v : it->second; };
        root = fix(root);
        std::unordered_set<uint64_t> seen;
        std::vector<Value> work{root};
        while (!work.empty()) {
            Value v = work.back();
            work.pop_back();
            if (!is_pair(v) && !is_vector(v)) continue;
            if (!seen.insert(v.raw).second) continue;
            if (is_pair(v)) {
                Value* w = pair_words(v);
                int nf = is_quad(v) ? 4 : 2;
                for (int i = 0; i < nf; i++) { w[i] = fix(w[i]); work.push_back(w[i]); }
            } else {
                for (Value& x : as_vector(v)->items) { x = fix(x); work.push_back(x); }
            }
        }
        return root;
    }

    Value read_top(SourcePos* first) {
        lipq_labels.clear();
        cl_labels.clear();
        cl_placeholders.clear();
        cl_defined.clear();
        cl_open.clear();
        need_fixup = false;
        bool started = false;
        for (;;) {
            skip_space();
            if (eof()) {
                if (stack.empty()) return END_OF_FILE;
                Open& o = stack.back();
                fail(std::string("unexpected end of input: ") +
                         (o.kind == Wrap ? "a datum was expected after the quote or label"
                                         : "missing ) for the list"),
                     o.pos);
            }
            SourcePos p = here();
            if (!started) { *first = p; started = true; }
            char c = peek();
            Value v;
            bool have = false;
            if (c == '(') {
                get();
                open(List, p);
                continue;
            }
            if (c == ')') {
                get();
                v = close(p);
                have = true;
            } else if (c == '\'') {
                get(); open(Wrap, p, I.sym.quote); continue;
            } else if (c == '`') {
                get(); open(Wrap, p, I.sym.quasiquote); continue;
            } else if (c == ',') {
                get();
                if (peek() == '@') { get(); open(Wrap, p, I.sym.unquote_splicing); }
                else open(Wrap, p, I.sym.unquote);
                continue;
            } else if (c == '"') {
                v = read_string();
                have = true;
            } else if (c == '#') {
                char d = peek(1);
                if (d == '(') { get(); get(); open(Vector, p); continue; }
                if (d == '\'') { get(); get(); open(Wrap, p, I.sym.function); continue; }
                if ((d == 'q' || d == 'Q') && peek(2) == '(') { get(); get(); get(); open(Quad, p); continue; }
                if (d == 'x' || d == 'X' || d == 'b' || d == 'B' || d == 'o' || d == 'O') {
                    get(); get();
                    bool esc;
                    std::string t = read_token(&esc);
                    int radix = (d == 'x' || d == 'X') ? 16 : (d == 'b' || d == 'B') ? 2 : 8;
                    if (esc || t.empty() || !parse_integer(I, t, radix, &v)) fail("bad #" + std::string(1, d) + " number", p);
                    have = true;
                } else if (std::isdigit(static_cast<unsigned char>(d))) {
                    get();
                    int64_t n = 0;
                    while (std::isdigit(static_cast<unsigned char>(peek()))) {
                        n = n * 10 + (get() - '0');
                        if (n > 1000000000) fail("label number too large", p);
                    }
                    char k = eof() ? '\0' : get();
                    if (k == '=') {
                        if (cl_defined.count(n)) fail("label #" + std::to_string(n) + "= defined twice", p);
                        open(Wrap, p, NIL, int(n));
                        cl_open.insert(n);
                        continue;
                    }
                    if (k == '#') {
                        auto it = cl_labels.find(n);
                        if (it != cl_labels.end()) v = it->second;
                        else {
                            if (!label_open(n)) fail("label #" + std::to_string(n) + "# is not defined", p);
                            auto ph = cl_placeholders.find(n);
                            if (ph == cl_placeholders.end()) {
                                v = I.cons(I.intern("%label-placeholder"), make_fixnum(n));
                                cl_placeholders[n] = v;
                            } else v = ph->second;
                            need_fixup = true;
                        }
                        have = true;
                    } else {
                        fail("expected = or # after #" + std::to_string(n), p);
                    }
                } else if (d == '|') {
                    skip_space();
                    continue;
                } else if (d == '\\') {
                    fail("character objects are not supported (use a one-letter symbol or a string)", p);
                } else {
                    fail(std::string("unknown # syntax: #") + d, p);
                }
            } else if (c == '$' && std::isdigit(static_cast<unsigned char>(peek(1))) && lipq_label_token(&v, p)) {
                if (v == NO_VALUE) continue;   // a definition: the datum follows
                have = true;
            } else {
                bool esc;
                std::string t = read_token(&esc);
                if (t.empty() && !esc) { get(); fail(std::string("unexpected character '") + c + "'", p); }
                if (!esc && t == ".") {
                    if (stack.empty() || stack.back().kind != List) fail("unexpected dot", p);
                    Open& o = stack.back();
                    if (o.dotted) fail("more than one dot in a list", p);
                    if (o.car_pending) fail("a label must be followed by a datum", p);
                    o.dotted = true;
                    continue;
                }
                v = parse_atom(t, esc, p);
                have = true;
            }
            if (have) {
                Value out;
                if (deliver(v, &out)) {
                    if (need_fixup) out = fixup(out);
                    return out;
                }
            }
        }
    }

    static bool container_labelled(const Open& o) { return o.labelled; }

    bool label_open(int64_t n) { return cl_open.count(n) != 0; }

    // $n: (definition) or $n (reference). Returns false if this is not a
    // label token after all (then it is read as a symbol).
    bool lipq_label_token(Value* v, SourcePos p) {
        size_t k = 1;
        while (std::isdigit(static_cast<unsigned char>(peek(k)))) k++;
        char after = peek(k);
        bool def = after == ':';
        if (!def && !(pos + k >= src.size() || is_delimiter(after))) return false;
        get();
        int64_t n = 0;
        while (std::isdigit(static_cast<unsigned char>(peek()))) {
            n = n * 10 + (get() - '0');
            if (n > 1000000000) fail("label number too large", p);
        }
        if (def) {
            get();   // ':'
            if (lipq_labels.count(n)) fail("label $" + std::to_string(n) + ": defined twice", p);
            if (!stack.empty() && (stack.back().kind == Vector || stack.back().kind == Quad) &&
                stack.back().count == 0 && !container_labelled(stack.back())) {
                // Just inside #( or #q(: the label names the vector or quad.
                lipq_labels[n] = held[stack.back().slot];
                stack.back().labelled = true;
                *v = NO_VALUE;
                return true;
            }
            if (stack.empty() || stack.back().kind != List || stack.back().dotted)
                fail("a $" + std::to_string(n) + ": label names a list cell: it must stand inside a list", p);
            if (stack.back().car_pending) fail("two labels on one cell", p);
            Open& o = stack.back();
            append(o, NIL);
            o.car_pending = true;
            lipq_labels[n] = o.tail;
            *v = NO_VALUE;
            return true;
        }
        auto it = lipq_labels.find(n);
        if (it == lipq_labels.end()) fail("label $" + std::to_string(n) + " is not defined", p);
        *v = it->second;
        return true;
    }
};

Reader::Reader(Interp& I, std::string_view src, uint32_t file, bool track)
    : impl_(new Impl(I, src, pos_, file, track)) {}
Reader::~Reader() { delete impl_; }

Value Reader::read() {
    impl_->stack.clear();
    impl_->held.clear();
    bool saved = impl_->I.track_positions;
    Value v = impl_->read_top(&last_pos_);
    impl_->I.track_positions = saved;
    impl_->held.clear();
    return v;
}

Value read_from_string(Interp& I, std::string_view s, size_t* end) {
    Reader r(I, s, I.file_id("<string>"), false);
    Value v = r.read();
    if (v == END_OF_FILE) I.error("read-from-string: no datum in the string");
    if (end) *end = r.offset();
    return v;
}

} // namespace lipq
