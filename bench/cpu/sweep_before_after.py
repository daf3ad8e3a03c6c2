#!/usr/bin/python3
"""Chosen CPU sweep cases timed with two builds of argx in one process, interleaved round by
round (sweep_timing.measure), beside the 2-thread read ceiling over the same bytes.

    /usr/bin/python3 bench/cpu/sweep_before_after.py BEFORE_BUILD AFTER_BUILD CASES [--seed S]
        [--dtype NAME] [--rounds N] [--md OUT.md]

CASES: comma-separated case numbers of sweep_cases.py (seed S, 2024 by default). --dtype
reduces the case's shape and view with another element type (its data drawn for that type;
the case's NaN policy and abs dropped where the type has none), to compare dtypes on the
very same layout. Both builds' answers are checked against seq first (a difference ends the
run with exit status 1). Prints one markdown row a case: times, after/before, the fraction of
the read ceiling ("fr": ceiling time / argx time) of each, and the paths taken after; then
the median, min and max of after/before.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_cases import FLOATS, build, describe, make_case  # noqa: E402
from sweep_timing import Argx, Read, Reduction, measure  # noqa: E402


def with_dtype(case, name):
    """The case with another element type (NaN and abs only where that type has them)."""
    c = dict(case, dtype=name)
    if name not in FLOATS or name == "bfloat16":
        c["nan"], c["abs"] = "propagate", False
    return c


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("cases")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--dtype", default="")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--md", default="")
    args = ap.parse_args()
    libs = {"before": Argx(args.before), "after": Argx(args.after)}
    rows, ratios = [], []
    header = "| case | before ms | after ms | after/before | fr before | fr after | paths after |\n|---|---:|---:|---:|---:|---:|---|"
    print(header, flush=True)
    for k in (int(x) for x in args.cases.split(",")):
        case = make_case(args.seed, k)
        if args.dtype:
            case = with_dtype(case, args.dtype)
        _, v = build(case)
        kept = [e for d, e in enumerate(v.shape) if case["dims"] is not None and d not in case["dims"]]
        want = Reduction(libs["after"], case, v, backend="seq").result(kept)
        red = {name: Reduction(lib, case, v) for name, lib in libs.items()}
        for name, r in red.items():
            if not np.array_equal(r.result(kept), want):
                print(f"#{k} {describe(case, v)}: {name} differs from seq", flush=True)
                return 1
        s = measure({"before": red["before"], "after": red["after"], "read_2t": Read(libs["after"], v, 2)},
                    rounds=args.rounds)
        ratio = s["after"] / s["before"]
        ratios.append(ratio)
        row = (f"| #{k} {describe(case, v)[:60]} | {s['before'] * 1e3:.3f} | {s['after'] * 1e3:.3f} | {ratio:.2f} | "
               f"{s['read_2t'] / s['before']:.2f} | {s['read_2t'] / s['after']:.2f} | {','.join(red['after'].paths())} |")
        rows.append(row)
        print(row, flush=True)
    summary = (f"After/before: median {np.median(ratios):.3f} min {min(ratios):.3f} max {max(ratios):.3f}."
               if ratios else "")
    print(summary)
    if args.md:
        with open(args.md, "w") as fh:
            fh.write("\n".join([header] + rows + ["", summary, ""]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
