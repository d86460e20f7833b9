#!/usr/bin/env bash
# Instructions of compiled code and of GCC, per build (README, design notes,
# sixth round). For each REV (a commit, or "." for the build in build/),
# builds lipq in a throwaway worktree and runs shortened benchmarks under
# callgrind with LIPQ_JIT_THRESHOLD=1000: (fib 30), tak 100 times, takl 20
# times, queens once, flatqueens 10 times, cons 3 times. Prints per program the
# instructions in the generated functions (lipq_*), in libgccjit (the
# compiler), and in the whole run.
#   bench/experiments/jit-instructions.sh 4b043bd .      (≈ 4 min per commit)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
w=$(mktemp -d)
trap 'for d in "$w"/src-*; do git -C "$root" worktree remove --force "$d" >/dev/null 2>&1 || true; done; rm -rf "$w"' EXIT
sed 's/(fib 39)/(fib 30)/' bench/lipq/fib.lisp >"$w/fib30.lisp"
sed 's/(dotimes (i 2500)/(dotimes (i 100)/' bench/lipq/tak.lisp >"$w/tak.lisp"
sed 's/(dotimes (i 450)/(dotimes (i 20)/' bench/lipq/takl.lisp >"$w/takl.lisp"
sed 's/(dotimes (i 12)/(dotimes (i 1)/' bench/lipq/queens.lisp >"$w/queens.lisp"
sed 's/(dotimes (i 120)/(dotimes (i 10)/' bench/lipq/flatqueens.lisp >"$w/flatqueens.lisp"
sed 's/(dotimes (i 13)/(dotimes (i 3)/' bench/lipq/cons.lisp >"$w/cons.lisp"
for rev in "$@"; do
  if [ "$rev" = . ]; then
    lipq=$root/build/lipq
  else
    git worktree add -q --detach "$w/src-$rev" "$rev"
    cmake -S "$w/src-$rev" -B "$w/build-$rev" -DCMAKE_BUILD_TYPE=Release >/dev/null 2>&1
    cmake --build "$w/build-$rev" -j"$(nproc)" --target lipq >/dev/null 2>&1
    lipq=$w/build-$rev/lipq
  fi
  for b in fib30 tak takl queens flatqueens cons; do
    LIPQ_JIT_THRESHOLD=1000 valgrind --tool=callgrind --callgrind-out-file="$w/cg" "$lipq" "$w/$b.lisp" >/dev/null 2>&1
    callgrind_annotate "$w/cg" 2>/dev/null | awk -v rev="$rev" -v b="$b" '
      /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
      /lipq_[0-9]/ { gsub(",", "", $1); code += $1; next }
      /libgccjit/ { gsub(",", "", $1); gcc += $1 }
      END { # (%.0f: in mawk, %d stops at 2^31 - 1)
            printf "%-8s %-10s compiled %13.0f  libgccjit %13.0f  whole run %13.0f\n", rev, b, code, gcc, total }'
  done
done
