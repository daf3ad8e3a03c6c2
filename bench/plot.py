#!/usr/bin/env python3
"""Turns the benchmark results in bench/results/ into PNG charts for the README.

    /usr/bin/python3 bench/plot.py [RESULTS_DIR]

For every gpu-*.json (bench/cuda/run_gpu.sh) and cpu-*.json (bench/cpu/run.sh) it writes,
next to it:
  <name>-flat.png     GB/s against input size, flat float32 argmax: argx backends, peers,
                      and the read-bandwidth ceiling measured in the same run;
  <name>-classes.png  one bar group per shape class: each implementation's throughput as a
                      fraction of that ceiling.
"""
import glob
import json
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

GIB = 1024**3


def size_label(nbytes):
    for unit, scale in (("GiB", GIB), ("MiB", 1024**2), ("KiB", 1024)):
        if nbytes >= scale:
            return f"{nbytes / scale:g} {unit}"
    return f"{nbytes} B"


def gpu_series(doc):
    """(flat sweep {impl: [(bytes, GB/s)]}, classes {case: {impl: fraction of ceiling}})."""
    sweep, classes = {}, {}
    for case in doc["cases"]:
        ms = case["ms"]
        gbps = {k: case["bytes"] / v / 1e6 for k, v in ms.items() if v and v > 0}
        if re.fullmatch(r"flat 2\^\d+", case["name"]):
            for impl, v in gbps.items():
                sweep.setdefault(impl, []).append((case["bytes"], v))
        if not re.fullmatch(r"flat 2\^(1\d|[0-9])", case["name"]) and "ceiling" in gbps:
            classes[case["name"]] = {k: v / gbps["ceiling"] for k, v in gbps.items() if k != "ceiling"}
    return sweep, classes


def cpu_series(doc):
    sweep, classes = {}, {}
    impls = ["tbb", "par", "seq", "std_seq", "std_par", "numpy"]
    for row in doc["results"]:
        work = row["workload"]
        ceiling = row.get("read_ceiling")
        m = re.fullmatch(r"flat_f32_(\d+)(KiB|MiB)", work)
        if m:
            nbytes = int(m.group(1)) * (1024 if m.group(2) == "KiB" else 1024**2)
            for impl in impls + ["read_2t"]:
                if row.get(impl):
                    sweep.setdefault("read ceiling (2 threads)" if impl == "read_2t" else impl, []).append(
                        (nbytes, row[impl]))
        if ceiling and not work.startswith("abs_") and not (m and nbytes < 64 * 1024**2):
            classes[work] = {impl: row[impl] / ceiling for impl in impls if row.get(impl)}
    return sweep, classes


def plot_sweep(sweep, title, path):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for impl, pts in sorted(sweep.items()):
        pts.sort()
        style = "k--" if "ceiling" in impl else "-o"
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=impl, markersize=4)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    xs = sorted({p[0] for pts in sweep.values() for p in pts})
    ax.set_xticks(xs)
    ax.set_xticklabels([size_label(x) for x in xs], rotation=45, ha="right", fontsize=8)
    ax.set_xlabel("input size")
    ax.set_ylabel("GB/s (input bytes / time)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_classes(classes, title, path):
    cases = list(classes)
    impls = sorted({i for c in classes.values() for i in c}, key=lambda i: (not i.startswith(("argx", "tbb")), i))
    width = 0.8 / max(1, len(impls))
    fig, ax = plt.subplots(figsize=(max(8, 0.9 * len(cases) + 2), 4.8))
    for k, impl in enumerate(impls):
        xs = [i + k * width for i in range(len(cases))]
        ax.bar(xs, [classes[c].get(impl, 0) for c in cases], width, label=impl)
    ax.axhline(1.0, color="k", linestyle="--", linewidth=1)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(cases))])
    ax.set_xticklabels(cases, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel("fraction of the read-bandwidth ceiling")
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "results")
    made = []
    for path in sorted(glob.glob(os.path.join(results, "*.json"))):
        name = os.path.basename(path)[:-5]
        with open(path) as fh:
            doc = json.load(fh)
        if name.startswith("gpu-") and isinstance(doc.get("cases"), list):  # the table, not a sweep summary
            sweep, classes = gpu_series(doc)
            where = doc.get("device", "GPU")
        elif name.startswith("cpu-") and "results" in doc:
            sweep, classes = cpu_series(doc)
            where = "CPU, " + str(doc.get("context", {}).get("num_cpus", "?")) + " cores"
        else:
            continue
        if sweep:
            out = os.path.join(results, name + "-flat.png")
            plot_sweep(sweep, f"flat float32 argmax, {where}", out)
            made.append(out)
        if classes:
            out = os.path.join(results, name + "-classes.png")
            plot_classes(classes, f"shape classes against the read ceiling, {where}", out)
            made.append(out)
    for m in made:
        print("wrote", m)
    if not made:
        sys.exit("no gpu-*.json or cpu-*.json results in " + results)


if __name__ == "__main__":
    main()
