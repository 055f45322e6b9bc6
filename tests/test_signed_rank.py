"""Signed-rank tests: frequentist tests against scipy and brute force, Bayesian tests against
the theorems of Benavoli et al. (2014) and an independent per-draw sampler."""

from __future__ import annotations

import dataclasses
import itertools
import math
import warnings

import numpy as np
import pytest
import reference_signed_rank as quadratic_ref
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from cvcompare.seeding import replication_rng
from cvcompare.stats import signed_rank as sr
from cvcompare.stats.sign import sign_test
from cvcompare.stats.signed_rank import (
    IDP_DEFAULT_S,
    bayesian_signed_rank,
    dp_signed_rank,
    idp_signed_rank,
    loss_threshold,
    wilcoxon_test,
)

# Monte Carlo tolerances: |estimate - truth| < Z_TOL standard errors fails by chance with
# probability about 6e-5 per comparison (two-sided normal tail at 4 sigma).
Z_TOL = 4.0


def _normal_sample(n: int, seed_key: str) -> np.ndarray:
    return replication_rng(2026, "test_signed_rank", seed_key).normal(size=n)


def _r_plus_zsplit(z: np.ndarray) -> float:
    """R+ with midranks and zeros split, from scipy (independent of the package)."""
    return float(stats.wilcoxon(z, zero_method="zsplit", alternative="greater").statistic)


# ------------------------------------------------------------------------------------------
# frequentist tests
# ------------------------------------------------------------------------------------------


def _exact_signed_rank_pvalue(z: np.ndarray, alternative: str) -> float:
    """Exact p-value by enumerating the 2^n sign assignments (no ties, no zeros)."""
    ranks = stats.rankdata(np.abs(z))
    observed = ranks[z > 0].sum()
    sums = np.array(
        [
            sum(r for r, keep in zip(ranks, signs, strict=True) if keep)
            for signs in itertools.product([0, 1], repeat=z.size)
        ]
    )
    p_ge, p_le = np.mean(sums >= observed), np.mean(sums <= observed)
    return {"greater": p_ge, "less": p_le, "two-sided": min(1.0, 2 * min(p_ge, p_le))}[alternative]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_exact_pvalue_matches_enumeration_and_scipy(alternative):
    z = _normal_sample(11, "wilcoxon-exact") / 10
    res = wilcoxon_test(z, alternative=alternative)
    assert res.pvalue == pytest.approx(_exact_signed_rank_pvalue(z, alternative), rel=1e-12)
    ref = stats.wilcoxon(z, alternative=alternative)
    assert (res.statistic, res.pvalue) == (ref.statistic, ref.pvalue)
    assert res.n == 11 and res.n_zero == 0


def test_wilcoxon_normal_approximation_matches_closed_form():
    z = _normal_sample(60, "wilcoxon-approx") / 10
    n = z.size
    r_plus = stats.rankdata(np.abs(z))[z > 0].sum()
    zstat = (r_plus - n * (n + 1) / 4) / math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    res = wilcoxon_test(z, alternative="greater", method="approx")
    assert res.statistic == r_plus
    assert res.pvalue == pytest.approx(stats.norm.sf(zstat), rel=1e-10)


def test_wilcoxon_zero_methods_follow_scipy_and_all_zero_gives_pvalue_one():
    z = np.array([0.0, 0.0, 0.01, -0.02, 0.03, 0.04, 0.05, -0.01, 0.02])
    for zm in ("wilcox", "pratt", "zsplit"):
        ref = stats.wilcoxon(z, zero_method=zm, alternative="greater")
        res = wilcoxon_test(z, zero_method=zm, alternative="greater")
        assert (res.statistic, res.pvalue, res.n_zero) == (ref.statistic, ref.pvalue, 2)
    assert wilcoxon_test(np.zeros(6)).pvalue == 1.0
    for zm in ("wilcox", "pratt", "zsplit"):  # the statistic as SciPy gives it there
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            ref = stats.wilcoxon(np.zeros(6), zero_method=zm).statistic
        assert wilcoxon_test(np.zeros(6), zero_method=zm).statistic == ref


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
def test_wilcoxon_rank_sums_match_scipy_and_walsh_averages(zero_method):
    z = np.r_[np.zeros(3), np.round(_normal_sample(20, "rank-sums") * 10) / 100]  # ties too
    res = wilcoxon_test(z, zero_method=zero_method)
    # scipy's one-sided statistic is R+; its two-sided one min(R+, R-); of the ranked values
    # (non-zero ones for "wilcox", all for the others) the two sums (with the zeros' ranks
    # for "pratt" left out) make up n (n + 1) / 2
    for alternative, expected in (
        ("greater", res.r_plus),
        ("two-sided", min(res.r_plus, res.r_minus)),
    ):
        ref = stats.wilcoxon(z, zero_method=zero_method, alternative=alternative, method="approx")
        assert ref.statistic == expected
    n = int(np.sum(z != 0)) if zero_method == "wilcox" else z.size
    zero_ranks = (3 * 4 / 2) if zero_method == "pratt" else 0.0  # the zeros rank 1, 2, 3
    assert res.r_plus + res.r_minus + zero_ranks == n * (n + 1) / 2
    # without zeros and ties, R+ counts the positive Walsh averages (z_i + z_j) / 2, i <= j
    w = _normal_sample(15, "walsh")
    i, j = np.triu_indices(w.size)
    assert wilcoxon_test(w / 10).r_plus == np.sum(w[i] + w[j] > 0)


def test_wilcoxon_favours_the_larger_rank_sum_where_the_median_points_the_other_way():
    # 16 small positive differences and 14 large negative ones: the median is positive,
    # R- = 329 > R+ = 136, and the two-sided test rejects at 0.05 (the second learner better)
    z = np.r_[np.linspace(0.001, 0.002, 16), -np.linspace(0.05, 0.08, 14)]
    res = wilcoxon_test(z)
    assert np.median(z) > 0 and (res.r_plus, res.r_minus) == (136, 329) and res.pvalue < 0.05
    assert res.side == -1
    assert wilcoxon_test(z, alternative="less").pvalue < 0.025


def test_wilcoxon_with_zeros_auto_is_the_normal_approximation_beyond_13_differences():
    # 8 zeros and 12 negative differences (distinct): "wilcox" drops the zeros; the exact
    # two-sided p-value of the 12 is 2 / 2^12 (every sign negative, or every sign positive)
    z = np.r_[np.zeros(8), -np.arange(1, 13) / 100]
    assert wilcoxon_test(z, method="exact").pvalue == 2 / 2**12
    n = 12  # the normal approximation (no continuity correction) of R+ = 0 among the 12
    zstat = (0 - n * (n + 1) / 4) / math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    assert wilcoxon_test(z).pvalue == pytest.approx(2 * stats.norm.cdf(zstat), rel=1e-10)
    assert wilcoxon_test(z).pvalue == wilcoxon_test(z, method="approx").pvalue


def test_wilcoxon_percent_scale_equals_fraction():
    z = _normal_sample(15, "percent") / 10
    assert wilcoxon_test(z * 100, scale="percent") == wilcoxon_test(z)
    with pytest.raises(ValueError, match="x: values must be fractions"):
        wilcoxon_test(z * 100)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_sign_test_equals_binomtest_and_direct_sum(alternative):
    z = np.array([0.02, 0.01, -0.01, 0.03, 0.0, 0.02, 0.05, -0.02, 0.01, 0.04, 0.0, 0.01])
    res = sign_test(z, alternative=alternative)
    ref = stats.binomtest(8, 10, 0.5, alternative=alternative)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert (res.n_positive, res.n_negative, res.n_zero, res.n_trials) == (8, 2, 2, 10)
    pmf = [math.comb(10, k) / 2**10 for k in range(11)]
    direct = {
        "greater": sum(pmf[8:]),
        "less": sum(pmf[:9]),
        "two-sided": min(1.0, 2 * sum(pmf[8:])),  # symmetric null: doubling is exact
    }[alternative]
    assert res.pvalue == pytest.approx(direct, rel=1e-12)


def test_sign_test_split_zeros_and_all_zero():
    z = np.array([0.01, 0.02, 0.0, 0.0, 0.0, -0.01, 0.03])
    res = sign_test(z, zero_method="split")  # 3 zeros: one each side, one ignored
    assert (res.statistic, res.n_trials) == (4.0, 6)
    assert res.pvalue == pytest.approx(stats.binomtest(4, 6).pvalue, rel=1e-12)
    assert sign_test(np.zeros(5)).pvalue == 1.0


# ------------------------------------------------------------------------------------------
# Dp(s -> 0): Theorem 2
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ties", [False, True])
def test_theorem2_posterior_mean_is_wilcoxon_r_plus(ties):
    z = _normal_sample(25, f"theorem2-{ties}") / 10
    if ties:  # rounding creates ties |Z_i| = |Z_j|, opposite-sign ties and zeros
        z = np.round(z * 20) / 20
        assert np.any(z == 0) and len(np.unique(np.abs(z))) < z.size
    n = z.size
    post = dp_signed_rank(z, n_samples=40_000, rng=7)
    # Theorem 2 with the Heaviside rule equals R+ = 2 T+ / (n(n + 1)) with midranks and
    # split zeros (each pair of a tie group contributes 1/2 to T+ exactly as midranks do)
    assert post.mean == pytest.approx(2 * _r_plus_zsplit(z) / (n * (n + 1)), rel=1e-12)
    if not ties:  # Eq. (4) literally, with the indicator I_[-Z_i, inf)(Z_j)
        eq4 = (np.sum(z[None, :] >= -z[:, None]) + np.sum(z >= 0)) / (n * (n + 1))
        assert post.mean == pytest.approx(eq4, rel=1e-12)
    se = post.draws.std(ddof=1) / math.sqrt(post.n_samples)
    assert abs(post.draws.mean() - post.mean) < Z_TOL * se


def test_dp_all_zero_differences_give_theta_one_half():
    post = dp_signed_rank(np.zeros(7), n_samples=1000, rng=1)
    assert np.all(post.draws == 0.5) and post.prob_greater == 0.0 and post.mean == 0.5
    assert post.prob_less == 0.0  # neither learner better: theta is 1/2 exactly
    assert post.decide(l0=1, l1=0.01) == "prefer_x"


@pytest.mark.parametrize(
    ("z", "expected"),
    [
        # theta = w1^2 + 2 w1 w2 H(z1 + z2) + w2^2 H(2 z2) with (w1, w2) ~ Dir(1, 1), so w2 is
        # uniform on (0, 1):
        ([0.03, -0.01], 1 / math.sqrt(2)),  # theta = 1 - w2^2 > 1/2 iff w2 < 1/sqrt(2)
        ([0.01, -0.03], 1 - 1 / math.sqrt(2)),  # theta = w1^2 > 1/2 iff w1 > 1/sqrt(2)
        ([0.02, -0.02], 0.5),  # H(0) = 1/2: theta = w1 (w1 + w2) = w1
    ],
)
def test_dp_probability_closed_form_for_two_data_sets(z, expected):
    n_samples = 20_000
    post = dp_signed_rank(z, n_samples=n_samples, rng=12)
    se = math.sqrt(expected * (1 - expected) / n_samples)
    assert abs(post.prob_greater - expected) < Z_TOL * se
    # theta is continuous here: P(theta < 1/2) = 1 - P(theta > 1/2), with the same error
    assert abs(post.prob_less - (1 - expected)) < Z_TOL * se
    assert post.mc_se == pytest.approx(
        math.sqrt(post.prob_greater * (1 - post.prob_greater) / n_samples), rel=1e-12
    )


@pytest.mark.parametrize("s", [IDP_DEFAULT_S, 2.0])
def test_idp_probabilities_closed_form_for_one_data_set(s):
    # n = 1: w0 ~ Beta(s, 1), whose CDF is u^s. For Z_1 > 0, g_lower = (1 - w0)^2 exceeds 1/2
    # iff w0 < 1 - 1/sqrt(2), and g_upper = 1. For Z_1 < 0, g_lower = 0 and
    # g_upper = w0 (2 - w0) exceeds 1/2 iff w0 > 1 - 1/sqrt(2).
    n_samples = 20_000
    c = (1 - 1 / math.sqrt(2)) ** s
    se = math.sqrt(c * (1 - c) / n_samples)
    pos = idp_signed_rank([0.02], s=s, n_samples=n_samples, rng=13)
    neg = idp_signed_rank([-0.02], s=s, n_samples=n_samples, rng=14)
    assert abs(pos.lower_prob - c) < Z_TOL * se and pos.upper_prob == 1.0
    assert neg.lower_prob == 0.0 and abs(neg.upper_prob - (1 - c)) < Z_TOL * se


def test_dp_decision_rule_eq9():
    post = dp_signed_rank(_normal_sample(20, "dp-decide") / 10 + 0.02, n_samples=5000, rng=3)
    for l1 in (1, 2, 4, 9, 19):
        expected = "prefer_y" if post.prob_greater > l1 / (1 + l1) else "prefer_x"
        assert post.decide(l0=1, l1=l1) == expected
    assert loss_threshold(1, 19) == pytest.approx(0.95)


# ------------------------------------------------------------------------------------------
# IDP: Theorems 3 and 4, Sec. 3.1
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("s", [IDP_DEFAULT_S, 1.0, 3.0])
def test_theorem3_lower_upper_means_and_imprecision(s):
    z = np.round(_normal_sample(18, f"theorem3-{s}") / 10, 2)  # with some ties
    n = z.size
    post = idp_signed_rank(z, s=s, n_samples=40_000, rng=11)
    h = np.heaviside(z[:, None] + z[None, :], 0.5)
    denom = (s + n) * (s + n + 1)
    eq6 = (h.sum() + np.diag(h).sum()) / denom
    eq7 = eq6 + (s**2 + 2 * n * s + s) / denom
    assert post.lower_mean == pytest.approx(eq6, rel=1e-12)
    assert post.upper_mean == pytest.approx(eq7, rel=1e-12)
    assert post.imprecision == pytest.approx((s**2 + 2 * n * s + s) / denom, rel=1e-12)
    for draws, mean in ((post.lower_draws, eq6), (post.upper_draws, eq7)):
        se = draws.std(ddof=1) / math.sqrt(draws.size)
        assert abs(draws.mean() - mean) < Z_TOL * se


def test_default_s_halves_imprecision_after_one_observation():
    post = idp_signed_rank([0.03], n_samples=10, rng=0)  # Sec. 3.1
    assert post.imprecision == pytest.approx(0.5, rel=1e-12)
    assert IDP_DEFAULT_S == pytest.approx((math.sqrt(17) - 3) / 2)


def _brute_force_idp(z: np.ndarray, s: float, n_samples: int, seed: int) -> tuple[float, float]:
    """Theorem 4 by a per-draw loop over explicit (n+1)x(n+1) matrices with Z_0 = -/+inf."""
    gen = np.random.Generator(np.random.MT19937(seed))
    alpha = np.concatenate([[s], np.ones(z.size)])
    mats = [np.heaviside(np.add.outer(np.r_[z0, z], np.r_[z0, z]), 0.5) for z0 in (-np.inf, np.inf)]
    hits = np.zeros(2)
    for _ in range(n_samples):
        w = gen.dirichlet(alpha)
        hits += [w @ m @ w > 0.5 for m in mats]
    lo, up = hits / n_samples
    return lo, up


def test_theorem4_wf1_standard_normal_example():
    # W-F1: n = 20 observations from a standard normal; lower and upper posterior
    # probabilities of P(Z >= -Z') > 1/2 and the decision thresholds they imply
    z = _normal_sample(20, "W-F1")
    post = idp_signed_rank(z, n_samples=50_000, rng=5, scale="raw")
    lo, up = _brute_force_idp(z, IDP_DEFAULT_S, 20_000, seed=99)
    for est, ref in ((post.lower_prob, lo), (post.upper_prob, up)):
        se = math.sqrt(ref * (1 - ref) * (1 / 20_000 + 1 / 50_000))
        assert abs(est - ref) < Z_TOL * max(se, 1e-4)
    # decisions: Y for thresholds below the lower probability, X above the upper one,
    # indeterminate in between (Sec. 3, rules (i)-(iii))
    assert post.lower_prob < post.upper_prob
    for t in np.linspace(0.01, 0.99, 99):
        l1 = t / (1 - t)  # l1 / (1 + l1) = t
        expected = (
            "prefer_y"
            if post.lower_prob > t
            else "prefer_x"
            if post.upper_prob <= t
            else "indeterminate"
        )
        assert post.decide(l0=1, l1=l1) == expected


def _one_prior_decision(p: float, t: float) -> str:
    """The two-sided decision under one prior whose P[theta > 1/2 | data] is p."""
    return "right" if p > t else "left" if 1 - p > t else "none"


@given(
    st.floats(0, 1),
    st.floats(0, 1),
    st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99]),
)
@settings(max_examples=300, deadline=None)
def test_idp_two_sided_decision_is_the_one_every_prior_makes(a, b, t):
    # brute force: the decision of the set is the one every prior between the lower and
    # upper probabilities makes (a fine grid and both ends), "indeterminate" if they differ
    lower, upper = min(a, b), max(a, b)
    post = dataclasses.replace(_IDP_POST, lower_prob=lower, upper_prob=upper)
    grid = np.r_[lower, np.linspace(lower, upper, 2001), upper, 1 - t, t]
    grid = grid[(grid >= lower) & (grid <= upper)]
    each = {_one_prior_decision(p, t) for p in grid}
    assert post.decision(t) == (each.pop() if len(each) == 1 else "indeterminate")


def test_idp_two_sided_decision_cases_and_mirror():
    cases = {
        (0.97, 0.99): "right",
        (0.01, 0.03): "left",
        (0.197, 0.281): "none",  # neither probable enough under any prior
        (0.94, 0.97): "indeterminate",
        (0.03, 0.07): "indeterminate",
        (0.95, 0.96): "indeterminate",  # P = 0.95 is not above 0.95
        (0.04, 0.05): "indeterminate",  # nor is 1 - 0.05 (Monte Carlo shares hit it exactly)
        (0.05, 0.3): "none",
    }
    for (lower, upper), expected in cases.items():
        post = dataclasses.replace(_IDP_POST, lower_prob=lower, upper_prob=upper)
        assert post.decision(0.95) == expected, (lower, upper)
    for bad in (0.49, 1.0, 0.0, float("nan")):
        with pytest.raises(ValueError, match="threshold: expected a number in"):
            _IDP_POST.decision(bad)
    # swapping the learners (negating the differences) mirrors the decision
    z = _normal_sample(20, "W-F1") / 10
    mirror = {"right": "left", "left": "right", "none": "none", "indeterminate": "indeterminate"}
    for shift in (0.08, 0.0, -0.08):
        ahead = idp_signed_rank(z + shift, n_samples=20_000, rng=3)
        behind = idp_signed_rank(-(z + shift), n_samples=20_000, rng=4)
        assert behind.decision() == mirror[ahead.decision()]
    assert idp_signed_rank(z + 0.08, n_samples=20_000, rng=3).decision() == "right"


_IDP_POST = idp_signed_rank(np.linspace(-1, 1, 9) / 10 + 0.01, n_samples=100, rng=0)


def test_rng_contract_and_chunking_invariance(monkeypatch):
    z = _normal_sample(12, "chunks") / 10
    monkeypatch.setattr(sr, "_CHUNK_BYTES", 1 << 40)  # one chunk
    a = idp_signed_rank(z, n_samples=3001, rng=4)
    monkeypatch.setattr(sr, "_CHUNK_BYTES", 8 * 13 * 100)  # chunks of 100 draws
    b = idp_signed_rank(z, n_samples=3001, rng=4)
    c = bayesian_signed_rank(z, n_samples=3001, rng=np.random.default_rng(4))
    monkeypatch.undo()
    d = bayesian_signed_rank(z, n_samples=3001, rng=np.random.SeedSequence(4))
    # same weights whatever the chunk length; sums may differ in the last bit
    np.testing.assert_allclose(a.upper_draws, b.upper_draws, rtol=0, atol=1e-15)
    np.testing.assert_allclose(c.draws, d.draws, rtol=0, atol=1e-15)
    with pytest.raises(TypeError, match="rng"):
        dp_signed_rank(z, rng=None)


# ------------------------------------------------------------------------------------------
# signed-rank test with a rope
# ------------------------------------------------------------------------------------------


def _brute_force_rope(z, rope, s, n_samples, seed):
    """Per-draw loop over explicit outer products (the construction of Benavoli et al., 2017)."""
    gen = np.random.Generator(np.random.MT19937(seed))
    zz = np.r_[0.0, z]
    sums = zz[:, None] + zz[None, :]
    above = (sums > 2 * rope[1]) + 0.5 * (sums == 2 * rope[1])
    below = (sums < 2 * rope[0]) + 0.5 * (sums == 2 * rope[0])
    counts = np.zeros(3)
    for _ in range(n_samples):
        w = gen.dirichlet(np.r_[s, np.ones(z.size)])
        outer = np.outer(w, w)
        left, right = np.sum(outer * below), np.sum(outer * above)
        counts[np.argmax([left, 1 - left - right, right])] += 1
    return counts / n_samples


def test_rope_variant_matches_brute_force_and_exact_means():
    z = _normal_sample(15, "rope") / 50 + 0.008  # mass spread over all three regions
    rope = (-0.01, 0.01)
    post = bayesian_signed_rank(z, rope=rope, n_samples=50_000, rng=8)
    ref = _brute_force_rope(z, rope, 0.5, 10_000, seed=123)
    for est, p in zip(post.probs(), ref, strict=True):
        se = math.sqrt(max(p * (1 - p), 1e-4) * (1 / 10_000 + 1 / 50_000))
        assert abs(est - p) < Z_TOL * se
    draws = post.sample()
    np.testing.assert_allclose(draws.sum(axis=1), 1.0, atol=1e-12)
    for k in range(3):
        se = draws[:, k].std(ddof=1) / math.sqrt(draws.shape[0])
        assert abs(draws[:, k].mean() - post.mean_theta[k]) < Z_TOL * se


@pytest.mark.parametrize("s", [0.5, 2.0])
def test_rope_probabilities_closed_form_for_one_data_set(s):
    # One difference z and the pseudo-observation 0 with weights (w0, 1 - w0), w0 ~ Beta(s, 1)
    # (CDF u^s); rope (-r, r). The pair sums are 0 (inside), z (twice) and 2 z.
    # z > 2 r: theta_rope = w0^2, theta_right = 1 - w0^2, so p_right = P(w0 < 1/sqrt(2)).
    # r < z < 2 r: theta_right = (1 - w0)^2, so p_right = P(w0 < 1 - 1/sqrt(2)).
    n_samples, r = 20_000, 0.01
    for z, expected in ((0.03, 2 ** (-s / 2)), (0.015, (1 - 1 / math.sqrt(2)) ** s)):
        post = bayesian_signed_rank(
            [z], rope=(-r, r), prior_strength=s, n_samples=n_samples, rng=15
        )
        se = math.sqrt(expected * (1 - expected) / n_samples)
        assert post.p_left == 0.0
        assert abs(post.p_right - expected) < Z_TOL * se
        assert post.p_rope == pytest.approx(1 - post.p_right, abs=1e-12)


def test_zero_width_rope_without_prior_weight_is_dp():
    # rope (0, 0): theta_right = theta and theta_left = 1 - theta, so p_right = P(theta > 1/2);
    # a pseudo-observation of weight 1e-12 has Gamma weight below 1e-6 except with
    # probability about 1e-11, so p_right estimates the Dp(s -> 0) probability. The two
    # estimates use independent draws: tolerance Z_TOL standard errors of their difference.
    z = _normal_sample(15, "rope-dp") / 50 + 0.004
    n_samples = 40_000
    rope = bayesian_signed_rank(z, rope=(0, 0), prior_strength=1e-12, n_samples=n_samples, rng=1)
    dp = dp_signed_rank(z, n_samples=n_samples, rng=2)
    p = dp.prob_greater
    assert 0.05 < p < 0.95 and rope.p_rope == 0.0
    assert abs(rope.p_right - p) < Z_TOL * math.sqrt(2 * p * (1 - p) / n_samples)


def test_raw_scale_takes_the_rope_in_the_unit_of_x():
    # With scale="raw" the rope is in the unit of x (no fraction check); rescaling x and the
    # rope together leaves every pair comparison, hence every draw, unchanged.
    z = _normal_sample(10, "raw")
    a = bayesian_signed_rank(z, rope=(-1.0, 1.5), n_samples=2000, rng=3, scale="raw")
    b = bayesian_signed_rank(z / 100, rope=(-0.01, 0.015), n_samples=2000, rng=3)
    np.testing.assert_allclose(a.draws, b.draws, rtol=0, atol=1e-12)


def test_rope_degenerate_cases_are_defined():
    # rope (0, 0.01), differences 0.05 or 0: a pair of zeros counts half left, half inside
    # (H(0) = 1/2), so theta_left = theta_rope in every draw, split equally
    post = bayesian_signed_rank([0.05, 0.0, 0.0], rope=(0.0, 0.01), n_samples=4000, rng=2)
    np.testing.assert_allclose(post.draws[:, 0], post.draws[:, 1], rtol=0, atol=1e-15)
    assert post.p_left == post.p_rope == pytest.approx((1 - post.p_right) / 2, abs=1e-12)
    zero = np.zeros(6)
    assert bayesian_signed_rank(zero, n_samples=500, rng=1).probs() == (0.0, 1.0, 0.0)
    # zero-width rope and all differences zero: theta_left = theta_right exactly, split
    assert bayesian_signed_rank(zero, rope=(0, 0), n_samples=500, rng=1).probs() == (
        0.5,
        0.0,
        0.5,
    )


small_diffs = arrays(
    np.float64,
    st.integers(3, 12),
    elements=st.floats(-0.2, 0.2, allow_nan=False, allow_subnormal=False),
)


@settings(max_examples=25, deadline=None)
@given(z=small_diffs, low=st.floats(-0.05, 0.0), high=st.floats(0.0, 0.05))
def test_property_swapping_learners_mirrors_left_and_right(z, low, high):
    a = bayesian_signed_rank(z, rope=(low, high), n_samples=2000, rng=5)
    b = bayesian_signed_rank(-z, rope=(-high, -low), n_samples=2000, rng=5)
    assert a.probs() == pytest.approx(b.probs()[::-1], abs=1e-12)
    assert sum(a.probs()) == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(z=small_diffs, shrink=st.floats(0.0, 1.0), r=st.floats(0.001, 0.05))
def test_property_shifting_differences_towards_the_rope_raises_p_rope(z, shrink, r):
    # shrinking every difference towards 0 moves every pair sum into (or deeper into) the
    # rope, so with common random numbers theta_rope grows draw by draw
    a = bayesian_signed_rank(z, rope=(-r, r), n_samples=2000, rng=6)
    b = bayesian_signed_rank(z * shrink, rope=(-r, r), n_samples=2000, rng=6)
    assert b.p_rope >= a.p_rope - 1e-12
    assert np.all(b.draws[:, 1] >= a.draws[:, 1] - 1e-12)


@settings(max_examples=25, deadline=None)
@given(z=small_diffs, s=st.floats(0.05, 5.0))
def test_property_idp_brackets_dp(z, s):
    dp = dp_signed_rank(z, n_samples=2000, rng=9)
    idp = idp_signed_rank(z, s=s, n_samples=2000, rng=9)  # same observation weights
    assert np.all(idp.lower_draws <= dp.draws) and np.all(dp.draws <= idp.upper_draws)
    assert idp.lower_prob <= dp.prob_greater <= idp.upper_prob
    assert idp.lower_mean <= dp.mean + 1e-12 and dp.mean <= idp.upper_mean + 1e-12


@settings(max_examples=25, deadline=None)
@given(z=small_diffs)
def test_property_dp_mirror(z):
    a, b = dp_signed_rank(z, n_samples=2000, rng=2), dp_signed_rank(-z, n_samples=2000, rng=2)
    np.testing.assert_allclose(a.draws - 0.5, 0.5 - b.draws, rtol=0, atol=1e-15)
    assert a.prob_greater + b.prob_greater + np.mean(a.draws == 0.5) == pytest.approx(1.0)
    assert a.mean + b.mean == pytest.approx(1.0, abs=1e-12)


# ------------------------------------------------------------------------------------------
# input validation
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: dp_signed_rank([0.1, np.nan], rng=1), "x: all values must be finite"),
        (lambda: dp_signed_rank([[0.1, 0.2]], rng=1), "x: expected a 1-D array"),
        (
            lambda: dp_signed_rank([], rng=1),
            "x: expected a non-empty array \\(data sets\\), got none",
        ),
        (lambda: idp_signed_rank([5.0, 3.0], rng=1), "scale='percent'"),
        (lambda: idp_signed_rank([0.1], s=0, rng=1), "s: expected a positive"),
        (lambda: dp_signed_rank([0.1], n_samples=0, rng=1), "n_samples"),
        (lambda: bayesian_signed_rank([0.1], rope=(0.01, 0.02), rng=1), "rope"),
        (lambda: bayesian_signed_rank([0.1], rope=0.01, rng=1), "rope: expected an interval"),
        (lambda: bayesian_signed_rank([0.1], prior_strength=-1, rng=1), "prior_strength"),
        (lambda: bayesian_signed_rank([0.1], rope=(-1, 1), rng=1), r"rope: .*\|end\| < 1"),
        (
            lambda: bayesian_signed_rank([1.0], rope=(-1, 1), scale="percent", rng=1),
            r"rope: .*\|end\| < 1",
        ),
        (lambda: wilcoxon_test([0.1, 0.2], alternative="bigger"), "alternative"),
        (lambda: wilcoxon_test([0.1, 0.2], scale="percents"), "scale: .*'raw'"),
        (lambda: dp_signed_rank([0.1], scale="percents", rng=1), "scale: .*'raw'"),
        (lambda: idp_signed_rank([0.1], s=np.nan, rng=1), "s: expected a positive finite"),
        (lambda: idp_signed_rank([0.1], s=True, rng=1), "s: expected a positive number"),
        (lambda: loss_threshold("one", 1), "l0"),
        (lambda: wilcoxon_test([0.1, 0.2], method="permutation"), "method"),
        (lambda: sign_test([0.1, 0.2], zero_method="wilcox"), "zero_method"),
        (lambda: loss_threshold(1, 0), "l1"),
    ],
)
def test_bad_input_is_refused_with_the_argument_named(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


# ------------------------------------------------------------------------------------------
# the O(q log q) evaluation against the explicit q x q matrices (tests/reference_signed_rank)
# ------------------------------------------------------------------------------------------


def _random_differences(gen: np.random.Generator, kind: str) -> np.ndarray:
    """Differences with ties, zeros and values on the rope ends, or all zero."""
    q = int(gen.integers(1, 40))
    if kind == "zeros":
        return np.zeros(q)
    z = np.round(gen.normal(0.004, 0.02, q), 3 if kind == "ties" else 12)
    z[gen.random(q) < 0.25] = 0.0
    z[gen.random(q) < 0.15] = 0.01  # sums equal to twice a rope end
    return z


def _rounding_bound(q: int) -> float:
    """Bound on the difference of two summation orders of ``sum_ij w_i w_j A_ij``.

    The terms are non-negative products of weights summing to one, times entries in
    [-1, 1]; each evaluation adds ``q + 1`` terms twice (inner and outer sums) after one
    rounding of the products, so its error is at most ``(2 (q + 1) + 1) eps`` (Higham, 2002,
    Sec. 4.2); two evaluations differ by at most twice that.
    """
    return 2 * (2 * (q + 1) + 1) * np.finfo(float).eps


@pytest.mark.parametrize("kind", ["ties", "continuous", "zeros"])
def test_draws_equal_the_explicit_matrix_products(kind):
    """Same seed, same draws as the O(q^2) evaluation, to floating-point rounding.

    The Heaviside entries are reproduced exactly (same floating-point sums); only the order
    of the additions differs, so every draw agrees within the bound above and every
    probability, being a share of draws on one side of a threshold, agrees exactly (a draw
    within 1e-13 of a threshold would be needed to change one).
    """
    gen = np.random.default_rng(20261125)
    for trial in range(12):
        z = _random_differences(gen, kind)
        tol = _rounding_bound(z.size)
        n = 1_500
        dp = dp_signed_rank(z, n_samples=n, rng=trial)
        theta, _ = quadratic_ref.dp_theta_draws(z, n, trial)
        np.testing.assert_allclose(dp.draws, theta, rtol=0, atol=tol)
        assert dp.prob_greater == np.mean(theta > 0.5)
        idp = idp_signed_rank(z, s=0.7, n_samples=n, rng=trial)
        lower, upper = quadratic_ref.idp_draws(z, 0.7, n, trial)
        np.testing.assert_allclose(idp.lower_draws, lower, rtol=0, atol=tol)
        np.testing.assert_allclose(idp.upper_draws, upper, rtol=0, atol=tol)
        assert (idp.lower_prob, idp.upper_prob) == (np.mean(lower > 0.5), np.mean(upper > 0.5))
        np.testing.assert_allclose(
            (idp.lower_mean, idp.upper_mean), quadratic_ref.idp_means(z, 0.7), rtol=0, atol=tol
        )
        for rope in [(-0.01, 0.01), (0.0, 0.0), (0.0, 0.01), (-0.005, 0.0)]:
            post = bayesian_signed_rank(z, rope=rope, prior_strength=0.6, n_samples=n, rng=trial)
            draws = quadratic_ref.rope_draws(z, rope, 0.6, n, trial)
            np.testing.assert_allclose(post.draws, draws, rtol=0, atol=tol)
            is_max = draws >= draws.max(axis=1, keepdims=True) - sr._TIE_TOLERANCE
            expected = (is_max / is_max.sum(axis=1, keepdims=True)).mean(axis=0)
            assert post.probs() == tuple(expected)
            np.testing.assert_allclose(
                post.mean_theta, quadratic_ref.rope_means(z, rope, 0.6), rtol=0, atol=tol
            )
        if kind == "zeros":  # exact: theta = 1/2, no rounding noise at the threshold
            assert np.all(dp.draws == 0.5) and dp.prob_greater == 0.0


def test_pair_sums_reproduce_the_heaviside_entries_exactly():
    """Rows of the pair matrices, including sums that round onto a rope end.

    ``0.1 + 0.2`` rounds above 0.3 and ``(0.1 + 0.2) - 0.3`` is positive: the step found by
    bisection follows the floating-point expression, not the real numbers.
    """
    from cvcompare.stats._pair_sums import PairSums

    z = np.array([0.1, 0.2, -0.3, 0.0, 0.15, 0.15, 0.3, np.nextafter(0.15, 1)])
    w = np.random.default_rng(3).random((4, z.size))
    for shift in (0.0, 0.3, 0.6, -0.6, 2 * 0.15):
        pairs = PairSums(z, (shift,))
        _, prefix = pairs.sort(w)
        below = pairs.below(prefix, shift).T  # (weight vectors, observations)
        matrix = 1.0 - quadratic_ref.heaviside_pairs(z, shift)
        expected = (w @ matrix)[:, pairs.order]  # A is symmetric: rows = columns
        np.testing.assert_allclose(below, expected, rtol=0, atol=4 * z.size * 2.3e-16)
        np.testing.assert_array_equal(
            pairs.diagonal_below(shift)[:, 0], np.diag(matrix)[pairs.order]
        )


def test_dp_two_sided_decision_names_the_side_whose_probability_exceeds_the_threshold():
    better = dp_signed_rank(np.linspace(0.01, 0.05, 12), n_samples=4000, rng=1)
    worse = dp_signed_rank(-np.linspace(0.01, 0.05, 12), n_samples=4000, rng=1)
    same = dp_signed_rank(np.zeros(6), n_samples=4000, rng=1)  # theta = 1/2 in every draw
    assert (better.decision(), worse.decision(), same.decision()) == ("right", "left", "none")
    mixed = dp_signed_rank([0.02, -0.01, 0.03, -0.02, 0.01, 0.015], n_samples=4000, rng=1)
    for t in (0.5, 0.7, 0.95):
        expected = "right" if mixed.prob_greater > t else "left" if mixed.prob_less > t else "none"
        assert mixed.decision(t) == expected
    with pytest.raises(ValueError, match="threshold"):
        mixed.decision(0.4)


def test_bayesian_signed_rank_probs_se_matches_the_spread_over_seeds():
    # sqrt(p (1 - p) / n) of independent draws, checked against the sd of p over 200 seeds;
    # the sd of 200 replicates estimates the true one with a relative error of about
    # 1 / sqrt(2 * 199) = 5%, so they agree within 20% (4 of those errors)
    x = np.array([0.012, -0.004, 0.02, 0.008, -0.011, 0.015, 0.003, 0.009, -0.002, 0.018])
    runs = [bayesian_signed_rank(x, n_samples=2000, rng=seed) for seed in range(200)]
    spread = np.std([r.probs() for r in runs], axis=0, ddof=1)
    mean = np.mean([r.probs() for r in runs], axis=0)
    stated = np.sqrt(mean * (1 - mean) / 2000)
    assert runs[0].probs_se() == pytest.approx(
        tuple(np.sqrt(np.array(runs[0].probs()) * (1 - np.array(runs[0].probs())) / 2000))
    )
    for got, want in zip(spread, stated, strict=True):
        if want > 0.002:
            assert got == pytest.approx(want, rel=0.2)
