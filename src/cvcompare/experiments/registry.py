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
``true_mean``, ``true_share_left``, ``true_share_rope``, ``true_share_right``
    The ``true_delta_summary`` pseudo-test: the mean of the data sets' true differences
    and the shares of them left of, inside and right of a rope (what the generator
    knows, e.g. the ground truth of the Friedman settings, Corani et al. 2017, Sec. 4.7).
``attempts``, ``refitted``, ``diag_ok_first``, ``remedy``
    Hierarchical model only: how the kept fit was obtained. A fit failing the diagnostics
    is refitted with longer warm-up, more draws and a higher ``adapt_delta``
    (:func:`cvcompare.hierarchical.remedy.fit_with_remedy`); the row keeps the last fit,
    the number of fits run, whether the first passed and the settings of the refit.
``sq_err_mle``, ``sq_err_shrinkage``
    Mean over data sets of the squared error of the per-data-set mean of the fold
    differences (MLE) and of the hierarchical shrinkage estimate, against the true
    ``delta_i`` (Corani et al. 2017, Sec. 3.3).
``decision``, ``prefer_y``, ``error``, ``loss``
    A decision by the loss ``l0`` (type II), ``l1`` (type I) of Benavoli et al. (2014),
    Sec. 3-4 (:func:`loss_columns`); ``prob_greater`` (Dp(s -> 0)), ``lower_prob``,
    ``upper_prob``, ``indeterminate``, ``determinate`` (IDP) beside it.

Every adapter is registered with its settings and their defaults and with the result
columns it writes, so that an experiment file is checked completely when it is loaded
(:meth:`cvcompare.experiments.spec.ExperimentSpec.from_mapping`): a misspelled setting or a
metric over a column the test does not produce is refused before any job runs. Library
modules are imported inside the adapters, so that loading an experiment file does not start
a Stan or plotting back end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cvcompare._validation import (
    DEFAULT_ROPE,
    check_choice,
    check_fraction_rope,
    check_int,
    check_positive,
    check_probability,
    check_rho,
    check_test_size,
)
from cvcompare.hierarchical.fit import NU_PRIORS, TOP_LEVELS
from cvcompare.hierarchical.remedy import check_refit_scale
from cvcompare.hierarchical.runners import RUNNERS
from cvcompare.stats._results import region_counts
from cvcompare.stats.signed_rank import IDP_DEFAULT_S, loss_threshold

__all__ = [
    "BOOLEAN_COLUMNS",
    "COMMON_COLUMNS",
    "NON_NEGATIVE_COLUMNS",
    "TESTS",
    "RegisteredTest",
    "check_settings",
    "loss_columns",
    "register",
]

#: Columns of every result row, whatever the test
#: (:func:`cvcompare.experiments.run.run_replication`).
COMMON_COLUMNS = frozenset(
    {
        "experiment",
        "point",
        "replication",
        "root_seed",
        "q",
        "test",
        "mean_true_delta",
        "n_regenerated",
        "seconds",
        "cpu_seconds",
        "simulation_cpu_seconds",
        "cvcompare_version",
    }
)

#: Columns of decisions (True or False in every row a test writes them; ``error`` is
#: None where the IDP test is indeterminate): the only columns a metric of kind ``rate`` or
#: ``replicability`` or a ``given`` condition can read.
BOOLEAN_COLUMNS = frozenset(
    {"reject", "diag_ok", "refitted", "diag_ok_first", "prefer_y", "error", "indeterminate",
     "determinate"}
)  # fmt: skip

Adapter = Callable[[Any, dict[str, Any], np.random.Generator], dict[str, Any]]


@dataclass(frozen=True)
class RegisteredTest:
    """A test an experiment file can name.

    Attributes
    ----------
    adapter : callable
        ``adapter(sim, settings, rng) -> dict`` of result columns; ``settings`` arrive
        complete (defaults filled in by :func:`check_settings`).
    title : str
        What the test is, in words (the key under an experiment's table).
    defaults : mapping
        Every setting the test accepts, with its default.
    columns : frozenset of str
        The result columns the adapter writes.
    single_data_set : bool
        The test compares two learners on one data set: the scenario must have ``q = 1``.
    checks : mapping
        Checks of settings whose values this test restricts further than
        :data:`SETTING_CHECKS` does (e.g. the Poisson-binomial test's size below 1/2).
    nullable : frozenset of str
        Columns left empty in some rows (e.g. the IDP test's ``error`` where it is
        indeterminate): a metric reads them only with a ``given`` condition.
    """

    adapter: Adapter
    title: str
    defaults: Mapping[str, Any]
    columns: frozenset[str]
    single_data_set: bool = False
    checks: Mapping[str, Callable[[Any, str], Any]] = field(default_factory=dict)
    nullable: frozenset[str] = frozenset()

    def check(self, settings: Mapping[str, Any], what: str = "test") -> dict[str, Any]:
        """The settings checked, name and value (the test's own ``checks``, else
        :data:`SETTING_CHECKS`), with the defaults filled in and each value in the form the
        adapter takes (e.g. a rope as a tuple)."""
        full = check_settings(self, settings, what)
        checks = {**SETTING_CHECKS, **self.checks}
        try:
            return {key: checks[key](value, key) for key, value in full.items()}
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{what}: {exc}") from None

    def __call__(
        self, sim: Any, settings: Mapping[str, Any], rng: np.random.Generator
    ) -> dict[str, Any]:
        """Run the adapter with the settings checked and completed."""
        return self.adapter(sim, self.check(settings), rng)


TESTS: dict[str, RegisteredTest] = {}


def register(
    name: str,
    *,
    title: str,
    defaults: Mapping[str, Any],
    columns: set[str] | frozenset[str],
    single_data_set: bool = False,
    checks: Mapping[str, Callable[[Any, str], Any]] | None = None,
    nullable: set[str] | frozenset[str] = frozenset(),
) -> Callable[[Adapter], Adapter]:
    """Register an adapter in :data:`TESTS`, so that experiment files can name it.

    Parameters
    ----------
    name : str
        The name experiment files give the test (``test:``); registered once only.
    title : str
        What the test is, in words (the key under an experiment's table).
    defaults : mapping
        Every setting the test accepts, with its default; each name must be checked by
        :data:`SETTING_CHECKS` or by ``checks``.
    columns : set of str
        The result columns the adapter writes.
    single_data_set : bool, default False
        The test compares two learners on one data set (the scenario must have ``q = 1``).
    checks : mapping of str to callable, optional
        ``check(value, name)`` of settings whose values this test restricts further than
        :data:`SETTING_CHECKS` does; it returns the value in the form the adapter takes.
    nullable : set of str, optional
        Columns left empty in some rows; a metric reads them only with a ``given``
        condition.

    Returns
    -------
    callable
        A decorator that registers ``adapter(sim, settings, rng) -> dict`` as a
        :class:`RegisteredTest` and returns it unchanged.

    Raises
    ------
    ValueError
        If a setting of ``defaults`` has no check, or (when decorating) ``name`` is
        registered already.
    """
    checks = dict(checks or {})
    unchecked = set(defaults) - set(SETTING_CHECKS) - set(checks)
    if unchecked:
        raise ValueError(f"test {name!r}: no check for the setting(s) {sorted(unchecked)}")

    def deco(fn: Adapter) -> Adapter:
        if name in TESTS:
            raise ValueError(f"test {name!r} is registered twice")
        TESTS[name] = RegisteredTest(
            fn, title, dict(defaults), frozenset(columns), single_data_set, checks,
            frozenset(nullable),
        )  # fmt: skip
        return fn

    return deco


def check_settings(
    entry: RegisteredTest | Any, settings: Mapping[str, Any], what: str
) -> dict[str, Any]:
    """Refuse settings an entry does not accept; return them with the defaults filled in.

    Parameters
    ----------
    entry : object
        Anything with a ``defaults`` mapping (a registered test or analysis).
    settings : mapping
        The settings of an experiment file.
    what : str
        Names the entry in the message (e.g. ``"test 'hierarchical'"``).
    """
    unknown = set(settings) - set(entry.defaults)
    if unknown:
        raise ValueError(
            f"{what}: unknown setting(s) {sorted(unknown)}; allowed: {sorted(entry.defaults)}"
        )
    return {**entry.defaults, **settings}


def _one_of(*choices: str) -> Callable[[Any, str], str]:
    return lambda value, name: check_choice(value, name, choices)


def _integer(minimum: int) -> Callable[[Any, str], int]:
    return lambda value, name: check_int(value, name, minimum=minimum)


def _heuristic_or_rho(value: Any, name: str) -> str | float:
    """``"heuristic"`` (each data set's own rho) or a fixed rho in [0, 1)."""
    if value == "heuristic":
        return value
    if isinstance(value, str):
        raise TypeError(f"{name}: expected 'heuristic' or a number in [0, 1), got {value!r}")
    return check_rho(value, name=name)


#: How the value of each test setting is checked, by setting name, when an experiment file
#: is loaded and again before a test runs: ``check(value, name)`` returns the value in the
#: form the adapter takes, or raises naming the setting. These are the checks of the
#: library functions the settings are passed to, so a dry run refuses what a job would.
SETTING_CHECKS: dict[str, Callable[[Any, str], Any]] = {
    "alternative": _one_of("two-sided", "greater", "less"),
    "alpha": check_probability,
    "method": _one_of("exact", "montecarlo"),
    "rho": _heuristic_or_rho,
    "rope": check_fraction_rope,
    "n_samples": _integer(1),
    "l0": check_positive,
    "l1": check_positive,
    "s": check_positive,
    "nu_prior": _one_of(*NU_PRIORS),
    "top_level": _one_of(*TOP_LEVELS),
    "runner": _one_of(*RUNNERS),
    "chains": _integer(1),
    "warmup": _integer(1),
    "draws": _integer(4),
    "adapt_delta": check_probability,
    "max_treedepth": _integer(1),
    "refits": _integer(0),
    "refit_scale": check_refit_scale,
    "refit_adapt_delta": check_probability,
}

_FREQUENTIST = {"alternative": "two-sided", "alpha": 0.05}
_FREQUENTIST_COLUMNS = {"statistic", "pvalue", "reject"}


def _frequentist_row(res: Any, alpha: float) -> dict[str, Any]:
    """The columns of a frequentist result: statistic, p-value, ``reject = pvalue < alpha``."""
    return {
        "statistic": float(res.statistic),
        "pvalue": float(res.pvalue),
        "reject": bool(res.pvalue < alpha),
    }


def _on_mean_diffs(test: Callable[..., Any], sim: Any, s: dict[str, Any]) -> dict[str, Any]:
    """Run a frequentist ``test`` on ``sim.mean_diffs``; settings ``alternative``, ``alpha``."""
    return _frequentist_row(test(sim.mean_diffs, alternative=s["alternative"]), s["alpha"])


@register(
    "wilcoxon",
    title="Wilcoxon signed-rank test",
    defaults=_FREQUENTIST,
    columns=_FREQUENTIST_COLUMNS,
)
def _wilcoxon(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Wilcoxon signed-rank test on the per-data-set mean differences (Demsar 2006).

    Settings: ``alternative`` ("two-sided", "greater", "less"), ``alpha``.
    """
    from cvcompare.stats import wilcoxon_test

    return _on_mean_diffs(wilcoxon_test, sim, settings)


@register("sign_test", title="sign test", defaults=_FREQUENTIST, columns=_FREQUENTIST_COLUMNS)
def _sign(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Sign test on the per-data-set mean differences. Settings: ``alternative``, ``alpha``."""
    from cvcompare.stats import sign_test

    return _on_mean_diffs(sign_test, sim, settings)


@register(
    "poisson_binomial",
    title="Poisson-binomial test",
    defaults={"alpha": 0.05, "method": "exact"},
    columns={"prob_majority", "reject"},
    checks={"alpha": check_test_size},
)
def _poisson(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Poisson-binomial test (Corani & Benavoli 2015, Sec. 3.3) on the fold differences.

    The first learner (``acc_a``) is declared better when ``P(X > q/2) > 1 - alpha``;
    ``rho`` is each data set's ``n_test / n_total``. Settings: ``alpha``, ``method``
    (``"exact"``, or ``"montecarlo"`` with the paper's 100,000 coins drawn from ``rng``).
    It asks whether the first learner wins a majority of the ``q`` data sets at hand:
    where the folds resolve each data set's difference it rejects whenever the first
    learner wins most of them, whatever the mean difference (with wins as likely as losses,
    0.41 of the time at ``q = 20``; see :func:`~cvcompare.stats.poisson_binomial_test`).
    """
    from cvcompare.stats import poisson_binomial_test

    res = poisson_binomial_test(
        sim.diffs,
        rho=sim.rho,
        alpha=settings["alpha"],
        method=settings["method"],
        rng=rng if settings["method"] == "montecarlo" else None,
    )
    return {"prob_majority": float(res.prob_majority), "reject": bool(res.decision)}


@register(
    "correlated_ttest",
    title="correlated t-test",
    defaults={**_FREQUENTIST, "rho": "heuristic"},
    columns=_FREQUENTIST_COLUMNS,
    single_data_set=True,
)
def _correlated_t(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Correlated t-test (Nadeau & Bengio 2003; Corani & Benavoli 2015, Eq. 1) on one data set.

    A single-data-set test: the scenario must have ``q = 1``; it tests the ``m k`` fold
    differences. Settings: ``alternative``, ``alpha`` and ``rho``: ``"heuristic"`` uses
    the data set's ``rho`` (``n_test / n_total``, or the generating correlation of the
    ``gaussian_folds`` generator); a number fixes it, ``0`` giving the naive paired t-test
    that treats the folds as independent (the test the correlated one corrects).
    """
    from cvcompare.stats import correlated_ttest

    diffs = np.asarray(sim.diffs)
    if diffs.shape[0] != 1:
        raise ValueError(
            f"correlated_ttest: a single-data-set test; expected a scenario with q = 1, "
            f"got q = {diffs.shape[0]}"
        )
    rho = settings["rho"]
    if rho == "heuristic":
        rho = float(np.asarray(sim.rho)[0])
    res = correlated_ttest(diffs[0], rho=rho, alternative=settings["alternative"])
    return _frequentist_row(res, settings["alpha"])


@register(
    "bayesian_signed_rank",
    title="Bayesian signed-rank test",
    defaults={"rope": DEFAULT_ROPE, "n_samples": 50_000},
    columns={"p_left", "p_rope", "p_right"},
)
def _bsr(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Bayesian signed-rank test on the per-data-set means. Settings: ``rope``, ``n_samples``."""
    from cvcompare.stats import bayesian_signed_rank

    res = bayesian_signed_rank(
        sim.mean_diffs,
        rope=settings["rope"],
        n_samples=settings["n_samples"],
        rng=rng,
    )
    p_left, p_rope, p_right = res.probs()
    return {"p_left": p_left, "p_rope": p_rope, "p_right": p_right}


@register(
    "true_delta_summary",
    title="the true differences (not a test)",
    defaults={"rope": DEFAULT_ROPE},
    columns={"true_mean", "true_share_left", "true_share_rope", "true_share_right"},
)
def _truth(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Summary of the true differences of the replication's data sets (not a test).

    Settings: ``rope``. A difference on a rope bound counts as inside the rope.
    """
    delta = np.asarray(sim.true_delta, dtype=float)
    left, rope, right = region_counts(delta, settings["rope"]) / delta.size
    return {
        "true_mean": float(delta.mean()),
        "true_share_left": float(left),
        "true_share_rope": float(rope),
        "true_share_right": float(right),
    }


#: Settings of the hierarchical model in experiment files (keyword arguments of
#: :func:`cvcompare.hierarchical.fit_hierarchical`).
HIERARCHICAL_DEFAULTS = {
    "rope": DEFAULT_ROPE,
    "nu_prior": "hyper",
    "top_level": "student",
    "runner": "auto",
    "chains": 4,
    "warmup": 1000,
    "draws": 1000,
    "adapt_delta": 0.8,
    "max_treedepth": 10,
    "refits": 1,
    "refit_scale": 2.0,
    "refit_adapt_delta": 0.95,
}
#: Sampler-health columns of every hierarchical row.
DIAGNOSTIC_COLUMNS = {
    "diag_ok",
    "rhat_max",
    "ess_min",
    "divergences",
    "runner",
    "runner_version",
}
#: How a simulated hierarchical fit was obtained (:func:`cvcompare.hierarchical.remedy`).
REFIT_COLUMNS = {"attempts", "refitted", "diag_ok_first", "remedy"}


def fit_row(res: Any) -> dict[str, Any]:
    """The probabilities and sampler diagnostics of a hierarchical fit, as row columns.

    Shared by the simulation adapter and the real-data analyses, so both report a fit
    the same way.
    """
    p_left, p_rope, p_right = res.probs()
    d0_left, d0_rope, d0_right = res.delta0_probs
    return {
        "p_left": p_left,
        "p_rope": p_rope,
        "p_right": p_right,
        "delta0_p_left": d0_left,
        "delta0_p_rope": d0_rope,
        "delta0_p_right": d0_right,
        **res.diagnostics.columns(),
        "runner": str(res.runner),
        "runner_version": str(res.runner_version),
    }


def fit_from_settings(
    x: np.ndarray, rho: Any, settings: Mapping[str, Any], rng: np.random.Generator
) -> tuple[Any, Any]:
    """Fit the hierarchical model from checked settings (:data:`HIERARCHICAL_DEFAULTS`).

    A fit failing the sampler diagnostics is refitted as the settings ``refits``,
    ``refit_scale`` and ``refit_adapt_delta`` say
    (:func:`cvcompare.hierarchical.remedy.fit_with_remedy`); the Stan seed of each attempt
    is drawn from ``rng``, in order. Shared by the simulation adapter and the real-data
    analyses, so both fit and remedy the same way.

    Parameters
    ----------
    x : numpy.ndarray, shape (q, n)
        Fold differences of the two learners, one row per data set.
    rho : float or numpy.ndarray
        Correlation between the fold differences, passed on to
        :func:`cvcompare.hierarchical.fit_hierarchical`.
    settings : mapping
        Every key of :data:`HIERARCHICAL_DEFAULTS`, checked (e.g. by
        :meth:`RegisteredTest.check`): the remedy's ``refits``, ``refit_scale`` and
        ``refit_adapt_delta``, the others keyword arguments of
        :func:`cvcompare.hierarchical.fit_hierarchical`.
    rng : numpy.random.Generator
        Source of the Stan seed of each attempt.

    Returns
    -------
    result : HierarchicalResult
        The last fit run (the first one that passed, or the last refit).
    record : RefitRecord
        How many fits were run and why.
    """
    from cvcompare.hierarchical.remedy import fit_with_remedy

    return fit_with_remedy(x, rho=rho, rng=rng, **settings)


@register(
    "hierarchical",
    title="Bayesian hierarchical model",
    defaults=HIERARCHICAL_DEFAULTS,
    columns={
        "p_left",
        "p_rope",
        "p_right",
        "delta0_p_left",
        "delta0_p_rope",
        "delta0_p_right",
        "sq_err_mle",
        "sq_err_shrinkage",
        *DIAGNOSTIC_COLUMNS,
        *REFIT_COLUMNS,
    },
)
def _hierarchical(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Bayesian hierarchical model (Corani et al. 2017, Sec. 3) on the fold differences.

    Settings: those of :func:`cvcompare.hierarchical.fit_hierarchical` (``rope``,
    ``nu_prior``, ``top_level``, ``runner`` and the sampler's ``chains``, ``warmup``,
    ``draws``, ``adapt_delta`` and ``max_treedepth``), and ``refits``, ``refit_scale`` and
    ``refit_adapt_delta``, which set the remedy for a fit failing the sampler diagnostics
    (see :func:`cvcompare.hierarchical.remedy.fit_with_remedy`; ``refits: 0`` disables it).
    The Stan seed of each attempt is drawn from the replication's random stream, in order.
    """
    rho = np.asarray(sim.rho, dtype=float)
    res, record = fit_from_settings(
        sim.diffs, float(rho[0]) if np.all(rho == rho[0]) else rho, settings, rng
    )
    truth = np.asarray(sim.true_delta, dtype=float)
    return {
        **fit_row(res),
        "attempts": record.attempts,
        "refitted": record.attempts > 1,
        "diag_ok_first": record.first_ok,
        "remedy": record.remedy,
        "sq_err_mle": float(np.mean((sim.mean_diffs - truth) ** 2)),
        "sq_err_shrinkage": float(np.mean((np.asarray(res.shrinkage) - truth) ** 2)),
    }


#: Columns of the loss-based decisions of Benavoli et al. (2014), Sec. 4.
_LOSS_COLUMNS = {"decision", "prefer_y", "error", "loss"}

#: The losses and squared errors the tests write, never negative: their means' error bars
#: stop at 0 (:func:`cvcompare.experiments.metrics.error_bounds`).
NON_NEGATIVE_COLUMNS = frozenset({"loss", "sq_err_mle", "sq_err_shrinkage"})


def loss_columns(decision: str, sim: Any, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The columns of a loss-based decision on one simulated comparison.

    The first learner (``acc_a``, "Y") is better when the mean of the true differences
    ``sim.true_delta`` is positive (for the bivariate normal scenario, ``Delta > 0``, i.e.
    ``P(Z >= -Z') > 1/2``: H1). Preferring Y when it is not better is a type I error with
    loss ``l1``; preferring X when Y is better a type II error with loss ``l0``
    (Benavoli et al. 2014, Sec. 3, Eq. 9, and Sec. 4).

    Parameters
    ----------
    decision : {"prefer_y", "prefer_x", "indeterminate"}
        The decision (of ``decide()`` of the library's posteriors).
    sim : SimulatedComparison
    settings : mapping
        With the losses ``l0`` and ``l1``.

    Returns
    -------
    dict
        ``decision``; ``prefer_y`` (bool); ``error`` (bool, None when indeterminate) and
        ``loss`` (``l1``, ``l0`` or 0; NaN when indeterminate).
    """
    loss_threshold(settings["l0"], settings["l1"])  # both losses must be positive numbers
    y_better = bool(np.mean(sim.true_delta) > 0)
    if decision == "indeterminate":
        error, loss = None, float("nan")
    else:
        error = (decision == "prefer_y") != y_better
        loss = float(settings["l0"] if y_better else settings["l1"]) if error else 0.0
    return {"decision": decision, "prefer_y": decision == "prefer_y", "error": error, "loss": loss}


_LOSSES = {"l0": 1.0, "l1": 1.0}


@register(
    "wilcoxon_loss",
    title="one-sided Wilcoxon signed-rank test, decision by the loss",
    defaults={"alpha": 0.05, **_LOSSES},
    columns={*_FREQUENTIST_COLUMNS, *_LOSS_COLUMNS},
)
def _wilcoxon_loss(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """One-sided Wilcoxon signed-rank test ("greater") with the loss of its decision.

    It prefers the first learner when ``p < alpha``, whatever the loss (Benavoli et al.
    2014, Sec. 4); ``l0`` and ``l1`` only weigh its errors. Settings: ``alpha``, ``l0``, ``l1``.
    """
    row = _wilcoxon(sim, {"alternative": "greater", "alpha": settings["alpha"]}, rng)
    decision = "prefer_y" if row["reject"] else "prefer_x"
    return {**row, **loss_columns(decision, sim, settings)}


@register(
    "dp_signed_rank",
    title="Bayesian signed-rank test with the Dp(s -> 0) prior, decision by the loss",
    defaults={**_LOSSES, "n_samples": 50_000},
    columns={"prob_greater", *_LOSS_COLUMNS},
)
def _dp(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Bayesian signed-rank test with the ``Dp(s -> 0)`` prior, decision by the loss.

    ``prefer_y`` when ``P[P(Z >= -Z') > 1/2 | data] > l1 / (l0 + l1)`` (Benavoli et al. 2014,
    Eq. 9), on the per-data-set means. Settings: ``l0``, ``l1``, ``n_samples``.
    """
    from cvcompare.stats import dp_signed_rank

    post = dp_signed_rank(sim.mean_diffs, n_samples=settings["n_samples"], rng=rng, scale="raw")
    decision = post.decide(settings["l0"], settings["l1"])
    return {"prob_greater": post.prob_greater, **loss_columns(decision, sim, settings)}


@register(
    "idp_signed_rank",
    title="Bayesian signed-rank test with the imprecise DP prior, decision by the loss",
    defaults={**_LOSSES, "s": IDP_DEFAULT_S, "n_samples": 50_000},
    columns={"lower_prob", "upper_prob", "indeterminate", "determinate", *_LOSS_COLUMNS},
    nullable={"error", "loss"},
)
def _idp(sim: Any, settings: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    """Bayesian signed-rank test with the prior near-ignorance DP (IDP), decision by the loss.

    ``prefer_y`` when the lower probability exceeds ``l1 / (l0 + l1)``, ``prefer_x`` when the
    upper one does not, otherwise indeterminate (Benavoli et al. 2014, Sec. 3, rules
    (i)-(iii)); ``loss`` is NaN and ``error`` None when indeterminate. Settings: ``l0``,
    ``l1``, ``s`` (default ``(sqrt(17) - 3) / 2``, Sec. 3.1), ``n_samples``.
    """
    from cvcompare.stats import idp_signed_rank

    post = idp_signed_rank(
        sim.mean_diffs, s=settings["s"], n_samples=settings["n_samples"], rng=rng, scale="raw"
    )
    decision = post.decide(settings["l0"], settings["l1"])
    return {
        "lower_prob": post.lower_prob,
        "upper_prob": post.upper_prob,
        "indeterminate": decision == "indeterminate",
        "determinate": decision != "indeterminate",
        **loss_columns(decision, sim, settings),
    }
