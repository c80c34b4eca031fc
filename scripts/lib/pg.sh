# What every server suite shares (sourced, never run): the server of one major, on
# the host (15, the system's) or in its Debian chroot (13, 17, 18, 19: scripts/chroot.sh),
# throwaway clusters of it, and the suite's contract: its checks add up to one last
# line "N passed, N failed", and its exit status is 0 only when none failed.
#
#   PG_MAJOR=17 bash scripts/suites/regress.sh
#
# After sourcing (with PG_MAJOR set, default 15):
#   PG_CHROOT     the chroot's root, or "" for the host. A path under it means the same
#                 file inside the chroot and out (scripts/chroot.sh's DIR/DIR -> / link).
#   PG_BINDIR     the server's bin directory, as seen from inside (pg_in runs there)
#   PG_CONFIG     its pg_config, as seen from inside
#   PG_SRC        the tree the extension is built in for this major: the checkout on the
#                 host, a copy under the chroot otherwise (pg_build makes it)
#   LOGS          where logs go (default .cluster/logs of the checkout)
#   pg_in CMD...          runs CMD in the server's filesystem, as root, in the current
#                         directory (which must be valid there), with PG_BINDIR first on PATH
#   pg_as_postgres CMD... the same as the postgres user (initdb refuses root)
#   pg_build              the extension built there with plain make (-Werror) and installed
#   cluster_start NAME PORT [conf lines...]  -> exports PGHOST PGPORT PGUSER PGDATABASE,
#                 usable from the host and from inside (the socket directory is under the chroot)
#   cluster_stop NAME, cluster_dir NAME
#   tally NAME PASSED FAILED   adds a group of checks (prints "== NAME: ...")
#   check LABEL COMMAND...     one check: passes when COMMAND succeeds
# The contract's last line is printed at exit.
#
# Locks: the host's 15 is shared by every checkout of this machine: whoever installs into
# it holds /tmp/ulid_tsid.pg15.lock (the caller's job). A chroot's server is held by
# $CACHE/locks/use-MAJOR (exclusive, taken here unless PG_LOCKED names the major: the
# runner takes it once for all of a major's suites) and its chroot by
# $CACHE/locks/chroot-NAME (shared: scripts/chroot.sh never remakes it under us).

source "$(dirname "${BASH_SOURCE[0]}")/suite.sh"
PG_MAJOR="${PG_MAJOR:-15}"
ULID_TSID_CACHE="${ULID_TSID_CACHE:-/var/cache/ulid_tsid}"
export ULID_TSID_CACHE PG_MAJOR
SUITE_LABEL="PG $PG_MAJOR"
# A key of this checkout, so that two checkouts never share a build tree or cluster.
PG_KEY="$(printf '%s' "$ROOT" | md5sum | cut -c1-8)"

if [ "$PG_MAJOR" = 15 ]; then
  PG_CHROOT=""
  PG_CONFIG=/usr/bin/pg_config
  PG_BINDIR="$("$PG_CONFIG" --bindir)"
  PG_SRC="$ROOT"
  CLUSTERS="${CLUSTERS:-$ROOT/.cluster}"
else
  if ! PG_CHROOT="$(bash "$ROOT/scripts/chroot.sh" "$PG_MAJOR" 2>>"$LOGS/chroot-$PG_MAJOR.log")"; then
    tail -5 "$LOGS/chroot-$PG_MAJOR.log"
    echo "   FAIL PostgreSQL $PG_MAJOR: no chroot (log: $LOGS/chroot-$PG_MAJOR.log)"; exit 1
  fi
  exec 7>>"$ULID_TSID_CACHE/locks/chroot-$(basename "$PG_CHROOT")"
  flock -s 7
  if [ "${PG_LOCKED:-}" != "$PG_MAJOR" ]; then
    exec 6>"$ULID_TSID_CACHE/locks/use-$PG_MAJOR"
    flock -n 6 || { echo "   waiting for another checkout's run on PostgreSQL $PG_MAJOR"; flock 6; }
    export PG_LOCKED="$PG_MAJOR"
  fi
  PG_BINDIR="/usr/lib/postgresql/$PG_MAJOR/bin"
  PG_CONFIG="$PG_BINDIR/pg_config"
  PG_SRC="$PG_CHROOT/build/ulid_tsid-$PG_KEY-$PG_MAJOR"
  CLUSTERS="$PG_CHROOT/var/tmp/u$PG_KEY-$PG_MAJOR"   # short: a socket path has at most 107 bytes
fi
export PG_CHROOT PG_CONFIG PG_BINDIR PG_SRC

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

# The tree as it is (tracked and untracked files, not ignored ones: no build
# products), copied into PG_SRC; objects already there stay when their sources did
# not change (cp keeps the times), so make rebuilds only what changed.
pg_copy_tree() {
  [ -n "$PG_CHROOT" ] || return 0
  local list; list="$(mktemp)"
  (cd "$ROOT" && git ls-files -co --exclude-standard -z) >"$list"
  mkdir -p "$PG_SRC"
  # Files of an earlier copy that the tree no longer has (a renamed source) go.
  (cd "$PG_SRC" && find . -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.sql' -o -name '*.out' -o -name '*.pl' -o -name '*.pm' \) \
     -not -path './results/*' -not -path './build/*' -printf '%P\0') |
    sort -z | comm -z -23 - <(sort -z "$list") | (cd "$PG_SRC" && xargs -0 -r rm -f)
  (cd "$ROOT" && tar --null -T "$list" -cf -) | (cd "$PG_SRC" && tar -xpf -)
  rm -f "$list"
}

pg_build() {  # the extension for this major, warnings as errors, installed into its server
  local log="$LOGS/build-$PG_MAJOR.log"
  pg_copy_tree
  if [ -z "$PG_CHROOT" ]; then
    (cd "$PG_SRC" && flock /tmp/ulid_tsid.make.lock bash -c \
      'make clean >/dev/null 2>&1; make -j2 EXTRA_CXXFLAGS=-Werror && make install') >"$log" 2>&1
  else
    (cd "$PG_SRC" && pg_in sh -c 'make -j2 EXTRA_CXXFLAGS=-Werror && make install') >"$log" 2>&1
  fi
  local rc=$?
  [ "$rc" -eq 0 ] || tail -40 "$log"
  return "$rc"
}

cluster_dir() { echo "$CLUSTERS/$1"; }

cluster_start() {  # cluster_start NAME PORT [postgresql.conf lines...]
  local name="$1" port="$2"; shift 2
  local dir; dir="$(cluster_dir "$name")"
  cluster_stop "$name" 2>/dev/null || true
  rm -rf "$dir"
  mkdir -p "$dir"
  [ "$(id -u)" -eq 0 ] && pg_in chown postgres:postgres "$dir"
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
  (cd / && pg_as_postgres "$PG_BINDIR/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start) >/dev/null ||
    { tail -5 "$dir/server.log"; return 1; }
  export PGHOST="$dir" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
}

cluster_stop() {
  local dir; dir="$(cluster_dir "$1")"
  [ -f "$dir/data/postmaster.pid" ] || return 0
  (cd / && pg_as_postgres "$PG_BINDIR/pg_ctl" -D "$dir/data" -m fast -w stop) >/dev/null
}
