"""Data generators: the sampled laws match their parameters; bad input is refused."""

import re

import numpy as np
import pytest

from cvcompare.simulate.generators import (
    BinaryData,
    bivariate_normal_accuracies,
    bn_data,
    nb_features_data,
)


def _se(p, n):
    return np.sqrt(p * (1 - p) / n)


def test_nb_features_agreement_rates():
    delta = np.array([0.0, 0.05, -0.1, 0.3])
    data = nb_features_data(20_000, delta, rng=1, theta_star=0.9)
    n = data.y.shape[1]
    assert data.y.shape == (4, n) and data.features.shape == (4, 2, n)
    agree = (data.features == data.y[:, None, :]).mean(axis=2)
    expected = np.column_stack([np.full(4, 0.9), 0.9 - delta])
    # each rate is a binomial proportion of n instances: 4 standard errors
    assert np.all(np.abs(agree - expected) < 4 * _se(expected, n) + 1e-12)
    assert np.all(np.abs(data.y.mean(axis=1) - 0.5) < 4 * _se(0.5, n))


def test_nb_features_are_conditionally_independent():
    # P(F = C and G = C) = theta_f * theta_g when F and G are independent given C
    data = nb_features_data(200_000, np.array([0.1]), rng=2)
    both = np.mean((data.features[0, 0] == data.y[0]) & (data.features[0, 1] == data.y[0]))
    p = 0.9 * 0.8
    assert abs(both - p) < 4 * _se(p, 200_000)


def test_bn_agreement_rate_and_null_case():
    data = bn_data(50_000, np.array([0.5, 0.6, 1.0]), rng=3)
    agree = (data.features[:, 0] == data.y).mean(axis=1)
    assert abs(agree[0] - 0.5) < 4 * _se(0.5, 50_000)
    assert abs(agree[1] - 0.6) < 4 * _se(0.6, 50_000)
    assert agree[2] == 1.0


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n": -5}, "n: expected an integer >= 2"),
        ({"n": 10.0}, "n: expected an integer"),
        ({"theta_star": 0.5}, r"theta_star: expected a number in \(0.5, 1\]"),
        ({"theta_star": 1.01}, r"theta_star: expected a number in \(0.5, 1\]"),
        ({"delta": [0.4]}, r"delta: theta_star - delta must lie in \(0.5, 1\]"),
        ({"delta": [-0.2]}, r"delta: theta_star - delta must lie in \(0.5, 1\]"),
        ({"delta": [np.nan]}, "delta: all values must be finite"),
    ],
)
def test_nb_features_bad_input(kwargs, match):
    args = {"n": 100, "delta": [0.01], "theta_star": 0.9} | kwargs
    with pytest.raises((ValueError, TypeError), match=match):
        nb_features_data(args["n"], args["delta"], rng=1, theta_star=args["theta_star"])


def test_nb_features_accepts_the_boundary_theta_g_one():
    data = nb_features_data(50, [-0.1], rng=1, theta_star=0.9)
    assert np.array_equal(data.features[0, 1], data.y[0])


@pytest.mark.parametrize("theta", [0.49, 1.2])
def test_bn_bad_theta(theta):
    with pytest.raises(ValueError, match=r"theta: expected values in \[0.5, 1\]"):
        bn_data(10, [theta], rng=1)


def test_bivariate_normal_moments():
    n = 200_000
    x, y = bivariate_normal_accuracies(n, 0.05, 0.12, 0.6, rng=4)
    assert abs(x.mean()) < 4 * 0.12 / np.sqrt(n)
    assert abs(y.mean() - 0.05) < 4 * 0.12 / np.sqrt(n)
    assert abs(x.std() - 0.12) < 4 * 0.12 / np.sqrt(2 * n)
    assert abs(y.std() - 0.12) < 4 * 0.12 / np.sqrt(2 * n)
    # SE of a sample correlation ~ (1 - r^2) / sqrt(n)
    assert abs(np.corrcoef(x, y)[0, 1] - 0.6) < 4 * (1 - 0.36) / np.sqrt(n)


@pytest.mark.parametrize(
    "args, match",
    [
        ((0, 0.0, 0.12, 0.0), "n: expected an integer >= 1"),
        ((30, 0.0, 0.0, 0.0), "sd: expected a positive finite number, got 0.0"),
        ((30, 0.0, 0.12, 1.0), r"corr: expected a correlation in \(-1, 1\)"),
        ((30, np.inf, 0.12, 0.0), "delta: all values must be finite"),
    ],
)
def test_bivariate_normal_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        bivariate_normal_accuracies(*args, rng=1)


def test_generators_are_reproducible():
    a = nb_features_data(30, [0.01, 0.02], rng=7)
    b = nb_features_data(30, [0.01, 0.02], rng=7)
    assert np.array_equal(a.y, b.y) and np.array_equal(a.features, b.features)
    assert np.array_equal(
        bivariate_normal_accuracies(5, 0.0, 0.1, 0.0, rng=3)[1],
        bivariate_normal_accuracies(5, 0.0, 0.1, 0.0, rng=3)[1],
    )


@pytest.mark.parametrize(
    "y, features, match",
    [
        # a label 2 would index the (class, feature) table of the next fold
        ([[0, 1, 2, 1]], [[[0, 1, 1, 0]]], r"y: expected binary values in \{0, 1\}"),
        ([[0, 1, 1, 0]], [[[0, -1, 1, 0]]], r"features: expected binary values"),
        ([[0.0, 1.0, 1.0, 0.0]], [[[0, 1, 1, 0]]], "y: expected a .q, n. array of integer"),
        ([[0, 1, 1, 0]], [[[0, 1, 1]]], "features: expected shape"),
        ([[0, 1, 1, 0]], [[[0.0, 1.0, 1.0, 0.0]]], "features: expected integer values"),
    ],
)
def test_binary_data_refuses_non_binary_input(y, features, match):
    with pytest.raises(ValueError, match=match):
        BinaryData(y=np.array(y), features=np.array(features))


@pytest.mark.parametrize("bad", [True, "0.9", np.array(True)])
def test_theta_star_refuses_booleans_and_strings_naming_it(bad):
    from cvcompare.simulate.generators import check_theta_star

    with pytest.raises(TypeError, match=r"^theta_star: expected a number in \(0.5, 1\], got"):
        check_theta_star(bad)
    with pytest.raises(TypeError, match="^theta_star: expected a number"):
        nb_features_data(30, [0.01], rng=1, theta_star=bad)


def test_theta_star_accepts_numpy_numbers_and_refuses_nan():
    from cvcompare.simulate.generators import check_theta_star

    assert check_theta_star(np.float64(0.9)) == 0.9 and check_theta_star(np.int64(1)) == 1.0
    with pytest.raises(ValueError, match=r"^theta_star: expected a number in \(0.5, 1\], got nan"):
        check_theta_star(float("nan"))


@pytest.mark.parametrize(
    "sd, error, match",
    [
        (-0.1, ValueError, "sd: expected a positive finite number, got -0.1"),
        (float("nan"), ValueError, "sd: expected a positive finite number, got nan"),
        (float("inf"), ValueError, "sd: expected a positive finite number, got inf"),
        (True, TypeError, "sd: expected a positive number, got True"),
        ("0.12", TypeError, "sd: expected a positive number, got '0.12'"),
        ([0.12], TypeError, "sd: expected a positive number, got [0.12]"),
    ],
)
def test_bivariate_normal_sd_is_checked_with_the_shared_wording(sd, error, match):
    from cvcompare.simulate.generators import check_bivariate_normal

    with pytest.raises(error, match="^" + re.escape(match)):
        check_bivariate_normal(sd, 0.0)
    assert check_bivariate_normal(np.float64(0.12), 0.0) == (0.12, 0.0)
