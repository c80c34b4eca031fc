-- A short tour of ulid_tsid, run by scripts/demo.sh in a throwaway cluster.
\pset footer off
\echo '== ulid: 26 characters, time first, strictly increasing'
CREATE EXTENSION IF NOT EXISTS ulid_tsid;
CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT generate_ulid(), item text);
INSERT INTO orders (item) SELECT 'item ' || n FROM generate_series(1, 5) n;
SELECT id, ulid_timestamp(id) AS created, id::uuid AS same_bytes_as_uuid FROM orders ORDER BY id;

\echo '== keyset pagination: the next page starts after the last key seen'
SELECT id, item FROM orders WHERE id > (SELECT id FROM orders ORDER BY id OFFSET 1 LIMIT 1) ORDER BY id LIMIT 2;

\echo '== a time window is an index range scan'
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM orders
WHERE id >= ulid_lower_bound(now() - interval '1 hour') AND id < ulid_lower_bound(now() + interval '1 second');
RESET enable_seqscan;

\echo '== tsid: 64 bits, 13 characters, a drop-in default for a bigint key'
CREATE TABLE users (id bigint PRIMARY KEY, name text);
INSERT INTO users VALUES (1, 'from the old sequence');
ALTER TABLE users ALTER COLUMN id SET DEFAULT generate_tsid();
INSERT INTO users (name) VALUES ('alice'), ('bob');
SELECT id, id::tsid AS as_text, tsid_timestamp(id::tsid) AS created FROM users ORDER BY id;
ALTER TABLE users ALTER COLUMN id TYPE tsid USING id::tsid;
SELECT id, name FROM users ORDER BY id;

\echo '== generate_uuidv7() on the plain uuid type (uuidv7() as in PostgreSQL 18 too)'
SELECT generate_uuidv7() AS now_v7, uuid_extract_timestamp(generate_uuidv7(interval '-1 day')) AS yesterday;

\echo '== strict input: every error says what is wrong (SQLSTATE 22P02)'
\set VERBOSITY default
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAU'::ulid;
SELECT '80000000000000000000000000'::ulid;
SELECT 'G000000000000'::tsid;

\echo '== preloaded: one sequence for the whole cluster'
SHOW shared_preload_libraries;
SELECT count(*) AS values, count(DISTINCT v) AS distinct_values
FROM (SELECT generate_ulid() AS v FROM generate_series(1, 100000)) s;
