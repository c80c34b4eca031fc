-- ---------------------------------------------------------------------------
-- The planner's functions, declared before the types and operators that name
-- them, so that each operator and time function is created with the
-- estimator and support function it has (nothing is altered afterwards).
-- ---------------------------------------------------------------------------

CREATE FUNCTION ulid_tsid_time_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'ulid_tsid_time_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_tsid_time_support(internal) IS 'planner support of ulid_timestamp(), tsid_timestamp() and uuidv7_timestamp(): their comparisons with a time become index conditions on the key';

-- Estimates: <, <=, >, >= on ulid and tsid place a key inside its histogram
-- bucket by its position (time first), as Postgres does for numbers, instead
-- of taking half a bucket; without a histogram they are scalarltsel() & co.
-- The key's own operators and the cross-type ones name them (a uuid placed as
-- the ulid of the same bytes, an integer as the tsid of the same value).
CREATE FUNCTION ulid_tsid_scalarltsel(internal, oid, internal, integer) RETURNS float8
    AS 'MODULE_PATHNAME', 'ulid_tsid_scalarltsel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_tsid_scalarlesel(internal, oid, internal, integer) RETURNS float8
    AS 'MODULE_PATHNAME', 'ulid_tsid_scalarlesel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_tsid_scalargtsel(internal, oid, internal, integer) RETURNS float8
    AS 'MODULE_PATHNAME', 'ulid_tsid_scalargtsel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_tsid_scalargesel(internal, oid, internal, integer) RETURNS float8
    AS 'MODULE_PATHNAME', 'ulid_tsid_scalargesel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_tsid_scalarltsel(internal, oid, internal, integer) IS 'restriction selectivity of < on keys: interpolates inside histogram buckets by the key''s time';
COMMENT ON FUNCTION ulid_tsid_scalarlesel(internal, oid, internal, integer) IS 'restriction selectivity of <= on keys: interpolates inside histogram buckets by the key''s time';
COMMENT ON FUNCTION ulid_tsid_scalargtsel(internal, oid, internal, integer) IS 'restriction selectivity of > on keys: interpolates inside histogram buckets by the key''s time';
COMMENT ON FUNCTION ulid_tsid_scalargesel(internal, oid, internal, integer) IS 'restriction selectivity of >= on keys: interpolates inside histogram buckets by the key''s time';
