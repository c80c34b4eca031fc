#!/usr/bin/env bash
# The ORMs people write their schemas in, against the extension (test/orms): Django
# (python3-django), SQLAlchemy with Alembic (python3-sqlalchemy, python3-alembic) and
# ActiveRecord (ruby-activerecord, ruby-pg), Debian's, each a program that prints
# "ok N" / "not ok N" lines; plus the check that the recipes of docs/orms-python.md and orms-ruby.md are the code
# these programs run. Each program gets an empty database: its own migrations create
# the extension and the tables. The programs are the host's; a chroot's server is
# reached through its socket directory under the chroot, and ActiveRecord's
# structure.sql dump runs the chroot's pg_dump (the host's 15 refuses a newer server).
#   PG_MAJOR=17 bash scripts/suites/orms.sh   (after scripts/suites/build.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
orms_dir="$ROOT/test/orms"
orms_port=${ORMS_PORT:-$((56000 + PG_MAJOR))}   # one per major, as majors may run side by side


# orms_run NAME DIR COMMAND...: runs in DIR against an empty database of its own
# (no extension: the program's migration creates it), output in $LOGS.
orms_run() {
  local name="$1" dir="$2"; shift 2
  program_run "$name" "orms_$name" "$dir" "$LOGS/orms-$name-$PG_MAJOR.log" 180 "$@"
}

cluster_start orms "$orms_port" || exit 1
ORMS_TMP="$(cluster_dir orms)"   # under the chroot: the same path inside and out
export ORMS_TMP
bin="$ORMS_TMP/bin"
mkdir -p "$bin"
if [ -n "$PG_CHROOT" ]; then
  # pg_dump and psql of the server's own major, run inside its chroot with the caller's PG* settings
  for tool in pg_dump psql; do
    printf '#!/bin/sh\nexec chroot %q %q "$@"\n' "$PG_CHROOT" "$PG_BINDIR/$tool" >"$bin/$tool"
    chmod +x "$bin/$tool"
  done
fi
orms_run readme "$ROOT" /usr/bin/python3 test/clients/readme_recipes.py test/orms/django test/orms/sqlalchemy test/orms/activerecord
# Debian's python3, which sees Debian's python3-django and friends.
orms_run django "$orms_dir/django" /usr/bin/python3 django_orm.py
orms_run sqlalchemy "$orms_dir/sqlalchemy" /usr/bin/python3 sqlalchemy_orm.py
orms_run activerecord "$orms_dir/activerecord" env PATH="$bin:$PATH" /usr/bin/ruby activerecord_orm.rb
cluster_stop orms
tally orms "$PROGRAMS_OK" "$PROGRAMS_BAD"
