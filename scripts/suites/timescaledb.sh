#!/usr/bin/env bash
# TimescaleDB beside ulid_tsid, with the TimescaleDB Debian ships for the major (sid's
# postgresql-18-timescaledb): the blocks marked "<!-- timescaledb: NAME -->" in
# docs/timescaledb.md, read from the page and run as they stand there, on a cluster that
# preloads 'timescaledb,ulid_tsid' and on one that preloads 'timescaledb' alone. Checked:
# - both orders of installing: TimescaleDB after ulid_tsid in public fails on
#   generate_uuidv7() until the page's 'move' block has run (a column of ours made before the
#   move keeps working); ulid_tsid after TimescaleDB in public stops with 42723 and a hint
#   that names this page; the page's 'install' block gives a working database; what an
#   unqualified generate_uuidv7() then is.
# - a hypertable on each key kind (uuid v7, ulid and tsid through partition_func, a TSID on
#   bigint): 48 hours of keys, each hour's first key and the hour before's last one, make 48
#   chunks, each holding one hour's rows; a ULID stored as uuid is refused.
# - chunk exclusion: each window of the page's 'windows' block, in a new session (the first
#   query of a session too), excludes at executor start all but the chunks its time reaches,
#   and counts what the same window counts without the rewrite; a constant window excludes at
#   planning; the key-range forms the page describes, as it describes them.
#   PG_MAJOR=18 bash scripts/suites/timescaledb.sh   (after scripts/suites/build.sh)
# A major with no postgresql-MAJOR-timescaledb in its Debian suite is skipped with one line;
# one whose package is in its suite but not yet in its chroot gets it installed there.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
PORT=${TIMESCALEDB_PORT:-$((57300 + PG_MAJOR))}
PAGE=docs/timescaledb.md
PKG="postgresql-$PG_MAJOR-timescaledb"
WORK="$LOGS/timescaledb-$PG_MAJOR"
rm -rf "$WORK"; mkdir -p "$WORK"
t_start=$SECONDS

# --- TimescaleDB: Debian's package for this major (as the partman suite installs its own) ---
source "$ROOT/scripts/lib/debian_pkg.sh"
debian_pkg "$PKG"
case $? in
  0) ;;
  2) echo "   -    skipped on PostgreSQL $PG_MAJOR: $DEBIAN_PKG_WHY"; exit 0 ;;
  *) tally "installing $PKG" 0 1; exit 1 ;;
esac

q() { psql -qXAt -v ON_ERROR_STOP=1 -c "SET client_min_messages = error" "$@"; }
sql_true() { [ "$(q -c "$1" 2>>"$WORK/errors.log")" = t ]; }
page_says() { tr '\n' ' ' <"$PAGE" | grep -qF -- "$1"; }
# recipe NAME: the block after "<!-- timescaledb: NAME -->" on the page, as it stands there.
recipe() {
  awk -v name="$1" '$0 == "<!-- timescaledb: " name " -->" { on = 1; next }
                    on == 1 && /^```sql$/ { on = 2; next } on == 1 && NF { exit }
                    on == 2 && /^```$/ { exit } on == 2' "$PAGE"
}
run_recipe() {  # run_recipe NAME: the page's block run in PGDATABASE (output in WORK/DB-NAME.out)
  recipe "$1" >"$WORK/$1.sql"
  [ -s "$WORK/$1.sql" ] || { echo "        no block marked <!-- timescaledb: $1 --> in $PAGE" >&2; return 1; }
  q -f "$WORK/$1.sql" >"$WORK/$PGDATABASE-$1.out" 2>&1 || { sed 's/^/        /' "$WORK/$PGDATABASE-$1.out" | head -5 >&2; return 1; }
}
# fails_with FILE PATTERN SQL...: the statements fail, and the error matches PATTERN.
fails_with() {
  local out="$WORK/$1"; shift; local pattern="$1"; shift
  ! psql -qX -v ON_ERROR_STOP=1 -v VERBOSITY=verbose "$@" >"$out" 2>&1 && grep -qE -- "$pattern" "$out"
}

# The first and the last key of each of the 48 hours up to now's, of a key kind.
insert_hours() {  # TABLE LOWER UPPER CAST
  q -c "INSERT INTO $1 (id) SELECT $2(h)$4 FROM (SELECT pg_catalog.date_trunc('hour', now()) - g * interval '1 hour' AS h FROM generate_series(0, 47) g) s
        UNION ALL SELECT $3(h - interval '1 millisecond')$4 FROM (SELECT pg_catalog.date_trunc('hour', now()) - g * interval '1 hour' AS h FROM generate_series(0, 46) g) s" \
    2>>"$WORK/errors.log"
}
# Every chunk holds the rows of one hour, and there are 48.
hours_in_chunks() {  # TABLE TIME-EXPRESSION
  sql_true "SELECT count(*) = 48 AND bool_and(hours = 1) FROM (
              SELECT tableoid, count(DISTINCT pg_catalog.date_trunc('hour', $2)) AS hours FROM $1 GROUP BY tableoid) c
            WHERE (SELECT count(*) FROM show_chunks('$1')) = 48"
}
bigint_chunks_ok() {
  hours_in_chunks readings 'tsid_timestamp(id::tsid)' &&
    sql_true "SELECT bool_and(range_start_integer % (3600000::bigint << 22) = 0) FROM timescaledb_information.chunks WHERE hypertable_name = 'readings'"
}
# excluded WHERE-CLAUSE TABLE: "E S" (chunks excluded at executor start, chunk scans), in a new
# session whose first query it is; the plan kept in WORK.
n_plan=0
excluded() {
  n_plan=$((n_plan + 1))
  psql -qXAt -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) SELECT count(*) FROM $2 WHERE $1" \
    >"$WORK/$PGDATABASE-plan$n_plan.txt" 2>&1
  local e s
  e="$(grep -oE 'Chunks excluded during startup: [0-9]+' "$WORK/$PGDATABASE-plan$n_plan.txt" | grep -oE '[0-9]+$')"
  s="$(grep -cE '(Seq Scan|Bitmap Heap Scan|Index Scan using [a-z0-9_]+|Index Only Scan using [a-z0-9_]+) on _hyper_' "$WORK/$PGDATABASE-plan$n_plan.txt")"
  echo "${e:-0} $s"
}
# The window's count equals the count of the same predicate that no rewrite reads ((...) IS TRUE).
same_count() {  # TABLE PREDICATE
  sql_true "SELECT (SELECT count(*) FROM $1 WHERE $2) = (SELECT count(*) FROM $1 WHERE ($2) IS TRUE)"
}

run_cluster() {  # NAME PRELOAD
  local name="$1" preload="$2"
  echo "   -- shared_preload_libraries = '$preload'"
  cluster_start "tsdb_$name" "$PORT" "timezone = 'UTC'" "shared_preload_libraries = '$preload'" \
    "timescaledb.telemetry_level = off" || { tally "cluster $name" 0 1; return 1; }
  psql -qX -c "CREATE DATABASE first_ours" -c "CREATE DATABASE first_theirs" >/dev/null || return 1

  # --- ulid_tsid first, in public; TimescaleDB later -----------------------------------------
  export PGDATABASE=first_ours
  q -c "CREATE EXTENSION ulid_tsid" -c "CREATE TABLE before_move (id ulid PRIMARY KEY DEFAULT generate_ulid(), u uuid DEFAULT generate_uuidv7())" \
    -c "INSERT INTO before_move DEFAULT VALUES" 2>>"$WORK/errors.log"
  check "[$name] ulid_tsid in public, then CREATE EXTENSION timescaledb: refused on generate_uuidv7(), as the page says" \
    fails_with "$name-tsdb-after.out" 'function "generate_uuidv7" already exists with same argument types' -c "CREATE EXTENSION timescaledb"
  check "[$name] the page's 'move' block runs (ALTER EXTENSION ulid_tsid SET SCHEMA, then TimescaleDB)" run_recipe move
  check "[$name] after the move: the table made before it inserts (its defaults by identity), new sessions find ulid_tsid's names" sql_true "
    WITH i AS (INSERT INTO before_move DEFAULT VALUES RETURNING id, u)
    SELECT count(*) = 1 AND bool_and(ulid_timestamp(id) > now() - interval '1 minute' AND uuidv7_timestamp(u) IS NOT NULL) FROM i"
  check "[$name] ... and an unqualified generate_uuidv7() is TimescaleDB's, ulid_tsid.generate_uuidv7() ours" sql_true "
    SELECT (SELECT e.extname FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid
             WHERE d.objid = 'generate_uuidv7()'::regprocedure AND d.deptype = 'e') = 'timescaledb'
       AND 'ulid_tsid.generate_uuidv7()'::regprocedure::oid IN (SELECT objid FROM pg_catalog.pg_depend d
             JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid WHERE e.extname = 'ulid_tsid' AND d.deptype = 'e')"

  # --- TimescaleDB first, in public; ulid_tsid later ----------------------------------------
  export PGDATABASE=first_theirs
  q -c "CREATE EXTENSION timescaledb" 2>>"$WORK/errors.log"
  check "[$name] TimescaleDB in public, then CREATE EXTENSION ulid_tsid: 42723, with a hint that names docs/timescaledb.md" \
    fails_with "$name-ours-after.out" "42723.*generate_uuidv7\(\) already exists" -c "CREATE EXTENSION ulid_tsid"
  check "[$name] ... the hint's page exists and shows the recipe" bash -c "
    grep -q 'HINT:.*ulid_tsid.s docs/timescaledb.md shows how' '$WORK/$name-ours-after.out' && [ -f docs/timescaledb.md ]"
  check "[$name] the page's 'install' block runs (ulid_tsid in a schema of its own, search_path)" run_recipe install
  check "[$name] the page's 'uuid' block runs (a UUIDv7 hypertable, by_range on the uuid)" run_recipe uuid
  check "[$name] the page's 'ulid-tsid' block runs (partition_func => ulid_timestamp, tsid_timestamp)" run_recipe ulid-tsid
  check "[$name] the page's 'bigint' block runs (a TSID on bigint, 3600000::bigint << 22)" run_recipe bigint
  fails_with "$name-ulid-dim.out" 'invalid type for dimension' \
    -c "CREATE TABLE no_func (id ulid NOT NULL)" -c "SELECT create_hypertable('no_func', by_range('id', interval '1 hour'))"
  check "[$name] a ulid column without partition_func is refused: 'invalid type for dimension', as the page says" \
    bash -c "grep -q 'invalid type for dimension' '$WORK/$name-ulid-dim.out'"

  insert_hours metrics uuidv7_lower_bound uuidv7_upper_bound ""
  insert_hours events ulid_lower_bound ulid_upper_bound ""
  insert_hours orders tsid_lower_bound tsid_upper_bound ""
  insert_hours readings tsid_lower_bound tsid_upper_bound "::bigint"
  check "[$name] uuid: 48 chunks, each holding one hour's keys (an hour's first key and the hour before's last apart)" hours_in_chunks metrics "uuidv7_timestamp(id)"
  check "[$name] ulid: 48 chunks, each one hour's keys" hours_in_chunks events "ulid_timestamp(id)"
  check "[$name] tsid: 48 chunks, each one hour's keys" hours_in_chunks orders "tsid_timestamp(id)"
  check "[$name] bigint TSID: 48 chunks, each one hour's keys, starting on whole UTC hours" bigint_chunks_ok
  fails_with "$name-ulid-as-uuid.out" 'is not a version 7 UUID' -c "INSERT INTO metrics (id) VALUES (generate_ulid()::uuid)"
  check "[$name] a ULID stored as uuid is refused on the uuid dimension ('is not a version 7 UUID'), as the page says" \
    bash -c "grep -q 'is not a version 7 UUID' '$WORK/$name-ulid-as-uuid.out' && grep -qF '(\`... is not a version 7 UUID\`)' '$PAGE'"

  # --- the page's windows: chunk exclusion at executor start, in a new session each -------
  recipe windows >"$WORK/windows.sql"
  [ "$(grep -c 'SELECT count' "$WORK/windows.sql")" = 4 ] || { echo "        the page's 'windows' block is not 4 queries" >&2; }
  local line table pred r
  while IFS= read -r line; do
    table="$(sed -E 's/^SELECT count\(\*\) FROM +([a-z_]+) +WHERE .*/\1/' <<<"$line")"
    pred="$(sed -E 's/^SELECT count\(\*\) FROM +[a-z_]+ +WHERE (.*);$/\1/' <<<"$line")"
    r="$(excluded "$pred" "$table")"
    check "[$name] the page's window on $table excludes at least 46 of 48 chunks at executor start, scans the rest (excluded, scans: $r)" \
      bash -c "set -- $r; [ \"\$1\" -ge 46 ] && [ \$(( \$1 + \$2 )) = 48 ]"
    check "[$name] ... and counts what the predicate keeps ($table)" same_count "$table" "$pred"
  done < <(grep '^SELECT count' "$WORK/windows.sql")
  # A time known at planning: excluded at planning, no ChunkAppend startup work.
  local hour; hour="$(q -c "SELECT pg_catalog.date_trunc('hour', now()) - interval '1 hour'")"
  r="$(excluded "uuidv7_timestamp(id) >= '$hour'" metrics)"
  check "[$name] a constant window ('$hour' on): 2 chunks planned, the rest excluded at planning (excluded at start, scans: $r)" \
    bash -c "set -- $r; [ \"\$2\" = 2 ]"
  r="$(excluded "tsid_timestamp(id::tsid) >= '$hour'" readings)"
  check "[$name] ... on the bigint TSID too (excluded at start, scans: $r)" bash -c "set -- $r; [ \"\$2\" = 2 ]"
  # The key-range forms, as the page describes them.
  r="$(excluded "id >= uuidv7_lower_bound(now() - interval '30 minutes')" metrics)"
  check "[$name] key range on uuid: excludes too (excluded, scans: $r)" bash -c "set -- $r; [ \"\$1\" -ge 46 ]"
  r="$(excluded "id >= tsid_lower_bound(now() - interval '30 minutes')::bigint" readings)"
  check "[$name] key range on the bigint TSID: excludes too (excluded, scans: $r)" bash -c "set -- $r; [ \"\$1\" -ge 46 ]"
  r="$(excluded "id >= ulid_lower_bound(now() - interval '30 minutes')" events)"
  check "[$name] key range on ulid (partition_func): excludes none, as the page says (excluded, scans: $r)" bash -c "set -- $r; [ \"\$1\" = 0 ]"
  check "[$name] ... and counts what it keeps" same_count events "id >= ulid_lower_bound(now() - interval '30 minutes')"
  check "[$name] drop_chunks(older_than => a time) drops the older chunks of the uuid hypertable, as the page says" sql_true "
    SELECT count(*) = 45 FROM drop_chunks('metrics', older_than => now() - interval '2 hours')"
  cluster_stop "tsdb_$name"
  unset PGDATABASE
}

trap 'cluster_stop tsdb_both 2>/dev/null; cluster_stop tsdb_alone 2>/dev/null; suite_end' EXIT
run_cluster both 'timescaledb,ulid_tsid'
run_cluster alone 'timescaledb'
echo "   timescaledb on PostgreSQL $PG_MAJOR: $((SECONDS - t_start)) s"
