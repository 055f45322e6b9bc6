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
    ``s_d / sqrt(n)`` accounts for the correlation between the two tests.
``replicability``
    Replicability ``R = 1 - 2 sum_i (e_i - mean e)^2 / (n - 1)`` of a boolean decision
    (Benavoli et al. 2014, Sec. 5), with a delta-method standard error.
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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "METRIC_KINDS",
    "Estimate",
    "aggregate",
    "histogram_estimates",
    "mean_estimate",
    "rate_estimate",
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

    For 0/1 decisions with mean ``p``, ``R = 1 - 2 n p (1 - p) / (n - 1)``; its
    delta-method standard error is ``2 n / (n - 1) |1 - 2 p| sqrt(p (1 - p) / n)``.

    References
    ----------
    Benavoli et al. (2014), Sec. 5, definition of replicability.
    """
    arr = _values(decisions, name, boolean=True)
    n = arr.size
    if n < 2:
        raise ValueError(f"{name}: replicability needs at least 2 replications, got {n}")
    p = float(arr.mean())
    factor = 2.0 * n / (n - 1)
    value = 1.0 - factor * p * (1.0 - p)
    se = factor * abs(1.0 - 2.0 * p) * np.sqrt(p * (1.0 - p) / n)
    return Estimate(float(value), float(se), n)


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
    col = _column(rows, column, metric)
    if col.isna().any():
        raise ValueError(f"metric {metric!r}: column {column!r} has missing values")
    return col.to_numpy(dtype=bool)


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
    a = rows.set_index("replication")[m["column"]]
    b = baseline.set_index("replication")[m["column"]]
    if not a.index.equals(b.index):
        a, b = a.align(b, join="inner")
    diff = a.astype(float).to_numpy() - b.astype(float).to_numpy()
    return mean_estimate(diff, m["id"])


def _replicability(rows: pd.DataFrame, m: Mapping[str, Any], _: pd.DataFrame | None) -> Estimate:
    return replicability_estimate(_bool_column(rows, m["column"], m["id"]), m["column"])


def _histogram(
    rows: pd.DataFrame, m: Mapping[str, Any], _: pd.DataFrame | None
) -> list[tuple[float, float, Estimate]]:
    return histogram_estimates(_column(rows, m["column"], m["id"]).to_numpy(), m["bins"], m["id"])


#: Each kind returns an :class:`Estimate`, or (``histogram``) ``(low, high, Estimate)`` bins.
METRIC_KINDS: dict[str, Callable[[pd.DataFrame, Mapping[str, Any], Any], Any]] = {
    "rate": _rate,
    "share_above": _share_above,
    "mean": _mean,
    "paired_difference": _paired_difference,
    "replicability": _replicability,
    "histogram": _histogram,
}


def _given(rows: pd.DataFrame, m: Mapping[str, Any], by_test: Mapping[str, pd.DataFrame]):
    """The rows of the replications in which ``m["given"]``'s test has its column true."""
    if "given" not in m:
        return rows
    cond = by_test.get(m["given"]["test"])
    if cond is None:
        raise ValueError(f"metric {m['id']!r}: no rows for the given test {m['given']['test']!r}")
    keep = cond["replication"][_bool_column(cond, m["given"]["column"], m["id"])]
    return rows[rows["replication"].isin(keep)]


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
        the grid columns, ``test``, ``metric``, ``value``, ``se``, ``n`` and ``uncertainty``
        (``"Monte Carlo"``), plus ``bin_low`` and ``bin_high`` when a ``histogram``
        metric is declared (one row per bin); sorted, so that the table does not depend
        on the order in which replications were computed.
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
    columns = [
        *["experiment", "point", *grid, "test", "metric", *bins],
        *["value", "se", "n", "uncertainty"],
    ]
    return (
        pd.DataFrame(out, columns=columns)
        .sort_values(["point", "metric", "test", *bins])
        .reset_index(drop=True)
    )
