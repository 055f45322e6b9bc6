"""Bayesian signed-rank tests: prefix sums over sorted observations vs explicit q x q matrices.

The package evaluates every quadratic form ``sum_ij w_i w_j H(z_i + z_j - c)`` from prefix
sums of the sorted weights (``O(q log q)`` once, then ``O(q)`` per draw); the baseline is the
former implementation kept in ``tests/reference_signed_rank.py``, which builds the
``q x q`` matrices and evaluates the forms as matrix products (``O(q^2)`` per draw). Both run
in this process on the same data and seed; the draws are checked equal to rounding before
the times are compared, at q = 50, 1,000 and 4,000 (the baseline's time per draw grows as
q^2, the package's as q). At q = 10,000 only the package runs (the baseline's three
matrices would take 2.4 GB), at the default 50,000 draws and at 5,000; the time spent drawing
the Gamma weights alone (``q`` exponentials per draw, fixed by the seed) is printed as the
floor that no evaluation can beat.

Run: ``python benchmarks/bench_signed_rank.py``. Targets: the ratio grows with q (>= 10 at
q = 4,000); at q = 10,000 the package within a small factor of the time of drawing the
weights.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import reference_signed_rank as quadratic_ref  # noqa: E402

from cvcompare.stats.signed_rank import (  # noqa: E402
    _exponential_chunks,
    bayesian_signed_rank,
    dp_signed_rank,
    idp_signed_rank,
)

ROPE = (-0.01, 0.01)
PRIOR = 0.5
S = 0.5


def best_of(fn, repeat: int = 3) -> tuple[float, object]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def compare(q: int, n_draws: int, repeat: int) -> None:
    """Time the three tests and the O(q^2) baseline at q data sets; check equal draws."""
    z = np.random.default_rng(q).normal(0.003, 0.02, q)
    cases = [
        (
            "dp_signed_rank",
            lambda: dp_signed_rank(z, n_samples=n_draws, rng=1).draws,
            lambda: quadratic_ref.dp_theta_draws(z, n_draws, 1)[0],
        ),
        (
            "idp_signed_rank",
            lambda: idp_signed_rank(z, s=S, n_samples=n_draws, rng=1).sample(),
            lambda: np.column_stack(quadratic_ref.idp_draws(z, S, n_draws, 1)),
        ),
        (
            "bayesian_signed_rank",
            lambda: (
                bayesian_signed_rank(
                    z, rope=ROPE, prior_strength=PRIOR, n_samples=n_draws, rng=1
                ).draws
            ),
            lambda: quadratic_ref.rope_draws(z, ROPE, PRIOR, n_draws, 1),
        ),
    ]
    for name, fast, slow in cases:
        t_fast, draws = best_of(fast, repeat)
        t_slow, ref_draws = best_of(slow, repeat)
        gap = float(np.max(np.abs(draws - ref_draws)))
        assert gap < 1e-12, (name, gap)
        print(
            f"q = {q:>5}, {n_draws} draws, {name:<21} prefix sums {t_fast:8.3f} s   "
            f"q x q matrices {t_slow:8.3f} s   ratio {t_slow / t_fast:7.1f}x   "
            f"max |draw difference| {gap:.1e}"
        )


def large(q: int, draws: list[int]) -> None:
    """Time the package alone at q data sets, with the Gamma-weight floor."""
    z = np.random.default_rng(q).normal(0.003, 0.02, q)
    for n in draws:
        t_rng, _ = best_of(
            lambda n=n: [None for _ in _exponential_chunks(np.random.default_rng(1), q, n)],
            repeat=1,
        )
        line = [f"q = {q}, {n} draws: drawing the weights alone {t_rng:.2f} s"]
        for name, fn in (
            ("dp_signed_rank", dp_signed_rank),
            ("idp_signed_rank", idp_signed_rank),
            ("bayesian_signed_rank", bayesian_signed_rank),
        ):
            t, _ = best_of(lambda fn=fn, n=n: fn(z, n_samples=n, rng=1), repeat=1)
            line.append(f"{name} {t:.2f} s")
        print("; ".join(line))


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()
    compare(50, 50_000, repeat=3)
    compare(1_000, 5_000, repeat=1)
    compare(4_000, 500, repeat=1)  # the baseline's matrices: 3 x 128 MB
    large(10_000, [5_000, 50_000])


if __name__ == "__main__":
    main()
