#!/usr/bin/env bash
# The source package as a Debian build daemon builds it: once, not per major.
#  - the source package (.dsc, orig tarball, debian tarball) made by `make deb-source`
#    (scripts/package.sh: `dpkg-source -b` of a `git archive` export of the tree);
#  - for each suite (BUILDD_SUITES, default "sid sid+19 bookworm"): a FRESH minimal chroot
#    (`debootstrap --variant=minbase`, cached pristine as a tarball and unpacked anew
#    each run, into a tmpfs), into which `apt-get build-dep` installs build-essential
#    and the Build-Depends alone (installcheck included: no nocheck profile); then
#    `dpkg-buildpackage -us -uc` as an unprivileged user, without a network (a network
#    namespace of its own: only its loopback, so no other server's port collides with
#    the build's test servers), as buildds build;
#  - checks: the build succeeded; it built one postgresql-MAJOR-ulid-tsid .deb for each
#    major the suite's postgresql-common supports (pg_buildext supported-versions: 18 in
#    sid, 15 in bookworm; sid's postgresql-common does not name experimental's 19, so
#    sid+19 adds 19's server and -dev package from experimental and names both majors in
#    PG_SUPPORTED_VERSIONS, as apt.postgresql.org builds for several) and no other, in
#    one run; its installcheck passed on each of
#    them, every regress test once per major; the suite's lintian (sid's, installed in
#    the chroot after the build; on a bookworm host, the host's, which is bookworm's)
#    finds no error and no warning in the .changes (the .dsc, the .debs, the .buildinfo).
# sid's debian/control is the one in the tree (pg_buildext checkcontrol, run by the
# build's clean, stops the build if it is not current for sid's majors). bookworm and
# sid+19 are a backport's build: `pg_buildext updatecontrol` first, as a backporter's
# sourceful change does.
#
# Cache: ${ULID_TSID_CACHE:-/var/cache/ulid_tsid}/buildd/SUITE-minbase.tar (remade after
# BUILDD_MAX_DAYS, 14), and SUITE-archives/ (the downloaded .debs, so that a warm run
# does not fetch them again; apt still installs each one into the fresh chroot). One run
# per suite at a time ($CACHE/locks/buildd-SUITE). Logs and the built files:
# $LOGS/buildd/SUITE/. Needs root (debootstrap, chroot, mount, unshare) and about 2 GB
# of memory for the tmpfs (BUILDD_TMPFS=0: on disk, slower).
# Measured on 2 cores (`bash scripts/suites/buildd.sh`, the three builds): 234 s from an
# empty cache (each debootstrap about 30 s), 150 to 180 s warm (CPU about 180 s).
#   bash scripts/suites/buildd.sh
#   BUILDD_SUITES="trixie bullseye" BUILDD_DSC=dist/0.4.0/ulid-tsid_0.4.0-1.dsc bash scripts/suites/buildd.sh
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/suite.sh"
source "$ROOT/scripts/lib/fresh_chroot.sh"
cd "$ROOT" || exit 1
BD_CACHE="$FRESH_CACHE"
BD_SUITES="${BUILDD_SUITES:-sid sid+19 bookworm}"
export FRESH_MAX_DAYS="${BUILDD_MAX_DAYS:-14}" FRESH_TMPFS="${BUILDD_TMPFS:-1}"
BD_LOGS="$LOGS/buildd"
bd_started=$SECONDS
rm -rf "$BD_LOGS"; mkdir -p "$BD_LOGS"

if [ "$(id -u)" -ne 0 ]; then check "runs as root (debootstrap, chroot, mount, unshare)" false; exit 1; fi
bd_mirror="$(debian_mirror)" || { check "a Debian mirror in the machine's apt sources (or ULID_TSID_DEBIAN_MIRROR)" false; exit 1; }

# The source package, from the tree at HEAD plus tracked changes; or BUILDD_DSC, one made
# before (scripts/release.sh builds the release's source package once and gives it here).
bd_version=$(sed -n 's/^EXTVERSION *= *//p' Makefile)
bd_deb_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
if [ -n "${BUILDD_DSC:-}" ]; then
  bd_src="$(cd "$(dirname "$BUILDD_DSC")" && pwd)"
  check "source package $BUILDD_DSC (BUILDD_DSC) is ulid-tsid_${bd_deb_version}.dsc" test "${BUILDD_DSC##*/}" = "ulid-tsid_${bd_deb_version}.dsc" -a -f "$BUILDD_DSC"
else
  bd_src="$BD_LOGS/source"
  mkdir -p "$bd_src"
  bd_source() { OUT_DIR="$bd_src" PKG_STAGING="$BD_LOGS/staging" bash scripts/package.sh deb-source >"$BD_LOGS/source.log" 2>&1; }
  check "source package ulid-tsid_${bd_deb_version}.dsc: make deb-source (dpkg-source -b of a git archive export; log: $BD_LOGS/source.log)" \
    bd_source
fi
bd_dsc="$bd_src/ulid-tsid_${bd_deb_version}.dsc"
[ -f "$bd_dsc" ] || exit 1

bd_work=""
bd_cleanup() {  # the run's chroot
  [ -n "$bd_work" ] && [ -d "$bd_work" ] || return 0
  fresh_remove "$bd_work" && bd_work=""
}
trap 'rc=$?; bd_cleanup; (exit $rc); suite_end' EXIT
trap 'exit 143' TERM INT HUP   # a stopped run removes its chroot too

# bd_in [--user] COMMAND...: in the run's chroot, as root or as the build user, in /build.
bd_in() {
  local user=()
  if [ "$1" = --user ]; then user=(--user builder); shift; fi
  local FRESH_ENV=("DEB_BUILD_OPTIONS=parallel=$(nproc)")
  [ -z "$BD_PGSV" ] || FRESH_ENV+=("PG_SUPPORTED_VERSIONS=$BD_PGSV")
  fresh_in "$bd_work" "${user[@]}" "$@"
}

# bd_suite SUITE: one build. SUITE is a Debian suite (sid, bookworm), or sid+19: sid
# with experimental's 19 installed beside the Build-Depends and PG_SUPPORTED_VERSIONS
# naming sid's majors and 19 (as apt.postgresql.org builds for several majors): one
# build, a package for each.
bd_suite() {
  local suite="$1" out="$BD_LOGS/$1" t=$SECONDS t0 rc base="${1%%+*}" extra=""
  case "$suite" in *+*) extra="${suite#*+}" ;; esac
  BD_PGSV=""
  mkdir -p "$out"
  echo "-- $suite"
  # One run of a suite at a time on this machine (other checkouts' runs wait): the
  # tarball and the archive cache are shared.
  bd_work="$BD_CACHE/run-$base-$$"
  fresh_up "$base" "$bd_work" "$out/debootstrap.log" "$suite" || return 1

  # The build user, and the source package in its home.
  bd_in useradd --home-dir /build --no-create-home --user-group builder
  cp "$bd_dsc" "$bd_src"/ulid-tsid_"$bd_version".orig.tar.gz "$bd_src"/ulid-tsid_"${bd_deb_version}".debian.tar.* "$bd_work/build/"
  bd_in chown -R builder:builder /build

  t0=$SECONDS
  bd_in apt-get update >"$out/build-dep.log" 2>&1 &&
    bd_in apt-get build-dep -y "./${bd_dsc##*/}" >>"$out/build-dep.log" 2>&1
  rc=$?
  bd_in apt-get autoclean >/dev/null 2>&1   # the archive cache keeps what the mirror still has
  check "$suite: apt-get build-dep ./${bd_dsc##*/} installs build-essential and the Build-Depends, nocheck not set ($((SECONDS - t0)) s; log: $out/build-dep.log)" test "$rc" -eq 0
  [ "$rc" -eq 0 ] || return 1
  check "$suite: postgresql-all (the servers the build's installcheck runs) came with the Build-Depends" \
    test "$(bd_in dpkg-query -W -f='${db:Status-Status}' postgresql-all 2>/dev/null)" = installed

  bd_in --user dpkg-source -x "${bd_dsc##*/}" src >"$out/dpkg-source.log" 2>&1
  local majors
  majors=$(bd_in sh -c 'cd src && pg_buildext supported-versions' | paste -sd ' ')
  echo "   $base's postgresql-common supports: ${majors:-none}; pgversions: $(grep -v '^#' "$bd_work/build/src/debian/pgversions" | paste -sd ' ')"
  if [ -n "$extra" ]; then
    # A second major beside the suite's: its server and -dev package from experimental.
    t0=$SECONDS
    echo "deb $bd_mirror experimental main" >>"$bd_work/etc/apt/sources.list"
    bd_in apt-get update >"$out/extra.log" 2>&1 &&
      bd_in apt-get install -y -t experimental "postgresql-$extra" "postgresql-server-dev-$extra" >>"$out/extra.log" 2>&1
    rc=$?
    bd_in apt-get autoclean >/dev/null 2>&1
    check "$suite: PostgreSQL $extra's server and -dev package from experimental, beside the Build-Depends ($((SECONDS - t0)) s; log: $out/extra.log)" test "$rc" -eq 0
    BD_PGSV="$majors $extra"
    majors=$(bd_in sh -c 'cd src && pg_buildext supported-versions' | paste -sd ' ')
    echo "   PG_SUPPORTED_VERSIONS=\"$BD_PGSV\": the build's majors are $majors"
  fi
  if [ "$suite" != sid ]; then
    # A backport: debian/control for the suite's majors (sid's is the tree's).
    bd_in --user sh -c 'cd src && pg_buildext updatecontrol' >>"$out/dpkg-source.log" 2>&1
  fi

  # The build: unprivileged, no network (its own namespace, with a loopback for the
  # installcheck's servers: no other server's port can collide with theirs).
  t0=$SECONDS
  unshare --net sh -c 'ip link set lo up && exec "$@"' sh \
    chroot --userspec=builder:builder "$bd_work" /usr/bin/env -i HOME=/build LANG=C.UTF-8 \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin DEB_BUILD_OPTIONS="parallel=$(nproc)" \
      ${BD_PGSV:+PG_SUPPORTED_VERSIONS="$BD_PGSV"} sh -c 'cd /build/src && dpkg-buildpackage -us -uc' >"$out/build.log" 2>&1 </dev/null
  rc=$?
  check "$suite: dpkg-buildpackage -us -uc as an unprivileged user without a network ($((SECONDS - t0)) s; log: $out/build.log)" test "$rc" -eq 0
  grep -E 'needs updating|no initdb program|Unmet build dependencies' "$out/build.log" | head -3 | sed 's/^/   /'

  local debs want m
  debs=$(cd "$bd_work/build" && ls ./*.deb 2>/dev/null | sed 's|^\./||' | grep -v -- '-dbgsym_' | sort | paste -sd ' ')
  want=$(for m in $majors; do echo "postgresql-$m-ulid-tsid_${bd_deb_version}_$(dpkg --print-architecture).deb"; done | sort | paste -sd ' ')
  check "$suite: one package per supported major ($majors): ${debs:-none}" test -n "$want" -a "$debs" = "$want"
  local ran
  ran=$(sed -n 's/^### End \([0-9]*\) installcheck ###$/\1/p' "$out/build.log" | paste -sd ' ')
  check "$suite: the build's installcheck passed on every one of them (passed on: ${ran:-none})" test -n "$ran" -a "$ran" = "$majors"
  local ok bad tests n f
  tests=0   # the pg_regress tests: every sql/*.sql but the extensions' scripts
  for f in sql/*.sql; do case "${f#sql/}" in ulid_tsid--*|ulid_tsid_compat--*) ;; *) tests=$((tests + 1)) ;; esac; done
  n=$(echo $majors | wc -w)
  ok=$(grep -cE '\.\.\. ok|^ok ' "$out/build.log"); bad=$(grep -cE '\.\.\. FAILED|^not ok ' "$out/build.log")
  check "$suite: the build's regress tests: $ok ok ($tests tests x $n majors), $bad failed" test "$ok" -eq $((tests * n)) -a "$bad" -eq 0

  # lintian: the suite's own (the host's when the host runs that suite), on the
  # .changes: the .dsc, the .debs, the .buildinfo. Installed after the build (it is no
  # Build-Depends).
  local changes lintian=(bd_in --user lintian)
  changes="ulid-tsid_${bd_deb_version}_$(dpkg --print-architecture).changes"
  if [ ! -f "$bd_work/build/$changes" ]; then
    check "$suite: lintian: the build made no $changes" false
  else
    t0=$SECONDS
    # shellcheck disable=SC1091
    if [ "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" = "$base" ] && command -v lintian >/dev/null; then
      chmod 755 "$bd_work/build"
      lintian=(runuser -u nobody -- lintian)   # not as root, which lintian warns about
      changes="$bd_work/build/$changes"
    else
      bd_in apt-get install -y lintian >"$out/lintian-install.log" 2>&1
      bd_in apt-get autoclean >/dev/null 2>&1
    fi
    # The changelog's top entry stays UNRELEASED until the release names unstable:
    # unreleased-changes (an error for an upload) says only that.
    # A backport to a suite older than the Standards-Version (bullseye's lintian knows
    # 4.5.1) keeps the source's: newer-standards-version says only that.
    local suppress=unreleased-changes
    [ "$base" = sid ] || suppress+=,newer-standards-version
    "${lintian[@]}" --fail-on error,warning --suppress-tags "$suppress" -I --pedantic --tag-display-limit 0 \
      "$changes" >"$out/lintian.log" 2>&1
    rc=$?
    sed -n '/^[EWIP]: /s/^/   lintian /p' "$out/lintian.log"
    check "$suite: lintian $("${lintian[@]}" --version 2>/dev/null | awk '{print $2}') on the .changes: no error, no warning ($((SECONDS - t0)) s; log: $out/lintian.log)" \
      test "$rc" -eq 0
  fi
  cp "$bd_work"/build/*.deb "$bd_work"/build/*.changes "$bd_work"/build/*.buildinfo "$out/" 2>/dev/null
  t0=$SECONDS
  bd_cleanup
  echo "   $suite: $((SECONDS - t)) s (the chroot removed in $((SECONDS - t0)) s)"
}

for bd_s in $BD_SUITES; do
  bd_suite "$bd_s" || check "$bd_s: the build went on to its end" false
  bd_cleanup
  flock -u 7
done
echo "   buildd suite: $((SECONDS - bd_started)) s"
