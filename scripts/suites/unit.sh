#!/usr/bin/env bash
# Unit tests of the pure C++ core: GoogleTest via `make unit` (g++ -O2), counted
# from gtest's summary lines (scripts/lib/gtest.sh); a build failure or a crash
# before the summary counts as one failure. Then a one-line smoke run of the core
# benchmark (`make bench-core`), counted as one test.
#   bash scripts/suites/unit.sh   (no server; ends with "N passed, N failed")
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/suite.sh"
source "$ROOT/scripts/lib/gtest.sh"
cd "$ROOT"
unit_log="$LOGS/unit.log"
make -j2 unit >"$unit_log" 2>&1
gtest_tally unit "$unit_log" $?

# Benchmark smoke: builds and runs every core benchmark briefly.
bench_core_smoke() {
  make bench-core BENCH_ARGS=--benchmark_min_time=0.01 >"$LOGS/bench_core_smoke.log" 2>&1 &&
    grep -q '^BM_decode_128 ' "$LOGS/bench_core_smoke.log" && return 0
  tail -10 "$LOGS/bench_core_smoke.log"
  return 1
}
check "bench-core smoke (see $LOGS/bench_core_smoke.log)" bench_core_smoke
