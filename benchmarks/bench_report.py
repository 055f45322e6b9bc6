"""Benchmark: ``cvcompare report`` on the real data, every test and the hierarchical model.

Data: the per-fold accuracies of 5 classifiers on the UCI data sets (54 listed, 53 distinct:
``credit`` is repeated and dropped) x 100 folds (10 runs of 10-fold cross-validation), the
file that Corani et al. (2017) and Corani & Benavoli (2015) analyse. It is not part of the
project: pass its path, or set ``CVCOMPARE_ACCURACIES``; by default it is looked for in
``../shared/data/uci_cv_accuracies.txt`` beside the checkout.

The Stan program is built (or found in the cache) first and not timed: the one-time build
takes minutes. Then the report is timed in phases, each with the same settings as the
command line's defaults (rope 0.01, rho 0.1, 50,000 Monte Carlo draws, 4 chains x
(1000 + 1000) per hierarchical fit, all 10 pairs):

* reading the file;
* all tests but the hierarchical model, for all 10 pairs, and Friedman / Nemenyi;
* the 10 hierarchical fits;
* rendering (figures, HTML, Markdown) and writing.

Target: under 60 s in all. Printed for each phase: wall time and CPU time (of this process
and of the Stan runs; on a shared machine the CPU time is the stabler figure), then the first
lines of the Markdown page.

Usage: ``python benchmarks/bench_report.py [PATH] [--out DIR]``
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np

from cvcompare.hierarchical import ConvergenceWarning, fit_hierarchical
from cvcompare.io import read_accuracies
from cvcompare.report import build_report, compare_learners
from cvcompare.report.analysis import _fit_hierarchical

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = Path(
    os.environ.get(
        "CVCOMPARE_ACCURACIES", ROOT.parent / "shared" / "data" / "uci_cv_accuracies.txt"
    )
)


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the native Stan runs)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--out", type=Path, default=None, help="keep the report here")
    args = parser.parse_args()
    if not args.path.is_file():
        raise SystemExit(
            f"accuracies file not found: {args.path}; pass its path or set "
            "CVCOMPARE_ACCURACIES (the file is docs/code/accuracies.txt of the public "
            "repository janezd/baycomp)"
        )

    # the one-time build (or the cached program), not timed
    warm = 0.02 + 0.04 * np.random.default_rng(0).standard_normal((3, 20))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit_hierarchical(warm, rho=0.1, seed=0, warmup=50, draws=50)

    marks = [(time.perf_counter(), _cpu())]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the repeated data set, dropped
        table = read_accuracies(args.path, as_fraction=True)
    marks.append((time.perf_counter(), _cpu()))
    results = compare_learners(table, hierarchical=False, source=args.path.name)
    marks.append((time.perf_counter(), _cpu()))
    pairs = _fit_hierarchical(results.pairs, results.settings, progress=False)
    results = replace(results, pairs=pairs, settings=replace(results.settings, hierarchical=True))
    marks.append((time.perf_counter(), _cpu()))
    page = build_report(results)
    with tempfile.TemporaryDirectory() as tmp:
        page.write(args.out or tmp)
    marks.append((time.perf_counter(), _cpu()))

    k, q = len(results.learners), len(results.datasets)
    print(
        f"report: {k} learners, {len(results.pairs)} pairs, {q} data sets, "
        f"{results.n_folds} folds, {len(page.figures)} figures; Stan runner "
        f"{pairs[0].hierarchical.runner}; load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )
    names = ("read file", "tests (not Stan)", "hierarchical fits", "figures and pages")
    for name, (w0, c0), (w1, c1) in zip(names, marks[:-1], marks[1:], strict=True):
        print(f"  {name:20s} {w1 - w0:7.2f} s wall  {c1 - c0:7.2f} s CPU")
    wall, cpu = marks[-1][0] - marks[0][0], marks[-1][1] - marks[0][1]
    print(f"  {'total':20s} {wall:7.2f} s wall  {cpu:7.2f} s CPU  (target: < 60 s)")
    print("\n".join(page.markdown.splitlines()[:30]))


if __name__ == "__main__":
    main()
