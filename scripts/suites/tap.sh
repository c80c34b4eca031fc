# TAP tests (test/t/*.pl): real PostgreSQL clusters under real faults, driven by
# PostgreSQL::Test::Cluster. Sourced by scripts/test.sh (uses tally and $LOGS).
# Stand-alone:  bash scripts/suites/tap.sh [test/t/00X_name.pl ...]
#
# initdb refuses root, so prove runs as 'postgres' when we are root. Clusters,
# sockets' port locks and per-test logs live under build/tap/tmp_check
# (TESTDIR); the server logs of a failed test are in build/tap/tmp_check/log
# (build/tap/log with 17+'s test modules, which put it beside tmp_check).
# The scripts' shared module, test/t/UlidTsid.pm, is found through PERL5LIB.
tap_root="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
tap_logs="${LOGS:-$tap_root/.cluster/logs}"
tap_bindir="$(${PG_CONFIG:-pg_config} --bindir)"
tap_pgxs="$(dirname "$(${PG_CONFIG:-pg_config} --pgxs)")/.."   # .../lib/pgxs/src
tap_dir="$tap_root/build/tap"
tap_lib="$tap_root/test/t"
tap_files=()
for tap_f in "$@"; do tap_files+=("$(cd "$(dirname "$tap_f")" && pwd)/$(basename "$tap_f")"); done
[ ${#tap_files[@]} -eq 0 ] && tap_files=("$tap_root"/test/t/*.pl)
tap_failed=0
tap_total=0
mkdir -p "$tap_logs" "$tap_dir"
tap_as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$tap_dir"
  if ! runuser -u postgres -- test -w "$tap_dir"; then
    # The checkout is out of the postgres user's reach: run from /tmp.
    tap_dir="$(mktemp -d /tmp/ulid_tsid_tap.XXXXXX)"; chmod 755 "$tap_dir"; chown postgres: "$tap_dir"
    mkdir -p "$tap_dir/t"; cp "${tap_files[@]}" "$tap_lib"/*.pm "$tap_dir/t/"; chown -R postgres: "$tap_dir"
    tap_files=("$tap_dir"/t/*.pl)
    tap_lib="$tap_dir/t"
    echo "tap: postgres cannot reach $tap_root/build/tap; running in $tap_dir"
  fi
fi
# Stops any server a killed or timed-out test script left behind (only ours:
# the clusters under this suite's tmp_check).
tap_stop_leftovers() {
  local pidfile
  for pidfile in "$tap_dir"/tmp_check/*/pgdata/postmaster.pid "$tap_dir"/tmp_check/*/*/pgdata/postmaster.pid; do
    [ -f "$pidfile" ] || continue
    tap_as_pg "$tap_bindir/pg_ctl" -D "$(dirname "$pidfile")" -m immediate -w stop >/dev/null 2>&1 &&
      echo "tap: stopped a leftover server in $(dirname "$pidfile")"
  done
}
# One run at a time per checkout (two runs would share build/tap).
(
  flock 9
  tap_stop_leftovers
  rm -rf "$tap_dir/tmp_check" "$tap_dir/log"
  cd "$tap_dir" &&
  tap_as_pg env PATH="$tap_bindir:$PATH" \
    PERL5LIB="$tap_pgxs/test/perl:$tap_lib${PERL5LIB:+:$PERL5LIB}" \
    PG_REGRESS="$tap_pgxs/test/regress/pg_regress" \
    TESTDIR="$tap_dir" PGDATABASE=postgres \
    PG_TEST_TIMEOUT_DEFAULT="${PG_TEST_TIMEOUT_DEFAULT:-120}" \
    timeout -k 10 "${TAP_TIMEOUT:-900}" prove --timer -v "${tap_files[@]}"
  rc=$?
  tap_stop_leftovers
  exit $rc
) 9>"$tap_dir.lock" >"$tap_logs/tap.log" 2>"$tap_logs/tap.err"
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
for tap_f in $(sed -nE 's/^(\S+\.pl) +\(Wstat: .*/\1/p' "$tap_logs/tap.log"); do
  tap_l="$tap_dir/tmp_check/log/regress_log_$(basename "$tap_f" .pl)"
  [ -f "$tap_l" ] || tap_l="$tap_dir/log/regress_log_$(basename "$tap_f" .pl)"
  [ -f "$tap_l" ] || continue
  echo "---- errors in $tap_l"
  grep -E -A3 'error running SQL|ERROR: |FATAL: |Bail out|died|timed out| at \S+ line [0-9]+\.$' "$tap_l" | head -60
  echo "---- tail of $tap_l"
  tail -15 "$tap_l"
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
