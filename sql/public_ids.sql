-- Public IDs: TypeID forms, and opaque keyed forms.

-- The TypeID spec's own valid cases (spec v0.3, spec/valid.yml): decode and encode.
CREATE TEMP TABLE typeid_valid (name text, typeid text, prefix text, uuid uuid);
INSERT INTO typeid_valid VALUES
  ('nil', '00000000000000000000000000', '', '00000000-0000-0000-0000-000000000000'),
  ('one', '00000000000000000000000001', '', '00000000-0000-0000-0000-000000000001'),
  ('ten', '0000000000000000000000000a', '', '00000000-0000-0000-0000-00000000000a'),
  ('sixteen', '0000000000000000000000000g', '', '00000000-0000-0000-0000-000000000010'),
  ('thirty-two', '00000000000000000000000010', '', '00000000-0000-0000-0000-000000000020'),
  ('max-valid', '7zzzzzzzzzzzzzzzzzzzzzzzzz', '', 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
  ('valid-alphabet', 'prefix_0123456789abcdefghjkmnpqrs', 'prefix', '0110c853-1d09-52d8-d73e-1194e95b5f19'),
  ('valid-uuidv7', 'prefix_01h455vb4pex5vsknk084sn02q', 'prefix', '01890a5d-ac96-774b-bcce-b302099a8057'),
  ('prefix-underscore', 'pre_fix_00000000000000000000000000', 'pre_fix', '00000000-0000-0000-0000-000000000000');
SELECT name, typeid_to_uuid(typeid, prefix) = uuid AS decodes, typeid(uuid, prefix) = typeid AS encodes,
       typeid(uuid::ulid, prefix) = typeid AS ulid_encodes, typeid_to_ulid(typeid, prefix) = uuid::ulid AS ulid_decodes
FROM typeid_valid ORDER BY name;

-- The spec's invalid cases (spec/invalid.yml): every one fails, with the
-- apparent prefix and with the empty prefix expected.
CREATE TEMP TABLE typeid_invalid (name text, typeid text);
INSERT INTO typeid_invalid VALUES
  ('prefix-uppercase', 'PREFIX_00000000000000000000000000'),
  ('prefix-numeric', '12345_00000000000000000000000000'),
  ('prefix-period', 'pre.fix_00000000000000000000000000'),
  ('prefix-non-ascii', 'préfix_00000000000000000000000000'),
  ('prefix-spaces', '  prefix_00000000000000000000000000'),
  ('prefix-64-chars', 'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl_00000000000000000000000000'),
  ('separator-empty-prefix', '_00000000000000000000000000'),
  ('separator-empty', '_'),
  ('suffix-short', 'prefix_1234567890123456789012345'),
  ('suffix-long', 'prefix_123456789012345678901234567'),
  ('suffix-spaces', 'prefix_1234567890123456789012345 '),
  ('suffix-uppercase', 'prefix_0123456789ABCDEFGHJKMNPQRS'),
  ('suffix-hyphens', 'prefix_123456789-123456789-123456'),
  ('suffix-wrong-alphabet', 'prefix_ooooooiiiiiiuuuuuuulllllll'),
  ('suffix-ambiguous-crockford', 'prefix_i23456789ol23456789oi23456'),
  ('suffix-hyphens-crockford', 'prefix_123456789-0123456789-0123456'),
  ('suffix-overflow', 'prefix_8zzzzzzzzzzzzzzzzzzzzzzzzz'),
  ('prefix-underscore-start', '_prefix_00000000000000000000000000'),
  ('prefix-underscore-end', 'prefix__00000000000000000000000000');
SELECT name, regress_try(format('SELECT typeid_to_uuid(%L, %L)', typeid, 'prefix')) AS with_prefix,
       split_part(regress_try(format('SELECT typeid_to_uuid(%L, %L)', typeid, '')), ':', 1) AS with_empty
FROM typeid_invalid ORDER BY name;

-- A different prefix is an error: an order_ ID is never accepted as a user_ ID.
SELECT typeid('01890a5d-ac96-774b-bcce-b302099a8057'::uuid, 'order') AS order_id;
SELECT regress_try($$SELECT typeid_to_uuid('order_01h455vb4pex5vsknk084sn02q', 'user')$$);
SELECT regress_try($$SELECT typeid_to_uuid('user_x_01h455vb4pex5vsknk084sn02q', 'user')$$);
SELECT regress_try($$SELECT typeid_to_uuid('01h455vb4pex5vsknk084sn02q', 'user')$$);
SELECT regress_try($$SELECT typeid('01890a5d-ac96-774b-bcce-b302099a8057'::uuid, 'User')$$);
SELECT regress_try($$SELECT typeid('01890a5d-ac96-774b-bcce-b302099a8057'::uuid, 'user_')$$);

-- tsid gets the same shape with its 13 characters.
SELECT typeid('0EP7TRC000402'::tsid, 'user') AS tsid_typeid, typeid_to_tsid('user_0ep7trc000402', 'user');
SELECT typeid('FZZZZZZZZZZZZ'::tsid, '') AS max_tsid;
SELECT regress_try(format('SELECT typeid_to_tsid(%L, %L)', t, 'user')) FROM (VALUES
  ('user_g000000000000'), ('user_0EP7TRC000402'), ('user_0ep7trc00040'), ('user_0ep7trc0004020'),
  ('user_0ep7trc0004o2')) v(t);

-- Opaque public IDs. Known answers computed by an independent implementation
-- (test/unit/public_id_reference.py: Python's BLAKE2b and its own SipHash-2-4).
\set key '\'\\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\'::bytea'
SELECT public_id(42::bigint, 'user', :key) AS kat_64,
       public_id(0::bigint, 'user', :key) AS kat_64_zero,
       public_id('000102030405060708090a0b0c0d0e0f'::uuid, 'user', :key) AS kat_128;
SELECT public_id_to_bigint('user_8b3f49pk6fvhk', 'user', :key) AS back_64,
       public_id_to_uuid('user_7eyr5gpkddwa2gwjxsdwdtwjt3', 'user', :key) AS back_128;

-- 200,000 random values round-trip in 64 bits, 100,000 in 128 (the core's unit tests
-- take a million and 200,000, test/unit/public_id_test.cpp).
CREATE TEMP TABLE pid AS
  SELECT n, (random() * 9.2e18)::bigint * (CASE WHEN n % 2 = 0 THEN -1 ELSE 1 END) AS v, gen_random_uuid() AS u
  FROM generate_series(1, 200000) n;
SELECT count(*) FILTER (WHERE public_id_to_bigint(public_id(v, 'user', :key), 'user', :key) <> v) AS bad_64,
       count(*) FILTER (WHERE n <= 100000
                          AND public_id_to_uuid(public_id(u, 'user', :key), 'user', :key) <> u) AS bad_128
FROM pid;
DROP TABLE pid;

-- Different domains give different forms, and one domain's form is not another's.
SELECT public_id(42::bigint, 'user', :key) <> replace(public_id(42::bigint, 'order', :key), 'order_', 'user_') AS domains_differ;
SELECT regress_try(format('SELECT public_id_to_bigint(%L, %L, %L::bytea)',
                          public_id(42::bigint, 'order', :key), 'user', :key)) AS wrong_domain;

-- Consecutive keys: the public forms' order says nothing about the keys' order
-- (Spearman rank correlation over 100,000 consecutive keys near zero).
SELECT abs(corr(k_rank, p_rank)) < 0.02 AS uncorrelated FROM (
  SELECT rank() OVER (ORDER BY k) AS k_rank, rank() OVER (ORDER BY public_id(k, 'user', :key) COLLATE "C") AS p_rank
  FROM generate_series(1::bigint, 100000) k) s;
SELECT abs(corr(k_rank, p_rank)) < 0.02 AS uncorrelated_128 FROM (
  SELECT rank() OVER (ORDER BY u) AS k_rank, rank() OVER (ORDER BY public_id(u, 'user', :key) COLLATE "C") AS p_rank
  FROM (SELECT ulid_lower_bound(timestamptz '2024-01-01Z' + n * interval '1 ms') AS u
        FROM generate_series(1, 100000) n) g) s;

-- The key comes only from the file that ulid_tsid.public_id_key_file names
-- for this database (a superuser's ALTER DATABASE ... SET; a role that is not
-- a superuser cannot SET it); none is bound here, so a clear 22023 with a
-- hint. test/t/008_public_id_key.pl and test/t/011_public_id_databases.pl set
-- files up the ways users do.
SELECT regress_try($$SELECT public_id(42::bigint, 'user')$$);
SELECT regress_try($$SELECT public_id_to_ulid('user_01h455vb4pex5vsknk084sn02q', 'user')$$);
SET ROLE regress_ulid_owner;
SELECT regress_try($$SET ulid_tsid.public_id_key_file = 'key'$$);
RESET ROLE;
SELECT name, context FROM pg_settings WHERE name LIKE 'ulid_tsid.%' ORDER BY name;
-- 0.1.0's key setting is gone: a value given to its old name is never used as
-- a key (from 15 on, the loaded library reserves the prefix and refuses the SET).
DO $$
BEGIN
  SET ulid_tsid.public_id_key = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
EXCEPTION WHEN others THEN NULL;
END $$;
SELECT regress_try($$SELECT public_id(42::bigint, 'user')$$);
SELECT regress_try($$SELECT public_id(1::bigint, 'user', '\x00'::bytea)$$);
SELECT proname, provolatile, pronargs FROM pg_proc
WHERE proname IN ('public_id', 'typeid') GROUP BY 1, 2, 3 ORDER BY 1, 3;
