# The portable edition beside the native extension (sourced, never run): what
# scripts/suites/portable.sh and scripts/suites/pgtle.sh (the same edition through
# pg_tle) both check. Needs q DB ARGS... (psql as the database owner, stop at the
# first error), WORK (logs) and a cluster of scripts/lib/pg.sh.
#   copy_tables FROM TO TABLE...   each table made in database TO with FROM's columns
#                                  and types, its rows copied over (COPY through psql)
#   bad_texts_sql <ROWS            prints a script that reads each (kind, input) of
#                                  ROWS (an INSERT's VALUES list, on stdin) as a ulid or tsid:
#                                  through the cast where the native types exist, else
#                                  ulid_from_text() or tsid_from_text(); one line each,
#                                  "kind 'input': SQLSTATE | message | detail | hint"
#   day_partitions TABLE:BOUND...  prints a DO block that gives each TABLE (partitioned
#                                  by RANGE (id)) a partition TABLE_YYYYMMDD for each day
#                                  from two days ago to tomorrow, from BOUND(day) to
#                                  BOUND(day + 1) (BOUND: tsid_lower_bound and the like)
#   concurrent_writers DB CLUSTER TX WHAT
#                                  for each generator, 8 pgbench clients of TX
#                                  transactions of 100 rows into c_GENERATOR (a UNIQUE
#                                  id) in DB of cluster CLUSTER, as the owner; a check
#                                  that every row is there and distinct (WHAT: the
#                                  edition, in its label)

copy_tables() {
  local from="$1" to="$2" t cols
  shift 2
  for t in "$@"; do
    cols="$(q "$from" -c "SELECT string_agg(format('%I %s', attname, format_type(atttypid, atttypmod)), ', ' ORDER BY attnum) FROM pg_attribute WHERE attrelid = '$t'::regclass AND attnum > 0")"
    q "$to" -c "CREATE UNLOGGED TABLE $t ($cols)"
    q "$from" -c "COPY $t TO STDOUT" | q "$to" -c "COPY $t FROM STDIN"
  done
}

bad_texts_sql() {
  printf 'CREATE TEMP TABLE bad (kind text, input text);\nINSERT INTO bad VALUES\n%s;\n' "$(cat)"
  cat <<'SQL'
CREATE TEMP TABLE got (kind text, input text, sqlstate text, message text, detail text, hint text);
DO $$
DECLARE b record; st text; msg text; det text; hnt text; native boolean := to_regtype('ulid') IS NOT NULL;
BEGIN
  FOR b IN SELECT * FROM bad LOOP
    BEGIN
      IF native THEN EXECUTE format('SELECT %L::%s', b.input, b.kind);
      ELSE EXECUTE format('SELECT %s_from_text(%L)', b.kind, b.input); END IF;
      INSERT INTO got VALUES (b.kind, b.input, 'accepted', NULL, NULL, NULL);
    EXCEPTION WHEN OTHERS THEN
      GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
      INSERT INTO got VALUES (b.kind, b.input, st, msg, det, hnt);
    END;
  END LOOP;
END $$;
SELECT format('%s %s: %s | %s | %s | %s', kind, quote_literal(input), sqlstate, message, detail, hint) FROM got ORDER BY kind, input COLLATE "C";
SQL
}

day_partitions() {
  local tb
  printf '%s\n' 'DO $$' 'DECLARE d date;' 'BEGIN' "  FOR d IN SELECT generate_series(current_date - 2, current_date + 1, '1 day')::date LOOP"
  for tb in "$@"; do
    printf "    EXECUTE format('CREATE TABLE %%I PARTITION OF %s FOR VALUES FROM (%%L) TO (%%L)', '%s_' || to_char(d, 'YYYYMMDD'),\n" "${tb%%:*}" "${tb%%:*}"
    printf '                   %s(d), %s(d + 1));\n' "${tb#*:}" "${tb#*:}"
  done
  printf '%s\n' '  END LOOP;' 'END $$;'
}

concurrent_writers() {
  local db="$1" cluster="$2" tx="$3" what="$4" gen type script total distinct
  for gen in generate_tsid generate_ulid generate_ulid_monotonic generate_uuidv7; do
    type=uuid; [ "$gen" = generate_tsid ] && type=bigint
    q "$db" -c "CREATE UNLOGGED TABLE c_$gen (id $type UNIQUE)"
    script="$(cluster_dir "$cluster")/$gen.sql"
    echo "INSERT INTO c_$gen (id) SELECT $gen() FROM generate_series(1, 100);" >"$script"
    chmod 644 "$script"
    pg_in pgbench -n -U owner -d "$db" -c 8 -j 2 -t "$tx" -f "$(pg_inside "$script")" >"$WORK/pgbench-$gen.log" 2>&1
    read -r total distinct < <(q "$db" -F ' ' -c "SELECT count(*), count(DISTINCT id) FROM c_$gen")
    check "8 concurrent writers (pgbench), $gen() of $what: $total rows, $distinct distinct" \
      bash -c "[ '$total' = $((8 * tx * 100)) ] && [ '$distinct' = '$total' ]"
  done
}
