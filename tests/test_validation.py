"""Shared input checks name the argument and say what was expected."""

import copy
import pickle
import re

import numpy as np
import pandas as pd
import pytest

from cvcompare._validation import check_array, check_int, check_probability, check_rope, check_scale
from cvcompare.hierarchical import fit_hierarchical
from cvcompare.io import read_csv_scores
from cvcompare.report import compare_learners
from cvcompare.stats import (
    bayesian_correlated_ttest,
    bayesian_sign_test,
    bayesian_signed_rank,
    correlated_ttest,
    dp_signed_rank,
    friedman_test,
    idp_signed_rank,
    nemenyi_test,
    poisson_binomial_test,
)


def test_check_array_reports_nan_position():
    with pytest.raises(ValueError, match=r"x: all values must be finite.*index \(1,\)"):
        check_array([0.1, np.nan, 0.2], "x")


def test_check_array_names_ragged_rows_and_missing_values():
    # NumPy's words ("inhomogeneous shape after 1 dimensions") and a None read as nan
    with pytest.raises(ValueError, match=r"^x: expected rows of equal length \(a rectangular "):
        check_array([[0.1, 0.2], [0.1]], "x", ndim=2)
    with pytest.raises(ValueError, match=r"got rows of lengths 2, 1$"):
        check_array([[0.1, 0.2], [0.1]], "x", ndim=2)
    with pytest.raises(ValueError, match=r"found None \(a missing value\) at index \(1,\)"):
        check_array([0.1, None, 0.2], "x")


def test_check_array_shape_and_size():
    with pytest.raises(ValueError, match="x: expected a 2-D array"):
        check_array([0.1, 0.2], "x", ndim=2, axis_names=("data sets", "folds"))
    with pytest.raises(ValueError, match="x: expected at least 2 folds, got 1"):
        check_array([[0.1]], "x", ndim=2, min_size=2, axis_names=("data sets", "folds"))
    with pytest.raises(TypeError, match="x: expected an array of real numbers"):
        check_array(["a", "b"], "x")
    # the expected shape in words: the axes' names, or nothing (not a tuple of numbers)
    with pytest.raises(ValueError, match=r"^x: expected a 2-D array, got shape \(2,\)$"):
        check_array([0.1, 0.2], "x", ndim=2)
    with pytest.raises(
        ValueError, match=r"^x: expected a non-empty array \(data sets\), got none$"
    ):
        check_array([], "x", min_size=1, axis_names=("data sets",))


def test_check_probability_names_the_interval_it_takes():
    # a half-open interval is stated as such, also when the value is not a number at all
    for bad, error in (("0.1", TypeError), (1.0, ValueError)):
        with pytest.raises(error, match=r"rho: expected a number in \[0, 1\)"):
            check_probability(bad, "rho", open_low=False)
    assert check_probability(0.0, "rho", open_low=False) == 0.0


def test_check_scale_refuses_percent_unless_stated():
    arr = np.array([85.0, 90.0])
    with pytest.raises(ValueError, match="scale='percent'"):
        check_scale(arr, "acc")
    assert np.allclose(check_scale(arr, "acc", scale="percent"), [0.85, 0.90])
    with pytest.raises(ValueError, match="scale"):
        check_scale(arr, "acc", scale="permille")


def test_check_scale_names_raw_for_scores_that_are_not_accuracies():
    # RMSE differences beyond 1 are not percentages: dividing them by 100 while the rope
    # stays in the score's unit would widen the rope a hundredfold, so the message names
    # scale='raw' beside scale='percent'
    with pytest.raises(ValueError, match=r"scale='percent', .* pass scale='raw'$"):
        check_scale(np.array([1.5, -2.0]), "x")


def test_raw_values_beyond_what_their_squares_hold_are_refused(tmp_path):
    # the t-test is unchanged by the unit (t = 2.2528, Eq. (1) on x) from 1e-140 to 1e140 x;
    # at 1e160 x its squared deviations overflowed (statistic 0, p = 1) and at 1e-160 x
    # underflowed: refused instead, naming the argument
    x = np.array([0.01, 0.03, -0.01, 0.02, 0.015, 0.0, 0.025, 0.01, 0.02, 0.005])
    t = x.mean() / np.sqrt(x.var(ddof=1) * (1 / 10 + 0.1 / 0.9))
    for unit in (1e-140, 1.0, 1e140):  # the scores' size given: of a tiny unit too
        res = correlated_ttest(x * unit, rho=0.1, scale="raw", score_size=unit)
        assert res.statistic == pytest.approx(t, rel=1e-12)
    for unit in (1e-160, 1e160):
        with pytest.raises(ValueError, match="x: raw values must be 0 or of magnitude between"):
            correlated_ttest(x * unit, rho=0.1, scale="raw")
    path = tmp_path / "huge.csv"
    pd.DataFrame(
        {
            "learner": ["a"] * 2 + ["b"] * 2,
            "dataset": "d",
            "fold": [0, 1] * 2,
            "score": [1e200, 2e200, 1.0, 2.0],
        }
    ).to_csv(path, index=False)
    with pytest.raises(ValueError, match="column 'score': raw values must be 0 or of magnitude"):
        read_csv_scores(path, scale="raw")
    # scores are held to half the limit: their differences (up to 1.8e150 here) stay within it
    path.write_text(path.read_text().replace("1e+200", "9e+149").replace("2e+200", "-9e+149"))
    with pytest.raises(
        ValueError, match="column 'score': raw values .* and 5e\\+149, .* found 9e\\+149"
    ):
        read_csv_scores(path, scale="raw")


@pytest.mark.parametrize(
    "bad", [0.01, (0.01, -0.01), (0.01, 0.02), (np.inf, 1), "ab", (1, 2, 3), {-0.02, 0.01}]
)
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


# ------------------------------------------------------------------------------------------
# booleans and numeric text are refused by every public function, naming the argument
# ------------------------------------------------------------------------------------------

_X1 = [0.01, 0.02, 0.0, -0.01, 0.03]
_X2 = [[0.01, 0.02, 0.0], [0.0, -0.01, 0.02], [0.03, 0.01, 0.02]]
_SCORES = [[0.8, 0.7, 0.6], [0.9, 0.85, 0.8], [0.7, 0.75, 0.6]]


def _public_calls():
    """(function name, argument name, valid value, call taking that argument)."""
    from cvcompare import io, stats
    from cvcompare.hierarchical import fit_hierarchical
    from cvcompare.plots.cd_diagram import plot_cd_diagram
    from cvcompare.stats.signed_rank import loss_threshold

    return [
        ("correlated_ttest", "x", _X1, lambda v: stats.correlated_ttest(v, rho=0.1)),
        ("correlated_ttest", "rho", 0.1, lambda v: stats.correlated_ttest(_X1, rho=v)),
        (
            "bayesian_correlated_ttest",
            "x",
            _X1,
            lambda v: stats.bayesian_correlated_ttest(v, rho=0.1),
        ),
        (
            "bayesian_correlated_ttest",
            "rope",
            (-0.01, 0.01),
            lambda v: stats.bayesian_correlated_ttest(_X1, rho=0.1, rope=v),
        ),
        ("poisson_binomial_test", "x", _X2, lambda v: stats.poisson_binomial_test(v, rho=0.1)),
        ("poisson_binomial_test", "rho", 0.1, lambda v: stats.poisson_binomial_test(_X2, rho=v)),
        ("poisson_binomial_pmf", "p", [0.2, 0.5], stats.poisson_binomial_pmf),
        ("wilcoxon_test", "x", _X1, stats.wilcoxon_test),
        ("sign_test", "x", _X1, stats.sign_test),
        ("dp_signed_rank", "x", _X1, lambda v: stats.dp_signed_rank(v, n_samples=10, rng=1)),
        ("idp_signed_rank", "x", _X1, lambda v: stats.idp_signed_rank(v, n_samples=10, rng=1)),
        ("idp_signed_rank", "s", 0.5, lambda v: stats.idp_signed_rank(_X1, s=v, rng=1)),
        (
            "bayesian_signed_rank",
            "x",
            _X1,
            lambda v: stats.bayesian_signed_rank(v, n_samples=10, rng=1),
        ),
        (
            "bayesian_signed_rank",
            "prior_strength",
            0.5,
            lambda v: stats.bayesian_signed_rank(_X1, prior_strength=v, rng=1),
        ),
        ("bayesian_sign_test", "x", _X1, lambda v: stats.bayesian_sign_test(v, rng=1)),
        ("holm_adjust", "pvalues", [0.01, 0.04], stats.holm_adjust),
        ("dirichlet_max_probs", "alpha", [1.0, 2.0, 0.5], stats.dirichlet_max_probs),
        ("friedman_test", "scores", _SCORES, stats.friedman_test),
        ("friedman_test", "alpha", 0.05, lambda v: stats.friedman_test(_SCORES, alpha=v)),
        ("nemenyi_test", "scores", _SCORES, stats.nemenyi_test),
        ("nemenyi_q_alpha", "k", 3, stats.nemenyi_q_alpha),
        (
            "critical_difference_cliques",
            "avg_ranks",
            [1.0, 2.5, 2.5],
            lambda v: stats.critical_difference_cliques(v, 1.0),
        ),
        (
            "critical_difference_cliques",
            "cd",
            1.0,
            lambda v: stats.critical_difference_cliques([1.0, 2.0], v),
        ),
        ("posterior_odds", "p_a", 0.6, lambda v: stats.posterior_odds(v, 0.3)),
        ("evidence_grade", "odds", 2.0, stats.evidence_grade),
        ("loss_threshold", "l0", 1.0, loss_threshold),
        ("mean_differences", "x", _X2, io.mean_differences),
        ("fit_hierarchical", "x", _X2, lambda v: fit_hierarchical(v, rho=0.1, seed=1)),
        ("fit_hierarchical", "rho", 0.1, lambda v: fit_hierarchical(_X2, rho=v, seed=1)),
        ("plot_cd_diagram", "avg_ranks", [1.0, 2.0], lambda v: plot_cd_diagram(v, ["a", "b"], 1.0)),
    ]


def _bad_versions(valid):
    """The valid value as booleans, as numeric text, and with one boolean slipped in."""
    arr = np.asarray(valid, dtype=float)
    if arr.ndim == 0:
        return [True, np.bool_(False), str(valid), np.str_(str(valid))]
    mixed = arr.tolist()
    if arr.ndim == 1:
        mixed[-1] = True
    else:
        mixed[-1][-1] = False
    return [arr != 0, (arr != 0).tolist(), arr.astype(str), arr.astype(str).tolist(), mixed]


@pytest.mark.parametrize(
    "function, argument, valid, call",
    _public_calls(),
    ids=[f"{f}-{a}" for f, a, _, _ in _public_calls()],
)
def test_booleans_and_numeric_text_are_refused_naming_the_argument(function, argument, valid, call):
    for bad in _bad_versions(valid):
        with pytest.raises((TypeError, ValueError), match=rf"^{argument}: ") as info:
            call(bad)
        # the message says what was found or expected (not only the argument's name)
        assert re.search(r"boolean|string|\((?:str|bool)_?\)|interval|integer", str(info.value)), (
            function,
            bad,
            str(info.value),
        )


def test_tables_must_be_data_frames_with_the_readers_columns():
    from cvcompare.io import fold_differences, learners, mean_score_matrix, select_learners

    calls = (lambda t: fold_differences(t, "a", "b"), mean_score_matrix, learners, select_learners)
    other = pd.DataFrame({"classifier": ["a"], "dataset": ["d"], "fold": [0], "accuracy": [0.5]})
    for call in calls:
        with pytest.raises(TypeError, match="^table: expected a pandas DataFrame"):
            call(np.zeros((3, 4)))
        with pytest.raises(ValueError, match=r"^table: expected the columns .* \(learner, "):
            call(other)


def test_numbers_of_every_numeric_type_are_still_accepted():
    assert check_array(np.arange(3), "x").tolist() == [0.0, 1.0, 2.0]
    assert check_array([np.float32(0.5), 1, np.int64(2)], "x").tolist() == [0.5, 1.0, 2.0]
    assert check_probability(np.float64(0.05), "alpha") == 0.05
    assert check_rope((np.float32(-0.5), 0)) == (-0.5, 0.0)


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


@pytest.mark.parametrize(
    "bad, error, match",
    [
        (float("nan"), ValueError, "scale: expected a non-negative finite number, got nan"),
        (float("inf"), ValueError, "scale: expected a non-negative finite number, got inf"),
        (-0.5, ValueError, "scale: expected a non-negative finite number, got -0.5"),
        (True, TypeError, "scale: expected a non-negative number, got True"),
        ("0.5", TypeError, "scale: expected a non-negative number, got '0.5'"),
    ],
)
def test_check_non_negative_refuses_nan_inf_negatives_bools_and_strings(bad, error, match):
    from cvcompare._validation import check_non_negative

    with pytest.raises(error, match=re.escape(match)):
        check_non_negative(bad, "scale")


def test_check_non_negative_accepts_zero_and_returns_a_float():
    from cvcompare._validation import check_non_negative

    assert check_non_negative(0, "scale") == 0.0
    assert isinstance(check_non_negative(np.int64(2), "scale"), float)


_ARRAY_CALLS = [c for c in _public_calls() if np.ndim(c[2]) >= 1]


@pytest.mark.parametrize(
    "function, argument, valid, call", _ARRAY_CALLS, ids=[f"{f}-{a}" for f, a, _, _ in _ARRAY_CALLS]
)
def test_complex_and_masked_arrays_are_refused_naming_the_argument(function, argument, valid, call):
    # NumPy would drop the imaginary parts, and the mask, without a word
    bad_versions = [np.asarray(valid, dtype=complex)]
    if np.ndim(valid) == 1:
        bad_versions.append(list(valid[:-1]) + [complex(valid[-1])])
    # a rope is refused as a whole: not an interval of two (real) numbers
    error, found = (
        (ValueError, "expected an interval") if argument == "rope" else (TypeError, "complex")
    )
    for bad in bad_versions:
        with pytest.raises(error, match=rf"^{argument}: .*{found}"):
            call(bad)
    if argument != "rope":
        mask = np.zeros(np.shape(valid), dtype=bool)
        mask.flat[0] = True
        with pytest.raises(ValueError, match=rf"^{argument}: found 1 masked value"):
            call(np.ma.masked_array(valid, mask=mask))
        if np.ndim(valid) == 1:  # pandas' nullable arrays: missing values, not a mask
            nullable = pd.array([None, *valid[1:]], dtype="Float64")
            with pytest.raises(ValueError, match=rf"^{argument}: found 1 missing value"):
                call(nullable)


def test_complex_scalars_are_refused_naming_the_argument():
    from cvcompare.stats import correlated_ttest

    with pytest.raises(TypeError, match=r"^rho: expected a number in \[0, 1\), got np.complex128"):
        correlated_ttest(_X1, rho=np.complex128(0.1))


def test_dates_and_time_spans_are_refused_and_unmasked_arrays_accepted():
    with pytest.raises(
        TypeError, match="^x: expected an array of real numbers, got an array of time"
    ):
        check_array(np.array([1, 2], dtype="m8[s]"), "x")
    with pytest.raises(
        TypeError, match="^x: expected an array of real numbers, got an array of dates"
    ):
        check_array(np.array(["2020-01-01"], dtype="M8[D]"), "x")
    with pytest.raises(
        TypeError, match=r"^x: expected an array of real numbers, found np.timedelta64"
    ):
        check_array([np.timedelta64(1, "s")], "x")
    with pytest.raises(TypeError, match=r"^x: expected a real number, got 1j"):
        check_array(1j, "x")
    assert check_array(np.ma.masked_array([0.1, 0.2]), "x").tolist() == [0.1, 0.2]


@pytest.mark.parametrize(
    "bad",
    [np.array(True), np.array("0.5"), np.array(b"0.5"), np.array(True, dtype=object)],
    ids=["bool", "str", "bytes", "object-bool"],
)
def test_zero_d_arrays_of_booleans_and_strings_are_refused_as_scalars(bad):
    from cvcompare._validation import check_finite, check_non_negative, check_positive, check_real

    with pytest.raises(TypeError, match=r"^x: expected a real number, got array\("):
        check_real(bad, "x")
    for check in (check_positive, check_finite, check_non_negative):
        with pytest.raises(TypeError, match=r"^x: expected a .*number, got array\("):
            check(bad, "x")


def test_zero_d_arrays_and_numpy_scalars_of_real_numbers_are_accepted():
    from cvcompare._validation import check_real

    for good, expected in ((np.array(0.5), 0.5), (np.float64(0.5), 0.5), (np.int64(3), 3.0)):
        assert check_real(good, "x") == expected
    assert check_real(np.array(0.5, dtype=object), "x") == 0.5


@pytest.mark.parametrize(
    "call",
    [
        lambda x: bayesian_correlated_ttest(x[0], rho=0.1, scale="raw"),
        lambda x: bayesian_signed_rank(x.mean(axis=1), scale="raw", rng=1),
        lambda x: bayesian_sign_test(x.mean(axis=1), scale="raw", rng=1),
        lambda x: fit_hierarchical(x, rho=0.1, scale="raw", seed=1),
        lambda x: compare_learners(_table_of(x), scale="raw", hierarchical=False),
    ],
    ids=["correlated-t", "signed-rank", "sign", "hierarchical", "compare_learners"],
)
def test_raw_scores_need_a_rope_in_their_unit(call):
    # the default rope, one point of accuracy, means nothing for squared errors of 1e10
    x = np.random.default_rng(3).normal(1e10, 1e8, (6, 10))
    with pytest.raises(ValueError, match=r"^rope: scale='raw' needs a rope in the score's unit"):
        call(x)


def _table_of(x: np.ndarray) -> pd.DataFrame:
    """A tidy table of two learners whose fold differences are ``x`` (data sets x folds)."""
    rows = [
        (learner, f"d{d}", f, score)
        for d, row in enumerate(x)
        for f, value in enumerate(row)
        for learner, score in (("a", value), ("b", 0.0))
    ]
    return pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])


def test_results_arrays_are_read_only_and_the_callers_arrays_are_not():
    # a frozen result could be changed through its arrays (r.draws[0] = 5 succeeded)
    x = np.linspace(-0.01, 0.03, 12)
    rows = np.vstack([x, x + 0.01, x - 0.005])
    scores = np.array([[0.8, 0.7, 0.6], [0.9, 0.85, 0.7], [0.75, 0.8, 0.6]])
    results = {
        "dp_signed_rank": dp_signed_rank(x, n_samples=100, rng=0),
        "idp_signed_rank": idp_signed_rank(x, n_samples=100, rng=0),
        "bayesian_signed_rank": bayesian_signed_rank(x, n_samples=100, rng=0),
        "bayesian_sign_test": bayesian_sign_test(x, n_samples=100, rng=0),
        "poisson_binomial_test": poisson_binomial_test(rows, rho=0.1),
        "friedman_test": friedman_test(scores),
        "nemenyi_test": nemenyi_test(scores),
    }
    for name, result in results.items():
        arrays = {k: v for k, v in vars(result).items() if isinstance(v, np.ndarray)}
        assert arrays, name
        for field, array in arrays.items():
            with pytest.raises(ValueError, match="read-only"):
                array[0] = 5
            assert not array.flags.writeable, (name, field)
    assert x.flags.writeable and rows.flags.writeable and scores.flags.writeable
    # and so they stay when pickled (as the workflow's results are) or deep-copied
    for result in results.values():
        for copied in (pickle.loads(pickle.dumps(result)), copy.deepcopy(result)):
            arrays = [v for v in vars(copied).values() if isinstance(v, np.ndarray)]
            assert arrays and not any(a.flags.writeable for a in arrays)


def test_flags_of_the_runner_and_the_progress_bar_are_checked_as_bools():
    from cvcompare.hierarchical.runners import NativeRunner

    for name in ("stan_transition", "hand_written_gradient"):
        with pytest.raises(TypeError, match=f"^{name}: expected True or False, got 'no'"):
            NativeRunner(**{name: "no"})
    assert NativeRunner(stan_transition=np.True_).stan_transition is True
    table = pd.DataFrame(
        [(k, "d0", f, 0.8 + 0.01 * f + 0.02 * (k == "a")) for k in "ab" for f in range(10)],
        columns=["learner", "dataset", "fold", "score"],
    )
    compare_learners(table, hierarchical=False, progress=np.False_, n_samples=100)
    with pytest.raises(TypeError, match="^progress: expected True, False or None, got 1"):
        compare_learners(table, hierarchical=False, progress=1, n_samples=100)
