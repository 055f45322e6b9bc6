"""Simulation-based calibration of the hierarchical model's Stan program.

For each simulation the parameters are drawn from the prior, fold differences are drawn
from the model, the program is fitted, and the rank of each true value among thinned
posterior draws is recorded. If the program samples its posterior correctly, the ranks are
uniform on {0, ..., L}; a chi-square test on binned ranks checks this for delta0, sigma0,
nu, delta_1 and delta_2.

The prior is the model's, with the data-dependent bounds replaced by fixed ones (a narrowed
prior, documented here): delta0 ~ U(-1, 1), sigma0 ~ U(0, 1), sigma_i ~ U(0, 2),
nu - 1 ~ Gamma(alpha, beta) with alpha ~ U(0.5, 5), beta ~ U(0.05, 0.15); q = 5 data sets of
n = 10 folds with rho = 0.1.

Usage: ``python scripts/sbc_hierarchical.py [--sims 200] [--seed 2026] [--out ranks.json]``

References
----------
Talts, S., Betancourt, M., Simpson, D., Vehtari, A. & Gelman, A. (2018). Validating
Bayesian inference algorithms with simulation-based calibration. arXiv:1804.06788,
Algorithm 1 and Sec. 4.1 (thinning).
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np
from scipy import stats

from cvcompare.hierarchical.priors import ALPHA_BOUNDS, BETA_BOUNDS, model_data
from cvcompare.hierarchical.runners import get_runner
from cvcompare.seeding import replication_rng

Q, N, RHO = 5, 10, 0.1
DELTA0_BOUND, SIGMA0_HI, SIGMA_HI = 1.0, 1.0, 2.0
CHAINS, WARMUP, DRAWS, KEEP = 4, 500, 250, 99
BINS = 10
TRACKED = ("delta0", "sigma0", "nu", "delta_1", "delta_2")


def draw_prior(gen: np.random.Generator) -> dict[str, np.ndarray | float]:
    """One draw of all parameters from the (narrowed) prior."""
    alpha = gen.uniform(*ALPHA_BOUNDS)
    beta = gen.uniform(*BETA_BOUNDS)
    nu = 1.0 + gen.gamma(alpha, 1.0 / beta)
    delta0 = gen.uniform(-DELTA0_BOUND, DELTA0_BOUND)
    sigma0 = gen.uniform(0.0, SIGMA0_HI)
    delta = delta0 + sigma0 * gen.standard_t(nu, Q)
    sigma = gen.uniform(0.0, SIGMA_HI, Q)
    return {"delta0": delta0, "sigma0": sigma0, "nu": nu, "delta": delta, "sigma": sigma}


def simulate_folds(truth: dict, gen: np.random.Generator) -> np.ndarray:
    """Fold differences x_i ~ MVN(1 delta_i, sigma_i^2 ((1 - rho) I + rho 1 1'))."""
    common = gen.standard_normal((Q, 1))
    own = gen.standard_normal((Q, N))
    noise = np.sqrt(RHO) * common + np.sqrt(1 - RHO) * own
    return truth["delta"][:, None] + truth["sigma"][:, None] * noise


def stan_data(x: np.ndarray) -> dict[str, object]:
    xbar = x.mean(axis=1)
    ss = np.sum((x - xbar[:, None]) ** 2, axis=1)
    return model_data(
        xbar,
        ss,
        N,
        rho=RHO,
        delta0_bound=DELTA0_BOUND,
        sigma_hi=SIGMA_HI,
        sigma0_hi=SIGMA0_HI,
        student=True,
        nu_hyper=True,
    )


def one_simulation(index: int, root_seed: int, runner) -> dict[str, int]:
    """Ranks of the tracked true values among KEEP thinned posterior draws."""
    gen = replication_rng(root_seed, "sbc-hierarchical", index)
    truth = draw_prior(gen)
    x = simulate_folds(truth, gen)
    out = runner.sample(
        stan_data(x),
        chains=CHAINS,
        warmup=WARMUP,
        draws=DRAWS,
        seed=int(gen.integers(1, 2**31 - 1)),
        adapt_delta=0.8,
    )
    keep = np.linspace(0, CHAINS * DRAWS - 1, KEEP).round().astype(int)
    post = {
        "delta0": out.draws["delta0"].reshape(-1)[keep],
        "sigma0": out.draws["sigma0"].reshape(-1)[keep],
        "nu": out.draws["nu_minus_one"].reshape(-1)[keep] + 1.0,
        "delta_1": out.draws["delta"][..., 0].reshape(-1)[keep],
        "delta_2": out.draws["delta"][..., 1].reshape(-1)[keep],
    }
    true = {
        "delta0": truth["delta0"],
        "sigma0": truth["sigma0"],
        "nu": truth["nu"],
        "delta_1": truth["delta"][0],
        "delta_2": truth["delta"][1],
    }
    ranks = {k: int(np.sum(post[k] < true[k])) for k in TRACKED}
    ranks["divergences"] = int(out.divergent.sum())
    return ranks


def chi_square_pvalues(ranks: list[dict[str, int]]) -> dict[str, float]:
    """Chi-square test of uniform ranks on {0, ..., KEEP} in BINS equal bins."""
    out = {}
    edges = np.linspace(0, KEEP + 1, BINS + 1)
    for k in TRACKED:
        counts, _ = np.histogram([r[k] for r in ranks], bins=edges)
        out[k] = float(stats.chisquare(counts).pvalue)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--runner", default="auto")
    parser.add_argument("--out", default=None, help="write ranks and p-values as JSON here")
    args = parser.parse_args(argv)
    runner = get_runner(args.runner)
    ranks = []
    for i in range(args.sims):
        ranks.append(one_simulation(i, args.seed, runner))
        if (i + 1) % 20 == 0:
            print(f"{i + 1}/{args.sims} simulations", file=sys.stderr, flush=True)
    pvalues = chi_square_pvalues(ranks)
    n_div = sum(r["divergences"] for r in ranks)
    n_div_fits = sum(r["divergences"] > 0 for r in ranks)
    print(f"SBC of hierarchical.stan ({runner.name}), {args.sims} simulations, ranks in 0..{KEEP}")
    for k, p in pvalues.items():
        print(f"  {k:8s} chi-square p-value = {p:.3f}")
    print(f"  divergent transitions: {n_div}, in {n_div_fits} of {args.sims} fits")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"ranks": ranks, "pvalues": pvalues, "divergences": n_div}, fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
