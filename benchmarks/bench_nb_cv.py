"""Vectorised naive-Bayes cross-validation vs a per-fold scikit-learn loop.

Times 10 runs x 10 folds of naive Bayes ``C -> F`` on one data set of n = 500 instances
(Corani et al. 2017, App. 6.1), on the same folds and tie-breaking bits, two ways:

* baseline: ``fold_correct_counts_reference`` of ``tests/simulate_reference.py``, which fits
  scikit-learn's ``CategoricalNB`` on every training fold;
* vectorised: :func:`cvcompare.simulate.classifiers.fold_correct_counts`, one
  ``bincount`` for all folds.

Both results are checked to be identical, then the ratio of the best-of-``repeat`` times
is printed. Target: >= 100x.

Usage: ``python benchmarks/bench_nb_cv.py [--repeat 5]``
"""

from __future__ import annotations

import argparse
import sys
import timeit
from pathlib import Path

import numpy as np

from cvcompare.simulate.classifiers import fold_correct_counts
from cvcompare.simulate.cv import stratified_fold_ids
from cvcompare.simulate.generators import nb_features_data

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from simulate_reference import fold_correct_counts_reference  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    gen = np.random.default_rng(2017)
    data = nb_features_data(500, np.array([0.02]), gen)
    fold_ids = stratified_fold_ids(data.y, runs=10, folds=10, rng=gen)
    bits = gen.integers(0, 2, size=fold_ids.shape, dtype=np.int8)
    call = (data.y, data.features, 0, fold_ids, 10, bits)

    fast = fold_correct_counts(*call)
    slow = fold_correct_counts_reference(*call)
    if not (np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1])):
        raise SystemExit("vectorised and reference results differ")

    t_slow = min(
        timeit.repeat(lambda: fold_correct_counts_reference(*call), number=1, repeat=args.repeat)
    )
    number = 200
    t_fast = (
        min(timeit.repeat(lambda: fold_correct_counts(*call), number=number, repeat=args.repeat))
        / number
    )
    print("naive Bayes C -> F, n = 500, 10 x 10 CV (one classifier)")
    print(f"  per-fold CategoricalNB : {t_slow * 1e3:9.3f} ms")
    print(f"  vectorised counts      : {t_fast * 1e3:9.3f} ms")
    print(f"  speed-up               : {t_slow / t_fast:9.1f}x (target >= 100x)")


if __name__ == "__main__":
    main()
