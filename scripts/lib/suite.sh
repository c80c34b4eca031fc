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
# program_count NAME LOG EXIT-CODE: the "ok N" / "not ok N" lines a test program
# (test/clients, test/orms) wrote to LOG, added to PROGRAMS_OK and PROGRAMS_BAD; the
# failures are shown, and a program that exited non-zero without a failed check
# counts one. The suite adds the two up with tally.
PROGRAMS_OK=0
PROGRAMS_BAD=0
program_count() {
  local ok bad
  ok=$(grep -c '^ok ' "$2"); bad=$(grep -c '^not ok ' "$2")
  awk '/^not ok /{show=1; print; next} show && /^#/{print; next} {show=0}' "$2" | cut -c1-300 | sed 's/^/   /'
  if [ "$3" -ne 0 ] && [ "$bad" -eq 0 ]; then
    bad=1; tail -5 "$2" | sed 's/^/   /'; echo "   $1 exited with $3 and no failed check (see $2)"
  fi
  echo "   $1: $ok passed, $bad failed"
  PROGRAMS_OK=$((PROGRAMS_OK + ok)); PROGRAMS_BAD=$((PROGRAMS_BAD + bad))
}
# program_run NAME DB DIR LOG SECONDS COMMAND...: a test program run in DIR against a
# new database DB (with the extension in it when DB_EXTENSION=1), at most SECONDS,
# its output in LOG, then counted with program_count.
program_run() {
  local name="$1" db="$2" dir="$3" log="$4" secs="$5" rc start=$SECONDS
  shift 5
  psql -qX -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db" >"$log" 2>&1 &&
    { [ "${DB_EXTENSION:-}" != 1 ] || psql -qX -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION ulid_tsid" >>"$log" 2>&1; } &&
    (cd "$dir" && PGDATABASE="$db" timeout "$secs" "$@") >>"$log" 2>&1
  rc=$?
  echo "   ($name: $((SECONDS - start)) s)"
  program_count "$name" "$log" "$rc"
}
suite_end() {
  local rc=$?
  if [ "$rc" -ne 0 ] && [ "$SUITE_FAILED" -eq 0 ]; then SUITE_FAILED=1; echo "   FAIL the suite exited with status $rc"; fi
  echo "$SUITE_PASSED passed, $SUITE_FAILED failed"
  [ "$SUITE_FAILED" -eq 0 ] || exit 1
  exit 0
}
trap suite_end EXIT
