-- Operators, operator classes, indexes, aggregates and keyset pagination.

SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid < '01ARZ3NDEKTSV4RRFFQ69G5FAW' AS lt,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid <= '01ARZ3NDEKTSV4RRFFQ69G5FAV' AS le,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01arz3ndektsv4rrffq69g5fav' AS eq,
       '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid <> '01ARZ3NDEKTSV4RRFFQ69G5FAW' AS ne,
       '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid > '00000000000000000000000000' AS gt,
       '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid >= '7ZZZZZZZZZZZZZZZZZZZZZZZZZ' AS ge;

-- Operator metadata: commutators, negators, estimators, leakproof implementations.
SELECT o.oprname, o.oprcom::regoper, o.oprnegate::regoper, o.oprrest, o.oprjoin,
       p.proleakproof, o.oprcanhash, o.oprcanmerge
FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
WHERE o.oprleft = 'ulid'::regtype AND o.oprright = 'ulid'::regtype ORDER BY o.oprname;

-- Operator classes and their support functions.
SELECT am.amname, opc.opcname, opc.opcdefault,
       array_agg(ap.amprocnum || ':' || ap.amproc::regproc ORDER BY ap.amprocnum) AS support
FROM pg_opclass opc
JOIN pg_am am ON am.oid = opc.opcmethod
JOIN pg_amproc ap ON ap.amprocfamily = opc.opcfamily
  AND ap.amproclefttype = opc.opcintype AND ap.amprocrighttype = opc.opcintype
WHERE opc.opcintype = 'ulid'::regtype GROUP BY 1, 2, 3 ORDER BY 1;

CREATE TABLE ulid_ops_t (id ulid PRIMARY KEY, n int);
INSERT INTO ulid_ops_t
SELECT ulid_lower_bound(timestamptz '2024-01-01 00:00:00+00' + n * interval '1 second')::uuid::ulid, n
FROM generate_series(1, 20000) n;
-- Random parts too: every fourth row gets a random 80-bit tail in its second.
UPDATE ulid_ops_t SET id = (substr(id::text, 1, 10) || substr(gen_random_uuid()::ulid::text, 11))::ulid
WHERE n % 4 = 0;
ANALYZE ulid_ops_t;

SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM ulid_ops_t WHERE id = '01HK153X0G0000000000000000';
CREATE INDEX ulid_ops_hash ON ulid_ops_t USING hash (id);
CREATE INDEX ulid_ops_brin ON ulid_ops_t USING brin (id);
EXPLAIN (COSTS OFF) SELECT * FROM ulid_ops_t WHERE id = '01HK153X0G0000000000000000';
EXPLAIN (COSTS OFF) SELECT * FROM ulid_ops_t
WHERE id >= ulid_lower_bound('2024-01-01 01:00:00+00') AND id < ulid_lower_bound('2024-01-01 02:00:00+00');
SELECT count(*) AS rows_in_hour FROM ulid_ops_t
WHERE id >= ulid_lower_bound('2024-01-01 01:00:00+00') AND id < ulid_lower_bound('2024-01-01 02:00:00+00');
RESET enable_bitmapscan;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM ulid_ops_t WHERE id = '01HK153X0G0000000000000000';
SELECT n FROM ulid_ops_t WHERE id = ulid_lower_bound('2024-01-01 00:00:01+00');
RESET enable_indexscan;

-- Hash index alone, then BRIN alone.
ALTER TABLE ulid_ops_t DROP CONSTRAINT ulid_ops_t_pkey;
EXPLAIN (COSTS OFF) SELECT * FROM ulid_ops_t WHERE id = '01HK153X0G0000000000000000';
SELECT n FROM ulid_ops_t WHERE id = ulid_lower_bound('2024-01-01 00:00:02+00');
DROP INDEX ulid_ops_hash;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ulid_ops_t
WHERE id >= ulid_lower_bound('2024-01-01 01:00:00+00') AND id < ulid_lower_bound('2024-01-01 02:00:00+00');
SELECT count(*) FROM ulid_ops_t
WHERE id >= ulid_lower_bound('2024-01-01 01:00:00+00') AND id < ulid_lower_bound('2024-01-01 02:00:00+00');
ALTER TABLE ulid_ops_t ADD PRIMARY KEY (id);
RESET enable_seqscan;

-- Deduplication is allowed (btequalimage), checked from the index's metapage.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pageinspect;
RESET client_min_messages;
SELECT allequalimage FROM bt_metap('ulid_ops_t_pkey');

-- min() and max() come from the btree index.
SELECT regress_plan('SELECT min(id), max(id) FROM ulid_ops_t');
SELECT min(id) = (SELECT id FROM ulid_ops_t ORDER BY id LIMIT 1) AS min_ok,
       max(id) = (SELECT id FROM ulid_ops_t ORDER BY id DESC LIMIT 1) AS max_ok,
       min(n) FILTER (WHERE id = (SELECT min(id) FROM ulid_ops_t)) AS first_n
FROM ulid_ops_t;

-- Keyset pagination: each page starts after the last key of the previous one.
EXPLAIN (COSTS OFF) SELECT id FROM ulid_ops_t WHERE id > '01HK153X0G0000000000000000' ORDER BY id LIMIT 5;
WITH RECURSIVE pages(page, last_id, seen) AS (
  SELECT 1, (SELECT max(id) FROM (SELECT id FROM ulid_ops_t ORDER BY id LIMIT 1000) p), 1000
  UNION ALL
  SELECT page + 1, (SELECT max(id) FROM (SELECT id FROM ulid_ops_t WHERE id > last_id ORDER BY id LIMIT 1000) p),
         seen + (SELECT count(*)::int FROM (SELECT 1 FROM ulid_ops_t WHERE id > last_id ORDER BY id LIMIT 1000) p)
  FROM pages WHERE last_id IS NOT NULL
)
SELECT max(page) - 1 AS pages, max(seen) AS rows_seen FROM pages;

-- Sorting many values (sortsupport with abbreviated keys) agrees with uuid order.
SELECT count(*) AS order_mismatches FROM (
  SELECT row_number() OVER (ORDER BY id) AS a, row_number() OVER (ORDER BY id::uuid) AS b FROM ulid_ops_t) s
WHERE a <> b;

-- Hash partitioning needs the extended hash function.
CREATE TABLE ulid_parts (id ulid PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE ulid_parts_0 PARTITION OF ulid_parts FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE ulid_parts_1 PARTITION OF ulid_parts FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE ulid_parts_2 PARTITION OF ulid_parts FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO ulid_parts SELECT id FROM ulid_ops_t;
SELECT count(*) AS partitions, sum(c) AS total_rows, bool_and(c > 5000) AS spread FROM (
  SELECT tableoid::regclass, count(*) AS c FROM ulid_parts GROUP BY 1) s;
EXPLAIN (COSTS OFF) SELECT * FROM ulid_parts WHERE id = '01HK153X0G0000000000000000';
-- The extended hash is seeded and matches uuid's for the same bytes.
SELECT ulid_hash_extended('01ARZ3NDEKTSV4RRFFQ69G5FAV', 42)
     = uuid_hash_extended('01563e3a-b5d3-d676-4c61-efb99302bd5b', 42) AS same_as_uuid,
       ulid_hash_extended('01ARZ3NDEKTSV4RRFFQ69G5FAV', 0)
    <> ulid_hash_extended('01ARZ3NDEKTSV4RRFFQ69G5FAV', 1) AS seeded;

-- amcheck agrees the btree is sound.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS amcheck;
RESET client_min_messages;
SELECT bt_index_check('ulid_ops_t_pkey', true);
DROP TABLE ulid_parts;
DROP TABLE ulid_ops_t;
