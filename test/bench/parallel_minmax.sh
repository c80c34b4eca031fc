#!/usr/bin/env bash
# What min()/max() of ulid and tsid gave up in 0.4.0 by dropping their combine
# function (which made Citus send them as a partial aggregate that reads every
# shard in full; see the README): one server's parallel aggregate. Times max()
# of an unindexed tsid and ulid column with a filter over ROWS rows (default
# 3,000,000), with the extension's max() and with the same aggregate with a
# combine function (0.3.0's definition), RUNS times each (default 5), median of
# EXPLAIN ANALYZE's execution time. Writes $OUT_DIR/parallel_minmax.csv and .md
# (default test/bench/results/). Needs the extension installed into $PG_CONFIG's
# server; starts its own cluster on PORT (default 55457).
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
ROWS="${ROWS:-3000000}"
RUNS="${RUNS:-5}"
PORT="${PORT:-55457}"
OUT_DIR="${OUT_DIR:-$HERE/results}"
NAME="${NAME_PREFIX:-bench}_minmax"
mkdir -p "$OUT_DIR"

cluster_start "$NAME" "$PORT"
STARTED+=("$NAME")
q -c "CREATE EXTENSION ulid_tsid"
psql -X -q -v rows="$ROWS" -v runs="$RUNS" -f "$HERE/parallel_minmax.sql" >"$TMP/parallel_minmax.csv"
cp "$TMP/parallel_minmax.csv" "$OUT_DIR/parallel_minmax.csv"
csv_pretty "$OUT_DIR/parallel_minmax.csv"
{
  echo "# max() with and without a combine function"
  echo
  echo "$ROWS rows, no index on the aggregated column, filter \`grp = 3\` (a tenth of the rows);"
  echo "median of $RUNS runs of EXPLAIN (ANALYZE, TIMING OFF), max_parallel_workers_per_gather = $(q -c 'SHOW max_parallel_workers_per_gather')."
  echo
  machine_markdown
  echo
  csv_markdown "$OUT_DIR/parallel_minmax.csv"
} >"$OUT_DIR/parallel_minmax.md"
echo "wrote $OUT_DIR/parallel_minmax.csv and parallel_minmax.md"
