"""Exact Poisson-binomial distribution against the paper's 100,000-coin sampling.

Corani & Benavoli (2015, Sec. 3) approximate the distribution of the number of data sets
won by simulating ``q`` biased coins 100,000 times. The package computes it exactly by the
``O(q^2)`` recursion over the data sets. Both are timed here at q = 50 on the same success
probabilities, and the sampled distribution is checked against the exact one (every
probability within 4 binomial standard errors).

Run: ``python benchmarks/bench_poisson_binomial.py``. Target: ratio >= 100.
"""

from __future__ import annotations

import time

import numpy as np

from cvcompare.stats.poisson_binomial import poisson_binomial_pmf

Q = 50
N_SAMPLES = 100_000
REPEATS = 20


def sampled_pmf(p: np.ndarray, n_samples: int, seed: int) -> np.ndarray:
    """Baseline: relative frequencies of the number of wins over simulated coin vectors."""
    gen = np.random.default_rng(seed)
    wins = (gen.random((n_samples, p.size)) < p).sum(axis=1)
    return np.bincount(wins, minlength=p.size + 1) / n_samples


def best_time(func, repeats: int) -> float:
    """Smallest wall-clock time of ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    p = np.random.default_rng(2015).uniform(size=Q)
    exact = poisson_binomial_pmf(p)
    sampled = sampled_pmf(p, N_SAMPLES, seed=1)
    se = np.sqrt(exact * (1 - exact) / N_SAMPLES)
    assert np.all(np.abs(sampled - exact) <= 4 * se + 1e-12), "sampling disagrees with exact"

    t_exact = best_time(lambda: poisson_binomial_pmf(p), REPEATS * 10)
    t_sampled = best_time(lambda: sampled_pmf(p, N_SAMPLES, seed=1), REPEATS)
    print(f"q = {Q}: exact recursion {t_exact * 1e6:.1f} us")
    print(f"q = {Q}: sampling {N_SAMPLES:,} coin vectors {t_sampled * 1e3:.1f} ms")
    print(f"ratio (sampling / exact) = {t_sampled / t_exact:.0f}x (target >= 100x)")


if __name__ == "__main__":
    main()
