"""Refit a hierarchical fit that fails its sampler diagnostics, with a longer, finer run.

A fit whose top-level parameters have R-hat >= 1.01, bulk or tail ESS < 400, a divergent
transition, a tree-depth hit or a low E-BFMI (:class:`.diagnostics.HierarchicalDiagnostics`)
is run again, up to ``refits`` times, each time with warm-up and draws multiplied by
``refit_scale`` and NUTS's target acceptance rate raised to ``refit_adapt_delta`` (one
rate for every refit, or one per refit: 0.95, then 0.99): more
draws raise the ESS, a longer warm-up adapts the step size and metric better, a higher
target acceptance rate takes smaller steps where the posterior curves sharply (fewer
divergences). The seed of every attempt is drawn, in order, from the same random generator,
so that the attempts are determined by that generator's stream. The last attempt is kept
whether or not it passes: a fit is never dropped, and the record says how many attempts were
made and how the last one was run.

References
----------
Stan Development Team, *Stan Reference Manual*, "Divergent transitions" and "Effective
sample size" (longer warm-up, higher ``adapt_delta``, more draws as remedies);
Vehtari et al. (2021), Sec. 4 (R-hat < 1.01 and ESS >= 400 as the thresholds).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cvcompare._validation import check_int, check_probability, check_real

from .diagnostics import ConvergenceWarning
from .fit import fit_hierarchical
from .result import HierarchicalResult

__all__ = ["RefitRecord", "fit_with_remedy", "refit_rates"]


@dataclass(frozen=True)
class RefitRecord:
    """How a fit was obtained.

    Attributes
    ----------
    attempts : int
        Number of fits run (1: the first fit was kept).
    first_ok : bool
        Whether the first fit passed the diagnostics.
    remedy : str
        Empty when the first fit was kept; otherwise the settings of the kept refit and
        the problems of the first fit, e.g. ``"refit 1 of 1 (warmup 2000, draws 2000,
        adapt_delta 0.95) after: R-hat of nu is 1.0123 (>= 1.01)"``.
    """

    attempts: int
    first_ok: bool
    remedy: str


def check_refit_scale(value: Any, name: str) -> float:
    """Check a factor of warm-up and draws for a refit: a finite real number >= 1 (not a
    bool or a string), returned as a float.

    Raises
    ------
    TypeError
        If ``value`` is not a real number.
    ValueError
        If ``value`` is NaN, infinite or below 1.
    """
    scale = check_real(value, name, "a number >= 1")
    if not (np.isfinite(scale) and scale >= 1):
        raise ValueError(f"{name}: expected a number >= 1, got {scale}")
    return scale


def refit_rates(value: Any, refits: int) -> tuple[float, ...]:
    """The target acceptance rates of ``refits`` refits in turn, from ``refit_adapt_delta``
    (``value``): one number for every refit, or a non-empty sequence of them (an array too),
    the last serving any refit beyond them; each in (0, 1).

    Raises
    ------
    TypeError, ValueError
        If ``value`` is not such a number or sequence (naming the element at fault).
    """
    if isinstance(value, np.ndarray) and value.ndim == 1:
        value = value.tolist()
    if isinstance(value, Sequence) and not isinstance(value, str):
        if not value:
            raise ValueError("refit_adapt_delta: expected a number in (0, 1) or one per refit")
        given = [check_probability(v, f"refit_adapt_delta[{i}]") for i, v in enumerate(value)]
    else:
        given = [check_probability(value, "refit_adapt_delta")]
    return tuple(given[min(i, len(given) - 1)] for i in range(refits))


def fit_with_remedy(
    x: object,
    *,
    rng: np.random.Generator,
    refits: int = 1,
    refit_scale: float = 2.0,
    refit_adapt_delta: float | Sequence[float] = 0.95,
    **settings: Any,
) -> tuple[HierarchicalResult, RefitRecord]:
    """Fit the hierarchical model; refit with more warm-up, draws and ``adapt_delta`` on failure.

    Parameters
    ----------
    x : array_like, shape (q, n)
        Fold differences, as in :func:`~.fit.fit_hierarchical`.
    rng : numpy.random.Generator
        Source of the seed of each attempt (one integer per attempt, in order).
    refits : int
        Largest number of refits after a failed first fit (0: never refit).
    refit_scale : float
        Factor (>= 1) applied to warm-up and draws at each refit (cumulatively).
    refit_adapt_delta : float or sequence of float
        Target acceptance rate of the refits, in (0, 1): one for every refit, or one per
        refit in turn (the last one for any refit beyond them); never below the previous
        attempt's.
    **settings
        Keyword arguments of :func:`~.fit.fit_hierarchical` other than ``x`` and
        ``seed`` (``rho``, ``rope``, ``scale``, ``chains``, ``warmup``, ``draws``,
        ``adapt_delta``...).

    Returns
    -------
    result : HierarchicalResult
        The last fit run (the first one that passed, or the last refit).
    record : RefitRecord
        Attempts made, whether the first passed, and how the kept fit was run.

    Warns
    -----
    ConvergenceWarning
        Only for the kept fit; a failed attempt that is refitted is not reported as a
        warning but in ``record.remedy``.
    """
    refits = check_int(refits, "refits", minimum=0)
    refit_scale = check_refit_scale(refit_scale, "refit_scale")
    rates = refit_rates(refit_adapt_delta, refits)
    if "seed" in settings:
        raise ValueError("settings: 'seed' is drawn from rng; do not pass it")
    current = dict(settings)
    first_problems: tuple[str, ...] = ()
    for attempt in range(refits + 1):
        seed = int(rng.integers(2**31 - 1))
        last = attempt == refits
        with warnings.catch_warnings():
            if not last:
                warnings.simplefilter("ignore", ConvergenceWarning)
            res = fit_hierarchical(x, seed=seed, **current)
        if attempt == 0:
            first_problems = res.diagnostics.problems
        if res.diagnostics.ok or last:
            break
        current["warmup"] = int(round(current.get("warmup", 1000) * refit_scale))
        current["draws"] = int(round(current.get("draws", 1000) * refit_scale))
        current["adapt_delta"] = max(rates[attempt], current.get("adapt_delta", 0.8))
    remedy = ""
    if attempt > 0:
        remedy = (
            f"refit {attempt} of {refits} (warmup {current['warmup']}, draws "
            f"{current['draws']}, adapt_delta {current['adapt_delta']:g}) after: "
            + "; ".join(first_problems)
        )
    return res, RefitRecord(attempts=attempt + 1, first_ok=not first_problems, remedy=remedy)
