// game.cpp — a solver for two-player impartial games (normal play: the
// player who cannot move loses; :misere t reverses that), with a
// transposition table, symmetry canonicalisation and statistics.
//
//   (game-solve start children [:want :win|:move|:grundy] [:key f]
//               [:canonical f-or-perms] [:order :logcount|f] [:misere t]
//               [:tt-min-bits k] [:table-limit n] [:max-nodes n]
//               [:max-seconds s] [:max-cpu-seconds s] [:progress t|f])
//   (last-game-stats)  => (:nodes n :entries n :probes n :hits n
//                          :replaced n :max-depth n :seconds-ms n :cpu-ms n :native t/nil)
//   :nodes counts the positions expanded (children generated), not table hits.
//
// CHILDREN is either
//  * a function: (children pos) returns the list of positions after each move,
//    in the order to try them (an empty list: the player to move has no move);
//    positions are any Lisp values, or
//  * a vector of masks (the native bitboard mode): positions are non-negative
//    integers, a move is a 1 bit s of the position and leads to
//    (logand pos (aref masks s)); each mask must clear its own bit s, so the
//    game ends. The whole search then runs in C++ ("take a vertex, remove its
//    closed neighbourhood" games: Node Kayles, the queens game, ...).
//
// The table key of a position is (key (canonical pos)), each step optional.
// :canonical may also be a list of bit permutation vectors (see bitperm.cpp):
// the key is then the least image of the integer position, computed natively.
// Keys that are non-negative integers are stored as raw words in a C++ hash
// table (bucketed; when :table-limit entries are reached the entry with the
// smallest subtree is replaced); other keys go to an `equal` hash table.
// :tt-min-bits k skips the table for integer positions with fewer than k
// 1 bits (cheap positions are re-searched rather than stored).
//
// Results: :win → t or nil (does the player to move win?); :move → nil when
// the player to move loses, else (child move): the first winning child found
// and its move (the child's index in the children list, or the bit s in the
// native mode); :grundy → the Grundy value (a full search: no early exit).
//
// The recursion over the game tree is an explicit stack of frames (the Lisp
// mode) or bounded by the number of bits of the start (the native mode), so a
// deep game never overflows the C stack. The search polls for Ctrl-C and the
// interpreter's time and step limits; errors in callbacks propagate; :max-nodes,
// :max-seconds (wall clock) and :max-cpu-seconds (process CPU) end the search
// with a Lisp error (the statistics are kept). :progress t prints a line per
// decided root move on the error stream; a function gets
// (index count move value nodes) for each.
#include "bitperm.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <memory>

namespace lipq {

Value hash_get(HashTable* t, Value k, Value deflt);
void hash_put(Interp& I, HashTable* t, Value k, Value v);

namespace {

using bits::u64;

// ---- statistics (kept in a Foreign on a property of last-game-stats) ----------
struct GameStats : Foreign {
    u64 nodes = 0, entries = 0, probes = 0, hits = 0, replaced = 0, max_depth = 0;
    double seconds = 0, cpu_seconds = 0;
    bool native = false;
    void reset() { nodes = entries = probes = hits = replaced = max_depth = 0; seconds = cpu_seconds = 0; native = false; }
    const char* type_name() const override { return "game-stats"; }
    size_t byte_size() const override { return sizeof(*this); }
};

GameStats* stats_of(Interp& I) {
    Value holder = I.intern("last-game-stats");
    Value s = I.get_prop(holder, I.intern("%game-stats"));
    if (!is_type(s, Type::Foreign)) {
        s = obj_value(I.heap.make<GameStats>());
        Root r(I, s);
        I.put_prop(holder, I.intern("%game-stats"), s);
    }
    return static_cast<GameStats*>(as_obj(s));
}

// ---- the integer-keyed transposition table ----------------------------------------
// Open addressing, a probe window of 8 slots; a key is `width` words. Grows
// (doubling, or widening when a longer key arrives) at 70% load or when a
// window is full, while below the slot limit; at the limit a full window
// gives up the entry with the least work (log2 of its subtree's node count).
class IntTable {
public:
    static constexpr size_t WINDOW = 8;
    explicit IntTable(size_t limit) : limit_(std::max<size_t>(limit, 64)) { rebuild(1, 64); }

    // -1: absent, else the stored value.
    int probe(const u64* k, size_t n) {
        if (!fits(k, n)) return -1;
        size_t h = size_t(hash(k, n)) & mask_;
        for (size_t d = 0; d < WINDOW; d++) {
            size_t i = (h + d) & mask_;
            if (!meta_[i].used) return -1;
            if (same(i, k, n)) return meta_[i].value;
        }
        return -1;
    }

    void store(const u64* k, size_t n, int value, u64 work, u64& replaced) {
        size_t need = n;
        while (need > 1 && !k[need - 1]) need--;
        if (need > width_) rebuild(need, meta_.size());
        for (;;) {
            size_t h = size_t(hash(k, n)) & mask_;
            for (size_t d = 0; d < WINDOW; d++) {
                size_t i = (h + d) & mask_;
                if (!meta_[i].used) {
                    set(i, k, n, value, work);
                    count_++;
                    if (count_ * 10 > meta_.size() * 7 && meta_.size() * 2 <= limit_) rebuild(width_, meta_.size() * 2);
                    return;
                }
                if (same(i, k, n)) { set(i, k, n, value, work); return; }
            }
            if (meta_.size() * 2 <= limit_) { rebuild(width_, meta_.size() * 2); continue; }
            size_t v = h;
            for (size_t d = 1; d < WINDOW; d++) {
                size_t i = (h + d) & mask_;
                if (meta_[i].work < meta_[v].work) v = i;
            }
            set(v, k, n, value, work);
            replaced++;
            return;
        }
    }
    size_t count() const { return count_; }

private:
    struct Meta { uint16_t value; uint8_t work; uint8_t used; };
    size_t limit_, width_ = 1, mask_ = 0, count_ = 0;
    std::vector<u64> keys_;
    std::vector<Meta> meta_;

    static u64 hash(const u64* k, size_t n) {
        while (n && !k[n - 1]) n--;   // the same integer, whatever its padding
        u64 h = 0x9E3779B97F4A7C15ULL;
        for (size_t i = 0; i < n; i++) {
            h ^= k[i];
            h *= 0xff51afd7ed558ccdULL;
            h ^= h >> 32;
        }
        h *= 0xc4ceb9fe1a85ec53ULL;
        return h ^ (h >> 29);
    }
    bool fits(const u64* k, size_t n) const {
        for (size_t i = width_; i < n; i++)
            if (k[i]) return false;
        return true;
    }
    bool same(size_t slot, const u64* k, size_t n) const {
        const u64* s = &keys_[slot * width_];
        for (size_t i = 0; i < width_; i++)
            if (s[i] != (i < n ? k[i] : 0)) return false;
        return fits(k, n);
    }
    void set(size_t slot, const u64* k, size_t n, int value, u64 work) {
        u64* s = &keys_[slot * width_];
        for (size_t i = 0; i < width_; i++) s[i] = i < n ? k[i] : 0;
        int lw = 63 - __builtin_clzll(work | 1);
        meta_[slot] = {uint16_t(value), uint8_t(lw), 1};
    }
    void rebuild(size_t width, size_t slots) {
        std::vector<u64> oldk;
        std::vector<Meta> oldm;
        oldk.swap(keys_);
        oldm.swap(meta_);
        size_t oldw = width_;
        width_ = width;
        keys_.assign(slots * width_, 0);
        meta_.assign(slots, Meta{0, 0, 0});
        mask_ = slots - 1;
        count_ = 0;
        for (size_t i = 0; i < oldm.size(); i++) {
            if (!oldm[i].used) continue;
            const u64* k = &oldk[i * oldw];
            size_t h = size_t(hash(k, oldw)) & mask_;
            for (size_t d = 0; d < WINDOW; d++) {
                size_t j = (h + d) & mask_;
                if (!meta_[j].used) {
                    u64* s = &keys_[j * width_];
                    for (size_t w = 0; w < width_; w++) s[w] = w < oldw ? k[w] : 0;
                    meta_[j] = oldm[i];
                    count_++;
                    break;
                }
            }
        }
    }
};

// ---- options -----------------------------------------------------------------------
enum class Want { Win, Move, Grundy };

struct Options {
    Want want = Want::Win;
    Value key = NIL, canonical = NIL, order = NIL, progress = NIL;
    bool order_logcount = false, misere = false, canon_perms = false;
    int64_t tt_min_bits = 0;
    u64 table_limit = u64(1) << 26;
    u64 max_nodes = 0;
    double max_seconds = 0, max_cpu_seconds = 0;
};

bool kw_is(Interp& I, Value v, const char* name) {
    return is_symbol(v) && !is_nil(v) && I.symbol_name(v) == name;
}

void parse_options(Interp& I, Value* a, int n, Options& o) {
    const char* who = "game-solve";
    if (n % 2) I.error("game-solve: options come in pairs (:keyword value)");
    for (int i = 0; i < n; i += 2) {
        Value k = a[i], v = a[i + 1];
        if (kw_is(I, k, ":want")) {
            if (kw_is(I, v, ":win")) o.want = Want::Win;
            else if (kw_is(I, v, ":move")) o.want = Want::Move;
            else if (kw_is(I, v, ":grundy")) o.want = Want::Grundy;
            else I.error("game-solve: :want must be :win, :move or :grundy, not " + I.describe(v));
        } else if (kw_is(I, k, ":key")) {
            if (!is_nil(v)) arg_function(I, who, v);
            o.key = v;
        } else if (kw_is(I, k, ":canonical")) {
            o.canonical = v;
            o.canon_perms = !is_nil(v) && !is_function(v);
        } else if (kw_is(I, k, ":order")) {
            if (kw_is(I, v, ":logcount")) o.order_logcount = true;
            else if (!is_nil(v)) o.order = arg_function(I, who, v);
        } else if (kw_is(I, k, ":misere")) {
            o.misere = truthy(v);
        } else if (kw_is(I, k, ":tt-min-bits")) {
            o.tt_min_bits = arg_index(I, who, v);
        } else if (kw_is(I, k, ":table-limit")) {
            o.table_limit = u64(arg_index(I, who, v));
        } else if (kw_is(I, k, ":max-nodes")) {
            o.max_nodes = is_nil(v) ? 0 : u64(arg_index(I, who, v));
        } else if (kw_is(I, k, ":max-seconds")) {
            o.max_seconds = is_nil(v) ? 0 : double(arg_index(I, who, v));
        } else if (kw_is(I, k, ":max-cpu-seconds")) {
            o.max_cpu_seconds = is_nil(v) ? 0 : double(arg_index(I, who, v));
        } else if (kw_is(I, k, ":progress")) {
            o.progress = v;
        } else {
            I.error("game-solve: unknown option " + I.describe(k) +
                    " (known: :want :key :canonical :order :misere :tt-min-bits :table-limit :max-nodes "
                    ":max-seconds :max-cpu-seconds :progress)");
        }
    }
    if (o.misere && o.want == Want::Grundy) I.error("game-solve: :grundy is for normal play, not :misere");
}

// Shared search state: counters, limits, timing, progress.
struct Common {
    Interp& I;
    Options& o;
    GameStats& st;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    u64 poll_tick = 0;
    Common(Interp& in, Options& op, GameStats& s) : I(in), o(op), st(s) {}

    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    void count_node() {
        st.nodes++;
        if (o.max_nodes && st.nodes > o.max_nodes)
            I.error("game-solve: node limit reached (" + std::to_string(o.max_nodes) + " nodes)");
        if ((++poll_tick & 1023) == 0) {
            I.poll_count = 1;
            I.poll();
            if (o.max_seconds > 0 && elapsed() > o.max_seconds)
                I.error("game-solve: time limit reached (" + std::to_string(int64_t(o.max_seconds)) + " s)");
            if (o.max_cpu_seconds > 0 && double(std::clock() - c0) / CLOCKS_PER_SEC > o.max_cpu_seconds)
                I.error("game-solve: CPU time limit reached (" + std::to_string(int64_t(o.max_cpu_seconds)) +
                        " s)");
        }
    }
    // A root child has been decided: report it.
    void progress(int64_t index, int64_t total, Value move, int value, u64 nodes_before) {
        if (is_nil(o.progress)) return;
        u64 ms = u64(elapsed() * 1000);
        if (is_function(o.progress)) {
            Value args[5] = {make_fixnum(index), make_fixnum(total), move, make_fixnum(value),
                             I.make_int(int64_t(st.nodes - nodes_before))};
            StackMark m(I);
            for (Value& v : args) I.push(v);
            I.apply(o.progress, I.sp - 5, 5);
            return;
        }
        std::string line = "game-solve: root move " + std::to_string(index + 1) + "/" + std::to_string(total) +
                           " (" + I.describe(move, 60) + "): " +
                           (o.want == Want::Grundy ? "grundy " + std::to_string(value)
                                                   : std::string(value ? "the opponent wins" : "the opponent LOSES")) +
                           ", " + std::to_string(st.nodes - nodes_before) + " nodes, " + std::to_string(ms) +
                           " ms total\n";
        if (I.write_err) I.write_err(line);
        else { std::fputs(line.c_str(), stderr); std::fflush(stderr); }
    }
};

int mex(const std::vector<uint8_t>& seen) {
    size_t m = 0;
    while (m < seen.size() && seen[m]) m++;
    return int(m);
}
void mark_seen(std::vector<uint8_t>& seen, int v) {
    if (v < 0) return;
    if (size_t(v) >= seen.size()) seen.resize(size_t(v) + 1, 0);
    seen[size_t(v)] = 1;
}

// ======================= the native bitboard mode ===================================
struct NativeSearch {
    Common& C;
    size_t W = 1;                  // words per position
    size_t nbits = 0;              // number of masks
    std::vector<u64> masks;        // nbits * W
    bits::PermSet perms;
    bool use_perms = false;
    IntTable tt;
    std::vector<u64> scratch;
    // Per-depth work space, allocated when the depth is first reached and never
    // resized afterwards (a child position is read in place by the level below).
    struct Level {
        std::vector<u64> kids, key;
        std::vector<int> score, move;
        std::vector<uint16_t> ord;
    };
    std::vector<std::unique_ptr<Level>> levels;
    int root_move_bit = -1;

    NativeSearch(Common& c, u64 limit) : C(c), tt(size_t(limit)) {}

    Level& level(size_t depth) {
        while (levels.size() <= depth) {
            auto L = std::make_unique<Level>();
            L->kids.assign(nbits * W, 0);
            L->key.assign(W, 0);
            L->score.assign(nbits, 0);
            L->move.assign(nbits, 0);
            L->ord.assign(nbits, 0);
            levels.push_back(std::move(L));
        }
        return *levels[depth];
    }

    int solve(const u64* a, size_t depth) {
        C.I.check_cstack();
        int pc = bits::popcount_words(a, W);
        if (pc == 0) return C.o.want == Want::Grundy ? 0 : (C.o.misere ? 1 : 0);
        if (depth > C.st.max_depth) C.st.max_depth = depth;
        Level& L = level(depth);
        bool use_tt = pc >= C.o.tt_min_bits;
        u64* key = L.key.data();
        if (use_tt) {
            if (use_perms) bits::min_image_words(perms, a, key, scratch.data());
            else std::memcpy(key, a, W * sizeof(u64));
            C.st.probes++;
            int r = tt.probe(key, W);
            if (r >= 0) { C.st.hits++; return r; }
        }
        C.count_node();
        u64 before = C.st.nodes;
        size_t nk = 0;
        for (size_t w = 0; w < W; w++) {
            u64 m = a[w];
            while (m) {
                size_t s = w * 64 + size_t(__builtin_ctzll(m));
                m &= m - 1;
                u64* c = &L.kids[nk * W];
                const u64* mk = &masks[s * W];
                for (size_t i = 0; i < W; i++) c[i] = a[i] & mk[i];
                int sc = C.o.order_logcount ? bits::popcount_words(c, W) : 0;
                // insertion into the order (stable: equal scores keep bit order)
                size_t j = nk;
                while (j > 0 && L.score[L.ord[j - 1]] > sc) { L.ord[j] = L.ord[j - 1]; j--; }
                L.ord[j] = uint16_t(nk);
                L.score[nk] = sc;
                L.move[nk] = int(s);
                nk++;
            }
        }
        int result = 0;
        std::vector<uint8_t> seen;
        for (size_t j = 0; j < nk; j++) {
            size_t k = L.ord[j];
            u64 nb = C.st.nodes;
            int v = solve(&L.kids[k * W], depth + 1);
            if (depth == 0) C.progress(int64_t(j), int64_t(nk), make_fixnum(L.move[k]), v, nb);
            if (C.o.want == Want::Grundy) mark_seen(seen, v);
            else if (v == 0) {
                result = 1;
                if (depth == 0) root_move_bit = L.move[k];
                break;
            }
        }
        if (C.o.want == Want::Grundy) result = mex(seen);
        else if (nk == 0) result = C.o.misere ? 1 : 0;
        if (use_tt) {
            tt.store(key, W, result, C.st.nodes - before + 1, C.st.replaced);
            C.st.entries = tt.count();
        }
        return result;
    }
};

Value run_native(Interp& I, Value start, Value maskv, Options& o, GameStats& st) {
    const char* who = "game-solve";
    st.native = true;
    Common C(I, o, st);
    if (!is_nil(o.key)) I.error("game-solve: :key is not used with a vector of masks (the key is the position)");
    if (!is_nil(o.order)) I.error("game-solve: with a vector of masks, :order must be :logcount or nil");
    if (is_function(o.canonical)) I.error("game-solve: with a vector of masks, :canonical must be permutation vectors");
    NativeSearch S(C, o.table_limit);
    const auto& items = as_vector(maskv)->items;
    S.nbits = items.size();
    if (S.nbits == 0 || S.nbits > 4096) I.error("game-solve: the mask vector must have 1..4096 entries");
    size_t W = (S.nbits + 63) / 64;
    if (o.canon_perms) {
        bits::parse_perm_set(I, who, o.canonical, S.perms);
        if (S.perms.nbits != S.nbits)
            I.error("game-solve: the permutations must cover exactly the " + std::to_string(S.nbits) + " mask bits");
        W = std::max(W, S.perms.words);
        S.use_perms = S.perms.count > 0;
    }
    S.W = W;
    S.masks.assign(S.nbits * W, 0);
    for (size_t s = 0; s < S.nbits; s++) {
        int64_t n = bits::word_count(items[s]);
        if (n < 0) I.type_error(who, "a non-negative integer mask", items[s]);
        std::vector<u64> tmp(std::max<size_t>(size_t(n), W));
        bits::read_words(items[s], tmp.data(), tmp.size());
        std::memcpy(&S.masks[s * W], tmp.data(), W * sizeof(u64));
        if ((S.masks[s * W + s / 64] >> (s % 64)) & 1)
            I.error("game-solve: mask " + std::to_string(s) + " keeps its own bit " + std::to_string(s) +
                    " (a move must remove its square, or the game need not end)");
    }
    int64_t n = bits::word_count(start);
    if (n < 0) I.type_error(who, "a non-negative integer position (with a vector of masks)", start);
    std::vector<u64> a(std::max<size_t>(size_t(n), W));
    bits::read_words(start, a.data(), a.size());
    for (size_t i = 0; i < a.size(); i++) {
        u64 allowed = 0;
        for (size_t b = 0; b < 64; b++)
            if (i * 64 + b < S.nbits) allowed |= u64(1) << b;
        if (a[i] & ~allowed)
            I.error("game-solve: the start position has a bit beyond the " + std::to_string(S.nbits) + " masks");
    }
    a.resize(W);
    S.scratch.assign(std::max<size_t>(S.perms.count, 1) * W, 0);
    int r = S.solve(a.data(), 0);
    if (o.want == Want::Grundy) return make_fixnum(r);
    if (o.want == Want::Win) return bool_value(I, r);
    if (!r || S.root_move_bit < 0) return NIL;
    // the winning child and its move
    std::vector<u64> c(W);
    for (size_t i = 0; i < W; i++) c[i] = a[i] & S.masks[size_t(S.root_move_bit) * W + i];
    Root child(I, bits::from_words(I, c.data(), W));
    return I.list({child, make_fixnum(S.root_move_bit)});
}

// ======================= the Lisp (callback) mode ===================================
struct Frame {
    Value pos = NIL, key = NIL;        // key NIL: not stored
    bool use_tt = false;
    std::vector<Value> kids;
    std::vector<int32_t> kidx;          // index of each kid in the children list
    size_t next = 0;
    u64 nodes0 = 0;
    int result = 0;
    int32_t best = -1;
    std::vector<uint8_t> seen;
};

struct LispSearch : Foreign {
    std::vector<Frame> frames;
    Value table = NIL;                  // equal hash table for non-integer keys
    const char* type_name() const override { return "game-search"; }
    void trace(Tracer& t) override {
        for (const Frame& f : frames) {
            t.mark(f.pos);
            t.mark(f.key);
            for (Value v : f.kids) t.mark(v);
        }
        t.mark(table);
    }
    size_t byte_size() const override { return sizeof(*this) + frames.capacity() * sizeof(Frame); }
};

constexpr int PENDING = -1;

struct LispDriver {
    Interp& I;
    Common& C;
    Value children;
    LispSearch* S;
    IntTable tt;
    bits::PermSet perms;
    std::vector<u64> kbuf, dst, scratch;

    LispDriver(Interp& in, Common& c, Value ch, LispSearch* s) : I(in), C(c), children(ch), S(s), tt(size_t(c.o.table_limit)) {}

    // The table key of pos (rooted by the caller), or NO_VALUE when the table is skipped.
    Value key_of(Value pos) {
        if (C.o.tt_min_bits > 0 && is_integer(pos) && num_sign(pos) >= 0 &&
            num_logcount(I, pos) < C.o.tt_min_bits)
            return NO_VALUE;
        Root k(I, pos);
        if (C.o.canon_perms) {
            int64_t n = bits::word_count(pos);
            if (n < 0) I.type_error("game-solve", "a non-negative integer position (with permutation :canonical)", pos);
            size_t W = std::max<size_t>(size_t(n), perms.words);
            kbuf.assign(W, 0);
            bits::read_words(pos, kbuf.data(), W);
            for (size_t i = 0; i < W; i++)
                for (size_t b = 0; b < 64; b++)
                    if (((kbuf[i] >> b) & 1) && i * 64 + b >= perms.nbits)
                        I.error("game-solve: position " + I.describe(pos) + " has a bit beyond the permutations");
            dst.assign(perms.words, 0);
            scratch.assign(std::max<size_t>(perms.count, 1) * perms.words, 0);
            if (perms.count) {
                bits::min_image_words(perms, kbuf.data(), dst.data(), scratch.data());
                k = bits::from_words(I, dst.data(), dst.size());
            }
        } else if (!is_nil(C.o.canonical)) {
            k = call1(I, C.o.canonical, k);
        }
        if (!is_nil(C.o.key)) k = call1(I, C.o.key, k);
        return k;
    }

    int probe(Value key) {
        C.st.probes++;
        int r = -1;
        int64_t n = bits::word_count(key);
        if (n >= 0) {
            kbuf.assign(std::max<int64_t>(n, 1), 0);
            bits::read_words(key, kbuf.data(), kbuf.size());
            r = tt.probe(kbuf.data(), kbuf.size());
        } else if (!is_nil(S->table)) {
            Value v = hash_get(as_hashtable(S->table), key, NIL);
            if (is_fixnum(v)) r = int(fixnum_value(v));
        }
        if (r >= 0) C.st.hits++;
        return r;
    }

    void store(Value key, int value, u64 work) {
        int64_t n = bits::word_count(key);
        if (n >= 0) {
            kbuf.assign(std::max<int64_t>(n, 1), 0);
            bits::read_words(key, kbuf.data(), kbuf.size());
            tt.store(kbuf.data(), kbuf.size(), value, work, C.st.replaced);
        } else {
            if (is_nil(S->table)) {
                Root k(I, key);
                Value t = obj_value(I.heap.make<HashTable>(true));
                S->table = t;
            }
            hash_put(I, as_hashtable(S->table), key, make_fixnum(value));
        }
        C.st.entries = tt.count() + (is_nil(S->table) ? 0 : as_hashtable(S->table)->count);
    }

    int terminal_value() const { return C.o.want == Want::Grundy ? 0 : (C.o.misere ? 1 : 0); }

    // Evaluates pos from the table, as a terminal, or pushes a frame (PENDING).
    int enter(Value pos_in) {
        Root pos(I, pos_in);
        Root key(I, NIL);
        bool use_tt = false;
        {
            Value k = key_of(pos);
            if (k != NO_VALUE) {
                key = k;
                use_tt = true;
                int r = probe(key);
                if (r >= 0) return r;
            }
        }
        C.count_node();
        Root lst(I, call1(I, children, pos));
        if (!is_list(lst)) I.error("game-solve: children returned " + I.describe(lst) + ", not a list");
        Frame f;
        f.pos = pos;
        f.key = use_tt ? Value(key) : NIL;
        f.use_tt = use_tt;
        f.nodes0 = C.st.nodes;
        int32_t i = 0;
        for (Value p = lst; is_pair(p); p = cdr(p)) {
            f.kids.push_back(car(p));
            f.kidx.push_back(i++);
            if (i > (1 << 30)) I.error("game-solve: too many children");
        }
        if (f.kids.empty()) {
            int v = terminal_value();
            if (use_tt) store(key, v, 1);
            return v;
        }
        if (C.o.order_logcount || !is_nil(C.o.order)) {
            // scores first (the kids stay rooted through lst)
            std::vector<int64_t> sc;
            for (size_t j = 0; j < f.kids.size(); j++) {
                Value s;
                if (C.o.order_logcount) {
                    if (!is_integer(f.kids[j])) I.type_error("game-solve", "an integer position (for :order :logcount)", f.kids[j]);
                    s = make_fixnum(num_logcount(I, f.kids[j]));
                } else {
                    s = call1(I, C.o.order, f.kids[j]);
                }
                int64_t x;
                if (!integer_to_int64(s, &x)) I.error("game-solve: an :order score must be an integer, not " + I.describe(s));
                sc.push_back(x);
            }
            std::vector<size_t> ord(f.kids.size());
            for (size_t j = 0; j < ord.size(); j++) ord[j] = j;
            std::stable_sort(ord.begin(), ord.end(), [&](size_t x, size_t y) { return sc[x] < sc[y]; });
            std::vector<Value> k2;
            std::vector<int32_t> i2;
            for (size_t j : ord) { k2.push_back(f.kids[j]); i2.push_back(f.kidx[j]); }
            f.kids.swap(k2);
            f.kidx.swap(i2);
        }
        if (S->frames.size() >= 100000000) I.error("game-solve: the game is too deep (does it end?)");
        S->frames.push_back(std::move(f));
        if (S->frames.size() - 1 > C.st.max_depth) C.st.max_depth = S->frames.size() - 1;
        return PENDING;
    }

    // Returns the value of start; *best = winning child index at the root.
    int run(Value start, int32_t* best, Root& best_child) {
        int r = enter(start);
        if (r != PENDING) return r;
        int child_value = PENDING;
        u64 child_nodes0 = 0;
        for (;;) {
            bool done = false;
            if (child_value != PENDING) {
                size_t j = S->frames.back().next - 1;
                if (S->frames.size() == 1)
                    C.progress(int64_t(j), int64_t(S->frames.back().kids.size()),
                               make_fixnum(S->frames.back().kidx[j]), child_value, child_nodes0);
                Frame& G = S->frames.back();   // progress may have run Lisp (no frame changes)
                if (C.o.want == Want::Grundy) mark_seen(G.seen, child_value);
                else if (child_value == 0) { G.result = 1; G.best = int32_t(j); done = true; }
                child_value = PENDING;
            }
            Frame& H = S->frames.back();
            if (done || H.next == H.kids.size()) {
                int v = C.o.want == Want::Grundy ? mex(H.seen) : H.result;
                if (S->frames.size() == 1) {
                    if (H.best >= 0) { *best = H.kidx[size_t(H.best)]; best_child = H.kids[size_t(H.best)]; }
                }
                if (H.use_tt) {
                    Root k(I, H.key);
                    u64 work = C.st.nodes - H.nodes0 + 1;
                    S->frames.pop_back();
                    store(k, v, work);
                } else {
                    S->frames.pop_back();
                }
                if (S->frames.empty()) return v;
                child_value = v;
                continue;
            }
            Value c = H.kids[H.next++];
            child_nodes0 = C.st.nodes;
            int cv = enter(c);   // may push a frame (H is not used afterwards)
            if (cv != PENDING) child_value = cv;
        }
    }
};

Value run_lisp(Interp& I, Value start, Value children, Options& o, GameStats& st) {
    st.native = false;
    Common C(I, o, st);
    Root sr(I, obj_value(I.heap.make<LispSearch>()));
    LispSearch* S = static_cast<LispSearch*>(as_obj(sr));
    LispDriver D(I, C, children, S);
    if (o.canon_perms) bits::parse_perm_set(I, "game-solve", o.canonical, D.perms);
    int32_t best = -1;
    Root best_child(I, NIL);
    int r = D.run(start, &best, best_child);
    if (o.want == Want::Grundy) return make_fixnum(r);
    if (o.want == Want::Win) return bool_value(I, r);
    if (!r || best < 0) return NIL;
    return I.list({best_child, make_fixnum(best)});
}

Value bi_game_solve(Interp& I, Value* a, int n) {
    Options o;
    parse_options(I, a + 2, n - 2, o);
    GameStats& st = *stats_of(I);
    st.reset();
    struct Timer {
        GameStats& s;
        std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
        std::clock_t c0 = std::clock();
        ~Timer() {
            s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            s.cpu_seconds = double(std::clock() - c0) / CLOCKS_PER_SEC;
        }
    } timer{st};
    if (is_vector(a[1])) return run_native(I, a[0], a[1], o, st);
    arg_function(I, "game-solve", a[1]);
    return run_lisp(I, a[0], a[1], o, st);
}

Value bi_last_game_stats(Interp& I, Value*, int) {
    GameStats* s = stats_of(I);
    u64 vals[8] = {s->nodes, s->entries, s->probes, s->hits, s->replaced, s->max_depth, u64(s->seconds * 1000),
                   u64(s->cpu_seconds * 1000)};
    const char* names[8] = {":nodes", ":entries", ":probes", ":hits", ":replaced", ":max-depth", ":seconds-ms",
                            ":cpu-ms"};
    Root r(I, NIL);
    Root key(I, I.intern(":native"));   // interned before the cons it goes in front of is made
    r = I.cons(bool_value(I, s->native), r);
    r = I.cons(key, r);
    for (int i = 7; i >= 0; i--) {
        Root v(I, I.make_int(int64_t(vals[i])));
        r = I.cons(v, r);
        r = I.cons(I.intern(names[i]), r);
    }
    return r;
}

const BuiltinDef game_lib[] = {
    {"game-solve", bi_game_solve, 2, -1,
     "(game-solve start children &key want key canonical order misere tt-min-bits table-limit max-nodes "
     "max-seconds max-cpu-seconds progress): solve an impartial game (normal play) from start. children: a function from a "
     "position to the list of positions after each move, or a vector of bit masks (native bitboard mode: move "
     "s keeps (logand pos (aref masks s))). :want :win (t/nil), :move (nil or (child move)), :grundy (the "
     "Grundy value). See builtins/game.cpp for every option; statistics: (last-game-stats)."},
    {"last-game-stats", bi_last_game_stats, 0, 0,
     "(last-game-stats): the statistics of the last game-solve as a plist (:nodes :entries :probes :hits "
     ":replaced :max-depth :seconds-ms (wall) :cpu-ms (process CPU) :native)."},
};

} // namespace

void open_game(Interp& I) { register_builtins(I, game_lib); }

} // namespace lipq
