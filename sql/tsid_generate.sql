-- generate_tsid(), its settings, and the two migrations of a bigint key.

-- 200,000 values in one session: distinct, strictly increasing, near the clock.
CREATE TEMP TABLE gen AS
  SELECT n, generate_tsid() AS id, clock_timestamp() AS made_at FROM generate_series(1, 200000) n;
SELECT count(*) AS n, count(DISTINCT id) AS distinct_ids FROM gen;
SELECT count(*) AS not_increasing FROM (
  SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM gen) s WHERE prev >= id;
SELECT count(*) FILTER (WHERE abs(extract(epoch FROM tsid_timestamp(id) - made_at)) >= 1) AS off_clock FROM gen;
DROP TABLE gen;

-- Settings: by default no node bits (all 22 low bits count) and no node id
-- (-1). Both belong to the server: postgresql.conf or ALTER SYSTEM, then a
-- reload (test/t/008_node_settings.pl tests both orders, preloaded and not); a
-- session cannot SET them, even locally, as a superuser or not.
SHOW ulid_tsid.node_bits;
SHOW ulid_tsid.node_id;
SELECT regress_try('SET ulid_tsid.node_id = 1');
SELECT regress_try('SET LOCAL ulid_tsid.node_id = 7');
SELECT regress_try($$SELECT set_config('ulid_tsid.node_id', '7', true)$$);
SELECT regress_try('SET ulid_tsid.node_bits = 12');
SET ROLE regress_ulid_owner;
SELECT regress_try('SET ulid_tsid.node_id = 0');
RESET ROLE;

-- Migration 1: generate_tsid() as the default of an existing bigint key.
CREATE TABLE users (id bigint PRIMARY KEY, name text);
INSERT INTO users VALUES (1, 'legacy one'), (2, 'legacy two');
ALTER TABLE users ALTER COLUMN id SET DEFAULT generate_tsid();
INSERT INTO users (name) SELECT 'new ' || n FROM generate_series(1, 1000) n;
SELECT count(*), count(DISTINCT id), min(id) AS min_legacy,
       bool_and(tsid_timestamp(id::tsid) > now() - interval '1 minute') FILTER (WHERE id > 2) AS recent
FROM users;
-- Migration 2: the column becomes tsid; values and the index carry over.
ALTER TABLE users ALTER COLUMN id TYPE tsid USING id::tsid;
\d users
SELECT count(*), min(id)::bigint AS min_legacy FROM users;
INSERT INTO users (name) VALUES ('after migration');
SELECT count(*) AS newer_than_all FROM users
WHERE name = 'after migration' AND id > ALL (SELECT id FROM users WHERE name <> 'after migration');
SELECT bt_index_check('users_pkey', true);
DROP TABLE users;

-- Volatility and parallel labels.
SELECT proname, provolatile, proparallel FROM pg_proc
WHERE proname IN ('generate_tsid', 'tsid_timestamp', 'tsid_node') ORDER BY 1;
