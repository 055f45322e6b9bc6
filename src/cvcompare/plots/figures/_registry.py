"""The registry of figure functions and the helpers they share.

A figure function ``fn(aggregate, *, title, data=None) -> Figure`` reads the tidy aggregate
table of an experiment (:func:`cvcompare.experiments.metrics.aggregate` or
:func:`cvcompare.experiments.analyses.run_analysis`: columns ``point``, the grid columns,
``test``, ``metric``, ``value``, ``se``, ``n``, ``uncertainty``) and, for an analysis, its
figure data; it computes no statistics. It returns a :class:`matplotlib.figure.Figure` (no
global pyplot state). Functions register themselves with :func:`register_figure`; an
experiment file names one in ``figure.function``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

__all__ = ["FIGURES", "errorbar_2se", "register_figure", "select"]

FigureFunction = Callable[..., Figure]
FIGURES: dict[str, FigureFunction] = {}


def register_figure(fn: FigureFunction) -> FigureFunction:
    """Register a figure function under its own name (a decorator)."""
    if fn.__name__ in FIGURES:
        raise ValueError(f"figure {fn.__name__!r} is registered twice")
    FIGURES[fn.__name__] = fn
    return fn


def select(table: pd.DataFrame, metric: str, needed: Sequence[str]) -> pd.DataFrame:
    """The rows of one metric, after checking that the table has the columns drawn."""
    missing = [c for c in ("metric", "test", "value", "se", *needed) if c not in table.columns]
    if missing:
        raise ValueError(f"aggregate: missing column(s) {missing}; is this an aggregate table?")
    sel = table[table["metric"] == metric]
    if sel.empty:
        known = sorted(table["metric"].unique())
        raise ValueError(f"aggregate: no rows for metric {metric!r} (metrics: {known})")
    return sel


def errorbar_2se(ax: Axes, rows: pd.DataFrame, x: str, **style: Any) -> None:
    """Draw ``value`` against column ``x`` (sorted) with error bars of two standard errors.

    ``style`` goes to :meth:`matplotlib.axes.Axes.errorbar` (marker, linestyle, label, ...).
    """
    rows = rows.sort_values(x)
    ax.errorbar(rows[x], rows["value"], yerr=2 * rows["se"], capsize=2, **style)
