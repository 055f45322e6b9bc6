"""The ``cvcompare`` command line: compare and rank, on the real file and on a small CSV."""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import itertools
import json
import re
import shlex
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from shared_data import REAL, needs_real

from cvcompare import cli
from cvcompare.cli import TESTS, main
from cvcompare.hierarchical import ConvergenceWarning
from cvcompare.report.analysis import difference_scale


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _real_means(exact: bool = False) -> dict[str, dict[str, object]]:
    """Mean accuracy (fraction) per classifier and data set, read independently of the package;
    the first occurrence of a repeated data set is kept. ``exact``: as Fractions of the
    decimal strings, so that ties are exact (j48 and j48gr have equal totals on german-credit
    with different folds)."""
    means: dict[str, dict[str, object]] = {}
    current = ""
    for line in REAL.read_text().splitlines():
        toks = line.split()
        if len(toks) == 1:
            current = toks[0]
            means[current] = {}
        elif toks:
            values = [Fraction(t) for t in toks[1:]] if exact else np.array(toks[1:], float)
            means[current].setdefault(toks[0], sum(values) / len(values) / 100)
    return means


@pytest.fixture
def small_csv(tmp_path) -> Path:
    gen = np.random.default_rng(11)
    rows = []
    for d in range(8):
        for f in range(10):
            base = gen.uniform(0.6, 0.9)
            for learner, shift in (("rf", 0.03), ("svm", 0.0), ("knn", -0.02)):
                rows.append((learner, f"d{d}", f, base + shift + gen.normal(0, 0.01)))
    path = tmp_path / "scores.csv"
    pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"]).to_csv(path, index=False)
    return path


@needs_real
def test_compare_signed_rank_on_real_file_matches_scipy(capsys):
    code, out, err = _run(
        capsys,
        "compare",
        str(REAL),
        "--a",
        "nbc",
        "--b",
        "hnb",
        "--test",
        "signed-rank",
        "--format",
        "json",
    )
    # the repeated data set dropped, said in one line in the options' words
    assert code == 0 and err.count("\n") == 1 and err.startswith("cvcompare: note:")
    assert "dropped 5 repeated data set line(s)" in err and "'credit'" in err
    assert "(--duplicates keep keeps them as separate data sets)" in err
    (row,) = json.loads(out)
    means = _real_means()
    x = np.array([means["nbc"][d] - means["hnb"][d] for d in means["nbc"]])
    ref = stats.wilcoxon(x)
    assert row["n_datasets"] == 53
    assert row["statistic"] == pytest.approx(ref.statistic) and row["pvalue"] == pytest.approx(
        ref.pvalue
    )


@needs_real
def test_rank_on_real_file_matches_independent_ranks_and_writes_cd_diagram(capsys, tmp_path):
    out_png = tmp_path / "cd.png"
    code, out, _ = _run(capsys, "rank", str(REAL), "--format", "json", "--cd-diagram", str(out_png))
    assert code == 0
    rows = json.loads(out)
    means = _real_means(exact=True)
    learners = list(means)
    # ranks by exact comparisons of the Fractions: 1 + number better + half the ties
    avg_ranks = np.mean(
        [
            [
                1
                + sum(means[o][d] > means[c][d] for o in learners)
                + 0.5 * sum(means[o][d] == means[c][d] for o in learners if o != c)
                for c in learners
            ]
            for d in means["nbc"]
        ],
        axis=0,
    )
    n, k = len(means["nbc"]), len(learners)
    ranked = [r for r in rows if "learner" in r]
    (summary,) = [r for r in rows if "friedman_chi2" in r]
    assert [r["learner"] for r in ranked] == learners
    np.testing.assert_allclose([r["avg_rank"] for r in ranked], avg_ranks, rtol=1e-12)
    # Demsar (2006), Friedman statistic from the average ranks
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(avg_ranks**2) - k * (k + 1) ** 2 / 4)
    assert summary["friedman_chi2"] == pytest.approx(chi2, rel=1e-12)
    # the significantly different pairs are listed: |rank difference| > CD, from the ranks
    pairs = {r["significantly_different"] for r in rows if "significantly_different" in r}
    expected = {
        f"{learners[i]} vs {learners[j]}"
        for i in range(k)
        for j in range(i + 1, k)
        if abs(avg_ranks[i] - avg_ranks[j]) > summary["nemenyi_cd"]
    }
    assert pairs == (expected or {"none"})
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the real means tie on some data sets: corrected for ties, the statistic is scipy's
    assert not summary["tie_correction"]
    code, out, _ = _run(capsys, "rank", str(REAL), "--format", "json", "--tie-correction")
    (corrected,) = [r for r in json.loads(out) if "friedman_chi2" in r]
    scores = np.array([[float(means[c][d]) for c in learners] for d in means["nbc"]])
    ref = stats.friedmanchisquare(*scores.T)
    assert corrected["tie_correction"] and corrected["friedman_chi2"] > chi2
    assert corrected["friedman_chi2"] == pytest.approx(ref.statistic, rel=1e-12)


def test_rank_tie_correction_on_tied_scores(capsys, tmp_path):
    # rf is best everywhere; knn scores what svm scores on every fold of two of the four
    # data sets (their means tie there) and more on the others
    gen = np.random.default_rng(5)
    rows = []
    for d in range(4):
        for f in range(10):
            base = gen.uniform(0.6, 0.8)
            knn = base if d < 2 else base + 0.05
            rows += [("rf", f"d{d}", f, base + 0.1), ("svm", f"d{d}", f, base)]
            rows.append(("knn", f"d{d}", f, knn))
    path = tmp_path / "tied.csv"
    table = pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])
    table.to_csv(path, index=False)
    means = table.groupby(["dataset", "learner"], sort=False)["score"].mean().unstack()
    ref = stats.friedmanchisquare(*means.to_numpy().T)
    summaries = []
    for extra in ((), ("--tie-correction",)):
        code, out, _ = _run(capsys, "rank", str(path), "--format", "json", *extra)
        assert code == 0
        summaries += [r for r in json.loads(out) if "friedman_chi2" in r]
    plain, corrected = summaries
    assert not plain["tie_correction"] and corrected["tie_correction"]
    assert corrected["friedman_chi2"] == pytest.approx(ref.statistic, rel=1e-12)
    assert plain["friedman_chi2"] < corrected["friedman_chi2"]


def test_rank_says_when_no_outcome_can_be_significant(capsys, small_csv, tmp_path):
    """Three learners ranked alike on two data sets: F_F is infinite and its F tail 0,
    but the exact p-value of that outcome is 1 / 3! (friedman_test's exact_floor, checked
    there by enumeration); rank gives the floor and says no outcome can be significant.
    On all eight data sets of small_csv the floor, 6^-7, says nothing."""
    table = pd.read_csv(small_csv)
    two = tmp_path / "two.csv"
    table[table["dataset"].isin(["d0", "d1"])].to_csv(two, index=False)
    for path, floor, noted in ((two, 1 / 6, True), (small_csv, 6.0**-7, False)):
        code, out, err = _run(capsys, "rank", str(path), "--format", "json")
        (summary,) = [r for r in json.loads(out) if "friedman_chi2" in r]
        assert code == 0 and summary["exact_pvalue_floor"] == pytest.approx(floor, rel=1e-12)
        assert summary["exact_pvalue"] >= summary["exact_pvalue_floor"]
        assert ("no outcome has an exact p-value below 0.167" in err) is noted
        assert ("none can be significant at 0.05" in err) is noted
    # two learners ranked alike on five data sets: Nemenyi's CD, 0.877, is below their rank
    # difference of 1, but the exact p-value of the test of all learners is 2^-4 = 0.0625
    # (the floor): they do not differ, and the post-hoc test lists no pair
    five = tmp_path / "five.csv"
    table[table["dataset"].isin([f"d{d}" for d in range(5)])].to_csv(five, index=False)
    code, out, err = _run(capsys, "rank", str(five), "--learners", "rf", "knn", "--format", "json")
    rows = json.loads(out)
    (summary,) = [r for r in rows if "friedman_chi2" in r]
    assert summary["nemenyi_cd"] < 1 and summary["exact_pvalue_floor"] == 1 / 16
    assert [r["significantly_different"] for r in rows if "significantly_different" in r] == [
        "none"
    ]
    assert "the learners do not differ at 0.05" in err  # exact p = 2 / 2^5 = 0.0625
    assert "the 1 pair(s) beyond CD are not listed" in err


def test_rank_learners_ranks_the_chosen_learners_in_their_order(capsys, small_csv, tmp_path):
    table = pd.read_csv(small_csv)
    order = ["knn", "rf", "svm"]  # the file's order is rf, svm, knn
    means = table.groupby(["dataset", "learner"])["score"].mean().unstack()[order].to_numpy()
    ranks = stats.rankdata(-means, axis=1).mean(axis=0)  # rank 1 = highest mean score
    ref = stats.friedmanchisquare(*means.T)  # no ties: scipy's statistic is Demsar's
    code, out, _ = _run(capsys, "rank", str(small_csv), "--learners", *order, "--format", "json")
    assert code == 0
    rows = json.loads(out)
    assert [r["learner"] for r in rows if "learner" in r] == order
    assert [r["avg_rank"] for r in rows if "learner" in r] == pytest.approx(ranks, rel=1e-12)
    (summary,) = [r for r in rows if "friedman_chi2" in r]
    assert summary["friedman_chi2"] == pytest.approx(ref.statistic, rel=1e-12)
    # two of the three: the same as ranking a file that holds only those learners
    code, out, _ = _run(
        capsys, "rank", str(small_csv), "--learners", "knn", "rf", "--format", "json"
    )
    only = tmp_path / "two.csv"
    table[table["learner"].isin(["rf", "knn"])].to_csv(only, index=False)
    _, direct, _ = _run(capsys, "rank", str(only), "--learners", "knn", "rf", "--format", "json")
    assert code == 0 and json.loads(out) == json.loads(direct)
    assert [r["learner"] for r in json.loads(out) if "learner" in r] == ["knn", "rf"]


def test_report_says_on_the_console_that_rho_was_assumed(capsys, small_csv, tmp_path):
    """As compare does: a 5 x 2-fold design also has 10 fold results per data set, and its
    rho is 0.5, not the 0.1 assumed; the page states it among its settings, the console
    says it where the user looks."""
    args = ["report", str(small_csv), "--no-hierarchical", "--n-samples", "2500", "--quiet"]
    code, _, err = _run(capsys, *args, "-o", str(tmp_path / "assumed"))
    assert code == 0
    assert "cvcompare: note: --rho not given: rho = 0.1 assumed" in err
    assert "(10 fold results per data set)" in err and "0.5 for 5 x 2-fold" in err
    code, _, err = _run(capsys, *args, "-o", str(tmp_path / "given"), "--rho", "0.5")
    assert code == 0 and "--rho not given" not in err


def test_compare_all_tests_on_small_csv(capsys, small_csv):
    code, out, err = _run(
        capsys,
        "compare",
        str(small_csv),
        "--a",
        "rf",
        "--b",
        "knn",
        "--format",
        "csv",
        "--n-samples",
        "4000",
    )
    # no progress bar when stderr is not a terminal; two notes: the rho assumed, and the
    # Bayesian signed-rank and sign tests deciding on 8 data sets
    assert code == 0 and err.count("\n") == 2
    assert err.startswith("cvcompare: note: --rho not given: rho = 0.1 assumed")
    assert "\ncvcompare: note: bayes-signed-rank and bayes-sign: decided on only 8 data" in err
    table = pd.read_csv(io.StringIO(out))
    counts = table["test"].value_counts().to_dict()
    assert counts.pop("correlated-t") == 9  # one row per data set and a summary row
    (summary,) = table[table["dataset"] == "(all data sets)"].to_dict("records")
    assert summary["n_right"] + summary["n_rope"] + summary["n_left"] + summary["n_undecided"] == 8
    # counts are written as integers, though their columns are empty in most rows
    (text,) = [r for r in csv.DictReader(io.StringIO(out)) if r["dataset"] == "(all data sets)"]
    assert all(text[k].isdigit() for k in ("n_right", "n_rope", "n_left", "n_undecided"))
    assert text["mean"] == "" and text["n_datasets"] == "8"
    assert set(counts.values()) == {1} and len(counts) == 6
    # rf is better by 0.05 on every data set: every test speaks for a = rf
    by_test = table.set_index("test")
    assert by_test.loc["poisson", "decision"] == "a"
    assert by_test.loc["bayes-signed-rank", "decision"] == "right"
    # the signed-rank test's Monte Carlo errors: shares of 4000 independent draws
    signed = by_test.loc["bayes-signed-rank"]
    for region in ("left", "rope", "right"):
        p = signed[f"p_{region}"]
        assert signed[f"p_{region}_se"] == pytest.approx(np.sqrt(p * (1 - p) / 4000), rel=1e-12)
    assert by_test.loc["bayes-sign", "decision"] == "right"
    assert by_test.loc["bayes-sign", "n_right"] == 8
    assert by_test.loc["idp-signed-rank", "decision"] == "a"
    # all 8 mean differences positive: exact two-sided p-value 2 / 2^8, for rf
    assert by_test.loc["signed-rank", "pvalue"] == pytest.approx(2 / 2**8, rel=1e-12)
    assert (by_test.loc[["signed-rank", "sign"], ["favours", "decision"]] == "a").all(axis=None)


def test_two_sided_tests_decide_for_the_side_their_statistic_favours(capsys, tmp_path):
    # knn is better than rf by a little on 16 data sets and worse by a lot on 14: the median
    # difference rf - knn is negative, but the rank sums favour rf (R+ = 329 > R- = 136,
    # scipy's one-sided p 0.024) and the sign test knn (16 wins of 30, p = 0.86)
    z = np.r_[-np.linspace(0.001, 0.002, 16), np.linspace(0.05, 0.08, 14)]
    rows = [
        (learner, f"d{i}", fold, 0.8 + (d if learner == "rf" else 0.0))
        for i, d in enumerate(z)
        for fold in range(10)
        for learner in ("rf", "knn")
    ]
    path = _write(tmp_path, rows)
    argv = ["compare", str(path), "--a", "rf", "--b", "knn", "--format", "json"]
    _, out, _ = _run(capsys, *argv, "--test", "signed-rank")
    ((row),) = json.loads(out)
    assert np.median(z) < 0 and row["pvalue"] < 0.05
    assert stats.wilcoxon(z, alternative="greater").pvalue < 0.025
    assert (row["favours"], row["decision"]) == ("a", "a")
    _, out, _ = _run(capsys, *argv, "--test", "sign")
    ((row),) = json.loads(out)
    assert (row["favours"], row["decision"]) == ("b", "none")
    assert row["pvalue"] == pytest.approx(stats.binomtest(14, 30).pvalue, rel=1e-12)


def test_compare_says_which_rho_it_used(capsys, small_csv):
    argv = ["compare", str(small_csv), "--a", "rf", "--b", "knn", "--format", "json"]
    # 10 fold results per data set: rho = 0.1 assumed, said once on stderr and in every row
    code, out, err = _run(capsys, *argv, "--test", "correlated-t")
    assert code == 0 and "rho = 0.1 assumed" in err and "(10 fold results per data set)" in err
    assert {row["rho"] for row in json.loads(out)} == {0.1}
    # given (5 runs of 2-fold cross-validation): no note, and the statistic changes
    code, given, err = _run(capsys, *argv, "--test", "correlated-t", "--rho", "0.5")
    assert code == 0 and err == "" and {row["rho"] for row in json.loads(given)} == {0.5}
    assert json.loads(given)[0]["statistic"] < json.loads(out)[0]["statistic"]
    # a test that does not depend on rho says nothing of it
    code, out, err = _run(capsys, *argv, "--test", "signed-rank")
    assert code == 0 and err == "" and "rho" not in json.loads(out)[0]


def test_all_pairs_holm_adjusts_the_two_sided_tests(capsys, tmp_path):
    # four learners with small, noisy differences: some raw p-values below 0.05
    gen = np.random.default_rng(2)
    rows = []
    for d in range(12):
        base = gen.uniform(0.6, 0.9)
        for learner, shift in (("a", 0.0), ("b", 0.004), ("c", 0.008), ("d", 0.012)):
            for f in range(10):
                rows.append((learner, f"d{d}", f, base + shift + gen.normal(0, 0.01)))
    path = tmp_path / "four.csv"
    pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"]).to_csv(path, index=False)
    for test in ("signed-rank", "sign"):
        argv = ["compare", str(path), "--test", test, "--format", "json"]
        code, out, _ = _run(capsys, *argv, "--all-pairs")
        assert code == 0
        found = json.loads(out)
        assert len(found) == 6
        raw = np.array([row["pvalue"] for row in found])
        # Holm by hand: the i-th smallest p-value times (m - i), running maximum, at most 1
        order = np.argsort(raw)
        holm = np.empty(6)
        holm[order] = np.minimum(1, np.maximum.accumulate(raw[order] * (6 - np.arange(6))))
        assert [row["pvalue_holm"] for row in found] == pytest.approx(holm, rel=1e-12)
        assert [row["decision"] for row in found] == [
            row["favours"] if h < 0.05 else "none" for row, h in zip(found, holm, strict=True)
        ]
        # the side each test favours, from the data: the larger rank sum (scipy's one-sided
        # statistic is R+; no zero differences here) or the more wins
        scores = pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])
        means = scores.groupby(["learner", "dataset"])["score"].mean().unstack("dataset")
        for row in found:
            z = (means.loc[row["a"]] - means.loc[row["b"]]).to_numpy()
            r_plus = stats.wilcoxon(z, alternative="greater").statistic
            lead = (
                r_plus - z.size * (z.size + 1) / 4 if test == "signed-rank" else np.sum(np.sign(z))
            )
            assert row["favours"] == ("a" if lead > 0 else "b")
        # a single pair keeps its raw p-value and decision
        _, single, _ = _run(capsys, *argv, "--a", found[0]["a"], "--b", found[0]["b"])
        (one,) = json.loads(single)
        assert one["pvalue"] == found[0]["pvalue"] and "pvalue_holm" not in one
    assert min(raw) < 0.05 and (holm >= 0.05).any() and (raw < holm).any()


def test_all_pairs_is_reproducible_and_matches_single_pairs(capsys, small_csv):
    args = [
        "compare",
        str(small_csv),
        "--test",
        "bayes-signed-rank",
        "--format",
        "json",
        "--n-samples",
        "3000",
        "--seed",
        "5",
    ]
    code, out, _ = _run(capsys, *args, "--all-pairs", "--quiet")
    assert code == 0
    rows = json.loads(out)
    assert [(r["a"], r["b"]) for r in rows] == [("rf", "svm"), ("rf", "knn"), ("svm", "knn")]
    _, single, _ = _run(capsys, *args, "--a", "svm", "--b", "knn")
    assert json.loads(single) == [rows[2]]  # seeds depend on the pair, not on the others


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["compare", "{csv}", "--a", "rf", "--b", "xgb"], "--b: unknown learner 'xgb'"),
        (["compare", "{csv}", "--a", "rf"], "--a/--b"),
        (["compare", "{csv}", "--a", "rf", "--b", "rf"], "two different learners"),
        (["compare", "{csv}", "--a", "rf", "--b", "svm", "--rope", "wide"], "--rope"),
        (
            ["compare", "{csv}", "--a", "rf", "--b", "svm", "--rope=0.01,0.02"],
            "--rope: expected an interval (low, high) with low <= 0 <= high",
        ),
        (["compare", "{csv}", "--a", "rf", "--b", "svm", "--rope=-0.01,0.02,0.03"], "LOW,HIGH"),
        (["compare", "{csv}", "--a", "rf", "--b", "svm", "--rope=-0.01,inf"], "finite"),
        (["compare", "{csv}", "--a", "rf", "--b", "svm", "--test", "t"], "--test"),
        (["compare", "{csv}", "--a", "rf", "--b", "svm", "--rho", "1.5"], "rho"),
        (["compare", "{pct}", "--a", "rf", "--b", "svm"], "--scale"),
        (["compare", "/nonexistent/file.csv", "--a", "rf", "--b", "svm"], "FILE"),
        (["rank", "{csv}", "--alpha", "2"], "alpha"),
        (["rank", "{csv}", "--learners", "rf", "xgb"], "--learners: unknown learner 'xgb'"),
        (["rank", "{csv}", "--learners", "rf", "rf"], "--learners: expected at least two"),
        (
            [
                "compare",
                "{csv}",
                "--a",
                "rf",
                "--b",
                "svm",
                "--test",
                "signed-rank",
                "--alpha",
                "5",
            ],
            "--alpha: expected a number in (0, 0.5)",
        ),
        (["compare", "{csv}", "--a", "rf", "--b", "svm", "--seed", "-1"], "--seed"),
        (["compare", "{csv}", "--a", "rf", "--b", "svm", "--n-samples", "0"], "--n-samples"),
        # a test that draws no samples does not make a bad count acceptable
        (
            ["compare", "{csv}", "--a", "rf", "--b", "svm", "--test", "sign", "--n-samples", "0"],
            "--n-samples: expected a positive integer, got '0'",
        ),
        # nor a test that does not use rho a bad rho
        (
            ["compare", "{csv}", "--a", "rf", "--b", "svm", "--test", "sign", "--rho", "1.5"],
            "--rho: expected a number in [0, 1), got '1.5'",
        ),
        (
            ["report", "{csv}", "-o", "{tmp}/r", "--rho", "nan"],
            "--rho: expected a number in [0, 1)",
        ),
        (["rank", "{csv}", "--cd-diagram", "{tmp}/cd.nosuchformat"], "--cd-diagram: cannot write"),
        (
            ["report", "{csv}", "-o", "", "--no-hierarchical"],
            "-o: expected the name of a directory",
        ),
        (["report", "{csv}", "-o", "{csv}", "--no-hierarchical"], "-o: {csv} is a file"),
        (
            ["report", "{csv}", "-o", "{csv}/sub", "--no-hierarchical", "--n-samples", "2500"],
            "-o: cannot write the report to {csv}/sub",
        ),
        (["frobnicate"], "invalid choice"),
        # a table separated by tabs, under a name not ending in .csv, is named as such
        (["rank", "{tsv}"], "FILE looks like a table of scores separated by tabs: save it"),
        (["rank", "{one}"], "FILE: ranking needs at least two data sets, found 1 (d0)"),
        # an abbreviation is not taken for an option: --a is compare's, not --alpha
        (["rank", "{csv}", "--a", "0.1"], "unrecognized arguments: --a 0.1"),
        (["report", "{csv}", "-o", "{tmp}/r", "--a", "rf"], "unrecognized arguments: --a rf"),
        (["compare", "{csv}", "--a", "rf", "--b", "svm", "--n-sampl", "9"], "--n-sampl"),
    ],
)
def test_bad_arguments_exit_2_with_one_line_naming_them(capsys, small_csv, tmp_path, argv, needle):
    pct = tmp_path / "pct.csv"
    frame = pd.read_csv(small_csv)
    frame.assign(score=frame["score"] * 100).to_csv(pct, index=False)
    frame.to_csv(tsv := tmp_path / "scores.tsv", sep="\t", index=False)
    frame[frame["dataset"] == "d0"].to_csv(one := tmp_path / "one.csv", index=False)
    argv = [a.format(csv=small_csv, pct=pct, tmp=tmp_path, tsv=tsv, one=one) for a in argv]
    before = sorted(tmp_path.rglob("*"))
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    needle = needle.format(csv=small_csv)
    assert err.count("\n") == 1 and err.startswith("cvcompare: error:") and needle in err
    assert "Traceback" not in err
    assert sorted(tmp_path.rglob("*")) == before  # nothing written, not even in part


@pytest.mark.slow
def test_compare_hierarchical_on_small_csv(capsys, small_csv, monkeypatch):
    # builds and runs the Stan program (minutes on a first run)
    fits, run_test = [], cli.run_test  # the fit the command ran, to compare its row with

    def run_and_keep(*args, **kwargs):
        fits.append(run_test(*args, **kwargs))
        return fits[-1]

    monkeypatch.setattr(cli, "run_test", run_and_keep)
    code, out, err = _run(
        capsys,
        "compare",
        str(small_csv),
        "--a",
        "rf",
        "--b",
        "knn",
        "--test",
        "hierarchical",
        "--format",
        "json",
    )
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["p_left"] + row["p_rope"] + row["p_right"] == pytest.approx(1.0)
    # rf beats knn by 0.05 on every data set (sd 0.014 per fold): far right of the rope
    assert row["decision"] == "right" and row["n_datasets"] == 8
    # the sampler's diagnostics are part of the row: the fit's own, worst over its top-level
    # quantities, and its verdict
    ((fit, record),) = fits
    diag = fit.diagnostics
    # the probabilities' posterior-sampling errors and the refit (none here) are the fit's
    assert [row[f"p_{r}_se"] for r in ("left", "rope", "right")] == list(fit.probs_se())
    assert (row["refits"], row["remedy"]) == (record.attempts - 1, record.remedy) == (0, "")
    assert row["rhat_max"] == max(diag.rhat.values())
    assert row["ess_min"] == min(*diag.ess_bulk.values(), *diag.ess_tail.values())
    assert row["divergences"] == diag.divergences == 0
    assert row["diag_ok"] is (not diag.problems) is True


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("quiet", [False, True])
def test_progress_bar_on_a_terminal_unless_quiet(monkeypatch, capsys, small_csv, quiet):
    fake = _Terminal()
    monkeypatch.setattr("sys.stderr", fake)
    argv = ["compare", str(small_csv), "--all-pairs", "--test", "sign"] + ["--quiet"] * quiet
    assert main(argv) == 0
    assert ("comparisons" in fake.getvalue()) is not quiet
    assert len(capsys.readouterr().out.splitlines()) == 3  # one row per pair, bar not on stdout


def test_help_exits_zero(capsys):
    code, out, _ = _run(capsys, "compare", "--help")
    assert code == 0 and "--all-pairs" in out


@needs_real
def test_signed_rank_counts_a_zero_difference_only_when_it_is_exactly_zero(capsys):
    # j48 vs j48gr: on 15 data sets the fold differences cancel exactly (decimal arithmetic);
    # on one of them the binary mean is -1e-18, which must not enter the test as a difference
    _, out, _ = _run(
        capsys, "compare", str(REAL), "--a", "j48", "--b", "j48gr", "--test", "signed-rank",
        "--format", "json",
    )  # fmt: skip
    (row,) = json.loads(out)
    means = _real_means(exact=True)
    x = np.array([float(means["j48"][d] - means["j48gr"][d]) for d in means["j48"]])
    assert np.sum(x == 0) == 15
    ref = stats.wilcoxon(x)
    assert row["statistic"] == ref.statistic and row["pvalue"] == pytest.approx(ref.pvalue)
    # the data sets the test left out are counted in the row, with how they were treated
    assert row["n_zero"] == 15 and row["zero_method"] == "drop"


def _learners_on(tmp_path, n_learners: int, n_datasets: int) -> Path:
    """A CSV of learners L0, L1, ... (L0 best by 0.03), 10 folds on each data set."""
    gen = np.random.default_rng(5)
    rows = [
        (f"L{i}", f"d{d}", f, 0.8 - 0.03 * (i > 0) + gen.normal(0, 0.01))
        for d in range(n_datasets)
        for f in range(10)
        for i in range(n_learners)
    ]
    return _write(tmp_path, rows)


@pytest.mark.parametrize(
    ("n_learners", "n_datasets", "argv", "floor"),
    [
        # 10 pairs on 8 data sets: Holm's smallest p-value is 10 x 2 / 2^8
        (5, 8, ["--all-pairs"], 10 * 2 / 2**8),
        # one pair on 4 data sets: the smallest p-value is 2 / 2^4, no adjustment named
        (2, 4, ["--a", "L0", "--b", "L1"], 2 / 2**4),
        # 3 pairs on 8 data sets: 3 x 2 / 2^8 < 0.05, nothing to say
        (3, 8, ["--all-pairs"], None),
    ],
)
def test_compare_says_where_the_rank_tests_cannot_reach_alpha(
    capsys, tmp_path, n_learners, n_datasets, argv, floor
):
    path = _learners_on(tmp_path, n_learners, n_datasets)
    for test in ("signed-rank", "sign"):
        code, out, err = _run(capsys, "compare", str(path), *argv, "--test", test)
        assert code == 0 and out
        notes = [line for line in err.splitlines() if line.startswith(f"cvcompare: note: {test}")]
        if floor is None:
            assert notes == []
            continue
        holm = ", times 10 pairs for Holm's adjustment," if "--all-pairs" in argv else ""
        assert notes == [
            f"cvcompare: note: {test}: no significant difference can be found at 0.05 on these "
            f"data sets: the smallest p-value they allow (every data set with a difference "
            f"favouring one learner){holm} is {floor:.3g}"
        ]


def test_compare_notes_a_dirichlet_test_deciding_on_few_data_sets(capsys, tmp_path):
    # two data sets whose mean differences lie in the rope: the Bayesian signed-rank test
    # says "equivalent" with probability 1, knowing no data set but these two
    path = _learners_on(tmp_path, 2, 2)
    _, out, err = _run(
        capsys, "compare", str(path), "--a", "L1", "--b", "L0", "--test", "bayes-signed-rank",
        "--rope", "0.05", "--format", "json",
    )  # fmt: skip
    (row,) = json.loads(out)
    assert row["p_rope"] == 1.0 and row["decision"] == "rope"
    assert (
        "cvcompare: note: bayes-signed-rank: decided on only 2 data sets; their posterior (a "
        "Dirichlet process) puts its mass on the data sets observed" in err
    )
    # on 10 data sets, nothing is said
    path = _learners_on(tmp_path, 2, 10)
    _, _, err = _run(capsys, "compare", str(path), "--a", "L1", "--b", "L0", "--rope", "0.05")
    assert "decided on only" not in err


def test_compare_notes_settings_that_would_mislead_silently(capsys, small_csv):
    pair = ["compare", str(small_csv), "--a", "rf", "--b", "svm"]
    # rho = 0 treats the folds as independent: said once, where a test uses rho
    _, _, err = _run(capsys, *pair, "--rho", "0")
    assert err.count("cvcompare: note: --rho 0 treats the fold results as independent") == 1
    _, _, err = _run(capsys, *pair, "--rho", "0", "--test", "sign")
    assert "--rho 0" not in err
    # a share of n draws has a standard error up to 1 / (2 sqrt(n)): 0.05 at n = 100
    _, _, err = _run(capsys, *pair, "--test", "bayes-signed-rank", "--n-samples", "100")
    assert (
        "cvcompare: warning: --n-samples 100: the probabilities of bayes-signed-rank are "
        "shares of 100 Monte Carlo draws, with a standard error up to 0.05; give at least "
        "2500 draws for 0.01\n" in err
    )
    # none at 2,500 draws, nor for the Bayesian sign test, whose probabilities are exact
    for test, draws in (("idp-signed-rank", "2500"), ("bayes-sign", "100")):
        _, _, err = _run(capsys, *pair, "--test", test, "--n-samples", draws)
        assert "warning" not in err
    # at 2,499 draws the error is above 0.01, and said so with the digits that show it
    _, _, err = _run(capsys, *pair, "--test", "idp-signed-rank", "--n-samples", "2499")
    assert "with a standard error up to 0.010002; give at least 2500 draws for 0.01" in err
    # nor where no Monte Carlo test runs: on one data set, only the correlated t-test does
    one = pd.read_csv(small_csv).query("dataset == 'd0'")
    one.to_csv(path := small_csv.parent / "one.csv", index=False)
    _, _, err = _run(capsys, "compare", str(path), "--a", "rf", "--b", "svm", "--n-samples", "9")
    assert "warning" not in err and "running the correlated t-test only" in err
    # a rope in accuracy's unit means nothing for raw scores: asked for where a test uses it
    code, out, err = _run(capsys, *pair, "--scale", "raw", "--test", "bayes-sign")
    assert code == 2 and out == ""
    assert err == (
        "cvcompare: error: --rope: with --scale raw, give the region of practical equivalence "
        "in the scores' unit (for bayes-sign); the default, 0.01, is one point of accuracy as "
        "a fraction\n"
    )
    code, out, _ = _run(capsys, *pair, "--scale", "raw", "--test", "sign")
    assert code == 0 and out


def test_default_rho_needs_a_multiple_of_ten_folds(capsys, tmp_path):
    rows = [(lr, f"d{d}", f, 0.7 + 0.01 * f + 0.02 * (lr == "a")) for lr in "ab" for d in range(6)
            for f in range(3)]  # fmt: skip
    path = tmp_path / "three.csv"
    pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"]).to_csv(path, index=False)
    base = ["compare", str(path), "--a", "a", "--b", "b", "--format", "json"]
    code, out, err = _run(capsys, *base, "--test", "poisson")
    assert code == 2 and "--rho: the default 0.1 assumes 10-fold" in err and "3 fold" in err
    # tests that do not use rho run without it; with --rho the Poisson test runs
    assert _run(capsys, *base, "--test", "sign")[0] == 0
    code, out, _ = _run(capsys, *base, "--test", "poisson", "--rho", str(1 / 3))
    assert code == 0 and json.loads(out)[0]["decision"] == "a"


def test_help_is_plain_text(capsys):
    for argv in (["--help"], ["compare", "--help"], ["rank", "--help"], ["report", "--help"]):
        code, out, _ = _run(capsys, *argv)
        assert code == 0
        assert "``" not in out and ":func:" not in out and ":mod:" not in out, argv
    code, out, _ = _run(capsys, "--help")
    assert "first learner minus second" in out and "--lower-is-better" in out


def _write(tmp_path, rows, name="s.csv") -> Path:
    path = tmp_path / name
    pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"]).to_csv(path, index=False)
    return path


def test_missing_command_and_unwritable_diagram_are_named(tmp_path, capsys):
    code, out, err = _run(capsys)
    assert code == 2 and out == "" and "{compare,rank,report}" in err
    rows = [(lrn, f"d{d}", f, 0.5 + 0.01 * f + 0.02 * i) for i, lrn in enumerate("abc")
            for d in range(3) for f in range(4)]  # fmt: skip
    target = tmp_path / "missing" / "cd.png"
    code, out, err = _run(capsys, "rank", str(_write(tmp_path, rows)), "--cd-diagram", str(target))
    assert code == 2 and out == ""
    assert err.startswith(f"cvcompare: error: --cd-diagram: cannot write {target}")
    assert not target.parent.exists()


def test_rank_refuses_unpaired_folds_like_compare(tmp_path, capsys):
    rows = [(lrn, f"d{d}", f, 0.5 + 0.01 * f) for lrn in "ab" for d in range(3) for f in range(4)]
    rows = [r for r in rows if not (r[0] == "b" and r[1] == "d1" and r[2] == 3)]
    rows.append(("b", "d1", 7, 0.5))
    path = _write(tmp_path, rows)
    for argv in (["rank", str(path)], ["compare", str(path), "--a", "a", "--b", "b"]):
        code, out, err = _run(capsys, *argv)
        assert code == 2 and out == ""
        assert err.startswith("cvcompare: error: FILE:")
        assert (
            "same (dataset, fold)" if argv[0] == "compare" else "the folds must be paired"
        ) in err


def test_compare_on_one_data_set_runs_the_correlated_t_test(tmp_path, capsys):
    gen = np.random.default_rng(0)
    rows = [
        (lrn, "only", f, 0.8 + (0.02 if lrn == "a" else 0) + gen.normal(0, 0.01))
        for f in range(10)
        for lrn in "ab"
    ]
    path = _write(tmp_path, rows)
    code, out, err = _run(capsys, "compare", str(path), "--a", "a", "--b", "b", "--format", "json")
    assert code == 0 and "correlated t-test only" in err
    row, summary = json.loads(out)
    assert row["test"] == "correlated-t" and row["dataset"] == "only"
    assert summary["dataset"] == "(all data sets)"
    code, _, err = _run(capsys, "compare", str(path), "--a", "a", "--b", "b", "--test", "sign")
    assert code == 2 and err.startswith("cvcompare: error: --test:")


def test_lower_is_better_in_compare_mirrors_negated_scores(tmp_path, capsys):
    gen = np.random.default_rng(2)
    rows = [
        (lrn, f"d{d}", f, 0.3 + (0.05 if lrn == "a" else 0) + gen.normal(0, 0.02))
        for d in range(6)
        for f in range(10)
        for lrn in "ab"
    ]
    loss = _write(tmp_path, rows, "loss.csv")
    neg = _write(tmp_path, [(r[0], r[1], r[2], -r[3]) for r in rows], "neg.csv")
    common = ["--a", "a", "--b", "b", "--format", "json", "--n-samples", "2000", "--scale", "raw"]
    common += ["--rope", "0.01"]  # in the losses' unit: --scale raw needs it given
    _, out_l, _ = _run(capsys, "compare", str(loss), "--lower-is-better", *common)
    _, out_n, _ = _run(capsys, "compare", str(neg), *common)
    assert json.loads(out_l) == json.loads(out_n)
    # a has the higher loss: every Bayesian test speaks for b (left)
    rows_l = {r["test"]: r for r in json.loads(out_l) if r["test"] != "correlated-t"}
    assert rows_l["bayes-signed-rank"]["decision"] == "left"


def test_errors_name_the_users_option(tmp_path, capsys, small_csv):
    code, _, err = _run(
        capsys, "compare", str(small_csv), "--a", "rf", "--b", "svm", "--rope", "1.5"
    )
    assert code == 2 and err.startswith("cvcompare: error: --rope:")
    rows = [(lrn, "d", f, 3.0 + f) for lrn in "ab" for f in range(10)]
    path = _write(tmp_path, rows)
    code, _, err = _run(capsys, "compare", str(path), "--a", "a", "--b", "b")
    assert code == 2 and "column 'score'" in err and "--scale" in err


def test_python_m_runs_the_command_and_a_closed_pipe_ends_it_quietly(small_csv, tmp_path):
    command = [sys.executable, "-m", "cvcompare", "compare", str(small_csv), "--all-pairs"]
    command.append("--rho=0.1")  # given: no note on stderr
    done = subprocess.run(
        [*command, "--test", "sign"], capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0 and done.stdout.count("test=sign") == 3
    # the reader is gone before anything is written (as with `| head` on a long output)
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait() == 1 and "Traceback" not in err and "Error" not in err


def test_the_tests_take_percentages_and_fractions_as_fractions(capsys, small_csv, tmp_path):
    # the same scores as fractions and as percentages give the same numbers with a rope in
    # fractions; as raw scores the percentages keep their unit (a rope of 1 point = 0.01)
    table = pd.read_csv(small_csv)
    percent = tmp_path / "percent.csv"
    table.assign(score=table["score"] * 100).to_csv(percent, index=False)
    base = ["--a", "rf", "--b", "svm", "--test", "bayes-signed-rank", "--format", "json"]
    outs = {}
    for name, path, scale, rope in (
        ("fraction", small_csv, "fraction", "0.01"),
        ("percent", percent, "percent", "0.01"),
        ("raw", percent, "raw", "1"),
    ):
        code, out, _ = _run(capsys, "compare", str(path), "--scale", scale, "--rope", rope, *base)
        assert code == 0, name
        outs[name] = json.loads(out)
    probs = {k: [v[0][p] for p in ("p_left", "p_rope", "p_right")] for k, v in outs.items()}
    assert probs["percent"] == pytest.approx(probs["fraction"], abs=1e-12)
    assert probs["raw"] == pytest.approx(probs["fraction"], abs=1e-12)
    assert difference_scale("percent") == "fraction"


def _mirror(row: dict) -> dict:
    """A row of ``compare`` as the comparison with the two learners' scores exchanged gives
    it: sides, learners and regions swapped, differences negated."""
    swap = {"p_left": "p_right", "p_left_se": "p_right_se", "n_left": "n_right",
            "prob_a_better": "prob_b_better", "n_significant_a": "n_significant_b"}  # fmt: skip
    swap |= {v: k for k, v in swap.items()}
    words = {"left": "right", "right": "left", "a": "b", "b": "a"}
    if row["test"] == "idp-signed-rank":  # P(a better): lower and upper bounds swap
        swap = {"lower_prob_a_better": "upper_prob_a_better", "prob_a_better": "prob_b_better"}
        swap |= {f"{k}_se": f"{v}_se" for k, v in swap.items()}  # errors swap alike
        swap |= {v: k for k, v in swap.items()}
    out = {swap.get(k, k): v for k, v in row.items()}
    for key in ("decision", "favours"):
        if key in out:
            out[key] = words.get(out[key], out[key])
    if row["test"] == "correlated-t" and "mean" in row:
        out["mean"], out["statistic"] = -row["mean"], -row["statistic"]
    if row["test"] == "sign":
        out["statistic"] = row["n_datasets"] - row["statistic"]
    if row["test"] == "idp-signed-rank":
        for key in ("lower_prob_a_better", "upper_prob_a_better"):
            out[key] = 1 - out[key]
    return out


def _a_ahead_of_b(seed: int, mean: float, sd: float) -> list[tuple]:
    """Rows of learners a and b on 12 data sets x 10 folds: a ahead by a normal(mean, sd)
    margin drawn per data set, each score with noise of sd 0.02."""
    gen = np.random.default_rng(seed)
    shift = gen.normal(mean, sd, 12)
    return [
        (lrn, f"d{d}", f, 0.7 + (shift[d] if lrn == "a" else 0.0) + gen.normal(0, 0.02))
        for d in range(12)
        for f in range(10)
        for lrn in "ab"
    ]


def test_compare_mirrors_when_the_learners_scores_are_exchanged(tmp_path, capsys):
    # a beats b on most data sets by various margins; the same table with the two learners'
    # scores exchanged and the asymmetric rope mirrored must give every output mirrored
    rows = _a_ahead_of_b(seed=4, mean=0.02, sd=0.015)
    table = _write(tmp_path, rows, "t.csv")
    swapped = _write(tmp_path, [({"a": "b", "b": "a"}[r[0]], *r[1:]) for r in rows], "s.csv")
    common = ["--a", "a", "--b", "b", "--format", "json", "--n-samples", "2000", "--rho", "0.1"]
    _, out, _ = _run(capsys, "compare", str(table), "--rope=-0.01,0.02", *common)
    _, out_swapped, _ = _run(capsys, "compare", str(swapped), "--rope=-0.02,0.01", *common)
    rows_t, rows_s = json.loads(out), json.loads(out_swapped)
    assert {r["test"] for r in rows_t} == set(TESTS)
    assert len(rows_t) == len(rows_s)
    for row, other in zip(rows_t, rows_s, strict=True):
        assert _mirror(row) == pytest.approx(other, abs=1e-12), row["test"]
    decided = {r["test"]: r["decision"] for r in rows_t if r["test"] != "correlated-t"}
    # the first learner wins where the tests decide: the mirror swaps decisions, not just ties
    assert [decided[t] for t in ("poisson", "signed-rank", "sign", "idp-signed-rank")] == ["a"] * 4


@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("order", [("a", "b", "c"), ("c", "b", "a")])
def test_rank_names_the_better_learner_of_each_different_pair(tmp_path, capsys, lower, order):
    # c > a > b on every data set: c and b differ significantly, c better, whatever the
    # order of the learners and whether the scores are accuracies or losses
    gen = np.random.default_rng(6)
    rows = [
        (lrn, f"d{d}", f, base + shift + gen.normal(0, 0.001))
        for d, base in enumerate(gen.uniform(0.6, 0.8, 6))
        for f in range(5)
        for lrn, shift in (("a", 0.0), ("b", -0.03), ("c", 0.03))
    ]
    if lower:
        rows = [(*r[:3], 1.0 - r[3]) for r in rows]
    path = _write(tmp_path, rows)
    flags = ["--lower-is-better"] if lower else []
    code, out, _ = _run(capsys, "rank", str(path), "--format", "json", "--learners", *order, *flags)
    assert code == 0
    result = json.loads(out)
    ranks = {r["learner"]: r["avg_rank"] for r in result if "learner" in r}
    assert [r["learner"] for r in result if "learner" in r] == list(order)
    assert ranks == {"c": 1.0, "a": 2.0, "b": 3.0}
    different = {r["significantly_different"]: r["better"] for r in result if "better" in r}
    first, second = sorted(("b", "c"), key=order.index)
    assert different == {f"{first} vs {second}": "c"}


def test_a_warning_of_a_run_is_one_line_in_the_programs_words(capsys, small_csv, monkeypatch):
    # e.g. the hierarchical model's ConvergenceWarning: no source file, line or code
    run = cli.run_test

    def warn_then_run(*args, **kwargs):
        warnings.warn(
            "hierarchical model: 1 divergent transition(s)", ConvergenceWarning, stacklevel=2
        )
        return run(*args, **kwargs)

    monkeypatch.setattr(cli, "run_test", warn_then_run)
    code, out, err = _run(capsys, "compare", str(small_csv), "--all-pairs", "--test", "sign")
    assert code == 0 and out
    # one line per comparison, naming it: with --all-pairs, which fit failed
    pairs = [" vs ".join(pair) for pair in itertools.combinations(("rf", "svm", "knn"), 2)]
    assert err.splitlines() == [
        f"cvcompare: warning: {pair} (sign): hierarchical model: 1 divergent transition(s)"
        for pair in pairs
    ]
    assert ".py" not in err and "ConvergenceWarning" not in err


def test_a_warning_outside_the_comparisons_is_one_line_too(capsys, small_csv, monkeypatch):
    # e.g. a font without a glyph of a learner's name, while the report draws
    build = cli.build_report

    def warn_then_build(*args, **kwargs):
        # as every figure drawing the name warns, each from its own line of code: the
        # line is printed once
        for lineno in (10, 20, 30):
            warnings.warn_explicit(
                "Glyph 23383 missing from font(s) DejaVu Sans.", UserWarning, "figures.py", lineno
            )
        return build(*args, **kwargs)

    monkeypatch.setattr(cli, "build_report", warn_then_build)
    args = ("report", str(small_csv), "-o", str(small_csv.parent / "out"), "--no-hierarchical")
    code, _, err = _run(capsys, *args, "--n-samples", "100")
    assert code == 0, err
    assert (
        "cvcompare: warning: Glyph 23383 missing from font(s) DejaVu Sans. (the figures show "
        "a box for it: name a font that has it in a file matplotlibrc in the working "
        "directory, e.g. 'font.family: Noto Sans CJK JP')\n"
    ) in err
    assert err.count("Glyph 23383") == 1
    assert ".py" not in err and "UserWarning" not in err


@pytest.mark.parametrize("name", ["scores.txt", "scores"])
def test_a_tidy_csv_whose_name_does_not_end_in_csv_is_named_as_such(
    capsys, small_csv, tmp_path, name
):
    path = tmp_path / name
    path.write_text(small_csv.read_text())
    code, out, err = _run(capsys, "rank", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "looks like a tidy CSV" in err and "name ending in .csv" in err


def test_a_compressed_csv_is_read_and_a_file_not_in_utf8_is_named(capsys, small_csv, tmp_path):
    compare = ["--a", "rf", "--b", "svm", "--test", "signed-rank", "--format", "json"]
    code, plain, _ = _run(capsys, "compare", str(small_csv), *compare)
    assert code == 0
    packed = tmp_path / "scores.csv.gz"
    packed.write_bytes(gzip.compress(small_csv.read_bytes()))
    assert _run(capsys, "compare", str(packed), *compare)[:2] == (0, plain)
    code, _, err = _run(capsys, "compare", str(packed), *compare, "--duplicates", "drop")
    assert code == 2 and "FILE is a tidy CSV (its name ends in .csv.gz)" in err
    # the same bytes under another name are read in the block format: named, not a codec's
    # message
    other = tmp_path / "scores.txt"
    other.write_bytes(packed.read_bytes())
    code, out, err = _run(capsys, "compare", str(other), *compare)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{other}: not UTF-8 text (line 1: byte 0x8b); it is compressed with gzip" in err
    # a CSV saved in Latin-1: the line of the first byte that is not UTF-8
    latin = tmp_path / "latin.csv"
    latin.write_bytes(small_csv.read_text().replace("rf,", "naïve,", 1).encode("latin-1"))
    code, out, err = _run(capsys, "compare", str(latin), *compare)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{latin}: not UTF-8 text (line 2: byte 0xef); save it as UTF-8" in err
    # compressed too: the line of the text inside
    packed_latin = tmp_path / "latin.csv.gz"
    packed_latin.write_bytes(gzip.compress(latin.read_bytes()))
    code, out, err = _run(capsys, "compare", str(packed_latin), *compare)
    assert code == 2 and f"{packed_latin}: not UTF-8 text (line 2: byte 0xef); save it" in err
    # compressed otherwise, its bytes locate nothing; cut short, named
    bz = tmp_path / "latin.csv.bz2"
    bz.write_bytes(bz2.compress(latin.read_bytes()))
    code, out, err = _run(capsys, "compare", str(bz), *compare)
    assert code == 2 and f"{bz}: not UTF-8 text; save it as UTF-8" in err
    cut = tmp_path / "cut.csv.gz"
    cut.write_bytes(packed.read_bytes()[:-40])
    code, out, err = _run(capsys, "compare", str(cut), *compare)
    assert code == 2 and err.startswith(f"cvcompare: error: FILE: {cut}: cannot be decompressed")
    # the block format is plain text: gzip's bytes under .gz are to be decompressed
    block = tmp_path / "scores.gz"
    block.write_bytes(gzip.compress(b"rf\nd0 80 81\n"))
    code, out, err = _run(capsys, "compare", str(block), *compare)
    assert code == 2 and f"{block}: not UTF-8 text (line 1: byte 0x8b); it is compressed" in err


@pytest.fixture
def small_block(small_csv, tmp_path) -> Path:
    """The scores of ``small_csv`` in the block format of accuracies.txt (percent)."""
    lines = []
    for learner, rows in pd.read_csv(small_csv).groupby("learner", sort=False):
        lines.append(learner)
        for dataset, folds in rows.groupby("dataset", sort=False):
            lines.append(" ".join([dataset, *(f"{100 * s:.6f}" for s in folds["score"])]))
    path = tmp_path / "scores.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    "command",
    [["compare", "--a", "rf", "--b", "svm"], ["rank"], ["report", "-o", "out", "--n-samples", "9"]],
    ids=["compare", "rank", "report"],
)
@pytest.mark.parametrize(
    ("block", "option", "needle"),
    [
        (
            False,
            ["--duplicates", "drop"],
            "--duplicates drop: FILE is a tidy CSV (its name ends in .csv); --duplicates "
            "applies to the repeated data sets of the block format",
        ),
        (
            False,
            ["--duplicates", "keep"],
            "--duplicates keep: FILE is a tidy CSV (its name ends in .csv)",
        ),
        (
            True,
            ["--scale", "fraction"],
            "--scale fraction: the block format holds accuracies in percent (FILE's name does "
            "not end in .csv); --scale applies to the scores of a tidy CSV",
        ),
        (True, ["--scale", "raw"], "--scale raw: the block format holds accuracies in percent"),
    ],
    ids=["csv-duplicates-drop", "csv-duplicates-keep", "block-scale-fraction", "block-scale-raw"],
)
def test_an_option_given_for_the_other_format_is_refused(
    capsys, small_csv, small_block, tmp_path, monkeypatch, command, block, option, needle
):
    # an option that would do nothing for FILE's format is named, not ignored, even where
    # its value is the other format's default
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.rglob("*"))
    name, *rest = command
    path = small_block if block else small_csv
    code, out, err = _run(capsys, name, str(path), *rest, *option)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"cvcompare: error: {needle}")
    assert sorted(tmp_path.rglob("*")) == before


def test_the_block_format_accepts_scale_percent_and_duplicates(capsys, small_block):
    # --scale percent states what the block format holds: the same results as without it
    base = ["--format", "json", "--n-samples", "2000"]
    compare = ["compare", str(small_block), "--a", "rf", "--b", "svm", *base]
    code, plain, _ = _run(capsys, *compare)
    assert code == 0
    for options in (["--scale", "percent"], ["--duplicates", "keep"], ["--duplicates", "error"]):
        assert _run(capsys, *compare, *options)[:2] == (0, plain)
    rank = ["rank", str(small_block), "--format", "json"]
    code, ranked, _ = _run(capsys, *rank)
    assert code == 0 and _run(capsys, *rank, "--scale", "percent")[:2] == (0, ranked)


@pytest.mark.parametrize(
    ("block", "reading"), [(True, "--duplicates keep"), (False, "--scale percent")]
)
def test_the_report_reruns_with_the_options_that_apply_to_the_files_format(
    capsys, small_csv, small_block, tmp_path, monkeypatch, block, reading
):
    # the rerun command repeats --duplicates for the block format and --scale for a CSV, and
    # not the other (which that format refuses)
    path = small_block
    if not block:
        path = tmp_path / "percent.csv"
        table = pd.read_csv(small_csv)
        table.assign(score=100 * table["score"]).to_csv(path, index=False)
    monkeypatch.chdir(tmp_path)
    argv = ["report", path.name, "-o", "first", "--no-hierarchical", "--n-samples", "200"]
    assert main([*argv, *reading.split()]) == 0
    md = (tmp_path / "first" / "report.md").read_text()
    rerun = re.search(r"Rerun: `(.*)`", md).group(1)
    assert f" {reading} " in rerun
    assert ("--scale" in rerun) is not block and ("--duplicates" in rerun) is block
    words = shlex.split(rerun)
    words[words.index("-o") + 1] = "second"
    assert main(words[1:]) == 0
    capsys.readouterr()
    assert (tmp_path / "second" / "report.md").read_text() == md


def test_compare_in_the_other_order_gives_the_mirrored_probabilities(tmp_path, capsys):
    # b vs a draws the weights a vs b draws (the stream is keyed by the pair, not its
    # order): every probability mirrored exactly, not within Monte Carlo error
    path = _write(tmp_path, _a_ahead_of_b(seed=6, mean=0.005, sd=0.01))
    common = ["--format", "json", "--n-samples", "5000", "--rho", "0.1"]
    _, ab, _ = _run(capsys, "compare", str(path), "--a", "a", "--b", "b", *common)
    _, ba, _ = _run(capsys, "compare", str(path), "--a", "b", "--b", "a", *common)
    ab, ba = json.loads(ab), json.loads(ba)
    for row, other in zip(ab, ba, strict=True):
        if row["test"] in ("bayes-signed-rank", "bayes-sign", "idp-signed-rank"):
            mirrored = _mirror(row) | {"a": "b", "b": "a"}
            assert set(other) == set(mirrored)
            for key, value in mirrored.items():  # probabilities to rounding of their sums
                near = isinstance(value, float)
                assert other[key] == (pytest.approx(value, abs=1e-12) if near else value), key
    # the DP's and IDP's errors: binomial over the 5,000 draws
    idp = next(r for r in ab if r["test"] == "idp-signed-rank")
    for key in ("prob_a_better", "prob_b_better", "lower_prob_a_better", "upper_prob_a_better"):
        p = idp[key]
        assert idp[f"{key}_se"] == pytest.approx(np.sqrt(p * (1 - p) / 5000), rel=1e-12), key
    # and a decision that is not certain either way, so that the draws matter
    srank = next(r for r in ab if r["test"] == "bayes-signed-rank")
    assert 0.01 < max(srank["p_left"], srank["p_rope"], srank["p_right"]) < 0.99


def test_zero_method_split_shares_the_data_sets_without_a_difference(capsys, tmp_path):
    # b is a copy of a on 3 of 8 data sets and 0.03 below it on the others
    gen = np.random.default_rng(8)
    rows = []
    for d in range(8):
        for f in range(10):
            score = 0.8 + gen.normal(0, 0.01)
            rows += [("a", f"d{d}", f, score), ("b", f"d{d}", f, score - 0.03 * (d >= 3))]
    path = _write(tmp_path, rows)
    x = np.array([0.0] * 3 + [0.03] * 5)  # the mean differences a - b, as the test sees them
    pair = ["compare", str(path), "--a", "a", "--b", "b", "--format", "json"]
    results = {}
    for method in ("drop", "split"):
        for test in ("sign", "signed-rank"):
            _, out, err = _run(capsys, *pair, "--test", test, "--zero-method", method)
            (results[method, test],) = json.loads(out)
            results[method, test, "err"] = err
    # drop: 5 wins of 5 trials; split: one zero to each learner, one left out: 6 of 7
    assert results["drop", "sign"]["pvalue"] == pytest.approx(stats.binomtest(5, 5).pvalue)
    assert results["split", "sign"]["pvalue"] == pytest.approx(stats.binomtest(6, 7).pvalue)
    for method, scipy_method in (("drop", "wilcox"), ("split", "zsplit")):
        row = results[method, "signed-rank"]
        ref = stats.wilcoxon(x, zero_method=scipy_method)
        assert row["pvalue"] == pytest.approx(ref.pvalue, rel=1e-12)
        assert row["n_zero"] == 3 and row["zero_method"] == method  # the option's name
        # neither can reach 0.05 here: the note gives the smallest p-value each allows
        floor = {"drop": 2 / 2**5, "split": stats.binomtest(6, 7).pvalue}[method]
        assert (
            "sign: no significant difference can be found at 0.05 on these data sets"
            in (results[method, "sign", "err"])
        )
        assert results[method, "sign", "err"].rstrip().endswith(f"is {floor:.3g}")
    # the report says how they were treated, in the pair's lines and its settings, and
    # reruns with the option
    assert main(["report", str(path), "-o", str(tmp_path / "r"), "--no-hierarchical",
                 "--n-samples", "2500", "--zero-method", "split"]) == 0  # fmt: skip
    md = (tmp_path / "r" / "report.md").read_text()
    assert "3 data sets without a difference split between the learners" in md
    assert "data sets without a difference split between the learners (Demsar 2006" in md
    assert " --zero-method split" in re.search(r"Rerun: `(.*)`", md).group(1)


def test_compare_names_the_data_sets_the_hierarchical_model_gave_noise(capsys, tmp_path):
    pytest.importorskip("httpstan")
    # b is a copy of a on d2 and d5: the model adds noise from the rope to their fold
    # differences (all 0), which makes the fit depend on the rope; compare says so
    gen = np.random.default_rng(12)
    rows = []
    for d in range(6):
        for f in range(10):
            score = 0.8 + gen.normal(0, 0.01)
            gap = 0.0 if d in (2, 5) else 0.02 + gen.normal(0, 0.01)
            rows += [("a", f"d{d}", f, score + gap), ("b", f"d{d}", f, score)]
    path = _write(tmp_path, rows)
    code, out, err = _run(
        capsys, "compare", str(path), "--a", "a", "--b", "b", "--test", "hierarchical",
        "--rho", "0.1", "--format", "json",
    )  # fmt: skip
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["n_noisy_datasets"] == 2
    assert (
        "cvcompare: note: hierarchical: data sets with all fold differences equal got noise "
        "drawn from the rope, as in the authors' code, so these fits depend on the rope "
        "(compare with another --rope): a vs b: d2, d5\n"
    ) in err


def test_raw_scores_of_very_different_scales_get_a_note(capsys, small_csv, tmp_path):
    # RMSEs of house prices (about 3e4) beside RMSEs of about 1e-3: the signed-rank test
    # ranks their differences together, and one rope serves them all
    table = pd.read_csv(small_csv)
    mixed = table.assign(score=table["score"] * np.where(table["dataset"] < "d2", 3e4, 1e-3))
    path = tmp_path / "rmse.csv"
    mixed.to_csv(path, index=False)
    common = ["compare", str(path), "--a", "rf", "--b", "svm", "--scale", "raw"]
    code, _, err = _run(capsys, *common, "--test", "signed-rank")
    assert code == 0
    assert "cvcompare: note: The data sets' scores vary on very different scales (" in err
    assert " times): " in err and "one rope" not in err and "may dominate them" in err
    code, _, err = _run(capsys, *common, "--test", "bayes-sign", "--rope", "0.001")
    assert code == 0 and "one rope (0.001) serves them all" in err
    # the per-data-set tests do not depend on the scales: no note
    code, _, err = _run(capsys, *common, "--test", "correlated-t", "--rope", "0.001")
    assert code == 0 and "different scales" not in err
    # nor do scores of one scale, offset or not: losses near 1000 on d0 whose spread is
    # that of the others' near 1 (what the signed-rank test ranks is their differences)
    for name, scores in (
        ("same", table["score"] * 3e4),
        ("offset", table["score"] + np.where(table["dataset"] == "d0", 1000.0, 0.0)),
    ):
        path = tmp_path / f"{name}.csv"
        table.assign(score=scores).to_csv(path, index=False)
        code, _, err = _run(
            capsys, "compare", str(path), "--a", "rf", "--b", "svm", "--scale", "raw",
            "--test", "signed-rank",
        )  # fmt: skip
        assert code == 0 and "different scales" not in err, name
    # the learners compared: a third learner of another scale on one data set is not theirs
    third = table.assign(score=np.where(table["learner"] == "knn", 1e5, 1.0) * table["score"])
    path = tmp_path / "third.csv"
    third.to_csv(path, index=False)
    code, _, err = _run(capsys, *common[:1], str(path), *common[2:], "--test", "signed-rank")
    assert code == 0 and "different scales" not in err


def test_a_wide_rope_for_percentages_gets_a_note(capsys, small_block):
    # --rope 0.5 meant as half a point is 50 points: the rope is a fraction all the same
    common = ["compare", str(small_block), "--a", "rf", "--b", "svm", "--test", "bayes-sign"]
    code, _, err = _run(capsys, *common, "--rope", "0.5")
    assert code == 0
    assert "cvcompare: note: --rope is a fraction of accuracy also for percentages: " in err
    assert "(-0.5, 0.5) is (-50, 50) points; for (-0.5, 0.5) points give --rope 0.005" in err
    code, _, err = _run(capsys, *common, "--rope=-0.01,0.5")
    assert code == 0 and "points give --rope=-0.0001,0.005" in err
    for rope in ("0.01", "0.05", "0.1"):  # up to 10 points: a rope one may mean
        code, _, err = _run(capsys, *common, "--rope", rope)
        assert code == 0 and "--rope is a fraction" not in err
