"""Analyses of fixed worked examples: the input is part of the experiment file (or drawn
from the experiment's seeded stream where the paper does not print it).

References
----------
Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7,
1-30, Sec. 3.2.2 (the Friedman, Iman-Davenport and Nemenyi tests worked through in the
tutorial "How to show that your model is better").

Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A Bayesian
Wilcoxon signed-rank test based on the Dirichlet process. ICML, Sec. 3 and Fig. 1.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd

from cvcompare._validation import check_array, check_int, check_positive, check_probability
from cvcompare.experiments.analyses import AnalysisOutput, register_analysis, reported
from cvcompare.stats.friedman import friedman_test, nemenyi_test
from cvcompare.stats.signed_rank import IDP_DEFAULT_S, idp_signed_rank

__all__ = ["friedman_nemenyi", "idp_posteriors", "nemenyi_label", "pair_label"]


def nemenyi_label(alpha: float) -> str:
    """Row label of the Nemenyi numbers at level ``alpha``, e.g. ``"nemenyi_0.05"``."""
    return f"nemenyi_{alpha:g}"


def pair_label(better: str, worse: str, alpha: float | None = None) -> str:
    """Row label of a pair of models, e.g. ``"Random G. - Glorot N."`` (with its level)."""
    label = f"{better} - {worse}"
    return label if alpha is None else f"{label} (alpha {alpha:g})"


def _check_friedman(settings: dict[str, Any]) -> None:
    scores = check_array(
        settings["scores"], "scores", ndim=2, min_size=2, axis_names=("data sets", "models")
    )
    models = settings["models"]
    if not isinstance(models, list) or not all(isinstance(m, str) for m in models):
        raise TypeError(f"models: expected a list of model names, got {models!r}")
    if len(models) != scores.shape[1] or len(set(models)) != len(models):
        raise ValueError(
            f"models: expected {scores.shape[1]} distinct names (one per column of scores), "
            f"got {models}"
        )
    if not isinstance(settings["alphas"], list) or not settings["alphas"]:
        raise ValueError(f"alphas: expected a non-empty list of levels, got {settings['alphas']!r}")
    for a in [*settings["alphas"], settings["ff_alpha"]]:
        check_probability(a, "alphas / ff_alpha")
    if not isinstance(settings["higher_is_better"], bool):
        raise TypeError(
            f"higher_is_better: expected true or false, got {settings['higher_is_better']!r}"
        )


@register_analysis(
    "friedman_nemenyi",
    defaults={
        "models": [],
        "scores": [],
        "higher_is_better": True,
        "alphas": [0.05, 0.1],
        "ff_alpha": 0.05,
    },
    metrics=[
        "avg_rank",
        "chi2",
        "pvalue",
        "ff",
        "ff_pvalue",
        "ff_critical",
        "q_alpha",
        "cd",
        "rank_difference",
        "significant",
    ],
    validate=_check_friedman,
)
def friedman_nemenyi(
    settings: dict[str, Any], data: pd.DataFrame | None, rng: np.random.Generator
) -> AnalysisOutput:
    """Friedman, Iman-Davenport and Nemenyi tests of a fixed (data sets x models) table.

    Reports, all exact (deterministic computations):

    - ``avg_rank`` of each model (row label: the model's name);
    - ``chi2`` (Friedman's chi-square) and its ``pvalue``, row ``friedman``;
    - ``ff`` (Iman-Davenport F_F), ``ff_pvalue`` and ``ff_critical`` (the ``1 - ff_alpha``
      quantile of F(k - 1, (k - 1)(N - 1))), row ``iman_davenport``;
    - ``q_alpha`` and the critical difference ``cd`` at each level of ``alphas``, row
      :func:`nemenyi_label`;
    - for every pair of models, better (lower average rank) first, the ``rank_difference``
      (row :func:`pair_label`) and whether the Nemenyi test finds it ``significant`` (1/0)
      at each level (row :func:`pair_label` with the level).

    ``scores`` is the table, one row per data set and one column per model (``models``);
    ``higher_is_better`` is true for accuracies. Computed with
    :func:`cvcompare.stats.friedman_test` and :func:`cvcompare.stats.nemenyi_test`
    (Demsar 2006, Sec. 3.2.2).
    """
    scores = np.asarray(settings["scores"], dtype=float)
    models = list(settings["models"])
    better = settings["higher_is_better"]
    fr = friedman_test(scores, alpha=settings["ff_alpha"], higher_is_better=better)
    rows = [reported(m, "avg_rank", r) for m, r in zip(models, fr.avg_ranks, strict=True)]
    rows += [
        reported("friedman", "chi2", fr.statistic),
        reported("friedman", "pvalue", fr.pvalue),
        reported("iman_davenport", "ff", fr.ff_statistic),
        reported("iman_davenport", "ff_pvalue", fr.ff_pvalue),
        reported("iman_davenport", "ff_critical", fr.ff_critical_value),
    ]
    pairs = [
        (i, j) if fr.avg_ranks[i] <= fr.avg_ranks[j] else (j, i)
        for i, j in itertools.combinations(range(len(models)), 2)
    ]
    nemenyi = [
        (a, nemenyi_test(scores, alpha=a, higher_is_better=better)) for a in settings["alphas"]
    ]
    differences = nemenyi[0][1].rank_differences  # the same at every level
    for i, j in pairs:
        rows.append(
            reported(pair_label(models[i], models[j]), "rank_difference", differences[j, i])
        )
    for alpha, nem in nemenyi:
        rows += [
            reported(nemenyi_label(alpha), "q_alpha", nem.q_alpha),
            reported(nemenyi_label(alpha), "cd", nem.cd),
        ]
        for i, j in pairs:
            label = pair_label(models[i], models[j], alpha)
            rows.append(reported(label, "significant", float(nem.significant[i, j])))
    return AnalysisOutput(rows=rows)


def _check_idp(settings: dict[str, Any]) -> None:
    check_int(settings["n"], "n", minimum=2)
    check_positive(settings["s"], "s")
    check_int(settings["n_samples"], "n_samples", minimum=100)
    check_int(settings["bins"], "bins", minimum=10)
    given = settings["given_lower"]
    if given is not None:
        if not isinstance(given, dict) or set(given) != {"value", "within", "samples"}:
            raise ValueError(
                "given_lower: expected null or {value, within, samples}, got " + repr(given)
            )
        value = check_probability(given["value"], "given_lower.value")
        within = check_positive(given["within"], "given_lower.within")
        if not 0 < value - within < value + within < 1:
            raise ValueError("given_lower: value +- within must lie inside (0, 1)")
        check_int(given["samples"], "given_lower.samples", minimum=2)


#: Dirichlet draws per candidate sample when screening for ``given_lower``; its Monte Carlo
#: error (at most 0.011) only decides which samples are evaluated with ``n_samples`` draws.
_SCREEN_DRAWS = 2_000
#: Candidate samples drawn at most for ``given_lower`` before giving up.
_MAX_CANDIDATES = 200_000


@register_analysis(
    "idp_posteriors",
    defaults={"n": 20, "s": IDP_DEFAULT_S, "n_samples": 100_000, "bins": 100, "given_lower": None},
    metrics=[
        "lower_prob",
        "upper_prob",
        "lower_mean",
        "upper_mean",
        "sample_mean",
        "lower_prob_given",
        "upper_prob_given",
        "samples_drawn",
    ],
    validate=_check_idp,
)
def idp_posteriors(
    settings: dict[str, Any], data: pd.DataFrame | None, rng: np.random.Generator
) -> AnalysisOutput:
    """Lower and upper IDP posteriors of ``P(Z >= -Z')`` for ``n`` standard-normal draws.

    The ``n`` observations ``Z_i`` are drawn from the experiment's seeded stream (the paper
    does not print its sample), then :func:`cvcompare.stats.signed_rank.idp_signed_rank`
    gives the lower and upper posterior probabilities ``P[P(Z >= -Z') > 1/2 | Z^n]``
    (``lower_prob``, ``upper_prob``; Monte Carlo, binomial standard errors) and means
    (``lower_mean``, ``upper_mean``; exact, Theorem 3). By Eq. (9) and the rules after it,
    the test prefers Y when ``l1 / (l0 + l1) < lower_prob`` and X when it exceeds
    ``upper_prob``: these are the two decision thresholds of Benavoli et al. (2014),
    Sec. 3 and Fig. 1. Also reported: ``sample_mean`` of the drawn ``Z`` (exact). Row
    label ``idp``.

    With ``given_lower = {value, within, samples}`` the samples are conditioned on the lower
    probability, for a paper that reports it but not its sample: samples of ``n`` are drawn
    from the stream until ``samples`` of them have a lower probability (estimated with
    ``n_samples`` draws) within ``within`` of ``value``; candidates are first screened with
    :data:`_SCREEN_DRAWS` draws, keeping those within ``within + 0.03``. The first such
    sample is the one reported above and drawn; ``lower_prob_given`` and
    ``upper_prob_given`` are the means of the lower and upper probabilities over the
    ``samples`` (Monte Carlo: standard error from their spread, which includes the
    sample-to-sample variation given the lower probability), and ``samples_drawn`` counts
    the candidates drawn (exact).

    The figure data are the densities of the lower and upper posterior draws on ``bins``
    equal bins of [0, 1] (columns ``posterior``, ``x``, ``density``), and the sample itself
    (``posterior = "sample"``, ``x`` the draws, ``density`` NaN).
    """
    n, n_samples, bins = settings["n"], settings["n_samples"], settings["bins"]
    given = settings["given_lower"]
    if given is None:
        z = rng.standard_normal(n)
        post = idp_signed_rank(z, s=settings["s"], n_samples=n_samples, rng=rng, scale="raw")
        extra = []
    else:
        chosen, drawn = _samples_given_lower(settings, rng)
        z, post = chosen[0]
        lows = np.array([p.lower_prob for _, p in chosen])
        ups = np.array([p.upper_prob for _, p in chosen])
        k = len(chosen)
        given_mc = {"n": k, "uncertainty": "Monte Carlo"}
        extra = [
            reported(
                "idp", "lower_prob_given", lows.mean(), se=lows.std(ddof=1) / k**0.5, **given_mc
            ),
            reported(
                "idp", "upper_prob_given", ups.mean(), se=ups.std(ddof=1) / k**0.5, **given_mc
            ),
            reported("idp", "samples_drawn", float(drawn)),
        ]
    mc = {"n": n_samples, "uncertainty": "Monte Carlo"}
    rows = [
        reported("idp", "lower_prob", post.lower_prob, se=post.lower_mc_se, **mc),
        reported("idp", "upper_prob", post.upper_prob, se=post.upper_mc_se, **mc),
        reported("idp", "lower_mean", post.lower_mean),
        reported("idp", "upper_mean", post.upper_mean),
        reported("idp", "sample_mean", float(z.mean()), n=n),
        *extra,
    ]
    edges = np.linspace(0.0, 1.0, bins + 1)
    centres = (edges[:-1] + edges[1:]) / 2
    parts = [
        pd.DataFrame(
            {
                "posterior": name,
                "x": centres,
                "density": np.histogram(draws, bins=edges, density=True)[0],
            }
        )
        for name, draws in (("lower", post.lower_draws), ("upper", post.upper_draws))
    ]
    parts.append(pd.DataFrame({"posterior": "sample", "x": z, "density": np.nan}))
    return AnalysisOutput(rows=rows, figure_data=pd.concat(parts, ignore_index=True))


def _samples_given_lower(
    settings: dict[str, Any], rng: np.random.Generator
) -> tuple[list[tuple[np.ndarray, Any]], int]:
    """The first ``given_lower.samples`` samples of the stream whose lower probability lies
    within ``within`` of ``value`` (see :func:`idp_posteriors`), each with its posterior, and
    the number of candidates drawn."""
    given, n, s = settings["given_lower"], settings["n"], settings["s"]
    value, within, wanted = given["value"], given["within"], given["samples"]
    chosen = []
    for drawn in range(1, _MAX_CANDIDATES + 1):
        z = rng.standard_normal(n)
        screen = idp_signed_rank(z, s=s, n_samples=_SCREEN_DRAWS, rng=rng, scale="raw")
        if abs(screen.lower_prob - value) > within + 0.03:
            continue
        post = idp_signed_rank(z, s=s, n_samples=settings["n_samples"], rng=rng, scale="raw")
        if abs(post.lower_prob - value) <= within:
            chosen.append((z, post))
            if len(chosen) == wanted:
                return chosen, drawn
    raise ValueError(
        f"given_lower: found {len(chosen)} of {wanted} samples with a lower probability within "
        f"{within} of {value} among {_MAX_CANDIDATES} candidates"
    )
