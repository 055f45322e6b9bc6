"""Bayesian sign test and Holm's adjustment, against independent references."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import special

from cvcompare.stats import bayesian_sign_test, dirichlet_max_probs, holm_adjust


def _stick_breaking_max_shares(alpha, n, seed):
    """Shares of draws in which each component is the largest, drawing Dir(alpha) by
    stick-breaking Beta variables (a different construction from the Gamma one)."""
    gen = np.random.default_rng(seed)
    a = np.asarray(alpha, float)
    b1 = gen.beta(a[0], a[1] + a[2], n)
    b2 = gen.beta(a[1], a[2], n)
    theta = np.column_stack([b1, (1 - b1) * b2, (1 - b1) * (1 - b2)])
    return np.bincount(theta.argmax(axis=1), minlength=3) / n


@pytest.mark.parametrize(
    "alpha",
    [
        (2.0, 2.0, 2.0),
        (1e-4, 5.0, 1.0001),
        (30.0001, 1.0001, 23.0001),
        (0.5001, 1e-4, 0.5001),
        (3.0, 1.5, 2.5),
    ],
)
def test_dirichlet_max_probs_match_stick_breaking_monte_carlo(alpha):
    n = 400_000
    ref = _stick_breaking_max_shares(alpha, n, seed=7)
    got = np.array(dirichlet_max_probs(alpha))
    # binomial standard error of each share; 5 SE leaves a 6e-7 chance per component
    se = np.sqrt(np.maximum(got * (1 - got), 1e-12) / n)
    assert np.all(np.abs(got - ref) <= 5 * se + 1e-6)
    assert got.sum() == pytest.approx(1.0, abs=1e-12)


def test_dirichlet_max_probs_two_components_closed_form():
    # P(theta_1 > theta_2) for Beta(a, b) = P(B > 1/2) = I_{1/2}(b, a)
    for a, b in [(1.0, 1.0), (3.5, 2.0), (10.0, 0.3)]:
        p1, p2 = dirichlet_max_probs([a, b])
        assert p1 == pytest.approx(special.betainc(b, a, 0.5), abs=1e-10)
        assert p2 == pytest.approx(1 - p1, abs=1e-12)


@pytest.mark.parametrize("q", [100, 120, 399, 1000])
@pytest.mark.parametrize("region", [0, 1, 2])
def test_dirichlet_max_probs_stay_probabilities_when_one_region_holds_every_data_set(q, region):
    # every data set in one region (e.g. two learners equivalent everywhere): the quadrature
    # of the dominant component overshot 1 by about 1e-13, which plots and readers refuse
    alpha = [1e-4, 1e-4, 1e-4]
    alpha[1] += 1.0  # the prior's pseudo-observation in the rope
    alpha[region] += q
    got = dirichlet_max_probs(alpha)
    assert all(0.0 <= p <= 1.0 for p in got)
    assert got[region] == pytest.approx(1.0, abs=1e-12)


def test_sign_test_counts_and_baycomp_prior():
    x = [-0.05, -0.01, 0.0, 0.005, 0.01, 0.02, 0.03]
    post = bayesian_sign_test(x, rope=(-0.01, 0.01), rng=1)
    # ends of the rope count inside, as in baycomp (diff < -rope is left, > rope right)
    assert post.counts == (1, 4, 2)
    assert post.alpha == pytest.approx((1.0001, 5.0001, 2.0001))
    assert post.probs() == pytest.approx(dirichlet_max_probs(post.alpha), abs=0)
    # the draws are Dirichlet(alpha): their means agree with alpha / sum within 5 SE
    mean = np.array(post.mean_theta)
    se = np.sqrt(mean * (1 - mean) / (sum(post.alpha) + 1) / post.draws.shape[0])
    assert np.all(np.abs(post.draws.mean(axis=0) - mean) <= 5 * se)


def test_sign_test_mirrors_when_the_learners_swap():
    x = np.array([0.03, 0.02, 0.05, -0.04, 0.0, 0.02])
    a = bayesian_sign_test(x, rng=1)
    b = bayesian_sign_test(-x, rng=1)
    assert a.p_left == pytest.approx(b.p_right, abs=1e-12)
    assert a.p_rope == pytest.approx(b.p_rope, abs=1e-12)


def test_sign_test_raw_scale_rope_in_score_units():
    # RMSE-like differences of several units: accepted with scale="raw", refused as fractions
    x = [2.0, 3.0, -0.5, 4.0]
    post = bayesian_sign_test(x, rope=(-1.0, 1.0), rng=1, scale="raw")
    assert post.counts == (0, 1, 3)
    with pytest.raises(ValueError, match="x: values must be fractions"):
        bayesian_sign_test(x, rng=1)
    with pytest.raises(ValueError, match="prior_place"):
        bayesian_sign_test([0.1], rng=1, prior_place="middle")


def _holm_rejections(p, alpha):
    """Holm's step-down procedure as published: reject H_(1..i) while p_(j) <= alpha/(m-j+1)."""
    order = np.argsort(p, kind="stable")
    rejected = np.zeros(p.size, bool)
    for j, idx in enumerate(order):
        if p[idx] > alpha / (p.size - j):
            break
        rejected[idx] = True
    return rejected


def test_holm_adjusted_pvalues_reproduce_the_step_down_procedure():
    gen = np.random.default_rng(3)
    for m in (1, 2, 5, 10):
        p = np.concatenate([gen.uniform(0, 0.05, m // 2), gen.uniform(0, 1, m - m // 2)])
        adj = holm_adjust(p)
        assert np.all(adj >= p) and np.all(adj <= 1)
        for alpha in np.linspace(0.001, 0.3, 300):
            np.testing.assert_array_equal(adj <= alpha, _holm_rejections(p, alpha))


def test_holm_known_values_and_bad_input():
    # Holm (1979)-style worked example: m = 4
    np.testing.assert_allclose(
        holm_adjust([0.01, 0.02, 0.03, 0.04]), [0.04, 0.06, 0.06, 0.06], rtol=1e-12
    )
    with pytest.raises(ValueError, match="pvalues"):
        holm_adjust([0.5, 1.5])


def test_holm_is_order_invariant():
    p = np.array([0.2, 0.001, 0.04, 0.03])
    for perm in itertools.permutations(range(4)):
        perm = list(perm)
        np.testing.assert_allclose(holm_adjust(p[perm]), holm_adjust(p)[perm])


def test_concentrations_beyond_the_quadrature_are_refused_naming_the_argument():
    # above about 1e6 the quadrature missed the integrand's peak: probabilities summing to 1/2
    with pytest.raises(
        ValueError, match=r"^alpha: concentration parameters must be at most 10000 "
    ):
        dirichlet_max_probs([1e6, 1.0, 2.0])
    assert sum(dirichlet_max_probs([1e4, 1e4, 1e4])) == pytest.approx(1.0, abs=1e-10)
    x = [0.03, 0.02, 0.05, 0.04, -0.02, 0.03]
    with pytest.raises(ValueError, match=r"^prior_strength: the posterior's Dirichlet parameters"):
        bayesian_sign_test(x, prior_strength=1e5, rng=1, n_samples=10)
    post = bayesian_sign_test(x, prior_strength=1e4 - 10, rng=1, n_samples=10)
    assert sum(post.probs()) == pytest.approx(1.0, abs=1e-10)
    many = np.full(10_001, 0.05)  # more data sets in one region than the quadrature takes
    with pytest.raises(ValueError, match=r"^x: .*region holds more than 10000 data sets"):
        bayesian_sign_test(many, rng=1, n_samples=10)
