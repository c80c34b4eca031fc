#!/usr/bin/env bash
# Eight pgbench clients insert generated keys into UNIQUE columns, a million rows
# per key type, with the library preloaded and not: zero unique violations. (2
# million before, halved for the test command's 30 minutes on 2 cores: on five
# majors the suite took 250 CPU-s; CONC_TX_PER_CLIENT=2500 gives 2 million.)
# pgbench is the major's own, run where its server is.
#   PG_MAJOR=17 bash scripts/suites/concurrency.sh   (after scripts/suites/build.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
CONC_ROWS_PER_TX=100
CONC_TX_PER_CLIENT=${CONC_TX_PER_CLIENT:-1250}   # 8 x 1250 x 100 = 1,000,000 rows
conc_expected=$((8 * CONC_TX_PER_CLIENT * CONC_ROWS_PER_TX))
conc_ok=0; conc_bad=0
conc_check() {  # conc_check LABEL CONDITION-RESULT(t/f)
  if [ "$2" = "t" ]; then conc_ok=$((conc_ok + 1)); echo "   ok   $1";
  else conc_bad=$((conc_bad + 1)); echo "   FAIL $1"; fi
}
for mode in plain preloaded; do
  conf=()
  [ "$mode" = preloaded ] && conf=("shared_preload_libraries = 'ulid_tsid'")
  cluster_start "concurrency_$mode" 55432 "${conf[@]}" || exit 1
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
  cluster_stop "concurrency_$mode"
done
tally concurrency "$conc_ok" "$conc_bad"
