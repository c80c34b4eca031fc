-- ulid_tsid 0.3.0 -> 0.4.0 (ALTER EXTENSION ulid_tsid UPDATE).

\echo Use "ALTER EXTENSION ulid_tsid UPDATE" to load this file. \quit

-- ---------------------------------------------------------------------------
-- The library first, before anything else (as src/sql/01_library.sql does for
-- a fresh install): a server that preloads ulid_tsid runs the library its
-- postmaster loaded at start until it restarts, and a session keeps the library
-- it loaded first; 0.3.0's lacks the C functions this update creates, and the
-- update would stop halfway with "could not find function ... in file". The
-- library of 0.4.0 and later sets ulid_tsid.library_version (PGC_INTERNAL).
-- ---------------------------------------------------------------------------

-- LOAD names the library as the functions do; where the server finds
-- libraries through dynamic_library_path instead (PostgreSQL 18's
-- extension_control_path installs, as Debian's package build tests them), the
-- bare name.
DO $load$
BEGIN
  EXECUTE 'LOAD ''MODULE_PATHNAME''';
EXCEPTION WHEN undefined_file THEN
  EXECUTE 'LOAD ''ulid_tsid''';
END
$load$;

DO $library$
DECLARE
  needed pg_catalog.text := '0.4.0';  -- this script's version (scripts/check-versions.sh)
  running pg_catalog.text;
  preloaded boolean;
BEGIN
  SELECT s.setting INTO running FROM pg_catalog.pg_settings s
   WHERE s.name OPERATOR(pg_catalog.=) 'ulid_tsid.library_version' AND s.context OPERATOR(pg_catalog.=) 'internal';
  IF (pg_catalog.regexp_match(running, '^(\d+)\.(\d+)\.(\d+)'))::pg_catalog.int4[]
       OPERATOR(pg_catalog.>=) (pg_catalog.regexp_match(needed, '^(\d+)\.(\d+)\.(\d+)'))::pg_catalog.int4[] THEN
    RETURN;
  END IF;
  preloaded := pg_catalog.current_setting('shared_preload_libraries')
    OPERATOR(pg_catalog.~) '(^|[\s,"/])ulid_tsid(\.so)?($|[\s,"])';
  RAISE EXCEPTION USING ERRCODE := 'object_not_in_prerequisite_state',
    MESSAGE := pg_catalog.format('ulid_tsid cannot be updated to %s while %s runs an older ulid_tsid library (%s)', needed,
      CASE WHEN preloaded THEN 'the server' ELSE 'this session' END,
      CASE WHEN running IS NULL THEN 'older than ' OPERATOR(pg_catalog.||) needed ELSE 'version ' OPERATOR(pg_catalog.||) running END),
    DETAIL := CASE WHEN preloaded THEN
        'The server preloads it (shared_preload_libraries): every session runs the library the server loaded at its start, '
        'whatever files were installed since, and that one lacks functions ulid_tsid ' OPERATOR(pg_catalog.||) needed
        OPERATOR(pg_catalog.||) ' needs. Nothing was changed.'
      ELSE
        'A session keeps the library it loaded first, whatever files were installed since (or the library file on the '
        'server is older), and that one lacks functions ulid_tsid ' OPERATOR(pg_catalog.||) needed
        OPERATOR(pg_catalog.||) ' needs. Nothing was changed.' END,
    HINT := CASE WHEN preloaded THEN
        'Restart the server so that it loads the new library (install the new version''s files first, if not done), '
        'then run ALTER EXTENSION ulid_tsid UPDATE again.'
      ELSE
        'Run ALTER EXTENSION ulid_tsid UPDATE from a new session. If it fails there too, the library installed on the server '
        'is older: install the new version''s files first.' END;
END
$library$;

-- ---------------------------------------------------------------------------
-- Objects in the way, before anything is created (as src/sql/05_conflicts.sql
-- does for a fresh install): the functions this update adds with only core
-- argument types (uuidv4(), the mark's three), so that a user's own uuidv4()
-- polyfill in the extension's schema gets an error that names it, not
-- "already exists".
-- ---------------------------------------------------------------------------

DO $conflicts$
DECLARE
  target pg_catalog.text := pg_catalog.current_schema();
  sig pg_catalog.text;
  found_proc pg_catalog.regprocedure;
  shown pg_catalog.text;
  what pg_catalog.text;
BEGIN
  FOREACH sig IN ARRAY ARRAY['uuidv4()', 'ulid_tsid_status()', 'ulid_tsid_mark_raise(pg_catalog.timestamptz)',
      'ulid_tsid_mark_reset(pg_catalog.timestamptz)', 'ulid_from_timestamp(pg_catalog.timestamp)']::pg_catalog.text[] LOOP
    found_proc := pg_catalog.to_regprocedure(pg_catalog.format('%I.%s', target, sig));
    CONTINUE WHEN found_proc IS NULL;
    SELECT pg_catalog.format('%I.%I(%s)', target, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid)),
           pg_catalog.format('a function in language %s that belongs to %s', l.lanname,
             CASE WHEN e.extname IS NULL THEN 'no extension' ELSE pg_catalog.format('extension %I', e.extname) END)
      INTO shown, what
      FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_language l ON l.oid OPERATOR(pg_catalog.=) p.prolang
      LEFT JOIN pg_catalog.pg_depend d ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
        AND d.objid OPERATOR(pg_catalog.=) p.oid AND d.deptype OPERATOR(pg_catalog.=) 'e'
        AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
      LEFT JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
     WHERE p.oid OPERATOR(pg_catalog.=) found_proc::pg_catalog.oid;
    RAISE EXCEPTION USING ERRCODE := 'duplicate_function',
      MESSAGE := pg_catalog.format('ulid_tsid cannot be updated in schema %I: function %s already exists', target, shown),
      DETAIL := pg_catalog.format('It is %s; ulid_tsid 0.4.0 creates a function of that name and argument types in its schema.', what),
      HINT := CASE WHEN sig OPERATOR(pg_catalog.=) 'uuidv4()' THEN
        'If it stands in for PostgreSQL 18''s function of that name, drop it (ulid_tsid provides it on every server, '
        'and 18''s own in pg_catalog comes first there), or rename it and point the defaults that call it at the new one; '
        'ulid_tsid''s docs/migrating.md shows how'
        ELSE 'Rename or drop it, then update again; ulid_tsid''s docs/migrating.md shows how' END;
  END LOOP;
END
$conflicts$;

-- The mark's sequences (src/sql/35_mark.sql): a relation of one of their names
-- in the target schema, planted by any role with CREATE there, gets an error
-- that names it instead of a bare "already exists".
DO $conflicts$
DECLARE
  target pg_catalog.text := pg_catalog.current_schema();
  rel_name pg_catalog.text;
  what pg_catalog.text;
BEGIN
  FOREACH rel_name IN ARRAY ARRAY['ulid_tsid_mark', 'ulid_tsid_mark_floor', 'ulid_tsid_mark_dumped']::pg_catalog.text[] LOOP
    SELECT pg_catalog.format('a %s that belongs to role %I',
             CASE c.relkind WHEN 'S' THEN 'sequence' WHEN 'r' THEN 'table' WHEN 'v' THEN 'view'
                            WHEN 'm' THEN 'materialized view' WHEN 'i' THEN 'index' WHEN 'p' THEN 'partitioned table'
                            WHEN 'f' THEN 'foreign table' ELSE 'relation' END, r.rolname)
      INTO what
      FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
      JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) c.relowner
     WHERE n.nspname OPERATOR(pg_catalog.=) target AND c.relname OPERATOR(pg_catalog.=) rel_name;
    CONTINUE WHEN what IS NULL;
    RAISE EXCEPTION USING ERRCODE := 'duplicate_table',
      MESSAGE := pg_catalog.format('ulid_tsid cannot be installed in schema %I: relation %I.%I already exists', target, target, rel_name),
      DETAIL := pg_catalog.format('It is %s; ulid_tsid keeps its generators'' high-water mark in a sequence of that name in its schema.', what),
      HINT := 'Drop or rename it (it is not ulid_tsid''s), or install ulid_tsid in another schema (CREATE EXTENSION ulid_tsid SCHEMA ...).';
  END LOOP;
END
$conflicts$;

-- The generators' persisted high-water mark (README: Guarantees), written by
-- the library in place, WAL-logged as nextval() logs a sequence, never by SQL:
-- ulid_tsid_mark: last_value is the reservation (Unix ms; no value returned by
-- the lifetime that wrote it is later), log_cnt that lifetime;
-- ulid_tsid_mark_floor: last_value is what a new backend of that lifetime
-- starts above. Both belong to the bootstrap superuser: no other role can move
-- them (setval() or ALTER SEQUENCE). ulid_tsid_mark_dumped: at least both, the
-- one that pg_dump carries (pg_extension_config_dump) and a restore sets; it
-- belongs to the extension's owner, so that the database's owner can restore a
-- dump, and the library reads it back as a floor that can only raise the mark.
-- No role needs a privilege on them to generate; PUBLIC may read them.
CREATE SEQUENCE ulid_tsid_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
CREATE SEQUENCE ulid_tsid_mark_floor AS bigint MINVALUE 0 START 0 NO CYCLE;
CREATE SEQUENCE ulid_tsid_mark_dumped AS bigint MINVALUE 0 START 0 NO CYCLE;
DO $$
DECLARE
  target pg_catalog.text := pg_catalog.current_schema();
  owner_name pg_catalog.name := (SELECT r.rolname FROM pg_catalog.pg_extension e
    JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) e.extowner
    WHERE e.extname OPERATOR(pg_catalog.=) 'ulid_tsid');
BEGIN
  PERFORM pg_catalog.pg_extension_config_dump(
    pg_catalog.format('%I.ulid_tsid_mark_dumped', target)::pg_catalog.regclass, '');
  EXECUTE pg_catalog.format('ALTER SEQUENCE %I.ulid_tsid_mark_dumped OWNER TO %I', target, owner_name);
  EXECUTE pg_catalog.format('GRANT SELECT ON SEQUENCE %I.ulid_tsid_mark, %I.ulid_tsid_mark_floor, %I.ulid_tsid_mark_dumped TO PUBLIC',
    target, target, target);
  EXECUTE pg_catalog.format('COMMENT ON SEQUENCE %I.ulid_tsid_mark IS %L', target,
    'the generators'' reservation: no value returned before a restart, crash or promotion is above this Unix millisecond (written by the library only)');
  EXECUTE pg_catalog.format('COMMENT ON SEQUENCE %I.ulid_tsid_mark_floor IS %L', target,
    'the generators'' floor: new sessions of the server lifetime that wrote ulid_tsid_mark start above this Unix millisecond (written by the library only)');
  EXECUTE pg_catalog.format('COMMENT ON SEQUENCE %I.ulid_tsid_mark_dumped IS %L', target,
    'the generators'' mark as pg_dump carries it (a restore sets it; it can only raise the mark)');
END
$$;

-- The mark for DBAs, and the two ways to move it by hand.
CREATE FUNCTION ulid_tsid_status(OUT mark timestamptz, OUT mark_floor timestamptz, OUT lead interval,
                                 OUT max_lead interval, OUT preloaded boolean, OUT standby boolean,
                                 OUT node_bits integer, OUT node_id integer, OUT tsid_slot_bits integer,
                                 OUT tsid_counter_bits integer, OUT server_copy_error text,
                                 OUT library_version text, OUT extension_version text) RETURNS record
    AS 'MODULE_PATHNAME', 'ulid_tsid_status' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_tsid_mark_raise(at_least timestamptz) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_tsid_mark_raise' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
CREATE FUNCTION ulid_tsid_mark_reset(to_time timestamptz DEFAULT pg_catalog.now()) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_tsid_mark_reset' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
REVOKE ALL ON FUNCTION ulid_tsid_mark_reset(timestamptz) FROM PUBLIC;
COMMENT ON FUNCTION ulid_tsid_status() IS 'the generators'' mark, its lead over the clock, how this server makes TSIDs, and the versions of the library and of the extension';
COMMENT ON FUNCTION ulid_tsid_mark_raise(timestamptz) IS 'raises the mark so that new keys are above the time (never lowers it); a superuser or the extension''s owner';
COMMENT ON FUNCTION ulid_tsid_mark_reset(timestamptz) IS 'sets the mark back to the time, after a clock that ran far ahead (superuser only; new keys may sort below earlier ones)';


CREATE FUNCTION uuidv4() RETURNS uuid
    AS 'gen_random_uuid' LANGUAGE internal VOLATILE STRICT PARALLEL SAFE;

DO $$
BEGIN
  EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I.uuidv4() IS %L', pg_catalog.current_schema(),
    'new random (version 4) UUID: core''s gen_random_uuid() under PostgreSQL 18''s name; on 18+ an unqualified uuidv4() is the core''s');
END
$$;

-- uuidv7(interval): PostgreSQL 18.6's errors for a shift outside 1970..10889
-- (22008, its words), for SQL written for 18 (src/sql/30_uuidv7.sql).
CREATE OR REPLACE FUNCTION uuidv7(shift interval) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7_shifted_pg18' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

-- min() and max() of ulid and tsid without a combine function (src/sql/10_ulid.sql):
-- Citus then pushes them down by name and each shard answers from its index.
-- CREATE OR REPLACE keeps each aggregate's OID, so views and rules that use them
-- stay as they are.
CREATE OR REPLACE AGGREGATE min(ulid) (
    SFUNC = ulid_smaller, STYPE = ulid, SORTOP = <, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE max(ulid) (
    SFUNC = ulid_larger, STYPE = ulid, SORTOP = >, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE min(tsid) (
    SFUNC = tsid_smaller, STYPE = tsid, SORTOP = <, PARALLEL = SAFE
);
CREATE OR REPLACE AGGREGATE max(tsid) (
    SFUNC = tsid_larger, STYPE = tsid, SORTOP = >, PARALLEL = SAFE
);

-- ulid <-> timestamp (UTC), as pgx_ulid and pg-ulid cast (src/sql/10_ulid.sql).
CREATE FUNCTION ulid_to_timestamp(ulid) RETURNS timestamp
    AS 'MODULE_PATHNAME', 'ulid_to_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_timestamp(timestamp) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_to_timestamp(ulid) IS 'creation time of a ulid as a UTC timestamp, to the millisecond';
COMMENT ON FUNCTION ulid_from_timestamp(timestamp) IS 'smallest ulid of a UTC timestamp''s millisecond';
CREATE CAST (ulid AS timestamp) WITH FUNCTION ulid_to_timestamp(ulid);
CREATE CAST (timestamp AS ulid) WITH FUNCTION ulid_from_timestamp(timestamp);
COMMENT ON CAST (ulid AS timestamp) IS 'creation time as a UTC timestamp (ulid_to_timestamp), as pgx_ulid and pg-ulid';
COMMENT ON CAST (timestamp AS ulid) IS 'smallest ulid of a UTC timestamp''s millisecond (ulid_from_timestamp)';
-- Preloaded, the generators share their state within a database, not across the server.
COMMENT ON FUNCTION generate_ulid() IS 'new ulid: never repeats, strictly increasing per session (across the database when preloaded), 64 fresh random bits in every value';
COMMENT ON FUNCTION generate_tsid() IS 'new tsid: never a duplicate within the database, strictly increasing per session (across the database when preloaded)';
COMMENT ON FUNCTION generate_uuidv7() IS 'new version-7 UUID (RFC 9562): strictly increasing per session, across the database when preloaded';
