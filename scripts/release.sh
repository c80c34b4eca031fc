#!/usr/bin/env bash
# A release: every file of the version EXTVERSION names, built from a clean tree into
# dist/<version>/, each checked, and each installed the way its users install it.
#
#   bash scripts/release.sh                    (also: make release)
#   RELEASE_CANDIDATE=1 bash scripts/release.sh   a rehearsal before the release commit:
#                                  the tree may carry tracked changes, the CHANGELOG may
#                                  say "Unreleased" and debian/changelog UNRELEASED
#   RELEASE_REUSE=1 RELEASE_MAJORS="19" bash scripts/release.sh   the installs (step 5) again
#                                  on the files dist/<version>/ holds, for the majors named
#   RELEASE_TAG=1 bash scripts/release.sh      when every check passed, tag HEAD v<version>
#                                  (annotated, its message the CHANGELOG entry)
#
# Steps, each a line "ok"/"FAIL" (a failure names its log); the command ends with
# "N passed, N failed" and exits 1 on any failure:
#  1. the tree: no uncommitted change, every copy of the version agrees (make
#     check-versions), the CHANGELOG entry dated, with its upgrade steps and the first
#     one (no next version's entry above it), debian/changelog released (unstable), no
#     tag v<version> on another commit; a tree that fails these stops here;
#  2. the PGXN zip (make dist), checked against the PGXN Meta Spec and installed with
#     `pgxn install` from the file alone in a fresh chroot (scripts/release-pgxn.sh);
#  3. the Debian source package (make deb-source);
#  4. the binary packages built from it as a buildd builds them (scripts/suites/buildd.sh:
#     Build-Depends only, an unprivileged user, no network, installcheck during the
#     build, lintian): sid with experimental's 19 (18 and 19), trixie (17), bookworm
#     (15), bullseye (13);
#  5. each .deb installed into a fresh chroot of its suite with nothing but its Depends
#     (apt-get install ./FILE.deb): CREATE EXTENSION in a cluster made by Debian's
#     pg_createcluster (a cluster "release", beside the package's "main"), not preloaded
#     and preloaded, as a superuser and as a database
#     owner; then the package's own autopkgtest (debian/tests: pg_buildext installcheck)
#     with Debian's autopkgtest, its null runner inside the chroot;
#  5b. arm64 (RELEASE_ARM64=0 leaves it out): the .deb for bookworm's 15 cross-built with
#     Debian's cross toolchain and checked in an arm64 bookworm chroot under qemu-user
#     (scripts/release-arm64.sh); it joins the release files only when that check passed;
#  6. SHA256SUMS over every file and RELEASE.md (the CHANGELOG entry, the files, the
#     majors and suites each .deb is for).
# Logs: .cluster/logs/release/ (RELEASE_LOGS). Needs root (chroots), Debian's mirror, and
# about 17 minutes on 2 cores once the chroot tarballs are cached
# (/var/cache/ulid_tsid/buildd/). Not part of the test command: its `buildd` suite is
# the test command's check of the packaging.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOGS="${RELEASE_LOGS:-$ROOT/.cluster/logs/release}"
export LOGS
source "$ROOT/scripts/lib/suite.sh"
source "$ROOT/scripts/lib/fresh_chroot.sh"
cd "$ROOT" || exit 1
rel_started=$SECONDS
rm -rf "$LOGS"; mkdir -p "$LOGS"
if [ "$(id -u)" -ne 0 ]; then check "runs as root (chroots)" false; exit 1; fi
# What the command needs on this machine, from Debian's packages, before it reads the
# tree (dpkg-parsechangelog is dpkg-dev's): a machine with nothing installed releases too.
echo "-- what the release needs on this machine ($(date -u +%H:%M:%S))"
bash scripts/install-deps.sh --release >"$LOGS/install-deps.log" 2>&1
rc=$?
check "bash scripts/install-deps.sh --release: $(tail -n1 "$LOGS/install-deps.log") (log: $LOGS/install-deps.log)" test "$rc" -eq 0
[ "$SUITE_FAILED" -eq 0 ] || exit 1
version=$(sed -n 's/^EXTVERSION *= *//p' Makefile)
deb_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
arch=$(dpkg --print-architecture)
DIST="$ROOT/dist/$version"
candidate="${RELEASE_CANDIDATE:-0}"
# The suites a .deb is built in, and the majors each gives (checked against the build).
rel_build_suites="sid+19 trixie bookworm bullseye"
declare -A rel_suite_of=([13]=bullseye [15]=bookworm [17]=trixie [18]=sid [19]=sid+19)
declare -A rel_debian_of=([bullseye]="Debian 11 bullseye" [bookworm]="Debian 12 bookworm"
  [trixie]="Debian 13 trixie" [sid]="Debian sid" [sid+19]="Debian sid with experimental's PostgreSQL 19")
rel_step() { echo "-- $1 ($(date -u +%H:%M:%S))"; }
rel_make() {  # rel_make TARGET FILE WHAT: scripts/package.sh TARGET into dist/<version>/, FILE made
  check "make $1: $3 (log: $LOGS/$1.log)" \
    sh -c 'OUT_DIR="$1" PKG_STAGING="$2/staging" bash scripts/package.sh "$3" >"$2/$3.log" 2>&1 && test -f "$4"' sh "$DIST" "$LOGS" "$1" "$2"
}
rel_time=()   # "STEP SECONDS" lines for the summary

# 1. The tree.
rel_step "the tree at $(git rev-parse --short HEAD), version $version (Debian $deb_version)"
t=$SECONDS
if [ "$candidate" = 1 ]; then
  echo "   RELEASE_CANDIDATE=1: a rehearsal; tracked changes are built in, the dates are not required"
else
  check "no uncommitted change to a tracked file (git status)" test -z "$(git status --porcelain --untracked-files=no)"
fi
check "every copy of the version agrees with EXTVERSION $version (make check-versions; log: $LOGS/versions.log)" \
  sh -c 'bash scripts/check-versions.sh >"$1" 2>&1' sh "$LOGS/versions.log"
changelog_head=$(grep -m1 "^## $version " CHANGELOG.md)
debian_dist=$(dpkg-parsechangelog -l debian/changelog -S Distribution)
if [ "$candidate" = 1 ]; then
  echo "   (not required of a rehearsal) CHANGELOG: '$changelog_head'; debian/changelog: $debian_dist"
else
  check "CHANGELOG.md's entry is dated: '$changelog_head'" \
    grep -qE "^## $version \([0-9]{4}-[0-9]{2}-[0-9]{2}\)" CHANGELOG.md
  check "debian/changelog's entry $deb_version is released: $debian_dist" test "$debian_dist" = unstable
  check "CHANGELOG.md's entry says how to upgrade (**Upgrading ...:**)" \
    sh -c "sed -n '/^## $version /,/^## /p' CHANGELOG.md | grep -q '^\*\*Upgrading'"
  # After a release the next version's "Unreleased" entry goes on top while EXTVERSION
  # stays until an SQL object changes: that tree is not the release, though its entry is dated.
  check "CHANGELOG.md's first entry is $version's: '$(grep -m1 '^## ' CHANGELOG.md)'" \
    test "$(grep -m1 '^## ' CHANGELOG.md)" = "$changelog_head"
  tagged=$(git rev-parse -q --verify "refs/tags/v$version^{commit}" || true)
  check "no tag v$version on another commit${tagged:+ (it is on ${tagged:0:12})}" \
    test -z "$tagged" -o "$tagged" = "$(git rev-parse HEAD)"
  if [ "$SUITE_FAILED" -ne 0 ]; then
    echo "   the tree is not a release of $version: stopped before building (RELEASE_CANDIDATE=1 rehearses)"
    exit 1
  fi
fi
[ "${RELEASE_REUSE:-0}" = 1 ] || rm -rf "$DIST"
mkdir -p "$DIST"
rel_time+=("tree $((SECONDS - t))")

rel_reuse="${RELEASE_REUSE:-0}"
dsc="$DIST/ulid-tsid_$deb_version.dsc"
if [ "$rel_reuse" = 1 ]; then
  echo "   RELEASE_REUSE=1: the files already in dist/$version/ are installed again (steps 2 to 4 skipped; never tagged)"
else
  # 2. The PGXN zip.
  rel_step "the PGXN zip"
  t=$SECONDS
  zip="$DIST/ulid_tsid-$version.zip"
  rel_make dist "$zip" "$zip"
  if [ -f "$zip" ]; then
    bash scripts/release-pgxn.sh "$zip" "$LOGS/pgxn" >"$LOGS/pgxn.log" 2>&1
    rc=$?
    grep -E '^ *(ok|FAIL) ' "$LOGS/pgxn.log" | sed 's/^ */   pgxn: /'
    check "the zip checked and installed by pgxn from the file alone: $(tail -1 "$LOGS/pgxn.log") (log: $LOGS/pgxn.log)" test "$rc" -eq 0
  fi
  rel_time+=("pgxn $((SECONDS - t))")

  # 3. The Debian source package.
  rel_step "the Debian source package"
  t=$SECONDS
  dsc="$DIST/ulid-tsid_$deb_version.dsc"
  rel_make deb-source "$dsc" "${dsc##*/}, its orig and debian tarballs"
  rel_time+=("source $((SECONDS - t))")

  # 4. The binary packages, as a buildd builds them.
  rel_step "the binary packages: $rel_build_suites"
  t=$SECONDS
  if [ -f "$dsc" ]; then
    BUILDD_SUITES="$rel_build_suites" BUILDD_DSC="$dsc" LOGS="$LOGS" bash scripts/suites/buildd.sh >"$LOGS/buildd.out" 2>&1
    rc=$?
    grep -E '^ *(ok|FAIL) ' "$LOGS/buildd.out" | sed 's/^ */   buildd: /'
    check "every build as a buildd builds it: $(tail -1 "$LOGS/buildd.out") (log: $LOGS/buildd.out)" test "$rc" -eq 0
    for m in "${!rel_suite_of[@]}"; do
      deb="postgresql-$m-ulid-tsid_${deb_version}_$arch.deb"
      src=$(ls "$LOGS"/buildd/*/"$deb" 2>/dev/null | head -1)
      [ -n "$src" ] && cp "$src" "$DIST/"
    done
  fi
  rel_time+=("build $((SECONDS - t))")

fi

# 5. Each .deb where its users install it.
# rel_install MAJOR: a fresh chroot of the major's suite, the .deb with its Depends alone,
# a cluster by pg_createcluster (not preloaded, then preloaded), then autopkgtest.
rel_install() {
  local m="$1" suite="${rel_suite_of[$1]}" base="${rel_suite_of[$1]%%+*}" dir out t0 rc
  local deb="postgresql-$m-ulid-tsid_${deb_version}_$arch.deb"
  out="$LOGS/install/$suite"; mkdir -p "$out"
  echo "   $deb in $suite"
  if [ ! -f "$DIST/$deb" ]; then check "$m: $deb was built" false; return 1; fi
  dir="$FRESH_CACHE/run-$base-$$"
  rel_dir="$dir"
  fresh_up "$base" "$dir" "$out/debootstrap.log" "$m" || return 1
  if [ "$suite" != "$base" ]; then   # sid+19: 19's server is experimental's
    echo "deb $(debian_mirror) experimental main" >>"$dir/etc/apt/sources.list"
  fi
  cp "$DIST/$deb" "$dir/build/"
  t0=$SECONDS
  fresh_in "$dir" apt-get update >"$out/install.log" 2>&1 &&
    if [ "$suite" != "$base" ]; then
      # As a sid machine takes a server from experimental: sid's perl and
      # postgresql-common, then the server, its client and libpq5 from experimental and
      # the rest from sid (-t experimental would take experimental's perl and libc6 too).
      fresh_in "$dir" apt-get install -y perl postgresql-common >>"$out/install.log" 2>&1 &&
        fresh_in "$dir" apt-get install -y "postgresql-$m/experimental" "postgresql-client-$m/experimental" \
          libpq5/experimental >>"$out/install.log" 2>&1
    fi &&
    fresh_in "$dir" apt-get install -y "./$deb" >>"$out/install.log" 2>&1
  rc=$?
  check "$m: apt-get install ./$deb in a fresh $base chroot, nothing but its Depends: $(dpkg-deb -f "$DIST/$deb" Depends) ($((SECONDS - t0)) s; log: $out/install.log)" test "$rc" -eq 0
  [ "$rc" -eq 0 ] || return 1
  check "$m: its Depends name the server it was built for, postgresql-$m" \
    sh -c 'dpkg-deb -f "$1" Depends | tr "," "\n" | grep -qxE " *postgresql-$2( \(.*\))?"' sh "$DIST/$deb" "$m"
  check "$m: the package's files are where PostgreSQL $m looks (ulid_tsid.so, ulid_tsid.control)" \
    test -f "$dir/usr/lib/postgresql/$m/lib/ulid_tsid.so" -a -f "$dir/usr/share/postgresql/$m/extension/ulid_tsid.control"

  # A cluster as Debian makes one, on a port no host cluster uses.
  local port=$((54900 + m)) sql=()
  # One -c a statement: psql shows only the last result of a -c that holds several.
  sql=(-c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'"
       -c "SELECT preloaded, library_version, extension_version FROM ulid_tsid_status()"
       -c "SELECT ulid_timestamp(generate_ulid()) > now() - interval '1 minute',
                  tsid_timestamp(generate_tsid()) > now() - interval '1 minute',
                  uuidv7_timestamp(generate_uuidv7()) > now() - interval '1 minute'")
  # The server's package made a cluster "main" (not started: no service starts in the
  # chroot); a cluster of our own, as a DBA adds one.
  fresh_in "$dir" pg_createcluster -p "$port" "$m" release --start >"$out/cluster.log" 2>&1
  check "$m: pg_createcluster $m release --start (port $port; log: $out/cluster.log)" test $? -eq 0
  rel_psql() {  # rel_psql DB SQL...: as postgres, -At, into the cluster log
    fresh_in "$dir" runuser -u postgres -- psql -X -qAt -v ON_ERROR_STOP=1 -p "$port" -d "$@" 2>>"$out/cluster.log"
  }
  local got want
  got=$(rel_psql postgres -c "CREATE EXTENSION ulid_tsid" -c "CREATE EXTENSION ulid_tsid_compat" "${sql[@]}" | paste -sd ' ')
  want="$version f|$version|$version t|t|t"
  check "$m, not preloaded, superuser: CREATE EXTENSION ulid_tsid and ulid_tsid_compat; version, status, a key of each kind now: '$got'" test "$got" = "$want"
  got=$(rel_psql postgres -c "CREATE ROLE app LOGIN" -c "CREATE DATABASE app OWNER app" &&
        rel_psql app -c "SET ROLE app" -c "CREATE EXTENSION ulid_tsid" -c "SELECT extowner::regrole FROM pg_extension WHERE extname = 'ulid_tsid'")
  check "$m: a database owner without superuser creates the (trusted) extension: owner '$got'" test "$got" = app
  fresh_in "$dir" pg_conftool "$m" release set shared_preload_libraries ulid_tsid >>"$out/cluster.log" 2>&1 &&
    fresh_in "$dir" pg_ctlcluster "$m" release restart >>"$out/cluster.log" 2>&1
  check "$m: shared_preload_libraries = 'ulid_tsid' (pg_conftool), pg_ctlcluster restart" test $? -eq 0
  got=$(rel_psql app "${sql[@]}" | paste -sd ' ')
  want="$version t|$version|$version t|t|t"
  check "$m, preloaded: version, status, a key of each kind now: '$got'" test "$got" = "$want"
  fresh_in "$dir" pg_ctlcluster "$m" release stop >>"$out/cluster.log" 2>&1
  fresh_in "$dir" pg_dropcluster "$m" release >>"$out/cluster.log" 2>&1

  # The package's own test, as Debian's CI runs it: autopkgtest on the source tree
  # (its debian/control for this suite's majors, as a backport's is) with the .deb.
  t0=$SECONDS
  # autopkgtest, and pg_buildext (postgresql-server-dev-all) for the source's
  # debian/control of this suite's major; experimental's 19 needs its own -dev package.
  # On sid+19 the server brought experimental's libpq5: libpq-dev and 19's -dev package
  # come from there too (sid's libpq-dev wants sid's libpq5), the rest from sid.
  local devs=(postgresql-server-dev-all)
  [ "$suite" = "$base" ] || devs+=(libpq-dev/experimental "postgresql-server-dev-$m/experimental")
  fresh_in "$dir" apt-get install -y autopkgtest dpkg-dev "${devs[@]}" >"$out/autopkgtest-install.log" 2>&1
  check "$m: autopkgtest and ${devs[*]} installed (log: $out/autopkgtest-install.log)" test $? -eq 0
  cp "$dsc" "$DIST"/ulid-tsid_"$version".orig.tar.gz "$DIST"/ulid-tsid_"$deb_version".debian.tar.* "$dir/build/"
  local FRESH_ENV=()
  [ "$suite" = "$base" ] || FRESH_ENV=("PG_SUPPORTED_VERSIONS=$m")
  fresh_in "$dir" sh -c 'dpkg-source -x "$1" src && cd src && { [ "$2" = sid ] || pg_buildext updatecontrol; }' sh "${dsc##*/}" "$suite" \
    >"$out/autopkgtest.log" 2>&1
  fresh_in "$dir" autopkgtest ${FRESH_ENV[0]:+--env="${FRESH_ENV[0]}"} --output-dir /build/autopkgtest-out \
    /build/src "/build/$deb" -- null >>"$out/autopkgtest.log" 2>&1
  rc=$?
  local summary
  summary=$(sed -n '/@@@@@@@@@@@@@@@@@@@@ summary$/,$p' "$out/autopkgtest.log" | sed 1d |
            grep -E '^[A-Za-z0-9_.+-]+ +(PASS|FAIL|SKIP|FLAKY|NEUTRAL)' | tr -s ' ' | paste -sd ';')
  check "$m: autopkgtest $(fresh_in "$dir" dpkg-query -W -f='${Version}' autopkgtest 2>/dev/null) (null runner, in the $base chroot): ${summary:-no summary} ($((SECONDS - t0)) s; log: $out/autopkgtest.log)" \
    test "$rc" -eq 0 -a "$summary" = "installcheck PASS"
  local ran
  ran=$(grep -cE '\.\.\. ok|^ok ' "$out/autopkgtest.log")
  echo "   $m: autopkgtest ran $ran regress tests ok"
  fresh_remove "$dir" && rel_dir=""
}
rel_dir=""
trap 'rc=$?; [ -z "$rel_dir" ] || fresh_remove "$rel_dir"; (exit $rc); suite_end' EXIT
trap 'exit 143' TERM INT HUP
rel_step "each .deb installed where its users install it"
t=$SECONDS
for m in ${RELEASE_MAJORS:-13 15 17 18 19}; do
  t0=$SECONDS
  rel_install "$m" || check "$m: the install checks went on to their end" false
  [ -z "$rel_dir" ] || { fresh_remove "$rel_dir"; rel_dir=""; }
  flock -u 7 2>/dev/null
  rel_time+=("install-$m $((SECONDS - t0))")
done

# 5b. arm64: the .deb for bookworm's 15 cross-built and checked under qemu-user
# (scripts/release-arm64.sh); a release file only when every check there passed.
rel_arm64=""
if [ "${RELEASE_ARM64:-1}" = 1 ] && [ "$rel_reuse" != 1 ] && [ -f "$dsc" ]; then
  rel_step "arm64: cross-built for bookworm's 15, checked in an arm64 chroot under qemu"
  t=$SECONDS
  ARM64_DSC="$dsc" ARM64_OUT="$LOGS/arm64-out" ARM64_LOGS="$LOGS/arm64" bash scripts/release-arm64.sh >"$LOGS/arm64.out" 2>&1
  rc=$?
  grep -E '^ *(ok|FAIL) ' "$LOGS/arm64.out" | sed 's/^ */   arm64: /'
  check "arm64: $(tail -1 "$LOGS/arm64.out") (log: $LOGS/arm64.out)" test "$rc" -eq 0
  rel_arm64="postgresql-15-ulid-tsid_${deb_version}_arm64.deb"
  if [ "$rc" -eq 0 ] && [ -f "$LOGS/arm64-out/$rel_arm64" ]; then cp "$LOGS/arm64-out/$rel_arm64" "$DIST/"; else rel_arm64=""; fi
  rel_time+=("arm64 $((SECONDS - t))")
else
  echo "   RELEASE_ARM64=0: no arm64 package"
fi

# 6. Checksums and the release notes.
rel_step "SHA256SUMS and RELEASE.md"
{
  echo "# ulid_tsid $version"
  echo
  sed -n "/^## $version /,/^## /p" CHANGELOG.md | sed '$d' | sed '1s/^## /## Changes in /'
  echo "## Files"
  echo
  echo "Check them with \`sha256sum -c SHA256SUMS\`."
  echo
  echo "| file | for | bytes |"
  echo "|---|---|---:|"
  for f in "$DIST"/*; do
    n=${f##*/}
    case "$n" in
      *.zip) for="PGXN: \`pgxn install ./$n\`, or unzip, \`make\`, \`make install\` (PostgreSQL 13 to 19)" ;;
      *.dsc) for="Debian source package (with the two tarballs below): \`dpkg-source -x $n\`" ;;
      *.orig.tar.gz|*.debian.tar.*) for="Debian source package" ;;
      postgresql-*-ulid-tsid_*_arm64.deb)
        m=${n#postgresql-}; m=${m%%-*}
        for="PostgreSQL $m from ${rel_debian_of[${rel_suite_of[$m]}]} on arm64, cross-built, checked under qemu-user (\`sudo apt-get install ./$n\`)" ;;
      postgresql-*-ulid-tsid_*.deb)
        m=${n#postgresql-}; m=${m%%-*}
        for="PostgreSQL $m from ${rel_debian_of[${rel_suite_of[$m]}]} (\`sudo apt-get install ./$n\`)" ;;
      *) continue ;;
    esac
    echo "| \`$n\` | $for | $(stat -c %s "$f") |"
  done
} >"$DIST/RELEASE.md"
(cd "$DIST" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%P\n' | sort | xargs sha256sum >SHA256SUMS)
check "SHA256SUMS over every file, and it verifies (sha256sum -c)" sh -c 'cd "$1" && sha256sum --quiet -c SHA256SUMS' sh "$DIST"
want_files=$(printf '%s\n' "ulid_tsid-$version.zip" "ulid-tsid_$deb_version.dsc" "ulid-tsid_$version.orig.tar.gz" \
  RELEASE.md SHA256SUMS $(for m in 13 15 17 18 19; do echo "postgresql-$m-ulid-tsid_${deb_version}_$arch.deb"; done) $rel_arm64 | sort | paste -sd ' ')
have_files=$(cd "$DIST" && ls | grep -v '\.debian\.tar\.' | sort | paste -sd ' ')
check "dist/$version holds the zip, the source package, a .deb for each of 13 15 17 18 19, RELEASE.md and SHA256SUMS" \
  test "$have_files" = "$want_files"

echo "-- dist/$version:"
(cd "$DIST" && for f in *; do printf '   %-48s %10s bytes  sha256 %s\n' "$f" "$(stat -c %s "$f")" "$(sha256sum "$f" | cut -c1-16)"; done)
echo "-- time: ${rel_time[*]} (s); total $((SECONDS - rel_started)) s"

if [ "${RELEASE_TAG:-0}" = 1 ]; then
  if [ "$SUITE_FAILED" -eq 0 ] && [ "$candidate" != 1 ] && [ "$rel_reuse" != 1 ]; then
    sed -n "/^## $version /,/^## /p" CHANGELOG.md | sed '$d' >"$LOGS/tag-message"
    check "annotated tag v$version on $(git rev-parse --short HEAD)" git tag -a "v$version" -F "$LOGS/tag-message"
  else
    echo "   no tag: a rehearsal, or a check failed"
  fi
fi
