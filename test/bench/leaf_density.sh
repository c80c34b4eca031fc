#!/usr/bin/env bash
# Leaf density of a primary key index by insert rate: how full the B-tree's leaf
# pages are after appending, per key, at controlled rows per millisecond.
#
#   PG_MAJOR=18 INSTALL=1 bash test/bench/leaf_density.sh
#
# Why the rate matters: a key that is random within its millisecond (pg_uuidv7's
# uuid_generate_v7(), the C ULID extensions) lands left of the index's right
# edge whenever its millisecond has more keys to come; the right edge's page
# then splits in the middle instead of at 90% (nbtree's rightmost split keeps
# fillfactor, 90, on the left), and how often that happens grows with the
# number of keys per millisecond. A key in time order within the millisecond
# always appends at the right edge.
#
# For each mode (plain: the library loaded per backend; preload:
# shared_preload_libraries = 'ulid_tsid'), each rate WxB[:R] of RATES (W pgbench
# writers, B rows per INSERT statement, test/bench/insert_batch.sql: ~100-byte
# rows, one statement a transaction; R rows instead of ROWS) and each key of
# KEYS, a fresh table
#     bench_rows (id <key> PRIMARY KEY, n int, payload text)
# (autovacuum off) takes ROWS rows; then, with no vacuum:
#   rows_per_ms        rows / the wall-clock milliseconds pgbench took (the achieved rate)
#   rows_per_key_ms    rows / the distinct milliseconds in the keys: how many keys
#                      share a millisecond while a statement runs (the figure the
#                      density follows; empty for bigserial)
#   avg_leaf_density   pgstattuple's pgstatindex(), and leaf_fragmentation, leaf pages
# The density, the page counts and rows_per_key_ms do not move with the machine's
# load for a given rows_per_key_ms; rows_per_ms does, which is why both are kept.
# Anchors (bigserial, core_uuidv7, pg_uuidv7) run only without preload.
#
# Keys: bigserial; core_uuidv7 = uuid DEFAULT pg_catalog.uuidv7() (PostgreSQL 18+);
# pg_uuidv7 = uuid DEFAULT uuid_generate_v7() of Debian's postgresql-MAJOR-pg-uuidv7
# (what users install; installed into the major's chroot where its suite has it,
# skipped with one line elsewhere); ulid = ulid DEFAULT generate_ulid();
# ulid_monotonic = ulid DEFAULT generate_ulid_monotonic(); generate_uuidv7 =
# uuid DEFAULT generate_uuidv7(); tsid = tsid DEFAULT generate_tsid().
#
# Environment: PG_MAJOR=18 INSTALL=0 (1: build today's tree and install it first)
#              ROWS=300000 RATES="1x1:100000 1x10 1x100 1x1000 2x10 2x100" MODES="plain preload"
#              KEYS="bigserial core_uuidv7 pg_uuidv7 ulid ulid_monotonic generate_uuidv7 tsid"
#              OUT_DIR=test/bench/results/leaf_density PORT_BASE=55486 (PORT_BASE..+1)
# Output: a table here, $OUT_DIR/leaf_density-MAJOR.csv and .md.
set -uo pipefail
export PG_MAJOR="${PG_MAJOR:-18}"
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # HERE, ROOT, clusters (PG_MAJOR's server), TMP, STARTED
INSTALL="${INSTALL:-0}"
ROWS="${ROWS:-300000}"
RATES="${RATES:-1x1:100000 1x10 1x100 1x1000 2x10 2x100}"
MODES="${MODES:-plain preload}"
KEYS="${KEYS:-bigserial core_uuidv7 pg_uuidv7 ulid ulid_monotonic generate_uuidv7 tsid}"
OUT_DIR="${OUT_DIR:-$HERE/results/leaf_density}"
PORT_BASE="${PORT_BASE:-55486}"
mkdir -p "$OUT_DIR"
CSV="$OUT_DIR/leaf_density-$PG_MAJOR.csv"
FAILED=0

key_column() {
  case "$1" in
    bigserial)       echo "bigserial" ;;
    core_uuidv7)     echo "uuid DEFAULT pg_catalog.uuidv7()" ;;
    pg_uuidv7)       echo "uuid DEFAULT uuid_generate_v7()" ;;
    ulid)            echo "ulid DEFAULT generate_ulid()" ;;
    ulid_monotonic)  echo "ulid DEFAULT generate_ulid_monotonic()" ;;
    generate_uuidv7) echo "uuid DEFAULT generate_uuidv7()" ;;
    tsid)            echo "tsid DEFAULT generate_tsid()" ;;
    *) return 1 ;;
  esac
}
key_ms() {  # the key's millisecond, as SQL over the column id
  case "$1" in
    bigserial) echo "NULL::bigint" ;;
    tsid)      echo "(extract(epoch FROM tsid_timestamp(id)) * 1000)::bigint" ;;
    *)         echo "('x' || left(replace(id::uuid::text, '-', ''), 12))::bit(48)::bigint" ;;
  esac
}
key_is_ours() { case "$1" in ulid|ulid_monotonic|generate_uuidv7|tsid) return 0 ;; *) return 1 ;; esac; }
for k in $KEYS; do key_column "$k" >/dev/null || { echo "unknown key: $k" >&2; exit 2; }; done
for r in $RATES; do [[ "$r" =~ ^[0-9]+x[0-9]+(:[0-9]+)?$ ]] || { echo "a rate is WRITERSxBATCH[:ROWS], e.g. 2x100: $r" >&2; exit 2; }; done

if [ "$INSTALL" = 1 ]; then
  if [ -n "${PG_CHROOT:-}" ]; then
    pg_build >"$TMP/install.log" 2>&1 || { echo "FAIL: the build for PostgreSQL $PG_MAJOR"; tail -5 "$TMP/install.log"; exit 1; }
  else
    echo "INSTALL=1 installs only into a chroot major; on 15 install it yourself (holding /tmp/ulid_tsid.pg15.lock)"; exit 2
  fi
fi
PG_UUIDV7_FROM=""
case " $KEYS " in *" pg_uuidv7 "*)
  source "$ROOT/scripts/lib/debian_pkg.sh"
  if debian_pkg "postgresql-$PG_MAJOR-pg-uuidv7"; then PG_UUIDV7_FROM="Debian's postgresql-$PG_MAJOR-pg-uuidv7 $DEBIAN_PKG_VERSION"
  else echo "skip: pg_uuidv7: ${DEBIAN_PKG_WHY:-its package does not install}"; fi ;;
esac

echo "major,preload,key,writers,batch,rows,seconds,rows_per_ms,rows_per_key_ms,avg_leaf_density,leaf_fragmentation,leaf_pages,index_mb" >"$CSV"
run_one() {  # mode key writers batch rows
  local mode="$1" key="$2" w="$3" b="$4" rows="$5" col tx t0 t1 out stats
  col="$(key_column "$key")"
  q -c "DROP TABLE IF EXISTS bench_rows" \
    -c "CREATE TABLE bench_rows (id $col PRIMARY KEY, n int NOT NULL, payload text NOT NULL) WITH (autovacuum_enabled = off)" >/dev/null 2>"$TMP/err" ||
    { echo "skip: $key in $mode: $(grep -m1 ERROR "$TMP/err")"; return 0; }
  tx=$(( rows / w / b )); [ "$tx" -ge 1 ] || tx=1
  t0="$(date +%s%N)"
  out="$(pgbench -n -c "$w" -j "$w" -t "$tx" -D batch="$b" -f "$HERE/insert_batch.sql" 2>&1)" ||
    { echo "FAIL: $key in $mode, ${w}x$b:"; echo "$out" | grep -iE -m3 'error|fatal|abort'; return 1; }
  t1="$(date +%s%N)"
  stats="$(q -F, -c "SELECT count(*), count(DISTINCT $(key_ms "$key")) FROM bench_rows" \
                 -c "SELECT round(avg_leaf_density::numeric, 2), round(leaf_fragmentation::numeric, 2), leaf_pages,
                            round(pg_relation_size('bench_rows_pkey') / 1048576.0, 1) FROM pgstatindex('bench_rows_pkey')" | paste -sd,)" || return 1
  awk -F, -v maj="$PG_MAJOR" -v m="$mode" -v k="$key" -v w="$w" -v b="$b" -v ns="$((t1 - t0))" '{
      printf "%s,%s,%s,%d,%d,%d,%.2f,%.1f,%s,%s,%s,%s,%s\n", maj, m, k, w, b, $1, ns / 1e9, $1 / (ns / 1e6),
             ($2 > 0) ? sprintf("%.1f", $1 / $2) : "", $3, $4, $5, $6 }' <<<"$stats" >>"$CSV"
  tail -1 "$CSV" | awk -F, '{ printf "  %-8s %-16s %sx%-5s %8s rows in %6ss: %6s rows/ms, %6s rows per key ms, leaf density %6s%%, fragmentation %6s%%, %s leaf pages\n", $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }'
  q -c "DROP TABLE bench_rows" >/dev/null
}

port=$PORT_BASE
for mode in $MODES; do
  name="leaf_density_$mode"
  conf=("jit = off" "autovacuum = off")
  [ "$mode" = preload ] && conf+=("shared_preload_libraries = 'ulid_tsid'")
  cluster_start "$name" "$port" "${conf[@]}" || { echo "FAIL: cluster $name"; FAILED=$((FAILED + 1)); continue; }
  STARTED+=("$name")
  q -c "CREATE EXTENSION ulid_tsid" -c "CREATE EXTENSION pgstattuple" >/dev/null || { echo "FAIL: CREATE EXTENSION"; FAILED=$((FAILED + 1)); continue; }
  [ -n "$PG_UUIDV7_FROM" ] && [ "$mode" = plain ] && { q -c "CREATE EXTENSION pg_uuidv7" >/dev/null || echo "skip: pg_uuidv7: CREATE EXTENSION fails"; }
  echo "== PostgreSQL $(q -c "SHOW server_version"), $mode ($ROWS rows per run unless the rate says)"
  for r in $RATES; do
    for k in $KEYS; do
      [ "$mode" = plain ] || key_is_ours "$k" || continue
      [ "$k" = pg_uuidv7 ] && [ -z "$PG_UUIDV7_FROM" ] && continue
      spec="${r%%:*}"; rows="$ROWS"; [ "$spec" = "$r" ] || rows="${r#*:}"
      run_one "$mode" "$k" "${spec%x*}" "${spec#*x}" "$rows" || FAILED=$((FAILED + 1))
    done
  done
  cluster_stop "$name"; STARTED=("${STARTED[@]/$name}")
  port=$((port + 1))
done

{
  echo "# Leaf density by insert rate, PostgreSQL $PG_MAJOR"
  echo
  echo "Generated by \`PG_MAJOR=$PG_MAJOR ROWS=$ROWS RATES=\"$RATES\" bash test/bench/leaf_density.sh\` (the method is in the script's header)."
  echo
  machine_markdown 2>/dev/null | grep -v '^- load average'
  echo "- each run: a fresh \`bench_rows (id <key> PRIMARY KEY, n int, payload text)\`, $ROWS rows (or the rate's :R) by pgbench (W writers, B rows per INSERT statement, ~100-byte rows), then pgstatindex() with no vacuum"
  echo "- rows/ms: rows over the wall-clock time pgbench took; rows per key ms: rows over the distinct milliseconds in the keys (how many keys shared a millisecond)"
  echo "- keys: bigserial; core_uuidv7 = pg_catalog.uuidv7(); pg_uuidv7 = uuid_generate_v7() (${PG_UUIDV7_FROM:-not run}); ours: ulid = generate_ulid(), ulid_monotonic = generate_ulid_monotonic(), generate_uuidv7, tsid = generate_tsid(); plain = not preloaded, preload = shared_preload_libraries = 'ulid_tsid'"
  echo
  csv_markdown "$CSV"
} >"$OUT_DIR/leaf_density-$PG_MAJOR.md"
echo "CSV: $CSV ($SECONDS s)"
[ "$FAILED" -eq 0 ]
