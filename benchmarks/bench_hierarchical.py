"""Benchmark: the fast hierarchical Stan program against the reference model.

Data: q = 50 data sets of n = 100 fold differences (Cauchy(0, 0.0033) deltas, sd in
[0.03, 0.05], rho = 0.1), the H scenarios of Corani et al. (2017). The same data, runner and
process are used for both programs.

Printed:
* fast program: median wall time of ``fit_hierarchical`` (4 chains x (1000 + 1000), compiled
  model cached), Stan's own sampling time (sum over chains of warm-up + sampling, read from
  the sampler's log), divergences, max R-hat;
* reference program (full multivariate normal, centred; tests/reference_hierarchical.stan):
  gradient-evaluation time, and the wall and Stan time of a short run (4 chains x
  (WARMUP_REF + DRAWS_REF)) extrapolated linearly to 4 x (1000 + 1000) iterations (a full
  run takes hours);
* ratios reference / fast of the gradient time and of the (extrapolated) sampling time.

Usage: ``python benchmarks/bench_hierarchical.py [--reps 3]``
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import time
import warnings
from pathlib import Path

import numpy as np

from cvcompare.hierarchical import ConvergenceWarning, fit_hierarchical
from cvcompare.hierarchical.priors import scale_data, stan_data
from cvcompare.hierarchical.runners import _pystan_fits, build_pystan, get_runner, program_code

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "tests" / "reference_hierarchical.stan"
Q, N, RHO = 50, 100, 0.1
WARMUP_REF, DRAWS_REF = 30, 30
TOTAL_RE = re.compile(rb"([0-9.]+) seconds \(Total\)")
GRAD_RE = re.compile(rb"Gradient evaluation took ([0-9.e+-]+) seconds")


def h_data(seed: int) -> np.ndarray:
    gen = np.random.default_rng(seed)
    delta = 0.0033 * gen.standard_cauchy(Q)
    sd = gen.uniform(0.03, 0.05, Q)
    noise = np.sqrt(RHO) * gen.standard_normal((Q, 1)) + np.sqrt(1 - RHO) * gen.standard_normal(
        (Q, N)
    )
    return delta[:, None] + sd[:, None] * noise


def stan_run(code: str, data: dict, warmup: int, draws: int) -> tuple[float, float, float]:
    """Wall time, Stan's own time (sum over chains) and median gradient time of a run."""
    model = build_pystan(code, data, 1)
    args = {
        "function": "stan::services::sample::hmc_nuts_diag_e_adapt",
        "data": model.data,
        "random_seed": 1,
        "num_warmup": warmup,
        "num_samples": draws,
        "num_thin": 1,
        "delta": 0.9,
        "max_depth": 10,
        "refresh": warmup + draws,
    }
    start = time.perf_counter()
    outputs = asyncio.run(_pystan_fits(model.model_name, args, 4))
    wall = time.perf_counter() - start
    stan_time = sum(float(TOTAL_RE.search(o).group(1)) for o in outputs)
    grad = statistics.median(float(GRAD_RE.search(o).group(1)) for o in outputs)
    return wall, stan_time, grad


def main() -> None:
    parser = argparse.ArgumentParser(description="fast vs reference hierarchical model")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    runner = get_runner("auto").name
    x = h_data(args.seed)

    # fast program through the public API; first call compiles or loads the model
    walls, results = [], []
    for rep in range(args.reps + 1):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            start = time.perf_counter()
            res = fit_hierarchical(x, rho=RHO, seed=args.seed + rep)
            if rep:  # rep 0 loads the compiled model
                walls.append(time.perf_counter() - start)
                results.append(res)
    fast_wall = statistics.median(walls)
    divergences = [r.diagnostics.divergences for r in results]
    max_rhat = max(max(r.diagnostics.rhat.values()) for r in results)

    scaled = scale_data(x.copy(), (-0.01, 0.01), np.random.default_rng(0))
    data = stan_data(scaled, rho=RHO, student=True, nu_hyper=True)
    _, fast_stan, fast_grad = stan_run(program_code(), data, 1000, 1000)

    ref_data = {k: v for k, v in data.items() if k not in ("xbar", "ss", "student", "nu_hyper")}
    ref_data = {k: v for k, v in ref_data.items() if k not in ("nu_alpha", "nu_beta")}
    ref_data["x"] = scaled.x
    ref_wall, ref_stan, ref_grad = stan_run(REFERENCE.read_text(), ref_data, WARMUP_REF, DRAWS_REF)
    factor = 2000 / (WARMUP_REF + DRAWS_REF)

    print(f"hierarchical model, q={Q}, n={N}, 4 chains x (1000 + 1000), runner={runner}")
    print(f"  fast:      median wall {fast_wall:.2f} s over {args.reps} fits "
          f"(all: {', '.join(f'{w:.2f}' for w in walls)})")  # fmt: skip
    print(f"             Stan sampling time {fast_stan:.2f} s (sum of 4 chains), "
          f"gradient {1e6 * fast_grad:.1f} us")  # fmt: skip
    print(f"             divergences {divergences}, max R-hat {max_rhat:.4f}")
    print(f"  reference: gradient {1e6 * ref_grad:.0f} us; 4 x ({WARMUP_REF} + {DRAWS_REF}) run: "
          f"wall {ref_wall:.1f} s, Stan {ref_stan:.1f} s")  # fmt: skip
    print(f"             extrapolated to 4 x (1000 + 1000): wall {factor * ref_wall:.0f} s, "
          f"Stan {factor * ref_stan:.0f} s")  # fmt: skip
    print(f"  ratios reference / fast: gradient {ref_grad / fast_grad:.0f}x, "
          f"Stan time {factor * ref_stan / fast_stan:.0f}x, "
          f"wall {factor * ref_wall / fast_wall:.0f}x")  # fmt: skip


if __name__ == "__main__":
    main()
