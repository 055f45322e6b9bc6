"""Paired, repeated, stratified (or plain) k-fold cross-validation.

Stratified folds are made as in the authors' code: shuffle the instances, sort them by
class (a stable sort, so the shuffled order is kept within a class), and assign fold ids
``0, 1, ..., k-1, 0, 1, ...`` cyclically down the sorted list. Each fold thus gets either
``floor`` or ``ceil`` of ``n_c / k`` instances of every class ``c``. Plain folds
(``stratify=False``) skip the sort: the ids are assigned down the shuffled list, so every
fold has ``floor`` or ``ceil`` of ``n / k`` instances whatever their class. Both learners are
evaluated on the same folds, and the fold-level differences are ``acc_a - acc_b``.

Results are ordered run-major: entry ``r * k + j`` is fold ``j`` of run ``r``.

References
----------
Corani et al. (2017), Sec. 2 and App. 6.1 (10 runs of 10-fold cross-validation, paired
folds); Corani & Benavoli (2015), Sec. 2 (``rho = n_test / n_total``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import check_array, check_bool, check_int
from ..seeding import RngLike, as_generator
from .classifiers import ZERO_R, fold_correct_counts
from .generators import BinaryData

__all__ = [
    "PairedCVResult",
    "check_cv_design",
    "paired_cv_binary",
    "paired_cv_estimators",
    "stratified_fold_ids",
]


@dataclass(frozen=True)
class PairedCVResult:
    """Fold-level accuracies of two learners on the same folds of ``q`` data sets.

    Attributes
    ----------
    acc_a, acc_b : numpy.ndarray
        ``(q, m*k)`` accuracies (fractions), run-major.
    n_test : numpy.ndarray
        ``(q, m*k)`` test-fold sizes.
    n_total : numpy.ndarray
        ``(q,)`` data set sizes.
    """

    acc_a: np.ndarray
    acc_b: np.ndarray
    n_test: np.ndarray
    n_total: np.ndarray

    @property
    def diffs(self) -> np.ndarray:
        """``(q, m*k)`` differences ``acc_a - acc_b``."""
        return self.acc_a - self.acc_b

    @property
    def rho(self) -> np.ndarray:
        """``(q,)`` mean test-fold size over data set size; exactly ``1/k`` for k-fold CV."""
        return self.n_test.mean(axis=1) / self.n_total


def check_cv_design(runs: object, folds: object, n: int) -> tuple[int, int]:
    """Check ``runs >= 1``, ``folds >= 2`` and ``folds <= n`` (every fold non-empty).

    Parameters
    ----------
    runs : object
        Number of repetitions of cross-validation.
    folds : object
        Number of folds.
    n : int
        Number of instances of each data set (not checked).

    Returns
    -------
    tuple of int
        ``(runs, folds)`` as ints.

    Raises
    ------
    TypeError
        If ``runs`` or ``folds`` is not an integer (booleans included).
    ValueError
        If ``runs < 1``, ``folds < 2`` or ``folds > n``.
    """
    runs = check_int(runs, "runs", minimum=1)
    folds = check_int(folds, "folds", minimum=2)
    if folds > n:
        raise ValueError(
            f"folds: expected at most as many folds as instances (n = {n}), got {folds}"
        )
    return runs, folds


def stratified_fold_ids(
    y: object, *, runs: int, folds: int, rng: RngLike, stratify: bool = True
) -> np.ndarray:
    """Fold ids of ``runs`` repetitions of stratified ``folds``-fold cross-validation.

    Parameters
    ----------
    y : array_like
        Class labels (integers), shape ``(n,)`` or ``(q, n)`` for ``q`` data sets.
    runs : int
        Number of repetitions ``m`` (>= 1).
    folds : int
        Number of folds ``k`` (2 <= k <= n).
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness.
    stratify : bool
        False: plain random folds of equal size, the class ignored (the same random
        numbers are drawn either way).

    Returns
    -------
    numpy.ndarray
        ``(runs, n)`` (or ``(q, runs, n)``) fold ids in ``0..k-1``.
    """
    labels = np.asarray(y)
    if labels.ndim not in (1, 2) or not np.issubdtype(labels.dtype, np.integer):
        raise ValueError(
            f"y: expected a 1-D or 2-D array of integer class labels, got dtype "
            f"{labels.dtype} and shape {labels.shape}"
        )
    batch = labels if labels.ndim == 2 else labels[None, :]
    q, n = batch.shape
    runs, folds = check_cv_design(runs, folds, n)
    stratify = check_bool(stratify, "stratify")
    gen = as_generator(rng)
    shuffled = np.argsort(gen.random((q, runs, n)), axis=-1)
    order = shuffled
    if stratify:
        by_class = np.argsort(
            np.take_along_axis(np.broadcast_to(batch[:, None, :], shuffled.shape), shuffled, -1),
            axis=-1,
            kind="stable",
        )
        order = np.take_along_axis(shuffled, by_class, axis=-1)
    fold_ids = np.empty((q, runs, n), dtype=np.intp)
    cyclic = np.broadcast_to(np.arange(n, dtype=np.intp) % folds, order.shape)
    np.put_along_axis(fold_ids, order, cyclic, axis=-1)
    return fold_ids if labels.ndim == 2 else fold_ids[0]


def _check_learner(learner: object, n_features: int, name: str) -> int | str:
    if learner == ZERO_R:
        return ZERO_R
    if isinstance(learner, (int, np.integer)) and not isinstance(learner, bool):
        if 0 <= learner < n_features:
            return int(learner)
    raise ValueError(
        f"{name}: expected 'zero_r' or a feature index in 0..{n_features - 1} (naive Bayes "
        f"on that feature), got {learner!r}"
    )


def paired_cv_binary(
    data: BinaryData,
    learner_a: int | str,
    learner_b: int | str,
    *,
    runs: int = 10,
    folds: int = 10,
    rng: RngLike,
    alpha: int = 1,
    stratify: bool = True,
) -> PairedCVResult:
    """Repeated stratified CV of two count-based classifiers on binary data, vectorised.

    Parameters
    ----------
    data : BinaryData
        ``q`` data sets of ``n`` instances.
    learner_a, learner_b : int or "zero_r"
        A feature index ``j`` (naive Bayes ``C -> X_j``) or ``"zero_r"``.
    runs, folds : int
        ``m`` repetitions of ``k``-fold cross-validation.
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Draws the folds and then, for each learner, one tie-breaking bit per instance and
        run.
    alpha : int
        Laplace count of naive Bayes (>= 1); see :mod:`cvcompare.simulate.classifiers`.
    stratify : bool
        False: plain random folds (see :func:`stratified_fold_ids`).

    Returns
    -------
    PairedCVResult

    References
    ----------
    Corani et al. (2017), App. 6.1; Corani & Benavoli (2015), Sec. 4.
    """
    y, features = data.y, data.features
    q, n = y.shape
    a = _check_learner(learner_a, features.shape[1], "learner_a")
    b = _check_learner(learner_b, features.shape[1], "learner_b")
    alpha = check_int(alpha, "alpha", minimum=1)
    gen = as_generator(rng)
    fold_ids = stratified_fold_ids(y, runs=runs, folds=folds, rng=gen, stratify=stratify)
    bits = gen.integers(0, 2, size=(2, q, runs, n), dtype=np.int8)
    correct_a, n_test = fold_correct_counts(y, features, a, fold_ids, folds, bits[0], alpha=alpha)
    correct_b, _ = fold_correct_counts(y, features, b, fold_ids, folds, bits[1], alpha=alpha)
    n_test = n_test.reshape(q, -1)
    return PairedCVResult(
        acc_a=correct_a.reshape(q, -1) / n_test,
        acc_b=correct_b.reshape(q, -1) / n_test,
        n_test=n_test,
        n_total=np.full(q, n),
    )


LearnerFactory = Callable[[np.random.Generator], Any]


def paired_cv_estimators(
    X: np.ndarray,
    y: np.ndarray,
    make_a: LearnerFactory,
    make_b: LearnerFactory,
    *,
    runs: int = 10,
    folds: int = 10,
    rng: RngLike,
) -> PairedCVResult:
    """Repeated stratified CV of two estimators with ``fit``/``predict`` on one data set.

    Parameters
    ----------
    X : numpy.ndarray
        ``(n, p)`` features.
    y : numpy.ndarray
        ``(n,)`` integer class labels.
    make_a, make_b : callable
        ``factory(generator) -> estimator``; called once per fold, so a randomised learner
        gets its own stream.
    runs, folds : int
        ``m`` repetitions of ``k``-fold cross-validation.
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness.

    Returns
    -------
    PairedCVResult
        With ``q = 1``.
    """
    y = np.asarray(y)
    X = check_array(X, "X", ndim=2)
    if y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise ValueError(
            f"X, y: expected X of shape (n, p) and y of shape (n,), got {X.shape} and {y.shape}"
        )
    gen = as_generator(rng)
    fold_ids = stratified_fold_ids(y, runs=runs, folds=folds, rng=gen)
    acc = np.empty((2, runs * folds))
    n_test = np.empty(runs * folds, dtype=np.int64)
    for r in range(runs):
        for j in range(folds):
            test = fold_ids[r] == j
            n_test[r * folds + j] = test.sum()
            for i, make in enumerate((make_a, make_b)):
                model = make(gen).fit(X[~test], y[~test])
                acc[i, r * folds + j] = np.mean(model.predict(X[test]) == y[test])
    return PairedCVResult(
        acc_a=acc[0][None, :],
        acc_b=acc[1][None, :],
        n_test=n_test[None, :],
        n_total=np.array([y.size]),
    )
