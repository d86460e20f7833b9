// search.cpp — generic search drivers: the puzzle describes states, moves,
// goal and pruning as Lisp functions; the loop that runs them is native.
//
//   (dfs start successors goal :prune p :max-depth d :with-depth t :mode m
//        :on-solution f :max-nodes n :max-solutions k :no-cycles t :progress b)
//   (bfs start successors goal :key k :test :equal|:eq :mode :first|:all|:count|:each
//        :on-solution f :with-depth t :max-nodes n :max-solutions k :progress b)
//   (iddfs start successors goal :max-depth d :mode ... )
//   (idastar start successors goal heuristic :cost c :max-bound b :mode ...)
//   (last-search-stats)
//
// No C++ recursion per search depth: the depth-first drivers keep an explicit
// stack of frames (state, successors still to try, depth, cost) inside a
// Foreign object that the collector traces; breadth-first keeps its nodes
// (state, parent) in another. Every node polls the interpreter (Ctrl-C, time
// and step limits), and Lisp errors raised by the callbacks propagate with
// their own backtrace.
#include "search_common.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <vector>

namespace lipq {

Value hash_get(HashTable* t, Value k, Value deflt);
void hash_put(Interp& I, HashTable* t, Value k, Value v);

// ---- shared helpers ----------------------------------------------------------------

void parse_keywords(Interp& I, const char* fn, Value* a, int from, int n,
                    std::initializer_list<const char*> names, Value* out) {
    size_t count = names.size();
    for (size_t i = 0; i < count; i++) out[i] = NO_VALUE;
    for (int i = from; i < n; i += 2) {
        Value k = a[i];
        if (!is_symbol(k) || is_nil(k) || as_symbol(k)->name.empty() || as_symbol(k)->name[0] != ':')
            I.error(std::string(fn) + ": expected a keyword argument, got " + I.describe(k));
        const std::string& name = as_symbol(k)->name;
        size_t j = 0;
        for (const char* nm : names) {
            if (name.compare(1, std::string::npos, nm) == 0) break;
            j++;
        }
        if (j == count) {
            std::string known;
            for (const char* nm : names) known += std::string(known.empty() ? "" : " ") + ":" + nm;
            I.error(std::string(fn) + ": unknown keyword " + name + " (expected one of " + known + ")");
        }
        if (i + 1 >= n) I.error(std::string(fn) + ": keyword " + name + " has no value");
        out[j] = a[i + 1];
    }
}

SearchMode parse_mode(Interp& I, const char* fn, Value v, SearchMode dflt) {
    if (v == NO_VALUE || is_nil(v)) return dflt;
    if (is_symbol(v)) {
        auto nm = I.symbol_name(v);
        if (nm == ":count") return SearchMode::Count;
        if (nm == ":first") return SearchMode::First;
        if (nm == ":all") return SearchMode::All;
        if (nm == ":each") return SearchMode::Each;
    }
    I.error(std::string(fn) + ": :mode must be :count, :first, :all or :each, not " + I.describe(v));
}

int64_t parse_limit(Interp& I, const char* fn, const char* what, Value v) {
    if (v == NO_VALUE || is_nil(v)) return -1;
    if (!is_fixnum(v) || fixnum_value(v) < 0)
        I.error(std::string(fn) + ": " + what + " must be a non-negative integer, not " + I.describe(v));
    return fixnum_value(v);
}

Value optional_function(Interp& I, const char* fn, const char* what, Value v) {
    if (v == NO_VALUE || is_nil(v)) return NIL;
    bool named = is_obj(v) && as_obj(v)->type == Type::Symbol && is_function(as_symbol(v)->value);
    if (!is_function(v) && !named)
        I.error(std::string(fn) + ": " + what + " must be a function, not " + I.describe(v));
    return v;
}

// ---- statistics of the last search -------------------------------------------------

namespace {

struct StatsObj : Foreign {
    SearchStats st;
    int64_t ms = 0;
    const char* driver = "";
    const char* type_name() const override { return "search-stats"; }
    size_t byte_size() const override { return sizeof(*this); }
};

const char* STATS_SYMBOL = "%last-search-stats";

StatsObj* stats_object(Interp& I, bool create) {
    Value sym = I.intern(STATS_SYMBOL);
    Value v = I.global(sym);
    if (is_type(v, Type::Foreign)) {
        if (auto* s = dynamic_cast<StatsObj*>(as_foreign(v))) return s;
    }
    if (!create) return nullptr;
    StatsObj* s = I.heap.make<StatsObj>();
    I.set_global(sym, obj_value(s));
    return s;
}

} // namespace

StatsScope::StatsScope(Interp& I, const char* driver)
    : I_(I), driver_(driver), t0_(std::chrono::steady_clock::now()) {
    StatsObj* s = stats_object(I, true);
    target_ = s;
}

StatsScope::~StatsScope() {
    // The stats object is the value of a symbol; if a callback replaced that
    // value the object may be gone: only write into the one still there.
    // The symbol was interned by the constructor: looking it up does not allocate.
    Value v = I_.global(I_.intern(STATS_SYMBOL));
    if (!is_type(v, Type::Foreign) || as_foreign(v) != static_cast<Foreign*>(static_cast<StatsObj*>(target_)))
        return;
    StatsObj* s = static_cast<StatsObj*>(target_);
    s->st = st;
    s->driver = driver_;
    s->ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0_).count();
    if (std::uncaught_exceptions() > 0 && !s->st.stopped) s->st.stopped = ":unwound";
}

// ---- progress line -------------------------------------------------------------------

Progress::Progress(Interp& I, const char* driver, Value progress_arg) : I_(I), driver_(driver) {
    Value v = progress_arg;
    if (v == NO_VALUE) {
        v = I.global(I.intern("*search-progress*"));
        if (v == UNBOUND) v = I.intern(":auto");
    }
    tty_ = isatty(2);
    if (is_symbol(v) && !is_nil(v) && I.symbol_name(v) == ":auto") on_ = tty_;
    else on_ = truthy(v);
    t0_ = last_ = std::chrono::steady_clock::now();
}

void Progress::report(const SearchStats& s) {
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::seconds(1)) return;
    last_ = now;
    double secs = std::chrono::duration<double>(now - t0_).count();
    char buf[200];
    std::snprintf(buf, sizeof buf, "%s%s: %lld nodes, %lld solutions, %.0f nodes/s, depth %lld, %.0f s%s",
                  tty_ ? "\r" : "", driver_, (long long)s.nodes, (long long)s.solutions,
                  secs > 0 ? double(s.nodes) / secs : 0.0, (long long)s.depth, secs,
                  tty_ ? "\x1b[K" : "\n");
    std::fputs(buf, stderr);
    std::fflush(stderr);
    printed_ = true;
}

Progress::~Progress() {
    if (printed_ && tty_) {
        std::fputs("\r\x1b[K", stderr);
        std::fflush(stderr);
    }
}

namespace {

// ---- depth-first machinery (dfs, iddfs, idastar) ------------------------------------

struct DFrame {
    Value state;
    Value succs;     // successors not yet tried
    int64_t g;       // path cost (idastar)
    int64_t depth;
};

struct DfsStack : Foreign {
    std::vector<DFrame> frames;
    Value results = NIL;   // :all, newest first
    Value first = NIL;     // :first
    const char* type_name() const override { return "search-stack"; }
    void trace(Tracer& t) override {
        for (auto& f : frames) { t.mark(f.state); t.mark(f.succs); }
        t.mark(results);
        t.mark(first);
    }
    size_t byte_size() const override { return sizeof(*this) + frames.capacity() * sizeof(DFrame); }
};

struct DfsOpts {
    Value successors = NIL, goal = NIL, prune = NIL, on_solution = NIL, heuristic = NIL, cost = NIL;
    bool with_depth = false, no_cycles = false;
    SearchMode mode = SearchMode::Count;
    int64_t max_depth = -1, max_nodes = -1, max_solutions = -1;
};

int64_t arg_cost(Interp& I, const char* fn, const char* what, Value v) {
    if (!is_fixnum(v) || fixnum_value(v) < 0)
        I.error(std::string(fn) + ": the " + what + " must return a non-negative integer, not " + I.describe(v));
    return fixnum_value(v);
}

// The successors must be a proper list (checked once, so that the loops can
// walk it without further tests).
void check_successors(Interp& I, const char* fn, Value succs, Value state) {
    Value l = succs, slow = succs;
    while (is_pair(l)) {
        l = cdr(l);
        if (!is_pair(l)) break;
        l = cdr(l);
        slow = cdr(slow);
        if (l == slow)
            I.error(std::string(fn) + ": the successors function returned a circular list for " + I.describe(state));
    }
    if (!is_nil(l)) {
        if (l == succs)
            I.error(std::string(fn) + ": the successors function must return a list, not " + I.describe(succs));
        I.error(std::string(fn) + ": the successors function returned an improper list for " + I.describe(state));
    }
}

class DfsRun {
public:
    DfsRun(Interp& I, const char* fn, DfsOpts& o, DfsStack* st, SearchStats& s, Progress& p)
        : I(I), fn(fn), o(o), st(st), s(s), prog(p), cur(I) {}

    // One depth-first pass from start. depth_limit < 0: none. ida: cut nodes
    // whose f = g + h exceeds bound (next_bound gets the smallest such f).
    void run(Value start, int64_t depth_limit, bool ida, int64_t bound) {
        depth_limit_ = depth_limit;
        ida_ = ida;
        bound_ = bound;
        next_bound = INT64_MAX;
        cut_by_depth = false;
        st->frames.clear();
        cur = start;
        visit(0, 0);
        while (!stop && !st->frames.empty()) {
            DFrame& top = st->frames.back();
            if (is_nil(top.succs)) { st->frames.pop_back(); continue; }
            if (!is_pair(top.succs))
                I.error(std::string(fn) + ": the successors function returned an improper list for " +
                        I.describe(top.state));
            cur = car(top.succs);
            top.succs = cdr(top.succs);
            int64_t g = top.g;
            int64_t depth = top.depth + 1;
            if (ida_) {
                if (is_nil(o.cost)) g += 1;
                else {
                    Value parent = top.state;   // rooted by its frame
                    g += arg_cost(I, fn, "cost function", fcall2(I, o.cost, parent, cur));
                }
            }
            visit(depth, g);
        }
    }

    bool stop = false;
    bool cut_by_depth = false;
    int64_t next_bound = INT64_MAX;

private:
    void visit(int64_t depth, int64_t g) {
        s.nodes++;
        if (o.max_nodes >= 0 && s.nodes > o.max_nodes) {
            s.nodes--;
            stop = true;
            s.stopped = ":max-nodes";
            return;
        }
        I.poll();
        prog.tick(s);
        if (depth > s.depth) s.depth = depth;
        if (o.no_cycles) {
            for (auto& f : st->frames)
                if (equal_values(f.state, cur)) return;
        }
        if (!is_nil(o.prune) && truthy(fcall2(I, o.prune, cur, make_fixnum(depth)))) return;
        if (ida_) {
            int64_t h = arg_cost(I, fn, "heuristic", fcall1(I, o.heuristic, cur));
            int64_t f = g + h;
            if (f > bound_) {
                if (f < next_bound) next_bound = f;
                return;
            }
        }
        if (truthy(fcall1(I, o.goal, cur))) {
            solution();
            return;
        }
        if (depth_limit_ >= 0 && depth >= depth_limit_) {
            cut_by_depth = true;
            return;
        }
        Value succs = o.with_depth ? fcall2(I, o.successors, cur, make_fixnum(depth))
                                   : fcall1(I, o.successors, cur);
        check_successors(I, fn, succs, cur);
        st->frames.push_back({cur, succs, g, depth});
    }

    void solution() {
        s.solutions++;
        if (o.mode != SearchMode::Count) {
            Root path(I, I.cons(cur, NIL));
            for (size_t i = st->frames.size(); i-- > 0;) path = I.cons(st->frames[i].state, path);
            switch (o.mode) {
            case SearchMode::First:
                st->first = path;
                stop = true;
                s.stopped = ":first";
                return;
            case SearchMode::All: st->results = I.cons(path, st->results); break;
            case SearchMode::Each: fcall1(I, o.on_solution, path); break;
            default: break;
            }
        }
        if (o.max_solutions >= 0 && s.solutions >= o.max_solutions) {
            stop = true;
            s.stopped = ":max-solutions";
        }
    }

    Interp& I;
    const char* fn;
    DfsOpts& o;
    DfsStack* st;
    SearchStats& s;
    Progress& prog;
    Root cur;   // the node being visited
    int64_t depth_limit_ = -1;
    bool ida_ = false;
    int64_t bound_ = 0;
};

Value dfs_result(Interp& I, DfsOpts& o, DfsStack* st, SearchStats& s) {
    switch (o.mode) {
    case SearchMode::First: return st->first;
    case SearchMode::All: return nreverse_list(st->results);
    default: return I.make_int(s.solutions);
    }
}

void check_each(Interp& I, const char* fn, DfsOpts& o) {
    if (o.mode == SearchMode::Each && is_nil(o.on_solution))
        I.error(std::string(fn) + ": :mode :each needs :on-solution");
    if (!is_nil(o.on_solution) && o.mode == SearchMode::Count) o.mode = SearchMode::Each;
}

// Keywords common to the depth-first drivers, in this order.
#define DFS_KEYS "prune", "max-depth", "with-depth", "mode", "on-solution", "max-nodes", \
                 "max-solutions", "progress", "no-cycles"

void read_dfs_keys(Interp& I, const char* fn, const Value* k, DfsOpts& o) {
    o.prune = optional_function(I, fn, ":prune", k[0]);
    o.max_depth = parse_limit(I, fn, ":max-depth", k[1]);
    o.with_depth = k[2] != NO_VALUE && truthy(k[2]);
    o.mode = parse_mode(I, fn, k[3], SearchMode::Count);
    o.on_solution = optional_function(I, fn, ":on-solution", k[4]);
    o.max_nodes = parse_limit(I, fn, ":max-nodes", k[5]);
    o.max_solutions = parse_limit(I, fn, ":max-solutions", k[6]);
    o.no_cycles = k[8] != NO_VALUE && truthy(k[8]);
    check_each(I, fn, o);
}

Value bi_dfs(Interp& I, Value* a, int n) {
    const char* fn = "dfs";
    DfsOpts o;
    o.successors = arg_function(I, fn, a[1]);
    o.goal = arg_function(I, fn, a[2]);
    Value k[9];
    parse_keywords(I, fn, a, 3, n, {DFS_KEYS}, k);
    read_dfs_keys(I, fn, k, o);
    StatsScope stats(I, fn);
    Progress prog(I, fn, k[7]);
    DfsStack* st = I.heap.make<DfsStack>();
    Root keep(I, obj_value(st));
    DfsRun run(I, fn, o, st, stats.st, prog);
    run.run(a[0], o.max_depth, false, 0);
    stats.st.seen = stats.st.nodes;
    return dfs_result(I, o, st, stats.st);
}

Value bi_iddfs(Interp& I, Value* a, int n) {
    const char* fn = "iddfs";
    DfsOpts o;
    o.successors = arg_function(I, fn, a[1]);
    o.goal = arg_function(I, fn, a[2]);
    Value k[9];
    parse_keywords(I, fn, a, 3, n, {DFS_KEYS}, k);
    read_dfs_keys(I, fn, k, o);
    StatsScope stats(I, fn);
    Progress prog(I, fn, k[7]);
    DfsStack* st = I.heap.make<DfsStack>();
    Root keep(I, obj_value(st));
    DfsRun run(I, fn, o, st, stats.st, prog);
    for (int64_t d = 0; o.max_depth < 0 || d <= o.max_depth; d++) {
        run.run(a[0], d, false, 0);
        stats.st.depth = d;
        if (run.stop || stats.st.solutions > 0 || !run.cut_by_depth) break;
    }
    stats.st.seen = stats.st.nodes;
    return dfs_result(I, o, st, stats.st);
}

Value bi_idastar(Interp& I, Value* a, int n) {
    const char* fn = "idastar";
    DfsOpts o;
    o.successors = arg_function(I, fn, a[1]);
    o.goal = arg_function(I, fn, a[2]);
    o.heuristic = arg_function(I, fn, a[3]);
    Value k[11];
    parse_keywords(I, fn, a, 4, n, {DFS_KEYS, "cost", "max-bound"}, k);
    read_dfs_keys(I, fn, k, o);
    o.cost = optional_function(I, fn, ":cost", k[9]);
    int64_t max_bound = parse_limit(I, fn, ":max-bound", k[10]);
    StatsScope stats(I, fn);
    Progress prog(I, fn, k[7]);
    DfsStack* st = I.heap.make<DfsStack>();
    Root keep(I, obj_value(st));
    DfsRun run(I, fn, o, st, stats.st, prog);
    int64_t bound = arg_cost(I, fn, "heuristic", fcall1(I, o.heuristic, a[0]));
    for (;;) {
        if (max_bound >= 0 && bound > max_bound) break;
        run.run(a[0], o.max_depth, true, bound);
        stats.st.depth = bound;   // idastar reports the last cost bound
        if (run.stop || stats.st.solutions > 0 || run.next_bound == INT64_MAX) break;
        bound = run.next_bound;
    }
    stats.st.seen = stats.st.nodes;
    return dfs_result(I, o, st, stats.st);
}

// ---- breadth-first ---------------------------------------------------------------------

struct BNode {
    Value state;
    int32_t parent;    // -1: the start
    int32_t extra;     // more parents at the same distance (index into BfsStore::extra), -1: none
    int64_t depth;
};

struct BfsStore : Foreign {
    std::vector<BNode> nodes;
    std::vector<std::pair<int32_t, int32_t>> extra;   // (parent, next)
    Value table = NIL;     // key -> node index
    Value results = NIL;   // newest first
    Value succs = NIL;     // the successor list being scanned
    const char* type_name() const override { return "bfs-store"; }
    void trace(Tracer& t) override {
        for (auto& nd : nodes) t.mark(nd.state);
        t.mark(table);
        t.mark(results);
        t.mark(succs);
    }
    size_t byte_size() const override {
        return sizeof(*this) + nodes.capacity() * sizeof(BNode) + extra.capacity() * 8;
    }
};

Value bfs_path(Interp& I, BfsStore* b, int32_t i) {
    Root path(I, NIL);
    for (; i >= 0; i = b->nodes[size_t(i)].parent) path = I.cons(b->nodes[size_t(i)].state, path);
    return path;
}

Value bi_bfs(Interp& I, Value* a, int n) {
    const char* fn = "bfs";
    Value successors = arg_function(I, fn, a[1]);
    Value goal = arg_function(I, fn, a[2]);
    Value k[9];
    parse_keywords(I, fn, a, 3, n,
                   {"key", "test", "mode", "max-nodes", "progress", "on-solution", "with-depth", "max-solutions", "max-depth"}, k);
    Value keyfn = optional_function(I, fn, ":key", k[0]);
    bool equal = true;
    if (k[1] != NO_VALUE) {
        Value t = k[1];
        if (is_native(t)) t = I.intern(as_native(t)->name);
        std::string nm = is_symbol(t) && !is_nil(t) ? std::string(I.symbol_name(t)) : "";
        if (!nm.empty() && nm[0] == ':') nm = nm.substr(1);
        if (nm == "equal") equal = true;
        else if (nm == "eq" || nm == "eql") equal = false;
        else I.error("bfs: :test must be :equal or :eq, not " + I.describe(k[1]));
    }
    SearchMode mode = parse_mode(I, fn, k[2], SearchMode::First);
    int64_t max_nodes = parse_limit(I, fn, ":max-nodes", k[3]);
    Value on_solution = optional_function(I, fn, ":on-solution", k[5]);
    bool with_depth = k[6] != NO_VALUE && truthy(k[6]);
    int64_t max_solutions = parse_limit(I, fn, ":max-solutions", k[7]);
    int64_t max_depth = parse_limit(I, fn, ":max-depth", k[8]);
    if (mode == SearchMode::Each && is_nil(on_solution)) I.error("bfs: :mode :each needs :on-solution");

    StatsScope stats(I, fn);
    SearchStats& s = stats.st;
    Progress prog(I, fn, k[4]);
    BfsStore* b = I.heap.make<BfsStore>();
    Root keep(I, obj_value(b));
    HashTable* table = I.heap.make<HashTable>(equal);
    b->table = obj_value(table);
    Root cur(I, a[0]);
    Root key(I, NIL);

    std::vector<int32_t> goals;
    int64_t found_depth = -1;
    bool stop = false;

    auto add_node = [&](Value state, int32_t parent, int64_t depth) -> int32_t {
        if (b->nodes.size() >= size_t(INT32_MAX)) I.error("bfs: too many states");
        int32_t idx = int32_t(b->nodes.size());
        b->nodes.push_back({state, parent, -1, depth});
        hash_put(I, table, key, make_fixnum(idx));
        if (depth > s.depth) s.depth = depth;
        return idx;
    };

    s.nodes = 1;
    key = is_nil(keyfn) ? Value(cur) : fcall1(I, keyfn, cur);
    add_node(cur, -1, 0);
    if (truthy(fcall1(I, goal, cur))) {
        goals.push_back(0);
        found_depth = 0;
    }
    size_t head = 0;
    while (found_depth < 0 || mode != SearchMode::First) {
        if (head >= b->nodes.size()) break;
        int32_t i = int32_t(head++);
        int64_t d = b->nodes[size_t(i)].depth;
        if (found_depth >= 0 && d >= found_depth) break;    // the goal level is complete
        if (max_depth >= 0 && d >= max_depth) break;
        cur = b->nodes[size_t(i)].state;
        b->succs = with_depth ? fcall2(I, successors, cur, make_fixnum(d)) : fcall1(I, successors, cur);
        check_successors(I, fn, b->succs, cur);
        while (!is_nil(b->succs)) {
            if (!is_pair(b->succs))
                I.error("bfs: the successors function returned an improper list for " +
                        I.describe(b->nodes[size_t(i)].state));
            cur = car(b->succs);
            b->succs = cdr(b->succs);
            s.nodes++;
            if (max_nodes >= 0 && s.nodes > max_nodes) {
                s.nodes--;
                s.stopped = ":max-nodes";
                stop = true;
                break;
            }
            I.poll();
            prog.tick(s);
            key = is_nil(keyfn) ? Value(cur) : fcall1(I, keyfn, cur);
            Value seen = hash_get(table, key, NO_VALUE);
            if (seen != NO_VALUE) {
                // Another shortest path to a state of the next level (only :all-like modes need them).
                int32_t j = int32_t(fixnum_value(seen));
                BNode& nj = b->nodes[size_t(j)];
                if (mode != SearchMode::First && nj.depth == d + 1 && nj.parent != i) {
                    bool dup = false;
                    for (int32_t e = nj.extra; e >= 0; e = b->extra[size_t(e)].second)
                        if (b->extra[size_t(e)].first == i) { dup = true; break; }
                    if (!dup) {
                        // Keep the extra parents in increasing order: append at the end.
                        int32_t ne = int32_t(b->extra.size());
                        b->extra.push_back({i, -1});
                        if (nj.extra < 0) nj.extra = ne;
                        else {
                            int32_t e = nj.extra;
                            while (b->extra[size_t(e)].second >= 0) e = b->extra[size_t(e)].second;
                            b->extra[size_t(e)].second = ne;
                        }
                    }
                }
                continue;
            }
            int32_t j = add_node(cur, i, d + 1);
            if (truthy(fcall1(I, goal, cur))) {
                goals.push_back(j);
                found_depth = d + 1;
                if (mode == SearchMode::First) break;
            }
        }
        b->succs = NIL;
        if (stop) break;
    }
    s.seen = int64_t(b->nodes.size());
    if (goals.empty()) return mode == SearchMode::Count || mode == SearchMode::Each ? make_fixnum(0) : NIL;
    s.depth = found_depth;
    if (mode == SearchMode::First) {
        s.solutions = 1;
        return bfs_path(I, b, goals[0]);
    }

    // All shortest paths: the parent links of the goal level form a DAG; walk
    // it forward from the start, children in discovery order, so the paths
    // come out in lexicographic order of the discovery indices of their states.
    size_t N = b->nodes.size();
    std::vector<char> marked(N, 0);
    std::vector<int32_t> work(goals.begin(), goals.end());
    for (int32_t g : goals) marked[size_t(g)] = 1;
    auto for_parents = [&](int32_t j, auto&& f) {
        const BNode& nj = b->nodes[size_t(j)];
        if (nj.parent >= 0) f(nj.parent);
        for (int32_t e = nj.extra; e >= 0; e = b->extra[size_t(e)].second) f(b->extra[size_t(e)].first);
    };
    while (!work.empty()) {
        int32_t j = work.back();
        work.pop_back();
        for_parents(j, [&](int32_t p) {
            if (!marked[size_t(p)]) { marked[size_t(p)] = 1; work.push_back(p); }
        });
    }
    std::vector<std::vector<int32_t>> children(N);
    for (size_t j = 0; j < N; j++)
        if (marked[j]) for_parents(int32_t(j), [&](int32_t p) { children[size_t(p)].push_back(int32_t(j)); });
    for (auto& c : children) std::sort(c.begin(), c.end());
    // Iterative walk: path of node indices with the next child to try at each level.
    std::vector<std::pair<int32_t, size_t>> walk{{0, 0}};
    Root results(I, NIL);
    int64_t count = 0;
    while (!walk.empty() && !stop) {
        auto& [node, next] = walk.back();
        if (b->nodes[size_t(node)].depth == found_depth) {
            count++;
            s.solutions = count;
            if (mode != SearchMode::Count) {
                Root path(I, NIL);
                for (size_t l = walk.size(); l-- > 0;) path = I.cons(b->nodes[size_t(walk[l].first)].state, path);
                if (mode == SearchMode::Each) fcall1(I, on_solution, path);
                else results = I.cons(path, results);
            }
            if (max_solutions >= 0 && count >= max_solutions) { s.stopped = ":max-solutions"; break; }
            walk.pop_back();
            I.poll();
            continue;
        }
        auto& ch = children[size_t(node)];
        if (next >= ch.size()) { walk.pop_back(); continue; }
        int32_t c = ch[next++];
        walk.push_back({c, 0});
    }
    if (mode == SearchMode::All) return nreverse_list(results);
    return I.make_int(count);
}

// (last-search-stats): (:nodes n :seen n :solutions n :seconds-ms n :depth d :driver name :stopped why)
Value bi_last_search_stats(Interp& I, Value*, int) {
    StatsObj* so = stats_object(I, false);
    if (!so) return NIL;
    SearchStats st = so->st;
    int64_t ms = so->ms;
    const char* driver = so->driver;
    Root l(I, NIL);
    l = I.cons(st.stopped ? I.intern(st.stopped) : NIL, l);
    l = I.cons(I.intern(":stopped"), l);
    l = I.cons(I.intern(driver), l);
    l = I.cons(I.intern(":driver"), l);
    l = I.cons(make_fixnum(st.depth), l);
    l = I.cons(I.intern(":depth"), l);
    l = I.cons(make_fixnum(ms), l);
    l = I.cons(I.intern(":seconds-ms"), l);
    l = I.cons(make_fixnum(st.solutions), l);
    l = I.cons(I.intern(":solutions"), l);
    l = I.cons(make_fixnum(st.seen), l);
    l = I.cons(I.intern(":seen"), l);
    l = I.cons(make_fixnum(st.nodes), l);
    l = I.cons(I.intern(":nodes"), l);
    return l;
}

const BuiltinDef search_lib[] = {
    {"dfs", bi_dfs, 3, -1,
     "(dfs start successors goal &key prune max-depth with-depth mode on-solution max-nodes max-solutions no-cycles progress):\n"
     "depth-first search. (successors state [depth]) lists the next states, (goal state) ends a path,\n"
     "(prune state depth) cuts a node. :mode :count (default), :first (a path), :all (list of paths), :each."},
    {"bfs", bi_bfs, 3, -1,
     "(bfs start successors goal &key key test mode max-nodes max-depth with-depth on-solution max-solutions progress):\n"
     "breadth-first search with a visited set keyed by (key state) under :equal (default) or :eq.\n"
     ":mode :first (default; a shortest path), :all (every shortest path), :count, :each."},
    {"iddfs", bi_iddfs, 3, -1,
     "(iddfs start successors goal &key max-depth mode ...): iterative deepening; the paths of minimal length."},
    {"idastar", bi_idastar, 4, -1,
     "(idastar start successors goal heuristic &key cost max-bound mode ...): IDA*; (cost a b) defaults to 1 per step."},
    {"last-search-stats", bi_last_search_stats, 0, 0,
     "(last-search-stats): (:nodes n :seen n :solutions n :seconds-ms n :depth d :driver name :stopped why) of the last search."},
};

} // namespace

void open_search(Interp& I) {
    register_builtins(I, search_lib);
    Value sym = I.intern("*search-progress*");
    as_symbol(sym)->flags |= SYM_SPECIAL;
    if (I.global(sym) == UNBOUND) I.set_global(sym, I.intern(":auto"));
}

} // namespace lipq
