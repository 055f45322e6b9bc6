"""The comparison table: every number a paper states beside the reproduced one.

Paper numbers are inputs, kept in the experiment files with their source (``paper_numbers``
entries); the reproduced number is read from the experiment's aggregate table. A claim
names a metric, a test and a grid point (``at``); where ``at`` lists several values of an
axis (or leaves an axis out, meaning all its values) the reproduced number is the average
of the metric over those grid points, whose
replications are independent, so its standard error is ``sqrt(sum se_j^2) / J``. A claim's
``summary`` says how the points are combined when the paper's number is not a plain average:

- ``mean`` (the default): the average over the points;
- ``sum``: their sum, e.g. the number of pairs a test finds different, from a 0/1 decision
  per pair;
- ``pooled``: the average weighted by each point's ``n``, i.e. the pooled rate of a metric
  restricted to some replications (``given``), over all the replications kept;
- ``area``: the area under the metric's curve along the grid axis ``over`` (uniformly
  spaced values ``x_j``, step ``dx``), the Riemann sum ``sum_j f(x_j) dx`` in which each grid
  point stands for a cell of width ``dx`` (averaged over any other axis listed), as
  Benavoli et al. (2014), Sec. 4, summarise a loss curve over the differences of accuracy.

In every case the reproduced number is ``sum_j w_j f_j`` with standard error
``sqrt(sum_j w_j^2 se_j^2)``, the weights taken as fixed.

A claim about how a metric changes between grid points (e.g. "the distribution is
practically unchanged in case 2") gives a second set of grid points, ``minus``, in the same
form (``at`` values of the axes ``minus`` leaves out are kept): its summary is subtracted,
and the two sets' independent errors are added in quadrature.

A claim is *consistent* with the reproduction when, allowing two Monte Carlo standard errors
(for a share of replications that is 0 or 1 at every point, whose plug-in error is 0, the
distance to the exact two-sided 95% bound of its summary instead: ``1 - 0.025^(1 / n)`` for
one point or a pooled rate over ``n`` replications in all) and the claim's stated
``tolerance`` (for "about" statements),

- ``relation: "<="``: ``reproduced - 2 se <= value + tolerance``;
- ``relation: ">="``: ``reproduced + 2 se >= value - tolerance``;
- ``relation: "~"``: ``|reproduced - value| <= tolerance + 2 se``.

A number a paper prints rounded has half a unit of its last printed digit as its
``tolerance`` (or more, for an "about"), and a claim's ``decimals`` puts the reproduced
number rounded to that many decimals beside the exact one. Each row says what its
uncertainty is: ``"Monte Carlo"`` for simulations, ``"exact"`` for closed forms and
deterministic computations, ``"posterior sampling"`` for numbers read from Stan draws.
Where the experiment fits the hierarchical model and reports the metric
``diagnostics_ok``, the row carries the share of its fits that passed the sampler
diagnostics at the claim's grid points, pooled and at the grid point with the smallest
share.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from cvcompare.experiments.metrics import PROPORTION_KINDS
from cvcompare.experiments.spec import ExperimentSpec, point_label, point_text
from cvcompare.hierarchical.diagnostics import PASS_RULE

__all__ = [
    "COMPARISON_COLUMNS",
    "comparison_page",
    "comparison_table",
    "point_labels_at",
    "summarise",
    "summary_weights",
    "to_markdown",
]

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
    "uncertainty",
    "decimals",
    "reproduced_rounded",
    "diagnostics_ok",
    "diagnostics_ok_min",
    "consistent",
    "verdict",
    "note",
]


def point_labels_at(spec: ExperimentSpec, at: Mapping[str, Any]) -> list[str]:
    """Labels of the grid points ``at`` refers to (a value or a list of values per axis;
    every value of an axis it leaves out)."""
    choices = []
    for axis in spec.grid:
        val = at.get(axis.name, list(axis.values))
        choices.append(val if isinstance(val, list) else [val])
    names = [a.name for a in spec.grid]
    return [
        point_label(dict(zip(names, combo, strict=True))) for combo in itertools.product(*choices)
    ]


def _select(
    agg: pd.DataFrame, claim: Mapping[str, Any], labels: list[str]
) -> tuple[pd.DataFrame, list[str]]:
    """The aggregate rows of a claim's metric and test at ``labels``, and the labels absent."""
    keep = (agg["metric"] == claim["metric"]) & (agg["test"] == claim["test"])
    sel = agg[keep & agg["point"].isin(labels)]
    return sel, sorted(set(labels) - set(sel["point"]))


def _at_text(claim: Mapping[str, Any]) -> str:
    """The claim's grid points as text (``at`` and, where given, ``minus``)."""
    text = ", ".join(f"{key}={val}" for key, val in claim["at"].items())
    if "minus" in claim:
        text += " minus " + ", ".join(f"{key}={val}" for key, val in claim["minus"].items())
    return text


def _points_text(labels: list[str]) -> str:
    """Grid point labels as text, the first three of a longer list and how many more
    (a claim over a whole curve misses dozens of points at a fidelity running part of it)."""
    shown = 3
    texts = [f"({point_text(label)})" for label in labels]
    if len(texts) <= shown + 1:
        return ", ".join(texts)
    return f"{', '.join(texts[:shown])} and {len(texts) - shown} more grid points"


def _consistent(relation: str, r: float, allowance: float, value: float, tol: float) -> bool:
    """Whether ``r``, give or take ``allowance`` (two standard errors), and ``value``, give
    or take ``tol``, stand in ``relation``."""
    if relation == "<=":
        return bool(r - allowance <= value + tol)
    if relation == ">=":
        return bool(r + allowance >= value - tol)
    if relation == "~":
        return bool(abs(r - value) <= tol + allowance)
    raise ValueError(f"relation: expected '<=', '>=' or '~', got {relation!r}")


def _exact_bound(w: np.ndarray, n: np.ndarray, alpha: float = 0.025) -> float:
    """The largest summary ``sum_j w_j p_j`` of rates under which no success in any point's
    ``n_j`` replications has probability ``alpha`` or more: the exact one-sided ``1 - alpha``
    bound of the summary when every point has 0 successes (``1 - alpha^(1 / n)`` for one
    point, ``sum(w) (1 - alpha^(1 / sum(n)))`` where ``n_j / w_j`` is the same at every point,
    as for a pooled rate).

    The most likely rates with a given summary maximise ``sum_j n_j log(1 - p_j)``:
    ``p_j = max(0, 1 - r_j / lam)`` with ``r_j = n_j / w_j``, the points of the smallest
    ``r_j`` first; ``lam`` makes their probability ``alpha``.
    """
    r = n / w
    order = np.argsort(r, kind="stable")
    r, n, w = r[order], n[order], w[order]
    for m in range(1, r.size + 1):
        log_lam = (np.sum(n[:m] * np.log(r[:m])) - np.log(alpha)) / np.sum(n[:m])
        if m == r.size or log_lam <= np.log(r[m]):
            return float(np.sum(w[:m] * -np.expm1(np.log(r[:m]) - log_lam)))
    raise AssertionError("unreachable")


def _allowance(
    spec: ExperimentSpec, claim: Mapping[str, Any], sel: pd.DataFrame, se: float
) -> tuple[float, str]:
    """What the summary of the grid points ``sel`` may be off by, and a note: two standard
    errors, except for shares of replications that are all 0 or all 1 (no success, or no
    failure, in any point's ``n``), whose plug-in errors are 0: there, the distance of the
    summary to its exact two-sided 95% bound (:func:`_exact_bound`; 0 of 40 replications is
    consistent with a rate of 2%, not of 11%, and 0 of 2 x 40 not with one of 6%). The bounds
    of the points are not added up: 0 of 17 replications over 8 points is not consistent
    with a pooled rate of 50%."""
    kind = next(m["kind"] for m in spec.metrics if m["id"] == claim["metric"])
    w = summary_weights(claim, sel)
    values, n = sel["value"].to_numpy()[w > 0], sel["n"].to_numpy()[w > 0]
    edge = values.size and (np.all(values == 0) or np.all(values == 1)) and np.all(n > 0)
    if kind in PROPORTION_KINDS and "minus" not in claim and edge:
        bound = _exact_bound(w[w > 0], n.astype(float))
        total = int(n.sum())
        count = total if values[0] == 1 else 0
        return bound, f"{count} of {total} replications: judged with the exact 95% bound"
    return (2.0 * se if np.isfinite(se) else 0.0), ""


def summary_weights(claim: Mapping[str, Any], sel: pd.DataFrame) -> np.ndarray:
    """Weights ``w_j`` of a claim's grid points (rows of ``sel``) under its ``summary``.

    Parameters
    ----------
    claim : mapping
        A ``paper_numbers`` entry (``summary`` and, for ``area``, ``over``).
    sel : pandas.DataFrame
        The aggregate rows of the claim's metric and test at its grid points (columns
        ``value``, ``n`` and the grid axes).

    Examples
    --------
    >>> sel = pd.DataFrame({"delta": [0.0, 0.01, 0.02], "n": [10, 10, 20]})
    >>> summary_weights({"summary": "area", "over": "delta"}, sel).round(6).tolist()
    [0.01, 0.01, 0.01]
    >>> summary_weights({"summary": "pooled"}, sel).tolist()
    [0.25, 0.25, 0.5]
    >>> summary_weights({"summary": "sum"}, sel).tolist()  # e.g. a count of decisions
    [1.0, 1.0, 1.0]
    """
    how = claim.get("summary", "mean")
    if how == "mean":
        return np.full(len(sel), 1.0 / len(sel))
    if how == "sum":
        return np.ones(len(sel))
    if how == "pooled":
        n = sel["n"].to_numpy(dtype=float)
        if n.sum() == 0:
            return np.full(len(sel), np.nan)
        return n / n.sum()
    if how == "area":
        x = np.unique(sel[claim["over"]].to_numpy(dtype=float))
        steps = np.diff(x)
        if x.size < 2 or not np.allclose(steps, steps[0], rtol=1e-9, atol=0.0):
            what = claim.get("claim", claim.get("title"))
            raise ValueError(
                f"{what!r}: summary 'area' needs at least two uniformly "
                f"spaced values of {claim['over']!r}, got {x.tolist()}"
            )
        return np.full(len(sel), steps[0] * x.size / len(sel))
    raise ValueError(f"summary: expected 'mean', 'sum', 'pooled' or 'area', got {how!r}")


def _verdict(consistent: bool | None) -> str:
    if consistent is None:
        return "not run"
    return "consistent" if consistent else "NOT consistent"


def _diagnostics_share(agg: pd.DataFrame, test: str, labels: list[str]) -> tuple[float, float]:
    """Share of fits passing the sampler diagnostics at ``labels``, pooled and the smallest
    share of a single grid point (NaN, NaN if not reported)."""
    sel = agg[
        (agg["metric"] == "diagnostics_ok") & (agg["test"] == test) & agg["point"].isin(labels)
    ]
    if sel.empty:
        return float("nan"), float("nan")
    return float(np.sum(sel["value"] * sel["n"]) / np.sum(sel["n"])), float(sel["value"].min())


def summarise(claim: Mapping[str, Any], sel: pd.DataFrame) -> tuple[float, float]:
    """The summary ``sum_j w_j f_j`` of the grid points ``sel`` and its standard error.

    Parameters
    ----------
    claim : mapping
        ``summary`` (and ``over``) as for :func:`summary_weights`: a ``paper_numbers``
        entry, or a summary table of an experiment's ``table``.
    sel : pandas.DataFrame
        The aggregate rows summarised (columns ``value``, ``se``, ``n`` and the grid axes).

    Returns
    -------
    value, se : float
        ``sum_j w_j f_j`` and ``sqrt(sum_j w_j^2 se_j^2)`` over the points with a positive
        weight: a pooled summary gives the points without replications (``n = 0``) none,
        while a mean or an area over such a point (whose value is NaN) is NaN; NaN when no
        point has a weight.
    """
    w = summary_weights(claim, sel)
    used = w > 0
    if not used.any():
        return float("nan"), float("nan")
    value = float(np.sum(w[used] * sel["value"].to_numpy()[used]))
    return value, float(np.sqrt(np.sum((w[used] * sel["se"].to_numpy()[used]) ** 2)))


def comparison_table(
    specs: Sequence[ExperimentSpec],
    aggregates: Mapping[str, pd.DataFrame],
    *,
    missing: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Build the comparison table of all claims of the given experiments.

    Parameters
    ----------
    specs : sequence of ExperimentSpec
        The experiments, with their ``paper_numbers``.
    aggregates : mapping
        Experiment id -> aggregate table (:func:`cvcompare.experiments.metrics.aggregate`
        or :func:`cvcompare.experiments.analyses.run_analysis`).
    missing : mapping, optional
        Experiment id -> why it has no aggregate table (e.g. its input data is absent);
        its claims are listed as not run, with the reason.

    Returns
    -------
    pandas.DataFrame
        One row per claim with the columns :data:`COMPARISON_COLUMNS`. A claim about grid
        points the fidelity did not run has ``reproduced`` NaN, ``consistent`` None and a
        note saying so.
    """
    missing = dict(missing or {})
    rows = []
    for spec in specs:
        if spec.id not in aggregates and spec.id not in missing:
            raise ValueError(f"aggregates: no table for experiment {spec.id!r}")
        agg = aggregates.get(spec.id)
        for claim in spec.paper_numbers:
            labels = point_labels_at(spec, claim["at"])
            tol = float(claim.get("tolerance", 0.0))
            note = claim.get("note", "")
            decimals = claim.get("decimals")
            reproduced, se, consistent, uncertainty, n = float("nan"), float("nan"), None, "", 0
            diagnostics, diagnostics_min = float("nan"), float("nan")
            if agg is None:
                note = f"not run: {missing[spec.id]} {note}".strip()
            else:
                parts = [(1.0, *_select(agg, claim, labels))]
                if "minus" in claim:
                    other = point_labels_at(spec, {**claim["at"], **claim["minus"]})
                    parts.append((-1.0, *_select(agg, claim, other)))
                absent = sorted({p for _, _, missed in parts for p in missed})
                if not absent:
                    reproduced, variance = 0.0, 0.0
                    for sign, sel, _ in parts:
                        value, part_se = summarise(claim, sel)
                        reproduced += sign * value
                        variance += part_se**2
                    se = float(np.sqrt(variance))
                    used = pd.concat([sel for _, sel, _ in parts])
                    uncertainty = ", ".join(sorted(set(used["uncertainty"])))
                    n = int(used["n"].sum())
                    allowance, bound = _allowance(spec, claim, parts[0][1], se)
                    consistent = _consistent(
                        claim["relation"], reproduced, allowance, float(claim["value"]), tol
                    )
                    note = f"{bound}. {note}".strip() if bound else note
                    # a paired difference "a - b" is read from test a's fits
                    diagnostics, diagnostics_min = _diagnostics_share(
                        agg, claim["test"].split(" - ")[0], list(used["point"])
                    )
                else:  # a fidelity that runs part of the grid (by_fidelity)
                    note = f"not run at this fidelity: {_points_text(absent)}. {note}".strip()
            rows.append(
                {
                    "experiment": spec.id,
                    "claim": claim["claim"],
                    "source": claim["source"],
                    "metric": claim["metric"],
                    "test": claim["test"],
                    "at": _at_text(claim),
                    "paper": claim["paper"],
                    "relation": claim["relation"],
                    "paper_value": float(claim["value"]),
                    "tolerance": tol,
                    "reproduced": reproduced,
                    "se": se,
                    "n": n,
                    "uncertainty": uncertainty,
                    "decimals": decimals,
                    "reproduced_rounded": (
                        round(reproduced, decimals)
                        if decimals is not None and np.isfinite(reproduced)
                        else float("nan")
                    ),
                    "diagnostics_ok": diagnostics,
                    "diagnostics_ok_min": diagnostics_min,
                    "consistent": consistent,
                    "verdict": _verdict(consistent),
                    "note": note,
                }
            )
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS)


def _reproduced_text(r: Any) -> str:
    """``value ± se (n)``, ``value (exact)``, and the rounded value where the paper rounds."""
    if r.consistent is None or pd.isna(r.consistent):
        return "not run"
    if r.uncertainty == "exact":
        text = f"{r.reproduced:.6g} (exact)"
    else:
        text = f"{r.reproduced:.4g} ± {r.se:.2g} ({r.uncertainty}, n = {r.n})"
    if r.decimals is not None and not pd.isna(r.decimals):
        text = f"{r.reproduced_rounded:.{int(r.decimals)}f}; {text}"
    return text


def to_markdown(table: pd.DataFrame) -> str:
    """Render the comparison table as Markdown (the stated value with its tolerance, the
    reproduced one with its uncertainty), or a sentence saying that no experiment of the run
    states a number."""
    if table.empty:
        return "No experiment of this run states a number to compare (`paper_numbers`).\n"
    header = [
        "Experiment",
        "Claim",
        "Source",
        "Paper (or expected)",
        "Reproduced",
        "Fits passing diagnostics",
        "Verdict",
        "Note",
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in table.itertuples(index=False):
        diag = ""
        if not pd.isna(r.diagnostics_ok):
            diag = f"{r.diagnostics_ok:.3f} (lowest grid point {r.diagnostics_ok_min:.3f})"
        cells = [
            r.experiment,
            r.claim,
            r.source,
            f"{r.paper} (tolerance {r.tolerance:g})" if r.tolerance > 0 else r.paper,
            _reproduced_text(r),
            diag,
            r.verdict,
            r.note,
        ]
        lines.append("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def comparison_page(table: pd.DataFrame, fidelity: str) -> str:
    """The comparison page of a run at ``fidelity``: a heading, how the reproduced numbers'
    uncertainty is shown and when a claim is consistent (:func:`_consistent`,
    :func:`_allowance`), then the table (:func:`to_markdown`)."""
    return (
        f"# Paper numbers vs reproduction (fidelity: {fidelity})\n\n"
        "Reproduced values are shown with their uncertainty: ± one Monte Carlo standard "
        "error for simulations (n replications), ± one posterior-sampling standard error for "
        "numbers read from Stan draws, or exact; where a paper prints a rounded number, the "
        "reproduced one is shown rounded the same way first. A claim is consistent when it "
        "holds within two standard errors (for a share of replications that is 0 or 1, "
        "within its exact 95% bound) and its stated tolerance (half a unit of the last "
        "printed digit for rounded numbers). For experiments that fit the hierarchical "
        f"model, the share of fits passing the sampler diagnostics ({PASS_RULE}) is given. "
        "A note's \"see notes\" refers to the notes of the claim's experiment: its file "
        "config/experiments/<experiment>.yaml, and docs/targets.md."
        "\n\n" + to_markdown(table)
    )
