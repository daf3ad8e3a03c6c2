#!/usr/bin/env python3
"""torch on the GPU sweep's cases, then the sweep's report.

Reads gpu_sweep's JSON, times torch.argmax / torch.argmin on the same views (a random
buffer, the same extents, strides and offset; CUDA events around each call, warm-up,
median), and writes:
  <out>.json  the summary (keys: cases, p10_pct_16MiB, median_pct_16MiB, min_pct_16MiB,
              worst_small_launch_ratio, torch_faster, by_kind, by_dtype, by_view, ...) and
              every case with its times;
  <out>.md    the summary tables and every case where torch is faster;
  <out>.png   % of the ceiling against bytes, one colour per kind (with matplotlib).
For several reduced dims torch runs what a torch user writes: permute the reduced dims to
the end, reshape them into one, argmax over it. A case torch cannot run (bool, some unsigned
types) has no torch time.

  python3 sweep_report.py gpu-sweep.json bench/results/gpu-sweep-h200 [--no-torch]
"""
import json
import statistics
import sys

from cuda_events import time_ms

MIB = 1 << 20


def torch_dtype(torch, name):
    return {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
            "int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
            "uint8": torch.uint8, "uint16": torch.uint16, "uint32": torch.uint32, "uint64": torch.uint64,
            "bool": torch.bool}[name]


def torch_view(torch, base, case):
    """The case's view. torch has no negative strides: a reversed dim is a flip (a copy) of
    the view with the positive stride, which is what a torch user must write."""
    offset, strides, flips = case["offset"], [], []
    for d, (n, st) in enumerate(zip(case["extents"], case["strides"])):
        if st < 0:
            offset += (n - 1) * st
            flips.append(d)
        strides.append(abs(st))
    x = torch.as_strided(base, case["extents"], strides, offset)
    return (lambda: x.flip(flips)) if flips else (lambda: x)


def torch_op(torch, view, case):
    dims = [d % len(case["extents"]) for d in case["dims"]]
    fn = torch.argmax if case["op"] == "argmax" else torch.argmin
    x = view()
    if x.data_ptr() != view().data_ptr():  # a flip: copy inside the timed call
        if not dims or len(dims) == len(case["extents"]):
            return lambda: fn(view())
        if len(dims) == 1:
            return lambda: fn(view(), dim=dims[0])
        kept = [d for d in range(x.dim()) if d not in dims]
        kept_shape = [x.shape[d] for d in kept]
        return lambda: fn(view().permute(*kept, *dims).reshape(*kept_shape, -1), dim=-1)
    if not dims or len(dims) == len(case["extents"]):
        return lambda: fn(x)
    if len(dims) == 1:
        return lambda: fn(x, dim=dims[0])
    kept = [d for d in range(x.dim()) if d not in dims]
    kept_shape = [x.shape[d] for d in kept]
    return lambda: fn(x.permute(*kept, *dims).reshape(*kept_shape, -1), dim=-1)


def add_torch(doc):
    import torch
    if not torch.cuda.is_available():
        return None
    span = max(c["span"] * {"float64": 8, "int64": 8, "uint64": 8, "float32": 4, "int32": 4, "uint32": 4}.get(c["dtype"], 2)
               for c in doc["cases"])
    buf = torch.randint(0, 256, (span + 64,), dtype=torch.uint8, device="cuda")
    for c in doc["cases"]:
        try:
            dt = torch_dtype(torch, c["dtype"])
            elem = torch.empty((), dtype=dt).element_size()
            base = buf[: (buf.numel() // elem) * elem].view(dt)
            if dt == torch.bool:  # random bytes are not bools: torch needs 0 and 1
                raise RuntimeError("bool argmax is not implemented in torch")
            c["ms"]["torch"] = time_ms(torch, torch_op(torch, torch_view(torch, base, c), c))
        except (RuntimeError, TypeError, NotImplementedError) as e:
            c["torch_error"] = str(e).splitlines()[0][:120]
        torch.cuda.synchronize()
    return torch.__version__


def pct(c):
    return 100.0 * c["ms"]["ceiling"] / c["ms"]["argx::cuda"]


def dist(values):
    if not values:
        return {"n": 0}
    v = sorted(values)
    return {"n": len(v), "min": v[0], "p10": v[int(0.1 * (len(v) - 1))], "median": statistics.median(v)}


def summarize(doc):
    large = [c for c in doc["cases"] if not c["small"]]
    big = [c for c in large if c["bytes"] >= 16 * MIB]
    small = [c for c in doc["cases"] if c["small"]]
    empty = doc["empty_launch_ms"]
    faster = [c for c in doc["cases"] if "torch" in c["ms"] and c["ms"]["torch"] < c["ms"]["argx::cuda"]]
    s = {
        "device": doc["device"], "seed": doc["seed"], "torch": doc.get("torch"),
        "cases": len(large), "small_cases": len(small), "cases_16MiB": len(big),
        "mismatches": doc["mismatches"],
        "empty_launch_us": empty * 1e3, "read_ceiling_GBps": (1 << 30) / doc["ceiling_1GiB_ms"] / 1e6,
        "p10_pct_16MiB": dist([pct(c) for c in big]).get("p10"),
        "median_pct_16MiB": dist([pct(c) for c in big]).get("median"),
        "min_pct_16MiB": dist([pct(c) for c in big]).get("min"),
        "all_sizes": dist([pct(c) for c in large]),
        "worst_small_launch_ratio": max((c["ms"]["argx::cuda"] / empty for c in small), default=None),
        "median_small_launch_ratio": statistics.median([c["ms"]["argx::cuda"] / empty for c in small]) if small else None,
        "torch_compared": sum(1 for c in doc["cases"] if "torch" in c["ms"]),
        "torch_faster": len(faster),
        "torch_faster_cases": [c["id"] for c in faster],
    }
    for key in ("kind", "dtype", "view", "plan"):
        s["by_" + key] = {k: dist([pct(c) for c in big if c[key] == k]) for k in sorted({c[key] for c in big})}
    return s


def fmt_dist(d):
    if not d.get("n"):
        return "– | – | – | 0"
    return f'{d["min"]:.1f}% | {d["p10"]:.1f}% | {d["median"]:.1f}% | {d["n"]}'


def case_line(c):
    t = c["ms"].get("torch")
    return (f'| {c["id"]} | {c["dtype"]} {c["kind"]} {tuple(c["extents"])} strides {tuple(c["strides"])} dims {c["dims"]} '
            f'{c["view"]}{" +" + str(c["offset"] % 16) if c["offset"] % 16 else ""} {c["op"]} | {c["bytes"] / MIB:.2f} MiB | '
            f'{c["ms"]["argx::cuda"] * 1e3:.1f} µs | {"–" if t is None else f"{t * 1e3:.1f} µs"} | {pct(c):.1f}% | {c["launch"]} |')


def markdown(s, doc):
    lines = [f'GPU: {s["device"]}; seed {s["seed"]}; read ceiling {s["read_ceiling_GBps"]:.0f} GB/s (1 GiB); empty launch '
             f'{s["empty_launch_us"]:.1f} µs; torch {s["torch"] or "absent"}.',
             f'{s["cases"]} cases of 1 MiB–2 GiB ({s["cases_16MiB"]} of at least 16 MiB) and {s["small_cases"]} under 1 MiB; '
             f'argx::cuda and argx::thrust disagree on {s["mismatches"]}.', "",
             f'**At least 16 MiB: p10 {s["p10_pct_16MiB"]:.1f}%, median {s["median_pct_16MiB"]:.1f}%, min '
             f'{s["min_pct_16MiB"]:.1f}% of the ceiling. Under 1 MiB: at worst {s["worst_small_launch_ratio"]:.2f}× '
             f'an empty launch (median {s["median_small_launch_ratio"]:.2f}×). torch faster on {s["torch_faster"]} of '
             f'{s["torch_compared"]} cases it runs.**', ""]
    for key, title in (("kind", "kind"), ("plan", "plan class"), ("view", "view"), ("dtype", "dtype")):
        lines += [f"| {title} (≥ 16 MiB) | min | p10 | median | cases |", "|---|---|---|---|---|"]
        lines += [f"| {k} | {fmt_dist(d)} |" for k, d in s["by_" + key].items()]
        lines.append("")
    head = ["| id | case | bytes | argx::cuda | torch | % of ceiling | launch |", "|---|---|---|---|---|---|---|"]
    faster = [c for c in doc["cases"] if c["id"] in s["torch_faster_cases"]]
    lines += ["Cases where torch is faster:" if faster else "No case where torch is faster.", ""]
    if faster:
        lines += head + [case_line(c) for c in faster] + [""]
    worst = sorted((c for c in doc["cases"] if not c["small"] and c["bytes"] >= 16 * MIB), key=pct)[:15]
    lines += ["The 15 slowest cases of at least 16 MiB (share of the ceiling):", ""] + head + [case_line(c) for c in worst]
    return "\n".join(lines) + "\n"


def plot(doc, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(8, 4.5))
    colours = {"flat": "tab:blue", "rows": "tab:orange", "strided": "tab:green", "multi": "tab:red"}
    for kind, colour in colours.items():
        pts = [(c["bytes"], pct(c)) for c in doc["cases"] if c["kind"] == kind]
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=10, c=colour, label=kind, alpha=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("bytes read")
    ax.set_ylabel("% of the ceiling (same bytes)")
    ax.axvline(16 * MIB, color="grey", lw=0.5, ls="--")
    ax.set_ylim(0, 110)
    ax.set_title(f'argx::cuda on the random-shape sweep ({doc["device"]})')
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    src, out = sys.argv[1], sys.argv[2]
    doc = json.load(open(src))
    doc["torch"] = None if "--no-torch" in sys.argv else add_torch(doc)
    s = summarize(doc)
    json.dump({**s, "case_list": doc["cases"]}, open(out + ".json", "w"), indent=1)
    md = markdown(s, doc)
    open(out + ".md", "w").write(md)
    plot(doc, out + ".png")
    print(md)


if __name__ == "__main__":
    main()
