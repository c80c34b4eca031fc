#!/usr/bin/env bash
# Packages, on one major: the ways users install the extension, end to end, where
# that major's server is (the host's 15, or the major's chroot).
#  - versions: every copy of the version agrees with EXTVERSION (scripts/check-versions.sh)
#  - PGXN: `make dist`'s zip passes the release's checks (scripts/release-pgxn.sh
#    --zip-only: one top directory, a valid META.json whose files exist, every script,
#    nothing else); Debian's pgxnclient (the chroot's own) installs it and loads it
#    into a database
#  - Debian: the tree exported into the server's filesystem, with none of the
#    extension's files installed into the server (as on a buildd), `make deb`'s build
#    (pg_buildext updatecontrol, dpkg-buildpackage for this major alone; its build
#    runs the regress suites on the staged files) makes postgresql-MAJOR-ulid-tsid;
#    lintian finds no error; `apt-get install ./file.deb` installs exactly the
#    control file, every install and upgrade script, the library (and its LLVM
#    bitcode, and the docs); CREATE EXTENSION works from those files alone; the
#    regress suites (the package's autopkgtest) pass against them; its scripts are
#    byte for byte the ones the upgrade suite checked; `apt-get remove` leaves none of
#    them behind.
# The extension's files found in the server at the start are put back at the end,
# whatever happened in between.
#   PG_MAJOR=17 bash scripts/suites/package.sh   (after scripts/suites/build.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
pkg_pass=0; pkg_fail=0
pkg_check() {  # pkg_check DESCRIPTION COMMAND...: one pass or fail
  local what="$1"; shift
  if "$@"; then pkg_pass=$((pkg_pass + 1)); echo "   ok   $what"
  else pkg_fail=$((pkg_fail + 1)); echo "   FAIL $what"; fi
}
pkg_count() {  # pkg_count LOG: adds its "   ok"/"   FAIL" lines (check-*.sh, check-meta.py)
  local ok bad
  ok=$(grep -c '^   ok ' "$1"); bad=$(grep -c '^   FAIL ' "$1")
  grep '^   \(ok\|FAIL\) ' "$1"
  pkg_pass=$((pkg_pass + ok)); pkg_fail=$((pkg_fail + bad))
}
pkg_regress_count() {  # pkg_regress_count LOG WHAT: pg_regress's per-test lines as passes and fails
  local ok bad
  ok=$(grep -cE '\.\.\. ok|^ok ' "$1"); bad=$(grep -cE '\.\.\. FAILED|^not ok ' "$1")
  echo "   $2: $ok tests ok, $bad failed (log: $1)"
  grep -E '\.\.\. FAILED|^not ok ' "$1" || true
  pkg_pass=$((pkg_pass + ok)); pkg_fail=$((pkg_fail + bad))
}
pkg_end() { tally package "$pkg_pass" "$pkg_fail"; }
trap 'rc=$?; pkg_end; (exit $rc); suite_end' EXIT

pkg_started=$SECONDS
# pg_virtualenv's clusters (the build's test, the autopkgtest) listen on localhost:
# a port per major, as majors may run side by side.
pkg_port=$((55500 + PG_MAJOR))
pkg_out="$LOGS/package-$PG_MAJOR"
rm -rf "$pkg_out"; mkdir -p "$pkg_out"
pkg_version=$(sed -n 's/^EXTVERSION *= *//p' Makefile)
pkg_name="postgresql-$PG_MAJOR-ulid-tsid"
pkg_sharedir=$(pg_in "$PG_CONFIG" --sharedir)   # as seen from inside
pkg_libdir=$(pg_in "$PG_CONFIG" --pkglibdir)
# Where packages are built and the zip is put, inside the server's filesystem.
pkg_work="${PG_CHROOT:-$ROOT/.cluster}/build/pkg-$PG_KEY-$PG_MAJOR"
[ -z "$PG_CHROOT" ] && pkg_work="$ROOT/.cluster/package/$PG_MAJOR"
rm -rf "$pkg_work"; mkdir -p "$pkg_work"
# The server's ulid_tsid files (the control file, scripts, library, bitcode), as
# host paths, and their checksums.
pkg_installed_files() {
  find "$PG_CHROOT$pkg_sharedir/extension" "$PG_CHROOT$pkg_libdir" "$PG_CHROOT$pkg_libdir/bitcode" -maxdepth 1 -name 'ulid_tsid*' 2>/dev/null
}
pkg_install_sums() {
  pkg_installed_files | while read -r f; do find "$f" -type f; done | sort | xargs -r md5sum
}
pkg_saved="$pkg_out/saved-install"
pkg_saved_sums=$(pkg_install_sums)
mkdir -p "$pkg_saved"
pkg_installed_files | while read -r f; do find "$f" -type f; done | while read -r f; do
  mkdir -p "$pkg_saved${f%/*}" && cp -a "$f" "$pkg_saved$f"
done
pkg_restore() {
  pkg_installed_files | xargs -r rm -rf
  (cd "$pkg_saved" && find . -type f) | while read -r f; do
    mkdir -p "$(dirname "${f#.}")" && cp -a "$pkg_saved/$f" "${f#.}"
  done
  pkg_check "the server's ulid_tsid files are back as found ($(echo "$pkg_saved_sums" | grep -c .) files)" \
    test "$(pkg_install_sums)" = "$pkg_saved_sums"
}
trap 'rc=$?; pkg_restore; pkg_end; (exit $rc); suite_end' EXIT
# As on a build machine: none of the extension's files in the server.
pkg_installed_files | xargs -r rm -rf

echo "-- versions"
bash scripts/check-versions.sh >"$pkg_out/versions.log" 2>&1
pkg_count "$pkg_out/versions.log"

echo "-- PGXN distribution"
pkg_zip=""
if PKG_STAGING="$pkg_work/staging" OUT_DIR="$pkg_work" bash scripts/package.sh dist >"$pkg_out/dist.log" 2>&1; then
  pkg_zip=$(tail -1 "$pkg_out/dist.log")
fi
pkg_check "make dist wrote ulid_tsid-$pkg_version.zip (log: $pkg_out/dist.log)" test "$pkg_zip" = "$pkg_work/ulid_tsid-$pkg_version.zip"
if [ -n "$pkg_zip" ]; then   # the release's own checks of the zip, the install aside
  bash scripts/release-pgxn.sh --zip-only "$pkg_zip" "$pkg_out/release-pgxn" >"$pkg_out/zip.log" 2>&1
  pkg_count "$pkg_out/zip.log"
fi

echo "-- Debian package"
pkg_deb=""
pkg_t=$SECONDS
pkg_src="$pkg_work/deb/ulid-tsid-$pkg_version"
PKG_STAGING="$pkg_work/staging" bash scripts/package.sh export "$pkg_src" 2>"$pkg_out/export.log"
# The build's own test (dh_pgxs_test) runs a throwaway cluster through pg_virtualenv on $pkg_port.
if (cd "$pkg_src" && PGPORT="$pkg_port" PG_SUPPORTED_VERSIONS="$PG_MAJOR" PG_PASS_ENV="PG_SUPPORTED_VERSIONS" \
      pg_in bash scripts/package.sh deb-here) >"$pkg_out/deb.log" 2>&1; then
  pkg_deb="$(tail -1 "$pkg_out/deb.log")"   # a path under the chroot means the same inside and out
  case "$pkg_deb" in "$PG_CHROOT"/*) ;; *) pkg_deb="$PG_CHROOT$pkg_deb" ;; esac
  pkg_deb="$(readlink -m "$pkg_deb")"
fi
pkg_check "make deb built $pkg_name, with no ulid_tsid file in the server (log: $pkg_out/deb.log, $((SECONDS - pkg_t)) s)" test -f "$pkg_deb"
if [ -f "$pkg_deb" ]; then
  case "${pkg_deb##*/}" in "${pkg_name}_$pkg_version-"*"_$(dpkg --print-architecture).deb") pkg_named=1 ;; *) pkg_named=0 ;; esac
  pkg_check "the package is named ${pkg_name}_<EXTVERSION>-<revision>_<arch>.deb: ${pkg_deb##*/}" test "$pkg_named" = 1
  pkg_check "it is the only package built, besides its -dbgsym (pg_buildext for $PG_MAJOR alone)" \
    test "$(ls "$pkg_work"/deb/*.deb | grep -vc -- '-dbgsym_')" -eq 1
  pkg_regress_count "$pkg_work/deb/dpkg-buildpackage.log" "the build's regress run on the staged files"
  lintian --tag-display-limit 0 -I --pedantic "$pkg_deb" >"$pkg_out/lintian.log" 2>&1
  pkg_lintian_rc=$?
  sed -n '/^[EWIP]: /s/^/   lintian /p' "$pkg_out/lintian.log"
  pkg_check "lintian: no error (other tags listed above; log: $pkg_out/lintian.log)" \
    test "$pkg_lintian_rc" -eq 0 -a "$(grep -c '^E: ' "$pkg_out/lintian.log")" -eq 0

  # What the package must hold, derived from the tree it was built from.
  {
    echo "$pkg_sharedir/extension/ulid_tsid.control"
    echo "$pkg_sharedir/extension/ulid_tsid_compat.control"
    for f in "$pkg_src"/sql/ulid_tsid--*.sql "$pkg_src"/sql/ulid_tsid_compat--*.sql "sql/ulid_tsid--$pkg_version.sql"; do
      echo "$pkg_sharedir/extension/${f##*/}"
    done
    echo "$pkg_libdir/ulid_tsid.so"
    if pg_in "$PG_CONFIG" --configure | grep -q -- --with-llvm; then
      echo "$pkg_libdir/bitcode/ulid_tsid.index.bc"
      (cd "$pkg_src" && ls src/core/*.cpp src/pg/*.cpp) | sed "s|^|$pkg_libdir/bitcode/ulid_tsid/|; s|\.cpp\$|.bc|"
    fi
    # dh_installchangelogs ships CHANGELOG.md as the upstream changelog.
    for f in README.md.gz changelog.Debian.gz changelog.gz copyright; do echo "/usr/share/doc/$pkg_name/$f"; done
  } | sort -u >"$pkg_out/expected-files"

  # 18's and 19's packages install into one chroot (sid), and the autopkgtest
  # (pg_buildext installcheck) tests every major whose package dpkg lists as installed:
  # from its apt-get install to its apt-get remove, a major's package is the only one
  # there (19's, installed and removed beside it, once failed 18's run on 19).
  if [ -n "$PG_CHROOT" ]; then
    exec 4>>"$ULID_TSID_CACHE/locks/package-$(basename "$PG_CHROOT")"
    flock -n 4 || { echo "   waiting for the other major's package in $(basename "$PG_CHROOT")"; flock 4; }
  fi
  DEBIAN_FRONTEND=noninteractive PG_PASS_ENV=DEBIAN_FRONTEND pg_in apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "$pkg_deb" >"$pkg_out/apt-install.log" 2>&1
  pkg_check "apt-get install ./${pkg_deb##*/} (log: $pkg_out/apt-install.log)" \
    test "$(pg_in dpkg-query -W -f='${Status} ${Version}' "$pkg_name" 2>/dev/null)" = "install ok installed $(dpkg-deb -f "$pkg_deb" Version)"
  pg_in dpkg -L "$pkg_name" 2>/dev/null | while read -r f; do [ -d "$PG_CHROOT$f" ] || echo "$f"; done | sort >"$pkg_out/installed-files"
  pkg_check "dpkg -L: exactly the control file, $(grep -c '\.sql$' "$pkg_out/expected-files") scripts, the library, its bitcode, the docs" \
    diff -u "$pkg_out/expected-files" "$pkg_out/installed-files"
  pkg_check "every file the package lists is on disk" \
    bash -c 'while read -r f; do [ -f "$2$f" ] || { echo "missing: $f"; exit 1; }; done <"$1"' _ "$pkg_out/installed-files" "$PG_CHROOT"
  pkg_check "the server's ulid_tsid files are the package's and nothing else" \
    test "$(pkg_installed_files | while read -r f; do find "$f" -type f; done | sed "s|^$PG_CHROOT||" | sort)" = \
         "$(grep -E '/(extension|lib)/' "$pkg_out/installed-files" | grep -v '/doc/' | sort)"

  cluster_start package_deb 55457 && {
    pkg_check "CREATE EXTENSION from the packaged files alone: $(psql -qXAt -c 'CREATE EXTENSION ulid_tsid' -c "SELECT extversion || ' ' || length(generate_ulid()::text) FROM pg_extension WHERE extname = 'ulid_tsid'" 2>&1 | tr '\n' ' ')" \
      test "$(psql -qXAt -c "SELECT extversion || ' ' || length(generate_ulid()::text) FROM pg_extension WHERE extname = 'ulid_tsid'" 2>&1)" = "$pkg_version 26"
    cluster_stop package_deb
  }

  # The package's autopkgtest (debian/tests/installcheck: pg_buildext installcheck)
  # against the installed files, in a pg_virtualenv cluster.
  (cd "$pkg_src" && PGPORT="$pkg_port" PG_SUPPORTED_VERSIONS="$PG_MAJOR" PG_PASS_ENV="PG_SUPPORTED_VERSIONS" \
     pg_in sh debian/tests/installcheck) >"$pkg_out/installcheck.log" 2>&1
  pkg_installcheck_rc=$?
  pkg_regress_count "$pkg_out/installcheck.log" "autopkgtest installcheck on the installed package"
  pkg_check "autopkgtest installcheck exit status" test "$pkg_installcheck_rc" -eq 0
  pkg_ran="$(sed -n 's/^### PostgreSQL \([0-9]*\) installcheck ###$/\1/p' "$pkg_out/installcheck.log")"
  pkg_check "autopkgtest installcheck ran on $PG_MAJOR alone (it ran on: $(echo $pkg_ran))" test "$pkg_ran" = "$PG_MAJOR"
  # Every released version's script and every upgrade path: the upgrade suite checked
  # them on this major (an upgraded database equals a fresh install) with the files
  # `make install` put into the server, which this suite saved at its start
  # ($pkg_saved) before clearing the server; the package's are those bytes, so its
  # result holds for them. (Not the build tree's: a later suite's copy of the tree
  # into the chroot removes the generated script there, an ignored file.)
  pkg_same=0; pkg_differ=""
  while read -r f; do
    case "$f" in */extension/*.control|*/extension/*.sql) t="$pkg_saved$PG_CHROOT$f" ;; *) continue ;; esac
    if cmp -s "$PG_CHROOT$f" "$t"; then pkg_same=$((pkg_same + 1)); else pkg_differ="$pkg_differ ${f##*/}"; fi
  done <"$pkg_out/installed-files"
  pkg_check "the package's control files and scripts ($pkg_same) are byte for byte the ones installed by the build suite, which the upgrade suite checked on $PG_MAJOR${pkg_differ:+ (differ:$pkg_differ)}" \
    test -z "$pkg_differ" -a "$pkg_same" -eq "$(grep -cE '/extension/.*\.(control|sql)$' "$pkg_out/expected-files")"

  DEBIAN_FRONTEND=noninteractive PG_PASS_ENV=DEBIAN_FRONTEND pg_in apt-get -o DPkg::Lock::Timeout=900 remove -y "$pkg_name" >"$pkg_out/apt-remove.log" 2>&1
  pkg_check "apt-get remove $pkg_name (log: $pkg_out/apt-remove.log)" \
    test -z "$(pg_in dpkg-query -W -f='${Status}' "$pkg_name" 2>/dev/null | grep ' installed$')"
  [ -n "$PG_CHROOT" ] && flock -u 4
  pkg_check "apt-get remove leaves none of the package's $(wc -l <"$pkg_out/installed-files") files behind" \
    bash -c 'left=$(while read -r f; do [ -e "$2$f" ] && echo "$f"; done <"$1"); [ -z "$left" ] || { echo "left: $left"; exit 1; }' \
    _ "$pkg_out/installed-files" "$PG_CHROOT"
fi

echo "-- pgxnclient"
if [ -n "$pkg_zip" ]; then
  (cd "$pkg_work" && pg_in pgxn install --yes --make make --pg_config "$PG_CONFIG" "$pkg_zip") >"$pkg_out/pgxn-install.log" 2>&1
  pkg_rc=$?
  pkg_check "pgxn install ./${pkg_zip##*/} (log: $pkg_out/pgxn-install.log)" \
    test "$pkg_rc" -eq 0 -a -f "$PG_CHROOT$pkg_sharedir/extension/ulid_tsid--$pkg_version.sql" -a -f "$PG_CHROOT$pkg_libdir/ulid_tsid.so"
  if cluster_start package_pgxn 55459; then
    psql -qX -c "CREATE DATABASE pgxn_smoke" >/dev/null
    (cd "$pkg_work" && pg_in pgxn load --yes --pg_config "$PG_CONFIG" -d pgxn_smoke "$pkg_zip") >"$pkg_out/pgxn-load.log" 2>&1
    pkg_rc=$?
    pkg_check "pgxn load ./${pkg_zip##*/} into a database (log: $pkg_out/pgxn-load.log)" test "$pkg_rc" -eq 0
    pkg_smoke=$(psql -qXAt -d pgxn_smoke -c "
      SELECT e.extversion, length(generate_ulid()::text), generate_tsid()::text ~ '^[0-9A-HJKMNP-TV-Z]{13}\$',
             public.uuid_extract_version(generate_uuidv7()), '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::text
      FROM pg_extension e WHERE e.extname = 'ulid_tsid'" 2>&1)
    pkg_check "smoke query on the pgxn-installed extension: $pkg_smoke" \
      test "$pkg_smoke" = "$pkg_version|26|t|7|01ARZ3NDEKTSV4RRFFQ69G5FAV"
    cluster_stop package_pgxn
  else
    pkg_check "a cluster for pgxn load" false
  fi
fi
echo "   package suite: $((SECONDS - pkg_started)) s"
