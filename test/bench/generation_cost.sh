#!/usr/bin/env bash
# Generation cost: the per-call cost of the generators and of text output/input,
# net of the executor's per-row work, against gen_random_uuid(), nextval(), the
# PL/pgSQL TSID function and the uuid/int8 text conversions.
#
# Method: each measurement is a pair of queries run back to back over the same
# table of n rows, in one psql session, with
#     EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) SELECT count(<expr>) FROM <table>
#     EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) SELECT count(<baseline>) FROM <table>
# and the net cost per call is (execution time of the first - of the second) / n,
# from the "Execution Time" line (server-side, no client round trips, no output).
#   generators:  count(f())         against count(1)        over gc_n (one int column)
#   text output: count(col::text)   against count(col)      over gc_vals (materialized values)
#   text input:  count(txt::type)   against count(txt)      over gc_vals
# jit and parallel query are off. A warm-up round is discarded, then REPS rounds;
# the table reports the median of the per-round differences and their min/max.
# A function too slow for N calls in about a second (measured by a probe) is
# timed over N/10 or N/100 rows instead (column n_calls).
# Runs once without and once with shared_preload_libraries = 'ulid_tsid'.
# "portable ..." are the portable edition's functions (portable/ulid_tsid_portable.sql,
# installed into schema portable of the same database), beside the article's function.
# UUIDv7: generate_uuidv7() is the extension's generator (on every server);
# "pg_catalog.uuidv7() (core)" is PostgreSQL 18's own uuidv7(), timed only where
# pg_catalog has it (skipped elsewhere), so one run on 18 compares the two.
# The server is the one of $PG_CONFIG (default: pg_config on the PATH), e.g.
#   PG_CONFIG=/path/to/pg_config bash test/bench/generation_cost.sh   (a server installed on this host)
# generate_tsid() is also timed with ulid_tsid.node_bits = 0 (see the .md).
#
# Environment: N=1000000 REPS=7 MODES="plain preload" OUT_DIR=test/bench/results
#              PORT_BASE=55452 (uses PORT_BASE, PORT_BASE+1) NAME_PREFIX=bench_gen
#              PG_CONFIG=pg_config (the server: its bindir's initdb, postgres, psql)
# Output: a table on the terminal, $OUT_DIR/generation_cost.csv and .md.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # HERE, ROOT, clusters, PATH, TMP, STARTED

N="${N:-1000000}"
REPS="${REPS:-7}"
MODES="${MODES:-plain preload}"
OUT_DIR="${OUT_DIR:-$HERE/results}"
PORT_BASE="${PORT_BASE:-55452}"
NAME_PREFIX="${NAME_PREFIX:-bench_gen}"
mkdir -p "$OUT_DIR"
CSV="$OUT_DIR/generation_cost.csv"
FAILED=0
N10=$(( N / 10 )); [ "$N10" -ge 1 ] || N10=1
N100=$(( N / 100 )); [ "$N100" -ge 1 ] || N100=1

# name|kind|expression|baseline|table prefix (gc_n or gc_vals)|required object (SQL boolean)
ITEMS=(
  "generate_ulid()|generator|generate_ulid()|1|gc_n|to_regprocedure('generate_ulid()') IS NOT NULL"
  "generate_ulid_monotonic()|generator|generate_ulid_monotonic()|1|gc_n|to_regprocedure('generate_ulid_monotonic()') IS NOT NULL"
  "generate_tsid()|generator|generate_tsid()|1|gc_n|to_regprocedure('generate_tsid()') IS NOT NULL"
  "generate_uuidv7()|generator|generate_uuidv7()|1|gc_n|to_regprocedure('generate_uuidv7()') IS NOT NULL"
  "pg_catalog.uuidv7() (core)|generator|pg_catalog.uuidv7()|1|gc_n|EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'uuidv7' AND pronargs = 0 AND pronamespace = 'pg_catalog'::regnamespace)"
  "gen_random_uuid()|generator|gen_random_uuid()|1|gc_n|true"
  "nextval('seq')|generator|nextval('gc_seq')|1|gc_n|true"
  "plpgsql_generate_tsid()|generator|bench_plpgsql.plpgsql_generate_tsid()|1|gc_n|true"
  "portable generate_tsid()|generator|portable.generate_tsid()|1|gc_n|to_regprocedure('portable.generate_tsid()') IS NOT NULL"
  "portable generate_ulid()|generator|portable.generate_ulid()|1|gc_n|to_regprocedure('portable.generate_ulid()') IS NOT NULL"
  "portable generate_uuidv7()|generator|portable.generate_uuidv7()|1|gc_n|to_regprocedure('portable.generate_uuidv7()') IS NOT NULL"
  "ulid::text|text_out|u::text|u|gc_vals|to_regtype('ulid') IS NOT NULL"
  "text::ulid|text_in|ut::ulid|ut|gc_vals|to_regtype('ulid') IS NOT NULL"
  "tsid::text|text_out|ts::text|ts|gc_vals|to_regtype('tsid') IS NOT NULL"
  "text::tsid|text_in|tst::tsid|tst|gc_vals|to_regtype('tsid') IS NOT NULL"
  "uuid::text|text_out|uu::text|uu|gc_vals|true"
  "text::uuid|text_in|uut::uuid|uut|gc_vals|true"
  "int8::text|text_out|b::text|b|gc_vals|true"
  "text::int8|text_in|bt::int8|bt|gc_vals|true"
  "portable ulid_to_text(uuid)|text_out|portable.ulid_to_text(u::uuid)|u|gc_vals|to_regprocedure('portable.ulid_to_text(uuid)') IS NOT NULL AND to_regtype('ulid') IS NOT NULL"
  "portable ulid_from_text(text)|text_in|portable.ulid_from_text(ut)|ut|gc_vals|to_regprocedure('portable.ulid_from_text(text)') IS NOT NULL AND to_regtype('ulid') IS NOT NULL"
  "portable tsid_to_text(bigint)|text_out|portable.tsid_to_text(b)|b|gc_vals|to_regprocedure('portable.tsid_to_text(bigint)') IS NOT NULL AND to_regtype('tsid') IS NOT NULL"
  "portable tsid_from_text(text)|text_in|portable.tsid_from_text(tst)|tst|gc_vals|to_regprocedure('portable.tsid_from_text(text)') IS NOT NULL AND to_regtype('tsid') IS NOT NULL"
  "ulid_timestamp(ulid)|timestamp|ulid_timestamp(u)|u|gc_vals|to_regtype('ulid') IS NOT NULL"
  "tsid_timestamp(tsid)|timestamp|tsid_timestamp(ts)|ts|gc_vals|to_regtype('tsid') IS NOT NULL"
  "portable ulid_timestamp(uuid)|timestamp|portable.ulid_timestamp(u::uuid)|u|gc_vals|to_regprocedure('portable.ulid_timestamp(uuid)') IS NOT NULL AND to_regtype('ulid') IS NOT NULL"
  "portable tsid_timestamp(bigint)|timestamp|portable.tsid_timestamp(b)|b|gc_vals|to_regprocedure('portable.tsid_timestamp(bigint)') IS NOT NULL"
)

setup_sql() {  # tables of N, N/10 and N/100 rows; values from the generators themselves
  local has_ulid="$1" has_tsid="$2" n
  echo "CREATE SEQUENCE gc_seq;"
  for n in "$N" "$N10" "$N100"; do
    echo "CREATE TABLE gc_n_$n AS SELECT i FROM generate_series(1, $n) AS i;"
    echo "CREATE TABLE gc_vals_$n AS SELECT"
    if [ "$has_ulid" = t ]; then echo "  generate_ulid() AS u,"; else echo "  NULL::uuid AS u,"; fi
    echo "  gen_random_uuid() AS uu,"
    # int8 values of the same magnitude as TSIDs (19 digits), for a like-for-like text comparison
    # (synthetic TSIDs spread over the current minutes: generate_tsid() without
    # preload is rate-limited and would make the setup slow)
    if [ "$has_tsid" = t ]; then echo "  (tsid_lower_bound(now())::int8 + g::int8 * 4099)::tsid AS ts,"; echo "  NULL::int8 AS b"
    else echo "  (random() * 9e18)::int8 AS b"; fi
    echo "FROM generate_series(1, $n) AS g;"
    [ "$has_tsid" = t ] && echo "UPDATE gc_vals_$n SET b = ts::int8;"
    echo "ALTER TABLE gc_vals_$n ADD COLUMN ut text, ADD COLUMN uut text, ADD COLUMN bt text$([ "$has_tsid" = t ] && echo ", ADD COLUMN tst text");"
    echo "UPDATE gc_vals_$n SET ut = u::text, uut = uu::text, bt = b::text$([ "$has_tsid" = t ] && echo ", tst = ts::text");"
    echo "VACUUM (FREEZE, ANALYZE) gc_n_$n, gc_vals_$n;"
  done
}

explain() { echo "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) SELECT count($1) FROM $2;"; }

echo "generation cost: N=$N calls per measurement, $REPS rounds after a warm-up; net = EXPLAIN ANALYZE execution time of count(expr) minus count(baseline) over the same rows"
echo "preload,function,kind,n_calls,reps,net_ns_median,net_ns_min,net_ns_max,gross_ns_median,net_x_nextval" >"$CSV"
: >"$TMP/body.csv"
port=$PORT_BASE
for mode in $MODES; do
  name="${NAME_PREFIX}_$mode"
  conf=("shared_buffers = '512MB'" "jit = off" "max_parallel_workers_per_gather = 0" "work_mem = '64MB'")
  [ "$mode" = preload ] && conf+=("shared_preload_libraries = 'ulid_tsid'")
  if ! cluster_start "$name" "$port" "${conf[@]}"; then
    echo "FAIL: cannot start cluster $name on port $port"; FAILED=$((FAILED + 1)); port=$((port + 1)); continue
  fi
  STARTED+=("$name")
  if ! err="$(q -c "CREATE EXTENSION ulid_tsid" 2>&1)"; then echo "FAIL: CREATE EXTENSION ulid_tsid: $err"; FAILED=$((FAILED + 1)); fi
  q -f "$HERE/plpgsql_tsid.sql" >/dev/null
  # The portable edition (portable/ulid_tsid_portable.sql) beside it, in a schema of its own.
  q -c "CREATE SCHEMA portable" >/dev/null && q -v schema=portable -f "$ROOT/portable/ulid_tsid_portable.sql" >/dev/null ||
    { echo "FAIL: installing the portable edition"; FAILED=$((FAILED + 1)); }
  default_node_bits="$(q -c "LOAD 'ulid_tsid'" -c "SHOW ulid_tsid.node_bits" 2>/dev/null | tail -1)"
  has_ulid="$(q -c "SELECT to_regtype('ulid') IS NOT NULL")"
  has_tsid="$(q -c "SELECT to_regprocedure('tsid_lower_bound(timestamptz)') IS NOT NULL")"
  if ! err="$(setup_sql "$has_ulid" "$has_tsid" | q 2>&1)"; then echo "FAIL: setup: $err"; FAILED=$((FAILED + 1)); cluster_stop "$name"; port=$((port + 1)); continue; fi
  echo "== cluster $name (port $port, $mode): $(q -c "SHOW shared_preload_libraries" | sed 's/^$/no preload/')"

  # Which items exist here, and over how many rows each is timed (probe over N/100 rows).
  : >"$TMP/items.$mode"
  for item in "${ITEMS[@]}"; do
    IFS='|' read -r fname kind expr base table need <<<"$item"
    if [ "$(q -c "SELECT $need")" != t ]; then
      case "$need" in *pg_catalog*) why="not in this server's pg_catalog" ;; *) why="not in the installed extension" ;; esac
      echo "skip: $fname ($why)"; continue
    fi
    probe="$( { echo "SET jit = off;"; explain "$expr" "${table}_$N100"; explain "$expr" "${table}_$N100"; } | q 2>&1 | awk '/Execution Time/ {t = $3} END {print t}')"
    if [ -z "$probe" ]; then echo "FAIL: $fname: probe failed"; FAILED=$((FAILED + 1)); continue; fi
    n="$(awk -v p="$probe" -v n="$N" -v n10="$N10" -v n100="$N100" 'BEGIN {
          est = p * 100   # ms for N calls
          if (est < 1500) print n; else if (est < 15000) print n10; else print n100 }')"
    echo "$fname|$kind|$expr|$base|${table}_$n|$n" >>"$TMP/items.$mode"
  done

  # One session: warm-up round 0, then REPS rounds of (expression, baseline) pairs.
  {
    echo "SET jit = off; SET max_parallel_workers_per_gather = 0;"
    for ((r = 0; r <= REPS; r++)); do
      i=0
      while IFS='|' read -r fname kind expr base table n; do
        i=$((i + 1))
        echo "\\echo @ $r f $i"; explain "$expr" "$table"
        echo "\\echo @ $r b $i"; explain "$base" "$table"
      done <"$TMP/items.$mode"
    done
  } >"$TMP/run.$mode.sql"
  if ! q -f "$TMP/run.$mode.sql" >"$TMP/run.$mode.out" 2>&1; then
    echo "FAIL: timing session:"; tail -5 "$TMP/run.$mode.out"; FAILED=$((FAILED + 1))
  fi
  # generate_tsid() again with ulid_tsid.node_bits = 0 (all 22 low bits for the
  # counter): with node bits a tight loop can use up a millisecond's
  # counter values and then waits for the clock; this separates CPU cost from that.
  if [ "$has_tsid" = t ] && grep -q '^generate_tsid()|' "$TMP/items.$mode" &&
     q -c "LOAD 'ulid_tsid'" -c "ALTER SYSTEM SET ulid_tsid.node_bits = 0" -c "SELECT pg_reload_conf()" >/dev/null 2>&1; then
    sleep 0.5
    tsid_table="$(awk -F'|' '$1 == "generate_tsid()" { print $5 }' "$TMP/items.$mode")"
    echo "generate_tsid() node_bits=0|generator|generate_tsid()|1|gc_n_$N|$N" >>"$TMP/items.$mode"
    i="$(wc -l <"$TMP/items.$mode")"
    {
      echo "SET jit = off; SET max_parallel_workers_per_gather = 0;"
      for ((r = 0; r <= REPS; r++)); do
        echo "\\echo @ $r f $i"; explain "generate_tsid()" "gc_n_$N"
        echo "\\echo @ $r b $i"; explain "1" "gc_n_$N"
      done
    } | q >>"$TMP/run.$mode.out" 2>&1 || { echo "FAIL: generate_tsid() with node_bits = 0"; FAILED=$((FAILED + 1)); }
    q -c "LOAD 'ulid_tsid'" -c "ALTER SYSTEM RESET ulid_tsid.node_bits" -c "SELECT pg_reload_conf()" >/dev/null
  fi
  # Per item: per-round net ns/call; median, min, max; gross median.
  awk -v mode="$mode" -v reps="$REPS" -v items="$TMP/items.$mode" '
    function median(a, k,   i, j, t, b) { for (i = 1; i <= k; i++) b[i] = a[i]
      for (i = 2; i <= k; i++) { t = b[i]; for (j = i - 1; j >= 1 && b[j] > t; j--) b[j + 1] = b[j]; b[j + 1] = t }
      return (k % 2) ? b[(k + 1) / 2] : (b[k / 2] + b[k / 2 + 1]) / 2 }
    BEGIN { FS = "|"; while ((getline line < items) > 0) { split(line, p, "|"); ni++; name[ni] = p[1]; kind[p[1]] = p[2]; n[p[1]] = p[6] } FS = " " }
    /^@ / { r = $2; w = $3; label = name[$4]; next }
    /Execution Time:/ { t[label, r, w] = $3 }
    END {
      for (i = 1; i <= ni; i++) { f = name[i]; k = 0; mn = ""; mx = ""
        for (r = 1; r <= reps; r++) {
          if (!((f, r, "f") in t) || !((f, r, "b") in t)) continue
          k++; d[k] = (t[f, r, "f"] - t[f, r, "b"]) * 1e6 / n[f]; g[k] = t[f, r, "f"] * 1e6 / n[f]
          if (mn == "" || d[k] < mn) mn = d[k]; if (mx == "" || d[k] > mx) mx = d[k] }
        if (k == 0) { print "no timings for " f > "/dev/stderr"; continue }
        printf "%s,%s,%s,%d,%d,%.1f,%.1f,%.1f,%.1f\n", mode, f, kind[f], n[f], k, median(d, k), mn, mx, median(g, k) } }' \
    "$TMP/run.$mode.out" >>"$TMP/body.csv"
  cluster_stop "$name"
  STARTED=("${STARTED[@]/$name}")
  port=$((port + 1))
done

awk -F, '{ line[NR] = $0; mode[NR] = $1; net[NR] = $6; if ($2 == "nextval('"'"'seq'"'"')") nv[$1] = $6 }
  END { for (i = 1; i <= NR; i++) printf "%s,%s\n", line[i], (nv[mode[i]] > 0) ? sprintf("%.2f", net[i] / nv[mode[i]]) : "" }' \
  "$TMP/body.csv" >>"$CSV"

# Core uuidv7() against the extension's generate_uuidv7(), per mode (where both were timed).
uuidv7_ratio() {
  awk -F, '$2 == "generate_uuidv7()" { g[$1] = $6 } $2 == "pg_catalog.uuidv7() (core)" { c[$1] = $6; m[++k] = $1 }
    END { for (i = 1; i <= k; i++) if (g[m[i]] > 0)
      printf "%s: core pg_catalog.uuidv7() %s ns / generate_uuidv7() %s ns = %.1fx\n", m[i], c[m[i]], g[m[i]], c[m[i]] / g[m[i]] }' "$CSV"
}

echo
echo "== generation cost (ns per call; net = minus the same query with a constant/plain column; min/max over $REPS rounds)"
csv_pretty "$CSV"
uuidv7_ratio
echo "CSV: $CSV ($SECONDS s)"
{
  echo "# Generation cost"
  echo
  echo "Generated by \`test/bench/generation_cost.sh\` (N=$N, REPS=$REPS)."
  echo
  machine_markdown 2>/dev/null || true
  echo "- method: \`EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) SELECT count(expr) FROM t\` minus the same with the baseline (\`count(1)\` for generators, \`count(col)\` for text conversions) over the same n rows, in one session, jit and parallel query off; median of $REPS rounds after a warm-up, min and max of the per-round differences"
  echo "- text out/in: \`col::text\` on a materialized column, \`txt::type\` from a materialized text column (I/O conversion casts, like uuid's and int8's)"
  echo "- timestamp: a key's creation time, \`f(col)\` against \`count(col)\` over the same materialized keys"
  echo "- preload: plain = library loaded per backend; preload = shared_preload_libraries='ulid_tsid'"
  echo "- net_x_nextval: net cost relative to nextval() (sequence with CACHE 1) in the same mode"
  echo "- portable ...: the portable edition's functions (portable/ulid_tsid_portable.sql in schema portable of the same database); the preload mode does not concern them"
  echo "- UUIDv7: generate_uuidv7() is the extension's generator; pg_catalog.uuidv7() (core) is the server's own uuidv7(), timed only where pg_catalog has it (PostgreSQL 18+)"
  echo "- generate_tsid() node_bits=0: the same with ulid_tsid.node_bits = 0 (22 counter bits), so that a tight loop never uses up a millisecond; node bits (ulid_tsid.node_bits > 0) and, without preload, the backend-slot bits shrink the counter, which caps how many TSIDs a millisecond holds; past that generate_tsid() waits for the next millisecond. The plain generate_tsid() row uses the installed default of ulid_tsid.node_bits (${default_node_bits:-unknown})"
  echo
  csv_markdown "$CSV"
  if [ -n "$(uuidv7_ratio)" ]; then
    echo
    echo "Net cost of the core uuidv7() over the extension's generate_uuidv7():"
    echo
    uuidv7_ratio | sed 's/^/- /'
  fi
} >"$OUT_DIR/generation_cost.md"
[ "$FAILED" -eq 0 ]
