"""Signed-rank comparisons of two learners over multiple data sets.

Every function takes ``x``, the per-data-set mean differences of the scores of two learners
(first minus second; in the notation of Benavoli et al. (2014), ``Z_i = Y_i - X_i``), and
compares their location with zero:

- :func:`wilcoxon_test`, the frequentist signed-rank test (the sign tests, frequentist and
  Bayesian, are in :mod:`cvcompare.stats.sign`);
- :func:`dp_signed_rank`, the Bayesian signed-rank test with the noninformative Dirichlet
  process prior ``Dp(s -> 0)`` (the Bayesian bootstrap);
- :func:`idp_signed_rank`, the prior near-ignorance Dirichlet process (IDP), which gives lower
  and upper posterior probabilities and may be indeterminate;
- :func:`bayesian_signed_rank`, the Bayesian signed-rank test with a region of practical
  equivalence (rope) and a pseudo-observation at zero.

The Bayesian tests share one Monte Carlo scheme: the posterior of the random distribution of
``Z`` puts Dirichlet weights ``w`` on the observations (and on one pseudo-observation
``Z_0``), and every quantity of interest is a quadratic form ``sum_ij w_i w_j A_ij`` in these
weights, with ``A_ij = H(Z_i + Z_j - c)`` built from the Heaviside function ``H``
(``H(0) = 1/2``, Sec. 3.2 of Benavoli et al., 2014). The weights are drawn as normalised Gamma
variables in cache-sized chunks, so memory stays small whatever the number of draws (the
weights drawn do not depend on the chunk length; the results only up to rounding). The
``q x q`` matrices are never built: for fixed ``i``, ``A_ij`` is a step function of ``Z_j``,
so after sorting the observations once (``O(q log q)``) every inner sum ``sum_j w_j A_ij`` is
read off the prefix sums of the sorted weights, and a draw costs ``O(q)``
(:class:`~cvcompare.stats._pair_sums.PairSums`); all draws of a chunk are evaluated at once.
The draws equal those of the explicit matrix products up to the order of the floating-point
additions. The IDP draws the observation weights first and the
pseudo-observation's weights last, so :func:`dp_signed_rank` and :func:`idp_signed_rank`
called with equal seeds use the same observation weights (common random numbers): the
draw-wise ordering lower <= Dp(s -> 0) <= upper then holds exactly.

References
----------
Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A Bayesian Wilcoxon
signed-rank test based on the Dirichlet process. ICML, PMLR 32(2):1026-1034.

Benavoli, A., Corani, G., Demsar, J. & Zaffalon, M. (2017). Time for a change: a tutorial for
comparing multiple classifiers through Bayesian analysis. JMLR 18(77):1-36, Sec. 5.

Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7:1-30,
Sec. 3.1.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy import stats

from cvcompare._validation import (
    check_choice,
    check_data_set_differences,
    check_int,
    check_positive,
    check_scaled_rope,
    check_two_sided_threshold,
)
from cvcompare.seeding import RngLike, as_generator
from cvcompare.stats._pair_sums import PairSums
from cvcompare.stats._results import BayesianDecisionMixin, ReadOnlyArrays

__all__ = [
    "DPSignedRankPosterior",
    "IDPSignedRankPosterior",
    "IDP_DEFAULT_S",
    "SignedRankPosterior",
    "SignedRankTestResult",
    "bayesian_signed_rank",
    "dp_signed_rank",
    "idp_signed_rank",
    "loss_threshold",
    "wilcoxon_test",
]

#: Strength of the IDP prior for which the imprecision after one observation is 1/2
#: (Benavoli et al., 2014, Sec. 3.1).
IDP_DEFAULT_S = (math.sqrt(17.0) - 3.0) / 2.0

#: Size of one (draws x observations) working array of a chunk of Monte Carlo draws, in bytes
#: (about 1 MiB: the arrays of a chunk stay in the processor cache).
_CHUNK_BYTES = 1 << 20

#: Two posterior draws of theta closer than this are a tie (rounding of exactly equal sums).
_TIE_TOLERANCE = 1e-10

Alternative = Literal["two-sided", "greater", "less"]
LossDecision = Literal["prefer_y", "prefer_x", "indeterminate"]
DPDecision = Literal["right", "left", "none"]
IDPDecision = Literal["right", "left", "none", "indeterminate"]

_ALTERNATIVES = ("two-sided", "greater", "less")


# --------------------------------------------------------------------------------------------
# decision thresholds
# --------------------------------------------------------------------------------------------


def loss_threshold(l0: float = 1.0, l1: float = 1.0) -> float:
    """Return the posterior-probability threshold ``l1 / (l0 + l1)`` of the loss-based decision.

    Parameters
    ----------
    l0 : float
        Loss of a type II error: preferring X although Y is better.
    l1 : float
        Loss of a type I error: preferring Y although it is not better.

    Returns
    -------
    float
        Y is preferred when ``P[P(Z >= -Z') > 1/2 | data]`` exceeds this value.

    References
    ----------
    Benavoli et al. (2014), Sec. 3, Eq. (9).
    """
    l0 = check_positive(l0, "l0")
    l1 = check_positive(l1, "l1")
    return l1 / (l0 + l1)


# --------------------------------------------------------------------------------------------
# frequentist test
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SignedRankTestResult:
    """Result of :func:`wilcoxon_test`.

    Attributes
    ----------
    statistic : float
        SciPy's statistic: ``min(R+, R-)`` for a two-sided test, ``R+`` (sum of the ranks of
        the positive differences) for a one-sided test.
    pvalue : float
        The p-value; 1 when every difference is zero.
    r_plus, r_minus : float
        ``R+`` and ``R-``, the sums of the ranks of ``|x|`` over the positive and the negative
        differences, zeros treated according to ``zero_method`` (Demsar 2006, Sec. 3.1.3).
        The side a two-sided test favours is the larger sum (``R+``: the first learner); the
        median of the differences can point the other way (many small positive differences,
        fewer large negative ones).
    n : int
        Number of data sets.
    n_zero : int
        Number of zero differences (treated according to ``zero_method``).
    alternative, zero_method, method : str
        The options the test was run with.
    """

    statistic: float
    pvalue: float
    r_plus: float
    r_minus: float
    n: int
    n_zero: int
    alternative: str
    zero_method: str
    method: str

    @property
    def side(self) -> int:
        """The side the ranks weigh towards: 1 where ``R+ > R-`` (the first learner), -1
        where ``R- > R+`` (the second), 0 at a balance; a two-sided rejection speaks for it."""
        return int(np.sign(self.r_plus - self.r_minus))


def wilcoxon_test(
    x: object,
    *,
    alternative: Alternative = "two-sided",
    zero_method: Literal["wilcox", "pratt", "zsplit"] = "wilcox",
    method: Literal["auto", "exact", "approx"] = "auto",
    scale: Literal["fraction", "percent", "raw"] = "fraction",
) -> SignedRankTestResult:
    """Wilcoxon signed-rank test on per-data-set mean differences.

    Parameters
    ----------
    x : array_like, shape (q,)
        Mean difference of the scores (first learner minus second) on each of ``q`` data sets.
        Not the fold differences of one data set: they are correlated by the overlap of the
        training sets, which the test ignores, so it finds differences far too often there
        (Nadeau & Bengio 2003; :func:`~cvcompare.stats.ttest.correlated_ttest` is the test of
        one data set).
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: the differences tend to be positive (the first learner is better).
    zero_method : {"wilcox", "pratt", "zsplit"}
        Treatment of zero differences, as in :func:`scipy.stats.wilcoxon`: ``"wilcox"`` drops
        them (Wilcoxon 1945; the default of SciPy and of R's ``wilcox.test``), ``"pratt"``
        ranks then drops them, ``"zsplit"`` splits their ranks between the positive and
        negative sums (Demsar 2006, Sec. 3.1.3, who also sets one aside when their number is
        odd).
    method : {"auto", "exact", "approx"}
        Exact null distribution or normal approximation, as in :func:`scipy.stats.wilcoxon`.
        ``"auto"`` is SciPy's rule: the exact distribution for up to 50 differences without
        zeros or ties; with zeros or ties, an exact permutation distribution for up to 13
        differences (zeros counted) and the normal approximation beyond, even where
        ``"wilcox"`` has dropped the zeros (8 zeros and 12 negative differences: p = 0.0022,
        where the exact distribution of the 12 gives 2 / 2^12 = 0.00049). ``"exact"`` takes
        the exact distribution of the non-zero differences, valid where they have no ties.
    scale : {"fraction", "percent", "raw"}
        Scale of ``x``: fractions in [-1, 1], percentages (converted to fractions), or
        ``"raw"`` for any real numbers (the test does not depend on the unit).

    Returns
    -------
    SignedRankTestResult
        With ``pvalue = 1`` when every difference is zero (no evidence of any difference;
        SciPy's normal approximation is undefined there).

    References
    ----------
    Wilcoxon, F. (1945). Individual comparisons by ranking methods. Biometrics Bull. 1(6).
    Demsar (2006), Sec. 3.1.3. Benavoli et al. (2014), Eq. (1).

    Examples
    --------
    >>> res = wilcoxon_test([0.01, 0.02, -0.005, 0.03, 0.015, 0.02], alternative="greater")
    >>> round(res.pvalue, 4)
    0.0312
    """
    z = check_data_set_differences(x, scale)
    alternative = check_choice(alternative, "alternative", _ALTERNATIVES)
    zero_method = check_choice(zero_method, "zero_method", ("wilcox", "pratt", "zsplit"))
    method = check_choice(method, "method", ("auto", "exact", "approx"))
    n_zero = int(np.sum(z == 0))
    r_plus, r_minus = _rank_sums(z, zero_method)
    if n_zero == z.size:  # SciPy's p-value is undefined there; its statistic is this one
        statistic = r_plus if alternative != "two-sided" else min(r_plus, r_minus)
        pvalue = 1.0
    else:
        res = stats.wilcoxon(z, zero_method=zero_method, alternative=alternative, method=method)
        statistic, pvalue = float(res.statistic), float(res.pvalue)
    return SignedRankTestResult(
        statistic=statistic,
        pvalue=pvalue,
        r_plus=r_plus,
        r_minus=r_minus,
        n=int(z.size),
        n_zero=n_zero,
        alternative=alternative,
        zero_method=zero_method,
        method=method,
    )


def _rank_sums(z: np.ndarray, zero_method: str) -> tuple[float, float]:
    """``(R+, R-)``: the sums of the average ranks of ``|z|`` over the positive and the
    negative differences; ``"wilcox"`` drops the zeros before ranking, ``"pratt"`` after,
    ``"zsplit"`` gives half of their ranks to each sum (Demsar 2006, Sec. 3.1.3)."""
    if zero_method == "wilcox":
        z = z[z != 0]
    ranks = stats.rankdata(np.abs(z))
    split = ranks[z == 0].sum() / 2 if zero_method == "zsplit" else 0.0
    return float(ranks[z > 0].sum() + split), float(ranks[z < 0].sum() + split)


# --------------------------------------------------------------------------------------------
# Monte Carlo machinery shared by the Bayesian tests
# --------------------------------------------------------------------------------------------


def _dp_forms(w: np.ndarray, total: np.ndarray | float, below) -> list[np.ndarray]:
    """``w (A - 1/2) w^T`` with ``A_ij = H(z_i + z_j)``, for sorted weights ``w`` (columns).

    ``theta - 1/2 = w (A - 1/2) w^T`` because the weights sum to one. The row sums are
    exactly zero when every pair ties (``below = total / 2``), so the all-ties case gives
    ``theta = 1/2`` exactly (no rounding noise around the threshold). See
    :class:`PairSums` for ``total`` and ``below``.
    """
    b = below(0.0)
    return [PairSums.forms(w, np.subtract(0.5 * total, b, out=b))]


def _rope_forms(
    w: np.ndarray, total: np.ndarray | float, below, low: float, high: float
) -> list[np.ndarray]:
    """``(theta_left, theta_rope, theta_right)`` for sorted weights ``w`` (columns).

    The matrices are ``left = 1 - H(z_i + z_j - 2 low)`` (that is
    ``H(2 low - (z_i + z_j))``), ``right = H(z_i + z_j - 2 high)`` and
    ``rope = 1 - left - right``; with ``B(c) = w (1 - H(z_i + z_j - c)) w^T``, they are
    ``B(2 low)``, ``B(2 high) - B(2 low)`` (exactly zero for a zero-width rope) and
    ``total sum(w) - B(2 high)``. See :class:`PairSums` for ``total`` and ``below``.
    """
    b_low = PairSums.forms(w, below(2.0 * low))
    b_high = PairSums.forms(w, below(2.0 * high))
    return [b_low, b_high - b_low, np.ravel(total) * w.sum(axis=0) - b_high]


def _exponential_chunks(
    rng: np.random.Generator, n_obs: int, n_samples: int
) -> Iterator[np.ndarray]:
    """Yield Gamma(1) weights of the observations, shape (k, n_obs), in chunks.

    A (k, n_obs + 1) float array of a chunk takes about ``_CHUNK_BYTES``. The draws are
    consumed row by row, so they do not depend on the chunk length.
    """
    rows = max(1, _CHUNK_BYTES // (8 * (n_obs + 1)))
    for start in range(0, n_samples, rows):
        yield rng.standard_exponential((min(rows, n_samples - start), n_obs))


def _dp_theta_draws(
    z: np.ndarray, n_samples: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Draws of ``P(Z >= -Z')`` under ``Dp(s -> 0)`` and the sums of the Gamma weights."""
    pairs = PairSums(z, (0.0,))
    thetas, totals = [], []
    for g_obs in _exponential_chunks(rng, z.size, n_samples):
        total = g_obs.sum(axis=1)
        w, prefix = pairs.sort(g_obs / total[:, None])
        d = _dp_forms(w, prefix[-1:], lambda c, p=prefix: pairs.below(p, c))[0]
        thetas.append(0.5 + np.clip(d, -0.5, 0.5))  # |d| <= 1/2 up to rounding
        totals.append(total)
    return np.concatenate(thetas), np.concatenate(totals)


def _check_mc(n_samples: object, rng: RngLike) -> tuple[int, np.random.Generator]:
    return check_int(n_samples, "n_samples", minimum=1), as_generator(rng, "rng")


def _binomial_se(p: float, n: int) -> float:
    """Standard error ``sqrt(p (1 - p) / n)`` of a share ``p`` of ``n`` independent draws."""
    return math.sqrt(p * (1.0 - p) / n)


def _mc_probability(event: np.ndarray) -> tuple[float, float]:
    """Share of true draws in ``event`` and its binomial standard error (:func:`_binomial_se`)."""
    p = float(np.mean(event))
    return p, _binomial_se(p, event.size)


# --------------------------------------------------------------------------------------------
# Dp(s -> 0)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DPSignedRankPosterior(ReadOnlyArrays):
    """Posterior of ``theta = P(Z >= -Z')`` under the ``Dp(s -> 0)`` prior.

    Attributes
    ----------
    n : int
        Number of data sets.
    mean : float
        Exact posterior mean of ``theta`` (Theorem 2, Eq. 4): the Wilcoxon statistic ``R+``.
    prob_greater : float
        Monte Carlo estimate of ``P[theta > 1/2 | data]``.
    mc_se : float
        Monte Carlo standard error of ``prob_greater``.
    n_samples : int
        Number of posterior draws.
    draws : numpy.ndarray, shape (n_samples,)
        The posterior draws of ``theta``.
    """

    n: int
    mean: float
    prob_greater: float
    mc_se: float
    n_samples: int
    draws: np.ndarray = field(repr=False, compare=False)

    @property
    def prob_less(self) -> float:
        """Monte Carlo estimate of ``P[theta < 1/2 | data]``: the second learner better (0,
        with ``prob_greater``, where every difference is zero and ``theta = 1/2``)."""
        return float(np.mean(self.draws < 0.5))

    @property
    def prob_less_se(self) -> float:
        """Monte Carlo standard error of :attr:`prob_less` (``mc_se`` is that of
        ``prob_greater``)."""
        return _binomial_se(self.prob_less, self.n_samples)

    def sample(self) -> np.ndarray:
        """Return a copy of the posterior draws of ``P(Z >= -Z')``.

        Returns
        -------
        numpy.ndarray, shape (n_samples,)
            The draws of ``theta``, in [0, 1].
        """
        return self.draws.copy()

    def decide(self, l0: float = 1.0, l1: float = 1.0) -> LossDecision:
        """Decision minimising the posterior expected loss.

        Returns ``"prefer_y"`` (the first learner, whose scores are the minuends of ``x``)
        when ``prob_greater > l1 / (l0 + l1)``, else ``"prefer_x"`` (Benavoli et al., 2014,
        Eq. 9). ``"prefer_x"`` means a smaller expected loss, not that X is better.

        Parameters
        ----------
        l0 : float, default 1.0
            Loss of a type II error: preferring X (the second learner) although Y (the
            first) is better; positive and finite.
        l1 : float, default 1.0
            Loss of a type I error: preferring Y although it is not better; positive and
            finite.

        Returns
        -------
        {"prefer_y", "prefer_x"}
            The decision; never ``"indeterminate"`` under this single prior.

        Raises
        ------
        TypeError, ValueError
            If ``l0`` or ``l1`` is not a positive finite number.
        """
        return "prefer_y" if self.prob_greater > loss_threshold(l0, l1) else "prefer_x"

    def decision(self, threshold: float = 0.95) -> DPDecision:
        """Two-sided decision in the words of the package's other Bayesian tests.

        ``"right"`` (the first learner, the minuends of ``x``, better) when
        ``P[theta > 1/2 | data] > threshold``, ``"left"`` (the second better) when
        ``P[theta < 1/2 | data] > threshold`` (:attr:`prob_less`), ``"none"`` otherwise; a
        learner compared with itself (every difference zero, ``theta = 1/2``) is ``"none"``.
        Unlike :meth:`decide`, whose ``"prefer_x"`` only means that preferring the second
        learner costs less, both learners are treated alike.

        Parameters
        ----------
        threshold : float, default 0.95
            Probability in [0.5, 1) that a learner must be better with.

        Returns
        -------
        {"right", "left", "none"}

        Raises
        ------
        TypeError, ValueError
            If ``threshold`` is not a number in [0.5, 1).
        """
        t = check_two_sided_threshold(threshold)
        if self.prob_greater > t:
            return "right"
        if self.prob_less > t:
            return "left"
        return "none"


def dp_signed_rank(
    x: object,
    *,
    n_samples: int = 50_000,
    rng: RngLike,
    scale: Literal["fraction", "percent", "raw"] = "fraction",
) -> DPSignedRankPosterior:
    """Bayesian signed-rank test with the noninformative ``Dp(s -> 0)`` prior.

    The posterior of the distribution of ``Z`` puts weights ``w ~ Dir(1, ..., 1)`` on the
    observations (the Bayesian bootstrap) and ``theta = sum_ij w_i w_j H(Z_i + Z_j)``.

    Parameters
    ----------
    x : array_like, shape (q,)
        Mean difference of the scores (first learner minus second) on each data set.
    n_samples : int
        Number of Monte Carlo draws of the Dirichlet weights.
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness.
    scale : {"fraction", "percent", "raw"}
        Scale of ``x``: fractions in [-1, 1], percentages (converted to fractions), or
        ``"raw"`` for any real numbers (the test does not depend on the unit).

    Returns
    -------
    DPSignedRankPosterior
        If every difference is zero, ``theta = 1/2`` with probability one, so
        ``prob_greater = 0`` and the decision is ``"prefer_x"`` for every loss.

    References
    ----------
    Benavoli et al. (2014), Theorem 2 (Eq. 4), Theorem 4 with ``s -> 0``, Sec. 3.2 (ties),
    Eq. (9) (decision). Rubin, D. B. (1981). The Bayesian bootstrap. Ann. Statist. 9(1).

    Examples
    --------
    >>> post = dp_signed_rank([0.01, 0.02, -0.005, 0.03, 0.015], rng=1)
    >>> round(post.mean, 4)  # R+ = 2 T+ / (n (n + 1)) = 2 * 14 / 30
    0.9333
    """
    z = check_data_set_differences(x, scale)
    n_samples, gen = _check_mc(n_samples, rng)
    draws, _ = _dp_theta_draws(z, n_samples, gen)
    p, mc_se = _mc_probability(draws > 0.5)
    return DPSignedRankPosterior(
        n=int(z.size),
        mean=0.5 + PairSums(z, (0.0,)).dirichlet_means(np.ones(z.size), _dp_forms)[0],
        prob_greater=p,
        mc_se=mc_se,
        n_samples=n_samples,
        draws=draws,
    )


# --------------------------------------------------------------------------------------------
# IDP
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IDPSignedRankPosterior(ReadOnlyArrays):
    """Lower and upper posteriors of ``theta = P(Z >= -Z')`` under the IDP prior.

    Attributes
    ----------
    n : int
        Number of data sets.
    s : float
        Strength of the prior.
    lower_mean, upper_mean : float
        Exact lower and upper posterior means (Theorem 3, Eqs. 6-7).
    lower_prob, upper_prob : float
        Monte Carlo estimates of the lower and upper ``P[theta > 1/2 | data]`` (Theorem 4).
    lower_mc_se, upper_mc_se : float
        Their Monte Carlo standard errors.
    n_samples : int
        Number of posterior draws.
    lower_draws, upper_draws : numpy.ndarray, shape (n_samples,)
        Draws of ``theta`` under the priors ``Dp(s, delta_{-inf})`` and ``Dp(s, delta_{+inf})``
        that attain the bounds (the same Dirichlet weights for both).
    """

    n: int
    s: float
    lower_mean: float
    upper_mean: float
    lower_prob: float
    upper_prob: float
    lower_mc_se: float
    upper_mc_se: float
    n_samples: int
    lower_draws: np.ndarray = field(repr=False, compare=False)
    upper_draws: np.ndarray = field(repr=False, compare=False)

    @property
    def imprecision(self) -> float:
        """``upper_mean - lower_mean = (s^2 + 2ns + s) / ((s + n)(s + n + 1))`` (Theorem 3)."""
        return self.upper_mean - self.lower_mean

    def sample(self) -> np.ndarray:
        """Return the draws as a (n_samples, 2) array: columns lower, upper.

        Returns
        -------
        numpy.ndarray, shape (n_samples, 2)
            A new array: ``lower_draws`` in the first column, ``upper_draws`` in the second.
        """
        return np.column_stack([self.lower_draws, self.upper_draws])

    def decide(self, l0: float = 1.0, l1: float = 1.0) -> LossDecision:
        """Decision that minimises the expected loss under every prior of the IDP set.

        With ``t = l1 / (l0 + l1)``: ``"prefer_y"`` if ``lower_prob > t``, ``"prefer_x"`` if
        ``upper_prob <= t`` (the rule of Eq. 9 applied to the lower and upper probabilities),
        otherwise ``"indeterminate"``: the decision depends on the prior (Benavoli et al.,
        2014, Sec. 3).

        Parameters
        ----------
        l0 : float, default 1.0
            Loss of a type II error: preferring X (the second learner) although Y (the
            first) is better; positive and finite.
        l1 : float, default 1.0
            Loss of a type I error: preferring Y although it is not better; positive and
            finite.

        Returns
        -------
        {"prefer_y", "prefer_x", "indeterminate"}

        Raises
        ------
        TypeError, ValueError
            If ``l0`` or ``l1`` is not a positive finite number.
        """
        t = loss_threshold(l0, l1)
        if self.lower_prob > t:
            return "prefer_y"
        if self.upper_prob <= t:
            return "prefer_x"
        return "indeterminate"

    def decision(self, threshold: float = 0.95) -> IDPDecision:
        """Two-sided decision, made only where every prior of the IDP set makes it.

        Under one prior, with ``p = P[theta > 1/2 | data]``, the first learner (the
        minuends of ``x``) is declared better when ``p > threshold``, the second when
        ``1 - p = P[theta <= 1/2 | data] > threshold``, otherwise neither. Over the set,
        where ``p`` ranges over ``[lower_prob, upper_prob]``, this gives ``"right"`` (the first
        learner better) if ``lower_prob > threshold``, ``"left"`` (the second) if
        ``1 - upper_prob > threshold``, ``"none"`` if no prior declares either, and
        ``"indeterminate"`` if the priors disagree (Benavoli et al., 2014, Sec. 3). Unlike
        :meth:`decide`, whose ``"prefer_x"`` only means that preferring the second learner
        costs less under an asymmetric loss, both learners are treated alike.

        Parameters
        ----------
        threshold : float, default 0.95
            Probability in [0.5, 1) that a learner must be better with.

        Returns
        -------
        {"right", "left", "none", "indeterminate"}

        Raises
        ------
        TypeError, ValueError
            If ``threshold`` is not a number in [0.5, 1).
        """
        t = check_two_sided_threshold(threshold)
        if self.lower_prob > t:
            return "right"
        if 1 - self.upper_prob > t:
            return "left"
        if self.upper_prob <= t and 1 - self.lower_prob <= t:
            return "none"
        return "indeterminate"


def idp_signed_rank(
    x: object,
    *,
    s: float = IDP_DEFAULT_S,
    n_samples: int = 50_000,
    rng: RngLike,
    scale: Literal["fraction", "percent", "raw"] = "fraction",
) -> IDPSignedRankPosterior:
    """Bayesian signed-rank test with the prior near-ignorance Dirichlet process (IDP).

    The prior is the set of ``Dp(s, G0)`` for all base distributions ``G0``. The lower
    (upper) posterior is attained by a pseudo-observation of weight ``s`` at ``-inf``
    (``+inf``); with ``w = (w_0, w_1, ..., w_n) ~ Dir(s, 1, ..., 1)`` the draws are
    ``g_lower = sum_ij w_i w_j H(Z_i + Z_j)`` and ``g_upper = w_0 (2 - w_0) + g_lower``
    (Theorem 4), both computed from one set of weights.

    Parameters
    ----------
    x : array_like, shape (q,)
        Mean difference of the scores (first learner minus second) on each data set.
    s : float
        Prior strength; the default ``(sqrt(17) - 3) / 2`` halves the imprecision with the
        first observation (Sec. 3.1).
    n_samples : int
        Number of Monte Carlo draws of the Dirichlet weights.
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness. With the same seed and ``x`` as :func:`dp_signed_rank`, the
        observation weights are shared, so ``lower <= Dp(s -> 0) <= upper`` draw by draw.
    scale : {"fraction", "percent", "raw"}
        Scale of ``x``: fractions in [-1, 1], percentages (converted to fractions), or
        ``"raw"`` for any real numbers (the test does not depend on the unit).

    Returns
    -------
    IDPSignedRankPosterior

    References
    ----------
    Benavoli et al. (2014), Theorem 3 (Eqs. 6-7), Theorem 4 (Eq. 8), Sec. 3.1 (choice of
    ``s``), Sec. 3.2 (ties), Eq. (9) and the rules (i)-(iii) that follow it (decisions).

    Examples
    --------
    >>> post = idp_signed_rank([0.01, 0.02, -0.005, 0.03, 0.015], rng=1)
    >>> post.lower_prob <= post.upper_prob
    True
    """
    z = check_data_set_differences(x, scale)
    s = check_positive(s, "s")
    n_samples, gen = _check_mc(n_samples, rng)
    theta, obs_total = _dp_theta_draws(z, n_samples, gen)
    # the pseudo-observation's weights are drawn after all the observation weights
    g0 = gen.standard_gamma(s, n_samples)
    w0 = g0 / (g0 + obs_total)
    # Theorem 4 written through the renormalised observation weights w_i / (1 - w_0):
    # g_lower = (1 - w0)^2 theta and
    # g_upper = g_lower + w0 (2 - w0) = theta + w0 (2 - w0) (1 - theta)
    lower = theta * (1.0 - w0) ** 2
    upper = theta + w0 * (2.0 - w0) * (1.0 - theta)
    (p_lo, se_lo), (p_up, se_up) = _mc_probability(lower > 0.5), _mc_probability(upper > 0.5)
    alpha = np.concatenate([[s], np.ones(z.size)])
    lower_mean, upper_mean = (
        0.5 + PairSums(np.concatenate([[z0], z]), (0.0,)).dirichlet_means(alpha, _dp_forms)[0]
        for z0 in (-np.inf, np.inf)
    )
    return IDPSignedRankPosterior(
        n=int(z.size),
        s=s,
        lower_mean=lower_mean,
        upper_mean=upper_mean,
        lower_prob=p_lo,
        upper_prob=p_up,
        lower_mc_se=se_lo,
        upper_mc_se=se_up,
        n_samples=n_samples,
        lower_draws=lower,
        upper_draws=upper,
    )


# --------------------------------------------------------------------------------------------
# signed-rank test with a rope
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SignedRankPosterior(BayesianDecisionMixin, ReadOnlyArrays):
    """Posterior of the Bayesian signed-rank test with a rope.

    Attributes
    ----------
    p_left, p_rope, p_right : float
        Posterior probabilities that ``theta_left``, ``theta_rope`` or ``theta_right`` is the
        largest of the three: the first learner is practically worse, practically equivalent,
        or practically better than the second.
    mean_theta : tuple of float
        Exact posterior means of ``(theta_left, theta_rope, theta_right)``.
    rope : tuple of float
        The rope, on the fraction scale.
    prior_strength : float
        Weight of the pseudo-observation at zero.
    n : int
        Number of data sets.
    n_samples : int
        Number of posterior draws.
    draws : numpy.ndarray, shape (n_samples, 3)
        Draws of ``(theta_left, theta_rope, theta_right)``.
    """

    p_left: float
    p_rope: float
    p_right: float
    mean_theta: tuple[float, float, float]
    rope: tuple[float, float]
    prior_strength: float
    n: int
    n_samples: int
    draws: np.ndarray = field(repr=False, compare=False)

    def probs_se(self) -> tuple[float, float, float]:
        """Monte Carlo standard errors of ``(p_left, p_rope, p_right)``.

        Each probability is a share of ``n_samples`` independent draws, so its standard
        error is ``sqrt(p (1 - p) / n_samples)`` (an upper bound where ties split a draw's
        vote between regions).

        Returns
        -------
        tuple of float
            The standard errors, in the order of :meth:`probs`.
        """
        return tuple(_binomial_se(p, self.n_samples) for p in self.probs())

    def sample(self) -> np.ndarray:
        """Return a copy of the draws of ``(theta_left, theta_rope, theta_right)``.

        Returns
        -------
        numpy.ndarray, shape (n_samples, 3)
            One row per posterior draw; each row sums to 1 (up to rounding).
        """
        return self.draws.copy()


def bayesian_signed_rank(
    x: object,
    *,
    rope: tuple[float, float] | None = None,
    prior_strength: float = 0.5,
    n_samples: int = 50_000,
    rng: RngLike,
    scale: Literal["fraction", "percent", "raw"] = "fraction",
) -> SignedRankPosterior:
    """Bayesian signed-rank test with a region of practical equivalence.

    The prior is a Dirichlet process with a pseudo-observation ``Z_0 = 0`` of weight
    ``prior_strength``. For each draw of ``w ~ Dir(s, 1, ..., 1)`` over ``(Z_0, Z_1, ..., Z_n)``
    the three probabilities

    - ``theta_left  = sum_ij w_i w_j H(2 low - (Z_i + Z_j))``,
    - ``theta_right = sum_ij w_i w_j H((Z_i + Z_j) - 2 high)``,
    - ``theta_rope  = 1 - theta_left - theta_right``

    (``H(0) = 1/2``) are computed, and ``p_left``, ``p_rope``, ``p_right`` are the shares of
    draws in which each is the largest. Ties are split equally between the tied regions; a
    tie is two thetas within ``1e-10`` of each other, so that the ties of exact arithmetic
    survive rounding. They arise when zero differences meet a rope end at zero (e.g. rope
    ``(0, 0.01)``: a pair of zeros counts half left and half inside) or a zero-width rope
    with all differences zero; elsewhere a tie within ``1e-10`` has negligible probability.

    Parameters
    ----------
    x : array_like, shape (q,)
        Mean difference of the scores (first learner minus second) on each data set.
    rope : tuple of float, optional
        ``(low, high)`` with ``low <= 0 <= high``, on the fraction scale (also when
        ``scale="percent"``; by default ``(-0.01, 0.01)``; ends of magnitude 1 or more are
        refused as percentages), or in the unit of ``x`` when ``scale="raw"``, where it
        must be given. ``(0, 0)`` gives no rope (``theta_rope = 0``).
    prior_strength : float
        Weight ``s`` of the pseudo-observation at zero. The default 0.5 is baycomp's
        ``SignedRankTest``; the authors' tutorial code (BayesianTestsML) uses 0.6.
    n_samples : int
        Number of Monte Carlo draws.
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness.
    scale : {"fraction", "percent", "raw"}
        Scale of ``x``: fractions in [-1, 1], percentages (converted to fractions), or
        ``"raw"`` for any real numbers (then the rope is in the unit of ``x``).

    Returns
    -------
    SignedRankPosterior

    References
    ----------
    Benavoli, Corani, Demsar & Zaffalon (2017), Sec. 5 (Bayesian signed-rank test with rope);
    Benavoli et al. (2014), Theorem 4 (sampling the Dirichlet weights) and Sec. 3.2 (ties).

    Examples
    --------
    >>> post = bayesian_signed_rank([0.05, 0.04, 0.06, 0.03, 0.05, 0.07], rng=3)
    >>> post.decision()
    'right'
    """
    z = check_data_set_differences(x, scale)
    low, high = check_scaled_rope(rope, scale)
    s = check_positive(prior_strength, "prior_strength")
    n_samples, gen = _check_mc(n_samples, rng)
    pairs = PairSums(np.concatenate([[0.0], z]), (2.0 * low, 2.0 * high))
    g0 = gen.standard_gamma(s, n_samples)  # the pseudo-observation's weights come first
    parts, start = [], 0
    for g_obs in _exponential_chunks(gen, z.size, n_samples):
        w = np.column_stack([g0[start : start + g_obs.shape[0]], g_obs])
        w /= w.sum(axis=1, keepdims=True)
        start += g_obs.shape[0]
        w, prefix = pairs.sort(w)
        forms = _rope_forms(w, prefix[-1:], lambda c, p=prefix: pairs.below(p, c), low, high)
        parts.append(np.column_stack(forms))
    draws = np.concatenate(parts)
    is_max = draws >= draws.max(axis=1, keepdims=True) - _TIE_TOLERANCE
    p_left, p_rope, p_right = (is_max / is_max.sum(axis=1, keepdims=True)).mean(axis=0)
    alpha = np.concatenate([[s], np.ones(z.size)])
    mean_theta = tuple(
        pairs.dirichlet_means(alpha, lambda w, t, below: _rope_forms(w, t, below, low, high))
    )
    return SignedRankPosterior(
        p_left=float(p_left),
        p_rope=float(p_rope),
        p_right=float(p_right),
        mean_theta=mean_theta,  # type: ignore[arg-type]
        rope=(low, high),
        prior_strength=s,
        n=int(z.size),
        n_samples=n_samples,
        draws=draws,
    )
