"""Vectorised Bayesian signed-rank test against a per-draw Python loop.

Both compute the posterior of ``(theta_left, theta_rope, theta_right)`` of the signed-rank
test with a rope (Benavoli et al., 2017, Sec. 5) for q = 50 data sets. The package draws the
Dirichlet weights of all draws at once and evaluates the quadratic forms as batched matrix
products; the baseline draws one weight vector at a time and sums ``outer(w, w) * A`` for each
draw, as the reference implementations do. The loop is timed on fewer draws and its time is
scaled linearly to the package's number of draws (its cost per draw is constant).

Run: ``python benchmarks/bench_signed_rank.py``. Target: ratio >= 5.
"""

from __future__ import annotations

import time

import numpy as np

from cvcompare.stats.signed_rank import bayesian_signed_rank

Q = 50
N_DRAWS = 50_000
N_LOOP = 5_000  # draws of the baseline, scaled to N_DRAWS
ROPE = (-0.01, 0.01)
PRIOR = 0.5


def per_draw_loop(z: np.ndarray, n_samples: int, seed: int) -> np.ndarray:
    """Baseline: one Dirichlet draw and two outer-product sums per iteration."""
    gen = np.random.default_rng(seed)
    zz = np.r_[0.0, z]
    sums = zz[:, None] + zz[None, :]
    above = np.heaviside(sums - 2 * ROPE[1], 0.5)
    below = np.heaviside(2 * ROPE[0] - sums, 0.5)
    alpha = np.r_[PRIOR, np.ones(z.size)]
    out = np.empty((n_samples, 3))
    for i in range(n_samples):
        w = gen.dirichlet(alpha)
        outer = np.outer(w, w)
        left, right = np.sum(outer * below), np.sum(outer * above)
        out[i] = left, 1.0 - left - right, right
    return out


def best_of(fn, repeat: int = 3) -> tuple[float, object]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    z = np.random.default_rng(0).normal(0.005, 0.02, Q)
    t_vec, post = best_of(lambda: bayesian_signed_rank(z, rope=ROPE, n_samples=N_DRAWS, rng=1))
    t_loop, draws = best_of(lambda: per_draw_loop(z, N_LOOP, seed=1))
    t_loop *= N_DRAWS / N_LOOP
    # same posterior: probabilities agree within 4 Monte Carlo standard errors
    loop_probs = np.bincount(np.argmax(draws, axis=1), minlength=3) / N_LOOP
    for p_vec, p_loop in zip(post.probs(), loop_probs, strict=True):
        se = np.sqrt(max(p_loop * (1 - p_loop), 1e-4) * (1 / N_LOOP + 1 / N_DRAWS))
        assert abs(p_vec - p_loop) < 4 * se, (post.probs(), loop_probs)
    print(
        f"q = {Q}, {N_DRAWS} draws; probabilities {np.round(post.probs(), 3)} (loop: {loop_probs})"
    )
    print(f"vectorised bayesian_signed_rank: {t_vec:.3f} s")
    print(f"per-draw loop (timed on {N_LOOP} draws, scaled x{N_DRAWS // N_LOOP}): {t_loop:.3f} s")
    print(f"ratio loop / vectorised: {t_loop / t_vec:.1f}x (target >= 5x)")


if __name__ == "__main__":
    main()
