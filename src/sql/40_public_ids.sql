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
