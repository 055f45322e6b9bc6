"""The Poisson-binomial test: comparing two learners over multiple data sets.

The differences are first learner minus second (the paper writes second minus first; only
the names swap). On each of ``q`` data sets the Bayesian correlated t-test gives
``p_i = P(mu_i > 0)``, the posterior probability that the first learner is more accurate
than the second. Each data set is treated as an independent Bernoulli trial with success
probability ``p_i``; the number ``X`` of data sets on which the first learner wins then
follows a Poisson-binomial distribution, and the test declares the first learner better
when ``P(X > q/2) > 1 - alpha``.

The distribution is computed exactly by the standard ``O(q^2)`` recursion over the data
sets; the paper's Monte Carlo approximation (100,000 simulated coin vectors) is kept as
an option and as a cross-check.

References
----------
Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing cross-validated
algorithms on multiple data sets. Machine Learning 100, 285-304, Sec. 3.

Lacoste, A., Laviolette, F. & Marchand, M. (2012). Bayesian comparison of machine learning
algorithms on single and multiple datasets. AISTATS, 665-675.

Hong, Y. (2013). On computing the distribution function for the Poisson binomial
distribution. Computational Statistics and Data Analysis 59, 41-51.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from cvcompare._validation import (
    check_array,
    check_choice,
    check_int,
    check_rho,
    check_scale,
    check_score_size,
    check_test_size,
    constant_within_rounding,
)
from cvcompare.seeding import RngLike, as_generator
from cvcompare.stats._results import ReadOnlyArrays
from cvcompare.stats.ttest import prob_positive_matching

__all__ = ["PoissonBinomialResult", "poisson_binomial_pmf", "poisson_binomial_test"]


def poisson_binomial_pmf(p: object) -> np.ndarray:
    """Exact probability mass function of a sum of independent Bernoulli variables.

    ``P(X = j)`` for ``X = sum_i B_i``, ``B_i ~ Bernoulli(p_i)``, computed by adding one
    trial at a time: ``P_i(j) = P_{i-1}(j) (1 - p_i) + P_{i-1}(j - 1) p_i``. Every step
    is a convex combination of non-negative numbers, so there is no cancellation; the cost
    is ``O(q^2)``.

    Parameters
    ----------
    p : array_like, shape (q,) or (batch, q)
        Success probabilities in [0, 1]; a 2-D array gives one distribution per row.

    Returns
    -------
    numpy.ndarray, shape (q + 1,) or (batch, q + 1)
        ``pmf[..., j] = P(X = j)``.

    References
    ----------
    Corani & Benavoli (2015), Eq. (10); Hong (2013), Sec. 2 (recursive formula).

    Examples
    --------
    >>> poisson_binomial_pmf([0.5, 0.5]).tolist()
    [0.25, 0.5, 0.25]
    """
    probs = check_array(p, "p", ndim=(1, 2), min_size=1, axis_names=("batch", "trials"))
    if np.any((probs < 0) | (probs > 1)):
        bad = probs[(probs < 0) | (probs > 1)][0]
        raise ValueError(f"p: success probabilities must lie in [0, 1], found {bad:g}")
    q = probs.shape[-1]
    pmf = np.zeros(probs.shape[:-1] + (q + 1,))
    pmf[..., 0] = 1.0
    for i in range(q):
        p_i = probs[..., i : i + 1]
        moved = pmf[..., : i + 1] * p_i
        pmf[..., : i + 1] *= 1.0 - p_i
        pmf[..., 1 : i + 2] += moved
    return pmf


#: Size of the block of uniform draws simulated at once by the Monte Carlo option, in bytes
#: (about 1 MiB, so memory does not grow with the number of simulated coin vectors).
_CHUNK_BYTES = 1 << 20


def _montecarlo_pmf(p: np.ndarray, n_samples: int, gen: np.random.Generator) -> np.ndarray:
    """Relative frequencies of ``X`` over ``n_samples`` simulated vectors of ``q`` coins.

    The vectors are simulated in blocks of about ``_CHUNK_BYTES``; the uniform draws are
    consumed row by row, so the counts do not depend on the block length.
    """
    rows = max(1, _CHUNK_BYTES // (8 * p.size))
    counts = np.zeros(p.size + 1, dtype=np.int64)
    for start in range(0, n_samples, rows):
        wins = (gen.random((min(rows, n_samples - start), p.size)) < p).sum(axis=1)
        counts += np.bincount(wins, minlength=p.size + 1)
    return counts / n_samples


@dataclass(frozen=True)
class PoissonBinomialResult(ReadOnlyArrays):
    """Result of :func:`poisson_binomial_test`.

    Attributes
    ----------
    p_datasets : numpy.ndarray, shape (q,)
        ``p_i = P(mu_i > 0 | x_i)`` from the Bayesian correlated t-test (matching prior).
    pmf : numpy.ndarray, shape (q + 1,)
        Distribution of the number ``X`` of data sets with a positive mean difference
        (exact, or estimated by sampling when ``method == "montecarlo"``).
    prob_majority : float
        ``P(X > q/2)``: the first learner wins on more than half the data sets.
    prob_majority_negative : float
        ``P(X < q/2)``: the second learner wins on more than half the data sets.
    decision : bool
        ``prob_majority > 1 - alpha``: the first learner is declared more accurate.
    decision_negative : bool
        ``prob_majority_negative > 1 - alpha``: the second learner is declared more
        accurate (the same rule with the learners swapped).
    alpha : float
        Size of the test.
    method : {"exact", "montecarlo"}
        How ``pmf`` was obtained.
    n_samples : int or None
        Number of simulated coin vectors (``None`` for the exact method).
    """

    p_datasets: np.ndarray
    pmf: np.ndarray
    prob_majority: float
    prob_majority_negative: float
    decision: bool
    decision_negative: bool
    alpha: float
    method: Literal["exact", "montecarlo"]
    n_samples: int | None

    @property
    def q(self) -> int:
        """Number of data sets."""
        return self.p_datasets.size


def poisson_binomial_test(
    x: object,
    *,
    rho: float | object,
    alpha: float = 0.05,
    method: Literal["exact", "montecarlo"] = "exact",
    n_samples: int = 100_000,
    rng: RngLike | None = None,
    scale: str = "fraction",
    score_size: float | object | None = None,
) -> PoissonBinomialResult:
    """Poisson-binomial test of two learners cross-validated on ``q`` data sets.

    Parameters
    ----------
    x : array_like, shape (q, n)
        Differences of the scores (first learner minus second) on the ``n`` test folds of
        each of ``q >= 2`` data sets; at least two folds.
    rho : float or array_like of shape (q,)
        Correlation heuristic ``n_test / n_total`` in [0, 1), one for all data sets or one
        per data set.
    alpha : float
        Size of the test, in (0, 0.5).
    method : {"exact", "montecarlo"}
        ``"exact"`` computes the distribution of ``X`` by recursion
        (:func:`poisson_binomial_pmf`); ``"montecarlo"`` estimates it from ``n_samples``
        simulated vectors of ``q`` coins as in the paper.
    n_samples : int
        Number of simulated coin vectors for ``method="montecarlo"``, ``>= 1``; checked, but
        unused, for ``method="exact"``.
    rng : int, numpy.random.SeedSequence or numpy.random.Generator, optional
        Source of randomness; required for ``method="montecarlo"``; checked when given, but
        unused, for ``method="exact"``.
    scale : {"fraction", "percent", "raw"}
        Scale of ``x``; ``"raw"``: any score in its own unit (the test does not depend on
        it).
    score_size : float or array_like of shape (q,), optional
        The largest magnitude of the scores the differences come from, in the unit the test
        takes them in (fractions for accuracies), which sets their rounding tolerance: the
        differences constant within it are constant, and a point mass within it of a rope's
        end lies on it. One for all data sets or one each; by default 1, or a data set's
        largest ``|x|`` where larger; scores of other sizes (an RMSE of 1e4, or of 1e-12)
        give theirs (:func:`cvcompare.io.pair_score_sizes`).

    Returns
    -------
    PoissonBinomialResult

    Notes
    -----
    The paper states the one-sided rule ``P(X > q/2) > 1 - alpha`` for the learner whose
    score is the minuend (here the first). Swapping the learners maps ``p_i`` to
    ``1 - p_i`` and ``X`` to ``q - X``, so the rule for the second learner is
    ``P(X < q/2) > 1 - alpha``; both are reported. With
    ``q`` even, ``X = q/2`` counts for neither. A data set whose differences are all equal
    has ``p_i`` 0 or 1 by the sign of the mean, and 1/2 when they are all zero (see
    :func:`~cvcompare.stats.ttest.bayesian_correlated_ttest`).

    ``X`` counts the data sets at hand on which the first learner is better, so the test
    asks whether it wins a majority of these ``q`` data sets, not of a population of data
    sets. Where the folds resolve each data set's difference (every ``p_i`` near 0 or 1),
    ``X`` is simply the number of data sets won and the test rejects whenever the first
    learner wins most of them, whatever the mean difference; with wins as likely as losses
    in the population, that happens with probability ``P(Binomial(q, 1/2) > q/2)`` (0.41
    for ``q = 20``), far above ``alpha``. The sign test asks the majority question of the
    population; the signed-rank test's null is a distribution of differences symmetric
    about 0.

    References
    ----------
    Corani & Benavoli (2015), Sec. 3, Eqs. (9)-(10) and the decision rule that follows.

    Examples
    --------
    >>> x = [[0.02, 0.03, 0.01], [0.01, 0.02, 0.02], [-0.01, 0.01, 0.0]]
    >>> res = poisson_binomial_test(x, rho=0.1)
    >>> round(res.prob_majority, 4), res.decision
    (0.9638, True)
    """
    arr = check_array(x, "x", ndim=2, min_size=2, axis_names=("data sets", "folds"))
    if arr.shape[0] < 2:
        raise ValueError(f"x: expected at least 2 data sets (rows), got {arr.shape[0]}")
    arr = check_scale(arr, "x", scale=scale)
    size = check_score_size(arr, score_size)
    arr = constant_within_rounding(arr, size)
    q = arr.shape[0]
    rho_arr = check_array(rho, "rho", ndim=(0, 1))
    if rho_arr.ndim == 1 and rho_arr.size != q:
        raise ValueError(
            f"rho: expected a scalar or one value per data set ({q}), got {rho_arr.size}"
        )
    for value in rho_arr.ravel():
        check_rho(value)
    alpha = check_test_size(alpha)
    method = check_choice(method, "method", ("exact", "montecarlo"))
    # checked whatever the method, so that a bad value is never ignored silently
    n_samples = check_int(n_samples, "n_samples", minimum=1)
    gen = None if rng is None else as_generator(rng)
    p_datasets = prob_positive_matching(arr, rho_arr, size=size)
    if method == "exact":
        pmf = poisson_binomial_pmf(p_datasets)
        used_samples = None
    else:
        if gen is None:
            raise TypeError("rng: method='montecarlo' needs a seed or a numpy Generator")
        used_samples = n_samples
        pmf = _montecarlo_pmf(p_datasets, used_samples, gen)
    counts = np.arange(q + 1)
    prob_majority = float(pmf[2 * counts > q].sum())
    prob_majority_negative = float(pmf[2 * counts < q].sum())
    return PoissonBinomialResult(
        p_datasets=p_datasets,
        pmf=pmf,
        prob_majority=prob_majority,
        prob_majority_negative=prob_majority_negative,
        decision=prob_majority > 1 - alpha,
        decision_negative=prob_majority_negative > 1 - alpha,
        alpha=alpha,
        method=method,
        n_samples=used_samples,
    )
