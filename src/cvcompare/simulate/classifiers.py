"""Naive Bayes on one binary feature and zeroR, computed from counts for every fold at once.

Both classifiers depend on the training data only through the 2 x 2 table of (class,
feature) counts, and the training table of a fold is the data set's table minus the test
fold's table. One ``bincount`` over (data set, run, fold, class, feature) cells therefore
gives every fold's model and every fold's number of correct predictions, without a loop.

Naive Bayes ``C -> F`` uses Laplace smoothing with count ``alpha`` (default 1, as WEKA's
``NaiveBayes`` for nominal attributes) on both the class prior and the conditional table:

``P(c) = (n_c + alpha) / (N + 2 alpha)``, ``P(f | c) = (n_fc + alpha) / (n_c + 2 alpha)``.

The class with the larger ``P(c) P(f | c)`` is predicted. The two scores are compared
exactly, as integers ``(n_0 + a)(n_f0 + a)(n_1 + 2a)`` vs ``(n_1 + a)(n_f1 + a)(n_0 + 2a)``,
so ties are detected exactly. ZeroR predicts the majority class of the training fold.
Ties of either classifier are broken at random by a per-instance bit supplied by the
caller (drawn from the seeded stream), so a tied test instance is predicted as its bit.

References
----------
Corani et al. (2017), App. 6.1 (classifiers ``C -> F`` and ``C -> G``); Corani & Benavoli
(2015), Sec. 4 (zeroR, "if the two classes are equally frequent in the training set, it
randomly draws the prediction").
"""

from __future__ import annotations

import numpy as np

__all__ = ["ZERO_R", "fold_correct_counts", "fold_test_tables"]

#: Learner specification for zeroR in :func:`fold_correct_counts` (an ``int`` ``j`` means
#: naive Bayes on feature ``j``).
ZERO_R = "zero_r"


def fold_test_tables(
    y: np.ndarray, x: np.ndarray, fold_ids: np.ndarray, folds: int, tie_bits: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Count test instances per (class, feature) cell of every fold.

    Parameters
    ----------
    y, x : numpy.ndarray
        ``(q, n)`` class and feature, values in {0, 1}.
    fold_ids : numpy.ndarray
        ``(q, m, n)`` fold of every instance in every run, values in ``0..folds-1``.
    folds : int
        Number of folds ``k``.
    tie_bits : numpy.ndarray
        ``(q, m, n)`` tie-breaking bits in {0, 1}.

    Returns
    -------
    counts, ones : numpy.ndarray
        ``(q, m, k, 2, 2)``: test instances per cell ``[class, feature]``, and how many of
        them have tie bit 1.
    """
    q, m, n = fold_ids.shape
    cell = (2 * y + x).astype(np.intp)[:, None, :]
    base = (np.arange(q * m, dtype=np.intp).reshape(q, m, 1) * folds + fold_ids) * 4
    index = (base + cell).ravel()
    size = q * m * folds * 4
    counts = np.bincount(index, minlength=size).reshape(q, m, folds, 2, 2)
    ones = np.bincount(index, weights=tie_bits.ravel(), minlength=size)
    return counts, ones.astype(np.int64).reshape(q, m, folds, 2, 2)


def _naive_bayes_predictions(train: np.ndarray, alpha: int) -> tuple[np.ndarray, np.ndarray]:
    """Prediction and tie flag for feature values 0 and 1 from training tables ``(..., 2, 2)``."""
    n_c = train.sum(axis=-1)  # (..., 2) class counts
    n_c0, n_c1 = n_c[..., 0:1], n_c[..., 1:2]  # keep a trailing axis over feature values
    score0 = (n_c0 + alpha) * (train[..., 0, :] + alpha) * (n_c1 + 2 * alpha)
    score1 = (n_c1 + alpha) * (train[..., 1, :] + alpha) * (n_c0 + 2 * alpha)
    return (score1 > score0).astype(np.int8), score0 == score1


def _zero_r_predictions(train: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Majority class of the training tables, repeated for both feature values."""
    n_c = train.sum(axis=-1)
    pred = (n_c[..., 1] > n_c[..., 0]).astype(np.int8)
    tie = n_c[..., 1] == n_c[..., 0]
    shape = (*pred.shape, 2)
    return np.broadcast_to(pred[..., None], shape), np.broadcast_to(tie[..., None], shape)


def fold_correct_counts(
    y: np.ndarray,
    features: np.ndarray,
    learner: int | str,
    fold_ids: np.ndarray,
    folds: int,
    tie_bits: np.ndarray,
    *,
    alpha: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Correct predictions and test-set sizes of one classifier in every fold.

    Parameters
    ----------
    y : numpy.ndarray
        ``(q, n)`` class labels in {0, 1}.
    features : numpy.ndarray
        ``(q, n_features, n)`` binary features.
    learner : int or "zero_r"
        ``j``: naive Bayes ``C -> X_j``; ``"zero_r"``: the majority classifier.
    fold_ids : numpy.ndarray
        ``(q, m, n)`` fold of every instance in every run.
    folds : int
        Number of folds ``k``.
    tie_bits : numpy.ndarray
        ``(q, m, n)`` bits used as the prediction of a tied instance.
    alpha : int
        Laplace count of naive Bayes (ignored by zeroR).

    Returns
    -------
    correct, n_test : numpy.ndarray
        ``(q, m, k)`` integer counts.
    """
    if (y.shape[-1] + 2 * alpha) ** 3 > np.iinfo(np.int64).max:
        # the naive-Bayes scores are products of three counts of at most n + 2 alpha
        raise ValueError(
            f"y: {y.shape[-1]} instances with alpha = {alpha} overflow the exact int64 scores "
            "(n + 2 alpha)^3; use fewer than about two million instances"
        )
    x = np.zeros_like(y) if learner == ZERO_R else features[:, learner, :]
    counts, ones = fold_test_tables(y, x, fold_ids, folds, tie_bits)
    # Every run partitions the data set, so the training table is total minus test table.
    total = counts[:, :1].sum(axis=2, keepdims=True)  # (q, 1, 1, 2, 2)
    train = total - counts
    if learner == ZERO_R:
        pred, tie = _zero_r_predictions(train)
    else:
        pred, tie = _naive_bayes_predictions(train, alpha)
    # pred, tie: (q, m, k, 2) indexed by feature value; cell [c, f] is right iff pred[f] == c.
    classes = np.arange(2).reshape(2, 1)
    right = pred[..., None, :] == classes
    tied_right = np.stack([counts[..., 0, :] - ones[..., 0, :], ones[..., 1, :]], axis=-2)
    per_cell = np.where(tie[..., None, :], tied_right, np.where(right, counts, 0))
    return per_cell.sum(axis=(-2, -1)), counts.sum(axis=(-2, -1))
