"""Figure of the Friedman-function study: MSE of the per-data-set estimates.

References
----------
Corani, G., Benavoli, A., Demšar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837, Sec. 4.7 and Fig. 6.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvcompare.plots.figures._registry import FigureReads, register_figure, select, set_title

__all__ = ["figure_h_f6"]

#: (box label, metric prefix) of the two estimators, in the paper's order.
_ESTIMATORS = (
    ("MLE (mean of the folds)", "mse_mle"),
    ("shrinkage (hierarchical)", "mse_shrinkage"),
)
_QUANTILES = {"whislo": "q05", "q1": "q25", "med": "q50", "q3": "q75", "whishi": "q95"}


def _value(aggregate: pd.DataFrame, metric: str) -> pd.Series:
    sel = select(aggregate, metric, [])
    if len(sel) != 1:
        raise ValueError(f"aggregate: expected one row of metric {metric!r}, got {len(sel)}")
    return sel.iloc[0]


@register_figure(
    reads=FigureReads(
        {
            name: ()
            for _, prefix in _ESTIMATORS
            for name in (prefix, *(f"{prefix}_{q}" for q in _QUANTILES.values()))
        }
    )
)
def figure_h_f6(aggregate: pd.DataFrame, *, title: str | None = None) -> Figure:
    """Boxplots of the MSE of the MLE and of the shrinkage estimates (H-F6).

    Parameters
    ----------
    aggregate : pandas.DataFrame
        Aggregate table of one grid point with, for ``mse_mle`` and ``mse_shrinkage``,
        the quantile metrics ``<prefix>_q05``, ``_q25``, ``_q50``, ``_q75``, ``_q95`` and
        the mean ``<prefix>`` (test ``hierarchical``).
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
        One box per estimator over the replications, as in Corani et al. (2017), Fig. 6:
        box from the first to the third quartile, median line, whiskers at the 5% and 95%
        quantiles (the paper's whiskers are R's default, 1.5 interquartile ranges, with
        the outliers drawn: the figure reads quantiles, not the replications), and the
        mean as a diamond with an error bar of two Monte Carlo standard errors; the legend
        below the axes says so.
    """
    stats, means = [], []
    for label, prefix in _ESTIMATORS:
        box = {
            key: float(_value(aggregate, f"{prefix}_{q}")["value"]) for key, q in _QUANTILES.items()
        }
        stats.append({**box, "label": label, "fliers": []})
        means.append(_value(aggregate, prefix))
    fig = Figure(figsize=(5.0, 4.2), layout="constrained")
    ax = fig.subplots()
    ax.bxp(stats, showfliers=False, widths=0.5)
    ax.errorbar(  # beside each box, clear of its whiskers
        [1.35, 2.35],
        [m["value"] for m in means],
        yerr=[2 * m["se"] for m in means],
        fmt="D",
        color="tab:red",
        capsize=3,
        markersize=5,
        label="mean (2 Monte Carlo SE)",
    )
    ax.set_ylabel(r"mean squared error of the $\delta_i$ estimates")
    ax.set_ylim(bottom=0)
    ax.set_xlim(0.5, 2.6)
    # what the boxes and whiskers mark: not R's default, which the paper's readers know
    fig.legend(
        loc="outside lower center",
        fontsize="small",
        title="boxes: quartiles and median; whiskers: 5% and 95% quantiles",
        title_fontsize="small",
    )
    set_title(fig, title)
    return fig
