# shellcheck shell=bash
# Fresh minimal Debian chroots, made anew for each run from a pristine tarball (sourced
# by scripts/suites/buildd.sh and scripts/release-pgxn.sh): what a machine with nothing
# of the extension on it looks like.
#   minbase_tarball SUITE LOG   the pristine chroot of SUITE as a tarball in the cache,
#                               made once (debootstrap --variant=minbase) and again after
#                               MINBASE_MAX_DAYS (14)
#   minbase_lock SUITE          one user of SUITE's tarball and archive cache at a time on
#                               this machine (fd 7; other checkouts' runs wait); flock -u 7
#                               lets the next one in
#   minbase_unpack SUITE DIR    a fresh chroot in DIR (a tmpfs unless MINBASE_TMPFS=0),
#                               /proc, its own /dev/shm, and the suite's cached .debs as
#                               its apt archive directory (a warm run fetches none again)
#   minbase_remove DIR          unmounts everything under DIR and removes it
#   minbase_reap SUITE          removes the chroots of runs whose process is gone
# A run's chroot is $MINBASE_CACHE/run-SUITE-PID, so that one reaper serves every user.
# The cache: ${ULID_TSID_CACHE:-/var/cache/ulid_tsid}/buildd/SUITE-minbase.tar and
# SUITE-archives/. Needs root (debootstrap, chroot, mount).
source "$(dirname "${BASH_SOURCE[0]}")/debian_chroot.sh"
MINBASE_CACHE="${ULID_TSID_CACHE:-/var/cache/ulid_tsid}/buildd"
MINBASE_MAX_DAYS="${BUILDD_MAX_DAYS:-14}"
MINBASE_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# minbase_tarball SUITE LOG: debootstrap's tree, with its apt sources and lists, an apt
# that takes sid's expired Release files, and no service started by a package.
minbase_tarball() {
  local suite="$1" log="$2" tar="$MINBASE_CACHE/$1-minbase.tar" tmp t=$SECONDS mirror
  if [ -f "$tar" ] && [ -z "$(find "$tar" -mtime "+$MINBASE_MAX_DAYS")" ]; then return 0; fi
  mirror="$(debian_mirror)" || { echo "no Debian mirror in the machine's apt sources (or ULID_TSID_DEBIAN_MIRROR)" >>"$log"; return 1; }
  tmp="$MINBASE_CACHE/$suite-minbase.new"
  rm -rf --one-file-system "$tmp"; mkdir -p "$tmp/etc/dpkg/dpkg.cfg.d"
  # No fsync per file; no manuals or translations (nothing here reads them).
  printf '%s\n' force-unsafe-io 'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/locale/*' \
    >"$tmp/etc/dpkg/dpkg.cfg.d/00ulid_tsid"
  local keyring=()
  [ -f "$MINBASE_KEYRING" ] && keyring=(--keyring="$MINBASE_KEYRING")
  echo "== debootstrap --variant=minbase $suite $mirror" >>"$log"
  if ! debootstrap --variant=minbase "${keyring[@]}" "$suite" "$tmp" "$mirror" >>"$log" 2>&1 </dev/null; then
    rm -rf --one-file-system "$tmp"; return 1
  fi
  echo "deb $mirror $suite main" >"$tmp/etc/apt/sources.list"
  debian_apt_conf "$tmp"
  chroot "$tmp" apt-get update >>"$log" 2>&1 </dev/null || { rm -rf --one-file-system "$tmp"; return 1; }
  chroot "$tmp" apt-get clean
  tar -C "$tmp" -cf "$tar.new" . && mv "$tar.new" "$tar"
  rm -rf --one-file-system "$tmp"
  echo "== $suite-minbase.tar made in $((SECONDS - t)) s" >>"$log"
}

minbase_lock() {  # minbase_lock SUITE: holds fd 7
  mkdir -p "$MINBASE_CACHE/../locks"
  exec 7>"$MINBASE_CACHE/../locks/buildd-$1"
  flock -n 7 || { echo "   waiting for another checkout's run on $1's minbase chroot"; flock 7; }
}

minbase_remove() {  # minbase_remove DIR
  unmount_under "$1" self || { echo "   mounts remain under $1: left in place"; return 1; }
  rm -rf --one-file-system "$1"
}

minbase_reap() {  # minbase_reap SUITE: a killed run's chroot (its process is gone)
  local d
  for d in "$MINBASE_CACHE/run-$1-"*; do
    case "${d#"$MINBASE_CACHE/run-$1-"}" in *[!0-9]*) continue ;; esac   # another suite's (bookworm-arm64)
    [ -d "$d" ] && ! kill -0 "${d##*-}" 2>/dev/null && { echo "   removing a stopped run's $d"; minbase_remove "$d"; }
  done
  return 0
}

minbase_unpack() {  # minbase_unpack SUITE DIR
  local suite="$1" dir="$2"
  rm -rf --one-file-system "$dir"; mkdir -p "$dir"
  # In memory (about 2 GB at its largest, for a few minutes for a build): dpkg unpacks
  # some 180 packages into it and the removal is instant.
  [ "${MINBASE_TMPFS:-1}" = 0 ] || mount -t tmpfs -o size=6g,mode=755 minbase "$dir" || return 1
  tar -C "$dir" -xpf "$MINBASE_CACHE/$suite-minbase.tar" || return 1
  mount --bind /proc "$dir/proc"
  mkdir -p "$dir/dev/shm" "$MINBASE_CACHE/$suite-archives/partial" "$dir/var/cache/apt/archives"
  mount -t tmpfs -o mode=1777,size=512m shm "$dir/dev/shm"
  mount --bind "$MINBASE_CACHE/$suite-archives" "$dir/var/cache/apt/archives"
}
