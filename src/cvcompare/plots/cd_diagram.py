"""Critical-difference diagram of the Nemenyi test (Demsar 2006, Fig. 1).

The average ranks of the models are marked on a rank axis whose best end (rank 1) is on
the right; each model is joined to its name, the worse half written on the left and the
better half on the right; the critical difference is drawn as a bar above the axis, and
groups of models that are not significantly different are joined by thick bars below it.

The function draws on a given :class:`~matplotlib.axes.Axes` or on a new
:class:`~matplotlib.figure.Figure` created without :mod:`matplotlib.pyplot`, so it works
with any backend (including Agg) and leaves no global figure state behind.

References
----------
Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
Journal of Machine Learning Research 7, 1-30, Sec. 3.2.2 and Fig. 1.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib as mpl
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from cvcompare._validation import check_array, check_int
from cvcompare.plots._text import text_width, wrap_text
from cvcompare.stats.friedman import critical_difference_cliques

__all__ = ["plot_cd_diagram"]

#: Vertical layout, in axis units: height of a tick, gap between clique bars, gap between
#: the name rows, and the space kept left and right of the rank axis for the names.
_TICK = 0.1
_CLIQUE_STEP = 0.15
_ROW_STEP = 0.3
_NAME_MARGIN = 0.3

#: Length of the rank axis of a new figure, in inches: per unit of rank, and at least.
_INCHES_PER_RANK = 0.4
_MIN_AXIS_INCHES = 4.0
#: Widest a learner's label may be, in inches; a longer one breaks into lines.
_MAX_NAME_INCHES = 3.0
#: Width added to a new figure beyond its axes and names, in inches.
_PADDING_INCHES = 0.2


def plot_cd_diagram(
    avg_ranks: object,
    names: Sequence[str],
    cd: float,
    *,
    cliques: Sequence[Sequence[int]] | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Draw a Demsar-style critical-difference diagram.

    Parameters
    ----------
    avg_ranks : array_like, shape (k,)
        Average rank of each model (1 = best), e.g. ``NemenyiResult.avg_ranks``.
    names : sequence of str, length k
        Model names, in the order of ``avg_ranks``.
    cd : float
        Critical difference, e.g. ``NemenyiResult.cd``.
    cliques : sequence of sequence of int, optional
        The groups of models joined by a bar (indices into ``avg_ranks``, each in
        ``0, ..., k - 1``), e.g. ``NemenyiResult.cliques``; by default
        :func:`~cvcompare.stats.friedman.critical_difference_cliques` of the ranks and ``cd``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure (constrained layout) is created, as wide as
        the rank axis (0.4 inch per rank, at least 4 inches) and the names beside it (a name
        wider than 3 inches breaks into lines).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on. The CD bar has ``gid="cd-bar"``, the clique bars
        ``gid="clique-bar"`` and the rank axis ``gid="rank-axis"``.

    Raises
    ------
    TypeError, ValueError
        If ``avg_ranks`` are not average ranks of ``k`` models (summing to ``k (k + 1) / 2``
        and any ``j`` of them to at least ``j (j + 1) / 2``, within the rounding of two
        decimals), ``names`` is not ``k`` different strings, ``cd`` is not a positive number or a
        clique names no model.

    References
    ----------
    Demsar (2006), Fig. 1.

    Examples
    --------
    >>> ax = plot_cd_diagram([3.67, 3.33, 1.83, 1.17], ["A", "B", "C", "D"], 1.915)
    >>> sorted(t.get_text() for t in ax.texts if t.get_text().startswith("CD"))
    ['CD = 1.915']
    """
    ranks = check_array(avg_ranks, "avg_ranks", ndim=1, min_size=2, axis_names=("models",))
    names = list(names) if not isinstance(names, str) else [names]
    if len(names) != ranks.size or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names: expected {ranks.size} strings (one per model), got {names!r}")
    if len(set(names)) < len(names):
        raise ValueError(f"names: expected each model named once, got {names!r}")
    k = ranks.size
    # the ranks of k models on a data set are 1, ..., k (ties averaged), so their averages
    # sum to k (k + 1) / 2 and any j of them to at least j (j + 1) / 2 (the j smallest
    # included); allowed the rounding of ranks given to two decimals
    j = np.arange(1, k + 1)
    least = np.cumsum(np.sort(ranks)) - j * (j + 1) / 2
    if least.min() < -0.01 * k or abs(least[-1]) > 0.01 * k:
        raise ValueError(
            f"avg_ranks: expected average ranks of {k} models (summing to "
            f"{k * (k + 1) / 2:g}, any j of them to at least j (j + 1) / 2, so each in "
            f"[1, {k}]); got {ranks.tolist()}"
        )
    default = critical_difference_cliques(ranks, cd)  # checks cd, also when cliques are given
    if cliques is None:
        cliques = default
    for clique in cliques:
        for model in clique:
            if check_int(model, "cliques") not in range(k):
                raise ValueError(f"cliques: expected model indices 0 to {k - 1}, got {model}")
    order = np.argsort(ranks, kind="stable")
    n_right = (k + 1) // 2
    # a name longer than _MAX_NAME_INCHES breaks into lines; the rows make room for them
    labels = [
        "\n".join(
            f" {line} "
            for line in wrap_text(
                f"{names[model]} ({ranks[model]:.2f})"
                if position < n_right
                else f"({ranks[model]:.2f}) {names[model]}",
                _MAX_NAME_INCHES * 72.0,
                mpl.rcParams["font.size"],
            ).split("\n")
        )
        for position, model in enumerate(order)
    ]
    lines = max(label.count("\n") + 1 for label in labels)
    stretch = 1.0 + 0.5 * (lines - 1)  # rows half a row further apart per extra line
    row_step = _ROW_STEP * stretch
    if ax is None:
        size = (_figure_width(labels, n_right), 1.6 + 0.35 * k * stretch)
        ax = Figure(figsize=size, layout="constrained").add_subplot()

    line_kw = {"color": "black", "linewidth": 1.0}
    # Rank axis with integer ticks, best rank on the right.
    ax.plot([1, k], [0, 0], gid="rank-axis", **line_kw)
    for tick in range(1, k + 1):
        ax.plot([tick, tick], [0, _TICK], **line_kw)
        ax.text(tick, 1.5 * _TICK, str(tick), ha="center", va="bottom")

    # Critical difference bar above the axis, starting at rank 1.
    cd_y = 6 * _TICK
    ax.plot([1, 1 + cd], [cd_y, cd_y], gid="cd-bar", color="black", linewidth=2.0)
    for end in (1, 1 + cd):
        ax.plot([end, end], [cd_y - _TICK / 2, cd_y + _TICK / 2], **line_kw)
    ax.text(1 + cd / 2, cd_y + _TICK, f"CD = {cd:.3f}", ha="center", va="bottom")

    # Bars joining the models that are not significantly different.
    for c, clique in enumerate(cliques):
        y = -(2 * _TICK + c * _CLIQUE_STEP)
        members = ranks[list(clique)]
        ax.plot(
            [members.min() - 0.05, members.max() + 0.05],
            [y, y],
            gid="clique-bar",
            color="black",
            linewidth=3.0,
            solid_capstyle="round",
        )

    # Each model: a vertical line from its rank, then a horizontal one to its name.
    top = -(2 * _TICK + len(cliques) * _CLIQUE_STEP)
    left_edge, right_edge = k + _NAME_MARGIN, 1 - _NAME_MARGIN
    for position, model in enumerate(order):
        on_right = position < n_right
        row = position if on_right else k - 1 - position
        y = top - (row + 1) * row_step
        x = ranks[model]
        edge = right_edge if on_right else left_edge
        ax.plot([x, x, edge], [0, y, y], **line_kw)
        ax.text(edge, y, labels[position], ha="left" if on_right else "right", va="center")

    ax.set_xlim(left_edge, right_edge)
    ax.set_ylim(top - (max(n_right, k - n_right) + 1) * row_step, cd_y + 3 * _TICK)
    ax.set_axis_off()
    return ax


def _figure_width(labels: list[str], n_right: int) -> float:
    """Width in inches of a new figure whose rank axis is :data:`_INCHES_PER_RANK` long per
    rank (at least :data:`_MIN_AXIS_INCHES`) with ``labels`` beside it: the first
    ``n_right`` on the right, the others on the left."""
    k = len(labels)
    axis = max(_INCHES_PER_RANK * (k - 1), _MIN_AXIS_INCHES)
    size = mpl.rcParams["font.size"]
    names = [
        max(text_width(t, size) for t in side) for side in (labels[:n_right], labels[n_right:])
    ]
    # the axes hold the rank axis and the margins beyond it, the names stand outside them,
    # with the figure's padding (constrained layout: about 0.04 inch a side) and room to spare
    return axis * (k - 1 + 2 * _NAME_MARGIN) / (k - 1) + sum(names) / 72.0 + _PADDING_INCHES
