"""Tables of an experiment's aggregate: a pivot declared in the experiment file.

An experiment's ``table`` entry names the aggregate columns that form the rows and the
columns of the table (grid axes, ``test``, ``metric``) and optionally the metrics shown,
e.g. Corani et al. (2017), Table 5: rows ``[pair]``, columns ``[nu_prior, metric]``. The
CSV keeps every number with its standard error; the Markdown rounds to ``digits`` (a
metric listed in ``metric_digits`` to its own), optionally splits a sparse table into
dense ones (``split``) and writes ``value ± se`` where the number
is estimated (with ``(n = N)`` where the error rounds to 0), ``value`` where it is
exact, ``–`` where it is undefined (a metric
restricted to runs of which there were none), heads grid values with their axis
(``q = 50``) and says under the table what each test and metric id shown stands for
(:func:`table_key`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from cvcompare.experiments.comparison import point_labels_at, summarise
from cvcompare.experiments.spec import format_value

__all__ = [
    "experiment_markdown",
    "pivot_table",
    "summary_markdown",
    "summary_table",
    "table_key",
    "table_markdown",
]

#: Table keys that are not grid axes: their values are ids, explained under the table.
_ID_KEYS = ("test", "metric")


def _ordered(aggregate: pd.DataFrame, spec: Mapping[str, Any]) -> pd.DataFrame:
    """The rows of the table's metrics (all where it names none), each with its place in
    the table's order of metrics (``_order``): as named, or as they first come in the
    aggregate (the experiment file's order)."""
    metrics = spec.get("metrics", list(pd.unique(aggregate["metric"])))
    sel = aggregate[aggregate["metric"].isin(metrics)]
    sel = sel.assign(_order=sel["metric"].map({m: i for i, m in enumerate(metrics)}))
    if sel.empty:
        raise ValueError(f"aggregate: no rows for the table's metrics {spec.get('metrics')}")
    return sel


def pivot_table(
    aggregate: pd.DataFrame,
    spec: Mapping[str, Any],
    order: Mapping[str, Sequence[Any]] | None = None,
) -> pd.DataFrame:
    """The long form of a declared table: one row per cell, in the table's order.

    Parameters
    ----------
    aggregate : pandas.DataFrame
        An aggregate table (``metric``, ``test``, grid columns, ``value``, ``se``, ``n``,
        ``uncertainty``).
    spec : mapping
        ``{"rows": [...], "columns": [...], "metrics": [...]?}``.
    order : mapping, optional
        Column name -> its values in display order (the grid axes' values); other keys
        sort as they come.

    Returns
    -------
    pandas.DataFrame
        Columns ``rows + columns + [value, se, n, uncertainty]``, sorted by rows then
        columns, grid values in grid order and metrics in the declared order.
    """
    keys = [*spec["rows"], *spec["columns"]]
    sel = _ordered(aggregate, spec)
    order = dict(order or {})
    sort_cols = []
    for k in keys:
        if k == "metric":
            sort_cols.append("_order")
        elif k in order:
            rank = {str(v): i for i, v in enumerate(order[k])}
            sel = sel.assign(**{f"_rank_{k}": sel[k].astype(str).map(rank)})
            sort_cols.append(f"_rank_{k}")
        else:
            sort_cols.append(k)
    sel = sel.sort_values(sort_cols, kind="stable")
    out = sel[[*keys, "value", "se", "n", "uncertainty"]].reset_index(drop=True)
    if out.duplicated(keys).any():
        raise ValueError(
            f"table: rows {spec['rows']} and columns {spec['columns']} do not identify one "
            "number each; add the missing grid axis, `test` or `metric`"
        )
    return out


#: A cell whose metric has no value: no replication met its condition (``n = 0``).
_UNDEFINED = "–"


def _cell(row: pd.Series, digits: int) -> str:
    """A cell: ``value ± se``, ``value`` where exact, and ``value ± se (n = N)`` where the
    error rounds to 0 (e.g. a rate of 0 in 40 runs, which is not known to be 0): the number
    of runs or draws it rests on, which an error of 0 does not convey."""
    if pd.isna(row["value"]):
        return _UNDEFINED
    value = f"{row['value']:.{digits}f}"
    if row["uncertainty"] == "exact":
        return value
    se = f"{row['se']:.{digits}f}"
    return f"{value} ± {se}" + (f" (n = {int(row['n'])})" if float(se) == 0 else "")


def table_key(spec: Any, fidelity: str) -> dict[str, dict[str, str]]:
    """What the test and metric ids of an experiment stand for, in words.

    Parameters
    ----------
    spec : cvcompare.experiments.spec.ExperimentSpec
        The experiment.
    fidelity : str
        The fidelity the table was computed at (a test's settings may depend on it).

    Returns
    -------
    dict
        ``{"test": {id: text}, "metric": {id: text}, "tests_of": {metric id: [test ids]},
        "values": {axis: {label: text}}}``: each declared test's registered title with the
        settings the file gives it at ``fidelity`` (a setting a grid axis varies is named as
        such), each metric's ``description`` (metrics without one, and the row labels of an
        analysis, are left out), the tests each metric is computed for, and what each value
        of a grid axis with ``sets`` stands for (``alpha = 2.0, beta = 0.1``; axes whose
        values set lists or mappings are left out).
    """
    from cvcompare.experiments.registry import TESTS

    varied = spec.grid_test_settings()
    tests = {}
    for t in spec.tests:
        settings = t.resolved(fidelity)["settings"]
        words = [f"{k} = {v}" for k, v in settings.items() if (t.id, k) not in varied]
        words += [f"{k} = grid axis {axis}" for (tid, k), axis in varied.items() if tid == t.id]
        tests[t.id] = TESTS[t.test].title + (f" ({', '.join(words)})" if words else "")
    metrics = {m["id"]: m["description"] for m in spec.metrics if m.get("description")}
    ids = [t.id for t in spec.tests]
    tests_of = {m["id"]: list(m.get("tests", ids)) for m in spec.metrics}
    values = {
        axis.name: {
            label: ", ".join(f"{k} = {v}" for k, v in entries.items())
            for label, entries in axis.sets.items()
        }
        for axis in spec.grid
        if axis.sets
        and not any(isinstance(v, (list, dict)) for e in axis.sets.values() for v in e.values())
    }
    return {"test": tests, "metric": metrics, "tests_of": tests_of, "values": values}


def _heading(names: Sequence[str], values: Sequence[Any]) -> str:
    """A column's heading: grid values with their axis (``q = 50``), ids as they are."""
    return ", ".join(
        str(v) if name in _ID_KEYS else f"{name} = {v}"
        for name, v in zip(names, values, strict=True)
    )


def _ids_shown(long: pd.DataFrame, spec: Mapping[str, Any], key: Mapping[str, Any]) -> dict:
    """The test and metric ids of a table: those of its rows or columns; without a metric
    column, the metrics the table selects (or all), and without a test column, the tests
    of the metrics shown."""
    shown = {}
    for name in _ID_KEYS:
        if name in long:
            shown[name] = list(dict.fromkeys(long[name]))
        elif name == "metric":
            shown[name] = list(spec.get("metrics", key.get("tests_of", {})))
    if "test" not in shown:
        tests_of = key.get("tests_of", {})
        shown["test"] = list(dict.fromkeys(t for m in shown["metric"] for t in tests_of.get(m, ())))
    return {name: shown[name] for name in _ID_KEYS}


def table_markdown(
    long: pd.DataFrame,
    spec: Mapping[str, Any],
    title: str,
    key: Mapping[str, Any] | None = None,
    level: int = 1,
) -> str:
    """Render the long form of :func:`pivot_table` as a Markdown table.

    Row keys become the first columns, headed by their names or by the words ``headings``
    gives them; each combination of column keys becomes one column headed by its values
    joined with ``", "``, grid values as ``axis = value``.
    Every value keeps its column's type (an integer axis is not written as a float).
    With ``split: true`` in ``spec`` a sparse table is written as several: the columns
    that fill exactly the same rows form one table of those rows (e.g. the average ranks, the
    pairs' rank differences and the omnibus statistics of a Friedman analysis).

    Parameters
    ----------
    long : pandas.DataFrame
        The output of :func:`pivot_table`.
    spec : mapping
        The experiment's ``table`` entry.
    title : str
        The table's heading.
    key : mapping, optional
        :func:`table_key` of the experiment: the ids of tests and metrics in the table are
        explained under it.
    level : int
        Level of the title's Markdown heading.
    """
    digits = int(spec.get("digits", 3))
    # a table of several metrics shows them as rows or columns: each at its own precision
    of_metric = spec.get("metric_digits", {})
    metrics = long["metric"] if "metric" in long else [None] * len(long)
    decimals = [of_metric.get(m, digits) for m in metrics]
    rows, cols = list(spec["rows"]), list(spec["columns"])
    cells = long.assign(
        _cell=[_cell(row, d) for (_, row), d in zip(long.iterrows(), decimals, strict=True)]
    )
    row_of = list(cells[rows].itertuples(index=False, name=None))
    col_of = list(cells[cols].itertuples(index=False, name=None)) if cols else [()] * len(cells)
    lookup = dict(zip(zip(row_of, col_of, strict=True), cells["_cell"], strict=True))
    col_keys, row_keys = list(dict.fromkeys(col_of)), list(dict.fromkeys(row_of))
    # split: one table per set of columns that fill exactly the same rows
    blocks = {}
    for ck in col_keys:
        filled = [rk for rk in row_keys if (rk, ck) in lookup] if spec.get("split") else row_keys
        blocks.setdefault(tuple(filled), []).append(ck)
    lines = [f"{'#' * level} {title}"]
    for block_rows, block_cols in blocks.items():
        named = [spec.get("headings", {}).get(r, r).replace("|", "\\|") for r in rows]
        header = [*named, *(_heading(cols, k) or "value" for k in block_cols)]
        lines += ["", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for rk in block_rows:
            vals = [lookup.get((rk, ck), "") for ck in block_cols]
            lines.append("| " + " | ".join([*map(str, rk), *vals]) + " |")
    exact = set(long["uncertainty"]) == {"exact"}
    lines += [
        "",
        "Exact numbers."
        if exact
        else "Estimated numbers are shown as value ± one standard error, and with the number "
        "n of runs or draws they rest on where that error rounds to 0.",
    ]
    if long["value"].isna().any():
        lines[-1] += (
            f" {_UNDEFINED}: undefined, since no replication met the condition the metric is "
            "restricted to, or this fidelity does not run every grid point the number covers."
        )
    key = key or {}
    for name, ids in _ids_shown(long, spec, key).items():
        meanings = key.get(name, {})
        described = [i for i in ids if i in meanings]
        if described:
            lines += ["", f"{name.capitalize()}s:"] + [f"- `{i}`: {meanings[i]}" for i in described]
    # grid values that stand for several settings (a prior's alpha and beta, a pair's learners)
    for axis, meanings in key.get("values", {}).items():
        shown = [format_value(v) for v in dict.fromkeys(long[axis])] if axis in long else []
        described = [v for v in shown if v in meanings]
        if described:
            lines += ["", f"Values of {axis}:"] + [f"- `{v}`: {meanings[v]}" for v in described]
    return "\n".join(lines) + "\n"


def summary_table(aggregate: pd.DataFrame, spec: Any, entry: Mapping[str, Any]) -> pd.DataFrame:
    """One of the summary tables an experiment's ``table.summaries`` declares.

    Each cell summarises the metric over the grid points its row and column leave open
    (restricted by ``at``), as a paper's table summarises a curve, e.g. Benavoli et al.
    (2014), Table 1: the area under each test's loss curve over Delta, per loss ``l1``.
    The summary and its standard error are those of a claim of the comparison table
    (:func:`cvcompare.experiments.comparison.summarise`).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        The experiment's aggregate table.
    spec : cvcompare.experiments.spec.ExperimentSpec
        The experiment.
    entry : mapping
        ``{title, metric, rows, columns, summary, over?, at?}``: ``rows`` and ``columns``
        among ``test`` and the grid axes.

    Returns
    -------
    pandas.DataFrame
        The long form of :func:`pivot_table`: ``rows + columns + [value, se, n,
        uncertainty]``, in grid order, for the grid values this fidelity ran. A cell whose
        summary covers grid points this fidelity did not run is NaN (``n = 0``).
    """
    keys = [*entry["rows"], *entry["columns"]]
    rows = aggregate[aggregate["metric"] == entry["metric"]]
    # the rows and columns of the grid values this fidelity ran, in grid order
    ran = {part for point in rows["point"] for part in point.split("/")}
    grid = {
        axis.name: [v for v in axis.values if f"{axis.name}~{format_value(v)}" in ran]
        for axis in spec.grid
    }
    tests = list(dict.fromkeys(rows["test"]))
    out = []
    for combo in itertools.product(*(tests if k == "test" else grid[k] for k in keys)):
        cell = dict(zip(keys, combo, strict=True))
        at = {**entry.get("at", {}), **{k: v for k, v in cell.items() if k != "test"}}
        labels = point_labels_at(spec, at)
        part = rows[rows["point"].isin(labels)]
        if "test" in cell:
            part = part[part["test"] == cell["test"]]
        complete = set(labels) <= set(part["point"])
        value, se = summarise(entry, part) if complete else (float("nan"), float("nan"))
        out.append(
            {
                **cell,
                "value": value,
                "se": se,
                "n": int(part["n"].sum()) if complete else 0,
                "uncertainty": ", ".join(sorted(set(part["uncertainty"]))) or "Monte Carlo",
            }
        )
    return pd.DataFrame(out, columns=[*keys, "value", "se", "n", "uncertainty"])


def experiment_markdown(
    long: pd.DataFrame, aggregate: pd.DataFrame, spec: Any, key: Mapping[str, Any]
) -> str:
    """The Markdown page of an experiment's tables: its declared table (``long``, from
    :func:`pivot_table`) under the experiment's title; where it declares summary tables (the
    paper's own, e.g. W-F2's Tables 1-3), those first (:func:`summary_markdown`) and the
    declared table after them, as every number they summarise."""
    summaries = summary_markdown(aggregate, spec)
    if not summaries:
        return table_markdown(long, spec.table, spec.title, key)
    every = table_markdown(long, spec.table, "Every number they summarise", key, level=2)
    return f"# {spec.title}\n{summaries}\n{every}"


def summary_markdown(aggregate: pd.DataFrame, spec: Any) -> str:
    """The summary tables of an experiment (:func:`summary_table`) as Markdown sections, each
    after a blank line; empty when it declares none."""
    digits = spec.table.get("digits", 3)
    sections = [
        table_markdown(
            summary_table(aggregate, spec, entry),
            {"digits": digits, **entry},
            entry["title"],
            level=2,
        )
        for entry in spec.table.get("summaries", [])
    ]
    return "".join("\n" + section for section in sections)
