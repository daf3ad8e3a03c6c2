"""argx.testing: check your own argmax/argmin (a kernel, another library) against argx, bit
for bit, for example from pytest::

    import argx.testing
    argx.testing.assert_same(my_argmax(x, 1), x, dim=1)          # raises AssertionError
    report = argx.testing.compare(my_argmax(x, 1), x, dim=1)      # or inspect the report

The Python face of <argx/testing.hpp>: argx computes the expected answer under the same
options with its reference backend (seq for host arrays; cuda for GPU arrays, which argx
tests against seq bit for bit) and reports the first output that differs, both indices,
the input coordinates they point at and, when values are given, both elements' bits.
Indices are compared flat, row-major over the output shape; values bit for bit (-0.0 is
not 0.0). An input or option argx refuses raises that argx error.
"""

import numpy as np

from . import _core
from ._errors import BadArgumentError
from ._frameworks import framework_for

Report = _core.Report
Report.__module__ = __name__


def _host(a):
    return np.ascontiguousarray(framework_for(type(a)).to_numpy(a))


def _indices_bytes(indices, who):
    a = _host(indices)
    if a.dtype.kind not in "iu":
        raise BadArgumentError(f"argx.testing: {who} indices have dtype {a.dtype}; indices are integers")
    return a.astype(np.int64, copy=False).tobytes()


def _values_bytes(values):
    return None if values is None else _host(values).tobytes()


def compare(actual_indices, x, dim=None, *, op="argmax", keepdim=False, nan="propagate", ties="first", abs=False,
            values=None, reference=None):
    """Compares ``actual_indices`` (and, if given, ``values``: the winning elements, in x's
    dtype or raw bits of its size) with argx's answer for ``x`` under the same options as
    argx.argmax/argmin (``op`` picks which). Returns a Report: true when they agree; str()
    names the first difference. ``reference`` picks argx's backend (default: seq, or cuda
    for GPU arrays)."""
    return _core.compare(x, op, dim, keepdim, nan, ties, abs, _indices_bytes(actual_indices, "actual"),
                         _values_bytes(values), reference)


def assert_same(actual_indices, x, dim=None, **options):
    """compare(), raising AssertionError with the report when the answers differ."""
    report = compare(actual_indices, x, dim, **options)
    if not report:
        raise AssertionError(str(report))
    return report


def compare_answers(expected_indices, actual_indices, x, dim=None, *, op="argmax", keepdim=False, nan="propagate",
                    ties="first", abs=False, expected_values=None, actual_values=None, expected_name="argx",
                    actual_name="actual"):
    """Compares two answers to the same reduction without computing one (for example numpy's
    or torch's against yours); ``expected`` is taken as right. Returns a Report."""
    return _core.compare_answers(x, op, dim, keepdim, nan, ties, abs, _indices_bytes(expected_indices, expected_name),
                                 _values_bytes(expected_values), _indices_bytes(actual_indices, actual_name),
                                 _values_bytes(actual_values), expected_name, actual_name)


def format_element(dtype, bits):
    """An element for people, as the reports print it: format_element("float32", 0x3fc00000)
    is "1.5 [0x3fc00000]"."""
    return _core.format_element(str(dtype), bits)


__all__ = ["Report", "compare", "assert_same", "compare_answers", "format_element"]
