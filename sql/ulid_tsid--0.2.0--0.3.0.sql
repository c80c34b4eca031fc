-- ulid_tsid 0.2.0 -> 0.3.0. Released scripts are frozen: this file is the
-- whole difference, and scripts/suites/upgrade.sh proves that an updated
-- database equals a fresh 0.3.0 install.
\echo Use "ALTER EXTENSION ulid_tsid UPDATE TO '0.3.0'" to load this file. \quit
