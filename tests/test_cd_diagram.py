"""Critical-difference diagram (Demsar 2006, Fig. 1) on the tutorial's table."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.image
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from shared_data import TUTORIAL

from cvcompare.plots.cd_diagram import plot_cd_diagram
from cvcompare.stats.friedman import nemenyi_test

NAMES = ["Glorot N.", "Glorot U.", "Random G.", "Repeated G."]


def _lines(ax, gid):
    return [line for line in ax.get_lines() if line.get_gid() == gid]


def test_tutorial_diagram(tmp_path):
    res = nemenyi_test(TUTORIAL, alpha=0.05)
    ax = plot_cd_diagram(res.avg_ranks, NAMES, res.cd)
    texts = [t.get_text() for t in ax.texts]
    for name, rank in zip(NAMES, res.avg_ranks, strict=True):
        assert sum(name in t and f"{rank:.2f}" in t for t in texts) == 1
    assert "CD = 1.915" in texts
    (cd_bar,) = _lines(ax, "cd-bar")
    assert np.ptp(cd_bar.get_xdata()) == pytest.approx(res.cd, rel=1e-12)
    # One bar per clique, spanning its members' ranks (plus a 0.05 overhang on each side).
    bars = _lines(ax, "clique-bar")
    assert len(bars) == len(res.cliques) == 2
    for bar, clique in zip(bars, res.cliques, strict=True):
        members = res.avg_ranks[list(clique)]
        xs = bar.get_xdata()
        assert (min(xs), max(xs)) == pytest.approx((members.min() - 0.05, members.max() + 0.05))
    # Best rank on the right: the x axis is inverted; the two best models are named on the
    # right-hand side (smaller x, beyond rank 1) and the two worst on the left.
    left, right = ax.get_xlim()
    assert left > right
    for t in ax.texts:
        if "Repeated G." in t.get_text() or "Random G." in t.get_text():
            assert t.get_position()[0] < 1
        elif "Glorot" in t.get_text():
            assert t.get_position()[0] > 4
    path = tmp_path / "cd.png"
    ax.figure.savefig(path, dpi=80)
    image = matplotlib.image.imread(path)
    assert image.ndim == 3 and image.shape[0] > 50 and image.shape[1] > 50
    assert image[..., :3].min() < 0.5  # something dark was drawn


def test_draws_on_given_axes():
    ax = Figure().add_subplot()
    assert plot_cd_diagram([1.5, 1.5, 3.0], ["a", "b", "c"], 0.4, ax=ax) is ax
    assert len(_lines(ax, "clique-bar")) == 1  # a and b tie; c stands alone


@pytest.mark.parametrize(
    ("ranks", "names", "cd", "match"),
    [
        ([1.0, 2.0], ["a"], 1.0, "names"),
        ([1.0, 2.0], ["a", 3], 1.0, r"names: expected 2 strings \(one per model\), got \['a', 3\]"),
        ([1.5, 2.0, 2.5], ["a", "a", "b"], 1.0, "names: expected each model named once"),
        ([1.0, np.nan], ["a", "b"], 1.0, "finite"),
        ([1.0, 2.0], ["a", "b"], -1.0, "cd"),
        # average ranks of k models lie in [1, k] and sum to k (k + 1) / 2
        ([0.5, 2.5, 3.0], ["a", "b", "c"], 1.0, r"avg_ranks: .* each in \[1, 3\]"),
        ([1.0, 2.0, 7.0], ["a", "b", "c"], 1.0, "avg_ranks"),
        ([2.0, 2.5, 3.0], ["a", "b", "c"], 1.0, "summing to 6"),
        # in [1, k] and summing to 10, but two models cannot both have rank 1 everywhere
        ([1.0, 1.0, 4.0, 4.0], ["a", "b", "c", "d"], 1.0, "at least j"),
    ],
)
def test_bad_input(ranks, names, cd, match):
    with pytest.raises(ValueError, match=match):
        plot_cd_diagram(ranks, names, cd)


def test_draws_the_given_cliques():
    # a Nemenyi result's cliques are drawn as given, not computed again from the ranks
    ax = plot_cd_diagram([1.5, 1.5, 3.0], ["a", "b", "c"], 0.4, cliques=((0, 1, 2),))
    (bar,) = _lines(ax, "clique-bar")
    assert (min(bar.get_xdata()), max(bar.get_xdata())) == pytest.approx((1.45, 3.05))


def test_cd_and_cliques_are_checked_also_when_the_cliques_are_given():
    ranks, names = [1.5, 2.0, 2.5], ["a", "b", "c"]
    for bad in (-1.0, np.nan):
        with pytest.raises(ValueError, match="^cd: expected a finite number >= 0"):
            plot_cd_diagram(ranks, names, bad, cliques=[(0, 1)])
    with pytest.raises(TypeError, match="^cd: expected a number >= 0"):
        plot_cd_diagram(ranks, names, "1.0", cliques=[(0, 1)])
    with pytest.raises(ValueError, match="^cliques: expected model indices 0 to 2, got 3"):
        plot_cd_diagram(ranks, names, 1.0, cliques=[(0, 3)])
    with pytest.raises(TypeError, match="^cliques: expected an integer"):
        plot_cd_diagram(ranks, names, 1.0, cliques=[(0, 1.0)])


LONG = [
    "RandomForest(n_estimators=500)",
    "gradient-boosting-tuned",
    "LogisticRegression(C=1.0)",
    "k-nearest-neighbours(k=5)",
    "naive-bayes",
    "SVC(kernel='rbf', gamma='scale')",
    "DecisionTreeClassifier",
    "MLP(hidden=(100,50))",
]


@pytest.mark.parametrize(
    ("ranks", "names"),
    [
        (np.linspace(1.1, 7.9, 8), LONG),  # average ranks: they sum to 36
        (np.linspace(1.0, 20.0, 20), [f"learner-{i:02d}" for i in range(20)]),
        ([1.5, 1.5], ["Ünïcødé-λ", "naïve-Bayes β"]),
    ],
)
def test_the_rank_axis_keeps_its_length_beside_long_names(ranks, names):
    # long names took the width of the figure and squeezed the rank axis to a few
    # millimetres, its numbers written over each other
    ax = plot_cd_diagram(ranks, names, 1.9)
    canvas = FigureCanvasAgg(ax.figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    (axis,) = _lines(ax, "rank-axis")
    ends = ax.transData.transform(axis.get_xydata())
    k = len(names)
    inches = abs(ends[1, 0] - ends[0, 0]) / ax.figure.dpi
    assert inches == pytest.approx(max(0.4 * (k - 1), 4.0), rel=0.1)
    boxes = [t.get_window_extent(renderer) for t in ax.texts]
    for box in boxes:
        assert ax.figure.bbox.x0 <= box.x0 and box.x1 <= ax.figure.bbox.x1
        assert ax.figure.bbox.y0 <= box.y0 and box.y1 <= ax.figure.bbox.y1
    numbers = [b for t, b in zip(ax.texts, boxes, strict=True) if t.get_text().isdigit()]
    assert len(numbers) == k
    for i, first in enumerate(numbers):
        assert not any(first.overlaps(second) for second in numbers[i + 1 :])


def test_a_very_long_name_breaks_into_lines_and_rows_make_room():
    # a scikit-learn repr of 120 characters made a new figure 16 inches wide (a page then
    # shrinks it and the rank axis with it); it now breaks into lines of at most 3 inches
    long = (
        "RandomForestClassifier(bootstrap=True, ccp_alpha=0.0, class_weight=None, "
        "criterion='gini', max_depth=None, n_estimators=500)"
    )
    names = [long, "gradient-boosting-tuned", "svm-rbf", "knn", "logistic-regression", "nb"]
    ax = plot_cd_diagram([2.1, 2.5, 3.0, 3.6, 4.2, 5.6], names, 1.9)
    assert ax.figure.get_figwidth() < 4.0 * 1.15 + 2 * 3.0 + 0.5  # axis, margins, two names
    canvas = FigureCanvasAgg(ax.figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    labels = [t for t in ax.texts if any(n in " ".join(t.get_text().split()) for n in names)]
    assert len(labels) == 6
    (wrapped,) = [t for t in labels if "\n" in t.get_text()]
    assert "".join(wrapped.get_text().split()) == "".join(f"{long} (2.10)".split())
    boxes = [t.get_window_extent(renderer) for t in labels]
    for i, box in enumerate(boxes):
        assert box.width / ax.figure.dpi <= 3.0 + 0.2  # the label's padding spaces
        assert ax.figure.bbox.x0 <= box.x0 and box.x1 <= ax.figure.bbox.x1
        assert ax.figure.bbox.y0 <= box.y0 and box.y1 <= ax.figure.bbox.y1
        assert not any(box.overlaps(other) for other in boxes[i + 1 :])


def test_ranks_rounded_to_two_decimals_are_taken():
    # Demsar's example ranks as a paper prints them: 3.67 + 3.33 + 1.83 + 1.17 = 10, and
    # three models at 1.33, 2.33, 2.33 (sum 5.99, the rounding of 6)
    assert plot_cd_diagram([1.33, 2.33, 2.33], ["a", "b", "c"], 1.0) is not None
