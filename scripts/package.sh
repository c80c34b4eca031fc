#!/usr/bin/env bash
# Release artifacts, each made from a git export of the tree (never from the
# checkout itself, whose build they would clean), at the version EXTVERSION in
# the Makefile names; scripts/check-versions.sh runs first and stops the build
# if any other copy of the version disagrees.
#
#   bash scripts/package.sh dist   ulid_tsid-<version>.zip for PGXN (also: make dist)
#   bash scripts/package.sh deb    postgresql-<major>-ulid-tsid_<version>-<rev>_<arch>.deb
#                                  with dpkg-buildpackage, one per major in debian/pgversions
#                                  that the system's postgresql-common supports (also: make
#                                  deb); PG_SUPPORTED_VERSIONS=17 builds for 17 alone, and
#                                  needs 17's server rather than postgresql-all
#   bash scripts/package.sh deb-source   the Debian source package: ulid-tsid_<version>-<rev>.dsc,
#                                  ulid-tsid_<version>.orig.tar.gz (the tree without debian/)
#                                  and ulid-tsid_<version>-<rev>.debian.tar.xz, by dpkg-source -b
#                                  (also: make deb-source); what a buildd builds
#                                  (scripts/suites/buildd.sh)
#   bash scripts/package.sh deb-here   the same in the current directory, an exported
#                                  tree (no git needed: what the package suite runs inside
#                                  a major's chroot, on a tree exported into it)
#
# Both land in the top directory; OUT_DIR=... puts them elsewhere. The export
# is of HEAD plus uncommitted changes to tracked files (git stash create);
# untracked files are left out, as a release from a clean tree would have it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT_DIR="$(mkdir -p "${OUT_DIR:-$ROOT}" && cd "${OUT_DIR:-$ROOT}" && pwd)"
STAGING="${PKG_STAGING:-$ROOT/.cluster/package}"   # the package suite gives each major its own
version=$(sed -n 's/^EXTVERSION *= *//p' Makefile)
mkdir -p "$STAGING"

# deb_build DIR LOG: debian/control for the majors being built (pg_buildext
# updatecontrol: the packages it lists must be the ones built), then the binary packages.
deb_build() {
  (cd "$1" && pg_buildext updatecontrol && deb_build_deps && dpkg-buildpackage -us -uc -b -d -j"$(nproc)") >"$2" 2>&1
}
# deb_build_deps: the Build-Depends, with postgresql-all (<!nocheck>: the servers of
# every major the suite supports, for the build's installcheck) narrowed to the servers
# of the majors being built: PG_SUPPORTED_VERSIONS=17 needs postgresql-17 alone. A
# buildd installs the Build-Depends as they are (scripts/suites/buildd.sh).
deb_build_deps() {
  local v
  dpkg-checkbuilddeps -P nocheck || return 1
  case " ${DEB_BUILD_OPTIONS:-} ${DEB_BUILD_PROFILES:-} " in *[\ ,]nocheck[\ ,]*) return 0 ;; esac
  for v in $(pg_buildext supported-versions); do
    [ -x "/usr/lib/postgresql/$v/bin/initdb" ] && continue
    echo "package.sh: the build's installcheck needs PostgreSQL $v's server: apt-get install postgresql-$v (or postgresql-all), or build with DEB_BUILD_OPTIONS=nocheck" >&2
    return 1
  done
}
if [ "${1:-}" = deb-here ]; then
  log="$(pwd)/../dpkg-buildpackage.log"
  if ! deb_build . "$log"; then tail -40 "$log" >&2; echo "package.sh: dpkg-buildpackage failed (log: $log)" >&2; exit 1; fi
  ls "$(pwd)"/../postgresql-*-ulid-tsid_*.deb
  exit 0
fi
if ! bash scripts/check-versions.sh >"$STAGING/versions.log" 2>&1; then
  grep FAIL "$STAGING/versions.log" >&2
  echo "package.sh: the version copies disagree with EXTVERSION $version: nothing built" >&2
  exit 1
fi

export_tree() {  # export_tree DIR (also: bash scripts/package.sh export DIR): the tree at HEAD plus tracked changes, unpacked into DIR
  local commit
  commit=$(git stash create 2>/dev/null || true)
  if [ -n "$commit" ]; then echo "package.sh: uncommitted changes to tracked files are included" >&2; fi
  rm -rf "$1"; mkdir -p "$1"
  git archive "${commit:-HEAD}" | tar -x -C "$1"
}

case "${1:-}" in
  dist)
    # PGXN wants one top directory named after the release. The install script
    # of the current version is built into it (from src/sql/, by the Makefile's
    # own rule), so that every version's script is in the zip and META.json's
    # provides.file names a file that is there; `make` in the unpacked
    # distribution builds the library and keeps that script.
    top="ulid_tsid-$version"
    export_tree "$STAGING/dist/$top"
    make -s -C "$STAGING/dist/$top" "sql/ulid_tsid--$version.sql" >/dev/null
    rm -f "$OUT_DIR/$top.zip"
    (cd "$STAGING/dist" && zip -qr -X "$OUT_DIR/$top.zip" "$top")
    echo "$OUT_DIR/$top.zip"
    ;;
  deb)
    deb_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
    src="$STAGING/deb/ulid-tsid-$version"
    export_tree "$src"
    log="$STAGING/deb/dpkg-buildpackage.log"
    if ! deb_build "$src" "$log"; then
      tail -40 "$log" >&2
      echo "package.sh: dpkg-buildpackage failed (log: $log)" >&2
      exit 1
    fi
    for deb in "$STAGING"/deb/postgresql-*-ulid-tsid_"${deb_version#*:}"_*.deb; do
      cp "$deb" "$OUT_DIR/"
      echo "$OUT_DIR/$(basename "$deb")"
    done
    ;;
  deb-source)
    # The orig tarball: the export without debian/, its files' times the commit's.
    deb_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
    top="ulid-tsid-$version"
    rm -rf "$STAGING/deb-source"; mkdir -p "$STAGING/deb-source"
    export_tree "$STAGING/deb-source/$top"
    tar -C "$STAGING/deb-source" --exclude="$top/debian" --sort=name --owner=0 --group=0 --numeric-owner \
        --mtime="@$(git log -1 --format=%ct)" -czf "$STAGING/deb-source/ulid-tsid_$version.orig.tar.gz" "$top"
    log="$STAGING/deb-source/dpkg-source.log"
    if ! (cd "$STAGING/deb-source" && dpkg-source -b "$top") >"$log" 2>&1; then
      cat "$log" >&2; echo "package.sh: dpkg-source -b failed" >&2; exit 1
    fi
    for f in "$STAGING/deb-source/ulid-tsid_$version.orig.tar.gz" "$STAGING/deb-source/ulid-tsid_${deb_version#*:}".debian.tar.* \
             "$STAGING/deb-source/ulid-tsid_${deb_version#*:}.dsc"; do
      cp "$f" "$OUT_DIR/"
      echo "$OUT_DIR/${f##*/}"
    done
    ;;
  export)
    export_tree "$2" ;;
  *)
    sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0" >&2
    exit 2
    ;;
esac
