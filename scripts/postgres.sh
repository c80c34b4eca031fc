#!/usr/bin/env bash
# PostgreSQL servers of other majors, for tests across versions.
#
#   scripts/postgres.sh MAJOR            -> path of that major's pg_config (building it if needed)
#   scripts/postgres.sh --headers MAJOR  -> path of that major's server include directory
#
# Prints exactly one line on stdout (the path); progress and errors go to stderr.
#
# 15 is the system's /usr/bin/pg_config (Debian's postgresql-15). Any other major is built
# from Debian's source package (13: bullseye, 17: trixie, 18: sid, 19: experimental),
# fetched with `apt-get source --download-only` through a private apt configuration kept
# under the cache (the system's apt setup is left as it is; the mirror is the one the
# machine's own apt sources use; the archive's signatures are checked with
# debian-archive-keyring). The upstream (orig) tarball is built as
#   ./configure --prefix=$CACHE/pgMAJOR --enable-tap-tests --without-icu --with-openssl
#   make && make install && make -C contrib/{amcheck,postgres_fdw,pageinspect,pgstattuple,
#   pg_stat_statements} install
# and a stamp file is written into $CACHE/pgMAJOR only after all of it succeeded, so an
# interrupted build is redone and a finished one is reused. flock keeps two concurrent
# calls for one major from building twice.
#
# --headers MAJOR prints a built server's `pg_config --includedir-server`; when there is
# none, it downloads Debian's binary postgresql-server-dev-MAJOR (not installed: unpacked
# with dpkg-deb -x into $CACHE/headers-MAJOR) and prints its .../include/postgresql/MAJOR/server.
# Those are headers only (no pg_config, no PGXS), enough for `-fsyntax-only`.
#
# Cache: ${ULID_TSID_PG_CACHE:-/var/cache/ulid_tsid}; build logs in $CACHE/logs/.
# Cost of the first run (2-core machine, measured 2026-11-30, while another build shared the
# cores): 13 (13.16) 5 min 04 s, 18 (18.6) 6 min 20 s, of which the download is ~5 s
# (~22 MB); installed 29 MB and 36 MB (earlier notes: about 2 min 40 s on idle cores). --headers
# without a built server: 1-8 s (~1.5 MB). A cached call: about 20 ms.
#
# Environment: ULID_TSID_PG_CACHE (cache root), ULID_TSID_PG_JOBS (make -j, default nproc),
# ULID_TSID_DEBIAN_MIRROR (overrides the mirror read from the apt sources),
# ULID_TSID_PG_SUITE (overrides the Debian suite for the major).
set -euo pipefail

# Everything goes to stderr except the one result line, written to fd 3.
exec 3>&1 1>&2
umask 022

CACHE="${ULID_TSID_PG_CACHE:-/var/cache/ulid_tsid}"
RECIPE="recipe 1: --enable-tap-tests --without-icu --with-openssl; contrib amcheck postgres_fdw pageinspect pgstattuple pg_stat_statements"
CONTRIB=(amcheck postgres_fdw pageinspect pgstattuple pg_stat_statements)
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
SYSTEM_MAJOR=15
SYSTEM_PG_CONFIG=/usr/bin/pg_config

die() { echo "postgres.sh: $*" >&2; exit 1; }
say() { echo "postgres.sh: $*" >&2; }
result() { echo "$1" >&3; exit 0; }

usage() {
  echo "usage: $0 [--headers] MAJOR   (e.g. 13, 15, 17, 18, 19)"
  exit 2
}

HEADERS=0
case "${1:-}" in
  --headers) HEADERS=1; shift ;;
  -h|--help) usage ;;
esac
[ $# -eq 1 ] || usage
MAJOR="$1"
[[ "$MAJOR" =~ ^[0-9]+$ ]] || usage
PG="PostgreSQL $MAJOR"

suite_for() {
  if [ -n "${ULID_TSID_PG_SUITE:-}" ]; then echo "$ULID_TSID_PG_SUITE"; return; fi
  case "$1" in
    13) echo bullseye ;;
    15) echo bookworm ;;
    17) echo trixie ;;
    18) echo sid ;;
    19) echo experimental ;;
    *) die "$PG: no Debian suite known for this major (set ULID_TSID_PG_SUITE)" ;;
  esac
}

# Major version reported by a pg_config ("PostgreSQL 18.6" -> 18, "PostgreSQL 19rc1" -> 19).
major_of() {
  local v
  v="$("$1" --version 2>/dev/null)" || return 1
  v="${v#PostgreSQL }"
  echo "${v%%[^0-9]*}"
}

PREFIX="$CACHE/pg$MAJOR"
STAMP="$PREFIX/.ulid_tsid-complete"
HDIR="$CACHE/headers-$MAJOR"
HSTAMP="$HDIR/.ulid_tsid-complete"
HPATH="$HDIR/usr/include/postgresql/$MAJOR/server"

server_ready() {
  [ -f "$STAMP" ] && [ -x "$PREFIX/bin/pg_config" ] && [ "$(head -n1 "$STAMP")" = "$RECIPE" ]
}
headers_ready() {
  [ -f "$HSTAMP" ] && [ -f "$HPATH/postgres.h" ]
}

# ---- fast paths: nothing to fetch or build ---------------------------------------------
if [ "$MAJOR" = "$SYSTEM_MAJOR" ]; then
  [ -x "$SYSTEM_PG_CONFIG" ] || die "$PG: $SYSTEM_PG_CONFIG not found (run scripts/install-deps.sh)"
  got="$(major_of "$SYSTEM_PG_CONFIG")" || die "$PG: $SYSTEM_PG_CONFIG --version failed"
  [ "$got" = "$MAJOR" ] || die "$PG: $SYSTEM_PG_CONFIG is PostgreSQL $got, not $MAJOR"
  if [ "$HEADERS" = 0 ]; then result "$SYSTEM_PG_CONFIG"; fi
  inc="$("$SYSTEM_PG_CONFIG" --includedir-server)"
  [ -f "$inc/postgres.h" ] && result "$inc"
  headers_ready && result "$HPATH"
  # no postgresql-server-dev-15 installed: fall through to downloading it
elif [ "$HEADERS" = 1 ]; then
  server_ready && result "$("$PREFIX/bin/pg_config" --includedir-server)"
  headers_ready && result "$HPATH"
else
  server_ready && result "$PREFIX/bin/pg_config"
fi

# ---- the slow path ----------------------------------------------------------------------
SUITE="$(suite_for "$MAJOR")"
mkdir -p "$CACHE/logs" "$CACHE/locks" "$CACHE/apt" "$CACHE/build" 2>/dev/null \
  || die "$PG: cannot create the cache $CACHE (set ULID_TSID_PG_CACHE to a writable folder)"
chmod a+rx "$CACHE" 2>/dev/null || true
LOGS="$CACHE/logs"

# lock NAME FD: exclusive lock on $CACHE/locks/NAME, held until exit (or flock -u FD).
lock() {
  local file="$CACHE/locks/$1" fd="$2"
  eval "exec $fd>\"\$file\""
  if ! flock -n "$fd"; then
    say "$PG: waiting for another run holding $file"
    flock "$fd"
  fi
}

# The machine's own Debian mirror: URIs of the deb entry for the system's suite.
debian_mirror() {
  if [ -n "${ULID_TSID_DEBIAN_MIRROR:-}" ]; then echo "${ULID_TSID_DEBIAN_MIRROR%/}"; return; fi
  local codename="" uris=()
  # shellcheck disable=SC1091
  codename="$( . /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")" || true
  [ -n "$codename" ] || codename=bookworm
  local f
  shopt -s nullglob
  for f in /etc/apt/sources.list.d/*.sources; do
    # deb822 stanzas: Types has "deb", Suites has the codename itself, not disabled.
    while read -r u; do uris+=("$u"); done < <(awk -v suite="$codename" '
      function flush() {
        if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " suite " ") && enabled != "no")
          { n = split(uri, a, " "); for (i = 1; i <= n; i++) print a[i] }
        types = suites = uri = ""; enabled = "yes"
      }
      BEGIN { enabled = "yes" }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      { key = tolower($1); sub(/^[^:]*:[ \t]*/, ""); val = $0
        if (key == "types:") types = val
        else if (key == "suites:") suites = val
        else if (key == "uris:") uri = val
        else if (key == "enabled:") enabled = tolower(val) }
      END { flush() }' "$f")
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    while read -r u; do uris+=("$u"); done < <(awk -v suite="$codename" '
      $1 == "deb" { i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                    if ($(i + 1) == suite) print $i }' "$f")
  done
  shopt -u nullglob
  [ ${#uris[@]} -gt 0 ] || return 1
  local u
  for u in "${uris[@]}"; do  # prefer the Debian archive itself over third-party repositories
    case "${u%/}" in */debian) echo "${u%/}"; return ;; esac
  done
  echo "${uris[0]%/}"
}

# apt_setup: private apt state for $SUITE under $CACHE/apt/$SUITE, refreshed; sets APT_OPTS.
APT_OPTS=()
apt_setup() {
  local mirror dir="$CACHE/apt/$SUITE" log="$LOGS/apt-$SUITE-update.log" signed=""
  mirror="$(debian_mirror)" || die "$PG: no Debian mirror found in /etc/apt/sources.list{,.d} (set ULID_TSID_DEBIAN_MIRROR)"
  [ -f "$KEYRING" ] && signed="[signed-by=$KEYRING] "
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/preferences.d"
  : >"$dir/preferences"
  {
    echo "deb-src ${signed}$mirror $SUITE main"
    echo "deb ${signed}$mirror $SUITE main"
  } >"$dir/sources.list"
  APT_OPTS=(
    -o "Dir::Etc::sourcelist=$dir/sources.list" -o "Dir::Etc::sourceparts=-"
    -o "Dir::Etc::preferences=$dir/preferences" -o "Dir::Etc::preferencesparts=$dir/preferences.d"
    -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
    -o "Acquire::Check-Valid-Until=false" -o "Acquire::Languages=none"
    -o "Acquire::GzipIndexes=true" -o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
  )
  say "$PG: reading the $SUITE index from the mirror"
  if ! apt-get "${APT_OPTS[@]}" update >"$log" 2>&1 || grep -q '^[EW]: .*\(NO_PUBKEY\|not signed\|is not valid\|Failed to fetch\)' "$log"; then
    local why
    why="$(grep -m1 '^[EW]: ' "$log" || tail -n1 "$log")"
    die "$PG: cannot read Debian's $SUITE index from $mirror (${why#?: }; log: $log)"
  fi
}

# A download directory that apt's unprivileged _apt user may write (no sandbox warning).
download_dir() {
  rm -rf "$1"; mkdir -p "$1"
  if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$1"; fi
}

# One line out of apt's "E: Failed to fetch URL  404  Not Found [IP: ...]" lines.
fetch_reason() {  # fetch_reason LOG PREFERRED_PATTERN
  local line url code file
  line="$(grep -m1 "^E: Failed to fetch .*$2" "$1" || grep -m1 '^E: ' "$1" || tail -n1 "$1")"
  if [[ "$line" =~ ^E:\ Failed\ to\ fetch\ ([^ ]+)\ +(.*)$ ]]; then
    url="${BASH_REMATCH[1]}"; code="${BASH_REMATCH[2]}"
    code="${code%%\[IP:*}"; code="$(echo "$code" | tr -s ' ')"; code="${code% }"
    file="$(echo "${url##*/}" | sed 's/%2[bB]/+/g; s/%7[eE]/~/g; s/%3[aA]/:/g')"
    echo "$code for $file"
  else
    echo "${line#E: }"
  fi
}

# run_step LOG WHAT COMMAND...: runs quietly into LOG; on failure shows its end and stops.
run_step() {
  local log="$1" what="$2"; shift 2
  if ! "$@" >>"$log" 2>&1; then
    tail -n 30 "$log" | sed 's/^/  | /'
    die "$PG: $what failed (log: $log)"
  fi
}

# ---- --headers: Debian's postgresql-server-dev-MAJOR, unpacked -------------------------
if [ "$HEADERS" = 1 ]; then
  lock "headers-$MAJOR" 8
  headers_ready && result "$HPATH"
  lock "apt-$SUITE" 9
  start=$SECONDS
  log="$LOGS/headers-$MAJOR-fetch.log"; : >"$log"
  apt_setup
  dl="$CACHE/build/headers-$MAJOR"; download_dir "$dl"
  say "$PG: downloading postgresql-server-dev-$MAJOR from $SUITE"
  if ! (cd "$dl" && apt-get "${APT_OPTS[@]}" download "postgresql-server-dev-$MAJOR") >>"$log" 2>&1; then
    rm -rf "$dl"
    if grep -q "^E: \(Unable to locate\|Can't select\|No packages found\)" "$log"; then
      die "$PG: no package postgresql-server-dev-$MAJOR in Debian's $SUITE (log: $log)"
    fi
    die "$PG: headers package not downloadable from the mirror ($(fetch_reason "$log" "postgresql-server-dev-$MAJOR"))"
  fi
  debs=("$dl"/postgresql-server-dev-"$MAJOR"_*.deb)
  [ -f "${debs[0]}" ] || die "$PG: apt-get download left no postgresql-server-dev-$MAJOR .deb (log: $log)"
  rm -rf "$HDIR"; mkdir -p "$HDIR"
  run_step "$log" "unpacking ${debs[0]##*/}" dpkg-deb -x "${debs[0]}" "$HDIR"
  [ -f "$HPATH/postgres.h" ] || die "$PG: ${debs[0]##*/} has no $HPATH/postgres.h"
  chmod -R a+rX "$HDIR"
  printf '%s\n' "${debs[0]##*/}" >"$HSTAMP.tmp" && mv "$HSTAMP.tmp" "$HSTAMP"
  rm -rf "$dl"
  say "$PG: headers of ${debs[0]##*/} ready in $((SECONDS - start)) s"
  result "$HPATH"
fi

# ---- a server built from Debian's source package ----------------------------------------
lock "pg$MAJOR" 8
server_ready && result "$PREFIX/bin/pg_config"
start=$SECONDS
work="$CACHE/build/pg$MAJOR"
rm -rf "$PREFIX" "$work"
mkdir -p "$work"

# fetch (the suite's apt state is shared with --headers of the same suite)
lock "apt-$SUITE" 9
apt_setup
dl="$work/download"; download_dir "$dl"
log="$LOGS/pg$MAJOR-fetch.log"; : >"$log"
say "$PG: downloading the source package postgresql-$MAJOR from $SUITE"
if ! (cd "$dl" && apt-get "${APT_OPTS[@]}" source --download-only "postgresql-$MAJOR") >>"$log" 2>&1; then
  rm -rf "$work"
  if grep -q '^E: Unable to find a source package' "$log"; then
    die "$PG: no source package postgresql-$MAJOR in Debian's $SUITE (log: $log)"
  fi
  die "$PG: source package not downloadable from the mirror ($(fetch_reason "$log" 'orig\.tar'))"
fi
flock -u 9
orig=""
for f in "$dl"/postgresql-"$MAJOR"_*.orig.tar.*; do
  case "$f" in *.asc) ;; *) [ -f "$f" ] && orig="$f" ;; esac
done
[ -n "$orig" ] || die "$PG: the source package has no orig tarball (log: $log)"
say "$PG: unpacking ${orig##*/}"
mkdir -p "$work/src"
run_step "$log" "unpacking ${orig##*/}" tar -xf "$orig" -C "$work/src"
src=""
for d in "$work"/src/*/; do [ -f "$d/configure" ] && src="${d%/}" && break; done
[ -n "$src" ] || die "$PG: no configure script in ${orig##*/}"

# build and install
log="$LOGS/pg$MAJOR-configure.log"; : >"$log"
say "$PG: configuring ${src##*/} (log: $log)"
# shellcheck disable=SC2016
run_step "$log" configure \
  sh -c 'cd "$1" && shift && ./configure "$@"' sh "$src" \
  --prefix="$PREFIX" --enable-tap-tests --without-icu --with-openssl
jobs="${ULID_TSID_PG_JOBS:-$(nproc 2>/dev/null || echo 2)}"
log="$LOGS/pg$MAJOR-make.log"; : >"$log"
say "$PG: compiling with make -j$jobs (log: $log)"
run_step "$log" make make -C "$src" -j"$jobs"
for c in "${CONTRIB[@]}"; do run_step "$log" "make contrib/$c" make -C "$src/contrib/$c" -j"$jobs"; done
log="$LOGS/pg$MAJOR-install.log"; : >"$log"
say "$PG: installing into $PREFIX (log: $log)"
run_step "$log" "make install" make -C "$src" install
for c in "${CONTRIB[@]}"; do run_step "$log" "make -C contrib/$c install" make -C "$src/contrib/$c" install; done

got="$(major_of "$PREFIX/bin/pg_config")" || die "$PG: the installed $PREFIX/bin/pg_config does not run"
[ "$got" = "$MAJOR" ] || die "$PG: postgresql-$MAJOR in $SUITE built PostgreSQL $got, not $MAJOR"
chmod -R a+rX "$PREFIX"
if [ "$(id -u)" -eq 0 ] && id postgres >/dev/null 2>&1 \
   && ! runuser -u postgres -- test -x "$PREFIX/bin/postgres" 2>/dev/null; then
  say "$PG: warning: the postgres user cannot reach $PREFIX (check the permissions of its parents)"
fi
{
  echo "$RECIPE"
  echo "source: ${orig##*/} from $SUITE"
  "$PREFIX/bin/pg_config" --version
} >"$STAMP.tmp"
mv "$STAMP.tmp" "$STAMP"
rm -rf "$work"
say "$PG: $("$PREFIX/bin/pg_config" --version) built and installed in $((SECONDS - start)) s"
result "$PREFIX/bin/pg_config"
