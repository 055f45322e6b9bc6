"""Shared input checks name the argument and say what was expected."""

import numpy as np
import pytest

from cvcompare._validation import check_array, check_int, check_probability, check_rope, check_scale


def test_check_array_reports_nan_position():
    with pytest.raises(ValueError, match=r"x: all values must be finite.*index \(1,\)"):
        check_array([0.1, np.nan, 0.2], "x")


def test_check_array_shape_and_size():
    with pytest.raises(ValueError, match="x: expected a 2-D array"):
        check_array([0.1, 0.2], "x", ndim=2, axis_names=("data sets", "folds"))
    with pytest.raises(ValueError, match="x: expected at least 2 folds, got 1"):
        check_array([[0.1]], "x", ndim=2, min_size=2, axis_names=("data sets", "folds"))
    with pytest.raises(TypeError, match="x: expected an array of real numbers"):
        check_array(["a", "b"], "x")


def test_check_scale_refuses_percent_unless_stated():
    arr = np.array([85.0, 90.0])
    with pytest.raises(ValueError, match="scale='percent'"):
        check_scale(arr, "acc")
    assert np.allclose(check_scale(arr, "acc", scale="percent"), [0.85, 0.90])
    with pytest.raises(ValueError, match="scale"):
        check_scale(arr, "acc", scale="permille")


@pytest.mark.parametrize("bad", [0.01, (0.01, -0.01), (0.01, 0.02), (np.inf, 1), "ab", (1, 2, 3)])
def test_check_rope_refuses_non_intervals(bad):
    with pytest.raises(ValueError, match="rope"):
        check_rope(bad)


def test_check_rope_accepts_intervals():
    assert check_rope((-0.01, 0.01)) == (-0.01, 0.01)
    assert check_rope([0, 0]) == (0.0, 0.0)


def test_check_probability_and_int():
    assert check_probability(0.05, "alpha") == 0.05
    for bad in (0, 1, -0.2, np.nan):
        with pytest.raises(ValueError, match="alpha"):
            check_probability(bad, "alpha")
    assert check_int(3, "k", minimum=2) == 3
    with pytest.raises(ValueError, match="k: expected an integer >= 2"):
        check_int(1, "k", minimum=2)
    with pytest.raises(TypeError, match="k"):
        check_int(2.0, "k")


@pytest.mark.parametrize(
    "bad", [[True, False, True], np.array([True, False]), ["0.1", "0.2"], [0.1, "0.2"], "0.5"]
)
def test_booleans_and_numeric_strings_are_refused(bad):
    with pytest.raises(TypeError, match="x: expected an array of real numbers|x: expected a real"):
        check_array(bad, "x")


def test_scalar_options_refuse_booleans_and_strings():
    from cvcompare._validation import check_positive, check_probability, check_rope

    for bad in ("0.05", True):
        with pytest.raises(TypeError, match="alpha: expected a number in"):
            check_probability(bad, "alpha")
        with pytest.raises(TypeError, match="s: expected a positive number"):
            check_positive(bad, "s")
    with pytest.raises(ValueError, match="rope: expected an interval"):
        check_rope(("-0.01", "0.01"))
