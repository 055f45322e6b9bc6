"""Analyses given by a closed form.

References
----------
Corani, G., Benavoli, A., Demšar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837, Sec. 3 and Table 1.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import special

from cvcompare._validation import check_positive
from cvcompare.experiments.analyses import AnalysisOutput, register_analysis, reported

__all__ = ["gamma_prior"]


def _check_gamma(settings: dict[str, Any]) -> None:
    for key in ("alpha", "beta", "below"):
        check_positive(settings[key], key)


@register_analysis(
    "gamma_prior",
    defaults={"alpha": 2.0, "beta": 0.1, "below": 30.0},
    metrics=["mean", "sd", "p_below"],
    validate=_check_gamma,
)
def gamma_prior(
    settings: dict[str, Any], data: pd.DataFrame | None, rng: np.random.Generator
) -> AnalysisOutput:
    """Mean, standard deviation and ``P(nu < below)`` of ``nu ~ Gamma(alpha, beta)``.

    ``beta`` is the rate: the mean is ``alpha / beta``, the standard deviation
    ``sqrt(alpha) / beta`` and ``P(nu < c)`` the regularised lower incomplete gamma
    function ``P(alpha, beta c)`` (Corani et al. 2017, Table 1). All three are exact.
    Reported under the test label ``"gamma"``.
    """
    alpha, beta, below = (float(settings[k]) for k in ("alpha", "beta", "below"))
    return AnalysisOutput(
        rows=[
            reported("gamma", "mean", alpha / beta),
            reported("gamma", "sd", np.sqrt(alpha) / beta),
            reported("gamma", "p_below", special.gammainc(alpha, beta * below)),
        ]
    )
