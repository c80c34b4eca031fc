-- The generators' persisted mark (README: Guarantees): two sequences of the
-- extension that the library moves ahead of the values it returns. They move in
-- a read-only transaction and under a role with no privilege on them (a
-- generator as a column DEFAULT), and the library finds them in whatever schema
-- the extension is in. (Restarts, crashes and promotions with the clock set back
-- are in test/t/012_clock_back.pl.)
SELECT c.relname, c.relkind, d.deptype
FROM pg_class c JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid
  AND d.refclassid = 'pg_extension'::regclass
WHERE c.relname LIKE 'ulid_tsid_mark%' ORDER BY 1;
-- Both are dumped with the extension (their values carry the mark to a restore).
SELECT c.relname FROM pg_extension e, unnest(e.extconfig) AS cfg(oid) JOIN pg_class c ON c.oid = cfg.oid
WHERE e.extname = 'ulid_tsid' ORDER BY 1;
-- PUBLIC may read them (so any role that dumps the database can), nobody else may move them.
SELECT has_sequence_privilege('regress_ulid_owner', 'ulid_tsid_mark', 'SELECT') AS can_read,
       has_sequence_privilege('regress_ulid_owner', 'ulid_tsid_mark', 'USAGE') AS can_nextval,
       has_sequence_privilege('regress_ulid_owner', 'ulid_tsid_mark', 'UPDATE') AS can_setval;

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

-- A read-only transaction moves it (past the 250 ms reservation first).
SELECT last_value AS before FROM ulid_tsid_mark \gset
SELECT pg_sleep(0.3);
BEGIN READ ONLY;
SELECT generate_tsid() IS NOT NULL AS made, generate_uuidv7() IS NOT NULL AS made_too;
COMMIT;
SELECT last_value > :before AS moved_read_only FROM ulid_tsid_mark;

-- A plain role inserts through the generators' defaults; the mark moves for it.
CREATE TABLE mark_defaults (u ulid DEFAULT generate_ulid(), m ulid DEFAULT generate_ulid_monotonic(),
                            t tsid DEFAULT generate_tsid(), v uuid DEFAULT generate_uuidv7(), n int);
GRANT INSERT, SELECT ON mark_defaults TO regress_ulid_owner;
SELECT last_value AS before FROM ulid_tsid_mark \gset
SELECT pg_sleep(0.3);
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
SELECT pg_sleep(0.3);
SELECT regress_mark_schema.generate_ulid() AS made \gset
SELECT last_value > :before AS moved_in_other_schema FROM regress_mark_schema.ulid_tsid_mark;
SELECT regress_mark_covers(:'made', 'regress_mark_schema') AS mark_covers;
ALTER EXTENSION ulid_tsid SET SCHEMA public;
DROP SCHEMA regress_mark_schema;
DROP TABLE mark_defaults;
DROP FUNCTION regress_mark_covers(ulid, name);
