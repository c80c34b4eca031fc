-- ---------------------------------------------------------------------------
-- The library first, before anything else: this script's C functions need the
-- library of this version or a later one. A server that preloads ulid_tsid
-- (shared_preload_libraries) runs, in every session, the library its
-- postmaster loaded at start, whatever files were installed since; a session
-- keeps the library it loaded first. With an older library, a CREATE FUNCTION
-- halfway down would stop with "could not find function ... in file"; this
-- block says what happened and what to do (docs/upgrading.md). LOAD brings in
-- the library file now installed where none is loaded yet (and changes
-- nothing where one is: a library is never loaded twice); the library sets
-- ulid_tsid.library_version (src/pg/module.cpp), which libraries before 0.4.0
-- lack. It is read from pg_settings with context internal, so that a
-- placeholder of that name (an early SET, before the library loads) never
-- passes for it. The script runs as a superuser (the extension is trusted),
-- which LOAD and reading shared_preload_libraries need.
-- ---------------------------------------------------------------------------

-- LOAD names the library as the functions do; where the server finds
-- libraries through dynamic_library_path instead (PostgreSQL 18's
-- extension_control_path installs, as Debian's package build tests them), the
-- bare name.
DO $load$
BEGIN
  EXECUTE 'LOAD ''MODULE_PATHNAME''';
EXCEPTION WHEN undefined_file THEN
  EXECUTE 'LOAD ''ulid_tsid''';
END
$load$;

DO $library$
DECLARE
  needed pg_catalog.text := '0.4.0';  -- this script's version (scripts/check-versions.sh)
  running pg_catalog.text;
  preloaded boolean;
BEGIN
  SELECT s.setting INTO running FROM pg_catalog.pg_settings s
   WHERE s.name OPERATOR(pg_catalog.=) 'ulid_tsid.library_version' AND s.context OPERATOR(pg_catalog.=) 'internal';
  IF (pg_catalog.regexp_match(running, '^(\d+)\.(\d+)\.(\d+)'))::pg_catalog.int4[]
       OPERATOR(pg_catalog.>=) (pg_catalog.regexp_match(needed, '^(\d+)\.(\d+)\.(\d+)'))::pg_catalog.int4[] THEN
    RETURN;
  END IF;
  preloaded := pg_catalog.current_setting('shared_preload_libraries')
    OPERATOR(pg_catalog.~) '(^|[\s,"/])ulid_tsid(\.so)?($|[\s,"])';
  RAISE EXCEPTION USING ERRCODE := 'object_not_in_prerequisite_state',
    MESSAGE := pg_catalog.format('ulid_tsid %s cannot be installed while %s runs an older ulid_tsid library (%s)', needed,
      CASE WHEN preloaded THEN 'the server' ELSE 'this session' END,
      CASE WHEN running IS NULL THEN 'older than ' OPERATOR(pg_catalog.||) needed ELSE 'version ' OPERATOR(pg_catalog.||) running END),
    DETAIL := CASE WHEN preloaded THEN
        'The server preloads it (shared_preload_libraries): every session runs the library the server loaded at its start, '
        'whatever files were installed since, and that one lacks functions ulid_tsid ' OPERATOR(pg_catalog.||) needed
        OPERATOR(pg_catalog.||) ' needs. Nothing was changed.'
      ELSE
        'A session keeps the library it loaded first, whatever files were installed since (or the library file on the '
        'server is older), and that one lacks functions ulid_tsid ' OPERATOR(pg_catalog.||) needed
        OPERATOR(pg_catalog.||) ' needs. Nothing was changed.' END,
    HINT := CASE WHEN preloaded THEN
        'Restart the server so that it loads the new library (install the new version''s files first, if not done), '
        'then run CREATE EXTENSION ulid_tsid again.'
      ELSE
        'Run CREATE EXTENSION ulid_tsid from a new session. If it fails there too, the library installed on the server '
        'is older: install the new version''s files first.' END;
END
$library$;
