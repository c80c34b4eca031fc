# What the benchmark scripts share (sourced first by each): throwaway clusters
# of $PG_CONFIG's server (scripts/cluster.sh) with its binaries first on the
# PATH, a private temporary directory $TMP, and on exit every cluster named in
# STARTED stopped and $TMP removed; then table helpers (plain POSIX awk, mawk).
# With PG_MAJOR set (13, 15, 17, 18, 19), the clusters are of that major's server as
# scripts/lib/pg.sh finds it (the host's 15 or the major's Debian chroot, whose lock
# it then holds for the whole run); the extension must be installed there first
# (PG_MAJOR=17 bash scripts/suites/build.sh). psql is then the host's, through the
# cluster's socket (the socket directory is under the chroot).
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
if [ -n "${PG_MAJOR:-}" ]; then
  source "$ROOT/scripts/lib/pg.sh"
  trap - EXIT   # not a suite: no "N passed" line (bench_cleanup below)
  PGBIN="$(pg_config --bindir)"   # the host's client programs
else
  source "$ROOT/scripts/cluster.sh"
fi
export PATH="$PGBIN:$PATH"
TMP="$(mktemp -d /tmp/ulid_tsid_bench.XXXXXX)"; chmod 755 "$TMP"
STARTED=()
bench_cleanup() { for c in "${STARTED[@]}"; do cluster_stop "$c" 2>/dev/null; done; rm -rf "$TMP"; }
trap bench_cleanup EXIT
trap 'exit 130' INT TERM

# Aligned plain-text table from a CSV file (first line = header).
csv_pretty() {
  awk -F, '
    { for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) }
      if (NF > nf) nf = NF; n = NR }
    END {
      for (r = 1; r <= n; r++) {
        line = ""
        for (i = 1; i <= nf; i++) {
          v = cell[r, i]
          if (r > 1 && v ~ /^-?[0-9.]+$/) line = line sprintf("%*s", w[i], v)   # numbers right-aligned
          else line = line sprintf("%-*s", w[i], v)
          if (i < nf) line = line "  "
        }
        print line
        if (r == 1) { sep = ""; for (i = 1; i <= nf; i++) { s = sprintf("%*s", w[i], ""); gsub(/ /, "-", s); sep = sep s (i < nf ? "  " : "") }; print sep }
      }
    }' "$1"
}

# Markdown table from a CSV file.
csv_markdown() {
  awk -F, '
    { line = "|"; for (i = 1; i <= NF; i++) line = line " " $i " |"; print line
      if (NR == 1) { line = "|"; for (i = 1; i <= NF; i++) line = line (i == 1 ? " --- |" : " ---: |"); print line } }' "$1"
}

# Machine description, one Markdown bullet per line. Needs a running cluster for the PG version.
machine_markdown() {
  local model pgv
  model="$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: *//')"
  # The server of $PG_CONFIG (what scripts/cluster.sh runs), not whatever pg_config is on the PATH.
  # With the cluster stopped, the pg_config of the server's filesystem (a chroot's
  # through pg_in): the host's would name another server, or none.
  pgv="$(psql -XAtq -c "SELECT 'PostgreSQL ' || current_setting('server_version')" 2>/dev/null)" || pgv=""
  if [ -z "$pgv" ]; then
    if declare -F pg_in >/dev/null; then pgv="$(pg_in "${PG_CONFIG:-pg_config}" --version 2>/dev/null)"
    else pgv="$("${PG_CONFIG:-pg_config}" --version 2>/dev/null)"; fi
  fi
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- machine: $(nproc) CPUs, ${model:-unknown CPU}, $(awk '/MemTotal/ {printf "%.0f GB RAM", $2/1048576}' /proc/meminfo)"
  echo "- PostgreSQL: $pgv (server binaries: ${PG_CHROOT:+the Debian chroot $PG_CHROOT, }${PG_BINDIR:-${PGBIN:-$("${PG_CONFIG:-pg_config}" --bindir)}})"
  echo "- load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (the CPUs may be shared with other work)"
}

# psql shorthand: no psqlrc, unaligned, tuples only, stop on error.
q() { psql -X -A -t -q -v ON_ERROR_STOP=1 "$@"; }

# The pictures' line style of a key (gnuplot: colour, width, dash, point), one
# family per look: the references black (bigserial) and red (UUIDv4), thick and
# solid; this extension's keys blues and greens, solid; the anchors (C extensions,
# core 18's uuidv7()) warm colours, dashed; the seed's PL/pgSQL TSID brown,
# dash-dotted. Unknown keys: gnuplot's default.
key_style() {
  case "$1" in
    uuidv4)               echo "lc rgb '#d62728' lw 3 dt 1 pt 7 ps 1.2" ;;
    bigserial)            echo "lc rgb '#000000' lw 3 dt 1 pt 5 ps 1.2" ;;
    plpgsql_tsid)         echo "lc rgb '#8c564b' lw 2 dt 4 pt 9" ;;
    pg_uuidv7)            echo "lc rgb '#ff7f0e' lw 2 dt 2 pt 4" ;;
    pg_ulid)              echo "lc rgb '#9467bd' lw 2 dt 2 pt 6" ;;
    core_uuidv7)          echo "lc rgb '#e377c2' lw 2 dt 2 pt 8" ;;
    ulid)                 echo "lc rgb '#1f77b4' lw 2 dt 1 pt 1" ;;
    ulid_monotonic)       echo "lc rgb '#17becf' lw 2 dt 1 pt 2" ;;
    generate_uuidv7|uuidv7) echo "lc rgb '#2ca02c' lw 2 dt 1 pt 3" ;;
    tsid)                 echo "lc rgb '#006400' lw 2 dt 1 pt 12" ;;
    bigint_tsid)          echo "lc rgb '#0b3d91' lw 2 dt 1 pt 14" ;;
    *)                    echo "lw 2" ;;
  esac
}
