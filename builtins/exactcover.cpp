// exactcover.cpp — Knuth's Algorithm X with dancing links (TAOCP 7.2.2.1,
// Algorithm D), iterative (no C++ recursion per level), with primary and
// secondary columns.
//
//   (exact-cover rows :primary cols :secondary cols :mode :count|:first|:all|:each
//                :on-solution f :max-solutions k :progress b)
//
// rows: a list of rows, each a list of column names (any values, compared
// with equal). Every primary column must be covered exactly once, every
// secondary column at most once. :primary defaults to every column that
// appears in the rows and is not secondary. A solution is the list of the
// chosen row objects (eq to the input rows), in the order they were chosen.
// The column to branch on is the primary column with the fewest rows left
// (the first such in column order).
#include "search_common.h"

#include <unordered_map>
#include <vector>

namespace lipq {

namespace {

struct EqualHash {
    size_t operator()(Value v) const { return size_t(equal_hash(v)); }
};
struct EqualEq {
    bool operator()(Value a, Value b) const { return equal_values(a, b); }
};

struct Dlx {
    // Nodes 0..N: column headers (0 = root of the active primary list).
    // Then, per row: a spacer, the row's nodes; a final spacer.
    std::vector<int32_t> top, ulink, dlink;   // top: column of a node; spacer: -(row index)
    std::vector<int32_t> llink, rlink, len;   // headers only
    std::vector<int32_t> spacer_row;          // for a spacer node: row index it ends (-1 none)

    void hide(int32_t p) {
        int32_t q = p + 1;
        while (q != p) {
            int32_t x = top[size_t(q)], u = ulink[size_t(q)], d = dlink[size_t(q)];
            if (x <= 0) q = u;
            else {
                dlink[size_t(u)] = d;
                ulink[size_t(d)] = u;
                len[size_t(x)]--;
                q++;
            }
        }
    }
    void unhide(int32_t p) {
        int32_t q = p - 1;
        while (q != p) {
            int32_t x = top[size_t(q)], u = ulink[size_t(q)], d = dlink[size_t(q)];
            if (x <= 0) q = d;
            else {
                dlink[size_t(u)] = q;
                ulink[size_t(d)] = q;
                len[size_t(x)]++;
                q--;
            }
        }
    }
    void cover(int32_t i) {
        for (int32_t p = dlink[size_t(i)]; p != i; p = dlink[size_t(p)]) hide(p);
        int32_t l = llink[size_t(i)], r = rlink[size_t(i)];
        rlink[size_t(l)] = r;
        llink[size_t(r)] = l;
    }
    void uncover(int32_t i) {
        int32_t l = llink[size_t(i)], r = rlink[size_t(i)];
        rlink[size_t(l)] = i;
        llink[size_t(r)] = i;
        for (int32_t p = ulink[size_t(i)]; p != i; p = ulink[size_t(p)]) unhide(p);
    }
    // The row a node belongs to: the spacer after it knows.
    int32_t row_of(int32_t x) const {
        while (top[size_t(x)] > 0) x++;
        return -top[size_t(x)] - 1;
    }
};

Value bi_exact_cover(Interp& I, Value* a, int n) {
    const char* fn = "exact-cover";
    Value k[6];
    parse_keywords(I, fn, a, 1, n, {"primary", "secondary", "mode", "on-solution", "max-solutions", "progress"}, k);
    SearchMode mode = parse_mode(I, fn, k[2], SearchMode::Count);
    Value on_solution = optional_function(I, fn, ":on-solution", k[3]);
    int64_t max_solutions = parse_limit(I, fn, ":max-solutions", k[4]);
    if (mode == SearchMode::Each && is_nil(on_solution)) I.error("exact-cover: :mode :each needs :on-solution");
    if (!is_nil(on_solution) && mode == SearchMode::Count) mode = SearchMode::Each;
    Value primary_arg = k[0] == NO_VALUE ? NO_VALUE : arg_list(I, fn, k[0]);
    Value secondary_arg = k[1] == NO_VALUE ? NIL : arg_list(I, fn, k[1]);

    // The rows, kept in a vector (rooted) so that solutions can return them.
    int64_t nrows = list_length(I, arg_list(I, fn, a[0]), fn);
    Root rows(I, I.make_vector(size_t(nrows), NIL));
    {
        size_t i = 0;
        for (Value l = a[0]; is_pair(l); l = cdr(l)) {
            Value r = car(l);
            if (!is_list(r)) I.error("exact-cover: a row must be a list of column names, not " + I.describe(r));
            list_length(I, r, fn);
            as_vector(rows)->items[i++] = r;
        }
    }
    // Column names -> header index. Primary first (1..N1), then secondary.
    // The names are held by the rows or the keyword arguments (all rooted).
    std::unordered_map<Value, int32_t, EqualHash, EqualEq> col;
    std::vector<Value> names{NIL};
    std::unordered_map<Value, char, EqualHash, EqualEq> secondary;
    for (Value l = secondary_arg; is_pair(l); l = cdr(l)) secondary.emplace(car(l), 1);
    auto add_col = [&](Value name) {
        if (col.count(name)) return;
        col.emplace(name, int32_t(names.size()));
        names.push_back(name);
    };
    if (primary_arg != NO_VALUE) {
        for (Value l = primary_arg; is_pair(l); l = cdr(l)) {
            if (secondary.count(car(l)))
                I.error("exact-cover: column " + I.describe(car(l)) + " is both primary and secondary");
            add_col(car(l));
        }
    } else {
        for (Value r : as_vector(rows)->items)
            for (Value l = r; is_pair(l); l = cdr(l))
                if (!secondary.count(car(l))) add_col(car(l));
    }
    int32_t n1 = int32_t(names.size()) - 1;
    for (Value l = secondary_arg; is_pair(l); l = cdr(l)) add_col(car(l));
    int32_t N = int32_t(names.size()) - 1;

    Dlx x;
    size_t total = size_t(N) + 1;
    for (Value r : as_vector(rows)->items) total += size_t(list_length(I, r, fn)) + 1;
    total += 1;
    x.top.assign(total, 0);
    x.ulink.assign(total, 0);
    x.dlink.assign(total, 0);
    x.llink.assign(size_t(N) + 1, 0);
    x.rlink.assign(size_t(N) + 1, 0);
    x.len.assign(size_t(N) + 1, 0);
    for (int32_t i = 0; i <= N; i++) {
        x.ulink[size_t(i)] = x.dlink[size_t(i)] = i;
        x.llink[size_t(i)] = x.rlink[size_t(i)] = i;   // secondary columns: a list of their own
    }
    // Active primary list: 0 <-> 1 <-> ... <-> n1 <-> 0.
    for (int32_t i = 0; i <= n1; i++) {
        x.rlink[size_t(i)] = i == n1 ? 0 : i + 1;
        x.llink[size_t(i)] = i == 0 ? n1 : i - 1;
    }
    int32_t p = N + 1;       // the first spacer
    int32_t last_spacer = p;
    x.top[size_t(p)] = 0;
    std::vector<int32_t> seen_in_row(size_t(N) + 1, -1);
    int32_t ri = 0;
    for (Value r : as_vector(rows)->items) {
        int32_t first = p + 1;
        for (Value l = r; is_pair(l); l = cdr(l)) {
            auto it = col.find(car(l));
            if (it == col.end())
                I.error("exact-cover: row " + I.describe(r) + " names column " + I.describe(car(l)) +
                        ", which is neither primary nor secondary");
            int32_t c = it->second;
            if (seen_in_row[size_t(c)] == ri)
                I.error("exact-cover: row " + I.describe(r) + " names column " + I.describe(car(l)) + " twice");
            seen_in_row[size_t(c)] = ri;
            p++;
            x.top[size_t(p)] = c;
            x.len[size_t(c)]++;
            int32_t u = x.ulink[size_t(c)];
            x.ulink[size_t(p)] = u;
            x.dlink[size_t(u)] = p;
            x.dlink[size_t(p)] = c;
            x.ulink[size_t(c)] = p;
        }
        // The spacer after the row: top = -(row index + 1); ulink = the row's first node.
        x.dlink[size_t(last_spacer)] = p;   // previous spacer's dlink: this row's last node
        p++;
        x.top[size_t(p)] = -(ri + 1);
        x.ulink[size_t(p)] = first;
        last_spacer = p;
        ri++;
    }
    x.dlink[size_t(last_spacer)] = p;   // unused
    // An empty row is never chosen (it covers no primary column); its spacers
    // are harmless: hide/unhide never start at a spacer.

    StatsScope stats(I, fn);
    SearchStats& s = stats.st;
    Progress prog(I, fn, k[5]);
    Root results(I, NIL);

    std::vector<int32_t> xs(size_t(N) + 2, 0);   // the chosen node at each level
    int64_t level = 0;
    int32_t i = 0;
    bool stop = false;

    auto solution_list = [&]() -> Value {
        Root l(I, NIL);
        for (int64_t j = level; j-- > 0;) {
            int32_t r = x.row_of(xs[size_t(j)]);
            l = I.cons(as_vector(rows)->items[size_t(r)], l);
        }
        return l;
    };

    // Algorithm D: states D2 (enter level), D5 (try x[l]), D6 (next option), D8 (leave level).
    enum { D2, D5, D6, D8 } step = D2;
    for (;;) {
        switch (step) {
        case D2: {
            s.nodes++;
            I.poll();
            prog.tick(s);
            if (level > s.depth) s.depth = level;
            if (x.rlink[0] == 0) {
                s.solutions++;
                if (mode == SearchMode::First) {
                    results = solution_list();
                    stop = true;
                    s.stopped = ":first";
                } else if (mode == SearchMode::All) {
                    Value sol = solution_list();
                    results = I.cons(sol, results);
                } else if (mode == SearchMode::Each) {
                    Root sol(I, solution_list());
                    fcall1(I, on_solution, sol);
                }
                if (max_solutions >= 0 && s.solutions >= max_solutions) {
                    stop = true;
                    s.stopped = ":max-solutions";
                }
                if (stop) goto done;
                step = D8;
                break;
            }
            // D3: the primary column with the fewest rows.
            int32_t best = -1, best_len = INT32_MAX;
            for (int32_t c = x.rlink[0]; c != 0; c = x.rlink[size_t(c)]) {
                if (x.len[size_t(c)] < best_len) {
                    best_len = x.len[size_t(c)];
                    best = c;
                    if (best_len == 0) break;
                }
            }
            i = best;
            x.cover(i);   // D4
            xs[size_t(level)] = x.dlink[size_t(i)];
            step = D5;
            break;
        }
        case D5: {
            int32_t xl = xs[size_t(level)];
            if (xl == i) {       // D7: no row left for column i
                x.uncover(i);
                step = D8;
                break;
            }
            for (int32_t q = xl + 1; q != xl;) {
                int32_t j = x.top[size_t(q)];
                if (j <= 0) q = x.ulink[size_t(q)];
                else {
                    x.cover(j);
                    q++;
                }
            }
            level++;
            step = D2;
            break;
        }
        case D6: {
            int32_t xl = xs[size_t(level)];
            for (int32_t q = xl - 1; q != xl;) {
                int32_t j = x.top[size_t(q)];
                if (j <= 0) q = x.dlink[size_t(q)];
                else {
                    x.uncover(j);
                    q--;
                }
            }
            i = x.top[size_t(xl)];
            xs[size_t(level)] = x.dlink[size_t(xl)];
            step = D5;
            break;
        }
        case D8:
            if (level == 0) goto done;
            level--;
            step = D6;
            break;
        }
    }
done:
    s.seen = s.nodes;
    switch (mode) {
    case SearchMode::First: return results;
    case SearchMode::All: return nreverse_list(results);
    default: return I.make_int(s.solutions);
    }
}

const BuiltinDef exactcover_lib[] = {
    {"exact-cover", bi_exact_cover, 1, -1,
     "(exact-cover rows &key primary secondary mode on-solution max-solutions progress):\n"
     "Knuth's Algorithm X with dancing links. rows: lists of column names (compared with equal).\n"
     "Primary columns are covered exactly once, secondary at most once. A solution is the list of\n"
     "the chosen rows, in the order chosen. :mode :count (default), :first, :all, :each."},
};

} // namespace

void open_exactcover(Interp& I) { register_builtins(I, exactcover_lib); }

} // namespace lipq
