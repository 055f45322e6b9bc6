"""Command-line interface: ``cvcompare compare`` and ``cvcompare rank``.

``cvcompare compare FILE --a A --b B`` compares two learners cross-validated on several data
sets; ``--all-pairs`` compares every pair. ``cvcompare rank FILE`` runs the Friedman and
Nemenyi tests on all learners and can draw the critical-difference diagram.

FILE is either a tidy CSV (columns ``learner, dataset, fold, score``; see
:func:`cvcompare.io.read_csv_scores`) or, for any other extension, the block format of
baycomp's ``accuracies.txt`` (percentages; see :func:`cvcompare.io.read_accuracies`).

Differences are always ``A - B``: ``p_right``, ``prob_a_better`` and ``alternative="greater"``
speak for A. The tests on data-set means (signed-rank, sign, Bayesian signed-rank, IDP) take
them from :func:`cvcompare.io.mean_differences`, so a mean that is zero in decimal is zero.
``--rho`` defaults to 0.1 (10-fold cross-validation) and must be given when the number of
fold results per data set is not a multiple of 10. Bad input ends the program with a
one-line message naming the argument and exit status 2.

References
----------
Corani & Benavoli (2015), Secs. 2-3 (correlated t-test, Poisson test); Benavoli et al. (2014)
(Bayesian signed-rank tests); Benavoli et al. (2017), Sec. 5 (signed-rank test with rope);
Corani et al. (2017), Sec. 3 (hierarchical model); Demsar (2006), Sec. 3.2.2 (Friedman and
Nemenyi tests).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from cvcompare.hierarchical import fit_hierarchical
from cvcompare.io import (
    fold_differences,
    mean_differences,
    mean_score_matrix,
    read_accuracies,
    read_csv_scores,
)
from cvcompare.seeding import replication_seed_sequence
from cvcompare.stats import (
    bayesian_correlated_ttest,
    bayesian_signed_rank,
    correlated_ttest,
    dp_signed_rank,
    friedman_test,
    idp_signed_rank,
    nemenyi_test,
    poisson_binomial_test,
    sign_test,
    wilcoxon_test,
)

__all__ = ["main"]

Row = dict[str, object]

TESTS = ("correlated-t", "poisson", "signed-rank", "sign", "bayes-signed-rank", "idp-signed-rank")
#: Tests run only when asked for by name (not by ``--test all``): they take minutes.
SLOW_TESTS = ("hierarchical",)


class _ArgumentError(Exception):
    """Bad command-line input: reported as one line with exit status 2."""


class _Parser(argparse.ArgumentParser):
    """Argument parser whose errors become :class:`_ArgumentError` (one line, no usage)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _ArgumentError(message)


def _load(path: str, scale: str, duplicates: str, *, as_fraction: bool = True) -> pd.DataFrame:
    """Read FILE: a tidy CSV (as fractions), or the percent block format otherwise.

    The block format is converted to fractions unless ``as_fraction`` is false (ranks do not
    depend on the unit, and percentages keep ties that are exact in the file).
    """
    if not Path(path).is_file():
        raise _ArgumentError(f"FILE: no such file: {path}")
    if Path(path).suffix.lower() == ".csv":
        try:
            return read_csv_scores(path, scale=scale)
        except ValueError as exc:
            raise _ArgumentError(f"FILE: {exc} (option --scale)") from None
    with warnings.catch_warnings():
        # the choice is the user's --duplicates option, stated in --help
        warnings.simplefilter("ignore", UserWarning)
        return read_accuracies(path, duplicates=duplicates, as_fraction=as_fraction)


def _learners(table: pd.DataFrame) -> list[str]:
    column = "learner" if "learner" in table.columns else "classifier"
    return list(dict.fromkeys(table[column]))


# ----------------------------------------------------------------------------------------
# compare
# ----------------------------------------------------------------------------------------


def _rows_correlated_t(x, datasets, args, rng) -> list[Row]:
    rows = []
    for name, xi in zip(datasets, x, strict=True):
        freq = correlated_ttest(xi, rho=args.rho)
        post = bayesian_correlated_ttest(xi, rho=args.rho, rope=args.rope)
        rows.append(
            {
                "dataset": name,
                "mean": freq.mean,
                "statistic": freq.statistic,
                "pvalue": freq.pvalue,
                "p_left": post.p_left,
                "p_rope": post.p_rope,
                "p_right": post.p_right,
                "decision": post.decision(),
            }
        )
    return rows


def _rows_poisson(x, datasets, args, rng) -> list[Row]:
    res = poisson_binomial_test(x, rho=args.rho, alpha=args.alpha)
    return [
        {
            "prob_a_better": res.prob_majority,
            "prob_b_better": res.prob_majority_negative,
            "decision": "a" if res.decision else "b" if res.decision_negative else "none",
        }
    ]


def _two_sided_rows(test: Callable) -> Callable[..., list[Row]]:
    """Rows of a two-sided frequentist test on the per-data-set mean differences."""

    def rows(x, datasets, args, rng) -> list[Row]:
        res = test(mean_differences(x))
        verdict = "different" if res.pvalue < args.alpha else "none"
        return [{"statistic": res.statistic, "pvalue": res.pvalue, "decision": verdict}]

    return rows


def _rows_bayes_signed_rank(x, datasets, args, rng) -> list[Row]:
    post = bayesian_signed_rank(
        mean_differences(x), rope=args.rope, n_samples=args.n_samples, rng=rng
    )
    return [
        {
            "p_left": post.p_left,
            "p_rope": post.p_rope,
            "p_right": post.p_right,
            "decision": post.decision(),
        }
    ]


def _rows_idp_signed_rank(x, datasets, args, rng) -> list[Row]:
    means = mean_differences(x)
    # the same seed sequence for both: common random numbers, lower <= dp <= upper
    dp = dp_signed_rank(means, n_samples=args.n_samples, rng=rng)
    idp = idp_signed_rank(means, n_samples=args.n_samples, rng=rng)
    return [
        {
            "prob_a_better": dp.prob_greater,
            "lower_prob_a_better": idp.lower_prob,
            "upper_prob_a_better": idp.upper_prob,
            # prefer_y / prefer_x of Benavoli et al. (2014): A / B, for equal losses
            "decision": {"prefer_y": "a", "prefer_x": "b"}.get(idp.decide(), "indeterminate"),
        }
    ]


def _rows_hierarchical(x, datasets, args, rng) -> list[Row]:
    res = fit_hierarchical(x, rho=args.rho, rope=args.rope, seed=rng)
    return [
        {
            "p_left": res.p_left,
            "p_rope": res.p_rope,
            "p_right": res.p_right,
            "decision": res.decision(),
            "runner": res.runner,
            "runner_version": res.runner_version,
            "n_noisy_datasets": len(res.noisy),
        }
    ]


_RUNNERS: dict[str, Callable[..., list[Row]]] = {
    "correlated-t": _rows_correlated_t,
    "poisson": _rows_poisson,
    "signed-rank": _two_sided_rows(wilcoxon_test),
    "sign": _two_sided_rows(sign_test),
    "bayes-signed-rank": _rows_bayes_signed_rank,
    "idp-signed-rank": _rows_idp_signed_rank,
    "hierarchical": _rows_hierarchical,
}


#: Tests whose result depends on the correlation ``rho`` of the cross-validation.
_RHO_TESTS = frozenset({"correlated-t", "poisson", "hierarchical"})
_DEFAULT_RHO = 0.1


def _check_default_rho(args: argparse.Namespace, n_folds: int, tests: Sequence[str]) -> None:
    """Use rho = 0.1 when --rho is not given, unless the folds cannot be 10-fold CV.

    ``m`` runs of 10-fold cross-validation give a multiple of 10 fold results per data set;
    any other count means another design, whose ``rho`` the user has to state.
    """
    if args.rho_given:
        return
    if _RHO_TESTS.intersection(tests) and n_folds % round(1 / _DEFAULT_RHO):
        raise _ArgumentError(
            f"--rho: the default {_DEFAULT_RHO} assumes 10-fold cross-validation, but the data "
            f"sets have {n_folds} fold results each; pass --rho n_test/n_total (1/k for "
            "k-fold cross-validation)"
        )
    args.rho = _DEFAULT_RHO


def _compare(args: argparse.Namespace) -> list[Row]:
    table = _load(args.file, args.scale, args.duplicates)
    learners = _learners(table)
    if args.all_pairs:
        if args.a is not None or args.b is not None:
            raise _ArgumentError("--all-pairs: do not combine with --a/--b")
        pairs = list(itertools.combinations(learners, 2))
    else:
        if args.a is None or args.b is None:
            raise _ArgumentError("--a/--b: name two learners (or pass --all-pairs)")
        pairs = [(args.a, args.b)]
    for name, value in (("--a", args.a), ("--b", args.b)):
        if value is not None and value not in learners:
            raise _ArgumentError(f"{name}: unknown learner {value!r}; FILE has {learners}")
    if args.a is not None and args.a == args.b:
        raise _ArgumentError(f"--a/--b: expected two different learners, got {args.a!r} twice")
    tests = TESTS if args.test == "all" else (args.test,)
    args.rho_given = args.rho is not None
    rows: list[Row] = []
    show = not args.quiet and sys.stderr.isatty()
    with tqdm(
        total=len(pairs) * len(tests), desc="comparisons", disable=not show, file=sys.stderr
    ) as bar:
        for a, b in pairs:
            x, datasets = fold_differences(table, a, b)
            _check_default_rho(args, x.shape[1], tests)
            for test in tests:
                # one seed sequence per comparison: results do not depend on the other pairs
                seed = replication_seed_sequence(args.seed, "cvcompare-compare", a, b, test)
                for row in _RUNNERS[test](x, datasets, args, seed):
                    rows.append({"a": a, "b": b, "test": test, "n_datasets": len(datasets)} | row)
                bar.update()
    return rows


# ----------------------------------------------------------------------------------------
# rank
# ----------------------------------------------------------------------------------------


def _rank(args: argparse.Namespace) -> list[Row]:
    table = _load(args.file, args.scale, args.duplicates, as_fraction=False)
    scores, datasets, learners = mean_score_matrix(table)
    fried = friedman_test(scores, alpha=args.alpha)
    nem = nemenyi_test(scores, alpha=args.alpha)
    if args.cd_diagram is not None:
        from cvcompare.plots.cd_diagram import plot_cd_diagram

        ax = plot_cd_diagram(nem.avg_ranks, learners, nem.cd)
        ax.figure.savefig(args.cd_diagram)
    rows: list[Row] = [
        {"learner": name, "avg_rank": float(r)}
        for name, r in zip(learners, nem.avg_ranks, strict=True)
    ]
    rows.append(
        {
            "friedman_chi2": fried.statistic,
            "friedman_pvalue": fried.pvalue,
            "iman_davenport_f": fried.ff_statistic,
            "iman_davenport_pvalue": fried.ff_pvalue,
            "nemenyi_cd": nem.cd,
            "alpha": args.alpha,
            "n_datasets": len(datasets),
        }
    )
    return rows


# ----------------------------------------------------------------------------------------
# output and argument parsing
# ----------------------------------------------------------------------------------------


def _json_value(v: object) -> object:
    if isinstance(v, (float, np.floating)):
        return float(v) if math.isfinite(v) else str(float(v))
    if isinstance(v, np.integer):
        return int(v)
    return v


def _write(rows: list[Row], fmt: str) -> None:
    if fmt == "json":
        print(json.dumps([{k: _json_value(v) for k, v in r.items()} for r in rows], indent=2))
    elif fmt == "csv":
        pd.DataFrame(rows).to_csv(sys.stdout, index=False)
    else:
        for r in rows:
            print(
                "  ".join(
                    f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items()
                )
            )


def _natural(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def _rope(text: str) -> tuple[float, float]:
    try:
        half = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a half-width such as 0.01, got {text!r}"
        ) from None
    if not (math.isfinite(half) and half >= 0):
        raise argparse.ArgumentTypeError(f"expected a non-negative half-width, got {text!r}")
    return (-half, half)


def _build_parser() -> _Parser:
    parser = _Parser(prog="cvcompare", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    common = _Parser(add_help=False)
    common.add_argument(
        "file",
        metavar="FILE",
        help="tidy CSV (learner,dataset,fold,score) or accuracies.txt block format",
    )
    common.add_argument(
        "--scale",
        choices=("fraction", "percent"),
        default="fraction",
        help="scale of the scores in a CSV file (the block format is always percent)",
    )
    common.add_argument(
        "--duplicates",
        choices=("drop", "keep", "error"),
        default="drop",
        help="repeated identical data sets in the block format: drop (default), keep, error",
    )
    common.add_argument(
        "--alpha", type=_positive_float, default=0.05, help="size of the frequentist tests (0.05)"
    )
    common.add_argument(
        "--format", choices=("text", "json", "csv"), default="text", help="output format"
    )

    cmp_ = sub.add_parser("compare", parents=[common], help="compare two learners (or all pairs)")
    cmp_.add_argument("--a", help="first learner (differences are a - b)")
    cmp_.add_argument("--b", help="second learner")
    cmp_.add_argument("--all-pairs", action="store_true", help="compare every pair of learners")
    cmp_.add_argument(
        "--test",
        choices=(*TESTS, *SLOW_TESTS, "all"),
        default="all",
        help="which test; 'all' runs every test but the hierarchical model (Stan, minutes)",
    )
    cmp_.add_argument(
        "--rope", type=_rope, default=(-0.01, 0.01), help="rope half-width, fraction scale (0.01)"
    )
    cmp_.add_argument(
        "--rho",
        type=float,
        default=None,
        help="correlation n_test/n_total of the cross-validation (default 0.1, i.e. 10 folds; "
        "required when the number of fold results is not a multiple of 10)",
    )
    cmp_.add_argument(
        "--seed", type=_natural, default=0, help="root seed of the Monte Carlo tests (0)"
    )
    cmp_.add_argument(
        "--n-samples", type=_natural, default=50_000, help="Monte Carlo draws (50000)"
    )
    cmp_.add_argument("--quiet", action="store_true", help="no progress bar")
    cmp_.set_defaults(run=_compare)

    rank = sub.add_parser(
        "rank", parents=[common], help="Friedman and Nemenyi tests on all learners"
    )
    rank.add_argument(
        "--cd-diagram", metavar="OUT", help="save the critical-difference diagram (PNG, PDF, ...)"
    )
    rank.set_defaults(run=_rank)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cvcompare`` command line.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        Exit status: 0 on success, 2 on bad input (with a one-line message on stderr).
    """
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
        rows = args.run(args)
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    except (_ArgumentError, ValueError, TypeError, OSError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"cvcompare: error: {message}", file=sys.stderr)
        return 2
    _write(rows, args.format)
    return 0
