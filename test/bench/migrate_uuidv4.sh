#!/usr/bin/env bash
# UUIDv4 keys to time-ordered keys (README: Migrating, "From pg_uuidv7, core 18's
# uuidv7(), or UUIDv4 keys"): the insert rate and the primary key's growth for a
# further batch of rows into a table that already holds ROWS UUIDv4 keys, with
# the table as it is and after each recipe:
#   v4    nothing changes: DEFAULT gen_random_uuid()
#   v7    ALTER TABLE t ALTER COLUMN id SET DEFAULT generate_uuidv7()   (catalog only)
#   ulid  ALTER TABLE t ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE ulid USING id::ulid,
#         ALTER COLUMN id SET DEFAULT generate_ulid()   (a rewrite; the child keeps uuid)
# Three tables of the same start are made in one cluster: (id uuid PRIMARY KEY
# DEFAULT gen_random_uuid(), payload int), ROWS rows, each with a child table
# (parent uuid REFERENCES it) of ROWS/10 rows. Then each recipe runs (timed), a
# CHECKPOINT, and the batch goes in as BATCH/CHUNK statements
#     INSERT INTO t (payload) SELECT g FROM generate_series(1, CHUNK) AS g
# in one session, the three tables taking turns chunk by chunk (so that other
# work on the machine weighs on all three alike), each timed by EXPLAIN (ANALYZE,
# TIMING OFF, SUMMARY ON) ("Execution Time", server-side, with the default's own
# cost) and its WAL measured by pg_current_wal_insert_lsn() around it. The primary
# key's size and leaf density (pgstattuple) are taken before and after.
# shared_buffers is small (32MB) so that the uuid primary key (about 80 MB at 2M
# rows) does not fit, as on a table that outgrew its cache.
# The server is the one of $PG_CONFIG (default: pg_config on the PATH), with
# ulid_tsid installed in it:
#   PG_CONFIG=/path/to/pg_config bash test/bench/migrate_uuidv4.sh
#
# Environment: ROWS=2000000 BATCH=1000000 CHUNK=10000 SHARED_BUFFERS=32MB
#              OUT_DIR=test/bench/results PORT=55476 NAME_PREFIX=bench_mig
# Output: a table on the terminal, $OUT_DIR/migrate_uuidv4.csv and .md.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # HERE, ROOT, clusters, PATH, TMP, STARTED

ROWS="${ROWS:-2000000}"
BATCH="${BATCH:-1000000}"
CHUNK="${CHUNK:-10000}"
SHARED_BUFFERS="${SHARED_BUFFERS:-32MB}"
OUT_DIR="${OUT_DIR:-$HERE/results}"
PORT="${PORT:-55476}"
NAME_PREFIX="${NAME_PREFIX:-bench_mig}"
mkdir -p "$OUT_DIR"
CSV="$OUT_DIR/migrate_uuidv4.csv"
CHUNKS=$(( BATCH / CHUNK )); [ "$CHUNKS" -ge 1 ] || CHUNKS=1
SCENARIOS="v4 v7 ulid"
name="${NAME_PREFIX}_run"
conf=("shared_buffers = '$SHARED_BUFFERS'" "jit = off" "max_parallel_workers_per_gather = 0"
      "checkpoint_timeout = '5min'" "max_wal_size = '1GB'" "full_page_writes = on" "wal_compression = off")
cluster_start "$name" "$PORT" "${conf[@]}" || { echo "FAIL: cannot start cluster $name"; exit 1; }
STARTED+=("$name")
q -c "CREATE EXTENSION ulid_tsid" -c "CREATE EXTENSION pgstattuple" >/dev/null || { echo "FAIL: CREATE EXTENSION"; exit 1; }
echo "server: $(q -c "SELECT version()" | cut -d, -f1), ulid_tsid $(q -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'"); shared_buffers=$SHARED_BUFFERS fsync=off synchronous_commit=off"

# The same start for each scenario.
for s in $SCENARIOS; do
  q <<SQL || { echo "FAIL: setup of m_$s"; exit 1; }
CREATE TABLE m_$s (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), payload int NOT NULL) WITH (autovacuum_enabled = off);
INSERT INTO m_$s (payload) SELECT g FROM generate_series(1, $ROWS) AS g;
CREATE TABLE m_${s}_child (id bigserial PRIMARY KEY, parent uuid NOT NULL REFERENCES m_$s) WITH (autovacuum_enabled = off);
INSERT INTO m_${s}_child (parent) SELECT id FROM m_$s WHERE payload % 10 = 0;
VACUUM ANALYZE m_$s, m_${s}_child;
SQL
done

sizes() {  # sizes TABLE: pk bytes, heap bytes, leaf density
  q -F, -c "SELECT pg_relation_size('$1_pkey'), pg_relation_size('$1'), (pgstatindex('$1_pkey')).avg_leaf_density"
}
declare -A before recipe_s
for s in $SCENARIOS; do
  case "$s" in
    v4) sql="SELECT 1" ;;
    v7) sql="ALTER TABLE m_v7 ALTER COLUMN id SET DEFAULT generate_uuidv7()" ;;
    ulid) sql="ALTER TABLE m_ulid ALTER COLUMN id DROP DEFAULT, ALTER COLUMN id TYPE ulid USING id::ulid, ALTER COLUMN id SET DEFAULT generate_ulid()" ;;
  esac
  t="$(q -c "SELECT extract(epoch FROM clock_timestamp())" -c "$sql" -c "SELECT extract(epoch FROM clock_timestamp())" 2>&1)" ||
    { echo "FAIL: recipe $s: $t"; exit 1; }
  recipe_s[$s]="$(awk 'NR == 1 { a = $1 } /^[0-9.]+$/ { b = $1 } END { printf "%.2f", b - a }' <<<"$t")"
  # the child kept its uuid column and its foreign key
  [ "$(q -c "SELECT format_type(atttypid, -1) FROM pg_attribute WHERE attrelid = 'm_${s}_child'::regclass AND attname = 'parent'")" = uuid ] ||
    { echo "FAIL: m_${s}_child.parent is not uuid any more"; exit 1; }
done
q -c "CHECKPOINT" >/dev/null
for s in $SCENARIOS; do before[$s]="$(sizes "m_$s")"; done

{
  echo "SET jit = off;"
  for ((c = 1; c <= CHUNKS; c++)); do
    # the order turns each chunk, so that no table always comes first
    case $((c % 3)) in 0) order="v4 v7 ulid" ;; 1) order="v7 ulid v4" ;; 2) order="ulid v4 v7" ;; esac
    for s in $order; do
      echo "SELECT 'lsn', pg_current_wal_insert_lsn();"
      echo "\\echo @ $s"
      echo "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) INSERT INTO m_$s (payload) SELECT g FROM generate_series(1, $CHUNK) AS g;"
      echo "SELECT 'lsn', pg_current_wal_insert_lsn();"
    done
  done
} >"$TMP/batch.sql"
q -F' ' -f "$TMP/batch.sql" >"$TMP/batch.out" 2>&1 || { echo "FAIL: batch:"; tail -5 "$TMP/batch.out"; exit 1; }
# WAL bytes per chunk from the LSN pairs (computed by the server).
awk '/^lsn / { print $2 }' "$TMP/batch.out" | paste - - | while read -r a b; do q -c "SELECT pg_wal_lsn_diff('$b', '$a')"; done >"$TMP/wal"
awk '/^@ / { print $2 }' "$TMP/batch.out" >"$TMP/who"
awk '/Execution Time:/ { print $3 }' "$TMP/batch.out" >"$TMP/ms"

echo "scenario,rows_before,batch_rows,chunk,recipe_s,rows_per_s,rows_per_s_median_chunk,wal_bytes_per_row,pk_mb_before,pk_mb_after,pk_mb_growth_per_1m_rows,leaf_density_before,leaf_density_after,heap_mb_after,rate_x_v4,pk_growth_x_v4" >"$CSV"
paste -d' ' "$TMP/who" "$TMP/ms" "$TMP/wal" >"$TMP/chunks"
for s in $SCENARIOS; do
  after="$(sizes "m_$s")"
  awk -v s="$s" -v rows="$ROWS" -v batch="$((CHUNKS * CHUNK))" -v chunk="$CHUNK" -v rs="${recipe_s[$s]}" -v b="${before[$s]}" -v a="$after" '
    function median(x, k,   i, j, t, y) { for (i = 1; i <= k; i++) y[i] = x[i]
      for (i = 2; i <= k; i++) { t = y[i]; for (j = i - 1; j >= 1 && y[j] > t; j--) y[j + 1] = y[j]; y[j + 1] = t }
      return (k % 2) ? y[(k + 1) / 2] : (y[k / 2] + y[k / 2 + 1]) / 2 }
    $1 == s { k++; ms += $2; wal += $3; r[k] = chunk * 1000 / $2 }
    END { split(b, B, ","); split(a, A, ",")
      printf "%s,%d,%d,%d,%s,%.0f,%.0f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f\n", s, rows, batch, chunk, rs, batch * 1000 / ms, median(r, k),
        wal / batch, B[1] / 1048576, A[1] / 1048576, (A[1] - B[1]) / 1048576 * 1e6 / batch, B[3], A[3], A[2] / 1048576 }' "$TMP/chunks" >>"$TMP/rows.csv"
done
awk -F, '$1 == "v4" { r = $6; g = $11 } { line[NR] = $0; rr[NR] = $6; gg[NR] = $11 }
  END { for (i = 1; i <= NR; i++) printf "%s,%.2f,%.2f\n", line[i], rr[i] / r, (g > 0) ? gg[i] / g : 0 }' "$TMP/rows.csv" >>"$CSV"
echo "== UUIDv4 table of $ROWS rows, then $((CHUNKS * CHUNK)) more rows in chunks of $CHUNK (the CPUs may be shared with other work: compare the ratios)"
csv_pretty "$CSV"
{
  echo "# UUIDv4 keys to time-ordered keys: a further batch before and after the recipe"
  echo
  echo "Generated by \`test/bench/migrate_uuidv4.sh\` (ROWS=$ROWS, BATCH=$BATCH, CHUNK=$CHUNK, SHARED_BUFFERS=$SHARED_BUFFERS)."
  echo
  machine_markdown 2>/dev/null || true
  echo "- start: three tables \`(id uuid PRIMARY KEY DEFAULT gen_random_uuid(), payload int)\` of $ROWS rows, each with a child \`(parent uuid REFERENCES it)\` of $((ROWS / 10)) rows"
  echo "- v4: unchanged; v7: \`SET DEFAULT generate_uuidv7()\`; ulid: \`ALTER COLUMN id TYPE ulid USING id::ulid\`, \`SET DEFAULT generate_ulid()\`, the child left \`uuid\` (recipe_s: how long the ALTER took, under ACCESS EXCLUSIVE)"
  echo "- batch: \`INSERT ... SELECT FROM generate_series(1, $CHUNK)\` per statement, the three tables in turn, in one session; rows_per_s from the sum of \`EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON)\` execution times (server-side, the default's cost included); WAL from \`pg_current_wal_insert_lsn()\` around each statement"
  echo "- server: shared_buffers=$SHARED_BUFFERS, fsync=off, synchronous_commit=off, full_page_writes=on, autovacuum off on the tables"
  echo
  csv_markdown "$CSV"
} >"$OUT_DIR/migrate_uuidv4.md"
echo "CSV: $CSV ($SECONDS s)"
