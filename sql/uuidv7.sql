-- generate_uuidv7() on the core uuid type, its bounds, the extension's uuid_extract_*()
-- (called by their schema: from 17 on, an unqualified call finds core's), and what
-- core's uuid_extract_timestamp() answers for a version-7 UUID on each major.
SET timezone = 'UTC';

-- RFC 9562 appendix A: the v7 example 017F22E2-79B0-7CC3-98C4-DC0C0C07398F and the v1
-- example C232AB00-9414-11EC-B3C8-9F6BDECED846 are both Tuesday 2022-02-22 14:22:22 -05:00.
SELECT public.uuid_extract_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS v7_time,
       public.uuid_extract_version('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS v7_version,
       uuidv7_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS uuidv7_timestamp;
SELECT public.uuid_extract_timestamp('C232AB00-9414-11EC-B3C8-9F6BDECED846') AS v1_time,
       public.uuid_extract_version('C232AB00-9414-11EC-B3C8-9F6BDECED846') AS v1_version,
       uuidv7_timestamp('C232AB00-9414-11EC-B3C8-9F6BDECED846') IS NULL AS uuidv7_timestamp_v1_null;
-- NULL for versions without a timestamp and for other variants.
SELECT public.uuid_extract_timestamp(gen_random_uuid()) IS NULL AS v4_no_time,
       public.uuid_extract_version(gen_random_uuid()) AS v4_version,
       public.uuid_extract_version('017F22E2-79B0-7CC3-18C4-DC0C0C07398F') IS NULL AS ncs_variant;

-- Core's pg_catalog.uuid_extract_timestamp() (17 on) shadows ours in an unqualified
-- call. 17's reads version 1 only: NULL for version 7 (18 added 7). Each row holds on
-- the major it names and is vacuously true on the others; ours and uuidv7_timestamp()
-- give the time everywhere.
CREATE FUNCTION pg_temp.core_extract(u uuid) RETURNS timestamptz LANGUAGE plpgsql AS $$
BEGIN
  RETURN pg_catalog.uuid_extract_timestamp(u);   -- resolved when called, so never before 17
END $$;
WITH s(major, has_core) AS (
       SELECT current_setting('server_version_num')::int / 10000,
              to_regprocedure('pg_catalog.uuid_extract_timestamp(uuid)') IS NOT NULL),
     k(v7, v1, t) AS (VALUES ('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid,
                              'C232AB00-9414-11EC-B3C8-9F6BDECED846'::uuid, timestamptz '2022-02-22 19:22:22Z'))
SELECT 'before 17: no core function, an unqualified call is ours' AS on_major,
       CASE WHEN major >= 17 THEN true ELSE NOT has_core AND uuid_extract_timestamp(v7) = t END AS holds FROM s, k
UNION ALL
SELECT '17: core''s answers NULL for v7 (the time for v1), and so does an unqualified call',
       CASE WHEN major <> 17 THEN true
            ELSE has_core AND pg_temp.core_extract(v7) IS NULL AND uuid_extract_timestamp(v7) IS NULL
                 AND pg_temp.core_extract(v1) = t END FROM s, k
UNION ALL
SELECT '18 on: core''s answers the time for v7',
       CASE WHEN major < 18 THEN true
            ELSE has_core AND pg_temp.core_extract(v7) = t AND uuid_extract_timestamp(v7) = t END FROM s, k
UNION ALL
SELECT 'every major: public.uuid_extract_timestamp() and uuidv7_timestamp() answer the time',
       public.uuid_extract_timestamp(v7) = t AND uuidv7_timestamp(v7) = t FROM s, k;
-- Core's uuid_extract_version() (17 on) answers as ours for every version and variant.
CREATE FUNCTION pg_temp.core_version(u uuid) RETURNS smallint LANGUAGE plpgsql AS $$
BEGIN
  RETURN pg_catalog.uuid_extract_version(u);
END $$;
SELECT bool_and(CASE WHEN to_regprocedure('pg_catalog.uuid_extract_version(uuid)') IS NULL THEN true
                     ELSE pg_temp.core_version(u) IS NOT DISTINCT FROM public.uuid_extract_version(u) END)
         AS core_version_as_ours    -- (vacuously true before 17)
FROM (VALUES ('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid), ('C232AB00-9414-11EC-B3C8-9F6BDECED846'),
             (gen_random_uuid()), ('017F22E2-79B0-7CC3-18C4-DC0C0C07398F'), ('017F22E2-79B0-7CC3-D8C4-DC0C0C07398F'),
             ('017F22E2-79B0-7CC3-F8C4-DC0C0C07398F'), ('00000000-0000-0000-0000-000000000000'),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff'), ('1EC9414C-232A-6B00-B3C8-9F6BDECED846')) v(u);

-- The fraction follows the clock: a value made now has rand_a = 4096ths of its
-- millisecond. Most of 200 samples land within 2 us (8/4096 ms) of
-- clock_timestamp() read just before; a preempted sample may not.
SELECT count(*) FILTER (WHERE least(d, 4096 - d) <= 8) > 100 AS fraction_near_clock  -- distance on the 4096 circle
FROM (SELECT abs(((get_byte(uuid_send(u), 6) & 15) << 8 | get_byte(uuid_send(u), 7))
                 - floor((extract(microseconds FROM t)::bigint % 1000) * 4.096)::int) AS d
      FROM (SELECT clock_timestamp() AS t, generate_uuidv7() AS u FROM generate_series(1, 200)) s) f;

-- A million values from one session: version 7, variant 10, strictly increasing
-- (so distinct), within a second of the clock; rand_b is fresh in every value.
-- One pass over them.
CREATE TEMP TABLE gen AS
  SELECT n, generate_uuidv7() AS id, clock_timestamp() AS made_at FROM generate_series(1, 1000000) n;
SELECT count(*) AS n,
       count(*) FILTER (WHERE prev >= id) AS not_increasing,
       count(*) FILTER (WHERE public.uuid_extract_version(id) <> 7) AS wrong_version,
       count(*) FILTER (WHERE get_byte(b, 8) >> 6 <> 2) AS wrong_variant,
       count(*) FILTER (WHERE abs(extract(epoch FROM uuidv7_timestamp(id) - made_at)) >= 1) AS off_clock,
       bool_and(substr(b, 9) <> substr(pb, 9)) AS fresh_random
FROM (SELECT id, made_at, prev, uuid_send(id) AS b, uuid_send(prev) AS pb
      FROM (SELECT id, made_at, lag(id) OVER (ORDER BY n) AS prev FROM gen) l) s;
DROP TABLE gen;
-- rand_a carries the sub-millisecond time, and a burst steps it by one 4096th
-- (244 ns): two calls in one row are mostly closer than that, where a value a row
-- (about 1 us apart) stepped by exactly one only by chance (the Debian build's test
-- once saw none in a million).
SELECT count(*) FILTER (WHERE substr(b, 1, 6) = substr(a, 1, 6)
                          AND ((get_byte(b, 6) & 15) << 8 | get_byte(b, 7)) = ((get_byte(a, 6) & 15) << 8 | get_byte(a, 7)) + 1)
         > 0 AS steps_of_one
FROM (SELECT uuid_send(generate_uuidv7()) AS a, uuid_send(generate_uuidv7()) AS b FROM generate_series(1, 10000)) s;

-- Shifted: the timestamp moves by the interval (as PostgreSQL 18's uuidv7(interval)).
SELECT abs(extract(epoch FROM uuidv7_timestamp(generate_uuidv7(interval '-1 day')) - (clock_timestamp() - interval '1 day'))) < 1 AS minus_day,
       abs(extract(epoch FROM uuidv7_timestamp(generate_uuidv7(interval '3 years 2 months')) - (clock_timestamp() + interval '3 years 2 months'))) < 1 AS plus_years,
       public.uuid_extract_version(generate_uuidv7(interval '1 hour')) AS version;
SELECT split_part(regress_try(format('SELECT generate_uuidv7(%L::interval)', i)), ':', 1) AS sqlstate,
       regress_try(format('SELECT generate_uuidv7(%L::interval)', i)) LIKE '%out of range for uuidv7%' AS says_why
FROM (VALUES ('-100 years'), ('9000 years')) v(i);
SELECT regress_try('SELECT generate_uuidv7(interval ''1000000000 years'')') LIKE '22008:%' AS overflow_is_postgres_own;
-- Past 2262 (where nanoseconds since 1970 no longer fit 64 bits) and within a
-- second of both ends of the range.
SELECT abs(extract(epoch FROM uuidv7_timestamp(generate_uuidv7(interval '300 years'))
                             - (clock_timestamp() + interval '300 years'))) < 1 AS plus_300_years,
       abs(extract(epoch FROM uuidv7_timestamp(generate_uuidv7(interval '5000 years'))
                             - (clock_timestamp() + interval '5000 years'))) < 1 AS plus_5000_years,
       abs(extract(epoch FROM uuidv7_timestamp(generate_uuidv7(timestamptz '10889-08-02 05:31:50Z' - clock_timestamp()))
                             - timestamptz '10889-08-02 05:31:50Z')) < 1 AS last_second,
       abs(extract(epoch FROM uuidv7_timestamp(generate_uuidv7(timestamptz '1970-01-01 00:00:01Z' - clock_timestamp()))
                             - timestamptz '1970-01-01 00:00:01Z')) < 1 AS first_second;

-- Bounds of a millisecond: every v7 UUID of it lies between them.
SELECT uuidv7_lower_bound('2022-02-22 19:22:22Z'), uuidv7_upper_bound('2022-02-22 19:22:22Z');
SELECT '017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid
         BETWEEN uuidv7_lower_bound('2022-02-22 19:22:22Z') AND uuidv7_upper_bound('2022-02-22 19:22:22Z') AS inside;
SELECT regress_try(format('SELECT uuidv7_lower_bound(%L)', t)) FROM (VALUES ('1969-12-31 23:59:59.999Z'), ('infinity')) v(t);

-- Time-window index scans on a uuid key.
CREATE TABLE v7_t (id uuid PRIMARY KEY DEFAULT generate_uuidv7(), n int);
INSERT INTO v7_t (n) SELECT n FROM generate_series(1, 1000) n;
INSERT INTO v7_t (id, n) SELECT generate_uuidv7(-n * interval '1 hour'), -n FROM generate_series(1, 48) n;
ANALYZE v7_t;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM v7_t
WHERE id >= uuidv7_lower_bound(now() - interval '1 day') AND id < uuidv7_lower_bound(now() + interval '1 minute');
RESET enable_seqscan;
SELECT count(*) FROM v7_t
WHERE id >= uuidv7_lower_bound(now() - interval '1 day' + interval '30 minutes')
  AND id < uuidv7_lower_bound(now() + interval '1 minute');
DROP TABLE v7_t;

-- Conversions: a v7 UUID becomes a ulid with the same timestamp and the same order;
-- ulid -> uuid keeps all 128 bits (the version bits are whatever the ulid had).
SELECT ulid_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F'::uuid::ulid) AS as_ulid_time;
CREATE TEMP TABLE conv AS SELECT n, generate_uuidv7() AS u FROM generate_series(1, 10000) n;
SELECT count(*) FILTER (WHERE ulid_timestamp(u::ulid) <> uuidv7_timestamp(u)) AS time_changed,
       count(*) FILTER (WHERE u::ulid::uuid <> u) AS bits_changed FROM conv;
SELECT count(*) AS order_mismatches FROM (
  SELECT row_number() OVER (ORDER BY u) a, row_number() OVER (ORDER BY u::ulid) b FROM conv) s WHERE a <> b;
DROP TABLE conv;

-- The extension's uuidv7() and uuid_extract_*() by their schema, as a dump of
-- an older server names them: the same generator as generate_uuidv7().
SELECT uuid_extract_version(public.uuidv7()) AS v, public.uuid_extract_version(public.uuidv7(interval '1 day')) AS v_shifted,
       public.uuid_extract_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS v7_time;
SELECT count(*) AS not_increasing FROM (
  SELECT u, lag(u) OVER (ORDER BY n) AS prev FROM (
    SELECT n, CASE WHEN n % 2 = 0 THEN public.uuidv7() ELSE generate_uuidv7() END AS u
    FROM generate_series(1, 10000) n) g) s WHERE prev >= u;

SELECT proname, pronargs, provolatile, proparallel FROM pg_proc
WHERE proname IN ('generate_uuidv7', 'uuidv7', 'uuidv7_lower_bound', 'uuid_extract_timestamp', 'uuid_extract_version')
  AND pronamespace = 'public'::regnamespace ORDER BY 1, 2;
RESET timezone;
