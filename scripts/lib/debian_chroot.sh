# shellcheck shell=bash
# What the Debian chroots share (sourced by scripts/chroot.sh and scripts/suites/buildd.sh):
#   debian_mirror              the Debian archive the machine's own apt sources name,
#                              for debootstrap (never a host written down)
#   debian_apt_conf DIR [LINE...]  the chroot's apt settings, and no service started
#   unmount_under DIR [self]   every mount under DIR (and DIR itself with "self"),
#                              deepest first; 1 when one stays
#
# debian_mirror:
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

debian_apt_conf() {
  local dir="$1"; shift
  {
    echo '// sid'"'"'s and experimental'"'"'s Release files on the mirror are past their Valid-Until.'
    echo 'Acquire::Check-Valid-Until "false";'
    echo 'Acquire::Languages "none";'
    echo 'APT::Install-Recommends "false";'
    echo 'APT::Install-Suggests "false";'
    echo 'Dpkg::Use-Pty "false";'
    local line; for line in "$@"; do echo "$line"; done
  } >"$dir/etc/apt/apt.conf.d/90ulid_tsid"
  printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
  chmod 755 "$dir/usr/sbin/policy-rc.d"
}

unmount_under() {
  local m self="${2:-}"
  mounts_under() { findmnt -rn -o TARGET | awk -v d="$1" -v s="$self" 'index($0, d "/") == 1 || (s == "self" && $0 == d)'; }
  while read -r m; do umount "$m" 2>/dev/null || umount -l "$m"; done < <(mounts_under "$1" | sort -r)
  [ -z "$(mounts_under "$1")" ]
}
