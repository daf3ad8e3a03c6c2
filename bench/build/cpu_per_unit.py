#!/usr/bin/env python3
"""CPU seconds of each compile command of a build directory, re-run alone, one at a time:
where a build's time goes, whatever the load of a shared machine (user + sys of the
compiler's processes; the wall time is printed beside it).

    bench/build/cpu_per_unit.py BUILD_DIR [SUBSTRING ...]   (only the sources matching one)
"""
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

build = sys.argv[1]
only = sys.argv[2:]
os.environ["PATH"] = "/usr/local/cuda/bin:" + os.environ["PATH"]
out = os.path.join(tempfile.mkdtemp(), "unit.o")
for e in json.load(open(os.path.join(build, "compile_commands.json"))):
    if only and not any(o in e["file"] for o in only):
        continue
    # Same command, without the dependency file and into a scratch object.
    cmd = re.sub(r" -M[QF] \S+", "", e["command"].replace(" -MD ", " ")).replace(" -o " + e["output"], " -o " + out)
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.time()
    p = subprocess.run(cmd, shell=True, cwd=e["directory"], capture_output=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    print(f"{cpu:8.1f} {time.time() - t0:8.1f} rc={p.returncode} {e['output']}", flush=True)
