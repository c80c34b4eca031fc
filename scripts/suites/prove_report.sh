# What tap.sh and crossversion.sh share (sourced): where prove runs, as whom,
# and the report after it ran.

# as_postgres CMD...: as the postgres user when we are root (initdb refuses root).
as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# prove_workdir NAME DIR LIB FILES... sets PROVE_DIR, PROVE_LIB (the directory
# of the tests' shared Perl module) and PROVE_FILES: DIR and the files as
# given, or, when we are root and postgres cannot write DIR (the checkout is
# out of its reach), a private copy of the files and the module under /tmp.
prove_workdir() {
  local name="$1"
  PROVE_DIR="$2"; PROVE_LIB="$3"; shift 3; PROVE_FILES=("$@")
  mkdir -p "$PROVE_DIR"
  [ "$(id -u)" -eq 0 ] || return 0
  chown postgres: "$PROVE_DIR"
  runuser -u postgres -- test -w "$PROVE_DIR" && return 0
  PROVE_DIR="$(mktemp -d "/tmp/ulid_tsid_$name.XXXXXX")"; chmod 755 "$PROVE_DIR"
  mkdir -p "$PROVE_DIR/t"; cp "${PROVE_FILES[@]}" "$PROVE_LIB"/*.pm "$PROVE_DIR/t/"; chown -R postgres: "$PROVE_DIR"
  PROVE_FILES=("$PROVE_DIR"/t/*.pl); PROVE_LIB="$PROVE_DIR/t"
  echo "$name: postgres cannot reach the checkout; running in $PROVE_DIR"
}

# prove_run DIR LOG ERR STOP CMD...: one run at a time per DIR (the lock DIR.lock):
# STOP (a function that stops the servers a killed test left behind) before and
# after, DIR's tmp_check and log emptied, then CMD in DIR, its output into LOG and
# ERR. Returns CMD's status.
prove_run() {
  local dir="$1" log="$2" err="$3" stop="$4"; shift 4
  (
    flock 9
    "$stop"
    rm -rf "$dir/tmp_check" "$dir/log"
    cd "$dir" && "$@"
    rc=$?
    "$stop"
    exit $rc
  ) 9>"$dir.lock" >"$log" 2>"$err"
}

# prove_report NAME TAP_LOG TAP_ERR RUN_DIR PROVE_RC, after prove ran:
# prints each script's verdict and timing, failed assertions, the tests' key
# facts (notes starting ">>"), skips and the summary, then prove's stderr
# (failed assertions' diagnostics) and, for every script that did not pass,
# the end of its regress_log (a script's own stderr: die messages, SQL
# errors); then tallies NAME: assertions passed, and failures, where a script
# that died, exited non-zero or broke its plan with no failed assertion
# counts as one.
prove_report() {
  local name="$1" log="$2" err="$3" dir="$4" rc="$5" f l total summary failed_asserts failed passed
  grep -E '^(1\.\.[0-9]+|not ok|ok .*# skip|# >> |\[[0-9:]+\]|Test Summary|Files=|Result:|Dubious|Failed [0-9]+/|All [0-9]+ subtests|Bail|FAILED)|\(Wstat|^  (Failed tests|Non-zero|Parse errors)|^(ok|not ok) +[0-9]+ ms' \
    "$log" | tail -200
  tail -150 "$err"
  total=$(sed -nE 's/^Files=[0-9]+, Tests=([0-9]+),.*/\1/p' "$log" | tail -1)
  for f in $(sed -nE 's/^(\S+\.pl) +\(Wstat: .*/\1/p' "$log"); do
    # 17+'s test modules put the logs beside tmp_check, older ones inside it.
    l="$dir/tmp_check/log/regress_log_$(basename "$f" .pl)"
    [ -f "$l" ] || l="$dir/log/regress_log_$(basename "$f" .pl)"
    [ -f "$l" ] || continue
    echo "---- errors in $l"
    grep -E -A3 'error running SQL|ERROR: |FATAL: |Bail out|died|timed out| at \S+ line [0-9]+\.$' "$l" | head -60
    echo "---- tail of $l"
    tail -15 "$l"
  done
  summary=$(sed -nE 's/.*\(Wstat: [0-9]+.* Tests: [0-9]+ Failed: ([0-9]+)\).*/\1/p' "$log")
  failed_asserts=$(echo "$summary" | awk 'NF {s += $1} END {print s+0}')
  failed=$(echo "$summary" | awk 'NF {s += ($1 > 0 ? $1 : 1)} END {print s+0}')
  if [ -z "$total" ]; then
    total=0
    [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
  elif [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1
  fi
  passed=$((total - failed_asserts))
  [ "$passed" -lt 0 ] && passed=0
  if declare -F tally >/dev/null; then
    tally "$name" "$passed" "$failed"
  else
    echo "== $name: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
  fi
}
