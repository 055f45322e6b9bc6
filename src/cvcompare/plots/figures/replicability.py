"""Figure of the replicability analysis: decisions split by the IDP's determinacy.

References
----------
Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A Bayesian
Wilcoxon signed-rank test based on the Dirichlet process. ICML, Sec. 4.2 and Table 5.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvcompare.plots.figures._registry import (
    ERROR_BARS,
    bar_lengths,
    register_figure,
    select,
    set_title,
)

__all__ = ["figure_replicability_split"]

_TESTS = {"wilcoxon": "Wilcoxon signed-rank", "dp": "Dp(s = 0)"}
_SPLITS = {
    "replicability_determinate": ("IDP determinate", "tab:blue"),
    "replicability_indeterminate": ("IDP indeterminate", "tab:orange"),
}


@register_figure
def figure_replicability_split(
    aggregate: pd.DataFrame, *, title: str | None = None, data: pd.DataFrame | None = None
) -> Figure:
    """Replicability of the Wilcoxon and Dp(s = 0) decisions, IDP determinate vs not (W-T5).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate of the ``replicability_split`` analysis with a grid column ``pair``:
        ``replicability_determinate`` and ``replicability_indeterminate`` for the rows
        ``wilcoxon`` and ``dp``, ``share_indeterminate`` (row ``idp``) and ``share_h1``.
    title : str, optional
        Figure title.
    data : pandas.DataFrame, optional
        Unused (the per-draw decisions are kept for inspection).

    Returns
    -------
    matplotlib.figure.Figure
        One panel per pair: bars of replicability in the draws where the IDP is
        determinate and where it is indeterminate, for each test, with error bars of two
        Monte Carlo standard errors; the dotted line at 0.5 is a random guesser. The panel
        title names the pair as the table does (first-second), the direction of H1 (the
        second learner more accurate), and the share of draws where Wilcoxon accepts H1
        and where the IDP is indeterminate (Benavoli et al. 2014, Table 5, drawn as bars).
    """
    rep = pd.concat([select(aggregate, m, ["pair"]) for m in _SPLITS])
    shares = {m: select(aggregate, m, ["pair"]) for m in ("share_h1", "share_indeterminate")}
    pairs = list(dict.fromkeys(rep["pair"]))
    fig = Figure(figsize=(3.2 * len(pairs) + 0.8, 3.8), layout="constrained")
    axes = fig.subplots(1, len(pairs), squeeze=False, sharey=True)[0]
    width = 0.38
    x = np.arange(len(_TESTS))
    for ax, pair in zip(axes, pairs, strict=True):
        for offset, (metric, (label, color)) in zip(
            (-width / 2, width / 2), _SPLITS.items(), strict=True
        ):
            sel = rep[(rep["pair"] == pair) & (rep["metric"] == metric)].set_index("test")
            sel = sel.reindex(list(_TESTS))
            ax.bar(
                x + offset, sel["value"], width, color=color, label=label if ax is axes[0] else None
            )
            # two standard errors each way, cut at 1: no replicability exceeds it
            below, above = bar_lengths(sel)
            above = np.minimum(above, 1.0 - sel["value"].to_numpy(float))
            ax.errorbar(
                x + offset,
                sel["value"],
                yerr=np.vstack([below, above]),
                fmt="none",
                ecolor="black",
                capsize=3,
            )
        ax.axhline(
            0.5,
            color="grey",
            linewidth=0.8,
            linestyle=":",
            label="random guesser" if ax is axes[0] else None,
        )
        h1 = shares["share_h1"]
        h1 = h1[(h1["pair"] == pair) & (h1["test"] == "wilcoxon")]["value"].iloc[0]
        ind = shares["share_indeterminate"]
        ind = ind[ind["pair"] == pair]["value"].iloc[0]
        second = pair.split("-", 1)[1]
        ax.set_title(
            f"{pair}: H1 = {second} more accurate\n"
            f"Wilcoxon accepts H1 in {h1:.0%}\nIDP indeterminate in {ind:.0%}",
            fontsize="medium",
        )
        ax.set_xticks(x, list(_TESTS.values()))
        ax.set_ylim(0, 1.05)
    axes[0].set_ylabel("replicability R")
    fig.legend(
        loc="outside lower center", ncols=3, frameon=False, title=ERROR_BARS, title_fontsize="small"
    )
    set_title(fig, title)
    return fig
