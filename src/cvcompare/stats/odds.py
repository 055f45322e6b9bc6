"""Posterior odds between two hypotheses and their conventional grades of evidence.

When none of the posterior probabilities of a Bayesian comparison exceeds the decision
threshold, the ratio of two of them still says how much the data favour one hypothesis
over the other (e.g. ``o(right, rope) = p(right) / p(rope)``).

References
----------
Corani, G., Benavoli, A., Demsar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837, Sec. 4.6 and Table 3.

Raftery, A. E. (1995). Bayesian model selection in social research. Sociological
Methodology 25, 111-164.
"""

from __future__ import annotations

import math
from typing import Literal

from cvcompare._validation import check_probability, check_real

__all__ = ["evidence_grade", "posterior_odds"]

Grade = Literal["none", "weak", "positive", "strong"]


def posterior_odds(p_a: float, p_b: float) -> float:
    """Posterior odds ``o(a, b) = p_a / p_b`` of hypothesis ``a`` against ``b``.

    Parameters
    ----------
    p_a, p_b : float
        Posterior probabilities of two disjoint hypotheses (e.g. left of the rope and in
        it), in [0, 1], with ``p_a + p_b <= 1``.

    Returns
    -------
    float
        ``p_a / p_b``; ``inf`` when ``p_b == 0 < p_a``; ``1.0`` when both are zero (the
        data give neither hypothesis any support, hence no evidence for either).

    References
    ----------
    Corani et al. (2017), Sec. 4.6.

    Examples
    --------
    >>> posterior_odds(0.6, 0.03)
    20.0
    """
    p_a = check_probability(p_a, "p_a", open_low=False, open_high=False)
    p_b = check_probability(p_b, "p_b", open_low=False, open_high=False)
    if p_a + p_b > 1.0 + 1e-12:  # more than their sum's rounding
        raise ValueError(
            f"p_a, p_b: expected the probabilities of two disjoint hypotheses, whose sum is at "
            f"most 1, got {p_a} + {p_b} = {p_a + p_b}"
        )
    if p_b == 0:
        return math.inf if p_a > 0 else 1.0
    return p_a / p_b


def evidence_grade(odds: float) -> Grade:
    """Grade of evidence of posterior odds in favour of the first hypothesis.

    Parameters
    ----------
    odds : float
        Posterior odds, ``>= 0`` (``inf`` allowed).

    Returns
    -------
    {"none", "weak", "positive", "strong"}
        ``"none"`` for odds <= 1 (no evidence for the first hypothesis), ``"weak"`` for
        1 < odds <= 3, ``"positive"`` for 3 < odds <= 20 and ``"strong"`` above 20.

    References
    ----------
    Corani et al. (2017), Table 3 (after Raftery 1995): 1-3 weak, 3-20 positive,
    > 20 strong.

    Examples
    --------
    >>> evidence_grade(posterior_odds(0.6, 0.03)), evidence_grade(21.0)
    ('positive', 'strong')
    """
    value = check_real(odds, "odds", "a number >= 0")
    if math.isnan(value) or value < 0:
        raise ValueError(f"odds: expected a number >= 0 (inf allowed), got {value}")
    if value <= 1:
        return "none"
    if value <= 3:
        return "weak"
    if value <= 20:
        return "positive"
    return "strong"
