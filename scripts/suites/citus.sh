#!/usr/bin/env bash
# Citus: the extension on a distributed cluster of one major (a coordinator and two
# workers with distinct ulid_tsid.node_id, a third worker added later), on every
# key kind: ulid, tsid, bigint with generate_tsid(), uuid with generate_uuidv7().
#   PG_MAJOR=17 bash scripts/suites/citus.sh      (after scripts/suites/build.sh)
#
# Citus is not a Debian package: it is built from ../shared/vendor/ beside the
# checkout (13.2.2 for 15, 14.0.1 for 16 to 18), once per tarball and server
# version, in the server's filesystem (the host's 15, the major's chroot), with
# `nice -n 10 make -j2` (CITUS_NICE), and cached under $ULID_TSID_CACHE/citus/ (a later run only
# copies the cached files into the server). Its build packages are installed on
# demand inside a chroot (the chroot's recipe stays as it is); the host's are in
# scripts/install-deps.sh. Without ../shared/vendor, or on a major Citus does not
# support (13, 19), the suite says so in one line and passes nothing, fails nothing.
#
# Ports: 56200 + 10 * (MAJOR - 13) + node (0 the coordinator, 1 and 2 the workers,
# 3 the one added later), TCP on 127.0.0.1 (Citus's nodes reach each other there).
# CITUS_ROWS (default 20000): rows inserted from the coordinator per key kind (the
# other paths insert a quarter of that each). CITUS_MINMAX_ROWS (default 0): the
# max(id) checks, and its time beside ORDER BY id DESC LIMIT 1's (printed, never
# checked), on tables of that many rows made for it (the README's figures:
# CITUS_MINMAX_ROWS=1000000), instead of the key tables.
# For 15, the caller holds /tmp/ulid_tsid.pg15.lock (Citus installs into the host's
# server: its files there are inert for every other suite, which neither preloads
# nor creates it).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/suite.sh"
PG_MAJOR="${PG_MAJOR:-15}"
case "$PG_MAJOR" in
  15) citus_version=13.2.2 ;;
  16|17|18) citus_version=14.0.1 ;;
  *) echo "   citus: skipped on PostgreSQL $PG_MAJOR (Citus 13.2.2 serves 15, 14.0.1 serves 16 to 18)"; exit 0 ;;
esac
citus_tarball="$ROOT/../shared/vendor/citus-$citus_version.tar.gz"
if [ ! -f "$citus_tarball" ]; then
  echo "   citus: skipped ($citus_tarball is absent: Citus's source comes from ../shared/vendor beside the checkout)"; exit 0
fi
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
CITUS_ROWS="${CITUS_ROWS:-20000}"
CITUS_SHARDS=4   # per table: few shards, few moves for the rebalancer
CITUS_MINMAX_ROWS="${CITUS_MINMAX_ROWS:-0}"
citus_t0=$SECONDS

# ---------------------------------------------------------------------------
# Citus built (or taken from the cache) and installed into this major's server.
# ---------------------------------------------------------------------------
# What Citus's build needs beyond the server's -dev package: the server's headers
# include ICU's and GSSAPI's, Debian's pg_config.h defines HAVE_LIBZSTD, and lz4
# is detected the same way (libcurl, for Citus's statistics collection, is left
# out by --without-libcurl).
CITUS_BUILD_DEPS=(libicu-dev libkrb5-dev liblz4-dev libzstd-dev libreadline-dev zlib1g-dev libssl-dev libxslt1-dev)
source "$(dirname "${BASH_SOURCE[0]}")/../lib/vendor.sh"
citus_deps() { vendor_deps citus "${CITUS_BUILD_DEPS[@]}"; }

citus_sum="$(sha256sum "$citus_tarball" | cut -c1-16)"
citus_server="$(pg_in "$PG_CONFIG" --version | tr -c 'A-Za-z0-9.\n' '_' | sed 's/_*$//')"
citus_key="citus-$citus_version-$citus_sum-$citus_server-O0"   # -O0: the build recipe below
citus_cache="$ULID_TSID_CACHE/citus/$citus_key"
mkdir -p "$ULID_TSID_CACHE/citus" "$ULID_TSID_CACHE/locks"

# citus_make: the build into $citus_cache/stage (make install DESTDIR=...), in the
# server's filesystem; a stamp written last marks it complete.
citus_make() {
  local log="$LOGS/citus-build-$PG_MAJOR.log" src
  src="$(vendor_unpack citus "$citus_key" "$citus_tarball" "$citus_cache")" || return 1
  # Debian's 15 exports have_createdb_privilege(), which Citus 13's compatibility
  # header defines for itself on 15: Citus's copy takes another name.
  if [ "$citus_version" = 13.2.2 ]; then
    grep -rl have_createdb_privilege "$src/src" | xargs sed -i 's/\bhave_createdb_privilege\b/citus_have_createdb_privilege/g'
    sed -i 's/#define citus_have_createdb_privilege() citus_have_createdb_privilege()/#define citus_have_createdb_privilege() have_createdb_privilege()/' \
      "$src/src/include/pg_version_compat.h"
  fi
  # No statistics collection (which would send usage reports over the network):
  # --without-libcurl leaves it out of Citus's own configuration, but Debian's 18
  # defines HAVE_LIBCURL in pg_config.h (for OAuth), and Citus tests that name too.
  grep -rl HAVE_LIBCURL "$src/src" | xargs -r sed -i 's/\bHAVE_LIBCURL\b/CITUS_WITHOUT_LIBCURL_HERE/g'
  # with_llvm=no: no bitcode for the JIT (Debian's PGXS would compile every file
  # a second time with clang). COPT="-O0 -g0": a test build, compiled in 31.5 s
  # instead of 72.6 s with the server's -O2 -g (Citus 13.2.2 on the host's 15, idle
  # cores; CI makes it from an empty cache on every run).
  (cd "$src" && pg_in sh -c "./configure PG_CONFIG=$PG_CONFIG --without-libcurl &&
      nice -n ${CITUS_NICE:-10} make -j2 with_llvm=no COPT='-O0 -g0' &&
      make install with_llvm=no DESTDIR=$(pg_inside "$src")/stage") >"$log" 2>&1 || { tail -30 "$log"; return 1; }
  vendor_keep "$src" "$citus_cache"
}

# citus_install: the cached build copied into the server (unless already there).
citus_install() { vendor_install "$citus_cache" citus; }

citus_get() {
  (
    flock 8
    if [ -f "$citus_cache/complete" ]; then
      echo "   Citus $citus_version for $citus_server: cached build ($citus_cache)"
    else
      citus_deps || exit 1
      t=$SECONDS
      citus_make || exit 1
      echo "   Citus $citus_version for $citus_server: built in $((SECONDS - t)) s (log: $LOGS/citus-build-$PG_MAJOR.log)"
    fi
    citus_install
  ) 8>>"$ULID_TSID_CACHE/locks/$citus_key"
}
# CITUS_BUILD_ONLY=1: the build into the cache and nothing else (scripts/test.sh
# starts it beside the suites, so that the suite later finds it made; a failure
# here shows again, counted, when the suite builds).
if [ -n "${CITUS_BUILD_ONLY:-}" ]; then
  (
    flock 8
    [ -f "$citus_cache/complete" ] && exit 0
    citus_deps && t=$SECONDS && citus_make &&
      echo "   Citus $citus_version for $citus_server: built ahead in $((SECONDS - t)) s (log: $LOGS/citus-build-$PG_MAJOR.log)"
  ) 8>>"$ULID_TSID_CACHE/locks/$citus_key"
  exit 0
fi
if ! citus_get; then
  check "Citus $citus_version built and installed into PostgreSQL $PG_MAJOR" false
  exit 1
fi
citus_t_build=$((SECONDS - citus_t0))

# ---------------------------------------------------------------------------
# The cluster.
# ---------------------------------------------------------------------------
citus_port() { echo $((56200 + 10 * (PG_MAJOR - 13) + $1)); }
CN=(coord w1 w2 w3)
# q NODE SQL...: psql on node NODE (0..3), tuples only, stop at the first error.
q() { local n="$1"; shift; psql -X -q -A -t -h 127.0.0.1 -p "$(citus_port "$n")" -U postgres -d postgres -v ON_ERROR_STOP=1 "$@"; }
# qv NODE SQL: the same, errors with their SQLSTATE, stderr into stdout.
qv() { local n="$1"; shift; psql -X -q -A -t -h 127.0.0.1 -p "$(citus_port "$n")" -U postgres -d postgres -v ON_ERROR_STOP=1 -v VERBOSITY=verbose "$@" 2>&1; }
citus_conf=(
  "listen_addresses = '127.0.0.1'"
  "shared_preload_libraries = 'citus,ulid_tsid'"
  "max_connections = 100"
  "shared_buffers = 32MB"
  "wal_level = logical"
  "max_worker_processes = 20"
  "max_replication_slots = 10"
  "max_wal_senders = 10"
  "ulid_tsid.node_bits = 10"
  "citus.enable_statistics_collection = off"
)
citus_stop_all() {
  local n
  for n in 0 1 2 3; do cluster_stop "citus-${CN[$n]}" 2>/dev/null || true; done
}
citus_inserter_pid=""
trap '[ -n "$citus_inserter_pid" ] && kill "$citus_inserter_pid" 2>/dev/null; citus_stop_all; suite_end' EXIT

citus_started=1
for n in 0 1 2; do
  cluster_start "citus-${CN[$n]}" "$(citus_port "$n")" "${citus_conf[@]}" "ulid_tsid.node_id = $((n + 1))" || { citus_started=0; break; }
done
check "coordinator and two workers started (ports $(citus_port 0)-$(citus_port 2), node ids 1, 2, 3)" test "$citus_started" = 1 || exit 1
for n in 0 1 2; do q "$n" -c "CREATE EXTENSION citus" >>"$LOGS/citus-$PG_MAJOR.log" 2>&1 || citus_started=0; done
q 0 -c "SELECT citus_set_coordinator_host('127.0.0.1', $(citus_port 0))" \
    -c "SELECT citus_add_node('127.0.0.1', $(citus_port 1))" -c "SELECT citus_add_node('127.0.0.1', $(citus_port 2))" \
    -c "CREATE EXTENSION ulid_tsid" >>"$LOGS/citus-$PG_MAJOR.log" 2>&1 || citus_started=0
check "Citus $(q 0 -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'" 2>/dev/null) with two workers; CREATE EXTENSION ulid_tsid propagated to both" \
  test "$citus_started" = 1 -a "$(q 0 -c "SELECT string_agg(result, ',' ORDER BY nodeid) FROM run_command_on_all_nodes(\$\$SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'\$\$)" 2>/dev/null)" = "0.4.0,0.4.0,0.4.0" || exit 1
check "every node has its own ulid_tsid.node_id (1, 2, 3)" \
  test "$(q 0 -c "SELECT string_agg(result, ',' ORDER BY result) FROM run_command_on_all_nodes('SHOW ulid_tsid.node_id')")" = "1,2,3"

# ---------------------------------------------------------------------------
# Tables: one per key kind, its type and default given before distributing, and a
# child table co-located with it (its own key generated, the parent's as its
# distribution column).
# ---------------------------------------------------------------------------
KINDS=(ulid tsid bigint uuid)
declare -A KTYPE=([ulid]=ulid [tsid]=tsid [bigint]=bigint [uuid]=uuid)
declare -A KGEN=([ulid]="generate_ulid()" [tsid]="generate_tsid()" [bigint]="generate_tsid()" [uuid]="generate_uuidv7()")
citus_ddl=""
for k in "${KINDS[@]}"; do
  citus_ddl+="CREATE TABLE k_$k (id ${KTYPE[$k]} PRIMARY KEY DEFAULT ${KGEN[$k]}, src text NOT NULL, v int);
CREATE TABLE c_$k (parent ${KTYPE[$k]} NOT NULL, id ${KTYPE[$k]} NOT NULL DEFAULT ${KGEN[$k]}, note text, PRIMARY KEY (parent, id));
SELECT create_distributed_table('k_$k', 'id', shard_count := $CITUS_SHARDS, colocate_with := 'none');
SELECT create_distributed_table('c_$k', 'parent', colocate_with := 'k_$k');
"
done
check "four tables distributed ($CITUS_SHARDS shards each), each with a co-located child table" \
  q 0 -c "$citus_ddl" -o /dev/null

# Expected rows per table, counted as each path inserts them.
declare -A EXPECT=()
for k in "${KINDS[@]}"; do EXPECT[$k]=0; done
citus_r4=$((CITUS_ROWS / 4))

# From the coordinator: INSERT ... SELECT from a local source (defaults run there).
ok=1
for k in "${KINDS[@]}"; do
  q 0 -c "INSERT INTO k_$k (src, v) SELECT 'coord', g FROM generate_series(1, $CITUS_ROWS) g" || ok=0
  EXPECT[$k]=$((EXPECT[$k] + CITUS_ROWS))
done
check "INSERT from the coordinator, $CITUS_ROWS rows per kind" test $ok = 1
# From each worker, straight into the distributed tables (Citus syncs their metadata).
ok=1
for n in 1 2; do
  for k in "${KINDS[@]}"; do
    q "$n" -c "INSERT INTO k_$k (src, v) SELECT '${CN[$n]}', g FROM generate_series(1, $citus_r4) g" || ok=0
    EXPECT[$k]=$((EXPECT[$k] + citus_r4))
  done
done
check "INSERT from each worker, $citus_r4 rows per kind and worker" test $ok = 1
# COPY from the coordinator, text and binary.
ok=1
for k in "${KINDS[@]}"; do
  seq 1 "$citus_r4" | sed 's/^/copy\t/' | q 0 -c "COPY k_$k (src, v) FROM STDIN" || ok=0
  q 0 -c "COPY (SELECT 'copybin'::text, g FROM generate_series(1, $citus_r4) g) TO '/tmp/citus-copy-$PG_MAJOR-$k.bin' (FORMAT binary)" &&
    q 0 -c "COPY k_$k (src, v) FROM '/tmp/citus-copy-$PG_MAJOR-$k.bin' (FORMAT binary)" || ok=0
  pg_in rm -f "/tmp/citus-copy-$PG_MAJOR-$k.bin"
  EXPECT[$k]=$((EXPECT[$k] + 2 * citus_r4))
done
check "COPY (text and binary) from the coordinator, $((2 * citus_r4)) rows per kind" test $ok = 1

# Where the defaults ran: a TSID carries the node id of the node that evaluated
# its default (the coordinator for its INSERT ... SELECT and COPY, each worker for
# its own inserts).
for k in tsid bigint; do
  check "$k: each row's node id is where its insert ran (coord/copy 1, w1 2, w2 3)" \
    test "$(q 0 -c "SELECT string_agg(format('%s:%s', src, nodes), ' ' ORDER BY src) FROM
      (SELECT src, string_agg(DISTINCT tsid_node(id::tsid, 10)::text, ',') AS nodes FROM k_$k GROUP BY src) s")" \
    = "coord:1 copy:1 copybin:1 w1:2 w2:3"
done

# INSERT ... SELECT between co-located tables: pushed down to the shards, whose
# workers evaluate the child's default.
ok=1
declare -A CHILDREN=()
for k in "${KINDS[@]}"; do
  CHILDREN[$k]="$(q 0 -c "SELECT count(*) FROM k_$k WHERE v % 10 = 0")"
  q 0 -c "INSERT INTO c_$k (parent, note) SELECT id, 'child' FROM k_$k WHERE v % 10 = 0" || ok=0
done
check "INSERT ... SELECT into the co-located child tables" test $ok = 1
for k in tsid bigint; do
  check "$k: children made by INSERT ... SELECT carry the workers' node ids (2, 3)" \
    test "$(q 0 -c "SELECT string_agg(DISTINCT tsid_node(id::tsid, 10)::text, ',') FROM c_$k")" = "2,3"
done
# Co-located joins: pushed down (repartition joins off: one that is not fails),
# one task per shard.
for k in "${KINDS[@]}"; do
  check "$k: join with its co-located child pushed down ($CITUS_SHARDS tasks), every child found" \
    test "$(q 0 -c "SET citus.enable_repartition_joins = off" -c "SELECT count(*) FROM k_$k k JOIN c_$k c ON c.parent = k.id" \
            -c "EXPLAIN SELECT count(*) FROM k_$k k JOIN c_$k c ON c.parent = k.id" | grep -E '^[0-9]+$|Task Count' | tr -d ' ' | paste -sd' ')" \
    = "${CHILDREN[$k]} TaskCount:$CITUS_SHARDS"
  citus_one="$(q 0 -c "SELECT id FROM k_$k WHERE src = 'w2' LIMIT 1")"
  check "$k: a lookup by key is a router query (1 task)" \
    test "$(q 0 -c "EXPLAIN SELECT src FROM k_$k WHERE id = '$citus_one'" | grep -c 'Task Count: 1')" = 1
done

# ---------------------------------------------------------------------------
# min()/max(): Citus sends them to the shards by name (0.4.0's aggregates have no
# combine function, the 0.3.0 ones were sent as worker_partial_agg and read every
# row), and each shard answers from its index.
# ---------------------------------------------------------------------------
q 0 -o /dev/null -c "CREATE FUNCTION median_ms(query text, runs int) RETURNS numeric LANGUAGE plpgsql AS \$\$
DECLARE t0 timestamptz; times numeric[] := '{}'; r text;
BEGIN
  EXECUTE query INTO r;  -- warm
  FOR i IN 1..runs LOOP
    t0 := clock_timestamp(); EXECUTE query INTO r;
    times := times || (extract(epoch FROM clock_timestamp() - t0) * 1000)::numeric;
  END LOOP;
  RETURN round((SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY t) FROM unnest(times) t), 2);
END \$\$"
for k in ulid tsid bigint; do
  plan="$(q 0 -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT max(id) FROM k_$k")"
  check "$k: max(id) is sent to each shard as max() and answered from its index" \
    sh -c 'case "$1" in *partial_agg*) ;; *"Index Only Scan Backward"*) exit 0 ;; esac; echo "$1" | grep -E "Query|Scan|partial"; exit 1' - "$plan"
  check "$k: min(id) and max(id) equal ORDER BY id LIMIT 1 either way" \
    test "$(q 0 -c "SELECT (SELECT min(id) FROM k_$k) = (SELECT id FROM k_$k ORDER BY id LIMIT 1)
                      AND (SELECT max(id) FROM k_$k) = (SELECT id FROM k_$k ORDER BY id DESC LIMIT 1)")" = t
done
check "uuid: ORDER BY id DESC LIMIT 1 is answered from each shard's index" \
  sh -c 'case "$1" in *"Index Only Scan Backward"*|*"Index Scan Backward"*) exit 0 ;; esac; echo "$1"; exit 1' - \
  "$(q 0 -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM k_uuid ORDER BY id DESC LIMIT 1")"
# 0.3.0's definition, with a combine function, for comparison: Citus sends it as
# worker_partial_agg, which reads every row of every shard.
q 0 -o /dev/null -c "CREATE AGGREGATE max_combine(ulid) (SFUNC = ulid_larger, STYPE = ulid, COMBINEFUNC = ulid_larger, SORTOP = >, PARALLEL = SAFE)" \
  -c "CREATE AGGREGATE max_combine(tsid) (SFUNC = tsid_larger, STYPE = tsid, COMBINEFUNC = tsid_larger, SORTOP = >, PARALLEL = SAFE)"
# (13.2.2 names it worker_partial_agg, 14.0.1 worker_binary_partial_agg.)
check "an aggregate with a combine function (0.3.0's max()) is sent as a partial aggregate (worker_*partial_agg)" \
  sh -c 'case "$1" in *partial_agg*) exit 0 ;; esac; echo "$1"; exit 1' - "$(q 0 -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT max_combine(id) FROM k_ulid" 2>&1)"
# scanned_rows PLAN-LOG: "ROWS SCANS", the rows the shards' scan nodes of an EXPLAIN
# ANALYZE of all tasks returned (rows times loops; 18 prints rows with decimals) and
# how many there were (the coordinator's Custom Scan, which collects them, left out).
scanned_rows() {
  awk '/Scan/ && !/Custom Scan/ && match($0, /actual rows=[0-9.]+ loops=[0-9]+/) {
         split(substr($0, RSTART + 12, RLENGTH - 12), a, / loops=/); rows += a[1] * a[2]; n++ }
       END { printf "%d %d\n", rows + 0.5, n }' "$1"
}
for k in ulid tsid; do
  # The timing on k_KIND, or on a table of CITUS_MINMAX_ROWS rows made for it.
  tbl="k_$k"
  if [ "$CITUS_MINMAX_ROWS" -gt 0 ]; then
    tbl="m_$k"; t=$SECONDS
    q 0 -o /dev/null -c "CREATE TABLE m_$k (id ${KTYPE[$k]} PRIMARY KEY DEFAULT ${KGEN[$k]}, v int)" \
      -c "SELECT create_distributed_table('m_$k', 'id', shard_count := $CITUS_SHARDS, colocate_with := 'none')" \
      -c "INSERT INTO m_$k (v) SELECT g FROM generate_series(1, $CITUS_MINMAX_ROWS) g" -c "VACUUM ANALYZE m_$k"
    echo "   ($CITUS_MINMAX_ROWS rows into m_$k in $((SECONDS - t)) s)"
  fi
  rows="$(q 0 -c "SELECT count(*) FROM $tbl")"
  # The rows every shard's scans read, from EXPLAIN ANALYZE of all tasks: a count,
  # the same on any machine, where a time is noise on a loaded one.
  for agg in max max_combine; do
    q 0 -c "SET citus.explain_all_tasks = on" \
      -c "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT $agg(id) FROM $tbl" \
      >"$LOGS/citus-$PG_MAJOR-$k-$agg-plan.log" 2>&1
  done
  read -r scanned_max scans_max <<<"$(scanned_rows "$LOGS/citus-$PG_MAJOR-$k-max-plan.log")"
  read -r scanned_comb scans_comb <<<"$(scanned_rows "$LOGS/citus-$PG_MAJOR-$k-max_combine-plan.log")"
  check "$k: max(id) reads at most one row on each of the $CITUS_SHARDS shards ($scanned_max rows in $scans_max scans; see $LOGS/citus-$PG_MAJOR-$k-max-plan.log)" \
    test "$scans_max" = "$CITUS_SHARDS" -a "$scanned_max" -le "$CITUS_SHARDS"
  if grep -q 'pseudo-type cstring' "$LOGS/citus-$PG_MAJOR-$k-max_combine-plan.log"; then
    # Citus 13.2.2 cannot EXPLAIN ANALYZE a partial aggregate (its intermediate
    # result would be a cstring column); the plan above shows it is one.
    echo "   ($k: Citus $citus_version cannot EXPLAIN ANALYZE 0.3.0's max: $(head -1 "$LOGS/citus-$PG_MAJOR-$k-max_combine-plan.log"))"
  else
    check "$k: 0.3.0's max (combine function) reads every row of every shard ($scanned_comb of $rows)" \
      test "$scanned_comb" -ge $((rows * 99 / 100))   # (a parallel scan's per-loop average is rounded)
  fi
  # The times, for the record only (the README's figures come from CITUS_MINMAX_ROWS=1000000).
  read -r t_max t_lim t_comb <<<"$(q 0 -F ' ' -c "SELECT median_ms('SELECT max(id) FROM $tbl', 11), median_ms('SELECT id FROM $tbl ORDER BY id DESC LIMIT 1', 11),
                                                   median_ms('SELECT max_combine(id) FROM $tbl', 3)")"
  echo "   $k, $rows rows, $CITUS_SHARDS shards: max(id) $t_max ms, ORDER BY id DESC LIMIT 1 $t_lim ms, 0.3.0's max (combine function) $t_comb ms (medians)"
  [ "$tbl" = "k_$k" ] || q 0 -o /dev/null -c "DROP TABLE $tbl"
done

# ---------------------------------------------------------------------------
# Co-location across types: Citus compares the distribution columns' type OIDs,
# so ulid with uuid (and tsid with bigint) is refused although the hashes agree.
# The pattern that works: the column that joins a key has the key's type; the
# other type's values go in through the assignment casts.
# ---------------------------------------------------------------------------
check "colocate_with between a uuid and a ulid column is refused (Distribution column types don't match)" \
  sh -c 'out="$1"; case "$out" in *"Distribution column types don'"'"'t match"*) exit 0 ;; esac; echo "$out"; exit 1' - \
  "$(qv 0 -c "CREATE TABLE x_uuid (parent uuid NOT NULL, note text)" -c "SELECT create_distributed_table('x_uuid', 'parent', colocate_with := 'k_ulid')")"
check "colocate_with between a bigint and a tsid column is refused" \
  sh -c 'out="$1"; case "$out" in *"Distribution column types don'"'"'t match"*) exit 0 ;; esac; echo "$out"; exit 1' - \
  "$(qv 0 -c "CREATE TABLE x_bigint (parent bigint NOT NULL, note text)" -c "SELECT create_distributed_table('x_bigint', 'parent', colocate_with := 'k_tsid')")"
q 0 -o /dev/null -c "DROP TABLE IF EXISTS x_uuid, x_bigint" \
  -c "CREATE TABLE x_ulid (parent ulid NOT NULL, note text)" -c "SELECT create_distributed_table('x_ulid', 'parent', colocate_with := 'k_ulid')" \
  -c "CREATE TABLE x_tsid (parent tsid NOT NULL, note text)" -c "SELECT create_distributed_table('x_tsid', 'parent', colocate_with := 'k_tsid')"
for pair in "ulid uuid" "tsid bigint"; do
  read -r k other <<<"$pair"
  # The values arrive as the other type (a client's uuid, a bigint), and the
  # assignment cast stores them.
  one="$(q 0 -c "SELECT id::$other FROM k_$k ORDER BY id LIMIT 1")"
  n="$(q 0 -c "INSERT INTO x_$k (parent, note) SELECT id::$other, 'x' FROM k_$k WHERE v % 100 = 0" \
         -c "INSERT INTO x_$k (parent, note) VALUES ('$one'::$other, 'y')" \
         -c "SELECT count(*) FROM k_$k WHERE v % 100 = 0 OR id = '$one'::$other::$k")"
  check "$other values in a $k column co-located with the $k key: join pushed down ($CITUS_SHARDS tasks), all $n found" \
    test "$(q 0 -c "SET citus.enable_repartition_joins = off" -c "SELECT count(DISTINCT x.parent) FROM k_$k k JOIN x_$k x ON x.parent = k.id" \
            -c "EXPLAIN SELECT count(*) FROM k_$k k JOIN x_$k x ON x.parent = k.id" | grep -E '^[0-9]+$|Task Count' | tr -d ' ' | paste -sd' ')" \
    = "$n TaskCount:$CITUS_SHARDS"
done

# ---------------------------------------------------------------------------
# Limits (README: Limits and recipes): a distribution column's default and type
# are fixed once distributed, a volatile function in an UPDATE is refused, and
# ADD COLUMN ... DEFAULT fills an existing table on every shard.
# ---------------------------------------------------------------------------
citus_refused() {  # citus_refused SQL: fails with an ERROR (printed otherwise)
  local out; out="$(qv 0 -c "$1")"
  case "$out" in *ERROR:*) return 0 ;; esac; echo "$out"; return 1
}
check "ALTER COLUMN ... SET DEFAULT on a distribution column is refused" \
  citus_refused "ALTER TABLE k_bigint ALTER COLUMN id SET DEFAULT generate_tsid()"
check "ALTER COLUMN ... TYPE on a distribution column is refused" \
  citus_refused "ALTER TABLE k_bigint ALTER COLUMN id TYPE tsid USING id::tsid"
q 0 -o /dev/null -c "ALTER TABLE c_ulid ADD COLUMN ref tsid" -c "ALTER TABLE c_ulid ADD COLUMN ref_u ulid"
check "UPDATE ... SET c = generate_tsid() on a distributed table is refused" citus_refused "UPDATE c_ulid SET ref = generate_tsid()"
check "UPDATE ... SET c = generate_ulid() on a distributed table is refused" citus_refused "UPDATE c_ulid SET ref_u = generate_ulid()"
q 0 -o /dev/null -c "ALTER TABLE c_ulid DROP COLUMN ref, DROP COLUMN ref_u"
check "ALTER TABLE ... ADD COLUMN c tsid DEFAULT generate_tsid() fills every row with a distinct TSID, made on the workers (2, 3)" \
  test "$(q 0 -c "ALTER TABLE c_ulid ADD COLUMN ref tsid NOT NULL DEFAULT generate_tsid()" \
           -c "SELECT count(DISTINCT ref) = count(*) AND count(*) = ${CHILDREN[ulid]} FROM c_ulid" \
           -c "SELECT string_agg(DISTINCT tsid_node(ref, 10)::text, ',') FROM c_ulid" | paste -sd' ')" = "t 2,3"

# ---------------------------------------------------------------------------
# Shard moves by logical replication while a session inserts into every table.
# ---------------------------------------------------------------------------
citus_stop="$CLUSTERS/citus-inserter.stop"
# citus_inserter_start NODE LABEL: a session on NODE inserting 5 rows at a time into
# each table in turn until citus_inserter_stop; every id it got back goes to
# $LOGS/citus-$PG_MAJOR-LABEL.ids ("kind id"), its errors to .err.
citus_inserter_start() {
  local node="$1" label="$2"
  rm -f "$citus_stop"
  # One statement at a time: the next is sent when psql has printed the last one's
  # ids (a pipe would let the statements run on long after the stop).
  (
    coproc INS { psql -X -q -A -t -F ' ' -h 127.0.0.1 -p "$(citus_port "$node")" -U postgres -d postgres 2>"$LOGS/citus-$PG_MAJOR-$label.err"; }
    i=0
    while [ ! -e "$citus_stop" ]; do
      k="${KINDS[$((i % 4))]}"
      printf '%s\n' "INSERT INTO k_$k (src, v) SELECT '$label', g FROM generate_series(1, 5) g RETURNING '$k', id;" '\echo ::done' >&"${INS[1]}"
      got=0
      while IFS= read -r line <&"${INS[0]}"; do [ "$line" = ::done ] && { got=1; break; }; echo "$line"; done
      [ "$got" = 1 ] || { echo "the inserting session ended" >&2; break; }
      i=$((i + 1)); sleep 0.01
    done
    exec {INS[1]}>&-
    wait
  ) >"$LOGS/citus-$PG_MAJOR-$label.ids" &
  citus_inserter_pid=$!
}
citus_inserter_stop() {
  touch "$citus_stop"; wait "$citus_inserter_pid"; citus_inserter_pid=""
  local k
  for k in "${KINDS[@]}"; do
    EXPECT[$k]=$((EXPECT[$k] + $(awk -v k="$k" '$1 == k' "$LOGS/citus-$PG_MAJOR-$1.ids" | wc -l)))
  done
}
citus_count() { q 0 -c "SELECT count(*) FROM k_ulid WHERE src = '$1'"; }

citus_inserter_start 0 move
sleep 1
moved_before="$(citus_count move)"
ok=1; t=$SECONDS
for k in "${KINDS[@]}"; do
  q 0 -o /dev/null -c "SELECT citus_move_shard_placement(s.shardid, '127.0.0.1', $(citus_port 1), '127.0.0.1', $(citus_port 2), shard_transfer_mode := 'force_logical')
    FROM (SELECT shardid FROM pg_dist_shard JOIN pg_dist_placement USING (shardid) JOIN pg_dist_node USING (groupid)
          WHERE logicalrelid = 'k_$k'::regclass AND nodeport = $(citus_port 1) ORDER BY shardid LIMIT 1) s" \
    >>"$LOGS/citus-$PG_MAJOR.log" 2>&1 || ok=0
done
citus_t_move=$((SECONDS - t))
moved_after="$(citus_count move)"
sleep 1
citus_inserter_stop move
check "one shard group per kind moved from w1 to w2 by logical replication ($citus_t_move s)" \
  test "$ok" = 1 -a "$(q 0 -c "SELECT count(*) FROM citus_shards WHERE nodeport = $(citus_port 2) AND table_name::text LIKE 'k\_%'")" = $((4 * (CITUS_SHARDS / 2 + 1)))
check "the inserts went on during the moves ($moved_before -> $moved_after ulid rows), none failed" \
  test "$moved_after" -gt "$moved_before" -a ! -s "$LOGS/citus-$PG_MAJOR-move.err"

# ---------------------------------------------------------------------------
# A worker added later: ulid_tsid.node_bits set, no node id yet.
# ---------------------------------------------------------------------------
if cluster_start "citus-${CN[3]}" "$(citus_port 3)" "${citus_conf[@]}" && q 3 -c "CREATE EXTENSION citus" >>"$LOGS/citus-$PG_MAJOR.log" 2>&1 &&
   q 0 -o /dev/null -c "SELECT citus_add_node('127.0.0.1', $(citus_port 3))" >>"$LOGS/citus-$PG_MAJOR.log" 2>&1; then
  check "a worker added later (port $(citus_port 3)) gets the extension from the coordinator" \
    test "$(q 3 -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'")" = 0.4.0
  for k in tsid bigint; do
    out="$(qv 3 -c "INSERT INTO k_$k (src, v) VALUES ('w3', 1)")"
    check "$k: the new worker refuses to make a TSID until it has a node id (22023)" \
      sh -c 'case "$1" in *"ERROR:  22023"*ulid_tsid.node_id*) exit 0 ;; esac; echo "$1"; exit 1' - "$out"
  done
  ok=1
  for k in ulid uuid; do q 3 -c "INSERT INTO k_$k (src, v) SELECT 'w3', g FROM generate_series(1, 100) g" || ok=0; EXPECT[$k]=$((EXPECT[$k] + 100)); done
  check "ulid and uuid keys need no node id: 100 rows each from the new worker" test $ok = 1
  q 3 -o /dev/null -c "ALTER SYSTEM SET ulid_tsid.node_id = 4" -c "SELECT pg_reload_conf()"
  for i in $(seq 50); do [ "$(q 3 -c "SHOW ulid_tsid.node_id")" = 4 ] && break; sleep 0.1; done
  ok=1
  for k in tsid bigint; do q 3 -c "INSERT INTO k_$k (src, v) SELECT 'w3', g FROM generate_series(1, 100) g" || ok=0; EXPECT[$k]=$((EXPECT[$k] + 100)); done
  check "given node id 4 (ALTER SYSTEM, reload), it makes TSIDs carrying it" \
    test "$ok" = 1 -a "$(q 0 -c "SELECT string_agg(DISTINCT tsid_node(id::tsid, 10)::text, ',') FROM (SELECT id FROM k_tsid WHERE src = 'w3' UNION ALL SELECT id::tsid FROM k_bigint WHERE src = 'w3') s")" = 4
else
  check "a worker added later (port $(citus_port 3))" false
fi

# The rebalancer (in the background) moves shards onto it while w1 inserts.
citus_inserter_start 1 rebalance
sleep 1
t=$SECONDS
q 0 -o /dev/null -c "SELECT citus_rebalance_start(shard_transfer_mode := 'force_logical')" -c "SELECT citus_rebalance_wait()" \
  >>"$LOGS/citus-$PG_MAJOR.log" 2>&1; rc=$?
citus_t_rebalance=$((SECONDS - t))
sleep 1
citus_inserter_stop rebalance
check "background rebalance onto the new worker ($citus_t_rebalance s; shards per worker: $(q 0 -c "SELECT string_agg(n::text, ',' ORDER BY nodeport) FROM (SELECT nodeport, count(*) AS n FROM citus_shards GROUP BY nodeport) s"))" \
  test "$rc" = 0 -a "$(q 0 -c "SELECT count(*) > 0 FROM citus_shards WHERE nodeport = $(citus_port 3)")" = t
check "the inserts from w1 went on during the rebalance, none failed" \
  test "$(citus_count rebalance)" -gt 0 -a ! -s "$LOGS/citus-$PG_MAJOR-rebalance.err"

# ---------------------------------------------------------------------------
# At the end: every row there, once.
# ---------------------------------------------------------------------------
for k in "${KINDS[@]}"; do
  # The ids the concurrent sessions got back, in a table co-located with the keys.
  q 0 -o /dev/null -c "CREATE TABLE returned_$k (id ${KTYPE[$k]} NOT NULL)" -c "SELECT create_distributed_table('returned_$k', 'id', colocate_with := 'k_$k')"
  cat "$LOGS/citus-$PG_MAJOR-move.ids" "$LOGS/citus-$PG_MAJOR-rebalance.ids" | awk -v k="$k" '$1 == k { print $2 }' |
    q 0 -c "COPY returned_$k FROM STDIN"
  read -r total distinct lost returned <<<"$(q 0 -F ' ' -c "SELECT (SELECT count(*) FROM k_$k), (SELECT count(DISTINCT id) FROM k_$k),
      (SELECT count(*) FROM returned_$k r LEFT JOIN k_$k k ON k.id = r.id WHERE k.id IS NULL), (SELECT count(*) FROM returned_$k)")"
  check "$k: $total rows, ${EXPECT[$k]} expected, $((total - distinct)) duplicates, $lost of the $returned ids returned to the concurrent sessions lost" \
    test "$total" = "${EXPECT[$k]}" -a "$distinct" = "$total" -a "$lost" = 0 -a "$returned" -gt 0
  check "$k: the children are all there (${CHILDREN[$k]})" test "$(q 0 -c "SELECT count(*) FROM c_$k")" = "${CHILDREN[$k]}"
done
check "TSIDs across the cluster (k_tsid, c_tsid, k_bigint, c_bigint): 0 duplicates" \
  test "$(q 0 -c "SELECT count(*) - count(DISTINCT id) FROM (SELECT id FROM k_tsid UNION ALL SELECT id FROM c_tsid
                  UNION ALL SELECT id::tsid FROM k_bigint UNION ALL SELECT id::tsid FROM c_bigint) s")" = 0
citus_stop_all
echo "   times: Citus ready in $citus_t_build s, whole suite $((SECONDS - citus_t0)) s"
