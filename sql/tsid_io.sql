-- Text input/output, casts and decoding of tsid.
SET timezone = 'UTC';

-- Hand-computed: 2024-01-01T00:00:00Z is 126230400000 ms after the TSID epoch;
-- shifted left 22, node 1 and counter 2 (10 node bits) give 529448671641604098.
SELECT '0EP7TRC000402'::tsid, '0EP7TRC000402'::tsid::bigint;
SELECT 529448671641604098::bigint::tsid;
SELECT tsid_timestamp('0EP7TRC000402'), tsid_node('0EP7TRC000402', 10), tsid_counter('0EP7TRC000402', 10);
SELECT tsid_node('0EP7TRC000402', 12), tsid_counter('0EP7TRC000402', 12), tsid_node('0EP7TRC000402', 0),
       tsid_counter('0EP7TRC000402', 0);
-- The widely copied PL/pgSQL generate_tsid() layout ((ms since 2020) << 22 | ...) decodes here too
-- (a bigint key passes through ::tsid, which costs nothing).
SELECT tsid_timestamp(((((extract(epoch FROM timestamptz '2025-06-01 12:34:56.789Z') * 1000)::bigint
                         - 1577836800000) << 22) | 4095)::tsid);

-- Case-insensitive, Crockford aliases; exactly 13 characters, as tsid-creator's TSID.from.
SELECT '0ep7trc000402'::tsid, 'OEP7TRCOOO4O2'::tsid;
SELECT '0000000000001'::tsid::bigint, '000000000000Z'::tsid::bigint, '000000000000i'::tsid::bigint,
       '000000000000L'::tsid::bigint;
-- 0.2.0 read shorter text as if leading zeros were dropped, so '12345' became
-- 1117317. Shorter text is refused now, and decimal text gets a hint.
SELECT regress_try(format('SELECT %L::tsid', t), true) FROM (VALUES
  ('EP7TRC000402'), ('1'), ('12345'), ('915268788478279683'), ('-1'), ('+42')) v(t);
-- The TSID article's URLs drop the leading 0 ('E34NNFRTCQ15' for 0E34NNFRTCQ15,
-- 2023-11-02): still refused, and the hint gives the 13 characters and their
-- time. Twelve decimal digits keep the decimal hint; a non-symbol gets neither.
SELECT regress_try(format('SELECT %L::tsid', t), true) FROM (VALUES
  ('E34NNFRTCQ15'), ('dxzbe2d7tbo4'), ('123456789012'), ('E34NNFRTCQ1U'), ('E34NNFRTCQ1')) v(t);
SELECT ('0' || 'E34NNFRTCQ15')::tsid AS restored, ('0' || 'E34NNFRTCQ15')::tsid::timestamptz AS made_at;
SELECT '915268788478279683'::bigint::tsid, '915268788478279683'::bigint::tsid::bigint;
SELECT '0000000000000'::tsid::bigint, '7ZZZZZZZZZZZZ'::tsid::bigint;
-- The full 64 bits: the sign bit set reads as a negative bigint, order stays signed.
SELECT '8000000000000'::tsid::bigint, 'FZZZZZZZZZZZZ'::tsid::bigint, (-1)::bigint::tsid;
SELECT tsid_timestamp('7ZZZZZZZZZZZZ'), tsid_timestamp('8000000000000'), tsid_timestamp('FZZZZZZZZZZZZ');

SELECT regress_try(format('SELECT %L::tsid', t)) FROM (VALUES
  ('G000000000000'),   -- more than 64 bits
  ('ZZZZZZZZZZZZZ'),
  ('00000000000000'),  -- 14 characters
  (''),
  ('0EP7TRC00040U'),   -- U
  ('0EP7-TRC00040'),   -- punctuation
  ('0EP7TRC00040 '),   -- space
  ('-1'),
  ('0EP7TRC0004é')     -- non-ASCII
) v(t);

-- Binary I/O is int8's.
SELECT tsid_send('0EP7TRC000402') = int8send(529448671641604098);

-- Casts: bigint <-> tsid binary-coercible, assignment both ways; text; timestamptz.
SELECT castsource::regtype, casttarget::regtype, castcontext, castmethod FROM pg_cast
WHERE (castsource, casttarget) IN (('tsid'::regtype, 'int8'::regtype), ('int8'::regtype, 'tsid'::regtype))
ORDER BY castsource::regtype::text;
SELECT '0EP7TRC000402'::tsid::text, '0EP7TRC000402'::text::tsid, '0EP7TRC000402'::tsid::timestamptz;
SELECT '0EP7TRC000402'::tsid = 529448671641604098::bigint, 529448671641604098 = '0EP7TRC000402'::tsid;
-- timestamptz -> tsid: the smallest tsid of the millisecond, like timestamptz -> ulid.
SELECT '2024-01-01 00:00:00.0009Z'::timestamptz::tsid = tsid_lower_bound('2024-01-01 00:00:00Z'),
       '2024-01-01 00:00:00.0009Z'::timestamptz::tsid::timestamptz;
SELECT regress_try(format('SELECT %L::timestamptz::tsid', t)) FROM (VALUES
  ('2019-12-31 23:59:59.999Z'), ('2159-05-15 07:35:11.104Z'), ('infinity')) v(t);
SELECT castcontext, castmethod, castfunc::regproc FROM pg_cast
WHERE castsource = 'timestamptz'::regtype AND casttarget = 'tsid'::regtype;

-- Bounds of a millisecond, and their errors.
SELECT tsid_lower_bound('2024-01-01 00:00:00.0009Z'), tsid_upper_bound('2024-01-01 00:00:00Z');
SELECT tsid_lower_bound('2020-01-01 00:00:00Z')::bigint, tsid_upper_bound('2159-05-15 07:35:11.103Z')::bigint;
SELECT regress_try(format('SELECT tsid_lower_bound(%L)', t)) FROM (VALUES
  ('2019-12-31 23:59:59.999Z'), ('2159-05-15 07:35:11.104Z'), ('infinity'), ('-infinity')) v(t);
SELECT regress_try('SELECT tsid_node(''0EP7TRC000402'', 21)'), regress_try('SELECT tsid_counter(''0EP7TRC000402'', -1)');
RESET timezone;
