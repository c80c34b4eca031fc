# Throwaway PostgreSQL clusters inside the checkout, of the server of $PG_CONFIG
# on this host (sourced, not run; the demo and the benchmarks use it).
#   cluster_start NAME PORT [postgresql.conf lines...]  -> exports PGHOST PGPORT PGUSER PGDATABASE
#   cluster_stop NAME
# As root, the server runs as the 'postgres' user (initdb refuses root). The
# functions are scripts/lib/cluster.sh's, which the test suites use too.

ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
PG_CONFIG="${PG_CONFIG:-pg_config}"
PG_CHROOT=""
PG_BINDIR="$("$PG_CONFIG" --bindir)"
PGBIN="$PG_BINDIR"
CLUSTERS="${CLUSTERS:-$ROOT/.cluster}"
source "$ROOT/scripts/lib/cluster.sh"
