#!/usr/bin/env bash
# Installs, from Debian's packages (bookworm, its PostgreSQL 15), what the
# project needs. Skips apt when all of it is already there.
#
#   bash scripts/install-deps.sh                 everything: the build, every test
#                                                suite, the benchmarks, the packages
#   bash scripts/install-deps.sh --build [MAJOR] only what building the extension needs
#                                                for that major's server (the README's list):
#                                                MAJOR, else the one PG_CONFIG names, else
#                                                the installed pg_config's, else 15; not the
#                                                server itself
#   bash scripts/install-deps.sh --chroot-tools  only what scripts/chroot.sh needs
#   bash scripts/install-deps.sh --assert        only what the assert lane's server
#                                                build needs (scripts/pg-assert.sh)
#   bash scripts/install-deps.sh --release [MAJOR]  only what the release command needs
#                                                on this machine (scripts/release.sh): the
#                                                build's list (MAJOR as for --build), the
#                                                fresh chroots' tools, and qemu-user for
#                                                the arm64 check
set -euo pipefail

# Building: a C++17 compiler, make, libsodium's headers, the server's -dev
# package (pg_config, server headers) and the clang that its PGXS names for the
# LLVM bitcode of a server built with LLVM (bookworm's 15 names clang-14).
build_major() {
  if [ -n "${1:-}" ]; then echo "$1"; return; fi
  local config="${PG_CONFIG:-}"
  [ -z "$config" ] && command -v pg_config >/dev/null && config=pg_config
  if [ -n "$config" ] && "$config" --version >/dev/null 2>&1; then
    "$config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/'; return
  fi
  echo 15
}

# The assert lane (scripts/suites/assert.sh): the host's PostgreSQL built from its
# Debian source package with the options scripts/pg-assert.sh gives configure, and
# IPC::Run for the TAP test modules. All of them are in the full list below too.
ASSERT_PACKAGES=(make gcc bison flex perl pkg-config dpkg-dev libreadline-dev zlib1g-dev
  libssl-dev libicu-dev libxml2-dev libxslt1-dev liblz4-dev libzstd-dev libipc-run-perl)

PACKAGES=(
  make g++ clang clang-14 libclang-rt-14-dev llvm-14 pkg-config
  postgresql-15 postgresql-server-dev-15 postgresql-contrib
  libsodium-dev libgtest-dev libbenchmark-dev
  libipc-run-perl gnuplot-nox bc faketime valgrind
  bison flex libreadline-dev zlib1g-dev libssl-dev dpkg-dev xz-utils bzip2 gzip
  ca-certificates debian-archive-keyring gpgv util-linux debootstrap
  debhelper postgresql-server-dev-all lintian pgxnclient zip unzip git python3
  python3-psycopg python3-psycopg2 python3-asyncpg libpostgresql-jdbc-java default-jdk-headless
  python3-django python3-sqlalchemy python3-alembic ruby-activerecord ruby-pg
  # pg_partman for 15 (4.7.2: id mode only; 17's and 18's 5.x are in the chroots)
  postgresql-15-partman
  # the Go (pgx) and Rust (tokio-postgres, offline through Debian's cargo registry) clients
  golang-go golang-github-jackc-pgx-v4-dev cargo rustc librust-tokio-postgres-dev
  # the source package built as a buildd does (scripts/suites/buildd.sh: a fresh
  # chroot, and a network namespace whose loopback `ip` brings up)
  equivs devscripts iproute2
  # Citus's build (scripts/suites/citus.sh), beyond the server's -dev package
  libicu-dev libkrb5-dev liblz4-dev libzstd-dev libxslt1-dev
  # the assert lane's server build (scripts/pg-assert.sh), beyond the above
  libxml2-dev
)
# node and npm for the node-postgres client test: Debian's, unless the machine
# already has both (NodeSource's nodejs bundles npm and conflicts with Debian's).
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then PACKAGES+=(nodejs npm); fi
# --chroot-tools: only what scripts/chroot.sh needs, so that scripts/test.sh can
# start making the chroots while the rest installs.
[ "${1:-}" = --chroot-tools ] && PACKAGES=(debootstrap debian-archive-keyring gpgv ca-certificates util-linux xz-utils gzip bzip2)
# The release command's own tools on the host (its builds and installs run in fresh
# chroots, which install their own): the zip, the source package, the chroots, and
# qemu-user with binfmt_misc for the arm64 check (scripts/release-arm64.sh).
RELEASE_PACKAGES=(git zip unzip python3 dpkg-dev xz-utils gzip bzip2 ca-certificates
  debian-archive-keyring gpgv util-linux debootstrap iproute2 qemu-user-static binfmt-support)
if [ "${1:-}" = --build ] || [ "${1:-}" = --release ]; then
  mode="$1"
  major="$(build_major "${2:-}")"
  case "$major" in ''|*[!0-9]*) echo "install-deps: not a PostgreSQL major: $major" >&2; exit 2 ;; esac
  PACKAGES=(make g++ libsodium-dev "postgresql-server-dev-$major")
  [ "$mode" = --release ] && PACKAGES+=("${RELEASE_PACKAGES[@]}")
fi
[ "${1:-}" = --assert ] && PACKAGES=("${ASSERT_PACKAGES[@]}")

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# The clang and llvm that the server's PGXS names (CLANG in its Makefile.global),
# once its -dev package is there: a server built without LLVM names none.
pgxs_clang() {
  local config="${PG_CONFIG:-/usr/lib/postgresql/$major/bin/pg_config}" global
  [ -x "$config" ] || return 0
  global="$(dirname "$("$config" --pgxs)")/../Makefile.global"
  sed -n -E 's|^CLANG *= *(/usr/bin/)?(clang(-[0-9]+)?)$|\2|p' "$global" 2>/dev/null | head -1
}
install_missing() {
  missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  if ! $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    echo "install-deps: apt could not install ${missing[*]}: for a major this system's release does not" \
      "ship, add the PostgreSQL project's apt repository (PGDG), or build against the" \
      "pg_config of your installation (PG_CONFIG=/path/to/pg_config)" >&2
    exit 1
  fi
}
if [ "${1:-}" = --build ] || [ "${1:-}" = --release ]; then
  install_missing "${PACKAGES[@]}"
  clang="$(pgxs_clang)"
  if [ -n "$clang" ]; then
    install_missing "$clang" "llvm${clang#clang}"
  fi
  what="building for PostgreSQL $major"; [ "$mode" = --release ] && what="the release command (building for PostgreSQL $major)"
  echo "install-deps: what $what needs is installed: ${PACKAGES[*]}${clang:+ $clang llvm${clang#clang}}"
  exit 0
fi
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
