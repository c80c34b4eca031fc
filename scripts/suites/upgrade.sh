#!/usr/bin/env bash
# Upgrade paths, on one major: for every released version (each
# frozen sql/ulid_tsid--X.sql other than the current one), a database made with
# CREATE EXTENSION ... VERSION 'X' and then ALTER EXTENSION ... UPDATE must hold
# exactly what a fresh install of the current version holds: the extension's
# member objects with their definitions, comments, ownership and membership,
# compared as pg_dump --binary-upgrade --schema-only prints them (that mode
# lists members one by one; OIDs, which always differ, are masked, also those
# of the extension's config relations in binary_upgrade_create_empty_extension).
#   PG_MAJOR=17 bash scripts/suites/upgrade.sh   (after scripts/suites/build.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
upg_current=$(sed -n "s/^default_version = '\(.*\)'/\1/p" ulid_tsid.control)
upg_pass=0; upg_fail=0
# upg_dump DB: the schema with OIDs and pg_dump's random \restrict key masked,
# its entries sorted: before 15, pg_dump orders operators of the same name by
# OID, which follows creation order, and an update creates in another order.
upg_dump() {
  pg_in pg_dump --binary-upgrade --schema-only "$1" |
    sed -E -e "s/'?[0-9]+'?::pg_catalog\.oid/OID/g" -e '/^\\(un)?restrict /d' \
        -e "s/(binary_upgrade_create_empty_extension\('[^']*', '[^']*', [a-z]+, '[^']*', )'\{[0-9,]*\}'/\1'{OIDs of the config relations}'/" |
    awk 'BEGIN { RS = "\n--\n-- Name: " } { gsub(/\n/, "\001"); print }' | LC_ALL=C sort | tr '\001' '\n'
}
upg_check() {  # upg_check LABEL t|f
  if [ "$2" = t ]; then upg_pass=$((upg_pass + 1)); echo "   ok   $1"; else upg_fail=$((upg_fail + 1)); echo "   FAIL $1"; fi
}
cluster_start upgrade 55433 || exit 1
psql -qX -c "CREATE DATABASE upg_fresh" -c "CREATE DATABASE upg_base" >/dev/null
psql -qX -d upg_fresh -v ON_ERROR_STOP=1 -c "CREATE EXTENSION ulid_tsid" >/dev/null
upg_dump upg_fresh >"$LOGS/upgrade-$PG_MAJOR-fresh.sql"
upg_check "fresh install is version $upg_current" \
  "$([ "$(psql -qXAt -d upg_fresh -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'")" = "$upg_current" ] && echo t || echo f)"
for upg_script in sql/ulid_tsid--*.sql; do
  upg_from=$(basename "$upg_script" .sql); upg_from=${upg_from#ulid_tsid--}
  case "$upg_from" in *--*|"$upg_current") continue ;; esac
  upg_db="upg_from_${upg_from//./_}"
  psql -qX -c "CREATE DATABASE $upg_db" >/dev/null
  if psql -qX -d "$upg_db" -v ON_ERROR_STOP=1 -c "CREATE EXTENSION ulid_tsid VERSION '$upg_from'" \
       -c "ALTER EXTENSION ulid_tsid UPDATE" >"$LOGS/upgrade-$PG_MAJOR-$upg_from.log" 2>&1; then
    upg_dump "$upg_db" >"$LOGS/upgrade-$PG_MAJOR-from_$upg_from.sql"
    if diff -u "$LOGS/upgrade-$PG_MAJOR-fresh.sql" "$LOGS/upgrade-$PG_MAJOR-from_$upg_from.sql" >"$LOGS/upgrade-$PG_MAJOR-from_$upg_from.diff"; then
      upg_members=$(grep -c '^ALTER EXTENSION ulid_tsid ADD' "$LOGS/upgrade-$PG_MAJOR-fresh.sql")
      upg_check "$upg_from -> $upg_current equals a fresh $upg_current install ($upg_members members compared)" \
        "$([ "$upg_members" -gt 100 ] && echo t || echo f)"
    else
      head -40 "$LOGS/upgrade-$PG_MAJOR-from_$upg_from.diff"
      upg_check "$upg_from -> $upg_current equals a fresh $upg_current install (diff: $LOGS/upgrade-$PG_MAJOR-from_$upg_from.diff)" f
    fi
  else
    tail -5 "$LOGS/upgrade-$PG_MAJOR-$upg_from.log"
    upg_check "CREATE EXTENSION VERSION '$upg_from' then UPDATE" f
  fi
done

# A security fix may change a released script's text, never the objects it
# creates. Each released script (install and upgrade) is installed a second
# time from its text as released (the tree of $UPG_RELEASED_AT, where every
# released script stands as it shipped) under the version name Xreleased, and
# each version installed or updated that way must equal the same version from
# the current text.
UPG_RELEASED_AT=74905a6
upg_ext="$PG_CHROOT$(pg_in "$PG_CONFIG" --sharedir)/extension"
if git rev-parse -q --verify "$UPG_RELEASED_AT^{commit}" >/dev/null 2>&1; then
  upg_orig=()
  for upg_script in $(git ls-tree --name-only "$UPG_RELEASED_AT" sql/ | grep -E '^sql/ulid_tsid--.*\.sql$'); do
    upg_name=$(basename "$upg_script" .sql); upg_name=${upg_name#ulid_tsid--}
    upg_target="$upg_ext/ulid_tsid--$(echo "$upg_name" | sed -E 's/([0-9.]+)/\1released/g').sql"
    git show "$UPG_RELEASED_AT:$upg_script" >"$upg_target" && upg_orig+=("$upg_target")
  done
  trap 'rm -f "${upg_orig[@]}"; suite_end' EXIT
  for upg_script in $(git ls-tree --name-only "$UPG_RELEASED_AT" sql/ | grep -E '^sql/ulid_tsid--[0-9.]+\.sql$'); do
    upg_v=$(basename "$upg_script" .sql); upg_v=${upg_v#ulid_tsid--}
    upg_tos=("$upg_v")
    for upg_up in $(git ls-tree --name-only "$UPG_RELEASED_AT" sql/); do
      case "$upg_up" in "sql/ulid_tsid--$upg_v--"*.sql) upg_up=${upg_up#sql/ulid_tsid--$upg_v--}; upg_tos+=("${upg_up%.sql}") ;; esac
    done
    for upg_to in "${upg_tos[@]}"; do
      [ "$upg_to" = "$upg_current" ] && continue  # the upgrade to the current version is not released yet
      upg_a="upg_text_${upg_v//./_}_${upg_to//./_}_now"; upg_b="upg_text_${upg_v//./_}_${upg_to//./_}_released"
      psql -qX -c "CREATE DATABASE $upg_a" -c "CREATE DATABASE $upg_b" >/dev/null
      if psql -qX -d "$upg_a" -v ON_ERROR_STOP=1 -c "CREATE EXTENSION ulid_tsid VERSION '$upg_v'" \
           -c "ALTER EXTENSION ulid_tsid UPDATE TO '$upg_to'" >"$LOGS/upgrade-$PG_MAJOR-text_$upg_a.log" 2>&1 &&
         psql -qX -d "$upg_b" -v ON_ERROR_STOP=1 -c "CREATE EXTENSION ulid_tsid VERSION '${upg_v}released'" \
           -c "ALTER EXTENSION ulid_tsid UPDATE TO '${upg_to}released'" >"$LOGS/upgrade-$PG_MAJOR-text_$upg_b.log" 2>&1; then
        upg_dump "$upg_a" >"$LOGS/upgrade-$PG_MAJOR-$upg_a.sql"
        upg_dump "$upg_b" | sed -E "s/'([0-9.]+)released'/'\1'/g" >"$LOGS/upgrade-$PG_MAJOR-$upg_b.sql"
        upg_label="$upg_v$([ "$upg_to" != "$upg_v" ] && echo " -> $upg_to"): today's script text creates what the released text created"
        if diff -u "$LOGS/upgrade-$PG_MAJOR-$upg_b.sql" "$LOGS/upgrade-$PG_MAJOR-$upg_a.sql" >"$LOGS/upgrade-$PG_MAJOR-$upg_a.diff"; then
          upg_check "$upg_label" t
        else
          head -20 "$LOGS/upgrade-$PG_MAJOR-$upg_a.diff"; upg_check "$upg_label (diff: $LOGS/upgrade-$PG_MAJOR-$upg_a.diff)" f
        fi
      else
        tail -3 "$LOGS/upgrade-$PG_MAJOR-text_$upg_a.log" "$LOGS/upgrade-$PG_MAJOR-text_$upg_b.log"
        upg_check "$upg_v -> $upg_to from the released and today's texts" f
      fi
    done
  done
  rm -f "${upg_orig[@]}"; trap suite_end EXIT
else
  echo "   (skipped: released texts need the git history of $UPG_RELEASED_AT; this checkout has none)"
fi
# min()/max() of ulid and tsid lose their combine function in 0.4.0 (Citus then
# pushes them down by name: README, Distributed with Citus), by CREATE OR REPLACE
# AGGREGATE, which keeps their OIDs: a view made on 0.3.0 that uses them answers
# the same after the update, and a parallel plan on one server stays correct.
upg_q() { psql -qXAt -d upg_views -v ON_ERROR_STOP=1 "$@"; }
psql -qX -c "CREATE DATABASE upg_views" >/dev/null
upg_views_setup="CREATE EXTENSION ulid_tsid VERSION '0.3.0';
CREATE TABLE kv (u ulid, t tsid, g int);
INSERT INTO kv SELECT generate_ulid(), generate_tsid(), i % 7 FROM generate_series(1, 50000) i;
ANALYZE kv;
CREATE VIEW kv_range AS SELECT min(u) AS umin, max(u) AS umax, min(t) AS tmin, max(t) AS tmax FROM kv;
CREATE TABLE kv_oids AS SELECT oid::regprocedure::text AS agg, oid FROM pg_proc WHERE prokind = 'a' AND proname IN ('min', 'max') AND proargtypes[0] IN ('ulid'::regtype, 'tsid'::regtype);"
if upg_q -c "$upg_views_setup" >"$LOGS/upgrade-$PG_MAJOR-views.log" 2>&1; then
  upg_before=$(upg_q -c "SELECT * FROM kv_range")
  upg_q -c "ALTER EXTENSION ulid_tsid UPDATE" >>"$LOGS/upgrade-$PG_MAJOR-views.log" 2>&1
  upg_check "a view using min()/max() made on 0.3.0 answers the same after the update" \
    "$([ -n "$upg_before" ] && [ "$(upg_q -c "SELECT * FROM kv_range" 2>>"$LOGS/upgrade-$PG_MAJOR-views.log")" = "$upg_before" ] && echo t || echo f)"
  upg_check "the update keeps the four aggregates' OIDs" \
    "$(upg_q -c "SELECT count(*) = 4 AND bool_and(to_regprocedure(agg)::oid = oid) FROM kv_oids" 2>>"$LOGS/upgrade-$PG_MAJOR-views.log")"
  upg_check "min()/max() of ulid and tsid have no combine function after the update" \
    "$(upg_q -c "SELECT count(*) = 4 AND bool_and(aggcombinefn = 0) FROM pg_aggregate WHERE aggfnoid IN (SELECT oid FROM kv_oids)" 2>>"$LOGS/upgrade-$PG_MAJOR-views.log")"
  upg_parallel=$(upg_q -c "SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
    SET max_parallel_workers_per_gather = 2;
    SELECT (SELECT max(u) FROM kv WHERE g = 3) = (SELECT u FROM kv WHERE g = 3 ORDER BY u DESC LIMIT 1)
       AND (SELECT min(t) FROM kv WHERE g = 3) = (SELECT t FROM kv WHERE g = 3 ORDER BY t LIMIT 1)
       AND (SELECT count(*) FROM (SELECT g, max(u), min(t) FROM kv GROUP BY g) s) = 7" 2>>"$LOGS/upgrade-$PG_MAJOR-views.log" | tail -1)
  upg_check "min()/max() in a plan with parallel workers equal ORDER BY ... LIMIT 1" "${upg_parallel:-f}"
else
  tail -3 "$LOGS/upgrade-$PG_MAJOR-views.log"; upg_check "a 0.3.0 database with views over min()/max()" f
fi
cluster_stop upgrade
tally upgrade "$upg_pass" "$upg_fail"
