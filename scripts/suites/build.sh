#!/usr/bin/env bash
# The extension built for one major with warnings as errors (plain `make` in the
# server's filesystem: the checkout on the host's 15, a copy of the tree in the
# major's chroot) and installed into that major's server. One check.
#   PG_MAJOR=17 bash scripts/suites/build.sh
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
echo "   $(pg_in "$PG_CONFIG" --version) (${PG_CHROOT:-the host}), built in $PG_SRC"
check "build with -Werror and install into PostgreSQL $PG_MAJOR (log: $LOGS/build-$PG_MAJOR.log)" pg_build
