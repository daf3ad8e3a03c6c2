"""argx.testing: the report names the first difference exactly as <argx/testing.hpp> does."""

import numpy as np
import pytest

import argx
import argx.testing as at

X = np.array([[1, 7, 7, 2], [0, np.nan, 3, 3]], np.float32)


def test_first_difference_as_the_cpp_api_reports_it():
    r = at.compare(np.array([2, 2]), X, dim=1)  # last of the ties, NaN missed
    assert not r and r.differing == 2 and r.outputs == 2 and r.output == 0 and r.position == (0,)
    assert (r.expected_index, r.actual_index) == (1, 2)
    assert r.expected_element == (0, 1) and r.actual_element == (0, 2)
    assert str(r) == ("argx::testing: 2 of 2 outputs differ (indices); first at output (0): "
                      "argx index 1 (x[0, 1]), actual index 2 (x[0, 2])")
    assert at.compare(np.array([1, 1]), X, dim=1)
    assert str(at.compare([1, 1], X, dim=1)) == "argx::testing: all 2 outputs agree (indices)"


def test_assert_same_raises_assertion_error_with_the_report():
    at.assert_same(np.array([1, 1], np.int32), X, dim=1)
    with pytest.raises(AssertionError, match=r"first at output \(1\): argx index 1 \(x\[1, 1\]\), actual index 3"):
        at.assert_same(np.array([1, 3]), X, dim=1)
    at.assert_same(np.array([0, 0]), X, dim=1, op="argmin", nan="ignore", ties="last")
    at.assert_same(np.array([2, 3]), X, dim=1, nan="ignore", ties="last")


def test_values_are_compared_bit_for_bit():
    x = np.array([[-0.0, 0.0, -1.0]], np.float32)
    i, v = argx.argmax(x, 1, values=True)
    assert at.compare(i, x, dim=1, values=v)
    r = at.compare(i, x, dim=1, values=np.array([0.0], np.float32))  # +0 is not -0
    assert not r and r.values_compared and r.value_type == "float32"
    assert (r.expected_bits, r.actual_bits) == (0x80000000, 0)
    assert str(r).endswith("argx index 0 (x[0, 0] = -0 [0x80000000]), actual index 0 (x[0, 0] = 0 [0x00000000])")


def test_multi_dim_keepdim_and_all_nan_positions():
    t = np.full((2, 3, 2), np.nan)
    t[1, 2, 0] = 5
    want = argx.argmax(t, (0, 2), nan="ignore", keepdim=True)
    assert at.compare(want, t, dim=(0, 2), nan="ignore", keepdim=True)
    bad = want.copy()
    bad[0, 0, 0] = 3
    r = at.compare(bad, t, dim=(0, 2), nan="ignore", keepdim=True)
    assert r.position == (0, 0, 0) and r.expected_index == -1 and r.expected_element == ()
    assert r.actual_element == (1, 0, 1)


def test_wrong_sizes_are_a_problem_not_a_crash():
    r = at.compare(np.array([1, 1, 1]), X, dim=1)
    assert not r and r.problem == "actual has 3 indices but the output shape (2) needs 2"
    assert str(r) == "argx::testing: " + r.problem


def test_compare_answers_and_format_element():
    r = at.compare_answers(np.argmax(X, 1), np.array([1, 2]), X, dim=1, expected_name="numpy", actual_name="mine")
    assert str(r).startswith("argx::testing: 1 of 2 outputs differ (indices); first at output (1): numpy index 1")
    assert at.format_element("float32", 0x3FC00000) == "1.5 [0x3fc00000]"
    assert at.format_element(np.dtype(np.int8), 0xFF) == "-1 [0xff]"


def test_inputs_argx_refuses_raise_the_same_error():
    with pytest.raises(argx.BadDimError):
        at.compare(np.array([0]), X, dim=5)
    with pytest.raises(argx.EmptyReductionError):
        at.compare(np.array([], np.int64), np.zeros((0,)), dim=0)
    with pytest.raises(argx.BadArgumentError):
        at.compare(np.array([0.5, 1.0]), X, dim=1)  # indices must be integers


def test_reference_backend_can_be_chosen():
    assert at.compare(np.array([1, 1]), X, dim=1, reference="tbb" if argx.available("tbb") else "par")
