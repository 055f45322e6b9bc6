"""Exact Poisson-binomial distribution against the paper's 100,000-coin sampling.

Corani & Benavoli (2015, Sec. 3) approximate the distribution of the number of data sets
won by simulating ``q`` biased coins 100,000 times. The package computes it exactly by the
``O(q^2)`` recursion over the data sets. Both are timed here at q = 50 on the same success
probabilities, and the sampled distribution is checked against the exact one (every
probability within 4 binomial standard errors).

The package's own sampling (``method="montecarlo"``) draws the coin vectors in blocks of
about 1 MiB instead of all at once; its peak memory (``tracemalloc``) is compared with the
one-shot draw above at q = 1,000 data sets and 100,000 vectors, with identical counts.

Run: ``python benchmarks/bench_poisson_binomial.py``. Targets: ratio >= 100; peak memory of
the blocked sampling >= 100x smaller.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from cvcompare.stats.poisson_binomial import _montecarlo_pmf, poisson_binomial_pmf

Q = 50
N_SAMPLES = 100_000
REPEATS = 20
Q_MEMORY = 1_000


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
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
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

    p = np.random.default_rng(2016).uniform(size=Q_MEMORY)
    (blocked, t_blocked, peak_blocked), (one_shot, t_one_shot, peak_one_shot) = (
        traced(lambda: _montecarlo_pmf(p, N_SAMPLES, np.random.default_rng(1))),
        traced(lambda: sampled_pmf(p, N_SAMPLES, seed=1)),
    )
    assert np.array_equal(blocked, one_shot), "blocked sampling changed the counts"
    print(
        f"q = {Q_MEMORY}, {N_SAMPLES:,} coin vectors: peak memory blocked "
        f"{peak_blocked / 2**20:.1f} MiB ({t_blocked:.2f} s), all at once "
        f"{peak_one_shot / 2**20:.0f} MiB ({t_one_shot:.2f} s); ratio "
        f"{peak_one_shot / peak_blocked:.0f}x (target >= 100x); identical counts"
    )


def traced(func) -> tuple[object, float, int]:
    """Result, wall-clock time and peak traced memory (bytes) of one call."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        result = func()
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, elapsed, peak


if __name__ == "__main__":
    main()
