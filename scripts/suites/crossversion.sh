#!/usr/bin/env bash
# Cross-version TAP tests (test/t/cross/*.pl), in the sid chroot, where Debian's 18
# (sid), 19 (experimental) and 13 (bullseye's package, on sid's libraries) share one
# filesystem as pg_upgrade needs: pg_upgrade 13 -> 18 (010) and 18 -> 19 (012), and
# plain dumps 13 -> 18 and 18 -> 13 (011, ULID_TSID_DUMP_OLD=13). The extension is
# built for 18 and 19 in the chroot (scripts/suites/build.sh); 13 there has no -dev
# package (its clang-11 does not install on sid), so the extension built for 13 in
# the bullseye chroot is copied into it. Each of those is one check.
#   bash scripts/suites/crossversion.sh [test/t/cross/01X_name.pl ...]
#
# prove runs as 'postgres' inside the chroot with 19's Perl modules
# (PostgreSQL::Test::Cluster, whose install_path runs nodes of the other majors) and
# 19's pg_regress, in build/crossversion of 18's build tree (TESTDIR; clusters and
# per-test logs in its tmp_check). Full TAP stream: $LOGS/crossversion.log.
# CROSSVERSION_TIMEOUT (seconds, default 600) bounds it.
set -uo pipefail
PG_MAJOR=18
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
source "$ROOT/scripts/suites/prove_report.sh"
xv_args=("$@")
# 19 shares the chroot: hold its server too (18's is held by lib/pg.sh).
if [ "${PG_LOCKED:-}" = 18 ]; then
  exec 5>"$ULID_TSID_CACHE/locks/use-19"
  flock -n 5 || { echo "   waiting for another checkout's run on PostgreSQL 19"; flock 5; }
fi
for m in 18 19 13; do
  check "the extension built for $m with -Werror and installed (log: $LOGS/crossversion-build-$m.out)" \
    env PG_LOCKED="$m" PG_MAJOR="$m" bash "$ROOT/scripts/suites/build.sh" >"$LOGS/crossversion-build-$m.out" 2>&1
done
# 13's files, from the bullseye chroot into the sid chroot's 13.
xv_b13="$(bash "$ROOT/scripts/chroot.sh" 13 2>>"$LOGS/chroot-13.log")"
xv_copy13() {
  local f
  [ -n "$xv_b13" ] || return 1
  rm -rf "$PG_CHROOT"/usr/share/postgresql/13/extension/ulid_tsid* "$PG_CHROOT"/usr/lib/postgresql/13/lib/ulid_tsid* \
         "$PG_CHROOT"/usr/lib/postgresql/13/lib/bitcode/ulid_tsid*
  for f in "$xv_b13"/usr/share/postgresql/13/extension/ulid_tsid* "$xv_b13"/usr/lib/postgresql/13/lib/ulid_tsid.so; do
    [ -e "$f" ] || return 1
    cp -a "$f" "$PG_CHROOT${f#"$xv_b13"}"
  done
  # The library runs there: its dependencies resolve with sid's libraries.
  ! chroot "$PG_CHROOT" ldd /usr/lib/postgresql/13/lib/ulid_tsid.so | grep -q 'not found'
}
check "the extension built for 13 in the bullseye chroot, copied into the sid chroot's 13" xv_copy13

pg_copy_tree
xv_files=()
for f in "${xv_args[@]}"; do xv_files+=("$PG_SRC/test/t/cross/$(basename "$f")"); done
[ ${#xv_files[@]} -eq 0 ] && xv_files=("$PG_SRC"/test/t/cross/*.pl)
xv_dir="$PG_SRC/build/crossversion"
xv_pgxs="/usr/lib/postgresql/19/lib/pgxs/src"
mkdir -p "$xv_dir"; pg_in chown postgres:postgres "$xv_dir"
xv_log="$LOGS/crossversion.log" xv_err="$LOGS/crossversion.err"
xv_stop_leftovers() {
  local pidfile data ver
  for pidfile in "$xv_dir"/tmp_check/*/pgdata/postmaster.pid "$xv_dir"/tmp_check/t_*_data/pgdata/postmaster.pid; do
    [ -f "$pidfile" ] || continue
    data="$(dirname "$pidfile")"; ver="$(cat "$data/PG_VERSION" 2>/dev/null)"
    (cd / && pg_as_postgres "/usr/lib/postgresql/$ver/bin/pg_ctl" -D "$data" -m immediate -w stop) >/dev/null 2>&1 &&
      echo "crossversion: stopped a leftover PostgreSQL $ver server in $data"
  done
}
in_dir="$(pg_inside "$xv_dir")"
in_files=(); for f in "${xv_files[@]}"; do in_files+=("$(pg_inside "$f")"); done
prove_run "$xv_dir" "$xv_log" "$xv_err" xv_stop_leftovers \
  pg_as_postgres env PATH="/usr/lib/postgresql/19/bin:/usr/bin:/bin" \
    PERL5LIB="$xv_pgxs/test/perl:$(pg_inside "$PG_SRC")/test/t" PG_REGRESS="$xv_pgxs/test/regress/pg_regress" \
    TESTDIR="$in_dir" TESTDATADIR="$in_dir/tmp_check" TESTLOGDIR="$in_dir/tmp_check/log" PGDATABASE=postgres \
    ULID_TSID_PG13_BINDIR=/usr/lib/postgresql/13/bin ULID_TSID_PG18_BINDIR=/usr/lib/postgresql/18/bin \
    ULID_TSID_PG19_BINDIR=/usr/lib/postgresql/19/bin ULID_TSID_DUMP_OLD=13 \
    PG_TEST_TIMEOUT_DEFAULT="${PG_TEST_TIMEOUT_DEFAULT:-120}" \
    timeout -k 10 "${CROSSVERSION_TIMEOUT:-600}" prove --timer -v "${in_files[@]}"
xv_rc=$?
prove_report crossversion "$xv_log" "$xv_err" "$xv_dir" "$xv_rc"
