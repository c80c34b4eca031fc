#!/usr/bin/env bash
# Real client drivers against the extension (test/clients): psycopg 3,
# psycopg2, asyncpg, node-postgres with the npm reference ID libraries (ulid,
# uuid, tsid-ts) and typeid-js reading the TypeIDs and public IDs of every key kind
# (node/typeid_ids.js), pgjdbc, pgx (Go), tokio-postgres and sqlx (Rust) and
# Doctrine DBAL (PHP), each a program that prints "ok N" / "not ok N" lines; plus the
# check that the docs' recipes are the code these programs run. The Go and Rust
# programs are compiled once per change of their sources or toolchain (Debian's
# packages, offline), into $ULID_TSID_CACHE/clients/, one compile at a time: majors
# running side by side share the binary. The clients are the host's; a chroot's
# server is reached through its socket directory under the chroot, pgjdbc (TCP only)
# through 127.0.0.1. sqlx and DBAL are the chroot's (sid's sqlx 0.9 on 18 and 19;
# DBAL 4: sid's on 18 and 19, trixie's on 17), installed there by this suite on
# first use and run inside it; a major whose Debian lacks them says so in one line.
#   PG_MAJOR=17 bash scripts/suites/clients.sh   (after scripts/suites/build.sh)
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/pg.sh"
clients_dir="$ROOT/test/clients"
clients_port=${CLIENTS_PORT:-$((55400 + PG_MAJOR))}   # TCP too: one per major, as majors may run side by side


# npm ci only when node_modules is missing or older than the lockfile.
clients_npm() {
  local dir="$clients_dir/node" stamp="$clients_dir/node/node_modules/.ulid_tsid-lock"
  cmp -s "$dir/package-lock.json" "$stamp" 2>/dev/null && return 0
  # One npm ci at a time (majors may run side by side), then check again.
  (
    flock 8
    cmp -s "$dir/package-lock.json" "$stamp" 2>/dev/null && exit 0
    (cd "$dir" && npm ci --no-audit --no-fund) >"$LOGS/clients-npm.log" 2>&1 &&
      cp "$dir/package-lock.json" "$stamp"
  ) 8>"$LOGS/clients-npm.lock"
}

# clients_compile LANG: the program of test/clients/LANG (go, rust), compiled unless
# the cache holds it for these sources and toolchain; sets BINARY to its path.
# Prints how long the compile took (or that the cache had it).
clients_compiled="$ULID_TSID_CACHE/clients"
clients_compile() {
  local lang="$1" src="$clients_dir/$1" key out start=$SECONDS rc
  local log="$LOGS/clients-$lang-compile-$PG_MAJOR.log"
  mkdir -p "$clients_compiled" || return 1
  # The key: the sources, the compiler and the packaged libraries.
  key="$({
    (cd "$src" && find . -type f -not -path './target/*' -not -name Cargo.lock -print0 | sort -z | xargs -0 sha256sum)
    case "$lang" in
      go) go version; dpkg-query -W -f '${Package} ${Version}\n' 'golang-github-jackc-*' ;;
      rust) /usr/bin/rustc -V; /usr/bin/cargo -V; ls /usr/share/cargo/registry ;;
      sqlx) pg_in /usr/bin/rustc -V; pg_in /usr/bin/cargo -V; ls "$PG_CHROOT/usr/share/cargo/registry" ;;
    esac
  } 2>&1 | sha256sum | cut -c1-16)"
  out="$clients_compiled/$lang-$key/client"
  if [ ! -x "$out" ]; then
    (
      flock 8
      [ -x "$out" ] && { echo "compiled by another run meanwhile"; exit 0; }
      mkdir -p "${out%/*}" || exit 1
      case "$lang" in
        go)
          (cd "$src" && env GOPATH=/usr/share/gocode GO111MODULE=off GOPROXY=off GOFLAGS= GOENV=off \
             GOCACHE="$clients_compiled/go-cache" go build -o "$out.tmp" .) ;;
        rust)
          # A copy (cargo writes Cargo.lock beside Cargo.toml), new times so that cargo
          # sees the change; one target directory, so the crates compile once, emptied
          # past 1 GB (each toolchain or profile adds its own copy of them).
          if [ "$(du -sm "$clients_compiled/rust-target" 2>/dev/null | cut -f1)" -gt 1024 ] 2>/dev/null; then
            rm -rf "$clients_compiled/rust-target"
          fi
          rm -rf "$clients_compiled/rust-src" && mkdir "$clients_compiled/rust-src" &&
            (cd "$src" && tar --exclude=./target --exclude=./Cargo.lock -cf - .) | (cd "$clients_compiled/rust-src" && tar -xmf -) &&
            (cd "$clients_compiled/rust-src" && env CARGO_HOME="$clients_compiled/cargo-home" RUSTC=/usr/bin/rustc CARGO_INCREMENTAL=0 \
               /usr/bin/cargo build --offline --target-dir "$clients_compiled/rust-target") &&
            cp "$clients_compiled/rust-target/debug/tokio_postgres_client" "$out.tmp" ;;
        sqlx)
          # The same, inside the chroot with its cargo and crates (sid's sqlx 0.9 wants
          # sid's rustc); the copy and the target directory under the chroot (a remade
          # chroot starts them afresh), the binary out here beside the others.
          local build="$PG_CHROOT/build/clients-sqlx"
          if [ "$(du -sm "$build/target" 2>/dev/null | cut -f1)" -gt 1024 ] 2>/dev/null; then rm -rf "$build/target"; fi
          rm -rf "$build/src" && mkdir -p "$build/src" &&
            (cd "$src" && tar --exclude=./target --exclude=./Cargo.lock -cf - .) | (cd "$build/src" && tar -xmf -) &&
            (cd "$build/src" && pg_in env CARGO_HOME="$(pg_inside "$build/cargo-home")" CARGO_INCREMENTAL=0 \
               /usr/bin/cargo build --offline --target-dir "$(pg_inside "$build/target")") &&
            cp "$build/target/debug/sqlx_client" "$out.tmp" ;;
      esac && mv "$out.tmp" "$out"
    ) 8>>"$clients_compiled/compile.lock" >"$log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then
      tail -20 "$log" | sed 's/^/   /'; echo "   $lang: the compile failed (see $log)"
      PROGRAMS_BAD=$((PROGRAMS_BAD + 1)); return 1
    fi
    if grep -qx "compiled by another run meanwhile" "$log"; then
      echo "   ($lang: $((SECONDS - start)) s waiting for another run's compile of it)"
    else
      echo "   ($lang compile: $((SECONDS - start)) s)"
    fi
  else
    echo "   ($lang: compiled before, $out)"
  fi
  # Binaries of other sources unused for two weeks go.
  find "$clients_compiled" -mindepth 1 -maxdepth 1 -name "$lang-*" -not -name "$lang-$key" -not -name '*-cache' \
    -not -name '*-src' -not -name '*-target' -mtime +14 -exec rm -rf {} + 2>/dev/null
  touch "${out%/*}"
  BINARY="$out"
}

# clients_chroot_packages WHAT PKG[>=VERSION]...: the Debian packages of a program that runs inside
# the major's chroot (sqlx's crates and cargo, Doctrine DBAL and php), installed there
# unless they are, one apt at a time per chroot. Returns 1 with one line saying why when
# the major has no chroot or its Debian lacks one of them (a skip, not a failure), 2
# when the install failed (counted).
clients_chroot_packages() {
  local what="$1" p min missing=() installed candidate log="$LOGS/clients-apt-$PG_MAJOR.log"
  shift
  if [ -z "$PG_CHROOT" ]; then
    echo "   -    $what: skipped on PostgreSQL $PG_MAJOR (the host's bookworm lacks it; it runs inside the chroots of 17, 18 and 19)"
    return 1
  fi
  for p in "$@"; do
    min="${p#*>=}"; [ "$min" != "$p" ] || min=""; p="${p%%>=*}"
    # The installed version, or else apt's candidate.
    installed="$(pg_in dpkg-query -W -f='${Status} ${Version}' "$p" 2>/dev/null | sed -n 's/^install ok installed //p')"
    candidate="${installed:-$(pg_in apt-cache policy "$p" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')}"
    if [ -z "$candidate" ] || [ "$candidate" = "(none)" ] || { [ -n "$min" ] && dpkg --compare-versions "$candidate" lt "$min"; }; then
      echo "   -    $what: skipped on PostgreSQL $PG_MAJOR (Debian $(basename "$PG_CHROOT") has no $p${min:+ >= $min}${candidate:+, it has $candidate})"
      return 1
    fi
    [ -n "$installed" ] || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "   installing into the $(basename "$PG_CHROOT") chroot: ${missing[*]}"
  # One apt at a time per chroot (the chroot itself is held shared by lib/pg.sh); the
  # lock is the one scripts/lib/vendor.sh takes for the same chroot.
  if ! (
    flock 9
    pg_in env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y --no-install-recommends "${missing[@]}" </dev/null
  ) 9>>"$ULID_TSID_CACHE/locks/citus-apt-$(basename "$PG_CHROOT")" >>"$log" 2>&1; then
    tail -5 "$log" | sed 's/^/   /'; echo "   $what: installing ${missing[*]} failed (see $log)"
    PROGRAMS_BAD=$((PROGRAMS_BAD + 1)); return 2
  fi
}
# The Debian packages of the sqlx and Doctrine DBAL programs (test/clients/sqlx, php).
# (trixie's sqlx is 0.8.3: the program is 0.9's; trixie's DBAL 4.2 serves; the program is
# DBAL 4's, bookworm has 3.6.)
clients_sqlx_packages=(cargo rustc librust-sqlx-dev'>=0.9' librust-sqlx-postgres-dev'>=0.9' librust-tokio-dev librust-uuid-dev)
clients_dbal_packages=(php-cli php-pgsql php-doctrine-dbal'>=4')

# clients_run NAME COMMAND...: runs in test/clients against a database of its
# own with the extension (the programs' table names may repeat), output in $LOGS.
clients_run() {
  local name="$1"; shift
  DB_EXTENSION=1 program_run "$name" "clients_${name//-/_}" "$clients_dir" "$LOGS/clients-$name-$PG_MAJOR.log" 300 "$@"
}

cluster_start clients "$clients_port" "listen_addresses = '127.0.0.1'" || exit 1
clients_run readme /usr/bin/python3 readme_recipes.py
# Debian's python3, which sees Debian's python3-psycopg and friends.
clients_run psycopg /usr/bin/python3 psycopg_client.py
clients_run psycopg2 /usr/bin/python3 psycopg2_client.py
clients_run asyncpg /usr/bin/python3 asyncpg_client.py
if clients_npm; then
  clients_run node-postgres node node/pg_client.js
  clients_run reference-ids node node/reference_ids.js
  clients_run typeid node node/typeid_ids.js
else
  tail -20 "$LOGS/clients-npm.log"; echo "   npm ci failed (see $LOGS/clients-npm.log)"; PROGRAMS_BAD=$((PROGRAMS_BAD + 1))
fi
clients_run pgjdbc java -cp /usr/share/java/postgresql.jar JdbcClient.java
clients_compile go && clients_run pgx "$BINARY"
clients_compile rust && clients_run tokio-postgres "$BINARY"
# sqlx (Rust) and Doctrine DBAL (PHP): the chroot's packages, run inside it on a copy of
# the programs (the sqlx binary linked there, the DBAL program a copy under the chroot).
if [ -n "$PG_CHROOT" ]; then
  clients_tree="$(cluster_dir clients)/tree"
  mkdir -p "$clients_tree"
  export -f pg_in pg_env_args pg_cwd pg_inside
  clients_in_chroot=(bash -c 'pg_in "$@"' pg_in)
fi
if clients_chroot_packages sqlx "${clients_sqlx_packages[@]}" && clients_compile sqlx; then
  { ln -f "$BINARY" "$clients_tree/sqlx_client" 2>/dev/null || cp "$BINARY" "$clients_tree/sqlx_client"; } &&
    clients_run sqlx "${clients_in_chroot[@]}" "$(pg_inside "$clients_tree/sqlx_client")"
fi
if clients_chroot_packages dbal "${clients_dbal_packages[@]}"; then
  echo "   (dbal: $(pg_in dpkg-query -W -f '${Package} ${Version}, ' php-doctrine-dbal php-pgsql)php $(pg_in php -r 'echo PHP_VERSION;'))"
  cp -r "$clients_dir/php" "$clients_tree/" && clients_run dbal "${clients_in_chroot[@]}" /usr/bin/php "$(pg_inside "$clients_tree/php/dbal_client.php")"
fi
cluster_stop clients
tally clients "$PROGRAMS_OK" "$PROGRAMS_BAD"
