-- pgx_ulid's #[pg_test] functions, translated into SQL one assertion for one.
-- Source: pksunkara/pgx_ulid, src/lib.rs at commit 713757da8514f6589211f9798937c7e957e96763
-- (mod tests: 13 #[pg_test] functions, one assertion each). Run by scripts/suites/peers.sh
-- with psql -X -At -v ON_ERROR_STOP=0 in a database where `CREATE EXTENSION ulid_tsid;
-- CREATE EXTENSION ulid_tsid_compat;` stand in for `CREATE EXTENSION pgx_ulid`. Every
-- assertion prints one line, "ok NAME" or "not ok NAME"; a statement that fails prints an
-- ERROR and no "ok" line (the suite counts it as failed).
-- The test module's constants:
--   INT       2029121117734015635515926905565997019 (the ulid as a u128: its 16 bytes, big-endian)
--   TEXT      01GV5PA9EQG7D82Q3Y4PKBZSYV
--   UUID      0186cb65-25d7-81da-815c-7e25a6bfe7db
--   TIMESTAMP 2023-03-10 12:00:49.111
-- A Rust ulid(INT) is compared here through the ulid's bytes (ulid::uuid keeps them):
-- INT in hexadecimal is 0186cb6525d781da815c7e25a6bfe7db.
\set TEXT '01GV5PA9EQG7D82Q3Y4PKBZSYV'
\set INT_HEX '0186cb6525d781da815c7e25a6bfe7db'

-- An expected panic (#[should_panic]) is an ERROR here; the helper reports its SQLSTATE,
-- message and detail, or 'no error'.
CREATE FUNCTION pg_temp.error_of(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE detail text;
BEGIN
  EXECUTE q;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
  RETURN SQLSTATE || ' ' || SQLERRM || ' (DETAIL: ' || detail || ')';
END$$;
CREATE FUNCTION pg_temp.ok(pass boolean, name text) RETURNS text LANGUAGE sql AS
  $$SELECT CASE WHEN pass THEN 'ok ' ELSE 'not ok ' END || name$$;

-- test_null_to_ulid: assert_eq!(None, Spi::get_one::<ulid>("SELECT NULL::ulid;"))
SELECT pg_temp.ok((SELECT NULL::ulid) IS NULL, 'test_null_to_ulid');

-- test_string_to_ulid: assert_eq!(Some(ulid(INT)), "SELECT '{TEXT}'::ulid;")
SELECT pg_temp.ok(replace((SELECT :'TEXT'::ulid)::uuid::text, '-', '') = :'INT_HEX', 'test_string_to_ulid');

-- test_ulid_to_string: assert_eq!(Some(TEXT), "SELECT '{TEXT}'::ulid::text;")
SELECT pg_temp.ok((SELECT :'TEXT'::ulid::text) = :'TEXT', 'test_ulid_to_string');

-- test_string_to_ulid_lowercase: assert_eq!(Some(ulid(INT)), "SELECT LOWER('{TEXT}')::ulid;")
SELECT pg_temp.ok(replace((SELECT LOWER(:'TEXT')::ulid)::uuid::text, '-', '') = :'INT_HEX', 'test_string_to_ulid_lowercase');

-- test_string_to_ulid_invalid_length: #[should_panic = "invalid input syntax for type ulid:
-- \"01GV5PA9EQG7D82Q3Y4PKBZSY\": invalid length"] on "SELECT '01GV5PA9EQG7D82Q3Y4PKBZSY'::ulid;"
-- (pgrx turns the panic into an ERROR; should_panic asserts that its message contains the string)
SELECT pg_temp.ok(strpos(pg_temp.error_of($q$SELECT '01GV5PA9EQG7D82Q3Y4PKBZSY'::ulid$q$),
  'invalid input syntax for type ulid: "01GV5PA9EQG7D82Q3Y4PKBZSY": invalid length') > 0, 'test_string_to_ulid_invalid_length');

-- test_string_to_ulid_invalid_char: #[should_panic = "invalid input syntax for type ulid:
-- \"01GV5PA9EQG7D82Q3Y4PKBZSYU\": invalid character"] on "SELECT '01GV5PA9EQG7D82Q3Y4PKBZSYU'::ulid;"
SELECT pg_temp.ok(strpos(pg_temp.error_of($q$SELECT '01GV5PA9EQG7D82Q3Y4PKBZSYU'::ulid$q$),
  'invalid input syntax for type ulid: "01GV5PA9EQG7D82Q3Y4PKBZSYU": invalid character') > 0, 'test_string_to_ulid_invalid_char');
-- (what ulid_tsid raises instead, printed for the log: its SQLSTATE, message and detail)
SELECT pg_temp.error_of($q$SELECT '01GV5PA9EQG7D82Q3Y4PKBZSY'::ulid$q$);
SELECT pg_temp.error_of($q$SELECT '01GV5PA9EQG7D82Q3Y4PKBZSYU'::ulid$q$);

-- test_ulid_to_timestamp: assert_eq!(Some(TIMESTAMP), "SELECT '{TEXT}'::ulid::timestamp::text;")
SELECT pg_temp.ok((SELECT :'TEXT'::ulid::timestamp::text) = '2023-03-10 12:00:49.111', 'test_ulid_to_timestamp');

-- test_timestamp_to_ulid: assert_eq!(Some("01GV5PA9EQ0000000000000000"), "SELECT '{TIMESTAMP}'::timestamp::ulid::text;")
SELECT pg_temp.ok((SELECT '2023-03-10 12:00:49.111'::timestamp::ulid::text) = '01GV5PA9EQ0000000000000000', 'test_timestamp_to_ulid');

-- test_ulid_to_uuid: assert_eq!(Some(UUID), "SELECT '{TEXT}'::ulid::uuid::text;")
SELECT pg_temp.ok((SELECT :'TEXT'::ulid::uuid::text) = '0186cb65-25d7-81da-815c-7e25a6bfe7db', 'test_ulid_to_uuid');

-- test_uuid_to_ulid: assert_eq!(Some(ulid(INT)), "SELECT '{UUID}'::uuid::ulid;")
SELECT pg_temp.ok(replace((SELECT '0186cb65-25d7-81da-815c-7e25a6bfe7db'::uuid::ulid)::uuid::text, '-', '') = :'INT_HEX', 'test_uuid_to_ulid');

-- test_generate: assert!(Spi::get_one::<ulid>("SELECT gen_ulid();").is_some())
SELECT pg_temp.ok((SELECT gen_ulid()) IS NOT NULL, 'test_generate');

-- test_hash: Spi::run(...).unwrap(): the statements run without an error (one transaction,
-- as the test's; rolled back so that test_commutator can make the same tables)
SELECT pg_temp.ok(pg_temp.error_of($q$
  CREATE TABLE foo (id ulid, data TEXT);
  CREATE TABLE bar (id ulid, foo_id ulid);
  INSERT INTO foo DEFAULT VALUES;
  INSERT INTO bar DEFAULT VALUES;
  SELECT * FROM bar JOIN foo ON bar.id = foo.id;
  DROP TABLE foo, bar;$q$) = 'no error', 'test_hash');

-- test_commutator: Spi::run(...).unwrap(): the statements run without an error
SELECT pg_temp.ok(pg_temp.error_of($q$
  CREATE TABLE foo (id ulid, data TEXT);
  CREATE TABLE bar (id ulid);
  SELECT * FROM bar JOIN foo ON bar.id = foo.id;
  DROP TABLE foo, bar;$q$) = 'no error', 'test_commutator');
