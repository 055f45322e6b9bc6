"""The refit remedy for hierarchical fits failing the sampler diagnostics."""

import warnings

import numpy as np
import pytest

from cvcompare.experiments.registry import TESTS
from cvcompare.hierarchical import ConvergenceWarning
from cvcompare.hierarchical.remedy import fit_with_remedy


def _data(seed=3, q=8, n=100):
    rng = np.random.default_rng(seed)
    return 0.01 + 0.02 * rng.standard_normal((q, 1)) + 0.04 * rng.standard_normal((q, n))


def test_a_first_fit_too_short_for_the_ess_threshold_is_refitted_and_passes():
    # 4 chains x 50 kept draws = 200 draws: the bulk ESS cannot reach 400, so the first fit
    # fails by construction; the refit (x 10: 4 x (500 + 500)) passes on this easy data set.
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)  # the kept fit must not warn
        res, record = fit_with_remedy(
            _data(), rho=0.1, rng=np.random.default_rng(11), chains=4, warmup=50, draws=50,
            refits=1, refit_scale=10.0, refit_adapt_delta=0.95,
        )  # fmt: skip
    assert record.attempts == 2
    assert not record.first_ok
    assert record.remedy.startswith("refit 1 of 1 (warmup 500, draws 500, adapt_delta 0.95)")
    assert "ESS" in record.remedy
    assert res.diagnostics.ok
    assert res.delta0.size == 4 * 500


def test_without_refits_the_failing_fit_is_kept_and_reported():
    with pytest.warns(ConvergenceWarning, match="ESS"):
        res, record = fit_with_remedy(
            _data(), rho=0.1, rng=np.random.default_rng(11), chains=4, warmup=50, draws=50,
            refits=0,
        )  # fmt: skip
    assert (record.attempts, record.first_ok, record.remedy) == (1, False, "")
    assert not res.diagnostics.ok
    assert res.delta0.size == 4 * 50


def test_the_adapter_row_says_whether_and_how_the_fit_was_refitted():
    from cvcompare.simulate.scenario import simulate_comparison

    scenario = {
        "generator": {"name": "nb_features", "theta_star": 0.9},
        "delta": {"distribution": "fixed", "value": 0.02},
        "n_instances": 200,
        "cv": {"runs": 2, "folds": 5},
    }
    sim = simulate_comparison(scenario, 6, np.random.default_rng(5))
    settings = {"chains": 4, "warmup": 50, "draws": 50, "refit_scale": 10.0}
    row = TESTS["hierarchical"](sim, settings, np.random.default_rng(2))
    assert row["attempts"] == 2 and row["refitted"] and not row["diag_ok_first"]
    assert row["diag_ok"] and row["ess_min"] >= 400
    assert "warmup 500, draws 500, adapt_delta 0.95" in row["remedy"]
    # a fit that passes at once keeps the first attempt and says so
    row = TESTS["hierarchical"](
        sim, {"chains": 4, "warmup": 500, "draws": 500}, np.random.default_rng(2)
    )
    assert (row["attempts"], row["refitted"], row["remedy"]) == (1, False, "")
    assert row["diag_ok_first"] == row["diag_ok"]


def test_each_refit_takes_the_next_target_acceptance_rate_and_the_last_serves_beyond(
    monkeypatch,
):
    # attempts recorded by a stand-in for the sampler whose fits always fail: 0.95 then 0.99
    # (the last one for the third refit), warm-up and draws doubled each time; one number
    # serves every refit; never below the first fit's own rate
    from types import SimpleNamespace

    from cvcompare.hierarchical import remedy

    def runs(**options):
        seen = []

        def failing(x, *, seed, **settings):
            seen.append((settings["adapt_delta"], settings["warmup"], settings["draws"]))
            diagnostics = SimpleNamespace(ok=False, problems=("1 divergent transition(s)",))
            return SimpleNamespace(diagnostics=diagnostics)

        monkeypatch.setattr(remedy, "fit_hierarchical", failing)
        _, record = fit_with_remedy(
            _data(), rho=0.1, rng=np.random.default_rng(1), warmup=10, draws=10,
            adapt_delta=0.8, **options,
        )  # fmt: skip
        return seen, record

    seen, record = runs(refits=3, refit_adapt_delta=(0.95, 0.99))
    assert seen == [(0.8, 10, 10), (0.95, 20, 20), (0.99, 40, 40), (0.99, 80, 80)]
    assert record.remedy.startswith("refit 3 of 3 (warmup 80, draws 80, adapt_delta 0.99)")
    seen, _ = runs(refits=2, refit_adapt_delta=0.9)
    assert [a for a, _, _ in seen] == [0.8, 0.9, 0.9]
    seen, _ = runs(refits=1, refit_adapt_delta=[0.5])  # below the first fit's 0.8: kept
    assert [a for a, _, _ in seen] == [0.8, 0.8]
    seen, _ = runs(refits=2, refit_adapt_delta=np.array([0.9, 0.97]))  # an array too
    assert [a for a, _, _ in seen] == [0.8, 0.9, 0.97]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"refit_scale": 0.5}, "refit_scale: expected a number >= 1"),
        ({"refits": -1}, "refits"),
        ({"refit_adapt_delta": 1.5}, "refit_adapt_delta"),
        ({"refit_adapt_delta": (0.95, 1.0)}, r"refit_adapt_delta\[1\]"),
        (
            {"refit_adapt_delta": ()},
            "refit_adapt_delta: expected a number in \\(0, 1\\) or one per",
        ),
        ({"seed": 3}, "'seed' is drawn from rng"),
    ],
)
def test_bad_remedy_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        fit_with_remedy(_data(), rho=0.1, rng=np.random.default_rng(1), **kwargs)


@pytest.mark.parametrize("value", [True, "2", None])
def test_refit_scale_that_is_not_a_number_is_refused(value):
    """A bool or a string is not taken for a number (as an experiment file's setting is
    checked): no fit runs with refit_scale True or '2'."""
    with pytest.raises(TypeError, match=r"refit_scale: expected a number >= 1, got"):
        fit_with_remedy(_data(), rho=0.1, rng=np.random.default_rng(1), refit_scale=value)
