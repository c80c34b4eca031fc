#!/usr/bin/env bash
# TAP tests (test/t/*.pl): real PostgreSQL clusters under real faults, driven by
# PostgreSQL::Test::Cluster, on one major, run where its server is (the host's 15,
# or inside the major's chroot, with that major's own test modules and pg_regress).
#   PG_MAJOR=17 bash scripts/suites/tap.sh [test/t/00X_name.pl ...]   (after build.sh)
#
# initdb refuses root, so prove runs as 'postgres'. Clusters, port locks and
# per-test logs live under build/tap/tmp_check of the tree the extension was built
# in (TESTDIR; the checkout on 15, its copy in the chroot otherwise); the server
# logs of a failed test are in build/tap/tmp_check/log (build/tap/log with 17+'s
# test modules). The scripts' shared module, test/t/UlidTsid.pm, is on PERL5LIB.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
source "$ROOT/scripts/suites/prove_report.sh"
pg_copy_tree
tap_pgxs="$(dirname "$(pg_in "$PG_CONFIG" --pgxs)")/.."   # .../lib/pgxs/src, as seen where prove runs
tap_files=()
for tap_f in "$@"; do tap_files+=("$PG_SRC/test/t/$(basename "$tap_f")"); done
[ ${#tap_files[@]} -eq 0 ] && tap_files=("$PG_SRC"/test/t/*.pl)
tap_dir="$PG_SRC/build/tap"
tap_lib="$PG_SRC/test/t"
if [ -z "$PG_CHROOT" ]; then
  prove_workdir tap "$tap_dir" "$tap_lib" "${tap_files[@]}"
  tap_dir="$PROVE_DIR"; tap_lib="$PROVE_LIB"; tap_files=("${PROVE_FILES[@]}")
else
  mkdir -p "$tap_dir"; pg_in chown postgres:postgres "$tap_dir"
fi
tap_log="$LOGS/tap-$PG_MAJOR.log" tap_err="$LOGS/tap-$PG_MAJOR.err"
# Stops any server a killed or timed-out test script left behind (only ours:
# the clusters under this suite's tmp_check).
tap_stop_leftovers() {
  local pidfile
  for pidfile in "$tap_dir"/tmp_check/*/pgdata/postmaster.pid "$tap_dir"/tmp_check/*/*/pgdata/postmaster.pid; do
    [ -f "$pidfile" ] || continue
    (cd / && pg_as_postgres "$PG_BINDIR/pg_ctl" -D "$(dirname "$pidfile")" -m immediate -w stop) >/dev/null 2>&1 &&
      echo "tap: stopped a leftover server in $(dirname "$pidfile")"
  done
}
# 013_pg18_uuid's files (PostgreSQL 18's own uuid regression test), fetched here,
# as root with the host's apt (the tests run as postgres, in the chroot on most
# majors), and handed to the test by their path as it sees it.
tap_pg18_uuid=""
if [ ${#tap_files[@]} -gt 0 ] && printf '%s\n' "${tap_files[@]}" | grep -q '013_pg18_uuid'; then
  if tap_pg18_uuid="$(bash "$ROOT/scripts/pg-regress-files.sh" 18 uuid 2>"$LOGS/pg-regress-files-18.log")"; then
    if [ -n "$PG_CHROOT" ]; then
      rm -rf "$PG_SRC/build/pg-regress-18"; mkdir -p "$PG_SRC/build"
      cp -r "$tap_pg18_uuid" "$PG_SRC/build/pg-regress-18" && chmod -R a+rX "$PG_SRC/build/pg-regress-18"
      tap_pg18_uuid="$(pg_inside "$PG_SRC/build/pg-regress-18")"
    fi
  fi
  check "PostgreSQL 18's uuid regression files for 013_pg18_uuid (scripts/pg-regress-files.sh; log: $LOGS/pg-regress-files-18.log)" \
    test -n "$tap_pg18_uuid"
fi
# 014_migrating's pg_uuidv7: Debian's package where the major's suite has one (sid's
# postgresql-18-pg-uuidv7: what users install), put into the chroot here as root; the
# test takes the server's packaged extension when it lists one, else the vendored 1.6.0.
if printf '%s\n' "${tap_files[@]}" | grep -q '014_migrating'; then
  source "$ROOT/scripts/lib/debian_pkg.sh"
  debian_pkg "postgresql-$PG_MAJOR-pg-uuidv7"
  case $? in
    0) echo "   014_migrating: pg_uuidv7 from Debian's postgresql-$PG_MAJOR-pg-uuidv7 $DEBIAN_PKG_VERSION" ;;
    2) echo "   014_migrating: pg_uuidv7 1.6.0 from ../shared/vendor ($DEBIAN_PKG_WHY)" ;;
    *) check "postgresql-$PG_MAJOR-pg-uuidv7 installed into the chroot for 014_migrating (log: $LOGS/apt-postgresql-$PG_MAJOR-pg-uuidv7.log)" false ;;
  esac
fi
# 16+'s test modules copy a cluster made once (INITDB_TEMPLATE) where a test would
# run initdb with no options of its own (as PostgreSQL's own check-world does):
# the same files, a copy instead of some 25 initdb runs a major. 13's and 15's
# modules always run initdb, with exactly "-D DIR -A trust -N" where a test gives no
# options: there an initdb of our own, first on the tests' PATH, makes that copy
# (16+'s very command, cp -RPp) and runs the real initdb for anything else.
tap_template="" tap_path=""
rm -rf "$tap_dir/initdb-template" "$tap_dir/initdb-copy"
if (cd / && pg_as_postgres initdb --no-sync --pgdata "$(pg_inside "$tap_dir")/initdb-template" --auth trust) \
     >"$LOGS/tap-$PG_MAJOR-initdb-template.log" 2>&1; then
  tap_template="$(pg_inside "$tap_dir")/initdb-template"
  if ! grep -q INITDB_TEMPLATE "$PG_CHROOT$tap_pgxs/test/perl/PostgreSQL/Test/Cluster.pm" 2>/dev/null; then
    mkdir -p "$tap_dir/initdb-copy"
    cat >"$tap_dir/initdb-copy/initdb" <<EOF_INITDB
#!/bin/sh
[ "\$#" = 5 ] && [ "\$1" = -D ] && [ "\$3" = -A ] && [ "\$4" = trust ] && [ "\$5" = -N ] &&
  exec cp -RPp "$tap_template" "\$2"
exec "$PG_BINDIR/initdb" "\$@"
EOF_INITDB
    chmod 755 "$tap_dir/initdb-copy/initdb"
    tap_path="$(pg_inside "$tap_dir")/initdb-copy:$PG_BINDIR:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
  fi
else
  echo "   tap: no initdb template (log: $LOGS/tap-$PG_MAJOR-initdb-template.log); every test runs initdb"
fi
# One run at a time per tree (two runs would share build/tap). Inside the chroot,
# by their paths there (one spelling of every path for the tests and the servers
# they start).
in_files=(); for f in "${tap_files[@]}"; do in_files+=("$(pg_inside "$f")"); done
PGDATABASE=postgres PG_TEST_TIMEOUT_DEFAULT="${PG_TEST_TIMEOUT_DEFAULT:-120}" \
  prove_run "$tap_dir" "$tap_log" "$tap_err" tap_stop_leftovers \
    pg_as_postgres env ${tap_path:+PATH="$tap_path"} PERL5LIB="$tap_pgxs/test/perl:$(pg_inside "$tap_lib")" PG_REGRESS="$tap_pgxs/test/regress/pg_regress" \
      PG18_UUID_REGRESS_DIR="$tap_pg18_uuid" ${tap_template:+INITDB_TEMPLATE="$tap_template"} \
      TESTDIR="$(pg_inside "$tap_dir")" timeout -k 10 "${TAP_TIMEOUT:-1500}" prove --timer -v "${in_files[@]}"
tap_rc=$?
prove_report tap "$tap_log" "$tap_err" "$tap_dir" "$tap_rc"
