"""Benchmark: the package's hierarchical Stan program against the authors' model.

Data: q = 50 data sets of n = 100 fold differences (Cauchy(0, 0.0033) deltas, sd in
[0.03, 0.05], rho = 0.1), the H scenarios of Corani et al. (2017), scaled as the package
scales them. Both programs run 4 chains x (1000 + 1000) iterations of Stan's NUTS with the
same runner, in the same process, alternately (authors', package's, authors', ...), so that
changes in the machine's load affect both alike.

* authors' model (benchmarks/authors_hierarchical.stan): the model as the authors program
  it, centred delta_i ~ t(nu, delta0, sigma0) and each data set's multivariate normal
  likelihood as a quadratic form with the inverse correlation matrix. Built through the
  runner's own build path (CmdStan is not needed; with ``--runner cmdstanpy`` it runs
  through CmdStan); with the native runner, its trajectories are built by Stan's own NUTS
  code (``NativeRunner(stan_transition=True)``), as CmdStan and PyStan build them;
* package's program: ``fit_hierarchical`` (sufficient statistics, delta_i integrated out),
  compiled program cached; with the native runner, its log density and gradient are the
  hand-written C++ of ``hierarchical_gradient.hpp`` and its trajectories are built by the
  package's copy of Stan's NUTS code (``nuts_sampler.hpp``: no allocations, the same
  draws);
* with the native runner, the package's program run by the runner alone (no
  ``fit_hierarchical`` around it) in three variants, on the same data and seed: the
  hand-written gradient with the package's transition (the default), with Stan's
  transition, and Stan's autodiff with the package's transition, which measures what the
  hand-written gradient and the package's transition each gain.

Printed: the wall and CPU time of every run (CPU: this process and the runner's processes;
on a shared machine less affected than wall time by other load), the medians, their
ratios, the divergences and max R-hat of each; the sampling efficiency of both, as the
smallest bulk effective sample size among delta0, sigma0 and nu (the quantities the
analysis reports; the worst-mixing one bounds how far the draws can be trusted) per CPU
second of each run, with the ratio of the medians (a fit's time alone ignores that the two
programs' 4,000 draws are not worth the same); and the posterior means of delta0, sigma0
and nu from both with their difference in Monte Carlo standard errors (same posterior:
within about 3). Then the spread
over data sets: one package fit on each of ``--datasets`` further H data sets (seeds after
``--seed``; draws with a difference outside [-1, 1], which the Cauchy deltas occasionally
give, are skipped), with its median, range, divergences and max R-hat, and each fit's
posterior median nu (the fit time depends on the data).

tests/reference_hierarchical.stan (full ``multi_normal``) is a correctness reference for
the tests, not a baseline: it is about 47x slower than the authors' model.

Usage: ``python benchmarks/bench_hierarchical.py [--reps 3] [--datasets 12] [--runner native]``
"""

from __future__ import annotations

import argparse
import functools
import resource
import statistics
import time
import warnings
from pathlib import Path

import numpy as np

from cvcompare.hierarchical import ConvergenceWarning, fit_hierarchical
from cvcompare.hierarchical.diagnostics import HierarchicalDiagnostics, ess_bulk
from cvcompare.hierarchical.priors import scale_data, stan_data
from cvcompare.hierarchical.runners import RUNNERS, NativeRunner, get_runner

AUTHORS = Path(__file__).resolve().parent / "authors_hierarchical.stan"
Q, N, RHO = 50, 100, 0.1
NUTS = {"chains": 4, "warmup": 1000, "draws": 1000, "adapt_delta": 0.8}
#: The fit-time goal: the authors' model's median CPU time over the package's.
TARGET = 200


def h_data(seed: int) -> np.ndarray:
    gen = np.random.default_rng(seed)
    delta = 0.0033 * gen.standard_cauchy(Q)
    sd = gen.uniform(0.03, 0.05, Q)
    noise = np.sqrt(RHO) * gen.standard_normal((Q, 1)) + np.sqrt(1 - RHO) * gen.standard_normal(
        (Q, N)
    )
    return delta[:, None] + sd[:, None] * noise


def cpu_seconds() -> float:
    """CPU time (user + system) used so far by this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(call) -> tuple[float, float, object]:
    """Wall time, CPU time (this process and the runner's, e.g. the native executable:
    less sensitive than wall time to other load on a shared machine) and result of
    ``call()``."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    out = call()
    return time.perf_counter() - wall, cpu_seconds() - cpu, out


def timed_fit(x: np.ndarray, seed: int, runner: str) -> tuple[float, float, object]:
    """:func:`timed` ``fit_hierarchical`` call (convergence warnings muted)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return timed(lambda: fit_hierarchical(x, rho=RHO, seed=seed, runner=runner, **NUTS))


#: Entries of the package's data block that the authors' program reads too.
AUTHORS_KEYS = ("q", "n", "rho", "delta0_lo", "delta0_hi", "sigma_hi", "sigma0_hi")
AUTHORS_KEYS += ("alpha_lo", "alpha_hi", "beta_lo", "beta_hi")


def both_data(x: np.ndarray) -> tuple[dict, dict, float]:
    """Data of the authors' program and of the package's (as ``fit_hierarchical`` passes
    it), and the scale: the fold differences scaled as the package scales them (the
    authors' code scales the same way), with the package's prior bounds."""
    scaled = scale_data(x.copy(), (-0.01, 0.01), np.random.default_rng(0))
    package = stan_data(scaled, rho=RHO, student=True, nu_hyper=True)
    authors = {k: package[k] for k in AUTHORS_KEYS} | {"x": scaled.x}
    return authors, package, scaled.scale


#: The top-level parameters compared between the two programs.
TOP = ("delta0", "sigma0", "nu")


def top_level(draws: dict[str, np.ndarray], chains: int) -> dict[str, np.ndarray]:
    """The (chains, draws) arrays of :data:`TOP` from either program's draws (the authors'
    runner output, on the scaled data and with ``nu_minus_one``, or the package's result
    fields)."""
    nu = draws["nu"] if "nu" in draws else draws["nu_minus_one"] + 1
    top = {"delta0": draws["delta0"], "sigma0": draws["sigma0"], "nu": nu}
    return {k: np.asarray(v).reshape(chains, -1) for k, v in top.items()}


def least_ess(top: dict[str, np.ndarray]) -> tuple[float, str]:
    """The smallest bulk effective sample size among the top-level parameters, and which."""
    ess = {k: ess_bulk(v) for k, v in top.items()}
    name = min(ess, key=ess.__getitem__)
    return ess[name], name


def compare(name: str, a: np.ndarray, b: np.ndarray) -> str:
    """Posterior means of (chains, draws) arrays and their difference in Monte Carlo SEs."""
    se = np.hypot(a.std() / np.sqrt(ess_bulk(a)), b.std() / np.sqrt(ess_bulk(b)))
    return f"{name} {a.mean():.5f} vs {b.mean():.5f} ({(a.mean() - b.mean()) / se:+.1f} MCSE)"


def main() -> None:
    parser = argparse.ArgumentParser(description="the authors' hierarchical model vs the package's")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--datasets", type=int, default=12)
    parser.add_argument("--runner", choices=RUNNERS, default="auto")
    args = parser.parse_args()
    runner = get_runner(args.runner).name
    x = h_data(args.seed)
    data, package_data, scale = both_data(x)
    if runner == "native":
        authors = NativeRunner(AUTHORS.read_text(), stan_transition=True)
    else:
        authors = get_runner(runner, AUTHORS.read_text())

    # with the native runner, the package's program is also run by the runner alone (the
    # data fit_hierarchical passes): hand-written gradient and the package's transition,
    # the same with Stan's transition, and Stan's autodiff with the package's transition
    variants = {}
    if runner == "native":
        variants = {
            "hand-written gradient": NativeRunner(),
            "hand-written gradient, Stan's transition": NativeRunner(stan_transition=True),
            "Stan's autodiff": NativeRunner(hand_written_gradient=False),
        }
    runs = {name: [] for name in variants}

    # first calls compile or load the programs
    authors.sample(data, seed=args.seed, chains=1, warmup=5, draws=5)
    timed_fit(x, args.seed, runner)
    for variant in variants.values():
        variant.sample(package_data, seed=args.seed, chains=1, warmup=5, draws=5)
    fast_walls, fast_cpus, authors_walls, authors_cpus, results, outputs = [], [], [], [], [], []
    for rep in range(1, args.reps + 1):
        run_authors = functools.partial(authors.sample, data, seed=args.seed + rep, **NUTS)
        wall, cpu, out = timed(run_authors)
        authors_walls.append(wall)
        authors_cpus.append(cpu)
        outputs.append(out)
        wall, cpu, res = timed_fit(x, args.seed + rep, runner)
        fast_walls.append(wall)
        fast_cpus.append(cpu)
        results.append(res)
        for name, variant in variants.items():
            sample = functools.partial(variant.sample, package_data, seed=args.seed + rep)
            wall, cpu, out = timed(functools.partial(sample, **NUTS))
            runs[name].append((wall, cpu, int(out.divergent.sum())))
    fast_wall, fast_cpu = statistics.median(fast_walls), statistics.median(fast_cpus)
    authors_wall, authors_cpu = statistics.median(authors_walls), statistics.median(authors_cpus)

    print(f"hierarchical model, q={Q}, n={N}, 4 chains x (1000 + 1000), runner={runner}, "
          f"{args.reps} alternated runs each")  # fmt: skip
    print(f"  authors' model:   median wall {authors_wall:.1f} s "
          f"(all: {', '.join(f'{w:.1f}' for w in authors_walls)}), median CPU "
          f"{authors_cpu:.1f} s (all: {', '.join(f'{c:.1f}' for c in authors_cpus)})")  # fmt: skip
    chains = NUTS["chains"]
    authors_top = [top_level(out.draws, chains) for out in outputs]
    fast_top = [top_level({k: getattr(r, k) for k in TOP}, chains) for r in results]
    for out, top in zip(outputs, authors_top, strict=True):
        diag = HierarchicalDiagnostics.from_draws(
            top, divergent=out.divergent, treedepth=out.treedepth,
            max_treedepth=out.max_treedepth, energy=out.energy,
        )  # fmt: skip
        print(f"                    divergences {diag.divergences}, "
              f"max R-hat {max(diag.rhat.values()):.4f}")  # fmt: skip
    print(f"  package's model:  median wall {fast_wall:.2f} s "
          f"(all: {', '.join(f'{w:.2f}' for w in fast_walls)}), median CPU "
          f"{fast_cpu:.2f} s (all: {', '.join(f'{c:.2f}' for c in fast_cpus)})")  # fmt: skip
    print(f"                    divergences {[r.diagnostics.divergences for r in results]}, "
          f"max R-hat {max(max(r.diagnostics.rhat.values()) for r in results):.4f}")  # fmt: skip
    cpu_ratio = authors_cpu / fast_cpu
    print(f"  ratio authors' / package's (medians): wall {authors_wall / fast_wall:.0f}x, "
          f"CPU {cpu_ratio:.0f}x; target >= {TARGET}x in CPU time: "
          f"{'met' if cpu_ratio >= TARGET else 'not met'}")  # fmt: skip
    medians = {}
    for name, timings in runs.items():
        walls, cpus, divergences = zip(*timings, strict=True)
        medians[name] = statistics.median(walls), statistics.median(cpus)
        print(f"  package's model, native runner alone, {name}: median wall "
              f"{medians[name][0]:.2f} s (all: {', '.join(f'{w:.2f}' for w in walls)}), median "
              f"CPU {medians[name][1]:.2f} s (all: {', '.join(f'{c:.2f}' for c in cpus)}), "
              f"divergences {list(divergences)}")  # fmt: skip
    if medians:
        (hw_wall, hw_cpu), (st_wall, st_cpu), (ad_wall, ad_cpu) = medians.values()
        print(f"  ratio Stan's / package's transition (medians): wall {st_wall / hw_wall:.2f}x, "
              f"CPU {st_cpu / hw_cpu:.2f}x")  # fmt: skip
        print(f"  ratio autodiff / hand-written gradient (medians): wall {ad_wall / hw_wall:.2f}x, "
              f"CPU {ad_cpu / hw_cpu:.2f}x; authors' / autodiff: wall "
              f"{authors_wall / ad_wall:.0f}x, CPU {authors_cpu / ad_cpu:.0f}x")  # fmt: skip
    # efficiency: the smallest bulk ESS of delta0, sigma0 and nu, per CPU second of its run
    authors_ess = [least_ess(top) for top in authors_top]
    fast_ess = [least_ess(top) for top in fast_top]
    authors_rates = [e / c for (e, _), c in zip(authors_ess, authors_cpus, strict=True)]
    fast_rates = [e / c for (e, _), c in zip(fast_ess, fast_cpus, strict=True)]
    authors_rate, fast_rate = statistics.median(authors_rates), statistics.median(fast_rates)
    print(f"  smallest bulk ESS of delta0, sigma0, nu in each run: authors' "
          f"{', '.join(f'{e:.0f} ({k})' for e, k in authors_ess)}; package's "
          f"{', '.join(f'{e:.0f} ({k})' for e, k in fast_ess)}")  # fmt: skip
    print(f"  that ESS per CPU second (medians): authors' {authors_rate:.1f}, package's "
          f"{fast_rate:.0f}, ratio {fast_rate / authors_rate:.0f}x")  # fmt: skip
    # same posterior: the last runs of each, on the original scale
    authors, fast = authors_top[-1], fast_top[-1]
    pairs = {k: (authors[k] * (1 if k == "nu" else scale), fast[k]) for k in TOP}
    print("  posterior means, authors' vs package's: "
          + "; ".join(compare(k, a, b) for k, (a, b) in pairs.items()))  # fmt: skip

    spread, spread_results = [], []
    data_seed = args.seed
    while len(spread) < args.datasets:
        data_seed += 1
        other = h_data(data_seed)
        if np.abs(other).max() <= 1:
            wall, _, res = timed_fit(other, data_seed, runner)
            spread.append(wall)
            spread_results.append(res)
    if spread:
        spread_div = sum(r.diagnostics.divergences for r in spread_results)
        spread_rhat = max(max(r.diagnostics.rhat.values()) for r in spread_results)
        nu = [float(np.median(r.nu)) for r in spread_results]
        each = ", ".join(f"{w:.2f} ({v:.1f})" for w, v in sorted(zip(spread, nu, strict=True)))
        print(f"  {len(spread)} further data sets, one package fit each: median wall "
              f"{statistics.median(spread):.2f} s (range {min(spread):.2f}-{max(spread):.2f}), "
              f"divergences {spread_div}, max R-hat {spread_rhat:.4f}")  # fmt: skip
        print(f"             wall (posterior median nu) of each: {each}")


if __name__ == "__main__":
    main()
