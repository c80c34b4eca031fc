# Throwaway PostgreSQL clusters inside the checkout (sourced, not run).
#   cluster_start NAME PORT [postgresql.conf lines...]  -> exports PGHOST PGPORT PGUSER
#   cluster_stop NAME
# As root, the server runs as the 'postgres' user (initdb refuses root).

ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
PGBIN="$(${PG_CONFIG:-pg_config} --bindir)"
CLUSTERS="${CLUSTERS:-$ROOT/.cluster}"

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cluster_dir() { echo "$CLUSTERS/$1"; }

cluster_start() {
  local name="$1" port="$2"; shift 2
  local dir; dir="$(cluster_dir "$name")"
  cluster_stop "$name" 2>/dev/null || true
  rm -rf "$dir"
  mkdir -p "$dir"
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$dir"
    if ! runuser -u postgres -- test -w "$dir"; then
      echo "postgres cannot reach $dir; using a temporary directory" >&2
      CLUSTERS="$(mktemp -d /tmp/ulid_tsid.XXXXXX)"; chmod 755 "$CLUSTERS"
      dir="$(cluster_dir "$name")"; mkdir -p "$dir"; chown postgres: "$dir"
    fi
  fi
  as_pg "$PGBIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1
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
  as_pg "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null
  export PGHOST="$dir" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
}

cluster_stop() {
  local dir; dir="$(cluster_dir "$1")"
  [ -f "$dir/data/postmaster.pid" ] || return 0
  as_pg "$PGBIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
}
