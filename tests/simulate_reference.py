"""A plain per-fold implementation of the count-based classifiers, for checking and timing.

It fits scikit-learn's :class:`~sklearn.naive_bayes.CategoricalNB` on every training fold
(smoothing ``alpha`` on the conditional table; the Laplace-smoothed class prior of
:mod:`cvcompare.simulate.classifiers` passed as ``class_prior``) and loops over the test
instances of zeroR. It serves as the independent reference the vectorised code is tested
against and as the baseline of ``benchmarks/bench_nb_cv.py``.

A tie is declared when the two joint log-likelihoods differ by less than ``1e-11``. For
data sets of up to about 10^4 instances the scores are ratios of integers below 10^12, so
distinct scores differ by far more than that in log space, and rounding error (about
10^-15) by far less.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.naive_bayes import CategoricalNB

from cvcompare.simulate.classifiers import ZERO_R

__all__ = ["fold_correct_counts_reference"]

_TIE_TOLERANCE = 1e-11


def _predict_naive_bayes(x_train, y_train, x_test, bits, alpha: int) -> np.ndarray:
    n_c = np.bincount(y_train, minlength=2)
    prior = (n_c + alpha) / (n_c.sum() + 2 * alpha)
    model = CategoricalNB(alpha=alpha, class_prior=prior, min_categories=2)
    with warnings.catch_warnings():
        # A training fold with a single class is legitimate for tiny data sets.
        warnings.simplefilter("ignore", UserWarning)
        model.fit(x_train[:, None], y_train)
    jll = model.predict_joint_log_proba(x_test[:, None])
    if model.classes_.size == 1:  # only one class seen: it is always predicted
        return np.full(x_test.size, model.classes_[0])
    diff = jll[:, 1] - jll[:, 0]
    return np.where(np.abs(diff) < _TIE_TOLERANCE, bits, (diff > 0).astype(int))


def _predict_zero_r(y_train, n_test: int, bits) -> np.ndarray:
    n0 = int(np.sum(y_train == 0))
    n1 = y_train.size - n0
    if n0 == n1:
        return np.asarray(bits)
    return np.full(n_test, int(n1 > n0))


def fold_correct_counts_reference(
    y: np.ndarray,
    features: np.ndarray,
    learner: int | str,
    fold_ids: np.ndarray,
    folds: int,
    tie_bits: np.ndarray,
    *,
    alpha: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Same contract as :func:`cvcompare.simulate.classifiers.fold_correct_counts`.

    Loops over data sets, runs and folds and fits a model per fold.
    """
    q, m, _ = fold_ids.shape
    correct = np.zeros((q, m, folds), dtype=np.int64)
    n_test = np.zeros((q, m, folds), dtype=np.int64)
    for d in range(q):
        yd = y[d].astype(int)
        x = None if learner == ZERO_R else features[d, learner].astype(int)
        for r in range(m):
            for j in range(folds):
                test = fold_ids[d, r] == j
                bits = tie_bits[d, r, test].astype(int)
                if x is None:
                    pred = _predict_zero_r(yd[~test], int(test.sum()), bits)
                else:
                    pred = _predict_naive_bayes(x[~test], yd[~test], x[test], bits, alpha)
                correct[d, r, j] = np.sum(pred == yd[test])
                n_test[d, r, j] = test.sum()
    return correct, n_test
