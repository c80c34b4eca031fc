-- Text input and output of ulid.

-- The spec's example, and what it decodes to (hand-computed: 48-bit ms 1469922850259).
SELECT '01ARZ3NDEKTSV4RRFFQ69G5FAV'::ulid;
SELECT ulid_timestamp('01ARZ3NDEKTSV4RRFFQ69G5FAV') AT TIME ZONE 'UTC' AS created_utc;

-- Case-insensitive, Crockford aliases I/L -> 1 and O -> 0; output is canonical.
SELECT '01arz3ndektsv4rrffq69g5fav'::ulid;
SELECT 'OLARZ3NDEKTSV4RRFFQ69G5FAV'::ulid, 'oiarz3ndektsv4rrffq69g5fav'::ulid;

-- Every symbol of the alphabet in every position class survives a round trip.
SELECT '0123456789ABCDEFGHJKMNPQRS'::ulid, '7VWXYZ0123456789abcdefghjk'::ulid;

-- The smallest and the largest value.
SELECT '00000000000000000000000000'::ulid, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid;

-- Every error is 22P02 and names the input.
SELECT regress_try(format('SELECT %L::ulid', t)) FROM (VALUES
  ('80000000000000000000000000'),      -- one above the maximum
  ('ZZZZZZZZZZZZZZZZZZZZZZZZZZ'),
  ('01ARZ3NDEKTSV4RRFFQ69G5FA'),       -- 25 characters
  ('01ARZ3NDEKTSV4RRFFQ69G5FAVX'),     -- 27 characters
  (''),
  ('01ARZ3NDEKTSV4RRFFQ69G5FAU'),      -- U is not in the alphabet
  ('01ARZ3NDEK-SV4RRFFQ69G5FAV'),      -- punctuation
  (' 01ARZ3NDEKTSV4RRFFQ69G5FAV'),     -- leading space
  ('01ARZ3NDEKTSV4RRFFQ69G5FA '),      -- trailing space
  ('01ARZ3NDEKTSV4RRFFQ69G5FÁ'),       -- non-ASCII
  ('01563e3a-b5d3-d676-4c61-efb99302bd5b')  -- a uuid's text is not a ulid's
) AS v(t);

-- The plain error as a client sees it.
SELECT 'not-a-ulid'::ulid;

-- In a table, through COPY text format.
CREATE TABLE ulid_io_t (id ulid);
COPY ulid_io_t FROM stdin;
01ARZ3NDEKTSV4RRFFQ69G5FAV
01arz3ndektsv4rrffq69g5faw
\.
SELECT id FROM ulid_io_t ORDER BY id;
DROP TABLE ulid_io_t;

-- Binary send/receive is the 16 raw bytes: the same as the uuid of the same bytes.
SELECT ulid_send('01ARZ3NDEKTSV4RRFFQ69G5FAV') = uuid_send('01563e3a-b5d3-d676-4c61-efb99302bd5b');
