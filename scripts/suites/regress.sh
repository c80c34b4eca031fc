# pg_regress suites (sql/ and expected/) against a throwaway cluster, after a
# check that every test file in sql/ is scheduled in the Makefile and has its
# expected output (a test left out of REGRESS would never run).
schedule=" $(sed -n 's/^REGRESS = //p' Makefile) "
unscheduled=""
for f in sql/*.sql; do
  t=$(basename "$f" .sql)
  case "$t" in ulid_tsid--*|ulid_tsid_compat--*) continue ;; esac  # extension scripts, not tests
  case "$schedule" in *" $t "*) ;; *) unscheduled="$unscheduled $t" ;; esac
  [ -f "expected/$t.out" ] || unscheduled="$unscheduled $t(no expected output)"
done
for t in $schedule; do [ -f "sql/$t.sql" ] || unscheduled="$unscheduled $t(no sql file)"; done
if [ -z "$unscheduled" ]; then tally schedule 1 0; else echo "not in REGRESS or incomplete:$unscheduled"; tally schedule 0 1; fi
cluster_start regress 55431
make installcheck >"$LOGS/regress.log" 2>&1
regress_rc=$?
cat "$LOGS/regress.log" | grep -E '^(test |ok |not ok | +[a-z_]+ +\.\.\.)|^ *(ok|FAILED)' || true
ok=$(grep -cE '(\.\.\. ok|^ok )' "$LOGS/regress.log")
bad=$(grep -cE '(\.\.\. FAILED|^not ok )' "$LOGS/regress.log")
if [ "$regress_rc" -ne 0 ] && [ "$bad" -eq 0 ]; then bad=1; tail -30 "$LOGS/regress.log"; fi
[ -f regression.diffs ] && head -200 regression.diffs
tally regress "$ok" "$bad"
cluster_stop regress
