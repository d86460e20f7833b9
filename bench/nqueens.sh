#!/usr/bin/env bash
# nqueens.sh — nqueens-count (builtins/nqueens.cpp) against the plain
# single-threaded Somers bitboard counter in C (bench/nqueens_somers.c).
#
#   bench/nqueens.sh [N...]          default: 14 15 16
#   LIPQ=build/lipq bench/nqueens.sh
#
# For each n: the C counter's time, lipq's single-thread time (nqueens-count n 1)
# and its time on all cores (nqueens-count n), CPU-time based where it matters:
# single-thread figures are user+system CPU seconds (robust on a busy machine),
# the threaded figure is wall time. Each is the best of 3 runs. Counts must agree.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
LIPQ="${LIPQ:-$root/build/lipq}"
[[ "$LIPQ" = /* ]] || LIPQ="$root/$LIPQ"
out="$here/build"
mkdir -p "$out"
if [[ ! -x "$out/nqueens_somers" || "$here/nqueens_somers.c" -nt "$out/nqueens_somers" ]]; then
    cc -O2 -o "$out/nqueens_somers" "$here/nqueens_somers.c"
fi
ns=("$@")
[[ ${#ns[@]} -gt 0 ]] || ns=(14 15 16)
cores=$(nproc)

# best of 3: prints "cpu wall result" (seconds, result = last line of stdout)
best3() {
    local best_cpu="" best_wall="" res=""
    for _ in 1 2 3; do
        local tf; tf=$(mktemp)
        local t0; t0=$(date +%s.%N)
        res=$( { /usr/bin/time -f "%U %S" -o "$tf" "$@"; } | tail -1)
        local t1; t1=$(date +%s.%N)
        local cpu; cpu=$(awk '{printf "%.3f", $1+$2}' "$tf")
        local wall; wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f", b-a}')
        rm -f "$tf"
        if [[ -z "$best_cpu" ]] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN{exit !(a<b)}'; then best_cpu=$cpu; fi
        if [[ -z "$best_wall" ]] || awk -v a="$wall" -v b="$best_wall" 'BEGIN{exit !(a<b)}'; then best_wall=$wall; fi
    done
    echo "$best_cpu $best_wall $res"
}

printf "%3s %12s %10s %10s %9s %10s %9s\n" n count "C cpu s" "lipq1 cpu" "ratio" "lipq${cores} wall" speedup
for n in "${ns[@]}"; do
    read -r c_cpu c_wall c_res < <(best3 "$out/nqueens_somers" "$n")
    read -r l1_cpu l1_wall l1_res < <(best3 "$LIPQ" -e "(nqueens-count $n 1)")
    read -r lt_cpu lt_wall lt_res < <(best3 "$LIPQ" -e "(nqueens-count $n)")
    l1_res=${l1_res%%[^0-9]*}; lt_res=${lt_res%%[^0-9]*}
    if [[ "$c_res" != "$l1_res" || "$c_res" != "$lt_res" ]]; then
        echo "MISMATCH n=$n: C $c_res, lipq $l1_res / $lt_res" >&2
        exit 1
    fi
    ratio=$(awk -v a="$l1_cpu" -v b="$c_cpu" 'BEGIN{printf "%.2f", (b>0)?a/b:0}')
    speed=$(awk -v a="$l1_wall" -v b="$lt_wall" 'BEGIN{printf "%.2f", (b>0)?a/b:0}')
    printf "%3s %12s %10s %10s %9s %10s %9s\n" "$n" "$c_res" "$c_cpu" "$l1_cpu" "$ratio" "$lt_wall" "$speed"
done
echo "ratio = lipq single-thread CPU / C CPU (1.00: as fast); speedup = single-thread wall / $cores-thread wall"
