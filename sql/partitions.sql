-- Range partitions by time on every key kind: bounds from *_lower_bound() leave
-- no gap and no overlap, rows at boundary instants land where they belong, and
-- a time predicate on the key prunes partitions.
SET timezone = 'UTC';

-- ulid, by day.
CREATE TABLE ev_ulid (id ulid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE ev_ulid_d1 PARTITION OF ev_ulid FOR VALUES FROM (ulid_lower_bound('2024-01-01')) TO (ulid_lower_bound('2024-01-02'));
CREATE TABLE ev_ulid_d2 PARTITION OF ev_ulid FOR VALUES FROM (ulid_lower_bound('2024-01-02')) TO (ulid_lower_bound('2024-01-03'));
INSERT INTO ev_ulid VALUES
  (ulid_lower_bound('2024-01-01 00:00:00')),                  -- first key of day 1
  (ulid_upper_bound('2024-01-01 23:59:59.999')),              -- last key of day 1
  (ulid_lower_bound('2024-01-02 00:00:00')),                  -- first key of day 2
  (ulid_upper_bound('2024-01-02 23:59:59.999')),              -- last key of day 2
  -- random tails at the boundary milliseconds (the known bug elsewhere: bounds built
  -- from random low bits leave part of a millisecond out)
  ((substr(ulid_lower_bound('2024-01-01 23:59:59.999')::text, 1, 10) || substr(gen_random_uuid()::ulid::text, 11))::ulid),
  ((substr(ulid_lower_bound('2024-01-02 00:00:00')::text, 1, 10) || substr(gen_random_uuid()::ulid::text, 11))::ulid);
SELECT tableoid::regclass AS part, ulid_timestamp(id) AS at, count(*) FROM ev_ulid GROUP BY 1, 2 ORDER BY 2;
SELECT regress_try($$INSERT INTO ev_ulid VALUES (ulid_lower_bound('2024-01-03'))$$) AS outside;

-- tsid, by day; and the same bounds as bigint for a bigint key.
SELECT tsid_lower_bound('2024-01-02')::bigint - tsid_lower_bound('2024-01-01')::bigint AS one_day,
       86400000::bigint << 22 AS ms_per_day_shifted;
CREATE TABLE ev_tsid (id tsid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE ev_tsid_d1 PARTITION OF ev_tsid FOR VALUES FROM (tsid_lower_bound('2024-01-01')) TO (tsid_lower_bound('2024-01-02'));
CREATE TABLE ev_tsid_d2 PARTITION OF ev_tsid FOR VALUES FROM (tsid_lower_bound('2024-01-02')) TO (tsid_lower_bound('2024-01-03'));
INSERT INTO ev_tsid VALUES (tsid_lower_bound('2024-01-01')), (tsid_upper_bound('2024-01-01 23:59:59.999')),
                           (tsid_lower_bound('2024-01-02')), ((tsid_lower_bound('2024-01-02 23:59:59.999')::bigint + 12345)::tsid);
SELECT tableoid::regclass AS part, tsid_timestamp(id) AS at FROM ev_tsid ORDER BY id;
CREATE TABLE ev_bigint (id bigint PRIMARY KEY DEFAULT generate_tsid()) PARTITION BY RANGE (id);
CREATE TABLE ev_bigint_d1 PARTITION OF ev_bigint
  FOR VALUES FROM (tsid_lower_bound('2024-01-01')::bigint) TO (tsid_lower_bound('2024-01-02')::bigint);
INSERT INTO ev_bigint VALUES (tsid_upper_bound('2024-01-01 23:59:59.999')::bigint);
SELECT regress_try($$INSERT INTO ev_bigint VALUES (tsid_lower_bound('2024-01-02')::bigint)$$) AS next_day_outside;

-- uuid (v7), by day.
CREATE TABLE ev_uuid (id uuid PRIMARY KEY) PARTITION BY RANGE (id);
CREATE TABLE ev_uuid_d1 PARTITION OF ev_uuid FOR VALUES FROM (uuidv7_lower_bound('2024-01-01')) TO (uuidv7_lower_bound('2024-01-02'));
CREATE TABLE ev_uuid_d2 PARTITION OF ev_uuid FOR VALUES FROM (uuidv7_lower_bound('2024-01-02')) TO (uuidv7_lower_bound('2024-01-03'));
INSERT INTO ev_uuid VALUES (uuidv7_upper_bound('2024-01-01 23:59:59.999')), (uuidv7_lower_bound('2024-01-02'));
SELECT tableoid::regclass AS part, uuidv7_timestamp(id) AS at FROM ev_uuid ORDER BY id;

-- Partitions around now: generated keys land in today's, and a predicate on the
-- key built from now() prunes the older partitions at executor start.
CREATE TABLE ev_now (id ulid PRIMARY KEY DEFAULT generate_ulid(), t tsid DEFAULT generate_tsid()) PARTITION BY RANGE (id);
DO $$
DECLARE
  today timestamptz := date_trunc('day', now());
BEGIN
  FOR d IN -4..1 LOOP
    EXECUTE format('CREATE TABLE ev_now_%s PARTITION OF ev_now FOR VALUES FROM (%L) TO (%L)',
                   CASE WHEN d < 0 THEN 'm' || -d ELSE 'p' || d END,
                   ulid_lower_bound(today + d * interval '1 day'), ulid_lower_bound(today + (d + 1) * interval '1 day'));
  END LOOP;
END $$;
INSERT INTO ev_now DEFAULT VALUES;
SELECT tableoid::regclass AS part FROM ev_now;
EXPLAIN (COSTS OFF) SELECT * FROM ev_now WHERE id >= ulid_lower_bound(now() - interval '2 days');

DROP TABLE ev_ulid, ev_tsid, ev_bigint, ev_uuid, ev_now;

-- Tools that make time partitions of a key (Citus's create_time_partitions)
-- cast both ways between the key and timestamptz. The round trips they rely
-- on: a millisecond timestamp comes back unchanged; a key comes back as the
-- smallest key of its millisecond, never above itself; a timestamp inside a
-- millisecond maps to that millisecond's first key.
SELECT count(*) AS timestamps,
  count(*) FILTER (WHERE t::ulid::timestamptz <> t) AS ulid_ms_changed,
  count(*) FILTER (WHERE t::tsid::timestamptz <> t) AS tsid_ms_changed,
  count(*) FILTER (WHERE (t + interval '999 microseconds')::ulid <> t::ulid
                      OR (t + interval '999 microseconds')::tsid <> t::tsid) AS sub_ms_moved,
  count(*) FILTER (WHERE (t + interval '1 millisecond')::ulid <= t::ulid
                      OR (t + interval '1 millisecond')::tsid <= t::tsid) AS next_ms_not_after
FROM (SELECT timestamptz '2020-01-01 00:00:00Z' + n * interval '7777777 milliseconds' AS t
      FROM generate_series(0, 5000) n) s;
SELECT count(*) AS keys,
  count(*) FILTER (WHERE k::timestamptz::ulid > k OR k::timestamptz::ulid <> ulid_lower_bound(ulid_timestamp(k))) AS ulid_bad,
  count(*) FILTER (WHERE kt::timestamptz::tsid > kt OR kt::timestamptz::tsid <> tsid_lower_bound(tsid_timestamp(kt))) AS tsid_bad
FROM (SELECT generate_ulid() AS k, generate_tsid() AS kt FROM generate_series(1, 2000)) s;
RESET timezone;
