
-- The generators' persisted high-water mark (README: Guarantees): written by
-- the library in place, WAL-logged as nextval() logs a sequence, never by SQL.
-- ulid_tsid_mark: last_value is the reservation (Unix ms; no value returned by
-- the lifetime that wrote it is later), log_cnt that lifetime. ulid_tsid_mark_floor:
-- last_value is what a new backend of that lifetime starts above. No role needs
-- a privilege on them to generate; SELECT is granted to PUBLIC so that any role
-- that may dump the database can read them (pg_dump carries both values, and
-- the objects of a trusted extension belong to the bootstrap superuser).
CREATE SEQUENCE ulid_tsid_mark AS bigint MINVALUE 0 START 0 NO CYCLE;
CREATE SEQUENCE ulid_tsid_mark_floor AS bigint MINVALUE 0 START 0 NO CYCLE;
DO $$
BEGIN
  PERFORM pg_catalog.pg_extension_config_dump(
    pg_catalog.format('%I.ulid_tsid_mark', pg_catalog.current_schema())::pg_catalog.regclass, '');
  PERFORM pg_catalog.pg_extension_config_dump(
    pg_catalog.format('%I.ulid_tsid_mark_floor', pg_catalog.current_schema())::pg_catalog.regclass, '');
  EXECUTE pg_catalog.format('GRANT SELECT ON SEQUENCE %I.ulid_tsid_mark, %I.ulid_tsid_mark_floor TO PUBLIC',
    pg_catalog.current_schema(), pg_catalog.current_schema());
  EXECUTE pg_catalog.format('COMMENT ON SEQUENCE %I.ulid_tsid_mark IS %L', pg_catalog.current_schema(),
    'the generators'' reservation: no value returned before a restart, crash or promotion is above this Unix millisecond (written by the library only)');
  EXECUTE pg_catalog.format('COMMENT ON SEQUENCE %I.ulid_tsid_mark_floor IS %L', pg_catalog.current_schema(),
    'the generators'' floor: new sessions of the server lifetime that wrote ulid_tsid_mark start above this Unix millisecond (written by the library only)');
END
$$;
