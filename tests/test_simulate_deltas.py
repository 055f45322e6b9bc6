"""Distributions of the true differences: laws checked against scipy / closed forms."""

import numpy as np
import pytest
from scipy import stats

from cvcompare.simulate.deltas import (
    CauchyDelta,
    FixedDelta,
    GaussianDelta,
    GaussianMixtureDelta,
    delta_distribution,
)

N = 200_000


def _binomial_se(p: float, n: int) -> float:
    return np.sqrt(p * (1 - p) / n)


def test_fixed_is_constant():
    assert np.array_equal(FixedDelta(0.03).sample(5, rng=1), np.full(5, 0.03))


@pytest.mark.parametrize("location, scale", [(0.0, 0.01 / 3), (0.005, 0.01 / 3), (0.02, 0.02)])
def test_cauchy_matches_scipy_cdf(location, scale):
    draws = CauchyDelta(location, scale).sample(N, rng=11)
    for x in location + scale * np.array([-5.0, -1.0, 0.0, 0.5, 3.0]):
        p = stats.cauchy(location, scale).cdf(x)
        # empirical CDF vs scipy: 4 binomial standard errors
        assert abs(np.mean(draws <= x) - p) < 4 * _binomial_se(p, N)


def test_cauchy_cap_clips_and_keeps_the_tail_mass_at_the_cap():
    dist = delta_distribution(
        {"distribution": "cauchy", "location": 0.02, "scale": 0.02, "cap": 0.5}
    )
    draws = dist.sample(N, rng=5)
    assert draws.max() == 0.5 and draws.min() == -0.5
    p_high = stats.cauchy(0.02, 0.02).sf(0.5)
    assert abs(np.mean(draws == 0.5) - p_high) < 4 * _binomial_se(p_high, N)


def test_cauchy_asymmetric_cap():
    draws = CauchyDelta(0.0, 0.01, cap=(-0.1, 0.4)).sample(N, rng=2)
    assert draws.min() == -0.1 and draws.max() <= 0.4


def test_mixture_default_is_the_authors_code_and_moments_match():
    dist = delta_distribution({"distribution": "mixture"})
    assert dist.sds == (0.01, 0.01)  # the code's value (the paper's text says 0.001)
    assert dist.means == (0.005, 0.02) and dist.weights == (0.5, 0.5)
    draws = dist.sample(N, rng=3)
    w, mu, sd = map(np.asarray, (dist.weights, dist.means, dist.sds))
    mean = np.sum(w * mu)
    var = np.sum(w * (sd**2 + mu**2)) - mean**2
    assert abs(draws.mean() - mean) < 4 * np.sqrt(var / N)
    # variance of the sample variance ~ (mu4 - var^2) / N; the 4th central moment of the
    # mixture by the binomial expansion of each component around the mixture mean
    d = mu - mean
    mu4 = np.sum(w * (d**4 + 6 * d**2 * sd**2 + 3 * sd**4))
    assert abs(draws.var() - var) < 4 * np.sqrt((mu4 - var**2) / N)


def test_gaussian_moments():
    draws = GaussianDelta(0.01, 0.02).sample(N, rng=4)
    assert abs(draws.mean() - 0.01) < 4 * 0.02 / np.sqrt(N)
    assert abs(draws.std() - 0.02) < 4 * 0.02 / np.sqrt(2 * N)


def test_same_seed_same_draws():
    dist = delta_distribution({"distribution": "cauchy", "location": 0.0, "scale": 0.01})
    assert np.array_equal(dist.sample(10, rng=9), dist.sample(10, rng=9))
    assert not np.array_equal(dist.sample(10, rng=9), dist.sample(10, rng=10))


@pytest.mark.parametrize(
    "spec, match",
    [
        ({"location": 0.0}, "delta.distribution: missing"),
        ({"distribution": "laplace"}, "delta.distribution: expected one of"),
        (
            {"distribution": "cauchy", "location": 0.0},
            r"^delta: missing key\(s\) \['scale'\] for distribution 'cauchy'; it needs "
            r"\['location', 'scale'\], optional \['cap'\]$",
        ),
        (
            {"distribution": "gaussian", "mean": 0.01},
            r"^delta: missing key\(s\) \['sd'\] for distribution 'gaussian'; it needs "
            r"\['mean', 'sd'\], optional \['cap'\]$",
        ),
        (
            {"distribution": "cauchy", "location": 0.0, "scale": -1.0},
            "scale: expected a non-negative finite number",
        ),
        ({"distribution": "cauchy", "location": 0.0, "scale": 0.1, "cap": 0}, "cap: expected"),
        ({"distribution": "cauchy", "location": 0, "scale": 1, "cap": [1, -1]}, "cap: expected"),
        ({"distribution": "fixed", "value": float("nan")}, "value: expected a finite number"),
        ({"distribution": "fixed", "value": 0.0, "scale": 1}, "unknown key"),
        ({"distribution": "mixture", "weights": [0.3, 0.3]}, "weights: expected weights"),
        ({"distribution": "mixture", "means": [0.0]}, "same non-zero length"),
        (
            {"distribution": "gaussian", "mean": 0.0, "sd": 0.0},
            "sd: expected a positive finite number",
        ),
    ],
)
def test_bad_specs_name_the_key(spec, match):
    with pytest.raises((ValueError, TypeError), match=match):
        delta_distribution(spec)


def test_bad_q_and_rng():
    with pytest.raises(ValueError, match="q: expected an integer >= 1"):
        FixedDelta(0.0).sample(0, rng=1)
    with pytest.raises(TypeError, match="rng"):
        FixedDelta(0.0).sample(3, rng=None)


def test_one_component_mixture_is_a_gaussian():
    draws = GaussianMixtureDelta(means=(0.03,), sds=(0.005,), weights=(1.0,)).sample(N, rng=6)
    assert abs(draws.mean() - 0.03) < 4 * 0.005 / np.sqrt(N)
    assert abs(draws.std() - 0.005) < 4 * 0.005 / np.sqrt(2 * N)


def test_cauchy_with_zero_scale_is_the_point_mass_at_its_location():
    # the null setting of Corani & Benavoli (2015), Fig. 2b: median = scale = 0
    spec = {"distribution": "cauchy", "location": 0.0, "scale": 0.0, "cap": 0.5}
    assert np.array_equal(delta_distribution(spec).sample(50, rng=1), np.zeros(50))
    assert np.array_equal(CauchyDelta(0.7, 0.0, cap=0.5).sample(3, rng=1), np.full(3, 0.5))


@pytest.mark.parametrize(
    "dist",
    [
        FixedDelta(0.45),
        CauchyDelta(0.02, 0.02),
        CauchyDelta(0.02, 0.02, cap=(-0.05, 0.6)),
        CauchyDelta(0.3, 0.0),
        GaussianDelta(0.05, 0.1),
        GaussianDelta(0.05, 0.1, cap=0.2),
        GaussianMixtureDelta((-0.1, 0.2), (0.05, 0.1), (0.3, 0.7)),
        GaussianMixtureDelta((-0.1, 0.2), (0.05, 0.1), (0.3, 0.7), cap=(-0.1, 0.5)),
        # caps wholly beyond one end: every draw is clipped outside
        GaussianDelta(0.0, 0.01, cap=(0.41, 0.45)),
        GaussianDelta(0.0, 0.01, cap=(-0.9, -0.8)),
        CauchyDelta(0.0, 0.0, cap=(0.5, 0.6)),
        CauchyDelta(0.0, 0.05, cap=(-1.0, -0.5)),
    ],
)
def test_mass_outside_matches_the_share_of_draws_outside(dist):
    # the exact tail mass against the share of N draws outside [-0.1, 0.4]: 4 binomial SEs
    # (a mass of 0 or 1 must be met exactly)
    low, high = -0.1, 0.4
    mass = dist.mass_outside(low, high)
    draws = dist.sample(N, rng=17)
    share = np.mean((draws < low) | (draws > high))
    assert abs(share - mass) <= 4 * _binomial_se(mass, N)


def test_mass_outside_closed_forms():
    # Cauchy: P(x < a) = 1/2 + arctan((a - m) / s) / pi; a cap at an end of the interval
    # leaves no mass beyond it (the clipped draws sit on the end, inside the closed interval)
    m, s = 0.01, 0.02
    cauchy = 0.5 + np.arctan((-0.1 - m) / s) / np.pi + 0.5 - np.arctan((0.4 - m) / s) / np.pi
    assert CauchyDelta(m, s).mass_outside(-0.1, 0.4) == pytest.approx(cauchy, rel=1e-12)
    assert CauchyDelta(m, s, cap=(-0.1, 0.4)).mass_outside(-0.1, 0.4) == 0.0
    assert CauchyDelta(m, s, cap=(-0.1, 0.5)).mass_outside(-0.1, 0.4) == pytest.approx(
        0.5 - np.arctan((0.4 - m) / s) / np.pi, rel=1e-12
    )
    assert GaussianDelta(0.0, 0.02).mass_outside(-0.1, 0.1) == pytest.approx(
        2 * stats.norm.cdf(-5), rel=1e-12
    )
    assert FixedDelta(0.4).mass_outside(-0.1, 0.4) == 0.0
