#!/usr/bin/env bash
# The ORMs people write their schemas in, against the extension (test/orms): Django
# (python3-django), SQLAlchemy with Alembic (python3-sqlalchemy, python3-alembic) and
# ActiveRecord (ruby-activerecord, ruby-pg), Debian's, each a program that prints
# "ok N" / "not ok N" lines; plus the check that the recipes of docs/orms-python.md and
# orms-ruby.md are the code these programs run. Each program gets an empty database: its
# own migrations create the extension and the tables.
# The programs run twice on a chroot's major: with the host's interpreters and ORMs
# (bookworm's Django 3.2, SQLAlchemy 1.4, ActiveRecord 6.1), which reach the chroot's
# server through its socket directory (ActiveRecord's structure.sql dump runs the chroot's
# pg_dump: the host's 15 refuses a newer server), and with the chroot's own (trixie's
# Django 4.2, SQLAlchemy 2.0, ActiveRecord 7.2 on 17; sid's Django 5.2, SQLAlchemy 2.0,
# ActiveRecord 7.2 on 18 and 19), run inside the chroot on a copy of the programs. A chroot
# without ORM packages (bullseye's, for 13) gets the host's run only. The versions of
# each run are printed.
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
# orms_versions [pg_in]: the ORMs' versions where the programs run (the host's python3
# and ruby, or with pg_in the chroot's), one line; fails when they are not there.
orms_versions() {
  "$@" /usr/bin/python3 -c 'import alembic, django, sqlalchemy
print(f"Django {django.get_version()}, SQLAlchemy {sqlalchemy.__version__}, Alembic {alembic.__version__}", end="")' &&
    printf ', ' &&
    "$@" /usr/bin/ruby -e 'require "active_record"; require "pg"
print "ActiveRecord #{ActiveRecord.version}, ruby-pg #{PG::VERSION}, Ruby #{RUBY_VERSION}"'
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
echo "   the host's: $(orms_versions)"
orms_run django "$orms_dir/django" /usr/bin/python3 django_orm.py
orms_run sqlalchemy "$orms_dir/sqlalchemy" /usr/bin/python3 sqlalchemy_orm.py
orms_run activerecord "$orms_dir/activerecord" env PATH="$bin:$PATH" /usr/bin/ruby activerecord_orm.rb

if [ -n "$PG_CHROOT" ]; then
  suite_name="$(basename "$PG_CHROOT")"
  if versions="$(orms_versions pg_in 2>/dev/null)"; then
    echo "   $suite_name's (inside its chroot): $versions"
    # The programs and their shared checks.py, copied under the chroot (same path inside).
    tree="$ORMS_TMP/tree"
    mkdir -p "$tree"
    (cd "$ROOT" && tar --exclude=__pycache__ -cf - test/clients/checks.py test/orms/django test/orms/sqlalchemy test/orms/activerecord) |
      (cd "$tree" && tar -xf -)
    # timeout runs a program, not a function: pg_in through bash, with ORMS_TMP passed in
    export -f pg_in pg_env_args pg_cwd pg_inside
    export PG_PASS_ENV="ORMS_TMP"
    in_chroot=(bash -c 'pg_in "$@"' pg_in)
    orms_run "django_$suite_name" "$tree/test/orms/django" "${in_chroot[@]}" /usr/bin/python3 django_orm.py
    orms_run "sqlalchemy_$suite_name" "$tree/test/orms/sqlalchemy" "${in_chroot[@]}" /usr/bin/python3 sqlalchemy_orm.py
    orms_run "activerecord_$suite_name" "$tree/test/orms/activerecord" "${in_chroot[@]}" /usr/bin/ruby activerecord_orm.rb
  else
    echo "   $suite_name's chroot has no ORM packages: the host's run only"
  fi
fi
cluster_stop orms
tally orms "$PROGRAMS_OK" "$PROGRAMS_BAD"
