#!/usr/bin/env bash
# Insert locality: how fast a primary key index takes batched inserts, and what
# it costs in index size, page density and WAL, per key type.
#
# For each mode (library not preloaded / preloaded via shared_preload_libraries)
# a throwaway cluster is started (scripts/cluster.sh) with shared_buffers small
# (32MB) so the PK index grows to several times shared_buffers. For each
# checkpoint setting ("rare": checkpoint_timeout=1h, max_wal_size=10GB;
# "frequent": checkpoint_timeout=30s, max_wal_size=64MB) and each key type, a
# fresh table
#     bench_rows (id <key> PRIMARY KEY, n int, payload text)   -- ~100-byte rows
# is filled by pgbench (-c CLIENTS -j CLIENTS; each transaction inserts BATCH
# rows with INSERT ... SELECT FROM generate_series) in STRETCHES equal stretches;
# after each stretch the WAL position, pg_stat_wal.wal_fpi, the checkpoint count
# and the PK size are sampled. Every table starts right after a CHECKPOINT.
# Baselines (bigserial, UUIDv4, PL/pgSQL TSID, the core's uuidv7()) do not
# depend on the library and run only without preload. A key whose default
# cannot be created on this server (core_uuidv7 before PostgreSQL 18) is
# skipped with a "skip: KEY (...) in MODE/SETTING: ERROR ..." line.
# The server is the one of $PG_CONFIG (default: pg_config on the PATH), e.g.
#   PG_CONFIG=/path/to/pg_config bash test/bench/insert_locality.sh   (a server installed on this host)
#
# Environment:
#   ROWS=2000000        rows per key type and setting (LONG=1: 10000000); 2M rows make
#                       a bigint PK ~43MB and a uuid PK ~76MB against shared_buffers=32MB
#   KEYS="..."          key types, from: bigserial uuidv4 plpgsql_tsid generate_uuidv7
#                       core_uuidv7 ulid tsid bigint_tsid (generate_uuidv7 = the extension's
#                       generate_uuidv7(); core_uuidv7 = pg_catalog.uuidv7(), PostgreSQL 18+)
#   SETTINGS="rare frequent"   MODES="plain preload"
#   STRETCHES=10 BATCH=100 CLIENTS=2 SHARED_BUFFERS=32MB
#   OUT_DIR=test/bench/results  PORT_BASE=55450 (uses PORT_BASE, PORT_BASE+1)
#   NAME_PREFIX=bench_ins  PG_CONFIG=pg_config (the server: its bindir's initdb, postgres, pgbench)
#   PLOT=1 (0: no gnuplot picture)   PLOT_ONLY=1 (no run: the picture again from the per-stretch CSV)
# Output: a table on the terminal, $OUT_DIR/insert_locality.csv (summary),
# $OUT_DIR/insert_locality_stretches.csv (per stretch), insert_locality.png, .md.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # HERE, ROOT, clusters, PATH, TMP, STARTED

LONG="${LONG:-0}"
if [ "$LONG" = 1 ]; then ROWS="${ROWS:-10000000}"; else ROWS="${ROWS:-2000000}"; fi
KEYS="${KEYS:-bigserial uuidv4 plpgsql_tsid generate_uuidv7 core_uuidv7 ulid tsid bigint_tsid}"
SETTINGS="${SETTINGS:-rare frequent}"
MODES="${MODES:-plain preload}"
STRETCHES="${STRETCHES:-10}"
BATCH="${BATCH:-100}"
CLIENTS="${CLIENTS:-2}"
SHARED_BUFFERS="${SHARED_BUFFERS:-32MB}"
OUT_DIR="${OUT_DIR:-$HERE/results}"
PORT_BASE="${PORT_BASE:-55450}"
NAME_PREFIX="${NAME_PREFIX:-bench_ins}"
PLOT="${PLOT:-1}"

mkdir -p "$OUT_DIR"
SUMMARY="$OUT_DIR/insert_locality.csv"
RAW="$OUT_DIR/insert_locality_stretches.csv"

# Transactions per client per stretch; rows are rounded to whole transactions.
TX=$(( ROWS / STRETCHES / BATCH / CLIENTS )); [ "$TX" -ge 1 ] || TX=1
ROWS_STRETCH=$(( TX * BATCH * CLIENTS ))
LAST=$(( (STRETCHES + 4) / 5 ))   # the last 20% of the stretches

key_column() {   # column definition of the key
  case "$1" in
    bigserial)    echo "bigserial" ;;
    uuidv4)       echo "uuid DEFAULT gen_random_uuid()" ;;
    generate_uuidv7) echo "uuid DEFAULT generate_uuidv7()" ;;
    core_uuidv7)  echo "uuid DEFAULT pg_catalog.uuidv7()" ;;
    ulid)         echo "ulid DEFAULT generate_ulid()" ;;
    tsid)         echo "tsid DEFAULT generate_tsid()" ;;
    bigint_tsid)  echo "bigint DEFAULT generate_tsid()" ;;
    plpgsql_tsid) echo "bigint DEFAULT bench_plpgsql.plpgsql_generate_tsid()" ;;
    *) return 1 ;;
  esac
}
key_uses_library() { case "$1" in generate_uuidv7|ulid|tsid|bigint_tsid) return 0 ;; *) return 1 ;; esac; }
setting_conf() {   # "name value" lines
  case "$1" in
    rare)     printf '%s\n' "checkpoint_timeout 1h" "max_wal_size 10GB" ;;
    frequent) printf '%s\n' "checkpoint_timeout 30s" "max_wal_size 64MB" ;;
    *) return 1 ;;
  esac
}
for k in $KEYS; do
  [ "$k" = uuidv7 ] && { echo "key type uuidv7 is now generate_uuidv7 (the extension's) or core_uuidv7 (pg_catalog.uuidv7(), PostgreSQL 18+)" >&2; exit 2; }
  key_column "$k" >/dev/null || { echo "unknown key type: $k" >&2; exit 2; }
done
for s in $SETTINGS; do setting_conf "$s" >/dev/null || { echo "unknown setting: $s" >&2; exit 2; }; done

# Picture: rows/s against rows inserted (top), PK size against rows inserted (bottom), per checkpoint setting.
draw_picture() {
if [ "$PLOT" = 1 ] && command -v gnuplot >/dev/null && [ "$(wc -l <"$RAW")" -gt 1 ]; then
  term="pngcairo size 1600,1100 font 'sans,10'"
  gnuplot -e "set terminal pngcairo" >/dev/null 2>&1 </dev/null || term="png size 1600,1100"
  awk -F, -v dir="$TMP" 'NR > 1 { f = dir "/series_" $1 "_" $3 "_" $2 ".dat"; print $5 / 1e6, $8 / 1000, $9 / 1048576 >> f }' "$RAW"
  ymax="$(awk -F, 'NR > 1 && $8 > m { m = $8 } END { printf "%.0f", m * 1.05 / 1000 + 1 }' "$RAW")"   # same scale in both rate panels
  {
    echo "set terminal $term"
    echo "set output '$OUT_DIR/insert_locality.png'"
    echo "set datafile separator ' '"
    echo "set multiplot layout 2,$(echo $SETTINGS | wc -w) title 'Insert locality: $CLIENTS writers, $BATCH rows per transaction, shared\\_buffers=$SHARED_BUFFERS'"
    echo "set key outside right top; set grid; set xrange [0:*]"
    for panel in rate pk; do
      for setting in $SETTINGS; do
        if [ "$panel" = rate ]; then
          echo "set title '$setting checkpoints: rows/s per stretch'; set xlabel 'million rows inserted'; set ylabel 'thousand rows/s'; set yrange [0:$ymax]"
          col=2
        else
          echo "set title '$setting checkpoints: PK index size'; set xlabel 'million rows inserted'; set ylabel 'PK MB'; set yrange [0:*]"
          col=3
        fi
        plots=""
        for f in "$TMP"/series_"$setting"_*.dat; do
          [ -f "$f" ] || continue
          label="$(basename "$f" .dat)"; label="${label#series_${setting}_}"; label="${label//_/\\_}"
          key="$(basename "$f" .dat)"; key="${key#series_${setting}_}"; key="${key%_plain}"; key="${key%_preload}"
          st="$(key_style "$key")"
          case "$f" in *_preload.dat) st="${st/dt 1/dt 3}"; st="${st/lw 2/lw 1.5}" ;; esac   # preloaded: the same colour, dotted
          plots="$plots${plots:+, }'$f' using 1:$col with linespoints $st title '$label'"
        done
        [ -n "$plots" ] && echo "plot $plots"
      done
    done
    echo "unset multiplot"
  } >"$TMP/plot.gp"
  if gnuplot "$TMP/plot.gp" 2>"$TMP/gnuplot.err"; then echo "picture: $OUT_DIR/insert_locality.png"
  else echo "gnuplot failed:"; cat "$TMP/gnuplot.err"; FAILED=$((FAILED + 1)); fi
fi
}
# PLOT_ONLY=1: no measurement, the picture drawn again from $RAW (e.g. the committed results).
if [ "${PLOT_ONLY:-0}" = 1 ]; then FAILED=0; draw_picture; [ "$FAILED" -eq 0 ]; exit; fi

echo "insert locality: $ROWS_STRETCH rows x $STRETCHES stretches per key type; pgbench -n -c $CLIENTS -j $CLIENTS, $BATCH rows per transaction"
echo "server: shared_buffers=$SHARED_BUFFERS fsync=off synchronous_commit=off full_page_writes=on wal_compression=off autovacuum off on the table"
echo "settings: rare = checkpoint_timeout=1h max_wal_size=10GB; frequent = checkpoint_timeout=30s max_wal_size=64MB (checkpoint_completion_target=0.9)"

echo "setting,preload,key,stretch,rows_total,rows,seconds,rows_per_s,pk_bytes,heap_bytes,wal_bytes,fpi,checkpoints" >"$RAW"
: >"$TMP/summary.body"
FAILED=0

# Checkpoints performed, as this server counts them: pg_stat_bgwriter up to 16,
# pg_stat_checkpointer from 17 (num_done, checkpoints actually performed, from 18).
# (No regclass literal for pg_stat_checkpointer: it would fail to parse where the view is missing.)
checkpoints_sql() {
  local cols
  cols="$(q -c "SELECT string_agg(a.attname, ' ') FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
                WHERE c.relname = 'pg_stat_checkpointer' AND c.relnamespace = 'pg_catalog'::regnamespace AND a.attnum > 0")" || return 1
  case " $cols " in
    *" num_done "*)      echo "(SELECT num_done FROM pg_stat_checkpointer)" ;;
    *" num_timed "*)     echo "(SELECT num_timed + num_requested FROM pg_stat_checkpointer)" ;;
    *)                   echo "(SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter)" ;;
  esac
}
CHECKPOINTS_SQL="(SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter)"

snapshot() {  # wal_lsn_bytes fpi checkpoints pk_bytes heap_bytes
  q -F' ' -c "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn, (SELECT wal_fpi FROM pg_stat_wal),
                     $CHECKPOINTS_SQL,
                     pg_relation_size('bench_rows_pkey'), pg_relation_size('bench_rows')"
}

run_key() {  # setting mode key
  local setting="$1" mode="$2" key="$3" col err
  col="$(key_column "$key")"
  if ! err="$(q -c "DROP TABLE IF EXISTS bench_rows" \
                 -c "CREATE TABLE bench_rows (id $col PRIMARY KEY, n int NOT NULL, payload text NOT NULL) WITH (autovacuum_enabled = off)" 2>&1)"; then
    echo "skip: $key ($col) in $mode/$setting: $(echo "$err" | grep -m1 ERROR)"
    return 0
  fi
  q -c "CHECKPOINT" || return 1
  local w0 f0 c0 p0 h0 w1 f1 c1 p1 h1 s out tps secs total=0 wall=0 last_rows=0 last_secs=0
  read -r w0 f0 c0 p0 h0 <<<"$(snapshot)"
  [ -n "$c0" ] || { echo "FAIL: $key in $mode/$setting: cannot sample WAL/checkpoints: $(snapshot 2>&1 | grep -m1 ERROR)"; return 1; }
  local wstart=$w0 fstart=$f0 cstart=$c0
  for ((s = 1; s <= STRETCHES; s++)); do
    if ! out="$(pgbench -n -c "$CLIENTS" -j "$CLIENTS" -t "$TX" -D batch="$BATCH" -f "$HERE/insert_batch.sql" 2>&1)"; then
      echo "FAIL: $key in $mode/$setting, stretch $s:"; echo "$out" | grep -iE -m3 'error|fatal|abort'; return 1
    fi
    tps="$(echo "$out" | awk '/^tps = / {print $3; exit}')"
    if [ -z "$tps" ]; then echo "FAIL: $key: no tps in pgbench output"; echo "$out" | tail -5; return 1; fi
    secs="$(awk -v r="$ROWS_STRETCH" -v b="$BATCH" -v t="$tps" 'BEGIN {printf "%.4f", r / b / t}')"
    [ "$s" -eq "$STRETCHES" ] && sleep 0.3   # let the exiting pgbench backends flush pg_stat_wal
    read -r w1 f1 c1 p1 h1 <<<"$(snapshot)"
    total=$((total + ROWS_STRETCH))
    echo "$setting,$mode,$key,$s,$total,$ROWS_STRETCH,$secs,$(awk -v r="$ROWS_STRETCH" -v s="$secs" 'BEGIN {printf "%.0f", r / s}'),$p1,$h1,$((w1 - w0)),$((f1 - f0)),$((c1 - c0))" >>"$RAW"
    wall="$(awk -v a="$wall" -v b="$secs" 'BEGIN {printf "%.4f", a + b}')"
    if [ "$s" -gt $((STRETCHES - LAST)) ]; then
      last_rows=$((last_rows + ROWS_STRETCH)); last_secs="$(awk -v a="$last_secs" -v b="$secs" 'BEGIN {printf "%.4f", a + b}')"
    fi
    w0=$w1; f0=$f1; c0=$c1
  done
  local stats
  stats="$(q -F' ' -c "SELECT round(avg_leaf_density::numeric, 2), round(leaf_fragmentation::numeric, 2) FROM pgstatindex('bench_rows_pkey')")" || return 1
  local density frag; read -r density frag <<<"$stats"
  awk -v set="$setting" -v mode="$mode" -v key="$key" -v rows="$total" -v wall="$wall" \
      -v lr="$last_rows" -v ls="$last_secs" -v pk="$p1" -v heap="$h1" -v dens="$density" -v frag="$frag" \
      -v wal="$((w1 - wstart))" -v fpi="$((f1 - fstart))" -v ck="$((c1 - cstart))" 'BEGIN {
        printf "%s,%s,%s,%d,%.0f,%.0f,%.1f,%.1f,%s,%s,%.1f,%.2f,%d\n", set, mode, key, rows, lr / ls, rows / wall,
               pk / 1048576, heap / 1048576, dens, frag, wal / rows, fpi * 1000 / rows, ck }' >>"$TMP/summary.body"
  tail -1 "$TMP/summary.body" | awk -F, '{printf "  %-9s %-8s %-15s last %8s rows/s, all %8s rows/s, pk %6s MB, density %6s%%, %7s WAL B/row, %6s FPI/1k rows, %d checkpoints\n", $1, $2, $3, $5, $6, $7, $9, $11, $12, $13}'
  q -c "DROP TABLE bench_rows" -c "CHECKPOINT" >/dev/null
}

port=$PORT_BASE
for mode in $MODES; do
  keys=""
  for k in $KEYS; do
    if [ "$mode" = plain ] || key_uses_library "$k"; then keys="$keys $k"; fi
  done
  [ -n "$keys" ] || continue
  name="${NAME_PREFIX}_$mode"
  conf=("shared_buffers = '$SHARED_BUFFERS'" "full_page_writes = on" "wal_compression = off" "jit = off")
  [ "$mode" = preload ] && conf+=("shared_preload_libraries = 'ulid_tsid'")
  if ! cluster_start "$name" "$port" "${conf[@]}"; then
    echo "FAIL: cannot start cluster $name on port $port"; FAILED=$((FAILED + 1)); port=$((port + 1)); continue
  fi
  STARTED+=("$name")
  q -c "CREATE EXTENSION IF NOT EXISTS pgcrypto" >/dev/null 2>&1 || true   # not needed on PG13+ (gen_random_uuid is core)
  if ! err="$(q -c "CREATE EXTENSION ulid_tsid" 2>&1)"; then
    echo "FAIL: CREATE EXTENSION ulid_tsid: $err"; FAILED=$((FAILED + 1))
  fi
  q -f "$HERE/plpgsql_tsid.sql" -c "CREATE EXTENSION IF NOT EXISTS pgstattuple" >/dev/null
  if ! CHECKPOINTS_SQL="$(checkpoints_sql)" || ! q -c "SELECT $CHECKPOINTS_SQL, (SELECT wal_fpi FROM pg_stat_wal)" >/dev/null; then
    echo "FAIL: cannot sample WAL, checkpoints and sizes on this server"; FAILED=$((FAILED + 1))
    cluster_stop "$name"; STARTED=("${STARTED[@]/$name}"); port=$((port + 1)); continue
  fi
  echo "== cluster $name (port $port, $mode): $(q -c "SHOW shared_preload_libraries" | sed 's/^$/no preload/')"
  for setting in $SETTINGS; do
    alters=()
    while read -r gname gvalue; do
      alters+=(-c "ALTER SYSTEM SET $gname = '$gvalue'")
    done < <(setting_conf "$setting")
    q "${alters[@]}" -c "SELECT pg_reload_conf()" >/dev/null
    sleep 0.2
    echo "-- $setting: $(q -F' ' -c "SELECT 'checkpoint_timeout=' || current_setting('checkpoint_timeout') || ' max_wal_size=' || current_setting('max_wal_size') || ' full_page_writes=' || current_setting('full_page_writes') || ' fsync=' || current_setting('fsync')")"
    for k in $keys; do
      run_key "$setting" "$mode" "$k" || FAILED=$((FAILED + 1))
    done
  done
  cluster_stop "$name"
  STARTED=("${STARTED[@]/$name}")
  port=$((port + 1))
done

# Summary with ratios to the baselines of the same setting (measured without preload).
{
  echo "setting,preload,key,rows,rows_per_s_last20pct,rows_per_s_all,pk_mb,heap_mb,avg_leaf_density,leaf_fragmentation,wal_bytes_per_row,fpi_per_1k_rows,checkpoints,rate_x_uuidv4,rate_x_bigserial,pk_x_uuidv4,pk_x_bigserial,wal_x_bigserial"
  awk -F, '
    { line[NR] = $0; set[NR] = $1; rate[NR] = $5; pk[NR] = $7; wal[NR] = $11
      if ($2 == "plain" && $3 == "uuidv4")    { u_rate[$1] = $5; u_pk[$1] = $7 }
      if ($2 == "plain" && $3 == "bigserial") { b_rate[$1] = $5; b_pk[$1] = $7; b_wal[$1] = $11 } }
    function ratio(a, b) { return (b > 0) ? sprintf("%.2f", a / b) : "" }
    END { for (i = 1; i <= NR; i++) { s = set[i]
      print line[i] "," ratio(rate[i], u_rate[s]) "," ratio(rate[i], b_rate[s]) "," ratio(pk[i], u_pk[s]) "," ratio(pk[i], b_pk[s]) "," ratio(wal[i], b_wal[s]) } }' "$TMP/summary.body"
} >"$SUMMARY"

echo
echo "== insert locality ($ROWS_STRETCH x $STRETCHES rows per key type; rates: rows/s over the last 20% of rows and over all)"
cut -d, -f1-3,5-7,9-13,14-18 "$SUMMARY" | sed '1s/rows_per_s_last20pct/rows_s_last/; 1s/rows_per_s_all/rows_s_all/; 1s/avg_leaf_density/density/; 1s/leaf_fragmentation/frag/; 1s/wal_bytes_per_row/wal_B_row/; 1s/fpi_per_1k_rows/fpi_1k/' >"$TMP/pretty.csv"
csv_pretty "$TMP/pretty.csv"
# The extension's generate_uuidv7() against the core's uuidv7() (plain), per setting, where both ran.
uuidv7_compare() {
  awk -F, 'NR > 1 && $3 == "core_uuidv7" && $2 == "plain" { c[$1] = $0; order[++k] = $1 }
    NR > 1 && $3 == "generate_uuidv7" { g[$1, $2] = $0 }
    END { for (i = 1; i <= k; i++) { s = order[i]; split(c[s], cf, ",")
      for (m = 1; m <= 2; m++) { mode = (m == 1) ? "plain" : "preload"; if (!((s, mode) in g)) continue; split(g[s, mode], gf, ",")
        printf "%s: generate_uuidv7 (%s) / core_uuidv7: rows/s (last 20%%) %.2fx, PK size %.2fx, WAL per row %.2fx\n",
               s, mode, gf[5] / cf[5], gf[7] / cf[7], gf[11] / cf[11] } } }' "$SUMMARY"
}
uuidv7_compare
echo "CSV: $SUMMARY, per stretch: $RAW ($SECONDS s)"

# Markdown for the README.
{
  echo "# Insert locality"
  echo
  echo "Generated by \`test/bench/insert_locality.sh\` (ROWS=$((ROWS_STRETCH * STRETCHES)), KEYS=\"$KEYS\")."
  echo
  machine_markdown 2>/dev/null || true
  echo "- load: pgbench -n -c $CLIENTS -j $CLIENTS, $BATCH rows per transaction (INSERT ... SELECT FROM generate_series), ~100-byte rows, $((ROWS_STRETCH * STRETCHES)) rows per key type in $STRETCHES stretches"
  echo "- server: shared_buffers=$SHARED_BUFFERS, fsync=off, synchronous_commit=off, full_page_writes=on, wal_compression=off, autovacuum off on the table; each table starts right after a CHECKPOINT"
  echo "- rare checkpoints: checkpoint_timeout=1h, max_wal_size=10GB; frequent: checkpoint_timeout=30s, max_wal_size=64MB"
  echo "- preload: plain = library loaded per backend; preload = shared_preload_libraries='ulid_tsid' (cluster-wide ordering). Baselines run without preload; ratios compare with the baselines of the same checkpoint setting"
  echo "- rows/s last = over the last 20% of the rows; density and fragmentation from pgstattuple's pgstatindex; WAL from pg_current_wal_lsn(), FPI from pg_stat_wal.wal_fpi"
  echo "- keys: bigserial; uuidv4 = uuid DEFAULT gen_random_uuid(); generate_uuidv7 = uuid DEFAULT generate_uuidv7() (the extension's); core_uuidv7 = uuid DEFAULT pg_catalog.uuidv7() (the server's own, PostgreSQL 18+, a baseline: plain only); ulid = ulid DEFAULT generate_ulid(); tsid = tsid DEFAULT generate_tsid(); bigint_tsid = bigint DEFAULT generate_tsid(); plpgsql_tsid = bigint DEFAULT of the PL/pgSQL function in test/bench/plpgsql_tsid.sql"
  echo
  csv_markdown "$TMP/pretty.csv"
  if [ -n "$(uuidv7_compare)" ]; then
    echo
    uuidv7_compare | sed 's/^/- /'
  fi
} >"$OUT_DIR/insert_locality.md"

draw_picture

[ "$FAILED" -eq 0 ]
