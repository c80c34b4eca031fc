-- Hostile input: every malformed form gets its documented ERROR and SQLSTATE,
-- nothing is written, and the backend stays up.
SET timezone = 'UTC';
CREATE TABLE hostile_ulid (id ulid PRIMARY KEY);
CREATE TABLE hostile_tsid (id tsid PRIMARY KEY);

-- Over-long, empty, NUL-free garbage and control characters as text.
SELECT left(regress_try(format('SELECT %L::ulid', t)), 60) AS ulid_error,
       left(regress_try(format('SELECT %L::tsid', t)), 60) AS tsid_error
FROM (VALUES (repeat('0', 100000)), (repeat('Z', 27)), (''), (E'\t'), (E'01ARZ3NDEKTSV4RRFFQ69G5FA\n'),
             (E'\x01\x02'), ('０１ＡＲＺ'), (repeat('é', 13)), ('NaN'), ('NULL')) v(t);
-- ('NaN' is a valid short tsid: N, A and N are Crockford symbols.)

-- Text through COPY: one bad line fails the whole COPY and nothing is written.
COPY hostile_ulid FROM stdin;
01ARZ3NDEKTSV4RRFFQ69G5FAV
01ARZ3NDEKTSV4RRFFQ69G5FAU
\.
SELECT count(*) AS rows_after_bad_copy FROM hostile_ulid;

-- Binary garbage through recv: COPY BINARY files whose fields have the wrong length.
-- A bytea column of a given length is written in binary, then read back as ulid/tsid.
CREATE TABLE hostile_raw (b bytea);
CREATE FUNCTION pg_temp.copy_binary_as(target regclass, raw bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  path text := '/tmp/ulid_tsid_regress_' || pg_backend_pid() || '.bin';
BEGIN
  TRUNCATE hostile_raw;
  INSERT INTO hostile_raw VALUES (raw);
  EXECUTE format('COPY hostile_raw TO %L (FORMAT binary)', path);
  RETURN regress_try(format('COPY %s FROM %L (FORMAT binary)', target, path));
END $$;
SELECT length(raw) AS bytes, left(pg_temp.copy_binary_as('hostile_ulid', raw), 70) AS as_ulid,
       left(pg_temp.copy_binary_as('hostile_tsid', raw), 70) AS as_tsid
FROM (VALUES (''::bytea), ('\x00'), (decode(repeat('ff', 7), 'hex')), (decode(repeat('ab', 8), 'hex')),
             (decode(repeat('cd', 9), 'hex')), (decode(repeat('ef', 15), 'hex')),
             (decode(repeat('01', 16), 'hex')), (decode(repeat('02', 17), 'hex'))) v(raw);
-- Only the two well-formed files were written: 16 bytes as ulid, 8 bytes as tsid.
SELECT (SELECT count(*) FROM hostile_ulid) AS ulid_rows, (SELECT count(*) FROM hostile_tsid) AS tsid_rows;
SELECT id FROM hostile_ulid;
SELECT id, id::bigint FROM hostile_tsid;

-- Extreme timestamps in every function that takes one.
SELECT f, left(regress_try(format('SELECT %s(%L::timestamptz)', f, t)), 55) AS result
FROM (VALUES ('ulid_lower_bound'), ('ulid_upper_bound'), ('tsid_lower_bound'), ('tsid_upper_bound'),
             ('uuidv7_lower_bound'), ('uuidv7_upper_bound')) fn(f),
     (VALUES ('infinity'), ('-infinity'), ('4713-01-01 00:00:00+00 BC'), ('294276-12-31 23:59:59+00'),
             ('1969-12-31 23:59:59.999999+00'), ('2019-12-31 23:59:59.999999+00')) ts(t)
ORDER BY 1, 2;
SELECT split_part(regress_try(format('SELECT generate_uuidv7(%L::interval)', i)), ': "', 1) AS shifted
FROM (VALUES ('-60 years'), ('178000000 years'), ('-178000000 years')) v(i);
SELECT left(regress_try(format('SELECT %L::timestamptz::ulid', t)), 55) AS cast_result
FROM (VALUES ('infinity'), ('1900-01-01Z')) v(t);
-- The whole message (the queries above cut it): the range a DETAIL gives is the
-- one the function takes, whatever the argument, also where that range reaches
-- past timestamptz's own (the mark's: any time from 1970 on).
SELECT f, t, regress_try(format('SELECT %s(%L::timestamptz)', f, t)) AS result
FROM (VALUES ('ulid_tsid_mark_raise'), ('ulid_tsid_mark_reset'), ('ulid_upper_bound'), ('tsid_lower_bound'),
             ('uuidv7_upper_bound')) fn(f),
     (VALUES ('infinity'), ('-infinity'), ('1969-12-31 23:59:59.999999+00')) ts(t)
ORDER BY 1, 2;
-- A timestamp (without time zone) is shown as one, in its message and range,
-- whatever the session's TimeZone.
SET timezone = 'America/New_York';
SELECT t, regress_try(format('SELECT %L::timestamp::ulid', t)) AS timestamp_cast
FROM (VALUES ('infinity'), ('-infinity'), ('1969-12-31 23:59:59.999'), ('10889-08-02 05:31:50.656')) v(t);
SELECT regress_try($$SELECT '1969-12-31 23:59:59.999+00'::timestamptz::ulid$$) AS timestamptz_cast;
SET timezone = 'UTC';

-- Out-of-range and malformed settings: ALTER SYSTEM checks a value before it
-- writes anything (it cannot run inside regress_try's function).
LOAD 'ulid_tsid';
ALTER SYSTEM SET ulid_tsid.node_id = 1048576;
ALTER SYSTEM SET ulid_tsid.node_id = -5;
ALTER SYSTEM SET ulid_tsid.node_id = 'abc';
ALTER SYSTEM SET ulid_tsid.node_id = '7x';
ALTER SYSTEM SET ulid_tsid.node_id = '';
ALTER SYSTEM SET ulid_tsid.node_bits = 21;
ALTER SYSTEM SET ulid_tsid.node_bits = -1;
SELECT count(*) AS written FROM pg_file_settings WHERE name LIKE 'ulid_tsid.%';
SELECT left(regress_try(format('SELECT tsid_node(%L::tsid, %s)', 'FZZZZZZZZZZZZ', b)), 70) AS node_bits_arg
FROM (VALUES (-1), (21), (2147483647)) v(b);

-- Nothing above took the backend down.
SELECT 'still here' AS backend;
DROP TABLE hostile_ulid, hostile_tsid, hostile_raw;
RESET timezone;
