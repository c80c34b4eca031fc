#!/usr/bin/env bash
# The portable installer (portable/ulid_tsid_portable.sql) against objects another
# role planted (010_trusted_install's cases, for the portable edition): a role
# "mallory" (no superuser) with CREATE on the target schemas and on public plants
#   - a function with one of the edition's names in the target schema (kept as its
#     own by CREATE OR REPLACE, mallory rewrites it later: a superuser calling it
#     makes mallory a superuser),
#   - a sequence named like its TSID counter that cycles (TSIDs repeat),
#   - functions and operators named like the core ones the code calls in public
#     (first on the installer's search_path) and in the target schema, a cycling
#     sequence of the counter's name in public and, in the installer's own session,
#     in pg_temp;
# the edition is then installed by the superuser and by the database owner. And a
# race, without timing: mallory holds an object of the name the superuser's install
# creates first, uncommitted, so that the install waits on it, and commits another
# of the edition's names (a function, a cycling sequence) meanwhile. Each
# planted object in the target schema must be refused with an error naming it;
# no planted code may ever run (each planted body records who ran it), no role may
# become a superuser, and 2,000 TSIDs must be 2,000 distinct values.
#   PG_MAJOR=17 bash scripts/suites/portable_hostile.sh   (no build needed)
# PORTABLE_FILE: another installer (to show what the checks catch).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
PORT=${PORTABLE_HOSTILE_PORT:-$((56800 + PG_MAJOR))}   # doctest has 56700+
FILE=${PORTABLE_FILE:-portable/ulid_tsid_portable.sql}
WORK="$LOGS/portable_hostile-$PG_MAJOR-$PORT"
rm -rf "$WORK"; mkdir -p "$WORK"
t_start=$SECONDS

cluster_start "hostile_$PORT" "$PORT" "timezone = 'UTC'" || exit 1
trap 'rc=$?; cluster_stop "hostile_$PORT" 2>/dev/null; (exit $rc); suite_end' EXIT   # stopped however the suite ends
# qu ROLE SQL...: psql as ROLE into database app.
qu() { local r="$1"; shift; psql -qXAt -v ON_ERROR_STOP=1 -U "$r" -d app "$@"; }
qs() { qu postgres "$@"; }
qs -d postgres -c "CREATE ROLE owner LOGIN NOSUPERUSER" -c "CREATE ROLE mallory LOGIN NOSUPERUSER" \
   -c "CREATE DATABASE app OWNER owner" >/dev/null || exit 1
PLANT_DB=app
source "$ROOT/scripts/lib/planted.sh"
planted_setup || exit 1
# install ROLE SCHEMA [psql args before -f...]: the installer into SCHEMA as ROLE; its output in $WORK.
install() {
  local r="$1" s="$2"; shift 2
  psql -qXAt -v ON_ERROR_STOP=1 -U "$r" -d app -v schema="$s" "$@" -f "$FILE" >"$WORK/install-$r-$s.log" 2>&1
}
refused_naming() {  # refused_naming ROLE SCHEMA TEXT: the install failed and its error names TEXT
  ! install "$1" "$2" && grep -q "ERROR:.*$3" "$WORK/install-$1-$2.log"
}
distinct_tsids() {  # distinct_tsids ROLE SCHEMA: 2,000 TSIDs of one statement, 2,000 distinct
  [ "$(qu "$1" -c "SELECT count(DISTINCT v) FROM (SELECT $2.generate_tsid() AS v FROM generate_series(1, 2000)) AS s" 2>>"$WORK/errors.log")" = 2000 ]
}

check "mallory planted 14 core function names, 7 operators and a cycling counter in public" plant_core public

for who in postgres owner; do
  tag=$([ "$who" = postgres ] && echo su || echo own)
  # --- a function of ours planted in the target schema ------------------------------
  s="f_$tag"
  qs -c "CREATE SCHEMA $s AUTHORIZATION owner" -c "GRANT CREATE, USAGE ON SCHEMA $s TO mallory" || exit 1
  qu mallory -c "CREATE FUNCTION $s.generate_ulid() RETURNS uuid LANGUAGE sql AS 'SELECT pg_catalog.gen_random_uuid()'" || exit 1
  install "$who" "$s"; rc=$?
  cp "$WORK/install-$who-$s.log" "$WORK/install-$who-$s.first.log"
  # mallory rewrites what it still owns; whoever installed then uses what the install gave.
  if [ "$(qs -c "SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE oid = '$s.generate_ulid()'::regprocedure")" = mallory ]; then
    qu mallory -c "CREATE OR REPLACE FUNCTION $s.generate_ulid() RETURNS uuid LANGUAGE plpgsql AS \$\$$(payload "$s.generate_ulid" 'pg_catalog.gen_random_uuid()')\$\$"
  fi
  [ "$rc" -eq 0 ] && qu "$who" -c "SELECT $s.generate_ulid()" >/dev/null 2>>"$WORK/errors.log"
  check "installed by $who over mallory's $s.generate_ulid(): refused, the error names $s.generate_ulid()" \
    grep -q "ERROR:.*$s.generate_ulid()" "$WORK/install-$who-$s.first.log"
  check "installed by $who over mallory's $s.generate_ulid(): mallory gained nothing (no planted code ran, mallory no superuser)" nobody_gained

  # --- a cycling sequence named like the TSID counter in the target schema -------------
  s="q_$tag"
  qs -c "CREATE SCHEMA $s AUTHORIZATION owner" -c "GRANT CREATE, USAGE ON SCHEMA $s TO mallory" || exit 1
  qu mallory -c "CREATE SEQUENCE $s.ulid_tsid_portable_tsid_seq MINVALUE 0 MAXVALUE 17 START 0 CYCLE" \
             -c "GRANT USAGE ON SEQUENCE $s.ulid_tsid_portable_tsid_seq TO PUBLIC" || exit 1
  install "$who" "$s"; rc=$?
  check "installed by $who over mallory's cycling $s.ulid_tsid_portable_tsid_seq: refused, the error names it" \
    grep -q "ERROR:.*$s.ulid_tsid_portable_tsid_seq" "$WORK/install-$who-$s.log"
  n="$(qu "$who" -c "SELECT count(DISTINCT v) || ' of ' || count(*) FROM (SELECT $s.generate_tsid() AS v FROM generate_series(1, 2000)) AS s" 2>/dev/null)"
  check "installed by $who over mallory's cycling sequence: no duplicate TSIDs (${n:-none made}: $( [ "$rc" -eq 0 ] && echo installed || echo not installed))" \
    bash -c "[ -z '$n' ] || [ '$n' = '2000 of 2000' ]"

  # --- an object of our name that is the same role's but not the installer's: a
  # sequence of the installer's own making is never cycling; one that cycles is refused.
  s="o_$tag"
  qu "$who" -c "CREATE SCHEMA $s" -c "CREATE SEQUENCE $s.ulid_tsid_portable_tsid_seq MAXVALUE 17 CYCLE" || exit 1
  check "installed by $who over its own cycling $s.ulid_tsid_portable_tsid_seq: refused, the error names it" \
    refused_naming "$who" "$s" "$s.ulid_tsid_portable_tsid_seq"
  # ... and one of the installer's shape on which another role may call setval() (UPDATE).
  s="u_$tag"
  qu "$who" -c "CREATE SCHEMA $s" -c "CREATE SEQUENCE $s.ulid_tsid_portable_tsid_seq AS bigint CACHE 1" \
            -c "GRANT UPDATE ON SEQUENCE $s.ulid_tsid_portable_tsid_seq TO mallory" || exit 1
  check "installed by $who over its own $s.ulid_tsid_portable_tsid_seq that mallory may set back (UPDATE): refused, the error names it" \
    refused_naming "$who" "$s" "$s.ulid_tsid_portable_tsid_seq.*UPDATE"
  qu "$who" -c "REVOKE UPDATE ON SEQUENCE $s.ulid_tsid_portable_tsid_seq FROM mallory" || exit 1
  check "installed by $who over its own $s.ulid_tsid_portable_tsid_seq of the installer's shape: installed, the counter kept" \
    bash -c "psql -qXAt -v ON_ERROR_STOP=1 -U $who -d app -v schema=$s -f $FILE >$WORK/install-$who-$s-2.log 2>&1"

  # --- planted core names in public (first on the installer's path) and in pg_temp ------
  s="p_$tag"
  qs -c "CREATE SCHEMA $s AUTHORIZATION owner" -c "GRANT CREATE, USAGE ON SCHEMA $s TO mallory" || exit 1
  check "mallory planted the same 14 core function names and 7 operators in the target schema $s" plant_core "$s"
  # The installer's session: public first on its path, and its own pg_temp holding a
  # cycling sequence of the counter's name; then in that session it makes TSIDs,
  # ULIDs and UUIDv7s and converts them to text and back.
  cat >"$WORK/p-$tag.sql" <<SQL
SET search_path = public, $s, pg_temp;
CREATE SEQUENCE pg_temp.ulid_tsid_portable_tsid_seq MINVALUE 0 MAXVALUE 17 START 0 CYCLE;
CREATE FUNCTION pg_temp.nextval(regclass) RETURNS bigint LANGUAGE sql AS 'SELECT 1::bigint';
\\set schema $s
\\i $FILE
SELECT count(DISTINCT v) FROM (SELECT $s.generate_tsid() AS v FROM generate_series(1, 2000)) AS s;
SELECT count(*) FROM (SELECT $s.ulid_from_text($s.ulid_to_text($s.generate_ulid())), $s.tsid_from_text($s.tsid_to_text($s.generate_tsid())),
                             $s.uuidv7_timestamp($s.generate_uuidv7()), $s.tsid_lower_bound(now()) FROM generate_series(1, 100)) AS s;
SQL
  out="$(psql -qXAt -v ON_ERROR_STOP=1 -U "$who" -d app -f "$WORK/p-$tag.sql" 2>"$WORK/p-$tag.log" | tail -n 2 | tr '\n' ' ')"
  check "installed by $who with public first, core names planted in public and $s, and a planted pg_temp: installed, 2000 distinct TSIDs, the rest works ($out)" \
    test "$out" = "2000 100 "
  check "installed by $who with public, $s and pg_temp planted: no planted code ran, mallory no superuser" nobody_gained
done
# --- a race: mallory's object committed while the superuser's install waits -----------
# No timing: mallory holds, uncommitted, an object of the name the install creates
# first, so the install, past its checks, waits on it (pg_blocking_pids); mallory
# then commits another object of the edition's names in a second session and rolls
# the first back, and the install goes on. A non-superuser's install is not raced:
# PostgreSQL itself refuses it another role's function or sequence.
# race SCHEMA HOLD COMMIT...: HOLD held, the install started and seen waiting on it,
# each COMMIT statement run by mallory, HOLD rolled back; the install's output in
# $WORK/install-postgres-SCHEMA.log, RACE_RC its exit status, RACE_WAITED 1 when
# it was seen waiting on mallory's session.
race() {
  local s="$1" hold="$2" fifo="$WORK/race-$1.fifo" holder inst n=0 c
  shift 2
  mkfifo "$fifo"
  PGAPPNAME="race_hold_$s" psql -qXAt -v ON_ERROR_STOP=1 -U mallory -d app <"$fifo" >"$WORK/race-$s-hold.log" 2>&1 & holder=$!
  exec 7>"$fifo"
  printf "BEGIN;\n%s;\nSELECT 'race: held';\n" "$hold" >&7
  until [ "$(qs -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'race_hold_$s'
                      AND state = 'idle in transaction' AND query LIKE 'SELECT ''race: held''%'")" = 1 ]; do
    kill -0 "$holder" 2>/dev/null && [ $((n += 1)) -lt 600 ] || break; sleep 0.05
  done
  PGAPPNAME="race_install_$s" psql -qXAt -v ON_ERROR_STOP=1 -U postgres -d app -v schema="$s" -f "$FILE" \
    >"$WORK/install-postgres-$s.log" 2>&1 & inst=$!
  RACE_WAITED=0; n=0
  while kill -0 "$inst" 2>/dev/null && [ $((n += 1)) -lt 600 ]; do
    [ "$(qs -c "SELECT count(*) FROM pg_stat_activity i, pg_stat_activity h
                WHERE i.application_name = 'race_install_$s' AND h.application_name = 'race_hold_$s'
                  AND h.pid = ANY (pg_blocking_pids(i.pid))")" = 1 ] && { RACE_WAITED=1; break; }
    sleep 0.05
  done
  for c in "$@"; do qu mallory -c "$c" >>"$WORK/race-$s-commit.log" 2>&1; done
  echo "ROLLBACK;" >&7; exec 7>&-
  wait "$holder"
  wait "$inst"; RACE_RC=$?
  rm -f "$fifo"
}
# left_by SCHEMA ROLE: how many functions and relations in SCHEMA ROLE does not own,
# and the first by name ("" when none).
left_by() {
  qs -c "SELECT count(*) || ' not ' || '$2''s, as ' || min(what) FROM (
           SELECT 'function ' || oid::regprocedure AS what FROM pg_proc WHERE pronamespace = '$1'::regnamespace AND proowner <> '$2'::regrole
           UNION ALL SELECT 'relation ' || oid::regclass FROM pg_class WHERE relnamespace = '$1'::regnamespace AND relowner <> '$2'::regrole) AS s
         HAVING count(*) > 0"
}
s=race_f
qs -c "CREATE SCHEMA $s AUTHORIZATION owner" -c "GRANT CREATE, USAGE ON SCHEMA $s TO mallory" || exit 1
race "$s" "CREATE FUNCTION $s.ulid_tsid_portable_unix_ms(t timestamptz) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint'" \
  "CREATE FUNCTION $s.generate_ulid() RETURNS uuid LANGUAGE sql AS 'SELECT pg_catalog.gen_random_uuid()'"
check "race: the superuser's install waited on mallory's uncommitted $s.ulid_tsid_portable_unix_ms(timestamptz)" test "$RACE_WAITED" = 1
check "race: mallory's $s.generate_ulid(), committed while the install waited: refused, the error names it and mallory" \
  bash -c "[ $RACE_RC -ne 0 ] && grep -q 'ERROR:.*$s.generate_ulid().*mallory' $WORK/install-postgres-$s.log"
left="$(left_by "$s" mallory)"
body="$(qs -c "SELECT prosrc FROM pg_proc WHERE oid = to_regprocedure('$s.generate_ulid()')")"
check "race: the install rolled back: nothing in $s but mallory's, mallory's generate_ulid() keeps its own body (${left:-nothing else}; body: $(echo "$body" | tr -s ' \n' ' ' | head -c 40))" \
  eval '[ -z "$left" ] && [ "$body" = "SELECT pg_catalog.gen_random_uuid()" ]'
# As the first case: mallory rewrites what it still owns, the superuser uses what it got.
if [ "$RACE_RC" -eq 0 ] && [ "$(qs -c "SELECT pg_get_userbyid(proowner) FROM pg_proc WHERE oid = '$s.generate_ulid()'::regprocedure")" = mallory ]; then
  qu mallory -c "CREATE OR REPLACE FUNCTION $s.generate_ulid() RETURNS uuid LANGUAGE plpgsql AS \$\$$(payload "$s.generate_ulid" 'pg_catalog.gen_random_uuid()')\$\$"
  qs -c "SELECT $s.generate_ulid()" >/dev/null 2>>"$WORK/errors.log"
fi
check "race on $s.generate_ulid(): mallory gained nothing (no planted code ran, mallory no superuser)" nobody_gained

s=race_q
qs -c "CREATE SCHEMA $s AUTHORIZATION owner" -c "GRANT CREATE, USAGE ON SCHEMA $s TO mallory" || exit 1
race "$s" "CREATE SEQUENCE $s.ulid_tsid_portable_tsid_seq" \
  "CREATE SEQUENCE $s.ulid_tsid_portable_ulid_seq MINVALUE 0 MAXVALUE 17 START 0 CYCLE" \
  "GRANT USAGE ON SEQUENCE $s.ulid_tsid_portable_ulid_seq TO PUBLIC"
check "race: the superuser's install waited on mallory's uncommitted $s.ulid_tsid_portable_tsid_seq" test "$RACE_WAITED" = 1
check "race: mallory's cycling $s.ulid_tsid_portable_ulid_seq, committed while the install waited: refused, the error names it and mallory" \
  bash -c "[ $RACE_RC -ne 0 ] && grep -q 'ERROR:.*$s.ulid_tsid_portable_ulid_seq.*mallory' $WORK/install-postgres-$s.log"
left="$(left_by "$s" mallory)"
check "race: the install rolled back: nothing in $s but mallory's (${left:-nothing else})" test -z "$left"

qs -c "SELECT who, what FROM public.mallory_ran_before" >"$WORK/mallory_ran.txt" 2>&1
[ -s "$WORK/mallory_ran.txt" ] && { echo "   what of mallory's ran, and as whom:"; sort "$WORK/mallory_ran.txt" | uniq -c | head -5; }
echo "   portable_hostile suite: $((SECONDS - t_start)) s"
