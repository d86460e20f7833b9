// nqueens.cpp — (nqueens-count n [threads]): the number of solutions of the
// n-queens problem (OEIS A000170), by bitboard backtracking with the mirror
// symmetry halving (as Jeff Somers' program), on all cores.
//
// The boards after the first rows (the left half of the first row, plus the
// middle column for odd n with the second row's left half) are cut into tasks
// a few rows deep; worker threads take tasks from a shared counter. Each
// task is counted by an iterative loop over a small array stack (no
// recursion). The interpreter's thread waits, polling for Ctrl-C and limits;
// on an interrupt the workers stop within 65536 backtracks.
#include "search_common.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace lipq {

namespace {

using u64 = unsigned long long;

struct Task {
    int row;          // the next row to place
    u64 cols, left, right;
    u64 weight;       // 1 or 2 (mirror image counted too)
};

// Completions of a board whose next row is t.row. The current row's state
// lives in locals; the rows above are saved in a small array stack. A child
// without a free square is not entered, and on the last row a free square is
// a solution (there is at most one: one column is left).
u64 count_task(int n, u64 all, const Task& t, const std::atomic<bool>& stop) {
    if (t.row == n) return 1;
    if (t.row == n - 1) return (all & ~(t.cols | t.left | t.right)) ? 1 : 0;
    struct Saved { u64 f, c, l, r; } stack[64];
    int d = 0;
    const int last = n - 1 - t.row;   // depth (relative) of the last row
    u64 c = t.cols, l = t.left, r = t.right;
    u64 f = all & ~(c | l | r);
    u64 count = 0;
    uint32_t backtracks = 0;   // look at the stop flag every 65536 backtracks
    for (;;) {
        if (f) {
            u64 bit = f & (0 - f);
            f ^= bit;
            u64 nc = c | bit, nl = (l | bit) << 1, nr = (r | bit) >> 1;
            u64 nf = all & ~(nc | nl | nr);
            if (d + 1 == last) {
                count += nf != 0;
                continue;
            }
            if (nf) {
                stack[d] = {f, c, l, r};
                d++;
                c = nc;
                l = nl;
                r = nr;
                f = nf;
            }
        } else {
            if (d == 0) break;
            d--;
            f = stack[d].f;
            c = stack[d].c;
            l = stack[d].l;
            r = stack[d].r;
            if ((++backtracks & 0xFFFF) == 0 && stop.load(std::memory_order_relaxed)) return count;
        }
    }
    return count;
}

// The symmetry-reduced first placements, then expanded row by row until
// there are enough tasks to share among the threads.
std::vector<Task> make_tasks(int n, u64 all, size_t want) {
    std::vector<Task> tasks;
    int half = n / 2;
    for (int c = 0; c < half; c++) {
        u64 bit = 1ULL << c;
        tasks.push_back({1, bit, bit << 1, bit >> 1, 2});
    }
    if (n & 1) {
        u64 bit = 1ULL << half;
        u64 cols = bit, left = bit << 1, right = bit >> 1;
        u64 avail = all & ~(cols | left | right);
        for (int c = 0; c < half; c++) {
            u64 b2 = 1ULL << c;
            if (avail & b2) tasks.push_back({2, cols | b2, (left | b2) << 1, (right | b2) >> 1, 2});
        }
    }
    // Expand while the tasks are few and shallow (keep at least 3 rows to go).
    while (tasks.size() < want) {
        std::vector<Task> next;
        bool expanded = false;
        for (const Task& t : tasks) {
            if (t.row >= n - 3) { next.push_back(t); continue; }
            expanded = true;
            u64 avail = all & ~(t.cols | t.left | t.right);
            while (avail) {
                u64 bit = avail & (0 - avail);
                avail ^= bit;
                next.push_back({t.row + 1, t.cols | bit, (t.left | bit) << 1, (t.right | bit) >> 1, t.weight});
            }
        }
        tasks.swap(next);
        if (!expanded) break;
    }
    return tasks;
}

Value bi_nqueens_count(Interp& I, Value* a, int nargs) {
    int64_t n = arg_index(I, "nqueens-count", a[0]);
    if (n > 32) I.error("nqueens-count: n must be at most 32");
    int64_t threads = nargs > 1 && !is_nil(a[1]) ? arg_index(I, "nqueens-count", a[1])
                                                 : int64_t(std::thread::hardware_concurrency());
    if (threads < 1) threads = 1;
    if (threads > 256) threads = 256;
    if (n <= 1) return make_fixnum(1);   // a(0) = a(1) = 1
    u64 all = (1ULL << n) - 1;
    std::vector<Task> tasks = make_tasks(int(n), all, threads == 1 ? 1 : size_t(threads) * 16);
    if (size_t(threads) > tasks.size()) threads = int64_t(tasks.size() ? tasks.size() : 1);

    std::atomic<bool> stop{false};
    std::atomic<size_t> next_task{0};
    std::atomic<u64> total{0};
    std::atomic<int> running{int(threads)};
    std::mutex mu;
    std::condition_variable cv;
    auto worker = [&] {
        u64 sum = 0;
        for (;;) {
            size_t k = next_task.fetch_add(1);
            if (k >= tasks.size() || stop.load(std::memory_order_relaxed)) break;
            sum += tasks[k].weight * count_task(int(n), all, tasks[k], stop);
        }
        total.fetch_add(sum);
        std::lock_guard<std::mutex> g(mu);
        running--;
        cv.notify_all();
    };
    std::vector<std::thread> pool;
    pool.reserve(size_t(threads));
    for (int64_t t = 0; t < threads; t++) pool.emplace_back(worker);
    // Wait, polling the interpreter (Ctrl-C, time limit) every 50 ms.
    try {
        std::unique_lock<std::mutex> lk(mu);
        while (running > 0) {
            cv.wait_for(lk, std::chrono::milliseconds(50));
            if (running == 0) break;
            lk.unlock();
            I.poll_count = 1;
            I.poll();
            lk.lock();
        }
    } catch (...) {
        stop = true;
        for (auto& th : pool) th.join();
        throw;
    }
    for (auto& th : pool) th.join();
    return I.make_int(int64_t(total.load()));
}

const BuiltinDef nqueens_lib[] = {
    {"nqueens-count", bi_nqueens_count, 1, 2,
     "(nqueens-count n [threads]): the number of ways to place n non-attacking queens on an n x n board\n"
     "(native bitboard search, mirror symmetry, threads default: the number of cores)."},
};

} // namespace

void open_nqueens(Interp& I) { register_builtins(I, nqueens_lib); }

} // namespace lipq
