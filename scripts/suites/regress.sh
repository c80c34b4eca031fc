# pg_regress suites (sql/ and expected/) against a throwaway cluster.
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
