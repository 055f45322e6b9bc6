"""Command-line interface: cvcompare compare, cvcompare rank and cvcompare report.

cvcompare compare FILE --a A --b B compares two learners cross-validated on several data
sets; --all-pairs compares every pair. cvcompare rank FILE runs the Friedman and Nemenyi
tests on all learners (or those of --learners), lists the significantly different pairs and
can draw the critical-difference diagram. cvcompare report FILE -o DIR writes every test,
with plots and decisions in words, as one HTML page and a Markdown twin.

FILE is either a tidy CSV (columns learner, dataset, fold, score; a name ending in .csv, or
in .csv.gz, .csv.bz2, .csv.xz or .csv.zip, compressed) or, for any other name, the block
format of baycomp's accuracies.txt (percentages). --scale is for a CSV (the block format
takes only --scale percent) and --duplicates for the block format; given for the other
format, either is an error.

Differences are always first learner minus second (A - B), oriented so that a positive
difference favours the first learner (with --lower-is-better the scores are losses and the
difference is B - A in the raw scores). "right" means that the first learner is better,
"rope" that the two are practically equivalent, "left" that the second is better (--a B
--b A gives the Monte Carlo tests' probabilities of --a A --b B mirrored: their draws are
keyed by the pair, not its order). A
Bayesian test decides when one of them has a posterior probability above 0.95; the IDP test
decides for a learner (a or b) only where every prior of its set does so, says "none" where
no prior does and "indeterminate" where the priors disagree. The signed-rank and sign tests
are two-sided; they decide where p < --alpha, for the learner their statistic favours
(column favours: the larger rank sum, the more wins). --rho
defaults to 0.1 (10-fold cross-validation; compare notes it on stderr and prints it in the
rows of the tests that use it) and must be given when the number of fold results per data
set is not a multiple of 10. With --all-pairs, the p-values of the signed-rank and sign
tests are Holm-adjusted over the pairs (pvalue_holm) and decide. The rows of these two
tests count the data sets without a difference (n_zero), which the tests leave out (or, with
--zero-method split, share between the two learners, as Demsar 2006 advises: half their
ranks to each rank sum, half of them to each learner's wins). Notes on
stderr say where the data sets leave them no p-value below --alpha, and where a Bayesian
signed-rank or sign test decides on fewer than 10 data sets. --rope is in accuracy as a fraction
(0.01: one point); with --scale raw it must be given, in the scores' unit. --rho 0 (folds
taken as independent) gets a note, and --n-samples below 2500 (a Monte Carlo standard error
above 0.01) a warning. The hierarchical model's
rows carry its sampler's diagnostics (diag_ok, rhat_max, ess_min, divergences); a fit that
fails them is also named in a warning on stderr. Bad input ends the program with a
one-line message naming the option or column and exit status 2.

References: Corani & Benavoli (2015), Secs. 2-3 (correlated t-test, Poisson test); Benavoli
et al. (2014) (Bayesian signed-rank tests); Benavoli et al. (2017), Sec. 5 (signed-rank and
sign tests with rope); Corani et al. (2017), Sec. 3 (hierarchical model); Demsar (2006),
Sec. 3.2.2 (Friedman and Nemenyi tests).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import math
import os
import re
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

from cvcompare._validation import (
    DEFAULT_RHO,
    check_rho,
    check_rope,
    check_scaled_rope,
    check_test_size,
)
from cvcompare.io import (
    COMPRESSIONS,
    HEADER_SEPARATORS,
    fold_differences,
    header_separator,
    mean_differences,
    mean_score_matrix,
    read_accuracies,
    read_csv_scores,
    select_learners,
)
from cvcompare.io import (
    learners as io_learners,
)
from cvcompare.report import build_report, compare_learners
from cvcompare.report.analysis import (
    TESTS as ANALYSIS_TESTS,
)
from cvcompare.report.analysis import (
    Settings,
    correlated_t_tallies,
    difference_scale,
    favoured,
    holm_floor,
    idp_verdict,
    pair_sizes,
    poisson_verdict,
    run_test,
    two_sided_verdict,
    typical_size_range,
)
from cvcompare.report.sentences import (
    DIRICHLET_MASS,
    FEW_DATASETS,
    NOISE_FROM_ROPE,
    scale_spread_note,
    smallest_p_clause,
)
from cvcompare.stats import (
    friedman_test,
    holm_adjust,
    nemenyi_test,
)

__all__ = ["main"]

Row = dict[str, object]

#: Tests run only when asked for by name (not by ``--test all``): Stan, whose first use on a
#: machine builds the model (minutes), then about a second per pair.
SLOW_TESTS = ("hierarchical",)
#: The tests of ``--test all``: every test of a pair (:data:`ANALYSIS_TESTS`) but the slow.
TESTS = tuple(t for t in ANALYSIS_TESTS if t not in SLOW_TESTS)
#: Posterior probability above which the Bayesian tests decide (Benavoli et al. 2017).
_THRESHOLD = 0.95


class _ArgumentError(Exception):
    """Bad command-line input: reported as one line with exit status 2."""


class _Parser(argparse.ArgumentParser):
    """Argument parser whose errors become :class:`_ArgumentError` (one line, no usage), and
    which takes no abbreviated option (``rank --a A`` would be read as ``--alpha A``)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _ArgumentError(message)


def _csv_hint(path: str) -> str:
    """A hint for a file read in the block format whose first line is a tidy table's header
    (``learner,dataset,fold,score``, or the same separated by tabs or semicolons), else
    nothing."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        sep = header_separator(handle.readline())
    if sep is None:
        return ""
    if sep == ",":
        return (
            "; FILE looks like a tidy CSV, which is read as one only under a name ending in "
            ".csv (any other name is read in the block format of accuracies.txt)"
        )
    return (
        f"; FILE looks like a table of scores separated by {HEADER_SEPARATORS[sep]}: save it "
        "separated by commas under a name ending in .csv, as a tidy CSV (any other name is "
        "read in the block format of accuracies.txt)"
    )


def _csv_ending(path: str) -> str:
    """The ending that makes FILE a tidy CSV: ``.csv``, or ``.csv`` and a compression's
    extension (``.csv.gz``...); empty for a file read in the block format."""
    suffixes = Path(path).suffixes[-2:]
    lower = [s.lower() for s in suffixes]
    if lower[-1:] == [".csv"]:
        return suffixes[-1]
    if lower[:1] == [".csv"] and lower[-1] in COMPRESSIONS:
        return "".join(suffixes)
    return ""


def _load(args: argparse.Namespace, *, as_fraction: bool = True) -> pd.DataFrame:
    """Read FILE: a tidy CSV (as fractions), or the percent block format otherwise.

    The options that read FILE are checked against its format and set to what they are for
    it: ``args.scale`` (a CSV's, fraction unless given; percent for the block format, which
    takes ``--scale percent`` only), ``args.duplicates`` (the block format's, drop unless
    given; a CSV refuses it) and ``args.reading``, the options that apply, as a command line
    repeats them. The block format is converted to fractions unless ``as_fraction`` is false
    (ranks do not depend on the unit, and percentages keep ties that are exact in the file).
    """
    path = args.file
    if not Path(path).is_file():
        raise _ArgumentError(f"FILE: no such file: {path}")
    if ending := _csv_ending(path):
        if args.duplicates is not None:
            raise _ArgumentError(
                f"--duplicates {args.duplicates}: FILE is a tidy CSV (its name ends in {ending}); "
                "--duplicates applies to the repeated data sets of the block format of "
                "accuracies.txt"
            )
        args.scale = args.scale or "fraction"
        args.reading = ("--scale", args.scale)
        try:
            return read_csv_scores(path, scale=args.scale)
        except ValueError as exc:
            raise _ArgumentError(f"FILE: {_user_names(str(exc))}") from None
    if args.scale not in (None, "percent"):
        raise _ArgumentError(
            f"--scale {args.scale}: the block format holds accuracies in percent (FILE's name "
            "does not end in .csv); --scale applies to the scores of a tidy CSV"
            f"{_csv_hint(path)}"
        )
    args.scale, args.duplicates = "percent", args.duplicates or "drop"
    args.reading = ("--duplicates", args.duplicates)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        try:
            table = read_accuracies(path, duplicates=args.duplicates, as_fraction=as_fraction)
        except ValueError as exc:
            raise _ArgumentError(f"{exc}{_csv_hint(path)}") from None
    for warning in caught:  # the reader's notes (a repeated data set dropped) in its words
        if issubclass(warning.category, UserWarning):
            print(f"cvcompare: note: {_user_names(str(warning.message))}", file=sys.stderr)
        else:
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )
    return table


def _pair(table: pd.DataFrame, a: str, b: str, args: argparse.Namespace):
    """Fold differences of a pair; unpaired folds are reported against FILE."""
    try:
        return fold_differences(
            table, a, b, higher_is_better=args.higher_is_better, scale=difference_scale(args.scale)
        )
    except ValueError as exc:
        raise _ArgumentError(f"FILE: {str(exc).split(': ', 1)[-1]}") from None


def _settings(args: argparse.Namespace) -> Settings:
    """The library's settings of a comparison from the command line's options."""
    return Settings(
        rho=args.rho,
        rope=args.rope,
        alpha=args.alpha,
        threshold=_THRESHOLD,
        seed=args.seed,
        n_samples=args.n_samples,
        scale=difference_scale(args.scale),  # the readers return fractions
        higher_is_better=args.higher_is_better,
        zero_method=args.zero_method,
    )


# ----------------------------------------------------------------------------------------
# compare
# ----------------------------------------------------------------------------------------


def _rows_correlated_t(res, datasets, args) -> list[Row]:
    """One row per data set, then a summary row over the data sets."""
    summary = {"dataset": "(all data sets)"} | correlated_t_tallies(res, _THRESHOLD, args.alpha)
    return [
        {
            "dataset": name,
            "mean": freq.mean,
            "statistic": freq.statistic,
            "pvalue": freq.pvalue,
            "p_left": post.p_left,
            "p_rope": post.p_rope,
            "p_right": post.p_right,
            "decision": post.decision(_THRESHOLD),
        }
        for name, (freq, post) in zip(datasets, res, strict=True)
    ] + [summary]


#: The report's verdicts (``"first"``, ``"second"``) in the command line's words.
_LETTERS = {"first": "a", "second": "b"}


def _letter(verdict: str) -> str:
    """A verdict of the report in the command line's words: ``a`` or ``b`` for the learner
    declared better, other verdicts (``none``, ``neither``, ``indeterminate``) as they are."""
    return _LETTERS.get(verdict, verdict)


def _rows_poisson(res, datasets, args) -> list[Row]:
    return [
        {
            "prob_a_better": res.prob_majority,
            "prob_b_better": res.prob_majority_negative,
            "decision": _letter(poisson_verdict(res)),
        }
    ]


def _rows_two_sided(res, datasets, args) -> list[Row]:
    """Rows of a two-sided frequentist test on the per-data-set mean differences: the
    learner its statistic favours (``side``: the larger rank sum, the more wins), the
    decision for it where ``p < alpha``, and the data sets without a difference (``n_zero``,
    left out of the test by its ``zero_method``)."""
    return [
        {
            "statistic": res.statistic,
            "pvalue": res.pvalue,
            "favours": (favours := _letter(favoured(res.side))),
            "decision": two_sided_verdict(favours, res.pvalue, args.alpha),
            "n_zero": res.n_zero,
            "zero_method": args.zero_method,
        }
    ]


def _rows_bayes(res, datasets, args) -> list[Row]:
    """The probabilities and the decision; the sign test's counts, and the Monte Carlo
    standard errors of the probabilities where the test estimates them (``p_left_se``...:
    the signed-rank test's draws, the hierarchical model's posterior sampling)."""
    counts = getattr(res, "counts", None)
    extra = (
        {} if counts is None else dict(zip(("n_left", "n_rope", "n_right"), counts, strict=True))
    )
    row = extra | {
        "p_left": res.p_left,
        "p_rope": res.p_rope,
        "p_right": res.p_right,
        "decision": res.decision(),
    }
    if hasattr(res, "probs_se"):
        row |= dict(zip(("p_left_se", "p_rope_se", "p_right_se"), res.probs_se(), strict=True))
    return [row]


def _rows_idp_signed_rank(res, datasets, args) -> list[Row]:
    """The DP's probabilities and the IDP's bounds, each with its Monte Carlo standard error
    (``..._se``), and the IDP's decision."""
    dp, idp = res
    return [
        {
            "prob_a_better": dp.prob_greater,
            "prob_b_better": dp.prob_less,
            "lower_prob_a_better": idp.lower_prob,
            "upper_prob_a_better": idp.upper_prob,
            "prob_a_better_se": dp.mc_se,
            "prob_b_better_se": dp.prob_less_se,
            "lower_prob_a_better_se": idp.lower_mc_se,
            "upper_prob_a_better_se": idp.upper_mc_se,
            "decision": _letter(idp_verdict(idp, _THRESHOLD)),
        }
    ]


def _rows_hierarchical(res, datasets, args) -> list[Row]:
    """The probabilities with their posterior-sampling standard errors (``p_left_se``...),
    the decision, the sampler's diagnostics (``diag_ok``, ``rhat_max``, ``ess_min``,
    ``divergences``: :meth:`.HierarchicalDiagnostics.columns`), the refit where the first
    fit failed them (``refits``, ``remedy``: :func:`cvcompare.hierarchical.fit_with_remedy`),
    the runner, and the data sets without variance that got noise from the rope."""
    fit, record = res
    (row,) = _rows_bayes(fit, datasets, args)
    return [
        row
        | fit.diagnostics.columns()
        | {
            "refits": record.attempts - 1,
            "remedy": record.remedy,
            "runner": fit.runner,
            "runner_version": fit.runner_version,
            "n_noisy_datasets": len(fit.noisy),
        }
    ]


_ROWS: dict[str, Callable[..., list[Row]]] = {
    "correlated-t": _rows_correlated_t,
    "poisson": _rows_poisson,
    "signed-rank": _rows_two_sided,
    "sign": _rows_two_sided,
    "bayes-signed-rank": _rows_bayes,
    "bayes-sign": _rows_bayes,
    "idp-signed-rank": _rows_idp_signed_rank,
    "hierarchical": _rows_hierarchical,
}


#: Tests whose result depends on the correlation ``rho`` of the cross-validation.
_RHO_TESTS = frozenset({"correlated-t", "poisson", "hierarchical"})
#: Tests with a region of practical equivalence.
_ROPE_TESTS = frozenset({"correlated-t", "bayes-signed-rank", "bayes-sign", "hierarchical"})
#: A rope end beyond which a rope for percentages (a fraction all the same) gets a note: ten
#: points of accuracy, wider than any equivalence a comparison of learners means (an end of
#: 1 or more is refused).
_WIDE_ROPE = 0.1
#: Tests whose probabilities are shares of ``--n-samples`` Monte Carlo draws.
_DRAWN_TESTS = frozenset({"bayes-signed-rank", "idp-signed-rank"})
#: The largest Monte Carlo standard error of a probability taken without a warning.
_MC_SE = 0.01


def _check_settings(args: argparse.Namespace, tests: Sequence[str]) -> None:
    """Settings that the tests ``tests`` would take silently but that a user should know of.

    ``--rope`` must be given with ``--scale raw`` where a test has a rope (its default,
    one point of accuracy, means nothing for other scores); otherwise it is one point
    (``args.rope`` set). A rope of :data:`_WIDE_ROPE` or more for percentages gets a note
    (it is a fraction: 0.5 is 50 points, not half a point). ``--rho 0`` gets a note (the
    folds treated as independent), and too few ``--n-samples`` for the Monte Carlo tests a
    warning: a share of ``n`` draws has a standard error of at most ``1 / (2 sqrt(n))``,
    above :data:`_MC_SE` below 2,500 draws.
    """
    roped = sorted(_ROPE_TESTS.intersection(tests))
    if args.rope is None:
        try:  # the library's default, which raw scores have not where a test has a rope
            args.rope = check_scaled_rope(None, args.scale if roped else "fraction")
        except ValueError:
            raise _ArgumentError(
                f"--rope: with --scale raw, give the region of practical equivalence in the "
                f"scores' unit (for {', '.join(roped)}); the default, 0.01, is one point of "
                "accuracy as a fraction"
            ) from None
    low, high = args.rope
    if args.scale == "percent" and roped and _WIDE_ROPE < max(-low, high) < 1:
        meant = f"{high / 100:g}" if low == -high else f"={low / 100:g},{high / 100:g}"
        print(
            f"cvcompare: note: --rope is a fraction of accuracy also for percentages: "
            f"({low:g}, {high:g}) is ({100 * low:g}, {100 * high:g}) points; for "
            f"({low:g}, {high:g}) points give --rope{' ' if low == -high else ''}{meant}",
            file=sys.stderr,
        )
    if args.rho == 0 and _RHO_TESTS.intersection(tests):
        print(
            "cvcompare: note: --rho 0 treats the fold results as independent; the overlapping "
            "training sets of cross-validation correlate them, and the t-tests then find "
            "differences far too often (Nadeau & Bengio 2003; rho = 1/k for k-fold)",
            file=sys.stderr,
        )
    drawn = sorted(_DRAWN_TESTS.intersection(tests))
    worst = 1 / (2 * math.sqrt(args.n_samples))
    if drawn and worst > _MC_SE:
        _warning_line(
            f"--n-samples {args.n_samples}: the probabilities of {', '.join(drawn)} are shares "
            f"of {args.n_samples} Monte Carlo draws, with a standard error up to {worst:.5g}; "
            f"give at least {math.ceil(1 / (2 * _MC_SE) ** 2)} draws for {_MC_SE:g}"
        )


def _check_default_rho(args: argparse.Namespace, n_folds: int, tests: Sequence[str]) -> None:
    """Use rho = 0.1 when --rho is not given, unless the folds cannot be 10-fold CV
    (:func:`cvcompare._validation.check_rho`) and a test depends on rho; then remember the
    note that says so (``args.rho_note``)."""
    if args.rho_given:
        return
    if not _RHO_TESTS.intersection(tests):
        args.rho = DEFAULT_RHO
        return
    args.rho = check_rho(None, n_folds)
    args.rho_note = _assumed_rho_note(n_folds)


def _assumed_rho_note(n_folds: int) -> str:
    """The note that rho = 0.1 was assumed for ``n_folds`` fold results per data set."""
    return (
        f"--rho not given: rho = {DEFAULT_RHO} assumed, for runs of 10-fold cross-validation "
        f"({n_folds} fold results per data set); give --rho n_test/n_total otherwise (1/k "
        "for k-fold, e.g. 0.5 for 5 x 2-fold)"
    )


def _tests_for(tests: Sequence[str], q: int) -> list[str]:
    """The tests that can run on ``q`` data sets: on one, only the correlated t-test (a
    note says so)."""
    if q >= 2:
        return list(tests)
    if "correlated-t" not in tests:
        raise _ArgumentError(
            f"--test: {tests[0]} compares learners across data sets and FILE has one data "
            "set; use --test correlated-t"
        )
    if len(tests) > 1:
        print(
            "cvcompare: note: FILE has one data set: running the correlated t-test only (the "
            "other tests compare learners across data sets)",
            file=sys.stderr,
        )
    return ["correlated-t"]


#: The two-sided tests whose p-values are Holm-adjusted over the pairs, by their names in
#: ``--test`` and in :func:`cvcompare.report.analysis.holm_floor`.
_HOLM_TESTS = {"signed-rank": "wilcoxon", "sign": "sign"}
#: The Bayesian tests whose posterior knows only the data sets observed (a Dirichlet process).
_DIRICHLET_TESTS = ("bayes-signed-rank", "bayes-sign")
#: The tests that weigh the data sets by the size of their differences (ranks, a rope).
_SIZE_TESTS = {"signed-rank", "bayes-signed-rank", "bayes-sign", "idp-signed-rank", "hierarchical"}


def _rank_test_notes(rows: list[Row], means: list[np.ndarray], args) -> list[str]:
    """What the report's decisions section says of the tests across data sets, as notes:
    a signed-rank or sign test that cannot reach ``--alpha`` on these data sets
    (Holm-adjusted over the pairs where there are several), and a decision of a Bayesian
    signed-rank or sign test on fewer than :data:`cvcompare.report.sentences.FEW_DATASETS`
    data sets."""
    notes, ran, alpha = [], {row["test"] for row in rows}, args.alpha
    for test in (t for t in _HOLM_TESTS if t in ran):
        if (floor := holm_floor(_HOLM_TESTS[test], means, args.zero_method)) >= alpha:
            notes.append(
                f"{test}: no significant difference can be found at {alpha:g} on these data "
                f"sets: the smallest p-value they allow {smallest_p_clause(len(means))} is "
                f"{floor:.3g}"
            )
    q = len(means[0])
    decided = [
        t for t in _DIRICHLET_TESTS if any(r["test"] == t and r["decision"] != "none" for r in rows)
    ]
    if decided and q < FEW_DATASETS:
        notes.append(f"{' and '.join(decided)}: decided on only {q} data sets; {DIRICHLET_MASS}")
    return notes


def _compare(args: argparse.Namespace) -> list[Row]:
    table = _load(args)
    learners = io_learners(table)
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
    tests = _tests_for(tests, table["dataset"].nunique())
    _check_settings(args, tests)
    args.rho_given, args.rho_note = args.rho is not None, ""
    rows: list[Row] = []
    means: list[np.ndarray] = []  # of each pair, for the notes on the rank tests
    noisy_pairs: list[str] = []  # the hierarchical fits' data sets given noise, by pair
    show = not args.quiet and sys.stderr.isatty()
    with tqdm(
        total=len(pairs) * len(tests), desc="comparisons", disable=not show, file=sys.stderr
    ) as bar:
        for a, b in pairs:
            x, datasets = _pair(table, a, b, args)
            _check_default_rho(args, x.shape[1], tests)
            sizes = pair_sizes(table, a, b, datasets, difference_scale(args.scale))
            means.append(mean_differences(x, score_size=sizes))
            for test in tests:
                # one seed sequence per comparison: results do not depend on the other pairs
                with warnings.catch_warnings(record=True) as caught:
                    res = run_test(test, x, sizes, _settings(args), a, b)
                for caught_warning in caught:  # e.g. a fit that failed its diagnostics
                    _warning_line(
                        f"{a} vs {b} ({test}): {_user_names(str(caught_warning.message))}"
                    )
                if test == "hierarchical" and (noisy := res[0].noisy):
                    noisy_pairs.append(f"{a} vs {b}: {', '.join(datasets[i] for i in noisy)}")
                rho = {"rho": args.rho} if test in _RHO_TESTS else {}
                for row in _ROWS[test](res, datasets, args):
                    rows.append(
                        {"a": a, "b": b, "test": test, "n_datasets": len(datasets)} | rho | row
                    )
                bar.update()
    if args.rho_note:  # once, after every comparison ran
        print(f"cvcompare: note: {args.rho_note}", file=sys.stderr)
    if noisy_pairs:  # one note for every pair, as the report's pair lines say it
        print(
            "cvcompare: note: hierarchical: data sets with all fold differences equal "
            f"{NOISE_FROM_ROPE} these fits depend on the rope (compare with another --rope): "
            f"{'; '.join(noisy_pairs)}",
            file=sys.stderr,
        )
    for note in _rank_test_notes(rows, means, args):
        print(f"cvcompare: note: {note}", file=sys.stderr)
    if args.scale == "raw" and _SIZE_TESTS.intersection(tests) and len(means[0]) >= 2:
        rope = args.rope if _ROPE_TESTS.intersection(tests) else None
        compared = table[table["learner"].isin({name for pair in pairs for name in pair})]
        if (scales := typical_size_range(compared)) and (note := scale_spread_note(*scales, rope)):
            print(f"cvcompare: note: {note}", file=sys.stderr)
    return _holm_over_pairs(rows, args.alpha) if args.all_pairs else rows


def _holm_over_pairs(rows: list[Row], alpha: float) -> list[Row]:
    """The rows of the two-sided tests (signed-rank, sign) with their p-values
    Holm-adjusted over the pairs compared (``pvalue_holm``), and decisions taken on them
    (Demsar 2006, Sec. 3.2.2; Holm 1979), as the report does."""
    for test in _HOLM_TESTS:
        family = [row for row in rows if row["test"] == test]
        if not family:
            continue
        adjusted = holm_adjust([row["pvalue"] for row in family])
        for row, holm in zip(family, adjusted, strict=True):
            row["pvalue_holm"] = float(holm)
            row["decision"] = two_sided_verdict(row["favours"], holm, alpha)
    return rows


# ----------------------------------------------------------------------------------------
# rank
# ----------------------------------------------------------------------------------------


def _rank(args: argparse.Namespace) -> list[Row]:
    table = _load(args, as_fraction=False)
    if args.learners is None and len(found := io_learners(table)) < 2:
        raise _ArgumentError(f"FILE: ranking needs at least two learners, found {found}")
    table, learners = select_learners(table, args.learners)
    scores, datasets, _ = mean_score_matrix(table, learners)  # the folds must be paired
    if len(datasets) < 2:
        raise _ArgumentError(
            f"FILE: ranking needs at least two data sets, found {len(datasets)} ({datasets[0]})"
        )
    hib = args.higher_is_better
    scores = pd.DataFrame(scores, index=datasets, columns=learners)
    fried = friedman_test(
        scores, alpha=args.alpha, higher_is_better=hib, tie_correction=args.tie_correction
    )
    nem = nemenyi_test(scores, alpha=args.alpha, higher_is_better=hib)
    if args.cd_diagram is not None:
        ax = nem.plot()
        try:
            ax.figure.savefig(args.cd_diagram)
        except (OSError, ValueError) as exc:  # ValueError: a format matplotlib cannot write
            raise _ArgumentError(f"--cd-diagram: cannot write {args.cd_diagram}: {exc}") from None
    rows: list[Row] = [
        {"learner": name, "avg_rank": float(r)}
        for name, r in zip(learners, nem.avg_ranks, strict=True)
    ]
    rows.append(
        {
            "friedman_chi2": fried.statistic,
            "friedman_pvalue": fried.pvalue,
            "tie_correction": fried.tie_correction,
            "iman_davenport_f": fried.ff_statistic,
            "iman_davenport_pvalue": fried.ff_pvalue,
            "exact_pvalue": fried.exact_pvalue,
            "exact_pvalue_floor": fried.exact_floor,
            "nemenyi_cd": nem.cd,
            "alpha": args.alpha,
            "n_datasets": len(datasets),
        }
    )
    k = len(learners)
    different = [
        {
            "significantly_different": f"{learners[i]} vs {learners[j]}",
            "rank_difference": float(abs(nem.rank_differences[i, j])),
            "better": learners[i] if nem.rank_differences[i, j] < 0 else learners[j],
        }
        for i in range(k)
        for j in range(i + 1, k)
        if nem.significant[i, j]
    ]
    if fried.exact_floor >= args.alpha:
        print(
            f"cvcompare: note: on {len(datasets)} data sets no outcome has an exact p-value "
            f"below {fried.exact_floor:.3g} (exact_pvalue_floor): none can be significant at "
            f"{args.alpha:g}, whatever the Friedman and Iman-Davenport p-values and "
            "Nemenyi's critical difference, which are large-sample approximations",
            file=sys.stderr,
        )
    if different and not fried.rejects(args.alpha):
        # the post-hoc test follows only where the test of all learners rejects
        print(
            f"cvcompare: note: the learners do not differ at {args.alpha:g} (by the exact "
            "p-value where given, else Iman-Davenport's): the Nemenyi test does not look at "
            f"pairs then, and the {len(different)} pair(s) beyond CD are not listed",
            file=sys.stderr,
        )
        different = []
    return rows + (different or [{"significantly_different": "none"}])


# ----------------------------------------------------------------------------------------
# report
# ----------------------------------------------------------------------------------------


def _report(args: argparse.Namespace) -> list[Row]:
    out = Path(args.output)
    # checked before the tests run (the hierarchical fits take minutes), then when writing
    if not args.output:
        raise _ArgumentError("-o: expected the name of a directory for the report, got ''")
    if out.exists() and not out.is_dir():
        raise _ArgumentError(f"-o: {out} is a file; expected a directory for the report")
    table = _load(args)
    if table["dataset"].nunique() < 2:  # the tests across data sets do not run
        _check_settings(args, ["correlated-t"])
    else:
        _check_settings(args, [*TESTS, *(() if args.no_hierarchical else SLOW_TESTS)])
    # compare_learners checks the learners, their folds and the default rho, in the
    # library's words, which main turns into the options' and FILE's
    results = compare_learners(
        table,
        learners=args.learners or None,
        rho=args.rho,
        rope=args.rope,
        alpha=args.alpha,
        scale=difference_scale(args.scale),  # the readers return fractions
        higher_is_better=args.higher_is_better,
        seed=args.seed,
        n_samples=args.n_samples,
        hierarchical=not args.no_hierarchical,
        progress=not args.quiet and sys.stderr.isatty(),
        source=Path(args.file).name,
        reading=args.reading,
        zero_method=args.zero_method,
    )
    try:
        build_report(results).write(out)
    except OSError as exc:
        raise _ArgumentError(f"-o: cannot write the report to {out}: {exc}") from None
    if results.settings.rho_assumed:  # as compare says it; the page says it too
        print(f"cvcompare: note: {_assumed_rho_note(results.n_folds)}", file=sys.stderr)
    return [
        {
            "html": str(out / "report.html"),
            "markdown": str(out / "report.md"),
            "learners": len(results.learners),
            "pairs": len(results.pairs),
            "datasets": len(results.datasets),
        }
    ]


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
        # the columns of every row, in the order they first appear; missing cells empty;
        # each cell as written alone (a table of mixed columns, as pandas builds it, would
        # write counts as floats)
        columns = list(dict.fromkeys(k for r in rows for k in r))
        writer = csv.DictWriter(sys.stdout, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
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


def _positive(text: str) -> int:
    """A count of at least one (``--n-samples``)."""
    value = _natural(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _number_checked_by(check: Callable[[float], float], expected: str):
    """An argparse type: the option's text as a number that the library's own ``check``
    accepts (``expected``: what it accepts, in words)."""

    def parse(text: str) -> float:
        try:
            return check(float(text))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None

    return parse


#: ``--alpha``: the size of the frequentist tests, in (0, 0.5) (:func:`check_test_size`).
_size = _number_checked_by(check_test_size, "a number in (0, 0.5)")
#: ``--rho``: the correlation ``n_test / n_total``, in [0, 1) (:func:`check_rho`), checked
#: whether or not the tests asked for use it.
_rho = _number_checked_by(check_rho, "a number in [0, 1)")


def _rope(text: str) -> tuple[float, float]:
    """``--rope``: a half-width (``0.01``: the rope [-0.01, 0.01]) or the two ends
    ``LOW,HIGH`` of an asymmetric rope (``--rope=-0.01,0.02``)."""
    parts = text.split(",")
    try:
        ends = [float(part) for part in parts]
    except ValueError:
        ends = []
    if len(ends) == 1:
        half = ends[0]
        if not (math.isfinite(half) and half >= 0):
            raise argparse.ArgumentTypeError(f"expected a non-negative half-width, got {text!r}")
        return (-half, half)
    if len(ends) != 2:
        raise argparse.ArgumentTypeError(
            f"expected a half-width such as 0.01 or the ends LOW,HIGH of the rope "
            f"(--rope=-0.01,0.02), got {text!r}"
        )
    try:
        return check_rope(ends, "rope")
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("rope: ")) from None


def _add_learners(parser: _Parser, purpose: str) -> None:
    """The option ``--learners NAME ...`` of ``parser``, helped by ``purpose``."""
    parser.add_argument(
        "--learners",
        nargs="+",
        action="extend",
        metavar="NAME",
        help=f"{purpose}; the option may be repeated, and a name starting with '-' is given "
        "as --learners=NAME",
    )


def _common_options() -> _Parser:
    """The options every command takes: the file, its scale and orientation, alpha, format."""
    common = _Parser(add_help=False)
    common.add_argument(
        "file",
        metavar="FILE",
        help="tidy CSV (learner,dataset,fold,score) or accuracies.txt block format",
    )
    common.add_argument(
        "--scale",
        choices=("fraction", "percent", "raw"),
        help="scores of a CSV file: accuracies as fractions (default) or percent, or raw for "
        "any other score (AUC, F1, RMSE, log-loss; the rope is then in the score's unit); "
        "the block format is always percent and refuses any other scale",
    )
    better = common.add_mutually_exclusive_group()
    better.add_argument(
        "--higher-is-better",
        dest="higher_is_better",
        action="store_true",
        default=True,
        help="higher scores are better (accuracy, AUC, F1; the default)",
    )
    better.add_argument(
        "--lower-is-better",
        dest="higher_is_better",
        action="store_false",
        help="lower scores are better (RMSE, log-loss, error rate)",
    )
    common.add_argument(
        "--duplicates",
        choices=("drop", "keep", "error"),
        help="repeated identical data sets in the block format: drop (default), keep, error; "
        "refused for a CSV file",
    )
    common.add_argument(
        "--alpha", type=_size, default=0.05, help="size of the frequentist tests (0.05)"
    )
    common.add_argument(
        "--format", choices=("text", "json", "csv"), default="text", help="output format"
    )
    return common


def _model_options() -> _Parser:
    """The options of the commands that run the tests on pairs: rope, rho, seed, draws."""
    model = _Parser(add_help=False)
    model.add_argument(
        "--rope",
        type=_rope,
        default=None,
        help="half-width of the region of practical equivalence: a fraction of accuracy "
        "(0.01 = one point, the default), or in the score's unit with --scale raw (then "
        "required); an "
        "asymmetric rope as its ends in one word, --rope=LOW,HIGH (e.g. --rope=-0.01,0.02), on "
        "the difference oriented so that positive favours the first learner",
    )
    model.add_argument(
        "--rho",
        type=_rho,
        default=None,
        help="correlation n_test/n_total of the cross-validation (default 0.1, i.e. 10 folds; "
        "required when the number of fold results is not a multiple of 10)",
    )
    model.add_argument(
        "--seed",
        type=_natural,
        default=0,
        help="root seed of the Monte Carlo tests and of the Stan sampler (0)",
    )
    model.add_argument(
        "--n-samples", type=_positive, default=50_000, help="Monte Carlo draws (50000)"
    )
    model.add_argument(
        "--zero-method",
        choices=("drop", "split"),
        default="drop",
        help="data sets without a difference in the signed-rank and sign tests: drop them "
        "(the default, as scipy and R) or split them between the two learners (Demsar 2006: "
        "half their ranks to each rank sum, as scipy's zsplit; half of them to each learner's "
        "wins, one left out of an odd number)",
    )
    model.add_argument("--quiet", action="store_true", help="no progress bar")
    return model


def _add_compare(cmp_: _Parser) -> None:
    """The options of the ``compare`` command."""
    cmp_.add_argument(
        "--a",
        help="first learner (differences are a - b); a name that starts with a minus as --a=-NAME",
    )
    cmp_.add_argument("--b", help="second learner; a name that starts with a minus as --b=-NAME")
    cmp_.add_argument(
        "--all-pairs",
        action="store_true",
        help="compare every pair of learners; the signed-rank and sign tests' p-values are "
        "then Holm-adjusted over the pairs (pvalue_holm), and their decisions taken on them",
    )
    cmp_.add_argument(
        "--test",
        choices=(*TESTS, *SLOW_TESTS, "all"),
        default="all",
        help="which test; 'all' runs every test but the hierarchical model (Stan: a one-time "
        "build of minutes, then about a second per pair)",
    )
    cmp_.set_defaults(run=_compare)


def _add_rank(rank: _Parser) -> None:
    """The options of the ``rank`` command."""
    _add_learners(rank, "learners to rank, in the order of the output (default: all of FILE)")
    rank.add_argument(
        "--cd-diagram", metavar="OUT", help="save the critical-difference diagram (PNG, PDF, ...)"
    )
    rank.add_argument(
        "--tie-correction",
        action="store_true",
        help="divide the Friedman chi-square by the correction for tied ranks (as R's "
        "friedman.test and scipy); the default is Demsar's formula, which the comparisons "
        "of classifiers use and which is conservative under ties",
    )
    rank.set_defaults(run=_rank)


def _add_report(rep: _Parser) -> None:
    """The options of the ``report`` command."""
    rep.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="DIR",
        help="directory for report.html, report.md and figures/ (a report already there "
        "is replaced)",
    )
    _add_learners(
        rep,
        "learners to compare, in this order (default: all of FILE); the first of each pair is "
        "the first learner of its differences",
    )
    rep.add_argument(
        "--no-hierarchical",
        action="store_true",
        help="skip the hierarchical model (Stan; about a second per pair after a one-time "
        "build of a few minutes)",
    )
    rep.set_defaults(run=_report)


def _build_parser() -> _Parser:
    """The parser of the command line: its three commands and their options."""
    parser = _Parser(
        prog="cvcompare",
        description="Statistical comparison of learners cross-validated on several data sets: "
        "compare two (or all pairs), rank all, or write a report of every test.",
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="{compare,rank,report}"
    )
    common, model = _common_options(), _model_options()
    _add_compare(
        sub.add_parser(
            "compare", parents=[common, model], help="compare two learners (or all pairs)"
        )
    )
    _add_rank(
        sub.add_parser(
            "rank",
            parents=[common],
            help="Friedman and Nemenyi tests on all learners (or --learners)",
        )
    )
    _add_report(
        sub.add_parser(
            "report",
            parents=[common, model],
            help="every test, with plots and decisions in words, as an HTML page and Markdown",
        )
    )
    return parser


#: Argument names of the library, as the command line's options or FILE's columns.
_USER_NAMES = {
    "rope": "--rope",
    "rho": "--rho",
    "alpha": "--alpha",
    "n_samples": "--n-samples",
    "seed": "--seed",
    "x": "FILE (score differences)",
    "a, b": "FILE",
    "table": "FILE",
    "scores": "FILE",
    "learners": "--learners",
    "directory": "-o",
}


#: A library argument given a value in an error message (``scale='percent'``) whose option
#: takes the same values (``--scale percent``).
_OPTION_VALUE = re.compile(r"\b(scale|duplicates)='(\w+)'")


def _user_names(message: str) -> str:
    """The user's names in a library error message: a library argument name leading it
    becomes the option or column it comes from, and ``scale='percent'`` the option
    ``--scale percent``."""
    message = _OPTION_VALUE.sub(r"--\1 \2", message)
    name, sep, rest = message.partition(": ")
    return f"{_USER_NAMES[name]}: {rest}" if sep and name in _USER_NAMES else message


def _warning_line(text: str) -> None:
    """Print a warning as one line on stderr."""
    print(f"cvcompare: warning: {text}", file=sys.stderr)


#: What a figure's missing glyph means and how to mend it, after matplotlib's warning.
_GLYPH_HINT = (
    " (the figures show a box for it: name a font that has it in a file matplotlibrc in the "
    "working directory, e.g. 'font.family: Noto Sans CJK JP')"
)


def _warning_printer() -> Callable[..., None]:
    """A ``warnings.showwarning`` for one run: each warning (e.g. a font without a glyph of
    a learner's name, with how to name another font) as one line in the program's words,
    without the source file, line and code that Python adds, and once, however many
    figures raise it."""
    shown: set[str] = set()

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        text = str(message)
        text = _user_names(text) + (_GLYPH_HINT if "missing from font" in text else "")
        if text not in shown:
            shown.add(text)
            _warning_line(text)

    return show


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``cvcompare`` command line.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        Exit status: 0 on success, 2 on bad input (with a one-line message on stderr), 1 if
        standard output was closed before everything was written (e.g. ``| head``).
    """
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
        with warnings.catch_warnings():
            warnings.showwarning = _warning_printer()
            rows = args.run(args)
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    except (_ArgumentError, ValueError, TypeError, OSError, ImportError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if not isinstance(exc, _ArgumentError):
            message = _user_names(message)
        print(f"cvcompare: error: {message}", file=sys.stderr)
        return 2
    try:
        _write(rows, args.format)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader stopped reading (e.g. ``| head``): no traceback, and none at exit when
        # Python flushes stdout again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
