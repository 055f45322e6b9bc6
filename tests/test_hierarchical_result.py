"""Data preparation, likelihood algebra and result summaries of cvcompare.hierarchical
(no Stan run)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from reference_hierarchical import corr_matrix
from scipy import stats

from cvcompare.hierarchical import (
    HierarchicalDiagnostics,
    HierarchicalResult,
    mcse_probability,
    next_dataset_probs,
    next_dataset_votes,
)
from cvcompare.hierarchical.priors import SIGMA_UPPER_FACTOR, scale_data, stan_data
from cvcompare.stats.odds import posterior_odds


@pytest.mark.parametrize(("n", "rho"), [(10, 0.1), (25, 0.0), (7, 0.5)])
def test_sufficient_statistic_likelihood_equals_the_full_mvn(n, rho):
    # Reduction written in hierarchical.stan: log MVN(x | 1 delta, sigma^2 C) =
    # log N(xbar | delta, sigma^2 (1 + (n-1) rho) / n) - (n-1) log sigma
    # - ss / (2 sigma^2 (1 - rho)) + const, with the closed-form constant
    # const = -(n-1)/2 log(2 pi) - (n-1)/2 log(1 - rho) - 1/2 log(n).
    gen = np.random.default_rng(n)
    for _ in range(5):
        x = gen.normal(0.02, 0.05, n)
        delta, sigma = gen.normal(0, 0.05), gen.uniform(0.01, 0.1)
        full = stats.multivariate_normal(np.full(n, delta), sigma**2 * corr_matrix(n, rho)).logpdf(
            x
        )
        xbar, ss = x.mean(), np.sum((x - x.mean()) ** 2)
        v = sigma**2 * (1 + (n - 1) * rho) / n
        fast = (
            stats.norm.logpdf(xbar, delta, np.sqrt(v))
            - (n - 1) * np.log(sigma)
            - ss / (2 * sigma**2 * (1 - rho))
        )
        const = -(n - 1) / 2 * np.log(2 * np.pi) - (n - 1) / 2 * np.log(1 - rho) - np.log(n) / 2
        assert fast + const == pytest.approx(full, abs=1e-8)


def test_next_dataset_probs_match_a_loop_over_draws():
    # Corani et al. (2017), Sec. 3.2, written as the paper's loop with scipy's t cdf
    gen = np.random.default_rng(1)
    s = 500
    delta0 = gen.normal(0.005, 0.01, s)
    sigma0 = gen.uniform(0.001, 0.02, s)
    nu = 1 + gen.gamma(2, 10, s)
    rope = (-0.01, 0.01)
    counts = np.zeros(3)
    for d, sd, v in zip(delta0, sigma0, nu, strict=True):
        left = stats.t.cdf(rope[0], v, d, sd)
        right = stats.t.sf(rope[1], v, d, sd)
        counts[int(np.argmax([left, 1 - left - right, right]))] += 1
    assert next_dataset_probs(delta0, sigma0, nu, rope) == pytest.approx(tuple(counts / s))
    # Gaussian top level (nu = inf) uses the normal cdf
    counts[:] = 0
    for d, sd in zip(delta0, sigma0, strict=True):
        left, right = stats.norm.cdf(rope[0], d, sd), stats.norm.sf(rope[1], d, sd)
        counts[int(np.argmax([left, 1 - left - right, right]))] += 1
    got = next_dataset_probs(delta0, sigma0, np.full(s, np.inf), rope)
    assert got == pytest.approx(tuple(counts / s))


def make_result(gen: np.random.Generator, s: int = 400, q: int = 6) -> HierarchicalResult:
    delta0 = gen.normal(0.01, 0.005, s)
    sigma0 = gen.uniform(0.002, 0.01, s)
    nu = 1 + gen.gamma(2, 10, s)
    delta = gen.normal(np.linspace(-0.03, 0.03, q), 0.01, (s, q))
    sigma = gen.uniform(0.03, 0.05, (s, q))
    diag = HierarchicalDiagnostics({}, {}, {}, 0, 0, (1.0,), ())
    p = next_dataset_probs(delta0, sigma0, nu, (-0.01, 0.01))
    return HierarchicalResult(
        delta0, sigma0, nu, delta, sigma, *p, (-0.01, 0.01), 0.1, 1.0, "hyper", "student",
        "pystan", "Stan 2.35.0, httpstan 4.13.0, pystan 3.10.0", 4, (), diag,
    )  # fmt: skip


def test_result_summaries_count_draws():
    gen = np.random.default_rng(2)
    res = make_result(gen)
    expected = (
        np.array(
            [
                [np.sum(col < -0.01), np.sum(np.abs(col) <= 0.01), np.sum(col > 0.01)]
                for col in res.delta.T
            ]
        )
        / res.delta.shape[0]
    )
    np.testing.assert_allclose(res.per_dataset_probs, expected)
    np.testing.assert_allclose(res.per_dataset_probs.sum(axis=1), 1.0)
    np.testing.assert_allclose(res.shrinkage, [np.mean(col) for col in res.delta.T])
    d0 = res.delta0
    expected_d0 = (np.sum(d0 < -0.01), np.sum(np.abs(d0) <= 0.01), np.sum(d0 > 0.01))
    assert res.delta0_probs == pytest.approx(tuple(np.array(expected_d0) / d0.size))
    p_left, p_rope, p_right = res.probs()
    assert res.posterior_odds("right", "rope") == posterior_odds(p_right, p_rope)
    assert res.posterior_odds("rope", "left") == posterior_odds(p_rope, p_left)
    with pytest.raises(ValueError, match="b: expected one of"):
        res.posterior_odds("rope", "middle")


def test_next_dataset_cdf_and_quantiles_are_the_predictive_mixtures():
    gen = np.random.default_rng(3)
    res = make_result(gen, s=300)
    nu = res.nu.copy()
    nu[:10] = np.inf  # some draws of the Gaussian top level
    res = dataclasses.replace(res, nu=nu)
    x = np.array([-0.02, 0.0, 0.013, 0.05])
    t_cdf = np.where(
        np.isfinite(res.nu)[:, None],
        stats.t.cdf(x[None, :], np.where(np.isfinite(res.nu), res.nu, 1.0)[:, None],
                    res.delta0[:, None], res.sigma0[:, None]),
        stats.norm.cdf(x[None, :], res.delta0[:, None], res.sigma0[:, None]),
    )  # fmt: skip
    np.testing.assert_allclose(res.next_dataset_cdf(x), t_cdf.mean(axis=0), rtol=1e-12)
    # the cdf is the integral of the density (trapezoid rule on a fine grid)
    fine = np.linspace(-0.02, 0.05, 20001)
    mass = np.trapezoid(res.next_dataset_density(fine), fine)
    assert mass == pytest.approx(np.diff(res.next_dataset_cdf(x[[0, 3]]))[0], rel=1e-6)
    for level in (0.005, 0.5, 0.995):
        value = res.next_dataset_quantile(level)
        assert res.next_dataset_cdf([value])[0] == pytest.approx(level, abs=1e-9)


def test_probability_standard_errors_come_from_each_chains_votes():
    gen = np.random.default_rng(3)
    res = make_result(gen)
    votes = next_dataset_votes(res.delta0, res.sigma0, res.nu, res.rope)
    assert tuple(np.bincount(votes, minlength=3) / votes.size) == pytest.approx(res.probs())
    by_chain = votes.reshape(res.chains, -1)
    expected = tuple(mcse_probability(by_chain == region) for region in range(3))
    assert res.probs_se() == pytest.approx(expected)
    # independent draws: close to the binomial standard error sqrt(p (1 - p) / N), within
    # the ESS estimate's relative error for 400 draws (sd about 7% for the square root, 3 sd)
    for p, se in zip(res.probs(), res.probs_se(), strict=True):
        assert se == pytest.approx(np.sqrt(p * (1 - p) / votes.size), rel=0.25, abs=1e-12)


def test_scale_data_divides_by_mean_sd_and_keeps_means_of_zero_variance_sets():
    gen = np.random.default_rng(3)
    x = gen.normal(0.01, 0.04, (4, 10))
    x[2] = 0.03  # zero variance
    sds = x.std(axis=1, ddof=1)
    rope = (-0.01, 0.02)
    a = scale_data(x.copy(), rope, np.random.default_rng(7))
    b = scale_data(x.copy(), rope, np.random.default_rng(7))
    assert a.scale == pytest.approx(sds.mean())
    assert a.rope == pytest.approx((rope[0] / a.scale, rope[1] / a.scale))
    assert a.noisy == (2,)
    np.testing.assert_array_equal(a.x, b.x)  # seeded noise
    np.testing.assert_allclose(a.means, x.mean(axis=1) / a.scale, atol=1e-12)
    np.testing.assert_allclose(a.x[[0, 1, 3]], x[[0, 1, 3]] / a.scale)  # others untouched
    noise = a.x[2, :5] - 0.03 / a.scale
    np.testing.assert_allclose(a.x[2, 5:] - 0.03 / a.scale, -noise)  # + on one half, - other
    assert np.all((noise >= a.rope[0]) & (noise <= a.rope[1])) and np.ptp(noise) > 0


def test_scale_data_refuses_undefined_cases():
    x = np.full((3, 10), 0.02)
    with pytest.raises(ValueError, match="every data set has zero variance"):
        scale_data(x, (-0.01, 0.01), np.random.default_rng(0))
    x[0] = np.linspace(0, 0.1, 10)
    with pytest.raises(ValueError, match="rope .* is empty"):
        scale_data(x, (0.0, 0.0), np.random.default_rng(0))


def test_stan_data_bounds_follow_the_authors_code():
    gen = np.random.default_rng(4)
    x = gen.normal(0.01, 0.04, (5, 20))
    scaled = scale_data(x, (-0.01, 0.01), gen)
    d = stan_data(scaled, rho=0.1, student=True, nu_hyper=False)
    assert d["delta0_hi"] == -d["delta0_lo"] == pytest.approx(np.max(np.abs(x)) / scaled.scale)
    assert d["sigma_hi"] == pytest.approx(SIGMA_UPPER_FACTOR)  # mean sd is 1 after scaling
    assert d["sigma0_hi"] == pytest.approx(
        SIGMA_UPPER_FACTOR * np.std(x.mean(1), ddof=1) / scaled.scale
    )
    assert (d["student"], d["nu_hyper"], d["q"], d["n"]) == (1, 0, 5, 20)
    np.testing.assert_allclose(
        d["ss"], ((x - x.mean(1, keepdims=True)) ** 2).sum(1) / scaled.scale**2
    )
    # equal means: sd of the means is 0, the mean within sd is used instead
    half = gen.normal(0, 0.04, (3, 5))
    x = np.concatenate([half, -half], axis=1)  # every mean is exactly 0
    d = stan_data(scale_data(x, (-0.01, 0.01), gen), rho=0.1, student=False, nu_hyper=True)
    assert d["sigma0_hi"] == pytest.approx(SIGMA_UPPER_FACTOR)


def test_next_dataset_masses_are_the_predictive_probabilities_of_the_regions():
    # the average over the draws of t(nu, delta0, sigma0)'s masses, with scipy's t cdf: the
    # predictive probability of each region, not the shares of votes that probs() returns
    res = make_result(np.random.default_rng(4))
    low, high = res.rope
    draws = list(zip(res.delta0, res.sigma0, res.nu, strict=True))
    below = np.mean([stats.t.cdf(low, v, d, s) for d, s, v in draws])
    above = np.mean([stats.t.sf(high, v, d, s) for d, s, v in draws])
    assert res.next_dataset_masses == pytest.approx((below, 1 - below - above, above), abs=1e-12)
    assert "the share of posterior draws in which it is the most probable" in " ".join(
        HierarchicalResult.probs.__doc__.split()
    )


def test_result_repr_leaves_the_draws_out():
    res = make_result(np.random.default_rng(5))
    text = repr(res)
    assert "p_right=" in text and "diagnostics=" in text
    assert "array" not in text and len(text) < 1000
