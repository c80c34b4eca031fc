#!/usr/bin/env bash
# Runs libFuzzer targets (built by test/fuzz/fuzz.mk under build/fuzz/) and judges
# each: the one runner of both `make fuzz-smoke` (a time limit, a fresh corpus)
# and `make fuzz-long` (an execution count, a corpus kept between runs).
#
#   test/fuzz/run.sh [--seconds S | --runs N] [--workers W] [--corpus DIR] [--fresh] TARGET...
#
#   --seconds S   each target runs S seconds (-max_total_time; the smoke)
#   --runs N      each target runs until it has made at least N executions in all:
#                 each of W workers gets -runs=ceil(N/W), and their final
#                 stat::number_of_executed_units are added up (the long run)
#   --workers W   W processes per target sharing its corpus directory (libFuzzer
#                 reloads the directory, so they share what each finds); default 1
#   --corpus DIR  the corpus of TARGET is DIR/TARGET (default build/fuzz/corpus);
#                 the committed seeds test/fuzz/corpus/TARGET/ are copied in first
#   --fresh       empty DIR/TARGET before copying the seeds
# FUZZ_ARGS adds libFuzzer flags to every worker. TMPDIR, where fuzz_key_file
# writes its file, is /dev/shm unless set.
#
# Per target one line
#   FUZZ TARGET PASS|FAIL execs=N secs=S exec/s=R corpus=FILES workers=W
# (a FAIL line is followed by the first lines of the report and the log's name).
# A target fails when a worker exits non-zero, a log holds a sanitizer report, a
# libFuzzer error or a failed FUZZ_CHECK, or (with --runs) the executions add up
# to fewer than N. The other workers of a failed target are stopped. Logs:
# build/fuzz/logs/TARGET.log (worker 1), TARGET.wK.log (worker K); crashes:
# build/fuzz/artifacts/TARGET-crash-*. Exit status 0 only when every target passed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2

seconds=""; runs=""; workers=1; corpus_root=build/fuzz/corpus; fresh=0
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --workers) workers="$2"; shift 2 ;;
    --corpus) corpus_root="$2"; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --) shift; break ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if { [ -z "$seconds" ] && [ -z "$runs" ]; } || { [ -n "$seconds" ] && [ -n "$runs" ]; }; then
  echo "run.sh: give one of --seconds S or --runs N" >&2; exit 2
fi
case "$workers" in ''|*[!0-9]*|0) echo "run.sh: --workers must be a positive integer" >&2; exit 2 ;; esac
[ $# -gt 0 ] || { echo "run.sh: no target" >&2; exit 2; }

# fuzz_key_file rewrites a real file per input: on tmpfs, not on /tmp's disk.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi

report_re='ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer|UndefinedBehaviorSanitizer)|runtime error:|FUZZ_CHECK failed|SUMMARY: '
mkdir -p build/fuzz/artifacts build/fuzz/logs
failed=0

# worker_log TARGET K: worker K's log (worker 1's keeps the smoke's old name).
worker_log() { if [ "$2" -eq 1 ]; then echo "build/fuzz/logs/$1.log"; else echo "build/fuzz/logs/$1.w$2.log"; fi; }

for t in "$@"; do
  bin=build/fuzz/$t
  if [ ! -x "$bin" ]; then
    echo "FUZZ $t FAIL execs=0 (no binary $bin: make fuzz-build)"; failed=1; continue
  fi
  corpus=$corpus_root/$t
  [ "$fresh" = 1 ] && rm -rf "$corpus"
  mkdir -p "$corpus"
  # Seeds are copied, never linked: only the copy grows.
  [ -d "test/fuzz/corpus/$t" ] && cp -n test/fuzz/corpus/"$t"/* "$corpus"/ 2>/dev/null
  if [ -n "$runs" ]; then
    limit="-runs=$(( (runs + workers - 1) / workers ))"
    echo "fuzzing $t for $runs executions on $workers worker(s) (log: $(worker_log "$t" 1))"
  else
    limit="-max_total_time=$seconds"
    echo "fuzzing $t for ${seconds}s on $workers worker(s) (log: $(worker_log "$t" 1))"
  fi
  start=$(date +%s.%N)
  declare -A pid_of=()
  for k in $(seq 1 "$workers"); do
    # shellcheck disable=SC2086  # FUZZ_ARGS is a list of flags
    "./$bin" "$limit" -print_final_stats=1 -artifact_prefix="build/fuzz/artifacts/$t-" \
      ${FUZZ_ARGS:-} "$corpus" >"$(worker_log "$t" "$k")" 2>&1 &
    pid_of[$!]=$k
  done
  # Wait for every worker; the first that fails stops the others (ours, by pid).
  rc_all=0; bad_worker=""
  while [ "${#pid_of[@]}" -gt 0 ]; do
    wait -n -p done_pid "${!pid_of[@]}"; rc=$?
    k=${pid_of[$done_pid]}; unset "pid_of[$done_pid]"
    if [ "$rc" -ne 0 ] && [ -z "$bad_worker" ]; then
      rc_all=$rc; bad_worker=$k
      for p in "${!pid_of[@]}"; do kill "$p" 2>/dev/null; done
    fi
  done
  unset pid_of
  secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  execs=0; report_log=""
  for k in $(seq 1 "$workers"); do
    log=$(worker_log "$t" "$k")
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    execs=$((execs + ${n:-0}))
    [ -z "$report_log" ] && grep -qE "$report_re" "$log" && report_log=$log
  done
  [ -n "$bad_worker" ] && [ -z "$report_log" ] && report_log=$(worker_log "$t" "$bad_worker")
  rate=$(awk -v n="$execs" -v s="$secs" 'BEGIN { printf "%d", (s > 0 ? n / s : 0) }')
  files=$(find "$corpus" -maxdepth 1 -type f | wc -l)
  line="execs=$execs secs=$secs exec/s=$rate corpus=$files workers=$workers"
  if [ "$rc_all" -eq 0 ] && [ -z "$report_log" ] && { [ -z "$runs" ] || [ "$execs" -ge "$runs" ]; }; then
    echo "FUZZ $t PASS $line"
  else
    if [ "$rc_all" -ne 0 ] || [ -n "$report_log" ]; then
      echo "FUZZ $t FAIL $line rc=$rc_all"
      grep -m5 -E 'FUZZ_CHECK failed|ERROR:|runtime error:|SUMMARY:|Test unit written' "$report_log"
      echo "log: $report_log"
    else
      echo "FUZZ $t FAIL $line (fewer than the $runs executions asked for)"
    fi
    failed=1
  fi
done
exit $failed
