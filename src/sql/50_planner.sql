-- ---------------------------------------------------------------------------
-- Time predicates and the planner. WHERE ulid_timestamp(id) >= t (and <, <=,
-- =, >, BETWEEN, on tsid_timestamp() and uuidv7_timestamp() too) scans the
-- key's btree or BRIN index: their support function (05_planner_support.sql)
-- loads the library while the planner simplifies the query, and the library
-- then adds "id >= *_lower_bound_clamped(t)" / "id <= *_upper_bound_clamped(t)"
-- as index conditions, keeping the time predicate itself as the filter.
-- ---------------------------------------------------------------------------

CREATE FUNCTION uuidv7_timestamp(uuid) RETURNS timestamptz SUPPORT ulid_tsid_time_support
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
