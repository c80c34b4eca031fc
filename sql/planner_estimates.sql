-- Row estimates of key ranges: <, <=, >, >= on ulid and tsid interpolate inside
-- histogram buckets by the key's time, so narrow recent windows are estimated
-- about right (Postgres's own estimators take half a bucket for these types,
-- as they still do for uuid here); a lower and an upper bound together are one
-- range, as Postgres estimates them for its own types.
SET client_min_messages = warning;
CREATE TABLE planner_est (u ulid, t tsid, v uuid, b bigint);
-- 20,000 rows, one every 4.32 s over one day, a fixed tail per row.
INSERT INTO planner_est
SELECT ulid_from_bytea(substring(ulid_to_bytea(ulid_lower_bound(at)) FROM 1 FOR 6) || substring(tail FROM 1 FOR 10)),
       (tsid_lower_bound(at)::int8 + g % 4194304)::tsid,
       encode(substring(uuid_send(uuidv7_lower_bound(at)) FROM 1 FOR 8) || substring(tail FROM 9 FOR 8), 'hex')::uuid,
       tsid_lower_bound(at)::int8 + g % 4194304
FROM generate_series(1, 20000) g,
     LATERAL (SELECT timestamptz '2026-11-29 00:00Z' + g * interval '4.32 seconds' AS at,
                     decode(md5(g::text), 'hex') AS tail) x;
CREATE INDEX ON planner_est (u);
CREATE INDEX ON planner_est (t);
CREATE INDEX ON planner_est (b);
ANALYZE planner_est;

CREATE FUNCTION planner_estimate(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
  RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
CREATE FUNCTION planner_actual(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE n int8;
BEGIN
  EXECUTE 'SELECT count(*) FROM (' || query || ') q' INTO n;
  RETURN n;
END $$;

-- Windows ending at the newest row, and windows inside the day (both bounds).
CREATE TEMP TABLE planner_windows AS
SELECT key, col, name, format('SELECT * FROM planner_est WHERE %s', cond) AS query
FROM (VALUES ('ulid', 'u', 'ulid_lower_bound(%L)'), ('tsid', 't', 'tsid_lower_bound(%L)'),
             -- the cross-type operators: ulid against uuid, tsid against int8 and int4
             ('ulid vs uuid', 'u', 'ulid_lower_bound(%L)::uuid'), ('tsid vs int8', 't', 'tsid_lower_bound(%L)::int8'),
             ('uuid', 'v', 'uuidv7_lower_bound(%L)'), ('bigint', 'b', 'tsid_lower_bound(%L)::bigint')) k(key, col, bound),
LATERAL (VALUES
  ('last 1 minute', format('%s >= %s', col, format(bound, timestamptz '2026-11-30 00:00Z' - interval '1 minute'))),
  ('last 10 minutes', format('%s > %s', col, format(bound, timestamptz '2026-11-30 00:00Z' - interval '10 minutes'))),
  ('last 10 minutes, flipped', format('%s < %s', format(bound, timestamptz '2026-11-30 00:00Z' - interval '10 minutes'), col)),
  ('first 5 minutes', format('%s <= %s', col, format(bound, timestamptz '2026-11-29 00:05Z'))),
  ('1 hour inside', format('%s >= %s AND %s < %s', col, format(bound, timestamptz '2026-11-29 13:20Z'),
                          col, format(bound, timestamptz '2026-11-29 14:20Z'))),
  ('2 minutes inside, flipped', format('%s > %s AND %s <= %s', format(bound, timestamptz '2026-11-29 09:02Z'), col,
                          format(bound, timestamptz '2026-11-29 09:00Z'), col))) w(name, cond);

SELECT name,
       bool_and(planner_estimate(query) BETWEEN planner_actual(query) / 2 AND planner_actual(query) * 2)
         FILTER (WHERE key IN ('ulid', 'tsid')) AS ulid_tsid_within_2x,
       bool_and(planner_estimate(query) BETWEEN planner_actual(query) / 2 AND planner_actual(query) * 2)
         FILTER (WHERE key LIKE '% vs %') AS cross_type_within_2x,
       bool_and(planner_estimate(query) BETWEEN planner_actual(query) / 2 AND planner_actual(query) * 2)
         FILTER (WHERE key = 'bigint') AS bigint_within_2x,
       min(planner_actual(query)) AS actual
FROM planner_windows GROUP BY name ORDER BY name;
-- uuid keeps Postgres's own estimator: half a histogram bucket for the last minute.
SELECT planner_estimate(query) > 3 * planner_actual(query) AS uuid_last_minute_overestimated
FROM planner_windows WHERE key = 'uuid' AND name = 'last 1 minute';

-- The natural time predicates are estimated as the key ranges they come down
-- to (Postgres alone takes a third of the table for each such predicate).
SELECT name, planner_estimate(query) BETWEEN planner_actual(query) / 2 AND planner_actual(query) * 2 AS within_2x,
       planner_actual(query) AS actual
FROM (VALUES
  ('ulid, last 10 minutes', $$SELECT * FROM planner_est WHERE ulid_timestamp(u) >= '2026-11-29 23:50Z'$$),
  ('ulid, 1 hour inside', $$SELECT * FROM planner_est WHERE ulid_timestamp(u) BETWEEN '2026-11-29 13:20Z' AND '2026-11-29 14:20Z'$$),
  ('tsid, 2 minutes inside', $$SELECT * FROM planner_est WHERE tsid_timestamp(t) > '2026-11-29 09:00Z' AND tsid_timestamp(t) <= '2026-11-29 09:02Z'$$),
  ('tsid, first 5 minutes', $$SELECT * FROM planner_est WHERE '2026-11-29 00:05Z' >= tsid_timestamp(t)$$),
  ('bigint key, last 10 minutes', $$SELECT * FROM planner_est WHERE tsid_timestamp(b::tsid) >= '2026-11-29 23:50Z'$$)) q(name, query)
ORDER BY name;

-- A range inside an OR is one range too, and a bound in one arm never pairs
-- with a bound in another; time predicates inside an OR are key ranges as well.
SELECT name, planner_estimate(query) BETWEEN planner_actual(query) / 2 AND planner_actual(query) * 2 AS within_2x,
       planner_actual(query) AS actual
FROM (VALUES
  ('ulid, range OR tail', $$SELECT * FROM planner_est WHERE (u >= ulid_lower_bound('2026-11-29 09:00Z') AND u <= ulid_lower_bound('2026-11-29 10:00Z')) OR u >= ulid_lower_bound('2026-11-29 23:00Z')$$),
  ('tsid, tail OR range', $$SELECT * FROM planner_est WHERE t >= tsid_lower_bound('2026-11-29 23:00Z') OR (t > tsid_lower_bound('2026-11-29 09:00Z') AND t < tsid_lower_bound('2026-11-29 10:00Z'))$$),
  ('ulid, head OR tail', $$SELECT * FROM planner_est WHERE u < ulid_lower_bound('2026-11-29 01:00Z') OR u >= ulid_lower_bound('2026-11-29 23:00Z')$$),
  ('ulid time, tail OR head', $$SELECT * FROM planner_est WHERE ulid_timestamp(u) >= '2026-11-29 23:00Z' OR ulid_timestamp(u) < '2026-11-29 01:00Z'$$),
  ('tsid time, range OR tail', $$SELECT * FROM planner_est WHERE (tsid_timestamp(t) >= '2026-11-29 09:00Z' AND tsid_timestamp(t) < '2026-11-29 10:00Z') OR tsid_timestamp(t) >= '2026-11-29 23:00Z'$$)) q(name, query)
ORDER BY name;

-- Rows made after ANALYZE lie past the histogram's end: the column's actual
-- maximum, read from the index, stands in for it, as Postgres does for bigint.
INSERT INTO planner_est
SELECT ulid_lower_bound(at), tsid_lower_bound(at), NULL, tsid_lower_bound(at)::int8
FROM generate_series(1, 139) g, LATERAL (SELECT timestamptz '2026-11-30 00:00Z' + g * interval '4.32 seconds' AS at) x;
SELECT col, planner_estimate(query) BETWEEN planner_actual(query) / 2 AND planner_actual(query) * 2 AS within_2x,
       planner_actual(query) AS actual
FROM (VALUES ('u', $$SELECT * FROM planner_est WHERE u >= ulid_lower_bound('2026-11-30 00:05Z')$$),
             ('t', $$SELECT * FROM planner_est WHERE t >= tsid_lower_bound('2026-11-30 00:05Z')$$),
             ('b', $$SELECT * FROM planner_est WHERE b >= tsid_lower_bound('2026-11-30 00:05Z')::bigint$$)) q(col, query)
ORDER BY col;

-- The same past a run of NULLs at the index's end (skipped inside the index,
-- as Postgres does with a scan key IS NOT NULL), and through a descending index.
CREATE TABLE planner_est_tail (u ulid, t tsid);
INSERT INTO planner_est_tail SELECT u, t FROM planner_est WHERE u < ulid_lower_bound('2026-11-30 00:00Z');
CREATE INDEX ON planner_est_tail (u);
CREATE INDEX ON planner_est_tail (t DESC);
ANALYZE planner_est_tail;
INSERT INTO planner_est_tail SELECT u, t FROM planner_est WHERE u >= ulid_lower_bound('2026-11-30 00:00Z');
INSERT INTO planner_est_tail SELECT NULL, NULL FROM generate_series(1, 300);
SELECT col, planner_estimate(query) BETWEEN planner_actual(query) / 2 AND planner_actual(query) * 2 AS within_2x,
       planner_actual(query) AS actual
FROM (VALUES ('u, NULLs last', $$SELECT * FROM planner_est_tail WHERE u >= ulid_lower_bound('2026-11-30 00:05Z')$$),
             ('t, descending, NULLs first', $$SELECT * FROM planner_est_tail WHERE t >= tsid_lower_bound('2026-11-30 00:05Z')$$)) q(col, query)
ORDER BY col;
DROP TABLE planner_est_tail;
CREATE TABLE planner_est_tail_join (x int);
INSERT INTO planner_est_tail_join VALUES (1), (2);
ANALYZE planner_est_tail_join;

-- A partitioned table's own clause (a join condition on its outer side) is
-- estimated from the parent's statistics alone: its indexes are partitioned
-- indexes, which hold no entries to read.
CREATE TABLE planner_est_parts (u ulid) PARTITION BY RANGE (u);
CREATE TABLE planner_est_parts_1 PARTITION OF planner_est_parts
  FOR VALUES FROM (MINVALUE) TO (ulid_lower_bound('2026-11-29 12:00Z'));
CREATE TABLE planner_est_parts_2 PARTITION OF planner_est_parts
  FOR VALUES FROM (ulid_lower_bound('2026-11-29 12:00Z')) TO (MAXVALUE);
CREATE INDEX ON planner_est_parts (u);
INSERT INTO planner_est_parts SELECT u FROM planner_est;
ANALYZE planner_est_parts;
SELECT planner_estimate($$SELECT * FROM planner_est_parts p LEFT JOIN planner_est_tail_join j
                          ON p.u >= ulid_lower_bound('2026-11-29 23:55Z') AND j.x = 1$$) >= 1 AS planned;
-- Time predicates on a partitioned table are key ranges in each partition,
-- and the table's size is the sum of theirs.
SELECT name, planner_estimate(query) BETWEEN planner_actual(query) / 2 AND planner_actual(query) * 2 AS within_2x,
       planner_actual(query) AS actual
FROM (VALUES
  ('last 10 minutes', $$SELECT * FROM planner_est_parts WHERE ulid_timestamp(u) >= '2026-11-29 23:50Z'$$),
  ('1 hour across both', $$SELECT * FROM planner_est_parts WHERE ulid_timestamp(u) BETWEEN '2026-11-29 11:30Z' AND '2026-11-29 12:30Z'$$),
  ('joined', $$SELECT * FROM planner_est_parts p JOIN planner_est_tail_join j ON j.x = 1 WHERE ulid_timestamp(p.u) >= '2026-11-29 23:50Z'$$)) q(name, query)
ORDER BY name;
DROP TABLE planner_est_parts, planner_est_tail_join;

-- Without a constant, or without statistics, the estimate is Postgres's own:
-- the same as for the bigint column.
CREATE FUNCTION planner_generic_estimate(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
  PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
  EXECUTE 'PREPARE planner_g(ulid, tsid, int8) AS ' || query;
  EXECUTE 'EXPLAIN (FORMAT JSON) EXECUTE planner_g(NULL, NULL, NULL)' INTO plan;
  DEALLOCATE planner_g;
  RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
SELECT planner_generic_estimate('SELECT * FROM planner_est WHERE u > $1')
       = planner_generic_estimate('SELECT * FROM planner_est WHERE b > $3') AS one_bound_as_bigint,
       planner_generic_estimate('SELECT * FROM planner_est WHERE t >= $2 AND t < $2')
       = planner_generic_estimate('SELECT * FROM planner_est WHERE b >= $3 AND b < $3') AS range_as_bigint;
CREATE TABLE planner_est_empty (u ulid, b bigint) WITH (autovacuum_enabled = off);
INSERT INTO planner_est_empty SELECT u, b FROM planner_est;
SELECT planner_estimate($$SELECT * FROM planner_est_empty WHERE u < '01M8NYB9800000000000000000'$$)
     = planner_estimate($$SELECT * FROM planner_est_empty WHERE b < 1000$$) AS no_statistics_as_postgres;

DROP TABLE planner_est, planner_est_empty;
DROP FUNCTION planner_estimate, planner_actual, planner_generic_estimate;
