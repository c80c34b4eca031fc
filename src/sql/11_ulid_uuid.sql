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
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = ulid_tsid_scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = ulid_tsid_scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = ulid_tsid_scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = ulid, RIGHTARG = uuid, FUNCTION = ulid_uuid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = ulid_tsid_scalargesel, JOIN = pg_catalog.scalargejoinsel
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
    COMMUTATOR = >, NEGATOR = >=, RESTRICT = ulid_tsid_scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_le,
    COMMUTATOR = >=, NEGATOR = >, RESTRICT = ulid_tsid_scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_gt,
    COMMUTATOR = <, NEGATOR = <=, RESTRICT = ulid_tsid_scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = uuid, RIGHTARG = ulid, FUNCTION = uuid_ulid_ge,
    COMMUTATOR = <=, NEGATOR = <, RESTRICT = ulid_tsid_scalargesel, JOIN = pg_catalog.scalargejoinsel
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
