"""The hierarchical model on the real cross-validation results (Corani et al. 2017, Sec. 4.8-4.9).

Each analysis compares two learners of the real results (``first`` minus ``second``, so
``left`` means that ``second`` is more accurate) on every data set:

- :func:`hierarchical_pair`: the posterior probabilities that left, rope or right is the most
  probable region for the next data set (Sec. 3.2), with the fit's sampler diagnostics, and
  the two-sided Wilcoxon signed-rank p-value on the per-data-set mean differences (Tables 5
  and 6);
- :func:`predictive_densities`: the density of the shrinkage estimates and of the difference
  on a new data set under the two priors on the degrees of freedom (Fig. 7);
- :func:`fold_boxplots`: boxplot statistics of the fold differences of every data set
  (Fig. 8).

Stan runs with the papers' settings (4 chains of 1000 warm-up and 1000 kept draws, rope
(-0.01, 0.01), correlation rho = 0.1) unless an experiment file says otherwise; the sampler
seeds are drawn from the grid point's random generator, so the numbers follow from the
project's root seed.

References
----------
Corani, G., Benavoli, A., Demšar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837, Sec. 3.2-3.3, 4.8-4.9, Tables 5-6, Figs. 7-8.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from cvcompare._validation import (
    DEFAULT_ROPE,
    check_choice,
    check_fraction_rope,
    check_int,
    check_rho,
)
from cvcompare.experiments.analyses import (
    AnalysisOutput,
    check_learner_pair,
    check_pair_in_data,
    learner_pair_differences,
    register_analysis,
    reported,
)
from cvcompare.experiments.registry import (
    HIERARCHICAL_DEFAULTS,
    SETTING_CHECKS,
    fit_from_settings,
    fit_row,
)
from cvcompare.hierarchical.fit import NU_PRIORS

__all__ = [
    "boxplot_stats",
    "fold_boxplots",
    "hierarchical_pair",
    "nrd0_bandwidth",
    "predictive_densities",
]

_PAIR = {"first": "nbc", "second": "hnb"}
_ZERO_METHODS = ("wilcox", "pratt", "zsplit")
#: Metrics of a fit: its three probabilities and its sampler diagnostics.
_FIT_METRICS = [
    "p_left",
    "p_rope",
    "p_right",
    "diagnostics_ok",
    "rhat_max",
    "ess_min",
    "divergences",
]


def _check_pair(settings: dict[str, Any]) -> None:
    check_learner_pair(settings)
    check_fraction_rope(settings["rope"])


def _check_fit(settings: dict[str, Any]) -> None:
    _check_pair(settings)
    check_rho(settings["rho"])
    # the model's settings, checked as the simulations' hierarchical test checks them
    for key in HIERARCHICAL_DEFAULTS.keys() & settings.keys():
        SETTING_CHECKS[key](settings[key], key)


def _check_pair_fit(settings: dict[str, Any]) -> None:
    _check_fit(settings)
    check_choice(settings["zero_method"], "zero_method", _ZERO_METHODS)


def _check_densities(settings: dict[str, Any]) -> None:
    _check_fit(settings)
    check_int(settings["n_samples"], "n_samples", minimum=2)
    check_int(settings["n_grid"], "n_grid", minimum=2)


def _fit(x: np.ndarray, settings: dict[str, Any], nu_prior: str, rng: np.random.Generator) -> Any:
    """Fit the hierarchical model with the settings' Stan options, refitting a fit that fails
    the sampler diagnostics as the simulations do; seeds drawn from ``rng``."""
    options = {key: settings[key] for key in HIERARCHICAL_DEFAULTS if key != "nu_prior"}
    res, _ = fit_from_settings(x, float(settings["rho"]), {**options, "nu_prior": nu_prior}, rng)
    return res


def _fit_rows(test: str, res: Any) -> list[dict[str, Any]]:
    """The probabilities (posterior sampling, their Monte Carlo SE) and diagnostics of a fit.

    The standard error of each probability is ``sqrt(p (1 - p) / ESS)`` with the effective
    sample size of the draws' votes for that region
    (:meth:`cvcompare.hierarchical.HierarchicalResult.probs_se`).
    """
    row = fit_row(res)
    n = int(res.delta0.size)
    rows = [
        reported(test, metric, p, se=se, n=n, uncertainty="posterior sampling")
        for metric, p, se in zip(
            ("p_left", "p_rope", "p_right"), res.probs(), res.probs_se(), strict=True
        )
    ]
    rows += [
        reported(test, "diagnostics_ok", float(row["diag_ok"])),
        reported(test, "rhat_max", row["rhat_max"]),
        reported(test, "ess_min", row["ess_min"]),
        reported(test, "divergences", row["divergences"]),
    ]
    return rows


@register_analysis(
    "hierarchical_pair",
    defaults={**_PAIR, "rho": 0.1, **HIERARCHICAL_DEFAULTS, "zero_method": "wilcox"},
    metrics=[*_FIT_METRICS, "pvalue"],
    needs_data=True,
    validate=_check_pair_fit,
    validate_data=check_pair_in_data,
)
def hierarchical_pair(
    settings: dict[str, Any], data: pd.DataFrame | None, rng: np.random.Generator
) -> AnalysisOutput:
    """The hierarchical model and the signed-rank test on one pair of learners.

    Reports, under the test label ``"hierarchical"``, ``p_left``, ``p_rope`` and
    ``p_right`` for the next data set (Corani et al. 2017, Sec. 3.2) with their posterior
    sampling standard errors, and the fit's diagnostics ``diagnostics_ok`` (1 when R-hat <
    1.01, bulk and tail ESS >= 400, no divergent transition, no tree-depth hit and E-BFMI >=
    0.3), ``rhat_max``, ``ess_min`` and ``divergences``; under ``"signed_rank"`` the
    two-sided p-value of the Wilcoxon signed-rank test on the per-data-set means of the
    fold differences (zeros treated by ``zero_method``; Tables 5 and 6).
    """
    from cvcompare.io import mean_differences
    from cvcompare.stats import wilcoxon_test

    x, _ = learner_pair_differences(data, settings)
    res = _fit(x, settings, settings["nu_prior"], rng)
    test = wilcoxon_test(mean_differences(x), zero_method=settings["zero_method"])
    return AnalysisOutput(
        rows=[*_fit_rows("hierarchical", res), reported("signed_rank", "pvalue", test.pvalue)]
    )


def nrd0_bandwidth(x: np.ndarray) -> float:
    """Silverman's rule of thumb ``0.9 min(sd, IQR / 1.34) n^(-1/5)`` (R's ``bw.nrd0``).

    The default bandwidth of R's ``density``, which the paper's Fig. 7 uses; where the
    interquartile range is zero the standard deviation alone is used, as R does.
    """
    x = np.asarray(x, dtype=float)
    sd = float(np.std(x, ddof=1))
    iqr = float(np.subtract(*np.percentile(x, [75, 25])))
    spread = min(sd, iqr / 1.34) if iqr > 0 else sd
    if spread <= 0:
        spread = abs(float(x[0])) or 1.0
    return 0.9 * spread * x.size ** (-0.2)


def _kde(x: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Gaussian kernel density of ``x`` at ``grid`` with the :func:`nrd0_bandwidth`."""
    h = nrd0_bandwidth(x)
    return stats.norm.pdf((grid[:, None] - x[None, :]) / h).mean(axis=1) / h


def _predictive_draws(res: Any, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` draws of the difference on a new data set, ``t(nu, delta0, sigma0)``.

    Posterior draws are used in turn (draw ``k mod S``); a value outside [-1, 1] (not a
    difference of accuracies) is drawn again, as in the authors' code.
    """
    idx = np.arange(n) % res.delta0.size
    out = np.full(n, np.inf)
    todo = np.arange(n)
    while todo.size:
        k = idx[todo]
        out[todo] = res.delta0[k] + res.sigma0[k] * rng.standard_t(res.nu[k])
        todo = todo[np.abs(out[todo]) > 1]
    return out


@register_analysis(
    "predictive_densities",
    defaults={
        **_PAIR,
        "rho": 0.1,
        **{k: v for k, v in HIERARCHICAL_DEFAULTS.items() if k != "nu_prior"},
        "n_samples": 8000,
        "n_grid": 512,
    },
    metrics=[*_FIT_METRICS, "shrinkage_gap"],
    needs_data=True,
    validate=_check_densities,
    validate_data=check_pair_in_data,
)
def predictive_densities(
    settings: dict[str, Any], data: pd.DataFrame | None, rng: np.random.Generator
) -> AnalysisOutput:
    """Densities of the shrinkage estimates and of the next data set's difference (Fig. 7).

    Fits the model with the hyper-prior on ``nu`` (test label ``"hyper"``) and with ``nu -
    1 ~ Gamma(2, 0.1)`` (``"gamma"``), in that order, each seeded from ``rng``. The shrinkage
    estimates are the hyper-prior model's posterior means of the ``delta_i`` (Sec. 3.3); of
    each model ``n_samples`` (the paper: 8000) differences on a new data set are drawn
    (:func:`_predictive_draws`). All three densities are Gaussian kernel estimates with R's
    default bandwidth, on ``n_grid`` points spanning twice the largest absolute shrinkage
    estimate on either side of 0.

    Reports each fit's probabilities and diagnostics (as :func:`hierarchical_pair`) and,
    under the test label ``"shrinkage"``, ``shrinkage_gap``: the largest absolute difference
    between the two models' shrinkage estimates, with the posterior-sampling standard error
    of that difference (each posterior mean's ``sd / sqrt(bulk ESS)``), to check the paper's
    statement that the two models' shrinkage estimates are identical.

    The figure data has the columns ``curve`` (``"shrinkage"``, ``"hyper"``, ``"gamma"``),
    ``x``, ``density``, ``rope_low`` and ``rope_high``.
    """
    from cvcompare.hierarchical import ess_bulk

    x, _ = learner_pair_differences(data, settings)
    fits = {prior: _fit(x, settings, prior, rng) for prior in NU_PRIORS}
    shrink = {prior: res.shrinkage for prior, res in fits.items()}
    gaps = np.abs(shrink["hyper"] - shrink["gamma"])
    i = int(np.argmax(gaps))
    mc_var = [
        np.var(res.delta[:, i], ddof=1) / ess_bulk(res.delta[:, i].reshape(res.chains, -1))
        for res in fits.values()
    ]
    half = 2 * float(np.max(np.abs(shrink["hyper"])))
    grid = np.linspace(-half, half, int(settings["n_grid"]))
    curves = {"shrinkage": _kde(shrink["hyper"], grid)}
    for prior, res in fits.items():
        curves[prior] = _kde(_predictive_draws(res, int(settings["n_samples"]), rng), grid)
    low, high = check_fraction_rope(settings["rope"])
    figure = pd.concat(
        [
            pd.DataFrame({"curve": name, "x": grid, "density": dens})
            for name, dens in curves.items()
        ],
        ignore_index=True,
    ).assign(rope_low=low, rope_high=high)
    rows = [r for prior, res in fits.items() for r in _fit_rows(prior, res)]
    rows.append(
        reported(
            "shrinkage",
            "shrinkage_gap",
            gaps[i],
            se=float(np.sqrt(sum(mc_var))),
            n=int(fits["hyper"].delta0.size),
            uncertainty="posterior sampling",
        )
    )
    return AnalysisOutput(rows=rows, figure_data=figure)


def boxplot_stats(x: np.ndarray) -> dict[str, Any]:
    """Tukey's boxplot of one sample, as R's ``boxplot`` draws it.

    The box runs between the lower and upper hinges (the medians of the lower and upper
    halves of the sorted sample, each half including the median when the size is odd: R's
    ``fivenum``); the whiskers reach the most extreme values within 1.5 times the hinge
    spread of the box; values beyond are outliers.

    Returns
    -------
    dict
        ``whislo``, ``q1``, ``med``, ``q3``, ``whishi`` (floats), ``fliers`` (array) and
        ``mean``.
    """
    s = np.sort(np.asarray(x, dtype=float))
    n = s.size
    lower, upper = s[: (n + 1) // 2], s[n // 2 :]
    q1, med, q3 = float(np.median(lower)), float(np.median(s)), float(np.median(upper))
    reach = 1.5 * (q3 - q1)
    inside = s[(s >= q1 - reach) & (s <= q3 + reach)]
    return {
        "whislo": float(inside.min()),
        "q1": q1,
        "med": med,
        "q3": q3,
        "whishi": float(inside.max()),
        "fliers": s[(s < q1 - reach) | (s > q3 + reach)],
        "mean": float(s.mean()),
    }


@register_analysis(
    "fold_boxplots",
    defaults={**_PAIR, "rope": DEFAULT_ROPE},
    metrics=["share_in_rope", "share_second_better"],
    needs_data=True,
    validate=_check_pair,
    validate_data=check_pair_in_data,
)
def fold_boxplots(
    settings: dict[str, Any], data: pd.DataFrame | None, rng: np.random.Generator
) -> AnalysisOutput:
    """Boxplots of the fold differences ``first - second`` of every data set (Fig. 8).

    Reports, under the test label ``"data"`` (exact numbers), ``share_in_rope``: the share
    of data sets whose mean difference lies inside the rope, and ``share_second_better``:
    among the data sets whose mean difference is not zero, the share where it is negative
    (``second`` more accurate). The figure data has one row per box and statistic:
    ``sample`` (``"folds"``: the fold differences of one data set; ``"means"``: the mean
    differences of all data sets, one box), ``dataset``, ``position`` (file order),
    ``stat`` (``whislo``, ``q1``, ``med``, ``q3``, ``whishi``, ``mean`` or ``flier``) and
    ``value`` (:func:`boxplot_stats`), and the rope's ends.
    """
    from cvcompare.io import mean_differences

    x, datasets = learner_pair_differences(data, settings)
    low, high = check_fraction_rope(settings["rope"])
    means = mean_differences(x)
    nonzero = means[means != 0]
    samples = [("folds", name, row) for name, row in zip(datasets, x, strict=True)]
    samples.append(("means", "all data sets", means))
    records = []
    for position, (sample, name, values) in enumerate(samples):
        box = boxplot_stats(values)
        records += [
            (sample, name, position, stat, box[stat])
            for stat in ("whislo", "q1", "med", "q3", "whishi", "mean")
        ]
        records += [(sample, name, position, "flier", v) for v in box["fliers"]]
    figure = pd.DataFrame(records, columns=["sample", "dataset", "position", "stat", "value"])
    figure = figure.assign(rope_low=low, rope_high=high)
    share_second = float(np.mean(nonzero < 0)) if nonzero.size else float("nan")
    return AnalysisOutput(
        rows=[
            reported(
                "data", "share_in_rope", np.mean((means >= low) & (means <= high)), n=len(means)
            ),
            reported("data", "share_second_better", share_second, n=int(nonzero.size)),
        ],
        figure_data=figure,
    )
