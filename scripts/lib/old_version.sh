# An older version of the extension built for one major's server (sourced after
# scripts/lib/pg.sh, never run), for what compares or upgrades from it: the upgrade
# suite's in-place update, test/bench/generation_compare.sh, insert_latency.sh.
# Built from `git archive REV` in its own tree, in the server's filesystem (the
# host's, or the major's chroot), and kept between runs (rebuilt when REV moves).
#   old_version_src         -> the tree's directory
#   old_version_build REV   -> 0: built there (log: $LOGS/build-v030-MAJOR.log)
old_version_src() {
  if [ -n "$PG_CHROOT" ]; then echo "$PG_CHROOT/build/ulid_tsid-$PG_KEY-$PG_MAJOR-v030"; else echo "$ROOT/build/v030-$PG_MAJOR"; fi
}
old_version_build() {
  local src rev log="$LOGS/build-v030-$PG_MAJOR.log"
  src="$(old_version_src)"
  rev="$(git -C "$ROOT" rev-parse "$1")" || return 1
  [ "$(cat "$src/.rev" 2>/dev/null)" = "$rev" ] && [ -f "$src/ulid_tsid.so" ] && return 0
  rm -rf "$src"; mkdir -p "$src"
  git -C "$ROOT" archive "$rev" | tar -x -C "$src" || return 1
  (cd "$src" && pg_in nice sh -c "make -j2 PG_CONFIG=$PG_CONFIG") >"$log" 2>&1 || { tail -20 "$log"; return 1; }
  echo "$rev" >"$src/.rev"
}
