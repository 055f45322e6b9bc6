"""Calibration of single-data-set tests: type I error against the cross-validation design.

An addition to the papers' figures: Corani & Benavoli (2015), Sec. 2.1 and the opening of
Sec. 5, state without a figure that the naive t-test on cross-validation results is not
calibrated while the correlated t-test of Nadeau & Bengio (2003) is close to calibrated.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvcompare.plots.figures._registry import (
    ERROR_BARS,
    FigureReads,
    bar_lengths,
    register_figure,
    select,
    set_title,
)

__all__ = ["figure_p_naive"]

_STYLE = {
    "naive": ("naive paired t-test (folds independent)", "tab:red", "--", "o"),
    "correlated": ("correlated t-test (Nadeau & Bengio)", "tab:blue", "-", "s"),
}
#: The slices drawn: type I error against m at the heuristic rho = 1/k = 0.1, and
#: against rho with the ten runs of the papers' experiments.
_AT_RHO, _AT_M = 0.1, 10


@register_figure(
    reads=FigureReads(
        {"type1": ("correlated", "naive")},
        ("m", "rho"),
        {
            "correlated.alpha": 0.05,
            "naive.alpha": 0.05,
            "correlated.alternative": "greater",
            "naive.alternative": "greater",
            "naive.rho": 0.0,
        },
    )
)
def figure_p_naive(aggregate: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Type I error of the naive and the correlated t-test against m and against rho.

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate table with grid columns ``m`` and ``rho`` and the metric ``type1`` for
        the tests ``naive`` and ``correlated``; it must hold the points with ``rho = 0.1``
        and those with ``m = 10``.
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        Left: type I error against the number of runs ``m`` at ``rho = 0.1``; right:
        against ``rho`` at ``m = 10``. Error bars are Wilson's intervals of the rates (about
        two Monte Carlo standard errors); the grey line is the nominal size 0.05.
    """
    sel = select(aggregate, "type1", ["m", "rho"])
    panels = [
        ("m", sel[sel["rho"] == _AT_RHO], f"runs m of 10-fold CV ($\\rho$ = {_AT_RHO:g})"),
        ("rho", sel[sel["m"] == _AT_M], f"correlation $\\rho$ between folds (m = {_AT_M})"),
    ]
    fig = Figure(figsize=(9.5, 4.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    for ax, (axis, rows, xlabel) in zip(axes, panels, strict=True):
        if rows.empty:
            raise ValueError(f"aggregate: no type1 rows for the panel against {axis!r}")
        for test, (label, color, style, marker) in _STYLE.items():
            g = rows[rows["test"] == test].sort_values(axis)
            ax.errorbar(
                g[axis],
                g["value"],
                yerr=bar_lengths(g),
                color=color,
                linestyle=style,
                marker=marker,
                markersize=4,
                capsize=2,
                label=label,
            )
        ax.axhline(
            0.05, color="grey", linewidth=0.8, linestyle=":", label=r"nominal $\alpha$ = 0.05"
        )
        ax.set_xlabel(xlabel)
    axes[0].set_xticks(sorted(panels[0][1]["m"].unique()))  # m counts runs: ticks at the grid
    axes[0].set_ylim(bottom=0)  # after both panels: the shared axis spans all their data
    axes[0].set_ylabel("type I error (one-sided)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncols=3,
        fontsize="small",
        title=ERROR_BARS,
        title_fontsize="small",
    )
    set_title(fig, title)
    return fig
