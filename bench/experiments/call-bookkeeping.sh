#!/usr/bin/env bash
# What the per-call bookkeeping of compiled code costs (README, design notes,
# fifth round, "What the bookkeeping is worth"). Builds lipq in a throwaway
# worktree with call-bookkeeping.patch, an XSKIP switch that leaves out of
# every compiled function's prologue the ActiveCall link (1), the depth count
# (2) and the poll (4) — unsafe, never in the product — and counts the
# instructions of (fib 30) with callgrind for each setting.
#   bench/experiments/call-bookkeeping.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
w=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$w/src" >/dev/null 2>&1 || true; rm -rf "$w"' EXIT
git worktree add -q --detach "$w/src" HEAD
git -C "$w/src" apply "$root/bench/experiments/call-bookkeeping.patch"
cmake -S "$w/src" -B "$w/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$w/build" -j"$(nproc)" --target lipq >/dev/null
echo '(defun fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2))))) (print (fib 30))' >"$w/fib30.lisp"
for x in 0 1 2 4 7; do
  n=$(XSKIP=$x LIPQ_JIT_THRESHOLD=1000 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$w/build/lipq" "$w/fib30.lisp" 2>&1 | awk '/refs:/ {print $NF}')
  echo "XSKIP=$x: $n instructions"
done
