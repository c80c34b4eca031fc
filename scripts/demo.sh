#!/usr/bin/env bash
# The main job: install the dependencies, build and install the extension, start
# a throwaway cluster inside the checkout (with the library preloaded), run the
# demo, then the benchmarks (generation cost and insert locality).
#
#   bash scripts/demo.sh            default sizes
#   LONG=1 bash scripts/demo.sh     the long benchmark run
# Last, the short form of the inserts-beyond-memory benchmark (QUICK=1: the server
# in a 40 MB memory group, UUIDv4's index past 1.5x of it; about 8 minutes on 2 cores).
# Every result (CSV, Markdown, PNG) goes to .cluster/demo-results/ (DEMO_OUT moves
# it), never over the committed figures in test/bench/results/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/install-deps.sh
mkdir -p .cluster/logs
flock /tmp/ulid_tsid.make.lock bash -c 'make -j2 && make install' >.cluster/logs/build.log 2>&1 ||
  { tail -40 .cluster/logs/build.log; exit 1; }
source scripts/cluster.sh
cluster_start demo 55433 "shared_preload_libraries = 'ulid_tsid'"
trap 'cluster_stop demo' EXIT
psql -X -v ON_ERROR_STOP=0 -f scripts/demo.sql 2>&1
cluster_stop demo
trap - EXIT
OUT="${DEMO_OUT:-$ROOT/.cluster/demo-results}"
mkdir -p "$OUT"
rc=0
if [ -f test/bench/run.sh ]; then
  OUT_DIR="$OUT" bash test/bench/run.sh || rc=1
fi
if [ -f test/bench/insert_beyond_memory.sh ]; then
  echo
  OUT_DIR="$OUT" QUICK=1 bash test/bench/insert_beyond_memory.sh || rc=1
fi
echo
echo "The demo's results (CSV, Markdown tables, plots) are in $OUT:"
ls "$OUT"
echo "Committed figures to compare with: test/bench/results/ and docs/performance.md."
exit $rc
