"""The report's figures, each returned as (file name, caption, PNG bytes).

The critical-difference diagram of all learners, the heat maps of every pair's
probabilities and, for each pair, the plots of its tests: the posterior simplex of the
Bayesian signed-rank and sign tests, the lower and upper posteriors of the IDP test, the
hierarchical model's predictive density and shrinkage estimates, or, on a single data set,
the correlated t-test's posterior. They are drawn by :mod:`cvcompare.plots` and saved as
PNG at 90 dpi.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence

import numpy as np

from cvcompare.plots.posterior import (
    plot_idp,
    plot_pairwise_heatmap,
    plot_posterior_density,
    plot_shrinkage,
    plot_simplex,
)

from .analysis import ComparisonResults, PairResult
from .sentences import masses_text

#: Draws shown in a simplex plot (the first ones; the probabilities use all of them).
_SIMPLEX_POINTS = 5000


def _png(ax) -> bytes:
    """The figure of ``ax`` as PNG bytes."""
    buffer = io.BytesIO()
    ax.figure.savefig(buffer, format="png", dpi=90)
    return buffer.getvalue()


def _slug_name(name: str, learners: Sequence[str]) -> str:
    """``name`` with each character other than an ASCII letter or digit as ``_``, followed,
    where that changed it, by ``_`` and 8 hex digits of its hash, so that names differing only
    in those characters (``"svm rbf"``, ``"svm,rbf"``) do not share a file name. The hash is
    added too where another of the ``learners`` differs from ``name`` only in case (``"SVM"``,
    ``"svm"``: one file on a case-insensitive file system), and where the name is longer
    than :data:`_SLUG_LENGTH`, cut to that length, so that a pair's file names stay within a
    file system's 255 bytes."""
    plain = "".join(c if c.isascii() and c.isalnum() else "_" for c in name)
    twins = [other for other in learners if other != name and other.lower() == name.lower()]
    if plain == name and len(name) <= _SLUG_LENGTH and not twins:
        return plain
    return f"{plain[:_SLUG_LENGTH]}_{hashlib.sha256(name.encode()).hexdigest()[:8]}"


#: The characters of a learner's name kept in a file name (two names, a hash each and the
#: longest suffix, ``-bayes-signed-rank-simplex.png``, stay well under 255).
_SLUG_LENGTH = 80


def _slug(names: Sequence[str], learners: Sequence[str]) -> str:
    """The ``names`` among the ``learners``, each made safe by :func:`_slug_name`, joined by
    hyphens: the start of a file name."""
    return "-".join(_slug_name(n, learners) for n in names)


#: Quantiles of the posterior predictive between which its density is drawn (99% of it).
_PREDICTIVE_RANGE = (0.005, 0.995)


def _density_grid(pair: PairResult, rope) -> np.ndarray:
    """Points at which the hierarchical model's predictive density is drawn: its central
    99% (:data:`_PREDICTIVE_RANGE`), widened to the rope and the data sets' mean
    differences, with a margin of 5% on each side."""
    fit = pair.hierarchical
    low = min(fit.next_dataset_quantile(_PREDICTIVE_RANGE[0]), rope[0], float(pair.means.min()))
    high = max(fit.next_dataset_quantile(_PREDICTIVE_RANGE[1]), rope[1], float(pair.means.max()))
    margin = 0.05 * max(high - low, _least_width(low, high))
    return np.linspace(low - margin, high + margin, 400)


def _least_width(*points: float) -> float:
    """The narrowest a grid of 400 points about ``points`` may be: a millionth of a
    millionth of their size (at least 1e-12), wide enough for increasing points in double
    precision, whose spacing is about 2.2e-16 of the size."""
    return 1e-12 * max(1.0, *(abs(p) for p in points))


def pair_figures(
    pair: PairResult, settings, learners: Sequence[str]
) -> list[tuple[str, str, bytes]]:
    """(file name, caption, PNG) of the figures of one pair of the ``learners`` compared."""
    names = (pair.first, pair.second)
    figs = []
    slug = _slug(names, learners)
    rope = settings.rope
    if pair.q == 1:
        post = pair.ttests[0][1]
        sd = max(post.scale_, _least_width(post.loc))  # a point mass: a narrow grid
        grid = np.linspace(post.loc - 5 * sd, post.loc + 5 * sd, 400)
        dens = post.distribution.pdf(grid) if not post.is_point_mass else np.zeros_like(grid)
        ax = plot_posterior_density(
            grid,
            dens,
            rope=rope,
            names=names,
            higher_is_better=settings.higher_is_better,
            title=f"Posterior of the mean difference on {pair.datasets[0]} (correlated t-test)",
        )
        figs.append(
            (
                f"{slug}-ttest-density.png",
                "Bayesian correlated t-test: posterior of the mean difference, rope shaded.",
                _png(ax),
            )
        )
        return figs
    for attr, label in (
        ("bayes_signed_rank", "Bayesian signed-rank test"),
        ("bayes_sign", "Bayesian sign test"),
    ):
        post = getattr(pair, attr)
        ax = plot_simplex(
            post.draws[:_SIMPLEX_POINTS],
            names=names,
            probs=post.probs(),
            title=f"{label}: {pair.first} vs {pair.second}",
        )
        figs.append(
            (
                f"{slug}-{attr.replace('_', '-')}-simplex.png",
                f"{label}: posterior draws of the probabilities of (left, rope, right); "
                "each part of the triangle is where one region is the most probable.",
                _png(ax),
            )
        )
    ax = plot_idp(
        pair.idp.lower_draws,
        pair.idp.upper_draws,
        names=names,
        higher_is_better=settings.higher_is_better,
        title=f"IDP signed-rank test: {pair.first} vs {pair.second}",
    )
    figs.append(
        (
            f"{slug}-idp.png",
            "IDP signed-rank test: lower and upper posteriors of theta; the first "
            f"learner is declared better when P(theta > 1/2) exceeds {settings.threshold:g} "
            f"under both, the second when it is below {1 - settings.threshold:g} under both.",
            _png(ax),
        )
    )
    fit = pair.hierarchical
    if fit is not None:
        grid = _density_grid(pair, rope)
        ax = plot_posterior_density(
            grid,
            fit.next_dataset_density(grid),
            rope=rope,
            names=names,
            higher_is_better=settings.higher_is_better,
            title=f"Hierarchical model: difference on the next data set, {pair.first} vs "
            f"{pair.second}",
            label="posterior predictive density",
        )
        figs.append(
            (
                f"{slug}-hierarchical-density.png",
                "Hierarchical model: posterior "
                "predictive density of the difference on a new data set, rope shaded. Its "
                f"masses left of, in and right of the rope ({masses_text(fit)}: the "
                "predictive probabilities of the pair's line) are not those the decision "
                "rests on, which are the shares of posterior draws under which each region is "
                "the most probable one.",
                _png(ax),
            )
        )
        ax = plot_shrinkage(
            pair.means,
            fit.shrinkage,
            fit.shrinkage_interval(0.95),
            pair.datasets,
            rope=rope,
            names=names,
            higher_is_better=settings.higher_is_better,
            title=f"Hierarchical estimates per data set: {pair.first} vs {pair.second}",
        )
        figs.append(
            (
                f"{slug}-shrinkage.png",
                "Sample mean difference of each data set "
                "(cross) and its hierarchical (shrinkage) estimate with a 95% credible "
                "interval.",
                _png(ax),
            )
        )
    return figs


def _matrix(results: ComparisonResults, column: int, test: str) -> tuple[np.ndarray, np.ndarray]:
    """Learners x learners matrix of one of (p_left, p_rope, p_right) of each pair's
    posterior from ``test`` (an attribute of :class:`PairResult`), entry [i, j] for i
    first, and the mask of the pairs without that posterior (NaN in the matrix)."""
    k = len(results.learners)
    index = {n: i for i, n in enumerate(results.learners)}
    m = np.full((k, k), np.nan)
    missing = np.zeros((k, k), dtype=bool)
    for pair in results.pairs:
        i, j = index[pair.first], index[pair.second]
        post = getattr(pair, test)
        if post is None:
            missing[i, j] = missing[j, i] = True
            continue
        probs = post.probs()
        m[i, j] = probs[column]
        m[j, i] = probs[2 - column]
    return m, missing


def cd_figures(results: ComparisonResults) -> list[tuple[str, str, bytes]]:
    """(file name, caption, PNG) of the critical-difference diagram of the Nemenyi test."""
    ax = results.nemenyi.plot()
    ax.set_title("Critical-difference diagram (Nemenyi test)")
    return [
        (
            "cd-diagram.png",
            "Average ranks; learners joined by a bar are not significantly different (Nemenyi).",
            _png(ax),
        )
    ]


def heatmap_figures(results: ComparisonResults) -> list[tuple[str, str, bytes]]:
    """(file name, caption, PNG) of the heat maps of P(row learner practically better) and
    P(practically equivalent) over all pairs."""
    # one test for every cell: the hierarchical model where it was fitted, its unfitted
    # pairs marked as such (the decisions table says why)
    fitted = any(p.hierarchical is not None for p in results.pairs)
    test = "hierarchical" if fitted else "bayes_signed_rank"
    main = "hierarchical model" if fitted else "Bayesian signed-rank test"
    skipped = [p for p in results.pairs if p.hierarchical_skipped]
    why = ""
    if skipped and not fitted:
        why = " (the hierarchical model was fitted to no pair; see the pairs' sections)"
    elif skipped:
        why = (
            "; cells marked 'not fitted' are pairs the model was not fitted to ("
            + ", ".join(f"{p.first} vs {p.second}" for p in skipped)
            + "; see their sections)"
        )
    failed = [p for p in results.pairs if p.hierarchical and p.hierarchical.diagnostics.problems]
    if failed:
        why += (
            "; the fits of "
            + ", ".join(f"{p.first} vs {p.second}" for p in failed)
            + " failed their sampler diagnostics (see their sections)"
        )
    figs = []
    for column, name, what in (
        (2, "heatmap-better.png", "P(row learner practically better than column learner)"),
        (1, "heatmap-rope.png", "P(practically equivalent)"),
    ):
        short = "P(row practically better)" if column == 2 else "P(practically equivalent)"
        matrix, missing = _matrix(results, column, test)
        ax = plot_pairwise_heatmap(
            matrix,
            results.learners,
            title=f"{short}\n{main}",
            colorbar_label=short,
            missing=missing,
            missing_label="not\nfitted",
        )
        figs.append((name, f"{what}, from the {main}{why}.", _png(ax)))
    return figs
