"""Weighted sums over pairs of observations without the ``q x q`` matrix of pairs.

The Bayesian signed-rank tests need, for many weight vectors ``w``, quadratic forms
``sum_ij w_i w_j A_ij`` with ``A_ij = H(z_i + z_j - c)`` (``H`` the Heaviside function with
``H(0) = 1/2``). For fixed ``i`` the entry is a step function of ``z_j``, so once the
observations are sorted the inner sum ``sum_j w_j A_ij`` is a difference of prefix sums of
the sorted weights, read at two indices that depend on ``z`` and ``c`` only (equal unless
some ``z_i + z_j = c``). The indices cost ``O(q log q)`` once; each weight vector then costs
``O(q)`` (one permutation, one cumulative sum, one gather, a second one for the rows with
ties, one dot product) instead of ``O(q^2)``.

The indices reproduce the matrix exactly: ``A_ij`` is defined by the sign of the
floating-point number ``(z_i + z_j) - c`` as the matrix would compute it, which is a
non-decreasing function of ``z_j`` (rounding is monotone), so the ``j`` where it is negative,
zero and positive are three consecutive runs of the sorted ``z``, found by bisection on that
very expression. The forms then differ from the matrix products only by the order of the
floating-point additions.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

__all__ = ["PairSums"]


def _count_below(zs: np.ndarray, shift: float, *, strict: bool) -> np.ndarray:
    """For every ``i``, the number of ``j`` with ``(zs_i + zs_j) - shift`` < 0 (or <= 0).

    ``zs`` is sorted; the expression is non-decreasing in ``j``, so a bisection run for all
    ``i`` at once finds the first ``j`` where the comparison fails.
    """
    m = zs.size
    lo = np.zeros(m, dtype=np.intp)
    hi = np.full(m, m, dtype=np.intp)
    while np.any(lo < hi):
        active = lo < hi
        mid = (lo + hi) // 2
        value = (zs + zs[np.minimum(mid, m - 1)]) - shift
        holds = value < 0 if strict else value <= 0
        lo = np.where(active & holds, mid + 1, lo)
        hi = np.where(active & ~holds, mid, hi)
    return lo


class PairSums:
    """Row sums ``sum_j w_j (1 - H(z_i + z_j - c))`` of the pair matrices of one sample ``z``.

    Parameters
    ----------
    z : numpy.ndarray, shape (m,)
        The observations (infinite values allowed, as long as ``+inf`` and ``-inf`` do not
        both occur).
    shifts : iterable of float
        The constants ``c`` of the matrices that will be evaluated.

    Notes
    -----
    Everything is returned in the sorted order of ``z`` (``order``), with the observations
    along the first axis and the weight vectors along the second, so that the cumulative
    sums run over rows of weight vectors (vectorised across them); a quadratic form
    ``w A w^T`` is the column-wise dot product of the sorted weights with the row sums.
    """

    def __init__(self, z: np.ndarray, shifts: Iterable[float]) -> None:
        self.order = np.argsort(z, kind="stable")
        self.z_sorted = z[self.order]
        self._steps = {}
        for c in shifts:
            strict = _count_below(self.z_sorted, c, strict=True)
            loose = _count_below(self.z_sorted, c, strict=False)
            ties = np.flatnonzero(loose != strict)  # rows with some z_i + z_j = c
            self._steps[c] = (strict, ties, strict[ties], loose[ties])

    def sort(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Sort the weights of each row of ``w`` (shape (k, m)) as ``z``; add prefix sums.

        Parameters
        ----------
        w : numpy.ndarray, shape (k, m)
            ``k`` weight vectors, each with one weight per observation in the order of
            ``z`` as given.

        Returns
        -------
        w_sorted : numpy.ndarray, shape (m, k)
            The weights in the order of ``z``, one column per weight vector.
        prefix : numpy.ndarray, shape (m + 1, k)
            ``prefix[j]`` is the sum of the first ``j`` sorted weights; the last row is the
            total weight.
        """
        w_sorted = np.take(w.T, self.order, axis=0)
        prefix = np.zeros((w_sorted.shape[0] + 1, w_sorted.shape[1]))
        np.cumsum(w_sorted, axis=0, out=prefix[1:])
        return w_sorted, prefix

    @staticmethod
    def forms(w_sorted: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """``sum_i w_i rows_i`` for every weight vector: the quadratic forms, shape (k,).

        Parameters
        ----------
        w_sorted : numpy.ndarray, shape (m, k)
            Sorted weights, from :meth:`sort`.
        rows : numpy.ndarray, shape (m, k) or (m, 1)
            Row sums, from :meth:`below` or :meth:`diagonal_below`.

        Returns
        -------
        numpy.ndarray, shape (k,)
            ``w A w^T`` for each of the ``k`` weight vectors.
        """
        return np.einsum("jk,jk->k", w_sorted, rows)

    def below(self, prefix: np.ndarray, shift: float) -> np.ndarray:
        """``sum_j w_j (1 - H(z_i + z_j - shift))`` for every sorted ``i``, shape (m, k).

        The weight of the ``j`` with ``z_i + z_j < shift`` plus half the weight of those with
        ``z_i + z_j = shift``, from the prefix sums of :meth:`sort`.

        Parameters
        ----------
        prefix : numpy.ndarray, shape (m + 1, k)
            Prefix sums of the sorted weights, from :meth:`sort`.
        shift : float
            The constant ``c``; one of the ``shifts`` given to the constructor.

        Returns
        -------
        numpy.ndarray, shape (m, k)
            The row sums, observations in the sorted order of ``z``.

        Raises
        ------
        KeyError
            If ``shift`` is not one of the constructor's ``shifts``.
        """
        strict, ties, tie_start, tie_stop = self._steps[shift]
        out = np.take(prefix, strict, axis=0)
        if ties.size:  # only rows with ties gather twice
            out[ties] += 0.5 * (prefix[tie_stop] - prefix[tie_start])
        return out

    def diagonal_below(self, shift: float) -> np.ndarray:
        """``1 - H(z_i + z_i - shift)`` for every sorted ``i``, shape (m, 1): the diagonal.

        Parameters
        ----------
        shift : float
            The constant ``c`` (any value; not only the constructor's ``shifts``).

        Returns
        -------
        numpy.ndarray, shape (m, 1)
            The diagonal entries ``1 - A_ii``, in the sorted order of ``z``.
        """
        return 1.0 - np.heaviside((self.z_sorted + self.z_sorted) - shift, 0.5)[:, None]

    def dirichlet_means(self, alpha: np.ndarray, forms) -> list[float]:
        """Exact ``E[w A w^T]`` for ``w ~ Dir(alpha)`` of the matrices of ``forms``.

        Uses ``E[w_i w_j] = (alpha_i alpha_j + delta_ij alpha_i) / (alpha_0 (alpha_0 + 1))``,
        so ``E[w A w^T] = (alpha A alpha^T + sum_i alpha_i A_ii) / (alpha_0 (alpha_0 + 1))``.

        Parameters
        ----------
        alpha : numpy.ndarray, shape (m,)
            Dirichlet parameters, in the order of ``z``.
        forms : callable
            ``forms(w_sorted, total, below)`` returns the quadratic forms ``w A w^T`` (a list
            of arrays, one per matrix) from sorted weights (:meth:`sort`), their total and a
            function ``below(shift)`` giving the row sums (:meth:`below` with the prefix sums
            bound). Called once with the weights ``alpha`` and once with ``total = 1`` and
            ``below = diagonal_below``, which turns every form into ``sum_i alpha_i A_ii``.

        Returns
        -------
        list of float
            One mean per matrix.
        """
        a_sorted, prefix = self.sort(alpha[None, :])
        full = forms(a_sorted, prefix[-1:], lambda c: self.below(prefix, c))
        diagonal = forms(a_sorted, 1.0, self.diagonal_below)
        a0 = float(alpha.sum())
        return [float(f[0] + d[0]) / (a0 * (a0 + 1.0)) for f, d in zip(full, diagonal, strict=True)]
