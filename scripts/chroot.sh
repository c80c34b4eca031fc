#!/usr/bin/env bash
# Debian's own PostgreSQL servers of other majors, each in a chroot of the Debian
# suite that ships it (the system's apt setup is never touched).
#
#   scripts/chroot.sh MAJOR     -> the root directory of the chroot serving MAJOR,
#                                  made (or remade) first if needed; its /proc and
#                                  /dev/shm mounted
#   scripts/chroot.sh --list    -> "MAJOR CHROOT SUITE" for every major served here
#
# Prints exactly one line on stdout (the directory); progress and errors go to stderr.
#
#   chroot    suites                        servers (Debian packages)
#   bullseye  bullseye                      postgresql-13
#   trixie    trixie                        postgresql-17
#   sid       sid, experimental, bullseye   postgresql-18 (sid), postgresql-19 (experimental),
#                                           postgresql-13 (bullseye's package on sid's libraries,
#                                           for pg_upgrade 13 -> 18 and dumps 13 <-> 18:
#                                           pg_upgrade needs both majors' binaries in one
#                                           filesystem)
# 15 is the host's own (bookworm): no chroot.
#
# Each chroot is `debootstrap --variant=minbase SUITE DIR MIRROR`, with MIRROR the Debian
# archive the machine's own apt sources name (/etc/apt/sources.list.d/*.sources or
# sources.list; ULID_TSID_DEBIAN_MIRROR overrides it), then apt-get install
# --no-install-recommends of the servers, their -dev packages and what the suites need
# inside (g++, make, libsodium-dev, perl's IPC::Run for TAP, debhelper and
# postgresql-server-dev-all for `make deb`, pgxnclient, zip). sid's and experimental's
# Release files on the mirror are expired: the chroot's apt has
# Acquire::Check-Valid-Until "false". The chroot holds a symlink DIR/DIR -> /, so that a
# path under DIR means the same file inside the chroot and out (the suites start servers
# inside with data and socket directories under DIR/var/tmp, and the host's clients reach
# them by the same path).
#
# A stamp DIR/.ulid_tsid-recipe, written last, holds the recipe (suites and packages); a
# chroot whose stamp differs, is missing, is older than ULID_TSID_CHROOT_MAX_DAYS (14), or
# whose servers do not answer `pg_config --version` is unmounted and made again. flock
# keeps two calls from making one chroot twice; callers that use a chroot hold
# $CACHE/locks/chroot-NAME shared (scripts/lib/pg.sh) so that it is never remade under them.
#
# Cache: ${ULID_TSID_CACHE:-/var/cache/ulid_tsid}/chroots/NAME, logs in $CACHE/logs.
# Needs root (debootstrap, chroot, mount).
set -euo pipefail
exec 3>&1 1>&2
umask 022

CACHE="${ULID_TSID_CACHE:-/var/cache/ulid_tsid}"
MAX_DAYS="${ULID_TSID_CHROOT_MAX_DAYS:-14}"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

die() { echo "chroot.sh: $*" >&2; exit 1; }
say() { echo "chroot.sh: $*" >&2; }

# chroot_of MAJOR -> NAME
chroot_of() {
  case "$1" in
    13) echo bullseye ;;
    17) echo trixie ;;
    18|19) echo sid ;;
    *) return 1 ;;
  esac
}

# What the suites need inside every chroot, besides the servers.
# (faketime: test/t/012_clock_back.pl sets the servers' clock back with it.)
COMMON=(ca-certificates build-essential g++ make libsodium-dev perl libipc-run-perl
        debhelper dpkg-dev fakeroot postgresql-server-dev-all pgxnclient zip unzip faketime)

# The ORMs at the versions trixie and sid ship (the host has bookworm's), for the orms
# suite's runs inside those chroots; and pg_partman of each major Debian ships it for
# (bullseye's 4.5.1 for 13; trixie's 5.2.4 for 17 and sid's 5.5.0 for 18, whose 5.x
# partitions by time on encoded keys).
ORMS=(python3-django python3-sqlalchemy python3-alembic python3-psycopg python3-psycopg2
      ruby-activerecord ruby-pg)

# recipe NAME: sets SUITE (debootstrap's), EXTRA_SUITES, and STEPS (apt-get install
# argument lists, one per step, separated by newlines).
recipe() {
  EXTRA_SUITES=""
  case "$1" in
    bullseye) SUITE=bullseye
      STEPS="postgresql-13 postgresql-server-dev-13 ${COMMON[*]}
postgresql-13-partman" ;;
    trixie) SUITE=trixie
      STEPS="postgresql-17 postgresql-server-dev-17 ${COMMON[*]}
postgresql-17-partman ${ORMS[*]}" ;;
    sid) SUITE=sid; EXTRA_SUITES="experimental bullseye"
      # postgresql-common first (19's packages need it configured), then 19 from
      # experimental, then bullseye's 13 with sid's libraries wherever they serve (no
      # -dev: its clang-11 does not install on sid; the extension for it is the one
      # built in the bullseye chroot, copied in by the crossversion suite, with
      # bullseye's libsodium23 it links: sid has libsodium26).
      STEPS="perl postgresql-common
postgresql-18 postgresql-server-dev-18 ${COMMON[*]}
-t experimental postgresql-19 postgresql-server-dev-19
postgresql-13 libsodium23
postgresql-18-partman ${ORMS[*]}" ;;
    *) die "no chroot named $1" ;;
  esac
  RECIPE="ulid_tsid chroot recipe 3
suite: $SUITE${EXTRA_SUITES:+ + $EXTRA_SUITES}
$STEPS"
}

majors_of() {
  case "$1" in bullseye) echo 13 ;; trixie) echo 17 ;; sid) echo 18 19 13 ;; esac
}

# debian_mirror, debian_apt_conf, unmount_under (scripts/lib/debian_chroot.sh).
source "$(dirname "${BASH_SOURCE[0]}")/lib/debian_chroot.sh"

# mount_chroot DIR: /proc (the server reads it) and a tmpfs on /dev/shm (its
# dynamic shared memory), each once.
mount_chroot() {
  mountpoint -q "$1/proc" || mount --bind /proc "$1/proc"
  mkdir -p "$1/dev/shm"
  mountpoint -q "$1/dev/shm" || mount -t tmpfs -o mode=1777,size=512m shm "$1/dev/shm"
}

# unmount_all DIR: every mount under DIR, deepest first; fails if one stays.
unmount_all() {
  unmount_under "$1" || die "mounts under $1 remain; not removing it"
}

# ready NAME DIR: the stamp holds the recipe, it is young enough, every server answers.
ready() {
  local dir="$2" stamp="$2/.ulid_tsid-recipe" m
  [ -f "$stamp" ] || return 1
  [ "$(sed '/^made: /d' "$stamp")" = "$RECIPE" ] || { say "$1: recipe changed, remaking"; return 1; }
  if [ -n "$(find "$stamp" -mtime "+$MAX_DAYS" 2>/dev/null)" ]; then say "$1: older than $MAX_DAYS days, remaking"; return 1; fi
  for m in $(majors_of "$1"); do
    chroot "$dir" "/usr/lib/postgresql/$m/bin/pg_config" --version >/dev/null 2>&1 \
      || { say "$1: PostgreSQL $m does not answer, remaking"; return 1; }
  done
}

run_step() {  # run_step LOG WHAT COMMAND...
  local log="$1" what="$2"; shift 2
  echo "== $what" >>"$log"
  if ! "$@" </dev/null >>"$log" 2>&1; then   # no stdin: CI runs without one
    tail -n 25 "$log" | sed 's/^/  | /'
    die "$what failed (log: $log)"
  fi
}

make_chroot() {  # make_chroot NAME DIR
  local name="$1" dir="$2" mirror log="$CACHE/logs/chroot-$1.log" start=$SECONDS s step
  mirror="$(debian_mirror)" || die "no Debian mirror in /etc/apt/sources.list{,.d} (set ULID_TSID_DEBIAN_MIRROR)"
  command -v debootstrap >/dev/null || die "debootstrap is not installed (bash scripts/install-deps.sh)"
  : >"$log"
  if [ -e "$dir" ]; then
    unmount_all "$dir"
    rm -rf --one-file-system "$dir"
  fi
  local tmp="$dir.new"
  if [ -e "$tmp" ]; then unmount_all "$tmp"; rm -rf --one-file-system "$tmp"; fi
  say "$name: debootstrap --variant=minbase $SUITE (log: $log)"
  local keyring=()
  [ -f "$KEYRING" ] && keyring=(--keyring="$KEYRING")
  # dpkg without an fsync per file (a throwaway tree, remade whole when it breaks),
  # and without the manuals, translations and documentation nothing here reads
  # (the package suite's own .deb keeps its docs: it checks them on disk): put
  # there before debootstrap's own dpkg runs, it serves every install.
  mkdir -p "$tmp/etc/dpkg/dpkg.cfg.d"
  printf '%s\n' force-unsafe-io 'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/locale/*' \
    'path-exclude=/usr/share/doc/*' 'path-include=/usr/share/doc/postgresql-*-ulid-tsid/*' \
    >"$tmp/etc/dpkg/dpkg.cfg.d/00ulid_tsid"
  run_step "$log" "debootstrap $SUITE" debootstrap --variant=minbase "${keyring[@]}" "$SUITE" "$tmp" "$mirror"
  say "$name: debootstrap done in $((SECONDS - start)) s"
  {
    echo "deb $mirror $SUITE main"
    for s in $EXTRA_SUITES; do echo "deb $mirror $s main"; done
  } >"$tmp/etc/apt/sources.list"
  # apt's settings; no service starts inside the chroot (no cluster is made by the
  # packages either). 18 and 19 share the sid chroot, and their suites may install
  # side by side.
  debian_apt_conf "$tmp" 'DPkg::Lock::Timeout "900";'
  mkdir -p "$tmp/etc/postgresql-common/createcluster.d"
  echo "create_main_cluster = false" >"$tmp/etc/postgresql-common/createcluster.d/ulid_tsid.conf"
  mount_chroot "$tmp"
  export DEBIAN_FRONTEND=noninteractive
  run_step "$log" "apt-get update" chroot "$tmp" apt-get update
  s=$SECONDS
  while IFS= read -r step; do
    [ -n "$step" ] || continue
    say "$name: apt-get install $step"
    # shellcheck disable=SC2086
    run_step "$log" "apt-get install $step" chroot "$tmp" apt-get install -y $step
  done <<<"$STEPS"
  chroot "$tmp" apt-get clean >>"$log" 2>&1 || true
  say "$name: packages installed in $((SECONDS - s)) s"
  # DIR/DIR -> /: a path under DIR names the same file inside the chroot.
  mkdir -p "$tmp$(dirname "$dir")"
  ln -sfn / "$tmp$dir"
  unmount_all "$tmp"
  mv "$tmp" "$dir"
  mount_chroot "$dir"
  for m in $(majors_of "$name"); do
    chroot "$dir" "/usr/lib/postgresql/$m/bin/pg_config" --version >>"$log" 2>&1 \
      || die "$name: PostgreSQL $m's pg_config does not run (log: $log)"
  done
  {
    echo "$RECIPE"
    echo "made: $(date -u +%FT%TZ) in $((SECONDS - start)) s; $(for m in $(majors_of "$name"); do chroot "$dir" "/usr/lib/postgresql/$m/bin/pg_config" --version; done | paste -sd, -)"
  } >"$dir/.ulid_tsid-recipe.tmp"
  mv "$dir/.ulid_tsid-recipe.tmp" "$dir/.ulid_tsid-recipe"
  say "$name: ready in $((SECONDS - start)) s ($(sed -n 's/^made: [^;]*; //p' "$dir/.ulid_tsid-recipe"))"
}

case "${1:-}" in
  --list)
    for m in 13 17 18 19; do n="$(chroot_of "$m")"; recipe "$n"; echo "$m $n $SUITE" >&3; done
    exit 0 ;;
  ""|-h|--help) sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0"; exit 2 ;;
esac
MAJOR="$1"
NAME="$(chroot_of "$MAJOR")" || die "PostgreSQL $MAJOR: no chroot serves it (13, 17, 18, 19; 15 is the host's)"
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mount)"
recipe "$NAME"
DIR="$CACHE/chroots/$NAME"
mkdir -p "$CACHE/chroots" "$CACHE/locks" "$CACHE/logs"
chmod 755 "$CACHE" "$CACHE/chroots"

# Fast path: a ready chroot, mounted.
if ready "$NAME" "$DIR" 2>/dev/null; then
  mount_chroot "$DIR"
  echo "$DIR" >&3; exit 0
fi
# Slow path: exclusive on the chroot's lock (users hold it shared), then check again.
exec 8>"$CACHE/locks/chroot-$NAME"
if ! flock -n 8; then say "$NAME: waiting for the chroot's users or maker"; flock 8; fi
recipe "$NAME"
if ! ready "$NAME" "$DIR"; then make_chroot "$NAME" "$DIR"; fi
mount_chroot "$DIR"
echo "$DIR" >&3
