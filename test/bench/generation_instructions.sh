#!/usr/bin/env bash
# Instructions per generator call, counted by valgrind's callgrind: unlike
# timings, the count does not move with the machine's load, so two builds can
# be compared on a busy machine (the generation-cost benchmark's timings moved
# 3-5x between runs while other work shared the cores).
#
# Method: a throwaway cluster in single-user mode (postgres --single), one
# session per generator and count, `SELECT count(f()) FROM generate_series(1, n)`
# run under `valgrind --tool=callgrind --toggle-collect=<C function>`: the
# instructions executed inside the function and what it calls, for n = 100,000
# and n = 300,000 (plus 1,000 warm-up calls each); the steady-state cost per
# call is the difference divided by N2 - N1, so one-time work (the first call's
# catalog lookups) drops out. nextval() (nextval_oid) is the baseline.
# Runs without and with shared_preload_libraries = 'ulid_tsid'.
# With BASELINES=1 (default), the other generators the server has are counted
# too, in the first mode only (no library of ours in them): core's
# gen_random_uuid() (C gen_random_uuid), core 18's uuidv7() (C uuidv7) and
# pg_uuidv7's uuid_generate_v7() (C uuid_generate_v7) where the extension is
# installed (Debian's postgresql-18-pg-uuidv7). Callgrind counts user-space
# instructions only: the system call that gen_random_uuid() and uuidv7() make
# per value (OpenSSL's getpid) is one instruction here, and its time in the
# kernel is not counted.
# EXT and LIB name the extension and its library, so that another build
# installed beside it under another name (test/bench/generation_compare.sh
# installs 0.3.0's as ulid_tsid_v030) is counted the same way.
#
# OURS=0 counts only the others and nextval(), without the extension (on a server
# it is not installed into: OURS=0 MODES=plain on the host's 15).
# Environment: MODES="plain preload" OUT_DIR=test/bench/results PG_CONFIG=pg_config
#              EXT=ulid_tsid LIB=ulid_tsid N1=100000 N2=300000
#              BASELINES=1 OURS=1 CSV=$OUT_DIR/generation_instructions.csv
# Output: a table on the terminal and $CSV.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT_DIR="${OUT_DIR:-$HERE/results}"
MODES="${MODES:-plain preload}"
BIN="$("${PG_CONFIG:-pg_config}" --bindir)"
command -v valgrind >/dev/null || { echo "skip: valgrind not installed"; exit 0; }
mkdir -p "$OUT_DIR"
CSV="${CSV:-$OUT_DIR/generation_instructions.csv}"
EXT="${EXT:-ulid_tsid}"
LIB="${LIB:-ulid_tsid}"
N1="${N1:-100000}"
N2="${N2:-300000}"
BASELINES="${BASELINES:-1}"
OURS="${OURS:-1}"
TMP="$(mktemp -d /tmp/ulid_tsid_instr.XXXXXX)"; chmod 755 "$TMP"
trap 'rm -rf "$TMP"' EXIT
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres: "$TMP"
as_pg "$BIN/initdb" -D "$TMP/data" -A trust --no-sync >/dev/null 2>&1 || { echo "FAIL: initdb"; exit 1; }
single() { as_pg "$BIN/postgres" --single -D "$TMP/data" "$@" postgres; }
[ "$OURS" = 1 ] && echo "CREATE EXTENSION $EXT;" | single >/dev/null 2>&1
echo "CREATE SEQUENCE gi_seq;" | single >/dev/null 2>&1
# C function | SQL call
OUR_ITEMS=""
[ "$OURS" = 1 ] && OUR_ITEMS="generate_ulid|generate_ulid() generate_ulid_monotonic|generate_ulid_monotonic() generate_tsid|generate_tsid() ulid_tsid_uuidv7|generate_uuidv7()"
OTHERS=""
if [ "$BASELINES" = 1 ]; then
  OTHERS="gen_random_uuid|gen_random_uuid()"
  has() { echo "SELECT 'has=' || count(*) FROM $1;" | single 2>/dev/null | grep -q '"has=1"'; }
  has "pg_catalog.pg_proc WHERE proname = 'uuidv7' AND pronargs = 0 AND pronamespace = 'pg_catalog'::regnamespace" &&
    OTHERS="$OTHERS uuidv7|pg_catalog.uuidv7()"
  if has "pg_catalog.pg_available_extensions WHERE name = 'pg_uuidv7'"; then
    echo "CREATE EXTENSION pg_uuidv7;" | single >/dev/null 2>&1
    has "pg_catalog.pg_proc WHERE proname = 'uuid_generate_v7'" && OTHERS="$OTHERS uuid_generate_v7|uuid_generate_v7()"
  fi
fi
echo "preload,function,instructions_per_call,x_nextval" >"$CSV"
first_mode=1
for mode in $MODES; do
  opt=(); [ "$mode" = preload ] && opt=(-c "shared_preload_libraries=$LIB")
  ITEMS="$OUR_ITEMS"; [ "$first_mode" = 1 ] && ITEMS="$ITEMS $OTHERS"; ITEMS="$ITEMS nextval_oid|nextval('gi_seq')"
  first_mode=0
  declare -A per=()
  for item in $ITEMS; do
    sym="${item%%|*}"; call="${item#*|}"
    for n in "$N1" "$N2"; do
      printf 'SELECT count(%s) FROM generate_series(1, 1000);\nSELECT count(%s) FROM generate_series(1, %d);\n' "$call" "$call" "$n" |
        as_pg valgrind --tool=callgrind --callgrind-out-file="$TMP/cg.$mode.$sym.$n" --toggle-collect="$sym" \
          "$BIN/postgres" --single -D "$TMP/data" "${opt[@]}" postgres >/dev/null 2>"$TMP/cg.$mode.$sym.$n.err"
      total="$(callgrind_annotate "$TMP/cg.$mode.$sym.$n" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')"
      [ -n "$total" ] || { echo "FAIL: $mode $call (n = $n)"; tail -3 "$TMP/cg.$mode.$sym.$n.err"; exit 1; }
      per[$sym.$n]="$total"
    done
    per[$sym]="$(awk -v a="${per[$sym.$N1]}" -v b="${per[$sym.$N2]}" -v d="$((N2 - N1))" 'BEGIN { printf "%.1f", (b - a) / d }')"
  done
  for item in $ITEMS; do
    sym="${item%%|*}"; call="${item#*|}"
    awk -v m="$mode" -v c="$call" -v i="${per[$sym]}" -v nv="${per[nextval_oid]}" 'BEGIN { printf "%s,%s,%s,%.2f\n", m, c, i, i / nv }' >>"$CSV"
  done
  unset per
done
column -t -s, "$CSV"
echo "CSV: $CSV"
