"""Poisson-binomial distribution and test (Corani & Benavoli 2015, Sec. 3)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from cvcompare.stats import poisson_binomial as pb
from cvcompare.stats.poisson_binomial import poisson_binomial_pmf, poisson_binomial_test
from cvcompare.stats.ttest import bayesian_correlated_ttest, correlated_ttest


def _enumerate_pmf(p: np.ndarray) -> np.ndarray:
    """Brute force over the 2^q outcomes of the coins (Eq. 10)."""
    pmf = np.zeros(p.size + 1)
    for outcome in itertools.product((0, 1), repeat=p.size):
        won = np.array(outcome, dtype=bool)
        pmf[won.sum()] += np.prod(np.where(won, p, 1 - p))
    return pmf


def _cv_table(seed: int, q: int = 8, n: int = 10, loc: float = 0.01) -> np.ndarray:
    rng = np.random.default_rng(seed)
    sds = rng.uniform(0.005, 0.05, size=(q, 1))
    return np.clip(rng.normal(loc, 1.0, size=(q, n)) * sds + loc, -1, 1)


# ------------------------------------------------------------------ pmf


@pytest.mark.parametrize("q", range(1, 13))
def test_pmf_equals_enumeration(q):
    rng = np.random.default_rng(q)
    p = rng.uniform(size=q)
    p[0] = 0.0 if q % 2 else 1.0  # degenerate coins included
    pmf = poisson_binomial_pmf(p)
    np.testing.assert_allclose(pmf, _enumerate_pmf(p), rtol=0, atol=1e-12)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("prob", [0.0, 0.03, 0.5, 0.91, 1.0])
def test_pmf_equal_probabilities_is_binomial(prob):
    q = 50
    pmf = poisson_binomial_pmf(np.full(q, prob))
    np.testing.assert_allclose(pmf, stats.binom.pmf(np.arange(q + 1), q, prob), rtol=0, atol=1e-12)


def test_pmf_moments_and_stability_for_many_trials():
    # Mean sum p_i and variance sum p_i (1 - p_i) in closed form; no negative mass.
    p = np.random.default_rng(0).uniform(size=500) ** 3
    pmf = poisson_binomial_pmf(p)
    k = np.arange(p.size + 1)
    assert pmf.min() >= 0 and pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert k @ pmf == pytest.approx(p.sum(), rel=1e-12)
    assert (k - p.sum()) ** 2 @ pmf == pytest.approx(np.sum(p * (1 - p)), rel=1e-10)


def test_pmf_batches_rows():
    p = np.random.default_rng(1).uniform(size=(4, 7))
    batch = poisson_binomial_pmf(p)
    assert batch.shape == (4, 8)
    for row, pmf in zip(p, batch, strict=True):
        np.testing.assert_array_equal(pmf, poisson_binomial_pmf(row))


@pytest.mark.parametrize(
    ("p", "match"),
    [([0.2, 1.2], r"\[0, 1\]"), ([0.2, np.nan], "finite"), ([], "non-empty"), (0.3, "1/2-D")],
)
def test_pmf_bad_input(p, match):
    with pytest.raises(ValueError, match=match):
        poisson_binomial_pmf(p)


# ------------------------------------------------------------------ test


def test_montecarlo_agrees_with_exact():
    # Each estimated probability is a binomial proportion over n_samples coin vectors:
    # tolerance 4 standard errors sqrt(P (1 - P) / n_samples) (plus 1e-12 for P = 0).
    x = _cv_table(2, q=12, loc=0.004)
    exact = poisson_binomial_test(x, rho=0.1)
    n_samples = 100_000
    mc = poisson_binomial_test(x, rho=0.1, method="montecarlo", n_samples=n_samples, rng=3)
    np.testing.assert_array_equal(mc.p_datasets, exact.p_datasets)
    se = np.sqrt(exact.pmf * (1 - exact.pmf) / n_samples)
    assert np.all(np.abs(mc.pmf - exact.pmf) <= 4 * se + 1e-12)
    se_major = math.sqrt(exact.prob_majority * (1 - exact.prob_majority) / n_samples)
    assert abs(mc.prob_majority - exact.prob_majority) <= 4 * se_major
    assert mc.n_samples == n_samples and exact.n_samples is None
    again = poisson_binomial_test(
        x, rho=0.1, method="montecarlo", n_samples=n_samples, rng=np.random.default_rng(3)
    )
    np.testing.assert_array_equal(again.pmf, mc.pmf)


def _one_shot_montecarlo_pmf(p, n_samples, seed):
    """The paper's sampling with every coin vector drawn at once ((n_samples, q) uniforms)."""
    wins = (np.random.default_rng(seed).random((n_samples, p.size)) < p).sum(axis=1)
    return np.bincount(wins, minlength=p.size + 1) / n_samples


def test_montecarlo_blocks_give_the_same_counts_as_one_draw_and_bounded_memory(monkeypatch):
    """Blocks of coin vectors consume the uniforms in the same order: identical counts.

    Memory: at q = 2,000 and 10,000 vectors the one-shot draw allocates 160 MB of uniforms
    (and 20 MB of booleans); the blocked draw stays within a few blocks of about 1 MiB.
    """
    import tracemalloc

    p = np.random.default_rng(5).uniform(size=37)
    for chunk in (1 << 40, 8 * 37 * 7, 1):  # one block, blocks of 7 rows, one row each
        monkeypatch.setattr(pb, "_CHUNK_BYTES", chunk)
        got = pb._montecarlo_pmf(p, 1_001, np.random.default_rng(9))
        np.testing.assert_array_equal(got, _one_shot_montecarlo_pmf(p, 1_001, 9))
    monkeypatch.undo()
    p = np.random.default_rng(6).uniform(size=2_000)
    tracemalloc.start()
    try:
        got = pb._montecarlo_pmf(p, 10_000, np.random.default_rng(1))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * pb._CHUNK_BYTES, peak
    np.testing.assert_array_equal(got, _one_shot_montecarlo_pmf(p, 10_000, 1))


def test_p_datasets_are_one_minus_one_sided_pvalues():
    # Corollary 1 per data set, with one rho per data set.
    x = _cv_table(4, q=6)
    rho = np.array([0.1, 0.2, 0.1, 0.5, 0.0, 0.3])
    res = poisson_binomial_test(x, rho=rho)
    for row, r, p in zip(x, rho, res.p_datasets, strict=True):
        assert abs(p - (1 - correlated_ttest(row, rho=r, alternative="greater").pvalue)) < 1e-12
        assert p == bayesian_correlated_ttest(row, rho=r).p_positive


@pytest.mark.parametrize("q", [7, 8])
def test_majority_probabilities_by_enumeration(q):
    # P(X > q/2) and P(X < q/2) summed over the 2^q outcomes; with q even X = q/2 is neither.
    x = _cv_table(q, q=q, loc=0.005)
    res = poisson_binomial_test(x, rho=0.1, alpha=0.1)
    brute = _enumerate_pmf(res.p_datasets)
    wins = np.arange(q + 1)
    assert res.prob_majority == pytest.approx(brute[2 * wins > q].sum(), abs=1e-12)
    assert res.prob_majority_negative == pytest.approx(brute[2 * wins < q].sum(), abs=1e-12)
    assert res.decision == (res.prob_majority > 0.9)
    assert res.decision_negative == (res.prob_majority_negative > 0.9)
    assert res.q == q


def test_clear_winner_and_zero_variance_data_sets():
    x = np.full((5, 10), 0.25)
    x[0] = 0.0  # all differences zero: p = 1/2
    res = poisson_binomial_test(x, rho=0.1)
    np.testing.assert_array_equal(res.p_datasets, [0.5, 1, 1, 1, 1])
    assert res.prob_majority == 1.0 and res.decision and not res.decision_negative


def test_resolved_differences_make_it_a_majority_vote_of_the_data_sets_at_hand():
    # the Notes' claim: with every data set's difference resolved by its folds (p_i near 0
    # or 1), the test rejects as soon as the first learner wins 11 of 20 data sets, so at a
    # population mean of 0 (wins as likely as losses) it rejects with probability
    # P(Binomial(20, 1/2) > 10) = 0.412, not alpha
    gen = np.random.default_rng(3)
    signs = np.repeat([1.0, -1.0], [11, 9])[:, None]
    x = signs * 0.05 + gen.normal(0.0, 0.005, size=(20, 10))
    res = poisson_binomial_test(x, rho=0.1)
    assert np.all((res.p_datasets > 1 - 1e-6) | (res.p_datasets < 1e-6))
    assert res.decision and res.prob_majority == pytest.approx(1.0, abs=1e-5)
    ten = poisson_binomial_test(np.repeat([1.0, -1.0], 10)[:, None] * np.abs(x), rho=0.1)
    assert not ten.decision and not ten.decision_negative  # 10 of 20: a tie, no majority
    # the rejection rate with wins as likely as losses: the test's decision for each number
    # of wins w, weighted by P(Binomial(20, 1/2) = w)
    rate = sum(
        stats.binom.pmf(w, 20, 0.5)
        * poisson_binomial_test(np.repeat([1.0, -1.0], [w, 20 - w])[:, None] * np.abs(x),
                                rho=0.1).decision
        for w in range(21)
    )  # fmt: skip
    assert rate == pytest.approx(0.4119, abs=5e-5)


def test_percent_scale_is_equivalent():
    x = _cv_table(5)
    a = poisson_binomial_test(x, rho=0.1)
    b = poisson_binomial_test(100 * x, rho=0.1, scale="percent")
    np.testing.assert_allclose(a.p_datasets, b.p_datasets, rtol=0, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 9),
    st.integers(2, 12),
    st.floats(-0.02, 0.02),
    st.floats(0.0, 0.9),
    st.integers(0, 2**32 - 1),
)
def test_swapping_learners_swaps_majorities(q, n, loc, rho, seed):
    x = _cv_table(seed, q=q, n=n, loc=loc)
    res = poisson_binomial_test(x, rho=rho)
    swapped = poisson_binomial_test(-x, rho=rho)
    np.testing.assert_allclose(swapped.p_datasets, 1 - res.p_datasets, rtol=0, atol=1e-12)
    assert swapped.prob_majority == pytest.approx(res.prob_majority_negative, abs=1e-12)
    assert swapped.prob_majority_negative == pytest.approx(res.prob_majority, abs=1e-12)
    assert res.prob_majority + res.prob_majority_negative <= 1 + 1e-12


@pytest.mark.parametrize(
    ("x", "kwargs", "error", "match"),
    [
        (np.zeros(10), {}, ValueError, "2-D"),
        (np.zeros((1, 10)), {}, ValueError, "at least 2 data sets"),
        (np.zeros((3, 1)), {}, ValueError, "at least 2 folds"),
        (np.full((3, 5), 2.0), {}, ValueError, "scale='percent'"),
        (np.full((3, 5), np.nan), {}, ValueError, "finite"),
        (np.zeros((3, 5)), {"rho": [0.1, 0.2]}, ValueError, "one value per data set"),
        (np.zeros((3, 5)), {"rho": 1.0}, ValueError, r"\[0, 1\)"),
        (np.zeros((3, 5)), {"rho": [0.1, -0.2, 0.3]}, ValueError, r"rho: .*\[0, 1\), got -0.2"),
        (np.zeros((3, 5)), {"rho": [[0.1, 0.2, 0.3]]}, ValueError, "rho: expected a 0/1-D"),
        (np.zeros((3, 5)), {"alpha": 0.5}, ValueError, "alpha"),
        (np.zeros((3, 5)), {"method": "normal"}, ValueError, "method: expected one of"),
        (np.zeros((3, 5)), {"method": "montecarlo"}, TypeError, "rng"),
        (np.zeros((3, 5)), {"method": "montecarlo", "rng": 1, "n_samples": 0}, ValueError, ">= 1"),
    ],
)
def test_bad_input(x, kwargs, error, match):
    kwargs = {"rho": 0.1} | kwargs
    with pytest.raises(error, match=match):
        poisson_binomial_test(x, **kwargs)


def test_sampling_options_are_checked_also_for_the_exact_method():
    x = _cv_table(1, q=3, n=5)
    for method, extra in (("exact", {}), ("montecarlo", {"rng": 1})):
        for bad, error in (
            (0, ValueError),
            (-5, ValueError),
            (100.0, TypeError),
            (True, TypeError),
        ):
            with pytest.raises(error, match="^n_samples: expected an integer"):
                poisson_binomial_test(x, rho=0.1, method=method, n_samples=bad, **extra)
    for bad in ("1", -1, 1.5, [1], np.random.RandomState(1)):
        with pytest.raises(TypeError, match="^rng: expected a non-negative int seed"):
            poisson_binomial_test(x, rho=0.1, rng=bad)
    exact = poisson_binomial_test(x, rho=0.1)
    assert poisson_binomial_test(x, rho=0.1, rng=5).pmf.tolist() == exact.pmf.tolist()


def test_a_data_set_constant_within_rounding_is_constant():
    # differences of 0 computed with rounding, (a + 0.3) - 0.3 - a: a spread of 1.7e-16 about
    # a mean of -2.2e-17, which used to give P(mean > 0) = 0.195 by the last bits; within the
    # rounding of one difference they are constant, and a point mass at 0 has 1/2 each side
    a = np.arange(1, 11) / 13
    noisy = (a + 0.3) - 0.3 - a
    assert np.ptp(noisy) > 0
    other = np.linspace(-0.02, 0.03, 10)
    both = np.vstack([noisy, other])
    kept = both.copy()
    got = poisson_binomial_test(both, rho=0.1)
    np.testing.assert_array_equal(both, kept)  # the caller's array is not changed
    want = poisson_binomial_test(np.vstack([np.zeros(10), other]), rho=0.1)
    np.testing.assert_array_equal(got.p_datasets, want.p_datasets)
    assert got.p_datasets[0] == 0.5
