"""Figures of the hierarchical model on the real cross-validation results.

Both read figure data computed by the analyses of
:mod:`cvcompare.experiments.analyses.hierarchical_real` (densities, boxplot statistics) and
compute nothing themselves.

References
----------
Corani, G., Benavoli, A., Demšar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837, Figs. 7 and 8.
"""

from __future__ import annotations

import collections

import pandas as pd
from matplotlib.figure import Figure

from cvcompare.plots.figures._registry import register_figure, set_title

__all__ = ["figure_h_f7", "figure_h_f8"]

_CURVES = {
    "shrinkage": {"color": "black", "linewidth": 2.5, "label": "shrinkage estimates"},
    "hyper": {
        "color": "tab:red",
        "linewidth": 1.2,
        "label": "δ on a new data set, hierarchical prior on ν",
    },
    "gamma": {
        "color": "tab:blue",
        "linewidth": 1.2,
        "linestyle": "--",
        "label": "δ on a new data set, Gamma(2, 0.1) prior on ν",
    },
}
#: The shrinkage estimates' density is cut where it peaks more than ``_CUT`` times above
#: the two predicted densities, at ``_CUT_AT`` times their peak, so that the curves
#: compared stay readable.
_CUT, _CUT_AT = 2.0, 1.25
_BOX_STATS = ("whislo", "q1", "med", "q3", "whishi")


def _check(data: pd.DataFrame | None, needed: list[str]) -> pd.DataFrame:
    if data is None or data.empty:
        raise ValueError("data: this figure is drawn from the analysis' figure data")
    missing = [c for c in needed if c not in data.columns]
    if missing:
        raise ValueError(f"data: missing column(s) {missing}")
    return data


def _pair_title(pair: str) -> str:
    return pair.replace("-", " vs ", 1)


@register_figure
def figure_h_f7(
    aggregate: pd.DataFrame, *, title: str | None = None, data: pd.DataFrame | None = None
) -> Figure:
    """Densities of the shrinkage estimates and of the next data set's difference (Fig. 7).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        The analysis' aggregate table (not drawn).
    title : str, optional
        Figure title.
    data : pandas.DataFrame
        Figure data with ``pair``, ``curve`` (``shrinkage``, ``hyper``, ``gamma``), ``x``,
        ``density``, ``rope_low`` and ``rope_high``.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per pair: the density of the shrinkage estimates in thick black (the
        paper's stand-in for the true distribution of the ``delta_i``) and the densities of
        the difference on a new data set under the two priors on ``nu``; the rope dotted.
        The difference of pair ``a-b`` is the accuracy of ``a`` minus that of ``b``, as
        the axis says. Where the shrinkage estimates' density peaks more than twice as high
        as the predicted ones (most estimates at one value), the panel is cut at 1.25
        times the predicted densities' peak, and a note gives the cut peak.
    """
    data = _check(data, ["pair", "curve", "x", "density", "rope_low", "rope_high"])
    pairs = list(dict.fromkeys(data["pair"]))
    fig = Figure(figsize=(5.0 * len(pairs), 4.0), layout="constrained")
    axes = fig.subplots(1, len(pairs), squeeze=False)[0]
    for ax, pair in zip(axes, pairs, strict=True):
        sel = data[data["pair"] == pair]
        for curve, style in _CURVES.items():
            g = sel[sel["curve"] == curve]
            ax.plot(g["x"], g["density"], **style)
        predicted = sel.loc[sel["curve"] != "shrinkage", "density"].max()
        peak = sel.loc[sel["curve"] == "shrinkage", "density"].max()
        if peak > _CUT * predicted:  # e.g. j48 vs j48gr: most estimates at one value
            ax.set_ylim(0, _CUT_AT * predicted)
            height = f"{peak:,.0f}" if peak >= 100 else f"{peak:.3g}"
            ax.annotate(
                f"shrinkage estimates' density\ncut here: it peaks at {height}",
                (0.98, 0.97), xycoords="axes fraction", ha="right", va="top",
                fontsize="small",
            )  # fmt: skip
        low, high = sel["rope_low"].iloc[0], sel["rope_high"].iloc[0]
        for end, label in ((low, f"rope ({low:g}, {high:g})"), (high, None)):
            ax.axvline(end, color="grey", linewidth=0.8, linestyle=":", label=label)
        first, second = pair.split("-", 1)
        ax.set_title(_pair_title(pair))
        ax.set_xlabel(f"difference of accuracy δ, {first} minus {second}")
        ax.set_ylim(bottom=0)  # the bottom only: a cut top stays
    axes[0].set_ylabel("density")
    handles, labels = axes[-1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=2, frameon=False)
    set_title(fig, title)
    return fig


def _boxes(data: pd.DataFrame) -> list[dict]:
    """The boxes of :meth:`matplotlib.axes.Axes.bxp` from the long boxplot statistics."""
    wide = data[data["stat"] != "flier"].pivot_table(
        index=["position", "dataset"], columns="stat", values="value"
    )
    fliers = data[data["stat"] == "flier"].groupby("position")["value"].apply(list)
    return [
        {**{k: row[k] for k in (*_BOX_STATS, "mean")}, "fliers": fliers.get(pos, []), "label": name}
        for (pos, name), row in wide.iterrows()
    ]


def _draw_boxes(ax, boxes: list[dict], low: float, high: float, mean_label: str) -> None:
    ax.axhspan(low, high, color="0.88", zorder=0, label=f"rope ({low:g}, {high:g})")
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.bxp(
        boxes,
        widths=0.6,
        flierprops={"marker": "o", "markersize": 2.5, "markerfacecolor": "none"},
        medianprops={"color": "black"},
    )
    means = [b["mean"] for b in boxes]
    ax.plot(range(1, len(boxes) + 1), means, "o", color="tab:red", markersize=3, label=mean_label)


#: Outlying folds farther than this many times the span of the boxes' whiskers and the rope
#: go beyond the fold panel's vertical axis (drawn at its edge), so that one fold does not
#: squash every box.
_OUTLIER_REACH = 1.0


def _limit_to_whiskers(ax, boxes: list[dict], low: float, high: float) -> str:
    """Limit ``ax``'s vertical axis to the whiskers, the rope and the outliers near them;
    farther outliers are marked at the axis' edge (a triangle at each box that has them,
    with their number beside it where it is more than one). Returns the note that counts
    them, with the farthest value (empty where there are none)."""
    bottom = min(low, *(b["whislo"] for b in boxes))
    top = max(high, *(b["whishi"] for b in boxes))
    reach = _OUTLIER_REACH * (top - bottom)
    fliers = [(i, v) for i, b in enumerate(boxes, start=1) for v in b["fliers"]]
    beyond = [(i, v) for i, v in fliers if not bottom - reach <= v <= top + reach]
    if not beyond:
        return ""
    near = [v for _, v in fliers if bottom - reach <= v <= top + reach]
    bottom, top = min(bottom, *near), max(top, *near)
    margin = 0.06 * (top - bottom)
    ax.set_ylim(bottom - margin, top + margin)
    sides = collections.Counter((i, v > top) for i, v in beyond)
    for (i, above), count in sorted(sides.items()):
        edge, marker = (top + margin, "^") if above else (bottom - margin, "v")
        ax.plot(i, edge, marker, color="black", markersize=4, clip_on=False)
        if count > 1:  # several folds of one data set beyond the same edge
            ax.annotate(
                str(count), (i, edge), xytext=(3, -3 if above else 3), textcoords="offset points",
                ha="left", va="top" if above else "bottom", fontsize="x-small",
            )  # fmt: skip
    farthest = max(beyond, key=lambda iv: abs(iv[1]))
    name = boxes[farthest[0] - 1]["label"]
    return (
        f"{len(beyond)} fold difference{'s' if len(beyond) > 1 else ''} beyond the axis "
        f"(triangles at its edge), the farthest {farthest[1]:.2f} ({name})"
    )


@register_figure
def figure_h_f8(
    aggregate: pd.DataFrame, *, title: str | None = None, data: pd.DataFrame | None = None
) -> Figure:
    """Boxplots of the fold differences of every data set and of their means (Fig. 8).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        The analysis' aggregate table (not drawn).
    title : str, optional
        Figure title.
    data : pandas.DataFrame
        Figure data with ``pair``, ``sample`` (``folds``, ``means``), ``dataset``,
        ``position``, ``stat`` (``whislo``, ``q1``, ``med``, ``q3``, ``whishi``, ``mean``,
        ``flier``), ``value``, ``rope_low`` and ``rope_high``.

    Returns
    -------
    matplotlib.figure.Figure
        Left: one box per data set of its fold differences (Tukey's hinges and whiskers,
        outliers as circles, the mean as a red dot); the vertical axis spans the whiskers,
        the rope and the outliers within that span again of them, and the farther outliers
        are triangles at the axis' edge, counted in the panel's title with the farthest one
        (on the real results, one page-blocks fold at -0.5 would otherwise squash every box
        into the rope's band). Right: one box of the data sets' mean differences, on a finer
        scale. The rope shaded in both.
    """
    needed = ["pair", "sample", "dataset", "position", "stat", "value", "rope_low", "rope_high"]
    data = _check(data, needed)
    pair = data["pair"].iloc[0]
    first, second = pair.split("-", 1)
    low, high = data["rope_low"].iloc[0], data["rope_high"].iloc[0]
    folds = _boxes(data[data["sample"] == "folds"])
    means = _boxes(data[data["sample"] == "means"])
    fig = Figure(figsize=(max(9.0, 0.22 * len(folds) + 1.5), 4.8), layout="constrained")
    ax, ax_means = fig.subplots(1, 2, gridspec_kw={"width_ratios": [len(folds), 4]})
    _draw_boxes(ax, folds, low, high, "mean difference on the data set")
    beyond = _limit_to_whiskers(ax, folds, low, high)
    ax.tick_params(axis="x", labelrotation=90, labelsize=7)
    ax.set_ylabel(f"difference of accuracy, {first} minus {second}")
    # the note on the folds beyond the axis in the panel's title, clear of the boxes and of
    # the triangles' counts at the axis' edges
    panel = "fold differences on each data set"
    ax.set_title(f"{panel}\n{beyond}" if beyond else panel, fontsize="medium")
    ax.legend(loc="lower left", fontsize="small", frameon=False)
    _draw_boxes(ax_means, means, low, high, "mean")
    ax_means.set_xticks([1], ["mean differences\nof the data sets"])
    ax_means.set_title("the data sets' means", fontsize="medium")
    set_title(fig, title)
    return fig
