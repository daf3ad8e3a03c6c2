#!/usr/bin/env python3
"""Two runs of gpu_sweep on one GPU, before and after a change: argx::cuda's time per case.

Prints the distribution of after/before time ratios (and the read ceiling's own ratio, the
run-to-run noise), the share of the ceiling at >= 16 MiB before and after, and the cases
whose launch changed or whose time moved most, grouped by the launch kind after. Cases under
64 MiB also have the GPU's part of each call (timed queued behind a spin, so the host's part
and its jitter are left out): the GPU-time ratios of the cases whose launch changed, and of
those whose launch did not (their noise), are listed too.

  python3 sweep_compare.py before.json after.json [--md OUT.md]
"""
import json
import sys

MIB = 1 << 20


def load(path):
    """gpu_sweep's raw JSON ("cases") or sweep_report.py's summary ("case_list")."""
    doc = json.load(open(path))
    return {c["id"]: c for c in doc.get("case_list", doc["cases"])}


def pct(c):
    return 100 * c["ms"]["ceiling"] / c["ms"]["argx::cuda"]


def q(v, f):
    v = sorted(v)
    return v[min(len(v) - 1, int(f * len(v)))] if v else float("nan")


def kind(launch):
    w = launch.split(" blocks")[0].split()
    return " ".join(w[:3]) if w[0] == "columns" else w[0]


def main():
    before, after = load(sys.argv[1]), load(sys.argv[2])
    md = sys.argv[sys.argv.index("--md") + 1] if "--md" in sys.argv else None
    ids = sorted(set(before) & set(after))
    lines = []
    say = lines.append
    ratio = [after[i]["ms"]["argx::cuda"] / before[i]["ms"]["argx::cuda"] for i in ids]
    noise = [after[i]["ms"]["ceiling"] / before[i]["ms"]["ceiling"] for i in ids]
    say(f"{len(ids)} cases. argx::cuda time after / before: p10 {q(ratio, .1):.3f}, median {q(ratio, .5):.3f}, "
        f"p90 {q(ratio, .9):.3f}; the ceiling's own ratio (noise): p10 {q(noise, .1):.3f}, "
        f"median {q(noise, .5):.3f}, p90 {q(noise, .9):.3f}")
    big = [i for i in ids if not before[i]["small"] and before[i]["bytes"] >= 16 * MIB]
    for name, runs in (("before", before), ("after", after)):
        v = [pct(runs[i]) for i in big]
        say(f"{name}: >= 16 MiB ({len(v)} cases): min {min(v):.1f}%, p10 {q(v, .1):.1f}%, median {q(v, .5):.1f}% "
            f"of the ceiling")
    groups = {}
    for i in big:
        groups.setdefault(kind(after[i]["launch"]), []).append(i)
    say("")
    say("| launch after (>= 16 MiB) | cases | median % before | median % after | median time ratio |")
    say("|---|---|---|---|---|")
    for k, g in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        say(f"| {k} | {len(g)} | {q([pct(before[i]) for i in g], .5):.1f} | {q([pct(after[i]) for i in g], .5):.1f} | "
            f"{q([after[i]['ms']['argx::cuda'] / before[i]['ms']['argx::cuda'] for i in g], .5):.3f} |")
    moved = sorted(ids, key=lambda i: after[i]["ms"]["argx::cuda"] / before[i]["ms"]["argx::cuda"])
    say("")
    say("Largest changes (after / before):")
    for i in moved[:12] + moved[-12:]:
        a, b = after[i], before[i]
        say(f"  {i:6d} {a['dtype']:8s} {a['kind']:7s} {str(a['extents']):30s} dims {a['dims']} "
            f"{b['ms']['argx::cuda'] * 1e3:9.1f} -> {a['ms']['argx::cuda'] * 1e3:9.1f} us "
            f"({a['ms']['argx::cuda'] / b['ms']['argx::cuda']:.2f}x)  {kind(b['launch'])} -> {kind(a['launch'])}")
    queued = [i for i in ids if "argx::cuda gpu" in before[i]["ms"] and "argx::cuda gpu" in after[i]["ms"]]
    if queued:
        gpu = {i: after[i]["ms"]["argx::cuda gpu"] / before[i]["ms"]["argx::cuda gpu"] for i in queued}
        same = [gpu[i] for i in queued if before[i]["launch"] == after[i]["launch"]]
        changed = sorted((i for i in queued if before[i]["launch"] != after[i]["launch"]), key=lambda i: gpu[i])
        say("")
        say(f"GPU part of the call (cases under 64 MiB): same launch ({len(same)} cases, the noise) after / before "
            f"p10 {q(same, .1):.3f}, median {q(same, .5):.3f}, p90 {q(same, .9):.3f}; launch changed: {len(changed)} cases")
        for i in changed:
            a, b = after[i], before[i]
            say(f"  {i:6d} {a['dtype']:8s} {str(a['extents']):30s} dims {a['dims']} GPU "
                f"{b['ms']['argx::cuda gpu'] * 1e3:7.1f} -> {a['ms']['argx::cuda gpu'] * 1e3:7.1f} us ({gpu[i]:.2f}x)  "
                f"{b['launch']} -> {a['launch']}")
    text = "\n".join(lines)
    print(text)
    if md:
        open(md, "w").write(text + "\n")


if __name__ == "__main__":
    main()
