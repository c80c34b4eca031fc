#!/usr/bin/env bash
# The benchmarks with their defaults: generation cost, then insert locality.
# Needs the extension built and installed (make install); starts and stops its
# own throwaway clusters (scripts/cluster.sh, ports 55450-55453). Results go to
# test/bench/results/ (CSV, Markdown, PNG). Environment variables of the two
# scripts pass through (e.g. LONG=1, ROWS=..., KEYS=..., N=..., REPS=...).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rc=0
bash "$HERE/generation_cost.sh" || rc=1
echo
bash "$HERE/insert_locality.sh" || rc=1
exit $rc
