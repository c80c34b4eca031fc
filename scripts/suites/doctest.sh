#!/usr/bin/env bash
# The documentation runs: every ```sql block of README.md and docs/*.md, on one major,
# each page's blocks in order in a fresh database of their own (with the extension
# created, unless the page's blocks create it themselves), and every relative link
# and #anchor of README.md, docs/, CONTRIBUTING.md and CHANGELOG.md resolves. A block
# preceded by "<!-- not run: REASON -->" is listed with its reason and not run; one
# preceded by "<!-- migrate: NAME -->", "<!-- portable: NAME -->" or "<!-- partman: NAME -->"
# is run as it stands there by test/t/014_migrating.pl, the portable suite or the partman
# suite. (scripts/doctest.py)
#   PG_MAJOR=17 bash scripts/suites/doctest.sh   (after scripts/suites/build.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
PORT=$((56700 + PG_MAJOR))
WORK="$LOGS/doctest-$PG_MAJOR"
rm -rf "$WORK"; mkdir -p "$WORK"

echo "== links"
python3 scripts/doctest.py links >"$WORK/links.out"; links_rc=$?
cat "$WORK/links.out"
tally links "$(grep -c '^   ok ' "$WORK/links.out")" "$(grep -c '^   FAIL ' "$WORK/links.out")"
[ "$links_rc" -eq 0 ] || [ "$(grep -c '^   FAIL ' "$WORK/links.out")" -gt 0 ] || tally "links (the checker failed)" 0 1

python3 scripts/doctest.py blocks "$WORK/blocks" || { tally "extracting the blocks" 0 1; exit 1; }
echo "== SQL blocks not run here"
awk -F'\t' '$3 == "skip" { printf "   -    %s:%s: %s\n", $1, $2, $4 }' "$WORK/blocks/manifest.tsv"

cluster_start "doctest_$PORT" "$PORT" || { tally "a cluster for the blocks" 0 1; exit 1; }
trap 'cluster_stop "doctest_$PORT"; suite_end' EXIT
echo "== SQL blocks, on PostgreSQL $PG_MAJOR"
run_pass=0; run_fail=0
for dir in "$WORK"/blocks/*/; do
  ls "$dir"*.sql >/dev/null 2>&1 || continue
  db="doctest_$(basename "$dir" | tr -c 'a-z0-9\n' '_')"
  psql -qX -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db" >/dev/null
  [ -e "$dir/no-extension" ] || psql -qX -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION ulid_tsid" >/dev/null
  for f in "$dir"*.sql; do
    where="$(awk -F'\t' -v f="$f" '$4 == f { print $1 ":" $2 }' "$WORK/blocks/manifest.tsv")"
    if psql -X -v ON_ERROR_STOP=1 -d "$db" -f "$f" >"${f%.sql}.out" 2>&1; then
      run_pass=$((run_pass + 1)); echo "   ok   $where runs"
    else
      run_fail=$((run_fail + 1)); echo "   FAIL $where runs"; grep -m3 -E 'ERROR|FATAL' "${f%.sql}.out" | sed 's/^/        /'
    fi
  done
done
tally "SQL blocks" "$run_pass" "$run_fail"

# Every example key shown beside a time (or a key shown as its uuid) is what the
# extension makes of it.
echo "== example values, on PostgreSQL $PG_MAJOR"
psql -qX -v ON_ERROR_STOP=1 -c "CREATE DATABASE doctest_examples" >/dev/null
psql -qX -v ON_ERROR_STOP=1 -d doctest_examples -c "CREATE EXTENSION ulid_tsid" >/dev/null
ex_pass=0; ex_fail=0
python3 scripts/doctest.py examples >"$WORK/examples.tsv"
while IFS=$'\t' read -r where sql; do
  if [ "$(psql -qXAt -d doctest_examples -c "$sql" 2>&1)" = t ]; then
    ex_pass=$((ex_pass + 1)); echo "   ok   $where is what the extension makes of it"
  else
    ex_fail=$((ex_fail + 1)); echo "   FAIL $where is what the extension makes of it ($sql)"
  fi
done <"$WORK/examples.tsv"
[ "$((ex_pass + ex_fail))" -gt 0 ] || ex_fail=1
tally "example values" "$ex_pass" "$ex_fail"
