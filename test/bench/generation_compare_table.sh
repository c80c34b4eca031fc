#!/usr/bin/env bash
# The README's tables of 0.3.0 against 0.4.0 on every major, from the CSVs that
# test/bench/generation_compare.sh wrote (one run per major) into
# test/bench/results/generation_compare/ (or DIR):
#   bash test/bench/generation_compare_table.sh [DIR]
set -uo pipefail
D="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/results/generation_compare}"
F="generate_ulid() generate_ulid_monotonic() generate_tsid() generate_uuidv7()"
echo "Instructions per value (0.3.0 -> 0.4.0, change, and 0.4.0 against \`nextval()\` of the same count):"
echo
echo "| major | preload | \`generate_ulid()\` | \`generate_ulid_monotonic()\` | \`generate_tsid()\` | \`generate_uuidv7()\` | \`nextval()\` |"
echo "|---|---|---:|---:|---:|---:|---:|"
for m in 13 15 17 18 19; do
  f="$D/generation_instructions-$m.csv"; [ -f "$f" ] || continue
  awk -F, -v m="$m" 'NR > 1 { a[$2, $3] = $4; b[$2, $3] = $5; c[$2, $3] = $6; x[$2, $3] = $8 }
    END { split("plain preload", modes, " "); split("generate_ulid() generate_ulid_monotonic() generate_tsid() generate_uuidv7()", fs, " ")
      for (i = 1; i <= 2; i++) { md = modes[i]; line = "| " m " | " md
        for (j = 1; j <= 4; j++) { k = md SUBSEP fs[j]; line = line sprintf(" | %.0f -> %.0f (%s%%, %sx)", a[k], b[k], c[k], x[k]) }
        k = md SUBSEP "nextval('"'"'gi_seq'"'"')"; line = line sprintf(" | %.0f -> %.0f |", a[k], b[k]); print line } }' "$f"
done
echo
echo "The other generators, in the same runs (today's tree's clusters, without preload; instructions in user space only: the system call each of these makes per value (\`getpid\`, in OpenSSL under \`pg_strong_random()\`) is not counted; 15's from \`generation_baselines-15.csv\`):"
echo
echo "| major | core \`gen_random_uuid()\` | core \`uuidv7()\` | pg_uuidv7 \`uuid_generate_v7()\` | \`nextval()\` |"
echo "|---|---:|---:|---:|---:|"
for m in 13 15 17 18 19; do
  f="$D/generation_instructions-$m.csv"; [ "$m" = 15 ] && f="$D/generation_baselines-15.csv"; [ -f "$f" ] || continue
  awk -F, -v m="$m" 'NR == 1 { five = ($3 == "function") } NR > 1 && $2 == "plain" || (NR > 1 && $1 == "plain") {
      if (five) { fn = $3; i = $5; x = $8 } else { fn = $2; i = $3; x = $4 }
      v[fn] = sprintf("%.0f (%.2fx)", i, x) }
    END { line = "| " m
      n = split("gen_random_uuid() pg_catalog.uuidv7() uuid_generate_v7()", fs, " ")
      for (j = 1; j <= n; j++) line = line " | " ((fs[j] in v) ? v[fs[j]] : "-")
      k = "nextval('"'"'gi_seq'"'"')"; printf "%s | %.0f |\n", line, v[k] + 0 }' "$f"
done
echo
echo "Wall clock, side by side (today's / 0.3.0's net ns per value, the median of the per-round ratios; then 0.3.0 -> 0.4.0 against \`nextval()\` of the same session; \`nextval()\`'s own ns per call shows the load):"
echo
echo "| major | preload | \`generate_ulid()\` | \`generate_ulid_monotonic()\` | \`generate_tsid()\` | \`generate_uuidv7()\` | \`nextval()\` ns | rounds |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for m in 13 15 17 18 19; do
  f="$D/generation_compare-$m.csv"; [ -f "$f" ] || continue
  awk -F, -v m="$m" 'NR > 1 { r[$2, $3] = $9; xa[$2, $3] = $7; xb[$2, $3] = $8; if ($3 ~ /^nextval/) { nv[$2] = $5 " / " $6; n[$2] = $4 } }
    END { split("plain preload", modes, " "); split("generate_ulid() generate_ulid_monotonic() generate_tsid() generate_uuidv7()", fs, " ")
      for (i = 1; i <= 2; i++) { md = modes[i]; line = "| " m " | " md
        for (j = 1; j <= 4; j++) { k = md SUBSEP fs[j]; line = line sprintf(" | %.2f (%.2fx -> %.2fx)", r[k], xa[k], xb[k]) }
        print line " | " nv[md] " | " n[md] " |" } }' "$f"
done
