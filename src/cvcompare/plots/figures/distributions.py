"""Figures of distributions over Monte Carlo runs (histogram metrics of the aggregate).

References
----------
Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing cross-validated
algorithms on multiple data sets. Machine Learning 100, 285-304, Fig. 1.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvcompare.plots.figures._registry import (
    ERROR_BARS,
    bar_lengths,
    register_figure,
    select,
    series_reads,
    set_title,
)

__all__ = ["figure_p_f1"]


#: (metric, test, horizontal axis label) of each row of panels of P-F1.
_ROWS = [
    ("pvalue_distribution", "signed_rank", "Wilcoxon signed-rank p-value"),
    ("distribution", "poisson", "Poisson test: P(X > q/2)"),
]


@register_figure(reads=series_reads(_ROWS, ["case", "rho"]))
def figure_p_f1(aggregate: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Distributions of the Wilcoxon p-value and of the Poisson test's P(X > q/2) (P-F1).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate table with grid columns ``case`` and ``rho`` and the histogram metrics
        ``pvalue_distribution`` (test ``signed_rank``) and ``distribution`` (test
        ``poisson``), with columns ``bin_low`` and ``bin_high``.
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        Four panels as in Corani & Benavoli (2015), Fig. 1: (a) Wilcoxon case 1, (b)
        Wilcoxon case 2, (c) Poisson case 1, (d) Poisson case 2. The smallest ``rho`` is
        drawn as bars, any other as outlines; error bars are Wilson's intervals of the
        share of runs in each bin. The panels of one test share their
        vertical scale.
    """
    cases = sorted(select(aggregate, _ROWS[0][0], ["case", "rho", "bin_low"])["case"].unique())
    fig = Figure(figsize=(4.2 * len(cases), 6.4), layout="constrained")
    # the cases of one test share their vertical scale, so that they compare at a glance
    axes = fig.subplots(len(_ROWS), len(cases), squeeze=False, sharey="row")
    letters = iter("abcdefgh")
    for r, (metric, test, xlabel) in enumerate(_ROWS):
        sel = select(aggregate, metric, ["case", "rho", "bin_low", "bin_high"])
        sel = sel[sel["test"] == test]
        rhos = sorted(sel["rho"].unique())
        for c, case in enumerate(cases):
            ax = axes[r, c]
            for i, rho in enumerate(rhos):
                g = sel[(sel["case"] == case) & (sel["rho"] == rho)].sort_values("bin_low")
                width = g["bin_high"] - g["bin_low"]
                mid = g["bin_low"] + width / 2
                label = _rho_label(rho)
                if i == 0:
                    ax.bar(
                        g["bin_low"],
                        g["value"],
                        width=width,
                        align="edge",
                        color="tab:blue",
                        alpha=0.45,
                        label=label,
                    )
                else:
                    ax.stairs(
                        g["value"],
                        [*g["bin_low"], g["bin_high"].iloc[-1]],
                        color="black",
                        linewidth=1.0,
                        label=label,
                    )
                shift = (i - (len(rhos) - 1) / 2) * width / 4
                ax.errorbar(
                    mid + shift,
                    g["value"],
                    yerr=bar_lengths(g),
                    fmt="none",
                    ecolor="black" if i else "grey",
                    capsize=1.5,
                    linewidth=0.8,
                )
            ax.set_xlim(0, 1)
            ax.set_ylim(bottom=0)
            ax.set_xlabel(xlabel)
            ax.set_title(
                f"({next(letters)}) {xlabel.split(':')[0].split(' p-')[0]}, case {case}",
                fontsize="medium",
            )
            if c == 0:
                ax.set_ylabel("share of runs")
    # smallest rho first, as drawn (matplotlib lists the outlines before the bars)
    entries = dict(zip(*reversed(axes[0, 0].get_legend_handles_labels()), strict=True))
    labels = [_rho_label(rho) for rho in rhos]
    fig.legend(
        [entries[label] for label in labels],
        labels,
        loc="outside lower center",
        ncols=len(labels),
        fontsize="small",
        title=ERROR_BARS,
        title_fontsize="small",
    )
    set_title(fig, title)
    return fig


def _rho_label(rho: float) -> str:
    """The legend entry of the correlation ``rho``."""
    return rf"$\rho$ = {rho:g}"
