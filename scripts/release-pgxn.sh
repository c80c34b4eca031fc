#!/usr/bin/env bash
# The PGXN release: the zip `make dist` wrote, checked, then installed from the file
# alone the way a PGXN user installs it, on a machine with nothing of the extension.
#
#   bash scripts/release-pgxn.sh ZIP [LOGDIR]              the zip's checks, then the install
#   bash scripts/release-pgxn.sh --zip-only ZIP [LOGDIR]   the zip's checks alone (no root)
#   bash scripts/release-pgxn.sh --self-test ZIP [LOGDIR]  each zip check, shown failing on
#                                                          a broken copy of ZIP
#
# The zip: one top directory, ulid_tsid-<version>, the version META.json's and the
# Makefile's EXTVERSION alike (and the file named after it); META.json valid PGXN Meta
# Spec 1.0.0 (scripts/check-meta.py, on the unpacked top directory: every file it names
# is in the zip); every copy of the version agrees (scripts/check-versions.sh, inside
# the zip); every install and upgrade script of both extensions that this checkout
# tracks is there, byte for byte, with the current version's install script built from
# the zip's own src/sql/; each control file's default_version has its install script;
# META.json provides exactly the extensions that have a control file; nothing the zip
# should not carry (build/, .git, .cluster, objects, libraries, regression output); and
# the files are exactly the checkout's tracked ones plus that built script.
# The install: a fresh minimal bookworm chroot (scripts/lib/fresh_chroot.sh: the buildd
# suite's pristine tarball, unpacked anew into a tmpfs); apt-get installs
# postgresql-15, postgresql-server-dev-15, pgxnclient, build-essential and the
# Build-Depends a PGXN user needs (debian/control's, less debhelper and the
# postgresql-* packages); then `pgxn install ./ulid_tsid-<version>.zip` as root
# without a network (a network namespace of its own, not even a loopback up: it can
# only build from the file); a cluster (Unix socket only); CREATE EXTENSION of both
# extensions as the superuser, a key of each kind, ulid_tsid_status()'s versions; and
# the same CREATE EXTENSIONs by a database owner that is no superuser (both are trusted).
#
# Prints one "ok"/"FAIL" line per check, ends with "N passed, N failed"; the exit
# status is 0 only when none failed. Logs: LOGDIR (default .cluster/logs/release-pgxn).
# The install needs root (chroot, mount, unshare); it holds the bookworm minbase lock
# (the buildd suite's) while it unpacks and installs packages.
# Measured 2026-12-07 on the 2 shared cores (load average 10, other runs beside it): the
# zip's checks 3 s; the whole run 261 s from an empty cache (ULID_TSID_CACHE=/tmp/x:
# debootstrap 145 s, apt 70 s), 86 to 146 s warm (apt installing some 150 cached
# packages 52-90 s, pgxn install 25-42 s), plus any wait for another checkout's run on
# the same chroot (printed); --self-test 65-100 s.
# scripts/release.sh calls it after `make dist`:
#   bash scripts/release-pgxn.sh dist/<version>/ulid_tsid-<version>.zip dist/<version>/logs/pgxn
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/suite.sh"
source "$ROOT/scripts/lib/fresh_chroot.sh"
cd "$ROOT" || exit 1

mode=all
case "${1:-}" in --zip-only) mode=zip; shift ;; --self-test) mode=self; shift ;; esac
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -f "$1" ]; then
  sed -n '2,/^set /{/^#/s/^# \{0,1\}//p}' "$0" >&2
  [ $# -ge 1 ] && echo "release-pgxn.sh: no such file: $1" >&2
  trap - EXIT; exit 2
fi
RP_ZIP="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
RP_OUT="${2:-$LOGS/release-pgxn}"
mkdir -p "$RP_OUT"; RP_OUT="$(cd "$RP_OUT" && pwd)"
rp_started=$SECONDS

rp_count() {  # rp_count LOG: another program's "   ok"/"   FAIL" lines, added to the tally
  grep '^   \(ok\|FAIL\) ' "$1"
  SUITE_PASSED=$((SUITE_PASSED + $(grep -c '^   ok ' "$1")))
  SUITE_FAILED=$((SUITE_FAILED + $(grep -c '^   FAIL ' "$1")))
}
rp_same() {  # rp_same WANT HAVE: two lists alike, or what differs printed
  [ "$1" = "$2" ] && return 0
  diff <(echo "$1") <(echo "$2") | sed -n 's/^</     missing:/p; s/^>/     extra:  /p' | head -10
  return 1
}

# ---- the zip ----
rp_zip_checks() {
  local out="$RP_OUT/zip" tops top dist version extversion
  echo "-- the zip: ${RP_ZIP}"
  rm -rf "$out"; mkdir -p "$out/unzipped"
  check "it is a zip whose every member reads back (CRC) and unpacks" python3 -c '
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
bad = z.testzip()
z.extractall(sys.argv[2])
sys.exit(bad is not None)' "$RP_ZIP" "$out/unzipped"
  python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$RP_ZIP" 2>/dev/null \
    | sort >"$out/members"
  tops=$(cut -d/ -f1 "$out/members" | sort -u | paste -sd ' ')
  # The directory pgxnclient builds in: the first holding a Makefile.
  for top in $tops ""; do [ -n "$top" ] && [ -f "$out/unzipped/$top/Makefile" ] && break; done
  dist="$out/unzipped/$top"
  version=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("version", ""))' "$dist/META.json" 2>/dev/null)
  extversion=$(sed -n 's/^EXTVERSION *= *//p' "$dist/Makefile" 2>/dev/null)
  check "exactly one top directory: ${tops:-none}" test -n "$tops" -a "$tops" = "$top"
  check "it is named ulid_tsid-<META.json's version ${version:-?}>: ${top:-none}" test -n "$version" -a "$top" = "ulid_tsid-$version"
  check "META.json's version ${version:-?} is the Makefile's EXTVERSION ${extversion:-?}" test -n "$version" -a "$version" = "$extversion"
  check "the file is named after it: ${RP_ZIP##*/}" test "${RP_ZIP##*/}" = "$top.zip"
  [ -n "$top" ] && [ -f "$dist/META.json" ] || { check "a top directory with a Makefile and META.json" false; return 1; }

  python3 scripts/check-meta.py "$dist" >"$out/meta.log" 2>&1
  rp_count "$out/meta.log"
  # dpkg-parsechangelog reads debian/changelog; outside a git checkout's files.
  (cd "$dist" && GIT_DIR=/nonexistent bash "$ROOT/scripts/check-versions.sh") >"$out/versions.log" 2>&1
  rp_count "$out/versions.log"

  local want have f frozen=0 differ=""
  want=$( (git ls-files 'sql/ulid_tsid--*.sql' 'sql/ulid_tsid_compat--*.sql'; echo "sql/ulid_tsid--$extversion.sql") | sort -u)
  have=$(cd "$dist" && ls sql/ulid_tsid--*.sql sql/ulid_tsid_compat--*.sql 2>/dev/null | sort)
  check "every install and upgrade script of ulid_tsid and ulid_tsid_compat: $(echo "$have" | grep -c .) in the zip, $(echo "$want" | grep -c .) wanted" \
    rp_same "$want" "$have"
  for f in $(git ls-files 'sql/ulid_tsid--*.sql' 'sql/ulid_tsid_compat--*.sql'); do
    frozen=$((frozen + 1)); cmp -s "$f" "$dist/$f" || differ="$differ ${f#sql/}"
  done
  check "the $frozen frozen scripts are this checkout's, byte for byte${differ:+ (differ:$differ)}" test -z "$differ"
  check "sql/ulid_tsid--$extversion.sql is built from the zip's own src/sql/" \
    cmp -s "$dist/sql/ulid_tsid--$extversion.sql" \
      <(cd "$dist" && LC_ALL=C ls src/sql/*.sql src/sql/*.sql.in 2>/dev/null | LC_ALL=C sort | xargs -r awk -f src/sql/expand.awk)
  local control ext dv controls=""
  for control in "$dist"/*.control; do
    [ -f "$control" ] || continue
    ext=$(basename "$control" .control); controls="$controls $ext"
    dv=$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" "$control")
    check "$ext.control's default_version ${dv:-none} has its install script sql/$ext--$dv.sql" test -n "$dv" -a -f "$dist/sql/$ext--$dv.sql"
  done
  check "META.json provides exactly the extensions with a control file:$controls" test "$(echo "$controls" | tr ' ' '\n' | grep . | sort)" = \
    "$(python3 -c 'import json, sys; print("\n".join(sorted(json.load(open(sys.argv[1])).get("provides", {}))))' "$dist/META.json" 2>/dev/null)"
  local junk
  junk=$(grep -E '(^|/)(build|\.git|\.cluster)(/|$)|^[^/]*/(results|tmp_check|log)/|\.(o|so|bc|a|dylib|zip|deb)$|(^|/)regression\.(diffs|out)$' "$out/members")
  check "nothing it should not carry (build/, .git, .cluster, *.o, *.so, *.bc, regression output)${junk:+: $(echo "$junk" | paste -sd ' ' | cut -c1-200)}" test -z "$junk"
  # The tracked files of this checkout (less the ones deleted but not committed), plus the built script.
  want=$( (git ls-files | grep -vxF -f <(git ls-files --deleted; echo /) ; echo "sql/ulid_tsid--$extversion.sql") | sed "s|^|$top/|" | sort -u)
  have=$(grep -v '/$' "$out/members")
  check "its files are exactly this checkout's tracked files and the built script ($(echo "$have" | grep -c .) files)" rp_same "$want" "$have"
}

# ---- the self-test: each check above fails on a zip broken for it ----
rp_self_test() {
  local dir="$RP_OUT/self-test" case_ want got rc
  rm -rf "$dir"; mkdir -p "$dir"
  echo "-- self-test: broken copies of ${RP_ZIP##*/}, each must fail its check"
  # rp_broken NAME PYTHON: NAME.zip, a copy of the zip changed by PYTHON, a function
  # of the (name, data) members returning them changed.
  rp_broken() {
    python3 - "$RP_ZIP" "$dir/$1" "$2" <<'EOF'
import json, os, re, sys, zipfile
src, dst, code = sys.argv[1], sys.argv[2], sys.argv[3]
zin = zipfile.ZipFile(src)
members = [(i.filename, zin.read(i)) for i in zin.infolist()]
top = members[0][0].split("/")[0]
def meta(f):   # META.json changed by f
    return [(n, json.dumps(f(json.loads(d))).encode() if n == top + "/META.json" else d) for n, d in members]
def sub(path, old, new):   # one file's text changed
    return [(n, d.replace(old.encode(), new.encode()) if n == top + "/" + path else d) for n, d in members]
def drop(path):
    return [(n, d) for n, d in members if n != top + "/" + path]
members = eval(code)
os.makedirs(os.path.dirname(dst), exist_ok=True)
with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
    for n, d in members:
        z.writestr(n, d)
EOF
  }
  local v; v=$(sed -n 's/^EXTVERSION *= *//p' Makefile)
  # name | how to break it | the FAIL line expected (an extended regular expression)
  while IFS='|' read -r case_ how want; do
    [ -n "$case_" ] || continue
    rp_broken "$case_/ulid_tsid-$v.zip" "$how" || { check "self-test $case_: the broken zip was made" false; continue; }
    bash "$0" --zip-only "$dir/$case_/ulid_tsid-$v.zip" "$dir/$case_" >"$dir/$case_.log" 2>&1
    rc=$?
    got=$(grep -E "^   FAIL .*($want)" "$dir/$case_.log" | head -1 | sed 's/^   FAIL //')
    check "self-test $case_: fails (exit $rc): ${got:-no FAIL line matching /$want/ (log: $dir/$case_.log)}" test "$rc" -ne 0 -a -n "$got"
  done <<EOF
two-tops|members + [("other/README", b"x")]|exactly one top directory
misnamed-top|[(n.replace(top, "ulid_tsid-0.0.1", 1), d) for n, d in members]|is named ulid_tsid-
versions-disagree|sub("Makefile", "EXTVERSION = $v", "EXTVERSION = 9.9.9")|is the Makefile's EXTVERSION
meta-missing-file|meta(lambda m: {**m, "provides": {**m["provides"], "ulid_tsid": {**m["provides"]["ulid_tsid"], "file": "sql/missing.sql"}}})|provides.ulid_tsid.file 'sql/missing.sql': no such file
meta-no-license|meta(lambda m: {k: x for k, x in m.items() if k != "license"})|missing required key 'license'
meta-bad-license|meta(lambda m: {**m, "license": "gplv2"})|license 'gplv2' is not one the spec names
meta-bad-spec|meta(lambda m: {**m, "meta-spec": {"version": "1.0"}})|meta-spec.version must be 1.0.0
meta-bad-version|meta(lambda m: {**m, "provides": {**m["provides"], "ulid_tsid_compat": {**m["provides"]["ulid_tsid_compat"], "version": "0.4"}}})|provides.ulid_tsid_compat.version '0.4' is not a semantic version
meta-bad-url|meta(lambda m: {**m, "resources": {"homepage": "pgxn.org/dist/ulid_tsid"}})|resources.homepage .* is not a URL
meta-bad-prereqs|meta(lambda m: {**m, "prereqs": {"runtime": {"requires": "PostgreSQL"}}})|prereqs.runtime.requires must be an object
meta-not-json|[(n, b"{" if n.endswith("/META.json") else d) for n, d in members]|META.json: Expecting
upgrade-missing|drop("sql/ulid_tsid--0.2.0--0.3.0.sql")|every install and upgrade script
frozen-edited|sub("sql/ulid_tsid--0.1.0.sql", "CREATE", "create")|frozen scripts are this checkout's
built-stale|sub("sql/ulid_tsid--$v.sql", "CREATE", "create")|is built from the zip's own src/sql/
default-no-script|sub("ulid_tsid_compat.control", "default_version = '$v'", "default_version = '0.5.0'")|default_version 0.5.0 has its install script
junk|members + [(top + "/build/unit/core.o", b"x"), (top + "/ulid_tsid.so", b"x")]|nothing it should not carry
file-missing|drop("src/core/mark.hpp")|exactly this checkout's tracked files
EOF
}

# ---- the install, in a fresh minimal bookworm chroot ----
rp_work=""
rp_in() {  # rp_in [--user NAME] COMMAND...: in the chroot, in /root (or the user's home)
  local user=() home=/root
  if [ "$1" = --user ]; then user=(--userspec="$2:$2"); home="/home/$2"; shift 2; fi
  chroot "${user[@]}" "$rp_work" /usr/bin/env -i HOME="$home" LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c 'cd "$HOME" && "$@"' sh "$@"
}
rp_cleanup() {
  [ -n "$rp_work" ] && [ -d "$rp_work" ] || return 0
  [ -x "$rp_work/usr/bin/pg_ctlcluster" ] && rp_in pg_ctlcluster 15 main stop -m immediate >/dev/null 2>&1
  fresh_remove "$rp_work" && rp_work=""
}
rp_built() {  # rp_built LOG LIBRARY: pgxn unpacked the zip, make compiled and linked, the library is there
  grep -q "unpacking: ./${RP_ZIP##*/}" "$1" && grep -q '^g++ .* -c ' "$1" && grep -q -- '-o ulid_tsid.so' "$1" && [ -f "$2" ]
}
rp_sql() {  # rp_sql USER DB SQL: one psql run over the Unix socket (peer authentication), from /;
  # its whole output goes to the log, its first line to stdout
  local got
  got=$(chroot "$rp_work" /usr/bin/env -i HOME=/ LANG=C.UTF-8 LC_ALL=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    sh -c 'cd / && exec runuser -u "$1" -- psql -qXAt -v ON_ERROR_STOP=1 -d "$2" -c "$3"' sh "$@" 2>&1)
  printf '== %s@%s: %s\n%s\n' "$1" "$2" "$3" "$got" >>"$RP_OUT/install/sql.log"
  echo "${got%%$'\n'*}"
}

rp_install() {
  local out="$RP_OUT/install" t t0 rc version dist zipname pkgs sharedir libdir f missing=""
  rm -rf "$out"; mkdir -p "$out"
  dist=$(ls -d "$RP_OUT"/zip/unzipped/*/ 2>/dev/null | head -1); dist=${dist%/}
  version=${dist##*/ulid_tsid-}; zipname=${RP_ZIP##*/}
  echo "-- pgxn install ./$zipname in a fresh minimal bookworm chroot"
  if [ "$(id -u)" -ne 0 ]; then check "runs as root (chroot, mount, unshare)" false; return 1; fi
  t=$SECONDS
  rp_work="$FRESH_CACHE/run-bookworm-$$"
  fresh_up bookworm "$rp_work" "$out/debootstrap.log" pgxn || return 1

  # What a PGXN user installs: a server and its -dev package, pgxnclient, a compiler,
  # and the libraries the build links (debian/control's Build-Depends, less what only
  # the Debian package's build uses).
  pkgs="postgresql-15 postgresql-server-dev-15 pgxnclient build-essential $(sed -n '/^Build-Depends:/,/^[^ ]/{s/^ \([a-z0-9][a-z0-9.+-]*\).*/\1/p}' debian/control \
        | grep -v -e '^debhelper' -e '^postgresql-' | paste -sd ' ')"
  t0=$SECONDS
  rp_in apt-get update >"$out/apt.log" 2>&1 &&
    rp_in apt-get install -y $pkgs >>"$out/apt.log" 2>&1
  rc=$?
  rp_in apt-get autoclean >/dev/null 2>&1   # the archive cache keeps what the mirror still has
  flock -u 7
  check "apt-get install $pkgs ($((SECONDS - t0)) s; log: $out/apt.log)" test "$rc" -eq 0
  [ "$rc" -eq 0 ] || return 1
  sharedir=$(rp_in pg_config --sharedir); libdir=$(rp_in pg_config --pkglibdir)
  check "nothing of the extension in the server before ($sharedir/extension, $libdir)" \
    test -z "$(find "$rp_work$sharedir/extension" "$rp_work$libdir" -name 'ulid_tsid*' 2>/dev/null)"

  # pgxn install, from the file alone: no network at all (a namespace of its own).
  cp "$RP_ZIP" "$rp_work/root/$zipname"
  t0=$SECONDS
  unshare --net chroot "$rp_work" /usr/bin/env -i HOME=/root LANG=C.UTF-8 LC_ALL=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin MAKEFLAGS="-j$(nproc)" \
    sh -c 'cd /root && exec pgxn install --verbose "./$1"' sh "$zipname" \
    >"$out/pgxn-install.log" 2>&1 </dev/null
  rc=$?
  check "pgxn install ./$zipname, as root with no network ($((SECONDS - t0)) s; log: $out/pgxn-install.log)" test "$rc" -eq 0
  check "it unpacked the zip, compiled $(grep -c '^g++ .* -c ' "$out/pgxn-install.log") sources and linked ulid_tsid.so into $libdir" \
    rp_built "$out/pgxn-install.log" "$rp_work$libdir/ulid_tsid.so"
  if [ -n "$dist" ]; then
    for f in "$dist"/*.control "$dist"/sql/ulid_tsid--*.sql "$dist"/sql/ulid_tsid_compat--*.sql; do
      cmp -s "$f" "$rp_work$sharedir/extension/${f##*/}" || missing="$missing ${f##*/}"
    done
  fi
  check "the server has the zip's control files and every one of its scripts, byte for byte${missing:+ (not:$missing)}" \
    test -n "$dist" -a -z "$missing"

  # A cluster, on a Unix socket only (no port can collide with another server's).
  t0=$SECONDS
  rp_in sh -c 'pg_lsclusters -h | grep -q "^15 *main " || pg_createcluster 15 main' >"$out/cluster.log" 2>&1
  echo "listen_addresses = ''" >"$rp_work/etc/postgresql/15/main/conf.d/release-pgxn.conf"
  rp_in pg_ctlcluster 15 main start >>"$out/cluster.log" 2>&1
  check "a cluster started (pg_ctlcluster 15 main; $((SECONDS - t0)) s; log: $out/cluster.log)" \
    test "$(rp_in pg_lsclusters -h 2>/dev/null | awk '$1 == 15 && $2 == "main" {print $4}')" = online
  local got
  got=$(rp_sql postgres postgres "CREATE EXTENSION ulid_tsid; CREATE EXTENSION ulid_tsid_compat;
    SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'ulid_tsid%'")
  check "CREATE EXTENSION ulid_tsid, ulid_tsid_compat as the superuser: $got" \
    test "$got" = "ulid_tsid $version, ulid_tsid_compat $version"
  got=$(rp_sql postgres postgres "SELECT generate_ulid()::text ~ '^[0-9A-HJKMNP-TV-Z]{26}\$', generate_tsid()::text ~ '^[0-9A-HJKMNP-TV-Z]{13}\$',
    uuid_extract_version(generate_uuidv7()), uuid_extract_version(uuid_generate_v7()), '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::text")
  check "generated keys: a ULID, a TSID, a UUIDv7, pg_uuidv7's uuid_generate_v7() (compat): $got" \
    test "$got" = "t|t|7|7|01ARZ3NDEKTSV4RRFFQ69G5FAV"
  got=$(rp_sql postgres postgres "SELECT library_version || ' ' || extension_version FROM ulid_tsid_status()")
  check "ulid_tsid_status(): library and extension version $got" test "$got" = "$version $version"
  # A login (peer authentication: a system user of the same name), no superuser,
  # owning the database it creates the extensions in.
  rp_in useradd appowner
  rp_sql postgres postgres "CREATE ROLE appowner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE" >/dev/null
  rp_sql postgres postgres "CREATE DATABASE app OWNER appowner" >/dev/null
  got=$(rp_sql appowner app "CREATE EXTENSION ulid_tsid; CREATE EXTENSION ulid_tsid_compat;
    SELECT r.rolsuper, (SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'ulid_tsid%'),
           length(generate_ulid()::text) FROM pg_roles r WHERE r.rolname = current_user")
  check "the database's owner, no superuser, creates both (trusted): $got (log: $out/sql.log)" \
    test "$got" = "f|ulid_tsid $version, ulid_tsid_compat $version|26"
  rp_in pg_ctlcluster 15 main stop >>"$out/cluster.log" 2>&1
  check "the cluster stopped cleanly" test "$(rp_in pg_lsclusters -h 2>/dev/null | awk '$1 == 15 && $2 == "main" {print $4}')" = down
  t0=$SECONDS
  rp_cleanup
  echo "   install: $((SECONDS - t)) s (the chroot removed in $((SECONDS - t0)) s)"
}

# A stop (TERM, INT) lands when the command in hand ends, inside its redirection: the
# cleanup and the last line go to the script's own output (fd 9), not to a log.
exec 9>&1
trap 'rc=$?; { rp_cleanup; (exit $rc); suite_end; } >&9 2>&1' EXIT
trap 'exit 143' TERM INT HUP   # a stopped run removes its chroot too
if [ "$mode" = self ]; then
  rp_self_test
else
  rp_zip_checks
  if [ "$mode" = all ]; then
    rp_install || check "the install went on to its end" false
  fi
fi
echo "   release-pgxn: $((SECONDS - rp_started)) s"
