#!/usr/bin/env bash
# The extension's version lives in one place, EXTVERSION in the Makefile; every
# other place that names it must agree: the control file's default_version,
# META.json (its version and each provides.*.version), debian/changelog's top
# entry (upstream part), the library version the install script needs
# (src/sql/01_library.sql) and the scripts in sql/ (the current version's script
# is built, never frozen there; every frozen release reaches the current version
# through upgrade scripts). One line per check, "ok" or "FAIL"; exit 1 on any
# FAIL. Run from the top of a checkout or of an unpacked distribution; needs
# python3 for META.json and dpkg-parsechangelog for debian/changelog.
set -uo pipefail
cd "${1:-.}" || exit 1
ext=ulid_tsid
failures=0
check() {  # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "   ok   $1: $3"; else echo "   FAIL $1: '$3', but EXTVERSION is '$2'"; failures=$((failures + 1)); fi
}

current=$(sed -n 's/^EXTVERSION *= *//p' Makefile)
if [ -z "$current" ]; then echo "   FAIL no EXTVERSION in Makefile"; exit 1; fi

check "$ext.control default_version" "$current" "$(sed -n "s/^default_version *= *'\(.*\)'/\1/p" $ext.control)"

while IFS=$'\t' read -r what version; do
  check "META.json $what" "$current" "$version"
done < <(python3 - <<'EOF'
import json
meta = json.load(open("META.json"))
print("version\t%s" % meta.get("version"))
for name, ext in sorted(meta.get("provides", {}).items()):
    print("provides.%s.version\t%s" % (name, ext.get("version")))
EOF
)

if [ -f debian/changelog ]; then
  deb_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
  deb_upstream=${deb_version#*:}; deb_upstream=${deb_upstream%-*}
  check "debian/changelog top entry ($deb_version), upstream part" "$current" "$deb_upstream"
fi

# The install script refuses a library older than itself (src/sql/01_library.sql).
check "src/sql/01_library.sql: the library version it needs" "$current" \
  "$(sed -n "s/^ *needed pg_catalog.text := '\([^']*\)'.*/\1/p" src/sql/01_library.sql)"

# Frozen scripts: a release's install script is never the current version's
# (that one is built from src/sql/), and each one reaches the current version.
if git rev-parse --git-dir >/dev/null 2>&1 && [ -n "$(git ls-files "sql/$ext--$current.sql")" ]; then
  echo "   FAIL sql/$ext--$current.sql is committed, but the build makes it: was EXTVERSION raised after the release?"
  failures=$((failures + 1))
fi
# Released is frozen, also while the released version's script is still the built one
# (until the next version's first SQL change raises EXTVERSION): once the CHANGELOG dates
# EXTVERSION's entry, what src/sql/ builds must hash as the release recorded it, in
# sql/$ext--$current.sql.sha256 (CONTRIBUTING, "Release a version").
if grep -qE "^## $current \([0-9]{4}-[0-9]{2}-[0-9]{2}\)" CHANGELOG.md 2>/dev/null; then
  record="sql/$ext--$current.sql.sha256"
  # The Makefile's rule for its DATA_built script, without PGXS (no pg_config needed here).
  built_hash=$(LC_ALL=C ls src/sql/*.sql src/sql/*.sql.in 2>/dev/null | LC_ALL=C sort |
    xargs awk -f src/sql/expand.awk | sha256sum | cut -d' ' -f1)
  if [ ! -f "$record" ]; then
    echo "   FAIL $current is released (CHANGELOG.md dates it) but $record, its install script's sha256 at the release, is missing"
    failures=$((failures + 1))
  elif [ "$(cut -d' ' -f1 "$record")" = "$built_hash" ]; then
    echo "   ok   released $current: src/sql/ builds its install script as released ($record)"
  else
    echo "   FAIL released $current: src/sql/ builds a different install script than was released ($record):" \
      "a change to SQL objects ships as the next version (raise EXTVERSION, freeze sql/$ext--$current.sql, write the upgrade script)"
    failures=$((failures + 1))
  fi
fi
for record in sql/$ext--*.sql.sha256; do
  [ -f "$record" ] || continue
  frozen="${record%.sha256}"
  [ "$frozen" = "sql/$ext--$current.sql" ] && continue
  if [ ! -f "$frozen" ]; then
    echo "   FAIL $record records a release whose script $frozen is not frozen in sql/"; failures=$((failures + 1))
  elif (cd sql && sha256sum --quiet -c "${record#sql/}" >/dev/null 2>&1); then
    echo "   ok   frozen $frozen is the script its release recorded ($record)"
  else
    echo "   FAIL frozen $frozen differs from the script its release recorded ($record)"; failures=$((failures + 1))
  fi
done
released=()
declare -A upgrade_to=()
for script in sql/$ext--*.sql; do
  name=$(basename "$script" .sql); name=${name#"$ext"--}
  case "$name" in
    *--*) upgrade_to[${name%%--*}]+=" ${name#*--}" ;;
    "$current") ;;
    *) released+=("$name") ;;
  esac
done
for from in "${released[@]}"; do
  if [ "$(printf '%s\n' "$from" "$current" | sort -V | tail -1)" != "$current" ]; then
    echo "   FAIL released version $from is newer than EXTVERSION $current"; failures=$((failures + 1)); continue
  fi
  path="$from"; reached=" $from "; frontier="$from"; found=""
  while [ -n "$frontier" ] && [ -z "$found" ]; do
    next=""
    for v in $frontier; do
      for to in ${upgrade_to[$v]:-}; do
        case "$reached" in *" $to "*) continue ;; esac
        reached="$reached$to "; next="$next $to"
        [ "$to" = "$current" ] && found=1
      done
    done
    frontier=$next
  done
  if [ -n "$found" ]; then
    echo "   ok   released $from has an upgrade path to $current"
  else
    echo "   FAIL released $from has no upgrade path to $current (sql/$ext--A--B.sql scripts reach only:$reached)"
    failures=$((failures + 1))
  fi
done
for from in "${!upgrade_to[@]}"; do
  for to in ${upgrade_to[$from]}; do
    case " ${released[*]} $current " in *" $to "*) ;; *)
      echo "   FAIL sql/$ext--$from--$to.sql leads to $to, neither a release nor EXTVERSION"; failures=$((failures + 1)) ;;
    esac
  done
done

[ "$failures" -eq 0 ]
