"""Data generators with a known difference of accuracy between two classifiers.

* :func:`nb_features_data` - the naive-Bayes data of Corani et al. (2017), App. 6.1: a
  balanced binary class ``C`` and two binary features ``F`` and ``G``, each a copy of the
  class flipped with probability ``1 - theta``; the classifiers ``C -> F`` and ``C -> G``
  have accuracies ``theta* `` and ``theta* - delta``.
* :func:`bn_data` - the Bayesian network ``C -> F`` of Corani & Benavoli (2015), Sec. 4,
  with ``theta = 0.5 + delta``; its learned copy is compared with zeroR (population
  accuracy 0.5; its cross-validated accuracy is higher on small data sets, see
  :mod:`cvcompare.simulate.scenario`).
* :func:`bivariate_normal_accuracies` - paired accuracies of Benavoli et al. (2014),
  Sec. 4, Eq. (10).

References
----------
Corani, Benavoli, Demšar, Mangili & Zaffalon (2017), App. 6.1.
Corani & Benavoli (2015), Sec. 4 ("Two classifiers with known difference of accuracy").
Benavoli, Mangili, Corani, Zaffalon & Ruggeri (2014), *A Bayesian Wilcoxon signed-rank
test based on the Dirichlet process*, Sec. 4, Eq. (10).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_array, check_int, check_positive, check_real
from ..seeding import RngLike, as_generator

__all__ = [
    "BinaryData",
    "bivariate_normal_accuracies",
    "bn_data",
    "check_bivariate_normal",
    "check_theta_star",
    "nb_features_data",
    "nb_theta_g",
]


@dataclass(frozen=True)
class BinaryData:
    """``q`` data sets of ``n`` instances with a binary class and binary features.

    Attributes
    ----------
    y : numpy.ndarray
        ``(q, n)`` class labels in {0, 1}.
    features : numpy.ndarray
        ``(q, n_features, n)`` binary features; ``features[:, j]`` is the only input of the
        ``j``-th simulated classifier.

    Raises
    ------
    ValueError
        If ``y`` or ``features`` are not integer arrays of values in {0, 1} with matching
        ``q`` and ``n`` (the count-based classifiers index their tables by these values).
    """

    y: np.ndarray
    features: np.ndarray

    def __post_init__(self) -> None:
        y, features = np.asarray(self.y), np.asarray(self.features)
        if y.ndim != 2 or not np.issubdtype(y.dtype, np.integer):
            raise ValueError(
                f"y: expected a (q, n) array of integer class labels, got dtype {y.dtype} "
                f"and shape {y.shape}"
            )
        if features.ndim != 3 or features.shape[::2] != y.shape:
            raise ValueError(
                f"features: expected shape (q, n_features, n) = ({y.shape[0]}, ., "
                f"{y.shape[1]}) to match y, got {features.shape}"
            )
        if not np.issubdtype(features.dtype, np.integer):
            raise ValueError(f"features: expected integer values, got dtype {features.dtype}")
        for name, arr in (("y", y), ("features", features)):
            if arr.size and (arr.min() < 0 or arr.max() > 1):
                raise ValueError(
                    f"{name}: expected binary values in {{0, 1}}, got values from "
                    f"{arr.min()} to {arr.max()}"
                )
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "features", features)


def check_theta_star(theta_star: object) -> float:
    """Check ``theta*`` (the accuracy of ``C -> F``) lies in (0.5, 1].

    Parameters
    ----------
    theta_star : object
        ``P(F = C)``, a number in (0.5, 1].

    Returns
    -------
    float
        ``theta_star`` as a float.

    Raises
    ------
    TypeError
        If ``theta_star`` is not a real number; booleans and strings (even ``"0.9"``) are
        refused.
    ValueError
        If it lies outside (0.5, 1] or is NaN.
    """
    val = check_real(theta_star, "theta_star", "a number in (0.5, 1]")
    if not 0.5 < val <= 1.0:
        raise ValueError(f"theta_star: expected a number in (0.5, 1], got {val}")
    return val


def nb_theta_g(theta_star: float, delta: np.ndarray) -> np.ndarray:
    """Return ``theta_g = theta* - delta`` after checking it lies in (0.5, 1].

    The appendix of Corani et al. (2017) writes ``theta_g = theta_f + delta_i`` but then
    ``delta_i = theta_f - theta_g``; the authors' code uses ``theta* - delta``, which is
    what is implemented, so that ``delta = acc(C -> F) - acc(C -> G)``.

    Parameters
    ----------
    theta_star : float
        ``P(F = C)``, in (0.5, 1] (:func:`check_theta_star`).
    delta : numpy.ndarray, shape (q,)
        True differences of accuracy (fractions; positive: ``C -> F`` is better), each in
        ``[theta* - 1, theta* - 0.5)``.

    Returns
    -------
    numpy.ndarray, shape (q,)
        ``theta_g = P(G = C)`` of each data set.

    Raises
    ------
    TypeError, ValueError
        If ``theta_star`` is not in (0.5, 1], ``delta`` is not a 1-D array of finite real
        numbers, or some ``theta* - delta`` lies outside (0.5, 1].
    """
    theta_star = check_theta_star(theta_star)
    delta = check_array(delta, "delta", ndim=1)
    theta_g = theta_star - delta
    bad = (theta_g <= 0.5) | (theta_g > 1.0)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"delta: theta_star - delta must lie in (0.5, 1], i.e. delta in "
            f"[{theta_star - 1:g}, {theta_star - 0.5:g}); got delta[{i}] = {delta[i]:g} "
            f"({int(bad.sum())} value(s) out of range; choose delta values within that range, "
            "or a distribution with a cap)"
        )
    return theta_g


def _labels_and_noisy_copies(
    gen: np.random.Generator, n: int, thetas: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Class ``~ Bernoulli(0.5)`` and features that equal it with probability ``theta``.

    ``thetas`` has shape ``(q, n_features)``; returns ``y (q, n)`` and ``x (q, n_features,
    n)`` as ``int8``.
    """
    q, n_features = thetas.shape
    y = gen.integers(0, 2, size=(q, n), dtype=np.int8)
    flip = gen.random((q, n_features, n)) < (1.0 - thetas)[:, :, None]
    return y, (y[:, None, :] ^ flip).astype(np.int8)


def nb_features_data(n: int, delta: object, rng: RngLike, *, theta_star: float = 0.9) -> BinaryData:
    """Sample data sets for the classifiers ``C -> F`` and ``C -> G``.

    Parameters
    ----------
    n : int
        Instances per data set (>= 2).
    delta : array_like
        ``(q,)`` true differences ``acc(C -> F) - acc(C -> G)``; ``theta* - delta`` must lie
        in (0.5, 1].
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness.
    theta_star : float, default 0.9
        ``P(F = C)``, in (0.5, 1]; 0.9 in the paper.

    Returns
    -------
    BinaryData
        ``features[:, 0]`` is ``F`` (agrees with the class with probability ``theta*``),
        ``features[:, 1]`` is ``G`` (probability ``theta* - delta_i``).

    References
    ----------
    Corani et al. (2017), App. 6.1; the authors' code flips the class with probability
    ``1 - theta`` to make each feature.
    """
    n = check_int(n, "n", minimum=2)
    delta = check_array(delta, "delta", ndim=1, min_size=1)
    theta_star = check_theta_star(theta_star)
    theta_g = nb_theta_g(theta_star, delta)
    thetas = np.column_stack([np.full(delta.size, theta_star), theta_g])
    y, x = _labels_and_noisy_copies(as_generator(rng), n, thetas)
    return BinaryData(y=y, features=x)


def bn_data(n: int, theta: object, rng: RngLike) -> BinaryData:
    """Sample data sets from the Bayesian network ``C -> F`` with ``P(F = C) = theta``.

    Parameters
    ----------
    n : int
        Instances per data set (>= 2).
    theta : array_like
        ``(q,)`` values of ``theta = 0.5 + delta``, each in [0.5, 1] (0.5: a useless
        feature, the null case of the paper).
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness.

    Returns
    -------
    BinaryData
        One feature, ``features[:, 0]`` = ``F``.

    References
    ----------
    Corani & Benavoli (2015), Sec. 4: ``P(c0) = 0.5``, ``P(f0 | c0) = theta``,
    ``P(f0 | c1) = 1 - theta``.
    """
    n = check_int(n, "n", minimum=2)
    theta = check_array(theta, "theta", ndim=1, min_size=1)
    bad = (theta < 0.5) | (theta > 1.0)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"theta: expected values in [0.5, 1], got theta[{i}] = {theta[i]:g}")
    y, x = _labels_and_noisy_copies(as_generator(rng), n, theta[:, None])
    return BinaryData(y=y, features=x)


def check_bivariate_normal(sd: object, corr: object) -> tuple[float, float]:
    """Check the standard deviation (> 0) and correlation (in (-1, 1)) of Eq. (10).

    Parameters
    ----------
    sd : object
        Common standard deviation of the two accuracies, a finite number > 0.
    corr : object
        Their correlation, in (-1, 1).

    Returns
    -------
    sd, corr : float
        The two as floats.

    Raises
    ------
    TypeError
        If ``sd`` is not a single real number (booleans and strings are refused) or
        ``corr`` holds anything but real numbers.
    ValueError
        If ``sd`` is not finite and > 0, or ``corr`` is not a single finite number in
        (-1, 1); the message names the argument.
    """
    sd = check_positive(sd, "sd")
    corr = float(check_array(corr, "corr", ndim=0))
    if not -1.0 < corr < 1.0:
        raise ValueError(f"corr: expected a correlation in (-1, 1), got {corr}")
    return sd, corr


def bivariate_normal_accuracies(
    n: int, delta: float, sd: float, corr: float, rng: RngLike
) -> tuple[np.ndarray, np.ndarray]:
    """Paired accuracies of two classifiers on ``n`` data sets (no cross-validation).

    ``(X_i, Y_i) ~ N((0, delta), [[sd^2, corr sd^2], [corr sd^2, sd^2]])``, independently
    for ``i = 1..n``.

    Parameters
    ----------
    n : int
        Number of data sets (>= 1).
    delta : float
        Mean of ``Y`` (the mean of ``X`` is 0).
    sd : float
        Common standard deviation (> 0); 0.12 in the paper.
    corr : float
        Correlation in (-1, 1); 0 in the paper.
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness.

    Returns
    -------
    x, y : numpy.ndarray
        Each of shape ``(n,)``.

    References
    ----------
    Benavoli et al. (2014), Sec. 4, Eq. (10).
    """
    n = check_int(n, "n", minimum=1)
    delta = float(check_array(delta, "delta", ndim=0))
    sd, corr = check_bivariate_normal(sd, corr)
    gen = as_generator(rng)
    z = gen.standard_normal((2, n))
    x = sd * z[0]
    y = delta + sd * (corr * z[0] + np.sqrt(1.0 - corr**2) * z[1])
    return x, y
