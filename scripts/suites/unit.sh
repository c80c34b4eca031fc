#!/usr/bin/env bash
# Unit tests of the pure C++ core: GoogleTest via `make unit` (g++ -O2), counted
# from gtest's summary lines; a build failure or a crash before the summary
# counts as one failure. Then a one-line smoke run of the core benchmark
# (`make bench-core`), counted as one test. 
#   bash scripts/suites/unit.sh   (no server; ends with "N passed, N failed")
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/suite.sh"
cd "$ROOT"
unit_log="$LOGS/unit.log"
make -j2 unit >"$unit_log" 2>&1
unit_rc=$?
unit_pass=$(grep -E '^\[  PASSED  \] [0-9]+ tests?\.' "$unit_log" | tail -1 | grep -oE '[0-9]+' | head -1)
unit_fail=$(grep -E '^\[  FAILED  \] [0-9]+ tests?, listed below' "$unit_log" | tail -1 | grep -oE '[0-9]+' | head -1)
grep -E '^\[==========\] [0-9]+ tests? from|^\[  (PASSED|FAILED)  \]' "$unit_log" || true
if [ -z "$unit_pass" ]; then  # no summary: count what finished, then one failure
  unit_pass=$(grep -cE '^\[       OK \]' "$unit_log")
  unit_fail=$(( $(grep -cE '^\[  FAILED  \] [A-Za-z_]' "$unit_log") + 1 ))
  echo "   unit: no gtest summary (rc=$unit_rc), see $unit_log"; tail -20 "$unit_log"
fi
unit_fail=${unit_fail:-0}
if [ "$unit_rc" -ne 0 ] && [ "$unit_fail" -eq 0 ]; then unit_fail=1; tail -20 "$unit_log"; fi

# Benchmark smoke: builds and runs every core benchmark briefly.
if make bench-core BENCH_ARGS=--benchmark_min_time=0.01 >"$LOGS/bench_core_smoke.log" 2>&1 &&
   grep -q '^BM_decode_128 ' "$LOGS/bench_core_smoke.log"; then
  unit_pass=$((unit_pass + 1)); echo "   ok   bench-core smoke"
else
  unit_fail=$((unit_fail + 1)); echo "   FAIL bench-core smoke (see $LOGS/bench_core_smoke.log)"
  tail -10 "$LOGS/bench_core_smoke.log"
fi
tally unit "$unit_pass" "$unit_fail"
