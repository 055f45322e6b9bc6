"""Linear discriminant analysis, the arithmetic of scikit-learn's SVD solver without its
per-call overhead.

The Friedman experiments fit LDA 3,600 times per replication on small data sets, where
scikit-learn's input validation and label handling cost more than the fit itself. This
class computes exactly what :class:`sklearn.discriminant_analysis.LinearDiscriminantAnalysis`
(``solver="svd"``, ``tol=1e-4``, priors from the class frequencies) computes, in the same
order of operations: within-class centring and scaling by the pooled per-feature sd, an
SVD whose singular values below ``tol`` are dropped (so collinear or too few instances
are handled the same way, without the warning), the between-class SVD, and the linear
decision function; ties of the binary decision go to the first class.

References
----------
Hastie, Tibshirani & Friedman (2009), *The Elements of Statistical Learning*, Sec. 4.3
(LDA and its computation by the SVD of the scaled within-class data).
"""

from __future__ import annotations

import contextlib
import functools

import numpy as np
import scipy.linalg

__all__ = ["LinearDiscriminant"]


@functools.cache
def _blas():
    """The BLAS and LAPACK libraries of the process, held to one thread during a fit: the
    matrices are too small for threads to pay, and a threaded SVD of a tall one can cost far
    more (900 x 25 on 2 cores with another process running: 110 ms against 0.4 ms).
    threadpoolctl comes with the workflow extra, which the simulations need."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


class LinearDiscriminant:
    """LDA classifier (scikit-learn's SVD solver, default settings).

    Parameters
    ----------
    tol : float
        Singular values below ``tol`` (within) or ``tol * S[0]`` (between) are dropped.
    """

    def __init__(self, tol: float = 1e-4) -> None:
        self.tol = float(tol)

    def fit(self, X: np.ndarray, y: np.ndarray) -> LinearDiscriminant:
        """Fit to ``(n, p)`` features and ``(n,)`` labels (at least two classes).

        Parameters
        ----------
        X : numpy.ndarray, shape (n, p)
            Features (not checked for finiteness).
        y : numpy.ndarray, shape (n,)
            Class labels of any sortable type; ``classes_`` holds them sorted.

        Returns
        -------
        LinearDiscriminant
            ``self``, with ``classes_``, ``coef_`` and ``intercept_`` set.

        Raises
        ------
        ValueError
            If ``y`` has fewer than two classes.
        """
        blas = _blas()
        threads = (lib["num_threads"] for lib in blas.info() if lib["user_api"] == "blas")
        # the limit costs about 0.05 ms, a fifth of a small fit: only where it changes a thing
        held = blas.limit(limits=1, user_api="blas") if max(threads, default=1) > 1 else None
        with held or contextlib.nullcontext():
            return self._fit(np.asarray(X, dtype=float), y)

    def _fit(self, X: np.ndarray, y: np.ndarray) -> LinearDiscriminant:
        self.classes_, y_int = np.unique(y, return_inverse=True)
        n, k = y_int.size, self.classes_.size
        if k < 2:
            raise ValueError(f"y: expected at least two classes, got {k}")
        counts = np.bincount(y_int)
        priors = counts / float(n)
        means = np.zeros((k, X.shape[1]))
        np.add.at(means, y_int, X)
        means /= counts[:, None]
        Xc = np.concatenate([X[y_int == g] - means[g] for g in range(k)], axis=0)
        xbar = priors @ means
        std = np.std(Xc, axis=0)
        std[std == 0] = 1.0
        scaled = np.sqrt(1.0 / n) * (Xc / std)
        _, S, Vt = scipy.linalg.svd(scaled, full_matrices=False)
        rank = int(np.sum(S > self.tol))
        scalings = (Vt[:rank, :] / std).T / S[:rank]
        between = ((np.sqrt((n * priors) * (1.0 / (k - 1)))) * (means - xbar).T).T @ scalings
        _, S, Vt = scipy.linalg.svd(between, full_matrices=False)
        rank = int(np.sum(S > self.tol * S[0]))
        scalings = scalings @ Vt.T[:, :rank]
        coef = (means - xbar) @ scalings
        intercept = -0.5 * np.sum(coef**2, axis=1) + np.log(priors)
        coef = coef @ scalings.T
        intercept -= xbar @ coef.T
        if k == 2:
            coef = (coef[1, :] - coef[0, :]).reshape(1, -1)
            intercept = np.reshape(intercept[1] - intercept[0], (1,))
        self.coef_, self.intercept_ = coef, intercept
        return self

    def decision_function(self, X: np.ndarray) -> np.ndarray:
        """``X @ coef_.T + intercept_``: ``(n,)`` for two classes, else ``(n, k)``.

        Parameters
        ----------
        X : numpy.ndarray, shape (n, p)
            Features, as in :meth:`fit`.

        Returns
        -------
        numpy.ndarray, shape (n,) or (n, k)
            For two classes, positive scores favour the second of ``classes_``.
        """
        scores = np.asarray(X, dtype=float) @ self.coef_.T + self.intercept_
        return scores.reshape(-1) if scores.shape[1] == 1 else scores

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The class of largest discriminant score.

        Parameters
        ----------
        X : numpy.ndarray, shape (n, p)
            Features, as in :meth:`fit`.

        Returns
        -------
        numpy.ndarray, shape (n,)
            Labels from ``classes_``; a binary score of exactly 0 goes to the first class.
        """
        scores = self.decision_function(X)
        index = (scores > 0).astype(int) if scores.ndim == 1 else np.argmax(scores, axis=1)
        return self.classes_[index]
