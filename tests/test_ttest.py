"""Correlated t-tests: frequentist (Nadeau & Bengio) and Bayesian (Corani & Benavoli 2015)."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, special, stats

from cvcompare.stats._results import BayesianDecisionMixin
from cvcompare.stats.poisson_binomial import poisson_binomial_test
from cvcompare.stats.ttest import (
    NormalGammaPrior,
    bayesian_correlated_ttest,
    correlated_ttest,
)

RHOS = [0.0, 0.1, 0.2, 0.5, 0.9]


def _diffs(seed: int, n: int = 10, loc: float = 0.01, sd: float = 0.02) -> np.ndarray:
    return np.random.default_rng(seed).normal(loc, sd, size=n)


def _intraclass(n: int, rho: float) -> np.ndarray:
    return (1 - rho) * np.eye(n) + rho * np.ones((n, n))


# ------------------------------------------------------------------ frequentist test


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_rho_zero_is_scipy_one_sample_ttest(alternative):
    x = _diffs(1, n=12)
    ours = correlated_ttest(x, rho=0.0, alternative=alternative)
    ref = stats.ttest_1samp(x, 0.0, alternative=alternative)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert ours.df == ref.df == 11
    lo, hi = ours.confidence_interval(0.9)
    ref_lo, ref_hi = ref.confidence_interval(0.9)
    assert (lo, hi) == pytest.approx((ref_lo, ref_hi), rel=1e-12)


def test_statistic_is_eq1_with_test_train_ratio():
    # Eq. (1): rho / (1 - rho) = n_test / n_train when rho = n_test / n_total.
    x = _diffs(2, n=10)
    n_test, n_total = 17, 170
    res = correlated_ttest(x, rho=n_test / n_total)
    expected = x.mean() / math.sqrt(x.var(ddof=1) * (1 / 10 + n_test / (n_total - n_test)))
    assert res.statistic == pytest.approx(expected, rel=1e-12)
    assert res.std_err == pytest.approx(x.mean() / expected, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(expected), 9), rel=1e-12)


def test_exact_t_distribution_under_intraclass_normal_model():
    # Under x ~ MVN(0, sigma^2 M) with M intraclass(rho), xbar is independent of s^2 and
    # s^2 / (sigma^2 (1 - rho)) ~ chi2_{n-1} / (n - 1), so the statistic is exactly
    # t_{n-1} and the test is exactly calibrated. 5000 replications: rejection rates within
    # 4 binomial standard errors of alpha.
    rng = np.random.default_rng(3)
    n, rho, reps = 10, 0.3, 5000
    chol = np.linalg.cholesky(_intraclass(n, rho))
    data = 0.02 * rng.standard_normal((reps, n)) @ chol.T
    pvalues = np.array([correlated_ttest(row, rho=rho).pvalue for row in data])
    for alpha in (0.01, 0.05, 0.2):
        se = math.sqrt(alpha * (1 - alpha) / reps)
        assert abs(np.mean(pvalues < alpha) - alpha) < 4 * se


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_confidence_interval_matches_test_decision(alternative):
    # The 1 - alpha interval excludes 0 exactly when the p-value is below alpha.
    for seed in range(20):
        res = correlated_ttest(_diffs(seed, loc=0.005), rho=0.1, alternative=alternative)
        lo, hi = res.confidence_interval(0.95)
        assert (res.pvalue < 0.05) == (not lo <= 0.0 <= hi)


def test_zero_variance_frequentist():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        zero = correlated_ttest(np.zeros(5), rho=0.2)
        pos = correlated_ttest(np.full(5, 0.25), rho=0.2, alternative="greater")
        neg = correlated_ttest(np.full(5, -0.25), rho=0.2)
    assert (zero.statistic, zero.pvalue, zero.std_err) == (0.0, 1.0, 0.0)
    assert correlated_ttest(np.zeros(5), rho=0.2, alternative="less").pvalue == 0.5
    assert pos.statistic == math.inf and pos.pvalue == 0.0
    assert neg.statistic == -math.inf and neg.pvalue == 0.0
    assert pos.confidence_interval() == (0.25, math.inf)


@pytest.mark.parametrize(
    "x",
    [np.full(10, (0.1 + 0.2) - 0.3), 1e-16 * np.arange(1, 11), np.full(10, -1e-17)],
)
def test_a_mean_of_rounding_alone_is_zero_in_both_correlated_ttests(x):
    # 0.1 + 0.2 - 0.3 = 5.6e-17 on every fold is no difference of scores of size 1: the
    # Bayesian test's point mass sits on 0 (P(mu > 0) = 1/2), and Corollary 1 (P(mu > 0)
    # = 1 - p of the one-sided test) then asks p = 1/2, which a statistic of 0 gives
    # (an infinite one gave p = 0, a difference "found" in the last bits)
    freq = correlated_ttest(x, rho=0.1, alternative="greater")
    post = bayesian_correlated_ttest(x, rho=0.1, rope=(0.0, 0.0))
    assert freq.statistic == 0.0 and freq.pvalue == 0.5 == 1.0 - post.p_positive
    assert correlated_ttest(x, rho=0.1).pvalue == 1.0
    # scores of size 1e-16 (given): the same values are differences, constant and positive
    tiny = correlated_ttest(np.full(10, 5.6e-17), rho=0.1, scale="raw", score_size=1e-16)
    assert tiny.statistic == math.inf


# ------------------------------------------------------------------ Bayesian test


@pytest.mark.parametrize("rho", RHOS)
def test_corollary1_posterior_is_one_minus_p(rho):
    # Corollary 1: under the matching prior P(mu > 0 | x) = 1 - p of the one-sided test,
    # and the posterior is St(n - 1, xbar, (1/n + rho/(1-rho)) s^2) (Eq. 8).
    for seed in range(10):
        x = _diffs(seed, n=10 + seed, loc=0.004)
        post = bayesian_correlated_ttest(x, rho=rho)
        freq = correlated_ttest(x, rho=rho, alternative="greater")
        assert abs(post.p_positive - (1.0 - freq.pvalue)) < 1e-12
        assert post.df == freq.df
        assert post.loc == pytest.approx(freq.mean, rel=1e-12)
        assert post.scale_ == pytest.approx(freq.std_err, rel=1e-12)


def test_closed_forms_of_quadratic_forms_match_matrix_algebra():
    # The posterior uses H'M^-1 H = n / (1 + (n-1) rho) and
    # (x - H xbar)' M^-1 (x - H xbar) = SS / (1 - rho); check both through the posterior of
    # a proper prior against explicit matrix inverses (Theorem 2, Eq. 17).
    x = _diffs(4, n=8)
    n, rho = 8, 0.25
    prior = NormalGammaPrior(mu0=0.003, k0=0.7, a=1.5, b=0.002)
    minv = np.linalg.inv(_intraclass(n, rho))
    ones = np.ones(n)
    h = ones @ minv @ ones
    r = x - x.mean()
    ssm = r @ minv @ r
    kappa = h + 1 / prior.k0
    mu_n = (ones @ minv @ x + prior.mu0 / prior.k0) / kappa
    a_n = prior.a + n / 2
    # b_n from the completed square: the residual of the quadratic in mu.
    b_n = prior.b + 0.5 * (ssm + h * x.mean() ** 2 + prior.mu0**2 / prior.k0 - mu_n**2 * kappa)
    post = bayesian_correlated_ttest(x, rho=rho, prior=prior)
    assert post.df == pytest.approx(2 * a_n, rel=1e-12)
    assert post.loc == pytest.approx(mu_n, rel=1e-12)
    assert post.scale_ == pytest.approx(math.sqrt(b_n / (a_n * kappa)), rel=1e-9)


def test_general_prior_matches_numerical_integration():
    # Brute force: p(mu | x) ∝ ∫ MVN(x; mu 1, M / nu) N(mu; mu0, k0 / nu) Gamma(nu; a, b) dnu,
    # integrated numerically and normalised numerically (quad tolerances ~1e-10).
    x = np.array([0.3, -0.1, 0.5, 0.2, 0.05, 0.4])
    n, rho = x.size, 0.2
    prior = NormalGammaPrior(mu0=-0.1, k0=0.5, a=1.5, b=0.3)
    m = _intraclass(n, rho)
    minv = np.linalg.inv(m)
    logdet = np.linalg.slogdet(m)[1]
    # (x - mu 1)' M^-1 (x - mu 1) = quad_a - 2 mu quad_b + mu^2 quad_c, from the matrix.
    quad_a, quad_b, quad_c = x @ minv @ x, np.ones(n) @ minv @ x, np.ones(n) @ minv @ np.ones(n)
    log_const = -0.5 * logdet - 0.5 * math.log(2 * math.pi * prior.k0)
    log_const += prior.a * math.log(prior.b) - math.lgamma(prior.a)

    def joint(nu: float, mu: float) -> float:
        form = quad_a - 2 * mu * quad_b + mu**2 * quad_c
        loglik = 0.5 * n * math.log(nu) - 0.5 * nu * form
        logprior = 0.5 * math.log(nu) - nu * (mu - prior.mu0) ** 2 / (2 * prior.k0)
        logprior += (prior.a - 1) * math.log(nu) - prior.b * nu
        return math.exp(log_const + loglik + logprior)

    def marginal(mu: float) -> float:
        # Substituting nu = s / rate(mu) keeps the integrand's bulk at s of order one.
        rate = (quad_a - 2 * mu * quad_b + mu**2 * quad_c) / 2
        rate += (mu - prior.mu0) ** 2 / (2 * prior.k0) + prior.b
        return integrate.quad(
            lambda s: joint(s / rate, mu) / rate, 0, np.inf, epsabs=1e-15, epsrel=1e-10
        )[0]

    post = bayesian_correlated_ttest(x, rho=rho, prior=prior, rope=(-0.1, 0.1))
    # The posterior mass outside (-20, 20) is below 1e-12 (checked from the t below), far
    # under the tolerance; the absolute tolerance 1e-13 of the integrals is negligible
    # beside z.
    assert 2 * stats.t.sf((20 - abs(post.loc)) / post.scale_, post.df) < 1e-12
    z = integrate.quad(marginal, -20, 20, epsabs=1e-13, epsrel=1e-10)[0]
    assert z > 1e-3
    for mu in (-0.4, -0.1, 0.0, 0.15, 0.3, 0.8):
        assert marginal(mu) / z == pytest.approx(post.distribution.pdf(mu), rel=1e-7)
    p_pos = integrate.quad(marginal, 0, 20, epsabs=1e-13, epsrel=1e-10)[0] / z
    assert post.p_positive == pytest.approx(p_pos, rel=1e-7)
    p_rope = integrate.quad(marginal, -0.1, 0.1, epsabs=1e-13, epsrel=1e-10)[0] / z
    assert post.p_rope == pytest.approx(p_rope, rel=1e-7)


def test_normal_gamma_prior_tends_to_matching_prior():
    # mu0 = 0, k0 -> inf (k0 multiplies the prior variance of mu), a -> -1/2, b -> 0.
    x = _diffs(5, n=10)
    matching = bayesian_correlated_ttest(x, rho=0.1)
    assert bayesian_correlated_ttest(x, rho=0.1, prior=NormalGammaPrior()).probs() == (
        matching.probs()
    )
    gaps = []
    for eps in (1e-2, 1e-4, 1e-6):
        near = NormalGammaPrior(mu0=0.0, k0=1 / eps, a=-0.5 + eps, b=eps * 1e-4)
        post = bayesian_correlated_ttest(x, rho=0.1, prior=near)
        gaps.append(max(abs(u - v) for u, v in zip(post.probs(), matching.probs(), strict=True)))
    assert gaps[0] > gaps[1] > gaps[2]
    # At eps = 1e-6 the posterior df moves by 2 eps and kappa, b_n and mu_n by relative
    # amounts below eps (1/k0 = eps against H'M^-1 H = 5.3; b and xbar^2 / k0 below 1e-9
    # against b_n ~ 2e-3), so the probabilities move by O(eps) (about 0.1 eps here, as the
    # gaps at 1e-2 and 1e-4 show); the bound 1e-5 is 10 eps.
    assert gaps[2] < 1e-5


def _t_centred_cdf(z: float, df: float) -> float:
    """``P(T <= z) - 1/2`` for a standard Student t, from the incomplete beta function:
    ``sign(z) / 2 * I_{z^2 / (df + z^2)}(1/2, df/2)``, accurate to rounding near ``z = 0``."""
    return math.copysign(0.5 * special.betainc(0.5, df / 2, z * z / (df + z * z)), z)


@pytest.mark.parametrize("width", [1e-10, 1e-6, 1e-3])
def test_narrow_rope_mass_with_two_differences(width):
    # n = 2 gives df = 1 (a Cauchy posterior), where SciPy's Student-t CDF loses up to 2e-9
    # near the centre: a rope of width 2e-10 around the posterior location got p_rope = 0
    # instead of (2 / pi) arctan(width / scale) = 1.0e-9. Reference: the incomplete beta
    # function (relative accuracy ~1e-14 here). p_rope is a difference of two CDF values
    # near 1/2, each rounded to ulp(1/2) = 1.1e-16: hence the absolute tolerance 1e-15.
    for x in ([-0.0625, 0.0625], [0.0, 0.125], [0.01, 0.02]):
        post = bayesian_correlated_ttest(x, rho=0.0, rope=(-width, width))
        assert post.df == 1
        z_lo, z_hi = ((e - post.loc) / post.scale_ for e in (-width, width))
        p_left = 0.5 + _t_centred_cdf(z_lo, 1)
        p_rope = _t_centred_cdf(z_hi, 1) - _t_centred_cdf(z_lo, 1)
        assert post.p_rope == pytest.approx(p_rope, rel=1e-9, abs=1e-15)
        assert post.p_left == pytest.approx(p_left, rel=1e-12)
        assert post.p_right == pytest.approx(1 - p_left - p_rope, rel=1e-12)
        freq = correlated_ttest(x, rho=0.0, alternative="greater")
        assert freq.pvalue == pytest.approx(0.5 - _t_centred_cdf(freq.statistic, 1), rel=1e-12)


def test_sample_matches_student_t_moments():
    post = bayesian_correlated_ttest(_diffs(6, n=10), rho=0.1)
    draws = post.sample(200_000, rng=7)
    np.testing.assert_array_equal(draws, post.sample(200_000, rng=np.random.default_rng(7)))
    var = post.scale_**2 * post.df / (post.df - 2)
    se_mean = math.sqrt(var / draws.size)
    assert abs(draws.mean() - post.loc) < 4 * se_mean  # 4 Monte Carlo standard errors
    # P(mu > 0) estimated by the draws: binomial standard error.
    p = post.p_positive
    assert abs(np.mean(draws > 0) - p) < 4 * math.sqrt(p * (1 - p) / draws.size)
    with pytest.raises(TypeError, match="rng"):
        post.sample(10, rng=None)
    for value in (-0.01, 0.0, 0.02):
        assert post.cdf(value) == pytest.approx(post.distribution.cdf(value), rel=1e-12)


def test_zero_variance_posterior_is_point_mass():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        zero = bayesian_correlated_ttest(np.zeros(6), rho=0.1)
        inside = bayesian_correlated_ttest(np.full(6, 0.125), rho=0.1, rope=(-0.25, 0.25))
        right = bayesian_correlated_ttest(np.full(6, 0.5), rho=0.1, rope=(-0.25, 0.25))
        edge = bayesian_correlated_ttest(np.full(6, 0.25), rho=0.1, rope=(-0.25, 0.25))
    assert zero.probs() == (0.0, 1.0, 0.0) and zero.p_positive == 0.5
    assert inside.probs() == (0.0, 1.0, 0.0) and inside.p_positive == 1.0
    assert right.probs() == (0.0, 0.0, 1.0) and right.decision() == "right"
    assert edge.probs() == (0.0, 0.5, 0.5)
    # Constant differences equal to a rope end that is not a binary fraction: the mean of
    # three (six) copies of 0.1 rounds to 0.1 + 1.4e-17 (0.1 - 1.4e-17), which used to put
    # the whole point mass right of (inside) the rope instead of half on each side.
    for n in (3, 6):
        on_edge = bayesian_correlated_ttest(np.full(n, 0.1), rho=0.1, rope=(-0.1, 0.1))
        assert on_edge.loc == 0.1 and on_edge.probs() == (0.0, 0.5, 0.5)
    # One point computed from percentages lies just outside (0.80 - 0.81) or just inside
    # (0.81 - 0.82) the rope's end -0.01: within the rounding of one difference, it is on
    # the end, and gets the limit 1/2 either way, not 1 or 0 by its last bits
    outside, inside_end = 80 / 100 - 81 / 100, 81 / 100 - 82 / 100
    assert outside < -0.01 < inside_end
    for d in (outside, inside_end):
        post = bayesian_correlated_ttest(np.full(6, d), rho=0.1, rope=(-0.01, 0.01))
        assert post.probs() == (0.5, 0.5, 0.0)
    assert zero.is_point_mass
    assert (zero.cdf(-1e-9), zero.cdf(0.0), zero.cdf(1e-9)) == (0.0, 0.5, 1.0)
    np.testing.assert_array_equal(inside.sample(3, rng=0), [0.125] * 3)
    with pytest.raises(ValueError, match="point mass"):
        _ = zero.distribution
    # A proper prior on the precision keeps the posterior a Student t.
    proper = bayesian_correlated_ttest(np.zeros(6), rho=0.1, prior=NormalGammaPrior(b=1e-4))
    assert not proper.is_point_mass and proper.p_positive == pytest.approx(0.5, abs=1e-12)


def test_differences_constant_within_rounding_are_taken_as_constant():
    # one point of accuracy computed by the caller from decimals: 0.81 - 0.80, 0.71 - 0.70,
    # ... differ in their last bits (a variance of about 1e-35), which used to give the
    # posterior a scale of rounding noise and P(rope) = 0.578 by those bits; the limit at the
    # rope's end is 1/2 each side, as for exactly constant differences
    a = np.array([0.81, 0.71, 0.61, 0.51, 0.41, 0.91, 0.31, 0.21, 0.11, 0.99])
    x = a - (a - 0.01)
    assert np.ptp(x) > 0
    kept = x.copy()
    for scale, factor in (("fraction", 1.0), ("percent", 100.0), ("raw", 1.0)):
        post = bayesian_correlated_ttest(x * factor, rho=0.1, rope=(-0.01, 0.01), scale=scale)
        assert post.is_point_mass and post.probs() == (0.0, 0.5, 0.5)
        res = correlated_ttest(x * factor, rho=0.1, scale=scale)
        assert res.statistic == math.inf and res.pvalue == 0.0
    # the caller's array is not changed (passed itself: check_array returns it as it is)
    bayesian_correlated_ttest(x, rho=0.1)
    correlated_ttest(x, rho=0.1)
    np.testing.assert_array_equal(x, kept)
    # a spread of one part in 1e15 of the differences' size is no rounding of them: kept
    real = np.full(10, 0.01) + np.arange(10) * 1e-14
    assert not bayesian_correlated_ttest(real, rho=0.1).is_point_mass


def test_a_point_mass_of_raw_scores_on_a_rope_end_is_judged_by_the_scores_size():
    # AUCs 0.29 vs 0.28 on every fold: the difference misses 0.01 by about 5e-17, the
    # rounding of scores of size 1 (a tolerance relative to the difference, 2.7e-17, put
    # such points on one side of the rope's end by their last bits: 8 of 98 such pairs)
    for high in range(2, 100):
        d = high / 100 - (high - 1) / 100
        post = bayesian_correlated_ttest(np.full(10, d), rho=0.1, rope=(-0.01, 0.01), scale="raw")
        assert post.probs() == (0.0, 0.5, 0.5), high
    # scores of 1e4 (an RMSE), 10000.01 vs 10000.00: their size, given, sets the tolerance
    d = 10000.01 - 10000.0
    rope = (-0.01, 0.01)
    post = bayesian_correlated_ttest(
        np.full(10, d), rho=0.1, rope=rope, scale="raw", score_size=1e4
    )
    assert post.probs() == (0.0, 0.5, 0.5)
    # infinite arguments of the CDF are no rope's end
    assert (post.cdf(-math.inf), post.cdf(math.inf)) == (0.0, 1.0)


@pytest.mark.parametrize("unit", [1.0, 1e-15, 1e15])
def test_a_point_mass_of_raw_scores_does_not_depend_on_their_unit(unit):
    # constant differences of raw scores 0.3 units right of 0, the rope's end at 0.25 units:
    # right whatever the unit; the tolerance at the point was 12 eps in absolute terms,
    # which put a point of 3e-16 on a rope's end of 2.5e-16 (1/2 each side)
    x = np.full(10, 0.3 * unit)
    rope, size = (-0.25 * unit, 0.25 * unit), 0.5 * unit  # the scores' size, given
    post = bayesian_correlated_ttest(x, rho=0.1, rope=rope, scale="raw", score_size=size)
    assert post.probs() == (0.0, 0.0, 1.0) and post.p_positive == 1.0
    assert post.cdf(0.3 * unit) == 0.5 and post.cdf(0.29 * unit) == 0.0
    rows = np.vstack([x, -x, x])
    test = poisson_binomial_test(rows, rho=0.1, scale="raw", score_size=size)
    assert list(test.p_datasets) == [1, 0, 1]


def test_percent_scale_is_equivalent():
    x = _diffs(8)
    a = bayesian_correlated_ttest(x, rho=0.1)
    b = bayesian_correlated_ttest(100 * x, rho=0.1, scale="percent")
    assert a.probs() == pytest.approx(b.probs(), abs=1e-12)


# ------------------------------------------------------------------ properties

finite = st.floats(-0.2, 0.2, allow_nan=False, allow_infinity=False)
vectors = st.lists(finite, min_size=2, max_size=30)
rhos = st.floats(0.0, 0.95)
ropes = st.tuples(st.floats(-0.05, 0.0), st.floats(0.0, 0.05))


@settings(max_examples=60, deadline=None)
@given(vectors, rhos, ropes)
def test_swapping_learners_mirrors_left_and_right(x, rho, rope):
    x = np.array(x)
    post = bayesian_correlated_ttest(x, rho=rho, rope=rope)
    mirrored = bayesian_correlated_ttest(-x, rho=rho, rope=(-rope[1], -rope[0]))
    assert mirrored.p_left == pytest.approx(post.p_right, abs=1e-12)
    assert mirrored.p_right == pytest.approx(post.p_left, abs=1e-12)
    assert mirrored.p_rope == pytest.approx(post.p_rope, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(vectors, rhos, ropes)
def test_probabilities_sum_to_one(x, rho, rope):
    post = bayesian_correlated_ttest(np.array(x), rho=rho, rope=rope)
    assert all(0.0 <= p <= 1.0 for p in post.probs())
    assert sum(post.probs()) == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(vectors, rhos, ropes)
def test_shifting_differences_into_the_rope_raises_p_rope(x, rho, rope):
    # The posterior is a symmetric unimodal t whose spread does not depend on the mean, so
    # centring the differences on the middle of the rope maximises its mass there.
    x = np.array(x)
    middle = (rope[0] + rope[1]) / 2
    before = bayesian_correlated_ttest(x, rho=rho, rope=rope)
    after = bayesian_correlated_ttest(x - x.mean() + middle, rho=rho, rope=rope)
    assert after.p_rope >= before.p_rope - 1e-12


# ------------------------------------------------------------------ decisions


@dataclass(frozen=True)
class _Probs(BayesianDecisionMixin):
    p_left: float
    p_rope: float
    p_right: float


def test_decision_mixin():
    assert _Probs(0.01, 0.02, 0.97).decision() == "right"
    assert _Probs(0.96, 0.04, 0.0).decision() == "left"
    assert _Probs(0.0, 0.951, 0.049).decision() == "rope"
    assert _Probs(0.05, 0.9, 0.05).decision() == "none"
    assert _Probs(0.05, 0.9, 0.05).decision(threshold=0.8) == "rope"
    assert _Probs(0.0, 0.95, 0.05).decision() == "none"  # strictly above the threshold
    with pytest.raises(ValueError, match="threshold"):
        _Probs(0.1, 0.8, 0.1).decision(threshold=1.0)


# ------------------------------------------------------------------ validation


@pytest.mark.parametrize("func", [correlated_ttest, bayesian_correlated_ttest])
@pytest.mark.parametrize(
    ("x", "kwargs", "match"),
    [
        ([0.1, np.nan, 0.2], {}, "finite"),
        ([[0.1, 0.2], [0.1, 0.3]], {}, "1-D"),
        ([0.1], {}, "at least 2 folds"),
        ([1.5, 2.0, 3.0], {}, "scale='percent'"),
        ([150.0, 2.0], {"scale": "percent"}, "percentages"),
        ([0.1, 0.2], {"scale": "ratio"}, "scale"),
        ([0.1, 0.2], {"rho": 1.0}, r"rho: expected a number in \[0, 1\)"),
        ([0.1, 0.2], {"rho": -0.1}, "rho"),
        ([0.1, 0.2], {"rho": np.nan}, "rho"),
    ],
)
def test_bad_input(func, x, kwargs, match):
    kwargs = {"rho": 0.1} | kwargs
    with pytest.raises(ValueError, match=match):
        func(x, **kwargs)


@pytest.mark.parametrize(
    ("rope", "match"),
    [
        ((0.01, 0.02), "low <= 0 <= high"),
        ((0.01,), "interval"),
        ((-np.inf, 0.1), "finite"),
        ((-1.0, 1.0), r"rope: the ends must be fractions of accuracy with \|end\| < 1"),
    ],
)
def test_bad_rope(rope, match):
    with pytest.raises(ValueError, match=match):
        bayesian_correlated_ttest([0.1, 0.2], rho=0.1, rope=rope)


def test_bad_options():
    with pytest.raises(ValueError, match="alternative: expected one of 'two-sided'"):
        correlated_ttest([0.1, 0.2], rho=0.1, alternative="bigger")
    with pytest.raises(TypeError, match="prior"):
        bayesian_correlated_ttest([0.1, 0.2], rho=0.1, prior="jeffreys")
    with pytest.raises(ValueError, match="prior.k0"):
        NormalGammaPrior(k0=0.0)
    with pytest.raises(ValueError, match="prior.b"):
        NormalGammaPrior(b=-1.0)
    with pytest.raises(ValueError, match="prior.mu0"):
        NormalGammaPrior(mu0=np.nan)
    with pytest.raises(ValueError, match="prior.a"):
        bayesian_correlated_ttest([0.1, 0.2], rho=0.1, prior=NormalGammaPrior(a=-1.0))
    with pytest.raises(ValueError, match="confidence_level"):
        correlated_ttest([0.1, 0.2], rho=0.1).confidence_interval(95)


def test_posterior_cdf_refuses_nan_and_takes_infinite_values():
    post = bayesian_correlated_ttest(_diffs(3), rho=0.1)
    point = bayesian_correlated_ttest(np.zeros(4), rho=0.1)
    for result in (post, point):
        with pytest.raises(
            ValueError, match=r"^value: expected a real number \(inf allowed\), got nan"
        ):
            result.cdf(math.nan)
        assert (result.cdf(-math.inf), result.cdf(math.inf)) == (0.0, 1.0)
