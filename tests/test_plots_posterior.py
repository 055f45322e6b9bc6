"""The posterior plots draw the data they are given (checked on the artists' data)."""

from __future__ import annotations

import itertools
import warnings

import matplotlib as mpl
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.image import AxesImage

from cvcompare.plots._text import text_width, wrap_text
from cvcompare.plots.posterior import (
    plot_idp,
    plot_pairwise_heatmap,
    plot_posterior_density,
    plot_shrinkage,
    plot_simplex,
    simplex_coordinates,
)
from cvcompare.stats import bayesian_correlated_ttest, bayesian_signed_rank, idp_signed_rank


def _by_gid(ax, gid):
    artists = [a for a in ax.get_children() if a.get_gid() == gid]
    artists += [line for line in ax.get_lines() if line.get_gid() == gid and line not in artists]
    return artists


def test_simplex_coordinates_are_barycentric():
    corners = simplex_coordinates(np.eye(3))
    np.testing.assert_allclose(corners, [[0, 0], [0.5, np.sqrt(3) / 2], [1, 0]], atol=1e-15)
    # a point is the weighted mean of the corners
    p = np.array([[0.2, 0.3, 0.5]])
    np.testing.assert_allclose(simplex_coordinates(p), p @ corners, atol=1e-15)
    with pytest.raises(ValueError, match="points: expected 3 columns"):
        simplex_coordinates(np.ones((2, 2)))


def test_simplex_draws_every_posterior_draw_in_its_region():
    post = bayesian_signed_rank([0.02, 0.03, 0.015, -0.005, 0.04, 0.01], rng=4, n_samples=2000)
    ax = plot_simplex(post.draws, names=("A", "B"), probs=post.probs())
    (points,) = _by_gid(ax, "draws")
    xy = points.get_offsets()
    np.testing.assert_allclose(xy, simplex_coordinates(post.draws))
    # the three borders meet at the centre and end at the middles of the sides
    borders = _by_gid(ax, "region-border")
    assert len(borders) == 3
    for line in borders:
        np.testing.assert_allclose(line.get_xydata()[0], [0.5, np.sqrt(3) / 6], atol=1e-12)
    # the share of points nearest the right corner's region equals p_right: the region of
    # "right is the largest" is the part right of the border from the centre down to (0.5, 0)
    # and below the border to the middle of the right side
    right_is_max = np.argmax(post.draws, axis=1) == 2
    assert right_is_max.mean() == pytest.approx(post.p_right, abs=1e-12)
    texts = " ".join(t.get_text() for t in ax.texts)
    assert "A better" in texts and "B better" in texts and f"{post.p_right:.3f}" in texts


def test_density_plot_draws_the_curve_and_the_rope():
    x = np.random.default_rng(1).normal(0.02, 0.03, 100)
    post = bayesian_correlated_ttest(x, rho=0.1, rope=(-0.01, 0.01))
    grid = np.linspace(-0.05, 0.1, 200)
    dens = post.distribution.pdf(grid)
    ax = plot_posterior_density(grid, dens, rope=post.rope, names=("A", "B"), title="t")
    (curve,) = _by_gid(ax, "density")
    np.testing.assert_array_equal(curve.get_xdata(), grid)
    np.testing.assert_array_equal(curve.get_ydata(), dens)
    (rope,) = _by_gid(ax, "rope")
    low, high = rope.get_x(), rope.get_x() + rope.get_width()  # a Rectangle in data x
    assert (low, high) == pytest.approx((-0.01, 0.01), abs=1e-15)
    # the drawn density integrates to p_rope over the shaded rope (fine trapezoid rule)
    fine = np.linspace(-0.01, 0.01, 2001)
    assert np.trapezoid(post.distribution.pdf(fine), fine) == pytest.approx(post.p_rope, rel=1e-6)
    with pytest.raises(ValueError, match="density: expected 200 values"):
        plot_posterior_density(grid, dens[:-1], rope=(-0.01, 0.01), names=("A", "B"))


def test_density_plot_legend_and_labels_stand_above_the_curve():
    grid = np.linspace(-1, 1, 201)
    for centre in (-0.5, 0.0, 0.5):
        dens = np.exp(-0.5 * ((grid - centre) / 0.05) ** 2)
        ax = plot_posterior_density(grid, dens, rope=(-0.1, 0.1), names=("A", "B"))
        ax.figure.canvas.draw()
        top = ax.transData.transform((0.0, dens.max()))[1]
        boxes = [ax.get_legend().get_window_extent()]
        boxes += [text.get_window_extent() for text in ax.texts]
        assert all(box.y0 > top for box in boxes)


def test_shrinkage_forest_plot_rows():
    means = np.array([0.03, -0.01, 0.0])
    shrunk = np.array([0.02, -0.005, 0.001])
    ci = np.array([[0.0, 0.04], [-0.02, 0.01], [-0.01, 0.012]])
    ax = plot_shrinkage(means, shrunk, ci, ["d1", "d2", "d3"], rope=(-0.01, 0.01), names=("A", "B"))
    (est,) = _by_gid(ax, "shrinkage")
    (raw,) = _by_gid(ax, "sample-mean")
    y = np.array([2.0, 1.0, 0.0])  # first data set on top
    np.testing.assert_array_equal(est.get_offsets(), np.column_stack([shrunk, y]))
    np.testing.assert_array_equal(raw.get_offsets(), np.column_stack([means, y]))
    (intervals,) = [c for c in _by_gid(ax, "interval") if isinstance(c, LineCollection)]
    segs = np.array(intervals.get_segments())
    np.testing.assert_array_equal(segs[:, :, 0], ci)
    np.testing.assert_array_equal(segs[:, 0, 1], y)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["d1", "d2", "d3"]
    assert isinstance(est, PathCollection)


def test_idp_plot_histograms_are_the_draws_densities():
    post = idp_signed_rank([0.02, 0.03, -0.01, 0.04, 0.01, 0.0, 0.02], rng=2, n_samples=3000)
    ax = plot_idp(post.lower_draws, post.upper_draws, names=("A", "B"), bins=20)
    edges = np.linspace(0, 1, 21)
    for gid, draws in (("lower", post.lower_draws), ("upper", post.upper_draws)):
        (patch,) = _by_gid(ax, gid)
        heights, _ = np.histogram(draws, bins=edges, density=True)
        # the step outline visits (edge_i, height_i) and (edge_{i+1}, height_i)
        path = patch.get_xy()
        tops = path[1:-1:2, 1][: heights.size]
        np.testing.assert_allclose(tops, heights, rtol=1e-12)
    (half,) = _by_gid(ax, "half")
    assert half.get_xdata()[0] == 0.5


def test_idp_plot_is_colour_blind_safe_and_its_labels_stand_above_the_histograms():
    post = idp_signed_rank([0.02, 0.03, 0.01, 0.04, 0.01, 0.05, 0.02], rng=2, n_samples=3000)
    ax = plot_idp(post.lower_draws, post.upper_draws, names=("A", "B"))
    ax.figure.canvas.draw()
    (lower,) = _by_gid(ax, "lower")
    (upper,) = _by_gid(ax, "upper")
    # blue and orange (not red and green), and told apart by the line style as well
    assert to_hex(lower.get_edgecolor()) == "#0072b2" and to_hex(upper.get_edgecolor()) == "#e69f00"
    assert lower.get_linestyle() != upper.get_linestyle()
    top = max(patch.get_path().vertices[:, 1].max() for patch in (lower, upper))
    top = ax.transData.transform((0.5, top))[1]
    assert all(text.get_window_extent().y0 > top for text in ax.texts)


@pytest.mark.parametrize("sign", [1, -1])
def test_idp_legend_stands_clear_of_the_draws(sign):
    # the legend lies on the side of 1/2 away from the bulk of the draws (data coordinates)
    x = sign * np.array([0.02, 0.03, -0.01, 0.04, 0.01, 0.0, 0.02, 0.05, 0.01])
    post = idp_signed_rank(x, rng=2, n_samples=3000)
    ax = plot_idp(post.lower_draws, post.upper_draws, names=("A", "B"))
    ax.figure.canvas.draw()
    box = ax.get_legend().get_window_extent().transformed(ax.transData.inverted())
    low, median, high = np.quantile(np.r_[post.lower_draws, post.upper_draws], [0.01, 0.5, 0.99])
    assert (median < 0.5) == (sign < 0)
    assert box.x0 > high if median < 0.5 else box.x1 < low


def test_axis_labels_name_the_subtraction_of_the_raw_scores():
    # for losses the differences are oriented so that positive favours the first learner,
    # that is the second's score minus the first's; the labels say so
    draws = np.linspace(0.1, 0.9, 50)
    grid = np.linspace(-1, 1, 5)
    ci = np.array([[-0.1, 0.1]])
    names = ("boosted_trees", "random_forest")
    for higher, said in (
        (True, "boosted_trees minus random_forest"),
        (False, "random_forest minus boosted_trees; lower scores are better"),
    ):
        axes = [
            plot_posterior_density(
                grid, np.ones(5), rope=(-0.1, 0.1), names=names, higher_is_better=higher
            ),
            plot_shrinkage(
                [0.0], [0.0], ci, ["d"], rope=(-0.1, 0.1), names=names, higher_is_better=higher
            ),
            plot_idp(draws, draws, names=names, higher_is_better=higher),
        ]
        for ax in axes:
            assert f"({said})" in " ".join(ax.get_xlabel().split())  # on one line or two
            # and the label fits in the figure
            canvas = FigureCanvasAgg(ax.figure.figure)  # the root figure, also of a subfigure
            canvas.draw()
            box = ax.xaxis.label.get_window_extent(canvas.get_renderer())
            assert ax.figure.bbox.contains(box.x0, box.y0) and ax.figure.bbox.contains(
                box.x1, box.y1
            )


def test_heatmap_holds_the_matrix():
    m = np.array([[np.nan, 0.9, 0.2], [0.05, np.nan, 0.5], [0.7, 0.3, np.nan]])
    ax = plot_pairwise_heatmap(m, ["a", "b", "c"], title="P")
    (image,) = [a for a in ax.get_children() if isinstance(a, AxesImage)]
    assert image.get_gid() == "heatmap"
    data = image.get_array()
    np.testing.assert_array_equal(data.mask, np.isnan(m))
    np.testing.assert_array_equal(data.filled(-1), np.where(np.isnan(m), -1, m))
    cells = sorted(t.get_text() for t in ax.texts)
    assert cells == sorted(f"{v:.2f}" for v in m[np.isfinite(m)])
    with pytest.raises(ValueError, match=r"matrix: expected shape \(2, 2\)"):
        plot_pairwise_heatmap(m, ["a", "b"])


def test_heatmap_greys_and_marks_the_missing_cells():
    m = np.array([[np.nan, np.nan, 0.2], [np.nan, np.nan, 0.5], [0.7, 0.3, np.nan]])
    missing = np.zeros((3, 3), dtype=bool)
    missing[0, 1] = missing[1, 0] = True
    ax = plot_pairwise_heatmap(m, ["a", "b", "c"], missing=missing, missing_label="not fitted")
    cells = sorted(tuple(p.get_xy()) for p in _by_gid(ax, "missing"))
    assert cells == [(-0.5, 0.5), (0.5, -0.5)]  # (column - 1/2, row - 1/2)
    assert [t.get_text() for t in ax.texts].count("not fitted") == 2
    with pytest.raises(ValueError, match="missing: expected a"):
        plot_pairwise_heatmap(m, ["a", "b", "c"], missing=~np.isnan(m))


def test_plots_refuse_what_they_would_draw_wrongly_or_leave_out():
    names = ("a", "b")
    # an infinite cell was left blank like a NaN one; text was read as numbers
    m = np.array([[np.nan, np.inf], [0.5, np.nan]])
    with pytest.raises(ValueError, match=r"^matrix: all values must be finite, found inf"):
        plot_pairwise_heatmap(m, names)
    with pytest.raises(TypeError, match="^matrix: expected an array of real numbers"):
        plot_pairwise_heatmap([["nan", "0.5"], ["0.5", "nan"]], names)
    square = np.array([[np.nan, 0.4], [0.6, np.nan]])
    with pytest.raises(ValueError, match=r"^missing: expected a \(2, 2\) boolean mask"):
        plot_pairwise_heatmap(square, names, missing=[[1, 0], [0, 0]])
    # draws outside [0, 1] were left out of the histograms; bins were not checked
    with pytest.raises(ValueError, match=r"^upper_draws: expected draws of theta in \[0, 1\]"):
        plot_idp([0.2, 0.6], [0.7, 1.5], names=names)
    for bad, error in ((0, ValueError), (2.5, TypeError), (True, TypeError)):
        with pytest.raises(error, match="^bins: expected an integer"):
            plot_idp([0.2, 0.6], [0.7, 0.9], names=names, bins=bad)
    # points off the simplex were drawn outside the triangle
    with pytest.raises(ValueError, match=r"^draws: expected rows \(left, rope, right\) of prob"):
        plot_simplex([[0.5, 0.5, 0.5]], names=names)
    with pytest.raises(ValueError, match=r"^points: expected rows .* summing to one"):
        simplex_coordinates([[1.2, -0.1, -0.1]])
    with pytest.raises(ValueError, match=r"^probs: expected \(p_left, p_rope, p_right\), three"):
        plot_simplex([[0.2, 0.3, 0.5]], names=names, probs=(20.0, 30.0, 50.0))
    # probabilities summing to 1.8, no draws, an upper posterior below the lower, a grid
    # out of order, a negative density and reversed intervals were drawn as given
    with pytest.raises(ValueError, match="^probs: .* summing to one, got"):
        plot_simplex([[0.2, 0.3, 0.5]], names=names, probs=(0.5, 0.6, 0.7))
    with pytest.raises(ValueError, match="^draws: expected at least one draw"):
        plot_simplex(np.zeros((0, 3)), names=names)
    for lower, upper in (([0.7, 0.9], [0.2, 0.6]), ([0.2, 0.6], [0.7])):
        with pytest.raises(ValueError, match="^lower_draws, upper_draws: expected draws in pairs"):
            plot_idp(lower, upper, names=names)
    grid = np.linspace(-0.05, 0.05, 11)
    with pytest.raises(ValueError, match="^grid: expected increasing points"):
        plot_posterior_density(grid[::-1], np.ones(11), rope=(-0.01, 0.01), names=names)
    with pytest.raises(ValueError, match="^density: expected values >= 0"):
        plot_posterior_density(grid, -np.ones(11), rope=(-0.01, 0.01), names=names)
    shrink = ([0.0, 0.01], [0.0, 0.01], [[-0.01, 0.01], [0.02, 0.0]])
    with pytest.raises(ValueError, match=r"^interval: expected rows \(lower, upper\)"):
        plot_shrinkage(*shrink, ["d1", "d2"], rope=(-0.01, 0.01), names=names)
    with pytest.raises(TypeError, match="^datasets: expected a sequence of names, got the str"):
        plot_shrinkage(*shrink[:2], [[-0.01, 0.01]] * 2, "ab", rope=(-0.01, 0.01), names=names)
    # a flag given as 1 was taken for True
    with pytest.raises(TypeError, match="^higher_is_better: expected True or False, got 1"):
        plot_idp([0.2, 0.6], [0.7, 0.9], names=names, higher_is_better=1)
    with pytest.raises(TypeError, match="^higher_is_better: expected True or False, got 1"):
        plot_posterior_density(
            grid, np.ones(11), rope=(-0.01, 0.01), names=names, higher_is_better=1, xlabel="d"
        )


LONG = ("RandomForest(n_estimators=500)", "gradient-boosting-tuned")


def _extents(ax):
    """Renderer extents of every text of the figure of ``ax`` (titles, labels, legend)."""
    canvas = FigureCanvasAgg(ax.figure.figure)  # the root figure, also of a subfigure
    canvas.draw()
    renderer = canvas.get_renderer()
    texts = [ax.title, ax.xaxis.label, ax.yaxis.label, *ax.texts]
    for legend in [ax.get_legend(), *ax.figure.legends]:
        texts += legend.get_texts() if legend else []
    return {t: t.get_window_extent(renderer) for t in texts if t.get_text().strip()}


def _long_name_plots():
    draws = bayesian_signed_rank(np.linspace(0.01, 0.03, 20), rng=1, n_samples=500).draws
    title = f"Bayesian signed-rank test: {LONG[0]} vs {LONG[1]}"
    grid = np.linspace(-0.05, 0.05, 101)
    theta = np.linspace(0.55, 0.99, 300)
    ci = np.array([[-0.02, 0.01], [-0.01, 0.02], [0.0, 0.03]])
    return {
        "simplex": plot_simplex(draws, names=LONG, probs=(0.0, 0.2, 0.8), title=title),
        "density": plot_posterior_density(
            grid, np.exp(-0.5 * (grid / 0.01) ** 2), rope=(-0.01, 0.02), names=LONG, title=title
        ),
        "idp": plot_idp(theta, theta, names=LONG, title=title),
        "shrinkage": plot_shrinkage(
            [0.0, 0.01, 0.02],
            [-0.005, 0.005, 0.015],
            ci,
            ["a data set with a long name", "b", "c"],
            rope=(-0.01, 0.01),
            names=LONG,
            title=title,
        ),
    }


@pytest.mark.parametrize("kind", ["simplex", "density", "idp", "shrinkage"])
def test_long_names_and_titles_fit_in_the_figure_without_overlapping(kind):
    # the title, the axis label and the corner or side labels were one line each: wider
    # than the figure (cut) or than their place (written over each other)
    ax = _long_name_plots()[kind]
    boxes = _extents(ax)
    figure = ax.figure.bbox
    for text, box in boxes.items():
        assert figure.x0 <= box.x0 and box.x1 <= figure.x1, text.get_text()
        assert figure.y0 <= box.y0 and box.y1 <= figure.y1, text.get_text()
    named = [box for text, box in boxes.items() if LONG[0][:8] in text.get_text()]
    named += [box for text, box in boxes.items() if LONG[1][:8] in text.get_text()]
    assert len(named) >= 2
    labels = [box for text, box in boxes.items() if text in ax.texts]
    for i, first in enumerate(labels):
        for second in labels[i + 1 :]:
            assert not first.overlaps(second)
    if kind in ("density", "idp"):
        sides = [t for t in ax.texts if t.get_gid() == "side-label"]
        said = [f"< {LONG[1]} better", f"{LONG[0]} better >"]
        assert ["".join(t.get_text().split()) for t in sides] == ["".join(t.split()) for t in said]


def test_shrinkage_plot_makes_room_for_long_data_set_names():
    # names of about 90 characters: a new figure widens so that the plot keeps its width and
    # the title and x-label stay whole lines within the figure (they were broken into a
    # column of syllables, the axes collapsed); on axes of the caller's, whatever room the
    # names leave, a line holds whole words
    names = [
        f"a-long-data-set-name-from-a-benchmark-suite-number-{i}-with-words-appended"
        for i in range(4)
    ]
    title = "Hierarchical estimates per data set: learner-one vs learner-two"
    args = ([0.0, 0.01, 0.02, 0.03], [0.0, 0.005, 0.01, 0.015], np.full((4, 2), [-0.01, 0.02]))
    options = {"rope": (-0.01, 0.01), "names": ("learner-one", "learner-two"), "title": title}
    ax = plot_shrinkage(*args, names, **options)
    assert ax.figure.get_figwidth() > 6.5
    boxes = _extents(ax)
    figure = ax.figure.bbox
    for text, box in boxes.items():
        assert figure.x0 <= box.x0 and box.x1 <= figure.x1, text.get_text()
    assert ax.get_title().count("\n") <= 1 and "\n" not in ax.get_xlabel()
    assert ax.get_window_extent().width > 4 * 72  # inches at 72 dpi: the plot keeps its room
    small = Figure(figsize=(6.5, 3)).add_subplot()
    plot_shrinkage(*args, names, ax=small, **options)
    words = set(title.split())
    assert all(line in words or " " in line for line in small.get_title().split("\n"))


def test_density_legend_stands_below_side_labels_of_several_lines():
    ax = _long_name_plots()["density"]
    boxes = _extents(ax)
    legend = ax.get_legend().get_window_extent()
    curve_top = ax.transData.transform((0.0, 1.0))[1]
    assert any("\n" in text.get_text() for text in ax.texts)  # a long name takes two lines
    for text in ax.texts:
        assert boxes[text].y0 > legend.y1 > legend.y0 > curve_top


def test_simplex_draws_are_not_hidden_under_the_triangle():
    # a posterior with no mass on the left lies on the right side of the triangle, and the
    # side was drawn over the points
    ax = plot_simplex([[0.0, 0.3, 0.7], [0.0, 1.0, 0.0]], names=("A", "B"))
    (points,) = _by_gid(ax, "draws")
    (triangle,) = _by_gid(ax, "simplex")
    assert points.get_zorder() > triangle.get_zorder()


def test_wrap_text_breaks_at_spaces_then_punctuation_within_the_width():
    text = "RandomForest(n_estimators=500) better than gradient-boosting-tuned"
    for width in (60.0, 100.0, 150.0, 400.0):
        wrapped = wrap_text(text, width)
        assert all(text_width(line) <= width for line in wrapped.split("\n"))
        assert wrapped.replace("\n", "").replace(" ", "") == text.replace(" ", "")
    assert wrap_text(text, 1000.0) == text
    assert wrap_text(text, 200.0).split("\n")[0] == "RandomForest(n_estimators=500)"
    assert wrap_text("RandomForest(n_estimators=500) better >", 200.0) == (
        "RandomForest(n_estimators=500)\nbetter >"
    )
    assert wrap_text("a b\nc d", 1000.0) == "a b\nc d"
    # narrower than a glyph: one character a line, no empty lines
    assert wrap_text("abc", 1.0) == "a\nb\nc" and wrap_text("a b", 3.0) == "a\nb"
    # spaces take room as they are laid out
    assert text_width(" a ") > text_width("a")


HEATMAP_NAMES = [
    "RandomForestClassifier(n_estimators=500, max_depth=None)",
    "knn",
    "GradientBoostingClassifier(learning_rate=0.1)",
    "svm",
    "LogisticRegression(C=1.0, penalty='l2')",
]


def _heatmap_texts(ax):
    """The tick labels of a heat map by axis, the renderer of its (root) figure drawn."""
    canvas = FigureCanvasAgg(ax.figure.figure)
    with warnings.catch_warnings():  # constrained layout must not give up for want of room
        warnings.simplefilter("error", UserWarning)
        canvas.draw()
    ticks = {"x": ax.get_xticklabels(), "y": ax.get_yticklabels()}
    return ticks, canvas.get_renderer()


@pytest.mark.parametrize(
    ("names", "title"),
    [
        (HEATMAP_NAMES, "P(first learner better), hierarchical model"),
        (HEATMAP_NAMES[:3:2], "P(row practically better)\nhierarchical model"),  # the report's
        ([HEATMAP_NAMES[0] * 2 + " " + HEATMAP_NAMES[2], "knn"], "P(rope)"),
    ],
)
def test_heatmap_makes_room_for_long_names(names, title):
    # names of 40-60 characters made a new figure's image a 0.6-inch square beside them,
    # broke its title into a column of words and cut the names at the figure's edges; with
    # two learners, names of three lines stood taller than their rows and over each other
    k = len(names)
    m = np.full((k, k), 0.5)
    np.fill_diagonal(m, np.nan)
    ax = plot_pairwise_heatmap(m, names, title=title)
    ticks, renderer = _heatmap_texts(ax)
    figure = ax.figure.bbox
    for label in [*ticks["x"], *ticks["y"], ax.title]:
        box = label.get_window_extent(renderer)
        assert figure.x0 <= box.x0 and box.x1 <= figure.x1, label.get_text()
        assert figure.y0 <= box.y0 and box.y1 <= figure.y1, label.get_text()
    rows = [label.get_window_extent(renderer) for label in ticks["y"]]
    assert not any(a.overlaps(b) for a, b in itertools.pairwise(rows))
    image = ax.get_window_extent(renderer)
    assert max(row.height for row in rows) <= image.height / k  # each name beside its row
    for axis in "xy":  # every character of every name is shown, in lines
        shown = ["".join(label.get_text().split()) for label in ticks[axis]]
        assert shown == ["".join(name.split()) for name in names]
    assert ax.get_title().count("\n") == title.count("\n")
    assert image.width > k * 0.5 * 72  # half an inch a learner
    short = plot_pairwise_heatmap(m, list("abcde")[:k])  # short names: the size as before
    assert short.figure.get_size_inches() == pytest.approx((1.6 + 0.9 * k, 1.2 + 0.8 * k))


@pytest.mark.parametrize("k", [2, 5])
@pytest.mark.parametrize("length", [45, 150])
def test_a_new_heatmap_s_long_title_stays_within_the_figure(length, k):
    # the figure was widened for the title beside the names, but the square image, bounded
    # by the height, stayed narrow and the title centred on it ran past the right edge; and
    # a title of three lines over five learners stood 2 pixels past the top at the first
    # draw (the only draw of a figure saved once)
    title = ("Probability that the first learner is better on most data sets " * 3)[:length]
    m = np.full((k, k), 0.4)
    np.fill_diagonal(m, np.nan)
    ax = plot_pairwise_heatmap(m, [f"learner{i}" for i in range(k)], title=title)
    _, renderer = _heatmap_texts(ax)
    box, figure = ax.title.get_window_extent(renderer), ax.figure.bbox
    assert figure.x0 <= box.x0 and box.x1 <= figure.x1
    assert figure.y0 <= box.y0 and box.y1 <= figure.y1
    if k == 2:  # the image widens for up to 4 inches of title: 45 characters on one line
        assert text_width(ax.get_title(), mpl.rcParams["axes.titlesize"]) <= 4 * 72
        assert ("\n" in ax.get_title()) is (length > 45)


def test_heatmap_names_on_a_caller_s_axes_take_a_size_that_fits_its_rows():
    # on half of a 10 x 5 inch figure, five names of up to 56 characters: the lines the
    # rows hold at the default size were too few to wrap them, the layout gave up and six
    # names stood outside the half; the names now take a smaller size (down to 6 points)
    k = len(HEATMAP_NAMES)
    m = np.full((k, k), 0.5)
    np.fill_diagonal(m, np.nan)
    fig = Figure(figsize=(10, 5), layout="constrained")
    ax = fig.subfigures(1, 2)[0].add_subplot()
    plot_pairwise_heatmap(m, HEATMAP_NAMES, ax=ax, title="P(first better)")
    ticks, renderer = _heatmap_texts(ax)
    for label in [*ticks["x"], *ticks["y"]]:
        box = label.get_window_extent(renderer)
        assert box.x0 >= 0 and box.x1 <= fig.bbox.x1 / 2 + 1 and box.y0 >= 0, label.get_text()
    rows = [label.get_window_extent(renderer) for label in ticks["y"]]
    assert not any(a.overlaps(b) for a, b in itertools.pairwise(rows))
    assert 6.0 <= ticks["y"][0].get_fontsize() < mpl.rcParams["font.size"]


def _draw_all(ax, kind):
    """One plot of each kind on ``ax``, with long names and title."""
    title = f"Bayesian signed-rank test: {LONG[0]} vs {LONG[1]}"
    grid = np.linspace(-0.05, 0.05, 101)
    theta = np.linspace(0.55, 0.99, 300)
    draws = bayesian_signed_rank(np.linspace(0.01, 0.03, 20), rng=1, n_samples=500).draws
    return {
        "simplex": lambda: plot_simplex(draws, names=LONG, probs=(0.0, 0.2, 0.8), ax=ax),
        "density": lambda: plot_posterior_density(
            grid,
            np.exp(-0.5 * (grid / 0.01) ** 2),
            rope=(-0.01, 0.02),
            names=LONG,
            ax=ax,
            title=title,
        ),  # fmt: skip
        "idp": lambda: plot_idp(theta, theta, names=LONG, ax=ax, title=title),
        "heatmap": lambda: plot_pairwise_heatmap(np.eye(2), list(LONG), ax=ax, title=title),
    }[kind]()


@pytest.mark.parametrize("kind", ["simplex", "density", "idp", "heatmap"])
def test_plots_fit_their_share_of_a_subfigure_or_of_unequal_columns(kind):
    # in a subfigure (whose own figure has no size of its own) and in the narrow one of two
    # columns of widths 1 : 3, the texts stay within the axes' share of the figure; the
    # heat map, whose long names need more room than the narrow column, is only drawn there
    fig = Figure(figsize=(10, 4), layout="constrained")
    left, _ = fig.subfigures(1, 2)
    ax = _draw_all(left.add_subplot(), kind)
    with warnings.catch_warnings():  # the layout gave up for want of room (the heat map)
        warnings.simplefilter("error", UserWarning)
        boxes = _extents(ax)
    if kind == "heatmap":
        renderer = ax.figure.figure.canvas.get_renderer()
        ticks = [*ax.get_xticklabels(), *ax.get_yticklabels()]
        boxes |= {t: t.get_window_extent(renderer) for t in ticks}
    for text, box in boxes.items():
        assert box.x1 <= fig.bbox.x1 / 2 + 1 and box.x0 >= 0, text.get_text()
    fig = Figure(figsize=(10, 4), layout="constrained")
    if kind == "heatmap":
        _draw_all(fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 3]})[0], kind)
        with warnings.catch_warnings():  # the layout may give up for want of room
            warnings.simplefilter("ignore", UserWarning)
            FigureCanvasAgg(fig).draw()
        return
    narrow, wide = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 3]})
    ax = _draw_all(narrow, kind)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    for text, box in _extents(ax).items():
        assert box.x0 >= 0 and box.x1 <= wide.get_window_extent().x0, text.get_text()


def test_simplex_corner_labels_stay_apart_on_wide_short_axes():
    # the triangle's scale is set by the height here: its corner labels must not meet
    draws = bayesian_signed_rank(np.linspace(0.01, 0.03, 20), rng=1, n_samples=500).draws
    for size in ((10, 3), (12, 2.5)):
        ax = Figure(figsize=size, layout="constrained").add_subplot()
        plot_simplex(draws, names=LONG, probs=(0.0, 0.2, 0.8), ax=ax)
        boxes = list(_extents(ax).values())
        for i, first in enumerate(boxes):
            for second in boxes[i + 1 :]:
                assert not first.overlaps(second)


def test_density_curve_is_lowest_on_the_shortest_axes():
    # where the axes leave no room above the curve, the curve takes the lowest share of it
    grid = np.linspace(-0.05, 0.05, 101)
    dens = np.exp(-0.5 * (grid / 0.01) ** 2)
    shares = []
    for height in (0.6, 1.0, 3.0):
        ax = Figure(figsize=(5, height)).add_subplot()
        plot_posterior_density(grid, dens, rope=(-0.01, 0.01), names=("a", "b"), ax=ax, title="t")
        shares.append(dens.max() / ax.get_ylim()[1])
    assert shares[0] == pytest.approx(0.3) and shares[0] <= shares[1] <= shares[2]
