#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan + UBSan) and run each for DURATION
# seconds (default 60) on a corpus seeded from tests/lisp/*.lisp and
# scripts/*.lisp.
#   tests/fuzz/run.sh [DURATION] [TARGET...]
# Environment: BUILD (default build-fuzz), JOBS (parallel fuzz jobs per
# target, default 1), CORPUS (default $BUILD/corpus). Exit status: non-zero
# when a target finds a crash, leak, timeout or sanitizer report (the
# reproducer is left in $BUILD/findings/).
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(fuzz_reader fuzz_roundtrip fuzz_eval)
BUILD=${BUILD:-build-fuzz}
CORPUS=${CORPUS:-$BUILD/corpus}

if ! command -v clang++ >/dev/null || \
   ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang libclang-rt-dev
fi
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S tests/fuzz -B "$BUILD" >/dev/null
fi
cmake --build "$BUILD" -j"${BUILD_JOBS:-2}" --target make_seeds "${TARGETS[@]}"

# Seeds: every top-level form of the test scripts and puzzle scripts, one per
# file, plus each whole file (cut to 8 KiB), plus the hand-written ones in
# tests/fuzz/seeds (labels, quads, vectors, edge cases).
seed() {
  local dir=$1
  mkdir -p "$dir"
  [ -n "$(ls -A "$dir" 2>/dev/null)" ] && return 0
  ASAN_OPTIONS=detect_leaks=0 "$BUILD/make_seeds" "$dir" tests/lisp/*.lisp scripts/*.lisp tests/fuzz/seeds/*
}

mkdir -p "$BUILD/findings"
status=0
for t in "${TARGETS[@]}"; do
  seed "$CORPUS/$t"
  echo "== $t: ${DURATION}s"
  log="$BUILD/$t.log"
  if ! "$BUILD/$t" "$CORPUS/$t" -max_total_time="$DURATION" -timeout=20 -rss_limit_mb=3072 \
         -max_len=8192 -print_final_stats=1 -artifact_prefix="$BUILD/findings/$t-" \
         -dict=tests/fuzz/lisp.dict >"$log" 2>&1; then
    echo "!! $t found something: see $log and $BUILD/findings/"
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -20 || true
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb|cov: " "$log" | tail -3 || true
done
exit $status
