"""Tables of an experiment's aggregate: a pivot declared in the experiment file.

An experiment's ``table`` entry names the aggregate columns that form the rows and the
columns of the table (grid axes, ``test``, ``metric``) and optionally the metrics shown,
e.g. Corani et al. (2017), Table 5: rows ``[pair]``, columns ``[nu_prior, metric]``. The
CSV keeps every number with its standard error; the Markdown rounds to ``digits`` and
writes ``value ± se`` where the number is estimated, ``value`` where it is exact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

__all__ = ["pivot_table", "table_markdown"]


def _ordered(aggregate: pd.DataFrame, spec: Mapping[str, Any]) -> pd.DataFrame:
    sel = aggregate
    if "metrics" in spec:
        sel = sel[sel["metric"].isin(spec["metrics"])]
        order = {m: i for i, m in enumerate(spec["metrics"])}
        sel = sel.assign(_order=sel["metric"].map(order))
    else:
        sel = sel.assign(_order=0)
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


def _cell(row: pd.Series, digits: int) -> str:
    if row["uncertainty"] == "exact":
        return f"{row['value']:.{digits}f}"
    return f"{row['value']:.{digits}f} ± {row['se']:.{digits}f}"


def table_markdown(long: pd.DataFrame, spec: Mapping[str, Any], title: str) -> str:
    """Render the long form of :func:`pivot_table` as a Markdown table.

    Row keys become the first columns; each combination of column keys becomes one
    column headed by its values joined with ``", "``.
    """
    digits = int(spec.get("digits", 3))
    rows, cols = list(spec["rows"]), list(spec["columns"])
    cells = long.assign(_cell=long.apply(_cell, axis=1, digits=digits))
    col_keys = list(dict.fromkeys(map(tuple, cells[cols].to_numpy()))) if cols else [()]
    row_keys = list(dict.fromkeys(map(tuple, cells[rows].to_numpy())))
    lookup = {
        (tuple(r[rows]), tuple(r[cols]) if cols else ()): r["_cell"] for _, r in cells.iterrows()
    }
    header = [*rows, *(", ".join(map(str, k)) or "value" for k in col_keys)]
    lines = [f"# {title}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for rk in row_keys:
        vals = [lookup.get((rk, ck), "") for ck in col_keys]
        lines.append("| " + " | ".join([*map(str, rk), *vals]) + " |")
    exact = set(long["uncertainty"]) == {"exact"}
    lines += [
        "",
        "Exact numbers." if exact else "Estimated numbers are shown as value ± one standard error.",
    ]
    return "\n".join(lines) + "\n"
