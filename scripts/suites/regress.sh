#!/usr/bin/env bash
# pg_regress suites (sql/ and expected/) against a throwaway cluster of one major
# (`make installcheck` where the extension was built: scripts/suites/build.sh), after
# a check that every test file in sql/ (all of them are the Makefile's REGRESS) has
# its expected output.
#   PG_MAJOR=17 bash scripts/suites/regress.sh
#   REGRESS_PRELOAD=1 ...   the same with shared_preload_libraries = 'ulid_tsid'
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
cd "$ROOT"
# The Makefile's REGRESS is every test file in sql/; each needs its expected output.
missing=""
for f in sql/*.sql; do
  t=$(basename "$f" .sql)
  case "$t" in ulid_tsid--*|ulid_tsid_compat--*) continue ;; esac  # extension scripts, not tests
  [ -f "expected/$t.out" ] || missing="$missing $t"
done
check "every sql/*.sql test has its expected output${missing:+ (not:$missing)}" test -z "$missing"
pg_copy_tree
regress_conf=() regress_name="regress-$PG_MAJOR"
if [ -n "${REGRESS_PRELOAD:-}" ]; then
  regress_conf=("shared_preload_libraries = 'ulid_tsid'") regress_name="regress-$PG_MAJOR-preloaded"
  SUITE_LABEL="$SUITE_LABEL, preloaded"
fi
cluster_start regress $((55431 + PG_PORT_SHIFT)) "${regress_conf[@]}" || exit 1
log="$LOGS/$regress_name.log"
(cd "$PG_SRC" && rm -f regression.diffs && pg_in make installcheck) >"$log" 2>&1
regress_rc=$?
grep -E '^(test |ok |not ok | +[a-z_]+ +\.\.\.)|^ *(ok|FAILED)' "$log" || true
ok=$(grep -cE '(\.\.\. ok|^ok )' "$log")
bad=$(grep -cE '(\.\.\. FAILED|^not ok )' "$log")
if [ "$regress_rc" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; tail -30 "$log"; fi
if [ -f "$PG_SRC/regression.diffs" ]; then
  cp "$PG_SRC/regression.diffs" "$LOGS/${regress_name/regress/regression}.diffs"; head -200 "$PG_SRC/regression.diffs"
fi
tally regress "$ok" "$bad"
cluster_stop regress
