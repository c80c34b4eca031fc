#!/usr/bin/env bash
# The core's unit tests again, built with clang++ -fsanitize=address,undefined
# (`make unit-sanitize`): counted like unit.sh; an ASan/UBSan report aborts the
# run, so it shows as a failure even when gtest's counts look clean.
#   bash scripts/suites/sanitizers.sh   (no server; ends with "N passed, N failed")
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/suite.sh"
cd "$ROOT"
san_log="$LOGS/sanitizers.log"
make -j2 unit-sanitize >"$san_log" 2>&1
san_rc=$?
san_pass=$(grep -E '^\[  PASSED  \] [0-9]+ tests?\.' "$san_log" | tail -1 | grep -oE '[0-9]+' | head -1)
san_fail=$(grep -E '^\[  FAILED  \] [0-9]+ tests?, listed below' "$san_log" | tail -1 | grep -oE '[0-9]+' | head -1)
grep -E '^\[==========\] [0-9]+ tests? from|^\[  (PASSED|FAILED)  \]' "$san_log" || true
if [ -z "$san_pass" ]; then
  san_pass=$(grep -cE '^\[       OK \]' "$san_log")
  san_fail=$(( $(grep -cE '^\[  FAILED  \] [A-Za-z_]' "$san_log") + 1 ))
  echo "   sanitizers: no gtest summary (rc=$san_rc), see $san_log"; tail -20 "$san_log"
fi
san_fail=${san_fail:-0}
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$san_log"; then
  grep -m5 -E 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY:' "$san_log"
  [ "$san_fail" -eq 0 ] && san_fail=1
fi
if [ "$san_rc" -ne 0 ] && [ "$san_fail" -eq 0 ]; then san_fail=1; tail -20 "$san_log"; fi
tally sanitizers "$san_pass" "$san_fail"
