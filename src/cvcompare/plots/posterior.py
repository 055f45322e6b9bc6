"""Plots of the posteriors of a comparison of two learners, and of all pairs of learners.

Every function draws what it is given (posterior draws, a density on a grid, estimates per
data set) and computes no statistic. Differences are first learner minus second, oriented
so that a positive one favours the first learner (for losses, the second's score minus the
first's; the axis labels say which, see :func:`difference_text`): *right* means that the
first learner is practically better, *left* that the second is, *rope* that
they are practically equivalent. Each function draws on a given
:class:`~matplotlib.axes.Axes` or on a new :class:`~matplotlib.figure.Figure` made without
:mod:`matplotlib.pyplot` (any backend, no global state), and gives its main artists a
``gid`` so that what was drawn can be checked.

References
----------
Benavoli, A., Corani, G., Demsar, J. & Zaffalon, M. (2017). Time for a change: a tutorial for
comparing multiple classifiers through Bayesian analysis. JMLR 18(77), Figs. 4-9 (simplex
plots, posterior densities with the rope). Corani, G., Benavoli, A., Demsar, J., Mangili, F. &
Zaffalon, M. (2017). Statistical comparison of classifiers through Bayesian hierarchical
modelling. Machine Learning 106, Sec. 3.3 and Fig. 7 (shrinkage). Benavoli et al. (2014),
ICML, Fig. 2 (lower and upper posteriors of the IDP).
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib as mpl
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Rectangle
from matplotlib.transforms import offset_copy

from cvcompare._validation import check_array, check_bool, check_int, check_rope
from cvcompare.plots._text import text_width, wrap_text

__all__ = [
    "difference_text",
    "plot_idp",
    "plot_pairwise_heatmap",
    "plot_posterior_density",
    "plot_shrinkage",
    "plot_simplex",
    "simplex_coordinates",
]

_SQRT3 = float(np.sqrt(3.0))

#: Share of the height of a density plot's axes up to the top of the curve (or histogram).
_CURVE_HEIGHT = 0.65


def _axes(ax: Axes | None, size: tuple[float, float]) -> Axes:
    return Figure(figsize=size, layout="constrained").add_subplot() if ax is None else ax


#: Width of a colour bar beside its axes with its ticks and label, in points.
_COLORBAR_POINTS = 70.0
#: Width of a y-axis label and the margins of an axes' cell, in points.
_MARGIN_POINTS = 55.0
#: Height of a line of text, in multiples of its font size.
_LINE_SPACING = 1.2
#: Widest a learner's name may be on a heat map's axis, in inches on a new figure and as a
#: share of the smaller side of the room of a caller's axes; a longer name breaks into lines.
_HEATMAP_NAME_INCHES = 1.75
_HEATMAP_NAME_SHARE = 0.25
#: Least room of each learner on a new heat map, in inches (the image's cells are square).
_HEATMAP_CELL_INCHES = 0.8
#: Smallest font size, in points, of the names on a caller's crowded heat map.
_HEATMAP_MIN_FONT = 6.0
#: Texts at 45 degrees stand this share of their spacing apart (sqrt(1 / 2)).
_DIAGONAL = 0.71


def _cell(ax: Axes) -> tuple[float, float]:
    """Width and height in points of the room ``ax`` has: its share of the grid of its
    figure or subfigure (width and height ratios counted), or its own box where it was
    placed by hand."""
    spec = ax.get_subplotspec()
    to_points = 72.0 / ax.figure.dpi
    if spec is None:
        return ax.bbox.width * to_points, ax.bbox.height * to_points
    grid = spec.get_gridspec()
    nrows, ncols = grid.get_geometry()
    widths = grid.get_width_ratios() or [1] * ncols
    heights = grid.get_height_ratios() or [1] * nrows
    box = ax.figure.bbox
    return (
        box.width * to_points * sum(widths[c] for c in spec.colspan) / sum(widths),
        box.height * to_points * sum(heights[r] for r in spec.rowspan) / sum(heights),
    )


def _width(ax: Axes, beside: float = 0.0) -> float:
    """Width in points that ``ax`` has for its texts: the width of its cell (:func:`_cell`)
    less its y-axis tick labels (such as the data sets' names), :data:`_MARGIN_POINTS` for
    the y-axis label and the margins and ``beside`` points for what stands beside the axes in
    the cell (a colour bar), but at least a quarter of the cell."""
    cell = _cell(ax)[0]
    ticks = [text_width(t.get_text(), t.get_fontsize()) for t in ax.get_yticklabels()]
    # texts may reach beyond the axes rather than break into a column of syllables
    return max(cell - max(ticks, default=0.0) - _MARGIN_POINTS - beside, 0.25 * cell)


def _set_title(ax: Axes, title: str | None, beside: float = 0.0) -> None:
    """Set ``title`` broken into lines as wide as the axes at most (if it is given);
    ``beside`` as for :func:`_width`."""
    if title:
        ax.set_title(wrap_text(title, _width(ax, beside), mpl.rcParams["axes.titlesize"]))


def _set_xlabel(ax: Axes, label: str) -> None:
    """Set the x-axis ``label``, broken into lines as wide as the axes at most."""
    ax.set_xlabel(wrap_text(label, _width(ax), mpl.rcParams["axes.labelsize"]))


def _side_labels(ax: Axes, first: str, second: str) -> float:
    """Write where each learner is better at the top corners of ``ax``, each on at most
    45% of its width; return the height in points of the taller one."""
    lines, width = 0, 0.45 * _width(ax)
    for x, ha, text in ((0.01, "left", f"< {second} better"), (0.99, "right", f"{first} better >")):
        text = wrap_text(text, width, mpl.rcParams["font.size"])
        ax.text(x, 0.97, text, transform=ax.transAxes, ha=ha, va="top", gid="side-label")
        lines = max(lines, text.count("\n") + 1)
    return lines * _LINE_SPACING * mpl.rcParams["font.size"]


def _curve_height(ax: Axes, space: float) -> float:
    """Share of the height of ``ax`` up to the top of a curve that leaves ``space`` points
    above it (for the side labels and a legend), between 0.3 and :data:`_CURVE_HEIGHT`.

    The height of ``ax`` is that of its cell (:func:`_cell`) less the lines of its title and
    x-axis label (set before) and 40 points for the tick labels and margins.
    """
    height = _cell(ax)[1] - 40.0
    for text in (ax.title, ax.xaxis.label):
        if text.get_text():
            lines = text.get_text().count("\n") + 1
            height -= _LINE_SPACING * text.get_fontsize() * lines
    if height <= space:  # no room above the curve: the lowest curve
        return 0.3
    return float(np.clip(1.0 - space / height, 0.3, _CURVE_HEIGHT))


def _names(names: Sequence[str]) -> tuple[str, str]:
    if isinstance(names, str) or len(names) != 2 or not all(isinstance(n, str) for n in names):
        raise ValueError(f"names: expected the two learners' names, got {names!r}")
    return names[0], names[1]


def difference_text(first: str, second: str, higher_is_better: bool = True) -> str:
    """The subtraction a plotted difference stands for, in the raw scores.

    Differences are oriented so that a positive one favours the first learner: for scores
    where lower is better (losses) that is the second learner's score minus the first's.

    Parameters
    ----------
    first, second : str
        The learners.
    higher_is_better : bool
        Whether higher scores are better.

    Returns
    -------
    str

    Examples
    --------
    >>> difference_text("good", "mid")
    'good minus mid'
    >>> difference_text("good", "mid", higher_is_better=False)
    'mid minus good; lower scores are better'
    """
    if check_bool(higher_is_better, "higher_is_better"):
        return f"{first} minus {second}"
    return f"{second} minus {first}; lower scores are better"


def simplex_coordinates(points: object) -> np.ndarray:
    """Project ``(left, rope, right)`` probabilities onto the plane of the simplex plot.

    The vertices are left ``(0, 0)``, right ``(1, 0)`` and rope ``(1/2, sqrt(3)/2)``: an
    equilateral triangle with unit sides, as in baycomp's simplex plot.

    Parameters
    ----------
    points : array_like, shape (n, 3)
        Rows ``(left, rope, right)`` of probabilities summing to one (up to 1e-6 of
        rounding).

    Returns
    -------
    numpy.ndarray, shape (n, 2)
    """
    return _simplex_xy(points, "points")


def _simplex_xy(points: object, name: str) -> np.ndarray:
    """:func:`simplex_coordinates` of ``points``, named ``name`` in error messages."""
    p = check_array(points, name, ndim=2, axis_names=("draws", "regions"))
    if p.shape[1] != 3:
        raise ValueError(f"{name}: expected 3 columns (left, rope, right), got {p.shape[1]}")
    if np.any(p < -1e-6) or np.any(np.abs(p.sum(axis=1) - 1.0) > 1e-6):  # up to rounding
        raise ValueError(
            f"{name}: expected rows (left, rope, right) of probabilities >= 0 summing to one"
        )
    left, rope, right = p.T
    return np.column_stack([right + rope / 2.0, rope * _SQRT3 / 2.0])


def plot_simplex(
    draws: object,
    *,
    names: Sequence[str],
    probs: Sequence[float] | None = None,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """Simplex (ternary) plot of posterior draws of ``(theta_left, theta_rope, theta_right)``.

    Each draw is a point of the triangle whose corners are the three regions; the lines from
    the centre to the middles of the sides split it into the parts where left, rope or right
    is the most probable region, so the share of points in each part is the posterior
    probability of that region (as in baycomp and Benavoli et al., 2017, Fig. 5).

    Parameters
    ----------
    draws : array_like, shape (n, 3)
        Posterior draws of the three region probabilities (e.g. ``SignedRankPosterior.draws``
        or ``SignPosterior.draws``).
    names : pair of str
        The first and second learner: the right corner is the first, the left corner the
        second.
    probs : triple of float, optional
        ``(p_left, p_rope, p_right)`` written at the corners.
    ax : matplotlib.axes.Axes, optional
        Where to draw.
    title : str, optional
        Title of the plot.

    Returns
    -------
    matplotlib.axes.Axes
        The points have ``gid="draws"``, the triangle ``gid="simplex"`` and the region
        borders ``gid="region-border"``. Long names and titles are broken into lines.
    """
    first, second = _names(names)
    xy = _simplex_xy(draws, "draws")
    if xy.shape[0] == 0:
        raise ValueError("draws: expected at least one draw, got none")
    ax = _axes(ax, (5.0, 4.6))
    corners = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, _SQRT3 / 2.0], [0.0, 0.0]])
    ax.plot(corners[:, 0], corners[:, 1], color="black", linewidth=1.0, gid="simplex")
    centre = simplex_coordinates([[1 / 3, 1 / 3, 1 / 3]])[0]
    mids = simplex_coordinates([[0.5, 0.5, 0.0], [0.5, 0.0, 0.5], [0.0, 0.5, 0.5]])
    for mx, my in mids:
        ax.plot(
            [centre[0], mx],
            [centre[1], my],
            color="0.4",
            linestyle="--",
            linewidth=0.8,
            gid="region-border",
        )
    # above the triangle's sides, where the draws lie when a region has no mass
    ax.scatter(
        xy[:, 0],
        xy[:, 1],
        s=4,
        alpha=0.25,
        color="tab:blue",
        linewidths=0,
        gid="draws",
        rasterized=True,
        zorder=3,
    )
    # a corner's label on at most half a side: the axes show 1.6 sides across and 1.33
    # up (the limits below), at one scale (equal aspect), set by the tighter of the two
    cell_width, cell_height = _cell(ax)
    width = 0.5 * min(cell_width / 1.6, cell_height / 1.33)
    labels = tuple(
        wrap_text(text, width, mpl.rcParams["font.size"])
        for text in (f"{second} better", "equivalent (rope)", f"{first} better")
    )
    if probs is not None:
        p = check_array(probs, "probs", ndim=1)
        if p.size != 3 or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-6:  # up to rounding
            raise ValueError(
                "probs: expected (p_left, p_rope, p_right), three probabilities summing to "
                f"one, got {p.tolist()}"
            )
        labels = tuple(f"{text}\np = {v:.3f}" for text, v in zip(labels, p, strict=True))
    ax.text(0.0, -0.04, labels[0], ha="center", va="top")
    ax.text(0.5, _SQRT3 / 2 + 0.03, labels[1], ha="center", va="bottom")
    ax.text(1.0, -0.04, labels[2], ha="center", va="top")
    ax.set_xlim(-0.3, 1.3)
    ax.set_ylim(-0.25, 1.08)
    ax.set_aspect("equal")
    ax.set_axis_off()
    _set_title(ax, title)
    return ax


def plot_posterior_density(
    grid: object,
    density: object,
    *,
    rope: tuple[float, float],
    names: Sequence[str],
    ax: Axes | None = None,
    title: str | None = None,
    xlabel: str | None = None,
    label: str | None = None,
    higher_is_better: bool = True,
) -> Axes:
    """Posterior density of the mean difference, with the rope shaded.

    Parameters
    ----------
    grid, density : array_like, shape (m,)
        Points of the difference and the posterior density there (e.g.
        ``CorrelatedTPosterior.distribution.pdf(grid)`` or
        ``HierarchicalResult.next_dataset_density(grid)``).
    rope : tuple of float
        ``(low, high)``, shaded.
    names : pair of str
        The first and second learner, written on the side where each is better.
    ax, title, xlabel, label : optional
        Where to draw, the title, the x-axis label (default: the difference by name, see
        :func:`difference_text`) and the curve's legend entry.
    higher_is_better : bool
        Whether higher scores are better; the default x-axis label names the subtraction
        accordingly.

    Returns
    -------
    matplotlib.axes.Axes
        The curve has ``gid="density"``, the shaded rope ``gid="rope"``, the side labels
        ``gid="side-label"``. The curve fills the lower part of the axes, the legend and
        the side labels (broken into lines if the names are long) stand above it.
    """
    first, second = _names(names)
    x = check_array(grid, "grid", ndim=1, min_size=2, axis_names=("points",))
    y = check_array(density, "density", ndim=1, min_size=2, axis_names=("points",))
    if x.size != y.size:
        raise ValueError(f"density: expected {x.size} values (one per grid point), got {y.size}")
    if np.any(np.diff(x) <= 0):
        raise ValueError("grid: expected increasing points")
    if np.any(y < 0):
        raise ValueError(f"density: expected values >= 0, got {y.min():g}")
    low, high = check_rope(rope)
    higher_is_better = check_bool(higher_is_better, "higher_is_better")
    ax = _axes(ax, (6.0, 3.4))
    ax.axvspan(
        low,
        high,
        color="tab:orange",
        alpha=0.25,
        linewidth=0,
        gid="rope",
        label=f"rope [{low:g}, {high:g}]",
    )
    ax.fill_between(x, y, color="tab:blue", alpha=0.2, linewidth=0)
    ax.plot(x, y, color="tab:blue", gid="density", label=label or "posterior density")
    ax.axvline(0.0, color="0.3", linewidth=0.8)
    # the curve in the lower part of the axes: the labels and the legend above it
    _set_xlabel(
        ax,
        xlabel or f"difference of the scores ({difference_text(first, second, higher_is_better)})",
    )
    ax.set_ylabel("density")
    _set_title(ax, title)
    # the legend under the side labels, whatever their number of lines
    below = _side_labels(ax, first, second) + 4.0
    ax.legend(
        loc="upper right",
        bbox_to_anchor=(1.0, 0.97),
        bbox_transform=offset_copy(ax.transAxes, ax.figure, y=-below, units="points"),
        frameon=False,
        fontsize="small",
    )
    top = _curve_height(ax, below + 40.0)  # 40 points: the legend's two rows and a margin
    ax.set_ylim(0, float(y.max()) / top if y.max() > 0 else None)
    return ax


def plot_shrinkage(
    sample_means: object,
    shrinkage: object,
    interval: object,
    datasets: Sequence[str],
    *,
    rope: tuple[float, float],
    names: Sequence[str],
    ax: Axes | None = None,
    title: str | None = None,
    higher_is_better: bool = True,
) -> Axes:
    """Forest plot: each data set's sample mean difference and its hierarchical estimate.

    Parameters
    ----------
    sample_means : array_like, shape (q,)
        Mean of the fold differences of each data set.
    shrinkage : array_like, shape (q,)
        Posterior mean of each data set's difference ``delta_i`` (the shrinkage estimate).
    interval : array_like, shape (q, 2)
        A credible interval of each ``delta_i`` (lower, upper).
    datasets : sequence of str, length q
        Names of the data sets (one row each, top to bottom).
    rope : tuple of float
        Shaded.
    names : pair of str
        The first and second learner.
    ax, title : optional
    higher_is_better : bool
        Whether higher scores are better; the x-axis label names the subtraction
        accordingly (:func:`difference_text`).

    Returns
    -------
    matplotlib.axes.Axes
        Sample means ``gid="sample-mean"``, estimates ``gid="shrinkage"`` (row ``i`` at
        ``y = q - 1 - i``), intervals ``gid="interval"``, rope ``gid="rope"``.
    """
    first, second = _names(names)
    means = check_array(sample_means, "sample_means", ndim=1, min_size=1)
    est = check_array(shrinkage, "shrinkage", ndim=1)
    ci = check_array(interval, "interval", ndim=2)
    q = means.size
    if isinstance(datasets, str):
        raise TypeError(f"datasets: expected a sequence of names, got the string {datasets!r}")
    if est.size != q or ci.shape != (q, 2) or len(datasets) != q:
        raise ValueError(
            f"shrinkage, interval, datasets: expected {q} data sets like sample_means, got "
            f"{est.size}, {ci.shape[0]} and {len(datasets)}"
        )
    if np.any(ci[:, 0] > ci[:, 1]):
        raise ValueError("interval: expected rows (lower, upper) with lower <= upper")
    low, high = check_rope(rope)
    higher_is_better = check_bool(higher_is_better, "higher_is_better")
    y = np.arange(q)[::-1].astype(float)
    # a new figure leaves the plot 4.5 inches beside the data sets' names, however long
    names_inches = max(text_width(str(d), "small") for d in datasets) / 72.0
    ax = _axes(ax, (max(6.5, 4.5 + names_inches + 0.6), 1.8 + 0.22 * q))
    ax.axvspan(low, high, color="tab:orange", alpha=0.25, linewidth=0, gid="rope", label="rope")
    ax.axvline(0.0, color="0.3", linewidth=0.8)
    ax.hlines(
        y,
        ci[:, 0],
        ci[:, 1],
        color="tab:blue",
        linewidth=1.2,
        gid="interval",
        label="95% credible interval",
    )
    ax.scatter(
        est, y, color="tab:blue", s=18, zorder=3, gid="shrinkage", label="hierarchical estimate"
    )
    ax.scatter(
        means, y, marker="x", color="black", s=18, zorder=3, gid="sample-mean", label="sample mean"
    )
    ax.set_yticks(y, list(datasets), fontsize="small")
    ax.set_ylim(-1, q)
    _set_xlabel(
        ax, f"difference of the scores ({difference_text(first, second, higher_is_better)})"
    )
    ax.figure.legend(loc="outside lower center", ncol=4, frameon=False, fontsize="small")
    _set_title(ax, title)
    return ax


def plot_idp(
    lower_draws: object,
    upper_draws: object,
    *,
    names: Sequence[str],
    bins: int = 50,
    ax: Axes | None = None,
    title: str | None = None,
    higher_is_better: bool = True,
) -> Axes:
    """Lower and upper posterior distributions of the IDP signed-rank test.

    Histograms (as densities) of the draws of ``theta = P(Z >= -Z')`` under the two extreme
    priors of the imprecise Dirichlet process; the first learner is preferred when even the
    lower posterior puts more than the decision threshold above 1/2 (Benavoli et al., 2014,
    Eq. 9).

    Parameters
    ----------
    lower_draws, upper_draws : array_like, shape (n,)
        ``IDPSignedRankPosterior.lower_draws`` and ``upper_draws``, in [0, 1].
    names : pair of str
        The first and second learner.
    bins : int
        Number of equal bins on [0, 1], ``>= 1``.
    ax, title : optional
    higher_is_better : bool
        Whether higher scores are better; the x-axis label names the subtraction
        accordingly (:func:`difference_text`).

    Returns
    -------
    matplotlib.axes.Axes
        Histograms ``gid="lower"`` (solid blue) and ``gid="upper"`` (dashed orange), one patch
        each, a step outline, in the lower part of the axes below the side labels
        (``gid="side-label"``); the line at 1/2 ``gid="half"``.
    """
    first, second = _names(names)
    lo = check_array(lower_draws, "lower_draws", ndim=1, min_size=1)
    up = check_array(upper_draws, "upper_draws", ndim=1, min_size=1)
    for name, draws in (("lower_draws", lo), ("upper_draws", up)):
        # the histogram would leave them out (rounding past an end by 1e-9 is let pass)
        if np.any((draws < -1e-9) | (draws > 1 + 1e-9)):
            raise ValueError(f"{name}: expected draws of theta in [0, 1]")
    # one pair per draw of the weights, the lower below the upper (Theorem 4)
    if lo.size != up.size or np.any(lo > up):
        raise ValueError(
            "lower_draws, upper_draws: expected draws in pairs, each lower <= its upper "
            "(IDPSignedRankPosterior.lower_draws and upper_draws)"
        )
    bins = check_int(bins, "bins", minimum=1)
    higher_is_better = check_bool(higher_is_better, "higher_is_better")
    ax = _axes(ax, (6.0, 3.4))
    edges = np.linspace(0.0, 1.0, bins + 1)
    top = 0.0
    # blue and orange, solid and dashed: told apart with any colour vision (Okabe & Ito)
    for draws, gid, color, style, text in (
        (lo, "lower", "#0072B2", "-", "lower posterior"),
        (up, "upper", "#E69F00", "--", "upper posterior"),
    ):
        heights, _, patches = ax.hist(
            draws,
            bins=edges,
            density=True,
            histtype="step",
            color=color,
            linestyle=style,
            linewidth=1.5,
            label=text,
        )
        top = max(top, float(heights.max()))
        for patch in patches:
            patch.set_gid(gid)
    ax.axvline(0.5, color="0.3", linestyle="--", linewidth=1.0, gid="half")
    ax.set_xlim(0, 1)
    _set_xlabel(
        ax,
        "theta = P(Z + Z' > 0), Z the difference on a data set\n"
        f"({difference_text(first, second, higher_is_better)})",
    )
    ax.set_ylabel("density")
    _set_title(ax, title)
    # the histograms in the lower part of the axes, the side labels above them
    space = _side_labels(ax, first, second) + 12.0
    ax.set_ylim(0, top / _curve_height(ax, space) if top > 0 else None)
    # the legend on the side of 1/2 away from most of the draws, clear of the histograms
    side = "center right" if np.median(np.r_[lo, up]) < 0.5 else "center left"
    ax.legend(loc=side, frameon=False, fontsize="small")
    return ax


def _heatmap_labels(names: Sequence[str], ax: Axes | None) -> tuple[list[str], float]:
    """The learners' names as a heat map's tick labels, broken into lines, and their font
    size in points. On a new figure (``ax`` None): at most :data:`_HEATMAP_NAME_INCHES`
    wide, in the default size (the figure makes room for them). On a caller's axes: at most
    :data:`_HEATMAP_NAME_SHARE` of the smaller side of its room wide, in the largest size
    down to :data:`_HEATMAP_MIN_FONT` whose lines fit the spacing of the rows (the image
    takes about half the room; the columns' labels, at 45 degrees, stand 0.71 of it apart)."""
    size = FontProperties(size=mpl.rcParams["xtick.labelsize"]).get_size_in_points()
    if ax is None:
        return [wrap_text(str(name), 72.0 * _HEATMAP_NAME_INCHES, size) for name in names], size
    room = min(_cell(ax))
    pitch = 0.5 * room / len(names)
    while True:
        labels = [wrap_text(str(name), _HEATMAP_NAME_SHARE * room, size) for name in names]
        lines = max(label.count("\n") + 1 for label in labels)
        if lines * _LINE_SPACING * size <= _DIAGONAL * pitch or size <= _HEATMAP_MIN_FONT:
            return labels, size
        size = max(size - 1.0, _HEATMAP_MIN_FONT)


def _heatmap_size(
    labels: Sequence[str], size: float, title: str | None
) -> tuple[tuple[float, float], float]:
    """The size in inches of a new heat map's figure, and the width in points of its image:
    each learner's row and column hold its name's lines (at least
    :data:`_HEATMAP_CELL_INCHES`), the image and half the colour bar on each side hold the
    title's widest line up to 4 inches, the names stand beside the rows and below the
    columns, and the margins (the axis labels, one line of title, the colour bar) grow with
    the font."""
    k = len(labels)
    lines = max(label.count("\n") + 1 for label in labels)
    side = max(_HEATMAP_CELL_INCHES, lines * _LINE_SPACING * size / _DIAGONAL / 72.0)
    if title:
        heading = min(text_width(title, mpl.rcParams["axes.titlesize"]), 288.0)
        side = max(side, (heading - _COLORBAR_POINTS) / 72.0 / k)
    widest = max(text_width(label, size) for label in labels) / 72.0
    extra = max(widest - 0.5, 0.0)  # the default room holds names of half an inch
    scale = size / 10.0  # the margins were set for names of 10 points
    width = 1.6 * scale + (side + 0.1) * k + extra
    return (width, 1.2 * scale + side * k + _DIAGONAL * extra), 72.0 * side * k


def plot_pairwise_heatmap(
    matrix: object,
    names: Sequence[str],
    *,
    ax: Axes | None = None,
    title: str | None = None,
    colorbar_label: str = "probability",
    missing: object | None = None,
    missing_label: str = "n/a",
) -> Axes:
    """Heat map of a learners x learners matrix of probabilities, values written in the cells.

    Parameters
    ----------
    matrix : array_like, shape (k, k)
        Entry ``[i, j]`` for the pair (row learner ``i`` first, column learner ``j`` second),
        in [0, 1]; NaN cells (the diagonal) are left blank, infinite values are refused.
    names : sequence of str, length k
        The learners.
    ax, title, colorbar_label : optional
    missing : array_like of bool, shape (k, k), optional
        Cells of pairs that have no value (NaN in ``matrix``) although they should: they are
        greyed and marked ``missing_label`` instead of left blank. Booleans only (not 0/1).
    missing_label : str
        The mark of a missing cell.

    Returns
    -------
    matplotlib.axes.Axes
        The image has ``gid="heatmap"`` and holds ``matrix`` as its data; each missing cell
        is a grey square with ``gid="missing"``.
    """
    m = check_array(matrix, "matrix", ndim=2, allow_nan=True)
    k = len(names)
    if m.shape != (k, k):
        raise ValueError(f"matrix: expected shape ({k}, {k}) for {k} learners, got {m.shape}")
    finite = m[np.isfinite(m)]
    if np.any((finite < 0) | (finite > 1)):
        raise ValueError("matrix: expected probabilities in [0, 1] (NaN for blank cells)")
    gaps = np.zeros((k, k), dtype=bool) if missing is None else np.asarray(missing)
    if gaps.dtype != bool or gaps.shape != (k, k) or np.isfinite(m[gaps]).any():
        raise ValueError(f"missing: expected a ({k}, {k}) boolean mask of NaN cells of matrix")
    new = ax is None
    labels, size = _heatmap_labels(names, ax)
    if new:
        figsize, image_width = _heatmap_size(labels, size, title)
        ax = _axes(None, figsize)
    image = ax.imshow(np.ma.masked_invalid(m), vmin=0.0, vmax=1.0, cmap="viridis")
    image.set_gid("heatmap")
    for i, j in zip(*np.nonzero(gaps), strict=True):
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, color="0.85", gid="missing"))
        ax.text(j, i, missing_label, ha="center", va="center", color="0.2", fontsize="x-small")
    for i in range(k):
        for j in range(k):
            if np.isfinite(m[i, j]):
                ax.text(
                    j,
                    i,
                    f"{m[i, j]:.2f}",
                    ha="center",
                    va="center",
                    color="black" if m[i, j] > 0.6 else "white",
                    fontsize="small",
                )
    ax.set_xticks(range(k), labels, rotation=45, ha="right", fontsize=size)
    ax.set_yticks(range(k), labels, fontsize=size)
    ax.set_xlabel("second learner")
    ax.set_ylabel("first learner")
    ax.figure.colorbar(image, ax=ax, label=colorbar_label, shrink=0.8)
    if new and title:
        # a new figure's title, centred on the image, is as wide as the image and half the
        # colour bar on each side at most, and the figure grows by its lines beyond the first
        points = FontProperties(size=mpl.rcParams["axes.titlesize"]).get_size_in_points()
        ax.set_title(wrap_text(title, image_width + _COLORBAR_POINTS, points))
        extra = ax.get_title().count("\n") * _LINE_SPACING * points / 72.0
        ax.figure.set_figheight(ax.figure.get_figheight() + extra)
        # constrained layout places a title of several lines above a square image only
        # from its second pass (the first put a three-line title a few pixels past the
        # figure's top): lay the figure out once here, so that every later draw is a
        # second pass
        ax.figure.draw_without_rendering()
    else:
        _set_title(ax, title, beside=_COLORBAR_POINTS)
    return ax
