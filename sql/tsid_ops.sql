-- Operators, operator classes, indexes and aggregates of tsid.
SELECT o.oprname, o.oprcom::regoper, o.oprnegate::regoper, o.oprrest, o.oprjoin, p.proleakproof,
       p.prosrc AS bound_to
FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
WHERE o.oprleft = 'tsid'::regtype AND o.oprright = 'tsid'::regtype ORDER BY o.oprname;
SELECT am.amname, opc.opcname, opc.opcdefault,
       array_agg(ap.amprocnum || ':' || ap.amproc::regproc ORDER BY ap.amprocnum) AS support
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
JOIN pg_amproc ap ON ap.amprocfamily = opc.opcfamily
  AND ap.amproclefttype = opc.opcintype AND ap.amprocrighttype = opc.opcintype
WHERE opc.opcintype = 'tsid'::regtype GROUP BY 1, 2, 3 ORDER BY 1;

-- Order is that of the signed bigint.
SELECT count(*) AS order_mismatches FROM (
  SELECT row_number() OVER (ORDER BY v::tsid) AS a, row_number() OVER (ORDER BY v) AS b
  FROM (SELECT (random() * 1e18)::bigint * (CASE WHEN n % 3 = 0 THEN -1 ELSE 1 END) AS v
        FROM generate_series(1, 20000) n) s) t
WHERE a <> b;

CREATE TABLE tsid_ops_t (id tsid PRIMARY KEY, n int);
INSERT INTO tsid_ops_t
SELECT (tsid_lower_bound(timestamptz '2024-01-01 00:00:00+00' + n * interval '1 second')::bigint + n % 4096)::tsid, n
FROM generate_series(1, 20000) n;
CREATE INDEX tsid_ops_hash ON tsid_ops_t USING hash (id);
CREATE INDEX tsid_ops_brin ON tsid_ops_t USING brin (id);
ANALYZE tsid_ops_t;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM tsid_ops_t
WHERE id >= tsid_lower_bound('2024-01-01 01:00:00+00') AND id < tsid_lower_bound('2024-01-01 02:00:00+00');
SELECT count(*) FROM tsid_ops_t
WHERE id >= tsid_lower_bound('2024-01-01 01:00:00+00') AND id < tsid_lower_bound('2024-01-01 02:00:00+00');
EXPLAIN (COSTS OFF) SELECT * FROM tsid_ops_t WHERE id = '0EP7TRC000402';
RESET enable_bitmapscan;
ALTER TABLE tsid_ops_t DROP CONSTRAINT tsid_ops_t_pkey;
DROP INDEX tsid_ops_hash;
EXPLAIN (COSTS OFF) SELECT count(*) FROM tsid_ops_t
WHERE id >= tsid_lower_bound('2024-01-01 01:00:00+00') AND id < tsid_lower_bound('2024-01-01 02:00:00+00');
SELECT count(*) FROM tsid_ops_t
WHERE id >= tsid_lower_bound('2024-01-01 01:00:00+00') AND id < tsid_lower_bound('2024-01-01 02:00:00+00');
ALTER TABLE tsid_ops_t ADD PRIMARY KEY (id);
RESET enable_seqscan;

SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS pageinspect;
RESET client_min_messages;
SELECT allequalimage FROM bt_metap('tsid_ops_t_pkey');
SELECT regress_plan('SELECT min(id), max(id) FROM tsid_ops_t');
SELECT min(id)::bigint = min(id::bigint) AS min_ok, max(id)::bigint = max(id::bigint) AS max_ok FROM tsid_ops_t;

-- Hash partitioning; the hash is int8's, so a bigint key moved to tsid keeps its partitions.
CREATE TABLE tsid_parts (id tsid PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE tsid_parts_0 PARTITION OF tsid_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE tsid_parts_1 PARTITION OF tsid_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO tsid_parts SELECT id FROM tsid_ops_t;
SELECT count(*) AS partitions, sum(c) AS total_rows, bool_and(c > 8000) AS spread FROM (
  SELECT tableoid, count(*) AS c FROM tsid_parts GROUP BY 1) s;
SELECT bool_and(tsid_hash_extended(id, 7) = hashint8extended(id::bigint, 7)) AS same_as_int8 FROM tsid_ops_t;
SELECT bt_index_check('tsid_ops_t_pkey', true);
DROP TABLE tsid_parts;
DROP TABLE tsid_ops_t;
