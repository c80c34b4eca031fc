-- max() of a key with and without a combine function (see parallel_minmax.sh).
-- psql variables: rows, runs. Prints CSV: query,aggregate,plan,median_ms.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
-- 0.3.0's max(), with a combine function (0.4.0's has none: README, Distributed with Citus).
CREATE AGGREGATE max_with_combine(tsid) (SFUNC = tsid_larger, STYPE = tsid, COMBINEFUNC = tsid_larger, SORTOP = >, PARALLEL = SAFE);
CREATE AGGREGATE max_with_combine(ulid) (SFUNC = ulid_larger, STYPE = ulid, COMBINEFUNC = ulid_larger, SORTOP = >, PARALLEL = SAFE);
-- Keys with no index on them, and a filter: the plan must read the table.
CREATE TABLE minmax (u ulid NOT NULL DEFAULT generate_ulid(), ts tsid NOT NULL DEFAULT generate_tsid(),
                     grp int, pad text);
INSERT INTO minmax (grp, pad) SELECT g % 10, repeat('x', 40) FROM generate_series(1, :rows) g;
VACUUM ANALYZE minmax;
CREATE FUNCTION median_ms(query text, runs int) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
  times numeric[] := '{}';
  line text;
BEGIN
  FOR i IN 1..runs LOOP
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF) ' || query LOOP
      IF line ~ '^Execution Time' THEN
        times := times || substring(line FROM '([0-9.]+) ms')::numeric;
      END IF;
    END LOOP;
  END LOOP;
  RETURN (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY t) FROM unnest(times) t);
END $$;
CREATE FUNCTION plan_of(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  line text;
  nodes text := '';
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
    IF line ~ '(Aggregate|Seq Scan|Gather)' THEN
      nodes := nodes || CASE WHEN nodes = '' THEN '' ELSE ' / ' END
               || trim(regexp_replace(line, '^\s*(->\s*)?', ''));
    END IF;
  END LOOP;
  RETURN regexp_replace(nodes, ' on minmax', '', 'g');
END $$;
\pset format csv
\pset tuples_only off
SELECT format('max(%s) WHERE grp = 3', col) AS query, agg AS aggregate,
       plan_of(format('SELECT %s(%s) FROM minmax WHERE grp = 3', agg, col)) AS plan,
       median_ms(format('SELECT %s(%s) FROM minmax WHERE grp = 3', agg, col), :runs) AS median_ms
FROM (VALUES ('ts'), ('u')) c(col), (VALUES ('max'), ('max_with_combine')) a(agg)
ORDER BY 1, 2;
