-- The ulid generators.

-- 200,000 values from one session: strictly increasing (so distinct), their
-- timestamps the real clock's (within a second); the last 8 bytes are random: no
-- plain +1 stream, and their bits are balanced. One pass over them.
CREATE TEMP TABLE gen AS
  SELECT n, generate_ulid() AS id, clock_timestamp() AS made_at FROM generate_series(1, 200000) n;
SELECT count(*) AS n,
       count(*) FILTER (WHERE prev >= id) AS not_increasing,
       count(*) FILTER (WHERE abs(extract(epoch FROM ulid_timestamp(id) - made_at)) >= 1) AS off_clock,
       count(*) FILTER (WHERE substr(id::bytea, 9, 8) = substr(prev::bytea, 9, 8)) AS repeated_tails,
       round(avg(get_bit(substr(id::bytea, 9, 8), 5))::numeric, 1) AS bit_mean
FROM (SELECT id, made_at, lag(id) OVER (ORDER BY n) AS prev FROM gen) s;
SELECT abs(extract(epoch FROM ulid_timestamp(generate_ulid()) - clock_timestamp())) < 1 AS near_clock;
DROP TABLE gen;

-- Monotonic mode: strictly increasing (so distinct); within a millisecond, the
-- previous value plus one, and most consecutive pairs share a millisecond.
CREATE TEMP TABLE mono AS SELECT n, generate_ulid_monotonic() AS id FROM generate_series(1, 200000) n;
SELECT count(*) FILTER (WHERE prev >= id) AS not_increasing,
       count(*) FILTER (WHERE ulid_timestamp(id) = ulid_timestamp(prev)) > 100000 AS many_same_ms,
       bool_and(('x' || right(encode(id::bytea, 'hex'), 15))::bit(60)::int8
                - ('x' || right(encode(prev::bytea, 'hex'), 15))::bit(60)::int8 = 1)
         FILTER (WHERE ulid_timestamp(id) = ulid_timestamp(prev)
                 AND right(encode(prev::bytea, 'hex'), 15) <> 'fffffffffffffff') AS plus_one
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM mono) s;
DROP TABLE mono;

-- Generators are volatile and parallel restricted; extractors immutable.
SELECT proname, provolatile, proparallel, proisstrict FROM pg_proc
WHERE proname IN ('generate_ulid', 'generate_ulid_monotonic', 'ulid_timestamp', 'ulid_lower_bound')
ORDER BY proname;

-- As a column default.
CREATE TABLE gen_default (id ulid PRIMARY KEY DEFAULT generate_ulid(), v text);
INSERT INTO gen_default (v) SELECT 'row ' || n FROM generate_series(1, 1000) n;
SELECT count(*), count(DISTINCT id) FROM gen_default;
DROP TABLE gen_default;
