"""Operating characteristics of tests, with Monte Carlo standard errors.

Every metric summarises the replications of one grid point for one test and returns the
estimate, its Monte Carlo standard error and the number of replications used:

``rate``
    Share of replications where a boolean column is true (rejection rate, power, type I
    error, indeterminacy). Binomial standard error ``sqrt(p (1 - p) / n)``.
``share_above``
    Share of replications where a probability column (or the largest of several columns)
    exceeds ``threshold`` (equivalence recognition: ``p_rope > 0.95``). Binomial error.
``mean``
    Mean of a numeric column (mean posterior probability, squared error, expected loss).
    Standard error ``s / sqrt(n)`` with the sample standard deviation ``s``.
``paired_difference``
    Mean over replications of ``column[test] - column[baseline]`` on the *same*
    replications (e.g. the power gap between two tests run on the same data); its error
    ``s_d / sqrt(n)`` accounts for the correlation between the two tests. The baseline
    may read another column (``baseline_column``), and with a ``threshold`` both sides
    become decisions ``value > threshold`` first (booleans count as 0 and 1), e.g. the
    gap between the power of ``p(right) > 0.95`` and of a test's rejections.
``replicability``
    Replicability ``R = 1 - 2 sum_i (e_i - mean e)^2 / (n - 1)`` of a boolean decision
    (Benavoli et al. 2014, Sec. 4.2), with its exact spread over sets of as many decisions
    at the share observed as standard error.
``evidence``
    Share of replications where the posterior odds of one hypothesis (``column``) over
    the others (``columns``: over ``all`` of them, the smallest odds, or over ``any``,
    the largest) fall in the listed ``grades`` of Corani et al. (2017), Table 3 (weak,
    positive, strong); with ``unless_above``, replications where ``column`` itself
    exceeds that probability (already decisive) are not counted. Binomial error.
``reduction``
    Relative reduction ``1 - mean(column) / mean(reference)`` of two columns on the same
    replications (e.g. the MSE reduction of shrinkage), with the delta-method error of a
    ratio of means.
``quantile``
    Quantile of a column at ``probability`` (the boxes of a boxplot), with a
    distribution-free standard error from the sample quantiles at ``p -/+ sqrt(p (1 - p) / n)``.
``histogram``
    The distribution of a numeric column over the replications: for each bin
    ``[low, high)`` of ``bins`` (the last one closed) the share of replications falling
    in it, with its binomial error; one aggregate row per bin, with columns ``bin_low``
    and ``bin_high`` (empty for the other kinds).

Any metric may be restricted to the replications in which another test's boolean column is
true, ``given: {test: idp, column: indeterminate}`` (e.g. the loss of the Wilcoxon test in
the runs where the IDP test is indeterminate, Benavoli et al. 2014, Tables 2-3); its ``n``
is then the number of such replications, and where there are none the estimate is NaN with
``n = 0``.

References
----------
Morris, T. P., White, I. R. & Crowther, M. J. (2019). Using simulation studies to evaluate
statistical methods. Statistics in Medicine 38, 2074-2102, Table 6 (Monte Carlo SEs).
Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A Bayesian
Wilcoxon signed-rank test based on the Dirichlet process. ICML, Sec. 5 (replicability).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from cvcompare.experiments.registry import NON_NEGATIVE_COLUMNS

__all__ = [
    "METRIC_KINDS",
    "PROPORTION_KINDS",
    "Estimate",
    "aggregate",
    "error_bounds",
    "evidence_estimate",
    "histogram_estimates",
    "mean_estimate",
    "quantile_estimate",
    "rate_estimate",
    "reduction_estimate",
    "replicability_estimate",
]


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate.

    Attributes
    ----------
    value : float
        The estimate.
    se : float
        Its Monte Carlo standard error.
    n : int
        Number of replications it is based on.
    """

    value: float
    se: float
    n: int


def _values(x: object, name: str, *, boolean: bool) -> np.ndarray:
    arr = np.asarray(x)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name}: expected a non-empty 1-D array, got shape {arr.shape}")
    if boolean:
        if arr.dtype != bool:
            raise TypeError(f"{name}: expected booleans (decisions), got dtype {arr.dtype}")
        return arr
    arr = arr.astype(float)
    if not np.all(np.isfinite(arr)):
        raise ValueError(
            f"{name}: {int((~np.isfinite(arr)).sum())} of {arr.size} values are NaN or "
            "infinite; a metric is only defined when every replication produced a value"
        )
    return arr


def rate_estimate(decisions: object, name: str = "decisions") -> Estimate:
    """Share of true values with the binomial standard error ``sqrt(p (1 - p) / n)``.

    The plug-in error is 0 when no (or every) replication succeeds; the number of
    replications ``n`` is reported so that an exact bound can be derived (e.g. the
    one-sided 95% upper bound ``1 - 0.05**(1/n)`` when the rate is 0).

    Examples
    --------
    >>> rate_estimate([True, False, False, False])
    Estimate(value=0.25, se=0.21650635094610965, n=4)
    """
    arr = _values(decisions, name, boolean=True)
    n = arr.size
    p = float(arr.mean())
    return Estimate(p, float(np.sqrt(p * (1.0 - p) / n)), n)


def mean_estimate(values: object, name: str = "values") -> Estimate:
    """Mean with standard error ``s / sqrt(n)`` (``s``: sample sd, ``ddof=1``).

    With a single replication the error is NaN (undefined), not 0.
    """
    arr = _values(values, name, boolean=False)
    n = arr.size
    se = float(arr.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return Estimate(float(arr.mean()), se, n)


def replicability_estimate(decisions: object, name: str = "decisions") -> Estimate:
    """Replicability ``R = 1 - 2 sum (e_i - mean e)^2 / (n - 1)`` of binary decisions.

    For 0/1 decisions with mean ``p``, ``R = 1 - 2 n p (1 - p) / (n - 1)``. Its standard
    error is the standard deviation of ``R`` over sets of ``n`` decisions drawn with the
    share ``p`` observed, computed exactly from the binomial distribution of their count.
    (The delta method's ``2 n / (n - 1) |1 - 2 p| sqrt(p (1 - p) / n)`` vanishes at
    ``p = 1/2``: 0 for 5 of 10 decisions, whose exact error is 0.075.)

    References
    ----------
    Benavoli et al. (2014), Sec. 4.2, definition of replicability.
    """
    arr = _values(decisions, name, boolean=True)
    n = arr.size
    if n < 2:
        raise ValueError(f"{name}: replicability needs at least 2 replications, got {n}")
    p = float(arr.mean())
    factor = 2.0 * n / (n - 1)
    value = 1.0 - factor * p * (1.0 - p)
    share = np.arange(n + 1) / n  # of every count of the n decisions
    shortfall = factor * share * (1.0 - share)  # 1 - R at each count
    weights = stats.binom.pmf(np.arange(n + 1), n, p)
    se = np.sqrt(np.sum(weights * (shortfall - np.sum(weights * shortfall)) ** 2))
    return Estimate(float(value), float(se), n)


def evidence_estimate(
    favoured: object,
    others: Sequence[object],
    grades: Sequence[str],
    *,
    over: str = "all",
    unless_above: float | None = None,
) -> Estimate:
    """Share of replications whose posterior odds for a hypothesis reach given grades.

    Parameters
    ----------
    favoured : array-like
        ``(n,)`` posterior probability of the hypothesis (e.g. ``p(right)``).
    others : sequence of array-like
        Posterior probabilities of the hypotheses it is weighed against.
    grades : sequence of str
        Grades counted (:func:`cvcompare.stats.odds.evidence_grade`: ``"weak"``,
        ``"positive"``, ``"strong"``).
    over : {"all", "any"}
        ``"all"``: the evidence over every other hypothesis, i.e. the grade of the smallest
        odds; ``"any"``: over at least one, the grade of the largest odds.
    unless_above : float, optional
        Replications where ``favoured`` exceeds this probability are not counted (the
        paper counts odds-based evidence "even if p(right) does not exceed 95%").

    Returns
    -------
    Estimate
        The share of all replications, with the binomial error.

    References
    ----------
    Corani et al. (2017), Sec. 4.6 (posterior odds, Table 3) and Sec. 4.7.
    """
    from cvcompare.stats.odds import evidence_grade, posterior_odds

    if over not in ("all", "any"):
        raise ValueError(f"over: expected 'all' or 'any', got {over!r}")
    known = {"none", "weak", "positive", "strong"}
    if not grades or set(grades) - known:
        raise ValueError(f"grades: expected grades among {sorted(known)}, got {list(grades)}")
    p_a = _values(favoured, "favoured", boolean=False)
    rivals = [_values(o, "others", boolean=False) for o in others]
    if not rivals or any(r.shape != p_a.shape for r in rivals):
        raise ValueError("others: expected one or more arrays of the shape of favoured")
    pick = min if over == "all" else max
    odds = [pick(posterior_odds(a, r[i]) for r in rivals) for i, a in enumerate(p_a)]
    counted = np.array([evidence_grade(o) in grades for o in odds], dtype=bool)
    if unless_above is not None:
        counted &= p_a <= unless_above
    return rate_estimate(counted, "evidence")


def reduction_estimate(values: object, reference: object) -> Estimate:
    """Relative reduction ``1 - mean(values) / mean(reference)`` over paired replications.

    The standard error is the delta-method error of the ratio of means
    ``R = mean(y) / mean(x)``: ``sd(y - R x) / (sqrt(n) |mean(x)|)`` (Stuart & Ord,
    Sec. 10.5), which accounts for the correlation of the pairs.
    """
    y = _values(values, "values", boolean=False)
    x = _values(reference, "reference", boolean=False)
    if x.shape != y.shape:
        raise ValueError(f"values, reference: expected equal shapes, got {y.shape}, {x.shape}")
    n = y.size
    if n < 2 or x.mean() == 0:
        raise ValueError("reference: expected at least 2 replications and a non-zero mean")
    ratio = y.mean() / x.mean()
    se = float((y - ratio * x).std(ddof=1) / (np.sqrt(n) * abs(x.mean())))
    return Estimate(float(1.0 - ratio), se, n)


def quantile_estimate(values: object, probability: float) -> Estimate:
    """Sample quantile (linear interpolation) with a distribution-free standard error.

    The error is half the distance between the sample quantiles (linear interpolation,
    as the estimate) at ``p -/+ sqrt(p (1 - p) / n)`` (clipped to [0, 1]), the
    one-standard-error binomial interval of the quantile (asymptotically
    ``sqrt(p (1 - p) / n) / f(x_p)``, the normal-theory error). Rounding those probabilities
    outwards to whole order statistics would widen the interval by up to two ranks, about
    17% at ``p = 0.05`` and ``n = 200``.
    """
    arr = np.sort(_values(values, "values", boolean=False))
    if not 0 <= probability <= 1:
        raise ValueError(f"probability: expected a number in [0, 1], got {probability!r}")
    n = arr.size
    step = np.sqrt(probability * (1 - probability) / n)
    low, high = max(0.0, probability - step), min(1.0, probability + step)
    se = float((np.quantile(arr, high) - np.quantile(arr, low)) / 2)
    return Estimate(float(np.quantile(arr, probability)), se, n)


def histogram_estimates(
    values: object, bins: Sequence[float], name: str = "values"
) -> list[tuple[float, float, Estimate]]:
    """Share of values in each bin ``[low, high)`` (the last bin closed), with binomial errors.

    Parameters
    ----------
    values : array_like
        One value per replication (finite).
    bins : sequence of float
        At least two strictly increasing edges; every value must lie between the first
        and the last.
    name : str
        Names the values in error messages.

    Returns
    -------
    list of (float, float, Estimate)
        ``(low, high, share)`` for each bin, in order; the shares sum to 1.

    Examples
    --------
    >>> [round(e.value, 2) for _, _, e in histogram_estimates([0.1, 0.6, 1.0, 0.2], [0, 0.5, 1])]
    [0.5, 0.5]
    """
    arr = _values(values, name, boolean=False)
    edges = np.asarray(bins, dtype=float)
    if edges.ndim != 1 or edges.size < 2 or not np.all(np.diff(edges) > 0):
        raise ValueError(f"bins: expected at least two increasing edges, got {list(bins)}")
    outside = (arr < edges[0]) | (arr > edges[-1])
    if outside.any():
        raise ValueError(
            f"{name}: {int(outside.sum())} value(s) outside the bins "
            f"[{edges[0]:g}, {edges[-1]:g}], e.g. {arr[outside][0]:g}"
        )
    which = np.minimum(np.searchsorted(edges, arr, side="right") - 1, edges.size - 2)
    return [
        (float(edges[i]), float(edges[i + 1]), rate_estimate(which == i, name))
        for i in range(edges.size - 1)
    ]


def _column(rows: pd.DataFrame, column: str, metric: str) -> pd.Series:
    if column not in rows.columns:
        raise ValueError(
            f"metric {metric!r}: column {column!r} is not in the results "
            f"(columns: {sorted(rows.columns)})"
        )
    return rows[column]


def _bool_column(rows: pd.DataFrame, column: str, metric: str) -> np.ndarray:
    """A column of decisions: every value True or False (a column holding numbers is
    refused, not read as "non-zero")."""
    col = _column(rows, column, metric)
    if col.isna().any():
        raise ValueError(f"metric {metric!r}: column {column!r} has missing values")
    values = col.to_numpy()
    if values.dtype != bool:
        other = next((v for v in values if not isinstance(v, (bool, np.bool_))), None)
        if other is not None:
            raise TypeError(
                f"metric {metric!r}: column {column!r} holds {other!r}; expected True or "
                "False in every row (a column of decisions)"
            )
    return values.astype(bool)


def _rate(rows: pd.DataFrame, m: Mapping[str, Any], _: pd.DataFrame | None) -> Estimate:
    return rate_estimate(_bool_column(rows, m["column"], m["id"]), m["column"])


def _share_above(rows: pd.DataFrame, m: Mapping[str, Any], _: pd.DataFrame | None) -> Estimate:
    cols = m["columns"] if "columns" in m else [m["column"]]
    stacked = np.column_stack(
        [_values(_column(rows, c, m["id"]).to_numpy(), c, boolean=False) for c in cols]
    )
    return rate_estimate(stacked.max(axis=1) > float(m["threshold"]), m["id"])


def _mean(rows: pd.DataFrame, m: Mapping[str, Any], _: pd.DataFrame | None) -> Estimate:
    return mean_estimate(_column(rows, m["column"], m["id"]).to_numpy(), m["column"])


def _paired_difference(
    rows: pd.DataFrame, m: Mapping[str, Any], baseline: pd.DataFrame | None
) -> Estimate:
    assert baseline is not None
    a = pd.Series(
        _column(rows, m["column"], m["id"]).to_numpy(), index=rows["replication"].to_numpy()
    )
    b_col = _column(baseline, m.get("baseline_column", m["column"]), m["id"])
    b = pd.Series(b_col.to_numpy(), index=baseline["replication"].to_numpy())
    if not a.index.equals(b.index):
        a, b = a.align(b, join="inner")
    a, b = a.astype(float).to_numpy(), b.astype(float).to_numpy()
    if "threshold" in m:
        a, b = (a > float(m["threshold"])).astype(float), (b > float(m["threshold"])).astype(float)
    return mean_estimate(a - b, m["id"])


def _replicability(rows: pd.DataFrame, m: Mapping[str, Any], _: pd.DataFrame | None) -> Estimate:
    return replicability_estimate(_bool_column(rows, m["column"], m["id"]), m["column"])


def _histogram(
    rows: pd.DataFrame, m: Mapping[str, Any], _: pd.DataFrame | None
) -> list[tuple[float, float, Estimate]]:
    return histogram_estimates(_column(rows, m["column"], m["id"]).to_numpy(), m["bins"], m["id"])


def _evidence(rows: pd.DataFrame, m: Mapping[str, Any], _: pd.DataFrame | None) -> Estimate:
    return evidence_estimate(
        _column(rows, m["column"], m["id"]).to_numpy(),
        [_column(rows, c, m["id"]).to_numpy() for c in m["columns"]],
        m["grades"],
        over=m.get("over", "all"),
        unless_above=m.get("unless_above"),
    )


def _reduction(rows: pd.DataFrame, m: Mapping[str, Any], _: pd.DataFrame | None) -> Estimate:
    return reduction_estimate(
        _column(rows, m["column"], m["id"]).to_numpy(),
        _column(rows, m["reference"], m["id"]).to_numpy(),
    )


def _quantile(rows: pd.DataFrame, m: Mapping[str, Any], _: pd.DataFrame | None) -> Estimate:
    return quantile_estimate(_column(rows, m["column"], m["id"]).to_numpy(), m["probability"])


#: Each kind returns an :class:`Estimate`, or (``histogram``) ``(low, high, Estimate)`` bins.
METRIC_KINDS: dict[str, Callable[[pd.DataFrame, Mapping[str, Any], Any], Any]] = {
    "rate": _rate,
    "share_above": _share_above,
    "mean": _mean,
    "paired_difference": _paired_difference,
    "replicability": _replicability,
    "evidence": _evidence,
    "reduction": _reduction,
    "quantile": _quantile,
    "histogram": _histogram,
}


#: The kinds whose estimate is a share of replications (:func:`rate_estimate`).
PROPORTION_KINDS = frozenset({"rate", "share_above", "evidence", "histogram"})


def error_bounds(
    table: pd.DataFrame,
    kinds: Mapping[str, str],
    z: float = 2.0,
    non_negative: Collection[str] = (),
) -> pd.DataFrame:
    """``table`` with columns ``low`` and ``high``: the error bars of its estimates.

    A share of replications (a metric of a kind in :data:`PROPORTION_KINDS`) gets Wilson's
    score interval, the ``p`` with ``(value - p)^2 = z^2 p (1 - p) / n``:

        (value + z^2 / (2 n) -/+ z sqrt(value (1 - value) / n + z^2 / (4 n^2))) / (1 + z^2 / n),

    which stays within [0, 1] and has a width when no (or every) replication succeeds,
    where ``value -/+ z se`` would pass below 0 or have none (Agresti & Coull 1998). Any
    other estimate gets ``value -/+ z se``, cut at 0 for a mean that cannot be negative (a
    metric in ``non_negative``, e.g. an average loss): the interval's part below 0 holds
    no value the mean can take, so cutting it keeps the coverage. With ``z = 2``, either is
    an interval of about 95%.

    Parameters
    ----------
    table : pandas.DataFrame
        Aggregate rows (``metric``, ``value``, ``se``, ``n``).
    kinds : mapping
        The kind of each metric id; a metric not listed (e.g. an analysis' reported
        number) is not a share.
    z : float
        Multiplier of the standard error.
    non_negative : collection of str
        The ids of the metrics whose value cannot be negative.

    Returns
    -------
    pandas.DataFrame
        A copy of ``table`` with the two columns added.

    References
    ----------
    Agresti, A. & Coull, B. A. (1998). Approximate is better than "exact" for interval
    estimation of binomial proportions. The American Statistician 52, 119-126.
    """
    out = table.copy()
    value, se = out["value"].to_numpy(float), out["se"].to_numpy(float)
    out["low"], out["high"] = value - z * se, value + z * se
    share = out["metric"].map(lambda m: kinds.get(m) in PROPORTION_KINDS).to_numpy(bool)
    if share.any():
        p, n = value[share], out["n"].to_numpy(float)[share]
        with np.errstate(divide="ignore", invalid="ignore"):
            shrink = 1 + z**2 / n
            centre = (p + z**2 / (2 * n)) / shrink
            half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / shrink
        # the interval holds the value and lies in [0, 1]; these bounds only undo rounding
        # (NaN, where no replication counts, stays NaN)
        out.loc[share, "low"] = np.clip(np.minimum(centre - half, p), 0.0, None)
        out.loc[share, "high"] = np.clip(np.maximum(centre + half, p), None, 1.0)
    floor = out["metric"].isin(non_negative).to_numpy(bool) & ~share
    out.loc[floor, "low"] = out.loc[floor, "low"].clip(lower=0.0)
    return out


def _given(rows: pd.DataFrame, m: Mapping[str, Any], by_test: Mapping[str, pd.DataFrame]):
    """The rows of the replications in which ``m["given"]``'s test has its column true."""
    if "given" not in m:
        return rows
    cond = by_test.get(m["given"]["test"])
    if cond is None:
        raise ValueError(f"metric {m['id']!r}: no rows for the given test {m['given']['test']!r}")
    keep = cond["replication"][_bool_column(cond, m["given"]["column"], m["id"])]
    return rows[rows["replication"].isin(keep)]


def _value_order(value: object) -> tuple[int, float, str]:
    """Where a grid value sorts: numbers ascending, then words, then missing values."""
    if isinstance(value, Real) and not isinstance(value, bool | np.bool_):
        return (2, 0.0, "") if np.isnan(value) else (0, float(value), "")
    return (1, 0.0, str(value))


def _sort_key(column: pd.Series) -> pd.Series:
    """A column's values as their ranks under :func:`_value_order`."""
    rank = {v: i for i, v in enumerate(sorted(column.unique(), key=_value_order))}
    return column.map(rank)


def aggregate(
    rows: pd.DataFrame, metrics: Sequence[Mapping[str, Any]], grid: Sequence[str]
) -> pd.DataFrame:
    """Compute every declared metric for every grid point and test.

    Parameters
    ----------
    rows : pandas.DataFrame
        One row per replication and test, with columns ``experiment``, ``point``,
        ``replication``, ``test``, the grid columns and the tests' outputs.
    metrics : sequence of mapping
        The ``metrics`` entries of an experiment file: ``id``, ``kind``, ``column`` (or
        ``columns``), optional ``tests``, ``threshold``, ``baseline``, ``given``.
    grid : sequence of str
        Names of the grid columns, copied to the output.

    Returns
    -------
    pandas.DataFrame
        One row per (grid point, test, metric) with columns ``experiment``, ``point``,
        the grid columns, ``test``, ``metric``, ``value``, ``se``, ``low`` and ``high``
        (the error bar of :func:`error_bounds`: Wilson's interval for a share of
        replications), ``n`` and ``uncertainty`` (``"Monte Carlo"``), plus ``bin_low`` and
        ``bin_high`` when a ``histogram`` metric is declared (one row per bin); sorted by
        the grid columns, each ascending with numbers before words (q = 5, 10, 25, all;
        not 10, 25, 5 as text), so that the table does not depend on the order in which
        replications were computed.
    """
    out = []
    rows = rows.sort_values(["point", "test", "replication"], kind="stable")
    for point, at_point in rows.groupby("point", sort=True):
        first = at_point.iloc[0]
        by_test = {t: g for t, g in at_point.groupby("test", sort=True)}
        for m in metrics:
            kind = METRIC_KINDS[m["kind"]]
            for test in m.get("tests", sorted(by_test)):
                if test not in by_test:
                    raise ValueError(f"metric {m['id']!r}: no rows for test {test!r} at {point}")
                base = _given(by_test[m["baseline"]], m, by_test) if "baseline" in m else None
                kept = _given(by_test[test], m, by_test)
                result = kind(kept, m, base) if len(kept) else Estimate(np.nan, np.nan, 0)
                label = f"{test} - {m['baseline']}" if "baseline" in m else test
                binned = result if isinstance(result, list) else [(None, None, result)]
                for low, high, est in binned:
                    out.append(
                        {
                            "experiment": first["experiment"],
                            "point": point,
                            **{g: first[g] for g in grid},
                            "test": label,
                            "metric": m["id"],
                            **({} if low is None else {"bin_low": low, "bin_high": high}),
                            "value": est.value,
                            "se": est.se,
                            "n": est.n,
                            "uncertainty": "Monte Carlo",
                        }
                    )
    bins = ["bin_low", "bin_high"] if any(m["kind"] == "histogram" for m in metrics) else []
    keys = ["experiment", "point", *grid, "test", "metric", *bins]
    table = (
        pd.DataFrame(out, columns=[*keys, "value", "se", "n", "uncertainty"])
        .sort_values([*grid, "point", "metric", "test", *bins], key=_sort_key, kind="stable")
        .reset_index(drop=True)
    )
    non_negative = [
        m["id"] for m in metrics if m["kind"] == "mean" and m.get("column") in NON_NEGATIVE_COLUMNS
    ]
    table = error_bounds(table, {m["id"]: m["kind"] for m in metrics}, non_negative=non_negative)
    return table[[*keys, "value", "se", "low", "high", "n", "uncertainty"]]
