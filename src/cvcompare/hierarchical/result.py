"""Result of a fit of the hierarchical model and the inference on the next data set.

References
----------
Corani, G., Benavoli, A., Demsar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837, Sec. 3.2 (next data set), Sec. 3.3 (shrinkage), Sec. 4.6 (posterior odds).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from scipy import optimize, special, stats

from cvcompare._validation import check_array, check_choice, check_probability
from cvcompare.stats._results import BayesianDecisionMixin, ReadOnlyArrays, region_counts
from cvcompare.stats.odds import posterior_odds as _odds

from .diagnostics import HierarchicalDiagnostics, mcse_probability

__all__ = ["HierarchicalResult", "next_dataset_probs", "next_dataset_votes"]

Region = Literal["left", "rope", "right"]
_REGIONS: tuple[Region, Region, Region] = ("left", "rope", "right")


def _cdf(z: np.ndarray, nu: np.ndarray) -> np.ndarray:
    """Standard Student-t cdf with ``nu`` degrees of freedom; the normal cdf where nu = inf."""
    finite = np.isfinite(nu)
    out = special.ndtr(z)
    out[finite] = special.stdtr(nu[finite], z[finite])
    return out


def _pdf(z: np.ndarray, nu: np.ndarray) -> np.ndarray:
    """Standard Student-t density with ``nu`` degrees of freedom; the normal where nu = inf."""
    finite = np.isfinite(nu)
    return np.where(finite, stats.t.pdf(z, np.where(finite, nu, 1.0)), stats.norm.pdf(z))


def next_dataset_votes(
    delta0: np.ndarray, sigma0: np.ndarray, nu: np.ndarray, rope: tuple[float, float]
) -> np.ndarray:
    """The region each posterior draw votes for as the most probable one for the next delta.

    For every posterior draw ``(delta0, sigma0, nu)`` the masses of ``t(nu, delta0, sigma0)``
    left of, inside and right of the rope are computed; the region with the largest mass
    (ties to the first of left, rope, right) gets the draw's vote.

    Parameters
    ----------
    delta0, sigma0, nu : numpy.ndarray, shape (draws,)
        Posterior draws; ``nu = inf`` means a Gaussian top level.
    rope : tuple of float
        ``(low, high)`` on the scale of ``delta0``.

    Returns
    -------
    numpy.ndarray of int, shape (draws,)
        0 (left), 1 (rope) or 2 (right) for each draw, in the order of the draws, so that
        the Monte Carlo error of a share of votes can be estimated from the chains
        (:func:`cvcompare.hierarchical.diagnostics.mcse_probability`).

    References
    ----------
    Corani et al. (2017), Sec. 3.2, steps 1-3.
    """
    low = _cdf((rope[0] - delta0) / sigma0, nu)
    high = _cdf((rope[1] - delta0) / sigma0, nu)
    return np.argmax(np.stack([low, high - low, 1.0 - high]), axis=0)


def next_dataset_probs(
    delta0: np.ndarray, sigma0: np.ndarray, nu: np.ndarray, rope: tuple[float, float]
) -> tuple[float, float, float]:
    """Probabilities that left / rope / right is the most probable region for the next delta.

    The next-data-set predictive: each posterior draw votes for the region in which its
    ``t(nu, delta0, sigma0)``, the distribution of the mean difference ``delta`` on a data
    set not yet seen, puts the most mass (:func:`next_dataset_votes`); the probabilities
    are the shares of the votes.

    Parameters
    ----------
    delta0, sigma0, nu : numpy.ndarray, shape (draws,)
        Posterior draws; ``nu = inf`` means a Gaussian top level.
    rope : tuple of float
        ``(low, high)`` on the scale of ``delta0``.

    Returns
    -------
    tuple of float
        ``(p_left, p_rope, p_right)``, summing to one.

    References
    ----------
    Corani et al. (2017), Sec. 3.2 (the next data set).
    """
    votes = np.bincount(next_dataset_votes(delta0, sigma0, nu, rope), minlength=3) / delta0.size
    return float(votes[0]), float(votes[1]), float(votes[2])


def _region_shares(draws: np.ndarray, rope: tuple[float, float]) -> np.ndarray:
    """Shares of the draws (rows) of each column left of, inside and right of the rope,
    shape ``(columns, 3)`` (:func:`cvcompare.stats._results.region_counts`)."""
    return (region_counts(draws, rope) / len(draws)).T


@dataclass(frozen=True, eq=False)
class HierarchicalResult(BayesianDecisionMixin, ReadOnlyArrays):
    """Posterior of the hierarchical model, on the original scale of the differences.

    Attributes
    ----------
    delta0, sigma0, nu : numpy.ndarray, shape (draws,)
        Draws of the top-level location, scale and degrees of freedom (``nu`` is ``inf``
        for the Gaussian top level). Draws of all chains, chain after chain.
    delta, sigma : numpy.ndarray, shape (draws, q)
        Draws of each data set's mean difference and standard deviation.
    p_left, p_rope, p_right : float
        Probabilities that left / rope / right is the most probable region for the
        difference on the next data set (:func:`next_dataset_probs`).
    rope : tuple of float
        The rope used, on the original scale.
    rho : float
        Correlation between fold differences assumed by the likelihood.
    divisor : float
        What the differences were divided by before fitting (the mean per-data-set
        standard deviation); the draws are multiplied back by it.
    nu_prior, top_level, runner : str
        The model variant and the Stan interface that ran it.
    runner_version : str
        Versions of Stan and of that interface (e.g. ``"Stan 2.35.0, httpstan 4.13.0"``).
    chains : int
        Number of chains; ``delta0.size // chains`` draws each.
    noisy : tuple of int
        Data sets that had zero variance and received noise before fitting.
    diagnostics : HierarchicalDiagnostics
        Convergence checks of the fit.
    """

    delta0: np.ndarray = field(repr=False)
    sigma0: np.ndarray = field(repr=False)
    nu: np.ndarray = field(repr=False)
    delta: np.ndarray = field(repr=False)
    sigma: np.ndarray = field(repr=False)
    p_left: float
    p_rope: float
    p_right: float
    rope: tuple[float, float]
    rho: float
    divisor: float
    nu_prior: str
    top_level: str
    runner: str
    runner_version: str
    chains: int
    noisy: tuple[int, ...]
    diagnostics: HierarchicalDiagnostics

    def probs(self) -> tuple[float, float, float]:
        """Return ``(p_left, p_rope, p_right)``: for each region, the share of posterior
        draws in which it is the most probable one for the difference on the next data set.

        These are the probabilities of Sec. 3.2 that the decisions use
        (:func:`next_dataset_votes`): how sure the posterior is of which region the next
        data set's difference most probably falls in, not the probability that it falls
        there. That probability, the predictive mass of each region, is
        :attr:`next_dataset_masses`, and is much less extreme (a ``p_right`` near 1 may
        come with a probability of about 0.6 that the next difference is right of the rope).

        Returns
        -------
        tuple of float
            The shares of the draws voting for left (the first learner practically worse),
            rope (practically equivalent) and right (practically better), summing to one.
        """
        return super().probs()

    @property
    def next_dataset_masses(self) -> tuple[float, float, float]:
        """Posterior predictive probabilities that the difference on the next data set lies
        left of, inside and right of the rope.

        The masses of the predictive distribution of :meth:`next_dataset_cdf` (the average
        of the draws' ``t(nu, delta0, sigma0)``) below ``low``, between the ends and above
        ``high``; not the probabilities :meth:`probs` decides on, which are the shares of
        draws in which each region has the largest of these masses (Corani et al. 2017,
        Sec. 3.2).
        """
        below, up_to = self.next_dataset_cdf(list(self.rope))
        return float(below), float(up_to - below), float(1.0 - up_to)

    def probs_se(self) -> tuple[float, float, float]:
        """Monte Carlo standard errors of ``(p_left, p_rope, p_right)``.

        Each probability is a share of the draws' votes (:func:`next_dataset_votes`); its
        standard error is ``sqrt(p (1 - p) / ESS)`` with the effective sample size of the
        vote indicator over the chains (:func:`~.diagnostics.mcse_probability`).

        Returns
        -------
        tuple of float
            The standard errors of ``p_left``, ``p_rope`` and ``p_right``, in the order of
            :meth:`probs`.
        """
        votes = next_dataset_votes(self.delta0, self.sigma0, self.nu, self.rope)
        chains = votes.reshape(self.chains, -1)
        return tuple(mcse_probability(chains == region) for region in range(3))

    @property
    def per_dataset_probs(self) -> np.ndarray:
        """Posterior probabilities of ``delta_i < low``, ``low <= delta_i <= high`` and
        ``delta_i > high`` for each data set, shape ``(q, 3)``."""
        return _region_shares(self.delta, self.rope)

    @property
    def delta0_probs(self) -> tuple[float, float, float]:
        """Posterior probabilities of ``delta0 < low``, ``low <= delta0 <= high`` and
        ``delta0 > high``: where the mean difference of the population of data sets lies.

        The paper's simulations of equivalent classifiers (Corani et al. 2017, Sec. 4.2-4.4,
        Figs. 2-5) report these probabilities of ``delta0`` (the authors' simulation code
        records them), while Sec. 3.2 and the real-data analyses use the next-data-set
        probabilities of :meth:`probs`.
        """
        left, rope, right = _region_shares(self.delta0[:, None], self.rope)[0]
        return float(left), float(rope), float(right)

    @property
    def shrinkage(self) -> np.ndarray:
        """Posterior mean of each ``delta_i``: the shrinkage estimate, shape ``(q,)``.

        References
        ----------
        Corani et al. (2017), Sec. 3.3, Eq. (8).
        """
        return self.delta.mean(axis=0)

    def shrinkage_interval(self, level: float = 0.95) -> np.ndarray:
        """Central credible interval of each ``delta_i``, shape ``(q, 2)``.

        Parameters
        ----------
        level : float, default 0.95
            Posterior probability inside the interval, in (0, 1).

        Returns
        -------
        numpy.ndarray, shape (q, 2)
            The ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of the draws of each
            ``delta_i``, on the original scale of the differences.

        Raises
        ------
        TypeError, ValueError
            If ``level`` is not a number in (0, 1).
        """
        level = check_probability(level, "level")
        tails = [(1.0 - level) / 2.0, (1.0 + level) / 2.0]
        return np.quantile(self.delta, tails, axis=0).T

    def _standardised(self, grid: object) -> tuple[np.ndarray, np.ndarray]:
        """``(grid - delta0) / sigma0`` for every draw (rows) and point, and each row's nu."""
        x = check_array(grid, "grid", ndim=1, min_size=1, axis_names=("points",))
        z = (x[None, :] - self.delta0[:, None]) / self.sigma0[:, None]
        return z, np.broadcast_to(self.nu[:, None], z.shape)

    def next_dataset_density(self, grid: object) -> np.ndarray:
        """Posterior predictive density of the difference on the next data set.

        The average over the posterior draws of the Student-t density ``t(nu, delta0,
        sigma0)`` (normal where ``nu = inf``) at each point of ``grid``: the distribution
        whose masses left of, inside and right of the rope Sec. 3.2 compares.

        Parameters
        ----------
        grid : array_like, shape (m,)
            Points on the scale of the differences.

        Returns
        -------
        numpy.ndarray, shape (m,)
            The density at each point of ``grid``.

        Raises
        ------
        TypeError, ValueError
            If ``grid`` is not a non-empty 1-D array of finite real numbers.
        """
        z, nu = self._standardised(grid)
        return (_pdf(z, nu) / self.sigma0[:, None]).mean(axis=0)

    def next_dataset_cdf(self, grid: object) -> np.ndarray:
        """Posterior predictive distribution function of the difference on the next data set.

        The average over the posterior draws of the Student-t cdf of ``t(nu, delta0,
        sigma0)`` (normal where ``nu = inf``): the integral of :meth:`next_dataset_density`.

        Parameters
        ----------
        grid : array_like, shape (m,)
            Points on the scale of the differences.

        Returns
        -------
        numpy.ndarray, shape (m,)
            The probability that the difference is at most each point of ``grid``.

        Raises
        ------
        TypeError, ValueError
            If ``grid`` is not a non-empty 1-D array of finite real numbers.
        """
        return _cdf(*self._standardised(grid)).mean(axis=0)

    def next_dataset_quantile(self, level: float) -> float:
        """A quantile of the posterior predictive difference on the next data set.

        The predictive is the mixture of the draws' ``t(nu, delta0, sigma0)``; its quantile
        lies between the smallest and the largest of theirs, where it is found by root
        finding on :meth:`next_dataset_cdf`.

        Parameters
        ----------
        level : float
            Probability in (0, 1).

        Returns
        -------
        float
            The difference ``v`` with ``next_dataset_cdf([v]) = level`` (to within
            ``1e-9`` of the span of the draws' quantiles), on the scale of the differences.

        Raises
        ------
        TypeError, ValueError
            If ``level`` is not a number in (0, 1).
        """
        level = check_probability(level, "level")
        finite = np.isfinite(self.nu)
        standard = np.where(
            finite, stats.t.ppf(level, np.where(finite, self.nu, 1.0)), stats.norm.ppf(level)
        )
        each = self.delta0 + self.sigma0 * standard
        low, high = float(each.min()), float(each.max())
        if low == high:
            return low
        return float(
            optimize.brentq(
                lambda v: self.next_dataset_cdf([v])[0] - level, low, high, xtol=1e-9 * (high - low)
            )
        )

    def posterior_odds(self, a: Region, b: Region) -> float:
        """Posterior odds ``o(a, b) = P(a) / P(b)`` of two regions for the next data set.

        Parameters
        ----------
        a, b : {"left", "rope", "right"}
            The regions compared (``"right"``: the first learner practically better).

        Returns
        -------
        float
            ``inf`` when ``P(b) = 0 < P(a)``; ``1.0`` when both are zero.

        Raises
        ------
        ValueError
            If ``a`` or ``b`` is not one of the three regions.

        References
        ----------
        Corani et al. (2017), Sec. 4.6 and Table 3.
        """
        probs = dict(zip(_REGIONS, self.probs(), strict=True))
        for name, value in (("a", a), ("b", b)):
            check_choice(value, name, _REGIONS)
        return _odds(probs[a], probs[b])
