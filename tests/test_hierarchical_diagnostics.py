"""R-hat, ESS and E-BFMI of cvcompare.hierarchical.diagnostics against independent values."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import signal, stats

from cvcompare.hierarchical.diagnostics import (
    ConvergenceWarning,
    HierarchicalDiagnostics,
    ebfmi,
    ess_bulk,
    ess_tail,
    mcse_probability,
    rhat,
)


def ar1(phi: float, chains: int, n: int, gen: np.random.Generator) -> np.ndarray:
    """Stationary Gaussian AR(1) chains with unit marginal variance."""
    eps = gen.standard_normal((chains, n)) * np.sqrt(1 - phi**2)
    eps[:, 0] = gen.standard_normal(chains)  # start in the stationary distribution
    # x_t = phi x_{t-1} + eps_t as a recursive filter
    return signal.lfilter([1.0], [1.0, -phi], eps, axis=1)


@pytest.mark.parametrize("phi", [0.0, 0.5, 0.8])
def test_bulk_ess_matches_ar1_closed_form(phi):
    # ESS of an AR(1) chain is N (1 - phi) / (1 + phi). Rank normalisation of Gaussian draws
    # is nearly the identity. With 4 x 20000 draws the relative sd of the Geyer estimate is
    # about sqrt(2 (2K + 1) / N) <= 0.03 for truncation lags K <= 20: tolerance 12% (4 sd).
    gen = np.random.default_rng(11)
    draws = ar1(phi, 4, 20_000, gen)
    expected = draws.size * (1 - phi) / (1 + phi)
    assert ess_bulk(draws) == pytest.approx(expected, rel=0.12)


def test_tail_ess_of_independent_draws_is_the_number_of_draws():
    # Independent draws: the quantile indicators are independent too, so ESS = N; same
    # tolerance reasoning as above (K small): 10%.
    gen = np.random.default_rng(12)
    draws = gen.standard_normal((4, 10_000))
    assert ess_tail(draws) == pytest.approx(draws.size, rel=0.10)
    # a strongly autocorrelated chain has a much smaller tail ESS
    assert ess_tail(ar1(0.95, 4, 10_000, gen)) < 0.1 * draws.size


def two_state_chains(stay: float, chains: int, n: int, gen: np.random.Generator) -> np.ndarray:
    """Symmetric two-state Markov chains (0/1) that keep their state with probability ``stay``."""
    flips = gen.random((chains, n)) >= stay
    flips[:, 0] = gen.random(chains) < 0.5  # start in the stationary distribution (1/2, 1/2)
    return np.cumsum(flips, axis=1) % 2


@pytest.mark.parametrize("stay", [0.5, 0.8, 0.95])
def test_mcse_of_a_probability_matches_the_markov_chain_closed_form(stay):
    # The indicator of a symmetric two-state chain has mean 1/2 and lag-k autocorrelation
    # r^k with r = 2 stay - 1, so var(mean) = p (1 - p) (1 + r) / ((1 - r) N). The ESS
    # estimate has relative sd <= 0.03 here (as above); its square root <= 0.015: 8%.
    gen = np.random.default_rng(13)
    draws = two_state_chains(stay, 4, 20_000, gen)
    r = 2 * stay - 1
    p = draws.mean()
    expected = np.sqrt(p * (1 - p) * (1 + r) / ((1 - r) * draws.size))
    assert mcse_probability(draws) == pytest.approx(expected, rel=0.08)
    # and against the spread of the means of independent runs (brute force, 400 runs of
    # 4 x 2000 draws: the sd of an sd estimate from 400 runs is about 3.5%, plus the ESS
    # estimate's error at N = 8000, about 5%: tolerance 20%)
    means = [two_state_chains(stay, 4, 2_000, gen).mean() for _ in range(400)]
    one_run = two_state_chains(stay, 4, 2_000, gen)
    assert mcse_probability(one_run) == pytest.approx(np.std(means, ddof=1), rel=0.2)


def test_mcse_of_a_certain_event_is_zero_and_bad_indicators_are_refused():
    assert mcse_probability(np.ones((4, 100), dtype=bool)) == 0.0
    assert mcse_probability(np.zeros((4, 100))) == 0.0
    with pytest.raises(ValueError, match="indicator: expected booleans or 0/1"):
        mcse_probability(np.full((4, 100), 0.5))


def rhat_second_implementation(draws: np.ndarray) -> float:
    """Rank-normalised split R-hat written out with loops (Vehtari et al. 2021, Sec. 4.3)."""

    def split(a):
        h = a.shape[1] // 2
        return [row[:h] for row in a] + [row[a.shape[1] - h :] for row in a]

    def normal_scores(chains):
        pooled = np.concatenate(chains)
        order = np.argsort(pooled, kind="stable")
        ranks = np.empty(pooled.size)
        ranks[order] = np.arange(1, pooled.size + 1)  # no ties in continuous draws
        z = stats.norm.ppf((ranks - 0.375) / (pooled.size + 0.25))
        size = chains[0].size
        return [z[i * size : (i + 1) * size] for i in range(len(chains))]

    def psrf(chains):
        n = chains[0].size
        means = [float(np.mean(c)) for c in chains]
        grand = sum(means) / len(means)
        b = n / (len(chains) - 1) * sum((m - grand) ** 2 for m in means)
        w = sum(float(np.sum((c - m) ** 2)) / (n - 1) for c, m in zip(chains, means, strict=True))
        w /= len(chains)
        return np.sqrt(((n - 1) / n * w + b / n) / w)

    chains = split(draws)
    med = np.median(np.concatenate(chains))
    folded = [np.abs(c - med) for c in chains]
    return max(psrf(normal_scores(chains)), psrf(normal_scores(folded)))


@pytest.mark.parametrize("shift", [0.0, 0.3, 2.0])
def test_rhat_matches_a_second_implementation(shift):
    gen = np.random.default_rng(13)
    draws = ar1(0.3, 4, 501, gen)  # odd length: the middle draw is dropped by the split
    draws[0] += shift
    assert rhat(draws) == pytest.approx(rhat_second_implementation(draws), rel=1e-12)


def test_rhat_flags_chains_that_disagree():
    gen = np.random.default_rng(14)
    good = gen.standard_normal((4, 2000))
    # independent chains from one distribution: R-hat - 1 is O(1/N), well below 0.01
    assert rhat(good) < 1.005
    bad = good.copy()
    bad[1] += 1.0  # one chain off by one sd
    assert rhat(bad) > 1.05
    wide = good.copy()
    wide[2] *= 3.0  # same mean, different scale: caught by the folded (tail) R-hat
    assert rhat(wide) > 1.05


def test_ebfmi_matches_ar1_closed_form():
    # For a stationary AR(1) energy with coefficient phi, E[(E_n - E_{n-1})^2] / Var(E) =
    # 2 (1 - phi). With 20000 draws the estimate's sd is about 0.01: tolerance 0.04.
    gen = np.random.default_rng(15)
    energy = ar1(0.9, 3, 20_000, gen)
    np.testing.assert_allclose(ebfmi(energy), 2 * (1 - 0.9), atol=0.04)


def test_diagnostics_report_and_warn_every_problem():
    gen = np.random.default_rng(16)
    n = 1000
    good = {"delta0": gen.standard_normal((4, n)), "sigma0": gen.standard_normal((4, n))}
    energy = gen.standard_normal((4, n))
    zeros = np.zeros((4, n))
    diag = HierarchicalDiagnostics.from_draws(
        good, divergent=zeros, treedepth=zeros + 3, max_treedepth=10, energy=energy
    )
    assert diag.ok and diag.problems == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        diag.warn()  # no problem: no warning

    stuck = dict(good)
    stuck["sigma0"] = ar1(0.999, 4, n, gen)
    divergent = zeros.copy()
    divergent[0, :3] = 1
    treedepth = zeros + 3
    treedepth[1, 0] = 10
    diag = HierarchicalDiagnostics.from_draws(
        stuck, divergent=divergent, treedepth=treedepth, max_treedepth=10, energy=energy
    )
    text = " | ".join(diag.problems)
    assert not diag.ok
    assert "R-hat of sigma0" in text and "bulk ESS of sigma0" in text
    assert "tail ESS of sigma0" in text and "delta0" not in text
    assert "3 divergent" in text and "1 transition(s) hit the maximum tree depth" in text
    assert (diag.divergences, diag.max_treedepth_hits) == (3, 1)
    with pytest.warns(ConvergenceWarning, match="3 divergent"):
        diag.warn()
    # as a result row's columns: the worst R-hat and effective sample size over the
    # top-level parameters, bulk or tail
    columns = diag.columns()
    assert columns == {
        "diag_ok": False,
        "rhat_max": diag.rhat["sigma0"],
        "ess_min": min(diag.ess_bulk["sigma0"], diag.ess_tail["sigma0"]),
        "divergences": 3,
    }
    assert columns["rhat_max"] > max(rhat(good["delta0"]), 1.01)


def test_diagnostics_refuse_bad_draws():
    with pytest.raises(ValueError, match="draws"):
        rhat(np.ones(10))
    with pytest.raises(ValueError, match="finite"):
        ess_bulk(np.array([[0.0, 1.0, np.nan, 2.0, 3.0]]))
