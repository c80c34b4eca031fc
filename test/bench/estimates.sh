#!/usr/bin/env bash
# Planner row estimates of time windows on each key kind against the actual
# row counts: ROWS rows (default 1,000,000) spread uniformly over DAYS days
# (30), ANALYZE at the default statistics target, windows of 1 minute, 1 hour,
# 1 day and 7 days ending at the newest row and at a random point. For ulid and
# tsid it also shows what Postgres's own scalarltsel() & co. estimate (the
# "core" columns); uuid and bigint have Postgres's estimates only.
# Writes $OUT_DIR/estimates.csv and estimates.md (default test/bench/results/).
# Not a timed benchmark: the figures are counts. Needs the extension installed
# into $PG_CONFIG's server; starts its own cluster on PORT (default 55459).
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
ROWS="${ROWS:-1000000}"
DAYS="${DAYS:-30}"
PORT="${PORT:-55459}"
OUT_DIR="${OUT_DIR:-$HERE/results}"
NAME="${NAME_PREFIX:-bench}_estimates"
mkdir -p "$OUT_DIR"

cluster_start "$NAME" "$PORT"
STARTED+=("$NAME")
q -c "CREATE EXTENSION ulid_tsid"
psql -X -q -v rows="$ROWS" -v days="$DAYS" -f "$HERE/estimates.sql" >"$TMP/estimates.csv"
cp "$TMP/estimates.csv" "$OUT_DIR/estimates.csv"
csv_pretty "$OUT_DIR/estimates.csv"
{
  echo "# Row estimates of time windows"
  echo
  echo "$ROWS rows spread uniformly over $DAYS days, ANALYZE at default_statistics_target = $(q -c 'SHOW default_statistics_target');"
  echo "windows \`id >= lower(newest - w)\` (anchor newest) and \`id >= lower(p - w) AND id < lower(p)\` (anchor random)."
  echo "off_by = max(estimate/actual, actual/estimate); core = Postgres's own scalarltsel() & co. on the same query."
  echo
  machine_markdown
  echo
  csv_markdown "$OUT_DIR/estimates.csv"
} >"$OUT_DIR/estimates.md"
echo "wrote $OUT_DIR/estimates.csv and estimates.md"
