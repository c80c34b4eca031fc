#!/usr/bin/env bash
# Planning time (EXPLAIN's "Planning Time", median and 90th percentile of RUNS
# plannings, default 2000) of queries with time predicates on each key kind,
# against baselines that Postgres alone plans (a bigint key range, a
# timestamptz column). ROWS keys (default 100,000) over 30 days per table.
# Writes $OUT_DIR/planning_time.csv and planning_time.md (default
# test/bench/results/). Needs the extension installed into $PG_CONFIG's server;
# starts its own cluster on PORT (default 55461). A benchmark, not a test: the
# figures depend on the machine and its load.
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
ROWS="${ROWS:-100000}"
RUNS="${RUNS:-2000}"
PORT="${PORT:-55461}"
OUT_DIR="${OUT_DIR:-$HERE/results}"
NAME="${NAME_PREFIX:-bench}_planning"
mkdir -p "$OUT_DIR"

cluster_start "$NAME" "$PORT"
STARTED+=("$NAME")
q -c "CREATE EXTENSION ulid_tsid"
psql -X -q -v rows="$ROWS" -v runs="$RUNS" -f "$HERE/planning_time.sql" >"$TMP/planning_time.csv"
cp "$TMP/planning_time.csv" "$OUT_DIR/planning_time.csv"
csv_pretty "$OUT_DIR/planning_time.csv"
{
  echo "# Planning time of time predicates"
  echo
  echo "EXPLAIN (SUMMARY)'s Planning Time, median and 90th percentile of $RUNS plannings per query in one"
  echo "session after a warm-up; $ROWS keys over 30 days per table, each with a btree index, analyzed."
  echo
  machine_markdown
  echo
  csv_markdown "$OUT_DIR/planning_time.csv"
} >"$OUT_DIR/planning_time.md"
echo "wrote $OUT_DIR/planning_time.csv and planning_time.md"
