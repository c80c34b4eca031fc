-- ulid_tsid 0.3.0 -> 0.4.0 (ALTER EXTENSION ulid_tsid UPDATE).

\echo Use "ALTER EXTENSION ulid_tsid UPDATE" to load this file. \quit

-- The generators' persisted high-water mark (README: Guarantees): written by
-- the library in place, WAL-logged as nextval() logs a sequence, never by SQL.
-- ulid_tsid_mark: last_value is the reservation (Unix ms; no value returned by
-- the lifetime that wrote it is later), log_cnt that lifetime. ulid_tsid_mark_floor:
-- last_value is what a new backend of that lifetime starts above. No role needs
-- a privilege on them to generate; SELECT is granted to PUBLIC so that any role
-- that may dump the database can read them (pg_dump carries both values, and
-- the objects of a trusted extension belong to the bootstrap superuser).
CREATE SEQUENCE ulid_tsid_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
CREATE SEQUENCE ulid_tsid_mark_floor AS bigint MINVALUE 0 START 0 NO CYCLE;
DO $$
BEGIN
  PERFORM pg_catalog.pg_extension_config_dump(
    pg_catalog.format('%I.ulid_tsid_mark', pg_catalog.current_schema())::pg_catalog.regclass, '');
  PERFORM pg_catalog.pg_extension_config_dump(
    pg_catalog.format('%I.ulid_tsid_mark_floor', pg_catalog.current_schema())::pg_catalog.regclass, '');
  EXECUTE pg_catalog.format('GRANT SELECT ON SEQUENCE %I.ulid_tsid_mark, %I.ulid_tsid_mark_floor TO PUBLIC',
    pg_catalog.current_schema(), pg_catalog.current_schema());
  EXECUTE pg_catalog.format('COMMENT ON SEQUENCE %I.ulid_tsid_mark IS %L', pg_catalog.current_schema(),
    'the generators'' reservation: no value returned before a restart, crash or promotion is above this Unix millisecond (written by the library only)');
  EXECUTE pg_catalog.format('COMMENT ON SEQUENCE %I.ulid_tsid_mark_floor IS %L', pg_catalog.current_schema(),
    'the generators'' floor: new sessions of the server lifetime that wrote ulid_tsid_mark start above this Unix millisecond (written by the library only)');
END
$$;

-- ---------------------------------------------------------------------------
-- Migrating (issue 22): uuidv4() where core lacks it (src/sql/31_uuidv4.sql),
-- after the same check as src/sql/05_conflicts.sql for the one function this
-- update adds with only core argument types: a user's own uuidv4() polyfill in
-- the extension's schema gets an error that names it, not "already exists".
-- ---------------------------------------------------------------------------

DO $conflicts$
DECLARE
  target pg_catalog.text := pg_catalog.current_schema();
  found_proc pg_catalog.regprocedure;
  what pg_catalog.text;
BEGIN
  found_proc := pg_catalog.to_regprocedure(pg_catalog.format('%I.uuidv4()', target));
  IF found_proc IS NOT NULL THEN
    SELECT pg_catalog.format('a function in language %s that belongs to %s', l.lanname,
             CASE WHEN e.extname IS NULL THEN 'no extension' ELSE pg_catalog.format('extension %I', e.extname) END)
      INTO what
      FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_language l ON l.oid OPERATOR(pg_catalog.=) p.prolang
      LEFT JOIN pg_catalog.pg_depend d ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
        AND d.objid OPERATOR(pg_catalog.=) p.oid AND d.deptype OPERATOR(pg_catalog.=) 'e'
        AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
      LEFT JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
     WHERE p.oid OPERATOR(pg_catalog.=) found_proc::pg_catalog.oid;
    RAISE EXCEPTION USING ERRCODE := 'duplicate_function',
      MESSAGE := pg_catalog.format('ulid_tsid cannot be updated in schema %I: function %I.uuidv4() already exists', target, target),
      DETAIL := pg_catalog.format('It is %s; ulid_tsid 0.4.0 creates a function of that name and argument types in its schema.', what),
      HINT := 'If it stands in for PostgreSQL 18''s function of that name, drop it (ulid_tsid provides it on every server, '
        'and 18''s own in pg_catalog comes first there), or rename it and point the defaults that call it at the new one; '
        'the section "Migrating" of ulid_tsid''s README.md shows how';
  END IF;
END
$conflicts$;

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
