"""The README's Python examples (section "Python"), each run as written. A block that imports
a module missing here (torch, ml_dtypes) or needs a GPU skips; run_gpu.sh runs them all."""

import pathlib
import re

import pytest

import argx

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def python_blocks():
    text = README.read_text()
    start = text.index("\n## Python\n")
    end = text.index("\n## ", start + 1)
    return re.findall(r"```python\n(.*?)```", text[start:end], re.S)


BLOCKS = python_blocks()


def test_the_section_has_examples():
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_example_runs(code):
    for module in re.findall(r"^import (\w+)", code, re.M):
        if module not in ("numpy", "argx"):
            pytest.importorskip(module)
    if '"cuda"' in code:
        import torch

        if not (torch.cuda.is_available() and argx.available("cuda")):
            pytest.skip("needs a CUDA GPU")
    exec(compile(code, "README.md python block", "exec"), {})
