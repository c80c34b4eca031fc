# What unit.sh and sanitizers.sh share (sourced after suite.sh): the checks of
# one GoogleTest run.
#   gtest_tally NAME LOG RC [PATTERN]
# tallies NAME from gtest's summary lines in LOG (a run that ended before its
# summary, a build failure or a crash: the tests that finished, plus one
# failure); an exit status RC other than 0, or a line of LOG that matches the
# extended regex PATTERN (a sanitizer's report), counts as one failure when no
# test failed.
gtest_tally() {
  local name="$1" log="$2" rc="$3" pattern="${4:-}" pass fail
  pass=$(grep -E '^\[  PASSED  \] [0-9]+ tests?\.' "$log" | tail -1 | grep -oE '[0-9]+' | head -1)
  fail=$(grep -E '^\[  FAILED  \] [0-9]+ tests?, listed below' "$log" | tail -1 | grep -oE '[0-9]+' | head -1)
  grep -E '^\[==========\] [0-9]+ tests? from|^\[  (PASSED|FAILED)  \]' "$log" || true
  if [ -z "$pass" ]; then
    pass=$(grep -cE '^\[       OK \]' "$log")
    fail=$(( $(grep -cE '^\[  FAILED  \] [A-Za-z_]' "$log") + 1 ))
    echo "   $name: no gtest summary (rc=$rc), see $log"; tail -20 "$log"
  fi
  fail=${fail:-0}
  if [ -n "$pattern" ] && grep -qE "$pattern" "$log"; then
    grep -m5 -E "$pattern|SUMMARY:" "$log"
    [ "$fail" -eq 0 ] && fail=1
  fi
  if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; tail -20 "$log"; fi
  tally "$name" "$pass" "$fail"
}
