#!/usr/bin/env bash
# Real client drivers against the extension (test/clients): psycopg 3,
# psycopg2, asyncpg, node-postgres with the npm reference ID libraries (ulid,
# uuid, tsid-ts) and pgjdbc, each a program that prints "ok N" / "not ok N"
# lines; plus the check that docs/clients.md's recipes are the code these
# programs run. The clients are the host's; a chroot's server is reached through
# its socket directory under the chroot, pgjdbc (TCP only) through 127.0.0.1.
#   PG_MAJOR=17 bash scripts/suites/clients.sh   (after scripts/suites/build.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
clients_dir="$ROOT/test/clients"
clients_port=${CLIENTS_PORT:-$((55400 + PG_MAJOR))}   # TCP too: one per major, as majors may run side by side


# npm ci only when node_modules is missing or older than the lockfile.
clients_npm() {
  local dir="$clients_dir/node" stamp="$clients_dir/node/node_modules/.ulid_tsid-lock"
  cmp -s "$dir/package-lock.json" "$stamp" 2>/dev/null && return 0
  # One npm ci at a time (majors may run side by side), then check again.
  (
    flock 8
    cmp -s "$dir/package-lock.json" "$stamp" 2>/dev/null && exit 0
    (cd "$dir" && npm ci --no-audit --no-fund) >"$LOGS/clients-npm.log" 2>&1 &&
      cp "$dir/package-lock.json" "$stamp"
  ) 8>"$LOGS/clients-npm.lock"
}

# clients_run NAME COMMAND...: runs in test/clients against a database of its
# own with the extension (the programs' table names may repeat), output in $LOGS.
clients_run() {
  local name="$1"; shift
  DB_EXTENSION=1 program_run "$name" "clients_${name//-/_}" "$clients_dir" "$LOGS/clients-$name-$PG_MAJOR.log" 300 "$@"
}

cluster_start clients "$clients_port" "listen_addresses = '127.0.0.1'" || exit 1
clients_run readme /usr/bin/python3 readme_recipes.py
# Debian's python3, which sees Debian's python3-psycopg and friends.
clients_run psycopg /usr/bin/python3 psycopg_client.py
clients_run psycopg2 /usr/bin/python3 psycopg2_client.py
clients_run asyncpg /usr/bin/python3 asyncpg_client.py
if clients_npm; then
  clients_run node-postgres node node/pg_client.js
  clients_run reference-ids node node/reference_ids.js
else
  tail -20 "$LOGS/clients-npm.log"; echo "   npm ci failed (see $LOGS/clients-npm.log)"; PROGRAMS_BAD=$((PROGRAMS_BAD + 1))
fi
clients_run pgjdbc java -cp /usr/share/java/postgresql.jar JdbcClient.java
cluster_stop clients
tally clients "$PROGRAMS_OK" "$PROGRAMS_BAD"
