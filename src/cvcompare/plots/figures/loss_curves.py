"""Figures of loss-based decisions: average loss against the difference of accuracy.

References
----------
Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A Bayesian
Wilcoxon signed-rank test based on the Dirichlet process. ICML, Sec. 4, Fig. 2.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
from matplotlib.figure import Figure

from cvcompare.plots.figures._registry import (
    ERROR_BARS,
    draw_errorbars,
    register_figure,
    select,
    series_reads,
    set_title,
)

__all__ = ["figure_w_f2"]

#: (metric, test, label, marker, line style) of each curve of Fig. 2.
_SERIES = (
    ("loss", "dp", "Dp(s = 0): loss", "o", "-"),
    ("loss", "wilcoxon", "Wilcoxon: loss", "s", "--"),
    ("loss_determinate", "idp", "IDP: loss when determinate", "^", "-."),
    ("indeterminacy", "idp", "IDP: share of indeterminate runs", "D", ":"),
)


@register_figure(
    reads=series_reads(
        _SERIES,
        ["delta", "l1"],
        {"dp.l0": 1.0, "wilcoxon.l0": 1.0, "idp.l0": 1.0},
        picks={"losses": "l1"},
    )
)
def figure_w_f2(
    aggregate: pd.DataFrame, *, title: str | None = None, losses: Sequence[int] = (4, 19)
) -> Figure:
    """Loss of the three signed-rank tests and the IDP's indeterminacy against Delta (W-F2).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate table with grid columns ``delta`` and ``l1`` and the metrics ``loss``
        (tests ``dp``, ``wilcoxon``), ``loss_determinate`` and ``indeterminacy`` (test
        ``idp``).
    title : str, optional
        Figure title.
    losses : sequence of int
        The values of ``l1`` drawn, one panel each (the paper: 4 left, 19 right); those
        absent from the table (a fidelity that runs part of the grid) are skipped. An
        experiment file sets them in ``figure.settings``.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per ``l1`` (``l0 = 1``): the average loss of Dp(s = 0) and of the
        Wilcoxon test, the average loss of IDP over its determinate runs and the share of
        runs in which IDP is indeterminate, against ``Delta``, as in Benavoli et al.
        (2014), Fig. 2; error bars are two Monte Carlo standard errors, cut at 0 for the
        losses (the aggregate's ``low``), and Wilson's interval for the share of
        indeterminate runs. The legend sits below the panels, clear of the curves.
    """
    tables = {m: select(aggregate, m, ["delta", "l1"]) for m in {s[0] for s in _SERIES}}
    shown = [v for v in losses if (tables["loss"]["l1"] == v).any()]
    if not shown:
        raise ValueError(f"aggregate: none of the losses l1 = {list(losses)} was run")
    fig = Figure(figsize=(5.0 * len(shown), 4.6), layout="constrained")
    axes = fig.subplots(1, len(shown), squeeze=False, sharey=True)[0]
    for ax, l1 in zip(axes, shown, strict=True):
        for metric, test, label, marker, style in _SERIES:
            sel = tables[metric]
            g = sel[(sel["test"] == test) & (sel["l1"] == l1)]
            if g.empty:
                raise ValueError(f"aggregate: no rows for {metric!r} of {test!r} at l1 = {l1}")
            draw_errorbars(
                ax, g, "delta", marker=marker, linestyle=style, markersize=3, label=label
            )
        ax.axvline(0.0, color="grey", linewidth=0.8, linestyle=":")
        ax.set_xlabel(r"difference of accuracy $\Delta$")
        ax.set_title(f"loss of a type I error $l_1$ = {l1} ($l_0$ = 1)")
    axes[0].set_ylabel("average loss / share of runs")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="outside lower center",
        ncols=2,
        fontsize="small",
        title=ERROR_BARS.replace("errors", "errors, cut at 0 for the losses"),
        title_fontsize="small",
    )
    set_title(fig, title)
    return fig
