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
source "$tap_root/scripts/suites/prove_report.sh"
tap_files=()
for tap_f in "$@"; do tap_files+=("$(cd "$(dirname "$tap_f")" && pwd)/$(basename "$tap_f")"); done
[ ${#tap_files[@]} -eq 0 ] && tap_files=("$tap_root"/test/t/*.pl)
mkdir -p "$tap_logs"
prove_workdir tap "$tap_root/build/tap" "$tap_root/test/t" "${tap_files[@]}"
tap_dir="$PROVE_DIR"; tap_lib="$PROVE_LIB"; tap_files=("${PROVE_FILES[@]}")
# Stops any server a killed or timed-out test script left behind (only ours:
# the clusters under this suite's tmp_check).
tap_stop_leftovers() {
  local pidfile
  for pidfile in "$tap_dir"/tmp_check/*/pgdata/postmaster.pid "$tap_dir"/tmp_check/*/*/pgdata/postmaster.pid; do
    [ -f "$pidfile" ] || continue
    as_postgres "$tap_bindir/pg_ctl" -D "$(dirname "$pidfile")" -m immediate -w stop >/dev/null 2>&1 &&
      echo "tap: stopped a leftover server in $(dirname "$pidfile")"
  done
}
# One run at a time per checkout (two runs would share build/tap).
(
  flock 9
  tap_stop_leftovers
  rm -rf "$tap_dir/tmp_check" "$tap_dir/log"
  cd "$tap_dir" &&
  as_postgres env PATH="$tap_bindir:$PATH" \
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
prove_report tap "$tap_logs/tap.log" "$tap_logs/tap.err" "$tap_dir" "$tap_rc"
