"""Benchmark: the fast hierarchical Stan program against the reference model.

Data: q = 50 data sets of n = 100 fold differences (Cauchy(0, 0.0033) deltas, sd in
[0.03, 0.05], rho = 0.1), the H scenarios of Corani et al. (2017). The same data, runner and
process are used for both programs.

Printed, for one runner (``--runner``, default: the one ``runner="auto"`` picks):
* fast program: median wall time of ``fit_hierarchical`` (4 chains x (1000 + 1000), compiled
  program cached), divergences, max R-hat;
* reference program (full multivariate normal, centred; tests/reference_hierarchical.stan):
  wall time of a short run (4 chains x (WARMUP_REF + DRAWS_REF)) through the same runner,
  extrapolated linearly to 4 x (1000 + 1000) iterations (a full run takes hours);
* the ratio reference / fast;
* the spread over data sets: one fit on each of ``--datasets`` further H data sets (seeds
  after ``--seed``; draws with a difference outside [-1, 1], which the Cauchy deltas
  occasionally give, are skipped), with its median, range, divergences and max R-hat, and
  each fit's posterior median nu (the fit time depends on the data).

Usage: ``python benchmarks/bench_hierarchical.py [--reps 5] [--datasets 12] [--runner native]``
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings
from pathlib import Path

import numpy as np

from cvcompare.hierarchical import ConvergenceWarning, fit_hierarchical
from cvcompare.hierarchical.priors import scale_data, stan_data
from cvcompare.hierarchical.runners import RUNNERS, get_runner

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "tests" / "reference_hierarchical.stan"
Q, N, RHO = 50, 100, 0.1
WARMUP_REF, DRAWS_REF = 30, 30


def h_data(seed: int) -> np.ndarray:
    gen = np.random.default_rng(seed)
    delta = 0.0033 * gen.standard_cauchy(Q)
    sd = gen.uniform(0.03, 0.05, Q)
    noise = np.sqrt(RHO) * gen.standard_normal((Q, 1)) + np.sqrt(1 - RHO) * gen.standard_normal(
        (Q, N)
    )
    return delta[:, None] + sd[:, None] * noise


def timed_fit(x: np.ndarray, seed: int, runner: str) -> tuple[float, object]:
    """Wall time and result of one ``fit_hierarchical`` call (convergence warnings muted)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        start = time.perf_counter()
        res = fit_hierarchical(x, rho=RHO, seed=seed, runner=runner)
        return time.perf_counter() - start, res


def main() -> None:
    parser = argparse.ArgumentParser(description="fast vs reference hierarchical model")
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--datasets", type=int, default=12)
    parser.add_argument("--runner", choices=RUNNERS, default="auto")
    args = parser.parse_args()
    runner = get_runner(args.runner).name
    x = h_data(args.seed)

    # fast program through the public API; the first call compiles or loads the program
    timed_fit(x, args.seed, runner)
    fits = [timed_fit(x, args.seed + rep, runner) for rep in range(1, args.reps + 1)]
    walls = [wall for wall, _ in fits]
    results = [res for _, res in fits]
    fast_wall = statistics.median(walls)
    divergences = [r.diagnostics.divergences for r in results]
    max_rhat = max(max(r.diagnostics.rhat.values()) for r in results)
    spread, spread_results = [], []
    data_seed = args.seed
    while len(spread) < args.datasets:
        data_seed += 1
        other = h_data(data_seed)
        if np.abs(other).max() <= 1:
            wall, res = timed_fit(other, data_seed, runner)
            spread.append(wall)
            spread_results.append(res)

    scaled = scale_data(x.copy(), (-0.01, 0.01), np.random.default_rng(0))
    data = stan_data(scaled, rho=RHO, student=True, nu_hyper=True)
    ref_data = {k: v for k, v in data.items() if k not in ("xbar", "ss", "student", "nu_hyper")}
    ref_data = {k: v for k, v in ref_data.items() if k not in ("nu_alpha", "nu_beta")}
    ref_data["x"] = scaled.x
    reference = get_runner(runner, REFERENCE.read_text())
    nuts = {"chains": 4, "seed": args.seed, "adapt_delta": 0.8}
    reference.sample(ref_data, warmup=2, draws=2, **nuts)  # compiles or loads the program
    start = time.perf_counter()
    reference.sample(ref_data, warmup=WARMUP_REF, draws=DRAWS_REF, **nuts)
    ref_wall = time.perf_counter() - start
    factor = 2000 / (WARMUP_REF + DRAWS_REF)

    print(f"hierarchical model, q={Q}, n={N}, 4 chains x (1000 + 1000), runner={runner}")
    print(f"  fast:      median wall {fast_wall:.2f} s over {args.reps} fits "
          f"(all: {', '.join(f'{w:.2f}' for w in walls)})")  # fmt: skip
    print(f"             divergences {divergences}, max R-hat {max_rhat:.4f}")
    print(f"  reference: 4 x ({WARMUP_REF} + {DRAWS_REF}) run: wall {ref_wall:.1f} s; "
          f"extrapolated to 4 x (1000 + 1000): {factor * ref_wall:.0f} s")  # fmt: skip
    print(f"  ratio reference / fast: {factor * ref_wall / fast_wall:.0f}x")
    if spread:
        spread_div = sum(r.diagnostics.divergences for r in spread_results)
        spread_rhat = max(max(r.diagnostics.rhat.values()) for r in spread_results)
        nu = [float(np.median(r.nu)) for r in spread_results]
        each = ", ".join(f"{w:.2f} ({v:.1f})" for w, v in sorted(zip(spread, nu, strict=True)))
        print(f"  {len(spread)} further data sets, one fit each: median wall "
              f"{statistics.median(spread):.2f} s (range {min(spread):.2f}-{max(spread):.2f}), "
              f"divergences {spread_div}, max R-hat {spread_rhat:.4f}")  # fmt: skip
        print(f"             wall (posterior median nu) of each: {each}")


if __name__ == "__main__":
    main()
