-- Row estimates of key-range windows against the actual counts (estimates.sh).
-- psql variables: rows, days. One table per key kind, the same times in each:
-- `rows` times spread uniformly over `days` days, each key with a random tail.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SELECT setseed(0.15) \g /dev/null
CREATE TEMP TABLE times AS
SELECT timestamptz '2026-11-30 00:00Z' - random() * (:days * interval '1 day') AS t,
       decode(md5(random()::text), 'hex') AS tail
FROM generate_series(1, :rows);
CREATE TABLE est_ulid (id ulid PRIMARY KEY);
CREATE TABLE est_tsid (id tsid PRIMARY KEY);
CREATE TABLE est_uuid (id uuid PRIMARY KEY);
CREATE TABLE est_bigint (id bigint PRIMARY KEY);
INSERT INTO est_ulid SELECT ulid_from_bytea(substring(ulid_to_bytea(ulid_lower_bound(t)) FROM 1 FOR 6) || substring(tail FROM 1 FOR 10)) FROM times ON CONFLICT DO NOTHING;
INSERT INTO est_uuid SELECT encode(substring(uuid_send(uuidv7_lower_bound(t)) FROM 1 FOR 8) || substring(tail FROM 9 FOR 8), 'hex')::uuid FROM times ON CONFLICT DO NOTHING;
INSERT INTO est_tsid SELECT (tsid_lower_bound(t)::int8 + ('x' || encode(substring(tail FROM 1 FOR 3), 'hex'))::bit(24)::int8 % 4194304)::tsid FROM times ON CONFLICT DO NOTHING;
INSERT INTO est_bigint SELECT id::int8 FROM est_tsid;
ANALYZE est_ulid, est_tsid, est_uuid, est_bigint;

CREATE FUNCTION plan_rows(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE plan json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
  RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::float8;
END $$;
CREATE FUNCTION actual_rows(query text) RETURNS int8 LANGUAGE plpgsql AS $$
DECLARE n int8;
BEGIN
  EXECUTE 'SELECT count(*) FROM (' || query || ') q' INTO n;
  RETURN n;
END $$;
-- What Postgres's own scalar*sel give for the same query (the operators'
-- restriction functions switched back for the moment).
CREATE FUNCTION core_plan_rows(query text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE rows float8; op text; ops text[] := ARRAY['<', '<=', '>', '>=']; core text[] := ARRAY['scalarltsel', 'scalarlesel', 'scalargtsel', 'scalargesel']; ours text[] := ARRAY['ulid_tsid_scalarltsel', 'ulid_tsid_scalarlesel', 'ulid_tsid_scalargtsel', 'ulid_tsid_scalargesel'];
BEGIN
  FOR i IN 1..4 LOOP
    EXECUTE format('ALTER OPERATOR %s (ulid, ulid) SET (RESTRICT = %s)', ops[i], core[i]);
    EXECUTE format('ALTER OPERATOR %s (tsid, tsid) SET (RESTRICT = %s)', ops[i], core[i]);
  END LOOP;
  rows := plan_rows(query);
  FOR i IN 1..4 LOOP
    EXECUTE format('ALTER OPERATOR %s (ulid, ulid) SET (RESTRICT = %s)', ops[i], ours[i]);
    EXECUTE format('ALTER OPERATOR %s (tsid, tsid) SET (RESTRICT = %s)', ops[i], ours[i]);
  END LOOP;
  RETURN rows;
END $$;

CREATE TEMP TABLE anchors AS
SELECT 'newest' AS anchor, max(t) AS at FROM times
UNION ALL SELECT 'random', timestamptz '2026-11-30 00:00Z' - (0.2 + random() * 0.6) * (:days * interval '1 day');
CREATE TEMP TABLE windows AS
SELECT * FROM (VALUES ('1 minute', interval '1 minute', 1), ('1 hour', interval '1 hour', 2),
                      ('1 day', interval '1 day', 3), ('7 days', interval '7 days', 4)) w(name, span, ord);
CREATE TEMP TABLE cases AS
SELECT k.key, k.ord AS key_ord, a.anchor, w.name AS window, w.ord,
       -- newest: everything from (newest - window) on; random: [at - window, at)
       format('SELECT * FROM %s WHERE id >= %s', k.tab, format(k.bound, a.at - w.span))
       || CASE a.anchor WHEN 'random' THEN format(' AND id < %s', format(k.bound, a.at)) ELSE '' END AS query
FROM (VALUES ('ulid', 1, 'est_ulid', 'ulid_lower_bound(%L)'),
             ('tsid', 2, 'est_tsid', 'tsid_lower_bound(%L)'),
             ('uuid (v7)', 3, 'est_uuid', 'uuidv7_lower_bound(%L)'),
             ('bigint (tsid)', 4, 'est_bigint', 'tsid_lower_bound(%L)::bigint')) k(key, ord, tab, bound),
     anchors a, windows w;

\copy (SELECT key, anchor, "window", actual, round(estimate) AS estimate, round(greatest(estimate / greatest(actual, 1), greatest(actual, 1) / estimate)::numeric, 2) AS off_by, round(core) AS core_estimate, round(greatest(core / greatest(actual, 1), greatest(actual, 1) / core)::numeric, 2) AS core_off_by FROM (SELECT key, key_ord, anchor, "window", ord, actual_rows(query) AS actual, plan_rows(query) AS estimate, CASE WHEN key IN ('ulid', 'tsid') THEN core_plan_rows(query) ELSE plan_rows(query) END AS core FROM cases) c ORDER BY anchor, key_ord, ord) TO pstdout WITH (FORMAT csv, HEADER)
