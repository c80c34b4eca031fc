# A Debian package for one major's server (sourced after scripts/lib/pg.sh, never
# run): what users install, where the major's Debian suite has it.
#   debian_pkg PKG   -> 0: installed (already, or now into the major's chroot with
#                         apt-get --no-install-recommends); DEBIAN_PKG_VERSION is its
#                         version;
#                       1: apt failed (the log's tail is shown);
#                       2: not here: the chroot's suite has no PKG, or on the host
#                          (15) it is not installed (the host's packages come from
#                          scripts/install-deps.sh, never from a suite); DEBIAN_PKG_WHY
#                          says so in one line.
# One apt at a time per chroot (the chroot itself is held shared by lib/pg.sh), under
# the lock scripts/lib/vendor.sh takes for it.
DEBIAN_PKG_VERSION=""
DEBIAN_PKG_WHY=""
debian_pkg() {
  local pkg="$1" candidate log="$LOGS/apt-$1.log"
  DEBIAN_PKG_VERSION="" DEBIAN_PKG_WHY=""
  debian_pkg_version() { pg_in dpkg-query -W -f='${Status} ${Version}' "$pkg" 2>/dev/null | awk '$3 == "installed" { print $4 }'; }
  DEBIAN_PKG_VERSION="$(debian_pkg_version)"
  [ -n "$DEBIAN_PKG_VERSION" ] && return 0
  if [ -z "$PG_CHROOT" ]; then
    DEBIAN_PKG_WHY="$pkg is not installed on the host"; return 2
  fi
  candidate="$(pg_in apt-cache policy "$pkg" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')"
  if [ -z "$candidate" ] || [ "$candidate" = "(none)" ]; then
    DEBIAN_PKG_WHY="Debian has no $pkg (apt-cache policy in the $(basename "$PG_CHROOT") chroot finds none)"; return 2
  fi
  echo "   installing $pkg $candidate into the $(basename "$PG_CHROOT") chroot"
  if ! ( flock 9; [ -n "$(debian_pkg_version)" ] || pg_in env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 \
           install -y --no-install-recommends "$pkg" </dev/null
       ) 9>>"$ULID_TSID_CACHE/locks/citus-apt-$(basename "$PG_CHROOT")" >"$log" 2>&1; then
    tail -5 "$log"; return 1
  fi
  DEBIAN_PKG_VERSION="$(debian_pkg_version)"
}
