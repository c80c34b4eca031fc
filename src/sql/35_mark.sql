-- The generators' persisted high-water mark (README: Guarantees), written by
-- the library in place, WAL-logged as nextval() logs a sequence, never by SQL:
-- ulid_tsid_mark: last_value is the reservation (Unix ms; no value returned by
-- the lifetime that wrote it is later), log_cnt that lifetime;
-- ulid_tsid_mark_floor: last_value is what a new backend of that lifetime
-- starts above. Both belong to the bootstrap superuser: no other role can move
-- them (setval() or ALTER SEQUENCE). ulid_tsid_mark_dumped: at least both, the
-- one that pg_dump carries (pg_extension_config_dump) and a restore sets; it
-- belongs to the extension's owner, so that the database's owner can restore a
-- dump, and the library reads it back as a floor that can only raise the mark.
-- No role needs a privilege on them to generate; PUBLIC may read them.
CREATE SEQUENCE ulid_tsid_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
CREATE SEQUENCE ulid_tsid_mark_floor AS bigint MINVALUE 0 START 0 NO CYCLE;
CREATE SEQUENCE ulid_tsid_mark_dumped AS bigint MINVALUE 0 START 0 NO CYCLE;
DO $$
DECLARE
  target pg_catalog.text := pg_catalog.current_schema();
  owner_name pg_catalog.name := (SELECT r.rolname FROM pg_catalog.pg_extension e
    JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) e.extowner
    WHERE e.extname OPERATOR(pg_catalog.=) 'ulid_tsid');
BEGIN
  PERFORM pg_catalog.pg_extension_config_dump(
    pg_catalog.format('%I.ulid_tsid_mark_dumped', target)::pg_catalog.regclass, '');
  EXECUTE pg_catalog.format('ALTER SEQUENCE %I.ulid_tsid_mark_dumped OWNER TO %I', target, owner_name);
  EXECUTE pg_catalog.format('GRANT SELECT ON SEQUENCE %I.ulid_tsid_mark, %I.ulid_tsid_mark_floor, %I.ulid_tsid_mark_dumped TO PUBLIC',
    target, target, target);
  EXECUTE pg_catalog.format('COMMENT ON SEQUENCE %I.ulid_tsid_mark IS %L', target,
    'the generators'' reservation: no value returned before a restart, crash or promotion is above this Unix millisecond (written by the library only)');
  EXECUTE pg_catalog.format('COMMENT ON SEQUENCE %I.ulid_tsid_mark_floor IS %L', target,
    'the generators'' floor: new sessions of the server lifetime that wrote ulid_tsid_mark start above this Unix millisecond (written by the library only)');
  EXECUTE pg_catalog.format('COMMENT ON SEQUENCE %I.ulid_tsid_mark_dumped IS %L', target,
    'the generators'' mark as pg_dump carries it (a restore sets it; it can only raise the mark)');
END
$$;

-- The mark for DBAs, and the two ways to move it by hand.
CREATE FUNCTION ulid_tsid_status(OUT mark timestamptz, OUT mark_floor timestamptz, OUT lead interval,
                                 OUT max_lead interval, OUT preloaded boolean, OUT standby boolean,
                                 OUT node_bits integer, OUT node_id integer, OUT tsid_slot_bits integer,
                                 OUT tsid_counter_bits integer, OUT server_copy_error text,
                                 OUT library_version text, OUT extension_version text) RETURNS record
    AS 'MODULE_PATHNAME', 'ulid_tsid_status' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
CREATE FUNCTION ulid_tsid_mark_raise(at_least timestamptz) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_tsid_mark_raise' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
CREATE FUNCTION ulid_tsid_mark_reset(to_time timestamptz DEFAULT pg_catalog.now()) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'ulid_tsid_mark_reset' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
REVOKE ALL ON FUNCTION ulid_tsid_mark_reset(timestamptz) FROM PUBLIC;
COMMENT ON FUNCTION ulid_tsid_status() IS 'the generators'' mark, its lead over the clock, how this server makes TSIDs, and the versions of the library and of the extension';
COMMENT ON FUNCTION ulid_tsid_mark_raise(timestamptz) IS 'raises the mark so that new keys are above the time (never lowers it); a superuser or the extension''s owner';
COMMENT ON FUNCTION ulid_tsid_mark_reset(timestamptz) IS 'sets the mark back to the time, after a clock that ran far ahead (superuser only; new keys may sort below earlier ones)';
