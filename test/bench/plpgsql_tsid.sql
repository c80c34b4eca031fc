-- Fixture: the PL/pgSQL "TSID" generator that circulates in blog posts, gists
-- and Stack Overflow answers, as the baseline the extension replaces. Layout as
-- in the TSID spec: 42 bits of milliseconds since 2020-01-01 UTC, a 10-bit
-- node, a 12-bit counter. As usually copied: the node is random per call (no
-- coordination between writers) and the counter is a shared sequence cycling
-- 0..4095. Kept in its own schema so it cannot clash with the extension's
-- generate_tsid().
CREATE SCHEMA IF NOT EXISTS bench_plpgsql;

CREATE SEQUENCE IF NOT EXISTS bench_plpgsql.tsid_seq
    MINVALUE 0 MAXVALUE 4095 START 0 CYCLE;

CREATE OR REPLACE FUNCTION bench_plpgsql.plpgsql_generate_tsid() RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    tsid_epoch CONSTANT bigint := 1577836800000;  -- 2020-01-01T00:00:00Z in Unix ms
    now_ms  bigint;
    node    bigint;
    counter bigint;
BEGIN
    now_ms  := floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - tsid_epoch;
    node    := floor(random() * 1024)::bigint;
    counter := nextval('bench_plpgsql.tsid_seq') % 4096;
    RETURN (now_ms << 22) | (node << 12) | counter;
END
$$;
