#!/usr/bin/env bash
# pg_partman with the keys, on the pg_partman Debian ships for the major: the blocks
# marked "<!-- partman: NAME -->" in docs/time-queries-and-partitioning.md, read from
# the page and run as they stand there, in order, in one database; then checks of what
# they made. A TSID on bigint in id mode (every pg_partman): the partitions fall on UTC
# midnights, rows land in the partition of their day, run_maintenance() makes the next
# ones once a later day's key is there (a key of that day is inserted: no waiting), and
# a day's key range prunes to one partition. A UUIDv7 on uuid in time mode (5.x): the
# same, and the page's encoder and decoder pass the rules pg_partman's development tree
# checks in create_parent() (a check of our own, written from those rules: exact
# argument and result types, IMMUTABLE, NULL for NULL, exact round trips), which
# pg_partman's own VOLATILE uuid7 helpers fail. And create_parent() refuses native
# ulid and tsid columns, as the page says, while the page's own recipe for them (the
# "Partitioning by time" section's blocks and daily job) makes their day partitions.
#   PG_MAJOR=17 bash scripts/suites/partman.sh   (after scripts/suites/build.sh)
# A major with no postgresql-MAJOR-partman in its Debian suite is skipped with one line;
# one whose package is in its suite but not yet in its chroot gets it installed there.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
PORT=${PARTMAN_PORT:-$((57100 + PG_MAJOR))}
PAGE=docs/time-queries-and-partitioning.md
PKG="postgresql-$PG_MAJOR-partman"
WORK="$LOGS/partman-$PG_MAJOR"
rm -rf "$WORK"; mkdir -p "$WORK"
t_start=$SECONDS

# --- pg_partman: Debian's package for this major -----------------------------------
source "$ROOT/scripts/lib/debian_pkg.sh"
debian_pkg "$PKG"
case $? in
  0) ;;
  2) if [ -z "$PG_CHROOT" ]; then
       echo "   FAIL $PKG is not installed on the host (bash scripts/install-deps.sh installs it)"
       tally "pg_partman" 0 1; exit 1
     fi
     echo "   -    skipped on PostgreSQL $PG_MAJOR: $DEBIAN_PKG_WHY"; exit 0 ;;
  *) tally "installing $PKG" 0 1; exit 1 ;;
esac

cluster_start "partman_$PORT" "$PORT" "timezone = 'UTC'" || exit 1
trap 'cluster_stop "partman_$PORT"; suite_end' EXIT
psql -qX -v ON_ERROR_STOP=1 -c "CREATE DATABASE partman" >/dev/null || exit 1
export PGDATABASE=partman
q() { psql -qXAt -v ON_ERROR_STOP=1 "$@"; }
q -c "CREATE EXTENSION ulid_tsid" || exit 1
# check LABEL sql_true "SQL returning t"
sql_true() { [ "$(q -c "$1" 2>>"$WORK/errors.log")" = t ]; }

# recipe NAME: the block after "<!-- partman: NAME -->" on the page, as it stands there.
recipe() {
  awk -v name="$1" '$0 == "<!-- partman: " name " -->" { on = 1; next }
                    on == 1 && /^```sql$/ { on = 2; next } on == 1 && NF { exit }
                    on == 2 && /^```$/ { exit } on == 2' "$PAGE"
}
# run_recipe NAME: the page's block run (its output in WORK/NAME.out).
run_recipe() {
  recipe "$1" >"$WORK/$1.sql"
  [ -s "$WORK/$1.sql" ] || { echo "        no block marked <!-- partman: $1 --> in $PAGE" >&2; return 1; }
  q -f "$WORK/$1.sql" >"$WORK/$1.out" 2>&1 || { sed 's/^/        /' "$WORK/$1.out" | head -5 >&2; return 1; }
}

check "the page's block 'setup' runs (CREATE EXTENSION pg_partman)" run_recipe setup
version="$(q -c "SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'pg_partman'")"
[ -n "$version" ] || exit 1
echo "   pg_partman $version ($PKG) on PostgreSQL $(q -c 'SHOW server_version')"
pm_major="${version%%.*}"

# Every partition of a partitioned table with its bounds as text (no default).
q -c "CREATE SCHEMA suite" -c "
CREATE FUNCTION suite.parts(parent regclass) RETURNS TABLE (part regclass, lo text, hi text) LANGUAGE sql STABLE AS \$\$
  SELECT c.oid::regclass, pg_catalog.btrim(m[1], ''''), pg_catalog.btrim(m[2], '''')
  FROM pg_catalog.pg_inherits i JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid,
       LATERAL pg_catalog.regexp_match(pg_catalog.pg_get_expr(c.relpartbound, c.oid), 'FROM \((.*)\) TO \((.*)\)') AS m
  WHERE i.inhparent = parent AND m IS NOT NULL
\$\$" || exit 1
# scanned QUERY-FILE: the tables (not indexes) that EXPLAIN of the query scans, sorted;
# the plan is kept in QUERY-FILE's name with .plan.
scanned() {
  { echo "EXPLAIN (COSTS OFF)"; cat "$1"; } | q -f - 2>>"$WORK/errors.log" | tee "${1%.sql}.plan" |
    grep -oE '(Seq Scan|Bitmap Heap Scan|Index Scan using [a-z0-9_]+|Index Only Scan using [a-z0-9_]+|Tid Range Scan) on [a-z0-9_]+' |
    awk '{ print $NF }' | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# --- a TSID on bigint: id mode -------------------------------------------------------
D=362387865600000   # one UTC day of TSIDs: 86,400,000 ms << 22
M0="tsid_lower_bound(pg_catalog.date_trunc('day', now(), 'UTC'))::bigint"   # today's first TSID (UTC)
# page_says TEXT: the page holds TEXT (its lines joined).
page_says() { tr '\n' ' ' <"$PAGE" | grep -qF -- "$1"; }
one_day="$(q -c "SELECT tsid_lower_bound('2026-12-04 00:00+00')::bigint - tsid_lower_bound('2026-12-03 00:00+00')::bigint")"
dec3="$(q -c "SELECT tsid_lower_bound('2026-12-03 00:00+00')::bigint")"
one_day_ok() { [ "$one_day" = "$D" ] && [ $((dec3 % D)) = 0 ] && page_says "-- $one_day"; }
check "the page's one-day figure is one UTC day of TSIDs ($one_day), a multiple of which the first TSID of a day is" one_day_ok
check "the page's example partition is named after the first TSID of 2026-12-03 ($dec3)" page_says "\`readings_p$dec3\` holds 2026-12-03, UTC"
check "the page's block 'tsid-table' runs" run_recipe tsid-table
if [ "$pm_major" -ge 5 ]; then parent_block=tsid-parent; else parent_block=tsid-parent-4; fi
check "the page's block '$parent_block' runs (create_parent, id mode, pg_partman $pm_major.x)" run_recipe "$parent_block"
# every partition: one UTC day, from tsid_lower_bound() of a midnight to the next, named after its first TSID
tsid_parts_ok() {  # N: N partitions, today's first, contiguous, each a UTC day
  q -c "SELECT '-- ' || clock_timestamp()" -c "SELECT * FROM suite.parts('public.readings') ORDER BY lo::bigint" >>"$WORK/parts.log" 2>&1
  sql_true "
  WITH p AS (SELECT part, lo::bigint AS lo, hi::bigint AS hi FROM suite.parts('public.readings'))
  SELECT count(*) = $1 AND min(lo) = $M0 AND max(lo) = $M0 + ($1 - 1) * $D
     AND bool_and(hi = lo + $D AND lo % $D = 0)
     AND bool_and(lo = tsid_lower_bound(pg_catalog.date_trunc('day', tsid_timestamp(lo::tsid), 'UTC'))::bigint)
     AND bool_and(part::text = 'readings_p' || lo)
  FROM p"
}
check "create_parent made today's partition and 4 ahead, each one UTC day from tsid_lower_bound() of a midnight" tsid_parts_ok 5
check "and the default partition" sql_true "SELECT to_regclass('public.readings_default') IS NOT NULL"
q -c "INSERT INTO readings (value) SELECT g FROM generate_series(1, 100) AS g" \
  -c "INSERT INTO readings (id, value) VALUES ($M0, -1)" 2>>"$WORK/errors.log"
check "the page's block 'maintenance' runs (run_maintenance())" run_recipe maintenance
check "with today's keys the newest, it makes no partition (4 are ahead)" tsid_parts_ok 5
# (Not with today's last TSID there: pg_partman 5.x reads the largest key as
# trunc(max(id)), in double precision, which rounds it to the next day's first TSID
# and makes a fifth partition ahead.)
q -c "INSERT INTO readings (id, value) VALUES ($M0 + $D - 1, -2), ($M0 + $D, -3), ($M0 + 4 * $D + 12345, -4)" 2>>"$WORK/errors.log"
check "rows land in their day's partition: 100 new keys, today's first TSID and last one, tomorrow's first, one 4 days ahead" sql_true "
  SELECT count(*) = 104 AND bool_and(r.tableoid::regclass = p.part)
     AND count(*) FILTER (WHERE r.value = -2 AND p.lo::bigint = $M0) = 1
     AND count(*) FILTER (WHERE r.value = -3 AND p.lo::bigint = $M0 + $D) = 1
  FROM readings r JOIN suite.parts('public.readings') p
    ON p.lo::bigint = tsid_lower_bound(pg_catalog.date_trunc('day', tsid_timestamp(r.id::tsid), 'UTC'))::bigint"
check "no row in the default partition" sql_true "SELECT count(*) = 0 FROM readings_default"
check "with a key of the last premade day (4 days ahead) there, the page's maintenance block runs again" run_recipe maintenance
check "and made the next 4 days' partitions, on UTC midnights" tsid_parts_ok 9
recipe tsid-query >"$WORK/tsid-query.sql"
check "the page's block 'tsid-query' counts today's rows" sql_true "
  SELECT ($(sed 's/;[[:space:]]*$//' "$WORK/tsid-query.sql" | tr '\n' ' ')) = count(*) FROM readings
  WHERE tsid_timestamp(id::tsid) >= pg_catalog.date_trunc('day', now(), 'UTC')
    AND tsid_timestamp(id::tsid) < pg_catalog.date_trunc('day', now(), 'UTC') + interval '1 day'"
today_tsid="$(q -c "SELECT part FROM suite.parts('public.readings') WHERE lo::bigint = $M0")"
got="$(scanned "$WORK/tsid-query.sql")"
check "EXPLAIN of the page's 'tsid-query': one partition scanned, today's ($today_tsid; got: $got)" [ "$got" = "$today_tsid" ]
check "and the other 9 (the default too) shown as Subplans Removed, as the page says" grep -q "Subplans Removed: 9" "$WORK/tsid-query.plan"

# --- native ulid and tsid columns: refused ---------------------------------------------
for kind in tsid ulid; do
  q -c "CREATE TABLE public.native_$kind (id $kind PRIMARY KEY DEFAULT generate_$kind()) PARTITION BY RANGE (id)" 2>>"$WORK/errors.log"
  if [ "$pm_major" -ge 5 ]; then
    call="SELECT partman.create_parent('public.native_$kind', 'id', p_interval := '1 day')"
  else
    call="SELECT partman.create_parent('public.native_$kind', 'id', 'native', '1 day')"
  fi
  q -c "$call" >"$WORK/native_$kind.out" 2>&1
  check "create_parent refuses a native $kind column, as the page says" \
    grep -q "ERROR: *pg_partman only supports partitioning of data types that are .*Supplied column is of type $kind" "$WORK/native_$kind.out"
done
check "the page quotes that refusal" page_says '"pg_partman only supports partitioning of data types that are ..."'
# What the page gives them instead: the blocks of its "Partitioning by time" section (the
# doctest suite runs them too), its daily job twice.
section_blocks() {  # the sql blocks under "## Partitioning by time", one after another
  awk '/^## / { on = ($0 == "## Partitioning by time") } on && /^```sql$/ { b = 1; next } b && /^```$/ { b = 0; next } b' "$PAGE"
}
section_blocks >"$WORK/by-hand.sql"
sed -n '/^DO \$\$/,/^END \$\$;/p' "$WORK/by-hand.sql" >"$WORK/by-hand-job.sql"
check "the page's blocks of 'Partitioning by time' run, its daily job again (native keys)" \
  bash -c "[ -s '$WORK/by-hand-job.sql' ] && psql -qX -v ON_ERROR_STOP=1 -f '$WORK/by-hand.sql' -f '$WORK/by-hand-job.sql' >'$WORK/by-hand.out' 2>&1"
check "its job made today's partition and the next 3 of the ulid table, from ulid_lower_bound() of midnights" sql_true "
  SELECT count(*) = 4 AND bool_and(p.lo = ulid_lower_bound(d)::text AND p.hi = ulid_lower_bound(d + 1)::text)
  FROM (SELECT current_date + i AS d FROM generate_series(0, 3) AS i) AS days
  JOIN suite.parts('public.events') AS p ON p.part::text = 'events_' || pg_catalog.to_char(d, 'YYYY_MM_DD')"
q -c "INSERT INTO events (body) VALUES ('{}')" 2>>"$WORK/errors.log"
check "a new ulid lands in today's partition" sql_true "
  SELECT tableoid::regclass::text = 'events_' || pg_catalog.to_char(current_date, 'YYYY_MM_DD') FROM events"

# --- a UUIDv7 on uuid: time mode (pg_partman 5.x) ------------------------------------
if [ "$pm_major" -lt 5 ]; then
  echo "   -    time mode on uuid: not on pg_partman $version (p_time_encoder and p_time_decoder came with 5.0)"
else
  DAY0="pg_catalog.date_trunc('day', now())"   # the session's (and cluster's) time zone: UTC
  check "the page's block 'uuid-decoder' runs" run_recipe uuid-decoder
  check "the page's block 'uuid-table' runs (create_parent, time mode, our encoder and decoder)" run_recipe uuid-table
  uuid_parts_ok() {  # FIRST LAST N: N partitions, days FIRST..LAST from today, each a midnight's uuidv7_lower_bound
    q -c "SELECT '-- ' || clock_timestamp()" -c "SELECT * FROM suite.parts('public.payments') ORDER BY lo::uuid" >>"$WORK/parts.log" 2>&1
    sql_true "
    WITH p AS (SELECT part, lo::uuid AS lo, hi::uuid AS hi, uuidv7_timestamp(lo::uuid) AS t FROM suite.parts('public.payments'))
    SELECT count(*) = $3 AND min(t) = $DAY0 + interval '$1 days' AND max(t) = $DAY0 + interval '$2 days'
       AND bool_and(t = pg_catalog.date_trunc('day', t) AND lo = uuidv7_lower_bound(t) AND hi = uuidv7_lower_bound(t + interval '1 day'))
       AND bool_and(part::text = 'payments_p' || pg_catalog.to_char(t, 'YYYYMMDD'))
    FROM p"
  }
  check "create_parent made 4 days back, today and 4 ahead, each from uuidv7_lower_bound() of a midnight" uuid_parts_ok -4 4 9

  # The development tree's checks, as its create_parent() makes them (our code, from its
  # rules): names schema-qualified; exactly one encoder(timestamptz) -> uuid and one
  # decoder(uuid) -> timestamptz; both IMMUTABLE; NULL for NULL; the first partition's start
  # encoded and decoded is itself. Stricter here: every boundary both ways, and the decoder
  # called as released 5.x calls it (on text) agrees.
  q -c "
  CREATE FUNCTION suite.dev_tree_check(encoder text, decoder text, parent regclass) RETURNS text LANGUAGE plpgsql AS \$\$
  DECLARE r record; n int; vol char; null_for_null bool; bad text;
  BEGIN
    FOR r IN SELECT * FROM (VALUES (encoder, 'timestamptz'::regtype, 'uuid'::regtype), (decoder, 'uuid'::regtype, 'timestamptz'::regtype)) AS v(f, tin, tout) LOOP
      IF pg_catalog.cardinality(pg_catalog.parse_ident(r.f)) <> 2 THEN RETURN r.f || ': not schema-qualified'; END IF;
      SELECT count(*), min(p.provolatile) INTO n, vol FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace s ON s.oid = p.pronamespace
       WHERE s.nspname = (pg_catalog.parse_ident(r.f))[1] AND p.proname = (pg_catalog.parse_ident(r.f))[2]
         AND p.pronargs >= 1 AND p.proargtypes[0] = r.tin AND p.prorettype = r.tout;
      IF n <> 1 THEN RETURN format('%s: %s functions (%s) -> %s', r.f, n, r.tin, r.tout); END IF;
      IF vol <> 'i' THEN RETURN r.f || ': not IMMUTABLE'; END IF;
      EXECUTE format('SELECT %s(NULL) IS NULL', r.f) INTO null_for_null;
      IF NOT null_for_null THEN RETURN r.f || ': not NULL for NULL'; END IF;
    END LOOP;
    EXECUTE format('SELECT string_agg(lo, '', '') FROM suite.parts(%L) AS b
                    WHERE %s(%s(%s(lo::uuid))) IS DISTINCT FROM %s(lo::uuid)          -- decoder(encoder(t)) = t at each start
                       OR %s(%s(lo::uuid)) IS DISTINCT FROM lo::uuid                  -- encoder(decoder(b)) = b
                       OR %s(lo) IS DISTINCT FROM %s(lo::uuid)                        -- the released call, on text
                       OR %s(hi::uuid) IS DISTINCT FROM %s(lo::uuid) + interval ''1 day''',
                   parent, decoder, encoder, decoder, decoder, encoder, decoder, decoder, decoder, decoder, decoder) INTO bad;
    RETURN coalesce('boundaries that do not round-trip: ' || bad, 'ok');
  END \$\$" || exit 1
  enc="$(q -c "SELECT time_encoder FROM partman.part_config WHERE parent_table = 'public.payments'")"
  dec="$(q -c "SELECT time_decoder FROM partman.part_config WHERE parent_table = 'public.payments'")"
  res="$(q -c "SELECT suite.dev_tree_check('$enc', '$dec', 'public.payments')" 2>&1)"
  check "the page's encoder ($enc) and decoder ($dec) pass the development tree's checks, at every boundary: $res" [ "$res" = ok ]
  # The same check refuses what it should: pg_partman's own helpers (VOLATILE; a text decoder).
  res="$(q -c "SELECT suite.dev_tree_check('partman.uuid7_time_encoder', 'partman.uuid7_time_decoder', 'public.payments')" 2>&1)"
  check "and refuses pg_partman $version's own uuid7 helpers (${res:0:90})" [ "$res" != ok ]
  q -c "CREATE FUNCTION suite.text_decoder(text) RETURNS timestamptz LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN uuidv7_timestamp(\$1::uuid)" \
    2>>"$WORK/errors.log"
  res="$(q -c "SELECT suite.dev_tree_check('$enc', 'suite.text_decoder', 'public.payments')" 2>&1)"
  check "and a decoder on text alone, as released 5.x calls it (${res:0:90})" [ "$res" != ok ]
  res="$(q -c "SELECT suite.dev_tree_check('public.uuidv7_upper_bound', '$dec', 'public.payments')" 2>&1)"
  check "and an encoder that does not give back these boundaries, uuidv7_upper_bound (${res:0:90})" [ "$res" != ok ]
  check "the page says pg_partman's own helpers fail that check" page_says "which the development tree's check refuses"

  q -c "INSERT INTO payments (amount) SELECT g FROM generate_series(1, 100) AS g" \
    -c "INSERT INTO payments (id, amount) VALUES (uuidv7_lower_bound($DAY0), -1), (uuidv7_upper_bound($DAY0 - interval '1 millisecond'), -2)" \
    2>>"$WORK/errors.log"
  check "rows land in their day's partition: 100 new keys, today's first UUIDv7, yesterday's last" sql_true "
    SELECT count(*) = 102 AND bool_and(r.tableoid::regclass = p.part)
       AND count(*) FILTER (WHERE r.amount = -1 AND uuidv7_timestamp(p.lo::uuid) = $DAY0) = 1
       AND count(*) FILTER (WHERE r.amount = -2 AND uuidv7_timestamp(p.lo::uuid) = $DAY0 - interval '1 day') = 1
    FROM payments r JOIN suite.parts('public.payments') p ON uuidv7_timestamp(p.lo::uuid) = pg_catalog.date_trunc('day', uuidv7_timestamp(r.id))"
  check "no row in the default partition" sql_true "SELECT count(*) = 0 FROM payments_default"
  check "the page's block 'maintenance' runs" run_recipe maintenance
  check "with today's keys the newest, it makes no partition" uuid_parts_ok -4 4 9
  q -c "INSERT INTO payments (id, amount) VALUES (generate_uuidv7(interval '4 days'), -4)" 2>>"$WORK/errors.log"
  check "a key made 4 days ahead inserted: the page's maintenance block runs again" run_recipe maintenance
  check "and made the next 4 days' partitions, on midnights" uuid_parts_ok -4 8 13
  check "pg_partman orders and describes the partitions through the decoder (show_partitions, show_partition_info)" sql_true "
    SELECT array_agg(partition_tablename::text ORDER BY n) = (SELECT array_agg(part::text ORDER BY lo::uuid) FROM suite.parts('public.payments'))
       AND (SELECT child_start_time = $DAY0 FROM partman.show_partition_info('public.payments_p' || pg_catalog.to_char($DAY0, 'YYYYMMDD'), '1 day', 'public.payments'))
    FROM partman.show_partitions('public.payments') WITH ORDINALITY AS s(partition_schemaname, partition_tablename, n)"
  recipe uuid-query >"$WORK/uuid-query.sql"
  check "the page's block 'uuid-query' counts today's rows" sql_true "
    SELECT ($(sed 's/;[[:space:]]*$//' "$WORK/uuid-query.sql" | tr '\n' ' ')) = count(*) FROM payments
    WHERE uuidv7_timestamp(id) >= $DAY0 AND uuidv7_timestamp(id) < $DAY0 + interval '1 day'"
  today_uuid="$(q -c "SELECT 'payments_p' || pg_catalog.to_char($DAY0, 'YYYYMMDD')")"
  got="$(scanned "$WORK/uuid-query.sql")"
  check "EXPLAIN of the page's 'uuid-query': one partition scanned, today's ($today_uuid; got: $got)" [ "$got" = "$today_uuid" ]
fi

echo "   partman on PostgreSQL $PG_MAJOR: $((SECONDS - t_start)) s"
