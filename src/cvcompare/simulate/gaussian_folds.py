"""Fold differences drawn directly: Gaussian, with the correlation of cross-validation.

No data set and no classifier are simulated. The ``n = m k`` fold differences of data
set ``i`` follow the generative model of the Bayesian correlated t-test (Corani &
Benavoli 2015, Sec. 2.3, Eqs. 4-6): ``x_i = mu_i 1 + v_i`` with ``v_i ~ MVN(0, sigma_i^2
M)``, where ``M`` is the intraclass correlation matrix (1 on the diagonal, ``rho``
elsewhere, ``0 <= rho < 1``). They are drawn as

    ``x_ij = mu_i + sigma_i (sqrt(rho) z_i0 + sqrt(1 - rho) z_ij)``,  ``z`` iid N(0, 1),

so that ``E[x_ij] = mu_i``, ``Var[x_ij] = sigma_i^2``, ``Corr[x_ij, x_il] = rho`` and the
mean of the ``n`` differences has variance ``sigma_i^2 (rho + (1 - rho) / n)``. Under
this model the correlated t statistic with the same ``rho`` is exactly Student with
``n - 1`` degrees of freedom, and the naive one (``rho = 0``) is that statistic times
``sqrt(1 + n rho / (1 - rho))``.

Scenario keys (generator ``gaussian_folds``): ``mean`` (``mu_i``: a number, or a list of
``q`` numbers), ``sd`` (``sigma_i > 0``: a number or a list of ``q``), ``rho`` (default
``1 / k``, the heuristic of Nadeau & Bengio for ``k``-fold cross-validation); ``cv`` gives
``runs`` (``m``) and ``folds`` (``k``). ``delta`` and ``n_instances`` are not used.

References
----------
Corani, G. & Benavoli, A. (2015). A Bayesian approach for comparing cross-validated
algorithms on multiple data sets. Machine Learning 100, 285-304, Sec. 2.3 and the
example of Sec. 3 (Table 3, Fig. 1: ``mu_i``, ``sigma_i`` per data set, ``rho = 0``).
Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine
Learning 52, 239-281.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_array, check_finite, check_int, check_positive, check_rho
from ..seeding import RngLike, as_generator

__all__ = [
    "GENERATOR_KEYS",
    "GaussianFoldsPlan",
    "gaussian_fold_differences",
    "gaussian_folds_plan",
]

#: The keys of the ``gaussian_folds`` generator besides ``name``.
GENERATOR_KEYS = {"mean", "sd", "rho"}


def _per_dataset(value: object, key: str, q: int, *, positive: bool) -> np.ndarray:
    """One finite number per data set (> 0 if ``positive``): a number, Python's or NumPy's
    (booleans refused), or a list of ``q`` of them."""
    check = check_positive if positive else check_finite
    if isinstance(value, Sequence) and not isinstance(value, (str, bytes)):
        if len(value) != q:
            raise ValueError(f"{key}: expected a number or a list of q = {q} numbers, got {value}")
        return np.array([check(v, f"{key}[{i}]") for i, v in enumerate(value)])
    return np.full(q, check(value, key))


def gaussian_fold_differences(
    mean: object, sd: object, *, n: int, rho: float, rng: RngLike
) -> np.ndarray:
    """Draw ``n`` equicorrelated Gaussian differences for each of ``q`` data sets.

    Parameters
    ----------
    mean, sd : array_like, shape (q,)
        ``mu_i`` (finite) and ``sigma_i`` (finite, > 0) of each data set; both 1-D, of the
        same length ``q >= 1``.
    n : int
        Number of differences per data set (``m k``), >= 2.
    rho : float
        Correlation between any two differences of a data set, in [0, 1).
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        ``(q, n)`` differences; see the module docstring for the model.

    Raises
    ------
    TypeError
        If ``mean`` or ``sd`` holds anything but real numbers (booleans and strings
        included), ``n`` is not an integer, ``rho`` is not a real number, or ``rng`` is
        not a seed, seed sequence or generator.
    ValueError
        If ``mean`` or ``sd`` is not a non-empty 1-D array of finite values, their lengths
        differ, an ``sd`` is not > 0, ``n`` is below 2, or ``rho`` lies outside [0, 1).
    """
    mu = check_array(mean, "mean", ndim=1, min_size=1, axis_names=("data sets",))
    sigma = check_array(sd, "sd", ndim=1, min_size=1, axis_names=("data sets",))
    if sigma.size != mu.size:
        raise ValueError(
            f"sd: expected one value per data set, as in mean ({mu.size}), got {sigma.size}"
        )
    if np.any(sigma <= 0):
        i = int(np.argmax(sigma <= 0))
        check_positive(sigma[i], f"sd[{i}]")  # raises: not > 0
    n = check_int(n, "n", minimum=2)
    rho = check_rho(rho)
    gen = as_generator(rng)
    z = gen.standard_normal((mu.size, n + 1))
    shared = np.sqrt(rho) * z[:, :1]
    return mu[:, None] + sigma[:, None] * (shared + np.sqrt(1.0 - rho) * z[:, 1:])


@dataclass(frozen=True)
class GaussianFoldsPlan:
    """A checked scenario of the ``gaussian_folds`` generator.

    Built by :func:`gaussian_folds_plan`, which checks the values; the constructor does
    not.

    Parameters
    ----------
    runs : int
        Runs of cross-validation ``m``.
    folds : int
        Folds ``k``; each data set has ``m k`` differences.
    mean : numpy.ndarray, shape (q,)
        ``mu_i`` of each data set (the score's unit).
    sd : numpy.ndarray, shape (q,)
        ``sigma_i > 0`` of each data set.
    rho : float
        Correlation of the differences of a data set, in [0, 1).
    """

    runs: int
    folds: int
    mean: np.ndarray
    sd: np.ndarray
    rho: float

    def draw(self, rng: RngLike) -> dict[str, Any]:
        """Draw one replication; the fields of a ``SimulatedComparison``.

        There are no accuracies and no data set sizes: ``acc_a``, ``acc_b`` and
        ``n_instances`` are NaN; ``rho`` is the generating correlation and
        ``true_delta`` the means ``mu_i``.

        Parameters
        ----------
        rng : int, numpy.random.SeedSequence or numpy.random.Generator
            Source of randomness.

        Returns
        -------
        dict of str to object
            ``diffs`` of shape ``(q, runs * folds)`` (:func:`gaussian_fold_differences`),
            ``acc_a`` and ``acc_b`` of the same shape, ``rho``, ``true_delta`` and
            ``n_instances`` of shape ``(q,)``, and ``n_regenerated`` = 0.
        """
        q = self.mean.size
        diffs = gaussian_fold_differences(
            self.mean, self.sd, n=self.runs * self.folds, rho=self.rho, rng=rng
        )
        missing = np.full_like(diffs, np.nan)
        return {
            "diffs": diffs,
            "acc_a": missing,
            "acc_b": missing.copy(),
            "rho": np.full(q, self.rho),
            "true_delta": self.mean.copy(),
            "n_instances": np.full(q, np.nan),
            "n_regenerated": 0,
        }


def gaussian_folds_plan(
    gen_spec: Mapping, scenario: Mapping, q: int, cv_design: tuple[int, int]
) -> GaussianFoldsPlan:
    """Check a ``gaussian_folds`` scenario for ``q`` data sets.

    Parameters
    ----------
    gen_spec : Mapping
        The ``generator`` entry (keys checked by the caller).
    scenario : Mapping
        The whole scenario (``delta`` and ``n_instances`` are refused).
    q : int
        Number of data sets.
    cv_design : tuple of int
        ``(runs, folds)`` from the scenario's ``cv`` entry.

    Returns
    -------
    GaussianFoldsPlan
        ``rho`` is ``1 / folds`` unless ``gen_spec`` gives it.

    Raises
    ------
    ValueError
        If the scenario has ``delta`` or ``n_instances``, ``mean`` or ``sd`` is missing,
        a list has not ``q`` entries, a mean or an sd is NaN or infinite, an sd is not
        > 0, or ``rho`` lies outside [0, 1).
    TypeError
        If ``rho``, a mean or an sd is not a real number; Python and NumPy integers and
        floats are accepted, booleans and strings refused.
    """
    for key in ("delta", "n_instances"):
        if key in scenario:
            raise ValueError(f"{key}: not used by the 'gaussian_folds' generator (it has mean, sd)")
    for key in ("mean", "sd"):
        if key not in gen_spec:
            raise ValueError(f"generator.{key}: required by the 'gaussian_folds' generator")
    runs, folds = cv_design
    rho = check_rho(gen_spec.get("rho", 1.0 / folds), name="generator.rho")
    return GaussianFoldsPlan(
        runs=runs,
        folds=folds,
        mean=_per_dataset(gen_spec["mean"], "generator.mean", q, positive=False),
        sd=_per_dataset(gen_spec["sd"], "generator.sd", q, positive=True),
        rho=float(rho),
    )
