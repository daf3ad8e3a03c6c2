#!/usr/bin/python3
"""Tables, summary and plot of a CPU sweep (sweep.py's OUT.json).

    /usr/bin/python3 bench/cpu/sweep_report.py SWEEP.json OUT_PREFIX [CONDITIONS] [--llc-mib N]

writes OUT_PREFIX.json (the summary and every case), OUT_PREFIX.md (tables) and
OUT_PREFIX.png (the plot). Fractions are of the 2-thread read ceiling measured beside
each case (read_2t time / argx time). Inputs "beyond the LLC" touch more bytes than the
last-level cache holds (the size sysfs gives, or N MiB: a virtual machine may report its
host's cache, larger than what the read ceiling shows); "in cache" ones fit it. The ceiling statistics count the cases
whose data makes every element be read ("full"); cases whose data lets a scan stop early
are reported apart (their fraction can exceed 1).
"""
import json
import sys

import numpy as np

CLASSES = ["flat", "rows", "strided", "general"]
TARGET = 0.70  # beyond the LLC: the fraction of the read ceiling the cases are held to


def quantiles(xs):
    if not xs:
        return None
    a = np.array(xs)
    return {"n": len(xs), "min": float(a.min()), "p10": float(np.percentile(a, 10)), "median": float(np.median(a))}


def fraction(r):
    s = r["seconds"]
    return s["read_2t"] / s["argx"]


def rw_fraction(r):
    s = r["seconds"]
    return s["read_write_2t"] / s["argx"]


def read_write_cap(r):
    s = r["seconds"]
    return s["read_2t"] / s["read_write_2t"]


def speedup(r):
    s = r["seconds"]
    return s["numpy"] / s["argx"] if "numpy" in s else None


def summarize(doc):
    llc = doc["llc_bytes"]
    recs = [r for r in doc["cases"] if "seconds" in r]
    full = [r for r in recs if r["case"]["data"] == "full"]
    beyond = [fraction(r) for r in full if r["bytes"] > llc]
    beyond_rw = quantiles([rw_fraction(r) for r in full if r["bytes"] > llc])
    in_cache_speedups = [speedup(r) for r in recs if r["bytes"] <= llc and speedup(r) is not None]
    losers = [r for r in recs if speedup(r) is not None and speedup(r) < 1]
    q = quantiles(beyond)
    return {
        "cases": len(recs),
        "mismatches": sum(1 for r in doc["cases"] if r.get("mismatch")),
        "p10_fraction_beyond_llc": q["p10"] if q else None,
        "median_fraction_beyond_llc": q["median"] if q else None,
        "min_fraction_beyond_llc": q["min"] if q else None,
        "p10_fraction_beyond_llc_read_write": beyond_rw["p10"] if beyond_rw else None,
        "median_fraction_beyond_llc_read_write": beyond_rw["median"] if beyond_rw else None,
        "min_fraction_beyond_llc_read_write": beyond_rw["min"] if beyond_rw else None,
        "cases_beyond_llc_full_read": q["n"] if q else 0,
        "cases_beyond_llc_capped_by_writes": sum(read_write_cap(r) < TARGET for r in full if r["bytes"] > llc),
        "in_cache_median_speedup_vs_numpy": float(np.median(in_cache_speedups)) if in_cache_speedups else None,
        "median_speedup_vs_numpy": float(np.median([speedup(r) for r in recs if speedup(r) is not None])),
        "numpy_faster": len(losers),
        "numpy_faster_cases": [{"id": r["case"]["id"], "describe": r["describe"], "class": r["class"],
                                "bytes": r["bytes"], "speedup": speedup(r)} for r in losers],
        "classes": {c: sum(1 for r in recs if r["class"] == c) for c in CLASSES},
        "dtypes": sorted({r["case"]["dtype"] for r in recs}),
    }


def fmt(q, key):
    return f"{q[key]:.2f}" if q else "–"


def group_table(recs, llc, key, title):
    """Markdown rows: per group, the fraction of the ceiling beyond/in the LLC and vs numpy."""
    lines = [f"| {title} | cases | beyond LLC (full read): n | min | p10 | median | read+write: p10 | median "
             "| in cache (full read): median | x numpy: min | median | numpy faster |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    groups = sorted({key(r) for r in recs}, key=lambda g: (CLASSES + [g]).index(g) if g in CLASSES else 99)
    for g in groups + ["all"]:
        rs = [r for r in recs if g == "all" or key(r) == g]
        full = [r for r in rs if r["case"]["data"] == "full"]
        out = quantiles([fraction(r) for r in full if r["bytes"] > llc])
        out_rw = quantiles([rw_fraction(r) for r in full if r["bytes"] > llc])
        inc = quantiles([fraction(r) for r in full if r["bytes"] <= llc])
        sp = quantiles([speedup(r) for r in rs if speedup(r) is not None])
        lose = sum(1 for r in rs if speedup(r) is not None and speedup(r) < 1)
        name = f"**{g}**" if g == "all" else g
        lines.append(f"| {name} | {len(rs)} | {out['n'] if out else 0} | {fmt(out, 'min')} | {fmt(out, 'p10')} | "
                     f"{fmt(out, 'median')} | {fmt(out_rw, 'p10')} | {fmt(out_rw, 'median')} | {fmt(inc, 'median')} | "
                     f"{fmt(sp, 'min')} | {fmt(sp, 'median')} | {lose} |")
    return lines


def markdown(doc, summary, conditions):
    llc = doc["llc_bytes"]
    recs = [r for r in doc["cases"] if "seconds" in r]
    lines = [
        f"CPU sweep: {summary['cases']} random cases (seed {doc['seed']}), {doc['cpus']} CPUs ({doc['machine']}), "
        f"argx SIMD target {doc['simd_target']}, numpy {doc['numpy']}, last-level cache {llc // 2**20} MiB"
        + (f" (taken as such; the system reports {doc['llc_bytes_reported'] // 2**20} MiB)" if "llc_bytes_reported" in doc else "")
        + ". "
        f"Started {doc['started']}, {doc['minutes']:.0f} min; load average (1/5/15 min) before "
        f"{' '.join(map(str, doc['load_before']))}, after {' '.join(map(str, doc['load_after']))}. {conditions}",
        "",
        "Fraction = 2-thread read ceiling time / argx::tbb time over the same number of bytes (higher is better; "
        "\"full read\": data where no element ends a slice early). x numpy = numpy time / argx time.",
        "",
        f"**Beyond the LLC (full read): p10 {summary['p10_fraction_beyond_llc']:.2f}, median "
        f"{summary['median_fraction_beyond_llc']:.2f}, min {summary['min_fraction_beyond_llc']:.2f} of the 2-thread "
        f"read ceiling ({summary['cases_beyond_llc_full_read']} cases); in cache: median "
        f"{summary['in_cache_median_speedup_vs_numpy']:.2f}x numpy; numpy faster on {summary['numpy_faster']} of "
        f"{summary['cases']} cases.**",
        "",
    ]
    lines += group_table(recs, llc, lambda r: r["class"], "class") + [""]
    lines += group_table(recs, llc, lambda r: r["case"]["dtype"], "dtype") + [""]
    early = [r for r in recs if r["case"]["data"] == "early"]
    lines.append(f"Cases with early-exit data: {len(early)}; their fraction of the ceiling: median "
                 f"{np.median([fraction(r) for r in early]):.2f} (a scan that may stop early reads less).")
    lines.append("")
    low = sorted((r for r in recs if r["case"]["data"] == "full" and r["bytes"] > llc and fraction(r) < TARGET),
                 key=fraction)
    if low:
        # Index writes (8 bytes an output) weigh on reductions of a few elements: the
        # read+write ceiling (the same bytes read, 8 an output written) says how much, and
        # its ratio to the read ceiling is the most of the read ceiling such a case can reach.
        lines += [f"Cases beyond the LLC under {TARGET:.2f} of the read ceiling (full read), lowest first; figures "
                  f"after re-measuring ({sum(bool(r.get('remeasured_low')) for r in low)} of {len(low)} measured three "
                  "times, the median kept). \"cap\": the read ceiling's time over the read+write ceiling's, the most "
                  f"of the read ceiling a case can reach while it writes its indices; "
                  f"{summary['cases_beyond_llc_capped_by_writes']} of the {summary['cases_beyond_llc_full_read']} "
                  f"full-read cases beyond the LLC have a cap under {TARGET:.2f}.", "",
                  "| case | class | MiB | of read ceiling | of read+write ceiling | cap | index bytes per input byte | traversal |",
                  "|---|---|---:|---:|---:|---:|---:|---|"]
        for r in low:
            lines.append(f"| #{r['case']['id']} {r['describe']} | {r['class']} | {r['bytes'] / 2**20:.1f} | "
                         f"{fraction(r):.2f} | {rw_fraction(r):.2f} | {read_write_cap(r):.2f} | "
                         f"{8 * r['outputs'] / r['bytes']:.2f} | {', '.join(r.get('paths', []))} |")
        lines.append("")
    if summary["numpy_faster_cases"]:
        lines += ["Cases where numpy is faster (after re-measuring):", "",
                  "| case | class | MiB | x numpy |", "|---|---|---:|---:|"]
        for c in summary["numpy_faster_cases"]:
            lines.append(f"| #{c['id']} {c['describe']} | {c['class']} | {c['bytes'] / 2**20:.2f} | {c['speedup']:.2f} |")
    else:
        lines.append("numpy is faster on no case.")
    return "\n".join(lines) + "\n"


def plot(doc, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    recs = [r for r in doc["cases"] if "seconds" in r]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 4.8))
    colors = {"flat": "tab:blue", "rows": "tab:orange", "strided": "tab:green", "general": "tab:red"}
    for c in CLASSES:
        rs = [r for r in recs if r["class"] == c]
        full = [r for r in rs if r["case"]["data"] == "full"]
        a1.scatter([r["bytes"] for r in full], [fraction(r) for r in full], s=12, color=colors[c], label=c)
        sp = [r for r in rs if speedup(r) is not None]
        a2.scatter([r["bytes"] for r in sp], [speedup(r) for r in sp], s=12, color=colors[c], label=c,
                   marker="o" if True else "x")
    for a in (a1, a2):
        a.set_xscale("log", base=2)
        a.axvline(doc["llc_bytes"], color="grey", ls=":", lw=1)
        a.set_xlabel("bytes touched (dotted: last-level cache)")
        a.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=8)
    a1.set_ylim(0, 1.6)
    a1.axhline(1, color="black", lw=0.8)
    a1.set_ylabel("argx::tbb / 2-thread read ceiling")
    a1.set_title("fraction of the read ceiling (full-read cases)")
    a2.set_yscale("log")
    a2.axhline(1, color="black", lw=0.8)
    a2.set_ylabel("numpy time / argx::tbb time")
    a2.set_title("speed-up over numpy (every case with a numpy peer)")
    fig.suptitle(f"CPU sweep: {len(recs)} random cases, {doc['cpus']} cores, {doc['simd_target']}")
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main():
    args = sys.argv[1:]
    llc_mib = None
    if "--llc-mib" in args:
        i = args.index("--llc-mib")
        llc_mib = int(args[i + 1])
        del args[i:i + 2]
    src, prefix = args[0], args[1]
    conditions = args[2] if len(args) > 2 else ""
    with open(src) as fh:
        doc = json.load(fh)
    if llc_mib is not None:
        doc["llc_bytes_reported"] = doc["llc_bytes"]
        doc["llc_bytes"] = llc_mib << 20
    summary = summarize(doc)
    with open(prefix + ".json", "w") as fh:
        json.dump({**summary, "run": {k: v for k, v in doc.items() if k != "cases"}, "conditions": conditions,
                   "case_results": doc["cases"]}, fh, indent=1)
    with open(prefix + ".md", "w") as fh:
        fh.write(markdown(doc, summary, conditions))
    plot(doc, prefix + ".png")
    print(markdown(doc, summary, conditions))


if __name__ == "__main__":
    main()
