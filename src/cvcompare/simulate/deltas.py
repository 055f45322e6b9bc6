"""Distributions of the true accuracy differences ``delta_i`` of simulated data sets.

Each distribution is a frozen dataclass with a ``sample(q, rng)`` method returning ``q``
differences (fractions). :func:`delta_distribution` builds one from a YAML-style mapping
such as ``{"distribution": "cauchy", "location": 0.0, "scale": 0.00333, "cap": 0.5}``.

References
----------
Corani, Benavoli, Demšar, Mangili & Zaffalon (2017), *Statistical comparison of
classifiers through Bayesian hierarchical modelling*, Sec. 4.1 (bimodal mixture),
Sec. 4.2-4.4 (Cauchy).
Corani & Benavoli (2015), *A Bayesian approach for comparing cross-validated algorithms on
multiple data sets*, Sec. 4 (fixed differences; Cauchy capped to +-0.5).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, fields

import numpy as np
from scipy import stats

from .._validation import check_choice, check_finite, check_int, check_non_negative, check_positive
from ..seeding import RngLike, as_generator

__all__ = [
    "DISTRIBUTIONS",
    "CauchyDelta",
    "DeltaDistribution",
    "FixedDelta",
    "GaussianDelta",
    "GaussianMixtureDelta",
    "delta_distribution",
]


def _cap_interval(cap: object) -> tuple[float, float] | None:
    """``None`` (no cap), a number ``c > 0`` (the interval ``[-c, c]``) or ``(low, high)``."""
    if cap is None:
        return None
    if isinstance(cap, Sequence) and not isinstance(cap, str):
        if len(cap) != 2:
            raise ValueError(f"cap: expected a number or an interval (low, high), got {cap!r}")
        low, high = check_finite(cap[0], "cap[0]"), check_finite(cap[1], "cap[1]")
    else:
        high = check_positive(cap, "cap")
        low = -high
    if not low < high:
        raise ValueError(f"cap: expected low < high, got ({low}, {high})")
    return low, high


def _clip(draws: np.ndarray, cap: tuple[float, float] | None) -> np.ndarray:
    """The draws clipped to the interval ``cap`` (unchanged without one)."""
    return draws if cap is None else np.clip(draws, cap[0], cap[1])


class DeltaDistribution:
    """Base class: a distribution of true differences with ``sample(q, rng)``.

    A subclass draws with ``_draw`` and gives the tails of its draws before any cap with
    ``_tails``; a ``cap`` attribute (``None`` or ``(low, high)``) clips both.
    """

    cap: tuple[float, float] | None = None

    def sample(self, q: int, rng: RngLike) -> np.ndarray:
        """Draw ``q`` true differences.

        Parameters
        ----------
        q : int
            Number of data sets (>= 1).
        rng : int, numpy.random.SeedSequence or numpy.random.Generator
            Source of randomness.

        Returns
        -------
        numpy.ndarray
            Shape ``(q,)``, fractions.

        Raises
        ------
        TypeError, ValueError
            If ``q`` is not an integer >= 1, or ``rng`` is not a seed, seed sequence or
            generator.
        """
        q = check_int(q, "q", minimum=1)
        return self._draw(q, as_generator(rng))

    def mass_outside(self, low: float, high: float) -> float:
        """The probability that a draw lies outside the closed interval ``[low, high]``.

        A cap ``(a, b)`` moves the mass beyond it onto ``a`` and ``b``, so that a draw ``x``
        clipped to it lies below ``low`` with probability 0 if ``a >= low``, 1 if
        ``b < low`` and ``P(x < low)`` otherwise; above ``high`` with probability 0 if
        ``b <= high``, 1 if ``a > high`` and ``P(x > high)`` otherwise.

        Parameters
        ----------
        low, high : float
            The interval, ``low <= high``.

        Returns
        -------
        float
            In [0, 1].
        """
        below, above = self._tails(low, high)
        if self.cap is not None:
            a, b = self.cap
            below = 0.0 if a >= low else 1.0 if b < low else below
            above = 0.0 if b <= high else 1.0 if a > high else above
        return float(below + above)

    def _draw(self, q: int, gen: np.random.Generator) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _tails(self, low: float, high: float) -> tuple[float, float]:  # pragma: no cover
        """``P(x < low)`` and ``P(x > high)`` of an uncapped draw ``x``."""
        raise NotImplementedError


@dataclass(frozen=True)
class FixedDelta(DeltaDistribution):
    """The same difference on every data set (Corani & Benavoli 2015, Sec. 4, Fig. 2a).

    Parameters
    ----------
    value : float
        The difference (fraction of accuracy; positive favours the first learner).

    Raises
    ------
    TypeError, ValueError
        If ``value`` is not a finite real number.
    """

    value: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", check_finite(self.value, "value"))

    def _draw(self, q: int, gen: np.random.Generator) -> np.ndarray:
        return np.full(q, self.value)

    def _tails(self, low: float, high: float) -> tuple[float, float]:
        return float(self.value < low), float(self.value > high)


@dataclass(frozen=True)
class CauchyDelta(DeltaDistribution):
    """Cauchy differences, ``location + scale * standard Cauchy``, optionally clipped.

    ``cap`` clips draws to ``[-cap, cap]`` (or to ``[low, high]`` when a pair is given):
    Corani & Benavoli (2015), Sec. 4, cap the draws to +-0.5. A scenario is refused
    when more than 1e-10 of its draws fall outside the range its generator can realise
    (:meth:`DeltaDistribution.mass_outside`), so the Cauchy needs a cap within that range
    (``[theta* - 1, theta* - 0.5)`` for the naive-Bayes data).

    ``scale = 0`` is the limit of the family, the point mass at ``location``: Corani &
    Benavoli (2015) set median and scale to the same mean difference, which is 0 in the
    null setting of their Fig. 2b.

    Parameters
    ----------
    location : float
        The median of the differences (fraction of accuracy).
    scale : float
        The Cauchy scale, >= 0.
    cap : float or tuple of float, optional
        A number ``c > 0`` clips to ``[-c, c]``, a pair ``(low, high)`` with
        ``low < high`` to ``[low, high]``; no clipping by default. Stored as the pair.

    Raises
    ------
    TypeError, ValueError
        If ``location`` is not finite, ``scale`` is negative or not finite, or ``cap`` is
        none of the above.

    References
    ----------
    Corani et al. (2017), Sec. 4.2-4.5; Corani & Benavoli (2015), Sec. 4.
    """

    location: float
    scale: float
    cap: float | tuple[float, float] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "location", check_finite(self.location, "location"))
        object.__setattr__(self, "scale", check_non_negative(self.scale, "scale"))
        object.__setattr__(self, "cap", _cap_interval(self.cap))

    def _draw(self, q: int, gen: np.random.Generator) -> np.ndarray:
        return _clip(self.location + self.scale * gen.standard_cauchy(q), self.cap)

    def _tails(self, low: float, high: float) -> tuple[float, float]:
        if self.scale == 0:
            return float(self.location < low), float(self.location > high)
        law = stats.cauchy(self.location, self.scale)
        return law.cdf(low), law.sf(high)


@dataclass(frozen=True)
class GaussianDelta(DeltaDistribution):
    """Gaussian differences ``N(mean, sd^2)``, optionally clipped.

    Parameters
    ----------
    mean : float
        The mean difference (fraction of accuracy).
    sd : float
        The standard deviation, > 0.
    cap : float or tuple of float, optional
        As for :class:`CauchyDelta`: ``c > 0`` clips to ``[-c, c]``, ``(low, high)`` to
        ``[low, high]``; no clipping by default.

    Raises
    ------
    TypeError, ValueError
        If ``mean`` is not finite, ``sd`` is not positive and finite, or ``cap`` is not a
        number > 0 or an interval.
    """

    mean: float
    sd: float
    cap: float | tuple[float, float] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "mean", check_finite(self.mean, "mean"))
        object.__setattr__(self, "sd", check_positive(self.sd, "sd"))
        object.__setattr__(self, "cap", _cap_interval(self.cap))

    def _draw(self, q: int, gen: np.random.Generator) -> np.ndarray:
        return _clip(gen.normal(self.mean, self.sd, size=q), self.cap)

    def _tails(self, low: float, high: float) -> tuple[float, float]:
        law = stats.norm(self.mean, self.sd)
        return law.cdf(low), law.sf(high)


@dataclass(frozen=True)
class GaussianMixtureDelta(DeltaDistribution):
    """A mixture of Gaussians; the default is the bimodal mixture of Corani et al. (2017).

    The paper (Sec. 4.1) states component sd 0.001, but the authors' code uses 0.01; the
    default follows the code (``sds=(0.01, 0.01)``).

    Parameters
    ----------
    means : tuple of float, default (0.005, 0.02)
        The components' means (fractions of accuracy).
    sds : tuple of float, default (0.01, 0.01)
        The components' standard deviations, each > 0.
    weights : tuple of float, default (0.5, 0.5)
        The components' probabilities, each > 0, summing to 1 (within 1e-9).
    cap : float or tuple of float, optional
        As for :class:`CauchyDelta`; no clipping by default.

    Raises
    ------
    TypeError, ValueError
        If a value is not finite, an sd or weight is not positive, the three have
        different lengths or are empty, the weights do not sum to 1, or ``cap`` is not a
        number > 0 or an interval.

    References
    ----------
    Corani et al. (2017), Sec. 4.1: ``p(delta) = pi_1 N(mu_1, sigma_1) + pi_2 N(mu_2,
    sigma_2)`` with ``mu = (0.005, 0.02)``, ``pi = (0.5, 0.5)``.
    """

    means: tuple[float, ...] = (0.005, 0.02)
    sds: tuple[float, ...] = (0.01, 0.01)
    weights: tuple[float, ...] = (0.5, 0.5)
    cap: float | tuple[float, float] | None = None

    def __post_init__(self) -> None:
        means = tuple(check_finite(v, f"means[{i}]") for i, v in enumerate(self.means))
        sds = tuple(check_positive(v, f"sds[{i}]") for i, v in enumerate(self.sds))
        weights = tuple(check_positive(v, f"weights[{i}]") for i, v in enumerate(self.weights))
        if not len(means) == len(sds) == len(weights) >= 1:
            raise ValueError(
                "means, sds, weights: expected sequences of the same non-zero length, got "
                f"lengths {len(means)}, {len(sds)}, {len(weights)}"
            )
        if abs(sum(weights) - 1.0) > 1e-9:
            raise ValueError(f"weights: expected weights summing to 1, got sum {sum(weights)}")
        object.__setattr__(self, "means", means)
        object.__setattr__(self, "sds", sds)
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "cap", _cap_interval(self.cap))

    def _draw(self, q: int, gen: np.random.Generator) -> np.ndarray:
        component = gen.choice(len(self.weights), size=q, p=np.asarray(self.weights))
        draws = gen.normal(np.asarray(self.means)[component], np.asarray(self.sds)[component])
        return _clip(draws, self.cap)

    def _tails(self, low: float, high: float) -> tuple[float, float]:
        laws = stats.norm(np.asarray(self.means), np.asarray(self.sds))
        weights = np.asarray(self.weights)
        return float(weights @ laws.cdf(low)), float(weights @ laws.sf(high))


#: Each ``delta.distribution`` of a scenario: its class and the keys it takes.
DISTRIBUTIONS: dict[str, tuple[type[DeltaDistribution], frozenset[str]]] = {
    "fixed": (FixedDelta, frozenset({"value"})),
    "cauchy": (CauchyDelta, frozenset({"location", "scale", "cap"})),
    "gaussian": (GaussianDelta, frozenset({"mean", "sd", "cap"})),
    "mixture": (GaussianMixtureDelta, frozenset({"means", "sds", "weights", "cap"})),
}


def distribution_keys(name: str) -> tuple[frozenset[str], frozenset[str]]:
    """The required and the optional keys of the distribution ``name`` of
    :data:`DISTRIBUTIONS` (those of its class without and with a default)."""
    cls, allowed = DISTRIBUTIONS[name]
    required = frozenset(
        f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING
    )
    return required, allowed - required


def delta_distribution(spec: Mapping) -> DeltaDistribution:
    """Build a delta distribution from a YAML-style mapping.

    Parameters
    ----------
    spec : Mapping
        ``{"distribution": name, **parameters}`` with ``name`` one of ``"fixed"``
        (``value``), ``"cauchy"`` (``location``, ``scale``, optional ``cap``),
        ``"gaussian"`` (``mean``, ``sd``, optional ``cap``) or ``"mixture"`` (optional
        ``means``, ``sds``, ``weights``, ``cap``; the defaults are the bimodal mixture of
        Corani et al. 2017, Sec. 4.1).

    Returns
    -------
    DeltaDistribution
        An instance of the class of ``name``.

    Raises
    ------
    TypeError
        If ``spec`` is not a mapping, or a parameter has the wrong type.
    ValueError
        If the distribution is missing or unknown, a key is unknown or missing, or a
        parameter is out of range.

    Examples
    --------
    >>> d = delta_distribution({"distribution": "cauchy", "location": 0.0, "scale": 0.01,
    ...                         "cap": 0.5})
    >>> d.sample(3, rng=1).shape
    (3,)
    """
    if not isinstance(spec, Mapping):
        raise TypeError(f"delta: expected a mapping with a 'distribution' key, got {spec!r}")
    if "distribution" not in spec:
        raise ValueError(
            f"delta.distribution: missing; expected one of {sorted(DISTRIBUTIONS)}, got keys "
            f"{sorted(spec)}"
        )
    name = spec["distribution"]
    check_choice(name, "delta.distribution", sorted(DISTRIBUTIONS))
    cls, allowed = DISTRIBUTIONS[name]
    params = {k: v for k, v in spec.items() if k != "distribution"}
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise ValueError(
            f"delta: unknown key(s) {unknown} for distribution {name!r}; allowed: {sorted(allowed)}"
        )
    required, optional = distribution_keys(name)
    missing = sorted(required - set(params))
    if missing:
        also = f", optional {sorted(optional)}" if optional else ""
        raise ValueError(
            f"delta: missing key(s) {missing} for distribution {name!r}; it needs "
            f"{sorted(required)}{also}"
        )
    if name == "mixture":
        params = {k: v if k == "cap" else tuple(v) for k, v in params.items()}
    if isinstance(params.get("cap"), list):
        params["cap"] = tuple(params["cap"])
    return cls(**params)
