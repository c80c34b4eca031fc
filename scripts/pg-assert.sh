#!/usr/bin/env bash
# PostgreSQL of the host's major (15 on bookworm) built with assertions, for the
# assert lane (scripts/suites/assert.sh): Debian's own source package of that major
# (`apt-get source postgresql-MAJOR`, Debian's patches applied), configured with
# --enable-cassert --enable-debug --enable-tap-tests, and the rest of Debian's
# options where they cost nothing here (OpenSSL, ICU, libxml, libxslt, LZ4, zstd,
# the system's time zones; not LLVM, PL/Perl, PL/Python, NLS, GSSAPI, LDAP, PAM).
# The server, contrib and the TAP test modules are installed into a prefix of its
# own under the cache; nothing touches the host's installation.
#
#   bash scripts/pg-assert.sh           -> prints one line: the prefix (PREFIX/bin/pg_config);
#                                          builds it first when it is not there (5 to 8
#                                          minutes on 2 cores)
#   bash scripts/pg-assert.sh --cached  -> the same, but exits 1 without building
#
# The source comes through a private apt configuration under the cache (a deb-src
# line for the host's suite; the mirror is the one the machine's own apt sources
# name, or ULID_TSID_DEBIAN_MIRROR): the system's apt setup is left as it is.
# Cache: ${ULID_TSID_CACHE:-/var/cache/ulid_tsid}/assert-MAJOR (postgresql/: the prefix, build.log,
# SOURCE: the source package's version). Remove the directory to rebuild.
set -euo pipefail
umask 022
exec 3>&1 1>&2
cached_only=""
[ "${1:-}" = --cached ] && cached_only=1
major="${ASSERT_PG_MAJOR:-$(/usr/bin/pg_config --version | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p')}"
[ -n "$major" ] || { echo "cannot tell the host's PostgreSQL major (/usr/bin/pg_config)"; exit 1; }
cache="${ULID_TSID_CACHE:-/var/cache/ulid_tsid}"
out="$cache/assert-$major"
# "postgresql" in the prefix: Debian's 50-per-version-dirs.patch forces pkglibdir (the
# modules and pgxs) to /usr/lib/postgresql/MAJOR/lib, the host's, unless libdir names
# "postgres" or "pgsql". The build checks every installation directory anyway.
prefix="$out/postgresql"
built() { [ -f "$out/SOURCE" ] && [ -x "$prefix/bin/pg_config" ] && [ -x "$prefix/lib/pgxs/src/test/regress/pg_regress" ]; }
if built; then echo "$prefix" >&3; exit 0; fi
[ -z "$cached_only" ] || exit 1
mkdir -p "$cache/locks" || { echo "cannot create $cache"; exit 1; }
exec 9>"$cache/locks/assert-$major"
flock -n 9 || { echo "waiting for another build of the assert-enabled PostgreSQL $major"; flock 9; }
if built; then echo "$prefix" >&3; exit 0; fi

suite="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
[ -n "$suite" ] || { echo "cannot tell the host's Debian suite (/etc/os-release)"; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/lib/debian_source.sh"
mirror="$(debian_mirror)" || exit 1
bash "$(dirname "${BASH_SOURCE[0]}")/install-deps.sh" --assert || { echo "cannot install the build's dependencies"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
log="$out/build.log"
echo "assert-enabled PostgreSQL $major: the source of postgresql-$major from $mirror $suite (log: $log)"
src="$out/src"
debian_source_download "postgresql-$major" "$suite" "$out/apt" "$src" || exit 1
cat "$out/apt/apt.log" >>"$log"
dsc="$(ls "$src"/postgresql-"$major"_*.dsc | head -n1)"
(cd "$src" && dpkg-source --no-check -x "$dsc" tree >>"$log" 2>&1) || { echo "dpkg-source -x $dsc failed (log: $log)"; exit 1; }
echo "building $(basename "$dsc" .dsc) into $prefix"
# Debian's CFLAGS are -g -O2 (--enable-debug adds the -g); frame pointers for backtraces.
(cd "$src/tree" &&
  ./configure --prefix="$prefix" --enable-cassert --enable-debug --enable-tap-tests \
    --with-openssl --with-icu --with-libxml --with-libxslt --with-lz4 --with-zstd \
    --with-system-tzdata=/usr/share/zoneinfo CFLAGS="-O2 -fno-omit-frame-pointer") >>"$log" 2>&1 ||
  { tail -n 30 "$log"; echo "configure failed (log: $log)"; exit 1; }
# Every directory `make install` writes must be under the prefix: never the host's
# installation (Debian's patches move some of them).
dirs="$(printf 'include src/Makefile.global\nshow:\n\t@echo $(%s)\n' \
  'bindir) $(libdir) $(pkglibdir) $(pgxsdir) $(bitcodedir) $(includedir) $(pkgincludedir) $(includedir_server) $(includedir_internal) $(datadir) $(sysconfdir) $(docdir) $(localedir) $(mandir' |
  make -s -C "$src/tree" -f - top_builddir=. show)" || { echo "cannot read the build's installation directories"; exit 1; }
for d in $dirs; do
  case "$d" in "$prefix"|"$prefix"/*) ;; *) echo "the build would install into $d, outside $prefix: stopped"; exit 1 ;; esac
done
(cd "$src/tree" && make -j"$(nproc)" world-bin && make install-world-bin) >>"$log" 2>&1 ||
  { tail -n 30 "$log"; echo "the assert-enabled build failed (log: $log)"; exit 1; }
basename "$dsc" .dsc >"$out/SOURCE"
# The build tree (some 700 MB of objects) goes; the source stays beside it for gdb.
(cd "$src/tree" && make -s clean) >>"$log" 2>&1 || true
built || { echo "the assert-enabled build left no pg_config or pg_regress under $prefix"; exit 1; }
echo "$prefix" >&3
