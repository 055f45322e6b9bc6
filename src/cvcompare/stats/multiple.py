"""Multiple-comparison adjustment of the p-values of several pairwise tests.

References
----------
Holm, S. (1979). A simple sequentially rejective multiple test procedure. Scandinavian
Journal of Statistics 6(2), 65-70. Demsar, J. (2006). Statistical comparisons of classifiers
over multiple data sets. JMLR 7, Sec. 3.2.2 (Holm's procedure for pairwise comparisons).
"""

from __future__ import annotations

import numpy as np

from cvcompare._validation import check_array

__all__ = ["holm_adjust"]


def holm_adjust(pvalues: object) -> np.ndarray:
    """Holm's step-down adjusted p-values.

    With the ``m`` p-values sorted increasingly, ``p_(1) <= ... <= p_(m)``, the adjusted
    value of ``p_(i)`` is ``max_{j <= i} min(1, (m - j + 1) p_(j))``; a hypothesis is
    rejected by Holm's procedure at level ``alpha`` exactly when its adjusted p-value is at
    most ``alpha``. The family-wise error rate is controlled at ``alpha``.

    Parameters
    ----------
    pvalues : array_like, shape (m,)
        P-values in [0, 1] of ``m >= 1`` tests.

    Returns
    -------
    numpy.ndarray, shape (m,)
        Adjusted p-values, in the order of the input.

    References
    ----------
    Holm (1979); Demsar (2006), Sec. 3.2.2.

    Examples
    --------
    >>> holm_adjust([0.01, 0.04, 0.03]).round(4).tolist()
    [0.03, 0.06, 0.06]
    """
    p = check_array(pvalues, "pvalues", ndim=1, min_size=1, axis_names=("tests",))
    if np.any((p < 0) | (p > 1)):
        raise ValueError(f"pvalues: expected values in [0, 1], got {p[(p < 0) | (p > 1)][0]:g}")
    m = p.size
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.maximum.accumulate(stepped)
    return out
