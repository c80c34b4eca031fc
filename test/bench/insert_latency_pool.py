#!/usr/bin/env python3
"""Judge insert_latency.sh's rows over the rounds of several runs together.

    python3 test/bench/insert_latency_pool.py DIR_OR_RUNS_CSV [...]

Each argument is a run's insert_latency_runs.csv (or its directory). A round is a
(file, round) pair, so runs of the same settings add rounds; rows are (preload,
synchronous_commit, clients, key). The verdict is insert_latency.sh's: the median of
the rounds' p99 ratios (today / 0.3.0) and the order statistics x(q), x(n+1-q) with q
the largest such that P(Binomial(n, 1/2) < q) <= 0.025; "met" when the interval is at
or below TARGET (default 1.10), "missed" when above, else "undecided"; bigserial is
the control. Only pool runs made with the same settings on the same trees.
"""
import csv
import os
import sys
from math import comb

TARGET = float(os.environ.get("TARGET", "1.10"))


def interval(xs):
    n = len(xs)
    q, cum = 0, 0.0
    for i in range(n):
        term = comb(n, i) / 2 ** n
        if cum + term > 0.025:
            break
        cum += term
        q = i + 1
    med = xs[(n - 1) // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
    return med, (xs[q - 1], xs[n - q]) if q >= 1 else None


def main(paths):
    p99 = {}
    for i, path in enumerate(paths):
        if os.path.isdir(path):
            path = os.path.join(path, "insert_latency_runs.csv")
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                row = (r["preload"], r["synchronous_commit"], r["clients"], r["key"])
                p99.setdefault(row, {}).setdefault((i, r["round"]), {})[r["build"]] = float(r["p99_ms"])
    print("preload,synchronous_commit,clients,key,rounds,median,ci_low,ci_high,verdict")
    for row, rounds in p99.items():
        xs = sorted(b["now"] / b["030"] for b in rounds.values() if "now" in b and b.get("030", 0) > 0)
        if not xs:
            continue
        med, ci = interval(xs)
        if row[3] == "bigserial":
            verdict = "control misses 1.00" if ci and (ci[0] > 1 or ci[1] < 1) else "control"
        elif ci is None:
            verdict = "undecided"
        else:
            verdict = "met" if ci[1] <= TARGET else "missed" if ci[0] > TARGET else "undecided"
        lo, hi = ci if ci else (float("nan"), float("nan"))
        print(f"{','.join(row)},{len(xs)},{med:.3f},{lo:.3f},{hi:.3f},{verdict}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
