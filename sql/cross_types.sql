-- Cross-type operators: tsid with int8/int4/int2 and ulid with uuid, in both
-- argument orders, as members of the btree, hash and BRIN families. Drivers
-- send integers and UUIDs with their own types; these make WHERE id = $1
-- exact, indexable and a possible foreign key.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS amcheck;
RESET client_min_messages;

-- Every operator class of the extension validates (a family with cross-type
-- members must hold every pair of its types).
SELECT am.amname, opc.opcname, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
JOIN pg_depend d ON d.classid = 'pg_opclass'::regclass AND d.objid = opc.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid_tsid'
ORDER BY 1, 2;

-- The pairs each family holds, and what each pair has.
SELECT opf.opfname, am.amname, ao.amoplefttype::regtype AS l, ao.amoprighttype::regtype AS r,
       count(*) AS operators,
       (SELECT count(*) FROM pg_amproc ap WHERE ap.amprocfamily = opf.oid
          AND ap.amproclefttype = ao.amoplefttype AND ap.amprocrighttype = ao.amoprighttype) AS support
FROM pg_opfamily opf JOIN pg_am am ON am.oid = opf.opfmethod
JOIN pg_amop ao ON ao.amopfamily = opf.oid
WHERE opf.opfname IN ('ulid_ops', 'ulid_hash_ops', 'ulid_minmax_ops', 'tsid_ops', 'tsid_hash_ops', 'tsid_minmax_ops')
GROUP BY opf.oid, opf.opfname, am.amname, ao.amoplefttype, ao.amoprighttype
ORDER BY 1, 2, ao.amoplefttype::regtype::text, ao.amoprighttype::regtype::text;

-- The new operators: commutator and negator in place, leakproof, = hashes and merges.
SELECT o.oprleft::regtype, o.oprright::regtype, string_agg(o.oprname, ' ' ORDER BY o.oprname) AS ops,
       bool_and(o.oprcom <> 0 AND o.oprnegate <> 0) AS com_neg,
       bool_and(p.proleakproof) AS leakproof,
       bool_or(o.oprcanhash AND o.oprcanmerge) AS eq_hashes_merges
FROM pg_operator o JOIN pg_proc p ON p.oid = o.oprcode
WHERE (o.oprleft, o.oprright) IN (('ulid'::regtype, 'uuid'::regtype), ('uuid'::regtype, 'ulid'::regtype),
  ('tsid'::regtype, 'int8'::regtype), ('int8'::regtype, 'tsid'::regtype), ('tsid'::regtype, 'int4'::regtype),
  ('int4'::regtype, 'tsid'::regtype), ('tsid'::regtype, 'int2'::regtype), ('int2'::regtype, 'tsid'::regtype))
GROUP BY 1, 2 ORDER BY o.oprleft::regtype::text, o.oprright::regtype::text;

-- Exact: every cross comparison agrees with the same comparison of one type,
-- on values around each integer width's limits and scattered ones of both signs
-- (hashes, not random(): the same values on every server version).
CREATE TEMP TABLE ints AS
SELECT v FROM (VALUES (0::int8), (1), (-1), (32767), (-32768), (32768), (2147483647), (-2147483648),
  (2147483648), (9223372036854775807), (-9223372036854775808), (915268788478279683)) s(v)
UNION ALL SELECT hashint8extended(n, 1) FROM generate_series(1, 200) n   -- spread, both signs
UNION ALL SELECT hashint8extended(n, 2) % 32768 FROM generate_series(1, 200) n;
SELECT count(*) AS pairs,
  count(*) FILTER (WHERE (a.v::tsid = b.v) IS DISTINCT FROM (a.v = b.v)
                      OR (a.v::tsid < b.v) IS DISTINCT FROM (a.v < b.v)
                      OR (a.v::tsid <= b.v) IS DISTINCT FROM (a.v <= b.v)
                      OR (a.v::tsid > b.v) IS DISTINCT FROM (a.v > b.v)
                      OR (a.v::tsid >= b.v) IS DISTINCT FROM (a.v >= b.v)
                      OR (a.v::tsid <> b.v) IS DISTINCT FROM (a.v <> b.v)
                      OR (a.v = b.v::tsid) IS DISTINCT FROM (a.v = b.v)
                      OR (a.v < b.v::tsid) IS DISTINCT FROM (a.v < b.v)
                      OR (a.v >= b.v::tsid) IS DISTINCT FROM (a.v >= b.v)) AS int8_mismatches,
  count(*) FILTER (WHERE b.v BETWEEN -2147483648 AND 2147483647 AND (
                         (a.v::tsid = b.v::int4) IS DISTINCT FROM (a.v = b.v)
                      OR (a.v::tsid < b.v::int4) IS DISTINCT FROM (a.v < b.v)
                      OR (a.v::tsid >= b.v::int4) IS DISTINCT FROM (a.v >= b.v)
                      OR (b.v::int4 > a.v::tsid) IS DISTINCT FROM (b.v > a.v)
                      OR (b.v::int4 <> a.v::tsid) IS DISTINCT FROM (b.v <> a.v))) AS int4_mismatches,
  count(*) FILTER (WHERE b.v BETWEEN -32768 AND 32767 AND (
                         (a.v::tsid = b.v::int2) IS DISTINCT FROM (a.v = b.v)
                      OR (a.v::tsid <= b.v::int2) IS DISTINCT FROM (a.v <= b.v)
                      OR (a.v::tsid > b.v::int2) IS DISTINCT FROM (a.v > b.v)
                      OR (b.v::int2 < a.v::tsid) IS DISTINCT FROM (b.v < a.v)
                      OR (b.v::int2 = a.v::tsid) IS DISTINCT FROM (b.v = a.v))) AS int2_mismatches
FROM ints a, ints b;
-- Equal values hash alike across the family's types (hash joins, hash indexes, partitions).
SELECT count(*) FILTER (WHERE tsid_hash(v::tsid) <> hashint8(v)
                          OR (v BETWEEN -2147483648 AND 2147483647 AND tsid_hash(v::tsid) <> hashint4(v::int4))
                          OR (v BETWEEN -32768 AND 32767 AND tsid_hash(v::tsid) <> hashint2(v::int2))
                          OR tsid_hash_extended(v::tsid, 7) <> hashint8extended(v, 7)
                          OR (v BETWEEN -32768 AND 32767 AND tsid_hash_extended(v::tsid, 7) <> hashint2extended(v::int2, 7)))
       AS hash_mismatches FROM ints;
CREATE TEMP TABLE uuids AS
SELECT md5(n::text)::uuid AS u FROM generate_series(1, 150) n
UNION ALL SELECT ulid_lower_bound(now() - n * interval '1 ms')::uuid FROM generate_series(1, 50) n
UNION ALL VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff');
SELECT count(*) AS pairs,
  count(*) FILTER (WHERE (a.u::ulid = b.u) IS DISTINCT FROM (a.u = b.u)
                      OR (a.u::ulid < b.u) IS DISTINCT FROM (a.u < b.u)
                      OR (a.u::ulid <= b.u) IS DISTINCT FROM (a.u <= b.u)
                      OR (a.u::ulid > b.u) IS DISTINCT FROM (a.u > b.u)
                      OR (a.u::ulid >= b.u) IS DISTINCT FROM (a.u >= b.u)
                      OR (a.u::ulid <> b.u) IS DISTINCT FROM (a.u <> b.u)
                      OR (a.u = b.u::ulid) IS DISTINCT FROM (a.u = b.u)
                      OR (a.u < b.u::ulid) IS DISTINCT FROM (a.u < b.u)
                      OR (a.u > b.u::ulid) IS DISTINCT FROM (a.u > b.u)) AS mismatches
FROM uuids a, uuids b;

-- Indexes answer cross-type conditions: for each index kind on the key (one
-- table each), the plan uses the index and returns the rows a seq scan returns.
CREATE FUNCTION cross_probe(tbl text, pred text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  plan text := '';
  line text;
  q text := format('SELECT coalesce(string_agg(n::text, %L ORDER BY n), %L) FROM %I WHERE %s', ',', '', tbl, pred);
  by_index text;
  by_seq text;
BEGIN
  SET LOCAL enable_seqscan = off;
  FOR line IN EXECUTE format('EXPLAIN (COSTS OFF) SELECT n FROM %I WHERE %s', tbl, pred) LOOP
    plan := plan || line || E'\n';
  END LOOP;
  EXECUTE q INTO by_index;
  SET LOCAL enable_seqscan = on; SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off;
  SET LOCAL enable_indexonlyscan = off;
  EXECUTE q INTO by_seq;
  RESET enable_seqscan; RESET enable_indexscan; RESET enable_bitmapscan; RESET enable_indexonlyscan;
  RETURN format('%s | %s | %s rows | %s', pred,
    coalesce('index ' || substring(plan FROM '(?:Scan using|Bitmap Index Scan on) (\w+)'), 'NO INDEX: ' || plan),
    CASE WHEN by_index = '' THEN 0 ELSE array_length(string_to_array(by_index, ','), 1) END,
    CASE WHEN by_index = by_seq THEN 'same as seq scan' ELSE 'DIFFERS from seq scan' END);
END $$;
CREATE TABLE cross_t_btree (id tsid PRIMARY KEY, n int);
INSERT INTO cross_t_btree SELECT v::tsid, row_number() OVER (ORDER BY v) FROM (SELECT DISTINCT v FROM ints) s;
CREATE TABLE cross_t_hash (id tsid, n int);
INSERT INTO cross_t_hash SELECT * FROM cross_t_btree;
CREATE INDEX cross_t_hash_id ON cross_t_hash USING hash (id);
CREATE TABLE cross_t_brin (id tsid, n int);
INSERT INTO cross_t_brin SELECT * FROM cross_t_btree ORDER BY id;
CREATE INDEX cross_t_brin_id ON cross_t_brin USING brin (id) WITH (pages_per_range = 1);
CREATE TABLE cross_u_btree (id ulid PRIMARY KEY, n int);
INSERT INTO cross_u_btree SELECT u::ulid, row_number() OVER (ORDER BY u) FROM (SELECT DISTINCT u FROM uuids) s;
CREATE TABLE cross_u_hash (id ulid, n int);
INSERT INTO cross_u_hash SELECT * FROM cross_u_btree;
CREATE INDEX cross_u_hash_id ON cross_u_hash USING hash (id);
CREATE TABLE cross_u_brin (id ulid, n int);
INSERT INTO cross_u_brin SELECT * FROM cross_u_btree ORDER BY id;
CREATE INDEX cross_u_brin_id ON cross_u_brin USING brin (id) WITH (pages_per_range = 1);
ANALYZE cross_t_btree, cross_t_hash, cross_t_brin, cross_u_btree, cross_u_hash, cross_u_brin;
SELECT cross_probe(t, p) FROM (VALUES
  ('cross_t_btree', 'id = 915268788478279683::int8'),
  ('cross_t_btree', '915268788478279683::int8 = id'),
  ('cross_t_btree', 'id = 32767::int2'),
  ('cross_t_btree', 'id > -1 AND id <= 2147483648'),
  ('cross_t_btree', '32767::int2 < id AND id < 2147483647::int4'),
  ('cross_t_btree', 'id = ANY (''{1,2,3,-1}''::int8[])'),
  ('cross_t_btree', 'id >= -9223372036854775808 AND id < 0::int2'),
  ('cross_t_hash', 'id = 915268788478279683::int8'),
  ('cross_t_hash', '(-32768)::int2 = id'),
  ('cross_t_hash', 'id = 2147483647'),
  ('cross_t_brin', 'id > 2147483647::int4'),
  ('cross_t_brin', 'id <= (-32768)::int2'),
  ('cross_t_brin', 'id = 9223372036854775807::int8'),
  ('cross_u_btree', 'id = ''ffffffff-ffff-ffff-ffff-ffffffffffff''::uuid'),
  ('cross_u_btree', '''00000000-0000-0000-0000-000000000000''::uuid = id'),
  ('cross_u_btree', 'id > ''80000000-0000-0000-0000-000000000000''::uuid'),
  ('cross_u_btree', '''80000000-0000-0000-0000-000000000000''::uuid >= id'),
  ('cross_u_hash', 'id = ''ffffffff-ffff-ffff-ffff-ffffffffffff''::uuid'),
  ('cross_u_brin', 'id >= ''c0000000-0000-0000-0000-000000000000''::uuid')) v(t, p);
SELECT bt_index_check('cross_t_btree_pkey', true), bt_index_check('cross_u_btree_pkey', true);

-- Joins between a key and a column of the other type: hash, merge and nested
-- loop give the same rows.
CREATE TABLE cross_big (v int8);
INSERT INTO cross_big SELECT v FROM ints;
CREATE TABLE cross_uu (u uuid);
INSERT INTO cross_uu SELECT u FROM uuids;
CREATE FUNCTION cross_joins(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  a text; b text; c text;
BEGIN
  SET LOCAL enable_mergejoin = off; SET LOCAL enable_nestloop = off; SET LOCAL enable_hashjoin = on;
  EXECUTE q INTO a;
  SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = on;
  EXECUTE q INTO b;
  SET LOCAL enable_mergejoin = off; SET LOCAL enable_nestloop = on;
  EXECUTE q INTO c;
  RESET enable_hashjoin; RESET enable_mergejoin; RESET enable_nestloop;
  RETURN format('%s rows; hash = merge = nested loop: %s', a, a = b AND b = c);
END $$;
SELECT cross_joins('SELECT count(*) FROM cross_t_btree t JOIN cross_big b ON t.id = b.v');
SELECT cross_joins('SELECT count(*) FROM cross_big b JOIN cross_t_btree t ON b.v = t.id');
SELECT cross_joins('SELECT count(*) FROM cross_u_btree k JOIN cross_uu u ON k.id = u.u');

-- Foreign keys: a uuid column references a ulid key, a bigint column a tsid key.
CREATE TABLE fk_ulid_parent (id ulid PRIMARY KEY DEFAULT generate_ulid());
CREATE TABLE fk_uuid_child (parent uuid REFERENCES fk_ulid_parent ON DELETE CASCADE);
INSERT INTO fk_ulid_parent SELECT FROM generate_series(1, 3);
INSERT INTO fk_uuid_child SELECT id FROM fk_ulid_parent;
SELECT regress_try($$INSERT INTO fk_uuid_child VALUES ('00000000-0000-0000-0000-000000000000')$$);
DELETE FROM fk_ulid_parent WHERE id = (SELECT min(id) FROM fk_ulid_parent);
SELECT count(*) AS children_left FROM fk_uuid_child;
CREATE TABLE fk_tsid_parent (id tsid PRIMARY KEY DEFAULT generate_tsid());
CREATE TABLE fk_bigint_child (parent bigint REFERENCES fk_tsid_parent ON DELETE CASCADE);
INSERT INTO fk_tsid_parent SELECT FROM generate_series(1, 3);
INSERT INTO fk_bigint_child SELECT id FROM fk_tsid_parent;
SELECT regress_try($$INSERT INTO fk_bigint_child VALUES (1)$$);
DELETE FROM fk_tsid_parent WHERE id = (SELECT min(id) FROM fk_tsid_parent);
SELECT count(*) AS children_left FROM fk_bigint_child;
-- The other direction (a ulid column referencing a uuid key) would need our
-- operators in core's uuid_ops family; it stays refused: declare the
-- referencing column with the key's type.
CREATE TABLE fk_uuid_parent (id uuid PRIMARY KEY);
SELECT split_part(regress_try($$CREATE TABLE fk_ulid_child (parent ulid REFERENCES fk_uuid_parent)$$), ' | ', 1);

-- Partition pruning with a parameter of the other type: hash partitions of a
-- tsid key (equal values hash alike) and range partitions of a ulid key.
CREATE TABLE cross_hp (id tsid) PARTITION BY HASH (id);
CREATE TABLE cross_hp_0 PARTITION OF cross_hp FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE cross_hp_1 PARTITION OF cross_hp FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE cross_hp_2 PARTITION OF cross_hp FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE cross_hp_3 PARTITION OF cross_hp FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO cross_hp SELECT v::tsid FROM ints;
SELECT regress_plan($$SELECT * FROM cross_hp WHERE id = 915268788478279683::int8$$);
SELECT tableoid::regclass, count(*) FROM cross_hp WHERE id = 915268788478279683::int8 GROUP BY 1;
SELECT (SELECT count(*) FROM ints i JOIN cross_hp h ON h.id = i.v::int2 WHERE i.v BETWEEN -32768 AND 32767)
     = (SELECT count(*) FROM ints i JOIN ints j ON j.v = i.v WHERE i.v BETWEEN -32768 AND 32767) AS same_rows;
CREATE TABLE cross_rp (id ulid) PARTITION BY RANGE (id);
CREATE TABLE cross_rp_low PARTITION OF cross_rp FOR VALUES FROM (MINVALUE) TO ('40000000000000000000000000');
CREATE TABLE cross_rp_high PARTITION OF cross_rp FOR VALUES FROM ('40000000000000000000000000') TO (MAXVALUE);
SELECT regress_plan($$SELECT * FROM cross_rp WHERE id >= '90000000-0000-0000-0000-000000000000'::uuid$$);
DROP TABLE cross_hp, cross_rp;

-- Literals and parameters still resolve to the key's own operators.
SELECT '0EP7TRC000402'::tsid = '0EP7TRC000402', '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
PREPARE by_id(tsid) AS SELECT count(*) FROM cross_t_btree WHERE id = $1;
EXECUTE by_id('0000000000001');
PREPARE by_bigint(bigint) AS SELECT count(*) FROM cross_t_btree WHERE id = $1;
EXECUTE by_bigint(1);
-- UNION and CASE still need the user to pick a type: no implicit cast.
SELECT regress_try($$SELECT generate_ulid() UNION ALL SELECT gen_random_uuid()$$);
SELECT count(*) FROM (SELECT generate_ulid()::uuid UNION ALL SELECT gen_random_uuid()) s;

-- JSON: both types become JSON strings; a JSON number for a tsid field is
-- refused (it is decimal text), and reading the field as bigint works.
SELECT to_json('0EP7TRC000402'::tsid), to_jsonb('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid);
SELECT regress_try($$SELECT * FROM json_to_record('{"id": 529448671641604098}') AS r(id tsid)$$);
SELECT id::tsid FROM json_to_record('{"id": 529448671641604098}') AS r(id bigint);
SELECT id FROM json_to_record('{"id": "0EP7TRC000402"}') AS r(id tsid);

DROP TABLE cross_t_btree, cross_t_hash, cross_t_brin, cross_u_btree, cross_u_hash, cross_u_brin,
  cross_big, cross_uu, fk_uuid_child, fk_ulid_parent, fk_bigint_child, fk_tsid_parent, fk_uuid_parent;
DROP FUNCTION cross_probe(text, text), cross_joins(text);
