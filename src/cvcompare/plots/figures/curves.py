"""A figure for a scenario of one's own: a metric of every test against a grid axis.

The other figure functions each draw one figure of a paper, with its labels. This one is
laid out by its settings (which metric, against which grid axis, split into panels and line
styles by which others, with which axis labels), so that an experiment file of a new
scenario draws its results without new code.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from numbers import Real
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvcompare.plots.figures._registry import (
    ERROR_BARS,
    FigureReads,
    dash_dots,
    draw_errorbars,
    register_figure,
    select,
    set_title,
)

__all__ = ["figure_curves"]

#: How far apart neighbouring curves are drawn, as a share of the horizontal axis' span, so
#: that tests with equal values do not hide each other; all of them together within
#: :data:`_DODGE_SPAN`.
_DODGE, _DODGE_SPAN = 0.008, 0.04

#: Up to this many values of a numeric horizontal axis, none closer than the axis' span
#: over this number, its ticks sit on them.
_MAX_TICKS = 12

_COLORS = ("tab:blue", "tab:red", "tab:green", "tab:purple", "tab:brown", "tab:olive")
_MARKERS = ("o", "s", "D", "^", "v", "P")


def _test_styles(tests: list[str]) -> dict[str, tuple[str, str]]:
    """(colour, marker) of each test: the marker moves on by one each time the colours
    start again, so that no two of up to 36 tests look alike."""
    n = len(_COLORS)
    return {
        t: (_COLORS[i % n], _MARKERS[(i + i // n) % len(_MARKERS)]) for i, t in enumerate(tests)
    }


def _line_styles(values: list[Any]) -> dict[Any, Any]:
    """Line style of each value: solid, dashed, dash-dotted, dotted, then a dash followed by
    2, 3, ... dots, so that no two values share one."""
    named = ("-", "--", "-.", ":")
    return {
        v: named[i] if i < len(named) else dash_dots(i - len(named) + 2)
        for i, v in enumerate(values)
    }


def _reads(settings: Mapping[str, Any]) -> FigureReads:
    """What :func:`figure_curves` reads with these settings: the metric (of the tests that
    ``labels`` names, or whichever it covers) and the grid axes named, each once; every
    other grid axis must have one value.

    Raises
    ------
    ValueError
        If ``metric`` is neither a name nor a mapping of test ids to metric names, ``labels``
        names a test that a mapping ``metric`` does not, ``x``, ``panels`` or ``lines`` is
        not a name, ``labels`` not a mapping,
        ``names`` not a mapping of the axes of ``panels`` and ``lines`` to words,
        ``reference`` not a number, or one grid axis is named twice.
    """
    metric = settings.get("metric")
    named = {k: settings[k] for k in ("x", "panels", "lines") if settings.get(k)}
    if bad := [k for k, v in named.items() if not isinstance(v, str)]:
        raise ValueError(f"{bad} must each name a grid axis, got {named}")
    labels = settings.get("labels") or {}
    if not isinstance(labels, Mapping):
        raise ValueError(f"labels must map test ids to names, got {labels!r}")
    if isinstance(metric, Mapping) and metric:
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in metric.items()):
            raise ValueError(f"metric must map test ids to metric ids, got {metric!r}")
        if unknown := sorted(set(labels) - set(metric)):
            raise ValueError(f"labels: {unknown} are not tests that metric maps, {list(metric)}")
        drawn: dict[str, tuple[str, ...]] = {}
        for test, m in metric.items():
            drawn[m] = (*drawn.get(m, ()), test)
    elif isinstance(metric, str) and metric:
        drawn = {metric: tuple(labels)}
    else:
        raise ValueError(
            f"metric must name a metric, or map test ids to metric ids, got {metric!r}"
        )
    names = settings.get("names") or {}
    if not isinstance(names, Mapping) or not all(isinstance(v, str) for v in names.values()):
        raise ValueError(f"names must map grid axes to their names in words, got {names!r}")
    split = [settings[k] for k in ("panels", "lines") if settings.get(k)]
    if unnamed := sorted(set(names) - set(split)):
        raise ValueError(
            f"names: {unnamed} are not the grid axes drawn as panels or lines ({split})"
        )
    reference = settings.get("reference")
    if reference is not None and (isinstance(reference, bool) or not isinstance(reference, Real)):
        raise ValueError(f"reference must be a number, got {reference!r}")
    axes = tuple(named[k] for k in ("x", "panels", "lines") if k in named)
    if len(set(axes)) < len(axes):
        raise ValueError(f"x, panels and lines must name different grid axes, got {axes}")
    return FigureReads(drawn, axes, covers_grid=True)


def _numeric(xs: pd.Series) -> bool:
    """Whether the values of a grid axis are numbers (not words, not True / False)."""
    return pd.api.types.is_numeric_dtype(xs) and not pd.api.types.is_bool_dtype(xs)


def _dodges(xs: pd.Series, n: int) -> list[float]:
    """The horizontal shift of each of ``n`` curves drawn at the values ``xs``: centred on
    0, :data:`_DODGE` of the values' span apart (less where ``n`` curves would take more
    than :data:`_DODGE_SPAN`); none for a single curve or values that are not numbers
    (words, or numbers written as text)."""
    if n < 2 or not _numeric(xs):
        return [0.0] * n
    step = min(_DODGE, _DODGE_SPAN / (n - 1)) * float(xs.max() - xs.min())
    return [(i - (n - 1) / 2) * step for i in range(n)]


def _grid_ticks(xs: pd.Series) -> list[Any]:
    """The values of a numeric axis as its ticks, where there are at most
    :data:`_MAX_TICKS` of them and no two are closer than the span over that number (their
    labels would run into each other); else none (matplotlib's own ticks)."""
    values = sorted(xs.unique())
    if not _numeric(xs) or not 1 < len(values) <= _MAX_TICKS:
        return []
    gaps = np.diff(np.asarray(values, float))
    return values if gaps.min() >= (values[-1] - values[0]) / _MAX_TICKS else []


@register_figure(reads=_reads)
def figure_curves(
    aggregate: pd.DataFrame,
    *,
    title: str | None = None,
    metric: str | Mapping[str, str],
    x: str,
    xlabel: str,
    ylabel: str,
    panels: str | None = None,
    lines: str | None = None,
    labels: Mapping[str, str] | None = None,
    names: Mapping[str, str] | None = None,
    reference: float | None = None,
) -> Figure:
    """A metric of every test, or each test's own metric, against a grid axis, for a scenario
    of one's own.

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate table of a simulation with the metric ``metric`` and the grid columns
        named by ``x``, ``panels`` and ``lines``.
    title : str, optional
        Figure title.
    metric : str or mapping of str to str
        The metric drawn (its id in the experiment file), of every test it covers; or each
        test's own metric, by test id (``{signed_rank: power, bayes: share_right}``: a
        frequentist test's rejection rate beside the share of runs in which a Bayesian
        test's posterior probability exceeds a threshold), which draws those tests only.
    x : str
        The grid axis on the horizontal axis.
    xlabel, ylabel : str
        The axes' labels, in words a reader understands.
    panels : str, optional
        A grid axis drawn as one panel per value.
    lines : str, optional
        A grid axis drawn as one line style per value.
    labels : mapping of str to str, optional
        Each test id's name in the legend (the id where none is given). The tests it
        names come first, in its order, then the others alphabetically.
    names : mapping of str to str, optional
        The grid axes of ``panels`` and ``lines`` in words, for the panels' titles and the
        legend (``{"width": "sd of the true differences"}``); an axis not named is written
        as its id.
    reference : float, optional
        A value marked by a grey dotted line, named in the legend (e.g. a test's nominal
        size).

    Returns
    -------
    matplotlib.figure.Figure
        The metric's estimates with error bars of about 95% (``bar_lengths``: two Monte Carlo
        standard errors, Wilson's interval for a share of replications), one
        colour and marker per test, side by side in panels sharing their vertical axis.
        The curves are set apart horizontally by a small shift (0.8% of the axis' span
        between neighbours, 4% at most in all), so that equal values do not hide a test;
        up to 12 numeric values of ``x``, none closer than a twelfth of their span, are the
        horizontal axis' ticks.

    Raises
    ------
    ValueError
        If a test has several rows at one value of ``x`` in a panel and line (a grid axis
        with several values that the settings do not name), ``metric`` maps no test, or
        maps a test of which its metric has no rows.
    """
    needed = [a for a in (x, panels, lines) if a]
    if isinstance(metric, str):
        sel = select(aggregate, metric, needed)
    else:  # each test's own metric
        if not metric:
            raise ValueError("metric: expected a metric id, or test ids mapped to metrics, got {}")
        parts = []
        for test, m in metric.items():
            rows = select(aggregate, m, needed)
            if not (rows["test"] == test).any():
                raise ValueError(
                    f"aggregate: metric {m!r} has no rows of test {test!r} (its tests: "
                    f"{sorted(rows['test'].unique())})"
                )
            parts.append(rows[rows["test"] == test])
        sel = pd.concat(parts)
    words = {axis: (names or {}).get(axis, axis) for axis in (panels, lines) if axis}
    named = {t: i for i, t in enumerate(labels or {})}
    tests = sorted(sel["test"].unique(), key=lambda t: (named.get(t, len(named)), t))
    looks = _test_styles(tests)
    line_values = sorted(sel[lines].unique()) if lines else [None]
    style = _line_styles(line_values) if lines else {None: "-"}
    panel_values = sorted(sel[panels].unique()) if panels else [None]
    curves = list(itertools.product(line_values, tests))
    shifts = _dodges(sel[x], len(curves))
    fig = Figure(figsize=(0.8 + 4.6 * len(panel_values), 4.2), layout="constrained")
    axes = fig.subplots(1, len(panel_values), squeeze=False, sharey=True)[0]
    legend: dict[str, Any] = {}
    for ax, value in zip(axes, panel_values, strict=True):
        rows = sel if panels is None else sel[sel[panels] == value]
        for (line, test), shift in zip(curves, shifts, strict=True):
            g = rows[(rows["test"] == test) & ((rows[lines] == line) if lines else True)]
            if g.empty:
                continue
            if g[x].duplicated().any():
                raise ValueError(
                    f"aggregate: metric {g['metric'].iloc[0]!r} of test {test!r} has several "
                    f"rows at one value of {x!r}; name the grid axis that tells them apart as "
                    "panels or lines"
                )
            label = (labels or {}).get(test, test)
            label += f", {words[lines]} = {line}" if lines else ""
            draw_errorbars(
                ax, g.assign(**{x: g[x] + shift}) if shift else g, x, color=looks[test][0],
                marker=looks[test][1], linestyle=style[line], markersize=4, label=label,
            )  # fmt: skip
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            legend.setdefault(label, handle)
        if reference is not None:
            marked = ax.axhline(reference, color="grey", linewidth=0.8, linestyle=":")
        if ticks := _grid_ticks(sel[x]):
            ax.set_xticks(ticks)
        ax.set_xlabel(xlabel)
        if panels:
            ax.set_title(f"{words[panels]} = {value}")
    if reference is not None:  # last in the legend, after every panel's curves
        legend[f"reference value {reference:g}"] = marked
    axes[0].set_ylabel(ylabel)
    fig.legend(
        list(legend.values()),
        list(legend),
        loc="outside lower center",
        ncols=min(3, len(legend)),
        fontsize="small",
        title=ERROR_BARS,
        title_fontsize="small",
    )
    set_title(fig, title)
    return fig
