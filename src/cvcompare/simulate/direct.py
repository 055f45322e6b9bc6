"""Accuracies drawn directly, without cross-validation: the ``bivariate_normal`` generator.

Benavoli et al. (2014), Sec. 4, simulate the accuracies of two classifiers on ``q`` data
sets without learning anything: the pair ``(X_i, Y_i)`` of data set ``i`` is bivariate
normal (Eq. 10),

``(X_i, Y_i) ~ N((0, delta_i), [[sd^2, corr sd^2], [corr sd^2, sd^2]])``,

independently for ``i = 1..q``, with ``sd = 0.12``, ``corr = 0`` and ``delta_i = Delta`` the
same on every data set in the paper. A scenario of this generator reads::

    generator: {name: bivariate_normal, sd: 0.12, corr: 0.0}
    delta: {distribution: fixed, value: 0.03}

``delta`` may be any distribution of :func:`~.deltas.delta_distribution` (one draw per data
set); ``n_instances`` and ``cv`` are refused, since nothing is cross-validated.

The simulated comparison has one "fold" per data set: ``acc_a = Y`` (the classifier whose
superiority the one-sided tests look for), ``acc_b = X``, so that ``diffs[:, 0] = Z_i =
Y_i - X_i`` with mean ``delta_i`` and variance ``2 sd^2 (1 - corr)``; ``rho`` is NaN (there
are no test folds, so the tests of fold differences do not apply) and ``n_instances`` is 0.

References
----------
Benavoli, A., Mangili, F., Corani, G., Zaffalon, M. & Ruggeri, F. (2014). A Bayesian
Wilcoxon signed-rank test based on the Dirichlet process. ICML, Sec. 4, Eq. (10).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .deltas import DeltaDistribution, delta_distribution
from .generators import bivariate_normal_accuracies, check_bivariate_normal

if TYPE_CHECKING:
    from .scenario import SimulatedComparison

__all__ = ["GENERATOR_KEYS", "BivariateNormalPlan", "bivariate_normal_plan"]

#: Keys of ``generator`` besides ``name``.
GENERATOR_KEYS = frozenset({"sd", "corr"})


@dataclass(frozen=True)
class BivariateNormalPlan:
    """A checked scenario of the ``bivariate_normal`` generator.

    Attributes
    ----------
    dist : DeltaDistribution
        Distribution of the mean ``delta_i`` of ``Y_i`` (the mean of ``X_i`` is 0).
    sd : float
        Common standard deviation of ``X_i`` and ``Y_i``.
    corr : float
        Correlation of ``X_i`` and ``Y_i``.
    """

    dist: DeltaDistribution
    sd: float
    corr: float

    def simulate(self, q: int, gen: np.random.Generator) -> SimulatedComparison:
        """Draw ``q`` data sets: first the ``delta_i``, then the pairs ``(X_i, Y_i)``.

        Parameters
        ----------
        q : int
            Number of data sets, >= 1.
        gen : numpy.random.Generator
            Source of randomness, drawn from in that order.

        Returns
        -------
        SimulatedComparison
            One "fold" per data set: ``acc_a = Y``, ``acc_b = X``, shape ``(q, 1)``;
            ``diffs = Y - X`` (positive favours ``a``); ``rho`` NaN and ``n_instances`` 0.
        """
        from .scenario import SimulatedComparison

        delta = self.dist.sample(q, gen)
        x, y = bivariate_normal_accuracies(q, 0.0, self.sd, self.corr, gen)
        acc_a, acc_b = (y + delta)[:, None], x[:, None]
        return SimulatedComparison(
            diffs=acc_a - acc_b,
            acc_a=acc_a,
            acc_b=acc_b,
            rho=np.full(q, np.nan),
            true_delta=delta,
            n_instances=np.zeros(q, dtype=int),
            n_regenerated=0,
        )


def bivariate_normal_plan(gen_spec: Mapping, scenario: Mapping) -> BivariateNormalPlan:
    """Check a ``bivariate_normal`` scenario (generator keys already checked).

    Parameters
    ----------
    gen_spec : Mapping
        ``generator`` entry: ``sd`` (0.12 by default) and ``corr`` (0 by default).
    scenario : Mapping
        The scenario; ``delta`` is required, ``n_instances`` and ``cv`` are refused.

    Returns
    -------
    BivariateNormalPlan
        The checked plan, whose :meth:`~BivariateNormalPlan.simulate` draws the data sets.

    Raises
    ------
    ValueError, TypeError
        Naming the scenario entry and what was expected.
    """
    for key in ("n_instances", "cv"):
        if key in scenario:
            raise ValueError(
                f"{key}: not used by the 'bivariate_normal' generator (the accuracies are "
                "drawn directly, without cross-validation)"
            )
    if "delta" not in scenario:
        raise ValueError("delta: required by the 'bivariate_normal' generator")
    sd, corr = check_bivariate_normal(gen_spec.get("sd", 0.12), gen_spec.get("corr", 0.0))
    return BivariateNormalPlan(delta_distribution(scenario["delta"]), sd, corr)
