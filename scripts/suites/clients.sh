#!/usr/bin/env bash
# Real client drivers against the extension (test/clients): psycopg 3,
# psycopg2, asyncpg, node-postgres with the npm reference ID libraries (ulid,
# uuid, tsid-ts) and pgjdbc, each a program that prints "ok N" / "not ok N"
# lines; plus the check that the README's client recipes are the code these
# programs run. The clients are the host's; a chroot's server is reached through
# its socket directory under the chroot, pgjdbc (TCP only) through 127.0.0.1.
#   PG_MAJOR=17 bash scripts/suites/clients.sh   (after scripts/suites/build.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
clients_dir="$ROOT/test/clients"
clients_port=${CLIENTS_PORT:-$((55400 + PG_MAJOR))}   # TCP too: one per major, as majors may run side by side
clients_ok=0; clients_bad=0

clients_count() {  # clients_count NAME LOG EXIT-CODE
  local ok bad
  ok=$(grep -c '^ok ' "$2"); bad=$(grep -c '^not ok ' "$2")
  awk '/^not ok /{show=1; print; next} show && /^#/{print; next} {show=0}' "$2" | cut -c1-300 | sed 's/^/   /'
  if [ "$3" -ne 0 ] && [ "$bad" -eq 0 ]; then
    bad=1; tail -5 "$2" | sed 's/^/   /'; echo "   $1 exited with $3 and no failed check (see $2)"
  fi
  echo "   $1: $ok passed, $bad failed"
  clients_ok=$((clients_ok + ok)); clients_bad=$((clients_bad + bad))
}

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
  local name="$1" log="$LOGS/clients-$1-$PG_MAJOR.log" rc start=$SECONDS
  local db="clients_${1//-/_}"
  shift
  psql -qX -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db" >"$log" 2>&1 &&
    psql -qX -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION ulid_tsid" >>"$log" 2>&1 &&
    (cd "$clients_dir" && PGDATABASE="$db" timeout 300 "$@") >>"$log" 2>&1
  rc=$?
  echo "   ($name: $((SECONDS - start)) s)"
  clients_count "$name" "$log" "$rc"
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
  tail -20 "$LOGS/clients-npm.log"; echo "   npm ci failed (see $LOGS/clients-npm.log)"; clients_bad=$((clients_bad + 1))
fi
clients_run pgjdbc java -cp /usr/share/java/postgresql.jar JdbcClient.java
cluster_stop clients
tally clients "$clients_ok" "$clients_bad"
