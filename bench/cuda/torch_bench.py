#!/usr/bin/env python3
"""torch.argmax for the cases gpu_bench timed, then the merged report.

Reads gpu_bench's JSON, times torch.argmax on the same shapes (CUDA events around each
call, warm-up, median), and writes:
  <out>.json  every time in ms, GB/s, % of the read ceiling, and argx::cuda's ratio to each peer
  <out>.csv   the same, one row per (case, implementation)
  <out>.md    the README table
Without torch (or a GPU for it) the report is written without the torch column.

  python3 torch_bench.py gpu-bench.json bench/results/gpu-h200
"""
import json
import sys

from cuda_events import time_ms


def time_torch(case, budget_s=1.0, max_reps=200):
    import torch
    dt = {"float32": torch.float32, "bfloat16": torch.bfloat16}[case["dtype"]]
    x = (torch.rand(case["extents"], device="cuda", dtype=torch.float32) * 2 - 1).to(dt)
    dims = case["dims"]
    if dims:
        op = lambda: torch.argmax(x, dim=dims[0])
    else:
        op = lambda: torch.argmax(x)
    ms = time_ms(torch, op, budget_s, max_reps, warmup=5)
    del x
    torch.cuda.empty_cache()
    return ms


def main():
    src, out = sys.argv[1], sys.argv[2]
    report = json.load(open(src))
    try:
        import torch
        have_torch = torch.cuda.is_available()
        report["torch"] = torch.__version__ if have_torch else None
    except ImportError:
        have_torch = False
        report["torch"] = None
    for case in report["cases"]:
        if have_torch:
            case["ms"]["torch.argmax"] = time_torch(case)
        ms, nbytes = case["ms"], case["bytes"]
        case["gbs"] = {k: nbytes / v / 1e6 for k, v in ms.items()}
        case["pct_of_ceiling"] = {k: 100.0 * ms["ceiling"] / v for k, v in ms.items() if k != "ceiling"}
        case["argx_speedup"] = {k: v / ms["argx::cuda"] for k, v in ms.items() if k not in ("ceiling", "argx::cuda")}
        case["vs_empty_launch"] = ms["argx::cuda"] / report["empty_launch_ms"]
        print(f'{case["name"]:28s} argx::cuda {ms["argx::cuda"]*1e3:9.1f} us  {case["pct_of_ceiling"]["argx::cuda"]:5.1f}% of ceiling'
              + "".join(f'  {k} x{v:.2f}' for k, v in case["argx_speedup"].items()))
    json.dump(report, open(out + ".json", "w"), indent=1)

    peers = ["argx::thrust", "cub::DeviceReduce::ArgMax", "cub::DeviceSegmentedReduce::ArgMax",
             "thrust::max_element", "torch.argmax"]
    with open(out + ".csv", "w") as f:
        f.write("case,dtype,bytes,implementation,ms,GB/s,pct_of_ceiling\n")
        for c in report["cases"]:
            for k, v in c["ms"].items():
                pct = c["pct_of_ceiling"].get(k, 100.0)
                f.write(f'"{c["name"]}",{c["dtype"]},{c["bytes"]},{k},{v:.6f},{c["gbs"][k]:.1f},{pct:.1f}\n')

    def fmt(c, k):
        v = c["ms"].get(k)
        if v is None:
            return "–"
        t = f"{v*1e3:.1f} µs" if v < 0.1 else f"{v:.3f} ms"
        return f"{t} ({c['argx_speedup'][k]:.2f}×)"

    lines = [f'GPU: {report["device"]}; read ceiling {2**30 / report["ceiling_1GiB_ms"] / 1e6:.0f} GB/s (1 GiB); '
             f'empty kernel launch {report["empty_launch_ms"]*1e3:.1f} µs; torch {report.get("torch") or "absent"}.',
             "Times are medians with CUDA events around each call; (n×) = that time over argx::cuda's.", "",
             "| case | argx::cuda | GB/s | % of ceiling | " + " | ".join(peers) + " |",
             "|---" * (4 + len(peers)) + "|"]
    for c in report["cases"]:
        ms = c["ms"]["argx::cuda"]
        t = f"{ms*1e3:.1f} µs" if ms < 0.1 else f"{ms:.3f} ms"
        lines.append(f'| {c["name"]} ({c["dtype"]}) | {t} | {c["gbs"]["argx::cuda"]:.0f} | '
                     f'{c["pct_of_ceiling"]["argx::cuda"]:.1f}% | ' + " | ".join(fmt(c, k) for k in peers) + " |")
    open(out + ".md", "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
