-- ---------------------------------------------------------------------------
-- uuidv4(): PostgreSQL 18's name for gen_random_uuid(), for SQL written for 18
-- that runs on 13-17. It is core's own function (LANGUAGE internal, the symbol
-- gen_random_uuid that every server since 13 has), in the extension's schema
-- on every server: on 18+ pg_catalog's uuidv4() comes first in an unqualified
-- call, as with uuidv7(), and ours serves the dumps of older servers.
-- ---------------------------------------------------------------------------

CREATE FUNCTION uuidv4() RETURNS uuid
    AS 'gen_random_uuid' LANGUAGE internal VOLATILE STRICT PARALLEL SAFE;

-- An unqualified COMMENT ON FUNCTION uuidv4() would find 18's in pg_catalog.
DO $$
BEGIN
  EXECUTE pg_catalog.format('COMMENT ON FUNCTION %I.uuidv4() IS %L', pg_catalog.current_schema(),
    'new random (version 4) UUID: core''s gen_random_uuid() under PostgreSQL 18''s name; on 18+ an unqualified uuidv4() is the core''s');
END
$$;
