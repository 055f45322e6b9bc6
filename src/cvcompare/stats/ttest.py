"""Correlated t-tests for the cross-validation results of two learners on one data set.

The ``n = m k`` differences of accuracy produced by ``m`` runs of ``k``-fold
cross-validation are correlated because the training sets overlap. Both tests model the
correlation with the heuristic of Nadeau & Bengio (2003), ``rho = n_test / n_total``:

* :func:`correlated_ttest` is the frequentist correlated (corrected) t-test;
* :func:`bayesian_correlated_ttest` is its Bayesian counterpart, whose posterior over the
  mean difference is a Student t (Corani & Benavoli 2015, Theorem 2); under the matching
  prior it coincides with the sampling distribution of the frequentist statistic
  (Corollary 1), so ``P(mu > 0 | x) = 1 - p`` with ``p`` the one-sided p-value.

References
----------
Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine
Learning 52(3), 239-281.

Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing cross-validated
algorithms on multiple data sets. Machine Learning 100, 285-304, Sec. 2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy import stats

from cvcompare._validation import (
    check_array,
    check_choice,
    check_int,
    check_probability,
    check_real,
    check_rho,
    check_scale,
    check_scaled_rope,
    check_score_size,
    constant_within_rounding,
    rounding_tolerance,
)
from cvcompare.seeding import RngLike, as_generator
from cvcompare.stats._results import BayesianDecisionMixin

__all__ = [
    "CorrelatedTPosterior",
    "CorrelatedTTestResult",
    "NormalGammaPrior",
    "bayesian_correlated_ttest",
    "correlated_ttest",
    "prob_positive_matching",
]

Alternative = Literal["two-sided", "greater", "less"]


def _check_differences(x: object, scale: str, score_size: object) -> tuple[np.ndarray, float]:
    """Check a 1-D vector of at least two fold differences and convert it to fractions,
    constant where its values differ by rounding alone (:func:`constant_within_rounding`);
    with the size of its scores (:func:`check_score_size`)."""
    arr = check_array(x, "x", ndim=1, min_size=2, axis_names=("folds",))
    arr = check_scale(arr, "x", scale=scale)
    size = float(check_score_size(arr, score_size))
    return constant_within_rounding(arr, size), size


def _sample_moments(x: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Return ``n``, the mean and the sum of squared deviations along the last axis.

    When all values along the axis are equal, the sum of squares is exactly zero and the
    mean is exactly that value (a rounded mean could fall on the wrong side of a rope end
    that equals the value), so constant differences are recognised despite rounding.
    """
    n = x.shape[-1]
    constant = np.ptp(x, axis=-1) == 0
    mean = np.where(constant, x[..., 0], x.mean(axis=-1))
    ss = ((x - mean[..., None]) ** 2).sum(axis=-1)
    ss = np.where(constant, 0.0, ss)
    return n, mean, ss


def _t_cdf(z, df) -> np.ndarray:
    """CDF of the standard Student t with ``df`` degrees of freedom, accurate near zero.

    With ``df == 1`` (two differences under the matching prior) the t is a Cauchy, whose
    CDF ``1/2 + arctan(z) / pi`` is evaluated as ``arctan2(1, -z) / pi``: accurate to
    rounding both near ``z = 0`` and in the tails. SciPy's Student-t CDF for ``df == 1``
    loses up to about 2e-9 near ``z = 0``, which is the whole mass of a narrow interval
    there; other ``df`` are left to SciPy.
    """
    z = np.asarray(z, dtype=float)
    cauchy = np.arctan2(1.0, -z) / np.pi
    return np.where(np.asarray(df) == 1, cauchy, stats.t.cdf(z, df))


def _on_point(c, loc, size) -> np.ndarray:
    """Whether ``c`` lies within the rounding of one difference of scores of magnitude
    ``size`` (:func:`cvcompare._validation.rounding_tolerance` with ``n = 1``) of a point
    mass at ``loc``, and so counts as ``loc`` itself."""
    return np.abs(c - loc) <= rounding_tolerance(1, np.maximum(size, np.abs(loc)))


def _t_tail(c: float, df, loc, scale, *, upper: bool, size=1.0) -> np.ndarray:
    """``P(mu <= c)`` (or ``P(mu > c)`` if ``upper``) for ``mu ~ St(df, loc, scale)``.

    Where ``scale == 0`` the Student t is replaced by its limit as the scale shrinks to
    zero, a point mass at ``loc`` whose CDF is 0 left of ``loc``, 1 right of it and 1/2 at
    ``loc`` itself (the t is symmetric about ``loc``); ``c`` within the rounding error of one
    difference of scores (:func:`cvcompare._validation.rounding_tolerance`, ``12 eps`` for
    accuracies) of ``loc`` counts as ``loc``: constant fold differences of one point read
    as ``0.80 - 0.81`` or ``0.81 - 0.82`` lie just outside or inside a rope's end 0.01, and
    both get the limit 1/2 there, not 0 or 1 by their last bits. ``size`` is the scores'
    (:func:`cvcompare._validation.check_score_size`): 1 for accuracies, that of raw scores
    (those of 1e-15 differ by rounding far below ``12 eps``). Upper tails are computed by
    symmetry as ``cdf(-z)``, not as ``1 - cdf(z)``.
    """
    scale = np.asarray(scale, dtype=float)
    loc = np.asarray(loc, dtype=float)
    degenerate = scale == 0
    z = (c - loc) / np.where(degenerate, 1.0, scale)
    sign = -1.0 if upper else 1.0
    t_tail = _t_cdf(-z, df) if upper else _t_cdf(z, df)
    side = np.where(_on_point(c, loc, size), 0.0, np.sign(c - loc))
    return np.where(degenerate, 0.5 * (1.0 + sign * side), t_tail)


# --------------------------------------------------------------------------------------
# Frequentist correlated t-test
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorrelatedTTestResult:
    """Result of :func:`correlated_ttest`.

    Attributes
    ----------
    statistic : float
        The correlated t statistic; ``+-inf`` when the differences have zero variance and
        a non-zero mean, ``0`` when they are all zero (within rounding).
    pvalue : float
        The p-value for ``alternative``.
    df : int
        Degrees of freedom, ``n - 1``.
    mean : float
        Mean difference (as a fraction).
    std_err : float
        Corrected standard error ``sqrt((1/n + rho/(1-rho)) s^2)``.
    rho : float
        The correlation used.
    n : int
        Number of differences.
    alternative : {"two-sided", "greater", "less"}
        The alternative hypothesis about the mean difference.
    """

    statistic: float
    pvalue: float
    df: int
    mean: float
    std_err: float
    rho: float
    n: int
    alternative: Alternative

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Confidence interval for the mean difference, matching ``alternative``.

        Two-sided: ``mean +- t_{(1+c)/2, n-1} std_err``; ``"greater"``: ``(mean -
        t_{c, n-1} std_err, inf)``; ``"less"``: ``(-inf, mean + t_{c, n-1} std_err)``.
        With zero variance the finite ends equal the mean.

        Parameters
        ----------
        confidence_level : float
            Coverage in (0, 1).

        Returns
        -------
        tuple of float
            ``(low, high)``.
        """
        level = check_probability(confidence_level, "confidence_level")
        if self.alternative == "two-sided":
            half = float(stats.t.ppf(0.5 + level / 2, self.df)) * self.std_err
            return (self.mean - half, self.mean + half)
        half = float(stats.t.ppf(level, self.df)) * self.std_err
        if self.alternative == "greater":
            return (self.mean - half, math.inf)
        return (-math.inf, self.mean + half)


def correlated_ttest(
    x: object,
    *,
    rho: float,
    alternative: Alternative = "two-sided",
    scale: str = "fraction",
    score_size: float | None = None,
) -> CorrelatedTTestResult:
    """Correlated (corrected) t-test of Nadeau & Bengio on cross-validation differences.

    The statistic is ``t = mean / sqrt((1/n + rho/(1-rho)) s^2)`` with ``s^2`` the sample
    variance of the ``n`` differences; it is compared with a Student t with ``n - 1``
    degrees of freedom.

    Parameters
    ----------
    x : array_like, shape (n,)
        Differences of the scores (first learner minus second: positive values speak for
        the first learner) on the ``n = m k`` test folds of ``m`` runs of ``k``-fold
        cross-validation; at least two.
    rho : float
        Correlation between the differences, in [0, 1); the heuristic is
        ``n_test / n_total`` (``1/k`` for ``k``-fold cross-validation). ``rho = 0`` gives
        the one-sample t-test.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: the mean difference is positive.
    scale : {"fraction", "percent", "raw"}
        Scale of ``x``; percentages are divided by 100 (``mean`` and ``std_err`` are
        fractions); ``"raw"``: any score in its own unit (no range check).
    score_size : float, optional
        The largest magnitude of the scores, as for :func:`bayesian_correlated_ttest`:
        differences that agree within its rounding are constant (the statistic infinite).

    Returns
    -------
    CorrelatedTTestResult

    Notes
    -----
    Zero variance (all differences equal) is defined by continuity in the variance: a
    non-zero mean gives ``statistic = +-inf`` and p-values 0 or 1 (two-sided: 0); a zero
    mean gives ``statistic = 0`` (p-value 1 two-sided, 0.5 one-sided), as does a mean
    within the rounding of one difference of scores of ``score_size`` of zero (``0.1 + 0.2
    - 0.3`` on every fold), which :func:`bayesian_correlated_ttest` takes as zero too.

    References
    ----------
    Nadeau & Bengio (2003), Sec. 5. Corani & Benavoli (2015), Eq. (1).

    Examples
    --------
    >>> res = correlated_ttest([0.01, 0.02, 0.0, 0.03, 0.01], rho=0.2)
    >>> round(res.statistic, 4), res.df
    (1.8304, 4)
    """
    arr, size = _check_differences(x, scale, score_size)
    rho = check_rho(rho)
    alternative = check_choice(alternative, "alternative", ("two-sided", "greater", "less"))
    n, mean, ss = _sample_moments(arr)
    mean, ss = float(mean), float(ss)
    std_err = math.sqrt(ss / (n - 1) * (1.0 / n + rho / (1.0 - rho)))
    if std_err > 0:
        statistic = mean / std_err
    elif _on_point(0.0, mean, size):  # a mean of rounding alone: as the Bayesian test
        statistic = 0.0
    else:
        statistic = math.copysign(math.inf, mean)
    df = n - 1
    if alternative == "greater":
        pvalue = float(_t_cdf(-statistic, df))
    elif alternative == "less":
        pvalue = float(_t_cdf(statistic, df))
    else:
        pvalue = float(min(1.0, 2.0 * _t_cdf(-abs(statistic), df)))
    return CorrelatedTTestResult(
        statistic=statistic,
        pvalue=pvalue,
        df=df,
        mean=mean,
        std_err=std_err,
        rho=rho,
        n=n,
        alternative=alternative,
    )


# --------------------------------------------------------------------------------------
# Bayesian correlated t-test
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NormalGammaPrior:
    """Normal-Gamma prior ``NG(mu, nu; mu0, k0, a, b)`` over the mean and the precision.

    ``mu | nu ~ N(mu0, k0 / nu)`` and ``nu ~ Gamma(a, b)`` (shape ``a``, rate ``b``), as in
    Corani & Benavoli (2015), Sec. 2: ``k0`` multiplies the *variance* of the prior on
    ``mu``, so ``k0 -> inf`` makes it flat. The defaults are the matching (improper) prior
    ``mu0 = 0, k0 = inf, a = -1/2, b = 0`` of Corollary 1.

    Parameters
    ----------
    mu0 : float
        Prior location of the mean difference (fraction scale).
    k0 : float
        Prior variance multiplier, ``> 0``; ``numpy.inf`` for a flat prior on ``mu``.
    a : float
        Shape of the Gamma prior on the precision; improper values down to ``-n/2``
        (exclusive) are allowed as long as the posterior is proper.
    b : float
        Rate of the Gamma prior on the precision, ``>= 0``.

    References
    ----------
    Corani & Benavoli (2015), Theorem 2 and Corollary 1; Bernardo & Smith (2009), Ch. 5.
    """

    mu0: float = 0.0
    k0: float = math.inf
    a: float = -0.5
    b: float = 0.0

    def __post_init__(self) -> None:
        for name in ("mu0", "k0", "a", "b"):
            check_real(getattr(self, name), f"prior.{name}")  # no bool, no text
        for name in ("mu0", "a", "b"):
            value = getattr(self, name)
            if not math.isfinite(value):
                raise ValueError(f"prior.{name}: expected a finite number, got {value!r}")
        if not self.k0 > 0:
            raise ValueError(f"prior.k0: expected a number > 0 (inf allowed), got {self.k0!r}")
        if self.b < 0:
            raise ValueError(f"prior.b: expected a rate >= 0, got {self.b}")


MATCHING_PRIOR = NormalGammaPrior()


def _normal_gamma_posterior(
    x: np.ndarray, rho: float | np.ndarray, prior: NormalGammaPrior
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Student-t posterior ``(df, loc, scale)`` of the mean for each row of ``x``.

    Uses the closed forms of the intraclass correlation matrix ``M`` (ones on the
    diagonal, ``rho`` elsewhere): ``H' M^-1 H = n / (1 + (n-1) rho)`` and
    ``(x - H xbar)' M^-1 (x - H xbar) = SS / (1 - rho)``. Then (Theorem 2, with the
    proof's completed square)

    * ``kappa = H' M^-1 H + 1/k0``, ``mu_n = (H' M^-1 H xbar + mu0/k0) / kappa``,
    * ``a_n = a + n/2``,
    * ``b_n = b + SS / (2 (1 - rho)) + H' M^-1 H (xbar - mu0)^2 / (2 (1 + k0 H' M^-1 H))``,
    * ``mu | x ~ St(2 a_n, mu_n, b_n / (a_n kappa))`` (the last argument a squared scale).

    The appendix of the paper prints the last term of ``b_n`` with the opposite signs;
    the expression above is the one the completed square gives (and is never negative).
    """
    n, mean, ss = _sample_moments(x)
    h = n / (1.0 + (n - 1) * np.asarray(rho))
    a_n = prior.a + n / 2.0
    if not a_n > 0:
        raise ValueError(
            f"prior.a: the posterior needs a > -n/2 = {-n / 2}, got a = {prior.a} with n = {n}"
        )
    b_n = prior.b + ss / (2.0 * (1.0 - np.asarray(rho)))
    if math.isinf(prior.k0):
        kappa = h
        loc = mean
    else:
        kappa = h + 1.0 / prior.k0
        loc = (h * mean + prior.mu0 / prior.k0) / kappa
        b_n = b_n + h * (mean - prior.mu0) ** 2 / (2.0 * (1.0 + prior.k0 * h))
    scale = np.sqrt(b_n / (a_n * kappa))
    return np.full(np.shape(mean), 2.0 * a_n), np.asarray(loc, dtype=float), scale


def prob_positive_matching(
    x: np.ndarray, rho: float | np.ndarray, *, size: float | np.ndarray = 1.0
) -> np.ndarray:
    """``P(mu > 0 | x)`` under the matching prior for each row of ``x`` (Eq. 9).

    Parameters
    ----------
    x : numpy.ndarray, shape (q, n)
        Fold differences of ``q`` data sets, as fractions, already checked.
    rho : float or numpy.ndarray of shape (q,)
        The correlation, one for all data sets or one per data set.
    size : float or numpy.ndarray of shape (q,), default 1.0
        The size of the scores of each data set, for the rounding tolerance of a constant
        data set's point mass at 0 (:func:`_t_tail`).

    Returns
    -------
    numpy.ndarray, shape (q,)
        The posterior probability that each data set's mean difference is positive, which
        is ``1 - p`` of the one-sided correlated t-test (Corani & Benavoli 2015, Eq. 9).
    """
    df, loc, scale = _normal_gamma_posterior(x, rho, MATCHING_PRIOR)
    return _t_tail(0.0, df, loc, scale, upper=True, size=size)


@dataclass(frozen=True)
class CorrelatedTPosterior(BayesianDecisionMixin):
    """Posterior of the mean difference from :func:`bayesian_correlated_ttest`.

    The posterior is ``St(df, loc, scale_)``, a Student t with ``df`` degrees of freedom,
    location ``loc`` and scale ``scale_``; when the differences have zero variance and
    the prior adds none (``scale_ == 0``), it is the limit of that family, a point mass at
    ``loc`` whose CDF equals 1/2 at ``loc`` itself.

    Attributes
    ----------
    df, loc, scale_ : float
        Parameters of the Student-t posterior (``scale_`` is a scale, not a variance).
    rope : tuple of float
        Region of practical equivalence ``(low, high)``, fraction scale.
    p_left, p_rope, p_right : float
        Posterior probabilities of ``mu < low``, ``low < mu < high`` and ``mu > high``: the
        first learner is practically worse, practically equivalent or practically better.
    p_positive : float
        ``P(mu > 0 | x)``, the probability that the first learner is better; equals
        ``1 - p`` of the one-sided frequentist correlated t-test under the matching prior.
    n : int
        Number of differences.
    rho : float
        The correlation used.
    prior : NormalGammaPrior
        The prior used.
    score_size : float
        The size of the scores the differences come from, for the rounding tolerance at a
        point mass (:func:`_t_tail`).
    """

    df: float
    loc: float
    scale_: float
    rope: tuple[float, float]
    p_left: float
    p_rope: float
    p_right: float
    p_positive: float
    n: int
    rho: float
    prior: NormalGammaPrior = field(repr=False)
    score_size: float = field(default=1.0, repr=False)

    @property
    def is_point_mass(self) -> bool:
        """True when the posterior has degenerated to a point mass at ``loc``."""
        return self.scale_ == 0

    @property
    def distribution(self):
        """The posterior as a frozen :data:`scipy.stats.t` distribution.

        Raises
        ------
        ValueError
            If the posterior is a point mass (zero variance and no prior variance).
        """
        if self.is_point_mass:
            raise ValueError(
                f"the posterior is a point mass at {self.loc} (the differences have zero "
                "variance), not a Student t distribution"
            )
        return stats.t(self.df, loc=self.loc, scale=self.scale_)

    def cdf(self, value: float) -> float:
        """Posterior probability ``P(mu <= value | x)`` (point mass: 1/2 at ``loc``).

        Parameters
        ----------
        value : float
            A mean difference, on the scale of the posterior (fractions, or the score's
            unit for ``scale="raw"``); ``-inf`` and ``inf`` included.

        Returns
        -------
        float
            The probability, in [0, 1].

        Raises
        ------
        TypeError
            If ``value`` is not a real number (booleans and strings included).
        ValueError
            If ``value`` is NaN.
        """
        value = check_real(value, "value")
        if math.isnan(value):
            raise ValueError("value: expected a real number (inf allowed), got nan")
        return float(
            _t_tail(value, self.df, self.loc, self.scale_, upper=False, size=self.score_size)
        )

    def sample(self, n_samples: int, rng: RngLike) -> np.ndarray:
        """Draw ``n_samples`` values of the mean difference from the posterior.

        Parameters
        ----------
        n_samples : int
            Number of draws, ``>= 1``.
        rng : int, numpy.random.SeedSequence or numpy.random.Generator
            Source of randomness.

        Returns
        -------
        numpy.ndarray, shape (n_samples,)
            Draws of ``mu``; all equal to ``loc`` for a point mass.

        Raises
        ------
        TypeError, ValueError
            If ``n_samples`` is not an integer >= 1 or ``rng`` is not a seed, seed sequence
            or generator.
        """
        n_samples = check_int(n_samples, "n_samples", minimum=1)
        gen = as_generator(rng)
        if self.is_point_mass:
            return np.full(n_samples, self.loc)
        return self.loc + self.scale_ * gen.standard_t(self.df, size=n_samples)


def bayesian_correlated_ttest(
    x: object,
    *,
    rho: float,
    rope: tuple[float, float] | None = None,
    prior: Literal["matching"] | NormalGammaPrior = "matching",
    scale: str = "fraction",
    score_size: float | None = None,
) -> CorrelatedTPosterior:
    """Bayesian correlated t-test on the cross-validation differences of two learners.

    The differences are modelled as ``x = 1 mu + v`` with ``v ~ MVN(0, sigma^2 M)``,
    ``M`` the intraclass correlation matrix with correlation ``rho``; with a Normal-Gamma
    prior the posterior of ``mu`` is a Student t (Theorem 2). Under the matching prior it
    is ``St(n - 1, xbar, (1/n + rho/(1-rho)) s^2)`` (Corollary 1, Eq. 8).

    Parameters
    ----------
    x : array_like, shape (n,)
        Differences of the scores (first learner minus second) on the ``n = m k`` test
        folds; at least two.
    rho : float
        Correlation heuristic ``n_test / n_total``, in [0, 1).
    rope : tuple of float, optional
        Region of practical equivalence ``(low, high)`` with ``low <= 0 <= high``, on the
        fraction scale for accuracies (by default ``(-0.01, 0.01)``, one accuracy point;
        ends of magnitude 1 or more are refused as percentages), in the score's unit when
        ``scale="raw"``, where it must be given.
    prior : "matching" or NormalGammaPrior
        ``"matching"`` (the default) is ``NormalGammaPrior(0, inf, -1/2, 0)``.
    scale : {"fraction", "percent", "raw"}
        Scale of ``x``; percentages are divided by 100; ``"raw"``: any score in its own
        unit.
    score_size : float, optional
        The largest magnitude of the scores the differences come from, in the unit the test
        takes them in (fractions for accuracies), which sets their rounding tolerance: the
        differences constant within it are constant, and a point mass within it of a rope's
        end lies on it. By default 1, or the largest ``|x|`` where larger; scores of other
        sizes (an RMSE of 1e4, or of 1e-12) give theirs
        (:func:`cvcompare.io.pair_score_sizes`).

    Returns
    -------
    CorrelatedTPosterior

    Notes
    -----
    Zero variance of the differences under a prior with ``b = 0`` and ``k0 = inf`` (such
    as the matching prior) gives a point-mass posterior at the mean: the probabilities
    are the limits of the Student-t ones as the variance shrinks to zero, i.e. 0 or 1 by
    where the mean falls, and 1/2 on each side when the mean lies exactly on a boundary
    (so ``p_positive = 0.5`` when all differences are zero, as ``1 - p`` of Corollary 1).

    References
    ----------
    Corani & Benavoli (2015), Theorem 2 (Eq. 7), Corollary 1 (Eqs. 8-9).

    Examples
    --------
    >>> post = bayesian_correlated_ttest([0.01, 0.02, 0.0, 0.03, 0.01], rho=0.2)
    >>> round(post.p_positive, 4)
    0.9294
    >>> post.decision()
    'none'
    """
    arr, size = _check_differences(x, scale, score_size)
    rho = check_rho(rho)
    low, high = check_scaled_rope(rope, scale)
    if isinstance(prior, str) and prior == "matching":
        prior = MATCHING_PRIOR
    elif not isinstance(prior, NormalGammaPrior):
        raise TypeError(f"prior: expected 'matching' or a NormalGammaPrior, got {prior!r}")
    df, loc, t_scale = (float(v) for v in _normal_gamma_posterior(arr, rho, prior))
    p_left = float(_t_tail(low, df, loc, t_scale, upper=False, size=size))
    p_right = float(_t_tail(high, df, loc, t_scale, upper=True, size=size))
    p_rope = max(0.0, float(_t_tail(high, df, loc, t_scale, upper=False, size=size)) - p_left)
    return CorrelatedTPosterior(
        df=df,
        loc=loc,
        scale_=t_scale,
        rope=(low, high),
        p_left=p_left,
        p_rope=p_rope,
        p_right=p_right,
        p_positive=float(_t_tail(0.0, df, loc, t_scale, upper=True, size=size)),
        n=arr.size,
        rho=rho,
        prior=prior,
        score_size=size,
    )
