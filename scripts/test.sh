#!/usr/bin/env bash
# Runs every test suite on a fresh machine: installs the dependencies, makes the
# Debian chroots of the other majors the first time (scripts/chroot.sh, cached in
# /var/cache/ulid_tsid), then runs the pure-core suites once and the server suites
# on every major, each against Debian's own server of that major with the extension
# built for it with -Werror and installed into it. Ends with one line
# "N passed, N failed"; exit 0 only when nothing failed.
#
#   bash scripts/test.sh                          everything
#   PG_MAJORS=18 bash scripts/test.sh             server suites on 18 only
#   SUITES="unit regress" bash scripts/test.sh    a subset
#   SUITES=assert bash scripts/test.sh            the assert lane (scripts/suites/assert.sh),
#                                                 never run by default, and here only when its
#                                                 server is already built (it skips otherwise)
#
# Each suite is a program (scripts/suites/NAME.sh) with one contract: it runs, prints
# its checks, ends with "N passed, N failed" and exits 0 only when none failed; a
# server suite runs on the major PG_MAJOR names (`PG_MAJOR=17 bash
# scripts/suites/regress.sh`), whether that server is the host's (15) or in a chroot.
# This runner only schedules them and adds up their last lines; each suite's whole
# output is also in .cluster/logs/run/.
#
# Majors: 13 (bullseye), 15 (the host, bookworm), 17 (trixie), 18 (sid), 19
# (experimental), in LANES lanes side by side (default: one a major, all at once).
# Only 15's own suites install into the host's server, so the build they leave there
# is the one the benchmark smoke run and scripts/demo.sh use.
# crossversion runs once, in the sid chroot, after the majors (pg_upgrade 13 -> 18 and
# 18 -> 19, dumps 13 <-> 18). buildd runs once, beside the majors with the pure-core
# suites: the source package built in fresh chroots of sid and bookworm from their
# Build-Depends alone, as a buildd builds it (3 to 4 minutes, about 3 CPU-minutes).
# newuser runs once, after buildd: a new user's path from git clone to make installcheck
# on Debian's 17, in a fresh minimal trixie chroot (about 2 minutes warm).
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
SUITES=" ${SUITES:-sql_names unit sanitizers fuzz regress upgrade concurrency portable portable_hostile pgtle doctest partman timescaledb tap clients orms orms_node peers citus bench package crossversion buildd newuser} "
PG_MAJORS="${PG_MAJORS:-13 18 17 15 19}"
LOGS="$ROOT/.cluster/logs"
export ROOT LOGS ULID_TSID_CACHE="${ULID_TSID_CACHE:-/var/cache/ulid_tsid}"
RUNLOGS="$LOGS/run"
PASSED=0
FAILED=0
NOTES=()
START=$SECONDS
# The machine's busy CPU time (all processes, /proc/stat), to say at the end how
# much of its cores the run kept busy, and the part of it the hypervisor took
# (steal: a virtual machine's cores running someone else), which makes the same
# tree's runs differ.
busy_cpu_s() { awk '$1 == "cpu" { print int(($2 + $3 + $4 + $7 + $8 + $9) / 100) }' /proc/stat 2>/dev/null; }
steal_cpu_s() { awk '$1 == "cpu" { print int($9 / 100) }' /proc/stat 2>/dev/null; }
BUSY_START="$(busy_cpu_s)"
STEAL_START="$(steal_cpu_s)"

wanted() { case "$SUITES" in *" $1 "*) return 0 ;; esac; return 1; }

# The CPU time a suite took, its servers included (they leave the suite's process
# tree, not its cgroup): a cgroup per suite run, v1's cpuacct or v2's cpu.stat, where
# we may make one; nothing is printed where we may not.
cpu_group_make() {  # LABEL -> the group's directory, or nothing
  local d
  for d in /sys/fs/cgroup/cpuacct /sys/fs/cgroup; do
    [ -f "$d/cpuacct.usage" ] || [ -f "$d/cgroup.controllers" ] || continue
    d="$d/ulid_tsid_run_$$_${1// /_}"
    mkdir "$d" 2>/dev/null && { echo "$d"; return 0; }
  done
}
cpu_group_end() {  # DIR -> ", CPU N s", and the group removed
  [ -n "$1" ] || return 0
  local us
  if [ -f "$1/cpuacct.usage" ]; then us=$(( $(cat "$1/cpuacct.usage") / 1000 ))
  else us="$(awk '$1 == "usage_usec" { print $2 }' "$1/cpu.stat" 2>/dev/null)"; fi
  rmdir "$1" 2>/dev/null
  [ -n "$us" ] && [ "$us" -gt 0 ] && echo ", CPU $(( (us + 500000) / 1000000 )) s"   # 0: the suite could not join it
}

# run NAME [ENV=VALUE...]: one suite program; its output shown and kept; its last
# line added up (a suite that ends without one counts as one failure).
run() {
  local name="$1"; shift
  local label="$name" out line p f rc t=$SECONDS
  for a in "$@"; do case "$a" in PG_MAJOR=*) label="$name on PG ${a#PG_MAJOR=}" ;; esac; done
  out="$RUNLOGS/${label// /_}.out"
  echo "== running $label"
  local cg; cg="$(cpu_group_make "$label")"
  env "$@" bash -c '[ -z "$0" ] || echo $$ >"$0/cgroup.procs" 2>/dev/null; exec bash "$1"' "$cg" "scripts/suites/$name.sh" 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  line="$(tail -n 1 "$out")"
  if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    p=${BASH_REMATCH[1]}; f=${BASH_REMATCH[2]}
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  else
    p=0; f=1; echo "   $label ended without its 'N passed, N failed' line (exit $rc)"
  fi
  echo "== $label: $p passed, $f failed ($((SECONDS - t)) s$(cpu_group_end "$cg"))"
  PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
  [ "$f" -eq 0 ]
}

mkdir -p "$RUNLOGS"
rm -f "$RUNLOGS"/*.out "$RUNLOGS"/totals-* "$LOGS"/citus-ahead-*.log   # this run's alone
# What the chroots need first: they are made while the rest installs (on a fresh
# machine the host's packages take minutes, mostly on one core).
bash scripts/install-deps.sh --chroot-tools || { echo "dependency install failed"; echo "0 passed, 1 failed"; exit 1; }

server_suites=""
for s in regress upgrade concurrency portable portable_hostile pgtle doctest partman timescaledb tap clients orms orms_node peers citus bench package crossversion; do wanted "$s" && server_suites=1; done

# Citus built ahead for a major (15 from the start, 17 and 18 once their chroot is
# made), beside the suites, into the cache the citus suite then takes it from: the
# build is the suite's largest part, and in the suite it held its major's lane.
# The major's server lock is its lane's (PG_LOCKED): the build only adds packages
# and files to the chroot, under its own lock.
citus_ahead() {
  wanted citus || return 0
  case " $PG_MAJORS " in *" $1 "*) ;; *) return 0 ;; esac
  case "$1" in 15|17|18) ;; *) return 0 ;; esac
  local t=$SECONDS cg rc; cg="$(cpu_group_make "citus ahead $1")"
  PG_LOCKED="$1" PG_MAJOR="$1" CITUS_BUILD_ONLY=1 CITUS_NICE=0 \
    bash -c '[ -z "$0" ] || echo $$ >"$0/cgroup.procs" 2>/dev/null; exec bash scripts/suites/citus.sh' "$cg" >"$LOGS/citus-ahead-$1.log" 2>&1
  rc=$?
  echo "citus ahead on $1: exit $rc after $((SECONDS - t)) s$(cpu_group_end "$cg")" >>"$LOGS/citus-ahead-$1.log"
  return $rc
}

# The chroots, made in the background from the start (their making is mostly
# download and unpacking). 18 and 19 share one.
declare -A CHROOT_JOB=()
if [ -n "$server_suites" ]; then
  want_chroots=""
  for m in $PG_MAJORS; do [ "$m" = 15 ] || want_chroots="$want_chroots $m"; done
  wanted crossversion && want_chroots="$want_chroots 18"
  seen=" "
  for m in $want_chroots; do
    c="$(bash scripts/chroot.sh --list | awk -v m="$m" '$1 == m { print $2 }')"
    case "$seen" in *" $c "*) continue ;; esac
    seen="$seen$c "
    ( t=$SECONDS; cg="$(cpu_group_make "chroot $c")"
      bash -c '[ -z "$0" ] || echo $$ >"$0/cgroup.procs" 2>/dev/null; exec bash scripts/chroot.sh "$1"' "$cg" "$m" \
        >/dev/null 2>"$LOGS/chroot-$c.log"; rc=$?
      echo "chroot $c: exit $rc after $((SECONDS - t)) s$(cpu_group_end "$cg")" >>"$LOGS/chroot-$c.log"
      [ "$rc" -eq 0 ] && for cm in $(bash scripts/chroot.sh --list | awk -v c="$c" '$2 == c { print $1 }'); do citus_ahead "$cm"; done
      exit $rc ) &
    CHROOT_JOB[$c]=$!
  done
fi

bash scripts/install-deps.sh || { echo "dependency install failed"; echo "0 passed, 1 failed"; exit 1; }
citus_ahead 15 &
CITUS_AHEAD_15=$!

# The pure core, once, no server involved: in the background beside the majors'
# lanes (fuzzing is CPU-bound, the server suites mostly wait), printed at the end;
# then buildd and newuser, once each (their own fresh chroots, none of the majors'
# servers), and the assert lane when SUITES names it (its own server, ports and lock).
(
  PASSED=0; FAILED=0
  for suite in sql_names unit sanitizers fuzz buildd newuser; do wanted "$suite" && { run "$suite" || true; }; done
  # Not in the default SUITES: the test command keeps its time (the lane's own
  # command builds its server and takes minutes more).
  wanted assert && { run assert ASSERT_CACHED_ONLY=1 || true; }
  echo "$PASSED $FAILED" >"$RUNLOGS/totals-core"
) >"$RUNLOGS/core.out" 2>&1 &
CORE_JOB=$!

# One major: its suites in order, output into $RUNLOGS/major-MAJOR.out, totals into
# $RUNLOGS/totals-MAJOR.
run_major() {
  local major="$1" t=$SECONDS s suites
  (
    PASSED=0; FAILED=0
    # One holder of the major's server for all of its suites (lib/pg.sh). The host's
    # 15 is the caller's to hold (/tmp/ulid_tsid.pg15.lock), or ours for its suites
    # alone with ULID_TSID_PG15_LOCK=1.
    if [ "$major" = 15 ] && [ -n "${ULID_TSID_PG15_LOCK:-}" ]; then
      exec 6>/tmp/ulid_tsid.pg15.lock
      flock 6
    fi
    if [ "$major" != 15 ]; then
      mkdir -p "$ULID_TSID_CACHE/locks"
      exec 6>"$ULID_TSID_CACHE/locks/use-$major"
      flock 6
      export PG_LOCKED=$major
    fi
    suites=(build regress upgrade concurrency portable portable_hostile pgtle doctest partman tap clients orms orms_node peers)
    case "$major" in 15|17|18) suites+=(citus) ;; esac   # the majors Citus 13.2.2 and 14.0.1 serve
    [ "$major" = 18 ] && suites+=(timescaledb)           # sid's postgresql-18-timescaledb (2.31)
    [ "$major" = 15 ] && suites+=(bench)
    suites+=(package)
    for s in "${suites[@]}"; do
      [ "$s" = build ] || wanted "$s" || continue
      run "$s" PG_MAJOR="$major" || [ "$s" != build ] || break   # no build: nothing to test
    done
    echo "$PASSED $FAILED" >"$RUNLOGS/totals-$major"
  ) >"$RUNLOGS/major-$major.out" 2>&1
  read -r p f <"$RUNLOGS/totals-$major" || { p=0; f=1; }
  echo "== PostgreSQL $major: $p passed, $f failed in $((SECONDS - t)) s (output: $RUNLOGS/major-$major.out)"
}

# The majors in LANES lanes side by side; each lane runs its majors one after
# another, in the order PG_MAJORS gives them. The default, a lane a major, keeps both
# cores busy to the end: with three lanes (stop 29), 15 waited for 13 and 19 for 18,
# and the last ~400 s ran on fewer lanes than cores could serve; and 15, which needs
# no chroot, starts while the chroots are made. A major whose chroot is still being
# made waits for it (scripts/chroot.sh's lock). Every major's output is printed when
# all are done.
if [ -n "$server_suites" ]; then
  n_majors=0; for major in $PG_MAJORS; do n_majors=$((n_majors + 1)); done
  LANES="${LANES:-$n_majors}"
  lane_majors=()
  i=0
  for major in $PG_MAJORS; do lane_majors[$((i % LANES))]+="$major "; i=$((i + 1)); done
  lane_pids=()
  for l in "${!lane_majors[@]}"; do
    ( for major in ${lane_majors[$l]}; do run_major "$major"; done ) &
    lane_pids+=($!)
  done
  for pid in "${lane_pids[@]}"; do wait "$pid"; done
fi
for c in "${!CHROOT_JOB[@]}"; do
  if wait "${CHROOT_JOB[$c]}"; then echo "== chroot $c: $(tail -n 1 "$LOGS/chroot-$c.log")"
  else echo "== chroot $c could not be made:"; tail -n 8 "$LOGS/chroot-$c.log"; fi
done
wait "$CITUS_AHEAD_15"
for f in "$LOGS"/citus-ahead-*.log; do [ -f "$f" ] && echo "== $(tail -n 1 "$f")"; done
wait "$CORE_JOB"
cat "$RUNLOGS/core.out"
read -r p f <"$RUNLOGS/totals-core" || { p=0; f=1; }
PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
if [ -n "$server_suites" ]; then
  for major in $PG_MAJORS; do
    echo
    echo "======== PostgreSQL $major"
    cat "$RUNLOGS/major-$major.out"
    read -r p f <"$RUNLOGS/totals-$major" || { p=0; f=1; }
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
  done
  wanted bench && [[ " $PG_MAJORS " != *" 15 "* ]] && NOTES+=("bench: not run (it measures the host's server, 15)")
fi

# Across majors, in the sid chroot: pg_upgrade 13 -> 18 and 18 -> 19, dumps 13 <-> 18.
if wanted crossversion; then
  if [[ " $PG_MAJORS " == *" 13 "* ]]; then
    run crossversion || true
  else
    NOTES+=("crossversion: not run (it installs the extension built for 13 in the bullseye chroot into the sid chroot's 13: 13 must be in PG_MAJORS)")
  fi
fi

echo
for note in "${NOTES[@]}"; do echo "$note"; done
# What failed, again at the end, where a reader of the last lines looks: each suite
# that counted a failure, and its failed checks (at most 10 lines each).
if [ "$FAILED" -ne 0 ]; then
  echo "what failed:"
  for out in "$RUNLOGS"/*.out; do
    case "$out" in */major-*.out|*/core.out) continue ;; esac
    line="$(tail -n 1 "$out")"
    [[ "$line" =~ ^[0-9]+\ passed,\ 0\ failed$ ]] && continue
    echo "  $(basename "$out" .out | tr _ ' '): $line"
    grep -E '^ *(FAIL|not ok)|ended without' "$out" | head -n 10 | cut -c1-240 | sed 's/^ */    /'
  done
fi
busy_end="$(busy_cpu_s)"; steal_end="$(steal_cpu_s)"
echo "whole run: $((SECONDS - START)) s${busy_end:+, the machine busy for $((busy_end - BUSY_START)) CPU-s of $(( (SECONDS - START) * $(nproc) )) ($(nproc) cores)${steal_end:+, $((steal_end - STEAL_START)) of them stolen by the hypervisor}}"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
