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
