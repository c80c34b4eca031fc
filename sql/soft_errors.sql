-- Soft input errors (PostgreSQL 16 and later): pg_input_is_valid() and
-- pg_input_error_info() see every input error of ulid and tsid, with the same
-- SQLSTATE, message and detail as the hard ERROR, and no ERROR is raised.
-- Before 16 the functions do not exist: the _1 output says so.
SELECT current_setting('server_version_num')::int >= 160000 AS has_soft_errors \gset
\if :has_soft_errors
SELECT t, pg_input_is_valid(t, 'ulid') AS valid, e.sql_error_code, e.message, e.detail
FROM (VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01arz3ndektsv4rrffq69g5fav'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
             (''), ('01ARZ3NDEKTSV4RRFFQ69G5FA'), ('01ARZ3NDEKTSV4RRFFQ69G5FAVX'), ('01ARZ3NDEKTSV4RRFFQ69G5FAU'),
             ('81ARZ3NDEKTSV4RRFFQ69G5FAV'), ('01ARZ3NDEKTSV4RRFFQ69G5FA!'), ('01ARZ3NDEKTSV4RRFFQ69G5F é'),
             (' 01ARZ3NDEKTSV4RRFFQ69G5FA')) v(t),
     LATERAL pg_input_error_info(t, 'ulid') e;
SELECT t, pg_input_is_valid(t, 'tsid') AS valid, e.sql_error_code, e.message, e.detail
FROM (VALUES ('0EP7TRC000402'), ('0ep7trc000402'), ('FZZZZZZZZZZZZ'), (''), ('0EP7TRC00040'),
             ('0EP7TRC0004020'), ('GZZZZZZZZZZZZ'), ('0EP7TRC00040U'), ('0EP7TRC0004-2'),
             ('915268788478279683')) v(t),
     LATERAL pg_input_error_info(t, 'tsid') e;
-- On 2,000 generated inputs (valid ones, bad characters, bad lengths, values
-- too large), the soft path accepts exactly what the hard path accepts.
CREATE TEMP TABLE soft_inputs AS
  SELECT left(s, 26 - (n % 5 = 0)::int) AS u, left(s, 13 + (n % 7 = 0)::int) AS t
  FROM (SELECT n, translate(md5(n::text) || md5((n * 7)::text), CASE WHEN n % 4 = 0 THEN 'abu' ELSE 'abc' END,
                            CASE WHEN n % 4 = 0 THEN 'AB!' ELSE 'XYZ' END) AS s
        FROM generate_series(1, 2000) n) g;
SELECT count(*) FILTER (WHERE pg_input_is_valid(u, 'ulid')) AS ulid_valid,
       count(*) FILTER (WHERE pg_input_is_valid(u, 'ulid') IS DISTINCT FROM (regress_try(format('SELECT %L::ulid', u)) = 'ok')) AS ulid_disagree,
       count(*) FILTER (WHERE pg_input_is_valid(t, 'tsid')) AS tsid_valid,
       count(*) FILTER (WHERE pg_input_is_valid(t, 'tsid') IS DISTINCT FROM (regress_try(format('SELECT %L::tsid', t)) = 'ok')) AS tsid_disagree
FROM soft_inputs;
\else
\echo 'PostgreSQL before 16 has no soft input errors (pg_input_is_valid): nothing to test here.'
\endif
