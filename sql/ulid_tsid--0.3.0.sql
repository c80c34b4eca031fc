-- ulid_tsid: time-sortable primary keys (ULID, TSID, UUIDv7) for PostgreSQL.
--
-- Built from src/sql/*.sql by the Makefile. Safe under any caller search_path:
-- CREATE EXTENSION puts pg_catalog first, and nothing here uses CREATE OR REPLACE,
-- so an object planted under one of our names makes the install fail instead of
-- being picked up.

\echo Use "CREATE EXTENSION ulid_tsid" to load this file. \quit
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
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
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
CREATE FUNCTION ulid_smaller(ulid, ulid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_larger(ulid, ulid) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(ulid) (
    SFUNC = ulid_smaller, STYPE = ulid, COMBINEFUNC = ulid_smaller, SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(ulid) (
    SFUNC = ulid_larger, STYPE = ulid, COMBINEFUNC = ulid_larger, SORTOP = >, PARALLEL = SAFE
);
COMMENT ON FUNCTION ulid_smaller(ulid, ulid) IS 'the smaller of two ulids (min() transition)';
COMMENT ON FUNCTION ulid_larger(ulid, ulid) IS 'the larger of two ulids (max() transition)';
COMMENT ON AGGREGATE min(ulid) IS 'smallest (oldest) ulid';
COMMENT ON AGGREGATE max(ulid) IS 'largest (newest) ulid';

-- Timestamps.
CREATE FUNCTION ulid_timestamp(ulid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_lower_bound(timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_lower_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_upper_bound(timestamptz) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_upper_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_timestamp(ulid) IS 'creation time of a ulid, to the millisecond';
COMMENT ON FUNCTION ulid_lower_bound(timestamptz) IS 'smallest ulid of the timestamp''s millisecond: WHERE id >= ulid_lower_bound(t1) AND id < ulid_lower_bound(t2) is an index range scan';
COMMENT ON FUNCTION ulid_upper_bound(timestamptz) IS 'largest ulid of the timestamp''s millisecond';

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
COMMENT ON CAST (timestamptz AS ulid) IS 'smallest ulid of the timestamp''s millisecond (ulid_lower_bound)';

-- Generators. VOLATILE; PARALLEL RESTRICTED so that a session's values come
-- from the leader and keep their strict order.
CREATE FUNCTION generate_ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'generate_ulid' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION generate_ulid_monotonic() RETURNS ulid
    AS 'MODULE_PATHNAME', 'generate_ulid_monotonic' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION generate_ulid() IS 'new ulid: never repeats, strictly increasing per session (cluster-wide when preloaded), 64 fresh random bits in every value';
COMMENT ON FUNCTION generate_ulid_monotonic() IS 'new ulid in the ULID spec''s monotonic mode: previous random part + 1 within a millisecond; ERROR on overflow';
-- ---------------------------------------------------------------------------
-- ulid next to uuid. Drivers send a UUID parameter as uuid, and a uuid column
-- may reference a ulid key: operators for both argument orders, in ulid's
-- btree, hash and BRIN families, so that such a condition is exact, uses the
-- ulid index and can be a foreign key. The families hold every pair of the two
-- types, uuid's own operators included: the planner and amvalidate expect a
-- family with cross-type members to be complete, and a foreign key looks up
-- the referencing type's own equality in the referenced key's family.
-- ---------------------------------------------------------------------------

-- ulid with uuid: the same 16 bytes, compared by uuid's functions.
CREATE FUNCTION ulid_uuid_eq(ulid, uuid) RETURNS bool
    AS 'uuid_eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_uuid_ne(ulid, uuid) RETURNS bool
    AS 'uuid_ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_uuid_lt(ulid, uuid) RETURNS bool
    AS 'uuid_lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_uuid_le(ulid, uuid) RETURNS bool
    AS 'uuid_le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_uuid_gt(ulid, uuid) RETURNS bool
    AS 'uuid_gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_uuid_ge(ulid, uuid) RETURNS bool
    AS 'uuid_ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ulid_uuid_cmp(ulid, uuid) RETURNS int4
    AS 'uuid_cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION ulid_uuid_eq(ulid, uuid) IS 'implementation of = for ulid and uuid (byte order)';
COMMENT ON FUNCTION ulid_uuid_ne(ulid, uuid) IS 'implementation of <> for ulid and uuid (byte order)';
COMMENT ON FUNCTION ulid_uuid_lt(ulid, uuid) IS 'implementation of < for ulid and uuid (byte order)';
COMMENT ON FUNCTION ulid_uuid_le(ulid, uuid) IS 'implementation of <= for ulid and uuid (byte order)';
COMMENT ON FUNCTION ulid_uuid_gt(ulid, uuid) IS 'implementation of > for ulid and uuid (byte order)';
COMMENT ON FUNCTION ulid_uuid_ge(ulid, uuid) IS 'implementation of >= for ulid and uuid (byte order)';
COMMENT ON FUNCTION ulid_uuid_cmp(ulid, uuid) IS 'btree comparison of ulid with uuid (byte order)';
CREATE OPERATOR = (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (ulid, uuid) IS 'equal';
COMMENT ON OPERATOR <> (ulid, uuid) IS 'not equal';
COMMENT ON OPERATOR < (ulid, uuid) IS 'less than';
COMMENT ON OPERATOR <= (ulid, uuid) IS 'less than or equal';
COMMENT ON OPERATOR > (ulid, uuid) IS 'greater than';
COMMENT ON OPERATOR >= (ulid, uuid) IS 'greater than or equal';
CREATE FUNCTION uuid_ulid_eq(uuid, ulid) RETURNS bool
    AS 'uuid_eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ulid_ne(uuid, ulid) RETURNS bool
    AS 'uuid_ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ulid_lt(uuid, ulid) RETURNS bool
    AS 'uuid_lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ulid_le(uuid, ulid) RETURNS bool
    AS 'uuid_le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ulid_gt(uuid, ulid) RETURNS bool
    AS 'uuid_gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ulid_ge(uuid, ulid) RETURNS bool
    AS 'uuid_ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION uuid_ulid_cmp(uuid, ulid) RETURNS int4
    AS 'uuid_cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION uuid_ulid_eq(uuid, ulid) IS 'implementation of = for uuid and ulid (byte order)';
COMMENT ON FUNCTION uuid_ulid_ne(uuid, ulid) IS 'implementation of <> for uuid and ulid (byte order)';
COMMENT ON FUNCTION uuid_ulid_lt(uuid, ulid) IS 'implementation of < for uuid and ulid (byte order)';
COMMENT ON FUNCTION uuid_ulid_le(uuid, ulid) IS 'implementation of <= for uuid and ulid (byte order)';
COMMENT ON FUNCTION uuid_ulid_gt(uuid, ulid) IS 'implementation of > for uuid and ulid (byte order)';
COMMENT ON FUNCTION uuid_ulid_ge(uuid, ulid) IS 'implementation of >= for uuid and ulid (byte order)';
COMMENT ON FUNCTION uuid_ulid_cmp(uuid, ulid) IS 'btree comparison of uuid with ulid (byte order)';
CREATE OPERATOR = (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (uuid, ulid) IS 'equal';
COMMENT ON OPERATOR <> (uuid, ulid) IS 'not equal';
COMMENT ON OPERATOR < (uuid, ulid) IS 'less than';
COMMENT ON OPERATOR <= (uuid, ulid) IS 'less than or equal';
COMMENT ON OPERATOR > (uuid, ulid) IS 'greater than';
COMMENT ON OPERATOR >= (uuid, ulid) IS 'greater than or equal';

ALTER OPERATOR FAMILY ulid_ops USING btree ADD
    OPERATOR 1 < (ulid, uuid),
    OPERATOR 2 <= (ulid, uuid),
    OPERATOR 3 = (ulid, uuid),
    OPERATOR 4 >= (ulid, uuid),
    OPERATOR 5 > (ulid, uuid),
    FUNCTION 1 (ulid, uuid) ulid_uuid_cmp(ulid, uuid),
    OPERATOR 1 < (uuid, ulid),
    OPERATOR 2 <= (uuid, ulid),
    OPERATOR 3 = (uuid, ulid),
    OPERATOR 4 >= (uuid, ulid),
    OPERATOR 5 > (uuid, ulid),
    FUNCTION 1 (uuid, ulid) uuid_ulid_cmp(uuid, ulid),
    OPERATOR 1 pg_catalog.< (uuid, uuid),
    OPERATOR 2 pg_catalog.<= (uuid, uuid),
    OPERATOR 3 pg_catalog.= (uuid, uuid),
    OPERATOR 4 pg_catalog.>= (uuid, uuid),
    OPERATOR 5 pg_catalog.> (uuid, uuid),
    FUNCTION 1 (uuid, uuid) pg_catalog.uuid_cmp(uuid, uuid),
    FUNCTION 2 (uuid, uuid) pg_catalog.uuid_sortsupport(internal);
ALTER OPERATOR FAMILY ulid_hash_ops USING hash ADD
    OPERATOR 1 = (ulid, uuid),
    OPERATOR 1 = (uuid, ulid),
    OPERATOR 1 pg_catalog.= (uuid, uuid),
    FUNCTION 1 pg_catalog.uuid_hash(uuid),
    FUNCTION 2 pg_catalog.uuid_hash_extended(uuid, int8);
ALTER OPERATOR FAMILY ulid_minmax_ops USING brin ADD
    OPERATOR 1 < (ulid, uuid),
    OPERATOR 2 <= (ulid, uuid),
    OPERATOR 3 = (ulid, uuid),
    OPERATOR 4 >= (ulid, uuid),
    OPERATOR 5 > (ulid, uuid);

COMMENT ON OPERATOR CLASS ulid_ops USING btree IS 'default btree operator class for ulid (time order), with uuid in its family';
COMMENT ON OPERATOR FAMILY ulid_ops USING btree IS 'btree operators for ulid and uuid, compared as bytes';
COMMENT ON OPERATOR CLASS ulid_hash_ops USING hash IS 'default hash operator class for ulid, with uuid in its family';
COMMENT ON OPERATOR FAMILY ulid_hash_ops USING hash IS 'hash operators for ulid and uuid (uuid''s hash of the same bytes)';
COMMENT ON OPERATOR CLASS ulid_minmax_ops USING brin IS 'default BRIN min/max operator class for ulid';
COMMENT ON OPERATOR FAMILY ulid_minmax_ops USING brin IS 'BRIN min/max operators for ulid, and ulid against uuid';
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
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = tsid, RIGHTARG = tsid, FUNCTION = tsid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = tsid, RIGHTARG = tsid, FUNCTION = tsid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = tsid, RIGHTARG = tsid, FUNCTION = tsid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
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
CREATE AGGREGATE min(tsid) (
    SFUNC = tsid_smaller, STYPE = tsid, COMBINEFUNC = tsid_smaller, SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(tsid) (
    SFUNC = tsid_larger, STYPE = tsid, COMBINEFUNC = tsid_larger, SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(tsid) IS 'smallest (oldest) tsid';
COMMENT ON AGGREGATE max(tsid) IS 'largest (newest) tsid';

-- Taking a TSID apart.
CREATE FUNCTION tsid_timestamp(tsid) RETURNS timestamptz
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
COMMENT ON FUNCTION generate_tsid() IS 'new tsid: never a duplicate within the cluster, strictly increasing per session (cluster-wide when preloaded)';
-- ---------------------------------------------------------------------------
-- tsid next to integers. Drivers send integers as int8, int4 or int2, and a
-- bigint column may reference a tsid key: operators for every integer width
-- in both argument orders, in tsid's btree, hash and BRIN families, with the
-- same signed order as tsid_cmp, so that WHERE id = $1 is exact, uses the tsid
-- index and can be a foreign key. As in core's integer_ops, the families hold
-- every pair of their types (core's integer operators included), and hashint8
-- hashes a value in int4 range as hashint4 and hashint2 do.
-- ---------------------------------------------------------------------------

-- tsid with int8: the same 8 bytes, compared by core's integer functions.
CREATE FUNCTION tsid_int8_eq(tsid, int8) RETURNS bool
    AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int8_ne(tsid, int8) RETURNS bool
    AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int8_lt(tsid, int8) RETURNS bool
    AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int8_le(tsid, int8) RETURNS bool
    AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int8_gt(tsid, int8) RETURNS bool
    AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int8_ge(tsid, int8) RETURNS bool
    AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int8_cmp(tsid, int8) RETURNS int4
    AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION tsid_int8_eq(tsid, int8) IS 'implementation of = for tsid and int8 (signed integer order)';
COMMENT ON FUNCTION tsid_int8_ne(tsid, int8) IS 'implementation of <> for tsid and int8 (signed integer order)';
COMMENT ON FUNCTION tsid_int8_lt(tsid, int8) IS 'implementation of < for tsid and int8 (signed integer order)';
COMMENT ON FUNCTION tsid_int8_le(tsid, int8) IS 'implementation of <= for tsid and int8 (signed integer order)';
COMMENT ON FUNCTION tsid_int8_gt(tsid, int8) IS 'implementation of > for tsid and int8 (signed integer order)';
COMMENT ON FUNCTION tsid_int8_ge(tsid, int8) IS 'implementation of >= for tsid and int8 (signed integer order)';
COMMENT ON FUNCTION tsid_int8_cmp(tsid, int8) IS 'btree comparison of tsid with int8 (signed integer order)';
CREATE OPERATOR = (
    LEFTARG = tsid, RIGHTARG = int8, FUNCTION = tsid_int8_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = tsid, RIGHTARG = int8, FUNCTION = tsid_int8_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = tsid, RIGHTARG = int8, FUNCTION = tsid_int8_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = tsid, RIGHTARG = int8, FUNCTION = tsid_int8_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = tsid, RIGHTARG = int8, FUNCTION = tsid_int8_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = tsid, RIGHTARG = int8, FUNCTION = tsid_int8_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (tsid, int8) IS 'equal';
COMMENT ON OPERATOR <> (tsid, int8) IS 'not equal';
COMMENT ON OPERATOR < (tsid, int8) IS 'less than';
COMMENT ON OPERATOR <= (tsid, int8) IS 'less than or equal';
COMMENT ON OPERATOR > (tsid, int8) IS 'greater than';
COMMENT ON OPERATOR >= (tsid, int8) IS 'greater than or equal';
CREATE FUNCTION int8_tsid_eq(int8, tsid) RETURNS bool
    AS 'int8eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_tsid_ne(int8, tsid) RETURNS bool
    AS 'int8ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_tsid_lt(int8, tsid) RETURNS bool
    AS 'int8lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_tsid_le(int8, tsid) RETURNS bool
    AS 'int8le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_tsid_gt(int8, tsid) RETURNS bool
    AS 'int8gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_tsid_ge(int8, tsid) RETURNS bool
    AS 'int8ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int8_tsid_cmp(int8, tsid) RETURNS int4
    AS 'btint8cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION int8_tsid_eq(int8, tsid) IS 'implementation of = for int8 and tsid (signed integer order)';
COMMENT ON FUNCTION int8_tsid_ne(int8, tsid) IS 'implementation of <> for int8 and tsid (signed integer order)';
COMMENT ON FUNCTION int8_tsid_lt(int8, tsid) IS 'implementation of < for int8 and tsid (signed integer order)';
COMMENT ON FUNCTION int8_tsid_le(int8, tsid) IS 'implementation of <= for int8 and tsid (signed integer order)';
COMMENT ON FUNCTION int8_tsid_gt(int8, tsid) IS 'implementation of > for int8 and tsid (signed integer order)';
COMMENT ON FUNCTION int8_tsid_ge(int8, tsid) IS 'implementation of >= for int8 and tsid (signed integer order)';
COMMENT ON FUNCTION int8_tsid_cmp(int8, tsid) IS 'btree comparison of int8 with tsid (signed integer order)';
CREATE OPERATOR = (
    LEFTARG = int8, RIGHTARG = tsid, FUNCTION = int8_tsid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = int8, RIGHTARG = tsid, FUNCTION = int8_tsid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = int8, RIGHTARG = tsid, FUNCTION = int8_tsid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = int8, RIGHTARG = tsid, FUNCTION = int8_tsid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = int8, RIGHTARG = tsid, FUNCTION = int8_tsid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = int8, RIGHTARG = tsid, FUNCTION = int8_tsid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (int8, tsid) IS 'equal';
COMMENT ON OPERATOR <> (int8, tsid) IS 'not equal';
COMMENT ON OPERATOR < (int8, tsid) IS 'less than';
COMMENT ON OPERATOR <= (int8, tsid) IS 'less than or equal';
COMMENT ON OPERATOR > (int8, tsid) IS 'greater than';
COMMENT ON OPERATOR >= (int8, tsid) IS 'greater than or equal';
-- tsid with int4: widened to int8, compared by core's integer functions.
CREATE FUNCTION tsid_int4_eq(tsid, int4) RETURNS bool
    AS 'int84eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int4_ne(tsid, int4) RETURNS bool
    AS 'int84ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int4_lt(tsid, int4) RETURNS bool
    AS 'int84lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int4_le(tsid, int4) RETURNS bool
    AS 'int84le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int4_gt(tsid, int4) RETURNS bool
    AS 'int84gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int4_ge(tsid, int4) RETURNS bool
    AS 'int84ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int4_cmp(tsid, int4) RETURNS int4
    AS 'btint84cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION tsid_int4_eq(tsid, int4) IS 'implementation of = for tsid and int4 (signed integer order)';
COMMENT ON FUNCTION tsid_int4_ne(tsid, int4) IS 'implementation of <> for tsid and int4 (signed integer order)';
COMMENT ON FUNCTION tsid_int4_lt(tsid, int4) IS 'implementation of < for tsid and int4 (signed integer order)';
COMMENT ON FUNCTION tsid_int4_le(tsid, int4) IS 'implementation of <= for tsid and int4 (signed integer order)';
COMMENT ON FUNCTION tsid_int4_gt(tsid, int4) IS 'implementation of > for tsid and int4 (signed integer order)';
COMMENT ON FUNCTION tsid_int4_ge(tsid, int4) IS 'implementation of >= for tsid and int4 (signed integer order)';
COMMENT ON FUNCTION tsid_int4_cmp(tsid, int4) IS 'btree comparison of tsid with int4 (signed integer order)';
CREATE OPERATOR = (
    LEFTARG = tsid, RIGHTARG = int4, FUNCTION = tsid_int4_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = tsid, RIGHTARG = int4, FUNCTION = tsid_int4_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = tsid, RIGHTARG = int4, FUNCTION = tsid_int4_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = tsid, RIGHTARG = int4, FUNCTION = tsid_int4_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = tsid, RIGHTARG = int4, FUNCTION = tsid_int4_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = tsid, RIGHTARG = int4, FUNCTION = tsid_int4_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (tsid, int4) IS 'equal';
COMMENT ON OPERATOR <> (tsid, int4) IS 'not equal';
COMMENT ON OPERATOR < (tsid, int4) IS 'less than';
COMMENT ON OPERATOR <= (tsid, int4) IS 'less than or equal';
COMMENT ON OPERATOR > (tsid, int4) IS 'greater than';
COMMENT ON OPERATOR >= (tsid, int4) IS 'greater than or equal';
CREATE FUNCTION int4_tsid_eq(int4, tsid) RETURNS bool
    AS 'int48eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int4_tsid_ne(int4, tsid) RETURNS bool
    AS 'int48ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int4_tsid_lt(int4, tsid) RETURNS bool
    AS 'int48lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int4_tsid_le(int4, tsid) RETURNS bool
    AS 'int48le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int4_tsid_gt(int4, tsid) RETURNS bool
    AS 'int48gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int4_tsid_ge(int4, tsid) RETURNS bool
    AS 'int48ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int4_tsid_cmp(int4, tsid) RETURNS int4
    AS 'btint48cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION int4_tsid_eq(int4, tsid) IS 'implementation of = for int4 and tsid (signed integer order)';
COMMENT ON FUNCTION int4_tsid_ne(int4, tsid) IS 'implementation of <> for int4 and tsid (signed integer order)';
COMMENT ON FUNCTION int4_tsid_lt(int4, tsid) IS 'implementation of < for int4 and tsid (signed integer order)';
COMMENT ON FUNCTION int4_tsid_le(int4, tsid) IS 'implementation of <= for int4 and tsid (signed integer order)';
COMMENT ON FUNCTION int4_tsid_gt(int4, tsid) IS 'implementation of > for int4 and tsid (signed integer order)';
COMMENT ON FUNCTION int4_tsid_ge(int4, tsid) IS 'implementation of >= for int4 and tsid (signed integer order)';
COMMENT ON FUNCTION int4_tsid_cmp(int4, tsid) IS 'btree comparison of int4 with tsid (signed integer order)';
CREATE OPERATOR = (
    LEFTARG = int4, RIGHTARG = tsid, FUNCTION = int4_tsid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = int4, RIGHTARG = tsid, FUNCTION = int4_tsid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = int4, RIGHTARG = tsid, FUNCTION = int4_tsid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = int4, RIGHTARG = tsid, FUNCTION = int4_tsid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = int4, RIGHTARG = tsid, FUNCTION = int4_tsid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = int4, RIGHTARG = tsid, FUNCTION = int4_tsid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (int4, tsid) IS 'equal';
COMMENT ON OPERATOR <> (int4, tsid) IS 'not equal';
COMMENT ON OPERATOR < (int4, tsid) IS 'less than';
COMMENT ON OPERATOR <= (int4, tsid) IS 'less than or equal';
COMMENT ON OPERATOR > (int4, tsid) IS 'greater than';
COMMENT ON OPERATOR >= (int4, tsid) IS 'greater than or equal';
-- tsid with int2: widened to int8, compared by core's integer functions.
CREATE FUNCTION tsid_int2_eq(tsid, int2) RETURNS bool
    AS 'int82eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int2_ne(tsid, int2) RETURNS bool
    AS 'int82ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int2_lt(tsid, int2) RETURNS bool
    AS 'int82lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int2_le(tsid, int2) RETURNS bool
    AS 'int82le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int2_gt(tsid, int2) RETURNS bool
    AS 'int82gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int2_ge(tsid, int2) RETURNS bool
    AS 'int82ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION tsid_int2_cmp(tsid, int2) RETURNS int4
    AS 'btint82cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION tsid_int2_eq(tsid, int2) IS 'implementation of = for tsid and int2 (signed integer order)';
COMMENT ON FUNCTION tsid_int2_ne(tsid, int2) IS 'implementation of <> for tsid and int2 (signed integer order)';
COMMENT ON FUNCTION tsid_int2_lt(tsid, int2) IS 'implementation of < for tsid and int2 (signed integer order)';
COMMENT ON FUNCTION tsid_int2_le(tsid, int2) IS 'implementation of <= for tsid and int2 (signed integer order)';
COMMENT ON FUNCTION tsid_int2_gt(tsid, int2) IS 'implementation of > for tsid and int2 (signed integer order)';
COMMENT ON FUNCTION tsid_int2_ge(tsid, int2) IS 'implementation of >= for tsid and int2 (signed integer order)';
COMMENT ON FUNCTION tsid_int2_cmp(tsid, int2) IS 'btree comparison of tsid with int2 (signed integer order)';
CREATE OPERATOR = (
    LEFTARG = tsid, RIGHTARG = int2, FUNCTION = tsid_int2_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = tsid, RIGHTARG = int2, FUNCTION = tsid_int2_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = tsid, RIGHTARG = int2, FUNCTION = tsid_int2_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = tsid, RIGHTARG = int2, FUNCTION = tsid_int2_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = tsid, RIGHTARG = int2, FUNCTION = tsid_int2_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = tsid, RIGHTARG = int2, FUNCTION = tsid_int2_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (tsid, int2) IS 'equal';
COMMENT ON OPERATOR <> (tsid, int2) IS 'not equal';
COMMENT ON OPERATOR < (tsid, int2) IS 'less than';
COMMENT ON OPERATOR <= (tsid, int2) IS 'less than or equal';
COMMENT ON OPERATOR > (tsid, int2) IS 'greater than';
COMMENT ON OPERATOR >= (tsid, int2) IS 'greater than or equal';
CREATE FUNCTION int2_tsid_eq(int2, tsid) RETURNS bool
    AS 'int28eq' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int2_tsid_ne(int2, tsid) RETURNS bool
    AS 'int28ne' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int2_tsid_lt(int2, tsid) RETURNS bool
    AS 'int28lt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int2_tsid_le(int2, tsid) RETURNS bool
    AS 'int28le' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int2_tsid_gt(int2, tsid) RETURNS bool
    AS 'int28gt' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int2_tsid_ge(int2, tsid) RETURNS bool
    AS 'int28ge' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION int2_tsid_cmp(int2, tsid) RETURNS int4
    AS 'btint28cmp' LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION int2_tsid_eq(int2, tsid) IS 'implementation of = for int2 and tsid (signed integer order)';
COMMENT ON FUNCTION int2_tsid_ne(int2, tsid) IS 'implementation of <> for int2 and tsid (signed integer order)';
COMMENT ON FUNCTION int2_tsid_lt(int2, tsid) IS 'implementation of < for int2 and tsid (signed integer order)';
COMMENT ON FUNCTION int2_tsid_le(int2, tsid) IS 'implementation of <= for int2 and tsid (signed integer order)';
COMMENT ON FUNCTION int2_tsid_gt(int2, tsid) IS 'implementation of > for int2 and tsid (signed integer order)';
COMMENT ON FUNCTION int2_tsid_ge(int2, tsid) IS 'implementation of >= for int2 and tsid (signed integer order)';
COMMENT ON FUNCTION int2_tsid_cmp(int2, tsid) IS 'btree comparison of int2 with tsid (signed integer order)';
CREATE OPERATOR = (
    LEFTARG = int2, RIGHTARG = tsid, FUNCTION = int2_tsid_eq,
    COMMUTATOR = =, NEGATOR = <>, RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = int2, RIGHTARG = tsid, FUNCTION = int2_tsid_ne,
    COMMUTATOR = <>, NEGATOR = =, RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = int2, RIGHTARG = tsid, FUNCTION = int2_tsid_lt,
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = int2, RIGHTARG = tsid, FUNCTION = int2_tsid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = int2, RIGHTARG = tsid, FUNCTION = int2_tsid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = int2, RIGHTARG = tsid, FUNCTION = int2_tsid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
COMMENT ON OPERATOR = (int2, tsid) IS 'equal';
COMMENT ON OPERATOR <> (int2, tsid) IS 'not equal';
COMMENT ON OPERATOR < (int2, tsid) IS 'less than';
COMMENT ON OPERATOR <= (int2, tsid) IS 'less than or equal';
COMMENT ON OPERATOR > (int2, tsid) IS 'greater than';
COMMENT ON OPERATOR >= (int2, tsid) IS 'greater than or equal';

ALTER OPERATOR FAMILY tsid_ops USING btree ADD
    OPERATOR 1 < (tsid, int8),
    OPERATOR 2 <= (tsid, int8),
    OPERATOR 3 = (tsid, int8),
    OPERATOR 4 >= (tsid, int8),
    OPERATOR 5 > (tsid, int8),
    FUNCTION 1 (tsid, int8) tsid_int8_cmp(tsid, int8),
    OPERATOR 1 < (int8, tsid),
    OPERATOR 2 <= (int8, tsid),
    OPERATOR 3 = (int8, tsid),
    OPERATOR 4 >= (int8, tsid),
    OPERATOR 5 > (int8, tsid),
    FUNCTION 1 (int8, tsid) int8_tsid_cmp(int8, tsid),
    OPERATOR 1 < (tsid, int4),
    OPERATOR 2 <= (tsid, int4),
    OPERATOR 3 = (tsid, int4),
    OPERATOR 4 >= (tsid, int4),
    OPERATOR 5 > (tsid, int4),
    FUNCTION 1 (tsid, int4) tsid_int4_cmp(tsid, int4),
    OPERATOR 1 < (int4, tsid),
    OPERATOR 2 <= (int4, tsid),
    OPERATOR 3 = (int4, tsid),
    OPERATOR 4 >= (int4, tsid),
    OPERATOR 5 > (int4, tsid),
    FUNCTION 1 (int4, tsid) int4_tsid_cmp(int4, tsid),
    OPERATOR 1 < (tsid, int2),
    OPERATOR 2 <= (tsid, int2),
    OPERATOR 3 = (tsid, int2),
    OPERATOR 4 >= (tsid, int2),
    OPERATOR 5 > (tsid, int2),
    FUNCTION 1 (tsid, int2) tsid_int2_cmp(tsid, int2),
    OPERATOR 1 < (int2, tsid),
    OPERATOR 2 <= (int2, tsid),
    OPERATOR 3 = (int2, tsid),
    OPERATOR 4 >= (int2, tsid),
    OPERATOR 5 > (int2, tsid),
    FUNCTION 1 (int2, tsid) int2_tsid_cmp(int2, tsid),
    OPERATOR 1 pg_catalog.< (int8, int8),
    OPERATOR 2 pg_catalog.<= (int8, int8),
    OPERATOR 3 pg_catalog.= (int8, int8),
    OPERATOR 4 pg_catalog.>= (int8, int8),
    OPERATOR 5 pg_catalog.> (int8, int8),
    FUNCTION 1 (int8, int8) pg_catalog.btint8cmp(int8, int8),
    FUNCTION 2 (int8, int8) pg_catalog.btint8sortsupport(internal),
    OPERATOR 1 pg_catalog.< (int8, int4),
    OPERATOR 2 pg_catalog.<= (int8, int4),
    OPERATOR 3 pg_catalog.= (int8, int4),
    OPERATOR 4 pg_catalog.>= (int8, int4),
    OPERATOR 5 pg_catalog.> (int8, int4),
    FUNCTION 1 (int8, int4) pg_catalog.btint84cmp(int8, int4),
    OPERATOR 1 pg_catalog.< (int8, int2),
    OPERATOR 2 pg_catalog.<= (int8, int2),
    OPERATOR 3 pg_catalog.= (int8, int2),
    OPERATOR 4 pg_catalog.>= (int8, int2),
    OPERATOR 5 pg_catalog.> (int8, int2),
    FUNCTION 1 (int8, int2) pg_catalog.btint82cmp(int8, int2),
    OPERATOR 1 pg_catalog.< (int4, int8),
    OPERATOR 2 pg_catalog.<= (int4, int8),
    OPERATOR 3 pg_catalog.= (int4, int8),
    OPERATOR 4 pg_catalog.>= (int4, int8),
    OPERATOR 5 pg_catalog.> (int4, int8),
    FUNCTION 1 (int4, int8) pg_catalog.btint48cmp(int4, int8),
    OPERATOR 1 pg_catalog.< (int4, int4),
    OPERATOR 2 pg_catalog.<= (int4, int4),
    OPERATOR 3 pg_catalog.= (int4, int4),
    OPERATOR 4 pg_catalog.>= (int4, int4),
    OPERATOR 5 pg_catalog.> (int4, int4),
    FUNCTION 1 (int4, int4) pg_catalog.btint4cmp(int4, int4),
    FUNCTION 2 (int4, int4) pg_catalog.btint4sortsupport(internal),
    OPERATOR 1 pg_catalog.< (int4, int2),
    OPERATOR 2 pg_catalog.<= (int4, int2),
    OPERATOR 3 pg_catalog.= (int4, int2),
    OPERATOR 4 pg_catalog.>= (int4, int2),
    OPERATOR 5 pg_catalog.> (int4, int2),
    FUNCTION 1 (int4, int2) pg_catalog.btint42cmp(int4, int2),
    OPERATOR 1 pg_catalog.< (int2, int8),
    OPERATOR 2 pg_catalog.<= (int2, int8),
    OPERATOR 3 pg_catalog.= (int2, int8),
    OPERATOR 4 pg_catalog.>= (int2, int8),
    OPERATOR 5 pg_catalog.> (int2, int8),
    FUNCTION 1 (int2, int8) pg_catalog.btint28cmp(int2, int8),
    OPERATOR 1 pg_catalog.< (int2, int4),
    OPERATOR 2 pg_catalog.<= (int2, int4),
    OPERATOR 3 pg_catalog.= (int2, int4),
    OPERATOR 4 pg_catalog.>= (int2, int4),
    OPERATOR 5 pg_catalog.> (int2, int4),
    FUNCTION 1 (int2, int4) pg_catalog.btint24cmp(int2, int4),
    OPERATOR 1 pg_catalog.< (int2, int2),
    OPERATOR 2 pg_catalog.<= (int2, int2),
    OPERATOR 3 pg_catalog.= (int2, int2),
    OPERATOR 4 pg_catalog.>= (int2, int2),
    OPERATOR 5 pg_catalog.> (int2, int2),
    FUNCTION 1 (int2, int2) pg_catalog.btint2cmp(int2, int2),
    FUNCTION 2 (int2, int2) pg_catalog.btint2sortsupport(internal);
ALTER OPERATOR FAMILY tsid_hash_ops USING hash ADD
    OPERATOR 1 = (tsid, int8),
    OPERATOR 1 = (int8, tsid),
    OPERATOR 1 = (tsid, int4),
    OPERATOR 1 = (int4, tsid),
    OPERATOR 1 = (tsid, int2),
    OPERATOR 1 = (int2, tsid),
    OPERATOR 1 pg_catalog.= (int8, int8),
    OPERATOR 1 pg_catalog.= (int8, int4),
    OPERATOR 1 pg_catalog.= (int8, int2),
    OPERATOR 1 pg_catalog.= (int4, int8),
    OPERATOR 1 pg_catalog.= (int4, int4),
    OPERATOR 1 pg_catalog.= (int4, int2),
    OPERATOR 1 pg_catalog.= (int2, int8),
    OPERATOR 1 pg_catalog.= (int2, int4),
    OPERATOR 1 pg_catalog.= (int2, int2),
    FUNCTION 1 pg_catalog.hashint8(int8),
    FUNCTION 2 pg_catalog.hashint8extended(int8, int8),
    FUNCTION 1 pg_catalog.hashint4(int4),
    FUNCTION 2 pg_catalog.hashint4extended(int4, int8),
    FUNCTION 1 pg_catalog.hashint2(int2),
    FUNCTION 2 pg_catalog.hashint2extended(int2, int8);
ALTER OPERATOR FAMILY tsid_minmax_ops USING brin ADD
    OPERATOR 1 < (tsid, int8),
    OPERATOR 2 <= (tsid, int8),
    OPERATOR 3 = (tsid, int8),
    OPERATOR 4 >= (tsid, int8),
    OPERATOR 5 > (tsid, int8),
    OPERATOR 1 < (tsid, int4),
    OPERATOR 2 <= (tsid, int4),
    OPERATOR 3 = (tsid, int4),
    OPERATOR 4 >= (tsid, int4),
    OPERATOR 5 > (tsid, int4),
    OPERATOR 1 < (tsid, int2),
    OPERATOR 2 <= (tsid, int2),
    OPERATOR 3 = (tsid, int2),
    OPERATOR 4 >= (tsid, int2),
    OPERATOR 5 > (tsid, int2);

COMMENT ON OPERATOR CLASS tsid_ops USING btree IS 'default btree operator class for tsid (signed int8 order), with int8, int4 and int2 in its family';
COMMENT ON OPERATOR FAMILY tsid_ops USING btree IS 'btree operators for tsid, int8, int4 and int2, compared as signed integers';
COMMENT ON OPERATOR CLASS tsid_hash_ops USING hash IS 'default hash operator class for tsid, with int8, int4 and int2 in its family';
COMMENT ON OPERATOR FAMILY tsid_hash_ops USING hash IS 'hash operators for tsid, int8, int4 and int2 (equal values hash alike)';
COMMENT ON OPERATOR CLASS tsid_minmax_ops USING brin IS 'default BRIN min/max operator class for tsid';
COMMENT ON OPERATOR FAMILY tsid_minmax_ops USING brin IS 'BRIN min/max operators for tsid, and tsid against int8, int4 and int2';
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
COMMENT ON FUNCTION generate_uuidv7() IS 'new version-7 UUID (RFC 9562): strictly increasing per session, cluster-wide when preloaded';
COMMENT ON FUNCTION generate_uuidv7(interval) IS 'new version-7 UUID whose timestamp is now shifted by the interval';

CREATE FUNCTION uuidv7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION uuidv7(shift interval) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuidv7_shifted' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION uuid_extract_timestamp(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_tsid_uuid_extract_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_extract_version(uuid) RETURNS int2
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

CREATE FUNCTION uuidv7_lower_bound(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuidv7_lower_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_upper_bound(timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuidv7_upper_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuidv7_lower_bound(timestamptz) IS 'smallest version-7 UUID of the timestamp''s millisecond: WHERE id >= uuidv7_lower_bound(t1) AND id < uuidv7_lower_bound(t2) is an index range scan';
COMMENT ON FUNCTION uuidv7_upper_bound(timestamptz) IS 'largest version-7 UUID of the timestamp''s millisecond';
-- ---------------------------------------------------------------------------
-- Public IDs. TypeID forms (prefix_ + lower-case base32) of every key kind, and
-- opaque forms: a keyed Feistel permutation under a domain, shown as a TypeID
-- whose prefix is the domain, revealing neither creation time nor order.
-- ---------------------------------------------------------------------------

CREATE FUNCTION typeid(ulid, prefix text) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_typeid_128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid(uuid, prefix text) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_typeid_128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid(tsid, prefix text) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_typeid_64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_to_ulid(typeid text, prefix text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_tsid_typeid_parse_128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_to_uuid(typeid text, prefix text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_typeid_parse_128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION typeid_to_tsid(typeid text, prefix text) RETURNS tsid
    AS 'MODULE_PATHNAME', 'ulid_tsid_typeid_parse_64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION typeid(ulid, text) IS 'TypeID (spec v0.3) of a ulid: prefix_ + 26 lower-case base32 characters';
COMMENT ON FUNCTION typeid(uuid, text) IS 'TypeID (spec v0.3) of a uuid: prefix_ + 26 lower-case base32 characters';
COMMENT ON FUNCTION typeid(tsid, text) IS 'TypeID-shaped form of a tsid: prefix_ + its 13 lower-case Crockford characters';
COMMENT ON FUNCTION typeid_to_ulid(text, text) IS 'ulid of a TypeID; ERROR 22P02 unless it has exactly the expected prefix';
COMMENT ON FUNCTION typeid_to_uuid(text, text) IS 'uuid of a TypeID; ERROR 22P02 unless it has exactly the expected prefix';
COMMENT ON FUNCTION typeid_to_tsid(text, text) IS 'tsid of its TypeID-shaped form; ERROR 22P02 unless it has exactly the expected prefix';

-- Opaque forms with the key from the file named by ulid_tsid.public_id_key_file
-- (STABLE: a reload can change it) and with an explicit 32-byte key (IMMUTABLE).
CREATE FUNCTION public_id(ulid, domain text) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_128' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(uuid, domain text) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_128' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(tsid, domain text) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_64' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(bigint, domain text) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_64' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_ulid(public_id text, domain text) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_parse_128' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_uuid(public_id text, domain text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_parse_128' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_tsid(public_id text, domain text) RETURNS tsid
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_parse_64' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_bigint(public_id text, domain text) RETURNS bigint
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_parse_64' LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION public_id(ulid, domain text, key bytea) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(uuid, domain text, key bytea) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(tsid, domain text, key bytea) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id(bigint, domain text, key bytea) RETURNS text
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_ulid(public_id text, domain text, key bytea) RETURNS ulid
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_parse_128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_uuid(public_id text, domain text, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_parse_128' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_tsid(public_id text, domain text, key bytea) RETURNS tsid
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_parse_64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION public_id_to_bigint(public_id text, domain text, key bytea) RETURNS bigint
    AS 'MODULE_PATHNAME', 'ulid_tsid_public_id_parse_64' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION public_id(ulid, text) IS 'opaque public form of a ulid under a domain (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id(uuid, text) IS 'opaque public form of a uuid under a domain (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id(tsid, text) IS 'opaque public form of a tsid under a domain (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id(bigint, text) IS 'opaque public form of a bigint under a domain (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id_to_ulid(text, text) IS 'the ulid behind a public form (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id_to_uuid(text, text) IS 'the uuid behind a public form (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id_to_tsid(text, text) IS 'the tsid behind a public form (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id_to_bigint(text, text) IS 'the bigint behind a public form (key: the file named by ulid_tsid.public_id_key_file)';
COMMENT ON FUNCTION public_id(ulid, text, bytea) IS 'opaque public form of a ulid under a domain and an explicit 32-byte key';
COMMENT ON FUNCTION public_id(uuid, text, bytea) IS 'opaque public form of a uuid under a domain and an explicit 32-byte key';
COMMENT ON FUNCTION public_id(tsid, text, bytea) IS 'opaque public form of a tsid under a domain and an explicit 32-byte key';
COMMENT ON FUNCTION public_id(bigint, text, bytea) IS 'opaque public form of a bigint under a domain and an explicit 32-byte key';
COMMENT ON FUNCTION public_id_to_ulid(text, text, bytea) IS 'the ulid behind a public form, with an explicit 32-byte key';
COMMENT ON FUNCTION public_id_to_uuid(text, text, bytea) IS 'the uuid behind a public form, with an explicit 32-byte key';
COMMENT ON FUNCTION public_id_to_tsid(text, text, bytea) IS 'the tsid behind a public form, with an explicit 32-byte key';
COMMENT ON FUNCTION public_id_to_bigint(text, text, bytea) IS 'the bigint behind a public form, with an explicit 32-byte key';
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
