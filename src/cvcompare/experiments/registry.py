"""The tests an experiment file can name, as functions producing flat result rows.

Each entry of :data:`TESTS` maps a name used in ``config/experiments/*.yaml`` to an
adapter ``adapter(sim, settings, rng) -> dict``: it takes one simulated comparison (a
:class:`cvcompare.simulate.scenario.SimulatedComparison`), the test's settings from the
experiment file and a random generator, calls the library and returns the row's columns.
Standard column names are shared by all adapters so that metrics can be declared once:

``statistic``, ``pvalue``
    Frequentist statistic and p-value.
``reject``
    Boolean decision of a test with a significance level (``pvalue < alpha``, or the
    Poisson-binomial rule ``P(X > q/2) > 1 - alpha``).
``p_left``, ``p_rope``, ``p_right``
    Posterior probabilities of the three regions (for the hierarchical model: that each
    region is the most probable one for the next data set, Corani et al. 2017, Sec. 3.2).
``delta0_p_left``, ``delta0_p_rope``, ``delta0_p_right``
    Hierarchical model only: posterior probabilities that the population mean difference
    ``delta0`` lies left of, inside or right of the rope (what the authors' simulation
    code records for Figs. 2-5 of Corani et al. 2017).
``diag_ok``, ``rhat_max``, ``ess_min``, ``divergences``
    Sampler diagnostics of the hierarchical model: all checks passed, the largest R-hat
    and the smallest bulk or tail ESS of the top-level parameters, divergent transitions.
``sq_err_mle``, ``sq_err_shrinkage``
    Mean over data sets of the squared error of the per-data-set mean of the fold
    differences (MLE) and of the hierarchical shrinkage estimate, against the true
    ``delta_i`` (Corani et al. 2017, Sec. 3.3).

Library modules are imported inside the adapters, so that loading an experiment file does
not start a Stan or plotting back end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from cvcompare._validation import check_probability, check_rope

__all__ = ["TESTS", "register"]

Adapter = Callable[[Any, dict[str, Any], np.random.Generator], dict[str, Any]]
TESTS: dict[str, Adapter] = {}


def register(name: str) -> Callable[[Adapter], Adapter]:
    """Register an adapter under ``name`` (a decorator)."""

    def deco(fn: Adapter) -> Adapter:
        if name in TESTS:
            raise ValueError(f"test {name!r} is registered twice")
        TESTS[name] = fn
        return fn

    return deco


def _settings(settings: dict[str, Any], allowed: dict[str, Any], test: str) -> dict[str, Any]:
    unknown = set(settings) - set(allowed)
    if unknown:
        raise ValueError(
            f"test {test!r}: unknown setting(s) {sorted(unknown)}; allowed: {sorted(allowed)}"
        )
    return {**allowed, **settings}


def _on_mean_diffs(
    test: Callable[..., Any], sim: Any, settings: dict[str, Any], name: str
) -> dict[str, Any]:
    """Run a frequentist ``test`` on ``sim.mean_diffs``; settings ``alternative``, ``alpha``."""
    s = _settings(settings, {"alternative": "two-sided", "alpha": 0.05}, name)
    alpha = check_probability(s["alpha"], "alpha")
    res = test(sim.mean_diffs, alternative=s["alternative"])
    return {
        "statistic": float(res.statistic),
        "pvalue": float(res.pvalue),
        "reject": bool(res.pvalue < alpha),
    }


@register("wilcoxon")
def _wilcoxon(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Wilcoxon signed-rank test on the per-data-set mean differences (Demsar 2006).

    Settings: ``alternative`` ("two-sided", "greater", "less"), ``alpha``.
    """
    from cvcompare.stats import wilcoxon_test

    return _on_mean_diffs(wilcoxon_test, sim, settings, "wilcoxon")


@register("sign_test")
def _sign(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Sign test on the per-data-set mean differences. Settings: ``alternative``, ``alpha``."""
    from cvcompare.stats import sign_test

    return _on_mean_diffs(sign_test, sim, settings, "sign_test")


@register("poisson_binomial")
def _poisson(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Poisson-binomial test (Corani & Benavoli 2015, Sec. 3.3) on the fold differences.

    The first learner (``acc_a``) is declared better when ``P(X > q/2) > 1 - alpha``;
    ``rho`` is each data set's ``n_test / n_total``. Settings: ``alpha``, ``method``
    (``"exact"``, or ``"montecarlo"`` with the paper's 100,000 coins drawn from ``rng``).
    """
    from cvcompare.stats import poisson_binomial_test

    s = _settings(settings, {"alpha": 0.05, "method": "exact"}, "poisson_binomial")
    res = poisson_binomial_test(
        sim.diffs,
        rho=sim.rho,
        alpha=s["alpha"],
        method=s["method"],
        rng=rng if s["method"] == "montecarlo" else None,
    )
    return {"prob_majority": float(res.prob_majority), "reject": bool(res.decision)}


@register("bayesian_signed_rank")
def _bsr(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Bayesian signed-rank test on the per-data-set means. Settings: ``rope``, ``n_samples``."""
    from cvcompare.stats import bayesian_signed_rank

    s = _settings(settings, {"rope": (-0.01, 0.01), "n_samples": 50_000}, "bayesian_signed_rank")
    res = bayesian_signed_rank(
        sim.mean_diffs, rope=check_rope(s["rope"]), n_samples=s["n_samples"], rng=rng
    )
    p_left, p_rope, p_right = res.probs()
    return {"p_left": p_left, "p_rope": p_rope, "p_right": p_right}


@register("hierarchical")
def _hierarchical(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Bayesian hierarchical model (Corani et al. 2017, Sec. 3) on the fold differences.

    Settings: ``rope``, ``nu_prior``, ``top_level``, ``runner``, ``chains``, ``warmup``,
    ``draws``, ``adapt_delta``, ``max_treedepth``. The Stan seed is drawn from ``rng``.
    """
    from cvcompare.hierarchical import fit_hierarchical

    s = _settings(
        settings,
        {
            "rope": (-0.01, 0.01),
            "nu_prior": "hyper",
            "top_level": "student",
            "runner": "auto",
            "chains": 4,
            "warmup": 1000,
            "draws": 1000,
            "adapt_delta": 0.8,
            "max_treedepth": 10,
        },
        "hierarchical",
    )
    rho = np.asarray(sim.rho, dtype=float)
    res = fit_hierarchical(
        sim.diffs,
        rho=float(rho[0]) if np.all(rho == rho[0]) else rho,
        rope=check_rope(s["rope"]),
        nu_prior=s["nu_prior"],
        top_level=s["top_level"],
        runner=s["runner"],
        chains=s["chains"],
        warmup=s["warmup"],
        draws=s["draws"],
        adapt_delta=s["adapt_delta"],
        max_treedepth=s["max_treedepth"],
        seed=int(rng.integers(2**31 - 1)),
    )
    p_left, p_rope, p_right = res.probs()
    d0_left, d0_rope, d0_right = res.delta0_probs
    truth = np.asarray(sim.true_delta, dtype=float)
    diag = res.diagnostics
    return {
        "p_left": p_left,
        "p_rope": p_rope,
        "p_right": p_right,
        "delta0_p_left": d0_left,
        "delta0_p_rope": d0_rope,
        "delta0_p_right": d0_right,
        "sq_err_mle": float(np.mean((sim.mean_diffs - truth) ** 2)),
        "sq_err_shrinkage": float(np.mean((np.asarray(res.shrinkage) - truth) ** 2)),
        "diag_ok": bool(diag.ok),
        "rhat_max": max(diag.rhat.values()),
        "ess_min": min(min(diag.ess_bulk.values()), min(diag.ess_tail.values())),
        "divergences": int(diag.divergences),
    }
