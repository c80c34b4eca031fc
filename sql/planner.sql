-- Time predicates on a key use the key's index (btree and BRIN), with
-- constants, parameters and stable expressions, and return exactly the rows a
-- sequential scan returns: keys at both edges of their millisecond, times a
-- microsecond either side of one, NULLs, non-v7 UUIDs, negative tsids, and
-- times outside every key's range.
SET TimeZone = 'UTC';
SET client_min_messages = warning;
SELECT setseed(0.15);

CREATE TABLE planner_keys (u ulid, t tsid, v uuid, b bigint);
CREATE TEMP TABLE planner_ms AS
SELECT DISTINCT ms FROM (
  SELECT (extract(epoch FROM timestamptz '2026-11-30 12:00Z') * 1000)::int8 + (random() * 7200000)::int8 - 3600000 AS ms
  FROM generate_series(1, 300)
  UNION ALL  -- runs of neighbouring milliseconds
  SELECT 1796040000000 + g FROM generate_series(0, 5) g
  UNION ALL  -- the ends of the ranges: 1970, 2020 (tsid epoch), 2089 (tsid sign), 10889
  SELECT unnest(ARRAY[0, 1, 1577836800000, 1577836800001, 1577836800000 + 2199023255551,
                      1577836800000 + 2199023255552, 281474976710654, 281474976710655]::int8[])
) s;
CREATE FUNCTION planner_ts(ms int8) RETURNS timestamptz LANGUAGE sql IMMUTABLE
  AS $$ SELECT to_timestamp(0) + ms * interval '1 millisecond' $$;
CREATE FUNCTION planner_tail(n int) RETURNS bytea LANGUAGE sql VOLATILE
  AS $$ SELECT substring(decode(md5(random()::text), 'hex') FROM 1 FOR n) $$;

-- Per millisecond: the smallest, the largest and a random key of each kind.
INSERT INTO planner_keys (u)
SELECT k FROM planner_ms, LATERAL (VALUES
  (ulid_lower_bound(planner_ts(ms))), (ulid_upper_bound(planner_ts(ms))),
  (ulid_from_bytea(substring(ulid_to_bytea(ulid_lower_bound(planner_ts(ms))) FROM 1 FOR 6) || planner_tail(10)))) x(k);
INSERT INTO planner_keys (t)
SELECT k FROM planner_ms, LATERAL (VALUES
  (tsid_lower_bound(planner_ts(ms))), (tsid_upper_bound(planner_ts(ms))),
  ((tsid_lower_bound(planner_ts(ms))::int8 + (random() * 4194303)::int8)::tsid)) x(k)
WHERE ms BETWEEN 1577836800000 AND 1577836800000 + 4398046511103;
INSERT INTO planner_keys (v)
SELECT k FROM planner_ms, LATERAL (VALUES
  (uuidv7_lower_bound(planner_ts(ms))), (uuidv7_upper_bound(planner_ts(ms))),
  -- rand_b's variant bits left random: a quarter are RFC version-7 UUIDs
  (encode(substring(uuid_send(uuidv7_lower_bound(planner_ts(ms))) FROM 1 FOR 8) || planner_tail(8), 'hex')::uuid)) x(k);
-- Negative tsids (a bigint key's negative values; TSIDs after 2089), other UUID
-- versions, the extreme keys, NULLs.
INSERT INTO planner_keys (t) VALUES ('-1'::int8::tsid), ('-9223372036854775808'::int8::tsid), ('-4194304'::int8::tsid),
  ('0'::int8::tsid), ('9223372036854775807'::int8::tsid);
INSERT INTO planner_keys (v) SELECT gen_random_uuid() FROM generate_series(1, 20);
INSERT INTO planner_keys (v) VALUES ('00000000-0000-1000-8000-000000000000'), ('ffffffff-ffff-7fff-bfff-ffffffffffff'),
  ('ffffffff-ffff-ffff-ffff-ffffffffffff'), ('00000000-0000-0000-0000-000000000000');
INSERT INTO planner_keys (u) VALUES ('00000000000000000000000000'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
-- A bigint key holding TSIDs: the same values.
INSERT INTO planner_keys (b) SELECT t::int8 FROM planner_keys WHERE t IS NOT NULL;
INSERT INTO planner_keys VALUES (NULL, NULL, NULL, NULL);
CREATE INDEX planner_u ON planner_keys (u);
CREATE INDEX planner_t ON planner_keys (t);
CREATE INDEX planner_b ON planner_keys (b);
CREATE INDEX planner_v ON planner_keys USING brin (v) WITH (pages_per_range = 1);
ANALYZE planner_keys;

-- The index conditions, as EXPLAIN shows them.
SET enable_seqscan = off;
SELECT regress_plan($$SELECT * FROM planner_keys WHERE ulid_timestamp(u) >= now() - interval '1 hour'$$);
SELECT regress_plan($$SELECT * FROM planner_keys WHERE ulid_timestamp(u) BETWEEN '2026-11-30 10:00' AND '2026-11-30 11:00'$$);
SELECT regress_plan($$SELECT * FROM planner_keys WHERE '2026-11-30 10:00:00.0005' = ulid_timestamp(u)$$);
SELECT regress_plan($$SELECT * FROM planner_keys WHERE tsid_timestamp(t) < '2026-11-30 10:00'$$);
SELECT regress_plan($$SELECT * FROM planner_keys WHERE tsid_timestamp(t) >= now() - interval '1 hour'$$);
SELECT regress_plan($$SELECT * FROM planner_keys WHERE uuidv7_timestamp(v) > now() - interval '1 day'$$);
SELECT regress_plan($$SELECT * FROM planner_keys WHERE ulid_timestamp(u) > 'infinity'$$);
-- A bigint key read as a tsid: the conditions are on the bigint.
SELECT regress_plan($$SELECT * FROM planner_keys WHERE tsid_timestamp(b::tsid) <= '2026-11-30 10:00'$$);
PREPARE planner_generic(timestamptz, timestamptz) AS
  SELECT count(*) FROM planner_keys WHERE ulid_timestamp(u) BETWEEN $1 AND $2;
SET plan_cache_mode = force_generic_plan;
-- The conditions on the index and the filter, whichever scan of planner_u the costs
-- pick (a bitmap scan, or an index-only scan once the visibility map is set, as 19's
-- build-time test saw).
SELECT trim(l) AS plan FROM regress_plan($$EXECUTE planner_generic('2026-11-30 10:00', '2026-11-30 11:00')$$) l
WHERE l ~ '^\s*(Filter|Index Cond): ' ORDER BY 1;
SELECT bool_or(l ~ ' (using|on) planner_u( |$)') AS scans_planner_u, bool_or(l ~ 'Seq Scan') AS seq_scan
FROM regress_plan($$EXECUTE planner_generic('2026-11-30 10:00', '2026-11-30 11:00')$$) l;
RESET plan_cache_mode;
RESET enable_seqscan;

-- Every probe time, operator, key and form of the time (a constant, a
-- parameter, a stable expression): the rows of an index scan, checked to be one
-- by EXPLAIN, against those of a sequential scan.
CREATE TEMP TABLE planner_probes AS
SELECT planner_ts(ms) + d * interval '1 microsecond' AS probe
FROM (SELECT ms FROM planner_ms ORDER BY ms LIMIT 12) m, unnest(ARRAY[-1000, -999, -1, 0, 1, 999]) d
UNION ALL SELECT planner_ts(ms) + d * interval '1 microsecond' FROM (SELECT ms FROM planner_ms ORDER BY ms DESC LIMIT 2) m,
  unnest(ARRAY[-1, 0, 1]) d
UNION ALL SELECT unnest(ARRAY['-infinity', 'infinity', '1969-12-31 23:59:59.999999', '1900-01-01', '2019-12-31 23:59:59.9995',
  '2089-09-06 15:47:35.551', '2089-09-06 15:47:35.552', '2159-05-15 07:35:11.103999', '2159-05-15 07:35:11.104',
  '2500-01-01', '10889-08-02 05:31:50.655999', '10889-08-02 05:31:50.656', '294276-12-31 23:59:59.999999']::timestamptz[])
UNION ALL SELECT NULL;

-- The rows of `query` (a generic plan: $1 stays a parameter) for each probe, and
-- the plan of each index run. One PREPARE serves every probe of a query: the
-- parameter and stable forms are one query for all probes.
CREATE FUNCTION planner_rows(query text, probes timestamptz[], index_scan bool,
                             OUT probe timestamptz, OUT n int8, OUT digest int8, OUT plan text)
RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  PERFORM set_config('enable_seqscan', (NOT index_scan)::text, true);
  PERFORM set_config('enable_indexscan', index_scan::text, true);
  PERFORM set_config('enable_bitmapscan', index_scan::text, true);
  PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
  -- the rows' count and the sum of their texts' hashes: another set of rows gives
  -- another sum (bar a 2^-32 chance), with no sort of the rows
  EXECUTE 'PREPARE planner_query(timestamptz) AS SELECT count(k), coalesce(sum(hashtext(k::text)), 0) '
          'FROM (' || query || ') q(k)';
  FOREACH probe IN ARRAY probes LOOP
    EXECUTE format('EXECUTE planner_query(%L)', probe) INTO n, digest;
    plan := '';
    IF index_scan THEN
      FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) EXECUTE planner_query(%L)', probe) LOOP
        plan := plan || line || ' ';
      END LOOP;
    END IF;
    RETURN NEXT;
  END LOOP;
  DEALLOCATE planner_query;
END $$;

-- Every key, operator, form of the time and probe (neighbouring milliseconds
-- give some probe twice: once each), and its query.
CREATE TEMP TABLE planner_cases AS
SELECT key, op, form, p.probe, q.query
FROM (SELECT DISTINCT probe FROM planner_probes) p,
  (VALUES ('u', 'ulid_timestamp'), ('t', 'tsid_timestamp'), ('v', 'uuidv7_timestamp'), ('b::tsid', 'tsid_timestamp')) k(key, fn),
  unnest(ARRAY['<', '<=', '=', '>=', '>', 'between']) op,
  unnest(ARRAY['constant', 'parameter', 'stable']) form,
  LATERAL (SELECT CASE form WHEN 'constant' THEN quote_nullable(p.probe) || '::timestamptz'
                            WHEN 'parameter' THEN '$1'
                            ELSE '($1 + (now() - now()))' END AS t) f,
  LATERAL (SELECT format('SELECT %s FROM planner_keys WHERE %s', key,
             CASE op WHEN 'between' THEN format('%s(%s) BETWEEN %s - interval ''1 ms'' AND %s', fn, key, f.t, f.t)
                     ELSE format('%s(%s) %s %s', fn, key, op, f.t) END) AS query) q;
-- The sequential scan's rows, once per key, operator and probe: the three forms
-- name the same time, and only an index scan makes conditions of it.
CREATE TEMP TABLE planner_seq AS
SELECT key, op, s.probe, s.n, s.digest
FROM (SELECT key, op, query, array_agg(probe) AS probes FROM planner_cases WHERE form = 'parameter'
      GROUP BY key, op, query) c,
  LATERAL planner_rows(c.query, c.probes, false) s;
CREATE TEMP TABLE planner_index AS
SELECT c.key, c.op, c.form, i.probe, i.n, i.digest, i.plan
FROM (SELECT key, op, form, query, array_agg(probe) AS probes FROM planner_cases GROUP BY key, op, form, query) c,
  LATERAL planner_rows(c.query, c.probes, true) i;
CREATE TEMP TABLE planner_results AS
SELECT i.key, i.op, i.form, i.probe, i.n AS index_rows, s.n AS seq_rows, i.digest = s.digest AS same, i.plan
FROM planner_index i
  JOIN planner_seq s ON s.key = i.key AND s.op = i.op AND s.probe IS NOT DISTINCT FROM i.probe;
-- Every case compared with the one sequential scan of its key, operator and probe.
SELECT (SELECT count(*) FROM planner_cases) AS cases, (SELECT count(*) FROM planner_seq) AS sequential_scans,
       (SELECT count(*) FROM planner_results) AS compared;

-- Nothing differs, every "index" run used an index, and the probes found rows.
SELECT key, op, form, probe, index_rows, seq_rows FROM planner_results WHERE NOT same OR index_rows <> seq_rows;
-- (a NULL constant makes the whole condition a constant NULL: no scan at all)
SELECT key, op, form, probe, plan FROM planner_results
WHERE (plan !~ 'Index Cond' OR plan ~ 'Seq Scan') AND NOT (form = 'constant' AND probe IS NULL) LIMIT 5;
SELECT DISTINCT plan ~ 'One-Time Filter: false' AS no_scan FROM planner_results WHERE form = 'constant' AND probe IS NULL;
SELECT key, count(*) AS checks, sum(index_rows) > 0 AS found_rows, count(DISTINCT probe) AS probes
FROM planner_results GROUP BY key ORDER BY key;
-- Plans with a condition on the time that no key can meet, or every key meets.
SELECT count(*) FILTER (WHERE seq_rows = 0) AS empty, count(*) FILTER (WHERE seq_rows > 0) AS not_empty
FROM planner_results WHERE probe IN ('infinity', '-infinity');

-- A partitioned table: the partitions the window reaches scan their own
-- index (2: the second day's and the default); the first day's is pruned, as
-- each time predicate's key range is among the parent's restrictions too.
CREATE TABLE planner_parts (id ulid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE planner_parts_1 PARTITION OF planner_parts
  FOR VALUES FROM (ulid_lower_bound('2026-11-28')) TO (ulid_lower_bound('2026-11-29'));
CREATE TABLE planner_parts_2 PARTITION OF planner_parts
  FOR VALUES FROM (ulid_lower_bound('2026-11-29')) TO (ulid_lower_bound('2026-11-30'));
CREATE TABLE planner_parts_3 PARTITION OF planner_parts DEFAULT;
INSERT INTO planner_parts SELECT ulid_lower_bound(timestamptz '2026-11-28 00:00Z' + g * interval '7 seconds')
FROM generate_series(0, 40000) g;
ANALYZE planner_parts;
SELECT i.n AS index_rows, i.n = s.n AND i.digest = s.digest AS same,
       (SELECT count(*) FROM regexp_matches(i.plan, 'Index Cond', 'g')) AS index_scans
FROM planner_rows('SELECT id FROM planner_parts WHERE ulid_timestamp(id) BETWEEN $1 AND $1 + interval ''1 hour''',
                  ARRAY['2026-11-29 23:30Z'::timestamptz], true) i,
     planner_rows('SELECT id FROM planner_parts WHERE ulid_timestamp(id) BETWEEN $1 AND $1 + interval ''1 hour''',
                  ARRAY['2026-11-29 23:30Z'::timestamptz], false) s;
DROP TABLE planner_parts;

-- The clamped bounds never fail, and where the plain bounds exist they agree.
SELECT ulid_lower_bound_clamped('-infinity') = '00000000000000000000000000' AS ulid_low,
       ulid_upper_bound_clamped('infinity') = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ' AS ulid_high,
       tsid_lower_bound_clamped('1900-01-01')::int8 = 0 AS tsid_low,
       tsid_upper_bound_clamped('3000-01-01')::int8 = 9223372036854775807 AS tsid_high,
       uuidv7_lower_bound_clamped('-infinity') = uuidv7_lower_bound('1970-01-01Z') AS uuid_low,
       uuidv7_upper_bound_clamped('infinity') = uuidv7_upper_bound('10889-08-02 05:31:50.655Z') AS uuid_high;
SELECT count(*) FILTER (WHERE ulid_lower_bound_clamped(planner_ts(ms)) <> ulid_lower_bound(planner_ts(ms))
                           OR ulid_upper_bound_clamped(planner_ts(ms)) <> ulid_upper_bound(planner_ts(ms))
                           OR uuidv7_upper_bound_clamped(planner_ts(ms)) <> uuidv7_upper_bound(planner_ts(ms))) AS differ
FROM planner_ms;
SELECT uuidv7_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS v7,
       uuidv7_timestamp('017f22e2-79b0-4cc3-98c4-dc0c0c07398f') AS v4,
       uuidv7_timestamp('017f22e2-79b0-7cc3-c8c4-dc0c0c07398f') AS not_rfc_variant;

DROP TABLE planner_keys;
DROP FUNCTION planner_rows, planner_ts, planner_tail;

-- The extension in a schema the querying role cannot use: a view over an
-- indexed table with a time predicate still plans and runs for a role granted
-- SELECT on the view (the planner looks nothing up by name).
CREATE DATABASE regress_ulid_planner_schema;
\c regress_ulid_planner_schema
SET client_min_messages = warning;
CREATE SCHEMA x;
CREATE EXTENSION ulid_tsid SCHEMA x;
CREATE TABLE keyed (id x.ulid PRIMARY KEY, t x.tsid, v uuid);
CREATE INDEX ON keyed (t);
CREATE INDEX ON keyed (v);
INSERT INTO keyed SELECT x.ulid_lower_bound(at), x.tsid_lower_bound(at), x.uuidv7_lower_bound(at)
FROM generate_series(1, 1000) g, LATERAL (SELECT now() - (g - 0.5) * interval '2 minutes' AS at) a;
ANALYZE keyed;
CREATE VIEW recent AS
SELECT (SELECT count(*) FROM keyed WHERE x.ulid_timestamp(id) > now() - interval '1 hour') AS ulid_rows,
       (SELECT count(*) FROM keyed WHERE x.tsid_timestamp(t) > now() - interval '1 hour') AS tsid_rows,
       (SELECT count(*) FROM keyed WHERE x.uuidv7_timestamp(v) > now() - interval '1 hour') AS uuid_rows;
DROP ROLE IF EXISTS regress_ulid_no_usage;
CREATE ROLE regress_ulid_no_usage;
GRANT SELECT ON recent TO regress_ulid_no_usage;
SET ROLE regress_ulid_no_usage;
SET enable_seqscan = off;
SELECT * FROM recent;
RESET ROLE;
-- The same session after the extension is dropped and created again (the
-- OIDs the planner knew are gone): it finds the new ones. A renamed function
-- changes nothing: the planner knows the members by the C code they run.
DROP VIEW recent;
DROP TABLE keyed;
DROP EXTENSION ulid_tsid;
CREATE EXTENSION ulid_tsid SCHEMA x;
CREATE TABLE keyed (id x.ulid PRIMARY KEY);
EXPLAIN (COSTS OFF) SELECT * FROM keyed WHERE x.ulid_timestamp(id) > now() - interval '1 hour';
ALTER FUNCTION x.ulid_lower_bound_clamped(timestamptz) RENAME TO renamed_lower_bound;
EXPLAIN (COSTS OFF) SELECT * FROM keyed WHERE x.ulid_timestamp(id) > now() - interval '1 hour';
RESET enable_seqscan;
\c contrib_regression
DROP DATABASE regress_ulid_planner_schema;
DROP ROLE regress_ulid_no_usage;
