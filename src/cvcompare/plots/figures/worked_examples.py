"""Figures of the fixed worked examples: critical-difference diagrams and IDP posteriors.

References
----------
Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7,
1-30, Fig. 1 (the diagram the Friedman / Nemenyi tutorial draws).

Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A Bayesian
Wilcoxon signed-rank test based on the Dirichlet process. ICML, Fig. 1.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvcompare.plots.cd_diagram import plot_cd_diagram
from cvcompare.plots.figures._registry import register_figure, select, set_title

__all__ = ["figure_cd_diagrams", "figure_idp_posteriors"]


@register_figure
def figure_cd_diagrams(
    aggregate: pd.DataFrame, *, title: str | None = None, data: pd.DataFrame | None = None
) -> Figure:
    """One critical-difference diagram per Nemenyi level (F-T1).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate of the ``friedman_nemenyi`` analysis: ``avg_rank`` per model and ``cd``
        per level (rows ``nemenyi_<alpha>``).
    title : str, optional
        Figure title.
    data : pandas.DataFrame, optional
        Unused (the analysis has no figure data).

    Returns
    -------
    matplotlib.figure.Figure
        One panel per level, smallest level first, each drawn by
        :func:`cvcompare.plots.cd_diagram.plot_cd_diagram` (Demsar 2006, Fig. 1).
    """
    ranks = select(aggregate, "avg_rank", [])
    cds = select(aggregate, "cd", []).copy()
    cds["alpha"] = cds["test"].str.removeprefix("nemenyi_").astype(float)
    cds = cds.sort_values("alpha")
    k = len(ranks)
    fig = Figure(figsize=(7.0, (1.6 + 0.35 * k) * len(cds)), layout="constrained")
    axes = fig.subplots(len(cds), 1, squeeze=False)[:, 0]
    for ax, row in zip(axes, cds.itertuples(index=False), strict=True):
        plot_cd_diagram(ranks["value"].to_numpy(), list(ranks["test"]), row.value, ax=ax)
        ax.set_title(f"Nemenyi test, alpha = {row.alpha:g}")
    set_title(fig, title)
    return fig


@register_figure
def figure_idp_posteriors(
    aggregate: pd.DataFrame, *, title: str | None = None, data: pd.DataFrame | None = None
) -> Figure:
    """Lower and upper posterior densities of ``P(Z >= -Z')`` (W-F1).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate of the ``idp_posteriors`` analysis (``lower_prob``, ``upper_prob`` with
        their Monte Carlo standard errors).
    title : str, optional
        Figure title.
    data : pandas.DataFrame
        Its figure data: the binned densities of the lower and upper posterior draws
        (``posterior`` ``lower``/``upper``, ``x``, ``density``).

    Returns
    -------
    matplotlib.figure.Figure
        Both densities, the area right of 1/2 shaded (it is the lower or upper posterior
        probability of ``P(Z >= -Z') > 1/2``, given in the legend with two Monte Carlo
        standard errors), as in Benavoli et al. (2014), Fig. 1.
    """
    if data is None or not {"posterior", "x", "density"} <= set(data.columns):
        raise ValueError("data: expected the figure data of idp_posteriors (posterior, x, density)")
    probs = {name: select(aggregate, f"{name}_prob", []).iloc[0] for name in ("lower", "upper")}
    fig = Figure(figsize=(6.0, 4.0), layout="constrained")
    ax = fig.add_subplot()
    styles = {"lower": ("tab:blue", "-"), "upper": ("tab:red", "--")}
    for name, (color, line) in styles.items():
        d = data[data["posterior"] == name].sort_values("x")
        p = probs[name]
        ax.plot(
            d["x"],
            d["density"],
            color=color,
            linestyle=line,
            label=f"{name}: area right of 1/2 = {p['value']:.3f} ± {2 * p['se']:.3f} (2 SE)",
        )
        right = d["x"] >= 0.5
        ax.fill_between(d["x"][right], d["density"][right], color=color, alpha=0.2)
    ax.axvline(0.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("P(Z ≥ −Z′)")
    ax.set_ylabel("posterior density")
    ax.set_xlim(0, 1)
    ax.set_ylim(bottom=0)
    fig.legend(loc="outside lower center", fontsize="small", frameon=False)
    set_title(fig, title)
    return fig
