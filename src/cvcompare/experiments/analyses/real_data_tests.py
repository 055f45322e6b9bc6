"""Frequentist and Dirichlet-process tests of learner pairs on the real cross-validation
results: the decisions on data-set subsets, and their replicability over random draws of
data sets.

The real results (:func:`cvcompare.io.read_accuracies` as fractions) list the data sets in
the file's order, which is alphabetical; a subset ``start..stop`` (1-based, inclusive)
counts in that order. A pair ``(first, second)`` is analysed through the differences
``second - first``, so a positive difference means that the second learner is more
accurate.

References
----------
Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing cross-validated
algorithms on multiple data sets. Machine Learning 100, 285-304, Sec. 4.4 and Table 4.

Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A Bayesian
Wilcoxon signed-rank test based on the Dirichlet process. ICML, Sec. 4.2 and Table 5.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from cvcompare._validation import check_int, check_positive, check_probability, check_rho
from cvcompare.experiments.analyses import (
    AnalysisOutput,
    check_dataset_count,
    check_learner_pair,
    check_pair_in_data,
    learner_pair_differences,
    register_analysis,
    reported,
)
from cvcompare.experiments.metrics import rate_estimate, replicability_estimate
from cvcompare.io import mean_differences
from cvcompare.stats.poisson_binomial import poisson_binomial_test
from cvcompare.stats.signed_rank import (
    IDP_DEFAULT_S,
    dp_signed_rank,
    idp_signed_rank,
    loss_threshold,
    wilcoxon_test,
)

__all__ = ["pair_decisions", "replicability_split"]


def _check_decisions(settings: dict[str, Any]) -> None:
    check_learner_pair(settings)
    start = check_int(settings["start"], "start", minimum=1)
    if settings["stop"] is not None:
        check_int(settings["stop"], "stop", minimum=start + 1)
    check_probability(settings["alpha"], "alpha")
    check_rho(settings["rho"])


def _check_decisions_data(settings: dict[str, Any], data: pd.DataFrame) -> None:
    """The learner pair is in the real results, which hold the data sets ``stop`` counts,
    and the subset from ``start`` has at least two of them."""
    check_pair_in_data(settings, data)
    held = check_dataset_count(settings, data, "stop")
    if settings["stop"] is None and settings["start"] > held - 1:
        raise ValueError(
            f"start: the real results have {held} data sets, so a subset from start="
            f"{settings['start']} holds fewer than two"
        )


def _check_replicability_data(settings: dict[str, Any], data: pd.DataFrame) -> None:
    """The learner pair is in the real results, which hold the ``q`` data sets drawn."""
    check_pair_in_data(settings, data)
    check_dataset_count(settings, data, "q")


@register_analysis(
    "pair_decisions",
    defaults={
        "first": "",
        "second": "",
        "start": 1,
        "stop": None,
        "rho": 0.1,
        "alpha": 0.05,
    },
    metrics=["decision", "p_second_better", "p_first_better", "pvalue", "n_datasets"],
    needs_data=True,
    validate=_check_decisions,
    validate_data=_check_decisions_data,
)
def pair_decisions(
    settings: dict[str, Any], data: pd.DataFrame | None, rng: np.random.Generator
) -> AnalysisOutput:
    """Poisson-binomial and signed-rank decisions for one learner pair on a data-set subset.

    The data sets ``start..stop`` (1-based, inclusive, in file order; ``stop`` null for the
    last) are compared through the fold differences ``second - first``:

    - ``poisson``: :func:`cvcompare.stats.poisson_binomial_test` (exact distribution,
      correlation ``rho``) gives ``p_second_better = P(X > q/2)`` and ``p_first_better =
      P(X < q/2)``; a difference is declared (``decision`` 1) when either exceeds
      ``1 - alpha / 2``, the paper's one-sided rule applied to both directions at half the
      size each (Corani & Benavoli 2015, Sec. 3);
    - ``signed_rank``: the two-sided Wilcoxon signed-rank test of the per-data-set mean
      differences (:func:`cvcompare.stats.wilcoxon_test`), ``decision`` 1 when
      ``pvalue < alpha``.

    Every number is exact (deterministic); ``n_datasets`` is the subset's size (both rows).
    """
    assert data is not None
    x, _ = learner_pair_differences(data, settings, second_minus_first=True)
    x = x[settings["start"] - 1 : settings["stop"]]
    alpha = settings["alpha"]
    pb = poisson_binomial_test(x, rho=settings["rho"], alpha=alpha / 2)
    sr = wilcoxon_test(mean_differences(x), alternative="two-sided")
    q = x.shape[0]
    rows = [
        reported("poisson", "p_second_better", pb.prob_majority),
        reported("poisson", "p_first_better", pb.prob_majority_negative),
        reported("poisson", "decision", float(pb.decision or pb.decision_negative)),
        reported("signed_rank", "pvalue", sr.pvalue),
        reported("signed_rank", "decision", float(sr.pvalue < alpha)),
        *(reported(t, "n_datasets", q) for t in ("poisson", "signed_rank")),
    ]
    return AnalysisOutput(rows=rows)


def _check_replicability(settings: dict[str, Any]) -> None:
    check_learner_pair(settings)
    check_int(settings["n_draws"], "n_draws", minimum=2)
    check_int(settings["q"], "q", minimum=2)
    check_int(settings["n_samples"], "n_samples", minimum=100)
    check_probability(settings["alpha"], "alpha")
    check_positive(settings["s"], "s")
    check_positive(settings["l0"], "l0")
    check_positive(settings["l1"], "l1")


def _split_replicability(decisions: np.ndarray, mask: np.ndarray, test: str, metric: str) -> dict:
    """Replicability of ``decisions[mask]`` (NaN when fewer than two draws fall in it)."""
    if mask.sum() < 2:
        return reported(
            test,
            metric,
            float("nan"),
            se=float("nan"),
            n=int(mask.sum()),
            uncertainty="Monte Carlo",
        )
    est = replicability_estimate(decisions[mask], metric)
    return reported(test, metric, est.value, se=est.se, n=est.n, uncertainty="Monte Carlo")


@register_analysis(
    "replicability_split",
    defaults={
        "first": "",
        "second": "",
        "n_draws": 1000,
        "q": 15,
        "alpha": 0.05,
        "l0": 1.0,
        "l1": 19.0,
        "s": IDP_DEFAULT_S,
        "n_samples": 20_000,
    },
    metrics=[
        "share_h1",
        "share_indeterminate",
        "replicability",
        "replicability_determinate",
        "replicability_indeterminate",
    ],
    needs_data=True,
    validate=_check_replicability,
    validate_data=_check_replicability_data,
)
def replicability_split(
    settings: dict[str, Any], data: pd.DataFrame | None, rng: np.random.Generator
) -> AnalysisOutput:
    """Replicability of one-sided tests over random draws of data sets, split by the IDP.

    Each of ``n_draws`` experiments draws ``q`` data sets without replacement (uniformly,
    from the experiment's seeded stream) and tests, on their mean differences ``second -
    first``, whether the second learner is better:

    - ``wilcoxon``: one-sided signed-rank test, H1 accepted when ``pvalue < alpha``;
    - ``dp``: ``Dp(s -> 0)`` (:func:`cvcompare.stats.dp_signed_rank`), H1 when
      ``P[P(Z >= -Z') > 1/2] > l1 / (l0 + l1)`` (Eq. 9; ``(l0, l1) = (1, 19)`` matches
      ``alpha = 0.05``);
    - the IDP (:func:`cvcompare.stats.idp_signed_rank`, same Dirichlet weights as ``dp``)
      is determinate when its lower probability exceeds the threshold or its upper one
      does not.

    Reported (Monte Carlo over the draws): ``share_h1`` (row ``wilcoxon``: share of draws
    where it accepts H1; row ``dp`` likewise), ``share_indeterminate`` (row ``idp``),
    ``replicability`` of all decisions, and ``replicability_determinate`` /
    ``replicability_indeterminate`` of the decisions in the draws where the IDP is
    determinate / indeterminate, ``R = 1 - 2 sum (e_i - mean e)^2 / (n - 1)``
    (Benavoli et al. 2014, Sec. 4.2; :func:`cvcompare.experiments.metrics.replicability_estimate`,
    its exact standard error; NaN where fewer than two draws fall in a group).

    The figure data hold one row per draw: ``draw``, the Wilcoxon ``pvalue``, the
    decisions ``wilcoxon`` and ``dp`` (0/1) and ``indeterminate`` (bool).
    """
    assert data is not None
    x, datasets = learner_pair_differences(data, settings, second_minus_first=True)
    means = mean_differences(x)
    q, n_draws, n_samples = settings["q"], settings["n_draws"], settings["n_samples"]
    threshold = loss_threshold(settings["l0"], settings["l1"])
    pvalues = np.empty(n_draws)
    dp_h1 = np.empty(n_draws, dtype=bool)
    indeterminate = np.empty(n_draws, dtype=bool)
    for d in range(n_draws):
        z = means[rng.choice(len(datasets), size=q, replace=False)]
        seed = int(rng.integers(2**63))  # the same weights for Dp(s -> 0) and the IDP
        pvalues[d] = wilcoxon_test(z, alternative="greater").pvalue
        dp_h1[d] = dp_signed_rank(z, n_samples=n_samples, rng=seed).prob_greater > threshold
        idp = idp_signed_rank(z, s=settings["s"], n_samples=n_samples, rng=seed)
        indeterminate[d] = idp.decide(settings["l0"], settings["l1"]) == "indeterminate"
    decisions = {"wilcoxon": pvalues < settings["alpha"], "dp": dp_h1}
    rows = []
    ind = rate_estimate(indeterminate, "indeterminate")
    rows.append(
        reported(
            "idp", "share_indeterminate", ind.value, se=ind.se, n=ind.n, uncertainty="Monte Carlo"
        )
    )
    everything = np.ones(n_draws, dtype=bool)
    for test, e in decisions.items():
        h1 = rate_estimate(e, test)
        rows.append(
            reported(test, "share_h1", h1.value, se=h1.se, n=h1.n, uncertainty="Monte Carlo")
        )
        rows += [
            _split_replicability(e, everything, test, "replicability"),
            _split_replicability(e, ~indeterminate, test, "replicability_determinate"),
            _split_replicability(e, indeterminate, test, "replicability_indeterminate"),
        ]
    figure_data = pd.DataFrame(
        {
            "draw": np.arange(n_draws),
            "pvalue": pvalues,
            "wilcoxon": decisions["wilcoxon"].astype(int),
            "dp": dp_h1.astype(int),
            "indeterminate": indeterminate,
        }
    )
    return AnalysisOutput(rows=rows, figure_data=figure_data)
