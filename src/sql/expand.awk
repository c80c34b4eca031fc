# Expands the repetitions in the extension's SQL sources (the Makefile runs it
# over src/sql/* to build the install script). Directives are SQL comments:
#   -- @table NAME COLUMN...   a table; the "-- @row VALUE..." lines after it
#                              are its rows (values without spaces)
#   -- @for NAME ... -- @end   the lines in between, once per row of NAME, each
#                              {COLUMN} replaced by the row's value
# Directive lines are left out of the output; every other line passes as is.
# POSIX awk (mawk, gawk, busybox).
function replaced(line, table, row,    c, key, value, at, out) {
  for (c = 1; c <= ncols[table]; c++) {
    key = "{" col[table, c] "}"
    value = val[table, row, c]
    out = ""
    while ((at = index(line, key)) > 0) {
      out = out substr(line, 1, at - 1) value
      line = substr(line, at + length(key))
    }
    line = out line
  }
  return line
}
$1 == "--" && $2 == "@table" {
  current = $3; ncols[current] = NF - 3; nrows[current] = 0
  for (i = 4; i <= NF; i++) col[current, i - 3] = $i
  next
}
$1 == "--" && $2 == "@row" {
  n = ++nrows[current]
  if (NF - 2 != ncols[current]) { print FILENAME ":" FNR ": a row of " ncols[current] " values expected" > "/dev/stderr"; exit 1 }
  for (i = 3; i <= NF; i++) val[current, n, i - 2] = $i
  next
}
$1 == "--" && $2 == "@for" {
  loop = $3; nbody = 0; looping = 1
  if (!(loop in nrows)) { print FILENAME ":" FNR ": no table " loop > "/dev/stderr"; exit 1 }
  next
}
$1 == "--" && $2 == "@end" {
  for (r = 1; r <= nrows[loop]; r++)
    for (b = 1; b <= nbody; b++) print replaced(body[b], loop, r)
  looping = 0
  next
}
looping { body[++nbody] = $0; next }
{ print }
