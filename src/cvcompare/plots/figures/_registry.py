"""The registry of figure functions and the helpers they share.

A figure function ``fn(aggregate, *, title, data=None, **settings) -> Figure`` reads the
tidy aggregate table of an experiment (:func:`cvcompare.experiments.metrics.aggregate` or
:func:`cvcompare.experiments.analyses.run_analysis`: columns ``point``, the grid columns,
``test``, ``metric``, ``value``, ``se``, ``n``, ``uncertainty``) and, for an analysis, its
figure data; it computes no statistics. It returns a :class:`matplotlib.figure.Figure` (no
global pyplot state). Functions register themselves with :func:`register_figure`; an
experiment file names one in ``figure.function`` and may give its keyword settings in
``figure.settings``. A function drawn from a simulation's aggregate table declares what it
reads (:class:`FigureReads`), so that loading an experiment file checks that its metrics,
grid and figure settings provide it before any job runs.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from cvcompare.plots._text import wrap_text

__all__ = [
    "FIGURES",
    "READS",
    "FigureReads",
    "ERROR_BARS",
    "bar_lengths",
    "dash_dots",
    "draw_errorbars",
    "figure_settings",
    "reads_of",
    "register_figure",
    "select",
    "series_reads",
]

FigureFunction = Callable[..., Figure]
FIGURES: dict[str, FigureFunction] = {}


@dataclass(frozen=True)
class FigureReads:
    """What a figure function reads from a simulation's aggregate table.

    Attributes
    ----------
    metrics : mapping of str to tuple of str
        The metric ids it draws, each with the tests it draws of it (empty: whichever tests
        the metric covers).
    axes : tuple of str
        The grid axes it draws against or splits by.
    states : mapping
        What its labels state about the settings, ``"<test or metric id>.<key>": value``
        (e.g. ``"signed_rank.alpha": 0.05``): an experiment file drawing it must have the
        same, or the labels would be wrong.
    picks : mapping of str to str
        Its keyword settings that pick values of a grid axis to draw (``{"losses": "l1"}``:
        one panel per value of ``l1`` in ``losses``): the values given in the file's
        ``figure.settings``, or the function's defaults, must be on that axis.
    covers_grid : bool
        Whether every grid axis with several values must be among ``axes`` (a function
        that draws every grid point once, not slices of the grid).
    """

    metrics: Mapping[str, tuple[str, ...]]
    axes: tuple[str, ...] = ()
    states: Mapping[str, Any] = field(default_factory=dict)
    picks: Mapping[str, str] = field(default_factory=dict)
    covers_grid: bool = False


#: What each figure function that declares it reads, by function name: a
#: :class:`FigureReads`, or a function of the figure's settings returning one (for a figure
#: laid out by its settings).
READS: dict[str, FigureReads | Callable[[Mapping[str, Any]], FigureReads]] = {}


def reads_of(name: str, settings: Mapping[str, Any]) -> FigureReads | None:
    """What the figure function ``name`` reads with ``settings`` (None where it does not
    declare it: an analysis' figure)."""
    reads = READS.get(name)
    return reads(settings) if callable(reads) else reads


def figure_settings(fn: FigureFunction) -> dict[str, Any]:
    """The keyword settings a figure function takes (``figure.settings``), each with its
    default (``inspect.Parameter.empty`` where it must be given)."""
    return {
        key: par.default
        for key, par in inspect.signature(fn).parameters.items()
        if par.kind is inspect.Parameter.KEYWORD_ONLY and key not in ("title", "data")
    }


def register_figure(
    fn: FigureFunction | None = None,
    *,
    reads: FigureReads | Callable[[Mapping[str, Any]], FigureReads] | None = None,
) -> FigureFunction | Callable[[FigureFunction], FigureFunction]:
    """Register a figure function under its own name (a decorator, bare or with ``reads``:
    what it reads from the aggregate table, or a function of its settings giving that)."""

    def add(f: FigureFunction) -> FigureFunction:
        if f.__name__ in FIGURES:
            raise ValueError(f"figure {f.__name__!r} is registered twice")
        FIGURES[f.__name__] = f
        if reads is not None:
            READS[f.__name__] = reads
        return f

    return add if fn is None else add(fn)


def series_reads(
    series: Sequence[tuple[Any, ...]],
    axes: Sequence[str],
    states: Mapping[str, Any] | None = None,
    picks: Mapping[str, str] | None = None,
) -> FigureReads:
    """:class:`FigureReads` of curves given as ``(metric, test, ...)`` tuples."""
    metrics: dict[str, tuple[str, ...]] = {}
    for metric, test, *_ in series:
        metrics[metric] = (*metrics.get(metric, ()), test)
    return FigureReads(metrics, tuple(axes), dict(states or {}), dict(picks or {}))


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


def dash_dots(dots: int) -> tuple[int, tuple[float, ...]]:
    """A line style: a dash followed by ``dots`` dots (past solid, dashed, dash-dotted and
    dotted, for further curves that must not look like those)."""
    return (0, (4, 1.5) + (1, 1.5) * dots)


#: The legend title of every figure with error bars: what the bars are.
ERROR_BARS = "error bars: ± 2 Monte Carlo standard errors (shares: Wilson's interval)"


def bar_lengths(rows: pd.DataFrame) -> np.ndarray:
    """The error bars of ``rows`` as :meth:`matplotlib.axes.Axes.errorbar` takes them (a
    2 x n array: the lengths below and above each ``value``): down to ``low`` and up to
    ``high``, which an aggregate table of simulations carries (Wilson's interval for a share
    of replications, :func:`cvcompare.experiments.metrics.error_bounds`); two standard
    errors each way for a table without them (an analysis' reported numbers)."""
    value = rows["value"].to_numpy(float)
    if {"low", "high"} <= set(rows.columns):
        return np.vstack(
            [value - rows["low"].to_numpy(float), rows["high"].to_numpy(float) - value]
        )
    return np.vstack([2 * rows["se"].to_numpy(float)] * 2)


def draw_errorbars(ax: Axes, rows: pd.DataFrame, x: str, **style: Any) -> None:
    """Draw ``value`` against column ``x`` (sorted) with its error bars (:func:`bar_lengths`).

    ``style`` goes to :meth:`matplotlib.axes.Axes.errorbar` (marker, linestyle, label, ...).
    """
    rows = rows.sort_values(x)
    ax.errorbar(rows[x], rows["value"], yerr=bar_lengths(rows), capsize=2, **style)


def set_title(fig: Figure, title: str | None) -> None:
    """Title a figure with ``title`` (``fig.suptitle``, centred on the figure) broken into
    lines no wider than the figure less a margin of a quarter inch each side; nothing when
    ``title`` is empty."""
    if title:
        size = mpl.rcParams["figure.titlesize"]
        fig.suptitle(wrap_text(title, 72 * fig.get_figwidth() - 36, size), fontsize=size)
