#!/usr/bin/env bash
# The node ORMs against the extension (test/orms/node): Prisma 7 with
# @prisma/adapter-pg, Sequelize, TypeORM, Knex, Kysely and Drizzle, from npm,
# pinned in test/orms/node/package-lock.json. Each is a program that prints
# "ok N" / "not ok N" lines, on its own database, on ulid, tsid, bigint DEFAULT
# generate_tsid() and uuid DEFAULT generate_uuidv7() keys; plus the check that
# the recipes of docs/orms-node.md are the code these programs run. The programs are the
# host's node; a chroot's server is reached through its socket directory.
#   PG_MAJOR=17 bash scripts/suites/orms_node.sh   (after scripts/suites/build.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
orms_dir="$ROOT/test/orms/node"
orms_port=${ORMS_NODE_PORT:-$((56100 + PG_MAJOR))}


# npm ci when node_modules is older than the lockfile, then the Prisma client when
# it is older than the lockfile and the schema: once for all majors (a lock, then
# a second look), so that majors side by side neither race nor repeat it.
orms_npm() {
  local stamp="$orms_dir/node_modules/.ulid_tsid-lock" pstamp="$orms_dir/node_modules/.ulid_tsid-prisma/.stamp" want
  want="$(cat "$orms_dir/package-lock.json" "$orms_dir/prisma/schema.prisma" "$orms_dir/prisma/prisma.config.js" | md5sum)"
  cmp -s "$orms_dir/package-lock.json" "$stamp" 2>/dev/null && [ "$(cat "$pstamp" 2>/dev/null)" = "$want" ] && return 0
  (
    flock 8
    if ! cmp -s "$orms_dir/package-lock.json" "$stamp" 2>/dev/null; then
      t=$SECONDS
      (cd "$orms_dir" && npm ci --no-audit --no-fund) >"$LOGS/orms-node-npm.log" 2>&1 || exit 1
      cp "$orms_dir/package-lock.json" "$stamp"
      echo "   (npm ci: $((SECONDS - t)) s)"
    fi
    if [ "$(cat "$pstamp" 2>/dev/null)" != "$want" ]; then
      t=$SECONDS
      (cd "$orms_dir" && node prisma.js --generate) >"$LOGS/orms-node-prisma-generate.log" 2>&1 || exit 1
      echo "$want" >"$pstamp"
      echo "   (prisma generate: $((SECONDS - t)) s; $(tail -n 1 "$LOGS/orms-node-prisma-generate.log" | cut -c1-200))"
    fi
  ) 8>"$LOGS/orms-node-npm.lock"
}

# orms_run NAME COMMAND...: in test/orms/node, against a fresh database of its own
# (the ORM's migration creates the extension there), output in $LOGS.
orms_run() {
  local name="$1"; shift
  program_run "$name" "orms_${name//-/_}" "$orms_dir" "$LOGS/orms-node-$name-$PG_MAJOR.log" 300 "$@"
}

# Prisma 7 and TypeORM 1.1 need node 20.19 or later (Debian bookworm's own nodejs is 18).
orms_node_ok() { node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; }
if ! orms_node_ok; then
  echo "   FAIL node $(node --version 2>&1) is older than Prisma 7 and TypeORM 1.1 need (20.19)"; tally orms_node 0 1; exit 1
fi

cluster_start orms_node "$orms_port" || exit 1
orms_run readme /usr/bin/python3 ../../clients/readme_recipes.py test/orms/node
if orms_npm; then
  for orm in knex kysely drizzle sequelize typeorm prisma; do
    orms_run "$orm" node "$orm.js"
  done
else
  tail -20 "$LOGS/orms-node-npm.log" "$LOGS/orms-node-prisma-generate.log" 2>/dev/null
  echo "   npm ci or prisma generate failed (see $LOGS/orms-node-*.log)"; PROGRAMS_BAD=$((PROGRAMS_BAD + 1))
fi
cluster_stop orms_node
tally orms_node "$PROGRAMS_OK" "$PROGRAMS_BAD"
