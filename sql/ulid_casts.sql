-- Casts between ulid and uuid, text, bytea and timestamptz.

-- ulid <-> uuid: the same 16 bytes, as the reference implementation's conversion.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid;
SELECT '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid::ulid;
SELECT castcontext, castmethod FROM pg_cast
WHERE castsource = 'ulid'::regtype AND casttarget = 'uuid'::regtype;

-- Round trips over many random values; ulid order is uuid order of the same bytes.
CREATE TEMP TABLE cast_sample AS SELECT gen_random_uuid() AS u FROM generate_series(1, 5000);
SELECT count(*) FILTER (WHERE u::ulid::uuid <> u) AS uuid_mismatches,
       count(*) FILTER (WHERE u::ulid::text::ulid <> u::ulid) AS text_mismatches,
       count(*) FILTER (WHERE u::ulid::bytea::ulid <> u::ulid) AS bytea_mismatches
FROM cast_sample;
SELECT count(*) AS order_mismatches FROM (
  SELECT row_number() OVER (ORDER BY u) AS by_uuid, row_number() OVER (ORDER BY u::ulid) AS by_ulid
  FROM cast_sample) s
WHERE by_uuid <> by_ulid;

-- Assignment casts: a ulid goes into a uuid column and back without a cast.
CREATE TEMP TABLE cast_u (u uuid, l ulid, t text);
INSERT INTO cast_u VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid,
                           '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid);
SELECT * FROM cast_u;
-- No implicit cast, but cross-type operators (sql/cross_types.sql): a uuid
-- parameter compares with a ulid as the same bytes.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid;
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::uuid = '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid;

-- bytea: exactly 16 bytes.
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::bytea;
SELECT '\x01563e3ab5d3d6764c61efb99302bd5b'::bytea::ulid;
SELECT regress_try(format('SELECT %L::bytea::ulid', b)) FROM (VALUES
  ('\x'), ('\x01563e3ab5d3d6764c61efb99302bd'), ('\x01563e3ab5d3d6764c61efb99302bd5b00')) v(b);

-- timestamptz: the ulid's millisecond; the other way, the smallest ulid of it.
SET timezone = 'UTC';
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid::timestamptz;
SELECT '2016-07-30 23:54:10.259999+00'::timestamptz::ulid;
SELECT ulid_lower_bound('2016-07-30 23:54:10.259+00'), ulid_upper_bound('2016-07-30 23:54:10.259+00');
SELECT ulid_lower_bound('1970-01-01 00:00:00+00'), ulid_upper_bound('10889-08-02 05:31:50.655+00');
SELECT '10889-08-02 05:31:50.655+00'::timestamptz::ulid::timestamptz;
SELECT regress_try(format('SELECT ulid_lower_bound(%L)', t)) FROM (VALUES
  ('1969-12-31 23:59:59.999+00'), ('10889-08-02 05:31:50.656+00'), ('infinity'), ('-infinity')) v(t);
SELECT regress_try($$SELECT '-infinity'::timestamptz::ulid$$);
RESET timezone;

-- timestamp (without time zone), read as UTC whatever the session's TimeZone,
-- as pgx_ulid and pg-ulid cast it; the same range and errors as timestamptz.
SET TimeZone = 'America/New_York';
SELECT '01GV5PA9EQG7D82Q3Y4PKBZSYV'::ulid::timestamp AS as_utc,
       '01GV5PA9EQG7D82Q3Y4PKBZSYV'::ulid::timestamp = ('01GV5PA9EQG7D82Q3Y4PKBZSYV'::ulid::timestamptz AT TIME ZONE 'UTC') AS same_instant;
SELECT '2023-03-13 12:34:56.789'::timestamp::ulid AS lower_bound,
       '2023-03-13 12:34:56.789'::timestamp::ulid = ulid_lower_bound('2023-03-13 12:34:56.789+00') AS same_as_timestamptz;
SELECT '10889-08-02 05:31:50.655'::timestamp::ulid::timestamp AS last_millisecond;
SELECT split_part(regress_try(format('SELECT %L::timestamp::ulid', t)), ':', 1) AS sqlstate
FROM (VALUES ('1969-12-31 23:59:59.999'), ('infinity'), ('-infinity')) v(t);
RESET TimeZone;
