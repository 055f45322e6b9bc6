"""The gaussian_folds generator against its closed forms, and plain (unstratified) folds."""

import numpy as np
import pytest

from cvcompare.simulate.classifiers import ZERO_R
from cvcompare.simulate.cv import paired_cv_binary, stratified_fold_ids
from cvcompare.simulate.gaussian_folds import gaussian_fold_differences
from cvcompare.simulate.generators import bn_data
from cvcompare.simulate.scenario import check_scenario, simulate_comparison


def _scenario(**gen):
    return {"generator": {"name": "gaussian_folds", **gen}, "cv": {"runs": 2, "folds": 5}}


def test_moments_and_correlation_match_the_intraclass_model():
    # q = 20,000 independent data sets of n = 10 differences, mu = 0.02, sigma = 0.03, rho = 0.2
    q, n, mu, sigma, rho = 20_000, 10, 0.02, 0.03, 0.2
    x = gaussian_fold_differences(np.full(q, mu), np.full(q, sigma), n=n, rho=rho, rng=5)
    assert x.shape == (q, n)
    # E[x] = mu: the q data-set means are iid with variance sigma^2 (rho + (1 - rho) / n)
    var_mean = sigma**2 * (rho + (1 - rho) / n)
    assert abs(x.mean() - mu) < 4 * np.sqrt(var_mean / q)
    # Var[x_ij] = sigma^2 (one fold per data set: iid normal, SE of s^2 is sigma^2 sqrt(2/(q-1)))
    assert abs(x[:, 0].var(ddof=1) / sigma**2 - 1) < 4 * np.sqrt(2 / (q - 1))
    # Var of the mean of the n folds: sigma^2 (rho + (1 - rho) / n), same relative SE
    assert abs(x.mean(axis=1).var(ddof=1) / var_mean - 1) < 4 * np.sqrt(2 / (q - 1))
    # Corr between two folds: rho, SE of Pearson's r about (1 - rho^2) / sqrt(q)
    r = np.corrcoef(x[:, 0], x[:, 7])[0, 1]
    assert abs(r - rho) < 4 * (1 - rho**2) / np.sqrt(q)


def test_rho_zero_gives_independent_folds_and_the_scenario_keeps_each_data_set():
    q = 20_000
    x = gaussian_fold_differences(np.zeros(q), np.ones(q), n=3, rho=0.0, rng=1)
    assert abs(np.corrcoef(x[:, 0], x[:, 1])[0, 1]) < 4 / np.sqrt(q)
    means, sds = [0.5, -0.5, 0.0], [0.01, 0.02, 0.3]
    sim = simulate_comparison(_scenario(mean=means, sd=sds, rho=0.0), 3, 2)
    assert sim.diffs.shape == (3, 10)
    np.testing.assert_array_equal(sim.true_delta, means)
    np.testing.assert_array_equal(sim.rho, [0.0] * 3)
    # each row around its own mean: |mean - mu_i| within 5 SE of the 10-fold mean
    assert np.all(np.abs(sim.diffs.mean(axis=1) - means) < 5 * np.array(sds) / np.sqrt(10))
    assert np.isnan(sim.acc_a).all() and np.isnan(sim.n_instances).all()


def test_rho_defaults_to_one_over_k_and_draws_are_reproducible():
    sim = simulate_comparison(_scenario(mean=0.0, sd=0.03), 2, 9)
    np.testing.assert_array_equal(sim.rho, [0.2, 0.2])
    again = simulate_comparison(_scenario(mean=0.0, sd=0.03), 2, 9)
    np.testing.assert_array_equal(sim.diffs, again.diffs)


@pytest.mark.parametrize(
    ("scenario", "message"),
    [
        (_scenario(sd=0.03), "generator.mean: required"),
        (_scenario(mean=[0.0, 0.1], sd=0.03), r"list of q = 3 numbers"),
        (_scenario(mean=0.0, sd=0.0), "generator.sd: expected a positive finite number, got 0.0"),
        (_scenario(mean=0.0, sd=0.03, rho=1.0), r"generator.rho: expected a number in \[0, 1\)"),
        (_scenario(mean=0.0, sd=0.03, rho=True), "generator.rho: expected a number"),
        (_scenario(mean="a", sd=0.03), "generator.mean: expected a finite number, got 'a'"),
        ({**_scenario(mean=0.0, sd=0.03), "n_instances": 50}, "n_instances: not used"),
        (
            {**_scenario(mean=0.0, sd=0.03), "cv": {"runs": 1, "folds": 10, "stratify": False}},
            "cv.stratify: the 'gaussian_folds' generator has no folds",
        ),
        (_scenario(mean=0.0, sd=0.03, theta=1), r"unknown key\(s\) \['theta'\]"),
    ],
)
def test_bad_scenarios_name_the_entry(scenario, message):
    with pytest.raises((ValueError, TypeError), match=message):
        check_scenario(scenario, 3)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"mean": [0.0], "sd": [-1.0, np.nan]}, ValueError, "sd: all values must be finite"),
        ({"mean": [0.0], "sd": [1.0, 1.0]}, ValueError, r"sd: expected one value per data set"),
        ({"mean": [0.0, 0.1], "sd": [1.0, -1.0]}, ValueError, r"sd\[1\]: expected a positive"),
        ({"mean": [0.0], "sd": [0.0]}, ValueError, r"sd\[0\]: expected a positive finite"),
        ({"mean": [np.nan], "sd": [1.0]}, ValueError, "mean: all values must be finite"),
        ({"mean": 0.0, "sd": 1.0}, ValueError, r"mean: expected a 1-D array"),
        ({"mean": [True], "sd": [1.0]}, TypeError, "mean: expected an array of real numbers"),
        ({"mean": [0.0], "sd": ["1"]}, TypeError, "sd: expected an array of real numbers"),
        ({"n": 1}, ValueError, "n: expected an integer >= 2, got 1"),
        ({"n": 10.0}, TypeError, "n: expected an integer, got 10.0"),
        ({"n": True}, TypeError, "n: expected an integer, got True"),
    ],
)
def test_fold_differences_check_every_argument(kwargs, error, message):
    args = {"mean": [0.0, 0.1], "sd": [1.0, 2.0], "n": 10, "rho": 0.1, "rng": 1, **kwargs}
    with pytest.raises(error, match="^" + message):
        gaussian_fold_differences(args.pop("mean"), args.pop("sd"), **args)


def test_numpy_numbers_are_accepted_and_booleans_and_nan_refused_per_data_set():
    scen = _scenario(mean=[np.int64(0), np.float32(0.5), 1], sd=np.int64(2), rho=np.int64(0))
    sim = simulate_comparison(scen, 3, 1)
    np.testing.assert_array_equal(sim.true_delta, [0.0, 0.5, 1.0])
    np.testing.assert_array_equal(sim.rho, [0.0] * 3)
    for bad, error, message in [
        (_scenario(mean=np.bool_(True), sd=0.1), TypeError, "generator.mean: expected a finite"),
        (_scenario(mean=0.0, sd=[0.1, True, 0.1]), TypeError, r"generator.sd\[1\]: expected a"),
        (_scenario(mean=[0.0, np.nan, 0.0], sd=0.1), ValueError, r"generator.mean\[1\]: expected"),
        (_scenario(mean=0.0, sd=np.float64(-0.1)), ValueError, "generator.sd: expected a positive"),
    ]:
        with pytest.raises(error, match="^" + message):
            check_scenario(bad, 3)


def test_plain_folds_ignore_the_class_and_keep_equal_sizes():
    y = np.array([0] * 30 + [1] * 10)
    ids = stratified_fold_ids(y, runs=200, folds=4, rng=3, stratify=False)
    sizes = np.stack([(ids == j).sum(axis=1) for j in range(4)])
    assert (sizes == 10).all()
    ones = np.stack([((ids == j) & (y == 1)).sum(axis=1) for j in range(4)])
    assert ones.min() < 2 and ones.max() > 3  # stratified folds would hold exactly 2.5 +- 0.5
    strat = stratified_fold_ids(y, runs=200, folds=4, rng=3)
    ones = np.stack([((strat == j) & (y == 1)).sum(axis=1) for j in range(4)])
    assert set(np.unique(ones)) <= {2, 3}


def test_zero_r_is_half_right_with_plain_folds_and_more_with_stratified_ones():
    # Balanced population, n = 25: zeroR's stratified CV accuracy is E[max(n0, n1)] / n
    # (about 0.558, exact enumeration in the scenario docstring); with plain folds the
    # training majority is not the test folds' one, and its expected accuracy is 0.5.
    data = bn_data(25, np.full(4000, 0.5), np.random.default_rng(0))
    for stratify in (True, False):
        res = paired_cv_binary(data, ZERO_R, 0, runs=1, folds=10, rng=1, stratify=stratify)
        per_set = res.acc_a.mean(axis=1)
        se = per_set.std(ddof=1) / np.sqrt(per_set.size)
        if stratify:
            assert abs(per_set.mean() - 0.558) < 4 * se + 0.002
        else:
            assert abs(per_set.mean() - 0.5) < 4 * se
