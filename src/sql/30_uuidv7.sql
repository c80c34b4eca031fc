-- ---------------------------------------------------------------------------
-- UUIDv7 on the core uuid type (RFC 9562, PostgreSQL 18's layout: 12 bits of
-- sub-millisecond precision in rand_a).
--
-- The same objects on every server. generate_uuidv7() is the extension's own
-- generator, under a name the core cannot shadow. uuidv7(), uuidv7(interval)
-- and uuid_extract_*() exist in the extension's schema on every server too:
-- PostgreSQL 18 (uuidv7) and 17 (uuid_extract_*) have them in pg_catalog,
-- which an unqualified call finds first, and there ours serve only the dumps
-- of older servers that name them with their schema.
-- ---------------------------------------------------------------------------

CREATE FUNCTION generate_uuidv7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION generate_uuidv7(shift interval) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7_shifted' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION generate_uuidv7() IS 'new version-7 UUID (RFC 9562): strictly increasing per session, across the database when preloaded';
COMMENT ON FUNCTION generate_uuidv7(interval) IS 'new version-7 UUID whose timestamp is now shifted by the interval';

CREATE FUNCTION uuidv7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
-- uuidv7(interval) reports a shift outside 1970..10889 in PostgreSQL 18.6's
-- words and SQLSTATE (22008), for SQL written for 18; generate_uuidv7(interval)
-- keeps the project's 22003 that names the instant.
CREATE FUNCTION uuidv7(shift interval) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7_shifted_pg18' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION uuid_extract_timestamp(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuid_extract_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_extract_version(uuid) RETURNS int2
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuid_extract_version' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- COMMENT finds a function through the search path, where pg_catalog comes
-- first: name ours with their schema (this extension is relocatable, so the
-- script cannot use @extschema@; the creation schema is current_schema()).
-- The block runs as the bootstrap superuser: every call in it is qualified
-- (an unqualified format() matched a planted format(text, name, text)).
DO $$
BEGIN
  EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I.uuidv7() IS %L', pg_catalog.current_schema(),
    'new version-7 UUID (RFC 9562, as PostgreSQL 18): the same generator as generate_uuidv7(); on 18+ an unqualified uuidv7() is the core''s');
  EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I.uuidv7(interval) IS %L', pg_catalog.current_schema(),
    'new version-7 UUID shifted by the interval (as PostgreSQL 18): the same as generate_uuidv7(interval)');
  EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I.uuid_extract_timestamp(uuid) IS %L', pg_catalog.current_schema(),
    'timestamp of a version 1 or 7 UUID of the RFC variant, else NULL (as PostgreSQL 17)');
  EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I.uuid_extract_version(uuid) IS %L', pg_catalog.current_schema(),
    'version of a UUID of the RFC variant, else NULL (as PostgreSQL 17)');
END
$$;

CREATE FUNCTION uuidv7_lower_bound(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuidv7_lower_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_upper_bound(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuidv7_upper_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_lower_bound(timestamptz) IS 'smallest version-7 UUID of the timestamp''s millisecond: WHERE id >= uuidv7_lower_bound(t1) AND id < uuidv7_lower_bound(t2) is an index range scan';
COMMENT ON FUNCTION uuidv7_upper_bound(timestamptz) IS 'largest version-7 UUID of the timestamp''s millisecond';
