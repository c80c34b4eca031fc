#!/usr/bin/env bash
# Eight pgbench clients insert generated keys into UNIQUE columns, a million rows
# per key type, with the library preloaded and not: zero unique violations. (2
# million before, halved for the test command's 30 minutes on 2 cores: on five
# majors the suite took 250 CPU-s; CONC_TX_PER_CLIENT=2500 gives 2 million.)
# Then generate_ulid_monotonic() (and half the time its compat alias
# gen_monotonic_ulid(), the same C function) from eight clients in small
# statements: preloaded, one state serves every backend, so within each
# millisecond the values are first, first+1, first+2, ... with no gap, however
# the backends interleave (a gap means two states made values in one
# millisecond); asserted 0 gaps preloaded (where some milliseconds must hold
# values of several backends, or the check proved nothing), reported without
# preload (per session: several random starts in one millisecond, as many as
# the timing makes). About 3 s a major.
# pgbench is the major's own, run where its server is.
#   PG_MAJOR=17 bash scripts/suites/concurrency.sh   (after scripts/suites/build.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
CONC_ROWS_PER_TX=100
CONC_TX_PER_CLIENT=${CONC_TX_PER_CLIENT:-1250}   # 8 x 1250 x 100 = 1,000,000 rows
conc_expected=$((8 * CONC_TX_PER_CLIENT * CONC_ROWS_PER_TX))
MONO_ROWS_PER_TX=10
MONO_TX_PER_CLIENT=${MONO_TX_PER_CLIENT:-2500}    # 8 x 2500 x 10 = 200,000 rows
mono_expected=$((8 * MONO_TX_PER_CLIENT * MONO_ROWS_PER_TX))
conc_ok=0; conc_bad=0
conc_check() {  # conc_check LABEL CONDITION-RESULT(t/f)
  if [ "$2" = "t" ]; then conc_ok=$((conc_ok + 1)); echo "   ok   $1";
  else conc_bad=$((conc_bad + 1)); echo "   FAIL $1"; fi
}
for mode in plain preloaded; do
  conf=()
  [ "$mode" = preloaded ] && conf=("shared_preload_libraries = 'ulid_tsid'")
  cluster_start "concurrency_$mode" $((55432 + PG_PORT_SHIFT)) "${conf[@]}" || exit 1
  psql -qX -v ON_ERROR_STOP=1 -c "CREATE EXTENSION ulid_tsid" >/dev/null
  for gen in generate_tsid generate_ulid; do
    table="keys_${gen}"
    psql -qX -v ON_ERROR_STOP=1 -c "CREATE UNLOGGED TABLE $table (id $( [ $gen = generate_tsid ] && echo bigint || echo ulid ) UNIQUE)" >/dev/null
    script="$(cluster_dir "concurrency_$mode")/$gen.sql"
    echo "INSERT INTO $table SELECT $gen() FROM generate_series(1, $CONC_ROWS_PER_TX);" >"$script"
    chmod 644 "$script"
    start=$(date +%s.%N)
    if pg_in pgbench -n -c 8 -j 2 -t "$CONC_TX_PER_CLIENT" -f "$script" >"$LOGS/concurrency-${PG_MAJOR}_${mode}_$gen.log" 2>&1; then
      failed_tx=$(grep -oE 'number of failed transactions: [0-9]+' "$LOGS/concurrency-${PG_MAJOR}_${mode}_$gen.log" | grep -oE '[0-9]+$' || echo 0)
      conc_check "$mode $gen: pgbench 8 clients finished, ${failed_tx:-0} failed transactions" "$([ "${failed_tx:-0}" = 0 ] && echo t || echo f)"
    else
      tail -5 "$LOGS/concurrency-${PG_MAJOR}_${mode}_$gen.log"
      conc_check "$mode $gen: pgbench 8 clients finished without error" f
    fi
    secs=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")
    read -r total distinct < <(psql -qXAt -F ' ' -c "SELECT count(*), count(DISTINCT id) FROM $table")
    echo "   $mode $gen: $total rows, $distinct distinct, ${secs}s"
    conc_check "$mode $gen: $conc_expected rows, all distinct" \
      "$([ "$total" = "$conc_expected" ] && [ "$distinct" = "$total" ] && echo t || echo f)"
  done
  # generate_ulid_monotonic() through both of its SQL names into one table.
  psql -qX -v ON_ERROR_STOP=1 -c "CREATE SCHEMA compat; CREATE EXTENSION ulid_tsid_compat SCHEMA compat;
    CREATE UNLOGGED TABLE keys_monotonic (id ulid UNIQUE, pid int DEFAULT pg_catalog.pg_backend_pid())" >/dev/null
  dir="$(cluster_dir "concurrency_$mode")"
  echo "INSERT INTO keys_monotonic (id) SELECT generate_ulid_monotonic() FROM generate_series(1, $MONO_ROWS_PER_TX);" >"$dir/mono_native.sql"
  echo "INSERT INTO keys_monotonic (id) SELECT compat.gen_monotonic_ulid() FROM generate_series(1, $MONO_ROWS_PER_TX);" >"$dir/mono_compat.sql"
  chmod 644 "$dir/mono_native.sql" "$dir/mono_compat.sql"
  log="$LOGS/concurrency-${PG_MAJOR}_${mode}_monotonic.log"
  start=$(date +%s.%N)
  if pg_in pgbench -n -c 8 -j 2 -t "$MONO_TX_PER_CLIENT" -f "$dir/mono_native.sql" -f "$dir/mono_compat.sql" >"$log" 2>&1; then
    # the first count is the total (two scripts: one more line for each)
    failed_tx=$(grep -oE 'number of failed transactions: [0-9]+' "$log" | head -1 | grep -oE '[0-9]+$' || echo 0)
    conc_check "$mode generate_ulid_monotonic: pgbench 8 clients finished, ${failed_tx:-0} failed transactions" \
      "$([ "${failed_tx:-0}" = 0 ] && echo t || echo f)"
  else
    tail -5 "$log"
    conc_check "$mode generate_ulid_monotonic: pgbench 8 clients finished without error" f
  fi
  secs=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")
  # Per millisecond (the first 12 hex digits), the 80-bit random part as a
  # numeric (32 + 48 bits); neighbours in value order within a millisecond
  # that are not +1 apart are gaps. Shared milliseconds (values of more than
  # one backend) show that the writers did interleave.
  read -r total distinct pairs gaps shared_ms < <(psql -qXAt -F ' ' -v ON_ERROR_STOP=1 -c "
    WITH hex AS (SELECT pid, pg_catalog.replace(id::pg_catalog.uuid::pg_catalog.text, '-', '') AS h FROM keys_monotonic),
    v AS (SELECT pid, pg_catalog.substr(h, 1, 12) AS ms,
                 ('x' || pg_catalog.lpad(pg_catalog.substr(h, 13, 8), 16, '0'))::pg_catalog.bit(64)::pg_catalog.int8::pg_catalog.numeric
                   * 281474976710656
                 + ('x' || pg_catalog.lpad(pg_catalog.substr(h, 21, 12), 16, '0'))::pg_catalog.bit(64)::pg_catalog.int8 AS r
            FROM hex),
    shared AS (SELECT ms FROM v GROUP BY ms HAVING pg_catalog.count(DISTINCT pid) > 1),
    n AS (SELECT r, pg_catalog.lag(r) OVER (PARTITION BY ms ORDER BY r) AS prev FROM v)
    SELECT (SELECT pg_catalog.count(*) FROM keys_monotonic), (SELECT pg_catalog.count(DISTINCT id) FROM keys_monotonic),
           pg_catalog.count(prev), pg_catalog.count(*) FILTER (WHERE prev IS NOT NULL AND r <> prev + 1),
           (SELECT pg_catalog.count(*) FROM shared) FROM n")
  echo "   $mode generate_ulid_monotonic: $total rows, $distinct distinct, $gaps gaps among $pairs same-millisecond neighbours, $shared_ms milliseconds written by more than one backend, ${secs}s"
  conc_check "$mode generate_ulid_monotonic: $mono_expected rows, all distinct" \
    "$([ "$total" = "$mono_expected" ] && [ "$distinct" = "$total" ] && echo t || echo f)"
  if [ "$mode" = preloaded ]; then
    conc_check "preloaded generate_ulid_monotonic: one shared state, each millisecond's values contiguous (0 gaps among $pairs neighbours, $shared_ms milliseconds shared by backends)" \
      "$([ "$gaps" = 0 ] && [ "${shared_ms:-0}" -gt 0 ] && echo t || echo f)"
  fi
  cluster_stop "concurrency_$mode"
done
tally concurrency "$conc_ok" "$conc_bad"
