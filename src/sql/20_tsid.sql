-- ---------------------------------------------------------------------------
-- tsid: a 64-bit TSID (42-bit ms since 2020-01-01Z, then node id and counter)
-- stored as an int8, so comparison, hashing, sortsupport and binary I/O bind to
-- Postgres's own int8 functions.
-- ---------------------------------------------------------------------------

CREATE TYPE tsid;

CREATE FUNCTION tsid_in(cstring) RETURNS tsid
    AS 'MODULE_PATHNAME', 'tsid_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_out(tsid) RETURNS cstring
    AS 'MODULE_PATHNAME', 'tsid_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_recv(internal) RETURNS tsid
    AS 'int8recv' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_send(tsid) RETURNS bytea
    AS 'int8send' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE tsid (
    INPUT = tsid_in,
    OUTPUT = tsid_out,
    RECEIVE = tsid_recv,
    SEND = tsid_send,
    LIKE = pg_catalog.int8,
    CATEGORY = 'U'
);
COMMENT ON TYPE tsid IS 'TSID: 42-bit ms since 2020-01-01Z, node id and counter in 64 bits, 13 Crockford base32 characters';
COMMENT ON FUNCTION tsid_in(cstring) IS 'tsid input: exactly 13 Crockford base32 characters';
COMMENT ON FUNCTION tsid_out(tsid) IS 'tsid output: 13 upper-case Crockford base32 characters';
COMMENT ON FUNCTION tsid_recv(internal) IS 'tsid binary input: a big-endian int8 (int8''s)';
COMMENT ON FUNCTION tsid_send(tsid) IS 'tsid binary output: a big-endian int8 (int8''s)';
COMMENT ON TYPE tsid[] IS 'array of tsid';

CREATE FUNCTION tsid_eq(tsid, tsid) RETURNS bool
    AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_ne(tsid, tsid) RETURNS bool
    AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_lt(tsid, tsid) RETURNS bool
    AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_le(tsid, tsid) RETURNS bool
    AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_gt(tsid, tsid) RETURNS bool
    AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_ge(tsid, tsid) RETURNS bool
    AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_cmp(tsid, tsid) RETURNS int4
    AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_sortsupport(internal) RETURNS void
    AS 'btint8sortsupport' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_hash(tsid) RETURNS int4
    AS 'hashint8' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_hash_extended(tsid, int8) RETURNS int8
    AS 'hashint8extended' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION tsid_cmp(tsid, tsid) IS 'btree comparison of tsids (signed int8 order: time order until 2089)';
COMMENT ON FUNCTION tsid_sortsupport(internal) IS 'btree sort support (int8''s)';
COMMENT ON FUNCTION tsid_hash(tsid) IS 'hash of a tsid (the same as its bigint''s)';
COMMENT ON FUNCTION tsid_hash_extended(tsid, int8) IS 'seeded 64-bit hash of a tsid (hash partitioning)';

CREATE OPERATOR = (
    LEFTARG = tsid, RIGHTARG = tsid, FUNCTION = tsid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = tsid, RIGHTARG = tsid, FUNCTION = tsid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = tsid, RIGHTARG = tsid, FUNCTION = tsid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = ulid_tsid_scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = tsid, RIGHTARG = tsid, FUNCTION = tsid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = ulid_tsid_scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = tsid, RIGHTARG = tsid, FUNCTION = tsid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = ulid_tsid_scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = tsid, RIGHTARG = tsid, FUNCTION = tsid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = ulid_tsid_scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON FUNCTION tsid_eq(tsid, tsid) IS 'implementation of = for tsid (int8''s)';
COMMENT ON FUNCTION tsid_ne(tsid, tsid) IS 'implementation of <> for tsid (int8''s)';
COMMENT ON FUNCTION tsid_lt(tsid, tsid) IS 'implementation of < for tsid (int8''s)';
COMMENT ON FUNCTION tsid_le(tsid, tsid) IS 'implementation of <= for tsid (int8''s)';
COMMENT ON FUNCTION tsid_gt(tsid, tsid) IS 'implementation of > for tsid (int8''s)';
COMMENT ON FUNCTION tsid_ge(tsid, tsid) IS 'implementation of >= for tsid (int8''s)';
COMMENT ON OPERATOR = (tsid, tsid) IS 'equal';
COMMENT ON OPERATOR <> (tsid, tsid) IS 'not equal';
COMMENT ON OPERATOR < (tsid, tsid) IS 'less than';
COMMENT ON OPERATOR <= (tsid, tsid) IS 'less than or equal';
COMMENT ON OPERATOR > (tsid, tsid) IS 'greater than';
COMMENT ON OPERATOR >= (tsid, tsid) IS 'greater than or equal';

CREATE OPERATOR CLASS tsid_ops DEFAULT FOR TYPE tsid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 tsid_cmp(tsid, tsid),
    FUNCTION 2 tsid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS tsid_hash_ops DEFAULT FOR TYPE tsid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 tsid_hash(tsid),
    FUNCTION 2 tsid_hash_extended(tsid, int8);

CREATE OPERATOR CLASS tsid_minmax_ops DEFAULT FOR TYPE tsid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 pg_catalog.brin_minmax_opcinfo(internal),
    FUNCTION 2 pg_catalog.brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 pg_catalog.brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 pg_catalog.brin_minmax_union(internal, internal, internal);

CREATE FUNCTION tsid_smaller(tsid, tsid) RETURNS tsid
    AS 'int8smaller' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_larger(tsid, tsid) RETURNS tsid
    AS 'int8larger' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tsid_smaller(tsid, tsid) IS 'the smaller of two tsids (min() transition)';
COMMENT ON FUNCTION tsid_larger(tsid, tsid) IS 'the larger of two tsids (max() transition)';
-- No combine function: see min(ulid) in 10_ulid.sql.
CREATE AGGREGATE min(tsid) (
    SFUNC = tsid_smaller, STYPE = tsid, SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(tsid) (
    SFUNC = tsid_larger, STYPE = tsid, SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(tsid) IS 'smallest (oldest) tsid';
COMMENT ON AGGREGATE max(tsid) IS 'largest (newest) tsid';

-- Taking a TSID apart.
CREATE FUNCTION tsid_timestamp(tsid) RETURNS timestamptz SUPPORT ulid_tsid_time_support
    AS 'MODULE_PATHNAME', 'tsid_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_lower_bound(timestamptz) RETURNS tsid
    AS 'MODULE_PATHNAME', 'tsid_lower_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_upper_bound(timestamptz) RETURNS tsid
    AS 'MODULE_PATHNAME', 'tsid_upper_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_node(tsid, node_bits int4) RETURNS int4
    AS 'MODULE_PATHNAME', 'tsid_node' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tsid_counter(tsid, node_bits int4) RETURNS int4
    AS 'MODULE_PATHNAME', 'tsid_counter' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION tsid_timestamp(tsid) IS 'creation time of a tsid, to the millisecond';
COMMENT ON FUNCTION tsid_lower_bound(timestamptz) IS 'smallest tsid of the timestamp''s millisecond: WHERE id >= tsid_lower_bound(t1) AND id < tsid_lower_bound(t2) is an index range scan';
COMMENT ON FUNCTION tsid_upper_bound(timestamptz) IS 'largest tsid of the timestamp''s millisecond';
COMMENT ON FUNCTION tsid_node(tsid, int4) IS 'node id of a tsid whose layout has node_bits node bits';
COMMENT ON FUNCTION tsid_counter(tsid, int4) IS 'counter of a tsid whose layout has node_bits node bits';

-- Casts: tsid and bigint are the same 8 bytes. Assignment both ways lets
-- generate_tsid() be the DEFAULT of a bigint key and ALTER ... TYPE tsid USING
-- id::tsid work, without an implicit cast to make operators ambiguous.
CREATE CAST (tsid AS int8) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (int8 AS tsid) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (tsid AS text) WITH INOUT AS ASSIGNMENT;
CREATE CAST (text AS tsid) WITH INOUT;
CREATE CAST (tsid AS timestamptz) WITH FUNCTION tsid_timestamp(tsid);
CREATE CAST (timestamptz AS tsid) WITH FUNCTION tsid_lower_bound(timestamptz);
COMMENT ON CAST (tsid AS int8) IS 'the same 8 bytes as a bigint';
COMMENT ON CAST (int8 AS tsid) IS 'the same 8 bytes as a tsid (any bigint is accepted)';
COMMENT ON CAST (tsid AS text) IS '13 Crockford base32 characters';
COMMENT ON CAST (text AS tsid) IS 'tsid from exactly 13 Crockford base32 characters (decimal text goes through bigint)';
COMMENT ON CAST (tsid AS timestamptz) IS 'creation time, to the millisecond (tsid_timestamp)';
COMMENT ON CAST (timestamptz AS tsid) IS 'smallest tsid of the timestamp''s millisecond (tsid_lower_bound)';

CREATE FUNCTION generate_tsid() RETURNS tsid
    AS 'MODULE_PATHNAME', 'generate_tsid' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION generate_tsid() IS 'new tsid: never a duplicate within the database, strictly increasing per session (across the database when preloaded)';
