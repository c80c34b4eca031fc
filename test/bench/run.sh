#!/usr/bin/env bash
# The benchmarks with their defaults: generation cost, then insert locality.
# Needs the extension built and installed (make install); starts and stops its
# own throwaway clusters (scripts/cluster.sh, ports 55450-55453). Results go to
# test/bench/results/ (CSV, Markdown, PNG). Environment variables of the two
# scripts pass through (e.g. LONG=1, ROWS=..., KEYS=..., N=..., REPS=..., OUT_DIR=...).
# Another server installed on this host: PG_CONFIG=/path/to/pg_config (on 18+ the
# core's uuidv7() is timed beside the extension's generate_uuidv7()).
# PORT_BASE, if set, applies to generation cost (PORT_BASE, +1) and insert
# locality (PORT_BASE+2, +3), so the two never share a port.
# The other benchmarks run on their own (each says how in its header):
# generation_compare.sh, mark_cost.sh, insert_beyond_memory.sh, estimates.sh,
# parallel_minmax.sh, migrate_uuidv4.sh, planning_time.sh, and insert_latency.sh
# (single-row insert latency, 0.3.0 against today's tree, fsync = on; about 42 min
# with its defaults, so only with LATENCY=1 here, last; it builds and installs the
# tree and 0.3.0 into the host's 15 and holds /tmp/ulid_tsid.pg15.lock while it runs).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rc=0
if [ -n "${PORT_BASE:-}" ]; then
  PORT_BASE="$PORT_BASE" bash "$HERE/generation_cost.sh" || rc=1
  echo
  PORT_BASE="$((PORT_BASE + 2))" bash "$HERE/insert_locality.sh" || rc=1
else
  bash "$HERE/generation_cost.sh" || rc=1
  echo
  bash "$HERE/insert_locality.sh" || rc=1
fi
if [ "${LATENCY:-0}" = 1 ]; then
  echo
  bash "$HERE/insert_latency.sh" || rc=1
fi
exit $rc
