-- ---------------------------------------------------------------------------
-- Objects in the way, before anything is created.
--
-- Databases that come to this extension already hold keys made by something
-- else: the TSID article's PL/pgSQL generate_tsid(), a ulid type (pgx_ulid,
-- andrielfn's pg-ulid), a uuidv7() or uuidv4() polyfill. A CREATE of ours over
-- one of them would stop with a bare "already exists" after half the script
-- had run. This block finds every such object first and raises one error that
-- names it, says what it is, and points to the page of the docs with the
-- recipe (docs/migrating.md; TimescaleDB's: docs/timescaledb.md); the script
-- stops before creating anything (and CREATE EXTENSION rolls back as a whole).
--
-- The list holds every type of ours and every function of ours whose argument
-- types are all core types (a function with an argument of type ulid or tsid
-- cannot clash once the types do not): test/t/016_conflicts.pl plants each one
-- in turn and fails when the list misses one. The block runs as the bootstrap
-- superuser: every function, operator and type it uses is qualified.
-- ---------------------------------------------------------------------------

DO $conflicts$
DECLARE
  target pg_catalog.text := pg_catalog.current_schema();
  readme pg_catalog.text := 'ulid_tsid''s docs/migrating.md shows how';
  type_name pg_catalog.text;
  shown pg_catalog.text;
  sig pg_catalog.text;
  found_type pg_catalog.regtype;
  found_proc pg_catalog.regprocedure;
  owner_ext pg_catalog.text;
  what pg_catalog.text;
  advice pg_catalog.text;
BEGIN
  FOREACH type_name IN ARRAY ARRAY['ulid', 'tsid']::pg_catalog.text[] LOOP
    found_type := pg_catalog.to_regtype(pg_catalog.format('%I.%I', target, type_name));
    shown := pg_catalog.format('%I.%I', target, type_name);
    CONTINUE WHEN found_type IS NULL;
    SELECT e.extname INTO owner_ext
      FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
     WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
       AND d.objid OPERATOR(pg_catalog.=) found_type::pg_catalog.oid
       AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
       AND d.deptype OPERATOR(pg_catalog.=) 'e';
    SELECT CASE WHEN t.typrelid OPERATOR(pg_catalog.<>) 0 THEN 'the row type of a table or view'
                WHEN owner_ext IS NOT NULL THEN pg_catalog.format('a type of extension %I', owner_ext)
                ELSE 'a type that belongs to no extension' END
      INTO what FROM pg_catalog.pg_type t WHERE t.oid OPERATOR(pg_catalog.=) found_type::pg_catalog.oid;
    IF type_name OPERATOR(pg_catalog.=) 'ulid' THEN
      advice := 'pgx_ulid and andrielfn''s pg-ulid both name their type ulid. Create ulid_tsid in a schema of its own '
        '(CREATE SCHEMA ulid_tsid; CREATE EXTENSION ulid_tsid SCHEMA ulid_tsid), convert the columns to '
        'ulid_tsid.ulid, then drop the old extension: ' OPERATOR(pg_catalog.||) readme;
    ELSE
      advice := 'Rename or drop it, or create ulid_tsid in another schema (CREATE EXTENSION ulid_tsid SCHEMA ...): ' OPERATOR(pg_catalog.||) readme;
    END IF;
    RAISE EXCEPTION USING ERRCODE := 'duplicate_object',
      MESSAGE := pg_catalog.format('ulid_tsid cannot be created in schema %I: type %s already exists', target, shown),
      DETAIL := pg_catalog.format('It is %s; ulid_tsid creates a type of that name in the schema it is created in.', what),
      HINT := advice;
  END LOOP;

  FOREACH sig IN ARRAY ARRAY[
      'generate_tsid()', 'generate_ulid()', 'generate_ulid_monotonic()',
      'generate_uuidv7()', 'generate_uuidv7(pg_catalog.interval)',
      'uuidv7()', 'uuidv7(pg_catalog.interval)', 'uuidv4()',
      'uuid_extract_timestamp(pg_catalog.uuid)', 'uuid_extract_version(pg_catalog.uuid)',
      'uuidv7_timestamp(pg_catalog.uuid)',
      'ulid_in(pg_catalog.cstring)', 'ulid_recv(pg_catalog.internal)', 'ulid_sortsupport(pg_catalog.internal)',
      'ulid_from_bytea(pg_catalog.bytea)', 'ulid_from_timestamp(pg_catalog.timestamp)',
      'tsid_in(pg_catalog.cstring)', 'tsid_recv(pg_catalog.internal)', 'tsid_sortsupport(pg_catalog.internal)',
      'ulid_lower_bound(pg_catalog.timestamptz)', 'ulid_upper_bound(pg_catalog.timestamptz)',
      'ulid_lower_bound_clamped(pg_catalog.timestamptz)', 'ulid_upper_bound_clamped(pg_catalog.timestamptz)',
      'tsid_lower_bound(pg_catalog.timestamptz)', 'tsid_upper_bound(pg_catalog.timestamptz)',
      'tsid_lower_bound_clamped(pg_catalog.timestamptz)', 'tsid_upper_bound_clamped(pg_catalog.timestamptz)',
      'uuidv7_lower_bound(pg_catalog.timestamptz)', 'uuidv7_upper_bound(pg_catalog.timestamptz)',
      'uuidv7_lower_bound_clamped(pg_catalog.timestamptz)', 'uuidv7_upper_bound_clamped(pg_catalog.timestamptz)',
      'typeid(pg_catalog.uuid, pg_catalog.text)', 'typeid_to_ulid(pg_catalog.text, pg_catalog.text)',
      'typeid_to_uuid(pg_catalog.text, pg_catalog.text)', 'typeid_to_tsid(pg_catalog.text, pg_catalog.text)',
      'public_id(pg_catalog.uuid, pg_catalog.text)', 'public_id(pg_catalog.int8, pg_catalog.text)',
      'public_id(pg_catalog.uuid, pg_catalog.text, pg_catalog.bytea)',
      'public_id(pg_catalog.int8, pg_catalog.text, pg_catalog.bytea)',
      'public_id_to_ulid(pg_catalog.text, pg_catalog.text)', 'public_id_to_uuid(pg_catalog.text, pg_catalog.text)',
      'public_id_to_tsid(pg_catalog.text, pg_catalog.text)', 'public_id_to_bigint(pg_catalog.text, pg_catalog.text)',
      'public_id_to_ulid(pg_catalog.text, pg_catalog.text, pg_catalog.bytea)',
      'public_id_to_uuid(pg_catalog.text, pg_catalog.text, pg_catalog.bytea)',
      'public_id_to_tsid(pg_catalog.text, pg_catalog.text, pg_catalog.bytea)',
      'public_id_to_bigint(pg_catalog.text, pg_catalog.text, pg_catalog.bytea)',
      'ulid_tsid_time_support(pg_catalog.internal)',
      'ulid_tsid_status()', 'ulid_tsid_mark_raise(pg_catalog.timestamptz)', 'ulid_tsid_mark_reset(pg_catalog.timestamptz)',
      'ulid_tsid_scalarltsel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4)',
      'ulid_tsid_scalarlesel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4)',
      'ulid_tsid_scalargtsel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4)',
      'ulid_tsid_scalargesel(pg_catalog.internal, pg_catalog.oid, pg_catalog.internal, pg_catalog.int4)'
    ]::pg_catalog.text[] LOOP
    found_proc := pg_catalog.to_regprocedure(pg_catalog.format('%I.%s', target, sig));
    CONTINUE WHEN found_proc IS NULL;
    SELECT pg_catalog.format('%I.%I(%s)', target, p.proname, pg_catalog.pg_get_function_identity_arguments(p.oid))
      INTO shown FROM pg_catalog.pg_proc p WHERE p.oid OPERATOR(pg_catalog.=) found_proc::pg_catalog.oid;
    SELECT e.extname INTO owner_ext
      FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
     WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
       AND d.objid OPERATOR(pg_catalog.=) found_proc::pg_catalog.oid
       AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
       AND d.deptype OPERATOR(pg_catalog.=) 'e';
    SELECT pg_catalog.format('a function in language %s that belongs to %s', l.lanname,
             CASE WHEN owner_ext IS NULL THEN 'no extension' ELSE pg_catalog.format('extension %I', owner_ext) END)
      INTO what
      FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_language l ON l.oid OPERATOR(pg_catalog.=) p.prolang
     WHERE p.oid OPERATOR(pg_catalog.=) found_proc::pg_catalog.oid;
    IF sig OPERATOR(pg_catalog.=) 'generate_tsid()' THEN
      advice := pg_catalog.format('If it is the TSID article''s PL/pgSQL generator: in one transaction rename it '
        '(ALTER FUNCTION %s RENAME TO generate_tsid_plpgsql), CREATE EXTENSION ulid_tsid, point each '
        'column''s DEFAULT at the new generate_tsid(), then drop the old function and its sequence; '
        'existing keys keep their meaning; %s', shown, readme);
    ELSIF sig OPERATOR(pg_catalog.~) '^uuidv[47]\(' THEN
      advice := pg_catalog.format('If it stands in for PostgreSQL 18''s function of that name, drop it '
        '(ulid_tsid provides it on every server, and 18''s own in pg_catalog comes first there), or rename it and '
        'point the defaults that call it at the new one; %s', readme);
    ELSIF owner_ext OPERATOR(pg_catalog.=) 'timescaledb' THEN
      -- TimescaleDB 2.2x creates generate_uuidv7() in its schema (public by default).
      advice := 'TimescaleDB has a function of that name: create ulid_tsid in a schema of its own '
        '(CREATE SCHEMA ulid_tsid; CREATE EXTENSION ulid_tsid SCHEMA ulid_tsid) and put that schema on '
        'search_path after TimescaleDB''s; ulid_tsid''s docs/timescaledb.md shows how';
    ELSE
      advice := pg_catalog.format('Rename or drop it, or create ulid_tsid in another schema '
        '(CREATE EXTENSION ulid_tsid SCHEMA ...); %s', readme);
    END IF;
    RAISE EXCEPTION USING ERRCODE := 'duplicate_function',
      MESSAGE := pg_catalog.format('ulid_tsid cannot be created in schema %I: function %s already exists', target, shown),
      DETAIL := pg_catalog.format('It is %s; ulid_tsid creates a function of that name and argument types in the schema it is created in.', what),
      HINT := advice;
  END LOOP;
END
$conflicts$;

-- The mark's sequences (src/sql/35_mark.sql): a relation of one of their names
-- in the target schema, planted by any role with CREATE there, gets an error
-- that names it instead of a bare "already exists".
DO $conflicts$
DECLARE
  target pg_catalog.text := pg_catalog.current_schema();
  rel_name pg_catalog.text;
  what pg_catalog.text;
BEGIN
  FOREACH rel_name IN ARRAY ARRAY['ulid_tsid_mark', 'ulid_tsid_mark_floor', 'ulid_tsid_mark_dumped']::pg_catalog.text[] LOOP
    SELECT pg_catalog.format('a %s that belongs to role %I',
             CASE c.relkind WHEN 'S' THEN 'sequence' WHEN 'r' THEN 'table' WHEN 'v' THEN 'view'
                            WHEN 'm' THEN 'materialized view' WHEN 'i' THEN 'index' WHEN 'p' THEN 'partitioned table'
                            WHEN 'f' THEN 'foreign table' ELSE 'relation' END, r.rolname)
      INTO what
      FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
      JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) c.relowner
     WHERE n.nspname OPERATOR(pg_catalog.=) target AND c.relname OPERATOR(pg_catalog.=) rel_name;
    CONTINUE WHEN what IS NULL;
    RAISE EXCEPTION USING ERRCODE := 'duplicate_table',
      MESSAGE := pg_catalog.format('ulid_tsid cannot be installed in schema %I: relation %I.%I already exists', target, target, rel_name),
      DETAIL := pg_catalog.format('It is %s; ulid_tsid keeps its generators'' high-water mark in a sequence of that name in its schema.', what),
      HINT := 'Drop or rename it (it is not ulid_tsid''s), or install ulid_tsid in another schema (CREATE EXTENSION ulid_tsid SCHEMA ...).';
  END LOOP;
END
$conflicts$;
