-- ulid_tsid_compat: the function names of pg_uuidv7 and pgx_ulid as aliases of
-- ulid_tsid's generators and readers, for code written against those
-- extensions. Opt-in and in a schema of the installer's choice, so that it
-- can stand beside the originals (CREATE EXTENSION ulid_tsid_compat SCHEMA x).
-- Where the behaviour differs, docs/migrating.md ("Compatible names") says how.
--
-- Trusted, so this script runs as the bootstrap superuser: the C functions
-- bind ulid_tsid's own symbols (no lookup by name), the SQL bodies name every
-- function with its schema (@extschema@ is this extension's: it is not
-- relocatable), and the DO block qualifies everything it calls.

\echo Use "CREATE EXTENSION ulid_tsid_compat" to load this file. \quit

-- The originals' own functions in the target schema: one error that names the
-- first one found and says where to install instead, before anything is made.
DO $conflicts$
DECLARE
  target pg_catalog.text := pg_catalog.current_schema();
  sig pg_catalog.text;
  found_proc pg_catalog.regprocedure;
  what pg_catalog.text;
BEGIN
  FOREACH sig IN ARRAY ARRAY['uuid_generate_v7()', 'uuid_v7_to_timestamptz(pg_catalog.uuid)',
      'uuid_timestamptz_to_v7(pg_catalog.timestamptz, pg_catalog.bool)', 'uuid_v7_to_timestamp(pg_catalog.uuid)',
      'uuid_timestamp_to_v7(pg_catalog.timestamp, pg_catalog.bool)', 'gen_ulid()', 'gen_monotonic_ulid()']::pg_catalog.text[] LOOP
    found_proc := pg_catalog.to_regprocedure(pg_catalog.format('%I.%s', target, sig));
    CONTINUE WHEN found_proc IS NULL;
    SELECT pg_catalog.format('%I.%I(%s) already exists (a function in language %s that belongs to %s)', target, p.proname,
             pg_catalog.pg_get_function_identity_arguments(p.oid), l.lanname,
             CASE WHEN e.extname IS NULL THEN 'no extension' ELSE pg_catalog.format('extension %I', e.extname) END)
      INTO what
      FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_language l ON l.oid OPERATOR(pg_catalog.=) p.prolang
      LEFT JOIN pg_catalog.pg_depend d ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
        AND d.objid OPERATOR(pg_catalog.=) p.oid AND d.deptype OPERATOR(pg_catalog.=) 'e'
        AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
      LEFT JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
     WHERE p.oid OPERATOR(pg_catalog.=) found_proc::pg_catalog.oid;
    RAISE EXCEPTION USING ERRCODE := 'duplicate_function',
      MESSAGE := pg_catalog.format('ulid_tsid_compat cannot be created in schema %I: function %s', target, what),
      HINT := 'Create it in a schema of its own, beside the original (CREATE SCHEMA compat; CREATE EXTENSION ulid_tsid_compat '
        'SCHEMA compat), or drop the original first; the section "Compatible names" of ulid_tsid''s docs/migrating.md shows how';
  END LOOP;
END
$conflicts$;

-- pg_uuidv7 (fboulnois/pg_uuidv7 1.6)
CREATE FUNCTION uuid_generate_v7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION uuid_v7_to_timestamptz(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_timestamptz_to_v7(timestamptz, zero bool DEFAULT false) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_compat_timestamptz_to_v7' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_v7_to_timestamp(id uuid) RETURNS timestamp LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$SELECT pg_catalog.timezone('UTC', @extschema@.uuid_v7_to_timestamptz(id))$$;
CREATE FUNCTION uuid_timestamp_to_v7(ts timestamp, zero bool DEFAULT false) RETURNS uuid LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
    AS $$SELECT @extschema@.uuid_timestamptz_to_v7(pg_catalog.timezone('UTC', ts), zero)$$;
COMMENT ON FUNCTION uuid_generate_v7() IS 'pg_uuidv7''s name for generate_uuidv7(): strictly increasing, not random within a millisecond';
COMMENT ON FUNCTION uuid_v7_to_timestamptz(uuid) IS 'pg_uuidv7''s name: the timestamp of the first 48 bits, whatever the version (as pg_uuidv7)';
COMMENT ON FUNCTION uuid_timestamptz_to_v7(timestamptz, bool) IS 'pg_uuidv7''s name: a version-7 UUID of the time, random bits (or zero ones: uuidv7_lower_bound())';
COMMENT ON FUNCTION uuid_v7_to_timestamp(uuid) IS 'pg_uuidv7''s name: uuid_v7_to_timestamptz() as a UTC timestamp';
COMMENT ON FUNCTION uuid_timestamp_to_v7(timestamp, bool) IS 'pg_uuidv7''s name: uuid_timestamptz_to_v7() of a UTC timestamp';

-- pgx_ulid: its generators return ulid_tsid's ulid (the same 16 bytes and text),
-- named with ulid_tsid's schema, which the catalog knows.
DO $$
DECLARE
  ulid_type pg_catalog.text := (SELECT pg_catalog.format('%I.ulid', n.nspname)
    FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
    WHERE e.extname OPERATOR(pg_catalog.=) 'ulid_tsid');
BEGIN
  EXECUTE pg_catalog.format('CREATE FUNCTION gen_ulid() RETURNS %s AS %L, %L LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED',
    ulid_type, '$libdir/ulid_tsid', 'generate_ulid');
  EXECUTE pg_catalog.format('CREATE FUNCTION gen_monotonic_ulid() RETURNS %s AS %L, %L LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED',
    ulid_type, '$libdir/ulid_tsid', 'generate_ulid_monotonic');
END
$$;
COMMENT ON FUNCTION gen_ulid() IS 'pgx_ulid''s name for generate_ulid(): strictly increasing per session';
COMMENT ON FUNCTION gen_monotonic_ulid() IS 'pgx_ulid''s name for generate_ulid_monotonic(): previous random part + 1 within a millisecond';
