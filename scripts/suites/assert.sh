#!/usr/bin/env bash
# The assert lane: the host's major (15) built from Debian's source package with
# --enable-cassert --enable-debug --enable-tap-tests (scripts/pg-assert.sh: 5 to 8
# minutes on 2 cores the first time, then cached under /var/cache/ulid_tsid/assert-15),
# the extension built from the committed tree (`git archive HEAD`, with -Werror) and
# installed into it, then against it: the regress suite without and with
# shared_preload_libraries = 'ulid_tsid', the concurrency suite and the TAP suite
# (the same suite programs, with PG_MAJOR=15-assert: scripts/lib/pg.sh). A release
# build does not check what the server's assertions check (the sequence tuples and
# WAL the mark writes, its shared memory, the planner hooks); here a failed one
# aborts the backend with "TRAP:" in the server log.
#
#   bash scripts/suites/assert.sh                 the lane (its own command)
#   ASSERT_SUITES="regress tap" bash scripts/suites/assert.sh   a part of it
#   ASSERT_CACHED_ONLY=1 ...   skip with one line when the server is not built yet
#                              (what scripts/test.sh does)
#
# Besides each suite's own checks, one check per suite: no server log of its
# clusters holds "TRAP:" or a backend "terminated by signal" (the TAP suite's
# deliberate SIGKILLs, signal 9, excepted: 003 and 012 kill backends on purpose);
# a failing check names the log and prints the lines after the TRAP (15's own
# backtrace of the failed assertion). Each suite's whole output is kept in
# .cluster/logs/assert/.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$ROOT/scripts/lib/suite.sh"
host_major="$(/usr/bin/pg_config --version | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p')"
export PG_MAJOR="$host_major-assert"
SUITE_LABEL="PG $PG_MAJOR"
ASSERT_SUITES=" ${ASSERT_SUITES:-regress regress_preloaded concurrency tap} "
mkdir -p "$LOGS/assert"

t=$SECONDS
if [ -n "${ASSERT_CACHED_ONLY:-}" ]; then
  bash "$ROOT/scripts/pg-assert.sh" --cached >/dev/null 2>&1 ||
    { echo "   assert: skipped, PostgreSQL $host_major with assertions is not built (bash scripts/suites/assert.sh builds it: 5 to 8 minutes)"; exit 0; }
fi
if ! bash "$ROOT/scripts/pg-assert.sh" >/dev/null; then
  check "PostgreSQL $host_major built with assertions (scripts/pg-assert.sh)" false
  exit 1
fi
build_s=$((SECONDS - t))
# The server is there: its settings and its lock (held for every suite below).
source "$ROOT/scripts/lib/pg.sh"
echo "   $("$PG_CONFIG" --version) with assertions ($(cat "$(dirname "$PG_BINDIR")/../SOURCE")): $PG_CONFIG"
check "PostgreSQL $host_major with --enable-cassert ($build_s s; cached in $(dirname "$(dirname "$PG_BINDIR")"))" \
  grep -q -- '--enable-cassert' <("$PG_CONFIG" --configure)

# assert_logs NAME SIGNAL9 STAMP DIR...: one check, that no server log under the
# DIRs written since STAMP holds a TRAP or a backend terminated by a signal (but
# signal 9 when SIGNAL9 is "allowed").
assert_logs() {
  local name="$1" sig9="$2" stamp="$3"; shift 3
  local f n=0 bad=() why
  while IFS= read -r -d '' f; do
    n=$((n + 1))
    why=""
    grep -q 'TRAP:' "$f" && why="TRAP"
    if grep -E 'terminated by signal [0-9]+' "$f" | { [ "$sig9" = allowed ] && grep -v 'terminated by signal 9:' || cat; } | grep -q .; then
      why="${why:+$why, }terminated by signal"
    fi
    [ -z "$why" ] && continue
    bad+=("$f ($why)")
    echo "   ---- $f:"
    grep -n -A 25 'TRAP:' "$f" | head -80 | sed 's/^/   /'
    grep -n -B 3 'terminated by signal' "$f" | head -20 | sed 's/^/   /'
  done < <(find "$@" -type f \( -name '*.log' ! -name 'regress_log_*' \) -newer "$stamp" -print0 2>/dev/null)
  check "$name: no TRAP and no backend terminated by a signal$([ "$sig9" = allowed ] && echo " (but the tests' SIGKILLs)") in its $n server logs${bad:+: ${bad[*]}}" \
    test ${#bad[@]} -eq 0
}

# lane NAME [ENV=VALUE...]: one suite program with PG_MAJOR=15-assert, its output
# shown and kept, its last line added up; then its server logs read.
lane() {
  local name="$1" suite="${1%_preloaded}" out line p f rc t=$SECONDS stamp
  shift
  out="$LOGS/assert/$name.out"
  stamp="$LOGS/assert/$name.stamp"; touch "$stamp"
  echo "== running $suite on PG $PG_MAJOR${*:+ ($*)}"
  env "$@" bash "$ROOT/scripts/suites/$suite.sh" 2>&1 | tee "$out"
  rc=${PIPESTATUS[0]}
  line="$(tail -n 1 "$out")"
  if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    p=${BASH_REMATCH[1]}; f=${BASH_REMATCH[2]}
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
  else
    p=0; f=1; echo "   $name ended without its 'N passed, N failed' line (exit $rc)"
  fi
  tally "$name ($((SECONDS - t)) s)" "$p" "$f"
  if [ "$suite" != build ]; then
    local sig9=refused; [ "$suite" = tap ] && sig9=allowed
    assert_logs "$name" "$sig9" "$stamp" "$CLUSTERS" "$PG_SRC/build/tap"
  fi
  rm -f "$stamp"
  [ "$f" -eq 0 ]
}

wanted() { case "$ASSERT_SUITES" in *" $1 "*) return 0 ;; esac; return 1; }
lane build || exit 1
wanted regress && lane regress
wanted regress_preloaded && lane regress_preloaded REGRESS_PRELOAD=1
wanted concurrency && lane concurrency
wanted tap && lane tap
exit 0
