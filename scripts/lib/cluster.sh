# Commands where one server is, and throwaway clusters of it (sourced, never run):
# scripts/lib/pg.sh sets it up for a major's server (the host's or a chroot's),
# scripts/cluster.sh for the server of $PG_CONFIG on the host (demo, benchmarks).
# Needs PG_CHROOT (the chroot's root, "" for the host), PG_BINDIR (the server's
# bin directory, as seen where it runs), PG_CONFIG and CLUSTERS (where clusters go).
#   pg_in CMD...          runs CMD in the server's filesystem, as root, in the current
#                         directory (which must be valid there), with PG_BINDIR first on PATH
#   pg_as_postgres CMD... the same as the postgres user (initdb refuses root)
#   cluster_start NAME PORT [postgresql.conf lines...]  -> exports PGHOST PGPORT PGUSER
#                 PGDATABASE, usable from the host and from inside (the socket directory
#                 is under the chroot); CLUSTER_POSTGRES=PATH starts that postgres binary
#                 (pg_ctl -p) instead of the server's own
#   cluster_stop NAME, cluster_dir NAME

# The directory a command inside starts in: the current one when it is under the
# chroot (by its path inside, so that the server and the tests see one spelling of
# it), / otherwise.
pg_cwd() { case "$PWD/" in "$PG_CHROOT"/*) pg_inside "$PWD" ;; *) echo / ;; esac; }
# pg_inside PATH: a path under the chroot as seen from inside (DIR/x -> /x).
pg_inside() { local p="${1#"$PG_CHROOT"}"; echo "${p:-/}"; }
# The environment a command inside gets: the server's bin first, the libpq settings.
pg_env_args() {
  local v
  PG_ENV=(HOME="$1" PATH="$PG_BINDIR:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" LANG=C.UTF-8 LC_ALL=C.UTF-8 PG_CONFIG="$PG_CONFIG")
  for v in PGHOST PGPORT PGUSER PGDATABASE PGOPTIONS PGPASSWORD PG_TEST_TIMEOUT_DEFAULT ${PG_PASS_ENV:-}; do
    [ -n "${!v+x}" ] && PG_ENV+=("$v=${!v}")
  done
  return 0
}
pg_in() {
  if [ -z "$PG_CHROOT" ]; then env PATH="$PG_BINDIR:$PATH" "$@"; return; fi
  pg_env_args /root
  # shellcheck disable=SC2016
  chroot "$PG_CHROOT" /usr/bin/env -i "${PG_ENV[@]}" /bin/sh -c 'cd "$0" && exec "$@"' "$(pg_cwd)" "$@"
}
pg_as_postgres() {
  if [ -z "$PG_CHROOT" ]; then
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- env PATH="$PG_BINDIR:$PATH" "$@"; else env PATH="$PG_BINDIR:$PATH" "$@"; fi
    return
  fi
  pg_env_args /var/lib/postgresql
  # shellcheck disable=SC2016
  chroot --userspec=postgres:postgres "$PG_CHROOT" /usr/bin/env -i "${PG_ENV[@]}" /bin/sh -c 'cd "$0" && exec "$@"' "$(pg_cwd)" "$@"
}

cluster_dir() { echo "$CLUSTERS/$1"; }

cluster_start() {  # cluster_start NAME PORT [postgresql.conf lines...]
  local name="$1" port="$2"; shift 2
  local dir; dir="$(cluster_dir "$name")"
  cluster_stop "$name" 2>/dev/null || true
  rm -rf "$dir"
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    pg_in chown postgres:postgres "$dir"
    if [ -z "$PG_CHROOT" ] && ! runuser -u postgres -- test -w "$dir"; then
      echo "postgres cannot reach $dir; using a temporary directory" >&2
      CLUSTERS="$(mktemp -d /tmp/ulid_tsid.XXXXXX)"; chmod 755 "$CLUSTERS"
      dir="$(cluster_dir "$name")"; mkdir -p "$dir"; chown postgres: "$dir"
    fi
  fi
  (cd / && pg_as_postgres "$PG_BINDIR/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync) >"$dir/initdb.log" 2>&1 ||
    { tail -5 "$dir/initdb.log"; return 1; }
  {
    echo "port = $port"
    echo "listen_addresses = ''"
    echo "unix_socket_directories = '$dir'"
    echo "max_connections = 40"
    echo "shared_buffers = 128MB"
    echo "fsync = off"
    echo "synchronous_commit = off"
    echo "max_wal_size = 1GB"
    echo "log_min_messages = warning"
    for line in "$@"; do echo "$line"; done
  } >>"$dir/data/postgresql.conf"
  (cd / && pg_as_postgres "$PG_BINDIR/pg_ctl" ${CLUSTER_POSTGRES:+-p "$CLUSTER_POSTGRES"} -D "$dir/data" -l "$dir/server.log" -w -t 60 start) >/dev/null ||
    { tail -5 "$dir/server.log"; return 1; }
  export PGHOST="$dir" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
}

cluster_stop() {
  local dir; dir="$(cluster_dir "$1")"
  [ -f "$dir/data/postmaster.pid" ] || return 0
  (cd / && pg_as_postgres "$PG_BINDIR/pg_ctl" -D "$dir/data" -m fast -w stop) >/dev/null
}
