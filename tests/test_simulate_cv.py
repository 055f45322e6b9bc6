"""Paired stratified cross-validation: folds, pairing, seeding, and convergence to delta."""

import numpy as np
import pytest
from scipy import stats
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from cvcompare.simulate.classifiers import ZERO_R, fold_correct_counts
from cvcompare.simulate.cv import paired_cv_binary, paired_cv_estimators, stratified_fold_ids
from cvcompare.simulate.generators import bn_data, nb_features_data


@pytest.mark.parametrize("n, folds", [(10, 10), (25, 10), (37, 4), (500, 10)])
def test_folds_are_a_stratified_partition_in_every_run(n, folds):
    gen = np.random.default_rng(n)
    y = (gen.random(n) < 0.3).astype(int)
    ids = stratified_fold_ids(y, runs=5, folds=folds, rng=gen)
    assert ids.shape == (5, n) and ids.min() == 0 and ids.max() == folds - 1
    for run in ids:
        for c in (0, 1):
            per_fold = np.bincount(run[y == c], minlength=folds)
            n_c = np.sum(y == c)
            # cyclic assignment down the class-sorted list: floor or ceil of n_c / k
            assert set(per_fold) <= {n_c // folds, -(-n_c // folds)}
    assert not np.array_equal(ids[0], ids[1])  # runs are reshuffled


def test_folds_follow_the_shuffle_sort_cycle_recipe():
    # an explicit loop over the recipe (shuffle, stable sort by class, cyclic ids) on the
    # same uniform draws
    y = np.array([1, 0, 0, 1, 1, 0, 1, 1, 0])
    ids = stratified_fold_ids(y, runs=2, folds=3, rng=np.random.default_rng(4))
    draws = np.random.default_rng(4).random((1, 2, y.size))[0]
    for r in range(2):
        shuffled = list(np.argsort(draws[r]))
        ordered = [i for i in shuffled if y[i] == 0] + [i for i in shuffled if y[i] == 1]
        expected = np.empty(y.size, dtype=int)
        for position, i in enumerate(ordered):
            expected[i] = position % 3
        assert np.array_equal(ids[r], expected)


def test_same_folds_for_both_learners():
    # the same learner in both slots with no ties possible gives identical accuracies
    data = nb_features_data(200, np.array([0.05, 0.0]), rng=1)
    res = paired_cv_binary(data, 0, 0, runs=3, folds=10, rng=2)
    assert np.array_equal(res.acc_a, res.acc_b)
    # and the engine's folds are the ones stratified_fold_ids draws from the same stream
    gen = np.random.default_rng(2)
    ids = stratified_fold_ids(data.y, runs=3, folds=10, rng=gen)
    bits = gen.integers(0, 2, size=(2, 2, 3, 200), dtype=np.int8)
    correct, n_test = fold_correct_counts(data.y, data.features, 0, ids, 10, bits[0])
    assert np.array_equal(res.acc_a, (correct / n_test).reshape(2, -1))


def test_estimator_path_pairs_folds_and_reports_sizes():
    gen = np.random.default_rng(5)
    X = gen.standard_normal((53, 3))
    y = (X[:, 0] + gen.standard_normal(53) > 0).astype(int)
    res = paired_cv_estimators(
        X,
        y,
        lambda g: LinearDiscriminantAnalysis(),
        lambda g: LinearDiscriminantAnalysis(),
        runs=2,
        folds=5,
        rng=3,
    )
    assert np.array_equal(res.acc_a, res.acc_b)  # same deterministic learner, same folds
    assert res.diffs.shape == (1, 10) and np.all(res.diffs == 0)
    assert np.all(res.n_total == 53)
    # the test folds of each run cover the data set once
    assert np.all(res.n_test.reshape(2, 5).sum(axis=1) == 53)
    assert np.allclose(res.rho, 1 / 5)


def test_rho_is_one_over_k_even_with_uneven_folds():
    data = bn_data(25, np.array([0.6, 0.7]), rng=1)
    res = paired_cv_binary(data, 0, ZERO_R, runs=2, folds=10, rng=1)
    assert set(res.n_test.ravel()) == {2, 3}
    assert np.allclose(res.rho, 0.1)


def test_same_seed_same_output():
    data = nb_features_data(100, np.array([0.02, 0.04]), rng=1)
    a = paired_cv_binary(data, 0, 1, rng=9)
    b = paired_cv_binary(data, 0, 1, rng=9)
    c = paired_cv_binary(data, 0, 1, rng=10)
    assert np.array_equal(a.diffs, b.diffs) and not np.array_equal(a.diffs, c.diffs)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"folds": 1}, "folds: expected an integer >= 2"),
        ({"folds": 31}, r"folds: expected at most as many folds as instances \(n = 30\)"),
        ({"runs": 0}, "runs: expected an integer >= 1"),
        ({"folds": 2.5}, "folds: expected an integer"),
        ({"stratify": 1}, "stratify: expected True or False, got 1"),
    ],
)
def test_bad_cv_design(kwargs, match):
    data = bn_data(30, np.array([0.6]), rng=1)
    with pytest.raises((ValueError, TypeError), match=match):
        paired_cv_binary(data, 0, ZERO_R, rng=1, **({"runs": 1, "folds": 10} | kwargs))


def test_bad_learner_and_labels():
    data = bn_data(30, np.array([0.6]), rng=1)
    with pytest.raises(ValueError, match="learner_b: expected 'zero_r' or a feature index"):
        paired_cv_binary(data, 0, 1, rng=1)
    with pytest.raises(ValueError, match="y: expected a 1-D or 2-D array of integer"):
        stratified_fold_ids(np.array([0.0, 1.0, 1.0]), runs=1, folds=2, rng=1)


def _mean_and_se(per_dataset_means):
    return per_dataset_means.mean(), per_dataset_means.std(ddof=1) / np.sqrt(per_dataset_means.size)


@pytest.mark.parametrize("n", [50, 100, 500])
@pytest.mark.parametrize("delta", [0.03, -0.05])
def test_nb_features_mean_difference_converges_to_delta(n, delta):
    # With theta* = 0.9 and theta_g >= 0.8 the learned models predict class = feature in
    # every fold (the sign of P(c|f) - 1/2 is never mis-estimated at these sizes), so
    # each fold accuracy is the share of test instances whose feature equals the class
    # and E[mean CV difference] = theta_f - theta_g = delta exactly. R independent data
    # sets; tolerance 4 Monte Carlo standard errors of the mean.
    reps = 1500
    data = nb_features_data(n, np.full(reps, delta), rng=n)
    means = paired_cv_binary(data, 0, 1, rng=n + 1).diffs.mean(axis=1)
    mean, se = _mean_and_se(means)
    assert abs(mean - delta) < 4 * se


def _expected_zero_r_cv_accuracy(n: int, folds: int) -> float:
    """E[mean fold accuracy of zeroR] by enumerating the class count n0 ~ Bin(n, 1/2).

    Given n0 the stratified folds have fixed class counts (class 0 takes positions
    0..n0-1 of the class-sorted list, fold = position mod k), so each fold's accuracy is
    determined; a tied training fold predicts at random, i.e. half the test fold.
    """
    total = 0.0
    position = np.arange(n)
    fold = position % folds
    for n0 in range(n + 1):
        is1 = position >= n0
        accs = []
        for j in range(folds):
            t1 = int(np.sum(is1 & (fold == j)))
            t0 = int(np.sum(~is1 & (fold == j)))
            tr0, tr1 = n0 - t0, n - n0 - t1
            accs.append(0.5 if tr0 == tr1 else (t0 if tr0 > tr1 else t1) / (t0 + t1))
        total += stats.binom.pmf(n0, n, 0.5) * np.mean(accs)
    return total


@pytest.mark.parametrize("n", [100, 250, 1000])
def test_bn_vs_zero_r_mean_difference(n):
    # The learned network C -> F with theta = 0.75 predicts class = feature in every fold
    # at these sizes, so its expected fold accuracy is theta. ZeroR's expected CV accuracy
    # is not exactly its population accuracy 1/2: the data set's own class imbalance
    # enters both the training and the test folds. It is computed exactly by enumeration,
    # and the mean CV difference must match theta - E[zeroR] within 4 Monte Carlo SEs.
    # (The population difference delta = theta - 1/2 differs from it by
    # E[zeroR] - 1/2, which shrinks with n.)
    theta, reps = 0.75, 1000 if n < 1000 else 400
    data = bn_data(n, np.full(reps, theta), rng=n)
    means = paired_cv_binary(data, 0, ZERO_R, rng=n + 1).diffs.mean(axis=1)
    mean, se = _mean_and_se(means)
    assert abs(mean - (theta - _expected_zero_r_cv_accuracy(n, 10))) < 4 * se


def test_zero_r_alone_matches_its_exact_expectation_at_small_n():
    # n = 25: the exact expectation of zeroR's CV accuracy (ties included)
    reps = 4000
    data = bn_data(25, np.full(reps, 0.5), rng=12)
    res = paired_cv_binary(data, ZERO_R, ZERO_R, rng=13)
    mean, se = _mean_and_se(res.acc_a.mean(axis=1))
    assert abs(mean - _expected_zero_r_cv_accuracy(25, 10)) < 4 * se


def test_estimator_path_bad_input():
    y = np.array([0, 1] * 10)
    lda = lambda g: LinearDiscriminantAnalysis()  # noqa: E731
    with pytest.raises(ValueError, match=r"X, y: expected X of shape \(n, p\)"):
        paired_cv_estimators(np.zeros((19, 2)), y, lda, lda, runs=1, folds=2, rng=1)
    X = np.zeros((20, 2))
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="X: all values must be finite"):
        paired_cv_estimators(X, y, lda, lda, runs=1, folds=2, rng=1)
    with pytest.raises(ValueError, match="folds: expected at most as many folds"):
        paired_cv_estimators(np.zeros((20, 2)), y, lda, lda, runs=1, folds=21, rng=1)
