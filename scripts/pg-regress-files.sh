#!/usr/bin/env bash
# PostgreSQL's own regression files of one major, for tests that run core's
# tests against the extension on another major (never committed here: they are
# PostgreSQL's; fetched at test time and cached).
#
#   scripts/pg-regress-files.sh MAJOR NAME...   e.g. 18 uuid
#   -> prints one line: a directory holding sql/NAME.sql and expected/NAME.out
#
# From Debian's source package of the major (18: sid), fetched with
# `apt-get source --download-only` through a private apt configuration under the
# cache (the system's apt setup is left as it is; the mirror is the one the
# machine's own apt sources name), then only those files are taken out of the
# upstream tarball. Exit status 1 with one line on stderr when they cannot be had.
# Cache: ${ULID_TSID_CACHE:-/var/cache/ulid_tsid}/regress-MAJOR.
set -euo pipefail
umask 022
exec 3>&1 1>&2
[ $# -ge 2 ] || { echo "usage: $0 MAJOR NAME..."; exit 2; }
major="$1"; shift
cache="${ULID_TSID_CACHE:-/var/cache/ulid_tsid}"
out="$cache/regress-$major"
have_all() { local n; for n in "$@"; do [ -f "$out/sql/$n.sql" ] && [ -f "$out/expected/$n.out" ] || return 1; done; }
if have_all "$@"; then echo "$out" >&3; exit 0; fi
case "$major" in 13) suite=bullseye ;; 15) suite=bookworm ;; 17) suite=trixie ;; 18) suite=sid ;; 19) suite=experimental ;;
  *) echo "no Debian suite known for PostgreSQL $major"; exit 1 ;; esac
source "$(dirname "${BASH_SOURCE[0]}")/lib/debian_source.sh"
debian_mirror >/dev/null || exit 1
mkdir -p "$cache/locks" || { echo "cannot create $cache"; exit 1; }
exec 9>"$cache/locks/regress-$major"; flock 9
if have_all "$@"; then echo "$out" >&3; exit 0; fi
apt_dir="$cache/apt-regress/$suite"
dl="$apt_dir/download"
debian_source_download "postgresql-$major" "$suite" "$apt_dir" "$dl" || exit 1
orig="$(ls "$dl"/postgresql-"$major"_*.orig.tar.* 2>/dev/null | head -n1)"
[ -n "$orig" ] || { echo "no upstream tarball in postgresql-$major's source package"; exit 1; }
tmp="$out.tmp"; rm -rf "$tmp"; mkdir -p "$tmp/sql" "$tmp/expected"
members=()
for n in "$@"; do members+=("--wildcards" "*/src/test/regress/sql/$n.sql" "*/src/test/regress/expected/$n.out"); done
tar -xf "$orig" -C "$tmp" "${members[@]}" || { echo "the files are not in $orig"; exit 1; }
for n in "$@"; do
  find "$tmp" -path "*/src/test/regress/sql/$n.sql" -exec cp {} "$tmp/sql/" \;
  find "$tmp" -path "*/src/test/regress/expected/$n.out" -exec cp {} "$tmp/expected/" \;
done
basename "$orig" >"$tmp/SOURCE"
find "$tmp" -mindepth 1 -maxdepth 1 -type d ! -name sql ! -name expected -exec rm -rf {} +
rm -rf "$dl"
mkdir -p "$out"; cp -r "$tmp"/. "$out"/; rm -rf "$tmp"
have_all "$@" || { echo "the files are not in $orig"; exit 1; }
echo "$out" >&3
