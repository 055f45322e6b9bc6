"""How ``hierarchical.stan`` lays out its parameters for the sampler.

The program samples raw parameters of about unit posterior scale (its notes 5 and 6): each
raw parameter has an offset and a multiplier guessed from the data, and data sets whose
mean lies far from the others take their own log Student-t weight as parameter (centred)
instead of the standardised one. This module makes those choices once, from the sufficient
statistics, and hands them to Stan as data, so that every reader of the data (the Stan
program through any runner, and the hand-written gradient of the native runner,
``hierarchical_gradient.hpp``) uses the same layout. Only the parameterisation depends on
these choices, never the posterior.

References
----------
Corani, G., Benavoli, A., Demsar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837, Sec. 3 (the model whose parameters are laid out here).
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["CENTRING_SPREADS", "sampler_layout"]


#: A data set is centred when its mean lies more than this many spreads from the median of
#: the means (note 6 of ``hierarchical.stan``): at 6 to 7 spreads centring caused
#: divergences, at 10 it pays.
CENTRING_SPREADS = 10.0
#: Multiplier of sigma0's raw parameter and of a centred log lambda_i (notes 5 and 6).
SIGMA0_MULTIPLIER = 0.3
LOG_LAMBDA_MULTIPLIER = 1.5


def _logit_guess(x: np.ndarray | float, hi: float) -> np.ndarray:
    """Logit of ``x / hi`` with ``x / hi`` kept inside [1e-12, 0.9]: a location guess."""
    return special.logit(np.clip(np.asarray(x, dtype=float) / hi, 1e-12, 0.9))


def _lower_median(values: np.ndarray) -> float:
    """The ``(q + 1) // 2``-th smallest value (the median for odd q, the lower one for even)."""
    return float(np.sort(values)[(values.size + 1) // 2 - 1])


def sampler_layout(data: dict[str, object]) -> dict[str, object]:
    """Slots, offsets and multipliers of the program's raw parameters (its notes 5 and 6).

    Parameters
    ----------
    data : dict
        The model's entries of the program's data block
        (:func:`~cvcompare.hierarchical.priors.model_data`): ``xbar`` and ``ss``, the mean
        and sum of squared deviations of each data set's ``n`` fold differences; ``rho``;
        the prior bounds ``delta0_lo``, ``delta0_hi``, ``sigma_hi`` and ``sigma0_hi``; and
        ``student`` (only a Student-t top level has data sets to centre).

    Returns
    -------
    dict
        The layout entries of the program's data block:

        * ``n_c``, ``slot_of``: the number of centred data sets and the slot (1-based) of
          each data set; the non-centred data sets take the first slots, in their order,
          then the centred ones;
        * ``delta0_offset``, ``delta0_multiplier``, ``sigma0_offset``,
          ``sigma0_multiplier``: the guesses of ``delta0_raw`` and ``sigma0_raw``;
        * ``sigma_offset``, ``sigma_multiplier``: the guesses of ``sigma_raw``, in slot
          order (``sigma_i`` is pinned by ``ss_i`` to a relative sd of about
          ``1 / sqrt(2 (n - 1))``);
        * ``log_lambda_offset``: the guess of each centred ``log lambda_i``, in slot order:
          ``log lambda_i`` if ``t_i`` were the squared distance of ``xbar_i`` to the median
          (its multiplier: ``log_lambda_multiplier``).
    """
    xbar = np.asarray(data["xbar"], dtype=float)
    ss = np.asarray(data["ss"], dtype=float)
    n, rho = int(data["n"]), float(data["rho"])
    lo, hi = float(data["delta0_lo"]), float(data["delta0_hi"])
    sigma_hi, sigma0_hi = float(data["sigma_hi"]), float(data["sigma0_hi"])
    v_factor = (1 + (n - 1) * rho) / n
    sigma_mode = np.sqrt(ss / ((n - 1) * (1 - rho)))  # maximises note 1's sigma_i terms
    centre = _lower_median(xbar)
    spread = 1.4826 * _lower_median(np.abs(xbar - centre))  # scaled MAD of the means
    far = np.abs(xbar - centre) > CENTRING_SPREADS * np.maximum(
        spread, np.sqrt(v_factor) * sigma_mode
    )
    centred = far if data["student"] else np.zeros_like(far)
    slot_set = np.concatenate([np.flatnonzero(~centred), np.flatnonzero(centred)])
    slot_of = np.empty(xbar.size, dtype=int)
    slot_of[slot_set] = np.arange(1, xbar.size + 1)

    sigma_offset = _logit_guess(sigma_mode[slot_set], sigma_hi)
    sigma_multiplier = 1 / np.sqrt(2.0 * (n - 1)) / (1 - special.expit(sigma_offset))
    width = hi - lo
    guess = min(max(centre, lo + 0.01 * width), hi - 0.01 * width)
    delta0_multiplier = (
        max(spread, float(np.sqrt(v_factor * np.mean(sigma_mode**2))))
        / np.sqrt(xbar.size)
        * width
        / ((guess - lo) * (hi - guess))
    )
    far_means = xbar[slot_set][xbar.size - int(centred.sum()) :]
    log_lambda_offset = 2 * (np.log(max(spread, 1e-3)) - np.log(np.abs(far_means - centre)))
    return {
        "n_c": int(centred.sum()),
        "slot_of": slot_of,
        "delta0_offset": float(special.logit((guess - lo) / width)),
        "delta0_multiplier": float(delta0_multiplier),
        "sigma0_offset": float(_logit_guess(max(spread, 1e-3), sigma0_hi)),
        "sigma0_multiplier": SIGMA0_MULTIPLIER,
        "sigma_offset": sigma_offset,
        "sigma_multiplier": sigma_multiplier,
        "log_lambda_offset": log_lambda_offset,
        "log_lambda_multiplier": LOG_LAMBDA_MULTIPLIER,
    }
