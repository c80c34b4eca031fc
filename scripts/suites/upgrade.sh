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
source "$(dirname "${BASH_SOURCE[0]}")/../lib/old_version.sh"
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

# Installing the new files over a running server, as DBAs do (docs/upgrading.md,
# "The order"): 0.3.0 (its last commit, built once from git in a tree of its own,
# the one test/bench's comparisons use) is installed into a private copy of this
# major's installation, whose postmaster preloads it; today's files are installed
# over them with the server running. ALTER EXTENSION ulid_tsid UPDATE (and CREATE
# EXTENSION) must then stop with the scripts' own error and hint, change nothing,
# and succeed after a restart; without preload, a new session updates at once and
# a session that had loaded the old library gets the same error. The copy: the
# server's bin/postgres copied (it finds its lib and share directories relative
# to itself), every other file of its lib and share directories a symbolic link,
# ulid_tsid's own files left out; `make install DESTDIR=` puts each version's
# files there. The server's own installation is never touched.
upg_old_rev=3c2b641
upg_old_src="$(old_version_src)"
upg_tree="$CLUSTERS/inplace-install"          # the private installation, seen from the host
upg_tree_in="$(pg_inside "$upg_tree")"       # ... and where the server runs
upg_bindir="$(pg_in "$PG_CONFIG" --bindir)"
upg_postgres="$upg_tree_in$upg_bindir/postgres"
upg_old_build() { old_version_build "$upg_old_rev"; }  # 0.3.0 in its own tree (kept between runs)
upg_make_tree() {  # the private installation, without ulid_tsid
  mkdir -p "$CLUSTERS"
  # shellcheck disable=SC2016
  pg_in sh -c 't=$1; bin=$2; lib=$("$PG_CONFIG" --pkglibdir); share=$("$PG_CONFIG" --sharedir)
    rm -rf "$t" && mkdir -p "$t$bin" "$(dirname "$t$lib")" "$(dirname "$t$share")" &&
    cp -p "$bin/postgres" "$t$bin/postgres" && cp -rs "$lib" "$t$lib" && cp -rs "$share" "$t$share" &&
    find "$t$lib" "$t$share" -name "*ulid_tsid*" -prune -exec rm -rf {} +' sh "$upg_tree_in" "$upg_bindir"
}
upg_install() {  # upg_install TREE LOG: make install of the built TREE into the private installation
  if [ -z "$PG_CHROOT" ]; then
    (cd "$1" && flock /tmp/ulid_tsid.make.lock make install DESTDIR="$upg_tree_in" PG_CONFIG="$PG_CONFIG") >"$2" 2>&1
  else
    (cd "$1" && pg_in make install DESTDIR="$upg_tree_in" PG_CONFIG="$PG_CONFIG") >"$2" 2>&1
  fi || { tail -5 "$2"; return 1; }
}
upg_sql() {  # upg_sql DB SQL...: psql with the error's SQLSTATE, hint and detail; stdout and stderr together
  local db="$1"; shift
  psql -qXAt -v ON_ERROR_STOP=1 -v VERBOSITY=verbose -d "$db" "$@" 2>&1
}
upg_has() { printf '%s\n' "$1" | grep -q -- "$2"; }  # upg_has TEXT PATTERN (grep -e)
upg_keys_sql="INSERT INTO keys (kind, u, t, v) SELECT '%s', generate_ulid(), generate_tsid(), generate_uuidv7() FROM generate_series(1, 100)"
upg_above_sql="SELECT (SELECT min(u) FROM keys WHERE kind = 'new') > (SELECT max(u) FROM keys WHERE kind = 'old')
  AND (SELECT min(t) FROM keys WHERE kind = 'new') > (SELECT max(t) FROM keys WHERE kind = 'old')
  AND (SELECT v FROM keys WHERE kind = 'new' ORDER BY v LIMIT 1) > (SELECT v FROM keys WHERE kind = 'old' ORDER BY v DESC LIMIT 1)
  AND (SELECT count(*) FROM keys) = 200"
upg_new_sql="SELECT extversion = '$upg_current' FROM pg_extension WHERE extname = 'ulid_tsid';
  SELECT current_setting('ulid_tsid.library_version') = '$upg_current';
  SELECT uuid_extract_version(uuidv4()) = 4 AND (ulid_tsid_status()).node_bits IS NOT NULL"
upg_ip_pass=0; upg_ip_fail=0; upg_ip_start=$SECONDS
upg_ip() {  # upg_ip LABEL t|f: a failure shows what psql printed ($upg_out)
  if [ "$2" = t ]; then upg_ip_pass=$((upg_ip_pass + 1)); echo "   ok   $1"
  else upg_ip_fail=$((upg_ip_fail + 1)); echo "   FAIL $1"; printf '%s\n' "$upg_out" | sed 's/^/      /'; fi
}
upg_tf() { if "$@"; then echo t; else echo f; fi; }
upg_cleanup() { cluster_stop inplace 2>/dev/null; cluster_stop inplace_nopreload 2>/dev/null; rm -rf "$upg_tree"; suite_end; }
trap upg_cleanup EXIT
if upg_old_build && upg_make_tree && upg_install "$upg_old_src" "$LOGS/upgrade-$PG_MAJOR-inplace-install-0.3.0.log" &&
   CLUSTER_POSTGRES="$upg_postgres" cluster_start inplace 55434 "shared_preload_libraries = 'ulid_tsid'"; then
  upg_out=$(upg_sql postgres -c "CREATE EXTENSION ulid_tsid" -c "CREATE TABLE keys (kind text, u ulid, t tsid, v uuid)" \
    -c "$(printf "$upg_keys_sql" old)" -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'" \
    -c "SELECT default_version FROM pg_available_extensions WHERE name = 'ulid_tsid'")
  upg_ip "preloaded 0.3.0 (built from $upg_old_rev) runs from the private installation, with keys made (${upg_out//$'\n'/ })" \
    "$(upg_tf [ "$upg_out" = $'0.3.0\n0.3.0' ])"
  # Today's files over the running server's, then the update without a restart.
  upg_install "$PG_SRC" "$LOGS/upgrade-$PG_MAJOR-inplace-install-now.log"
  upg_out=$(upg_sql postgres -c "ALTER EXTENSION ulid_tsid UPDATE")
  upg_ip "preloaded 0.3.0, new files, no restart: ALTER EXTENSION UPDATE stops with ERROR 55000, says the library is older than $upg_current" \
    "$(upg_tf upg_has "$upg_out" "ERROR:  55000: .*library.*older than $upg_current")"
  upg_ip "... and its hint says: restart the server, then update again" \
    "$(upg_tf upg_has "$upg_out" "HINT:  Restart the server .*ALTER EXTENSION ulid_tsid UPDATE again")"
  upg_out=$(upg_sql postgres -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'" -c "SELECT generate_ulid() IS NOT NULL AND generate_tsid() IS NOT NULL")
  upg_ip "... and the extension is still 0.3.0 and makes keys" "$(upg_tf [ "$upg_out" = $'0.3.0\nt' ])"
  upg_out=$(psql -qX -c "CREATE DATABASE upg_inplace_new" 2>&1 && upg_sql upg_inplace_new -c "CREATE EXTENSION ulid_tsid")
  upg_ip "... and CREATE EXTENSION ulid_tsid in another database stops with the same error (55000, restart, then CREATE EXTENSION)" \
    "$(upg_tf upg_has "$upg_out" "HINT:  Restart the server .*CREATE EXTENSION ulid_tsid again")"
  (cd / && pg_as_postgres "$PG_BINDIR/pg_ctl" -p "$upg_postgres" -D "$(pg_inside "$(cluster_dir inplace)")/data" -w -t 60 restart) >/dev/null
  upg_out=$(upg_sql postgres -c "ALTER EXTENSION ulid_tsid UPDATE" -c "$(printf "$upg_keys_sql" new)" -c "$upg_new_sql" -c "$upg_above_sql" \
    -c "SELECT preloaded FROM ulid_tsid_status()")
  upg_ip "after a restart the update succeeds, 0.4.0's functions work, new keys sort above 0.3.0's, the library is preloaded (${upg_out//$'\n'/ })" \
    "$(upg_tf [ "$upg_out" = $'t\nt\nt\nt\nt' ])"
  upg_out=$(upg_sql upg_inplace_new -c "CREATE EXTENSION ulid_tsid" -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'")
  upg_ip "... and so does CREATE EXTENSION ulid_tsid in the other database" "$(upg_tf [ "$upg_out" = "$upg_current" ])"
  cluster_stop inplace
else
  upg_ip "a preloaded 0.3.0 from $upg_old_rev in a private copy of the installation (logs: $LOGS/build-v030-$PG_MAJOR.log, $LOGS/upgrade-$PG_MAJOR-inplace-*)" f
fi
# Without preload: a session that loaded 0.3.0's library before the new files came
# keeps it (the same error, its hint: a new session); a new session updates.
if upg_make_tree && upg_install "$upg_old_src" "$LOGS/upgrade-$PG_MAJOR-inplace-install-0.3.0.log" &&
   CLUSTER_POSTGRES="$upg_postgres" cluster_start inplace_nopreload 55435; then
  upg_out=$(upg_sql postgres -c "CREATE EXTENSION ulid_tsid" -c "CREATE TABLE keys (kind text, u ulid, t tsid, v uuid)" \
    -c "$(printf "$upg_keys_sql" old)" -c "SELECT extversion FROM pg_extension WHERE extname = 'ulid_tsid'" \
    -c "SELECT default_version FROM pg_available_extensions WHERE name = 'ulid_tsid'")
  upg_ip "0.3.0 without preload runs from the private installation, with keys made (${upg_out//$'\n'/ })" \
    "$(upg_tf [ "$upg_out" = $'0.3.0\n0.3.0' ])"
  upg_go="$upg_tree.go"; rm -f "$upg_go"
  { echo "SET application_name = 'upg_stale'; SELECT generate_ulid() IS NOT NULL;"
    for _ in $(seq 600); do [ -e "$upg_go" ] && break; sleep 0.1; done
    echo "ALTER EXTENSION ulid_tsid UPDATE;"; } | upg_sql postgres -f - >"$LOGS/upgrade-$PG_MAJOR-inplace-stale.log" &
  upg_stale=$!
  for _ in $(seq 300); do
    [ "$(psql -qXAt -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'upg_stale' AND state = 'idle' AND query LIKE '%generate_ulid%'")" = 1 ] && break
    sleep 0.1
  done
  upg_install "$PG_SRC" "$LOGS/upgrade-$PG_MAJOR-inplace-install-now.log"
  touch "$upg_go"; wait "$upg_stale"; rm -f "$upg_go"
  upg_out=$(cat "$LOGS/upgrade-$PG_MAJOR-inplace-stale.log")
  upg_ip "not preloaded, new files: a session that had loaded 0.3.0's library gets ERROR 55000 and the hint of a new session" \
    "$(upg_tf upg_has "$upg_out" "HINT:  Run ALTER EXTENSION ulid_tsid UPDATE from a new session")"
  upg_out=$(upg_sql postgres -c "ALTER EXTENSION ulid_tsid UPDATE" -c "$(printf "$upg_keys_sql" new)" -c "$upg_new_sql" -c "$upg_above_sql")
  upg_ip "... and a new session updates without a restart, 0.4.0's functions work, new keys sort above 0.3.0's (${upg_out//$'\n'/ })" \
    "$(upg_tf [ "$upg_out" = $'t\nt\nt\nt' ])"
  cluster_stop inplace_nopreload
else
  upg_ip "0.3.0 without preload in a private copy of the installation (logs: $LOGS/upgrade-$PG_MAJOR-inplace-*)" f
fi
rm -rf "$upg_tree"; trap suite_end EXIT
echo "   upgrade in place: $((SECONDS - upg_ip_start)) s"
tally "upgrade in place" "$upg_ip_pass" "$upg_ip_fail"
