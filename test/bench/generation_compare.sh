#!/usr/bin/env bash
# Generation cost of 0.3.0 against today's tree, on one major, side by side
# (issue 21 item 3: "generation stays within 10% of 0.3.0's cost and within 0.3x
# nextval(), on every major").
#
#   PG_MAJOR=17 bash test/bench/generation_compare.sh        (13, 15, 17, 18, 19)
#
# What it does:
# - builds today's tree for the major and installs it (scripts/lib/pg.sh's pg_build:
#   the host's 15, or the major's chroot), and builds 0.3.0 (git revision OLD_REV,
#   default 3c2b641, the last commit of 0.3.0) from `git archive` in a tree of its
#   own, installed beside it under another name: library ulid_tsid_v030.so and
#   extension ulid_tsid_v030 (0.3.0's own install script, module_pathname pointing
#   at that library). Both are removed again at exit.
# - per mode (plain, preload), two clusters of the same configuration at once, one
#   with CREATE EXTENSION ulid_tsid_v030 (and shared_preload_libraries =
#   'ulid_tsid_v030' when preloaded), one with CREATE EXTENSION ulid_tsid.
# - REPS rounds; in each, for each generator and nextval(), one new session on each
#   cluster right after the other (which goes first alternates), so that the two
#   builds of a pair are timed within a second of each other: the session warms up
#   (1,000 calls), then times
#       EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) SELECT count(f()) FROM gc_n   (N rows)
#   minus the same with count(1) run right after it ("Execution Time", server-side).
#   The figures are the medians over rounds of: net ns per call, net relative to
#   nextval() of the same session, and today's net over 0.3.0's of the same round.
#   Measured side by side, a ratio is fair even when other work shares the CPUs;
#   absolute ns move with the load.
# - with INSTR=1 (default), instruction counts per call (generation_instructions.sh,
#   callgrind) of both builds; valgrind is installed on demand (apt-get, inside the
#   chroot under $CACHE/locks/apt-SUITE; on the host it must be installed).
# On 15 it holds /tmp/ulid_tsid.pg15.lock for the whole run (the host's shared
# server), unless PG15_LOCK_HELD=1 says the caller does.
#
# - with CLOCK=0, no clock rounds (no wall-clock CSV): only the instruction counts,
#   which a machine shared with other work does not move.
# Environment: PG_MAJOR=15 N=1000000 REPS=15 MODES="plain preload" INSTR=1 CLOCK=1
#              OLD_REV=3c2b641 PORT_BASE=55470 (PORT_BASE..+1)
#              OUT_DIR=test/bench/results/generation_compare
# Output: $OUT_DIR/generation_compare-MAJOR.csv (wall clock) and
#         $OUT_DIR/generation_instructions-MAJOR.csv (instructions), and a table here.
set -uo pipefail
BENCH_HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PG_MAJOR="${PG_MAJOR:-15}"
if [ "$PG_MAJOR" = 15 ] && [ "${PG15_LOCK_HELD:-}" != 1 ]; then
  exec 5>/tmp/ulid_tsid.pg15.lock
  flock -n 5 || { echo "waiting for /tmp/ulid_tsid.pg15.lock"; flock 5; }
  export PG15_LOCK_HELD=1
fi
source "$BENCH_HERE/../../scripts/lib/pg.sh"
source "$BENCH_HERE/../../scripts/lib/old_version.sh"
N="${N:-1000000}"
REPS="${REPS:-15}"
MODES="${MODES:-plain preload}"
INSTR="${INSTR:-1}"
CLOCK="${CLOCK:-1}"
OLD_REV="${OLD_REV:-3c2b641}"
PORT_BASE="${PORT_BASE:-55470}"
OUT_DIR="${OUT_DIR:-$ROOT/test/bench/results/generation_compare}"
mkdir -p "$OUT_DIR"
CSV="$OUT_DIR/generation_compare-$PG_MAJOR.csv"
ICSV="$OUT_DIR/generation_instructions-$PG_MAJOR.csv"
WORK="$(mktemp -d /tmp/ulid_tsid_compare.XXXXXX)"
FUNCS="generate_ulid() generate_ulid_monotonic() generate_tsid() generate_uuidv7() nextval('gc_seq')"

PKGLIB="$(pg_in "$PG_CONFIG" --pkglibdir)"
SHARE="$(pg_in "$PG_CONFIG" --sharedir)"
OLD_FILES=("$PG_CHROOT$PKGLIB/ulid_tsid_v030.so" "$PG_CHROOT$SHARE/extension/ulid_tsid_v030.control"
           "$PG_CHROOT$SHARE/extension/ulid_tsid_v030--0.3.0.sql")
RUNNING=()
compare_cleanup() {
  local c
  for c in "${RUNNING[@]}"; do cluster_stop "$c" 2>/dev/null; done
  rm -f "${OLD_FILES[@]}"
  rm -rf "$WORK"
  suite_end
}
trap compare_cleanup EXIT
trap 'exit 130' INT TERM
must() { local what="$1"; shift; if "$@"; then check "$what" true; else check "$what" false; exit 1; fi; }

echo "== PostgreSQL $PG_MAJOR: building today's tree"
must "today's tree builds and installs (log: $LOGS/build-$PG_MAJOR.log)" pg_build

# 0.3.0, from git, in its own tree beside the current build (kept between runs).
OLD_SRC="$(old_version_src)"
old_build() {
  old_version_build "$OLD_REV" || return 1
  cp "$OLD_SRC/ulid_tsid.so" "${OLD_FILES[0]}" &&
  sed -e "s|^module_pathname.*|module_pathname = '\$libdir/ulid_tsid_v030'|" -e "s|^default_version.*|default_version = '0.3.0'|" \
    "$OLD_SRC/ulid_tsid.control" >"${OLD_FILES[1]}" &&
  cp "$OLD_SRC/sql/ulid_tsid--0.3.0.sql" "${OLD_FILES[2]}" &&
  chmod 644 "${OLD_FILES[@]}"
}
echo "== building 0.3.0 ($OLD_REV) as ulid_tsid_v030"
must "0.3.0 builds and installs beside it as ulid_tsid_v030 (log: $LOGS/build-v030-$PG_MAJOR.log)" old_build

psql_at() {  # psql_at DIR PORT: a session on that cluster, SQL on stdin
  PGHOST="$1" PGPORT="$2" pg_in psql -X -A -t -q -v ON_ERROR_STOP=1 -U postgres -d postgres
}
pair_sql() {  # pair_sql F: a warm-up, then count(F) and count(1) over gc_n
  echo "SET jit = off; SET max_parallel_workers_per_gather = 0;"
  echo "SELECT count($1) FROM generate_series(1, 1000);"
  echo "\\echo @ $1 f"; echo "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) SELECT count($1) FROM gc_n;"
  echo "\\echo @ $1 b"; echo "EXPLAIN (ANALYZE, TIMING OFF, SUMMARY ON) SELECT count(1) FROM gc_n;"
}

if [ "$CLOCK" = 1 ]; then   # the clock rounds (CLOCK=0: instructions only, for a machine shared with other work)
echo "major,preload,version,round,function,net_ns" >"$WORK/raw.csv"
port=$PORT_BASE
for mode in $MODES; do
  declare -A dir=() prt=()
  ok=1
  for v in 0.3.0 0.4.0; do
    name="cmp_${mode}_${v//./}"
    if [ "$v" = 0.3.0 ]; then ext=ulid_tsid_v030; else ext=ulid_tsid; fi
    conf=("jit = off" "max_parallel_workers_per_gather = 0")
    [ "$mode" = preload ] && conf+=("shared_preload_libraries = '$ext'")
    if ! cluster_start "$name" "$port" "${conf[@]}"; then check "cluster $name starts" false; ok=0; break; fi
    RUNNING+=("$name")
    dir[$v]="$PGHOST"; prt[$v]="$PGPORT"
    if ! printf '%s\n' "CREATE EXTENSION $ext;" "CREATE SEQUENCE gc_seq;" \
         "CREATE TABLE gc_n AS SELECT i FROM generate_series(1, $N) AS i;" "VACUUM (FREEZE, ANALYZE) gc_n;" |
         psql_at "${dir[$v]}" "${prt[$v]}" >"$WORK/setup.$name" 2>&1; then
      cat "$WORK/setup.$name"; check "setup of $name" false; ok=0; break
    fi
    port=$((port + 1))
  done
  if [ "$ok" = 1 ]; then
    for ((r = 1; r <= REPS; r++)); do
     fi=0
     for f in $FUNCS; do
      fi=$((fi + 1))
      if [ $(((r + fi) % 2)) -eq 1 ]; then order="0.3.0 0.4.0"; else order="0.4.0 0.3.0"; fi
      for v in $order; do
        pair_sql "$f" | psql_at "${dir[$v]}" "${prt[$v]}" >"$WORK/out" 2>&1 || { tail -3 "$WORK/out"; check "round $r of $f on $v ($mode)" false; continue; }
        awk -v maj="$PG_MAJOR" -v m="$mode" -v v="$v" -v r="$r" -v n="$N" '
          /^@ / { f = $2; w = $3; next }
          /Execution Time:/ { if (w == "f") t = $3; else printf "%s,%s,%s,%d,%s,%.2f\n", maj, m, v, r, f, (t - $3) * 1e6 / n }' \
          "$WORK/out" >>"$WORK/raw.csv"
      done
     done
    done
  fi
  for v in 0.3.0 0.4.0; do cluster_stop "cmp_${mode}_${v//./}"; done
  RUNNING=()
  unset dir prt
done
cp "$WORK/raw.csv" "$OUT_DIR/generation_compare-$PG_MAJOR.raw.csv"

# Per mode and function: medians over rounds of 0.3.0's and today's net ns, of each
# one's net / nextval() of the same session, and of today's / 0.3.0's per round.
awk -F, '
  function median(a, k,   i, j, t, b) { for (i = 1; i <= k; i++) b[i] = a[i]
    for (i = 2; i <= k; i++) { t = b[i]; for (j = i - 1; j >= 1 && b[j] > t; j--) b[j + 1] = b[j]; b[j + 1] = t }
    return (k % 2) ? b[(k + 1) / 2] : (b[k / 2] + b[k / 2 + 1]) / 2 }
  BEGIN { nv = "nextval(gc_seq)" }   # as psql echoes it (without the quotes)
  NR == 1 { next }
  { maj = $1; key = $2 SUBSEP $3 SUBSEP $4; ns[key, $5] = $6; if (!(($2, $5) in seen)) { seen[$2, $5] = 1; order[++nk] = $2 SUBSEP $5 }
    if (!(($2 SUBSEP $4) in rs)) { rs[$2 SUBSEP $4] = 1; rounds[$2] = rounds[$2] " " $4 } }
  END {
    print "major,preload,function,rounds,ns_030,ns_040,x_nextval_030,x_nextval_040,ratio_040_030"
    for (i = 1; i <= nk; i++) { split(order[i], p, SUBSEP); m = p[1]; f = p[2]
      if (f ~ /^nextval/) continue
      k = split(substr(rounds[m], 2), rr, " "); a = b = c = d = e = 0
      for (j = 1; j <= k; j++) { r = rr[j]; o = m SUBSEP "0.3.0" SUBSEP r; t = m SUBSEP "0.4.0" SUBSEP r
        if (!((o, f) in ns) || !((t, f) in ns)) continue
        a++; A[a] = ns[o, f]; B[a] = ns[t, f]; C[a] = ns[o, f] / ns[o, nv]; D[a] = ns[t, f] / ns[t, nv]; E[a] = (ns[o, f] > 0) ? ns[t, f] / ns[o, f] : 0 }
      printf "%s,%s,%s,%d,%.1f,%.1f,%.3f,%.3f,%.3f\n", maj, m, f, a, median(A, a), median(B, a), median(C, a), median(D, a), median(E, a)
    }
    for (m in rounds) { k = split(substr(rounds[m], 2), rr, " "); a = 0
      for (j = 1; j <= k; j++) { r = rr[j]; o = m SUBSEP "0.3.0" SUBSEP r; t = m SUBSEP "0.4.0" SUBSEP r
        if (((o, nv) in ns) && ((t, nv) in ns)) { a++; A[a] = ns[o, nv]; B[a] = ns[t, nv]; E[a] = ns[t, nv] / ns[o, nv] } }
      if (a) printf "%s,%s,%s,%d,%.1f,%.1f,1.000,1.000,%.3f\n", maj, m, nv, a, median(A, a), median(B, a), median(E, a) }
  }' "$WORK/raw.csv" >"$CSV"
check "wall-clock figures for every mode (CSV: $CSV)" test "$(tail -n +2 "$CSV" | wc -l)" -eq $(( $(wc -w <<<"$MODES") * 5 ))
echo "== PostgreSQL $PG_MAJOR: ns per call net (median of $REPS rounds, N=$N; the CPUs are shared with other work: compare the ratios)"
column -t -s, "$CSV"
fi

if [ "$INSTR" = 1 ]; then
  valgrind_ready() {
    [ -z "$PG_CHROOT" ] && { command -v valgrind >/dev/null; return; }
    pg_in sh -c 'command -v valgrind' >/dev/null 2>&1 && return 0
    local suite; suite="$(basename "$PG_CHROOT")"
    (flock 4; pg_in sh -c 'command -v valgrind >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends valgrind') \
      4>>"$ULID_TSID_CACHE/locks/apt-$suite" >"$LOGS/valgrind-$suite.log" 2>&1
  }
  if valgrind_ready; then check "valgrind available" true; else check "valgrind available (log: $LOGS/valgrind-*.log)" false; fi
  if valgrind_ready; then
    inner="$(pg_inside "$PG_SRC")/test/bench/generation_instructions.sh"
    for v in 0.3.0 0.4.0; do
      if [ "$v" = 0.3.0 ]; then ext=ulid_tsid_v030; else ext=ulid_tsid; fi
      # The other generators (core's, pg_uuidv7's) once, with today's build.
      if [ "$v" = 0.3.0 ]; then baselines=0; else baselines=1; fi
      (cd / && pg_in env PG_CONFIG="$PG_CONFIG" EXT="$ext" LIB="$ext" BASELINES="$baselines" N1="${INSTR_N1:-100000}" N2="${INSTR_N2:-300000}" CSV="/tmp/instr-$PG_KEY-$PG_MAJOR-$v.csv" \
         bash "$inner") >"$WORK/instr.$v.out" 2>&1
      check "instruction counts of $v" grep -q '^preload,' "$PG_CHROOT/tmp/instr-$PG_KEY-$PG_MAJOR-$v.csv"
      tail -n +2 "$PG_CHROOT/tmp/instr-$PG_KEY-$PG_MAJOR-$v.csv" | sed "s/^/$PG_MAJOR,$v,/" >>"$WORK/instr.csv"
      rm -f "$PG_CHROOT/tmp/instr-$PG_KEY-$PG_MAJOR-$v.csv"
    done
    awk -F, 'BEGIN { print "major,preload,function,instr_030,instr_040,change_pct,x_nextval_030,x_nextval_040" }
      { k = $3 SUBSEP $4; if (!(k in seen)) { seen[k] = 1; o[++n] = k }; i[$2, k] = $5; x[$2, k] = $6; maj = $1 }
      END { for (j = 1; j <= n; j++) { split(o[j], p, SUBSEP); a = i["0.3.0", o[j]]; b = i["0.4.0", o[j]]
        printf "%s,%s,%s,%s,%s,%s,%s,%s\n", maj, p[1], p[2], a, b, (a > 0) ? sprintf("%+.1f", (b - a) * 100 / a) : "", x["0.3.0", o[j]], x["0.4.0", o[j]] } }' \
      "$WORK/instr.csv" >"$ICSV"
    echo "== PostgreSQL $PG_MAJOR: instructions per call (callgrind)"
    column -t -s, "$ICSV"
  fi
fi
