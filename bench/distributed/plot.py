#!/usr/bin/env python3
"""Plots vocab_bench results: step time against batch size, argx's distributed argmax and
the all-gather-then-argmax, one panel per (engine, local backend, ranks), one line per
method, dtype and vocabulary; and writes the Markdown table the README shows.

    /usr/bin/python3 bench/distributed/plot.py RESULTS.csv OUT.png OUT.md
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(csv_path, png_path, md_path):
    rows = list(csv.DictReader(open(csv_path)))
    panels = defaultdict(list)
    for r in rows:
        panels[(r["engine"], r["local"], int(r["ranks"]))].append(r)
    keys = sorted(panels)
    fig, axes = plt.subplots(1, len(keys), figsize=(6.4 * len(keys), 4.8), squeeze=False)
    for ax, key in zip(axes[0], keys):
        lines = defaultdict(list)
        for r in panels[key]:
            lines[(r["method"], r["dtype"], r["vocab"])].append((int(r["batch"]), float(r["median_us"])))
        for (method, dtype, vocab), pts in sorted(lines.items()):
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                    linestyle="-" if method == "argx" else "--",
                    color={"bf16": "tab:blue", "f32": "tab:orange"}.get(dtype, "gray"),
                    alpha=1.0 if vocab == "152064" else 0.55, label=f"{method} {dtype} V={vocab}")
        engine, local, ranks = key
        ax.set_title(f"{engine} (local {local}), {ranks} rank{'s' if ranks > 1 else ''}")
        ax.set_xscale("log", base=2)
        batches = sorted({int(r["batch"]) for r in panels[key]})
        ax.set_xticks(batches, [str(b) for b in batches])
        ax.set_yscale("log")
        ax.set_xlabel("batch (rows of logits)")
        ax.set_ylabel("median time per step (µs)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0][-1].legend(fontsize=7)
    label = rows[0]["label"] if rows else ""
    fig.suptitle(f"Greedy decoding, vocabulary split over ranks: argx (solid)\nvs all-gather then argmax (dashed); {label}")
    fig.tight_layout()
    fig.savefig(png_path, dpi=110)

    out = ["| engine (local) | ranks | dtype | V | B | argx µs median (min) | all-gather µs median (min) | speed-up (medians) | argx bytes sent/recv | all-gather bytes sent/recv |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    by = defaultdict(dict)
    for r in rows:
        by[(r["engine"], r["local"], int(r["ranks"]), r["dtype"], int(r["vocab"]), int(r["batch"]))][r["method"]] = r
    for k in sorted(by):
        a, g = by[k].get("argx"), by[k].get("allgather")
        if not a or not g:
            continue
        ta, tg = float(a["median_us"]), float(g["median_us"])
        out.append(f"| {k[0]} ({k[1]}) | {k[2]} | {k[3]} | {k[4]} | {k[5]} | {ta:.1f} ({float(a['min_us']):.1f}) | "
                   f"{tg:.1f} ({float(g['min_us']):.1f}) | {tg / ta:.1f}× | "
                   f"{int(a['sent_bytes']):,} / {int(a['received_bytes']):,} | "
                   f"{int(g['sent_bytes']):,} / {int(g['received_bytes']):,} |")
    open(md_path, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:4])
