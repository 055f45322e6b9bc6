"""Friedman, Iman-Davenport and Nemenyi tests (Demsar 2006; tutorial of seed 004)."""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, optimize, special, stats
from shared_data import TUTORIAL

from cvcompare.stats.friedman import (
    critical_difference_cliques,
    friedman_test,
    nemenyi_q_alpha,
    nemenyi_test,
)

#: Demsar (2006), Table 5: q_0.05 for k = 2..10, printed to three decimals.
DEMSAR_Q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]


def _chi2_by_hand(avg_ranks, n, k):
    """Friedman's statistic, Demsar (2006) / tutorial Eq. (1)."""
    return Fraction(12 * n, k * (k + 1)) * (
        sum(r * r for r in avg_ranks) - Fraction(k * (k + 1) ** 2, 4)
    )


def _ff_by_hand(chi2, n, k):
    """Iman-Davenport statistic, tutorial Eq. (2)."""
    return (n - 1) * chi2 / (n * (k - 1) - chi2)


# ------------------------------------------------------------------ Friedman


@pytest.mark.parametrize(("n", "k"), [(10, 5), (6, 4), (30, 3), (3, 8)])
def test_friedman_equals_scipy_without_ties(n, k):
    scores = np.random.default_rng(n * k).uniform(size=(n, k))
    res = friedman_test(scores)
    ref = stats.friedmanchisquare(*scores.T)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    # Ranks: rank 1 for the highest score; the reverse when lower is better.
    np.testing.assert_array_equal(res.ranks, stats.rankdata(-scores, axis=1))
    low = friedman_test(scores, higher_is_better=False)
    np.testing.assert_allclose(low.avg_ranks, k + 1 - res.avg_ranks, rtol=0, atol=1e-12)


def test_friedman_ties_use_mid_ranks_without_correction():
    # scipy divides by the tie correction C = 1 - sum(t^3 - t) / (N k (k^2 - 1)); Demsar's
    # formula does not, so ours * (1 / C) must equal scipy's.
    scores = np.round(np.random.default_rng(3).uniform(size=(12, 5)), 1)
    res = friedman_test(scores)
    ties = sum(
        (counts**3 - counts).sum()
        for counts in (np.unique(row, return_counts=True)[1] for row in scores)
    )
    assert ties > 0
    n, k = scores.shape
    correction = 1 - ties / (n * k * (k * k - 1))
    ref = stats.friedmanchisquare(*scores.T)
    assert res.statistic / correction == pytest.approx(ref.statistic, rel=1e-12)
    assert res.statistic == pytest.approx(_chi2_by_hand(res.avg_ranks, n, k), rel=1e-12)


def test_friedman_tie_correction_equals_scipy_and_a_hand_computation():
    # scipy.stats.friedmanchisquare divides by the tie correction
    for seed, (n, k) in enumerate([(12, 5), (30, 3), (6, 8)]):
        scores = np.round(np.random.default_rng(seed).uniform(size=(n, k)), 1)
        res = friedman_test(scores, tie_correction=True)
        ref = stats.friedmanchisquare(*scores.T)
        assert res.tie_correction and not friedman_test(scores).tie_correction
        tied = sum(len(np.unique(row)) < k for row in scores)
        assert tied > 0 and res.tied_datasets == tied
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        # Iman-Davenport's F from the corrected chi-square
        chi2 = Fraction(res.statistic)
        assert res.ff_statistic == pytest.approx(float(_ff_by_hand(chi2, n, k)), rel=1e-10)
        assert res.ff_statistic > friedman_test(scores).ff_statistic
    # by hand: ranks (1, 2.5, 2.5), (2.5, 1, 2.5) and twice (2.5, 2.5, 1), rank sums 8.5,
    # 8.5, 7: 12 sum S^2 - 3 N^2 k (k + 1)^2 = 18, chi2 = 18 / (N k (k + 1)) = 0.375; one
    # pair tied in each data set, C = 1 - 4 * 6 / (N k (k^2 - 1)) = 0.75: 0.5
    scores = [[3, 2, 2], [1, 3, 1], [2, 2, 3], [1, 1, 2]]
    assert friedman_test(scores).statistic == 0.375
    assert friedman_test(scores, tie_correction=True).statistic == 0.5
    # ties in every data set, ranked identically: the corrected statistic is its maximum
    # N (k - 1) exactly, and F_F infinite; all models tied everywhere: 0, p-value 1
    same = friedman_test([[1.0, 1.0, 0.5, 0.2]] * 5, tie_correction=True)
    assert same.statistic == 15.0 and same.ff_statistic == math.inf and same.ff_pvalue == 0.0
    tied = friedman_test(np.ones((4, 3)), tie_correction=True)
    assert (tied.statistic, tied.ff_statistic, tied.pvalue, tied.ff_pvalue) == (0, 0, 1, 1)
    with pytest.raises(TypeError, match="tie_correction: expected True or False"):
        friedman_test(scores, tie_correction="yes")


def test_tutorial_table():
    res = friedman_test(TUTORIAL, alpha=0.01)
    exact_ranks = [Fraction(11, 3), Fraction(10, 3), Fraction(11, 6), Fraction(7, 6)]
    np.testing.assert_allclose(res.avg_ranks, [float(r) for r in exact_ranks], atol=1e-12)
    chi2 = _chi2_by_hand(exact_ranks, 6, 4)
    assert chi2 == Fraction(77, 5)  # 15.4 exactly
    assert res.statistic == pytest.approx(float(chi2), rel=1e-12)
    assert res.ff_statistic == pytest.approx(float(_ff_by_hand(chi2, 6, 4)), rel=1e-12)

    # The tutorial worked with average ranks printed to two decimals (3.66, 3.33, 1.83,
    # 1.16) and reports chi2_F = 15.364 and F_F = 29.143 (its F_F follows from its chi2_F by
    # Eq. 2). With every rank off by less than 0.01 and |d chi2 / d R_j| = 7.2 R_j, its chi2_F
    # lies within 7.2 sum(R_j + 0.01) 0.01 of the exact one; F_F = 5 chi2 / (18 - chi2)
    # propagates that bound through its derivative 90 / (18 - chi2)^2.
    printed = [3.66, 3.33, 1.83, 1.16]
    assert _ff_by_hand(15.364, 6, 4) == pytest.approx(29.143, abs=5e-4)
    chi2_tol = 7.2 * sum(r + 0.01 for r in printed) * 0.01 + 5e-4
    assert abs(res.statistic - 15.364) <= chi2_tol
    ff_tol = 90 / (18 - 15.364 - chi2_tol) ** 2 * chi2_tol + 5e-4
    assert abs(res.ff_statistic - 29.143) <= ff_tol
    # Critical value of F(3, 15) at alpha = 0.01, printed as 5.417.
    assert res.ff_df == (3, 15)
    assert res.ff_critical_value == pytest.approx(5.417, abs=5e-4)
    assert res.ff_statistic > res.ff_critical_value and res.ff_pvalue < 0.01
    assert res.pvalue == pytest.approx(stats.chi2.sf(15.4, 3), rel=1e-12)


def test_tutorial_nemenyi():
    # Tutorial: CD_0.05 = 2.569 sqrt(20/36) = 1.915 and CD_0.10 = 2.291 sqrt(20/36) = 1.708.
    for alpha, q_printed, cd_printed in ((0.05, 2.569, 1.915), (0.10, 2.291, 1.708)):
        res = nemenyi_test(TUTORIAL, alpha=alpha)
        assert res.q_alpha == pytest.approx(q_printed, abs=5e-4)
        assert res.cd == pytest.approx(cd_printed, abs=5e-4)
    res = nemenyi_test(TUTORIAL, alpha=0.05)
    # Repeated G. (1.17) vs the Glorot models (3.67, 3.33) differ by more than 1.915.
    expected = np.zeros((4, 4), dtype=bool)
    expected[3, :2] = expected[:2, 3] = True
    np.testing.assert_array_equal(res.significant, expected)
    assert res.cliques == ((3, 2), (2, 1, 0))


def test_degenerate_rankings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same_order = friedman_test([[0.9, 0.8, 0.7]] * 5)
        all_tied = friedman_test([[0.5, 0.5, 0.5]] * 5)
    assert same_order.statistic == pytest.approx(5 * 2)  # N (k - 1)
    assert same_order.ff_statistic == math.inf and same_order.ff_pvalue == 0.0
    assert all_tied.statistic == 0.0 and all_tied.pvalue == 1.0 and all_tied.ff_pvalue == 1.0


@pytest.mark.parametrize(("n", "k"), [(3, 11), (6, 11), (25, 10), (5, 3)])
def test_identical_rankings_give_infinite_ff_exactly(n, k):
    # chi2_F reaches its maximum N (k - 1) and F_F = inf. Computed from average ranks in
    # floating point, chi2_F fell short of N (k - 1) by one rounding unit for these (N, k),
    # so F_F came out near 1e16 instead.
    scores = np.tile(np.arange(k, 0, -1) / 100, (n, 1))
    res = friedman_test(scores)
    assert res.statistic == n * (k - 1)
    assert res.ff_statistic == math.inf and res.ff_pvalue == 0.0


@pytest.mark.parametrize(("n", "k"), [(6, 4), (15, 3), (9, 7)])
def test_iman_davenport_is_two_way_anova_on_ranks(n, k):
    # Iman & Davenport (1980): without ties F_F is the two-way ANOVA F statistic of the
    # ranks (models x data sets); data-set sums of squares vanish because every row of
    # ranks sums to k (k + 1) / 2. Computed here from sums of squares.
    scores = np.random.default_rng(n + k).uniform(size=(n, k))
    ranks = stats.rankdata(-scores, axis=1)
    grand = ranks.mean()
    ss_models = n * np.sum((ranks.mean(axis=0) - grand) ** 2)
    ss_blocks = k * np.sum((ranks.mean(axis=1) - grand) ** 2)
    ss_error = np.sum((ranks - grand) ** 2) - ss_models - ss_blocks
    df1, df2 = k - 1, (k - 1) * (n - 1)
    f_anova = (ss_models / df1) / (ss_error / df2)
    res = friedman_test(scores, alpha=0.1)
    assert res.ff_statistic == pytest.approx(f_anova, rel=1e-12)
    assert res.ff_pvalue == pytest.approx(stats.f.sf(f_anova, df1, df2), rel=1e-10)
    assert res.ff_critical_value == pytest.approx(stats.f.isf(0.1, df1, df2), rel=1e-10)


# ------------------------------------------------------------------ Nemenyi


def _q_alpha_by_integration(k: int, alpha: float) -> float:
    """Second implementation: P(range of k standard normals <= q) = 1 - alpha, by quadrature."""

    def cdf(q: float) -> float:
        def integrand(z: float) -> float:
            inner = special.ndtr(z + q) - special.ndtr(z)
            return k * math.exp(-z * z / 2) / math.sqrt(2 * math.pi) * inner ** (k - 1)

        return integrate.quad(integrand, -np.inf, np.inf, epsabs=1e-14, epsrel=1e-13)[0]

    return optimize.brentq(lambda q: cdf(q) - (1 - alpha), 0.1, 10, xtol=1e-13) / math.sqrt(2)


@pytest.mark.parametrize("k", range(2, 11))
def test_q_alpha_is_studentized_range_quantile(k):
    q = nemenyi_q_alpha(k, alpha=0.05)
    assert q == pytest.approx(
        stats.studentized_range.ppf(0.95, k, np.inf) / math.sqrt(2), rel=1e-12
    )
    assert q == pytest.approx(_q_alpha_by_integration(k, 0.05), rel=1e-9)
    # Demsar's Table 5: studentized-range quantiles printed to three decimals (e.g. 3.314,
    # 4.170), divided by sqrt(2) and rounded to three decimals again, so each entry is within
    # 0.0005 / sqrt(2) + 0.0005 of the exact value.
    tol = 0.0005 / math.sqrt(2) + 0.0005
    assert q == pytest.approx(DEMSAR_Q05[k - 2], abs=tol)


def test_q_alpha_closed_form_for_two_models():
    # The range of two standard normals is sqrt(2) |Z|: q_alpha = z_{1 - alpha/2}.
    for alpha in (0.01, 0.05, 0.1):
        assert nemenyi_q_alpha(2, alpha=alpha) == pytest.approx(
            stats.norm.ppf(1 - alpha / 2), rel=1e-9
        )


def test_nemenyi_cd_and_pairs():
    scores = np.random.default_rng(9).uniform(size=(15, 6)) + np.linspace(0, 1, 6)
    res = nemenyi_test(scores, alpha=0.1)
    assert res.cd == pytest.approx(nemenyi_q_alpha(6, alpha=0.1) * math.sqrt(6 * 7 / 90), rel=1e-15)
    np.testing.assert_array_equal(res.avg_ranks, friedman_test(scores).avg_ranks)
    np.testing.assert_array_equal(res.significant, res.significant.T)
    diffs = np.subtract.outer(res.avg_ranks, res.avg_ranks)
    np.testing.assert_array_equal(res.significant, np.abs(diffs) > res.cd)
    assert res.significant.any() and not res.significant.all()


@pytest.mark.slow
def test_nemenyi_family_wise_error_under_null():
    # Under H0 (exchangeable scores) the probability that any pair is declared different is
    # asymptotically alpha; with N = 50 it must not exceed alpha by more than 4 Monte Carlo
    # standard errors (3000 replications).
    rng = np.random.default_rng(11)
    reps, alpha = 3000, 0.05
    rejections = sum(
        nemenyi_test(rng.uniform(size=(50, 5)), alpha=alpha).significant.any() for _ in range(reps)
    )
    rate = rejections / reps
    assert rate <= alpha + 4 * math.sqrt(alpha * (1 - alpha) / reps)


def _brute_force_cliques(ranks: np.ndarray, cd: float) -> set[frozenset[int]]:
    k = ranks.size
    groups = [
        frozenset(c)
        for size in range(2, k + 1)
        for c in itertools.combinations(range(k), size)
        if all(abs(ranks[i] - ranks[j]) <= cd for i, j in itertools.combinations(c, 2))
    ]
    return {g for g in groups if not any(g < h for h in groups)}


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(2, 40).map(lambda v: v / 8), min_size=2, max_size=7),
    st.floats(0.0, 3.0),
)
def test_cliques_are_maximal_groups_by_brute_force(ranks, cd):
    ranks = np.array(ranks)
    cliques = critical_difference_cliques(ranks, cd)
    assert {frozenset(c) for c in cliques} == _brute_force_cliques(ranks, cd)
    for clique in cliques:
        assert list(ranks[list(clique)]) == sorted(ranks[list(clique)])


# ------------------------------------------------------------------ validation


@pytest.mark.parametrize("func", [friedman_test, nemenyi_test])
@pytest.mark.parametrize(
    ("scores", "kwargs", "error", "match"),
    [
        ([0.1, 0.2, 0.3], {}, ValueError, "2-D"),
        ([[0.1, 0.2, 0.3]], {}, ValueError, "at least 2 data sets"),
        ([[0.1], [0.2]], {}, ValueError, "at least 2 models"),
        ([[0.1, np.nan], [0.2, 0.3]], {}, ValueError, "finite"),
        ([[0.1, 0.2], [0.2, 0.3]], {"alpha": 1.5}, ValueError, "alpha"),
        # a size of 1/2 or more, accepted before although every other test refused it
        ([[0.1, 0.2], [0.2, 0.3]], {"alpha": 0.5}, ValueError, r"^alpha: expected a test size"),
        ([[0.1, 0.2], [0.2, 0.3]], {"alpha": 0.7}, ValueError, r"^alpha: expected a test size"),
        ([[0.1, 0.2], [0.2, 0.3]], {"higher_is_better": "yes"}, TypeError, "higher_is_better"),
    ],
)
def test_bad_input(func, scores, kwargs, error, match):
    with pytest.raises(error, match=match):
        func(scores, **kwargs)


def test_bad_cliques_input():
    with pytest.raises(ValueError, match="cd"):
        critical_difference_cliques([1.0, 2.0], -0.5)
    with pytest.raises(ValueError, match="avg_ranks"):
        critical_difference_cliques([1.0], 0.5)
    with pytest.raises(ValueError, match="k"):
        nemenyi_q_alpha(1)
    with pytest.raises(ValueError, match=r"^alpha: expected a test size in \(0, 0.5\), got 0.6"):
        nemenyi_q_alpha(3, alpha=0.6)


def test_a_data_frame_s_columns_name_the_models_of_both_results():
    # the names follow the columns' order, and the ranks are those of the bare array
    import pandas as pd

    names = ["Glorot N.", "Glorot U.", "Random G.", "Repeated G."]
    frame = pd.DataFrame(np.asarray(TUTORIAL), columns=names)
    fr, nem = friedman_test(frame), nemenyi_test(frame)
    assert fr.models == nem.models == tuple(names)
    np.testing.assert_array_equal(fr.avg_ranks, friedman_test(np.asarray(TUTORIAL)).avg_ranks)
    # arrays: the column numbers
    assert friedman_test(np.asarray(TUTORIAL)).models == ("0", "1", "2", "3")
    # the diagram of the result names the models beside their ranks
    ax = nem.plot()
    texts = [t.get_text() for t in ax.texts]
    for name, rank in zip(names, nem.avg_ranks, strict=True):
        assert sum(name in t and f"{rank:.2f}" in t for t in texts) == 1
    # two columns of one name cannot be told apart
    with pytest.raises(ValueError, match="^scores: expected one column per model"):
        nemenyi_test(frame.rename(columns={"Glorot U.": "Glorot N."}))


@pytest.mark.parametrize(
    ("rows", "correction"),
    [
        ([[3, 2, 1]] * 2, False),  # F_F = inf, F tail 0, exact 1/6
        ([[2, 1]] * 4, False),
        ([[4, 3, 2, 1], [4, 3, 1, 2]], False),
        ([[3, 3, 1], [3, 3, 1], [1, 2, 3]], True),  # ties: M = 3, 3, 6
        ([[2, 2, 1, 1]] * 3, True),
        ([[3, 2, 2, 1], [1, 2, 3, 4]], False),
    ],
)
def test_no_exact_p_value_is_below_the_floor(rows, correction):
    """The floor is checked by enumerating every outcome of the permutation distribution
    (each data set's distinct orderings of its ranks, equally likely): the exact p-value
    of every outcome, the share of outcomes whose statistic reaches its own, is at least
    max M_i / prod M_i, and the most extreme outcome reaches it where every data set has
    the same ties (rankings alike). The F approximation's p-value of rankings alike on
    two data sets is 0."""
    scores = np.asarray(rows, dtype=float)
    floor = friedman_test(scores, tie_correction=correction).exact_floor
    each = [sorted(set(itertools.permutations(row))) for row in scores]
    stats_ = [
        friedman_test(np.array(outcome), tie_correction=correction).statistic
        for outcome in itertools.product(*each)
    ]
    total = math.prod(len(e) for e in each)
    assert floor == max(len(e) for e in each) / total
    exact = [Fraction(sum(t >= s - 1e-9 for t in stats_), total) for s in stats_]
    assert min(exact) >= Fraction(max(len(e) for e in each), total)
    if len({tuple(sorted(r)) for r in rows}) == 1:  # the same ties: the floor is reached
        assert float(min(exact)) == floor
    alike = friedman_test([[3, 2, 1]] * 2)
    assert alike.ff_pvalue == 0.0 and alike.exact_floor == pytest.approx(1 / 6, rel=1e-15)


@pytest.mark.parametrize("seed", range(8))
def test_exact_p_value_is_the_enumerated_permutation_p_value(seed):
    """On small designs drawn at random (2-4 models on 2-4 data sets, 2-3 for four models;
    ties from scores on a coarse grid), the exact p-value equals the share of all outcomes
    (every data set's distinct orderings of its ranks, equally likely) whose Friedman
    statistic, computed by friedman_test itself, reaches the observed one, counted by
    brute force; with and without the tie correction; and it is never below the floor."""
    gen = np.random.default_rng(seed)
    k = int(gen.integers(2, 5))
    n = int(gen.integers(2, 5 if k < 4 else 4))  # at most 3 x 6^3 or 24^3 outcomes
    scores = gen.integers(0, 3, size=(n, k)).astype(float)
    for correction in (False, True):
        res = friedman_test(scores, tie_correction=correction)
        each = [sorted(set(itertools.permutations(row))) for row in res.ranks]
        statistics = [
            friedman_test(-np.array(outcome), tie_correction=correction).statistic
            for outcome in itertools.product(*each)
        ]
        reached = sum(t >= res.statistic - 1e-9 for t in statistics)
        exact = reached / len(statistics)
        assert res.exact_pvalue == pytest.approx(exact, rel=1e-12)
        assert res.exact_pvalue >= res.exact_floor * (1 - 1e-12)


def test_exact_p_value_of_known_outcomes_and_of_designs_too_large():
    # three models ranked alike on two data sets: 1/6, where F_F = inf gives 0; one swap
    # from alike on three data sets: 7/36, where the F approximation gives 0.049
    assert friedman_test([[3, 2, 1]] * 2).exact_pvalue == pytest.approx(1 / 6, rel=1e-12)
    swap = friedman_test([[3, 2, 1], [3, 2, 1], [2, 3, 1]])
    assert swap.exact_pvalue == pytest.approx(7 / 36, rel=1e-12)
    assert swap.ff_pvalue == pytest.approx(0.0494, abs=5e-5)
    # every data set ties all the models: one outcome, p = 1
    assert friedman_test(np.ones((3, 4))).exact_pvalue == 1.0
    # five models on 54 data sets: too many outcomes to enumerate
    assert math.isnan(friedman_test(np.random.default_rng(0).uniform(size=(54, 5))).exact_pvalue)


def test_exact_p_value_at_the_floor_and_the_decision():
    """Five models on two data sets whose exact p-value is the floor, 60/600 = 0.1 (six
    outcomes of 1/60 each, added in floating point 0.09999999999999999): counted in
    integers it is 0.1 exactly, so that the test does not reject at 0.1; rejects() decides
    with the exact p-value where there is one, with Iman-Davenport's otherwise."""
    res = friedman_test([[3, 3, 1, 1, 1], [3, 2, 0, 0, 1]])
    assert res.exact_pvalue == res.exact_floor == 0.1
    assert not res.rejects(0.1) and res.rejects(0.1 + 1e-12)
    big = friedman_test(np.random.default_rng(1).uniform(size=(54, 5)))
    assert math.isnan(big.exact_pvalue) and big.rejects(0.05) == (big.ff_pvalue < 0.05)
    with pytest.raises(ValueError, match="alpha: expected a test size"):
        res.rejects(0.7)


def test_exact_p_value_reach_and_order():
    """Where the enumeration stops (EXACT_WORK, without ties: three models on 66 data sets
    but not 70, five on 6 but not 7, six on 3), and that it depends on the data sets'
    ties, not on their order in the table: the same p-value, or none, whatever the order.
    Ties cut the orderings by prod t!: twelve models, one data set tying them all, are
    no more work than one ordering."""
    reach = ((3, 66, True), (3, 70, False), (5, 6, True), (5, 7, False), (6, 3, True))
    for k, n, enumerated in reach:
        res = friedman_test(np.tile(np.arange(k, dtype=float), (n, 1)))
        assert (not math.isnan(res.exact_pvalue)) is enumerated, (k, n)
    # five models, three data sets with ties before four without: taken in the table's
    # order, the enumeration ran out of rows with the tied ones first, not last
    gen = np.random.default_rng(7)
    scores = np.vstack([gen.integers(0, 2, size=(3, 5)), gen.uniform(size=(4, 5))])
    orders = [np.arange(7), np.arange(7)[::-1], *(gen.permutation(7) for _ in range(6))]
    values = {friedman_test(scores[order]).exact_pvalue for order in orders}
    assert len(values) == 1 and not math.isnan(values.pop())
    from cvcompare.stats.friedman import _distinct_orderings

    ties = _distinct_orderings((0,) * 6 + (1, 1, 2, 3, 4, 5))
    assert len(ties) == 12 * 11 * 10 * 9 * 8 * 7 // 2 == len({tuple(r) for r in ties})
    assert all(sorted(r) == [0] * 6 + [1, 1, 2, 3, 4, 5] for r in ties.tolist())
