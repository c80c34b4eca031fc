-- ulid_tsid 0.1.0 -> 0.2.0. Released scripts are frozen: this file is the
-- whole difference, and scripts/suites/upgrade.sh proves that an updated
-- database equals a fresh 0.2.0 install.

\echo Use "ALTER EXTENSION ulid_tsid UPDATE TO '0.2.0'" to load this file. \quit

-- UUIDv7: 0.1.0 created uuidv7() only before PostgreSQL 18 and uuid_extract_*()
-- only before 17; 0.2.0 has the same objects on every server. CREATE OR REPLACE
-- creates what is missing here and restates what 0.1.0 made (it refuses to
-- touch a function of that name that is not this extension's).
CREATE FUNCTION generate_uuidv7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION generate_uuidv7(shift interval) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7_shifted' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION generate_uuidv7() IS 'new version-7 UUID (RFC 9562): strictly increasing per session, cluster-wide when preloaded';
COMMENT ON FUNCTION generate_uuidv7(interval) IS 'new version-7 UUID whose timestamp is now shifted by the interval';

CREATE OR REPLACE FUNCTION uuidv7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE OR REPLACE FUNCTION uuidv7(shift interval) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7_shifted' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE OR REPLACE FUNCTION uuid_extract_timestamp(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuid_extract_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION uuid_extract_version(uuid) RETURNS int2
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuid_extract_version' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- COMMENT finds a function through the search path, where pg_catalog comes
-- first: name ours with their schema (this extension is relocatable, so the
-- script cannot use @extschema@; the creation schema is current_schema()).
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

-- Public IDs: the key moved from a setting to a file (ulid_tsid.public_id_key_file).
COMMENT ON FUNCTION public_id(ulid, text) IS 'opaque public form of a ulid under a domain (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id(uuid, text) IS 'opaque public form of a uuid under a domain (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id(tsid, text) IS 'opaque public form of a tsid under a domain (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id(bigint, text) IS 'opaque public form of a bigint under a domain (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id_to_ulid(text, text) IS 'the ulid behind a public form (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id_to_uuid(text, text) IS 'the uuid behind a public form (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id_to_tsid(text, text) IS 'the tsid behind a public form (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id_to_bigint(text, text) IS 'the bigint behind a public form (key: the file named by ulid_tsid.public_id_key_file)';
