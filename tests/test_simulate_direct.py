"""The ``bivariate_normal`` generator (Benavoli et al. 2014, Eq. 10) against closed forms."""

import numpy as np
import pytest

from cvcompare.simulate.scenario import check_scenario, simulate_comparison

W = {
    "generator": {"name": "bivariate_normal", "sd": 0.12, "corr": 0.0},
    "delta": {"distribution": "fixed", "value": 0.03},
}


def _within(n_se: float, estimate: float, truth: float, se: float) -> None:
    assert abs(estimate - truth) < n_se * se, (estimate, truth, se)


@pytest.mark.parametrize(("delta", "sd", "corr"), [(0.03, 0.12, 0.0), (-0.05, 0.2, 0.6)])
def test_differences_have_the_closed_form_mean_and_variance(delta, sd, corr):
    q = 200_000
    scen = {
        "generator": {"name": "bivariate_normal", "sd": sd, "corr": corr},
        "delta": {"distribution": "fixed", "value": delta},
    }
    sim = simulate_comparison(scen, q=q, rng=11)
    z = sim.diffs[:, 0]
    var_z = 2 * sd**2 * (1 - corr)
    # Z ~ N(delta, 2 sd^2 (1 - corr)): the sample mean has se sqrt(var / q), the sample
    # variance of normal data has se var sqrt(2 / (q - 1)); 4 standard errors each
    _within(4, z.mean(), delta, np.sqrt(var_z / q))
    _within(4, z.var(ddof=1), var_z, var_z * np.sqrt(2 / (q - 1)))
    # the margins: X ~ N(0, sd^2), Y ~ N(delta, sd^2), correlation corr (se of r about
    # (1 - corr^2) / sqrt(q))
    x, y = sim.acc_b[:, 0], sim.acc_a[:, 0]
    _within(4, x.mean(), 0.0, sd / np.sqrt(q))
    _within(4, y.mean(), delta, sd / np.sqrt(q))
    _within(4, x.var(ddof=1), sd**2, sd**2 * np.sqrt(2 / (q - 1)))
    _within(4, np.corrcoef(x, y)[0, 1], corr, (1 - corr**2) / np.sqrt(q))


def test_fields_of_a_comparison_without_cross_validation():
    sim = simulate_comparison(W, q=30, rng=1)
    assert sim.diffs.shape == sim.acc_a.shape == sim.acc_b.shape == (30, 1)
    assert np.array_equal(sim.diffs, sim.acc_a - sim.acc_b)
    assert np.array_equal(sim.mean_diffs, sim.diffs[:, 0])
    assert np.all(sim.true_delta == 0.03)
    assert np.all(np.isnan(sim.rho)) and np.all(sim.n_instances == 0)
    assert sim.n_regenerated == 0


def test_same_seed_same_draws_and_the_generator_function_is_used():
    from cvcompare.seeding import as_generator
    from cvcompare.simulate import bivariate_normal_accuracies

    a, b = simulate_comparison(W, q=30, rng=5), simulate_comparison(W, q=30, rng=5)
    assert np.array_equal(a.diffs, b.diffs)
    # a fixed delta draws nothing, so the pairs are those of the library generator
    x, y = bivariate_normal_accuracies(30, 0.03, 0.12, 0.0, as_generator(5))
    assert np.allclose(a.acc_b[:, 0], x) and np.allclose(a.acc_a[:, 0], y)


def test_a_delta_distribution_draws_one_mean_per_data_set():
    scen = dict(W, delta={"distribution": "gaussian", "mean": 0.0, "sd": 0.05})
    sim = simulate_comparison(scen, q=1000, rng=3)
    assert np.unique(sim.true_delta).size == 1000
    # Z_i - delta_i ~ N(0, 2 * 0.12^2)
    resid = sim.diffs[:, 0] - sim.true_delta
    _within(4, resid.var(ddof=1), 2 * 0.12**2, 2 * 0.12**2 * np.sqrt(2 / 999))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"cv": {"runs": 1, "folds": 10}}, "cv: not used by the 'bivariate_normal'"),
        ({"n_instances": 100}, "n_instances: not used"),
        ({"generator": {"name": "bivariate_normal", "sd": 0.0}}, "sd: expected a positive finite"),
        ({"generator": {"name": "bivariate_normal", "corr": 1.0}}, "corr: expected a corr"),
        ({"generator": {"name": "bivariate_normal", "rho": 0.1}}, "unknown key"),
    ],
)
def test_bad_scenarios_are_refused_naming_the_entry(change, message):
    with pytest.raises(ValueError, match=message):
        check_scenario({**W, **change}, 30)


def test_delta_is_required():
    with pytest.raises(ValueError, match="delta: required by the 'bivariate_normal'"):
        check_scenario({"generator": {"name": "bivariate_normal"}}, 30)
