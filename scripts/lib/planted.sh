# Objects planted by a role without privileges ("mallory"), for the portable edition's
# hostile-install tests (sourced, never run): scripts/suites/portable_hostile.sh and
# scripts/suites/pgtle.sh. Needs the roles mallory and postgres, PLANT_DB (the
# database), WORK (logs) and a cluster in PGHOST/PGPORT.
#   planted_setup        the table each planted body records its runs in
#   payload WHAT VALUE   a PL/pgSQL body: records (current_user, WHAT), makes mallory a
#                        superuser when a superuser runs it, returns VALUE
#   plant_core SCHEMA    mallory's functions of 14 core names the code calls, 7 operators
#                        between core types and (in public) a cycling sequence of the
#                        TSID counter's name, in SCHEMA
#   nobody_gained        true when no planted body ran and mallory is no superuser; then
#                        resets both for the next case
pq() { local r="$1"; shift; psql -qXAt -v ON_ERROR_STOP=1 -U "$r" -d "$PLANT_DB" "$@"; }
planted_setup() {
  pq postgres -c "GRANT CREATE ON SCHEMA public TO mallory" -c "CREATE TABLE public.mallory_ran_before (who name, what text)" &&
    pq mallory -c "CREATE TABLE public.mallory_ran (who name, what text)" -c "GRANT INSERT ON public.mallory_ran TO PUBLIC"
}
payload() {
  printf "BEGIN INSERT INTO public.mallory_ran VALUES (current_user, '%s'); IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) THEN EXECUTE 'ALTER ROLE mallory SUPERUSER'; END IF; RETURN %s; END" "$1" "$2"
}
nobody_gained() {
  local got; got="$(pq postgres -c "SELECT (SELECT count(*) FROM public.mallory_ran) || ' ' || (SELECT rolsuper FROM pg_roles WHERE rolname = 'mallory')")"
  pq postgres -c "INSERT INTO public.mallory_ran_before SELECT * FROM public.mallory_ran" -c "TRUNCATE public.mallory_ran" -c "ALTER ROLE mallory NOSUPERUSER"
  [ "$got" = "0 false" ]
}
# plant_core SCHEMA: mallory's functions of core names the code calls, operators
# between core types, and a cycling sequence of the counter's name, in SCHEMA.
plant_core() {
  local sch="$1" ok=1 f sig ret val op o l r fn
  for f in "format(text, text)|text|''" "replace(text, text, text)|text|''" "lpad(text, integer, text)|text|''" \
           "to_hex(bigint)|text|''" "nextval(regclass)|bigint|1" "clock_timestamp()|timestamptz|now()" "substr(text, integer, integer)|text|''" \
           "round(double precision)|double precision|0" "date_part(text, timestamptz)|double precision|0" "gen_random_uuid()|uuid|NULL" \
           "current_setting(text, boolean)|text|''" "quote_ident(text)|text|''" "strpos(text, text)|integer|0" "set_config(text, text, boolean)|text|''"; do
    IFS='|' read -r sig ret val <<<"$f"
    pq mallory -c "CREATE OR REPLACE FUNCTION $sch.$sig RETURNS $ret LANGUAGE plpgsql AS \$\$$(payload "$sch.${sig%%(*}" "$val")\$\$" \
      2>>"$WORK/plant.log" || ok=0
  done
  for op in "+ bigint bigint" "- bigint bigint" "|| text text" "& bigint bigint" "<< bigint integer" "= text text" "< interval interval"; do
    read -r o l r <<<"$op"
    fn="mallory_op_$(printf '%s' "$o$l$r" | md5sum | cut -c1-8)"
    pq mallory -c "CREATE OR REPLACE FUNCTION $sch.$fn(a $l, b $r) RETURNS $l LANGUAGE plpgsql AS \$\$$(payload "$sch.$o" 'a')\$\$" \
               -c "CREATE OPERATOR $sch.$o (LEFTARG = $l, RIGHTARG = $r, FUNCTION = $sch.$fn)" 2>>"$WORK/plant.log" || ok=0
  done
  [ "$sch" = public ] && { pq mallory -c "CREATE SEQUENCE IF NOT EXISTS public.ulid_tsid_portable_tsid_seq MINVALUE 0 MAXVALUE 17 START 0 CYCLE" \
             -c "GRANT USAGE ON SEQUENCE public.ulid_tsid_portable_tsid_seq TO PUBLIC" 2>>"$WORK/plant.log" || ok=0; }
  [ "$ok" = 1 ]
}
