-- ulid_tsid: time-sortable primary keys (ULID, TSID, UUIDv7) for PostgreSQL.
--
-- Built from src/sql/*.sql by the Makefile. Safe under any caller search_path:
-- CREATE EXTENSION puts pg_catalog first, and nothing here uses CREATE OR REPLACE,
-- so an object planted under one of our names makes the install fail instead of
-- being picked up.

\echo Use "CREATE EXTENSION ulid_tsid" to load this file. \quit
