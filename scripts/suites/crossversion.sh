# Cross-version TAP tests (test/t/cross/*.pl): pg_upgrade from PostgreSQL 13
# to 18, and plain dumps between the system's 15 and 18, with ulid_tsid
# installed in all three. Sourced by scripts/test.sh once every major ran (uses
# tally and $LOGS; the extension must already be installed into the three
# servers). Stand-alone:
#   bash scripts/suites/crossversion.sh [test/t/cross/01X_name.pl ...]
#
# The servers: 13 and 18 from scripts/postgres.sh (built there, cached), 15
# the system's /usr/bin/pg_config. Their bin directories reach the tests as
# ULID_TSID_PG13_BINDIR, ULID_TSID_PG15_BINDIR and ULID_TSID_PG18_BINDIR (a
# test fails when one is missing). prove runs with 18's Perl modules
# (PostgreSQL::Test::Cluster, whose install_path runs nodes of the other majors)
# and 18's pg_regress, as 'postgres' when we are root (initdb refuses root),
# in build/crossversion (TESTDIR; clusters and per-test logs in its
# tmp_check, server logs in tmp_check/log). Full TAP stream: $LOGS/crossversion.log.
# Whole suite: about a minute; CROSSVERSION_TIMEOUT (seconds, default 270)
# bounds it.
xv_root="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
xv_logs="${LOGS:-$xv_root/.cluster/logs}"
xv_dir="$xv_root/build/crossversion"
xv_lib="$xv_root/test/t"   # the tests' shared module, UlidTsid.pm
xv_files=()
for xv_f in "$@"; do xv_files+=("$(cd "$(dirname "$xv_f")" && pwd)/$(basename "$xv_f")"); done
[ ${#xv_files[@]} -eq 0 ] && xv_files=("$xv_root"/test/t/cross/*.pl)
if ! declare -F tally >/dev/null; then
  tally() { echo "== $1: $2 passed, $3 failed"; [ "$3" -eq 0 ]; }
fi
mkdir -p "$xv_logs" "$xv_dir"
: >"$xv_logs/crossversion.log"; : >"$xv_logs/crossversion.err"

# The three servers. A missing one leaves its variable empty: the tests that
# need it fail (they do not skip).
xv_bindir13="" xv_bindir15="" xv_bindir18=""
for xv_major in 13 15 18; do
  if [ "$xv_major" = 15 ]; then
    xv_pgc=/usr/bin/pg_config
  else
    xv_pgc="$(bash "$xv_root/scripts/postgres.sh" "$xv_major" 2>>"$xv_logs/crossversion.err")" || xv_pgc=""
  fi
  if [ -n "$xv_pgc" ] && [ -x "$xv_pgc" ] && xv_b="$("$xv_pgc" --bindir)"; then
    printf -v "xv_bindir$xv_major" '%s' "$xv_b"
    echo "   PostgreSQL $xv_major: $("$xv_pgc" --version) at $xv_b"
  else
    echo "   PostgreSQL $xv_major: NOT AVAILABLE (see $xv_logs/crossversion.err)"
  fi
done
# 18's TAP modules and pg_regress drive every node.
xv_pgxs18=""
[ -n "$xv_bindir18" ] && xv_pgxs18="$(dirname "$("$xv_bindir18/pg_config" --pgxs)")/.."   # .../lib/pgxs/src

source "$xv_root/scripts/suites/prove_report.sh"
prove_workdir crossversion "$xv_dir" "$xv_lib" "${xv_files[@]}"
xv_dir="$PROVE_DIR"; xv_lib="$PROVE_LIB"; xv_files=("${PROVE_FILES[@]}")
# Stops any server a killed or timed-out test left behind (only ours: the
# clusters under this suite's tmp_check), each with its own major's pg_ctl.
xv_stop_leftovers() {
  local pidfile data ver bindir
  for pidfile in "$xv_dir"/tmp_check/*/pgdata/postmaster.pid; do
    [ -f "$pidfile" ] || continue
    data="$(dirname "$pidfile")"
    ver="$(cat "$data/PG_VERSION" 2>/dev/null)"
    case "$ver" in 13) bindir="$xv_bindir13" ;; 15) bindir="$xv_bindir15" ;; *) bindir="$xv_bindir18" ;; esac
    [ -n "$bindir" ] || continue
    as_postgres "$bindir/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 &&
      echo "crossversion: stopped a leftover PostgreSQL $ver server in $data"
  done
}
xv_lockfile=/tmp/ulid_tsid.make.lock
[ -e "$xv_lockfile" ] || : >>"$xv_lockfile" 2>/dev/null || true
[ -r "$xv_lockfile" ] || xv_lockfile=/dev/null
# One run at a time per checkout; and no 'make install' of the extension (the
# owner's test.sh builds under /tmp/ulid_tsid.make.lock) while our servers load it.
(
  flock 9
  if ! flock -s -w 900 8; then echo "crossversion: /tmp/ulid_tsid.make.lock stayed taken for 15 min" >&2; exit 1; fi
  [ -n "$xv_pgxs18" ] || { echo "crossversion: no PostgreSQL 18: cannot run the TAP framework" >&2; exit 1; }
  xv_stop_leftovers
  rm -rf "$xv_dir/tmp_check" "$xv_dir/log"
  cd "$xv_dir" &&
  as_postgres env PATH="$xv_bindir18:$PATH" \
    PERL5LIB="$xv_pgxs18/test/perl:$xv_lib${PERL5LIB:+:$PERL5LIB}" \
    PG_REGRESS="$xv_pgxs18/test/regress/pg_regress" \
    TESTDIR="$xv_dir" TESTDATADIR="$xv_dir/tmp_check" TESTLOGDIR="$xv_dir/tmp_check/log" \
    PGDATABASE=postgres \
    ULID_TSID_PG13_BINDIR="$xv_bindir13" \
    ULID_TSID_PG15_BINDIR="$xv_bindir15" \
    ULID_TSID_PG18_BINDIR="$xv_bindir18" \
    PG_TEST_TIMEOUT_DEFAULT="${PG_TEST_TIMEOUT_DEFAULT:-120}" \
    timeout -k 10 "${CROSSVERSION_TIMEOUT:-270}" prove --timer -v "${xv_files[@]}"
  rc=$?
  xv_stop_leftovers
  exit $rc
) 9>"$xv_dir.lock" 8<"$xv_lockfile" >>"$xv_logs/crossversion.log" 2>>"$xv_logs/crossversion.err"
xv_rc=$?
prove_report crossversion "$xv_logs/crossversion.log" "$xv_logs/crossversion.err" "$xv_dir" "$xv_rc"
