#!/usr/bin/env bash
# Fuzz smoke: every libFuzzer target of the core (test/fuzz/fuzz_*.cpp) for
# FUZZ_SECONDS (10 here) with ASan+UBSan; one pass or fail per target, a crash,
# a sanitizer report or a failed check counts as failed; prints each target's
# executions. A build failure counts as one failure. The runner
# (test/fuzz/run.sh) is the release's long run's, which is a command of its own:
# make fuzz-long (each parser to 100 million executions; CONTRIBUTING.md).
#   bash scripts/suites/fuzz.sh   (no server; ends with "N passed, N failed")
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/suite.sh"
cd "$ROOT"
fuzz_secs="${FUZZ_SECONDS:-10}"
fuzz_log="$LOGS/fuzz.log"
fuzz_pass=0; fuzz_fail=0
if ! make -j2 fuzz-build >"$LOGS/fuzz_build.log" 2>&1; then
  tail -20 "$LOGS/fuzz_build.log"; fuzz_fail=1
else
  make fuzz-smoke FUZZ_SECONDS="$fuzz_secs" >"$fuzz_log" 2>&1
  for fuzz_src in test/fuzz/fuzz_*.cpp; do
    fuzz_t=$(basename "$fuzz_src" .cpp)
    fuzz_line=$(grep -E "^FUZZ $fuzz_t (PASS|FAIL)" "$fuzz_log" | tail -1)
    if [ -z "$fuzz_line" ]; then
      echo "   FAIL $fuzz_t: no result (see $fuzz_log)"; fuzz_fail=$((fuzz_fail + 1))
    elif [ "${fuzz_line#FUZZ $fuzz_t PASS}" != "$fuzz_line" ]; then
      echo "   ok   $fuzz_t ${fuzz_line#FUZZ $fuzz_t PASS } in ${fuzz_secs}s"; fuzz_pass=$((fuzz_pass + 1))
    else
      echo "   FAIL $fuzz_t ${fuzz_line#FUZZ $fuzz_t FAIL } (log: build/fuzz/logs/$fuzz_t.log)"
      grep -A5 -E "^FUZZ $fuzz_t FAIL" "$fuzz_log" | tail -n +2 | grep -vE '^(FUZZ|fuzzing) ' | head -5
      fuzz_fail=$((fuzz_fail + 1))
    fi
  done
fi
tally fuzz "$fuzz_pass" "$fuzz_fail"
