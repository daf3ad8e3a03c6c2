#!/usr/bin/python3
"""Merges argx_bench_cpu's Google Benchmark JSON and numpy_bench.py's JSON into one
results JSON, a CSV (one row per workload and implementation) and a markdown table with
each goal of the CPU speed issue checked.

    report.py BENCH.json NUMPY.json OUT_PREFIX [CONDITIONS]

writes OUT_PREFIX.json, OUT_PREFIX.csv and OUT_PREFIX.md. Every figure is GB/s of input
read; a Google Benchmark figure is the best of its repetitions' means.
"""
import csv
import json
import sys

IMPLS = ["tbb", "par", "seq", "std_seq", "std_par", "std_par_unseq", "numpy", "read_1t", "read_2t"]

# Goals of the CPU speed issue: (kind, factor). "read": tbb >= factor x 2-thread read
# bandwidth; "numpy": tbb >= factor x numpy; None: reported only.
GOALS = {
    "flat_f32_256KiB": ("numpy", 1.5),
    "flat_f32_1MiB": ("numpy", 1.5),
    "flat_f32_4MiB": ("numpy", 1.5),
    "flat_f32_16MiB": None,
    "flat_f32_64MiB": ("read", 0.9),
    "flat_f32_256MiB": ("read", 0.9),
    "rows_f32_2Mx32": ("numpy", 10.0),
    "rows_f32_65536x1024": ("read", 0.8),
    "rows_f32_64x1M": ("read", 0.8),
    "axis0_f32_4096x16384": ("read", 0.8),
    "axis1_f32_64x1024x1024": ("read", 0.8),
    "flat_f64_256MiB": ("read", 0.8),
    "flat_i32_256MiB": ("read", 0.8),
    "flat_u8_256MiB": ("read", 0.8),
    "flat_f16_256MiB": ("read", 0.8),
    "flat_bf16_256MiB": ("read", 0.8),
    "abs_f32_250000": None,
}


def load(bench_path, numpy_path):
    with open(bench_path) as fh:
        bench = json.load(fh)
    with open(numpy_path) as fh:
        np_res = json.load(fh)
    table = {}
    order = []
    for b in bench["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        if b.get("error_occurred"):  # e.g. an answer that differs from seq's: no figures then
            sys.exit(f"{b['name']}: {b.get('error_message')}")
        parts = b["name"].split("/")
        work, impl = parts[0], parts[1]
        if work not in table:
            table[work] = {}
            order.append(work)
        gbps = b["bytes_per_second"] / 1e9
        table[work][impl] = max(table[work].get(impl, 0.0), gbps)
    for work, r in np_res["workloads"].items():
        table.setdefault(work, {})["numpy"] = r["GBps"]
        if work not in order:
            order.append(work)
    return bench, np_res, table, order


def fmt(x, digits=1):
    return "—" if x is None else f"{x:.{digits}f}"


def main():
    bench_path, numpy_path, prefix = sys.argv[1:4]
    conditions = sys.argv[4] if len(sys.argv) > 4 else ""
    bench, np_res, table, order = load(bench_path, numpy_path)

    rows = []
    for work in order:
        r = table[work]
        tbb, numpy, read2 = r.get("tbb"), r.get("numpy"), r.get("read_2t")
        ceiling = max(r.get("read_1t", 0.0), r.get("read_2t", 0.0)) or None
        goal = GOALS.get(work)
        verdict = ""
        if goal and tbb:
            kind, factor = goal
            ref = read2 if kind == "read" else numpy
            if ref:
                need = factor * ref
                verdict = ("met" if tbb >= need else f"missed by {100 * (1 - tbb / need):.0f}%") + \
                          f" (goal {factor:g}x {'2-thread read' if kind == 'read' else 'numpy'})"
        rows.append({
            "workload": work,
            **{impl: r.get(impl) for impl in IMPLS},
            "read_ceiling": ceiling,
            "tbb_vs_read_2t": tbb / read2 if tbb and read2 else None,
            "tbb_vs_ceiling": tbb / ceiling if tbb and ceiling else None,
            "tbb_vs_numpy": tbb / numpy if tbb and numpy else None,
            "goal": verdict,
        })

    with open(prefix + ".json", "w") as fh:
        json.dump({"context": bench.get("context", {}), "numpy_version": np_res.get("numpy_version"),
                   "conditions": conditions, "results": rows}, fh, indent=1)
    with open(prefix + ".csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["workload", "implementation", "GBps"])
        for row in rows:
            for impl in IMPLS:
                if row[impl] is not None:
                    w.writerow([row["workload"], impl, f"{row[impl]:.3f}"])

    ctx = bench.get("context", {})
    lines = [
        f"CPU: {ctx.get('num_cpus')} cores at {ctx.get('mhz_per_cpu')} MHz; argx SIMD target "
        f"{ctx.get('argx_simd_target')}; numpy {np_res.get('numpy_version')}. {conditions}",
        "",
        "GB/s of input read (higher is better). ceiling = vectorised sum of the same bytes, best of "
        "1 and 2 threads. std = std::max_element (libstdc++, parallel policies on oneTBB).",
        "",
        "| workload | tbb | par | seq | std seq | std par | numpy | read 1t | read 2t | tbb / read 2t | tbb / numpy | goal |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['workload']} | {fmt(row['tbb'])} | {fmt(row['par'])} | {fmt(row['seq'])} | "
            f"{fmt(row['std_seq'])} | {fmt(row['std_par'])} | {fmt(row['numpy'])} | {fmt(row['read_1t'])} | "
            f"{fmt(row['read_2t'])} | {fmt(row['tbb_vs_read_2t'], 2)} | {fmt(row['tbb_vs_numpy'], 1)} | {row['goal']} |")
    abs_row = next((r for r in rows if r["workload"] == "abs_f32_250000"), None)
    if abs_row:
        lines += ["", "abs-argmax of 250,000 floats (GB/s): "
                  + ", ".join(f"{k} {fmt(abs_row[k])}" for k in
                              ("seq", "par", "tbb", "std_seq", "std_par", "std_par_unseq", "numpy"))
                  + " (numpy: argmax(abs(a)), which also writes |a|)."]
    with open(prefix + ".md", "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
