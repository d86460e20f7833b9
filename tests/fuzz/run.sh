#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan + UBSan, in the sanitizer tree of
# .ci/sanitize) and run each for DURATION seconds (default 60) on a corpus
# seeded from tests/lisp/*.lisp and scripts/*.lisp.
#   tests/fuzz/run.sh [DURATION] [TARGET...]
# Environment: BUILD (default build-asan), CORPUS (default $BUILD/corpus),
# PARALLEL=1 to run the targets at the same time (CI: 2 cores, 3 targets).
# Exit status: non-zero when a target finds a crash, leak, timeout or
# sanitizer report (the reproducer is left in $BUILD/findings/).
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(fuzz_reader fuzz_roundtrip fuzz_eval)
BUILD=${BUILD:-build-asan}
CORPUS=${CORPUS:-$BUILD/corpus}

if ! command -v clang++ >/dev/null || \
   ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang libclang-rt-dev
fi
if ! grep -q "^LIPQ_FUZZ:BOOL=ON" "$BUILD/CMakeCache.txt" 2>/dev/null; then
  CC=clang CXX=clang++ cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DLIPQ_FUZZ=ON >/dev/null
fi
cmake --build "$BUILD" -j"${BUILD_JOBS:-$(nproc)}" --target make_seeds "${TARGETS[@]}"

# Seeds: every top-level form of the test scripts and puzzle scripts, one per
# file, plus each whole file (cut to 8 KiB), plus the hand-written ones in
# tests/fuzz/seeds (labels, quads, vectors, edge cases).
seed() {
  local dir=$1
  mkdir -p "$dir"
  [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return 0
  ASAN_OPTIONS=detect_leaks=0 "$BUILD/tests/fuzz/make_seeds" "$dir" tests/lisp/*.lisp scripts/*.lisp tests/fuzz/seeds/*
}

mkdir -p "$BUILD/findings"
run_one() {   # run_one TARGET: fuzz it, then report; status 1 on a finding
  local t=$1 log="$BUILD/$1.log" st=0
  "$BUILD/tests/fuzz/$t" "$CORPUS/$t" -max_total_time="$DURATION" -timeout=20 -rss_limit_mb=3072 \
      -max_len=8192 -print_final_stats=1 -artifact_prefix="$BUILD/findings/$t-" \
      -dict=tests/fuzz/lisp.dict >"$log" 2>&1 || st=1
  {
    echo "== $t: ${DURATION}s"
    if [ $st -ne 0 ]; then
      echo "!! $t found something: see $log and $BUILD/findings/"
      grep -E "ERROR|SUMMARY|Test unit written|runtime error" "$log" | head -20 || true
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" || true
    grep -E "^#[0-9]+" "$log" | tail -1 || true
  }
  return $st
}
for t in "${TARGETS[@]}"; do seed "$CORPUS/$t"; done
status=0
if [ "${PARALLEL:-0}" = 1 ]; then
  pids=()
  for t in "${TARGETS[@]}"; do run_one "$t" >"$BUILD/$t.summary" & pids+=($!); done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || status=1
    cat "$BUILD/${TARGETS[$i]}.summary"
  done
else
  for t in "${TARGETS[@]}"; do run_one "$t" || status=1; done
fi
exit $status
