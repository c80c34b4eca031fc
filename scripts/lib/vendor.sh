# An extension built from ../shared/vendor/ for one major's server (sourced after
# scripts/lib/pg.sh, never run): what scripts/lib/pgtle.sh (pg_tle) and
# scripts/suites/citus.sh (Citus) share. Each builds in the server's filesystem
# (the host's 15, the major's chroot), keeps the server's files of the build in a
# cache directory outside the chroot, and copies them into the server.
#   vendor_deps NAME PKG...    the build packages the server's filesystem lacks,
#                              installed into the chroot (on the host: named, 1);
#                              the log in $LOGS/NAME-deps-$PG_MAJOR.log
#   vendor_unpack NAME KEY TARBALL CACHE
#                              TARBALL unpacked afresh into the directory to build
#                              KEY in (in the chroot, or under $ULID_TSID_CACHE/NAME/
#                              on the host), CACHE removed; prints that directory
#   vendor_keep SRC CACHE      the staged build (SRC/stage, from make install
#                              DESTDIR=SRC/stage) kept in CACHE/stage, SRC removed,
#                              CACHE/complete written last
#   vendor_install CACHE TAG   CACHE/stage copied into the server, file by file,
#                              unless already there (TAG: the temporary files' suffix)

vendor_deps() {
  local name="$1" missing=() p
  shift
  for p in "$@"; do
    pg_in dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ -n "$PG_CHROOT" ] || { echo "   missing on the host: ${missing[*]} (bash scripts/install-deps.sh)"; return 1; }
  echo "   installing into the $(basename "$PG_CHROOT") chroot: ${missing[*]}"
  # One apt at a time per chroot (the chroot itself is held shared by lib/pg.sh);
  # the lock keeps the name it had when only the citus suite took it.
  (
    flock 9
    pg_in env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y "${missing[@]}" </dev/null ||
      { pg_in apt-get update </dev/null && pg_in env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y "${missing[@]}" </dev/null; }
  ) 9>>"$ULID_TSID_CACHE/locks/citus-apt-$(basename "$PG_CHROOT")" >>"$LOGS/$name-deps-$PG_MAJOR.log" 2>&1 ||
    { tail -5 "$LOGS/$name-deps-$PG_MAJOR.log"; return 1; }
}

vendor_unpack() {
  local src
  if [ -n "$PG_CHROOT" ]; then src="$PG_CHROOT/build/$2"; else src="$ULID_TSID_CACHE/$1/build-$2"; fi
  rm -rf "$src" "$4"
  mkdir -p "$src"
  tar -xzf "$3" -C "$src" --strip-components=1 || return 1
  echo "$src"
}

vendor_keep() {
  local src="$1" cache="$2"
  mkdir -p "$cache/stage"
  # The server's files only (not the headers), kept outside the chroot, which may be remade.
  (cd "$src/stage" && tar -cf - usr/lib usr/share) | (cd "$cache/stage" && tar -xf -) || return 1
  rm -rf "$src"
  date -u +%FT%TZ >"$cache/complete"
}

vendor_install() {
  local cache="$1" tag="$2" root="${PG_CHROOT:-/}" f
  while IFS= read -r f; do
    cmp -s "$cache/stage/$f" "$root/$f" && continue
    mkdir -p "$(dirname "$root/$f")"
    cp -p "$cache/stage/$f" "$root/$f.$tag-new" && mv -f "$root/$f.$tag-new" "$root/$f" || return 1
  done < <(cd "$cache/stage" && find . -type f -printf '%P\n')
}
