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

-- Generators. VOLATILE; PARALLEL RESTRICTED so that a session's values come
-- from the leader and keep their strict order.
CREATE FUNCTION generate_ulid() RETURNS ulid
    AS 'MODULE_PATHNAME', 'generate_ulid' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION generate_ulid_monotonic() RETURNS ulid
    AS 'MODULE_PATHNAME', 'generate_ulid_monotonic' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION generate_ulid() IS 'new ulid: never repeats, strictly increasing per session (cluster-wide when preloaded), 64 fresh random bits in every value';
COMMENT ON FUNCTION generate_ulid_monotonic() IS 'new ulid in the ULID spec''s monotonic mode: previous random part + 1 within a millisecond; ERROR on overflow';
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

CREATE FUNCTION generate_tsid() RETURNS tsid
    AS 'MODULE_PATHNAME', 'generate_tsid' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION generate_tsid() IS 'new tsid: never a duplicate within the cluster, strictly increasing per session (cluster-wide when preloaded)';
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
