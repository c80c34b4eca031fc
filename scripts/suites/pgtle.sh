#!/usr/bin/env bash
# The portable edition installed through pg_tle, as on RDS, Aurora and Supabase: a
# server that preloads pg_tle (built from ../shared/vendor, scripts/lib/pgtle.sh),
# pg_tle created by the superuser (the service's part), and from then on only a
# role that is NOT a superuser, holds pgtle_admin and owns the database:
#   portable/ulid_tsid_portable--pg_tle.sql (pgtle.install_extension), CREATE
#   EXTENSION ulid_tsid_portable SCHEMA keys; checks against that install beside
#   the native extension in another database of the server (the same bits both
#   ways, text round trips, the same errors, 8 concurrent writers, partition
#   pruning); pg_dump and pg_restore of a database that uses it; an update to a
#   next version (pgtle.install_extension_version_sql, install_update_path, ALTER
#   EXTENSION ... UPDATE); DROP EXTENSION and pgtle.uninstall_extension. And, in
#   database "hostile", CREATE EXTENSION by the owner and by the superuser into schemas
#   where another role planted a function of its names or a cycling counter: refused.
#   PG_MAJOR=17 bash scripts/suites/pgtle.sh   (after scripts/suites/build.sh)
# Without ../shared/vendor/pg_tle-*.tar.gz, or on a major it does not build for,
# the suite says so in one line and passes nothing, fails nothing.
# PGTLE_VALUES (default 10000): values per kind and direction.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pgtle.sh"
cd "$ROOT"
PORT=${PGTLE_PORT:-$((56600 + PG_MAJOR))}
N=${PGTLE_VALUES:-10000}
WORK="$LOGS/pgtle-$PG_MAJOR-$PORT"
rm -rf "$WORK"; mkdir -p "$WORK"
t_start=$SECONDS

pgtle_get; rc=$?
if [ "$rc" -eq 2 ]; then echo "   pgtle: skipped on PostgreSQL $PG_MAJOR: $PGTLE_SKIP"; exit 0; fi
[ -z "$PGTLE_FELL_BACK" ] || echo "   not the release: $PGTLE_FELL_BACK"
check "$PGTLE_NAME built (or taken from the cache) and installed into PostgreSQL $PG_MAJOR" test "$rc" -eq 0 || exit 1

version="$(awk '$1 == "EXTVERSION" { print $3 }' Makefile)"
TLE_FILE=${PGTLE_FILE:-portable/ulid_tsid_portable--pg_tle.sql}   # another file: to show what the checks catch
check "portable/ulid_tsid_portable--pg_tle.sql and the database.dev package portable/dbdev/ are current (scripts/portable-pgtle.sh --check)" bash scripts/portable-pgtle.sh --check

# q DB ...: psql as the owner (not a superuser), stop at the first error.
q() { local db="$1"; shift; psql -qXAt -v ON_ERROR_STOP=1 -U owner -d "$db" "$@"; }
# qs DB ...: psql as the superuser (the service's part only: pg_tle, roles, the native extension).
qs() { local db="$1"; shift; psql -qXAt -v ON_ERROR_STOP=1 -U postgres -d "$db" "$@"; }
sql_true() { [ "$(q "$2" -c "$1" 2>>"$WORK/errors.log")" = t ]; }
# fails_with STATE DB SQL: the statement fails, with that SQLSTATE.
fails_with() {
  local out; out="$(psql -qXAt -U owner -d "$2" -v VERBOSITY=verbose -c "$3" 2>&1)"
  echo "$out" >>"$WORK/errors.log"
  case "$out" in *"ERROR:  $1:"*) return 0 ;; esac
  return 1
}

cluster_start "pgtle_$PORT" "$PORT" "shared_preload_libraries = 'pg_tle'" "timezone = 'UTC'" || exit 1
trap 'rc=$?; cluster_stop "pgtle_$PORT" 2>/dev/null; (exit $rc); suite_end' EXIT   # stopped however the suite ends
# The service's part, as its superuser: a database owner who may use pg_tle.
qs postgres -c "CREATE ROLE owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE" \
  -c "CREATE ROLE mallory LOGIN NOSUPERUSER" -c "CREATE DATABASE hostile OWNER owner" \
  -c "CREATE DATABASE app OWNER owner" -c "CREATE DATABASE native OWNER owner" -c "CREATE DATABASE restored OWNER owner" >/dev/null || exit 1
for db in app restored hostile; do qs "$db" -c "CREATE EXTENSION pg_tle" || exit 1; done
qs postgres -c "GRANT pgtle_admin TO owner" >/dev/null || exit 1
qs native -c "CREATE SCHEMA keys AUTHORIZATION owner" -c "CREATE EXTENSION ulid_tsid SCHEMA keys" \
  -c "ALTER DATABASE native SET search_path = \"\$user\", public, keys" || exit 1
check "pg_tle $(qs app -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_tle'") preloaded and created; the owner is no superuser, holds pgtle_admin, owns the database" sql_true "
  SELECT NOT rolsuper AND pg_has_role('owner', 'pgtle_admin', 'MEMBER')
     AND (SELECT datdba = 'owner'::regrole FROM pg_database WHERE datname = current_database())
  FROM pg_roles WHERE rolname = current_user" app
check "the server preloads pg_tle and nothing else" test "$(qs app -c "SHOW shared_preload_libraries")" = pg_tle

# --- install, as the owner ------------------------------------------------------------
check "the owner runs $TLE_FILE (pgtle.install_extension)" \
  bash -c "psql -qXAt -v ON_ERROR_STOP=1 -U owner -d app -f $TLE_FILE >$WORK/install.log 2>&1"
check "the owner: CREATE SCHEMA keys; CREATE EXTENSION ulid_tsid_portable SCHEMA keys" \
  q app -c "CREATE SCHEMA keys" -c "CREATE EXTENSION ulid_tsid_portable SCHEMA keys" -c "ALTER DATABASE app SET search_path = \"\$user\", public, keys"
check "the extension $version in schema keys: 39 functions and the two sequences, its members, owned by the owner, SQL and PL/pgSQL only" sql_true "
  SELECT (SELECT extversion = '$version' AND extnamespace = 'keys'::regnamespace AND extowner = 'owner'::regrole
          FROM pg_extension WHERE extname = 'ulid_tsid_portable')
     AND (SELECT count(*) = 39 AND bool_and(p.proowner = 'owner'::regrole) AND bool_and(l.lanname IN ('sql', 'plpgsql'))
          FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.pronamespace = 'keys'::regnamespace)
     AND (SELECT count(*) = 41 FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'ulid_tsid_portable'
          WHERE d.deptype = 'e')
     AND (SELECT bool_and(relowner = 'owner'::regrole) AND count(*) = 2 FROM pg_class
          WHERE oid IN ('keys.ulid_tsid_portable_tsid_seq'::regclass, 'keys.ulid_tsid_portable_ulid_seq'::regclass))" app

# --- planted objects: CREATE EXTENSION refuses them, naming them -----------------------------
# In database "hostile", mallory (no superuser, CREATE on the schemas) plants a
# function of the edition's names and a cycling sequence named like its counter in
# the schemas the extension is then created in, by the owner and by the superuser.
psql -qXAt -v ON_ERROR_STOP=1 -U owner -d hostile -f "$TLE_FILE" >"$WORK/hostile-install.log" 2>&1 || echo "   FAIL pg_tle registration in database hostile"
for who in owner postgres; do
  psql -qXAt -v ON_ERROR_STOP=1 -U owner -d hostile -c "CREATE SCHEMA f_$who" -c "CREATE SCHEMA q_$who" \
    -c "GRANT CREATE, USAGE ON SCHEMA f_$who, q_$who TO mallory" &&
  psql -qXAt -v ON_ERROR_STOP=1 -U mallory -d hostile \
    -c "CREATE FUNCTION f_$who.generate_ulid() RETURNS uuid LANGUAGE sql AS 'SELECT pg_catalog.gen_random_uuid()'" \
    -c "CREATE SEQUENCE q_$who.ulid_tsid_portable_tsid_seq MINVALUE 0 MAXVALUE 17 START 0 CYCLE" \
    -c "GRANT USAGE ON SEQUENCE q_$who.ulid_tsid_portable_tsid_seq TO PUBLIC" || exit 1
  for s in f q; do
    what=$([ $s = f ] && echo "f_$who.generate_ulid()" || echo "q_$who.ulid_tsid_portable_tsid_seq")
    psql -qXAt -U "$who" -d hostile -c "CREATE EXTENSION ulid_tsid_portable SCHEMA ${s}_$who" >"$WORK/hostile-$who-$s.log" 2>&1
    check "CREATE EXTENSION ulid_tsid_portable by $who into a schema with mallory's $what: refused, the error names it" \
      bash -c "! psql -qXAt -U owner -d hostile -c \"SELECT FROM pg_extension WHERE extname = 'ulid_tsid_portable'\" | grep -q . && grep -q 'ERROR:.*$what' $WORK/hostile-$who-$s.log"
    psql -qXAt -U postgres -d hostile -c "DROP EXTENSION IF EXISTS ulid_tsid_portable CASCADE" >/dev/null 2>&1
  done
done
# --- names that need quoting --------------------------------------------------------------
# pg_tle writes the schema CREATE EXTENSION names (quote_identifier) wherever the
# script says @extschema@, in code and in string literals alike. A role and a
# schema with ordinary names that need quoting (capitals, spaces, parentheses: a
# regular expression would read them as a group): the install, the keys, and the
# refusal of a planted function, by that role and by the superuser.
EU='Key Admin (EU)'
qs postgres -c "CREATE ROLE \"$EU\" LOGIN NOSUPERUSER" -c "GRANT pgtle_admin TO \"$EU\"" \
  -c "CREATE DATABASE names OWNER \"$EU\"" >/dev/null || exit 1
qs names -c "CREATE EXTENSION pg_tle" || exit 1
qn() { psql -qXAt -v ON_ERROR_STOP=1 -U "$EU" -d names "$@"; }
qn -f "$TLE_FILE" >"$WORK/names-install.log" 2>&1 || echo "   FAIL pg_tle registration in database names (by $EU)"
for s in 'Billing Keys (EU)' 'keys.v2 [C++]'; do
  out="$(qn 2>"$WORK/names-eu.log" <<SQL
CREATE SCHEMA "$s";
CREATE EXTENSION ulid_tsid_portable SCHEMA "$s";
SET search_path = "$s";
SELECT (SELECT count(*) FROM pg_proc WHERE pronamespace = '"$s"'::regnamespace AND proowner = (SELECT oid FROM pg_roles WHERE rolname = current_user))
  || ' ' || (SELECT count(DISTINCT v) FROM (SELECT generate_tsid() AS v FROM generate_series(1, 1000)) AS s)
  || ' ' || (SELECT count(*) FROM (SELECT 1 FROM generate_series(1, 100)
                                  WHERE ulid_from_text(ulid_to_text(generate_ulid_monotonic())) IS NOT NULL
                                    AND tsid_timestamp(tsid_from_text(tsid_to_text(generate_tsid()))) <= now() + interval '1 s') AS s);
DROP EXTENSION ulid_tsid_portable;
SQL
)"
  check "role \"$EU\" registers it and creates it in schema \"$s\": 39 functions of that role, 1000 distinct TSIDs, 100 text round trips ($out)" \
    test "$out" = "39 1000 100"
  qn -c "DROP EXTENSION IF EXISTS ulid_tsid_portable" >/dev/null 2>>"$WORK/errors.log"
done
for who in "$EU" postgres; do
  s="Billing Keys (US) $who"
  qn -c "CREATE SCHEMA \"$s\"" -c "GRANT CREATE, USAGE ON SCHEMA \"$s\" TO mallory" &&
    psql -qXAt -v ON_ERROR_STOP=1 -U mallory -d names \
      -c "CREATE FUNCTION \"$s\".generate_ulid() RETURNS uuid LANGUAGE sql AS 'SELECT pg_catalog.gen_random_uuid()'" || exit 1
  psql -qXAt -U "$who" -d names -c "CREATE EXTENSION ulid_tsid_portable SCHEMA \"$s\"" >"$WORK/names-planted-$who.log" 2>&1
  check "CREATE EXTENSION by $who into schema \"$s\" with mallory's generate_ulid(): refused by the installer's check, naming it" \
    bash -c "grep -q 'ERROR:  ulid_tsid portable: function \"$s\".generate_ulid() exists and belongs to role mallory' '$WORK/names-planted-$who.log' &&
             ! psql -qXAt -U postgres -d names -c \"SELECT FROM pg_extension WHERE extname = 'ulid_tsid_portable'\" | grep -q ."
  psql -qXAt -U postgres -d names -c "DROP EXTENSION IF EXISTS ulid_tsid_portable CASCADE" >/dev/null 2>&1
done

# The characters pg_tle 1.5.3 refuses in the names it substitutes (" $ ' \: no one
# quoting is safe in code, in '...' and in $$...$$ alike). The edition's script
# says @extschema@ (so the schema's name counts) and never @extowner@ (so the
# role's does not).
tle_version="$(qs names -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_tle'")"
refuses=$(printf '%s\n' "$tle_version" 1.5.3 | sort -V | head -n 1 | grep -qx 1.5.3 && echo yes || echo no)
for c in '"' '$' "'" '\'; do
  s="keys${c}x"; qi="\"${s//\"/\"\"}\""; ql="${qi//\'/\'\'}"; log="$WORK/names-char-$(printf %d "'$c").log"
  qs names -c "CREATE SCHEMA $qi AUTHORIZATION \"$EU\"" >/dev/null || exit 1
  psql -qXAt -U "$EU" -d names -c "CREATE EXTENSION ulid_tsid_portable SCHEMA $qi" >"$log" 2>&1
  n="$(qs names -c "SELECT count(*) FROM pg_proc WHERE pronamespace = '$ql'::regnamespace")"
  if [ "$refuses" = yes ]; then
    check "pg_tle $tle_version: CREATE EXTENSION into schema $qi refused (invalid character in extension \"ulid_tsid_portable\" schema), nothing created" \
      bash -c "grep -q 'ERROR:  invalid character in extension \"ulid_tsid_portable\" schema' '$log' && [ '$n' = 0 ]"
  elif [ "$c" = "'" ]; then
    # 1.5.2 pastes the quoted name into the script's string literals as it is:
    # this one breaks a literal (a name made for it would run as SQL).
    check "pg_tle $tle_version: CREATE EXTENSION into schema $qi fails (the name breaks a string literal of the script), nothing created" \
      bash -c "grep -q 'ERROR:  ' '$log' && [ '$n' = 0 ]"
  else
    check "pg_tle $tle_version: CREATE EXTENSION into schema $qi installs (39 functions: $n)" test "$n" = 39
  fi
  qs names -c "DROP EXTENSION IF EXISTS ulid_tsid_portable" >/dev/null 2>&1
done
# The role's name is never substituted (no @extowner@): all four in one, on any version.
OQ=$'o\'k "$\\'
qs postgres -c "CREATE ROLE \"${OQ//\"/\"\"}\" LOGIN NOSUPERUSER" >/dev/null &&
  qs names -c "CREATE SCHEMA oq AUTHORIZATION \"${OQ//\"/\"\"}\"" >/dev/null || exit 1
check "pg_tle $tle_version: role $OQ creates it in schema oq (39 functions, its own)" bash -c '
  psql -qXAt -v ON_ERROR_STOP=1 -U "$1" -d names -c "CREATE EXTENSION ulid_tsid_portable SCHEMA oq" >"$2" 2>&1 &&
  [ "$(psql -qXAt -U postgres -d names -c "SELECT count(*) FROM pg_proc WHERE pronamespace = '\''oq'\''::regnamespace AND proowner = (SELECT oid FROM pg_roles WHERE rolname = \$\$$1\$\$)")" = 39 ]' \
  _ "$OQ" "$WORK/names-owner.log"
qs names -c "DROP EXTENSION IF EXISTS ulid_tsid_portable" >/dev/null 2>&1

# --- database.dev: portable/dbdev/ installed as `dbdev install` does ------------------------
# dbdev's CLI reads the package directory (NAME.control, NAME--VERSION.sql,
# NAME--FROM--TO.sql) and calls pgtle.install_extension(NAME, VERSION, the control
# file's comment, the script, its requires) for each version's script,
# pgtle.install_update_path for each update script and pgtle.set_default_version
# with its default_version; the registry's in-database client (dbdev.install) makes
# the same registration under the package's name on database.dev (HANDLE@NAME).
# dbdev_install DIR NAME: those calls, as the owner, from the directory's files.
dbdev_install() {
  local dir="$1" name="$2" control f v a b comment requires default
  control="$(ls "$dir"/*.control)"
  field() { sed -n "s/^$1 *= *'\{0,1\}\([^']*\)'\{0,1\} *$/\1/p" "$control"; }
  comment="$(field comment)"; requires="$(field requires)"; default="$(field default_version)"
  {
    echo "\\set ON_ERROR_STOP on"
    for f in "$dir"/*.sql; do
      v="$(basename "$f" .sql)"; v="${v#*--}"
      case "$v" in
        *--*) a="${v%--*}"; b="${v#*--}"
              echo "\\set body \`cat '$f'\`"
              echo "SELECT pgtle.install_update_path('$name', '$a', '$b', :'body');" ;;
        *)    echo "\\set body \`cat '$f'\`"
              echo "SELECT pgtle.install_extension('$name', '$v', '$comment', :'body', string_to_array(NULLIF('$requires', ''), ','));" ;;
      esac
    done
    echo "SELECT pgtle.set_default_version('$name', '$default');"
  } | psql -qXAt -U owner -d dbdev -o /dev/null
}
qs postgres -c "CREATE DATABASE dbdev OWNER owner" >/dev/null && qs dbdev -c "CREATE EXTENSION pg_tle" || exit 1
for name in ulid_tsid_portable 'acme@ulid_tsid_portable'; do
  how=$([ "$name" = ulid_tsid_portable ] && echo "dbdev install --path portable/dbdev" || echo "the registry's dbdev.install('$name')")
  check "database.dev package as $how: the owner registers portable/dbdev/ (pgtle.install_extension, set_default_version)" \
    dbdev_install portable/dbdev "$name" 2>>"$WORK/dbdev.log"
  check "database.dev package: CREATE EXTENSION \"$name\" SCHEMA keys; version $version, 39 functions, keys made and read" bash -c "
    psql -qXAt -v ON_ERROR_STOP=1 -U owner -d dbdev -c 'CREATE SCHEMA IF NOT EXISTS keys' -c 'CREATE EXTENSION \"$name\" SCHEMA keys' >>$WORK/dbdev.log 2>&1 &&
    [ \"\$(psql -qXAt -U owner -d dbdev -c \"SELECT (SELECT extversion FROM pg_extension WHERE extname = '$name') || ' ' ||
         (SELECT count(*) FROM pg_proc WHERE pronamespace = 'keys'::regnamespace) || ' ' ||
         (SELECT count(*) FROM generate_series(1, 100) WHERE keys.tsid_from_text(keys.tsid_to_text(keys.generate_tsid())) IS NOT NULL
                                                         AND keys.ulid_from_text(keys.ulid_to_text(keys.generate_ulid())) IS NOT NULL)\" 2>>$WORK/dbdev.log)\" = '$version 39 100' ]"
  psql -qXAt -U owner -d dbdev -c "DROP EXTENSION IF EXISTS \"$name\"" -o /dev/null -c "SELECT pgtle.uninstall_extension('$name')" >>"$WORK/dbdev.log" 2>&1
done

# Core names planted in public and in the schema the extension goes into, a cycling
# counter in public and in the creating session's pg_temp; public first on the path.
# CREATE EXTENSION by each role, in a session that then makes and converts keys.
PLANT_DB=hostile
source "$ROOT/scripts/lib/planted.sh"
plant_public() { planted_setup && plant_core public; }
check "mallory planted 14 core function names, 7 operators and a cycling counter in public of database hostile" plant_public
for who in owner postgres; do
  s="p_$who"
  psql -qXAt -v ON_ERROR_STOP=1 -U owner -d hostile -c "CREATE SCHEMA $s" -c "GRANT CREATE, USAGE ON SCHEMA $s TO mallory" || exit 1
  check "mallory planted the same in schema $s" plant_core "$s"
  out="$(psql -qXAt -v ON_ERROR_STOP=1 -U "$who" -d hostile 2>"$WORK/hostile-p-$who.log" <<SQL | tail -n 2 | tr '\n' ' '
SET search_path = public, $s, pg_temp;
CREATE SEQUENCE pg_temp.ulid_tsid_portable_tsid_seq MINVALUE 0 MAXVALUE 17 START 0 CYCLE;
CREATE EXTENSION ulid_tsid_portable SCHEMA $s;
SELECT count(DISTINCT v) FROM (SELECT $s.generate_tsid() AS v FROM generate_series(1, 2000)) AS s;
SELECT count(*) FROM (SELECT $s.ulid_from_text($s.ulid_to_text($s.generate_ulid())), $s.tsid_from_text($s.tsid_to_text($s.generate_tsid())),
                             $s.uuidv7_timestamp($s.generate_uuidv7()), $s.tsid_lower_bound(now()) FROM generate_series(1, 100)) AS s;
DROP EXTENSION ulid_tsid_portable;
SQL
)"
  check "CREATE EXTENSION by $who with core names planted in public and $s, and a planted pg_temp: 2000 distinct TSIDs, the rest works ($out)" \
    test "$out" = "2000 100 "
  check "CREATE EXTENSION by $who with public, $s and pg_temp planted: no planted code ran, mallory no superuser" nobody_gained
done

# --- the same bits as the native extension, both ways ------------------------------------
source "$ROOT/scripts/lib/portable_compare.sh"
q app >"$WORK/a.log" 2>&1 <<SQL
CREATE UNLOGGED TABLE a_tsid AS
  SELECT i, v, tsid_to_text(v) AS txt, tsid_timestamp(v) AS ts
  FROM (SELECT i, CASE WHEN i <= $N / 2 THEN generate_tsid() WHEN i = $N / 2 + 1 THEN -1
                       ELSE ('x' || substr(md5('t' || i), 1, 16))::bit(64)::bigint END AS v FROM generate_series(1, $N) AS i) AS s;
CREATE UNLOGGED TABLE a_ulid AS
  SELECT i, u, ulid_to_text(u) AS txt, ulid_timestamp(u) AS ts
  FROM (SELECT i, CASE WHEN i <= $N / 2 THEN generate_ulid() ELSE md5('u' || i)::uuid END AS u FROM generate_series(1, $N) AS i) AS s;
CREATE UNLOGGED TABLE a_v7 AS SELECT i, u, uuidv7_timestamp(u) AS ts FROM (SELECT i, generate_uuidv7() AS u FROM generate_series(1, $N) AS i) AS s;
SQL
copy_tables app native a_tsid a_ulid a_v7 2>>"$WORK/errors.log"
check "pg_tle install -> native: $N TSIDs, $N ULIDs (half generated, half random bits), $N UUIDv7s: text, decoding, timestamps equal" sql_true "
  SELECT (SELECT count(*) = $N AND count(*) FILTER (WHERE v::tsid::text IS DISTINCT FROM txt OR txt::tsid::bigint IS DISTINCT FROM v
                                                       OR tsid_timestamp(v::tsid) IS DISTINCT FROM ts) = 0 FROM a_tsid)
     AND (SELECT count(*) = $N AND count(*) FILTER (WHERE u::ulid::text IS DISTINCT FROM txt OR txt::ulid::uuid IS DISTINCT FROM u
                                                       OR ulid_timestamp(u::ulid) IS DISTINCT FROM ts) = 0 FROM a_ulid)
     AND (SELECT count(*) = $N AND count(*) FILTER (WHERE uuid_extract_version(u) IS DISTINCT FROM 7 OR uuidv7_timestamp(u) IS DISTINCT FROM ts) = 0 FROM a_v7)
     AND (SELECT count(DISTINCT v) = $N / 2 FROM a_tsid WHERE i <= $N / 2)" native
q native >"$WORK/b.log" 2>&1 <<SQL
CREATE UNLOGGED TABLE b_tsid AS
  SELECT i, v, v::tsid::text AS txt, lower(v::tsid::text) AS alt, tsid_timestamp(v::tsid) AS ts
  FROM (SELECT i, CASE WHEN i <= $N / 2 THEN generate_tsid()::bigint ELSE ('x' || substr(md5('T' || i), 1, 16))::bit(64)::bigint END AS v
        FROM generate_series(1, $N) AS i) AS s;
CREATE UNLOGGED TABLE b_ulid AS
  SELECT i, u, u::ulid::text AS txt, lower(u::ulid::text) AS alt, ulid_timestamp(u::ulid) AS ts
  FROM (SELECT i, CASE WHEN i <= $N / 2 THEN generate_ulid()::uuid ELSE md5('U' || i)::uuid END AS u FROM generate_series(1, $N) AS i) AS s;
SQL
copy_tables native app b_tsid b_ulid 2>>"$WORK/errors.log"
check "native -> pg_tle install: $N TSIDs and $N ULIDs: text, decoding (lower case too), timestamps equal" sql_true "
  SELECT (SELECT count(*) = $N AND count(*) FILTER (WHERE tsid_to_text(v) IS DISTINCT FROM txt OR tsid_from_text(alt) IS DISTINCT FROM v
                                                       OR tsid_timestamp(v) IS DISTINCT FROM ts) = 0 FROM b_tsid)
     AND (SELECT count(*) = $N AND count(*) FILTER (WHERE ulid_to_text(u) IS DISTINCT FROM txt OR ulid_from_text(alt) IS DISTINCT FROM u
                                                       OR ulid_timestamp(u) IS DISTINCT FROM ts) = 0 FROM b_ulid)" app

# --- errors: the same SQLSTATE and message as the native types ------------------------------
bad_texts_sql >"$WORK/bad.sql" <<'ROWS'
  ('ulid', ''), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FA'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAU'),
  ('ulid', '81ARZ3NDEKTSV4RRFFQ69G5FAV'), ('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAé'), ('tsid', ''), ('tsid', '0SD78DEN8000'),
  ('tsid', '915268788478279683'), ('tsid', 'G000000000000'), ('tsid', '0SD78DEN8000U')
ROWS
q app -f "$WORK/bad.sql" >"$WORK/bad.app" 2>&1
q native -f "$WORK/bad.sql" >"$WORK/bad.native" 2>&1
check "10 bad texts: refused with 22P02 and the same message, detail and hint as the native types" \
  bash -c "[ \$(grep -c ': 22P02 |' $WORK/bad.app) -eq 10 ] && diff $WORK/bad.native $WORK/bad.app"
check "a time outside the TSID's range: 22003, as native" fails_with 22003 app "SELECT keys.tsid_lower_bound('2019-12-31')"

# --- 8 concurrent writers -----------------------------------------------------------------
CONC_TX=${PGTLE_CONC_TX:-50}   # 8 clients x 50 transactions x 100 rows = 40,000 rows per generator
concurrent_writers app "pgtle_$PORT" "$CONC_TX" "the pg_tle install"

# --- partition pruning ----------------------------------------------------------------------
q app -c "CREATE TABLE events (id bigint NOT NULL DEFAULT generate_tsid(), body text) PARTITION BY RANGE (id)" \
  -c "$(day_partitions events:tsid_lower_bound)" \
  -c "INSERT INTO events (body) SELECT 'e' || i FROM generate_series(1, 100) AS i" >"$WORK/partitions.log" 2>&1
today="events_$(q app -c "SELECT to_char(current_date, 'YYYYMMDD')")"
q app -c "EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id >= tsid_lower_bound('$(q app -c "SELECT current_date")') AND id < tsid_lower_bound('$(q app -c "SELECT current_date + 1")')" >"$WORK/prune.txt" 2>&1
check "partition pruning on the key: a day's time range scans only that day's partition" \
  bash -c "grep -q '$today' $WORK/prune.txt && [ \$(grep -c 'Seq Scan on events' $WORK/prune.txt) -eq 1 ]"

# --- pg_dump and pg_restore of the database that uses it ------------------------------------
# The owner dumps; the restore goes into a database the owner owns where the
# service created pg_tle (as the dumped one).
before="$(q app -c "SELECT md5(string_agg(id::text || body, ',' ORDER BY id)) FROM events")"
max_before="$(q app -c "SELECT max(id) FROM events")"
pg_in pg_dump -U owner -d app -Fc >"$WORK/app.dump" 2>"$WORK/dump.log"
check "pg_dump -Fc of the database, by the owner" test "$?" -eq 0 -a -s "$WORK/app.dump"
# pg_tle's own objects (its schema, the extension, its comment) are the service's:
# they are in the dump, already in the target database, and the owner may not
# comment on pg_tle. The restore leaves them out (docs/portable.md's recipe).
cdir="$(cluster_dir "pgtle_$PORT")"   # where the server's tools see files too
cp "$WORK/app.dump" "$cdir/app.dump"
pg_in pg_restore -l "$(pg_inside "$cdir/app.dump")" 2>"$WORK/restore.log" |
  grep -v -E '; [0-9]+ [0-9]+ (SCHEMA - pgtle|EXTENSION - pg_tle|COMMENT - EXTENSION pg_tle) ' >"$cdir/restore.list"
cp "$cdir/restore.list" "$WORK/"
pg_in pg_restore -U owner -d restored --no-owner -L "$(pg_inside "$cdir/restore.list")" "$(pg_inside "$cdir/app.dump")" >>"$WORK/restore.log" 2>&1
check "pg_restore into another database, by the owner, without pg_tle's own objects: no error" \
  bash -c "[ \$(grep -c . $WORK/restore.list) -gt 20 ] && ! grep -q -E 'ERROR|error' $WORK/restore.log"
q restored -c "ALTER DATABASE restored SET search_path = \"\$user\", public, keys" 2>>"$WORK/errors.log"
check "after the restore: the extension is there (its version, its schema), every row is equal" sql_true "
  SELECT (SELECT extversion = '$version' AND extnamespace = 'keys'::regnamespace FROM pg_extension WHERE extname = 'ulid_tsid_portable')
     AND (SELECT md5(string_agg(id::text || body, ',' ORDER BY id)) FROM events) = '$before'" restored
check "after the restore: new keys sort after the old ones (the clock; the TSID counter, an extension member, restarts)" sql_true "
  INSERT INTO events (body) SELECT 'new' FROM generate_series(1, 10);
  SELECT min(id) > $max_before AND count(*) = 10 FROM events WHERE body = 'new'" restored

# --- an update to a next version --------------------------------------------------------------
# What a next release ships: scripts/portable-pgtle.sh --update FROM (its whole install
# script as the new version and as the update path: CREATE OR REPLACE keeps every
# function's identity, CREATE SEQUENCE IF NOT EXISTS the counter). The test's next
# version is this one with a changed comment, to see that the update ran.
next="$version.1"
bash scripts/portable-pgtle.sh --update "$version" "$next" |
  sed "s/^COMMENT ON FUNCTION @extschema@.generate_tsid() IS 'new TSID/COMMENT ON FUNCTION @extschema@.generate_tsid() IS '$next: new TSID/" >"$WORK/update.sql"
seq_before="$(q app -c "SELECT last_value FROM keys.ulid_tsid_portable_tsid_seq")"
oids_before="$(q app -c "SELECT string_agg(oid::text, ',' ORDER BY oid) FROM pg_proc WHERE pronamespace = 'keys'::regnamespace")"
check "the owner: scripts/portable-pgtle.sh --update $version $next (install_extension_version_sql, install_update_path, set_default_version)" \
  bash -c "psql -qXAt -v ON_ERROR_STOP=1 -U owner -d app -f $WORK/update.sql >$WORK/update.log 2>&1"
check "the owner: ALTER EXTENSION ulid_tsid_portable UPDATE (to the default version, $next)" \
  q app -c "ALTER EXTENSION ulid_tsid_portable UPDATE"
check "after the update: version $next, its script ran, the same functions (oids), the defaults work, the sequence goes on" sql_true "
  SELECT (SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid_portable') = '$next'
     AND obj_description('keys.generate_tsid()'::regprocedure, 'pg_proc') LIKE '$next: %'
     AND (SELECT string_agg(oid::text, ',' ORDER BY oid) FROM pg_proc WHERE pronamespace = 'keys'::regnamespace) = '$oids_before'
     AND (SELECT last_value FROM keys.ulid_tsid_portable_tsid_seq) >= $seq_before
     AND generate_tsid() > (SELECT max(id) FROM events)" app

# --- DROP EXTENSION, pgtle.uninstall_extension ----------------------------------------------------
check "the owner: DROP EXTENSION ulid_tsid_portable CASCADE drops its functions, its sequence and the defaults that used them" \
  q app -c "SET client_min_messages = warning" -c "DROP EXTENSION ulid_tsid_portable CASCADE"
check "after DROP EXTENSION: nothing of it left in keys, the table and its rows stay" sql_true "
  SELECT NOT EXISTS (SELECT FROM pg_proc WHERE pronamespace = 'keys'::regnamespace)
     AND NOT EXISTS (SELECT FROM pg_class WHERE relnamespace = 'keys'::regnamespace)
     AND (SELECT count(*) FROM events) = 100" app
check "the owner: pgtle.uninstall_extension('ulid_tsid_portable')" \
  q app -o /dev/null -c "SELECT pgtle.uninstall_extension('ulid_tsid_portable')"
check "after uninstall_extension: pgtle.available_extensions() no longer lists it" sql_true "
  SELECT NOT EXISTS (SELECT FROM pgtle.available_extensions() WHERE name = 'ulid_tsid_portable')" app
check "after uninstall_extension: CREATE EXTENSION ulid_tsid_portable fails" \
  bash -c "! psql -qXAt -U owner -d app -c 'CREATE EXTENSION ulid_tsid_portable SCHEMA keys' 2>>$WORK/errors.log"

echo "   pgtle suite: $((SECONDS - t_start)) s"
