-- A database owner who is not a superuser installs the trusted extension.
\set ECHO none
SELECT format('GRANT CREATE ON DATABASE %I TO regress_ulid_owner', current_database()) AS grant_sql \gset
\set ECHO all
-- (A role left by an earlier run against the same server: make installcheck twice.)
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_ulid_owner;
RESET client_min_messages;
CREATE ROLE regress_ulid_owner NOSUPERUSER;
:grant_sql;
SET ROLE regress_ulid_owner;
CREATE EXTENSION ulid_tsid;
RESET ROLE;
-- The version installed is the control file's default (scripts/check-versions.sh
-- holds that one to EXTVERSION; naming it here would be one more copy to raise):
-- ALTER EXTENSION ... UPDATE, which goes to the default, changes nothing. Not
-- pg_available_extensions: it reads the system's extension directory only, and a
-- package build tests the files it staged elsewhere (Debian's extension_destdir).
SELECT extversion AS installed_version FROM pg_extension WHERE extname = 'ulid_tsid' \gset
SET client_min_messages = warning;
ALTER EXTENSION ulid_tsid UPDATE;
RESET client_min_messages;
SELECT extowner::regrole AS owner, extversion = :'installed_version' AS default_version, extrelocatable
FROM pg_extension WHERE extname = 'ulid_tsid';

-- No function runs with its owner's rights, and every function says what it is for
-- (type I/O and the operators' implementation functions aside).
SELECT p.oid::regprocedure
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid_tsid')
  AND (p.prosecdef OR p.proconfig IS NOT NULL);
SELECT p.oid::regprocedure AS undocumented
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid_tsid')
  AND obj_description(p.oid, 'pg_proc') IS NULL
  AND p.oid NOT IN (SELECT oprcode FROM pg_operator)
  AND p.oid NOT IN (SELECT typinput FROM pg_type UNION SELECT typoutput FROM pg_type
                    UNION SELECT typreceive FROM pg_type UNION SELECT typsend FROM pg_type)
ORDER BY p.oid::regprocedure::text;

-- Shared by the suites that follow: an error as SQLSTATE, message and detail.
CREATE FUNCTION regress_try(query text, with_hint bool DEFAULT false) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  detail text;
  hint text;
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN others THEN
  GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
  RETURN SQLSTATE || ': ' || SQLERRM || coalesce(' | ' || nullif(detail, ''), '')
         || CASE WHEN with_hint THEN coalesce(' | HINT: ' || nullif(hint, ''), '') ELSE '' END;
END $$;

-- EXPLAIN (COSTS OFF) without what differs between server versions and says
-- nothing about our types: InitPlans' "(returns $0)" (gone in 17), the
-- "Index Cond: (x IS NOT NULL)" of min()/max() (gone in 17), a disabled
-- node's "Disabled: true" (new in 18), and min()/max()'s "Replaces:
-- MinMaxAggregate" line and "InitPlan minmax_1" names (new in 19; "InitPlan 1" before).
CREATE FUNCTION regress_plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    CONTINUE WHEN line ~ '^\s*(Disabled: true|Index Cond: \(\w+ IS NOT NULL\)|Replaces: MinMaxAggregate)$';
    RETURN NEXT regexp_replace(regexp_replace(line, ' \(returns \$\d+(,\$\d+)*\)', ''),
                               '^(\s*InitPlan )minmax_(\d+)$', '\1\2');
  END LOOP;
END $$;
