# shellcheck shell=bash
# A fresh minimal chroot of a Debian suite, as a machine with nothing installed: made
# from a pristine `debootstrap --variant=minbase` tarball kept in the cache, unpacked
# anew for each use (into a tmpfs) and removed after. Sourced by scripts/suites/buildd.sh
# (a buildd's build), scripts/release.sh (each released file installed where its users
# install it) and the suites that play a new user.
#
#   fresh_up SUITE DIR LOG LABEL  the usual sequence: the lock (waits said), stale runs
#                                 removed, the tarball (a check line, LABEL first), DIR
#                                 unpacked; 1 when no chroot could be made. DIR is
#                                 $FRESH_CACHE/run-NAME-$$ (fresh_remove_stale's pattern;
#                                 NAME is fresh_name SUITE)
#   fresh_lock SUITE              one user of SUITE's tarball and archive cache at a time
#                                 on this machine (fd 7; other checkouts' runs wait)
#   fresh_tarball SUITE LOG       the pristine tarball, made when missing or older than
#                                 FRESH_MAX_DAYS (14)
#   fresh_chroot SUITE DIR        DIR: the tarball unpacked (in a tmpfs unless
#                                 FRESH_TMPFS=0), /proc and /dev/shm mounted, the apt
#                                 archive cache shared through a bind mount
#   fresh_in DIR [--user U] CMD.. CMD inside DIR, in /build, with a clean environment
#                                 (the array FRESH_ENV: more VAR=VALUE words)
#   fresh_remove DIR              the processes left inside DIR killed, everything under
#                                 DIR unmounted, then DIR removed
#   fresh_remove_stale SUITE      the chroots of runs whose process is gone
# SUITE may name a foreign architecture, SUITE:ARCH (bookworm:arm64): debootstrap
# --arch=ARCH (its programs run under qemu-user through binfmt_misc), and its files are
# named SUITE-ARCH (bookworm-arm64-minbase.tar, bookworm-arm64-archives/, its lock).
# Needs root and debian_chroot.sh (debian_mirror, debian_apt_conf, unmount_under).
source "$(dirname "${BASH_SOURCE[0]}")/debian_chroot.sh"
FRESH_CACHE="${ULID_TSID_CACHE:-/var/cache/ulid_tsid}/buildd"
FRESH_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
mkdir -p "$FRESH_CACHE" "$FRESH_CACHE/../locks"

fresh_name() { echo "${1/:/-}"; }   # SUITE[:ARCH] as its files are named

fresh_lock() {
  exec 7>"$FRESH_CACHE/../locks/buildd-$(fresh_name "$1")"
  flock -n 7 || { echo "   waiting for another run on $1's fresh chroot"; flock 7; }
}

# The tarball: debootstrap's tree with its apt sources and lists, an apt that takes
# sid's expired Release files, and no service started by a package.
fresh_tarball() {
  local suite="${1%%:*}" name log="$2" tar tmp t=$SECONDS mirror arch=()
  name="$(fresh_name "$1")" tar="$FRESH_CACHE/$name-minbase.tar"
  case "$1" in *:*) arch=(--arch="${1#*:}") ;; esac
  if [ -f "$tar" ] && [ -z "$(find "$tar" -mtime "+${FRESH_MAX_DAYS:-14}")" ]; then return 0; fi
  mirror="$(debian_mirror)" || { echo "no Debian mirror in the machine's apt sources" >>"$log"; return 1; }
  tmp="$FRESH_CACHE/$name-minbase.new"
  rm -rf --one-file-system "$tmp"; mkdir -p "$tmp/etc/dpkg/dpkg.cfg.d"
  # No fsync per file; no manuals or translations (nothing here reads them).
  printf '%s\n' force-unsafe-io 'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/locale/*' \
    >"$tmp/etc/dpkg/dpkg.cfg.d/00ulid_tsid"
  local keyring=()
  [ -f "$FRESH_KEYRING" ] && keyring=(--keyring="$FRESH_KEYRING")
  echo "== debootstrap --variant=minbase ${arch[*]} $suite $mirror" >>"$log"
  if ! debootstrap --variant=minbase "${arch[@]}" "${keyring[@]}" "$suite" "$tmp" "$mirror" >>"$log" 2>&1 </dev/null; then
    rm -rf --one-file-system "$tmp"; return 1
  fi
  echo "deb $mirror $suite main" >"$tmp/etc/apt/sources.list"
  debian_apt_conf "$tmp"
  chroot "$tmp" apt-get update >>"$log" 2>&1 </dev/null || { rm -rf --one-file-system "$tmp"; return 1; }
  chroot "$tmp" apt-get clean
  tar -C "$tmp" -cf "$tar.new" . && mv "$tar.new" "$tar"
  rm -rf --one-file-system "$tmp"
  echo "== $name-minbase.tar made in $((SECONDS - t)) s" >>"$log"
}

fresh_chroot() {
  local suite dir="$2"
  suite="$(fresh_name "$1")"
  rm -rf --one-file-system "$dir"; mkdir -p "$dir"
  # In memory (about 2 GB at its largest, for a few minutes): dpkg unpacks some 180
  # packages into it and the removal is instant.
  [ "${FRESH_TMPFS:-1}" = 0 ] || mount -t tmpfs -o size=6g,mode=755 fresh "$dir" || return 1
  tar -C "$dir" -xpf "$FRESH_CACHE/$suite-minbase.tar" || return 1
  mount --bind /proc "$dir/proc"
  mkdir -p "$dir/dev/shm" "$dir/build" "$FRESH_CACHE/$suite-archives/partial" "$dir/var/cache/apt/archives"
  mount -t tmpfs -o mode=1777,size=512m shm "$dir/dev/shm"
  mount --bind "$FRESH_CACHE/$suite-archives" "$dir/var/cache/apt/archives"
}

fresh_in() {
  local dir="$1" user=()
  shift
  if [ "$1" = --user ]; then user=(--userspec="$2:$2"); shift 2; fi
  chroot "${user[@]}" "$dir" /usr/bin/env -i HOME=/build LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    "${FRESH_ENV[@]}" sh -c 'cd /build && "$@"' sh "$@"
}

fresh_remove() {
  [ -n "$1" ] && [ -d "$1" ] || return 0
  # A process left inside (a server a failed step started) holds its mounts.
  local p r n=0
  for p in /proc/[0-9]*; do
    r=$(readlink "$p/root" 2>/dev/null) || continue
    case "$r/" in "$1"/*) kill -KILL "${p#/proc/}" 2>/dev/null && n=$((n + 1)) ;; esac
  done
  [ "$n" -eq 0 ] || { echo "   killed $n processes left in $1"; sleep 1; }
  unmount_under "$1" self || { echo "   mounts remain under $1: left in place"; return 1; }
  rm -rf --one-file-system "$1"
}

fresh_remove_stale() {
  local d
  local name
  name=$(fresh_name "$1")
  for d in "$FRESH_CACHE/run-$name-"[0-9]*; do   # a killed run's chroot (its process is gone);
    # run-SUITE-PID only, not another suite's run-SUITE-arm64-PID
    case "${d##*/run-$name-}" in *[!0-9]*) continue ;; esac
    [ -d "$d" ] && ! kill -0 "${d##*-}" 2>/dev/null && { echo "   removing a stopped run's $d"; fresh_remove "$d"; }
  done
  return 0
}

fresh_up() {
  local suite="$1" dir="$2" log="$3" label="$4" t0=$SECONDS
  fresh_lock "$suite"
  [ $((SECONDS - t0)) -lt 2 ] || echo "   waited $((SECONDS - t0)) s for $suite's fresh chroot"
  fresh_remove_stale "$suite"
  t0=$SECONDS
  fresh_tarball "$suite" "$log"
  check "$label: pristine minbase $suite chroot tarball in the cache ($((SECONDS - t0)) s; log: $log)" \
    test -f "$FRESH_CACHE/$(fresh_name "$suite")-minbase.tar"
  [ -f "$FRESH_CACHE/$(fresh_name "$suite")-minbase.tar" ] || return 1
  t0=$SECONDS
  fresh_chroot "$suite" "$dir" || { check "$label: a fresh $suite chroot unpacked in $dir" false; return 1; }
  echo "   fresh $suite chroot unpacked in $((SECONDS - t0)) s ($dir)"
}
