-- ---------------------------------------------------------------------------
-- Time predicates and the planner. WHERE ulid_timestamp(id) >= t (and <, <=,
-- =, >, BETWEEN, on tsid_timestamp() and uuidv7_timestamp() too) scans the
-- key's btree or BRIN index: the support function below loads the library
-- while the planner simplifies the query, and the library then adds
-- "id >= *_lower_bound_clamped(t)" / "id <= *_upper_bound_clamped(t)" as index
-- conditions, keeping the time predicate itself as the filter.
-- ---------------------------------------------------------------------------

CREATE FUNCTION uuidv7_timestamp(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'uuidv7_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_timestamp(uuid) IS 'creation time of a version-7 UUID, to the millisecond; NULL for any other UUID (its time predicates use the index on the uuid)';

CREATE FUNCTION ulid_lower_bound_clamped(timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_lower_bound_clamped' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_upper_bound_clamped(timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_upper_bound_clamped' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_lower_bound_clamped(timestamptz) RETURNS tsid
    AS 'MODULE_PATHNAME', 'tsid_lower_bound_clamped' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_upper_bound_clamped(timestamptz) RETURNS tsid
    AS 'MODULE_PATHNAME', 'tsid_upper_bound_clamped' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_lower_bound_clamped(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuidv7_lower_bound_clamped' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_upper_bound_clamped(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuidv7_upper_bound_clamped' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_lower_bound_clamped(timestamptz) IS 'ulid_lower_bound() of the timestamp clamped into 1970..10889 (infinities too), never an error: the planner''s index bound for ulid_timestamp() predicates';
COMMENT ON FUNCTION ulid_upper_bound_clamped(timestamptz) IS 'ulid_upper_bound() of the timestamp clamped into 1970..10889 (infinities too), never an error: the planner''s index bound for ulid_timestamp() predicates';
COMMENT ON FUNCTION tsid_lower_bound_clamped(timestamptz) IS 'tsid_lower_bound() of the timestamp clamped into 2020..2089 (the non-negative tsids), never an error: the planner''s index bound for tsid_timestamp() predicates';
COMMENT ON FUNCTION tsid_upper_bound_clamped(timestamptz) IS 'tsid_upper_bound() of the timestamp clamped into 2020..2089 (the non-negative tsids), never an error: the planner''s index bound for tsid_timestamp() predicates';
COMMENT ON FUNCTION uuidv7_lower_bound_clamped(timestamptz) IS 'uuidv7_lower_bound() of the timestamp clamped into 1970..10889 (infinities too), never an error: the planner''s index bound for uuidv7_timestamp() predicates';
COMMENT ON FUNCTION uuidv7_upper_bound_clamped(timestamptz) IS 'uuidv7_upper_bound() of the timestamp clamped into 1970..10889 (infinities too), never an error: the planner''s index bound for uuidv7_timestamp() predicates';

CREATE FUNCTION ulid_tsid_time_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME', 'ulid_tsid_time_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_tsid_time_support(internal) IS 'planner support of ulid_timestamp(), tsid_timestamp() and uuidv7_timestamp(): their comparisons with a time become index conditions on the key';
ALTER FUNCTION ulid_timestamp(ulid) SUPPORT ulid_tsid_time_support;
ALTER FUNCTION tsid_timestamp(tsid) SUPPORT ulid_tsid_time_support;
ALTER FUNCTION uuidv7_timestamp(uuid) SUPPORT ulid_tsid_time_support;

-- Estimates: <, <=, >, >= on ulid and tsid place a key inside its histogram
-- bucket by its position (time first), as Postgres does for numbers, instead
-- of taking half a bucket; without a histogram they are scalarltsel() & co.
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
-- The key's own operators and the cross-type ones (a uuid placed as the ulid of
-- the same bytes, an integer as the tsid of the same value).
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = ulid_tsid_scalarltsel);
ALTER OPERATOR <= (ulid, ulid) SET (RESTRICT = ulid_tsid_scalarlesel);
ALTER OPERATOR > (ulid, ulid) SET (RESTRICT = ulid_tsid_scalargtsel);
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = ulid_tsid_scalargesel);
ALTER OPERATOR < (ulid, uuid) SET (RESTRICT = ulid_tsid_scalarltsel);
ALTER OPERATOR <= (ulid, uuid) SET (RESTRICT = ulid_tsid_scalarlesel);
ALTER OPERATOR > (ulid, uuid) SET (RESTRICT = ulid_tsid_scalargtsel);
ALTER OPERATOR >= (ulid, uuid) SET (RESTRICT = ulid_tsid_scalargesel);
ALTER OPERATOR < (uuid, ulid) SET (RESTRICT = ulid_tsid_scalarltsel);
ALTER OPERATOR <= (uuid, ulid) SET (RESTRICT = ulid_tsid_scalarlesel);
ALTER OPERATOR > (uuid, ulid) SET (RESTRICT = ulid_tsid_scalargtsel);
ALTER OPERATOR >= (uuid, ulid) SET (RESTRICT = ulid_tsid_scalargesel);
ALTER OPERATOR < (tsid, tsid) SET (RESTRICT = ulid_tsid_scalarltsel);
ALTER OPERATOR <= (tsid, tsid) SET (RESTRICT = ulid_tsid_scalarlesel);
ALTER OPERATOR > (tsid, tsid) SET (RESTRICT = ulid_tsid_scalargtsel);
ALTER OPERATOR >= (tsid, tsid) SET (RESTRICT = ulid_tsid_scalargesel);
ALTER OPERATOR < (tsid, int8) SET (RESTRICT = ulid_tsid_scalarltsel);
ALTER OPERATOR <= (tsid, int8) SET (RESTRICT = ulid_tsid_scalarlesel);
ALTER OPERATOR > (tsid, int8) SET (RESTRICT = ulid_tsid_scalargtsel);
ALTER OPERATOR >= (tsid, int8) SET (RESTRICT = ulid_tsid_scalargesel);
ALTER OPERATOR < (int8, tsid) SET (RESTRICT = ulid_tsid_scalarltsel);
ALTER OPERATOR <= (int8, tsid) SET (RESTRICT = ulid_tsid_scalarlesel);
ALTER OPERATOR > (int8, tsid) SET (RESTRICT = ulid_tsid_scalargtsel);
ALTER OPERATOR >= (int8, tsid) SET (RESTRICT = ulid_tsid_scalargesel);
ALTER OPERATOR < (tsid, int4) SET (RESTRICT = ulid_tsid_scalarltsel);
ALTER OPERATOR <= (tsid, int4) SET (RESTRICT = ulid_tsid_scalarlesel);
ALTER OPERATOR > (tsid, int4) SET (RESTRICT = ulid_tsid_scalargtsel);
ALTER OPERATOR >= (tsid, int4) SET (RESTRICT = ulid_tsid_scalargesel);
ALTER OPERATOR < (int4, tsid) SET (RESTRICT = ulid_tsid_scalarltsel);
ALTER OPERATOR <= (int4, tsid) SET (RESTRICT = ulid_tsid_scalarlesel);
ALTER OPERATOR > (int4, tsid) SET (RESTRICT = ulid_tsid_scalargtsel);
ALTER OPERATOR >= (int4, tsid) SET (RESTRICT = ulid_tsid_scalargesel);
ALTER OPERATOR < (tsid, int2) SET (RESTRICT = ulid_tsid_scalarltsel);
ALTER OPERATOR <= (tsid, int2) SET (RESTRICT = ulid_tsid_scalarlesel);
ALTER OPERATOR > (tsid, int2) SET (RESTRICT = ulid_tsid_scalargtsel);
ALTER OPERATOR >= (tsid, int2) SET (RESTRICT = ulid_tsid_scalargesel);
ALTER OPERATOR < (int2, tsid) SET (RESTRICT = ulid_tsid_scalarltsel);
ALTER OPERATOR <= (int2, tsid) SET (RESTRICT = ulid_tsid_scalarlesel);
ALTER OPERATOR > (int2, tsid) SET (RESTRICT = ulid_tsid_scalargtsel);
ALTER OPERATOR >= (int2, tsid) SET (RESTRICT = ulid_tsid_scalargesel);
