"""Figures of the simulation studies: operating characteristics against a grid axis.

Each estimate is drawn with an error bar of about 95%: two Monte Carlo standard errors, or
Wilson's interval for a share of replications (``bar_lengths``).

References
----------
Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing cross-validated
algorithms on multiple data sets. Machine Learning 100, 285-304, Fig. 2a.
Corani, G., Benavoli, A., Demšar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837, Figs. 2-5.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from cvcompare.plots.figures._registry import (
    ERROR_BARS,
    FigureReads,
    bar_lengths,
    dash_dots,
    draw_errorbars,
    register_figure,
    select,
    series_reads,
    set_title,
)

__all__ = ["figure_h_f2", "figure_h_f3", "figure_h_f5", "figure_p_f2a", "figure_p_f2b"]

_MARKERS = {"poisson": "s", "signed_rank": "o", "hierarchical": "D"}
_COLORS = {"poisson": "tab:blue", "signed_rank": "tab:red"}
_LABELS = {"poisson": "Poisson-binomial", "signed_rank": "signed-rank"}
#: Colours of further tests, none of them one of :data:`_COLORS`.
_OTHER_COLORS = ("tab:green", "tab:purple", "tab:brown", "tab:olive", "tab:cyan")


#: What the power figures P-F2a and P-F2b read (the grey line is the tests' size).
_POWER_READS = FigureReads(
    {"power": ()}, ("delta", "m", "q"), {"poisson.alpha": 0.05, "signed_rank.alpha": 0.05}
)


@register_figure(reads=_POWER_READS)
def figure_p_f2a(aggregate: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Power and type I error against a fixed difference of accuracy (P-F2a).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate table with grid columns ``delta``, ``m``, ``q`` and the metric
        ``power`` for the tests ``poisson`` and ``signed_rank``.
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per ``q`` (largest first): rejection rate against ``delta`` with
        squares for the Poisson-binomial test, circles for the signed-rank test, dashed
        lines for ``m = 1`` and solid lines for the largest ``m`` (10 runs), as in Corani &
        Benavoli (2015), Fig. 2a, and a style of its own (dash-dotted, dotted, ...) for
        any other ``m``; error bars are Wilson's intervals of the rates; the dotted grey
        line is the tests' nominal size 0.05.
    """
    return _power_against_delta(
        aggregate, title, r"difference of accuracy $\delta_{acc}$ (on every data set)"
    )


@register_figure(reads=_POWER_READS)
def figure_p_f2b(aggregate: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Power and type I error against the Cauchy's median (and scale) of delta_acc (P-F2b).

    As :func:`figure_p_f2a`, with the horizontal axis the median and scale of the Cauchy
    from which each data set's difference is drawn (Corani & Benavoli 2015, Fig. 2b).
    """
    return _power_against_delta(aggregate, title, r"median = scale of the Cauchy of $\delta_{acc}$")


def _power_against_delta(aggregate: pd.DataFrame, title: str | None, xlabel: str) -> Figure:
    """Rejection rates of the tests against the grid column ``delta``, one panel per ``q``."""
    sel = select(aggregate, "power", _POWER_READS.axes)
    # a test of the experiment file's own (e.g. a sign test) gets a colour of its own
    others = [t for t in sorted(sel["test"].unique()) if t not in _COLORS]
    colors = _COLORS | dict(zip(others, itertools.cycle(_OTHER_COLORS)))
    styles = _run_styles(sel["m"].unique())
    qs = sorted(sel["q"].unique(), reverse=True)
    fig = Figure(figsize=(5.0 * len(qs), 4.2), layout="constrained")
    axes = fig.subplots(1, len(qs), squeeze=False, sharey=True)[0]
    for ax, q in zip(axes, qs, strict=True):
        at_q = sel[sel["q"] == q]
        for (test, m), g in at_q.groupby(["test", "m"], sort=True):
            g = g.sort_values("delta")
            ax.errorbar(
                g["delta"],
                g["value"],
                yerr=bar_lengths(g),
                marker=_MARKERS.get(test, "^"),
                color=colors[test],
                linestyle=styles[m],
                capsize=2,
                markersize=4,
                label=f"{_LABELS.get(test, test)}, m = {m}",
            )
        ax.axhline(0.05, color="grey", linewidth=0.8, linestyle=":")
        ax.text(
            0.99,
            0.05,
            r"nominal $\alpha$ = 0.05",
            transform=ax.get_yaxis_transform(),
            ha="right",
            va="bottom",
            color="grey",
            fontsize="small",
        )
        ax.set_xlabel(xlabel)
        ax.set_title(f"q = {q}")
        ax.set_ylim(-0.02, 1.02)
    axes[0].set_ylabel("power (type I error at 0)")
    handles, labels = axes[0].get_legend_handles_labels()
    ncols = min(len(labels), 2 * len(qs))
    fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncols=ncols,
        fontsize="small",
        title=f"m: runs of cross-validation; {ERROR_BARS}",
        title_fontsize="small",
    )
    set_title(fig, title)
    return fig


def _run_styles(ms: Sequence[int]) -> dict[int, object]:
    """Line style of each number of runs ``m``: dashed for 1, solid for the largest,
    dash-dotted, dotted, then a dash followed by 2, 3, ... dots for the others in
    increasing order, so that no two values share one."""
    top = max(ms)
    middle = sorted(m for m in ms if m not in (1, top))
    named = dict(zip(middle, ("-.", ":"), strict=False))
    styles = {m: named.get(m, dash_dots(i)) for i, m in enumerate(middle)}
    return styles | {top: "-", 1: "--"}


def _draw_series(
    ax: Axes, aggregate: pd.DataFrame, x: str, series: list[tuple[str, str, str, str, str, str]]
) -> None:
    """Draw each ``(metric, test, label, marker, linestyle, colour)`` against grid column
    ``x``; a quantity keeps its colour in every figure (the signed-rank test red and no
    hierarchical quantity blue, the Poisson-binomial test's colour in P-F2a and P-F2b)."""
    for metric, test, label, marker, style, color in series:
        g = select(aggregate, metric, [x])
        g = g[g["test"] == test]
        if g.empty:
            raise ValueError(f"aggregate: no rows for metric {metric!r} of test {test!r}")
        draw_errorbars(
            ax, g, x, marker=marker, linestyle=style, color=color, markersize=4, label=label
        )


def _legend_below(ax: Axes) -> None:
    """Put the legend under the axes, clear of the data: in two columns where they fit in the
    axes' column of the figure, else in one (a legend wider than its column would make the
    layout shrink the axes to a sliver)."""
    room = ax.figure.bbox.width / ax.get_subplotspec().get_gridspec().ncols
    renderer = FigureCanvasAgg(ax.figure).get_renderer()
    for ncol in (2, 1):
        legend = ax.legend(
            loc="upper center",
            bbox_to_anchor=(0.5, -0.18),
            ncol=ncol,
            fontsize="small",
            title=ERROR_BARS,
            title_fontsize="small",
        )
        if legend.get_window_extent(renderer).width <= room:
            return


def _one_panel(
    aggregate: pd.DataFrame,
    x: str,
    series: list[tuple[str, str, str, str, str, str]],
    *,
    xlabel: str,
    ylabel: str,
    title: str | None,
) -> Figure:
    """A figure of one panel: the series against ``x``, probabilities on [0, 1]."""
    fig = Figure(figsize=(5.5, 4.8), layout="constrained")
    ax = fig.subplots()
    _draw_series(ax, aggregate, x, series)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(-0.02, 1.02)
    _legend_below(ax)
    set_title(fig, title)
    return fig


#: The hierarchical model's series of the equivalence studies (Figs. 2 and 4).
_EQUIVALENCE_SERIES = [
    ("mean_p_rope", "hierarchical", r"mean P($\delta_0$ in rope)", "o", "-", "tab:green"),
    (
        "recognition",
        "hierarchical",
        r"runs with P($\delta_0$ in rope) > 0.95",
        "s",
        "-",
        "tab:orange",
    ),
    (
        "decisive",
        "hierarchical",
        r"runs with P($\delta_0$ left or right of rope) > 0.95",
        "^",
        ":",
        "tab:brown",
    ),
    (
        "mean_p_rope_next",
        "hierarchical",
        r"mean P($\delta$ in rope), next data set",
        "v",
        "-.",
        "tab:purple",
    ),
]
_Q_LABEL = "number of data sets q"
_SIGNED_RANK = (
    "rejection",
    "signed_rank",
    "signed-rank rejection rate",
    "D",
    "--",
    _COLORS["signed_rank"],
)


@register_figure(
    reads=series_reads([*_EQUIVALENCE_SERIES, _SIGNED_RANK], ["q"], {"decisive.threshold": 0.95})
)
def figure_h_f2(aggregate: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Equivalent classifiers: the hierarchical model and the signed-rank test vs q (H-F2).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate table with grid column ``q`` and the metrics ``mean_p_rope``,
        ``recognition``, ``decisive`` and ``mean_p_rope_next`` (test ``hierarchical``)
        and ``rejection`` (test ``signed_rank``).
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        Mean p(rope), equivalence recognition (p(rope) > 0.95) and the share of runs with
        p(left) or p(right) > 0.95 of the hierarchical model (probabilities of ``delta0``,
        as in the authors' simulation code), the mean next-data-set p(rope), and the
        signed-rank rejection rate, against the number of data sets, as in Corani et al.
        (2017), Fig. 2; error bars are two Monte Carlo standard errors of the means and
        Wilson's intervals of the rates and shares.
    """
    series = [*_EQUIVALENCE_SERIES[:3], _SIGNED_RANK, _EQUIVALENCE_SERIES[3]]
    return _one_panel(
        aggregate, "q", series, xlabel=_Q_LABEL, ylabel="probability / rate", title=title
    )


@register_figure(
    reads=series_reads(
        [*_EQUIVALENCE_SERIES, _SIGNED_RANK],
        ["q"],
        {"decisive.threshold": 0.95, "signed_rank.alpha": 0.05},
    )
)
def figure_h_f3(aggregate: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Practically equivalent classifiers: signed-rank and hierarchical model vs q (H-F3).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate table with grid column ``q``, the metric ``rejection`` (test
        ``signed_rank``) and ``mean_p_rope``, ``recognition``, ``decisive`` and
        ``mean_p_rope_next`` (test ``hierarchical``).
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        Left: the signed-rank rejection rate against the number of data sets (Corani et
        al. 2017, Fig. 3), the dotted grey line at its nominal size 0.05. Right: mean
        p(rope), equivalence recognition (p(rope) > 0.95), the share of runs with p(left) or
        p(right) > 0.95 (probabilities of ``delta0``, as in the authors' code) and the mean
        next-data-set p(rope) (Fig. 4). Error bars are two Monte Carlo standard errors
        (Wilson's intervals for the rates).
    """
    fig = Figure(figsize=(10.0, 4.8), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    _draw_series(left, aggregate, "q", [_SIGNED_RANK])
    left.axhline(0.05, color="grey", linewidth=0.8, linestyle=":", label=r"nominal $\alpha$ = 0.05")
    left.set_title("Signed-rank test (alpha = 0.05)")
    left.set_ylabel("probability / rate")
    _draw_series(right, aggregate, "q", _EQUIVALENCE_SERIES)
    right.set_title("Hierarchical model")
    for ax in (left, right):
        ax.set_xlabel(_Q_LABEL)
        ax.set_ylim(-0.02, 1.02)
        _legend_below(ax)
    set_title(fig, title)
    return fig


#: The curves of H-F5.
_POWER_SERIES = [
    ("rejection", "signed_rank", "signed-rank (alpha = 0.05)", "D", "--", _COLORS["signed_rank"]),
    (
        "power_right",
        "hierarchical",
        r"hierarchical, P($\delta_0$ right of rope) > 0.95",
        "o",
        "-",
        "tab:green",
    ),
    (
        "power_right_next",
        "hierarchical",
        r"hierarchical, P($\delta$ right of rope) > 0.95, next data set",
        "v",
        "-.",
        "tab:purple",
    ),
]


@register_figure(
    reads=series_reads(
        _POWER_SERIES,
        ["delta0"],
        {
            "signed_rank.alpha": 0.05,
            "power_right.threshold": 0.95,
            "power_right_next.threshold": 0.95,
        },
    )
)
def figure_h_f5(aggregate: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Practically different classifiers: power against delta0 at q = 50 (H-F5).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate table with grid column ``delta0``, the metric ``rejection`` (test
        ``signed_rank``) and ``power_right`` and ``power_right_next`` (test
        ``hierarchical``).
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        Power of the signed-rank test (two-sided, alpha = 0.05) and of the hierarchical
        model (p(right) > 0.95, for ``delta0`` as in the authors' code, and for the next
        data set) against the median ``delta0`` of the Cauchy, as in Corani et al. (2017),
        Fig. 5; error bars are Wilson's intervals of the rates.
    """
    return _one_panel(
        aggregate,
        "delta0",
        _POWER_SERIES,
        xlabel=r"median difference of accuracy $\delta_0$",
        ylabel="power",
        title=title,
    )
