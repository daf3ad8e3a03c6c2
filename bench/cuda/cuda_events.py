"""Median time of a GPU operation with CUDA events around each call, for the torch columns
of the GPU benchmarks (torch_bench.py, sweep_report.py)."""
import statistics
import time


def time_ms(torch, op, budget_s=0.25, max_reps=100, warmup=3):
    """Median ms of op() over up to max_reps calls (at least 10, then until budget_s)."""
    for _ in range(warmup):
        op()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ms, start = [], time.time()
    while len(ms) < max_reps:
        a.record()
        op()
        b.record()
        b.synchronize()
        ms.append(a.elapsed_time(b))
        if len(ms) >= 10 and time.time() - start > budget_s:
            break
    return statistics.median(ms)
