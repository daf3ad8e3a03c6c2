"""`mpirun -np P argx reduce IN.npy ... --distributed D` against the single-process
`argx reduce ... --backend seq` on the same file, byte for byte (indices and values), for
1 to 4 ranks (one count per file and spec, every count many times): several dtypes, C and
Fortran order, big-endian, every split dim, the split dim reduced and kept, NaN policies,
ties, keepdim, int32 indices; errors reported once (by rank 0) with exit status 1 and
no output written; outputs that would overwrite the input or each other refused.
usage: distributed_cli.py ARGX_EXE MPIRUN [--quick] (exit 77 without numpy). --quick (the
sanitizer build, where every mpirun takes seconds): four files, two specs each."""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("numpy is not available: skipped")
    sys.exit(77)

ARGX, MPIRUN = sys.argv[1], sys.argv[2]
QUICK = "--quick" in sys.argv[3:]
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
failures = []


def run(args, ranks=None):
    cmd = ([MPIRUN, "--oversubscribe", "--bind-to", "none", "-np", str(ranks), ARGX] if ranks else [ARGX]) + args
    return subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=120)


def make(dt, rng, shape):
    if dt == "b1":
        return rng.integers(0, 2, size=shape).astype(bool)
    a = rng.integers(-2, 3, size=shape).astype(dt)  # few values: ties across the slabs
    if a.dtype.kind == "f":
        a.flat[rng.integers(0, a.size, size=4)] = np.nan
        a[1] = np.nan  # an all-NaN plane
    return a


def main():
    rng = np.random.default_rng(14)
    cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = lambda n: os.path.join(tmp, n)
        arrays = []
        for dt, order, endian in [("f4", "C", "<"), ("f2", "F", "<"), ("f8", "C", ">"), ("i2", "C", "<"),
                                  ("u1", "F", "|"), ("b1", "C", "|"), ("i8", "C", ">")]:
            a = make(dt, rng, (5, 7, 3))
            if endian == ">":
                a = a.astype(a.dtype.newbyteorder(">"))
            arrays.append((f"{dt} {order} {endian}", np.asarray(a, order=order)))
        specs = [[], ["--dim", "1"], ["--dim", "0", "--nan", "ignore", "--ties", "last"],
                 ["--dim", "2", "--keepdim", "--op", "argmin", "--index-type", "int32"],
                 ["--dim", "0", "--dim", "2", "--nan", "ignore", "--abs"]]
        if QUICK:
            arrays = arrays[::2]
        for k, (tag, a) in enumerate(arrays):
            np.save(path("in.npy"), a)
            for j, spec in enumerate(specs[k % 2::2][:2] if QUICK else specs):
                base = ["reduce", path("in.npy"), *spec]
                want = run(base + ["-o", path("want.npy"), "--values", path("want_v.npy"), "--backend", "seq"])
                if want.returncode != 0:
                    failures.append(f"{tag} {' '.join(spec)}: single process: exit {want.returncode}")
                    continue
                for ranks in (1 + (k + j) % 4,):  # every count of ranks, over the cases
                    split = (k + j + ranks) % 3
                    got = run(base + ["-o", path("got.npy"), "--values", path("got_v.npy"), "--distributed",
                                      str(split)], ranks)
                    name = f"{tag}, {ranks} ranks, split {split}, {' '.join(spec)}"
                    cases += 1
                    if got.returncode != 0:
                        failures.append(f"{name}: exit {got.returncode} ({got.stderr.strip()[:300]})")
                        continue
                    for g, w in (("got.npy", "want.npy"), ("got_v.npy", "want_v.npy")):
                        if open(path(g), "rb").read() != open(path(w), "rb").read():
                            failures.append(f"{name}: {g} differs from the single-process answer")
        # Errors: raised on every rank, printed once (by rank 0), exit status 1, nothing written.
        np.save(path("in.npy"), arrays[0][1])
        for args, code in [(["--distributed", "3"], "[bad_dim]"), (["--dim", "4", "--distributed", "0"], "[bad_dim]"),
                           (["--distributed", "0", "--index-type", "int32", "--dim", "9"], "[bad_dim]")]:
            r = run(["reduce", path("in.npy"), "-o", path("none.npy"), *args], 3)
            lines = [l for l in r.stderr.splitlines() if l.startswith("argx")]
            cases += 1
            if r.returncode == 0 or len(lines) != 1 or code not in lines[0] or os.path.exists(path("none.npy")):
                failures.append(f"error {args}: exit {r.returncode}, argx lines {lines}")
        r = run(["reduce", path("missing.npy"), "-o", path("none.npy"), "--distributed", "0"], 2)
        lines = [l for l in r.stderr.splitlines() if l.startswith("argx")]
        cases += 1
        if r.returncode == 0 or len(lines) != 1 or "[io_failure]" not in lines[0]:
            failures.append(f"missing file: exit {r.returncode}, argx lines {lines}")
        # Outputs that would destroy a file are refused before any rank reads or writes.
        before = open(path("in.npy"), "rb").read()
        for args, text in [(["-o", path("in.npy")], "would overwrite the input"),
                           (["-o", path("none.npy"), "--values", path("none.npy")], "name the same file")]:
            r = run(["reduce", path("in.npy"), *args, "--distributed", "0"], 2)
            cases += 1
            if (r.returncode == 0 or text not in r.stderr or open(path("in.npy"), "rb").read() != before
                    or os.path.exists(path("none.npy"))):
                failures.append(f"clobbering {args}: exit {r.returncode}: {r.stderr.strip()[:200]}")
        r = run(["reduce", path("in.npy"), "-o", path("none.npy"), "--distributed", "0", "--flip", "1"], 2)
        cases += 1
        if r.returncode != 2 or "view options do not apply" not in r.stderr:
            failures.append(f"view options: exit {r.returncode}: {r.stderr.strip()[:200]}")
    for f in failures:
        print("FAIL", f)
    print(f"{cases} distributed CLI runs compared, {len(failures)} failures")
    return 1 if failures else 0


sys.exit(main())
