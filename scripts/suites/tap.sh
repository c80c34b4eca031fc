# TAP tests (test/t/*.pl): real PostgreSQL clusters under real faults, driven by
# PostgreSQL::Test::Cluster. Sourced by scripts/test.sh (uses tally and $LOGS).
# Stand-alone:  bash scripts/suites/tap.sh [test/t/00X_name.pl ...]
#
# initdb refuses root, so prove runs as 'postgres' when we are root. Clusters,
# sockets' port locks and per-test logs live under build/tap/tmp_check
# (TESTDIR); the server logs of a failed test are in build/tap/tmp_check/log.
tap_root="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
tap_logs="${LOGS:-$tap_root/.cluster/logs}"
tap_bindir="$(pg_config --bindir)"
tap_pgxs="$(dirname "$(pg_config --pgxs)")/.."   # .../lib/pgxs/src
tap_dir="$tap_root/build/tap"
tap_files=()
for f in "$@"; do tap_files+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done
[ ${#tap_files[@]} -eq 0 ] && tap_files=("$tap_root"/test/t/*.pl)
tap_failed=0
tap_total=0
mkdir -p "$tap_logs" "$tap_dir"
rm -rf "$tap_dir/tmp_check"
tap_run() {
  if [ "$(id -u)" -eq 0 ]; then
    chown -R postgres: "$tap_dir"
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}
(
  cd "$tap_dir" &&
  tap_run env PATH="$tap_bindir:$PATH" \
    PERL5LIB="$tap_pgxs/test/perl${PERL5LIB:+:$PERL5LIB}" \
    PG_REGRESS="$tap_pgxs/test/regress/pg_regress" \
    TESTDIR="$tap_dir" PGDATABASE=postgres \
    PG_TEST_TIMEOUT_DEFAULT="${PG_TEST_TIMEOUT_DEFAULT:-120}" \
    timeout -k 10 "${TAP_TIMEOUT:-900}" prove --timer -v "${tap_files[@]}"
) >"$tap_logs/tap.log" 2>"$tap_logs/tap.err"
tap_rc=$?
# On the terminal: each script's verdict and timing, failed assertions, the
# tests' key measurements (notes starting ">>"), skips, and the summary; then
# prove's stderr, which carries the failed assertions' diagnostics. The full
# TAP stream is in $LOGS/tap.log.
grep -E '^(1\.\.[0-9]+|not ok|ok .*# skip|# >> |\[[0-9:]+\]|Test Summary|Files=|Result:|Dubious|Failed [0-9]+/|All [0-9]+ subtests|Bail|FAILED)|\(Wstat|^  (Failed tests|Non-zero|Parse errors)|^(ok|not ok) +[0-9]+ ms' \
  "$tap_logs/tap.log" | tail -200
tail -150 "$tap_logs/tap.err"
tap_total=$(sed -nE 's/^Files=[0-9]+, Tests=([0-9]+),.*/\1/p' "$tap_logs/tap.log" | tail -1)
# prove's "Test Summary Report" has one "(Wstat: W Tests: T Failed: F)" line per
# script that did not pass: F failed assertions, or a script that died, exited
# non-zero or broke its plan with F=0 (counted as one failure).
# The framework sends a script's own stderr (die messages, SQL errors) to its
# regress_log: show the end of it for every script that did not pass.
for f in $(sed -nE 's/^(\S+\.pl) \(Wstat: .*/\1/p' "$tap_logs/tap.log"); do
  l="$tap_dir/tmp_check/log/regress_log_$(basename "$f" .pl)"
  [ -f "$l" ] || continue
  echo "---- errors in $l"
  grep -E -A3 'error running SQL|ERROR: |FATAL: |Bail out|died|timed out| at \S+ line [0-9]+\.$' "$l" | head -60
  echo "---- tail of $l"
  tail -15 "$l"
done
tap_summary=$(sed -nE 's/.*\(Wstat: [0-9]+.* Tests: [0-9]+ Failed: ([0-9]+)\).*/\1/p' "$tap_logs/tap.log")
tap_failed_asserts=$(echo "$tap_summary" | awk 'NF {s += $1} END {print s+0}')
tap_failed=$(echo "$tap_summary" | awk 'NF {s += ($1 > 0 ? $1 : 1)} END {print s+0}')
if [ -z "$tap_total" ]; then
  tap_total=0
  [ "$tap_rc" -ne 0 ] && [ "$tap_failed" -eq 0 ] && tap_failed=1
elif [ "$tap_rc" -ne 0 ] && [ "$tap_failed" -eq 0 ]; then
  tap_failed=1
fi
tap_passed=$((tap_total - tap_failed_asserts))
[ "$tap_passed" -lt 0 ] && tap_passed=0
if declare -F tally >/dev/null; then
  tally tap "$tap_passed" "$tap_failed"
else
  echo "== tap: $tap_passed passed, $tap_failed failed"
fi
