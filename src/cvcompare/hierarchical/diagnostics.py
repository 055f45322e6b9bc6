"""Convergence diagnostics of Markov chains: rank-normalised split R-hat, bulk and tail ESS.

The estimators follow Vehtari, Gelman, Simpson, Carpenter & Buerkner (2021): chains are
split in halves, draws are rank-normalised, and the effective sample size uses Geyer's
initial monotone sequence on the multi-chain autocorrelation estimate (Stan's estimator).
E-BFMI (Betancourt 2016) is computed per chain from the Hamiltonian energy.

References
----------
Vehtari, A., Gelman, A., Simpson, D., Carpenter, B. & Buerkner, P.-C. (2021). Rank-
normalization, folding, and localization: an improved R-hat for assessing convergence of
MCMC. Bayesian Analysis 16(2), 667-718, Eqs. (3)-(4), (10)-(12) and Sec. 4.3.

Betancourt, M. (2016). Diagnosing suboptimal cotangent disintegrations in Hamiltonian Monte
Carlo. arXiv:1604.00695, Eq. (5).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from cvcompare._validation import check_array

__all__ = [
    "ConvergenceWarning",
    "PASS_RULE",
    "HierarchicalDiagnostics",
    "ebfmi",
    "ess_bulk",
    "ess_tail",
    "mcse_probability",
    "rhat",
]

RHAT_MAX = 1.01
ESS_MIN = 400.0
EBFMI_MIN = 0.3


#: The rule a fit must pass, in words (:attr:`HierarchicalDiagnostics.ok`).
PASS_RULE = (
    f"R-hat < {RHAT_MAX:g}, bulk and tail ESS >= {ESS_MIN:g}, no divergent transition, no "
    f"tree-depth hit and E-BFMI >= {EBFMI_MIN:g} in every chain"
)


class ConvergenceWarning(UserWarning):
    """A Markov chain Monte Carlo fit failed a convergence diagnostic."""


def _chains(draws: object, name: str = "draws") -> np.ndarray:
    arr = check_array(draws, name, ndim=2, min_size=4, axis_names=("chains", "draws"))
    return arr


def _split(arr: np.ndarray) -> np.ndarray:
    """Split each chain in two halves (dropping the middle draw of odd-length chains)."""
    half = arr.shape[1] // 2
    return np.concatenate([arr[:, :half], arr[:, arr.shape[1] - half :]], axis=0)


def _rank_normalise(arr: np.ndarray) -> np.ndarray:
    """Normal scores of the pooled ranks (average ranks for ties), Vehtari et al. Eq. (14)."""
    ranks = stats.rankdata(arr, method="average").reshape(arr.shape)
    return special.ndtri((ranks - 0.375) / (arr.size + 0.25))


def _rhat_raw(arr: np.ndarray) -> float:
    """Potential scale reduction of (already split) chains, Vehtari et al. Eqs. (3)-(4)."""
    n = arr.shape[1]
    within = arr.var(axis=1, ddof=1).mean()
    between = n * arr.mean(axis=1).var(ddof=1)
    if within == 0:
        return 1.0 if between == 0 else np.inf
    var_plus = (n - 1) / n * within + between / n
    return float(np.sqrt(var_plus / within))


def _autocovariance(x: np.ndarray) -> np.ndarray:
    """Biased autocovariance of one chain at all lags, through the FFT."""
    n = x.size
    size = 1 << (2 * n - 1).bit_length()
    centred = x - x.mean()
    spectrum = np.fft.rfft(centred, size)
    return np.fft.irfft(spectrum * np.conj(spectrum), size)[:n] / n


def _ess_raw(arr: np.ndarray) -> float:
    """Effective sample size of (already split) chains, Vehtari et al. Eqs. (10)-(12).

    Multi-chain autocorrelation ``rho_t = 1 - (W - mean_m acov_m(t)) / var_plus``, Geyer's
    initial positive and monotone sequence, and Stan's cap ``tau >= 1 / log10(M N)``.
    """
    m, n = arr.shape
    acov = np.array([_autocovariance(chain) for chain in arr])
    chain_var = acov[:, 0] * n / (n - 1)
    within = chain_var.mean()
    var_plus = within * (n - 1) / n
    if m > 1:
        var_plus += arr.mean(axis=1).var(ddof=1)
    if var_plus == 0 or not np.isfinite(var_plus):
        return float(m * n)
    rho = 1.0 - (within - acov.mean(axis=0)) / var_plus
    rho[0] = 1.0
    # Geyer's initial positive sequence on sums of adjacent pairs
    n_pairs = n // 2
    pairs = rho[: 2 * n_pairs].reshape(n_pairs, 2).sum(axis=1)
    negative = np.flatnonzero(pairs <= 0)
    n_pos = int(negative[0]) if negative.size else n_pairs
    pairs = pairs[:n_pos]
    if n_pos == 0:
        return float(m * n)
    # initial monotone sequence
    pairs = np.minimum.accumulate(pairs)
    tau = -1.0 + 2.0 * pairs.sum()
    tau = max(tau, 1.0 / np.log10(m * n))
    return float(m * n / tau)


def rhat(draws: object) -> float:
    """Rank-normalised split R-hat of one quantity.

    Parameters
    ----------
    draws : array_like, shape (chains, draws)
        Post-warm-up draws; at least 4 draws per chain.

    Returns
    -------
    float
        ``max(R-hat of rank-normalised draws, R-hat of rank-normalised folded draws)``;
        values below 1.01 indicate convergence.

    References
    ----------
    Vehtari et al. (2021), Sec. 4.3 (rank normalisation and folding), Eqs. (3)-(4).
    """
    arr = _split(_chains(draws))
    bulk = _rhat_raw(_rank_normalise(arr))
    folded = np.abs(arr - np.median(arr))
    tail = _rhat_raw(_rank_normalise(folded))
    return max(bulk, tail)


def ess_bulk(draws: object) -> float:
    """Bulk effective sample size: ESS of the rank-normalised split chains.

    Parameters
    ----------
    draws : array_like, shape (chains, draws)
        Post-warm-up draws of one parameter.

    Returns
    -------
    float
        The effective number of draws, over all chains.

    References
    ----------
    Vehtari et al. (2021), Sec. 4.3 and Eqs. (10)-(12).
    """
    return _ess_raw(_rank_normalise(_split(_chains(draws))))


def ess_tail(draws: object) -> float:
    """Tail effective sample size: the smaller ESS of the 5% and 95% quantile indicators.

    Parameters
    ----------
    draws : array_like, shape (chains, draws)
        Post-warm-up draws of one parameter.

    Returns
    -------
    float
        The effective number of draws, over all chains.

    References
    ----------
    Vehtari et al. (2021), Sec. 4.3 ("tail-ESS").
    """
    arr = _split(_chains(draws))
    low, high = np.quantile(arr, [0.05, 0.95])
    return min(_ess_raw((arr <= low).astype(float)), _ess_raw((arr <= high).astype(float)))


def mcse_probability(indicator: object) -> float:
    """Monte Carlo standard error of a posterior probability estimated by a share of draws.

    ``sqrt(p (1 - p) / ESS)``, with ``p`` the share of true indicators and ``ESS`` the
    effective sample size of the indicator itself (split chains, Geyer's initial monotone
    sequence; not rank-normalised, since it is the mean of the indicator whose error is
    wanted). A share of 0 or 1 has standard error 0.

    Parameters
    ----------
    indicator : array_like of bool or {0, 1}, shape (chains, draws)
        Whether each post-warm-up draw lies in the event, e.g. a region's vote
        (:func:`cvcompare.hierarchical.next_dataset_votes`).

    Returns
    -------
    float
        The standard error of the share of true indicators.

    References
    ----------
    Vehtari et al. (2021), Sec. 4.3 (ESS and MCSE of a probability through its indicator).
    """
    arr = _chains(np.asarray(indicator, dtype=float), "indicator")
    if not np.all((arr == 0) | (arr == 1)):
        raise ValueError("indicator: expected booleans or 0/1 values")
    p = float(arr.mean())
    if p in (0.0, 1.0):
        return 0.0
    return float(np.sqrt(p * (1.0 - p) / _ess_raw(_split(arr))))


def ebfmi(energy: object) -> np.ndarray:
    """Estimated Bayesian fraction of missing information of each chain.

    Parameters
    ----------
    energy : array_like, shape (chains, draws)
        The Hamiltonian energy ``energy__`` of each post-warm-up iteration.

    Returns
    -------
    numpy.ndarray, shape (chains,)
        ``sum_n (E_n - E_{n-1})^2 / sum_n (E_n - mean E)^2``; values below 0.3 indicate
        that the momentum resampling explores the energy distribution poorly.

    References
    ----------
    Betancourt (2016), Eq. (5).
    """
    arr = _chains(energy, "energy")
    num = np.sum(np.diff(arr, axis=1) ** 2, axis=1)
    den = np.sum((arr - arr.mean(axis=1, keepdims=True)) ** 2, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.inf)


@dataclass(frozen=True)
class HierarchicalDiagnostics:
    """Convergence diagnostics of one fit of the hierarchical model.

    Attributes
    ----------
    rhat, ess_bulk, ess_tail : dict of str to float
        Rank-normalised split R-hat and bulk / tail effective sample sizes of the
        top-level parameters (``delta0``, ``sigma0`` and, with a Student top level, ``nu``).
    divergences : int
        Number of divergent post-warm-up transitions (all chains).
    max_treedepth_hits : int
        Number of post-warm-up transitions that hit the maximum tree depth.
    ebfmi : tuple of float
        E-BFMI of each chain.
    problems : tuple of str
        Human-readable description of every failed check (empty when all pass).
    """

    rhat: dict[str, float]
    ess_bulk: dict[str, float]
    ess_tail: dict[str, float]
    divergences: int
    max_treedepth_hits: int
    ebfmi: tuple[float, ...]
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """True when the fit passes :data:`PASS_RULE`."""
        return not self.problems

    def columns(self) -> dict[str, bool | float | int]:
        """The diagnostics as the columns of a result row: ``diag_ok`` (:attr:`ok`),
        ``rhat_max`` (the largest R-hat), ``ess_min`` (the smallest bulk or tail effective
        sample size) and ``divergences``."""
        return {
            "diag_ok": self.ok,
            "rhat_max": max(self.rhat.values()),
            "ess_min": min(min(self.ess_bulk.values()), min(self.ess_tail.values())),
            "divergences": self.divergences,
        }

    @classmethod
    def from_draws(
        cls,
        top_level: dict[str, np.ndarray],
        *,
        divergent: np.ndarray,
        treedepth: np.ndarray,
        max_treedepth: int,
        energy: np.ndarray,
    ) -> HierarchicalDiagnostics:
        """Compute the diagnostics from ``(chains, draws)`` arrays.

        Parameters
        ----------
        top_level : dict of str to numpy.ndarray
            Draws of each top-level parameter, shape ``(chains, draws)``.
        divergent, treedepth : numpy.ndarray, shape (chains, draws)
            Sampler outputs ``divergent__`` and ``treedepth__``.
        max_treedepth : int
            The tree-depth limit the sampler used; a transition whose tree depth reaches it
            counts as a hit.
        energy : numpy.ndarray, shape (chains, draws)
            Sampler output ``energy__``.

        Returns
        -------
        HierarchicalDiagnostics
            The diagnostics, with every check against :data:`RHAT_MAX`, :data:`ESS_MIN`,
            :data:`EBFMI_MIN`, divergences and tree-depth hits that fails listed in
            ``problems``.
        """
        r = {k: rhat(v) for k, v in top_level.items()}
        eb = {k: ess_bulk(v) for k, v in top_level.items()}
        et = {k: ess_tail(v) for k, v in top_level.items()}
        n_div = int(np.sum(divergent))
        n_td = int(np.sum(treedepth >= max_treedepth))
        fmi = tuple(float(v) for v in ebfmi(energy))
        problems = [
            f"R-hat of {k} is {v:.4f} (>= {RHAT_MAX})" for k, v in r.items() if v >= RHAT_MAX
        ]
        problems += [
            f"bulk ESS of {k} is {v:.0f} (< {ESS_MIN:.0f})" for k, v in eb.items() if v < ESS_MIN
        ]
        problems += [
            f"tail ESS of {k} is {v:.0f} (< {ESS_MIN:.0f})" for k, v in et.items() if v < ESS_MIN
        ]
        if n_div:
            problems.append(f"{n_div} divergent transition(s) after warm-up")
        if n_td:
            problems.append(f"{n_td} transition(s) hit the maximum tree depth {max_treedepth}")
        problems += [
            f"E-BFMI of chain {i + 1} is {v:.3f} (< {EBFMI_MIN})"
            for i, v in enumerate(fmi)
            if v < EBFMI_MIN
        ]
        return cls(r, eb, et, n_div, n_td, fmi, tuple(problems))

    def warn(self, stacklevel: int = 2) -> None:
        """Issue a :class:`ConvergenceWarning` listing the problems, if there are any.

        Parameters
        ----------
        stacklevel : int, default 2
            As :func:`warnings.warn` would take it in the function that calls this method:
            1 points the warning at the line calling this method, the default 2 at the line
            calling that function.
        """
        if self.problems:
            warnings.warn(
                "hierarchical model: " + "; ".join(self.problems),
                ConvergenceWarning,
                stacklevel=stacklevel + 1,
            )
