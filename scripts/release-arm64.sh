#!/usr/bin/env bash
# The arm64 package (Graviton, Apple silicon): cross-built on this amd64 machine from the
# source package, then installed and tested on arm64 code run under qemu-user.
#
#   bash scripts/release-arm64.sh
#   ARM64_DSC=/tmp/x/ulid-tsid_0.4.0-1.dsc ARM64_OUT=dist/0.4.0 bash scripts/release-arm64.sh
#
# ARM64_DSC: a source package made before (scripts/release.sh makes the release's once);
# without it, one is made from the tree (scripts/package.sh deb-source). ARM64_OUT: where
# the .deb, .changes and .buildinfo are copied (default: the log directory).
#
# Steps, each a line "ok"/"FAIL"; the command ends with "N passed, N failed":
#  1. qemu-user's aarch64 handler is registered in binfmt_misc with the F flag (opened
#     when registered, so it runs inside any chroot): qemu-user-static and binfmt-support
#     installed on the host (install-deps.sh --release), binfmt_misc mounted and the
#     handler enabled where the machine started without them;
#  2. the cross build, in a fresh bookworm amd64 chroot (scripts/lib/fresh_chroot.sh):
#     `dpkg --add-architecture arm64`, crossbuild-essential-arm64, `apt-get build-dep -a
#     arm64 -P cross,nocheck`, then `dpkg-buildpackage -a arm64 -Pcross,nocheck` as an
#     unprivileged user without a network. Debian does not cross-build PostgreSQL
#     extensions (its buildds build natively), and two things stand in the way, both
#     worked around here and nowhere else:
#      - postgresql-server-dev-15 depends on clang-14 and llvm-14-dev of its own
#        architecture (neither is Multi-Arch: foreign, and clang-14:arm64 needs
#        binutils:arm64, which cannot be installed beside the build's binutils), so
#        build-dep -a arm64 fails; a local arm64 package that provides both and depends
#        on the amd64 ones stands in for them (made with dpkg-deb in the chroot);
#      - PGXS's Makefile.global is in postgresql-client-15, which is Multi-Arch: foreign,
#        so apt installs the amd64 one, whose flags and libdir are amd64's: the arm64
#        one is installed instead (its pg_config then runs under qemu, some 0.2 s a call);
#     debian/rules gives PGXS the cross compilers (see there). Checked: one
#     postgresql-15-ulid-tsid_*_arm64.deb, its library an ARM aarch64 ELF, its bitcode
#     for aarch64;
#  3. a fresh bookworm arm64 chroot (`debootstrap --arch=arm64`, its tarball cached as
#     bookworm-arm64-minbase.tar beside buildd's): `apt-get install ./the.deb` (Debian's
#     arm64 postgresql-15 with it), a cluster by pg_createcluster, CREATE EXTENSION as a
#     superuser and a key of each kind, not preloaded then preloaded; the regress suites
#     (the Makefile's REGRESS, `make installcheck` from the unpacked source against that
#     cluster: PGXS and pg_regress come with postgresql-15's client package, so nothing
#     but make is added; the package's autopkgtest would add postgresql-server-dev-all,
#     and with it clang-14 and LLVM, all under emulation).
# Logs: .cluster/logs/arm64/ (ARM64_LOGS). Needs root, about 3 GB of memory for the two
# tmpfs chroots (one at a time), and Debian's mirror.
# Measured on 2 cores shared with other work (load 8 to 11): the arm64 tarball 554 s
# (debootstrap's second stage under qemu; cached after, like buildd's), the cross build's
# chroot and Build-Depends 80 to 120 s, dpkg-buildpackage 39 to 104 s, the arm64 install
# (postgresql-15, configured under qemu) 364 to 386 s, pg_createcluster 21 s, the regress
# suites 202 to 522 s: 13 minutes with the tarballs cached. Under qemu two calls in one
# row are some 1.2 us apart, so uuidv7's steps_of_one reads f there (checked as such).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOGS="${ARM64_LOGS:-$ROOT/.cluster/logs/arm64}"
export LOGS
source "$ROOT/scripts/lib/suite.sh"
source "$ROOT/scripts/lib/fresh_chroot.sh"
cd "$ROOT" || exit 1
a_started=$SECONDS
version=$(sed -n 's/^EXTVERSION *= *//p' Makefile)
deb_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
rm -rf "$LOGS"; mkdir -p "$LOGS"
OUT="$(mkdir -p "${ARM64_OUT:-$LOGS/out}" && cd "${ARM64_OUT:-$LOGS/out}" && pwd)"
a_time=()   # "STEP SECONDS" for the summary
a_step() { echo "-- $1 ($(date -u +%H:%M:%S))"; }

if [ "$(id -u)" -ne 0 ]; then check "runs as root (chroots)" false; exit 1; fi

# 1. qemu-user for aarch64.
a_step "qemu-user for arm64 code"
a_binfmt=/proc/sys/fs/binfmt_misc/qemu-aarch64
# Debian's qemu-user-static registers its handlers with the F flag (the interpreter opened
# once, so it runs inside any chroot), but only where binfmt_misc is mounted: a container
# or a machine started without it gets the mount and the handler here.
check "qemu-user-static and binfmt-support installed (bash scripts/install-deps.sh --release; log: $LOGS/install-deps.log)" \
  sh -c 'bash scripts/install-deps.sh --release >"$1" 2>&1' sh "$LOGS/install-deps.log"
if ! head -1 "$a_binfmt" 2>/dev/null | grep -qx enabled; then
  { mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc; } &&
    update-binfmts --import qemu-aarch64 && update-binfmts --enable qemu-aarch64
fi >"$LOGS/binfmt.log" 2>&1
check "binfmt_misc has qemu-aarch64 enabled with the F flag ($a_binfmt; log: $LOGS/binfmt.log)" \
  sh -c 'head -1 "$1" | grep -qx enabled && grep -q "^flags:.*F" "$1"' sh "$a_binfmt"
[ "$SUITE_FAILED" -eq 0 ] || exit 1

# The source package.
if [ -n "${ARM64_DSC:-}" ]; then
  a_src="$(cd "$(dirname "$ARM64_DSC")" && pwd)"
  check "source package $ARM64_DSC (ARM64_DSC) is ulid-tsid_${deb_version}.dsc" test "${ARM64_DSC##*/}" = "ulid-tsid_${deb_version}.dsc" -a -f "$ARM64_DSC"
else
  a_src="$LOGS/source"
  check "source package ulid-tsid_${deb_version}.dsc (scripts/package.sh deb-source; log: $LOGS/source.log)" \
    sh -c 'OUT_DIR="$1" PKG_STAGING="$2" bash scripts/package.sh deb-source >"$3" 2>&1' sh "$a_src" "$LOGS/staging" "$LOGS/source.log"
fi
a_dsc="$a_src/ulid-tsid_${deb_version}.dsc"
[ -f "$a_dsc" ] || exit 1
a_deb="postgresql-15-ulid-tsid_${deb_version}_arm64.deb"

a_dir=""
trap 'rc=$?; [ -z "$a_dir" ] || fresh_remove "$a_dir"; (exit $rc); suite_end' EXIT
trap 'exit 143' TERM INT HUP

# 2. The cross build.
a_cross() {
  local out="$LOGS/cross" t0 rc
  mkdir -p "$out"
  a_dir="$FRESH_CACHE/run-bookworm-$$"
  fresh_up bookworm "$a_dir" "$out/debootstrap.log" cross || return 1
  fresh_in "$a_dir" useradd --home-dir /build --no-create-home --user-group builder
  cp "$a_dsc" "$a_src/ulid-tsid_$version.orig.tar.gz" "$a_src"/ulid-tsid_"$deb_version".debian.tar.* "$a_dir/build/"

  # The stand-in for clang-14:arm64 and llvm-14-dev:arm64 (postgresql-server-dev-15's
  # Depends): the build machine's, which the bitcode is compiled with anyway.
  mkdir -p "$a_dir/build/shim/DEBIAN"
  cat >"$a_dir/build/shim/DEBIAN/control" <<'EOF'
Package: pgxs-cross-llvm-shim
Version: 1
Architecture: arm64
Multi-Arch: same
Maintainer: ulid_tsid maintainers <maintainers@users.noreply.a-seed-0af3b3a1.example>
Provides: clang-14, llvm-14-dev
Depends: clang-14:amd64, llvm-14-dev:amd64
Description: the build machine's clang-14 and llvm-14-dev for postgresql-server-dev-15:arm64
 postgresql-server-dev-15 depends on clang-14 and llvm-14-dev of its own
 architecture (neither is Multi-Arch: foreign); a cross build uses the build
 machine's. Made by scripts/release-arm64.sh, never shipped.
EOF
  t0=$SECONDS
  {
    fresh_in "$a_dir" dpkg --add-architecture arm64 &&
      fresh_in "$a_dir" apt-get update &&
      fresh_in "$a_dir" apt-get install -y crossbuild-essential-arm64 dpkg-dev
  } >"$out/deps.log" 2>&1
  rc=$?
  check "cross: dpkg --add-architecture arm64, apt-get install crossbuild-essential-arm64 in a fresh bookworm chroot ($((SECONDS - t0)) s; log: $out/deps.log)" test "$rc" -eq 0
  [ "$rc" -eq 0 ] || return 1
  # What Debian's own tools say, without the stand-in (a note, not a check).
  fresh_in "$a_dir" apt-get build-dep -s -a arm64 -P cross,nocheck "./${a_dsc##*/}" >"$out/build-dep-plain.log" 2>&1 ||
    echo "   note: without the stand-in, build-dep -a arm64 fails: $(sed -n '/unmet dependencies/,/^E:/p' "$out/build-dep-plain.log" | sed '1d; s/^ *//' | paste -sd ' ')"
  t0=$SECONDS
  {
    fresh_in "$a_dir" sh -c 'dpkg-deb --build shim pgxs-cross-llvm-shim_1_arm64.deb && apt-get install -y ./pgxs-cross-llvm-shim_1_arm64.deb' &&
      fresh_in "$a_dir" apt-get build-dep -y -a arm64 -P cross,nocheck "./${a_dsc##*/}" &&
      fresh_in "$a_dir" apt-get install -y postgresql-client-15:arm64
  } >>"$out/deps.log" 2>&1
  rc=$?
  fresh_in "$a_dir" apt-get autoclean >/dev/null 2>&1
  check "cross: apt-get build-dep -a arm64 -P cross,nocheck ./${a_dsc##*/} (with the clang/LLVM stand-in), postgresql-client-15:arm64's PGXS ($((SECONDS - t0)) s; log: $out/deps.log)" test "$rc" -eq 0
  [ "$rc" -eq 0 ] || return 1
  check "cross: PGXS's Makefile.global is arm64's (host_cpu = aarch64)" \
    grep -qx 'host_cpu = aarch64' "$a_dir/usr/lib/postgresql/15/lib/pgxs/src/Makefile.global"

  # The build: unprivileged, no network, bookworm's majors in debian/control (a backport).
  fresh_in "$a_dir" chown -R builder:builder /build
  fresh_in "$a_dir" --user builder sh -c 'dpkg-source -x "$1" src && cd src && pg_buildext updatecontrol' sh "${a_dsc##*/}" >"$out/build.log" 2>&1
  t0=$SECONDS
  unshare --net sh -c 'ip link set lo up && exec "$@"' sh \
    chroot --userspec=builder:builder "$a_dir" /usr/bin/env -i HOME=/build LANG=C.UTF-8 \
      PATH=/usr/sbin:/usr/bin:/sbin:/bin DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
      sh -c 'cd /build/src && dpkg-buildpackage -us -uc -a arm64 -Pcross,nocheck' >>"$out/build.log" 2>&1 </dev/null
  rc=$?
  a_time+=("cross-build $((SECONDS - t0))")
  check "cross: dpkg-buildpackage -us -uc -a arm64 -Pcross,nocheck, unprivileged, no network ($((SECONDS - t0)) s; log: $out/build.log)" test "$rc" -eq 0
  local debs
  debs=$(cd "$a_dir/build" && ls ./*.deb 2>/dev/null | sed 's|^\./||' | grep -v -e '-dbgsym_' -e '^pgxs-cross-llvm-shim' | paste -sd ' ')
  check "cross: one package, $a_deb: ${debs:-none}" test "$debs" = "$a_deb"
  [ -f "$a_dir/build/$a_deb" ] || return 1
  local x="$LOGS/cross/deb"
  rm -rf "$x"; dpkg-deb -x "$a_dir/build/$a_deb" "$x"
  check "cross: its Architecture is arm64: $(dpkg-deb -f "$a_dir/build/$a_deb" Architecture); Depends: $(dpkg-deb -f "$a_dir/build/$a_deb" Depends)" \
    test "$(dpkg-deb -f "$a_dir/build/$a_deb" Architecture)" = arm64
  check "cross: ulid_tsid.so is an ARM aarch64 ELF: $(file -b "$x/usr/lib/postgresql/15/lib/ulid_tsid.so" | cut -d, -f1-2)" \
    sh -c 'file -b "$1" | grep -q "ARM aarch64"' sh "$x/usr/lib/postgresql/15/lib/ulid_tsid.so"
  local bcs bad
  bcs=$(find "$x/usr/lib/postgresql/15/lib/bitcode/ulid_tsid" -name '*.bc' | wc -l)
  bad=$(find "$x/usr/lib/postgresql/15/lib/bitcode/ulid_tsid" -name '*.bc' -exec grep -La 'aarch64-unknown-linux-gnu' {} + | wc -l)
  check "cross: its JIT bitcode is for aarch64 ($bcs .bc files, $bad without the aarch64 triple)" test "$bcs" -gt 0 -a "$bad" -eq 0
  cp "$a_dir/build/$a_deb" "$a_dir"/build/*.changes "$a_dir"/build/*.buildinfo "$OUT/"
  fresh_remove "$a_dir" && a_dir=""
  flock -u 7
}

# 3. On arm64.
a_arm64() {
  local out="$LOGS/arm64" t0 rc
  mkdir -p "$out"
  t0=$SECONDS
  a_dir="$FRESH_CACHE/run-bookworm-arm64-$$"
  fresh_up bookworm:arm64 "$a_dir" "$out/debootstrap.log" arm64 || return 1
  a_time+=("arm64-chroot $((SECONDS - t0))")
  check "arm64: the chroot runs arm64 code (uname -m: $(fresh_in "$a_dir" uname -m); dpkg: $(fresh_in "$a_dir" dpkg --print-architecture))" \
    test "$(fresh_in "$a_dir" dpkg --print-architecture)" = arm64 -a "$(fresh_in "$a_dir" uname -m)" = aarch64
  cp "$OUT/$a_deb" "$a_dir/build/"
  t0=$SECONDS
  fresh_in "$a_dir" apt-get update >"$out/install.log" 2>&1 &&
    fresh_in "$a_dir" apt-get install -y "./$a_deb" make >>"$out/install.log" 2>&1
  rc=$?
  fresh_in "$a_dir" apt-get autoclean >/dev/null 2>&1
  a_time+=("arm64-install $((SECONDS - t0))")
  check "arm64: apt-get install ./$a_deb (and make): Debian's arm64 postgresql-15 $(fresh_in "$a_dir" dpkg-query -W -f='${Version}' postgresql-15 2>/dev/null) ($((SECONDS - t0)) s; log: $out/install.log)" test "$rc" -eq 0
  [ "$rc" -eq 0 ] || return 1

  local port=54965 sql got want
  sql="SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid';
       SELECT preloaded, library_version, extension_version FROM ulid_tsid_status();
       SELECT ulid_timestamp(generate_ulid()) > now() - interval '1 minute',
              tsid_timestamp(generate_tsid()) > now() - interval '1 minute',
              uuidv7_timestamp(generate_uuidv7()) > now() - interval '1 minute';"
  # postgresql-common made a cluster 15/main when postgresql-15 was installed (not
  # started: no service starts in the chroot); this one is made anew, on its own port.
  fresh_in "$a_dir" pg_dropcluster 15 main >"$out/cluster.log" 2>&1
  t0=$SECONDS
  fresh_in "$a_dir" pg_createcluster -p "$port" 15 main --start >>"$out/cluster.log" 2>&1
  check "arm64: pg_createcluster 15 main --start (port $port; $((SECONDS - t0)) s under qemu; log: $out/cluster.log)" test $? -eq 0
  a_psql() {  # a_psql DB SQL...: as postgres, -qAt (no command tags)
    fresh_in "$a_dir" runuser -u postgres -- psql -X -qAt -v ON_ERROR_STOP=1 -p "$port" -d "$@" 2>>"$out/cluster.log"
  }
  got=$(a_psql postgres -c "SELECT version()" | cut -d, -f1-2)
  echo "   arm64: $got"
  got=$(a_psql postgres -c "CREATE EXTENSION ulid_tsid; CREATE EXTENSION ulid_tsid_compat;" -c "$sql" | paste -sd ' ')
  want="$version f|$version|$version t|t|t"
  check "arm64, not preloaded: CREATE EXTENSION ulid_tsid and ulid_tsid_compat; version, status, a key of each kind now: '$got'" test "$got" = "$want"
  got=$(a_psql postgres -c "SELECT generate_ulid()::text, generate_tsid()::text, generate_uuidv7()::text" | paste -sd ' ')
  echo "   arm64 keys: $got"
  fresh_in "$a_dir" pg_conftool 15 main set shared_preload_libraries ulid_tsid >>"$out/cluster.log" 2>&1 &&
    fresh_in "$a_dir" pg_ctlcluster 15 main restart >>"$out/cluster.log" 2>&1
  check "arm64: shared_preload_libraries = 'ulid_tsid' (pg_conftool), pg_ctlcluster restart" test $? -eq 0
  got=$(a_psql postgres -c "$sql" | paste -sd ' ')
  want="$version t|$version|$version t|t|t"
  check "arm64, preloaded: version, status, a key of each kind now: '$got'" test "$got" = "$want"
  got=$(a_psql postgres -c "SELECT count(DISTINCT k) = 10000 AND bool_and(k > prev) FROM (SELECT k, lag(k, 1, '00000000000000000000000000'::ulid) OVER (ORDER BY n) AS prev FROM (SELECT n, generate_ulid() AS k FROM generate_series(1, 10000) n) s) t")
  check "arm64, preloaded: 10000 generate_ulid() in one statement, distinct and increasing: '$got'" test "$got" = t

  # The regress suites: make installcheck in the source (unpacked by the host's
  # dpkg-source: dpkg-dev is not installed under emulation), against a new cluster, not
  # preloaded, as the build's installcheck (pg_virtualenv) has it.
  fresh_in "$a_dir" pg_dropcluster --stop 15 main >>"$out/cluster.log" 2>&1
  fresh_in "$a_dir" pg_createcluster -p "$port" 15 main --start >>"$out/cluster.log" 2>&1
  dpkg-source -x "$a_dsc" "$a_dir/build/src" >"$out/regress.log" 2>&1
  fresh_in "$a_dir" chown -R postgres:postgres /build/src
  t0=$SECONDS
  local FRESH_ENV=(PGPORT="$port" PGHOST=/var/run/postgresql)
  fresh_in "$a_dir" runuser -u postgres -- make -C src installcheck PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config >>"$out/regress.log" 2>&1
  rc=$?
  a_time+=("arm64-regress $((SECONDS - t0))")
  local tests ok failed f others gap diffs="$out/regression.diffs"
  tests=0
  for f in sql/*.sql; do case "${f#sql/}" in ulid_tsid--*|ulid_tsid_compat--*) ;; *) tests=$((tests + 1)) ;; esac; done
  ok=$(grep -cE '\.\.\. ok|^ok ' "$out/regress.log")
  failed=$(sed -nE 's/^(test|not ok [0-9]+ +-?) *([a-z_0-9]+) .*FAILED.*$/\2/p; s/^not ok [0-9]+ +- +([a-z_0-9]+) .*/\1/p' "$out/regress.log" | sort -u | paste -sd ' ')
  rm -f "$diffs"
  [ -f "$a_dir/build/src/regression.diffs" ] && cp "$a_dir/build/src/regression.diffs" "$diffs"
  others=$(echo "$failed" | tr ' ' '\n' | grep -vx uuidv7 | paste -sd ' ')
  check "arm64: make installcheck (pg_regress, the Makefile's REGRESS) under qemu: $ok of $tests ok, failed: ${failed:-none} ($((SECONDS - t0)) s; log: $out/regress.log)" \
    test "$ok" -eq "$tests" -o \( "$failed" = uuidv7 -a "$((ok + 1))" -eq "$tests" \)
  # uuidv7's steps_of_one assumes that two generate_uuidv7() calls in one row are
  # mostly less than one 4096th of a millisecond (244 ns) apart, so that the second
  # steps rand_a by exactly one; under emulation they are further apart. The gap is
  # measured here, in steps of 244 ns (the median, within one millisecond).
  a_psql postgres -c "CREATE DATABASE timing" >/dev/null
  gap=$(a_psql timing -c "CREATE EXTENSION ulid_tsid" -c "
    SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY step) FROM (
      SELECT ((get_byte(b, 6) & 15) << 8 | get_byte(b, 7)) - ((get_byte(a, 6) & 15) << 8 | get_byte(a, 7)) AS step
      FROM (SELECT uuid_send(generate_uuidv7()) AS a, uuid_send(generate_uuidv7()) AS b FROM generate_series(1, 10000)) s
      WHERE substr(b, 1, 6) = substr(a, 1, 6)) t" | tail -1)
  echo "   arm64 under qemu: two generate_uuidv7() in one row are a median ${gap:-?} x 244 ns apart"
  if [ -n "$others" ] || ! echo " $failed " | grep -q ' uuidv7 '; then
    check "arm64: uuidv7 passed in full (failed elsewhere: ${others:-none})" test -z "$others" -a -z "$failed"
  else
    check "arm64: uuidv7's one difference is steps_of_one (t, now f), whose premise of timing does not hold under qemu: two calls in one row a median ${gap:-?} steps of 244 ns apart (the test needs most under one)" \
      sh -c '[ "$(grep -E "^[-+][^-+]" "$1" | paste -sd " ")" = "- t + f" ] && grep -q steps_of_one "$1" && [ "${2:-0}" -gt 1 ]' sh "$diffs" "$gap"
  fi
  fresh_in "$a_dir" pg_ctlcluster 15 main stop >>"$out/cluster.log" 2>&1
  fresh_remove "$a_dir" && a_dir=""
  flock -u 7
}

t=$SECONDS
a_step "cross-build for arm64 in a fresh bookworm chroot"
a_cross || check "cross: the build went on to its end" false
a_time+=("cross-total $((SECONDS - t))")
if [ -f "$OUT/$a_deb" ]; then
  t=$SECONDS
  a_step "$a_deb on arm64 (bookworm, qemu-user)"
  a_arm64 || check "arm64: the check went on to its end" false
  a_time+=("arm64-total $((SECONDS - t))")
fi
echo "   times (s): ${a_time[*]}; all $((SECONDS - a_started))"
