-- ---------------------------------------------------------------------------
-- UUIDv7 on the core uuid type (RFC 9562, PostgreSQL 18's layout: 12 bits of
-- sub-millisecond precision in rand_a). PostgreSQL 18 has uuidv7() and 17 has
-- uuid_extract_*() in pg_catalog; on those servers the core's functions stand
-- and ours are not created (pg_catalog would shadow them anyway).
-- ---------------------------------------------------------------------------

DO $$
BEGIN
  IF current_setting('server_version_num')::int < 180000 THEN
    EXECUTE $sql$
      CREATE FUNCTION uuidv7() RETURNS uuid
        AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED$sql$;
    EXECUTE $sql$
      CREATE FUNCTION uuidv7(shift interval) RETURNS uuid
        AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7_shifted' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED$sql$;
    EXECUTE $sql$
      COMMENT ON FUNCTION uuidv7() IS 'new version-7 UUID (RFC 9562, as PostgreSQL 18): strictly increasing per session, cluster-wide when preloaded'$sql$;
    EXECUTE $sql$
      COMMENT ON FUNCTION uuidv7(interval) IS 'new version-7 UUID whose timestamp is now shifted by the interval (as PostgreSQL 18)'$sql$;
  END IF;
  IF current_setting('server_version_num')::int < 170000 THEN
    EXECUTE $sql$
      CREATE FUNCTION uuid_extract_timestamp(uuid) RETURNS timestamptz
        AS 'MODULE_PATHNAME', 'ulid_tsid_uuid_extract_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$sql$;
    EXECUTE $sql$
      CREATE FUNCTION uuid_extract_version(uuid) RETURNS int2
        AS 'MODULE_PATHNAME', 'ulid_tsid_uuid_extract_version' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE$sql$;
    EXECUTE $sql$
      COMMENT ON FUNCTION uuid_extract_timestamp(uuid) IS 'timestamp of a version 1 or 7 UUID of the RFC variant, else NULL (as PostgreSQL 17)'$sql$;
    EXECUTE $sql$
      COMMENT ON FUNCTION uuid_extract_version(uuid) IS 'version of a UUID of the RFC variant, else NULL (as PostgreSQL 17)'$sql$;
  END IF;
END
$$;

CREATE FUNCTION uuidv7_lower_bound(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuidv7_lower_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_upper_bound(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuidv7_upper_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_lower_bound(timestamptz) IS 'smallest version-7 UUID of the timestamp''s millisecond: WHERE id >= uuidv7_lower_bound(t1) AND id < uuidv7_lower_bound(t2) is an index range scan';
COMMENT ON FUNCTION uuidv7_upper_bound(timestamptz) IS 'largest version-7 UUID of the timestamp''s millisecond';
