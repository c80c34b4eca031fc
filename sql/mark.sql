-- The generators' persisted mark (README: Guarantees): three sequences of the
-- extension that the library moves ahead of the values it returns. They move in
-- a read-only transaction and under a role with no privilege on them (a
-- generator as a column DEFAULT), through every entry point (the compat
-- aliases too), and the library finds them in whatever schema the extension is
-- in. (Restarts, crashes and promotions with the clock set back are in
-- test/t/012_clock_back.pl; hostile roles, waits and restores in
-- test/t/017_mark_side_doors.pl.)
SELECT c.relname, c.relkind, d.deptype, pg_get_userbyid(c.relowner) = 'regress_ulid_owner' AS owned_by_extension_owner
FROM pg_class c JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
  AND d.refclassid = 'pg_extension'::regclass
WHERE c.relname LIKE 'ulid_tsid_mark%' ORDER BY 1;
-- Only the dumped one is carried by pg_dump (a restore by the database's owner
-- may set it: it belongs to the extension's owner, and can only raise the mark).
SELECT c.relname FROM pg_extension e, unnest(e.extconfig) AS cfg(oid) JOIN pg_class c ON c.oid = cfg.oid
WHERE e.extname = 'ulid_tsid' ORDER BY 1;
-- PUBLIC may read them (so any role that dumps the database can); no role but a
-- superuser may move the library's two, the extension's owner the dumped one.
SELECT s AS seq, has_sequence_privilege('regress_ulid_owner', s, 'SELECT') AS can_read,
       has_sequence_privilege('regress_ulid_owner', s, 'USAGE') AS can_nextval,
       has_sequence_privilege('regress_ulid_owner', s, 'UPDATE') AS can_setval
FROM unnest(ARRAY['ulid_tsid_mark', 'ulid_tsid_mark_floor', 'ulid_tsid_mark_dumped']) s ORDER BY 1;

-- The reservation covers the value made (its millisecond is at most the mark), and
-- is ahead of the clock by at most a second: a comparison with the value, not with
-- the clock when the check runs (a loaded machine may take longer than the
-- reservation's lead between the two statements).
CREATE FUNCTION regress_mark_covers(made ulid, schema name DEFAULT 'public') RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE v bigint;
BEGIN
  EXECUTE format('SELECT last_value FROM %I.ulid_tsid_mark', schema) INTO v;
  RETURN v >= (extract(epoch FROM made::timestamptz) * 1000)::bigint
     AND v <= (extract(epoch FROM clock_timestamp()) * 1000)::bigint + 1000;
END $$;
SELECT generate_ulid() AS made \gset
SELECT regress_mark_covers(:'made') AS mark_covers;

-- A read-only transaction moves it (past the one-second reservation first).
SELECT last_value AS before FROM ulid_tsid_mark \gset
SELECT pg_sleep(1.05);
BEGIN READ ONLY;
SELECT generate_tsid() IS NOT NULL AS made, generate_uuidv7() IS NOT NULL AS made_too;
COMMIT;
SELECT last_value > :before AS moved_read_only FROM ulid_tsid_mark;

-- The reservation is renewed before it runs out: the first value made in its
-- last 50 ms moves it on, trying the mark's locks without waiting for them, so
-- that sessions whose values follow the clock do not all queue behind one
-- write (and its flushes) each time it ends. The check sleeps to 25 ms before
-- the end.
SELECT generate_ulid() IS NOT NULL AS made;
SELECT last_value AS before FROM ulid_tsid_mark \gset
SELECT pg_sleep(greatest(0, :before - 25 - extract(epoch FROM clock_timestamp()) * 1000) / 1000);
SELECT generate_ulid() IS NOT NULL AS made_in_last_ms;
SELECT last_value > :before AS renewed_before_it_ran_out FROM ulid_tsid_mark;

-- Values that follow the clock write the mark about once a second (each write
-- is a WAL flush and an fsync in the insert that makes it): over two seconds of
-- keys it takes two to four values.
DO $$
DECLARE stop timestamptz := clock_timestamp() + interval '2 s'; seen bigint := -1; now_at bigint; changes int := 0;
BEGIN
  WHILE clock_timestamp() < stop LOOP
    PERFORM generate_ulid();
    SELECT last_value INTO now_at FROM ulid_tsid_mark;
    IF now_at <> seen THEN changes := changes + 1; seen := now_at; END IF;
  END LOOP;
  PERFORM set_config('regress.mark_values', changes::text, false);
END $$;
SELECT current_setting('regress.mark_values')::int BETWEEN 2 AND 4 AS written_about_once_a_second;

-- A plain role inserts through the generators' defaults; the mark moves for it.
CREATE TABLE mark_defaults (u ulid DEFAULT generate_ulid(), m ulid DEFAULT generate_ulid_monotonic(),
                            t tsid DEFAULT generate_tsid(), v uuid DEFAULT generate_uuidv7(), n int);
GRANT INSERT, SELECT ON mark_defaults TO regress_ulid_owner;
SELECT last_value AS before FROM ulid_tsid_mark \gset
SELECT pg_sleep(1.05);
SET ROLE regress_ulid_owner;
INSERT INTO mark_defaults (n) SELECT g FROM generate_series(1, 1000) g;
SELECT count(DISTINCT u) + count(DISTINCT m) + count(DISTINCT t) + count(DISTINCT v) AS distinct_keys FROM mark_defaults;
RESET ROLE;
SELECT last_value > :before AS moved_for_plain_role FROM ulid_tsid_mark;

-- Another schema: the extension moves, a new session finds the mark there.
CREATE SCHEMA regress_mark_schema;
ALTER EXTENSION ulid_tsid SET SCHEMA regress_mark_schema;
\c
SELECT last_value AS before FROM regress_mark_schema.ulid_tsid_mark \gset
SELECT pg_sleep(1.05);
SELECT regress_mark_schema.generate_ulid() AS made \gset
SELECT last_value > :before AS moved_in_other_schema FROM regress_mark_schema.ulid_tsid_mark;
SELECT regress_mark_covers(:'made', 'regress_mark_schema') AS mark_covers;
ALTER EXTENSION ulid_tsid SET SCHEMA public;
DROP SCHEMA regress_mark_schema;
DROP TABLE mark_defaults;
DROP FUNCTION regress_mark_covers(ulid, name);

-- A compat alias called first in a session finds the same mark: the mark still
-- moves for every generator afterwards.
CREATE SCHEMA regress_compat;
CREATE EXTENSION ulid_tsid_compat SCHEMA regress_compat;
\c
SELECT last_value AS before FROM ulid_tsid_mark \gset
SELECT pg_sleep(1.05);
SELECT regress_compat.gen_ulid() IS NOT NULL AS alias_first;
SELECT last_value > :before AS moved_through_alias FROM ulid_tsid_mark;
SELECT last_value AS before FROM ulid_tsid_mark \gset
SELECT pg_sleep(1.05);
SELECT generate_tsid() IS NOT NULL AS native_after;
SELECT last_value > :before AS moved_after_alias FROM ulid_tsid_mark;
DROP EXTENSION ulid_tsid_compat;
DROP SCHEMA regress_compat;

-- The dumped copy follows the mark: at least the reservation and the floor.
SELECT d.last_value >= greatest(m.last_value, f.last_value) AS dumped_follows
FROM ulid_tsid_mark m, ulid_tsid_mark_floor f, ulid_tsid_mark_dumped d;

-- ulid_tsid_status(): one row, for any role.
SET ROLE regress_ulid_owner;
SELECT mark IS NOT NULL AS has_mark, mark_floor IS NOT NULL AS has_floor,
       lead <= interval '1 second' AS lead_small, max_lead, preloaded IS NOT NULL AS has_preloaded,
       standby, node_bits, node_id, tsid_slot_bits + tsid_counter_bits + node_bits = 22 AS bits_add_up
FROM ulid_tsid_status();
RESET ROLE;
-- preloaded: whether the server loaded the library at its start (the regress suite
-- runs both ways; shared_preload_libraries is for superusers to read).
SELECT preloaded = (pg_catalog.current_setting('shared_preload_libraries') ~ 'ulid_tsid') AS preloaded_as_set
FROM ulid_tsid_status();

-- Raising: the extension's owner (and a superuser) may; it never lowers; values
-- of this session follow at once.
CREATE ROLE regress_mark_stranger;
SET ROLE regress_mark_stranger;
SELECT regress_try('SELECT ulid_tsid_mark_raise(now() + interval ''1 hour'')') AS stranger_raise;
SELECT regress_try('SELECT ulid_tsid_mark_reset()') AS stranger_reset;
RESET ROLE;
SET ROLE regress_ulid_owner;
SELECT ulid_tsid_mark_raise(now() + interval '1 hour') > now() + interval '59 minutes' AS raised;
SELECT ulid_tsid_mark_raise(now() - interval '1 day') > now() + interval '59 minutes' AS never_lowered;
SET client_min_messages = error;  -- the lead WARNING (its figure varies; test/t/017 checks it)
SELECT ulid_timestamp(generate_ulid()) > now() + interval '59 minutes' AS ulid_above,
       tsid_timestamp(generate_tsid()) > now() + interval '59 minutes' AS tsid_above,
       uuidv7_timestamp(generate_uuidv7()) > now() + interval '59 minutes' AS uuidv7_above,
       ulid_timestamp(generate_ulid_monotonic()) > now() + interval '59 minutes' AS monotonic_above;
RESET client_min_messages;
SELECT regress_try('SELECT ulid_tsid_mark_reset()') AS owner_reset;
-- The owner moves the mark at most ulid_tsid.raise_limit (a day) past the clock:
-- preloaded, one set of ticks serves every database of the server.
SELECT regress_try('SELECT ulid_tsid_mark_raise(now() + interval ''2 days'')') AS owner_raise_too_far;
RESET ROLE;
-- A new session starts above the raised mark.
\c
SET client_min_messages = error;
SELECT ulid_timestamp(generate_ulid()) > now() + interval '59 minutes' AS new_session_above;
RESET client_min_messages;
-- Setting it back (superuser): the session's values, and new sessions', follow the clock again.
SELECT ulid_tsid_mark_reset() = date_trunc('milliseconds', now()) AS reset_to_now;
SELECT abs(extract(epoch FROM ulid_timestamp(generate_ulid()) - clock_timestamp())) < 1 AS ulid_at_clock,
       abs(extract(epoch FROM tsid_timestamp(generate_tsid()) - clock_timestamp())) < 1 AS tsid_at_clock;
\c
SELECT abs(extract(epoch FROM ulid_timestamp(generate_ulid()) - clock_timestamp())) < 1 AS new_session_at_clock,
       abs(extract(epoch FROM uuidv7_timestamp(generate_uuidv7()) - clock_timestamp())) < 1 AS uuidv7_at_clock;
SELECT lead <= interval '1 second' AS lead_back FROM ulid_tsid_status();
-- The owner's setval() of the dumped copy (what a restore runs) raises the mark
-- only up to the same limit: a new session starts there, with a WARNING.
SET ROLE regress_ulid_owner;
SELECT setval('ulid_tsid_mark_dumped', (extract(epoch FROM timestamptz '2100-01-01') * 1000)::bigint) > 0 AS owner_set_2100;
RESET ROLE;
\c
SET client_min_messages = error;  -- the cap's WARNING, and the lead's (its figure varies)
SELECT ulid_timestamp(generate_ulid()) BETWEEN now() + interval '23 hours' AND now() + interval '1 day 1 minute' AS capped_at_a_day;
RESET client_min_messages;
SELECT ulid_tsid_mark_reset() IS NOT NULL AS reset_by_superuser;
\c
SELECT abs(extract(epoch FROM ulid_timestamp(generate_ulid()) - clock_timestamp())) < 1 AS at_clock_again;
-- setval() on the mark's sequences by a superuser (what PostgreSQL 19's
-- sequence synchronization does on a subscriber): the server's own copy of the
-- mark keeps it, and a new session's values stay above it.
SELECT generate_ulid() IS NOT NULL AS made;
SELECT mark AS mark_before_setval FROM ulid_tsid_status() \gset
SELECT setval('ulid_tsid_mark', 1) = 1 AS mark_set_back,
       setval('ulid_tsid_mark_floor', 1) = 1 AS floor_set_back,
       setval('ulid_tsid_mark_dumped', 1) = 1 AS dumped_set_back;
SELECT mark >= :'mark_before_setval' AS mark_kept FROM ulid_tsid_status();
\c
SELECT ulid_timestamp(generate_ulid()) > :'mark_before_setval' AS new_session_above_kept_mark;
SELECT last_value >= (extract(epoch FROM :'mark_before_setval'::timestamptz) * 1000)::bigint AS sequences_raised_again
  FROM ulid_tsid_mark_floor;
DROP ROLE regress_mark_stranger;
