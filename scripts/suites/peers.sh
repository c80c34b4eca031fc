#!/usr/bin/env bash
# The peers' own tests against ulid_tsid (+ ulid_tsid_compat) standing in for them, on one
# major: what a user coming from pg_uuidv7, andrielfn's pg-ulid or pgx_ulid runs first.
#   PG_MAJOR=17 bash scripts/suites/peers.sh      (after scripts/suites/build.sh)
#
#   pg_uuidv7 1.6.0   its regression files (test/sql, test/expected) as they ship, run by this
#                     major's pg_regress; 001_setup's `CREATE EXTENSION "pg_uuidv7";` becomes
#                     `CREATE EXTENSION ulid_tsid; CREATE EXTENSION ulid_tsid_compat;` in the
#                     test and its expected output alike (the only substitution). One check per file.
#   pg-ulid b5fee2a   test/operations.sql run as its test.sh runs it (psql -e, compared with
#                     test/operations.sql.out); `CREATE EXTENSION ulid;` becomes `CREATE EXTENSION
#                     ulid_tsid;` in both. One check per statement (scripts/peers_compare.py).
#   pgx_ulid          its #[pg_test] functions, translated one assertion for one into
#                     test/peers/pgx_ulid.sql (its header names the source and commit). One
#                     check per assertion.
# Both tarballs come from ../shared/vendor beside the checkout (read at run time, never copied
# into the repository); without it, those two peers are skipped in one line each.
#
# Each peer prints "N of M pass". A difference listed in DELIBERATE below (with its reason,
# also in docs/migrating.md) is printed and not counted as a failure; any other difference
# fails, and so does a listed one that no longer differs (the list stays true).
# Port: 57200 + PG_MAJOR.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
PORT=$((57200 + PG_MAJOR))
VENDOR="$ROOT/../shared/vendor"

# Deliberate differences: "peer:test" -> the reason (docs/migrating.md, "Running the peers'
# own tests").
declare -A DELIBERATE=(
  [pgx_ulid:test_string_to_ulid_invalid_length]="the ERROR (22P02) names the input; the reason (26 characters, this input has 25) is its DETAIL, not a ': invalid length' suffix of the message"
  [pgx_ulid:test_string_to_ulid_invalid_char]="the ERROR (22P02) names the input; the reason (the character and its position) is its DETAIL, not a ': invalid character' suffix of the message"
)

WORK="$CLUSTERS/peers-work"
rm -rf "$WORK"; mkdir -p "$WORK"
[ "$(id -u)" -ne 0 ] || [ -z "$PG_CHROOT" ] || chmod 777 "$WORK"
cluster_start peers "$PORT" || { tally "a cluster for the peers" 0 1; exit 1; }
trap 'cluster_stop peers; suite_end' EXIT
PG_REGRESS="$(pg_in "$PG_CONFIG" --pkglibdir)/pgxs/src/test/regress/pg_regress"

# result PEER TEST PASSED(0/1) [DETAIL]: one check, against the list of deliberate differences.
peer_pass=0; peer_total=0
result() {
  local key="$1:$2" why
  why="${DELIBERATE[$key]:-}"
  peer_total=$((peer_total + 1))
  if [ "$3" -eq 0 ]; then
    peer_pass=$((peer_pass + 1))
    if [ -n "$why" ]; then check "$key passes, but is listed as a deliberate difference (remove it from DELIBERATE)" false
    else check "$key" true; fi
  elif [ -n "$why" ]; then
    echo "   -    $key differs, deliberately: $why"
  else
    check "$key${4:+: $4}" false
  fi
}
peer_end() { echo "== $1: $peer_pass of $peer_total pass"; peer_pass=0; peer_total=0; }

# ---- pg_uuidv7: its regression files as they ship ---------------------------------------
t="$VENDOR/pg_uuidv7-1.6.0.tar.gz"
if [ ! -f "$t" ]; then
  echo "   pg_uuidv7: skipped ($t is absent: its tests come from ../shared/vendor beside the checkout)"
else
  tar -xzf "$t" -C "$WORK"
  src="$WORK/pg_uuidv7-1.6.0/test"
  n=$(grep -c '^CREATE EXTENSION "pg_uuidv7";$' "$src/sql/001_setup.sql" "$src/expected/001_setup.out" | awk -F: '{ s += $2 } END { print s }')
  sed -i 's/^CREATE EXTENSION "pg_uuidv7";$/CREATE EXTENSION ulid_tsid; CREATE EXTENSION ulid_tsid_compat;/' "$src/sql/001_setup.sql" "$src/expected/001_setup.out"
  check "pg_uuidv7: its setup creates it once, in the test and its expected output (the line substituted)" test "$n" = 2
  tests=(); for f in "$src"/sql/*.sql; do tests+=("$(basename "$f" .sql)"); done
  mkdir -p "$WORK/uuidv7-out"
  (cd "$WORK" && pg_in "$PG_REGRESS" --inputdir="$(pg_inside "$src")" --outputdir="$(pg_inside "$WORK/uuidv7-out")" \
     --dbname=peers_pg_uuidv7 "${tests[@]}") >"$WORK/uuidv7.log" 2>&1
  for t in "${tests[@]}"; do
    if grep -qE "^(ok|not ok) .* $t( |$)|^test $t +\.\.\. ok| $t +\.\.\. ok" "$WORK/uuidv7.log" &&
       ! grep -qE "^not ok .* $t( |$)| $t +\.\.\. FAILED" "$WORK/uuidv7.log"; then
      result pg_uuidv7 "$t" 0
    else
      result pg_uuidv7 "$t" 1 "see $WORK/uuidv7-out/regression.diffs"
    fi
  done
  [ -f "$WORK/uuidv7-out/regression.diffs" ] && head -60 "$WORK/uuidv7-out/regression.diffs" | sed 's/^/        /'
  peer_end pg_uuidv7
fi

# ---- andrielfn's pg-ulid: test/operations.sql as its test.sh runs it ----------------------
t="$VENDOR/pg-ulid-b5fee2a.tar.gz"
if [ ! -f "$t" ]; then
  echo "   pg-ulid: skipped ($t is absent: its tests come from ../shared/vendor beside the checkout)"
else
  tar -xzf "$t" -C "$WORK"
  src="$WORK/pg-ulid-b5fee2a/test"
  n=$(grep -c '^CREATE EXTENSION ulid;$' "$src/operations.sql" "$src/operations.sql.out" | awk -F: '{ s += $2 } END { print s }')
  sed -i 's/^CREATE EXTENSION ulid;$/CREATE EXTENSION ulid_tsid;/' "$src/operations.sql" "$src/operations.sql.out"
  check "pg-ulid: its test creates it once, in the test and its expected output (the line substituted)" test "$n" = 2
  psql -qX -c "CREATE DATABASE peers_pg_ulid" >/dev/null
  (cd "$WORK" && pg_in psql -X -d peers_pg_ulid -e -f "$(pg_inside "$src/operations.sql")") >"$WORK/pg_ulid.out" 2>&1
  python3 scripts/peers_compare.py "$src/operations.sql" "$src/operations.sql.out" "$WORK/pg_ulid.out" >"$WORK/pg_ulid.cmp"
  while IFS= read -r line; do
    case "$line" in
      "ok   "*) s="${line#ok   }"; result pg-ulid "statement ${s%%: *} (${s#*: })" 0 ;;
      "FAIL "*) s="${line#FAIL }"; result pg-ulid "statement ${s%%: *} (${s#*: })" 1 ;;
      *) echo "        $line" ;;
    esac
  done <"$WORK/pg_ulid.cmp"
  peer_end pg-ulid
fi

# ---- pgx_ulid: its #[pg_test]s, translated ------------------------------------------------
psql -qX -c "CREATE DATABASE peers_pgx_ulid" >/dev/null
psql -qX -v ON_ERROR_STOP=1 -d peers_pgx_ulid -c "CREATE EXTENSION ulid_tsid" -c "CREATE EXTENSION ulid_tsid_compat" >/dev/null
cp test/peers/pgx_ulid.sql "$WORK/"
(cd "$WORK" && pg_in psql -X -At -d peers_pgx_ulid -f "$(pg_inside "$WORK/pgx_ulid.sql")") >"$WORK/pgx_ulid.out" 2>&1
names=$(grep -oE "^SELECT pg_temp\.ok\(.*'(test_[a-z_]+)'\);$|'(test_[a-z_]+)'\);$" test/peers/pgx_ulid.sql | grep -oE "test_[a-z_]+")
for name in $names; do
  if grep -qx "ok $name" "$WORK/pgx_ulid.out"; then result pgx_ulid "$name" 0
  else result pgx_ulid "$name" 1 "$(grep -m1 -E "^not ok $name\$|ERROR" "$WORK/pgx_ulid.out")"; fi
done
grep -E 'ERROR|^[0-9A-Z]{5} ' "$WORK/pgx_ulid.out" | sed 's/^/        /'
peer_end pgx_ulid
