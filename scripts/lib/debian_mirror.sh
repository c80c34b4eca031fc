# shellcheck shell=bash
# debian_mirror: the Debian archive the machine's own apt sources name, for debootstrap
# (sourced by scripts/chroot.sh and scripts/suites/buildd.sh; never a host written down).
# ULID_TSID_DEBIAN_MIRROR overrides it. Prints the URI without a trailing slash; returns
# 1 when no apt source names one.
debian_mirror() {
  if [ -n "${ULID_TSID_DEBIAN_MIRROR:-}" ]; then echo "${ULID_TSID_DEBIAN_MIRROR%/}"; return; fi
  local codename="" uris=() f u
  # shellcheck disable=SC1091
  codename="$( . /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")" || true
  [ -n "$codename" ] || codename=bookworm
  shopt -s nullglob
  for f in /etc/apt/sources.list.d/*.sources; do
    while read -r u; do uris+=("$u"); done < <(awk -v suite="$codename" '
      function flush() {
        if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " suite " ") && enabled != "no")
          { n = split(uri, a, " "); for (i = 1; i <= n; i++) print a[i] }
        types = suites = uri = ""; enabled = "yes"
      }
      BEGIN { enabled = "yes" }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      { key = tolower($1); sub(/^[^:]*:[ \t]*/, ""); val = $0
        if (key == "types:") types = val
        else if (key == "suites:") suites = val
        else if (key == "uris:") uri = val
        else if (key == "enabled:") enabled = tolower(val) }
      END { flush() }' "$f")
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    while read -r u; do uris+=("$u"); done < <(awk -v suite="$codename" '
      $1 == "deb" { i = 2; if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                    if ($(i + 1) == suite) print $i }' "$f")
  done
  shopt -u nullglob
  [ ${#uris[@]} -gt 0 ] || return 1
  for u in "${uris[@]}"; do  # the Debian archive itself rather than a third-party repository
    case "${u%/}" in */debian) echo "${u%/}"; return ;; esac
  done
  echo "${uris[0]%/}"
}
