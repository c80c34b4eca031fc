-- Planning time of queries with time predicates and key ranges (planning_time.sh).
-- psql variables: rows, runs. One table per key kind, `rows` keys over 30 days
-- ending now, each with a btree index; the bigint table is the baseline that
-- Postgres alone plans.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SELECT setseed(0.23) \g /dev/null
CREATE TABLE plan_ulid (id ulid PRIMARY KEY, payload int);
CREATE TABLE plan_tsid (id tsid PRIMARY KEY, payload int);
CREATE TABLE plan_uuid (id uuid PRIMARY KEY, payload int);
CREATE TABLE plan_bigint (id bigint PRIMARY KEY, at timestamptz, payload int);
CREATE INDEX ON plan_bigint (at);
INSERT INTO plan_ulid SELECT ulid_from_bytea(substring(ulid_to_bytea(ulid_lower_bound(t)) FROM 1 FOR 6) || substring(decode(md5(g::text), 'hex') FROM 1 FOR 10)), g
FROM generate_series(1, :rows) g, LATERAL (SELECT now() - random() * interval '30 days' AS t) x ON CONFLICT DO NOTHING;
INSERT INTO plan_tsid SELECT (tsid_lower_bound(t)::int8 + g % 4194304)::tsid, g
FROM generate_series(1, :rows) g, LATERAL (SELECT now() - random() * interval '30 days' AS t) x ON CONFLICT DO NOTHING;
INSERT INTO plan_uuid SELECT encode(substring(uuid_send(uuidv7_lower_bound(t)) FROM 1 FOR 8) || substring(decode(md5(g::text), 'hex') FROM 9 FOR 8), 'hex')::uuid, g
FROM generate_series(1, :rows) g, LATERAL (SELECT now() - random() * interval '30 days' AS t) x ON CONFLICT DO NOTHING;
INSERT INTO plan_bigint SELECT id::int8, tsid_timestamp(id), payload FROM plan_tsid;
ANALYZE plan_ulid, plan_tsid, plan_uuid, plan_bigint;

-- The median and 90th percentile of EXPLAIN's "Planning Time" over `runs`
-- plannings of `query` (one warm-up first: the first plan of a session loads
-- the library and fills the caches).
CREATE FUNCTION planning_ms(query text, runs int) RETURNS float8[] LANGUAGE plpgsql AS $$
DECLARE plan json; times float8[] := '{}';
BEGIN
  EXECUTE 'EXPLAIN (SUMMARY, FORMAT JSON) ' || query INTO plan;
  FOR i IN 1..runs LOOP
    EXECUTE 'EXPLAIN (SUMMARY, FORMAT JSON) ' || query INTO plan;
    times := times || (plan -> 0 ->> 'Planning Time')::float8;
  END LOOP;
  RETURN ARRAY[percentile_cont(0.5) WITHIN GROUP (ORDER BY t), percentile_cont(0.9) WITHIN GROUP (ORDER BY t)]
         FROM unnest(times) t;
END $$;

CREATE TEMP TABLE cases (ord int, name text, query text);
INSERT INTO cases VALUES
  (1, 'bigint key range - Postgres alone', $$SELECT * FROM plan_bigint WHERE id >= 1000 AND id < 2000000000000$$),
  (2, 'timestamptz column last hour - Postgres alone', $$SELECT * FROM plan_bigint WHERE at >= now() - interval '1 hour'$$),
  (3, 'ulid key range', $$SELECT * FROM plan_ulid WHERE id >= ulid_lower_bound(now() - interval '1 hour')$$),
  (4, 'ulid_timestamp(id) last hour', $$SELECT * FROM plan_ulid WHERE ulid_timestamp(id) >= now() - interval '1 hour'$$),
  (5, 'ulid_timestamp(id) BETWEEN', $$SELECT * FROM plan_ulid WHERE ulid_timestamp(id) BETWEEN now() - interval '2 days' AND now() - interval '1 day'$$),
  (6, 'ulid_timestamp(id) two ORed windows', $$SELECT * FROM plan_ulid WHERE ulid_timestamp(id) >= now() - interval '1 hour' OR ulid_timestamp(id) < now() - interval '29 days'$$),
  (7, 'tsid_timestamp(id) last hour', $$SELECT * FROM plan_tsid WHERE tsid_timestamp(id) >= now() - interval '1 hour'$$),
  (8, 'uuidv7_timestamp(id) last hour', $$SELECT * FROM plan_uuid WHERE uuidv7_timestamp(id) >= now() - interval '1 hour'$$),
  (9, 'ulid_timestamp(id) joined', $$SELECT * FROM plan_ulid u JOIN plan_bigint b ON b.payload = u.payload WHERE ulid_timestamp(u.id) >= now() - interval '1 hour'$$);

-- (\copy takes its line as it is: the number of runs comes as a setting)
SELECT set_config('bench.runs', :'runs', false) \g /dev/null
\copy (SELECT name, round(ms[1]::numeric, 3) AS median_ms, round(ms[2]::numeric, 3) AS p90_ms FROM (SELECT ord, name, planning_ms(query, current_setting('bench.runs')::int) AS ms FROM cases) c ORDER BY ord) TO pstdout WITH (FORMAT csv, HEADER)
