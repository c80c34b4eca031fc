#!/usr/bin/env bash
# The portable edition (portable/ulid_tsid_portable.sql) against the native
# extension, on a server without the library in shared_preload_libraries: the
# portable edition is installed by a database owner who is not a superuser into
# database "portable", where CREATE EXTENSION ulid_tsid never runs; the native
# extension into database "native" of the same cluster. Values made by each
# edition are copied into the other (COPY through psql) and compared there, set
# based: text (also lower case and aliases), decoding, order, timestamps; the
# bounds; strictness (the same errors for a list of bad inputs); 8 concurrent
# writers; partition pruning; and docs/portable.md's switch recipes, both ways, in a
# third database "switch".
#   PG_MAJOR=17 bash scripts/suites/portable.sh   (after scripts/suites/build.sh)
# PORTABLE_TSIDS, PORTABLE_ULIDS, PORTABLE_UUIDV7S: values per kind and direction
# (default 80000, 80000, 40000: 200,000 each way on every major, 1,000,000 over the five).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
PORT=${PORTABLE_PORT:-$((56500 + PG_MAJOR))}
# 200,000 each way on every major: the same PL/pgSQL runs on each, so the five majors
# together compare a million fresh random values each way. (15 ran 1,000,000 alone:
# 76 CPU-s against 27 on the other majors, in the whole test command.)
N_TSID=${PORTABLE_TSIDS:-80000}
N_ULID=${PORTABLE_ULIDS:-80000}
N_V7=${PORTABLE_UUIDV7S:-40000}
FILE=${PORTABLE_FILE:-portable/ulid_tsid_portable.sql}   # another file: to show the checks catch a broken edition
WORK="$LOGS/portable-$PG_MAJOR-$PORT"
rm -rf "$WORK"; mkdir -p "$WORK"
t_start=$SECONDS

# psql as the database owner (not a superuser) into one database; -v ON_ERROR_STOP.
q() { local db="$1"; shift; psql -qXAt -v ON_ERROR_STOP=1 -U owner -d "$db" "$@"; }
source "$ROOT/scripts/lib/portable_compare.sh"
# check LABEL "SQL returning t" DB
sql_true() { [ "$(q "$2" -c "$1" 2>>"$WORK/errors.log")" = t ]; }

# --- static: nothing in the portable edition refers to the library -------------
no_c_refs() {
  ! sed 's/--.*//' "$FILE" | grep -Eiq "language[[:space:]]+'?c([^a-z_]|$)|[$]libdir|module_pathname|ulid_tsid[.]so|create[[:space:]]+extension|(^|[^_a-z])load[[:space:]]"
}
check "the portable script names no C function, library, extension or LOAD" no_c_refs
check "every name its code uses is schema-qualified (scripts/check-sql-names.py)" \
  bash -c "python3 scripts/check-sql-names.py $FILE >/dev/null"
check "portable/ulid_tsid_portable--pg_tle.sql is current (scripts/portable-pgtle.sh)" \
  bash scripts/portable-pgtle.sh --check

# --- a server without the library preloaded ------------------------------------
cluster_start "portable_$PORT" "$PORT" "timezone = 'UTC'" || exit 1
psql -qX -v ON_ERROR_STOP=1 -c "CREATE ROLE owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE" \
  -c "CREATE DATABASE portable OWNER owner" -c "CREATE DATABASE native OWNER owner" \
  -c "CREATE DATABASE switch OWNER owner" >/dev/null || exit 1
check "no shared_preload_libraries" [ "$(psql -qXAt -c "SHOW shared_preload_libraries")" = "" ]
check "the owner is not a superuser" sql_true "SELECT NOT rolsuper FROM pg_roles WHERE rolname = current_user" portable
for db in portable native switch; do
  q "$db" -c "CREATE SCHEMA keys" -c "ALTER DATABASE $db SET search_path = \"\$user\", public, keys" || exit 1
done
check "a database owner installs the portable edition with psql -f" \
  bash -c "psql -qXAt -U owner -d portable -v schema=keys -f $FILE >$WORK/install.log 2>&1"
check "installing it again replaces it in place" \
  bash -c "psql -qXAt -U owner -d portable -v schema=keys -f $FILE >>$WORK/install.log 2>&1"
q native -c "CREATE EXTENSION ulid_tsid SCHEMA keys" || exit 1
check "portable database: only SQL and PL/pgSQL functions, no extension but plpgsql, no C in the catalog" sql_true "
  SELECT NOT EXISTS (SELECT FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
                     WHERE p.pronamespace = 'keys'::regnamespace AND l.lanname NOT IN ('sql', 'plpgsql'))
     AND NOT EXISTS (SELECT FROM pg_extension WHERE extname <> 'plpgsql')
     AND NOT EXISTS (SELECT FROM pg_proc WHERE probin LIKE '%ulid_tsid%')
     AND (SELECT count(*) FROM pg_proc WHERE pronamespace = 'keys'::regnamespace) = 39" portable

# --- portable -> native: values the portable edition makes, read natively -----
echo "   portable -> native: $N_TSID TSIDs, $N_ULID ULIDs, $N_V7 UUIDv7s"
t0=$SECONDS
q portable >"$WORK/a.log" 2>&1 <<SQL || { tail -5 "$WORK/a.log"; echo "   FAIL portable side of portable -> native"; }
CREATE UNLOGGED TABLE a_tsid AS
  SELECT i, v, tsid_to_text(v) AS txt, tsid_timestamp(v) AS ts
  FROM (SELECT i, CASE WHEN i <= $N_TSID / 5 THEN generate_tsid()
                       WHEN i = $N_TSID / 5 + 1 THEN 0 WHEN i = $N_TSID / 5 + 2 THEN -1
                       WHEN i = $N_TSID / 5 + 3 THEN 9223372036854775807 WHEN i = $N_TSID / 5 + 4 THEN -9223372036854775808
                       ELSE ('x' || substr(md5('t' || i), 1, 16))::bit(64)::bigint END AS v
        FROM generate_series(1, $N_TSID) AS i) AS s;
CREATE UNLOGGED TABLE a_ulid AS
  SELECT i, u, ulid_to_text(u) AS txt, ulid_timestamp(u) AS ts, uuidv7_timestamp(u) AS v7ts
  FROM (SELECT i, CASE WHEN i <= $N_ULID / 5 THEN generate_ulid()
                       WHEN i = $N_ULID / 5 + 1 THEN '00000000-0000-0000-0000-000000000000'::uuid
                       WHEN i = $N_ULID / 5 + 2 THEN 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid
                       ELSE md5('u' || i)::uuid END AS u
        FROM generate_series(1, $N_ULID) AS i) AS s;
CREATE UNLOGGED TABLE a_v7 AS
  SELECT i, u, uuidv7_timestamp(u) AS ts FROM (SELECT i, generate_uuidv7() AS u FROM generate_series(1, $N_V7) AS i) AS s;
SQL
copy_tables portable native a_tsid a_ulid a_v7
check "portable -> native: TSIDs: native text, decoding and timestamps equal the portable ones ($N_TSID values)" sql_true "
  SELECT count(*) = $N_TSID AND count(*) FILTER (WHERE v::tsid::text IS DISTINCT FROM txt OR txt::tsid::bigint IS DISTINCT FROM v
                                                    OR tsid_timestamp(v::tsid) IS DISTINCT FROM ts) = 0 FROM a_tsid" native
check "portable -> native: TSIDs: the same order as tsid, text order = the native text's" sql_true "
  SELECT count(*) FILTER (WHERE a <> b OR c <> d) = 0
  FROM (SELECT row_number() OVER (ORDER BY v, i) AS a, row_number() OVER (ORDER BY v::tsid, i) AS b,
               row_number() OVER (ORDER BY txt COLLATE \"C\", i) AS c, row_number() OVER (ORDER BY v::tsid::text COLLATE \"C\", i) AS d
        FROM a_tsid) AS s" native
check "portable -> native: ULIDs: native text, decoding and timestamps equal the portable ones ($N_ULID values)" sql_true "
  SELECT count(*) = $N_ULID AND count(*) FILTER (WHERE u::ulid::text IS DISTINCT FROM txt OR txt::ulid::uuid IS DISTINCT FROM u
                                                    OR ulid_timestamp(u::ulid) IS DISTINCT FROM ts
                                                    OR uuidv7_timestamp(u) IS DISTINCT FROM v7ts) = 0 FROM a_ulid" native
check "portable -> native: ULIDs: uuid order = ulid order = text order" sql_true "
  SELECT count(*) FILTER (WHERE a <> b OR a <> c) = 0
  FROM (SELECT row_number() OVER (ORDER BY u, i) AS a, row_number() OVER (ORDER BY u::ulid, i) AS b,
               row_number() OVER (ORDER BY txt COLLATE \"C\", i) AS c FROM a_ulid) AS s" native
check "portable -> native: UUIDv7s: version 7, RFC variant, native timestamps equal ($N_V7 values)" sql_true "
  SELECT count(*) = $N_V7 AND count(*) FILTER (WHERE uuid_extract_version(u) IS DISTINCT FROM 7
                                                  OR uuidv7_timestamp(u) IS DISTINCT FROM ts OR ts IS NULL) = 0 FROM a_v7" native
check "portable generators: values within the clock of their making, distinct" sql_true "
  SELECT (SELECT count(DISTINCT v) = $N_TSID / 5 AND max(ts) <= now() + interval '1 s' AND min(ts) >= now() - interval '10 min'
          FROM a_tsid WHERE i <= $N_TSID / 5)
     AND (SELECT count(DISTINCT u) = $N_ULID / 5 AND max(ts) <= now() + interval '1 s' AND min(ts) >= now() - interval '10 min'
          FROM a_ulid WHERE i <= $N_ULID / 5)
     AND (SELECT count(DISTINCT u) = $N_V7 FROM a_v7)" native
echo "   portable -> native: $((SECONDS - t0)) s"

# --- native -> portable: values the native extension makes, read portably ------
echo "   native -> portable: $N_TSID TSIDs, $N_ULID ULIDs, $N_V7 UUIDv7s"
t0=$SECONDS
# Input variants the native types accept: lower case, and the aliases O for 0, I/L for 1.
alt="CASE i % 4 WHEN 0 THEN txt WHEN 1 THEN lower(txt) WHEN 2 THEN translate(txt, '01', 'OI') ELSE translate(lower(txt), '01', 'ol') END"
q native >"$WORK/b.log" 2>&1 <<SQL || { tail -5 "$WORK/b.log"; echo "   FAIL native side of native -> portable"; }
CREATE UNLOGGED TABLE b_tsid AS
  SELECT i, v, txt, $alt AS alt, tsid_timestamp(v::tsid) AS ts
  FROM (SELECT i, v, v::tsid::text AS txt
        FROM (SELECT i, CASE WHEN i <= $N_TSID / 5 THEN generate_tsid()::bigint
                             ELSE ('x' || substr(md5('T' || i), 1, 16))::bit(64)::bigint END AS v
              FROM generate_series(1, $N_TSID) AS i) AS s) AS s2;
CREATE UNLOGGED TABLE b_ulid AS
  SELECT i, u, txt, $alt AS alt, ulid_timestamp(u::ulid) AS ts, uuidv7_timestamp(u) AS v7ts
  FROM (SELECT i, u, u::ulid::text AS txt
        FROM (SELECT i, CASE WHEN i <= $N_ULID / 5 THEN generate_ulid()::uuid ELSE md5('U' || i)::uuid END AS u
              FROM generate_series(1, $N_ULID) AS i) AS s) AS s2;
CREATE UNLOGGED TABLE b_v7 AS
  SELECT i, u, uuidv7_timestamp(u) AS ts FROM (SELECT i, generate_uuidv7() AS u FROM generate_series(1, $N_V7) AS i) AS s;
SQL
check "native -> portable: the native types read their own variant texts (lower case, aliases)" sql_true "
  SELECT (SELECT bool_and(alt::tsid::bigint = v) FROM b_tsid) AND (SELECT bool_and(alt::ulid::uuid = u) FROM b_ulid)" native
copy_tables native portable b_tsid b_ulid b_v7
check "native -> portable: TSIDs: portable text, decoding (variants too) and timestamps equal the native ones" sql_true "
  SELECT count(*) = $N_TSID AND count(*) FILTER (WHERE tsid_to_text(v) IS DISTINCT FROM txt OR tsid_from_text(alt) IS DISTINCT FROM v
                                                    OR tsid_timestamp(v) IS DISTINCT FROM ts) = 0 FROM b_tsid" portable
check "native -> portable: TSIDs: for the non-negative ones text order = value order" sql_true "
  SELECT count(*) FILTER (WHERE a <> b) = 0
  FROM (SELECT row_number() OVER (ORDER BY v, i) AS a, row_number() OVER (ORDER BY txt COLLATE \"C\", i) AS b
        FROM b_tsid WHERE v >= 0) AS s" portable
check "native -> portable: ULIDs: portable text, decoding (variants too) and timestamps equal the native ones" sql_true "
  SELECT count(*) = $N_ULID AND count(*) FILTER (WHERE ulid_to_text(u) IS DISTINCT FROM txt OR ulid_from_text(alt) IS DISTINCT FROM u
                                                    OR ulid_timestamp(u) IS DISTINCT FROM ts
                                                    OR uuidv7_timestamp(u) IS DISTINCT FROM v7ts) = 0 FROM b_ulid" portable
check "native -> portable: UUIDv7s: portable timestamps equal the native ones" sql_true "
  SELECT count(*) = $N_V7 AND count(*) FILTER (WHERE uuidv7_timestamp(u) IS DISTINCT FROM ts OR ulid_timestamp(u) IS DISTINCT FROM ts) = 0
  FROM b_v7" portable
echo "   native -> portable: $((SECONDS - t0)) s"

# --- the bounds, over the whole range ----------------------------------------------
bounds_sql="
  SELECT t, ulid_lower_bound_clamped(t)::uuid, ulid_upper_bound_clamped(t)::uuid,
         uuidv7_lower_bound_clamped(t), uuidv7_upper_bound_clamped(t),
         tsid_lower_bound_clamped(t)::bigint, tsid_upper_bound_clamped(t)::bigint,
         CASE WHEN t BETWEEN '1970-01-01' AND '10889-08-01' THEN ulid_lower_bound(t)::uuid END,
         CASE WHEN t BETWEEN '1970-01-01' AND '10889-08-01' THEN ulid_upper_bound(t)::uuid END,
         CASE WHEN t BETWEEN '1970-01-01' AND '10889-08-01' THEN uuidv7_lower_bound(t) END,
         CASE WHEN t BETWEEN '1970-01-01' AND '10889-08-01' THEN uuidv7_upper_bound(t) END,
         CASE WHEN t BETWEEN '2020-01-01' AND '2159-05-14' THEN tsid_lower_bound(t)::bigint END,
         CASE WHEN t BETWEEN '2020-01-01' AND '2159-05-14' THEN tsid_upper_bound(t)::bigint END
  FROM (SELECT to_timestamp(0) + (x * 280000000000000)::bigint * interval '1 microsecond' AS t
        FROM (SELECT ('x' || substr(md5('b' || i), 1, 8))::bit(32)::bigint / 4294967296.0 AS x FROM generate_series(1, 10000) AS i) AS r
        UNION ALL SELECT unnest(ARRAY['-infinity', 'infinity', '1970-01-01', '1969-12-31 23:59:59.999999+00',
                                      '2020-01-01', '2019-12-31 23:59:59.999999+00', '2089-05-15', '2159-05-15 07:35:11.103+00',
                                      '2159-05-15 07:35:11.104+00', '10889-08-02 05:31:50.655999+00', '10889-08-02 05:31:50.656+00',
                                      '2026-12-01 12:00:00.000999+00', '2026-12-01 12:00:00.001+00']::timestamptz[])) AS ts
  ORDER BY 1"
q portable -c "$bounds_sql" >"$WORK/bounds.portable" 2>&1
q native -c "$bounds_sql" >"$WORK/bounds.native" 2>&1
check "the bounds and clamped bounds agree over 10,013 times from 1970 to 10889 and the infinities" \
  bash -c "[ \$(wc -l <$WORK/bounds.native) -eq 10013 ] && diff -q $WORK/bounds.native $WORK/bounds.portable >/dev/null"

# --- strictness: the same inputs refused, with the same error --------------------
bad_texts_sql >"$WORK/bad.sql" <<'ROWS'
  ('ulid', ''), ('ulid', '0'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FA'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAVV'),
  ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAU'), ('ulid', '81ARZ3NDEKTSV4RRFFQ69G5FAV'), ('ulid', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ'),
  ('ulid', ' 01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV '), ('ulid', '01ARZ3NDEK-TSV4RRFFQ69G5FAV'),
  ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FA' || chr(9)), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAé'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5Fé'),
  ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAı'), ('ulid', '{01ARZ3NDEKTSV4RRFFQ69G5FAV}'), ('ulid', '01a22df3-5c3f-4d0e-9b6e-000000000000'),
  ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FA*'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FA"'), ('ulid', 'u1ARZ3NDEKTSV4RRFFQ69G5FAV'),
  ('tsid', ''), ('tsid', '0'), ('tsid', '0SD78DEN8000'), ('tsid', 'E34NNFRTCQ15'), ('tsid', 'e34nnfrtcq15'),
  ('tsid', '0SD78DEN800034'), ('tsid', '915268788478279683'), ('tsid', '-12'), ('tsid', '+0'), ('tsid', '1234567890123456789012'),
  ('tsid', 'G000000000000'), ('tsid', 'ZZZZZZZZZZZZZ'), ('tsid', '0SD78DEN8000U'), ('tsid', '0SD78DEN8000 '), ('tsid', ' 0SD78DEN8000'),
  ('tsid', 'ü0SD78DEN800'), ('tsid', '0SD78DEN8000' || chr(10)), ('tsid', '0SD78-DEN8000'), ('tsid', '0SD78DEN800ſ')
ROWS
q portable -f "$WORK/bad.sql" >"$WORK/bad.portable" 2>&1
q native -f "$WORK/bad.sql" >"$WORK/bad.native" 2>&1
check "bad inputs: every one refused by both editions with 22P02 ($(grep -c ': 22P02 |' "$WORK/bad.native") native, $(grep -c ': 22P02 |' "$WORK/bad.portable") portable of 38)" \
  bash -c "[ \$(grep -c ': 22P02 |' $WORK/bad.native) -eq 38 ] && [ \$(grep -c ': 22P02 |' $WORK/bad.portable) -eq 38 ]"
check "bad inputs: the same message, detail and hint from both" diff "$WORK/bad.native" "$WORK/bad.portable"
[ -s "$WORK/bad.native" ] && ! diff -q "$WORK/bad.native" "$WORK/bad.portable" >/dev/null && diff "$WORK/bad.native" "$WORK/bad.portable" | head -10
range_sql="
CREATE TEMP TABLE got (f text, t timestamptz, sqlstate text, message text, detail text);
DO \$\$
DECLARE f text; t timestamptz; st text; msg text; det text;
BEGIN
  FOREACH f IN ARRAY ARRAY['ulid_lower_bound', 'ulid_upper_bound', 'uuidv7_lower_bound', 'tsid_lower_bound', 'tsid_upper_bound'] LOOP
    FOREACH t IN ARRAY ARRAY['-infinity', 'infinity', '1969-12-31 23:59:59.999+00', '10889-08-02 05:31:50.656+00',
                             '2019-12-31 23:59:59.999+00', '2159-05-15 07:35:11.104+00']::timestamptz[] LOOP
      BEGIN
        EXECUTE format('SELECT %s(%L)', f, t);
        INSERT INTO got VALUES (f, t, 'accepted', NULL, NULL);
      EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
        INSERT INTO got VALUES (f, t, st, msg, det);
      END;
    END LOOP;
  END LOOP;
END \$\$;
SELECT format('%s(%s): %s %s | %s', f, t, sqlstate, message, detail) FROM got ORDER BY 1;"
q portable -c "$range_sql" >"$WORK/range.portable" 2>&1
q native -c "$range_sql" >"$WORK/range.native" 2>&1
check "times outside a key's range: the same results and errors (22003, message and detail) from both" \
  bash -c "grep -q 22003 $WORK/range.native && diff $WORK/range.native $WORK/range.portable"

# --- the other helpers of core types: the native results and errors ------------------
# keys.-qualified: on 17+ (uuid_extract_*) and 18+ (uuidv7, uuidv4) an unqualified
# call finds pg_catalog's. 10,000 bit patterns (a quarter of the RFC variant), 2,000
# forced to version 1 and 2,000 to version 7, and the extremes; :c casts to ulid
# where the native function takes one.
cat >"$WORK/helpers.sql" <<'SQL'
CREATE TEMP TABLE h AS
  SELECT md5('h' || i)::uuid AS u FROM generate_series(1, 10000) AS i
  UNION ALL SELECT overlay(overlay(md5('v' || i) placing v from 13) placing '9' from 17)::uuid
  FROM generate_series(1, 2000) AS i, (VALUES ('1'), ('7')) AS x(v)
  UNION ALL SELECT u::uuid FROM (VALUES ('00000000-0000-1000-8000-000000000000'), ('ffffffff-ffff-1fff-bfff-ffffffffffff'),
                                       ('00000000-0000-7000-8000-000000000000'), ('ffffffff-ffff-7fff-bfff-ffffffffffff'),
                                       ('ffffffff-ffff-ffff-ffff-ffffffffffff'), ('00000000-0000-0000-0000-000000000000')) AS c(u);
SELECT count(*), md5(string_agg(format('%s %s %s %s %s', u, keys.uuid_extract_version(u), keys.uuid_extract_timestamp(u),
                                       keys.ulid_to_bytea(u:c), keys.ulid_to_timestamp(u:c)), ',' ORDER BY u)),
       count(*) FILTER (WHERE keys.uuid_extract_version(u) = 1 AND keys.uuid_extract_timestamp(u) IS NOT NULL)
FROM h;
SELECT md5(string_agg(format('%s %s', b, keys.ulid_from_bytea(b)::uuid), ',' ORDER BY b)) FROM (SELECT decode(md5('b' || i), 'hex') AS b FROM generate_series(1, 1000) AS i) AS s;
SELECT md5(string_agg(format('%s %s', t, keys.ulid_from_timestamp(t)::uuid), ',' ORDER BY t))
FROM (SELECT '1970-01-01'::timestamp + (i * 123456789.123) * interval '1 ms' AS t FROM generate_series(0, 1000) AS i) AS s;
CREATE TEMP TABLE got (e text, sqlstate text, message text, detail text);
DO $$
DECLARE e text; st text; msg text; det text;
BEGIN
  FOREACH e IN ARRAY ARRAY['keys.ulid_from_bytea(''\x'')', 'keys.ulid_from_bytea(''\x000102030405060708090a0b0c0d0e'')',
                           'keys.ulid_from_bytea(''\x000102030405060708090a0b0c0d0e0f10'')',
                           'keys.ulid_from_timestamp(''1969-12-31 23:59:59.999'')', 'keys.ulid_from_timestamp(''10889-08-02 05:31:51.656'')',
                           'keys.ulid_from_timestamp(''infinity'')', 'keys.ulid_from_timestamp(''10889-08-02 05:31:51.655'')',
                           'keys.uuidv7(''-100 years'')', 'keys.uuidv7(''9000 years'')', 'keys.uuidv7(''-1000000 years'')',
                           'keys.uuidv7(''1 day'') IS NULL'] LOOP
    BEGIN
      EXECUTE 'SELECT ' || e;
      INSERT INTO got VALUES (e, 'accepted', NULL, NULL);
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL;
      INSERT INTO got VALUES (e, st, msg, det);
    END;
  END LOOP;
END $$;
SELECT format('%s: %s | %s | %s', e, sqlstate, message, detail) FROM got ORDER BY e;
SELECT keys.uuid_extract_version(keys.uuidv7()) = 7 AND keys.uuid_extract_version(keys.uuidv4()) = 4
   AND keys.uuidv7() < keys.uuidv7('1 ms')
   AND abs(extract(epoch FROM keys.uuidv7_timestamp(keys.uuidv7('-1 day')) - (now() - interval '1 day'))) < 60;
SQL
q portable -v c= -f "$WORK/helpers.sql" >"$WORK/helpers.portable" 2>&1
q native -v c=::ulid -f "$WORK/helpers.sql" >"$WORK/helpers.native" 2>&1
check "helpers (uuid_extract_version, uuid_extract_timestamp, ulid_to_bytea, ulid_to_timestamp): native results on 14,006 UUIDs" \
  bash -c "[ \"\$(sed -n 1p $WORK/helpers.native)\" = \"\$(sed -n 1p $WORK/helpers.portable)\" ] && sed -n 1p $WORK/helpers.native | grep -q '^14006|.*|[0-9]\{4\}$'"
check "helpers (ulid_from_bytea, ulid_from_timestamp): native results on 1,000 byte strings and 1,001 times" \
  bash -c "[ \"\$(sed -n 2,3p $WORK/helpers.native)\" = \"\$(sed -n 2,3p $WORK/helpers.portable)\" ] && [ \$(sed -n 2,3p $WORK/helpers.native | grep -c '^[0-9a-f]\{32\}$') = 2 ]"
check "helpers: the native errors (ulid_from_bytea 22023, ulid_from_timestamp 22003, uuidv7(interval) 22008) and results" \
  bash -c "[ \$(grep -c ': 22023 |\|: 22003 |\|: 22008 |' $WORK/helpers.native) -ge 7 ] && diff <(sed -n '4,\$p' $WORK/helpers.native | grep -v '^[tf]\$') <(sed -n '4,\$p' $WORK/helpers.portable | grep -v '^[tf]\$')"
check "helpers: uuidv7() and uuidv4() give versions 7 and 4, uuidv7(interval) is shifted" \
  bash -c "[ \"\$(tail -1 $WORK/helpers.portable)\" = t ] && [ \"\$(tail -1 $WORK/helpers.native)\" = t ]"

# --- 8 concurrent writers ---------------------------------------------------------
CONC_TX=${PORTABLE_CONC_TX:-125}   # 8 clients x 125 transactions x 100 rows = 100,000 rows per generator
concurrent_writers portable "portable_$PORT" "$CONC_TX" "the portable edition"

# --- generate_ulid_monotonic(): the native semantics ----------------------------------
# Both editions, the same checks: in one statement and across statements and
# transactions of a session, every value above the one before; a value of the
# millisecond of the one before is that value + 1 (its 80 bits), a new
# millisecond's has fresh bits. The portable values are also read natively.
# mono_check DB CAST TABLE: 20,000 values in one statement, then 50 statements of 100,
# in one session; the (ms, 80 bits) of each against the one before.
mono_check() {
  q "$1" >>"$WORK/mono.log" 2>&1 <<SQL
CREATE UNLOGGED TABLE $3 (s int, i int, u uuid);
INSERT INTO $3 SELECT 0, i, generate_ulid_monotonic()$2 FROM generate_series(1, 20000) AS i;
$(for s in $(seq 1 50); do echo "INSERT INTO $3 SELECT $s, i, generate_ulid_monotonic()$2 FROM generate_series(1, 100) AS i;"; done)
CREATE UNLOGGED TABLE mono_pairs AS
  SELECT u, p, ('x' || substr(replace(u::text, '-', ''), 1, 12))::bit(48)::bigint AS ms,
               ('x' || substr(replace(p::text, '-', ''), 1, 12))::bit(48)::bigint AS pms,
               ('x' || substr(replace(u::text, '-', ''), 13, 10))::bit(40)::bigint * 1099511627776::numeric
                 + ('x' || substr(replace(u::text, '-', ''), 23, 10))::bit(40)::bigint AS r,
               ('x' || substr(replace(p::text, '-', ''), 13, 10))::bit(40)::bigint * 1099511627776::numeric
                 + ('x' || substr(replace(p::text, '-', ''), 23, 10))::bit(40)::bigint AS pr
  FROM (SELECT u, lag(u) OVER (ORDER BY s, i) AS p FROM $3) AS x WHERE p IS NOT NULL;
SQL
}
mono_check portable "" mono_p
mono_check native "::uuid" mono_n
q portable -c "CREATE UNLOGGED TABLE mono_text AS SELECT u, ulid_to_text(u) AS txt, ulid_timestamp(u) AS ts FROM mono_p" >>"$WORK/mono.log" 2>&1
for db in portable native; do
  check "generate_ulid_monotonic(), $db: 25,000 values of one session strictly increasing, the same millisecond = the one before + 1, a new one later" sql_true "
    SELECT count(*) = 24999 AND count(*) FILTER (WHERE u <= p) = 0
       AND count(*) FILTER (WHERE ms = pms AND r <> pr + 1) = 0 AND count(*) FILTER (WHERE ms < pms) = 0
       AND count(*) FILTER (WHERE ms = pms) > 0 FROM mono_pairs" "$db"
done
check "generate_ulid_monotonic(), portable: at least a tenth of the pairs share a millisecond (the + 1 is exercised)" sql_true "
  SELECT count(*) FILTER (WHERE ms = pms) >= 2500 FROM mono_pairs" portable
copy_tables portable native mono_text
check "portable -> native: monotonic ULIDs: native text and timestamps equal the portable ones, within the clock" sql_true "
  SELECT count(*) = 25000 AND count(*) FILTER (WHERE u::ulid::text IS DISTINCT FROM txt OR txt::ulid::uuid IS DISTINCT FROM u
                                                  OR ulid_timestamp(u::ulid) IS DISTINCT FROM ts) = 0
     AND max(ts) <= now() + interval '1 s' AND min(ts) >= now() - interval '10 min'
  FROM mono_text" native
# The session's state, set by hand to a millisecond an hour ahead (a clock behind
# the last value, as after the clock steps back): the values go on + 1 there; an
# 80-bit part of all ones but the high half refuses with the native error; a
# rollback (of a transaction, of a savepoint) takes the setting back but not the
# values it returned: none of them comes again (a setting alone would repeat them:
# the same millisecond, the same + 1).
ahead="(extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000)::bigint"
state() { echo "SELECT set_config('ulid_tsid_portable.ulid_monotonic', concat_ws(':', $ahead, $1, $2, currval('keys.ulid_tsid_portable_ulid_seq')), false) IS NULL;"; }
q portable -v VERBOSITY=verbose >"$WORK/mono-state.out" 2>"$WORK/mono-state.err" <<SQL
SELECT generate_ulid_monotonic() IS NULL;
$(state 5 1099511627774)
SELECT generate_ulid_monotonic() FROM generate_series(1, 3);
BEGIN;
SELECT generate_ulid_monotonic() FROM generate_series(1, 3);
ROLLBACK;
SELECT generate_ulid_monotonic() FROM generate_series(1, 2);
BEGIN;
SELECT generate_ulid_monotonic();
SAVEPOINT a;
SELECT generate_ulid_monotonic() FROM generate_series(1, 3);
ROLLBACK TO a;
SELECT generate_ulid_monotonic() FROM generate_series(1, 2);
COMMIT;
$(state 1099511627775 1099511627775)
SELECT generate_ulid_monotonic();
SQL
grep -E '^[0-9a-f]{8}-' "$WORK/mono-state.out" >"$WORK/mono-state.values"
check "generate_ulid_monotonic(), clock behind the last value: + 1 in its millisecond, carried into the high 40 bits" \
  bash -c "head -3 $WORK/mono-state.values | cut -c15-36 | tr -d - | paste -sd' ' | grep -qx '0000000005ffffffffff 00000000060000000000 00000000060000000001'"
check "generate_ulid_monotonic(): across a rolled-back transaction and savepoint, 14 values strictly increasing, none twice" \
  bash -c "[ \$(wc -l <$WORK/mono-state.values) = 14 ] && LC_ALL=C sort -C -u $WORK/mono-state.values"
check "generate_ulid_monotonic(): the 80 bits exhausted: the native ERROR 22003, message, detail and hint" \
  bash -c "grep -q 'ERROR:  22003: generate_ulid_monotonic(): no larger value is left in this millisecond' $WORK/mono-state.err &&
           grep -q 'DETAIL:  The 80-bit random part cannot be incremented without wrapping around.' $WORK/mono-state.err &&
           grep -q 'HINT:  Use generate_ulid(), which never runs out within a millisecond.' $WORK/mono-state.err"

# --- partition pruning --------------------------------------------------------------
q portable >"$WORK/partitions.log" 2>&1 <<SQL
CREATE TABLE p_tsid (id bigint NOT NULL DEFAULT generate_tsid()) PARTITION BY RANGE (id);
CREATE TABLE p_ulid (id uuid NOT NULL DEFAULT generate_ulid()) PARTITION BY RANGE (id);
CREATE TABLE p_v7 (id uuid NOT NULL DEFAULT generate_uuidv7()) PARTITION BY RANGE (id);
$(day_partitions p_tsid:tsid_lower_bound p_ulid:ulid_lower_bound p_v7:uuidv7_lower_bound)
INSERT INTO p_tsid SELECT FROM generate_series(1, 100);
INSERT INTO p_ulid SELECT FROM generate_series(1, 100);
INSERT INTO p_v7 SELECT FROM generate_series(1, 100);
SQL
check "the portable time helpers are IMMUTABLE, the generators VOLATILE" sql_true "
  SELECT bool_and(provolatile = CASE WHEN proname LIKE 'generate%' OR proname IN ('uuidv7', 'uuidv4') THEN 'v' ELSE 'i' END)
  FROM pg_proc WHERE pronamespace = 'keys'::regnamespace" portable
for k in tsid ulid v7; do
  case $k in tsid) lb=tsid_lower_bound ;; ulid) lb=ulid_lower_bound ;; v7) lb=uuidv7_lower_bound ;; esac
  today="p_${k}_$(q portable -c "SELECT to_char(current_date, 'YYYYMMDD')")"
  q portable -c "EXPLAIN (COSTS OFF) SELECT * FROM p_$k WHERE id >= $lb(current_date::timestamptz) AND id < $lb(current_date + 1)" >"$WORK/prune-$k-const.txt"
  q portable -c "EXPLAIN (COSTS OFF) SELECT * FROM p_$k WHERE id >= $lb('$(q portable -c "SELECT current_date")') AND id < $lb('$(q portable -c "SELECT current_date + 1")')" >"$WORK/prune-$k-literal.txt"
  q portable -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT * FROM p_$k WHERE id >= $lb(now() - interval '1 minute')" >"$WORK/prune-$k-now.txt"
  check "partition pruning, $k: a day's bounds from literals scan only that day's partition" \
    bash -c "grep -q '$today' $WORK/prune-$k-literal.txt && [ \$(grep -c 'Seq Scan on p_$k' $WORK/prune-$k-literal.txt) -eq 1 ]"
  check "partition pruning, $k: bounds of now() prune at executor start (only partitions from today on are scanned)" \
    bash -c "grep -q 'Subplans Removed: 2' $WORK/prune-$k-now.txt && grep -q '$today' $WORK/prune-$k-now.txt"
  check "partition pruning, $k: every row went to today's partition" \
    sql_true "SELECT count(*) = 100 FROM $today" portable
done

# --- the switch: docs/portable.md's recipes, as they stand there --------------------------
recipe() { awk -v name="$1" '$0 == "<!-- portable: " name " -->" { on = 1; next } on == 1 && /^```sql$/ { on = 2; next } on == 2 && /^```$/ { exit } on == 2' docs/portable.md; }
for r in to_native convert to_portable; do recipe "$r" >"$WORK/recipe-$r.sql"; done
check "docs/portable.md shows the three switch recipes" \
  bash -c "[ -s $WORK/recipe-to_native.sql ] && [ -s $WORK/recipe-convert.sql ] && [ -s $WORK/recipe-to_portable.sql ]"
psql -qXAt -U owner -d switch -v schema=keys -f "$FILE" >/dev/null
q switch >"$WORK/switch.log" 2>&1 <<'SQL'
CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT generate_tsid(), note text);
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT generate_ulid(), note text);
CREATE TABLE docs (id uuid PRIMARY KEY DEFAULT generate_uuidv7(shift => interval '0 s'), note text);
CREATE TABLE items (id bigint PRIMARY KEY DEFAULT generate_tsid(), order_id bigint REFERENCES orders);
INSERT INTO orders (note) SELECT 'portable' FROM generate_series(1, 1000);
INSERT INTO events (note) SELECT 'portable' FROM generate_series(1, 1000);
INSERT INTO docs (note) SELECT 'portable' FROM generate_series(1, 1000);
INSERT INTO items (order_id) SELECT id FROM orders;
SQL
# What every stored key is: its bits, its text, its time; compared after each step.
read -r -d '' snapshot <<'SQL'
SELECT md5(string_agg(format('%s %s %s', id::bigint, tsid_to_text(id::bigint), tsid_timestamp(id::bigint)), ',' ORDER BY id::bigint)) FROM orders WHERE note = 'portable'
UNION ALL SELECT md5(string_agg(format('%s %s %s', id::uuid, ulid_to_text(id::uuid), ulid_timestamp(id::uuid)), ',' ORDER BY id::uuid)) FROM events WHERE note = 'portable'
UNION ALL SELECT md5(string_agg(format('%s %s', id, uuidv7_timestamp(id)), ',' ORDER BY id)) FROM docs WHERE note = 'portable'
UNION ALL SELECT md5(string_agg(format('%s %s', id::bigint, order_id), ',' ORDER BY id::bigint)) FROM items
SQL
same_keys() { local now; now="$(q switch -c "$snapshot" 2>>"$WORK/errors.log")"; [ "$(echo "$now" | grep -c '^[0-9a-f]\{32\}$')" = 4 ] && [ "$now" = "$before" ]; }
before="$(q switch -c "$snapshot")"
seq_before="$(q switch -c "SELECT last_value FROM keys.ulid_tsid_portable_tsid_seq")"
# Which edition the defaults call: 'native' when every generator default belongs to the extension.
defaults_sql="SELECT string_agg(DISTINCT CASE WHEN e.oid IS NULL THEN 'portable' ELSE 'native' END, ',')
  FROM pg_attrdef ad JOIN pg_depend dep ON dep.classid = 'pg_attrdef'::regclass AND dep.objid = ad.oid AND dep.refclassid = 'pg_proc'::regclass
  JOIN pg_proc p ON p.oid = dep.refobjid AND p.proname LIKE 'generate%'
  LEFT JOIN pg_depend x ON x.classid = 'pg_proc'::regclass AND x.objid = p.oid AND x.refclassid = 'pg_extension'::regclass
  LEFT JOIN pg_extension e ON e.oid = x.refobjid"
check "switch to native: the docs recipe runs as the owner" \
  bash -c "psql -qXAt -v ON_ERROR_STOP=1 -U owner -d switch -f $WORK/recipe-to_native.sql >$WORK/switch-to_native.log 2>&1"
check "switch to native: every stored key, its text and its time unchanged" \
  same_keys
check "switch to native: the defaults call the extension's generators" sql_true "SELECT ($defaults_sql) = 'native'" switch
q switch -c "INSERT INTO orders (note) SELECT 'native' FROM generate_series(1, 100)" -c "INSERT INTO events (note) SELECT 'native' FROM generate_series(1, 100)" \
         -c "INSERT INTO docs (note) SELECT 'native' FROM generate_series(1, 100)" 2>>"$WORK/switch.log"
check "switch to native: new keys sort after the old ones, the native text of old keys equals the portable text" sql_true "
  SELECT (SELECT min(id) FILTER (WHERE note = 'native') > max(id) FILTER (WHERE note = 'portable') FROM orders)
     AND (SELECT min(id::text) FILTER (WHERE note = 'native') > max(id::text) FILTER (WHERE note = 'portable') FROM events)
     AND (SELECT min(id::text) FILTER (WHERE note = 'native') > max(id::text) FILTER (WHERE note = 'portable') FROM docs)
     AND (SELECT bool_and(id::tsid::text = tsid_to_text(id)) FROM orders)
     AND (SELECT bool_and(id::ulid::text = ulid_to_text(id)) FROM events)" switch
file_before="$(q switch -c "SELECT pg_relation_filenode('orders') || ' ' || pg_relation_filenode('events')")"
check "convert: the docs' column conversion runs" \
  bash -c "psql -qXAt -v ON_ERROR_STOP=1 -U owner -d switch -f $WORK/recipe-convert.sql >$WORK/switch-convert.log 2>&1"
check "convert: the columns are tsid and ulid, the tables were not rewritten" sql_true "
  SELECT (SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'id') IN ('tsid', 'keys.tsid')
     AND (SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'events'::regclass AND attname = 'id') IN ('ulid', 'keys.ulid')
     AND (SELECT pg_relation_filenode('orders') || ' ' || pg_relation_filenode('events')) = '$file_before'" switch
check "convert: every stored key, its text and its time unchanged" \
  same_keys
q switch -c "INSERT INTO orders (note) SELECT 'native' FROM generate_series(1, 100)" 2>>"$WORK/switch.log"
before2="$(q switch -c "SELECT md5(string_agg(id::bigint::text, ',' ORDER BY id::bigint)) FROM orders UNION ALL SELECT md5(string_agg(id::uuid::text, ',' ORDER BY id::uuid)) FROM events")"
check "switch back: the docs recipe runs as the owner" \
  bash -c "psql -qXAt -v ON_ERROR_STOP=1 -U owner -d switch -f $WORK/recipe-to_portable.sql >$WORK/switch-to_portable.log 2>&1"
check "switch back: every key (portable and native ones) unchanged, columns bigint and uuid again" sql_true "
  SELECT (SELECT md5(string_agg(id::bigint::text, ',' ORDER BY id::bigint)) FROM orders) || (SELECT md5(string_agg(id::uuid::text, ',' ORDER BY id::uuid)) FROM events)
         = '$(echo "$before2" | tr -d '\n')'
     AND (SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'id') = 'bigint'
     AND (SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'events'::regclass AND attname = 'id') = 'uuid'" switch
check "switch back: the portable keys' text and time unchanged" \
  same_keys
check "switch back: no extension, the defaults call the portable generators" sql_true "
  SELECT NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'ulid_tsid') AND ($defaults_sql) = 'portable'" switch
q switch -c "INSERT INTO orders (note) SELECT 'back' FROM generate_series(1, 100)" -c "INSERT INTO events (note) SELECT 'back' FROM generate_series(1, 100)" \
         -c "INSERT INTO docs (note) SELECT 'back' FROM generate_series(1, 100)" 2>>"$WORK/switch.log"
check "switch back: new keys sort after all the old ones, the TSID sequence was not reset" sql_true "
  SELECT (SELECT min(id) FILTER (WHERE note = 'back') > max(id) FILTER (WHERE note <> 'back') FROM orders)
     AND (SELECT min(id::text) FILTER (WHERE note = 'back') > max(id::text) FILTER (WHERE note <> 'back') FROM events)
     AND (SELECT min(id::text) FILTER (WHERE note = 'back') > max(id::text) FILTER (WHERE note <> 'back') FROM docs)
     AND (SELECT last_value FROM keys.ulid_tsid_portable_tsid_seq) > $seq_before" switch

# --- the portable database never loaded the library ----------------------------------
check "portable database: after all of this a session that called every function has no ulid_tsid setting (the library never loaded)" sql_true "
  SELECT generate_tsid() IS NOT NULL AND generate_ulid() IS NOT NULL AND tsid_from_text(tsid_to_text(1)) = 1
     AND NOT EXISTS (SELECT FROM pg_settings WHERE name LIKE 'ulid_tsid.%')
     AND NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'ulid_tsid')" portable
cluster_stop "portable_$PORT"
echo "   portable suite: $((SECONDS - t_start)) s"
