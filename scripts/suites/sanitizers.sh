#!/usr/bin/env bash
# The core's unit tests again, built with clang++ -fsanitize=address,undefined
# (`make unit-sanitize`): counted like unit.sh (scripts/lib/gtest.sh); an
# ASan/UBSan report aborts the run, so it shows as a failure even when gtest's
# counts look clean.
#   bash scripts/suites/sanitizers.sh   (no server; ends with "N passed, N failed")
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/suite.sh"
source "$ROOT/scripts/lib/gtest.sh"
cd "$ROOT"
san_log="$LOGS/sanitizers.log"
make -j2 unit-sanitize >"$san_log" 2>&1
gtest_tally sanitizers "$san_log" $? 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:'
