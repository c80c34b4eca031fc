#!/usr/bin/env bash
# A new user's path, from clone to `make installcheck`, on Debian trixie's PostgreSQL 17:
# what the README tells someone who only wants the extension, on a machine with nothing
# installed but the server they have.
#  - a FRESH minimal trixie chroot (scripts/lib/fresh_chroot.sh, as the buildd suite's:
#    `debootstrap --variant=minbase`, its pristine tarball cached, unpacked anew into a
#    tmpfs), not the shared 17 chroot the other suites use, which holds everything already;
#  - the user's precondition, as the README assumes it: Debian's postgresql-17 (its
#    package makes the cluster 17/main: installed in the server's network namespace, so
#    that it takes port 5432 as on a machine with no other server, whatever the host
#    runs), and git and sudo; a user `newuser` who may sudo;
#  - as that user: `git clone` of the commit under test (NEWUSER_COMMIT, default HEAD:
#    commit first; pushed into a bare repository in the chroot, cloned by file://);
#  - the Quick start's build lines, read from the clone's README.md (its first ```sh
#    block, so that the test follows the README and fails when the README loses a
#    step), with the pg_config of 17 named in both steps as the README's "For another
#    major" paragraph says (and that paragraph's commands must be the block's with
#    PG_CONFIG named);
#  - the cluster started as a Debian user starts it (pg_ctlcluster 17 main start, in a
#    network namespace of its own so that its port 5432 collides with no other server);
#    the README's self-test `make installcheck PGHOST=... PGPORT=... PGUSER=...` (read from
#    the README, PG_CONFIG added as it says): once not preloaded; then with
#    shared_preload_libraries = 'ulid_tsid' in the cluster's postgresql.conf and a restart,
#    twice against the same server (both must pass).
# The chroot, its mounts and its server are removed on exit, failed or not.
#
# What it catches, shown 2026-12-07 with NEWUSER_COMMIT on scratch commits: the README's
# self-test as first written (PGUSER=postgres: Debian's peer authentication refuses the
# user, 3 failed); a Quick start block without `sudo make install` (7 failed: the block
# check, the README's two forms disagreeing, nothing installed, every installcheck); and
# the regress tests as they were before 7710c33 (2 failed: preloaded, install and mark
# fail, twice).
# Measured on the 2 shared cores with other runs' load (load average 9 to 11, the cores
# always busy): 302 s from an empty cache (debootstrap 90 s), 281 to 311 s warm (CPU 90 s,
# `SUITES=newuser bash scripts/test.sh`); of a run, apt about 30 s for the user's packages
# and 35 to 50 s for install-deps, the build 30 to 60 s, each installcheck 27 to 57 s.
#
# Cache: the buildd suite's (${ULID_TSID_CACHE:-/var/cache/ulid_tsid}/buildd/trixie-minbase.tar
# and trixie-archives/). Logs: $LOGS/newuser/. Needs root (debootstrap, chroot, mount,
# unshare) and the Debian mirror of the machine's apt sources.
#   bash scripts/suites/newuser.sh
#   NEWUSER_COMMIT=REV bash scripts/suites/newuser.sh     another commit's path
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/suite.sh"
source "$ROOT/scripts/lib/fresh_chroot.sh"
cd "$ROOT" || exit 1
NU_SUITE=trixie
NU_MAJOR=17
NU_PG_CONFIG="/usr/lib/postgresql/$NU_MAJOR/bin/pg_config"
NU_LOGS="$LOGS/newuser"
NU_USER=newuser
NU_HOME="/home/$NU_USER"
NU_CLONE="$NU_HOME/ulid_tsid"
nu_started=$SECONDS
rm -rf "$NU_LOGS"; mkdir -p "$NU_LOGS"

if [ "$(id -u)" -ne 0 ]; then check "runs as root (debootstrap, chroot, mount, unshare)" false; exit 1; fi
nu_commit="$(git rev-parse --verify "${NEWUSER_COMMIT:-HEAD}^{commit}" 2>/dev/null)" ||
  { check "NEWUSER_COMMIT=${NEWUSER_COMMIT:-HEAD} names a commit" false; exit 1; }
[ -z "${NEWUSER_COMMIT:-}" ] && [ -n "$(git status --porcelain --untracked-files=no)" ] &&
  echo "   note: the clone is of HEAD ($(git rev-parse --short HEAD)); uncommitted changes are not in it"

nu_work=""
nu_ns=""   # the process holding the server's network namespace
nu_cleanup() {  # fresh_remove stops what still runs inside (the server), then unmounts
  if [ -n "$nu_ns" ]; then kill "$nu_ns" 2>/dev/null; wait "$nu_ns" 2>/dev/null; nu_ns=""; fi
  [ -n "$nu_work" ] || return 0
  fresh_remove "$nu_work" && nu_work=""
}
trap 'rc=$?; nu_cleanup; (exit $rc); suite_end' EXIT
trap 'exit 143' TERM INT HUP   # a stopped run removes its chroot too

# nu_in [--user] COMMAND...: in the chroot, as root or as the user (a login's
# environment: HOME, PATH, a UTF-8 locale), in the user's home.
nu_in() {
  local user=() name=root home=/root
  if [ "$1" = --user ]; then user=(--user "$NU_USER"); name="$NU_USER"; home="$NU_HOME"; shift; fi
  local FRESH_ENV=(HOME="$home" USER="$name" LOGNAME="$name")
  fresh_in "$nu_work" "${user[@]}" sh -c 'cd "$HOME" && exec "$@"' sh "$@"
}
# nu_server COMMAND...: as root, in the server's network namespace (its own loopback).
nu_server() { nu_in nsenter --net="/proc/$nu_ns/ns/net" "$@"; }

# The README's commands (the clone's README.md): the Quick start's first ```sh block,
# its comments dropped, one command a line; and the code spans of its prose, one a line
# (a span may wrap across lines of the Markdown).
nu_readme_block() {
  awk '/^## /{ q = ($0 == "## Quick start") } q && /^```sh$/ { b = 1; next } b && /^```/ { exit } b' "$1" |
    sed -E 's/[[:space:]]+#.*$//; /^[[:space:]]*$/d'
}
nu_readme_spans() {  # nu_readme_spans README [TEXT]: of the paragraphs (holding TEXT)
  awk -v t="${2:-}" '/^## /{ q = ($0 == "## Quick start") } q && /^```/ { f = !f; next }
    q && !f && /^$/ { if (index(p, t)) print p; p = ""; next } q && !f { p = p " " $0 }
    END { if (q && index(p, t)) print p }' "$1" |
    grep -oE '`[^`]+`' | tr -d '`' | sed -E 's/ +/ /g'
}

nu_work="$FRESH_CACHE/run-$NU_SUITE-$$"
fresh_up "$NU_SUITE" "$nu_work" "$NU_LOGS/debootstrap.log" "new user" || exit 1

# The network namespace of the user's server (its own loopback): the one its package
# makes the cluster in (pg_createcluster takes the first port free there: 5432, as on a
# machine with no other server) and starts it in.
unshare --net sh -c 'ip link set lo up && exec sleep infinity' &
nu_ns=$!
sleep 0.2

# The precondition: the user has Debian's server, git, and sudo. Downloaded first, then
# installed in the server's namespace, where no other server holds a port.
t0=$SECONDS
nu_in apt-get update >"$NU_LOGS/precondition.log" 2>&1 &&
  nu_in apt-get install -y --download-only "postgresql-$NU_MAJOR" git sudo >>"$NU_LOGS/precondition.log" 2>&1 &&
  nu_server apt-get install -y "postgresql-$NU_MAJOR" git sudo >>"$NU_LOGS/precondition.log" 2>&1
rc=$?
check "the user's machine: apt-get install postgresql-$NU_MAJOR git sudo, nothing else ($((SECONDS - t0)) s; log: $NU_LOGS/precondition.log)" test "$rc" -eq 0
[ "$rc" -eq 0 ] || exit 1
echo "127.0.1.1 $(hostname)" >>"$nu_work/etc/hosts"   # as a machine's own name is (sudo resolves it)
nu_in useradd --create-home --shell /bin/bash "$NU_USER" &&
  echo "$NU_USER ALL=(ALL) NOPASSWD: ALL" >"$nu_work/etc/sudoers.d/$NU_USER" && chmod 440 "$nu_work/etc/sudoers.d/$NU_USER"
nu_clusters="$(nu_in pg_lsclusters -h 2>/dev/null | awk '{print $1 "/" $2, $3, $4}' | paste -sd ' ')"
check "postgresql-$NU_MAJOR made the cluster $NU_MAJOR/main on port 5432, not started (pg_lsclusters: $nu_clusters)" \
  test "$nu_clusters" = "$NU_MAJOR/main 5432 down"
check "nothing of the build is installed yet: no g++, make, libsodium-dev, postgresql-server-dev-$NU_MAJOR" \
  sh -c '! chroot "$1" dpkg-query -W -f="\${db:Status-Status}\n" g++ make libsodium-dev "postgresql-server-dev-$2" 2>/dev/null | grep -qx installed' sh "$nu_work" "$NU_MAJOR"

# The clone: the commit under test, as the only branch of a repository the user clones.
nu_push() {
  git init -q --bare "$nu_work/srv/ulid_tsid.git" &&
    git --git-dir="$nu_work/srv/ulid_tsid.git" symbolic-ref HEAD refs/heads/main &&
    git push -q "$nu_work/srv/ulid_tsid.git" "$nu_commit:refs/heads/main" &&
    nu_in chown -R "$NU_USER:" /srv/ulid_tsid.git
}
nu_clone() {
  nu_push && nu_in --user git clone -q file:///srv/ulid_tsid.git ulid_tsid &&
    test "$(nu_in --user git -C ulid_tsid rev-parse HEAD)" = "$nu_commit"
}
nu_clone >"$NU_LOGS/clone.log" 2>&1
check "git clone file:///srv/ulid_tsid.git as $NU_USER: at $(git log -1 --format='%h %s' "$nu_commit" | cut -c1-70) (log: $NU_LOGS/clone.log)" \
  test "$(nu_in --user git -C ulid_tsid rev-parse HEAD 2>/dev/null)" = "$nu_commit"
readme="$nu_work$NU_CLONE/README.md"
[ -f "$readme" ] || { check "the clone has README.md" false; exit 1; }

# The Quick start's block, and the README's rule for another major: name its pg_config
# in both steps (PG_CONFIG=... before the install-deps line, after each make).
mapfile -t nu_block < <(nu_readme_block "$readme")
mapfile -t nu_spans < <(nu_readme_spans "$readme")
nu_name_config() {  # a block's line with the pg_config named: before a script, after each make
  case "$1" in *install-deps.sh*) echo "PG_CONFIG=$NU_PG_CONFIG $1"; return ;; esac
  echo "$1" | awk -v c="PG_CONFIG=$NU_PG_CONFIG" '{
    n = split($0, part, /[ ]*&&[ ]*/); line = ""
    for (i = 1; i <= n; i++) { if (part[i] ~ /(^| )make( |$)/) part[i] = part[i] " " c; line = line (i > 1 ? " && " : "") part[i] }
    print line }'
}
nu_named=()
for line in "${nu_block[@]}"; do nu_named+=("$(nu_name_config "$line")"); done
nu_prose=()
for span in "${nu_spans[@]}"; do
  case "$span" in
    PG_CONFIG=*install-deps.sh*|make\ PG_CONFIG=*) nu_prose+=("$(echo "$span" | sed -E "s#PG_CONFIG=(\.\.\.|/usr/lib/postgresql/[0-9]+/bin/pg_config)#PG_CONFIG=$NU_PG_CONFIG#g")") ;;
  esac
done
check "the Quick start's block holds install-deps.sh --build and make install ($(printf '%s; ' "${nu_block[@]}"))" \
  sh -c 'printf "%s\n" "$@" | grep -q "install-deps.sh --build" && printf "%s\n" "$@" | grep -q "make install"' sh "${nu_block[@]}"
check "the README's \"another major\" commands are the block's with PG_CONFIG named in both steps" \
  test "$(printf '%s\n' "${nu_named[@]}")" = "$(printf '%s\n' "${nu_prose[@]}")"
printf '%s\n' "${nu_prose[@]}" | sed 's/^/   prose: /'

# The build, as the user, line by line as the README gives it.
t0=$SECONDS
i=0
for line in "${nu_named[@]}"; do
  i=$((i + 1)); t1=$SECONDS
  nu_in --user bash -c "cd ulid_tsid && $line" >"$NU_LOGS/build-$i.log" 2>&1 </dev/null
  rc=$?
  check "as $NU_USER in the clone: $line ($((SECONDS - t1)) s; log: $NU_LOGS/build-$i.log)" test "$rc" -eq 0
  [ "$rc" -eq 0 ] || tail -5 "$NU_LOGS/build-$i.log" | sed 's/^/   /'
done
check "the extension is installed into $NU_MAJOR's server (ulid_tsid.control, ulid_tsid.so)" \
  test -f "$nu_work/usr/share/postgresql/$NU_MAJOR/extension/ulid_tsid.control" -a -f "$nu_work/usr/lib/postgresql/$NU_MAJOR/lib/ulid_tsid.so"
echo "   built and installed in $((SECONDS - t0)) s"

# The cluster, started as a Debian user starts it, in its network namespace.
nu_server pg_ctlcluster "$NU_MAJOR" main start >"$NU_LOGS/cluster.log" 2>&1
nu_online() { nu_in pg_lsclusters -h | awk -v m="$NU_MAJOR" '$1 == m && $2 == "main" && $4 == "online" { f = 1 } END { exit !f }'; }
check "pg_ctlcluster $NU_MAJOR main start (log: $NU_LOGS/cluster.log)" nu_online
nu_in pg_lsclusters -h | sed 's/^/   /'

# The self-test, as the README gives it (the commands of its paragraph, in order: what
# comes before `make installcheck` once), PG_CONFIG added as it says.
nu_selftest=""
i=0
while read -r span; do
  case "$span" in
    "make installcheck "*) nu_selftest="$span PG_CONFIG=$NU_PG_CONFIG" ;;
    "sudo "*|"make "*|"bash "*)
      [ -z "$nu_selftest" ] || continue
      i=$((i + 1))
      nu_in --user bash -c "cd ulid_tsid && $span" >"$NU_LOGS/selftest-before-$i.log" 2>&1 </dev/null
      check "before the self-test, as the README says: $span (log: $NU_LOGS/selftest-before-$i.log)" test $? -eq 0 ;;
  esac
done < <(nu_readme_spans "$readme" "make installcheck")
check "the README gives the self-test: ${nu_selftest:-none}" test -n "$nu_selftest"
nu_tests=0
for f in "$nu_work$NU_CLONE"/sql/*.sql; do
  case "${f##*/}" in ulid_tsid--*|ulid_tsid_compat--*) ;; *) nu_tests=$((nu_tests + 1)) ;; esac
done
nu_installcheck() {  # nu_installcheck LOG-NAME LABEL: the self-test, counted
  local log="$NU_LOGS/installcheck-$1.log" rc t1=$SECONDS ok bad
  shift
  nu_in --user bash -c "cd ulid_tsid && $nu_selftest" >"$log" 2>&1 </dev/null
  rc=$?
  ok=$(grep -cE '^ok [0-9]+ ' "$log"); bad=$(grep -cE '^not ok [0-9]+ ' "$log")
  grep -E '^not ok [0-9]+ ' "$log" | sed 's/^/   /'
  [ "$rc" -eq 0 ] || [ "$bad" -gt 0 ] || tail -5 "$log" | sed 's/^/   /'
  check "$1: $nu_selftest: $ok of $nu_tests tests ok, $bad not ok, exit $rc ($((SECONDS - t1)) s; log: $log)" \
    test "$rc" -eq 0 -a "$ok" -eq "$nu_tests" -a "$bad" -eq 0
  [ "$rc" -eq 0 ] || cp "$nu_work$NU_CLONE/regression.diffs" "${log%.log}.diffs" 2>/dev/null
}
nu_installcheck plain "not preloaded"

# Preloaded: the README's Configuration line in the cluster's postgresql.conf, a restart.
echo "shared_preload_libraries = 'ulid_tsid'" >>"$nu_work/etc/postgresql/$NU_MAJOR/main/postgresql.conf"
nu_server pg_ctlcluster "$NU_MAJOR" main restart >>"$NU_LOGS/cluster.log" 2>&1
check "shared_preload_libraries = 'ulid_tsid' in postgresql.conf, pg_ctlcluster $NU_MAJOR main restart: SHOW says ulid_tsid" \
  test "$(nu_in runuser -u postgres -- psql -XAtq -c 'SHOW shared_preload_libraries' 2>>"$NU_LOGS/cluster.log")" = ulid_tsid
nu_installcheck preloaded "preloaded"
nu_installcheck preloaded-again "preloaded, again against the same server"

nu_server pg_ctlcluster "$NU_MAJOR" main stop >>"$NU_LOGS/cluster.log" 2>&1
t0=$SECONDS
nu_cleanup
flock -u 7
echo "   newuser suite: $((SECONDS - nu_started)) s (the chroot removed in $((SECONDS - t0)) s)"
