"""Sampler health of the experiments that fit the hierarchical model, per grid point.

A Stan fit *passes* when its top-level parameters and the sampler meet
:data:`cvcompare.hierarchical.diagnostics.PASS_RULE` (rank-normalised split R-hat, bulk and
tail ESS, divergent transitions, tree-depth hits and E-BFMI; :class:`cvcompare.hierarchical.
HierarchicalDiagnostics`).
An experiment reports the share of passing fits with the metric ``diagnostics_ok`` (kind
``rate`` over the column ``diag_ok``) and the share of fits refitted by the remedy of
:func:`cvcompare.hierarchical.remedy.fit_with_remedy` with the metric ``refitted``; this
module gathers them into one table and names the grid points below the target share
(99%: a fit is trusted only where nearly every fit of its grid point converged).

References
----------
Vehtari, A., Gelman, A., Simpson, D., Carpenter, B. & Buerkner, P.-C. (2021). Rank-
normalization, folding, and localization: an improved R-hat for assessing convergence of
MCMC. Bayesian Analysis 16(2), 667-718, Sec. 4 (the thresholds).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from cvcompare.experiments.spec import point_text
from cvcompare.hierarchical.diagnostics import PASS_RULE

__all__ = ["HEALTH_COLUMNS", "TARGET_SHARE", "health_markdown", "health_warnings", "sampler_health"]

#: Share of fits of a grid point that must pass the diagnostics.
TARGET_SHARE = 0.99
HEALTH_COLUMNS = [
    "experiment",
    "point",
    "test",
    "fits",
    "diagnostics_ok",
    "diagnostics_ok_se",
    "refitted",
    "meets_target",
]


def sampler_health(aggregates: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Share of fits passing the diagnostics (and refitted) per experiment, point and test.

    Parameters
    ----------
    aggregates : mapping
        Experiment id -> aggregate table (:func:`cvcompare.experiments.metrics.aggregate`).
        Experiments without the metric ``diagnostics_ok`` are left out.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`HEALTH_COLUMNS`, one row per (experiment, grid point, test) with
        fits; ``refitted`` is NaN where the experiment does not report it, and
        ``meets_target`` tells whether the share passing reaches :data:`TARGET_SHARE`.
    """
    rows = []
    for eid, agg in aggregates.items():
        ok = agg[agg["metric"] == "diagnostics_ok"]
        refit = agg[agg["metric"] == "refitted"].set_index(["point", "test"])["value"]
        for r in ok.itertuples(index=False):
            rows.append(
                {
                    "experiment": eid,
                    "point": r.point,
                    "test": r.test,
                    "fits": int(r.n),
                    "diagnostics_ok": float(r.value),
                    "diagnostics_ok_se": float(r.se),
                    "refitted": float(refit.get((r.point, r.test), np.nan)),
                    "meets_target": bool(r.value >= TARGET_SHARE),
                }
            )
    return pd.DataFrame(rows, columns=HEALTH_COLUMNS)


def health_warnings(table: pd.DataFrame) -> list[str]:
    """One line per grid point of :func:`sampler_health` that misses the target share."""
    return [
        f"{r.experiment} at {point_text(r.point)} ({r.test}): only {r.diagnostics_ok:.1%} of "
        f"{r.fits} fits pass the sampler diagnostics (target {TARGET_SHARE:.0%}); "
        f"refitted {r.refitted:.1%}"
        for r in table.itertuples(index=False)
        if not r.meets_target
    ]


def health_markdown(table: pd.DataFrame, fidelity: str) -> str:
    """The sampler-health table as Markdown, with the grid points below target marked."""
    lines = [
        f"# Sampler health of the hierarchical fits ({fidelity} fidelity)",
        "",
        "| Experiment | Grid point | Fits | Passing diagnostics | Refitted | Target met |",
        "|---|---|---|---|---|---|",
    ]
    for r in table.itertuples(index=False):
        refit = "" if np.isnan(r.refitted) else f"{r.refitted:.3f}"
        lines.append(
            f"| {r.experiment} | {point_text(r.point)} | {r.fits} | {r.diagnostics_ok:.3f} ± "
            f"{r.diagnostics_ok_se:.3f} | {refit} | {'yes' if r.meets_target else 'NO'} |"
        )
    lines += [
        "",
        f"A fit passes when {PASS_RULE}; the target is {TARGET_SHARE:.0%} of the fits of "
        "every grid point. A fit failing them is refitted with longer warm-up, more draws "
        "and a higher adapt_delta; the share passing counts the kept fits.",
    ]
    return "\n".join(lines) + "\n"
