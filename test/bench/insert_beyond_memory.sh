#!/usr/bin/env bash
# Inserts once the primary-key index no longer fits in memory: every key side by
# side, the server (postmaster and every child) inside a memory limit that counts
# the page cache, so that a random key's index, once past the limit, is read from
# the disk on every insert.
#
# The limit is a memory cgroup made for the run: cgroup v2's memory.max where the
# machine has a writable v2 memory controller, else cgroup v1's
# memory.limit_in_bytes; it is removed at the end (also on failure). Where neither
# can be used, one line says so and the run is unbounded. The server is started
# from a subshell that joined the group, so the postmaster and all its children
# are in it; psql and pgbench (the clients) are not.
#
# For each key, a fresh table  bench_rows (id <key> PRIMARY KEY, n int, payload text)
# (~100-byte rows, autovacuum off) right after a CHECKPOINT, then:
#   1. one writer: steps of STEP_ROWS rows, each one INSERT ... SELECT FROM
#      generate_series. UUIDv4 runs first and steps until its index is
#      TARGET_X (4) times the limit, then TAIL more steps; every other key then
#      inserts the same number of steps. Per step: rows/s, index size, WAL bytes
#      (pg_current_wal_lsn() difference), index blocks read by the server
#      (pg_statio_user_indexes.idx_blks_read: shared_buffers misses, which past
#      the limit go to the disk) and, on 16+, pg_stat_io's reads of relations.
#   2. eight writers (pgbench -c 8, CONC_SECS seconds each) on the now large
#      index: single-row inserts, then batched inserts (BATCH rows a transaction).
# The verdict compares the rates once UUIDv4's index is TARGET_X times the limit
# (the steps that end with it there, and the eight-writer phases) against the
# issue's targets: each of ours >= 0.95x bigserial, >= 20x UUIDv4, >= 2x each C
# anchor. It is printed, never asserted: a miss is reported as a miss.
#
# Keys (KEYS, in this order by default; a key whose default cannot be made here is
# skipped with one "skip: KEY: why" line):
#   uuidv4 (gen_random_uuid()), plpgsql_tsid (test/bench/plpgsql_tsid.sql),
#   core_uuidv7 (pg_catalog.uuidv7(), 18+), pg_uuidv7 (uuid_generate_v7() of
#   fboulnois/pg_uuidv7: Debian's package where the major's suite has one, sid's
#   1.7.0 for 18, installed into the chroot; else 1.6.0 from ../shared/vendor),
#   pg_ulid (gen_ulid() of andrielfn/pg-ulid), bigserial: the
#   baselines and C anchors, in a server without this extension; then ours, in a
#   server with it: ulid (generate_ulid()), ulid_monotonic
#   (generate_ulid_monotonic()), generate_uuidv7, tsid (tsid DEFAULT
#   generate_tsid()), bigint_tsid (bigint DEFAULT generate_tsid()).
# The C anchors are built here from ../shared/vendor/ (VENDOR) against the server
# used, into a private directory, and loaded from there (nothing is installed).
#
# Environment:
#   QUICK=1            the demo's form: a smaller limit, fewer rows; UUIDv4's index still
#                      passes the limit, to 1.5x of it (the verdict then says it is indicative)
#   LIMIT_MB=48        the memory limit (QUICK: 40)    SHARED_BUFFERS=16MB (QUICK: 8MB)
#   STEP_ROWS=250000   rows a step (QUICK: 100000)     TARGET_X=4 (QUICK: 1.5)  TAIL=1
#   STEPS=             fixed steps for every key (default: UUIDv4 decides, see above);
#   WINDOW_FROM=       with STEPS: the verdict's window starts at this step (e.g. a
#                      control run of some keys with the steps an earlier run's UUIDv4 took)
#   MAX_STEPS=80       UUIDv4 stops there even short of TARGET_X (the verdict says so)
#   CONC_SECS=10 (QUICK: 5)  CLIENTS=8  BATCH=100
#   CONC_LIMIT_MB=     the limit while the eight writers run (default LIMIT_MB + 12 MB a
#                      writer: each writer's backend showed ~11 MB resident on 18 (ps),
#                      the part of it the limit charges to the group included; without it 18's eight writers at
#                      48 MB thrashed and made 12 rows in 10 s)
#   KEYS="..."  OUT_DIR=test/bench/results  PORT_BASE=55470 (uses +0, +1)
#   NAME_PREFIX=bench_mem  PG_CONFIG=pg_config  VENDOR=../shared/vendor  PLOT=1
#   PG_MAJOR=          13, 15, 17, 18 or 19: that major's Debian server (test/bench/lib.sh),
#                      e.g. PG_MAJOR=18 for core 18's uuidv7(); the extension installed there
#                      first (PG_MAJOR=18 bash scripts/suites/build.sh, or INSTALL=1 here)
#   LIB_LOCK=          a lock file held (flock) while the server with this extension
#                      runs, e.g. /tmp/ulid_tsid.pg15.lock where checkouts share the host's
#                      15; empty by default (a caller that holds it already would wait forever)
#   INSTALL=0          1: `make install` this checkout under LIB_LOCK first
#   PREFIX=insert_beyond_memory (QUICK: insert_beyond_memory_quick)  file names in OUT_DIR
# Output: a line per step and phase, the summary table and the verdict on the
# terminal; $OUT_DIR/$PREFIX.csv (summary), ${PREFIX}_steps.csv (per step),
# $PREFIX.md, $PREFIX.png (rows/s against rows inserted, the limit marked).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"   # HERE, ROOT, clusters, PATH, TMP, STARTED

QUICK="${QUICK:-0}"
if [ "$QUICK" = 1 ]; then d_limit=40 d_sb=8MB d_step=100000 d_x=1.5 d_tail=1 d_conc=5
else d_limit=48 d_sb=16MB d_step=250000 d_x=4 d_tail=1 d_conc=10; fi
LIMIT_MB="${LIMIT_MB:-$d_limit}"
SHARED_BUFFERS="${SHARED_BUFFERS:-$d_sb}"
STEP_ROWS="${STEP_ROWS:-$d_step}"
TAIL="${TAIL:-$d_tail}"
CONC_SECS="${CONC_SECS:-$d_conc}"
TARGET_X="${TARGET_X:-$d_x}"
STEPS="${STEPS:-}"
MAX_STEPS="${MAX_STEPS:-80}"
CLIENTS="${CLIENTS:-8}"
BATCH="${BATCH:-100}"
# bigserial last of the baselines: right before ours, so that the two are the closest in time
# (on a shared machine the load moves the rates of keys run minutes apart).
KEYS="${KEYS:-uuidv4 plpgsql_tsid core_uuidv7 pg_uuidv7 pg_ulid bigserial ulid ulid_monotonic generate_uuidv7 tsid bigint_tsid}"
OUT_DIR="${OUT_DIR:-$HERE/results}"
PORT_BASE="${PORT_BASE:-55470}"
NAME_PREFIX="${NAME_PREFIX:-bench_mem}"
VENDOR="${VENDOR:-$ROOT/../shared/vendor}"
PLOT="${PLOT:-1}"
LIB_LOCK="${LIB_LOCK:-}"
INSTALL="${INSTALL:-0}"
if [ "$QUICK" = 1 ]; then PREFIX="${PREFIX:-insert_beyond_memory_quick}"; else PREFIX="${PREFIX:-insert_beyond_memory}"; fi
mkdir -p "$OUT_DIR"
STEPS_CSV="$OUT_DIR/${PREFIX}_steps.csv"
SUMMARY="$OUT_DIR/$PREFIX.csv"
LIMIT_BYTES=$((LIMIT_MB * 1048576))
CONC_LIMIT_MB="${CONC_LIMIT_MB:-$((LIMIT_MB + 12 * CLIENTS))}"
TARGET_BYTES="$(awk -v x="$TARGET_X" -v l="$LIMIT_BYTES" 'BEGIN { printf "%.0f", x * l }')"
# The clusters under the private temporary directory (the postgres user may not
# reach the checkout, and cluster_start's fallback would happen in a subshell); with
# PG_MAJOR, where scripts/lib/pg.sh put them, under the major's chroot.
[ -n "${PG_CHROOT:-}" ] || { CLUSTERS="$TMP/clusters"; mkdir -p "$CLUSTERS"; }
server_version() { pg_in "$PG_CONFIG" --version; }   # PG_CONFIG as seen where the server is

key_column() {
  case "$1" in
    uuidv4)          echo "uuid DEFAULT gen_random_uuid()" ;;
    bigserial)       echo "bigserial" ;;
    plpgsql_tsid)    echo "bigint DEFAULT bench_plpgsql.plpgsql_generate_tsid()" ;;
    core_uuidv7)     echo "uuid DEFAULT pg_catalog.uuidv7()" ;;
    pg_uuidv7)       echo "uuid DEFAULT uuid_generate_v7()" ;;
    pg_ulid)         echo "ulid DEFAULT gen_ulid()" ;;
    ulid)            echo "ulid DEFAULT generate_ulid()" ;;
    ulid_monotonic)  echo "ulid DEFAULT generate_ulid_monotonic()" ;;
    generate_uuidv7) echo "uuid DEFAULT generate_uuidv7()" ;;
    tsid)            echo "tsid DEFAULT generate_tsid()" ;;
    bigint_tsid)     echo "bigint DEFAULT generate_tsid()" ;;
    *) return 1 ;;
  esac
}
key_family() {   # ours | anchor (C extensions, core 18) | seed (PL/pgSQL) | ref (UUIDv4, bigserial)
  case "$1" in
    ulid|ulid_monotonic|generate_uuidv7|tsid|bigint_tsid) echo ours ;;
    pg_uuidv7|pg_ulid|core_uuidv7) echo anchor ;;
    plpgsql_tsid) echo seed ;;
    *) echo ref ;;
  esac
}
for k in $KEYS; do key_column "$k" >/dev/null || { echo "unknown key: $k" >&2; exit 2; }; done
base_keys=""; our_keys=""
for k in $KEYS; do if [ "$(key_family "$k")" = ours ]; then our_keys="$our_keys $k"; else base_keys="$base_keys $k"; fi; done

# ---- the memory limit ---------------------------------------------------------
CG=""; CG_KIND="none"; CG_WHY=""
cgroup_make() {
  local name="ulid_tsid_${NAME_PREFIX}_$$" v2=/sys/fs/cgroup
  if [ -f "$v2/cgroup.controllers" ] && grep -qw memory "$v2/cgroup.controllers" &&
     mkdir "$v2/$name" 2>/dev/null; then
    if [ -f "$v2/$name/memory.max" ] && echo "$LIMIT_BYTES" >"$v2/$name/memory.max" 2>/dev/null; then
      CG="$v2/$name"; CG_KIND="cgroup v2 memory.max"; return 0
    fi
    rmdir "$v2/$name" 2>/dev/null
  fi
  if [ -d /sys/fs/cgroup/memory ] && mkdir "/sys/fs/cgroup/memory/$name" 2>/dev/null; then
    if echo "$LIMIT_BYTES" >"/sys/fs/cgroup/memory/$name/memory.limit_in_bytes" 2>/dev/null; then
      CG="/sys/fs/cgroup/memory/$name"; CG_KIND="cgroup v1 memory.limit_in_bytes"; return 0
    fi
    rmdir "/sys/fs/cgroup/memory/$name" 2>/dev/null
  fi
  CG_WHY="no writable memory cgroup (v2 memory.max or v1 memory.limit_in_bytes) for this user"
  return 1
}
cgroup_remove() {
  [ -n "$CG" ] && [ -d "$CG" ] || return 0
  local i
  for i in 1 2 3 4 5 6 7 8 9 10; do rmdir "$CG" 2>/dev/null && return 0; sleep 0.5; done
  echo "warning: could not remove $CG (tasks: $(tr '\n' ' ' <"$CG/cgroup.procs" 2>/dev/null))" >&2
}
cgroup_limit() {   # cgroup_limit MB: the group's limit from now on
  [ -n "$CG" ] || return 0
  if [ -f "$CG/memory.max" ]; then echo $(($1 * 1048576)) >"$CG/memory.max"
  else echo $(($1 * 1048576)) >"$CG/memory.limit_in_bytes"; fi
}
cgroup_usage() {   # bytes the group holds now (page cache included)
  if [ -f "$CG/memory.current" ]; then cat "$CG/memory.current"
  elif [ -f "$CG/memory.usage_in_bytes" ]; then cat "$CG/memory.usage_in_bytes"; else echo 0; fi
}
cgroup_peak() {
  if [ -f "$CG/memory.max_usage_in_bytes" ]; then cat "$CG/memory.max_usage_in_bytes"
  elif [ -f "$CG/memory.peak" ]; then cat "$CG/memory.peak"; else echo ""; fi
}
LOCK_FD_OPEN=0
mem_cleanup() {
  bench_cleanup
  cgroup_remove
  [ -z "${PG_CHROOT:-}" ] || rm -rf "$ANCHOR_DIR"
}
trap mem_cleanup EXIT

# A cluster whose server runs inside the group: cluster_start from a subshell that
# joined it (initdb, pg_ctl and so the postmaster and its children inherit it).
mem_cluster_start() {  # NAME PORT conf...
  local name="$1" port="$2"; shift 2
  (
    if [ -n "$CG" ]; then echo "$BASHPID" >"$CG/cgroup.procs" || exit 1; fi
    cluster_start "$name" "$port" "$@"
  ) || return 1
  export PGHOST="$(cluster_dir "$name")" PGPORT="$port" PGUSER=postgres PGDATABASE=postgres
  q -c "SELECT 1" >/dev/null || return 1
  if [ -n "$CG" ]; then   # every server process is in the group
    local pm; pm="$(head -1 "$(cluster_dir "$name")/data/postmaster.pid")"
    grep -qx "$pm" "$CG/cgroup.procs" || { echo "FAIL: the postmaster ($pm) is not in $CG"; return 1; }
  fi
}

# ---- the C anchors, built against this server ---------------------------------
# (in its filesystem: a major's chroot has its compiler and headers; a path under
# the chroot is the same file inside and out)
if [ -n "${PG_CHROOT:-}" ]; then ANCHOR_DIR="$PG_CHROOT/var/tmp/ulid_tsid_anchors_${NAME_PREFIX}_$$"; else ANCHOR_DIR="$TMP/vendor"; fi
ANCHOR_SQL_pg_uuidv7=""; ANCHOR_SQL_pg_ulid=""
ANCHOR_WHY_pg_uuidv7=""; ANCHOR_WHY_pg_ulid=""
PG_UUIDV7_FROM="fboulnois/pg_uuidv7 1.6.0 from ../shared/vendor, C"
# pg_uuidv7 as users install it: Debian's package for a chroot major whose suite has one.
pg_uuidv7_packaged() {
  [ -n "${PG_MAJOR:-}" ] || return 1
  source "$ROOT/scripts/lib/debian_pkg.sh"
  debian_pkg "postgresql-$PG_MAJOR-pg-uuidv7" || return 1
  PG_UUIDV7_FROM="fboulnois/pg_uuidv7 from Debian's postgresql-$PG_MAJOR-pg-uuidv7 $DEBIAN_PKG_VERSION, C"
}
anchor_build() {  # key tarball
  local key="$1" tarball="$2" top src dir
  src="$VENDOR/$tarball"; top="${tarball%.tar.gz}"
  if [ ! -f "$src" ]; then printf -v "ANCHOR_WHY_$key" '%s' "its source $src is not there (the C anchors come from ../shared/vendor)"; return 1; fi
  dir="$ANCHOR_DIR"; mkdir -p "$dir"
  tar -xzf "$src" -C "$dir" || { printf -v "ANCHOR_WHY_$key" '%s' "tar -xzf $src failed"; return 1; }
  if ! (cd "$dir/$top" && pg_in make PG_CONFIG="$PG_CONFIG" with_llvm=no) >"$TMP/build-$key.log" 2>&1; then
    printf -v "ANCHOR_WHY_$key" '%s' "it does not build against $(server_version): $(grep -m1 -i error "$TMP/build-$key.log")"; return 1
  fi
  chmod -R a+rX "$dir"
  case "$key" in
    pg_ulid)   sed "s|AS 'ulid'|AS '$dir/$top/ulid.so'|g" "$dir/$top/ulid--0.0.1.sql" >"$TMP/$key.sql" ;;
    pg_uuidv7) sed -e '/^\\echo/d' -e "s|'MODULE_PATHNAME'|'$dir/$top/pg_uuidv7.so'|g" "$dir/$top/sql/pg_uuidv7--1.6.sql" >"$TMP/$key.sql" ;;
  esac
  printf -v "ANCHOR_SQL_$key" '%s' "$TMP/$key.sql"
}

# ---- sampling -----------------------------------------------------------------
HAS_PG_STAT_IO=0
snapshot() {  # wal_lsn_bytes pk_bytes idx_blks_read io_reads
  local io="NULL"
  [ "$HAS_PG_STAT_IO" = 1 ] && io="(SELECT sum(reads) FROM pg_stat_io WHERE object = 'relation')::bigint"
  q -F' ' -c "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn, pg_relation_size('bench_rows_pkey'),
                     coalesce((SELECT idx_blks_read FROM pg_statio_user_indexes WHERE indexrelname = 'bench_rows_pkey'), 0),
                     coalesce($io, -1)"
}
now() { echo "$EPOCHREALTIME"; }
FLUSH=()   # 15+: the inserting session's statistics, flushed before the sample is read

echo "phase,key,family,step,rows_total,rows,seconds,rows_per_s,pk_bytes,wal_bytes,idx_blks_read,io_reads,cgroup_bytes" >"$STEPS_CSV"
: >"$TMP/summary.body"
FAILED=0
UUIDV4_STEPS=""      # steps UUIDv4 took to reach TARGET_X x the limit (+ TAIL)
UUIDV4_CROSS="${WINDOW_FROM:-}"   # the first step whose end saw UUIDv4's index at TARGET_X x the limit
UUIDV4_LIMIT_ROWS="" # rows inserted when UUIDv4's index passed the limit itself
declare -A WIN_ROWS WIN_SECS PK_END DENS WAL_ROWS WAL_SUM IDX_WIN C1 C8 SEEN

step_line() {  # phase key step total rows secs pk wal idx io
  local rate cg; rate="$(awk -v r="$5" -v s="$6" 'BEGIN { printf "%.0f", (s > 0) ? r / s : 0 }')"
  cg="$(cgroup_usage)"
  echo "$1,$2,$(key_family "$2"),$3,$4,$5,$6,$rate,$7,$8,$9,${10},$cg" >>"$STEPS_CSV"
  printf '  %-15s %-9s %3s %11s rows %9s rows/s  pk %7.1f MB (%5.2fx limit)  WAL %7.1f MB  idx reads %8s  group %6.1f MB\n' \
    "$2" "$1" "$3" "$4" "$rate" "$(awk -v b="$7" 'BEGIN{print b/1048576}')" "$(awk -v b="$7" -v l="$LIMIT_BYTES" 'BEGIN{print b/l}')" \
    "$(awk -v b="$8" 'BEGIN{print b/1048576}')" "$9" "$(awk -v b="$cg" 'BEGIN{print b/1048576}')"
}

run_key() {  # key
  local key="$1" col err
  col="$(key_column "$key")"
  if ! err="$(q -c "DROP TABLE IF EXISTS bench_rows" \
                -c "CREATE TABLE bench_rows (id $col PRIMARY KEY, n int NOT NULL, payload text NOT NULL) WITH (autovacuum_enabled = off)" 2>&1)"; then
    echo "skip: $key ($col): $(echo "$err" | grep -m1 ERROR)"; return 0
  fi
  q -c "CHECKPOINT" >/dev/null || return 1
  local w0 p0 i0 o0 w1 p1 i1 o1 t0 t1 secs s=0 total=0 nsteps
  read -r w0 p0 i0 o0 <<<"$(snapshot)"
  [ -n "$o0" ] || { echo "FAIL: $key: cannot sample: $(snapshot 2>&1 | grep -m1 ERROR)"; return 1; }
  local wstart=$w0 win_rows=0 win_secs=0 win_idx=0 crossed=0 tail_left=$TAIL
  while :; do
    s=$((s + 1))
    t0="$(now)"
    if ! err="$(q -c "INSERT INTO bench_rows (n, payload) SELECT g, repeat('x', 96) FROM generate_series(1, $STEP_ROWS) g" "${FLUSH[@]}" 2>&1)"; then
      echo "FAIL: $key, step $s: $(echo "$err" | grep -m1 -E 'ERROR|FATAL|server')"; return 1
    fi
    t1="$(now)"
    secs="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')"
    read -r w1 p1 i1 o1 <<<"$(snapshot)"
    total=$((total + STEP_ROWS))
    step_line 1w "$key" "$s" "$total" "$STEP_ROWS" "$secs" "$p1" "$((w1 - w0))" "$((i1 - i0))" "$((o1 - o0))"
    # The verdict's window: the steps that end with UUIDv4's index at TARGET_X x the limit.
    if [ "$key" = uuidv4 ] && [ -z "$STEPS" ]; then
      [ -z "$UUIDV4_LIMIT_ROWS" ] && [ "$p1" -ge "$LIMIT_BYTES" ] && UUIDV4_LIMIT_ROWS=$total
      if [ "$crossed" = 0 ] && [ "$p1" -ge "$TARGET_BYTES" ]; then crossed=1; UUIDV4_CROSS=$s; fi
    fi
    if [ -n "$UUIDV4_CROSS" ] && [ "$s" -ge "$UUIDV4_CROSS" ]; then
      win_rows=$((win_rows + STEP_ROWS)); win_secs="$(awk -v a="$win_secs" -v b="$secs" 'BEGIN { printf "%.4f", a + b }')"
      win_idx=$((win_idx + i1 - i0))
    fi
    w0=$w1; i0=$i1; o0=$o1
    if [ -n "$STEPS" ]; then [ "$s" -ge "$STEPS" ] && break
    elif [ "$key" = uuidv4 ]; then
      if [ "$crossed" = 1 ]; then [ "$tail_left" -le 0 ] && break; tail_left=$((tail_left - 1)); fi
      [ "$s" -ge "$MAX_STEPS" ] && break
    else
      [ "$s" -ge "${UUIDV4_STEPS:-$MAX_STEPS}" ] && break
    fi
  done
  [ "$key" = uuidv4 ] && [ -z "$STEPS" ] && UUIDV4_STEPS=$s
  WIN_ROWS[$key]=$win_rows; WIN_SECS[$key]=$win_secs; IDX_WIN[$key]=$win_idx
  WAL_SUM[$key]=$((w1 - wstart)); WAL_ROWS[$key]=$total
  # Eight writers on the large index: single-row, then batched inserts.
  local phase batch out tx rows
  cgroup_limit "$CONC_LIMIT_MB" || echo "warning: the limit stays $LIMIT_MB MB for the writers"
  for phase in 8w_single 8w_batch; do
    batch=1; [ "$phase" = 8w_batch ] && batch=$BATCH
    read -r w0 p0 i0 o0 <<<"$(snapshot)"
    t0="$(now)"
    if ! out="$(pgbench -n -c "$CLIENTS" -j 2 -T "$CONC_SECS" -D batch="$batch" -f "$HERE/insert_batch.sql" 2>&1)"; then
      echo "FAIL: $key, $phase:"; echo "$out" | grep -iE -m3 'error|fatal|abort'; return 1
    fi
    t1="$(now)"
    tx="$(echo "$out" | awk -F': *' '/^number of transactions actually processed/ { split($2, a, "/"); print a[1]; exit }')"
    secs="$(echo "$out" | awk '/^tps = / { tps = $3 } END { print tps }')"
    [ -n "$tx" ] && [ -n "$secs" ] || { echo "FAIL: $key, $phase: no count in pgbench output"; echo "$out" | tail -5; return 1; }
    rows=$((tx * batch))
    secs="$(awk -v t="$tx" -v tps="$secs" 'BEGIN { printf "%.4f", (tps > 0) ? t / tps : 0 }')"
    sleep 0.5   # the exiting backends' statistics
    read -r w1 p1 i1 o1 <<<"$(snapshot)"
    total=$((total + rows))
    step_line "$phase" "$key" 1 "$total" "$rows" "$secs" "$p1" "$((w1 - w0))" "$((i1 - i0))" "$((o1 - o0))"
    if [ "$phase" = 8w_single ]; then C1[$key]="$(awk -v r="$rows" -v s="$secs" 'BEGIN { printf "%.0f", r / s }')"
    else C8[$key]="$(awk -v r="$rows" -v s="$secs" 'BEGIN { printf "%.0f", r / s }')"; fi
  done
  cgroup_limit "$LIMIT_MB" || { echo "FAIL: $key: the limit could not go back to $LIMIT_MB MB"; return 1; }
  PK_END[$key]=$p1
  DENS[$key]="$(q -c "SELECT round(avg_leaf_density::numeric, 1) FROM pgstatindex('bench_rows_pkey')" 2>/dev/null)"
  SEEN[$key]=1
  echo "$key,$(key_family "$key"),$total" >>"$TMP/summary.body"
  q -c "DROP TABLE bench_rows" -c "CHECKPOINT" >/dev/null
}

conf=("shared_buffers = '$SHARED_BUFFERS'" "max_wal_size = '8GB'" "checkpoint_timeout = '1h'" "jit = off"
      "full_page_writes = on" "wal_compression = off" "synchronous_commit = off" "max_connections = 20")

if cgroup_make; then
  echo "memory limit: $LIMIT_MB MB ($CG_KIND, $CG), the server and all its children inside"
else
  echo "memory limit: none: $CG_WHY; the run is unbounded (the index stays in the page cache)"
fi
echo "insert beyond memory: $STEP_ROWS rows a step, one writer (INSERT ... SELECT); then $CLIENTS writers (pgbench -c $CLIENTS -j 2, ${CONC_SECS}s single-row, ${CONC_SECS}s $BATCH-row batches)"
echo "server: $(server_version)${PG_CHROOT:+ (in the Debian chroot $PG_CHROOT)}, shared_buffers=$SHARED_BUFFERS fsync=off synchronous_commit=off max_wal_size=8GB checkpoint_timeout=1h; UUIDv4 runs first and steps until its index is ${TARGET_X}x the limit, then $TAIL more"

start_cluster_for() {  # NAME PORT label -> 0 started
  local name="$1" port="$2"
  if ! mem_cluster_start "$name" "$port" "${conf[@]}"; then
    echo "FAIL: cannot start cluster $name on port $port"; FAILED=$((FAILED + 1)); return 1
  fi
  STARTED+=("$name")
  [ "$(q -c "SHOW server_version_num")" -ge 150000 ] && FLUSH=(-c "SELECT pg_stat_force_next_flush()")
  [ "$(q -c "SHOW server_version_num")" -ge 160000 ] && HAS_PG_STAT_IO=1
  q -c "CREATE EXTENSION IF NOT EXISTS pgstattuple" >/dev/null
  return 0
}
stop_cluster_for() { cluster_stop "$1"; STARTED=("${STARTED[@]/$1}"); }

# Baselines and anchors: a server without this extension.
if [ -n "${base_keys// /}" ]; then
  name="${NAME_PREFIX}_base"
  if start_cluster_for "$name" "$PORT_BASE"; then
    q -f "$HERE/plpgsql_tsid.sql" >/dev/null
    for k in $base_keys; do
      case "$k" in
        core_uuidv7)
          [ "$(q -c "SHOW server_version_num")" -ge 180000 ] ||
            { echo "skip: core_uuidv7: the core's uuidv7() is PostgreSQL 18's (this server is $(q -c "SHOW server_version"))"; continue; } ;;
        pg_uuidv7)
          if pg_uuidv7_packaged; then
            q -c "CREATE EXTENSION pg_uuidv7" >/dev/null 2>"$TMP/anchor-$k.err" ||
              { echo "skip: $k: CREATE EXTENSION pg_uuidv7 fails here: $(grep -m1 ERROR "$TMP/anchor-$k.err")"; continue; }
          else
            anchor_build "$k" pg_uuidv7-1.6.0.tar.gz || { why="ANCHOR_WHY_$k"; echo "skip: $k: ${!why}"; continue; }
            q -f "$ANCHOR_SQL_pg_uuidv7" >/dev/null 2>"$TMP/anchor-$k.err" || { echo "skip: $k: its script fails here: $(grep -m1 ERROR "$TMP/anchor-$k.err")"; continue; }
          fi
          echo "pg_uuidv7: $PG_UUIDV7_FROM" ;;
        pg_ulid)
          tb=pg-ulid-b5fee2a.tar.gz
          anchor_build "$k" "$tb" || { why="ANCHOR_WHY_$k"; echo "skip: $k: ${!why}"; continue; }
          sqlf="ANCHOR_SQL_$k"
          q -f "${!sqlf}" >/dev/null 2>"$TMP/anchor-$k.err" || { echo "skip: $k: its script fails here: $(grep -m1 ERROR "$TMP/anchor-$k.err")"; continue; } ;;
      esac
      run_key "$k" || FAILED=$((FAILED + 1))
      [ "$k" = uuidv4 ] && [ -z "$STEPS" ] && [ -z "$UUIDV4_CROSS" ] &&
        echo "note: UUIDv4's index did not reach ${TARGET_X}x the limit in $MAX_STEPS steps; the verdict has no window"
    done
    stop_cluster_for "$name"
  fi
fi

# Ours: a server with this extension (under LIB_LOCK where the host's server is shared).
if [ -n "${our_keys// /}" ]; then
  if [ -n "$LIB_LOCK" ]; then
    exec 9>>"$LIB_LOCK"
    flock -n 9 || { echo "waiting for $LIB_LOCK (another checkout uses the server)"; flock 9; }
    lock_t=$SECONDS
  fi
  if [ "$INSTALL" = 1 ] && [ -n "${PG_CHROOT:-}" ]; then
    pg_build >"$TMP/install.log" 2>&1 || { echo "FAIL: the build for PostgreSQL $PG_MAJOR"; tail -5 "$TMP/install.log"; FAILED=$((FAILED + 1)); }
  elif [ "$INSTALL" = 1 ]; then
    (cd "$ROOT" && make install) >"$TMP/install.log" 2>&1 || { echo "FAIL: make install"; tail -5 "$TMP/install.log"; FAILED=$((FAILED + 1)); }
  fi
  name="${NAME_PREFIX}_ours"
  if start_cluster_for "$name" "$((PORT_BASE + 1))"; then
    if ! err="$(q -c "CREATE EXTENSION ulid_tsid" 2>&1)"; then
      echo "FAIL: CREATE EXTENSION ulid_tsid: $err"; FAILED=$((FAILED + 1))
    else
      echo "== ulid_tsid $(q -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'")"
      for k in $our_keys; do run_key "$k" || FAILED=$((FAILED + 1)); done
    fi
    stop_cluster_for "$name"
  fi
  if [ -n "$LIB_LOCK" ]; then flock -u 9; exec 9>&-; echo "($LIB_LOCK held $((SECONDS - lock_t)) s)"; fi
fi
peak="$(cgroup_peak)"

# ---- summary, verdict ---------------------------------------------------------
rate_win() { awk -v r="${WIN_ROWS[$1]:-0}" -v s="${WIN_SECS[$1]:-0}" 'BEGIN { if (s > 0) printf "%.0f", r / s }'; }
{
  echo "key,family,rows,rows_s_1w_window,rows_s_8w_single,rows_s_8w_batch,pk_mb_end,pk_x_limit_end,avg_leaf_density,wal_bytes_per_row_1w,idx_blks_read_per_1k_rows_window,x_uuidv4_1w,x_bigserial_1w"
  while IFS=, read -r key fam total; do
    r="$(rate_win "$key")"; u="$(rate_win uuidv4)"; b="$(rate_win bigserial)"
    awk -v key="$key" -v fam="$fam" -v total="$total" -v r="$r" -v c1="${C1[$key]}" -v c8="${C8[$key]}" -v pk="${PK_END[$key]}" \
        -v lim="$LIMIT_BYTES" -v dens="${DENS[$key]}" -v wal="${WAL_SUM[$key]}" -v wr="${WAL_ROWS[$key]}" \
        -v idx="${IDX_WIN[$key]}" -v wrows="${WIN_ROWS[$key]}" -v u="$u" -v b="$b" 'BEGIN {
      printf "%s,%s,%d,%s,%s,%s,%.1f,%.2f,%s,%.1f,%s,%s,%s\n", key, fam, total, r, c1, c8, pk / 1048576, pk / lim, dens,
             wal / wr, (wrows > 0) ? sprintf("%.1f", idx * 1000 / wrows) : "",
             (r != "" && u > 0) ? sprintf("%.2f", r / u) : "", (r != "" && b > 0) ? sprintf("%.2f", r / b) : "" }'
  done <"$TMP/summary.body"
} >"$SUMMARY"

echo
echo "== insert beyond memory: limit $LIMIT_MB MB ($CG_KIND), shared_buffers $SHARED_BUFFERS; window = steps ${UUIDV4_CROSS:-?}-${UUIDV4_STEPS:-?} (UUIDv4's index >= ${TARGET_X}x the limit)"
csv_pretty "$SUMMARY"
[ -n "$peak" ] && echo "the group's peak usage: $(awk -v b="$peak" 'BEGIN { printf "%.1f", b / 1048576 }') MB of $LIMIT_MB MB ($CONC_LIMIT_MB MB while the $CLIENTS writers ran)"

# The verdict: each of ours against bigserial (>= 0.95x), UUIDv4 (>= 20x), each C anchor (>= 2x),
# in the one-writer window and in both eight-writer phases.
verdict() {
  local load k ref need rk rr ratio met=0 missed=0 val line m
  [ -n "$UUIDV4_CROSS" ] || [ -n "$STEPS" ] || { echo "verdict: none (UUIDv4's index never reached ${TARGET_X}x the limit)"; return; }
  [ -z "$CG" ] && echo "verdict: the run was unbounded (no memory limit): these are not the targets' conditions"
  awk -v x="$TARGET_X" 'BEGIN { exit !(x < 4) }' &&
    echo "verdict: indicative only: the window starts at ${TARGET_X}x the limit, and the targets are for 4x (QUICK=1 is short; run without it)"
  for load in 1w 8w_single 8w_batch; do
    for k in $our_keys; do
      [ -n "${SEEN[$k]:-}" ] || continue
      case "$load" in 1w) val="$(rate_win "$k")" ;; 8w_single) val="${C1[$k]}" ;; 8w_batch) val="${C8[$k]}" ;; esac
      [ -n "$val" ] || continue
      line=""
      for ref in bigserial:0.95 uuidv4:20 pg_uuidv7:2 pg_ulid:2; do
        rk="${ref%%:*}"; need="${ref#*:}"
        [ -n "${SEEN[$rk]:-}" ] || continue
        case "$load" in 1w) rr="$(rate_win "$rk")" ;; 8w_single) rr="${C1[$rk]}" ;; 8w_batch) rr="${C8[$rk]}" ;; esac
        [ -n "$rr" ] && [ "$rr" != 0 ] || continue
        ratio="$(awk -v a="$val" -v b="$rr" 'BEGIN { printf "%.2f", a / b }')"
        if awk -v r="$ratio" -v n="$need" 'BEGIN { exit !(r >= n) }'; then met=$((met + 1)); m="met"
        else missed=$((missed + 1)); m="MISSED"; fi
        line="$line${line:+, }${ratio}x $rk (>= $need: $m)"
      done
      printf 'verdict: %-9s %-15s %8s rows/s: %s\n' "$load" "$k" "$val" "$line"
    done
  done
  echo "verdict: $met targets met, $missed missed (1w = one writer over the window; 8w = $CLIENTS writers, ${CONC_SECS}s each, on the index at its largest)"
}
verdict | tee "$TMP/verdict.txt"
echo "CSV: $SUMMARY, per step: $STEPS_CSV ($SECONDS s)"

# ---- Markdown -----------------------------------------------------------------
{
  echo "# Inserts beyond memory"
  echo
  echo "Generated by \`test/bench/insert_beyond_memory.sh\`$([ "$QUICK" = 1 ] && echo " (QUICK=1)") in $SECONDS s."
  echo
  machine_markdown 2>/dev/null || true
  echo "- memory limit: $LIMIT_MB MB ($CG_KIND) on the server and all its children, page cache included${peak:+; peak usage $(awk -v b="$peak" 'BEGIN { printf "%.1f", b / 1048576 }') MB, the phases of the $CLIENTS writers included}"
  echo "- server: shared_buffers=$SHARED_BUFFERS, fsync=off, synchronous_commit=off, max_wal_size=8GB, checkpoint_timeout=1h, full_page_writes=on; autovacuum off on the table; each table starts after a CHECKPOINT"
  echo "- one writer: $STEP_ROWS rows a step (one INSERT ... SELECT FROM generate_series, ~100-byte rows), ${UUIDV4_STEPS:-$STEPS} steps per key; UUIDv4 ran first until its index was ${TARGET_X}x the limit (step ${UUIDV4_CROSS:-?}), then $TAIL more; it passed the limit itself at ${UUIDV4_LIMIT_ROWS:-?} rows"
  echo "- then $CLIENTS writers (pgbench -c $CLIENTS -j 2) for ${CONC_SECS}s of single-row inserts and ${CONC_SECS}s of $BATCH-row inserts, on the index at its largest, with the limit at $CONC_LIMIT_MB MB (12 MB more a writer, for its backend's own memory)"
  echo "- rows_s_1w_window: one writer over the steps where UUIDv4's index was >= ${TARGET_X}x the limit; idx_blks_read from pg_statio_user_indexes (the server's reads of index blocks: shared_buffers misses, which past the limit come from the disk); density from pgstattuple"
  echo "- keys: ours (this extension, no preload): ulid = generate_ulid(), ulid_monotonic = generate_ulid_monotonic(), generate_uuidv7, tsid = tsid DEFAULT generate_tsid(), bigint_tsid = bigint DEFAULT generate_tsid(); anchors: pg_uuidv7 = uuid_generate_v7() ($PG_UUIDV7_FROM), pg_ulid = gen_ulid() (andrielfn/pg-ulid b5fee2a, C), core_uuidv7 = PostgreSQL 18's uuidv7(); seed: plpgsql_tsid (test/bench/plpgsql_tsid.sql); references: bigserial, uuidv4 = gen_random_uuid()"
  echo
  csv_markdown "$SUMMARY"
  echo
  sed 's/^/    /' "$TMP/verdict.txt"
} >"$OUT_DIR/$PREFIX.md"

# ---- picture ------------------------------------------------------------------
if [ "$PLOT" = 1 ] && command -v gnuplot >/dev/null && [ "$(wc -l <"$STEPS_CSV")" -gt 1 ]; then
  term="pngcairo size 1400,800 font 'sans,11'"
  gnuplot -e "set terminal pngcairo" >/dev/null 2>&1 </dev/null || term="png size 1400,800"
  awk -F, -v dir="$TMP" 'NR > 1 && $1 == "1w" { print $5 / 1e6, $8 / 1000 >> (dir "/plot_" $2 ".dat") }' "$STEPS_CSV"
  label() {
    case "$1" in
      uuidv4) echo "UUIDv4 gen_random_uuid()" ;; bigserial) echo "bigserial" ;;
      plpgsql_tsid) echo "seed: PL/pgSQL generate_tsid()" ;;
      pg_uuidv7) echo "anchor: pg_uuidv7 uuid_generate_v7()" ;; pg_ulid) echo "anchor: pg-ulid gen_ulid()" ;;
      core_uuidv7) echo "anchor: core 18 uuidv7()" ;;
      ulid) echo "ours: generate_ulid()" ;; ulid_monotonic) echo "ours: generate_ulid_monotonic()" ;;
      generate_uuidv7) echo "ours: generate_uuidv7()" ;; tsid) echo "ours: tsid generate_tsid()" ;;
      bigint_tsid) echo "ours: bigint generate_tsid()" ;;
    esac
  }
  {
    echo "set terminal $term"
    echo "set output '$OUT_DIR/$PREFIX.png'"
    echo "set termoption noenhanced"
    echo "set title 'Inserts beyond memory: one writer, $STEP_ROWS rows a step, server limited to $LIMIT_MB MB ($CG_KIND), shared_buffers $SHARED_BUFFERS'"
    echo "set xlabel 'million rows inserted'; set ylabel 'thousand rows/s'; set grid; set key outside right top"
    echo "set xrange [0:*]; set yrange [0:*]"
    if [ -n "$UUIDV4_LIMIT_ROWS" ]; then
      x="$(awk -v r="$UUIDV4_LIMIT_ROWS" 'BEGIN { print r / 1e6 }')"
      echo "set arrow from $x, graph 0 to $x, graph 1 nohead lc rgb '#d62728' dt 4 lw 1.5"
      echo "set label 'UUIDv4 index = limit' at $x, graph 0.97 offset 0.5,0 tc rgb '#d62728'"
    fi
    if [ -n "$UUIDV4_CROSS" ]; then
      x="$(awk -v s="$UUIDV4_CROSS" -v r="$STEP_ROWS" 'BEGIN { print s * r / 1e6 }')"
      echo "set arrow from $x, graph 0 to $x, graph 1 nohead lc rgb '#d62728' dt 4 lw 1.5"
      echo "set label 'UUIDv4 index = ${TARGET_X}x limit' at $x, graph 0.92 right offset -0.5,0 tc rgb '#d62728'"
    fi
    plots=""
    for k in $KEYS; do
      [ -f "$TMP/plot_$k.dat" ] || continue
      plots="$plots${plots:+, }'$TMP/plot_$k.dat' using 1:2 with linespoints $(key_style "$k") title '$(label "$k")'"
    done
    echo "plot $plots"
  } >"$TMP/plot.gp"
  if gnuplot "$TMP/plot.gp" 2>"$TMP/gnuplot.err"; then echo "picture: $OUT_DIR/$PREFIX.png"
  else echo "gnuplot failed:"; cat "$TMP/gnuplot.err"; FAILED=$((FAILED + 1)); fi
fi

[ "$FAILED" -eq 0 ]
