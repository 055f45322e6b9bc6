"""The comparison table: every number a paper states beside the reproduced one.

Paper numbers are inputs, kept in the experiment files with their source (``paper_numbers``
entries); the reproduced number is read from the experiment's aggregate table. A claim
names a metric, a test and a grid point (``at``); where ``at`` lists several values of an
axis (or leaves an axis out, meaning all its values) the reproduced number is the average
of the metric over those grid points, whose
replications are independent, so its standard error is ``sqrt(sum se_j^2) / J``.

A claim is *consistent* with the reproduction when, allowing two Monte Carlo standard errors
and the claim's stated ``tolerance`` (for "about" statements),

- ``relation: "<="``: ``reproduced - 2 se <= value + tolerance``;
- ``relation: ">="``: ``reproduced + 2 se >= value - tolerance``;
- ``relation: "~"``: ``|reproduced - value| <= tolerance + 2 se``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from cvcompare.experiments.spec import ExperimentSpec, point_label

__all__ = ["COMPARISON_COLUMNS", "comparison_table", "to_markdown"]

COMPARISON_COLUMNS = [
    "experiment",
    "claim",
    "source",
    "metric",
    "test",
    "at",
    "paper",
    "relation",
    "paper_value",
    "tolerance",
    "reproduced",
    "se",
    "n",
    "consistent",
    "note",
]


def _labels(spec: ExperimentSpec, at: Mapping[str, Any]) -> list[str]:
    """Labels of the grid points a claim refers to (all values of axes it leaves out)."""
    choices = []
    for axis in spec.grid:
        val = at.get(axis.name, list(axis.values))
        choices.append(val if isinstance(val, list) else [val])
    names = [a.name for a in spec.grid]
    return [
        point_label(dict(zip(names, combo, strict=True))) for combo in itertools.product(*choices)
    ]


def _consistent(relation: str, r: float, se: float, value: float, tol: float) -> bool:
    se = 0.0 if not np.isfinite(se) else se
    if relation == "<=":
        return bool(r - 2 * se <= value + tol)
    if relation == ">=":
        return bool(r + 2 * se >= value - tol)
    if relation == "~":
        return bool(abs(r - value) <= tol + 2 * se)
    raise ValueError(f"relation: expected '<=', '>=' or '~', got {relation!r}")


def comparison_table(
    specs: Sequence[ExperimentSpec], aggregates: Mapping[str, pd.DataFrame]
) -> pd.DataFrame:
    """Build the comparison table of all claims of the given experiments.

    Parameters
    ----------
    specs : sequence of ExperimentSpec
        The experiments, with their ``paper_numbers``.
    aggregates : mapping
        Experiment id -> aggregate table (:func:`cvcompare.experiments.metrics.aggregate`).

    Returns
    -------
    pandas.DataFrame
        One row per claim with the columns :data:`COMPARISON_COLUMNS`. A claim about grid
        points the fidelity did not run has ``reproduced`` NaN, ``consistent`` None and a
        note saying so.
    """
    rows = []
    for spec in specs:
        agg = aggregates[spec.id]
        for claim in spec.paper_numbers:
            labels = _labels(spec, claim["at"])
            sel = agg[
                (agg["metric"] == claim["metric"])
                & (agg["test"] == claim["test"])
                & agg["point"].isin(labels)
            ]
            tol = float(claim.get("tolerance", 0.0))
            note = claim.get("note", "")
            if len(sel) == len(labels):
                reproduced = float(sel["value"].mean())
                se = float(np.sqrt(np.sum(sel["se"].to_numpy() ** 2)) / len(sel))
                consistent = _consistent(
                    claim["relation"], reproduced, se, float(claim["value"]), tol
                )
            else:  # a fidelity that runs part of the grid (by_fidelity)
                missing = sorted(set(labels) - set(sel["point"]))
                reproduced, se, consistent = float("nan"), float("nan"), None
                note = f"not run at this fidelity: {', '.join(missing)}. {note}".strip()
            rows.append(
                {
                    "experiment": spec.id,
                    "claim": claim["claim"],
                    "source": claim["source"],
                    "metric": claim["metric"],
                    "test": claim["test"],
                    "at": ", ".join(f"{key}={val}" for key, val in claim["at"].items()),
                    "paper": claim["paper"],
                    "relation": claim["relation"],
                    "paper_value": float(claim["value"]),
                    "tolerance": tol,
                    "reproduced": reproduced,
                    "se": se,
                    "n": int(sel["n"].sum()),
                    "consistent": consistent,
                    "note": note,
                }
            )
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS)


def to_markdown(table: pd.DataFrame) -> str:
    """Render the comparison table as a Markdown table (reproduced as ``value ± SE``)."""
    header = ["Experiment", "Claim", "Source", "Paper", "Reproduced ± SE (n)", "Consistent", "Note"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in table.itertuples(index=False):
        if r.consistent is None or pd.isna(r.consistent):
            rep, ok = "not run", "n/a"
        else:
            rep = f"{r.reproduced:.4g} ± {r.se:.2g} ({r.n})"
            ok = "yes" if r.consistent else "NO"
        cells = [r.experiment, r.claim, r.source, r.paper, rep, ok, r.note]
        lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"
