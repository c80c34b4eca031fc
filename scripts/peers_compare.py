#!/usr/bin/env python3
"""A psql -e transcript against its expected one, statement by statement (the peers suite).

    peers_compare.py SQL EXPECTED ACTUAL

SQL is the script psql ran (statements end with ';' at the end of a line); psql -e echoes each
statement before its result, so both transcripts are cut where a statement's first line is
echoed. Prints one line per statement, "ok   N: FIRST LINE" or "FAIL N: FIRST LINE" followed by
both blocks, and exits 0 when every statement printed what was expected.
"""
import sys


def statements(path):
    out, cur = [], []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not cur and not line.strip():
            continue
        cur.append(line)
        if line.rstrip().endswith(";"):
            out.append(cur)
            cur = []
    return out


def blocks(path, firsts):
    """The transcript cut at each statement's echoed first line, in order."""
    lines = open(path, encoding="utf-8").read().split("\n")
    res, i, cur = [], 0, None
    for line in lines:
        if i < len(firsts) and line == firsts[i]:
            if cur is not None:
                res.append(cur)
            cur = [line]
            i += 1
        elif cur is not None:
            cur.append(line)
    if cur is not None:
        res.append(cur)
    while [b for b in res if b and b[-1] == ""]:
        res = [b[:-1] if b and b[-1] == "" else b for b in res]
    return res


def main():
    sql, expected, actual = sys.argv[1:4]
    stmts = statements(sql)
    firsts = [s[0] for s in stmts]
    want, got = blocks(expected, firsts), blocks(actual, firsts)
    bad = 0
    for n, first in enumerate(firsts):
        w = want[n] if n < len(want) else None
        g = got[n] if n < len(got) else None
        if w is not None and w == g:
            print("ok   %d: %s" % (n + 1, first))
        else:
            bad += 1
            print("FAIL %d: %s" % (n + 1, first))
            print("     expected: " + " | ".join(w or ["(nothing)"]))
            print("     got:      " + " | ".join(g or ["(nothing)"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
