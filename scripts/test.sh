#!/usr/bin/env bash
# Runs every test suite on a fresh machine: installs the dependencies, builds and
# installs the extension, starts throwaway clusters inside the checkout, and ends
# with one line "N passed, N failed". Exit status 0 only when nothing failed.
#
#   bash scripts/test.sh              all suites
#   SUITES="unit regress" bash scripts/test.sh   a subset
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SUITES="${SUITES:-unit sanitizers regress upgrade concurrency tap fuzz bench}"
LOGS="$ROOT/.cluster/logs"
PASSED=0
FAILED=0

tally() {  # tally SUITE PASSED FAILED
  echo "== $1: $2 passed, $3 failed"
  PASSED=$((PASSED + $2)); FAILED=$((FAILED + $3))
}

bash scripts/install-deps.sh || { echo "dependency install failed"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$LOGS"
if ! flock /tmp/ulid_tsid.make.lock bash -c 'make -j2 && make install' >"$LOGS/build.log" 2>&1; then
  tail -40 "$LOGS/build.log"; echo "0 passed, 1 failed"; exit 1
fi

source scripts/cluster.sh
for suite in $SUITES; do
  if [ -f "scripts/suites/$suite.sh" ]; then
    echo "== running $suite"
    source "scripts/suites/$suite.sh"
  fi
done

echo
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
