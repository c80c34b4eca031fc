# The contract of every suite (sourced, never run): a suite is a program that runs its
# checks, prints them, and ends with one line "N passed, N failed"; its exit status is 0
# only when none failed. scripts/test.sh only schedules suites and adds up those lines.
#   tally NAME PASSED FAILED   adds a group of checks (prints "== NAME: ...")
#   check LABEL COMMAND...     one check: passes when COMMAND succeeds
# ROOT is the checkout, LOGS its log directory (default .cluster/logs); the last line
# is printed at exit, and a suite that exits non-zero having counted no failure counts one.
ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
LOGS="${LOGS:-$ROOT/.cluster/logs}"
export ROOT LOGS
mkdir -p "$LOGS"
SUITE_PASSED=0
SUITE_FAILED=0
SUITE_LABEL=""

tally() {  # tally NAME PASSED FAILED
  echo "== $1${SUITE_LABEL:+ ($SUITE_LABEL)}: $2 passed, $3 failed"
  SUITE_PASSED=$((SUITE_PASSED + $2)); SUITE_FAILED=$((SUITE_FAILED + $3))
}
check() {  # check LABEL COMMAND...
  local what="$1"; shift
  if "$@"; then SUITE_PASSED=$((SUITE_PASSED + 1)); echo "   ok   $what"
  else SUITE_FAILED=$((SUITE_FAILED + 1)); echo "   FAIL $what"; fi
}
suite_end() {
  local rc=$?
  if [ "$rc" -ne 0 ] && [ "$SUITE_FAILED" -eq 0 ]; then SUITE_FAILED=1; echo "   FAIL the suite exited with status $rc"; fi
  echo "$SUITE_PASSED passed, $SUITE_FAILED failed"
  [ "$SUITE_FAILED" -eq 0 ] || exit 1
  exit 0
}
trap suite_end EXIT
