#!/usr/bin/env bash
# Runs every test suite on a fresh machine: installs the dependencies, builds
# PostgreSQL 13 and 18 from Debian's source packages the first time (cached in
# /var/cache/ulid_tsid), then runs the pure-core suites once and the server
# suites on every tested major, each against the extension built for that
# major with -Werror and installed into it. Throwaway clusters live inside the
# checkout. Ends with one line "N passed, N failed"; exit 0 only when nothing
# failed.
#
#   bash scripts/test.sh                          everything
#   PG_MAJORS=18 bash scripts/test.sh             server suites on 18 only
#   SUITES="unit regress" bash scripts/test.sh    a subset
#
# Majors: 13, 15 and 18 are required (a server that cannot be had fails the
# run); 17 and 19 run too wherever their source package can be fetched, and
# are otherwise compiled against their headers only, with one line saying so.
# 15 (the system's server) goes last, so that the build left installed, the
# benchmark smoke run and scripts/demo.sh use it.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SUITES=" ${SUITES:-sql_names unit sanitizers fuzz regress upgrade concurrency tap clients bench package crossversion} "
PG_MAJORS="${PG_MAJORS:-13 18 15}"
EXTRA_MAJORS="${EXTRA_MAJORS-17 19}"
LOGS="$ROOT/.cluster/logs"
ORIGINAL_PATH="$PATH"
PASSED=0
FAILED=0
NOTES=()

tally() {  # tally SUITE PASSED FAILED
  echo "== $1${PG_LABEL:+ ($PG_LABEL)}: $2 passed, $3 failed"
  PASSED=$((PASSED + $2)); FAILED=$((FAILED + $3))
}
wanted() { case "$SUITES" in *" $1 "*) return 0 ;; esac; return 1; }
run_suite() {  # sourced with no arguments: tap.sh reads "$@" as its file list
  local suite="$1"; shift
  if wanted "$suite"; then echo "== running $suite${PG_LABEL:+ on $PG_LABEL}"; source "scripts/suites/$suite.sh"; fi
}

# Builds the extension for $PG_CONFIG with warnings as errors and installs it.
build_for() {
  local log="$LOGS/build-$1.log"
  if flock /tmp/ulid_tsid.make.lock bash -c \
       'make clean >/dev/null 2>&1; make -j2 EXTRA_CXXFLAGS=-Werror && make install' >"$log" 2>&1; then
    tally "build with -Werror and install" 1 0; return 0
  fi
  tail -40 "$log"; tally "build with -Werror and install (see $log)" 0 1; return 1
}

# Every source file compiled against a major's server headers (-fsyntax-only),
# for a major whose server cannot be built here.
compile_only() {
  local major="$1" why="$2" headers log="$LOGS/compile-$1.log" ok=0 bad=0 f
  if ! headers="$(bash scripts/postgres.sh --headers "$major" 2>"$log")"; then
    NOTES+=("PostgreSQL $major: NOT TESTED: no source and no headers ($(tail -1 "$log"))")
    return
  fi
  for f in src/core/*.cpp src/pg/*.cpp; do
    if g++ -std=c++17 -fsyntax-only -fno-exceptions -fno-rtti -Wall -Wextra -Wno-unused-parameter \
         -Wno-missing-field-initializers -Wno-register -Werror -I. -I"$headers" "$f" >>"$log" 2>&1; then
      ok=$((ok + 1))
    else
      bad=$((bad + 1)); echo "   FAIL $f against PostgreSQL $major headers (see $log)"
    fi
  done
  PG_LABEL="PG $major headers" tally "compile every file with -Werror" "$ok" "$bad"
  NOTES+=("PostgreSQL $major: compiled only (every file, -fsyntax-only -Werror, against $headers); suites not run: $why")
}

bash scripts/install-deps.sh || { echo "dependency install failed"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$LOGS"
source scripts/cluster.sh

# The pure core, once: no server involved (the unit suite's build needs none).
for suite in sql_names unit sanitizers fuzz; do run_suite "$suite"; done

server_suites=0
for s in regress upgrade concurrency tap clients bench package crossversion; do wanted "$s" && server_suites=1; done
majors="$PG_MAJORS"
if [ "$server_suites" = 1 ]; then
  for major in $EXTRA_MAJORS; do
    if bash scripts/postgres.sh "$major" >"$LOGS/postgres-$major.out" 2>"$LOGS/postgres-$major.log"; then
      majors="$major $majors"
    else
      compile_only "$major" "$(tail -1 "$LOGS/postgres-$major.log")"
    fi
  done
else
  majors=""
fi

for major in $majors; do
  PG_LABEL="PG $major"
  echo "== PostgreSQL $major"
  if ! PG_CONFIG="$(bash scripts/postgres.sh "$major" 2>"$LOGS/postgres-$major.log")"; then
    tail -5 "$LOGS/postgres-$major.log"; tally "PostgreSQL $major server" 0 1; continue
  fi
  export PG_CONFIG
  PGBIN="$("$PG_CONFIG" --bindir)"
  export PATH="$PGBIN:$ORIGINAL_PATH"
  echo "   $("$PG_CONFIG" --version) at $PG_CONFIG"
  build_for "$major" || continue
  for suite in regress upgrade concurrency tap clients; do run_suite "$suite"; done
  # The benchmark scripts measure the system's server; the Debian package is
  # built for it (the only major installed from Debian's packages) and puts
  # back what the build above installed into it.
  [ "$major" = 15 ] && run_suite bench
  [ "$major" = 15 ] && run_suite package
done
PG_LABEL=""
if wanted package && [[ " $majors " != *" 15 "* ]]; then
  NOTES+=("package: not run (it builds and installs the Debian package of the system's server, 15)")
fi

# Across majors (pg_upgrade 13 -> 18, dumps between 15 and 18): only after
# this run has built and installed the extension into 13, 15 and 18.
if wanted crossversion; then
  if [[ " $majors " == *" 13 "* && " $majors " == *" 18 "* && " $majors " == *" 15 "* ]]; then
    run_suite crossversion
  else
    NOTES+=("crossversion: not run (it needs 13, 18 and 15 in PG_MAJORS)")
  fi
fi

echo
for note in "${NOTES[@]}"; do echo "$note"; done
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
