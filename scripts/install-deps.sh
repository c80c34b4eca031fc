#!/usr/bin/env bash
# Installs, from Debian's packages (bookworm, its PostgreSQL 15), what the
# project needs. Skips apt when all of it is already there.
#
#   bash scripts/install-deps.sh                 everything: the build, every test
#                                                suite, the benchmarks, the packages
#   bash scripts/install-deps.sh --build         only what building and installing
#                                                the extension needs (the README's list)
#   bash scripts/install-deps.sh --chroot-tools  only what scripts/chroot.sh needs
#   bash scripts/install-deps.sh --assert        only what the assert lane's server
#                                                build needs (scripts/pg-assert.sh)
set -euo pipefail

# Building: a C++17 compiler, make, libsodium's headers, the server's -dev
# package (pg_config, server headers) and clang for the LLVM bitcode PGXS
# compiles for a server built with LLVM (bookworm's 15 names clang-14).
BUILD_PACKAGES=(make g++ clang-14 llvm-14 libsodium-dev postgresql-server-dev-15 postgresql-15)

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
[ "${1:-}" = --build ] && PACKAGES=("${BUILD_PACKAGES[@]}")
[ "${1:-}" = --assert ] && PACKAGES=("${ASSERT_PACKAGES[@]}")

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
