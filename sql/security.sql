-- Security: leakproof comparisons keep indexes usable under row-level security;
-- the extension's objects are bound by OID, so a hostile search_path cannot
-- redirect them; a planted object makes the install fail instead of being used.

-- Row-level security: the key's equality is leakproof, so it goes into the index.
CREATE TABLE rls_docs (id ulid PRIMARY KEY, owner name, body text);
INSERT INTO rls_docs
SELECT ulid_lower_bound(timestamptz '2024-01-01 00:00:00Z' + n * interval '1 millisecond'),
       CASE WHEN n % 2 = 0 THEN 'regress_ulid_owner' ELSE 'someone_else' END, 'doc ' || n
FROM generate_series(1, 5000) n;
ANALYZE rls_docs;
ALTER TABLE rls_docs ENABLE ROW LEVEL SECURITY;
CREATE POLICY own_docs ON rls_docs USING (owner = current_user);
GRANT SELECT ON rls_docs TO regress_ulid_owner;
SELECT min(id) AS first_id FROM rls_docs WHERE owner = 'regress_ulid_owner' \gset
SET ROLE regress_ulid_owner;
SET enable_seqscan = off;
SELECT regress_plan(format('SELECT body FROM rls_docs WHERE id = %L', :'first_id'));
SELECT body FROM rls_docs WHERE id = :'first_id';
SELECT count(*) AS visible FROM rls_docs;
RESET enable_seqscan;
RESET ROLE;
-- Proof that leakproofness is what lets the index in: with ulid_eq marked NOT
-- LEAKPROOF (rolled back below) the policy must filter first, and the index is lost.
BEGIN;
ALTER FUNCTION ulid_eq(ulid, ulid) NOT LEAKPROOF;
SET LOCAL ROLE regress_ulid_owner;
SET LOCAL enable_seqscan = off;
SELECT regress_plan(format('SELECT body FROM rls_docs WHERE id = %L', :'first_id'));
ROLLBACK;
SELECT proleakproof FROM pg_proc WHERE oid = 'ulid_eq(ulid, ulid)'::regprocedure;
DROP TABLE rls_docs;

-- A hostile search_path that shadows the extension's functions and operators.
CREATE SCHEMA hostile;
CREATE FUNCTION hostile.generate_ulid() RETURNS ulid LANGUAGE sql AS $$SELECT '00000000000000000000000000'::ulid$$;
CREATE FUNCTION hostile.always_true(ulid, ulid) RETURNS bool LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR hostile.= (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = hostile.always_true);
CREATE FUNCTION hostile.ulid_larger(ulid, ulid) RETURNS ulid LANGUAGE sql AS $$SELECT '00000000000000000000000000'::ulid$$;
CREATE TABLE keyed (id ulid PRIMARY KEY DEFAULT generate_ulid(), t tsid DEFAULT generate_tsid());
SET search_path = hostile, public;
INSERT INTO keyed DEFAULT VALUES;
INSERT INTO keyed DEFAULT VALUES;
-- Defaults, the index, max() and casts are the extension's, bound by OID.
SELECT count(DISTINCT id) AS distinct_ids,
       max(id) OPERATOR(public.>) '00000000000000000000000000'::ulid AS real_max
FROM public.keyed;
SELECT count(*) AS found_by_index FROM public.keyed
WHERE id OPERATOR(public.=) (SELECT min(id) FROM public.keyed);
RESET search_path;
DROP TABLE keyed;
DROP SCHEMA hostile CASCADE;

-- An object planted under one of the extension's names: the install fails, nothing is used.
CREATE DATABASE regress_ulid_planted;
\c regress_ulid_planted
CREATE SCHEMA planted;
CREATE TYPE planted.tsid AS (x int);
\set ON_ERROR_STOP 0
\set VERBOSITY terse
CREATE EXTENSION ulid_tsid SCHEMA planted;
\set VERBOSITY default
\set ON_ERROR_STOP 1
SELECT count(*) AS extension_rows FROM pg_extension WHERE extname = 'ulid_tsid';
SELECT count(*) AS leftover_functions FROM pg_proc WHERE proname LIKE 'ulid%' OR proname LIKE 'tsid%';
\c contrib_regression
DROP DATABASE regress_ulid_planted;

-- No function is SECURITY DEFINER (also checked in install), and no function
-- of the extension is granted beyond PUBLIC's EXECUTE default.
SELECT count(*) AS security_definer FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid_tsid') AND p.prosecdef;
