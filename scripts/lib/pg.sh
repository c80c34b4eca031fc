# What every server suite shares (sourced, never run): the server of one major, on
# the host (15, the system's) or in its Debian chroot (13, 17, 18, 19: scripts/chroot.sh),
# throwaway clusters of it, and the suite's contract: its checks add up to one last
# line "N passed, N failed", and its exit status is 0 only when none failed.
#
#   PG_MAJOR=17 bash scripts/suites/regress.sh
#
# After sourcing (with PG_MAJOR set, default 15):
#   PG_CHROOT     the chroot's root, or "" for the host. A path under it means the same
#                 file inside the chroot and out (scripts/chroot.sh's DIR/DIR -> / link).
#   PG_BINDIR     the server's bin directory, as seen from inside (pg_in runs there)
#   PG_CONFIG     its pg_config, as seen from inside
#   PG_SRC        the tree the extension is built in for this major: the checkout on the
#                 host, a copy under the chroot otherwise (pg_build makes it)
#   LOGS          where logs go (default .cluster/logs of the checkout)
#   pg_build              the extension built there with plain make (-Werror) and installed
#   pg_in, pg_as_postgres, cluster_start, cluster_stop, cluster_dir: scripts/lib/cluster.sh's
#                 (commands where the server is, throwaway clusters of it)
#   tally NAME PASSED FAILED   adds a group of checks (prints "== NAME: ...")
#   check LABEL COMMAND...     one check: passes when COMMAND succeeds
# The contract's last line is printed at exit.
#
# Locks: the host's 15 is shared by every checkout of this machine: whoever installs into
# it holds /tmp/ulid_tsid.pg15.lock (the caller's job). A chroot's server is held by
# $CACHE/locks/use-MAJOR (exclusive, taken here unless PG_LOCKED names the major: the
# runner takes it once for all of a major's suites) and its chroot by
# $CACHE/locks/chroot-NAME (shared: scripts/chroot.sh never remakes it under us).

source "$(dirname "${BASH_SOURCE[0]}")/suite.sh"
PG_MAJOR="${PG_MAJOR:-15}"
ULID_TSID_CACHE="${ULID_TSID_CACHE:-/var/cache/ulid_tsid}"
export ULID_TSID_CACHE PG_MAJOR
SUITE_LABEL="PG $PG_MAJOR"
# A key of this checkout, so that two checkouts never share a build tree or cluster.
PG_KEY="$(printf '%s' "$ROOT" | md5sum | cut -c1-8)"

PG_PORT_SHIFT=0
if [ "$PG_MAJOR" = 15 ]; then
  PG_CHROOT=""
  PG_CONFIG=/usr/bin/pg_config
  PG_BINDIR="$("$PG_CONFIG" --bindir)"
  PG_SRC="$ROOT"
  CLUSTERS="${CLUSTERS:-$ROOT/.cluster}"
elif [[ "$PG_MAJOR" == *-assert ]]; then
  # The host's major built with assertions (scripts/pg-assert.sh, cached), on the
  # host, in a prefix of its own; the extension is built in a copy of the committed
  # tree (HEAD: pg_copy_tree) and installed there. Its clusters take the suites'
  # ports + 10, and one run at a time holds it ($CACHE/locks/use-MAJOR).
  PG_CHROOT=""
  if ! pg_assert_prefix="$(ASSERT_PG_MAJOR="${PG_MAJOR%-assert}" bash "$ROOT/scripts/pg-assert.sh" --cached)"; then
    echo "   FAIL PostgreSQL $PG_MAJOR: not built (bash scripts/suites/assert.sh builds it)"; exit 1
  fi
  mkdir -p "$ULID_TSID_CACHE/locks"
  if [ "${PG_LOCKED:-}" != "$PG_MAJOR" ]; then
    exec 6>"$ULID_TSID_CACHE/locks/use-$PG_MAJOR"
    flock -n 6 || { echo "   waiting for another checkout's run on PostgreSQL $PG_MAJOR"; flock 6; }
    export PG_LOCKED="$PG_MAJOR"
  fi
  PG_CONFIG="$pg_assert_prefix/bin/pg_config"
  PG_BINDIR="$pg_assert_prefix/bin"
  PG_SRC="$(dirname "$pg_assert_prefix")/trees/$PG_KEY/ulid_tsid"
  CLUSTERS="$(dirname "$pg_assert_prefix")/clusters/$PG_KEY"
  PG_PORT_SHIFT=10
else
  if ! PG_CHROOT="$(bash "$ROOT/scripts/chroot.sh" "$PG_MAJOR" 2>>"$LOGS/chroot-$PG_MAJOR.log")"; then
    tail -5 "$LOGS/chroot-$PG_MAJOR.log"
    echo "   FAIL PostgreSQL $PG_MAJOR: no chroot (log: $LOGS/chroot-$PG_MAJOR.log)"; exit 1
  fi
  exec 7>>"$ULID_TSID_CACHE/locks/chroot-$(basename "$PG_CHROOT")"
  flock -s 7
  if [ "${PG_LOCKED:-}" != "$PG_MAJOR" ]; then
    exec 6>"$ULID_TSID_CACHE/locks/use-$PG_MAJOR"
    flock -n 6 || { echo "   waiting for another checkout's run on PostgreSQL $PG_MAJOR"; flock 6; }
    export PG_LOCKED="$PG_MAJOR"
  fi
  PG_BINDIR="/usr/lib/postgresql/$PG_MAJOR/bin"
  PG_CONFIG="$PG_BINDIR/pg_config"
  PG_SRC="$PG_CHROOT/build/ulid_tsid-$PG_KEY-$PG_MAJOR"
  CLUSTERS="$PG_CHROOT/var/tmp/u$PG_KEY-$PG_MAJOR"   # short: a socket path has at most 107 bytes
fi
export PG_CHROOT PG_CONFIG PG_BINDIR PG_SRC

source "$(dirname "${BASH_SOURCE[0]}")/cluster.sh"

# The tree as it is (tracked and untracked files, not ignored ones: no build
# products), copied into PG_SRC, with ../shared/vendor's tarballs beside it;
# objects already there stay when their sources did not change (cp keeps the
# times), so make rebuilds only what changed. For an assert build (PG_MAJOR
# 15-assert) the committed tree instead: `git archive HEAD`, made again when HEAD
# moved (PG_SRC/.commit names the commit it holds).
pg_copy_tree() {
  [ "$PG_SRC" != "$ROOT" ] || return 0
  if [ -z "$PG_CHROOT" ]; then
    local head; head="$(git -C "$ROOT" rev-parse HEAD)" || return 1
    if [ "$(cat "$PG_SRC/.commit" 2>/dev/null)" != "$head" ]; then
      rm -rf "$PG_SRC" && mkdir -p "$PG_SRC" &&
        git -C "$ROOT" archive "$head" | tar -xf - -C "$PG_SRC" &&
        echo "$head" >"$PG_SRC/.commit" || return 1
    fi
  else
  local list; list="$(mktemp)"
  (cd "$ROOT" && git ls-files -co --exclude-standard -z) >"$list"
  mkdir -p "$PG_SRC"
  # Files of an earlier copy that the tree no longer has (a renamed source) go.
  (cd "$PG_SRC" && find . -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.sql' -o -name '*.out' -o -name '*.pl' -o -name '*.pm' \) \
     -not -path './results/*' -not -path './build/*' -printf '%P\0') |
    sort -z | comm -z -23 - <(sort -z "$list") | (cd "$PG_SRC" && xargs -0 -r rm -f)
  (cd "$ROOT" && tar --null -T "$list" -cf -) | (cd "$PG_SRC" && tar -xpf -)
  rm -f "$list"
  fi
  # ../shared/vendor beside the checkout (the C anchors' and Citus's source
  # tarballs), beside the copy too: the tests inside look for it there.
  if [ -d "$ROOT/../shared/vendor" ]; then
    mkdir -p "$PG_SRC/../shared/vendor" &&
      (flock 8; cp -pu "$ROOT/../shared/vendor"/*.tar.gz "$PG_SRC/../shared/vendor/") 8>>"$ULID_TSID_CACHE/locks/vendor-$(basename "${PG_CHROOT:-$PG_MAJOR}")"
  fi
}

pg_build() {  # the extension for this major, warnings as errors, installed into its server
  local log="$LOGS/build-$PG_MAJOR.log"
  pg_copy_tree
  if [ -z "$PG_CHROOT" ]; then
    (cd "$PG_SRC" && flock /tmp/ulid_tsid.make.lock env PG_CONFIG="$PG_CONFIG" bash -c \
      'make clean >/dev/null 2>&1; make -j2 EXTRA_CXXFLAGS=-Werror && make install') >"$log" 2>&1
  else
    (cd "$PG_SRC" && pg_in sh -c 'make -j2 EXTRA_CXXFLAGS=-Werror && make install') >"$log" 2>&1
  fi
  local rc=$?
  [ "$rc" -eq 0 ] || tail -40 "$log"
  return "$rc"
}
