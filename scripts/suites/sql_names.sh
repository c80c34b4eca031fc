#!/usr/bin/env bash
# Static check of the extension scripts (scripts/check-sql-names.py): every name
# their executable code and support clauses use is schema-qualified, so that
# no planted function or operator can run as the superuser that a trusted
# extension's scripts run as. The checker must also find each of the 11
# findings planted in test/static/hostile_names.sql (a checker that finds
# nothing passes everything).
#   bash scripts/suites/sql_names.sh   (no server; ends with "N passed, N failed")
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/suite.sh"
cd "$ROOT"
sqln_ok=0; sqln_bad=0
sqln_out=$(python3 scripts/check-sql-names.py 2>&1); sqln_rc=$?
echo "$sqln_out" | sed 's/^/   /'
if [ "$sqln_rc" -eq 0 ]; then sqln_ok=$((sqln_ok + 1)); else sqln_bad=$((sqln_bad + 1)); fi
sqln_found=$(python3 scripts/check-sql-names.py test/static/hostile_names.sql 2>&1 | grep -c '^ *line [0-9]*:')
if [ "$sqln_found" -eq 11 ]; then
  sqln_ok=$((sqln_ok + 1)); echo "   ok   the checker finds all 11 planted findings in test/static/hostile_names.sql"
else
  sqln_bad=$((sqln_bad + 1)); echo "   FAIL the checker found $sqln_found of the 11 planted findings in test/static/hostile_names.sql"
fi
# The pg_tle form holds the edition's script inside a string: one unqualified call
# put into it (pg_catalog.format -> format) must be found there.
sqln_tle="$(mktemp)"
sed '0,/pg_catalog[.]format(/s//format(/' portable/ulid_tsid_portable--pg_tle.sql >"$sqln_tle"
sqln_tle_out="$(python3 scripts/check-sql-names.py "$sqln_tle" 2>&1)"
if ! cmp -s "$sqln_tle" portable/ulid_tsid_portable--pg_tle.sql && [[ "$sqln_tle_out" == *"unqualified function call format"* ]]; then
  sqln_ok=$((sqln_ok + 1)); echo "   ok   the checker reads the script inside portable/ulid_tsid_portable--pg_tle.sql (finds an unqualified format() put there)"
else
  sqln_bad=$((sqln_bad + 1)); echo "   FAIL the checker does not find an unqualified format() put into portable/ulid_tsid_portable--pg_tle.sql's script"
fi
rm -f "$sqln_tle"
tally "sql names" "$sqln_ok" "$sqln_bad"
