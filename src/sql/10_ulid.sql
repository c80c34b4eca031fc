-- ---------------------------------------------------------------------------
-- ulid: 16 bytes, big-endian 48-bit Unix ms then 80 random bits. The bytes are
-- laid out like uuid's, so comparison, hashing, sortsupport and binary I/O bind
-- to Postgres's own uuid functions.
-- ---------------------------------------------------------------------------

CREATE TYPE ulid;

CREATE FUNCTION ulid_in(cstring) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_out(ulid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'ulid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_recv(internal) RETURNS ulid
    AS 'uuid_recv' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_send(ulid) RETURNS bytea
    AS 'uuid_send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE ulid (
    INPUT = ulid_in,
    OUTPUT = ulid_out,
    RECEIVE = ulid_recv,
    SEND = ulid_send,
    INTERNALLENGTH = 16,
    ALIGNMENT = char,
    STORAGE = plain,
    CATEGORY = 'U'
);
COMMENT ON TYPE ulid IS 'ULID: 48-bit Unix-ms timestamp and 80 random bits, 26 Crockford base32 characters';
COMMENT ON FUNCTION ulid_in(cstring) IS 'ulid input: 26 Crockford base32 characters';
COMMENT ON FUNCTION ulid_out(ulid) IS 'ulid output: 26 upper-case Crockford base32 characters';
COMMENT ON FUNCTION ulid_recv(internal) IS 'ulid binary input: 16 big-endian bytes (uuid''s)';
COMMENT ON FUNCTION ulid_send(ulid) IS 'ulid binary output: 16 big-endian bytes (uuid''s)';
COMMENT ON TYPE ulid[] IS 'array of ulid';

-- Comparison: uuid's functions over the same 16 bytes (memcmp order = time order).
CREATE FUNCTION ulid_eq(ulid, ulid) RETURNS bool
    AS 'uuid_eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ne(ulid, ulid) RETURNS bool
    AS 'uuid_ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_lt(ulid, ulid) RETURNS bool
    AS 'uuid_lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_le(ulid, ulid) RETURNS bool
    AS 'uuid_le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_gt(ulid, ulid) RETURNS bool
    AS 'uuid_gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_ge(ulid, ulid) RETURNS bool
    AS 'uuid_ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_cmp(ulid, ulid) RETURNS int4
    AS 'uuid_cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_sortsupport(internal) RETURNS void
    AS 'uuid_sortsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_hash(ulid) RETURNS int4
    AS 'uuid_hash' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_hash_extended(ulid, int8) RETURNS int8
    AS 'uuid_hash_extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_cmp(ulid, ulid) IS 'btree comparison of ulids (byte order, which is time order)';
COMMENT ON FUNCTION ulid_sortsupport(internal) IS 'btree sort support with abbreviated keys (uuid''s)';
COMMENT ON FUNCTION ulid_hash(ulid) IS 'hash of a ulid';
COMMENT ON FUNCTION ulid_hash_extended(ulid, int8) IS 'seeded 64-bit hash of a ulid (hash partitioning)';

CREATE OPERATOR = (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = ulid_tsid_scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = ulid_tsid_scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = ulid_tsid_scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = ulid_tsid_scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON FUNCTION ulid_eq(ulid, ulid) IS 'implementation of = for ulid (uuid''s)';
COMMENT ON FUNCTION ulid_ne(ulid, ulid) IS 'implementation of <> for ulid (uuid''s)';
COMMENT ON FUNCTION ulid_lt(ulid, ulid) IS 'implementation of < for ulid (uuid''s)';
COMMENT ON FUNCTION ulid_le(ulid, ulid) IS 'implementation of <= for ulid (uuid''s)';
COMMENT ON FUNCTION ulid_gt(ulid, ulid) IS 'implementation of > for ulid (uuid''s)';
COMMENT ON FUNCTION ulid_ge(ulid, ulid) IS 'implementation of >= for ulid (uuid''s)';
COMMENT ON OPERATOR = (ulid, ulid) IS 'equal';
COMMENT ON OPERATOR <> (ulid, ulid) IS 'not equal';
COMMENT ON OPERATOR < (ulid, ulid) IS 'less than';
COMMENT ON OPERATOR <= (ulid, ulid) IS 'less than or equal';
COMMENT ON OPERATOR > (ulid, ulid) IS 'greater than';
COMMENT ON OPERATOR >= (ulid, ulid) IS 'greater than or equal';

CREATE OPERATOR CLASS ulid_ops DEFAULT FOR TYPE ulid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 ulid_cmp(ulid, ulid),
    FUNCTION 2 ulid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS ulid_hash_ops DEFAULT FOR TYPE ulid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 ulid_hash(ulid),
    FUNCTION 2 ulid_hash_extended(ulid, int8);

CREATE OPERATOR CLASS ulid_minmax_ops DEFAULT FOR TYPE ulid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

-- min() and max(): with sortop, the planner answers them from the btree index.
-- No combine function (0.4.0): Citus sends an extension's aggregate that has one
-- to every shard as a partial aggregate that reads the whole shard, while it
-- sends one without it by its name, min()/max(), which each shard answers from
-- its index (README: Distributed with Citus). A single server then aggregates
-- them without a parallel partial step (on 2 cores that plan was the faster one:
-- test/bench/parallel_minmax.sh).
CREATE FUNCTION ulid_smaller(ulid, ulid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_larger(ulid, ulid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(ulid) (
    SFUNC = ulid_smaller, STYPE = ulid, SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(ulid) (
    SFUNC = ulid_larger, STYPE = ulid, SORTOP = >, PARALLEL = SAFE
);
COMMENT ON FUNCTION ulid_smaller(ulid, ulid) IS 'the smaller of two ulids (min() transition)';
COMMENT ON FUNCTION ulid_larger(ulid, ulid) IS 'the larger of two ulids (max() transition)';
COMMENT ON AGGREGATE min(ulid) IS 'smallest (oldest) ulid';
COMMENT ON AGGREGATE max(ulid) IS 'largest (newest) ulid';

-- Timestamps.
CREATE FUNCTION ulid_timestamp(ulid) RETURNS timestamptz SUPPORT ulid_tsid_time_support
    AS 'MODULE_PATHNAME', 'ulid_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_lower_bound(timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_lower_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_upper_bound(timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_upper_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_timestamp(ulid) IS 'creation time of a ulid, to the millisecond';
COMMENT ON FUNCTION ulid_lower_bound(timestamptz) IS 'smallest ulid of the timestamp''s millisecond: WHERE id >= ulid_lower_bound(t1) AND id < ulid_lower_bound(t2) is an index range scan';
COMMENT ON FUNCTION ulid_upper_bound(timestamptz) IS 'largest ulid of the timestamp''s millisecond';
-- timestamp (without time zone) read as UTC, as pgx_ulid and pg-ulid cast it:
-- its microseconds are the same number as the UTC instant's timestamptz, so
-- the same C code serves, with the same range and errors.
CREATE FUNCTION ulid_to_timestamp(ulid) RETURNS timestamp
    AS 'MODULE_PATHNAME', 'ulid_to_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_timestamp(timestamp) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_to_timestamp(ulid) IS 'creation time of a ulid as a UTC timestamp, to the millisecond';
COMMENT ON FUNCTION ulid_from_timestamp(timestamp) IS 'smallest ulid of a UTC timestamp''s millisecond';

-- bytea: uuid_send already returns the 16 raw bytes.
CREATE FUNCTION ulid_to_bytea(ulid) RETURNS bytea
    AS 'uuid_send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_from_bytea(bytea) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_from_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_to_bytea(ulid) IS 'the 16 big-endian bytes of a ulid';
COMMENT ON FUNCTION ulid_from_bytea(bytea) IS 'ulid from exactly 16 bytes';

-- Casts. ulid <-> uuid are the same bytes; assignment casts (not implicit) so
-- that operators and function calls stay unambiguous.
CREATE CAST (ulid AS uuid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (uuid AS ulid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (ulid AS text) WITH INOUT AS ASSIGNMENT;
CREATE CAST (text AS ulid) WITH INOUT;
CREATE CAST (ulid AS bytea) WITH FUNCTION ulid_to_bytea(ulid);
CREATE CAST (bytea AS ulid) WITH FUNCTION ulid_from_bytea(bytea);
CREATE CAST (ulid AS timestamptz) WITH FUNCTION ulid_timestamp(ulid);
CREATE CAST (timestamptz AS ulid) WITH FUNCTION ulid_lower_bound(timestamptz);
COMMENT ON CAST (ulid AS uuid) IS 'the same 16 bytes as a uuid';
COMMENT ON CAST (uuid AS ulid) IS 'the same 16 bytes as a ulid (any uuid is accepted)';
COMMENT ON CAST (ulid AS text) IS '26 Crockford base32 characters';
COMMENT ON CAST (text AS ulid) IS 'ulid from 26 Crockford base32 characters';
COMMENT ON CAST (ulid AS bytea) IS 'the 16 big-endian bytes (ulid_to_bytea)';
COMMENT ON CAST (bytea AS ulid) IS 'ulid from exactly 16 bytes (ulid_from_bytea)';
COMMENT ON CAST (ulid AS timestamptz) IS 'creation time, to the millisecond (ulid_timestamp)';
CREATE CAST (ulid AS timestamp) WITH FUNCTION ulid_to_timestamp(ulid);
CREATE CAST (timestamp AS ulid) WITH FUNCTION ulid_from_timestamp(timestamp);
COMMENT ON CAST (timestamptz AS ulid) IS 'smallest ulid of the timestamp''s millisecond (ulid_lower_bound)';
COMMENT ON CAST (ulid AS timestamp) IS 'creation time as a UTC timestamp (ulid_to_timestamp), as pgx_ulid and pg-ulid';
COMMENT ON CAST (timestamp AS ulid) IS 'smallest ulid of a UTC timestamp''s millisecond (ulid_from_timestamp)';

-- Generators. VOLATILE; PARALLEL RESTRICTED so that a session's values come
-- from the leader and keep their strict order.
CREATE FUNCTION generate_ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'generate_ulid' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION generate_ulid_monotonic() RETURNS ulid
    AS 'MODULE_PATHNAME', 'generate_ulid_monotonic' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION generate_ulid() IS 'new ulid: never repeats, strictly increasing per session (across the database when preloaded), 64 fresh random bits in every value';
COMMENT ON FUNCTION generate_ulid_monotonic() IS 'new ulid in the ULID spec''s monotonic mode: previous random part + 1 within a millisecond; ERROR on overflow';
