# pg_tle (Trusted Language Extensions, aws/pg_tle) for one major's server (sourced
# after scripts/lib/pg.sh, never run): what RDS, Aurora and Supabase offer a role
# that is not a superuser to install an extension written in SQL. It is not a
# Debian package: it is built from ../shared/vendor/pg_tle-*.tar.gz beside the
# checkout, once per tarball and server version, in the server's filesystem (the
# host's 15, the major's chroot), and cached under $ULID_TSID_CACHE/pg_tle/ (a later
# run only copies the cached files into the server). Its build packages beyond
# the server's -dev one (PGTLE_BUILD_DEPS) are installed on demand inside a
# chroot; the host's comes from scripts/install-deps.sh.
# Which pg_tle: the newest release (pg_tle-X.Y.Z.tar.gz, a tag: what managed
# services run) where it builds for the server, else the development snapshot
# (pg_tle-COMMIT.tar.gz) for majors that came after the release (its build
# failure is cached, so a later run goes straight to the snapshot).
# PGTLE_TARBALL=FILE takes that one tarball only.
#   pgtle_get    -> 0: built (or cached) and installed into the server;
#                   PGTLE_NAME says which (pg_tle-1.5.2, ...), PGTLE_FELL_BACK why
#                   not the release when the snapshot was taken instead;
#                   1: it failed (shown);
#                   2: skipped, PGTLE_SKIP says why in one line (no tarball, or a
#                      major none builds for: the build's failure is cached too).
PGTLE_VENDOR="${PGTLE_VENDOR:-$ROOT/../shared/vendor}"   # another directory: to see the skip
if [ -n "${PGTLE_TARBALL:-}" ]; then
  PGTLE_TARBALLS=("$PGTLE_TARBALL")
else
  # Releases first, newest first (sort -V), then snapshots.
  mapfile -t PGTLE_TARBALLS < <(ls "$PGTLE_VENDOR"/pg_tle-[0-9]*.[0-9]*.[0-9]*.tar.gz 2>/dev/null | sort -rV
                                ls "$PGTLE_VENDOR"/pg_tle-*.tar.gz 2>/dev/null | grep -v -E '/pg_tle-[0-9]+[.][0-9]+[.][0-9]+[.]tar[.]gz$' | sort)
fi
PGTLE_SKIP=""
PGTLE_NAME=""
PGTLE_FELL_BACK=""
# flex for src/guc-file.l; libkrb5-dev because the server's libpq-be.h includes
# gssapi/gssapi.h, libssl-dev because it includes openssl/ssl.h (Debian's servers
# are built with GSSAPI and OpenSSL).
PGTLE_BUILD_DEPS=(flex libkrb5-dev libssl-dev)

source "$(dirname "${BASH_SOURCE[0]}")/vendor.sh"
pgtle_deps() { vendor_deps pgtle "${PGTLE_BUILD_DEPS[@]}"; }

pgtle_get() {
  if [ ${#PGTLE_TARBALLS[@]} -eq 0 ] || [ ! -f "${PGTLE_TARBALLS[0]}" ]; then
    PGTLE_SKIP="no ../shared/vendor/pg_tle-*.tar.gz beside the checkout (pg_tle's source comes from there)"; return 2
  fi
  local t rc skips=()
  for t in "${PGTLE_TARBALLS[@]}"; do
    PGTLE_TARBALL="$t"
    pgtle_get_one; rc=$?
    if [ "$rc" -ne 2 ]; then
      PGTLE_NAME="$(basename "$t" .tar.gz)"
      [ ${#skips[@]} -eq 0 ] || PGTLE_FELL_BACK="${skips[*]}"
      return "$rc"
    fi
    skips+=("$PGTLE_SKIP;")
  done
  PGTLE_SKIP="${skips[*]}"
  return 2
}

# pgtle_get_one: pgtle_get for the one tarball PGTLE_TARBALL.
pgtle_get_one() {
  local name sum server
  name="$(basename "$PGTLE_TARBALL" .tar.gz)"
  sum="$(sha256sum "$PGTLE_TARBALL" | cut -c1-16)"
  server="$(pg_in "$PG_CONFIG" --version | tr -c 'A-Za-z0-9.\n' '_' | sed 's/_*$//')"
  PGTLE_KEY="$name-$sum-$server-r2"   # r2: this recipe (its flags and build packages)
  PGTLE_CACHE="$ULID_TSID_CACHE/pg_tle/$PGTLE_KEY"
  mkdir -p "$ULID_TSID_CACHE/pg_tle" "$ULID_TSID_CACHE/locks"
  (
    flock 8
    if [ -f "$PGTLE_CACHE/failed" ]; then
      exit 2
    elif [ -f "$PGTLE_CACHE/complete" ]; then
      echo "   $name for $server: cached build ($PGTLE_CACHE)"
    else
      pgtle_deps || exit 1
      t=$SECONDS
      pgtle_make; rc=$?
      [ "$rc" -eq 0 ] || exit "$rc"
      echo "   $name for $server: built in $((SECONDS - t)) s (log: $LOGS/pgtle-build-$PG_MAJOR.log)"
    fi
    pgtle_install
  ) 8>>"$ULID_TSID_CACHE/locks/$PGTLE_KEY"
  local rc=$?
  [ "$rc" -eq 2 ] && PGTLE_SKIP="$name does not build for $server ($(head -n 1 "$PGTLE_CACHE/failed"))"
  return "$rc"
}

# pgtle_make: the build into $PGTLE_CACHE/stage (make install DESTDIR=...), in the
# server's filesystem; a stamp written last marks it complete. A compile error is
# recorded as "failed" (that major is skipped from then on, until the tarball or
# the server changes); anything else (no tarball to unpack, a copy that fails) is 1.
pgtle_make() {
  local log="$LOGS/pgtle-build-$PG_MAJOR.log" src
  src="$(vendor_unpack pg_tle "$PGTLE_KEY" "$PGTLE_TARBALL" "$PGTLE_CACHE")" || return 1
  # with_llvm=no: no bitcode for the JIT (Debian's PGXS would compile each file
  # again with clang).
  if ! (cd "$src" && pg_in sh -c "make -j2 PG_CONFIG=$PG_CONFIG with_llvm=no &&
          make install PG_CONFIG=$PG_CONFIG with_llvm=no DESTDIR=$(pg_inside "$src")/stage") >"$log" 2>&1; then
    tail -20 "$log"
    mkdir -p "$PGTLE_CACHE"
    grep -m1 -E '(error|Error)[: ]' "$log" | grep -v '^gcc' | cut -c1-200 >"$PGTLE_CACHE/failed"
    [ -s "$PGTLE_CACHE/failed" ] || echo "make failed" >"$PGTLE_CACHE/failed"
    rm -rf "$src"
    return 2
  fi
  vendor_keep "$src" "$PGTLE_CACHE"
}

# pgtle_install: the cached build copied into the server (unless already there).
pgtle_install() { vendor_install "$PGTLE_CACHE" pgtle; }
