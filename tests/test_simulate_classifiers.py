"""Vectorised naive Bayes / zeroR equal a per-fold scikit-learn implementation exactly."""

import numpy as np
import pytest
from simulate_reference import fold_correct_counts_reference

from cvcompare.simulate.classifiers import ZERO_R, fold_correct_counts, fold_test_tables
from cvcompare.simulate.cv import stratified_fold_ids
from cvcompare.simulate.generators import bn_data, nb_features_data


def _case(n, theta, q, runs, folds, seed):
    gen = np.random.default_rng(seed)
    data = bn_data(n, np.full(q, theta), gen)
    fold_ids = stratified_fold_ids(data.y, runs=runs, folds=folds, rng=gen)
    bits = gen.integers(0, 2, size=fold_ids.shape, dtype=np.int8)
    return data, fold_ids, bits


@pytest.mark.parametrize(
    "n, theta, folds, alpha",
    [(12, 0.5, 3, 1), (25, 0.5, 10, 1), (25, 0.55, 10, 2), (100, 0.6, 10, 1), (500, 0.9, 10, 1)],
)
@pytest.mark.parametrize("learner", [0, ZERO_R])
def test_vectorised_equals_per_fold_reference(n, theta, folds, alpha, learner):
    data, fold_ids, bits = _case(n, theta, q=6, runs=3, folds=folds, seed=n + folds)
    fast = fold_correct_counts(data.y, data.features, learner, fold_ids, folds, bits, alpha=alpha)
    slow = fold_correct_counts_reference(
        data.y, data.features, learner, fold_ids, folds, bits, alpha=alpha
    )
    assert np.array_equal(fast[0], slow[0])
    assert np.array_equal(fast[1], slow[1])


def _tied_cells(data, fold_ids, folds, learner):
    """How many (fold, feature value) models of ``learner`` are exact ties."""
    x = np.zeros_like(data.y) if learner == ZERO_R else data.features[:, learner]
    counts, _ = fold_test_tables(data.y, x, fold_ids, folds, np.zeros_like(fold_ids))
    train = counts[:, :1].sum(axis=2, keepdims=True) - counts
    n_c = train.sum(-1)
    if learner == ZERO_R:
        return int(np.sum(n_c[..., 0] == n_c[..., 1]))
    s0 = (n_c[..., :1] + 1) * (train[..., 0, :] + 1) * (n_c[..., 1:] + 2)
    s1 = (n_c[..., 1:] + 1) * (train[..., 1, :] + 1) * (n_c[..., :1] + 2)
    return int(np.sum(s0 == s1))


@pytest.mark.parametrize("learner", [0, ZERO_R])
def test_the_equivalence_cases_exercise_ties(learner):
    # guards the test above: ties (the random-bit path) do occur in the small cases
    data, fold_ids, _ = _case(12, 0.5, q=6, runs=3, folds=3, seed=15)
    assert _tied_cells(data, fold_ids, 3, learner) > 0


def test_flipping_tie_bits_changes_only_tied_predictions():
    data, fold_ids, bits = _case(25, 0.5, q=20, runs=5, folds=10, seed=3)
    a = fold_correct_counts(data.y, data.features, ZERO_R, fold_ids, 10, bits)[0]
    b = fold_correct_counts(data.y, data.features, ZERO_R, fold_ids, 10, 1 - bits)[0]
    assert not np.array_equal(a, b)  # ties matter ...
    counts, _ = fold_test_tables(data.y, np.zeros_like(data.y), fold_ids, 10, bits)
    train = counts[:, :1].sum(axis=2, keepdims=True) - counts
    tie = train.sum(-1)[..., 0] == train.sum(-1)[..., 1]
    assert np.array_equal(a[~tie], b[~tie])  # ... and only where the training fold is tied
    # with a tie, bits and flipped bits together predict every test instance right once
    assert np.array_equal((a + b)[tie], counts.sum(axis=(-2, -1))[tie])


def test_naive_bayes_with_a_clear_feature_predicts_the_feature():
    # theta = 0.9, n = 500: the learned model predicts class = feature value in every fold,
    # so the correct count is the number of test instances whose feature equals the class
    gen = np.random.default_rng(8)
    data = nb_features_data(500, np.array([0.1]), gen)
    fold_ids = stratified_fold_ids(data.y, runs=2, folds=10, rng=gen)
    bits = np.zeros_like(fold_ids)
    for j in (0, 1):
        correct, _ = fold_correct_counts(data.y, data.features, j, fold_ids, 10, bits)
        agree = data.features[0, j] == data.y[0]
        expected = [[np.sum(agree[fold_ids[0, r] == f]) for f in range(10)] for r in range(2)]
        assert np.array_equal(correct[0], expected)


def test_scores_stay_exact_integers():
    # (n + 2)^3 exceeds the int64 maximum 9.2e18 for n = 2,100,000 (9.26e18)
    y = np.zeros((1, 2_100_000), dtype=np.int8)
    ids = np.zeros((1, 1, y.shape[1]), dtype=np.intp)
    with pytest.raises(ValueError, match="y: 2100000 instances with alpha = 1 overflow"):
        fold_correct_counts(y, y[:, None, :], 0, ids, 2, ids.astype(np.int8))
