-- ulid_tsid 0.3.0 -> 0.4.0 (ALTER EXTENSION ulid_tsid UPDATE).

\echo Use "ALTER EXTENSION ulid_tsid UPDATE" to load this file. \quit
