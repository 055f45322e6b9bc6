"""Sign tests of two learners over multiple data sets.

:func:`sign_test` is the frequentist sign test: a binomial test on the signs of the
per-data-set mean differences (Demsar, 2006, Sec. 3.1.4). :func:`bayesian_sign_test` is the
Bayesian sign test with a region of practical equivalence (rope), described below.

Each data set's mean difference (first learner minus second) falls left of the rope (the
second learner is practically better there), inside it, or right of it (the first learner is
practically better). With a Dirichlet prior on the probabilities ``theta = (theta_left,
theta_rope, theta_right)`` of the three regions, the posterior is
``Dir(n_left + a_left, n_rope + a_rope, n_right + a_right)``, where the prior puts
``prior_strength`` pseudo-observations in one region (the rope, by default) and ``1e-4`` in
each region, as baycomp's ``SignTest`` does. The test reports the posterior probability that
each region is the most probable one.

Those probabilities are computed exactly (up to quadrature error, below 1e-12) from the
Gamma representation of the Dirichlet distribution: with independent
``G_k ~ Gamma(alpha_k)``, ``theta = G / sum(G)``, so ``theta_k`` is the largest exactly when
``G_k`` is, and ``P(G_k is the largest) = E[prod_{j != k} F_j(G_k)]``, a one-dimensional integral
(``F_j`` the Gamma CDFs). Posterior draws of ``theta`` are returned for the simplex plot.

References
----------
Benavoli, A., Corani, G., Demsar, J. & Zaffalon, M. (2017). Time for a change: a tutorial for
comparing multiple classifiers through Bayesian analysis. JMLR 18(77), Sec. 5 (Bayesian sign
and signed-rank tests with a rope). Benavoli et al. (2014), ICML, Sec. 2 (the Dirichlet
process prior, of which the sign test is the three-category case).

Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7:1-30,
Sec. 3.1.4 (the sign test).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy import integrate, special, stats

from cvcompare._validation import (
    check_array,
    check_choice,
    check_data_set_differences,
    check_int,
    check_positive,
    check_scaled_rope,
)
from cvcompare.seeding import RngLike, as_generator
from cvcompare.stats._results import BayesianDecisionMixin, ReadOnlyArrays, region_counts

__all__ = [
    "MAX_CONCENTRATION",
    "SignPosterior",
    "SignTestResult",
    "bayesian_sign_test",
    "dirichlet_max_probs",
    "sign_test",
]

#: Pseudo-count added to every region, as in baycomp (keeps every Dirichlet shape positive).
_BASE_COUNT = 1e-4
#: Largest concentration parameter that :func:`dirichlet_max_probs` takes: up to it the
#: probabilities sum to one within 1e-10; at 1e6 the quadrature misses the integrand's peak.
MAX_CONCENTRATION = 1e4
_REGIONS = ("left", "rope", "right")

Alternative = Literal["two-sided", "greater", "less"]
_ALTERNATIVES = ("two-sided", "greater", "less")


# --------------------------------------------------------------------------------------------
# frequentist test
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SignTestResult:
    """Result of :func:`sign_test`.

    Attributes
    ----------
    statistic : float
        Number of wins of the first learner counted by the test (``n_positive``, plus half the
        ties under ``zero_method="split"``).
    pvalue : float
        Binomial p-value; 1 when no trial is left (every difference zero and dropped).
    n_trials : int
        Number of Bernoulli trials of the binomial test.
    n_positive, n_negative, n_zero : int
        Counts of positive, negative and zero differences.
    alternative, zero_method : str
        The options the test was run with.
    """

    statistic: float
    pvalue: float
    n_trials: int
    n_positive: int
    n_negative: int
    n_zero: int
    alternative: str
    zero_method: str

    @property
    def side(self) -> int:
        """The side the counts weigh towards: 1 where the first learner wins more often, -1
        where the second does, 0 at a balance; a two-sided rejection speaks for it."""
        return int(np.sign(self.n_positive - self.n_negative))


def sign_test(
    x: object,
    *,
    alternative: Alternative = "two-sided",
    zero_method: Literal["drop", "split"] = "drop",
    scale: Literal["fraction", "percent", "raw"] = "fraction",
) -> SignTestResult:
    """Sign test: a binomial test with success probability 1/2 on the signs of ``x``.

    Parameters
    ----------
    x : array_like, shape (q,)
        Mean difference of the scores (first learner minus second) on each data set.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: positive differences are more likely than negative ones.
    zero_method : {"drop", "split"}
        ``"drop"`` ignores zero differences. ``"split"`` gives half of them to each learner,
        ignoring one if their number is odd (Demsar, 2006, Sec. 3.1.4).
    scale : {"fraction", "percent", "raw"}
        Scale of ``x`` (checked only: signs do not depend on it); ``"raw"`` accepts any real
        numbers.

    Returns
    -------
    SignTestResult

    References
    ----------
    Demsar (2006), Sec. 3.1.4; the binomial test is :func:`scipy.stats.binomtest`.

    Examples
    --------
    >>> res = sign_test([0.01, 0.02, 0.01, -0.03, 0.02, 0.01, 0.04, 0.02])
    >>> round(res.pvalue, 4)
    0.0703
    """
    z = check_data_set_differences(x, scale)
    alternative = check_choice(alternative, "alternative", _ALTERNATIVES)
    zero_method = check_choice(zero_method, "zero_method", ("drop", "split"))
    n_pos, n_neg = int(np.sum(z > 0)), int(np.sum(z < 0))
    n_zero = int(z.size) - n_pos - n_neg
    wins, trials = n_pos, n_pos + n_neg
    if zero_method == "split":
        wins += n_zero // 2
        trials += 2 * (n_zero // 2)
    pvalue = (
        1.0
        if trials == 0
        else float(stats.binomtest(wins, trials, 0.5, alternative=alternative).pvalue)
    )
    return SignTestResult(
        statistic=float(wins),
        pvalue=pvalue,
        n_trials=trials,
        n_positive=n_pos,
        n_negative=n_neg,
        n_zero=n_zero,
        alternative=alternative,
        zero_method=zero_method,
    )


# --------------------------------------------------------------------------------------------
# Bayesian test
# --------------------------------------------------------------------------------------------


def dirichlet_max_probs(alpha: object) -> tuple[float, ...]:
    """Probability that each component of ``theta ~ Dir(alpha)`` is the largest.

    Parameters
    ----------
    alpha : array_like, shape (k,)
        Positive concentration parameters, ``k >= 2``, at most :data:`MAX_CONCENTRATION`
        (1e4).

    Returns
    -------
    tuple of float
        ``P(theta_i > theta_j for every j != i)``, each in [0, 1], summing to one (ties
        have probability zero).

    Notes
    -----
    ``theta_i`` is the largest exactly when the Gamma variable ``G_i`` behind it is, so the
    probability is ``int f_i(g) prod_{j != i} F_j(g) dg``, computed by adaptive quadrature in
    ``t = log g`` (smooth there even for shapes as small as 1e-4); the values sum to one
    within 1e-10 for shapes up to :data:`MAX_CONCENTRATION`. Larger shapes are refused: the
    integrand's peak, of width about ``1 / sqrt(alpha_i)`` in ``t``, becomes too narrow for
    the quadrature (at 1e6 it is missed, and the values sum to about 1/2). A value that the
    quadrature's error puts above 1 (by about 1e-13, where one component holds nearly all the
    mass, e.g. every data set in the rope) is returned as 1.

    References
    ----------
    Benavoli, Corani, Demsar & Zaffalon (2017), Sec. 5: the probabilities that left, rope
    and right is the most probable region under the Dirichlet posterior of the Bayesian
    sign test.

    Examples
    --------
    >>> [round(p, 6) for p in dirichlet_max_probs([2.0, 2.0, 2.0])]
    [0.333333, 0.333333, 0.333333]
    """
    a = check_array(alpha, "alpha", ndim=1, min_size=2, axis_names=("components",))
    if np.any(a <= 0):
        raise ValueError(f"alpha: concentration parameters must be positive, got {a.tolist()}")
    if np.any(a > MAX_CONCENTRATION):
        raise ValueError(
            f"alpha: concentration parameters must be at most {MAX_CONCENTRATION:g} (the "
            f"quadrature loses its accuracy beyond), got {a.tolist()}"
        )
    total = float(a.sum())
    # the integrand of component i is exp(a_i t - e^t) / Gamma(a_i) prod_j F_j(e^t) in
    # t = log g; below t_lo it is under exp(t sum(a)) <= exp(-80), above t_hi the Gamma tails
    # are negligible
    t_lo = max(-745.0, -80.0 / total)
    t_hi = float(np.log(a.max() + 60.0 * np.sqrt(a.max()) + 60.0))
    breaks = sorted(set(np.clip(np.log(np.maximum(a, 1e-3)), t_lo, t_hi).tolist()))
    probs = []
    for i in range(a.size):
        others = np.delete(a, i)

        def integrand(t: float, i: int = i, others: np.ndarray = others) -> float:
            g = np.exp(t)
            density = np.exp(a[i] * t - g - special.gammaln(a[i]))
            return float(density * np.prod(special.gammainc(others, g)))

        value, _ = integrate.quad(
            integrand, t_lo, t_hi, points=breaks, epsabs=1e-14, epsrel=1e-12, limit=500
        )
        probs.append(min(max(value, 0.0), 1.0))
    return tuple(probs)


@dataclass(frozen=True)
class SignPosterior(BayesianDecisionMixin, ReadOnlyArrays):
    """Posterior of :func:`bayesian_sign_test`.

    Attributes
    ----------
    p_left, p_rope, p_right : float
        Exact posterior probabilities that ``theta_left``, ``theta_rope`` or ``theta_right``
        is the largest: the first learner is practically worse, practically equivalent or
        practically better than the second on a randomly drawn data set.
    counts : tuple of int
        Numbers of data sets left of, inside and right of the rope.
    alpha : tuple of float
        Dirichlet parameters of the posterior.
    rope : tuple of float
        The rope, in the unit of the differences.
    prior_strength : float
        Pseudo-observations of the prior.
    prior_place : {"left", "rope", "right"}
        Region holding them.
    draws : numpy.ndarray, shape (n_samples, 3)
        Posterior draws of ``(theta_left, theta_rope, theta_right)``, for plots.
    """

    p_left: float
    p_rope: float
    p_right: float
    counts: tuple[int, int, int]
    alpha: tuple[float, float, float]
    rope: tuple[float, float]
    prior_strength: float
    prior_place: str
    draws: np.ndarray = field(repr=False, compare=False)

    @property
    def mean_theta(self) -> tuple[float, float, float]:
        """Posterior means ``alpha / sum(alpha)`` of the three region probabilities."""
        total = sum(self.alpha)
        return tuple(a / total for a in self.alpha)  # type: ignore[return-value]


def bayesian_sign_test(
    x: object,
    *,
    rope: tuple[float, float] | None = None,
    prior_strength: float = 1.0,
    prior_place: Literal["left", "rope", "right"] = "rope",
    n_samples: int = 50_000,
    rng: RngLike,
    scale: Literal["fraction", "percent", "raw"] = "fraction",
) -> SignPosterior:
    """Bayesian sign test with a rope on per-data-set mean differences.

    Parameters
    ----------
    x : array_like, shape (q,)
        Mean difference of the scores (first learner minus second) on each data set.
    rope : tuple of float, optional
        ``(low, high)`` with ``low <= 0 <= high``. A difference below ``low`` counts left,
        above ``high`` right, anything else (ends included) inside. On the fraction scale
        (also with ``scale="percent"``; by default ``(-0.01, 0.01)``), or in the unit of
        ``x`` when ``scale="raw"``, where it must be given.
    prior_strength : float
        Number of pseudo-observations of the prior (baycomp: 1); with the data sets of its
        region at most ``MAX_CONCENTRATION`` (1e4), the largest Dirichlet parameter whose
        probabilities are computed accurately.
    prior_place : {"left", "rope", "right"}
        Region that receives them (baycomp: the rope).
    n_samples : int
        Number of posterior draws kept for plots (the probabilities do not depend on them).
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness of the draws.
    scale : {"fraction", "percent", "raw"}
        Scale of ``x``: fractions in [-1, 1], percentages, or any real numbers.

    Returns
    -------
    SignPosterior

    References
    ----------
    Benavoli, Corani, Demsar & Zaffalon (2017), Sec. 5; baycomp's ``SignTest`` (the prior).

    Examples
    --------
    >>> post = bayesian_sign_test([0.03, 0.02, 0.05, 0.04, -0.02, 0.03], rng=1)
    >>> post.counts, round(post.p_right, 3)
    ((1, 0, 5), 0.942)
    """
    z = check_data_set_differences(x, scale)
    low, high = check_scaled_rope(rope, scale)
    s = check_positive(prior_strength, "prior_strength")
    place = check_choice(prior_place, "prior_place", _REGIONS)
    n_samples = check_int(n_samples, "n_samples", minimum=1)
    gen = as_generator(rng)
    counts = tuple(int(c) for c in region_counts(z, (low, high)))
    alpha = np.asarray(counts, dtype=float) + _BASE_COUNT
    alpha[_REGIONS.index(place)] += s
    if alpha.max() > MAX_CONCENTRATION:
        if s > alpha.max() / 2:
            name, advice = "prior_strength", "use a prior of a few pseudo-observations"
        else:
            name, advice = "x", f"a region holds more than {MAX_CONCENTRATION:g} data sets"
        raise ValueError(
            f"{name}: the posterior's Dirichlet parameters {alpha.tolist()} exceed "
            f"{MAX_CONCENTRATION:g}, beyond which their probabilities cannot be computed "
            f"accurately ({advice})"
        )
    p_left, p_rope, p_right = dirichlet_max_probs(alpha)
    return SignPosterior(
        p_left=p_left,
        p_rope=p_rope,
        p_right=p_right,
        counts=counts,
        alpha=tuple(float(a) for a in alpha),  # type: ignore[arg-type]
        rope=(low, high),
        prior_strength=s,
        prior_place=place,
        draws=gen.dirichlet(alpha, n_samples),
    )
