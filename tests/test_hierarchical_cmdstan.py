"""The cmdstanpy runner of cvcompare.hierarchical; runs only where CmdStan is installed."""

from __future__ import annotations

import warnings

import joblib
import numpy as np
import pytest
from reference_hierarchical import h_scenario

from cvcompare.hierarchical import ConvergenceWarning, fit_hierarchical
from cvcompare.hierarchical.runners import cmdstan_available

pytestmark = [
    pytest.mark.cmdstan,
    pytest.mark.skipif(
        not cmdstan_available(),
        reason="CmdStan is not installed (cmdstanpy.cmdstan_path() fails); the native and "
        "PyStan runners are tested in test_hierarchical_stan.py",
    ),
]


def fit(x, seed, runner="cmdstanpy", **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fit_hierarchical(x, rho=0.1, seed=seed, runner=runner, **kwargs)


@pytest.fixture(scope="module")
def x():
    return h_scenario(10, 0.005, np.random.default_rng(40), n=50)


def test_cmdstanpy_fit_is_seeded_and_recorded(x):
    a = fit(x, 1, chains=2, warmup=300, draws=200)
    b = fit(x, 1, chains=2, warmup=300, draws=200)
    assert a.runner == "cmdstanpy"
    np.testing.assert_array_equal(a.delta, b.delta)
    assert a.delta.shape == (400, 10) and np.all(a.nu >= 1)


def _delta0(x, seed):
    return fit(x, seed, chains=2, warmup=300, draws=200).delta0


def test_two_processes_fitting_at_once_do_not_collide(x):
    out = joblib.Parallel(n_jobs=2, backend="loky")(joblib.delayed(_delta0)(x, s) for s in (2, 2))
    np.testing.assert_array_equal(out[0], out[1])
    np.testing.assert_array_equal(out[0], _delta0(x, 2))


def test_cmdstanpy_and_pystan_agree_within_monte_carlo_error(x):
    # posterior means of delta0 from the two runners (4 x 1000 draws each); the Monte Carlo
    # standard error is sd / sqrt(ESS) with ESS >= 400 enforced by the diagnostics
    a = fit(x, 3)
    b = fit(x, 3, runner="pystan")
    assert a.diagnostics.ok and b.diagnostics.ok
    se = np.hypot(a.delta0.std(), b.delta0.std()) / np.sqrt(400)
    assert abs(a.delta0.mean() - b.delta0.mean()) < 4 * se
