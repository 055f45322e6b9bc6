"""Data preparation and prior bounds of the hierarchical model.

The fold differences are divided by the mean per-data-set standard deviation before
fitting (the rope too), a data set with zero variance receives noise drawn from the rope
that leaves its mean unchanged (:func:`scale_data`), and the priors' bounds are set from the
scaled data as in the authors' code.

References
----------
Corani, G., Benavoli, A., Demsar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837, Sec. 3 (priors) and the authors' code (BayesianTestsML/tutorial,
``hierarchical/hierarchical_test.R``: scaling, zero-variance noise, bounds).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .layout import sampler_layout

__all__ = [
    "ALPHA_BOUNDS",
    "BETA_BOUNDS",
    "FIXED_NU_GAMMA",
    "SIGMA_UPPER_FACTOR",
    "ScaledData",
    "has_scale",
    "model_data",
    "scale_data",
    "stan_data",
]

#: Bounds of the uniform prior on the shape of Gamma(alpha, beta) for nu - 1 (Sec. 3).
ALPHA_BOUNDS = (0.5, 5.0)
#: Bounds of the uniform prior on the rate of Gamma(alpha, beta) for nu - 1 (Sec. 3).
BETA_BOUNDS = (0.05, 0.15)
#: Fixed prior nu - 1 ~ Gamma(2, 0.1) (Juarez & Steel 2010), the variant of Table 5.
FIXED_NU_GAMMA = (2.0, 0.1)
#: sigma_i ~ U(0, 1000 * mean sd), sigma0 ~ U(0, 1000 * sd of the means) (Sec. 3).
SIGMA_UPPER_FACTOR = 1000.0


@dataclass(frozen=True)
class ScaledData:
    """Fold differences divided by the mean per-data-set standard deviation.

    Attributes
    ----------
    x : numpy.ndarray, shape (q, n)
        Scaled fold differences, after the zero-variance noise.
    scale : float
        The divisor ``s``: mean of the per-data-set sample standard deviations of the
        original differences.
    rope : tuple of float
        The rope divided by ``s``.
    noisy : tuple of int
        Indices of the data sets that had zero variance and received noise.
    """

    x: np.ndarray
    scale: float
    rope: tuple[float, float]
    noisy: tuple[int, ...]

    @property
    def means(self) -> np.ndarray:
        """Mean of each data set's scaled differences, shape ``(q,)``."""
        return self.x.mean(axis=1)

    @property
    def sum_squares(self) -> np.ndarray:
        """Sum of squared deviations from the mean of each data set, shape ``(q,)``."""
        return np.sum((self.x - self.means[:, None]) ** 2, axis=1)


def has_scale(x: np.ndarray) -> bool:
    """Whether the model can be fitted to the fold differences ``x`` (data sets x folds).

    Parameters
    ----------
    x : numpy.ndarray, shape (q, n)
        Fold differences, one row per data set.

    Returns
    -------
    bool
        True when the differences vary within at least one data set, so that the model's
        scale (the mean per-data-set standard deviation, :func:`scale_data`) is positive.
    """
    return bool(np.any(np.ptp(x, axis=1) > 0))


def scale_data(x: np.ndarray, rope: tuple[float, float], gen: np.random.Generator) -> ScaledData:
    """Scale the differences and add noise to data sets with zero variance.

    Parameters
    ----------
    x : numpy.ndarray, shape (q, n)
        Validated fold differences (fractions).
    rope : tuple of float
        Validated rope ``(low, high)`` on the scale of ``x``.
    gen : numpy.random.Generator
        Source of the zero-variance noise.

    Returns
    -------
    ScaledData

    Raises
    ------
    ValueError
        If every data set has zero variance (the scale is then undefined), or a data set
        with zero variance needs noise and the rope is empty.

    Notes
    -----
    Scaling: the differences and the rope are divided by ``s``, the mean of the data sets'
    sample standard deviations (0 for a data set of zero variance), computed before any
    noise is added.

    Zero variance: a data set whose ``n`` differences are all equal gets ``h = floor(n/2)``
    noise values ``u_1, ..., u_h``, drawn uniformly from the scaled rope; ``u_j`` is added
    to its ``j``-th difference and subtracted from its ``(n - h + j)``-th, so the data set's
    mean is unchanged and its variance becomes positive. This is the rule of the authors'
    code (``hierarchical_test.R``).
    """
    constant = np.ptp(x, axis=1) == 0
    sds = np.where(constant, 0.0, x.std(axis=1, ddof=1))
    if not has_scale(x):
        raise ValueError(
            "x: every data set has zero variance (all its fold differences are equal); the "
            "model's scale, the mean per-data-set standard deviation, is then zero"
        )
    scale = float(sds.mean())
    xs = x / scale
    low, high = rope[0] / scale, rope[1] / scale
    noisy = tuple(int(i) for i in np.flatnonzero(constant))
    if noisy and high <= low:
        raise ValueError(
            f"x: data set(s) {list(noisy)} have zero variance and need noise drawn from the "
            f"rope, but the rope {rope} is empty; pass a rope with low < high"
        )
    half = xs.shape[1] // 2
    for i in noisy:
        noise = gen.uniform(low, high, size=half)
        xs[i, :half] += noise
        xs[i, xs.shape[1] - half :] -= noise
    return ScaledData(x=xs, scale=scale, rope=(low, high), noisy=noisy)


def stan_data(
    data: ScaledData,
    *,
    rho: float,
    student: bool,
    nu_hyper: bool,
) -> dict[str, object]:
    """The data block of ``hierarchical.stan`` for scaled differences.

    Bounds (authors' code): ``delta0 ~ U(-max|x|, max|x|)``, ``sigma_i ~ U(0, 1000 * mean
    sd)`` with mean sd 1 after scaling, ``sigma0 ~ U(0, 1000 * sd of the means)``. When the
    data sets' means are all equal (sd of the means below ``1e-9`` times the mean sd, i.e.
    zero up to rounding), the mean within-data-set sd is used instead, as the authors do
    for a single data set.

    Parameters
    ----------
    data : ScaledData
        The scaled differences (:func:`scale_data`).
    rho : float
        Correlation between fold differences, in [0, 1).
    student : bool
        Student-t (True) or Gaussian (False) distribution of the delta_i.
    nu_hyper : bool
        Uniform priors on alpha and beta (True) or the fixed Gamma(2, 0.1) (False).

    Returns
    -------
    dict
        The program's data by name (:func:`model_data`).
    """
    means = data.means
    within = float(np.mean(data.x.std(axis=1, ddof=1)))
    among = float(means.std(ddof=1)) if means.size > 1 else 0.0
    if not among > 1e-9 * within:
        among = within
    return model_data(
        means,
        data.sum_squares,
        int(data.x.shape[1]),
        rho=rho,
        delta0_bound=float(np.max(np.abs(data.x))),
        sigma_hi=SIGMA_UPPER_FACTOR * within,
        sigma0_hi=SIGMA_UPPER_FACTOR * among,
        student=student,
        nu_hyper=nu_hyper,
    )


def model_data(
    xbar: np.ndarray,
    ss: np.ndarray,
    n: int,
    *,
    rho: float,
    delta0_bound: float,
    sigma_hi: float,
    sigma0_hi: float,
    student: bool,
    nu_hyper: bool,
) -> dict[str, object]:
    """The data block of ``hierarchical.stan`` from sufficient statistics and prior bounds,
    with the sampler's layout (:func:`~cvcompare.hierarchical.layout.sampler_layout`).

    Parameters
    ----------
    xbar, ss : numpy.ndarray, shape (q,)
        Mean and sum of squared deviations of each data set's ``n`` fold differences.
    n : int
        Number of folds per data set.
    rho : float
        Correlation between fold differences, in [0, 1).
    delta0_bound : float
        ``delta0 ~ U(-delta0_bound, delta0_bound)``.
    sigma_hi, sigma0_hi : float
        ``sigma_i ~ U(0, sigma_hi)``, ``sigma0 ~ U(0, sigma0_hi)``.
    student, nu_hyper : bool
        Model variant (see :func:`stan_data`).

    Returns
    -------
    dict
        The program's data by name: these values and the sampler's layout.
    """
    model = {
        "q": int(xbar.size),
        "n": int(n),
        "xbar": np.asarray(xbar, dtype=float),
        "ss": np.asarray(ss, dtype=float),
        "rho": float(rho),
        "delta0_lo": -float(delta0_bound),
        "delta0_hi": float(delta0_bound),
        "sigma_hi": float(sigma_hi),
        "sigma0_hi": float(sigma0_hi),
        "student": int(student),
        "nu_hyper": int(nu_hyper),
        "alpha_lo": ALPHA_BOUNDS[0],
        "alpha_hi": ALPHA_BOUNDS[1],
        "beta_lo": BETA_BOUNDS[0],
        "beta_hi": BETA_BOUNDS[1],
        "nu_alpha": FIXED_NU_GAMMA[0],
        "nu_beta": FIXED_NU_GAMMA[1],
    }
    return model | sampler_layout(model)
