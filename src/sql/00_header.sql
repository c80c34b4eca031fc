-- ulid_tsid: time-sortable primary keys (ULID, TSID, UUIDv7) for PostgreSQL.
--
-- Built from src/sql/ by the Makefile. The extension is trusted, so this
-- script runs as the bootstrap superuser for any role with CREATE on the
-- database, under the search path pg_catalog, target schema, pg_temp, where a
-- role may have planted functions and operators. So: every function and
-- operator that executable code (the DO block) uses, and every core function
-- or operator a declaration binds (RESTRICT = pg_catalog.eqsel, opclass
-- members), is written with its schema; the extension's own objects are named
-- bare, since the script creates them and no CREATE OR REPLACE is used (an
-- object planted under one of their names makes the install fail instead of
-- being used). scripts/check-sql-names.py checks all of it in the test run.

\echo Use "CREATE EXTENSION ulid_tsid" to load this file. \quit
