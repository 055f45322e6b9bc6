"""Readers of fold-level results: the published block format and a user's tidy CSV."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from shared_data import REAL, needs_real

from cvcompare.io import (
    fold_differences,
    mean_differences,
    mean_score_matrix,
    read_accuracies,
    read_csv_scores,
    select_learners,
)
from cvcompare.stats import bayesian_correlated_ttest, correlated_ttest, friedman_test
from cvcompare.stats.signed_rank import wilcoxon_test


def _raw_lines(path: Path) -> list[list[str]]:
    """The file split independently of the reader: one token list per non-empty line."""
    return [line.split() for line in path.read_text().splitlines() if line.strip()]


@needs_real
def test_real_file_classifiers_datasets_folds_and_duplicate_credit():
    with pytest.warns(UserWarning, match="'credit'"):
        table = read_accuracies(REAL, as_fraction=False)
    assert list(table.columns) == ["learner", "dataset", "fold", "score"]
    assert list(dict.fromkeys(table["learner"])) == ["nbc", "aode", "hnb", "j48", "j48gr"]
    assert table["dataset"].nunique() == 53
    assert table.groupby(["learner", "dataset"]).size().eq(100).all()
    assert table["score"].between(0, 100).all() and table["score"].max() > 1  # percent
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "keep" is an explicit choice: no warning
        kept = read_accuracies(REAL, duplicates="keep")
    assert kept["dataset"].nunique() == 54 and "credit#2" in set(kept["dataset"])
    with pytest.raises(ValueError, match="'credit' appears twice"):
        read_accuracies(REAL, duplicates="error")
    # percentages are refused where fractions are expected, and accepted when stated: by
    # their scores, since their differences may all lie in [-1, 1] (j48 vs j48gr on cmc),
    # where a test would take them for fractions
    with pytest.raises(ValueError, match="scale='percent'"):
        fold_differences(table, "j48", "j48gr")
    x_pct, _ = fold_differences(table, "nbc", "hnb", scale="percent")  # as fractions
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        x_frac, _ = fold_differences(read_accuracies(REAL), "nbc", "hnb")
    np.testing.assert_allclose(x_pct, x_frac, rtol=0, atol=1e-15)
    # the tests' own check, on differences of percentages taken by hand
    with pytest.raises(ValueError, match="scale='percent'"):
        wilcoxon_test(100 * x_frac.mean(axis=1))
    assert wilcoxon_test(100 * x_frac.mean(axis=1), scale="percent").pvalue == pytest.approx(
        wilcoxon_test(x_frac.mean(axis=1)).pvalue, rel=1e-12
    )


@needs_real
def test_real_file_values_and_fold_differences_match_the_raw_lines():
    raw = _raw_lines(REAL)
    headers = [i for i, toks in enumerate(raw) if len(toks) == 1]
    block = {raw[i][0]: raw[i + 1 : i + 55] for i in headers}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        frac = read_accuracies(REAL, as_fraction=True)
    x, datasets = fold_differences(frac, "j48", "j48gr")
    assert x.shape == (53, 100) and datasets[0] == block["j48"][0][0]
    for row, name in enumerate(datasets):
        a = next(np.array(t[1:], float) for t in block["j48"] if t[0] == name)
        b = next(np.array(t[1:], float) for t in block["j48gr"] if t[0] == name)
        np.testing.assert_allclose(x[row], (a - b) / 100, rtol=0, atol=1e-12)


def _write_block(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "acc.txt"
    path.write_text(text)
    return path


def test_block_format_parsing_and_errors(tmp_path):
    good = "a\n d1 50 60\n d2 70 80\nb\n d1 55 65\n d2 75 85\n"
    table = read_accuracies(_write_block(tmp_path, good), as_fraction=False)
    assert table.shape == (8, 4)
    with pytest.raises(
        ValueError, match="outside \\[0, 1\\] of scale='fraction'; pass scale='percent'"
    ):
        fold_differences(table, "b", "a")
    x, datasets = fold_differences(table, "b", "a", scale="percent")  # as fractions
    np.testing.assert_allclose(x, np.full((2, 2), 0.05), rtol=0, atol=1e-15)
    # by default the fractions the tests take
    fractions = read_accuracies(_write_block(tmp_path, good))["score"]
    np.testing.assert_allclose(fractions, table["score"] / 100, rtol=0, atol=1e-15)
    assert datasets == ["d1", "d2"]
    bad = {
        " d1 50 60\n": "before the first classifier",
        "a\n d1 50 x\n": "must be numbers",
        "a\n d1 50 160\n": r"\[0, 100\]",
        "a\n d1 50 60\n d2 50\n": "has 1 folds",
        # the first data line sets the number of folds, and the message names it
        "a\n d1 50\n d2 50 60\n": r":3: 'd2' has 2 folds, the first data line, 'd1' \(line 2\)",
        "a\n d1 50 nan\n": "must be finite numbers, found nan",
        "a\n d1 50 60\nb\n d2 50 60\n": "same data sets",
        "a\n d1 50 60\n d1 50 61\n": "different accuracies",
        # one word of values joined by semicolons or commas is no classifier's name
        "a\n d1;50,5;60,0\n": r":2: the values are separated by semicolons \('d1;50,5;60,0'\)",
        "a\n d1,50.5,60\n": r":2: the values are separated by commas",
        # fractions in the percent format would be read as accuracies below 1%
        "a\n d1 0.5 0.6\nb\n d1 0.55 0.65\n": "every accuracy lies in \\[0, 1\\]",
        "": "no accuracies",
    }
    for text, match in bad.items():
        with pytest.raises(ValueError, match=match):
            read_accuracies(_write_block(tmp_path, text))
    with pytest.raises(ValueError, match="duplicates"):
        read_accuracies(_write_block(tmp_path, good), duplicates="ignore")


def test_a_pair_of_percentages_below_one_is_taken_as_percent(tmp_path):
    # error rates in percent of two strong learners, below 1% everywhere, in a table whose
    # third learner has larger ones: the pair is on the table's scale, which the whole
    # table's scores tell (the heuristic "all in [0, 1]: fractions" is for a whole table)
    rows = [(learner, d, f, e) for d in ("d1", "d2") for f in range(3) for learner, e in
            (("weak", 12.5), ("a", 0.5 + 0.1 * f), ("b", 0.25))]  # fmt: skip
    table = read_csv_scores(_csv(tmp_path, rows), scale="raw")
    x, _ = fold_differences(table, "a", "b", scale="percent", higher_is_better=False)
    np.testing.assert_allclose(x, [[-0.0025, -0.0035, -0.0045]] * 2, rtol=1e-12)
    for pair in (("weak", "a"), ("a", "b")):  # the pair below 1 is percent all the same
        with pytest.raises(ValueError, match=r"column 'score' holds 12.5, outside \[0, 1\]"):
            fold_differences(table, *pair)
    # a table of fractions taken for percentages was divided by 100 once more, silently
    fractions = table[table["learner"] != "weak"].assign(score=lambda t: t["score"] / 100)
    with pytest.raises(ValueError, match="only values in \\[0, 1\\] although scale='percent'"):
        fold_differences(fractions, "a", "b", scale="percent")


def test_equal_losses_differ_by_zero_not_minus_zero(tmp_path):
    # two learners with the same losses: -(0.0) is -0.0, which printed as "-0" in the
    # command line's and the report's means
    rows = [(learner, "d", f, 0.1 * f) for f in range(4) for learner in ("a", "b")]
    x, _ = fold_differences(read_csv_scores(_csv(tmp_path, rows)), "a", "b", higher_is_better=False)
    assert np.all(x == 0) and not np.any(np.signbit(x))
    # nor scores read as -0.0 (an R^2 printed as -0.000) beside 0.0
    signed = [("a", "d", f, "-0.0") for f in range(4)] + [("b", "d", f, "0.0") for f in range(4)]
    x, _ = fold_differences(
        read_csv_scores(_csv(tmp_path, signed), scale="raw"), "a", "b", scale="raw"
    )
    assert np.all(x == 0) and not np.any(np.signbit(x))


def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path):
    # a file saved as "UTF-8 with BOM" (Windows editors): U+FEFF is no part of 'a'
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + b"a\n d1 50 60\nb\n d1 55 65\n")
    assert list(read_accuracies(path)["learner"].unique()) == ["a", "b"]


def _csv(tmp_path: Path, rows: list[tuple], header="learner,dataset,fold,score") -> Path:
    path = tmp_path / "scores.csv"
    path.write_text(header + "\n" + "\n".join(",".join(map(str, r)) for r in rows) + "\n")
    return path


def _tidy_rows(scale: float = 1.0) -> list[tuple]:
    gen = np.random.default_rng(3)
    rows = []
    for d in ("iris", "wine", "zoo"):
        for f in range(4):
            base = round(gen.uniform(0.6, 0.9), 4)
            rows += [
                ("rf", d, f, round(base * scale, 6)),
                ("svm", d, f, round((base - 0.02) * scale, 6)),
            ]
    return rows


def test_csv_scores_round_trip_and_differences(tmp_path):
    rows = _tidy_rows()
    table = read_csv_scores(_csv(tmp_path, rows[::-1]))  # row order must not matter
    x, datasets = fold_differences(table, "rf", "svm")
    assert datasets == ["zoo", "wine", "iris"]  # order of first appearance
    np.testing.assert_allclose(x, 0.02, atol=1e-12)
    scores, ds, learners = mean_score_matrix(table)
    ref = pd.DataFrame(rows, columns=["l", "d", "f", "s"]).groupby(["d", "l"])["s"].mean()
    for i, d in enumerate(ds):
        for j, learner in enumerate(learners):
            assert scores[i, j] == pytest.approx(ref[(d, learner)])


def test_select_learners_and_the_order_of_the_score_matrix(tmp_path):
    rows = _tidy_rows() + [("knn", d, f, s - 0.05) for _, d, f, s in _tidy_rows()[::2]]
    table = read_csv_scores(_csv(tmp_path, rows))
    sub, chosen = select_learners(table, ["svm", "knn"])
    assert chosen == ["svm", "knn"] and set(sub["learner"]) == {"svm", "knn"}
    assert len(sub) == len(table) * 2 // 3
    full, _, names = mean_score_matrix(table)
    assert names == ["rf", "svm", "knn"]
    scores, _, ordered = mean_score_matrix(sub, chosen)
    assert ordered == chosen
    np.testing.assert_array_equal(scores, full[:, [1, 2]])
    assert select_learners(table)[1] == names
    with pytest.raises(ValueError, match="order: expected the table's learners"):
        mean_score_matrix(sub, ["svm", "rf"])
    with pytest.raises(ValueError, match="order: expected"):
        mean_score_matrix(sub, ["svm", "knn", "knn"])
    # learners named with one letter: the string "sr" is not taken for the order ["s", "r"]
    letters = table[table["learner"] != "knn"].replace({"learner": {"rf": "r", "svm": "s"}})
    with pytest.raises(TypeError, match="order: expected a sequence of learner names"):
        mean_score_matrix(letters, "sr")
    # a set has no order to keep: which learner is first could change from run to run
    with pytest.raises(TypeError, match="order: .* in the order wanted .* got a set"):
        mean_score_matrix(sub, {"svm", "rf"})
    with pytest.raises(TypeError, match="learners: .* in the order wanted .* got a dict"):
        select_learners(table, dict.fromkeys(["rf", "svm"]))
    with pytest.raises(ValueError, match="learners: unknown learner 'xgb'"):
        select_learners(table, ["rf", "xgb"])
    with pytest.raises(ValueError, match="learners: expected at least two different"):
        select_learners(table, ["rf", "rf"])
    with pytest.raises(ValueError, match="learners: 'rf' is given twice; name each learner"):
        select_learners(table, ["rf", "svm", "rf"])
    with pytest.raises(TypeError, match="learners: expected a sequence"):
        select_learners(table, "rf")


def test_csv_percent_is_refused_as_fraction_and_converted_when_stated(tmp_path):
    path = _csv(tmp_path, _tidy_rows(scale=100))
    with pytest.raises(ValueError, match="scale='percent'"):
        read_csv_scores(path)
    pct = read_csv_scores(path, scale="percent")
    frac = read_csv_scores(_csv(tmp_path, _tidy_rows()))
    np.testing.assert_allclose(pct["score"], frac["score"], atol=1e-12)


def test_csv_errors_name_the_problem(tmp_path):
    rows = _tidy_rows()
    with pytest.raises(ValueError, match="missing column") as info:
        read_csv_scores(_csv(tmp_path, rows, header="model,dataset,fold,score"))
    assert str(info.value).endswith("found ['model', 'dataset', 'fold', 'score']")
    # a header that is right but for its separator or case says so
    path = tmp_path / "other.csv"
    for sep, hint in ((";", "separated by semicolons"), ("\t", "separated by tabs")):
        lines = [("learner", "dataset", "fold", "score"), ("rf", "zoo", "0", "0.9")]
        path.write_text("".join(sep.join(line) + "\n" for line in lines))
        with pytest.raises(ValueError, match=f"the file looks {hint}; a tidy CSV is separated"):
            read_csv_scores(path)
    with pytest.raises(ValueError, match="column names must be written in lower case"):
        read_csv_scores(_csv(tmp_path, rows, header="Learner,Dataset,Fold,Score"))
    with pytest.raises(ValueError, match=r"the names \[' dataset', ' fold', ' score'\] have "):
        read_csv_scores(_csv(tmp_path, rows, header="learner, dataset, fold, score"))
    booleans = [(learner, d, f, str(i % 2 == 0)) for i, (learner, d, f, _) in enumerate(rows)]
    with pytest.raises(ValueError, match=r"got True in data row 1 \(a column of True and False"):
        read_csv_scores(_csv(tmp_path, booleans))
    with pytest.raises(ValueError, match="appears more than once"):
        read_csv_scores(_csv(tmp_path, rows + [rows[0]]))
    with pytest.raises(ValueError, match="finite number"):
        read_csv_scores(_csv(tmp_path, rows + [("rf", "x", 0, "nan")]))
    table = read_csv_scores(_csv(tmp_path, rows[:-1]))  # svm lacks one fold on zoo
    with pytest.raises(ValueError, match="same \\(dataset, fold\\) pairs") as info:
        fold_differences(table, "rf", "svm")
    # the message names the learner that lacks the fold, and the fold
    assert "'svm' has no score for 1 of the other's, e.g. (dataset, fold) = ('zoo', 3)" in str(
        info.value
    )
    full = read_csv_scores(_csv(tmp_path, rows))
    with pytest.raises(ValueError, match="a: unknown learner 'knn'"):
        fold_differences(full, "knn", "svm")
    with pytest.raises(ValueError, match="two different learners"):
        fold_differences(full, "rf", "rf")
    uneven = read_csv_scores(_csv(tmp_path, rows[:-2]))  # zoo has 3 folds, others 4
    with pytest.raises(ValueError, match="different numbers of folds") as info:
        fold_differences(uneven, "rf", "svm")
    assert "([3, 4]): 4 on 2 of the 3, but 3 on 'zoo';" in str(info.value)
    with pytest.raises(ValueError, match="no result on data set 'zoo'"):
        mean_score_matrix(
            read_csv_scores(_csv(tmp_path, [r for r in rows if r[:2] != ("svm", "zoo")]))
        )


def test_csv_learner_and_data_set_names_are_kept_as_written(tmp_path):
    # names that look like numbers or like pandas' missing-value words are names: "001" was
    # read as 1 (so "2.5" and "2.50" were refused as one data set repeated) and "NA" as empty
    rows = [
        (learner, dataset, f, 0.7 + 0.01 * f + 0.02 * (learner == "1.0"))
        for dataset in ("001", "2.5", "2.50", "NA")
        for learner in ("1.0", "1", "None")
        for f in range(3)
    ]
    table = read_csv_scores(_csv(tmp_path, rows))
    x, datasets = fold_differences(table, "1.0", "None")
    assert datasets == ["001", "2.5", "2.50", "NA"]
    np.testing.assert_allclose(x, 0.02, atol=1e-12)
    assert list(dict.fromkeys(table["learner"])) == ["1.0", "1", "None"]
    with pytest.raises(ValueError, match="learner, dataset and fold must not be empty"):
        read_csv_scores(_csv(tmp_path, rows + [("", "001", 0, 0.5)]))
    with pytest.raises(ValueError, match="got 'NA' in data row 37"):
        read_csv_scores(_csv(tmp_path, rows + [("2", "001", 0, "NA")]))


def test_folds_numbered_within_each_run_are_refused_saying_how_to_number_them(tmp_path):
    # 2 runs x 3 folds with a run column, folds 0-2 in each run: the run column is not read,
    # so the message says how fold must be numbered and that the run column is ignored
    rows = [
        f"{learner},iris,{run},{fold},0.8"
        for learner in ("rf", "svm")
        for run in range(2)
        for fold in range(3)
    ]
    path = tmp_path / "runs.csv"
    path.write_text("learner,dataset,run,fold,score\n" + "\n".join(rows) + "\n")
    with pytest.raises(
        ValueError,
        match=r"\(rf, iris, 0\) appears more than once; fold must label each fold result of a "
        r"data set once \(.*0 to m k - 1\); the other column\(s\) \['run'\] are ignored$",
    ):
        read_csv_scores(path)


def test_folds_numbered_across_data_sets_pair_as_numbered_within_them(tmp_path):
    rows = _tidy_rows()
    table = read_csv_scores(_csv(tmp_path, rows))
    datasets = list(dict.fromkeys(table["dataset"]))
    n_folds = table["fold"].nunique()
    # fold labels running on from one data set to the next (d0: 0-2, d1: 3-5, ...)
    offset = table["dataset"].map({d: i * n_folds for i, d in enumerate(datasets)})
    running = table.assign(fold=table["fold"] + offset)
    learners = list(dict.fromkeys(table["learner"]))
    x, names = fold_differences(table, learners[0], learners[1])
    y, same = fold_differences(running, learners[0], learners[1])
    np.testing.assert_array_equal(x, y)
    assert names == same


def test_mean_score_matrix_ties_equal_totals_of_correct_predictions(tmp_path):
    # 67 of 80 test cases right for both, over different folds of 20: the exactly rounded
    # means of the accuracies were 0.8375 and 0.8374999999999999, so the Friedman test
    # ranked a tie as a win
    correct = {"rf": (13, 18, 17, 19), "svm": (12, 19, 17, 19), "knn": (10, 10, 10, 10)}
    rows = [(lrn, d, f, k / 20) for d in ("iris", "wine") for lrn, ks in correct.items()
            for f, k in enumerate(ks)]  # fmt: skip
    scores, _, learners = mean_score_matrix(read_csv_scores(_csv(tmp_path, rows)))
    assert learners == ["rf", "svm", "knn"]
    assert np.all(scores[:, 0] == scores[:, 1]) and scores[0, 0] == pytest.approx(0.8375)
    assert friedman_test(scores).avg_ranks.tolist() == [1.5, 1.5, 3.0]
    # means apart by far more than rounding stay apart
    rows += [("ada", d, f, 0.8375 + 1e-9 * (f == 0)) for d in ("iris", "wine") for f in range(4)]
    scores, _, _ = mean_score_matrix(read_csv_scores(_csv(tmp_path, rows)))
    assert np.all(scores[:, 3] > scores[:, 0])


def test_mean_score_matrix_ties_within_each_data_sets_own_rounding():
    # raw scores of very different sizes: the rounding of means of scores near 1e5 (about
    # 1e-9) must not tie means 1e-9 apart on a data set whose scores are near 1e-3
    rows = [
        (learner, dataset, fold, score + 1e-9 * (learner == "b"))
        for learner in ("a", "b")
        for dataset, score in (("large", 1e5), ("small", 1.234567e-3))
        for fold in range(10)
    ]
    table = pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])
    scores, datasets, _ = mean_score_matrix(table)
    assert datasets == ["large", "small"]
    assert scores[0, 0] == scores[0, 1]  # 1e-9 is within the rounding of means of 1e5
    assert scores[1, 1] - scores[1, 0] == pytest.approx(1e-9, rel=1e-6)


def test_mean_score_matrix_refuses_unpaired_folds(tmp_path):
    rows = _tidy_rows()
    table = read_csv_scores(_csv(tmp_path, rows))
    first = table.iloc[0]
    gap = table.drop(index=0)  # one learner loses one fold of one data set
    with pytest.raises(ValueError, match=f"learner '{first['learner']}' has no score for fold"):
        mean_score_matrix(gap)


def test_csv_fractions_are_refused_as_percent(tmp_path):
    # scores of 0.6-0.9 read as percentages would be accuracies below 1%
    with pytest.raises(ValueError, match="only values in \\[0, 1\\] although scale='percent'"):
        read_csv_scores(_csv(tmp_path, _tidy_rows()), scale="percent")


def test_mean_differences_removes_rounding_noise_only(tmp_path):
    # a: 70, 72.5, 67.5 % and b: 70, 70, 70 %: the fold differences 0, +2.5, -2.5 % cancel
    # exactly in decimal, but not after the division by 100 in binary floating point
    rows = [("a", "d", f, v) for f, v in enumerate((70, 72.5, 67.5))]
    rows += [("b", "d", f, 70) for f in range(3)]
    x, _ = fold_differences(read_csv_scores(_csv(tmp_path, rows), scale="percent"), "a", "b")
    assert x.mean(axis=1)[0] != 0  # the noise this function exists for
    assert np.abs(x.mean(axis=1)[0]) < 1e-15
    assert mean_differences(x)[0] == 0.0
    # a genuine mean difference far below any accuracy resolution is kept unchanged
    small = np.array([[1e-9, 0.0, 0.0], [0.1, 0.2, 0.3]])
    np.testing.assert_array_equal(mean_differences(small), small.mean(axis=1))
    with pytest.raises(ValueError, match="x:"):
        mean_differences(np.array([0.1, 0.2]))


def test_fold_differences_equal_in_decimal_are_constant(tmp_path):
    # b is one point above a on every fold of d1: 80 vs 81, 81 vs 82, ... in percent; divided
    # by 100 the ten differences differ in their last bits, a variance of rounding noise that
    # gave the correlated t-test p_rope = 0.825 on a difference lying on the rope's end
    a = (80, 81, 82, 80, 81, 82, 80, 81, 82, 83)
    rows = [("a", "d1", f, v) for f, v in enumerate(a)]
    rows += [("b", "d1", f, v + 1) for f, v in enumerate(a)]
    # d2 varies by a genuine amount (1e-9 of accuracy, far below any test set's resolution)
    rows += [("a", "d2", f, 70 + 1e-7 * (f == 0)) for f in range(10)]
    rows += [("b", "d2", f, 71) for f in range(10)]
    table = read_csv_scores(_csv(tmp_path, rows), scale="percent")
    noisy = table.set_index(["learner", "dataset", "fold"])["score"]
    raw = (noisy["a"] - noisy["b"]).loc["d1"].to_numpy()
    assert np.ptp(raw) > 0  # the noise this handles
    x, _ = fold_differences(table, "a", "b")
    assert np.ptp(x[0]) == 0 and x[0, 0] == pytest.approx(-0.01, abs=1e-15)
    np.testing.assert_array_equal(x[1], (noisy["a"] - noisy["b"]).loc["d2"].to_numpy())
    # so the t-tests see no variance: a point mass, the statistic infinite
    assert correlated_ttest(x[0], rho=0.1).statistic == -np.inf
    assert bayesian_correlated_ttest(x[0], rho=0.1).is_point_mass
    # the tolerance grows with the scores' size: RMSEs near 12345 with decimal differences
    # of 0.003 on every fold differ by about 12345 eps, and are constant too
    rng = np.random.default_rng(0)
    base = np.round(12345 + rng.uniform(0, 1, 10), 3)
    rows = [("a", "d", f, v) for f, v in enumerate(base)]
    rows += [("b", "d", f, v) for f, v in enumerate(np.round(base + 0.003, 3))]
    big = read_csv_scores(_csv(tmp_path, rows), scale="raw")
    diffs = big.set_index(["learner", "dataset", "fold"])["score"]
    assert np.ptp((diffs["b"] - diffs["a"]).to_numpy()) > 0
    y, _ = fold_differences(big, "b", "a", scale="raw")
    assert np.ptp(y) == 0 and y[0, 0] == pytest.approx(0.003, abs=1e-9)
    # each data set by the size of its own scores: beside squared errors near 2e10 (whose
    # rounding is about 5e-5), scores near 0.01 varying by 1e-5 keep their variance
    huge = [("a", "h", f, 2e10 + 7 * f) for f in range(10)]
    huge += [("b", "h", f, 2e10 + 7 * f + 1) for f in range(10)]
    small = [("a", "s", f, 0.01 + 1e-6 * f) for f in range(10)]
    small += [("b", "s", f, 0.02 + 1e-5 * (f % 2)) for f in range(10)]
    both = read_csv_scores(_csv(tmp_path, huge + small), scale="raw")
    z, names = fold_differences(both, "b", "a", scale="raw")
    assert names == ["h", "s"] and np.ptp(z[1]) > 1e-5


def test_mean_differences_ties_equal_means_summed_in_another_order():
    # the same ten fold differences (multiples of 1/50) in two orders: their exact means are
    # equal, the floating-point ones differ in the last bit, which would rank them apart
    first = np.array([0.04, 0.0, -0.1, -0.08, 0.08, -0.04, 0.06, -0.1, -0.1, -0.06])
    second = np.sort(first)[::-1]
    assert first.mean() != second.mean()  # the noise this handles
    x = np.vstack([first, second, -second, np.full(10, 0.02)])
    means = mean_differences(x)
    assert means[0] == means[1] == -means[2]
    assert means[3] == np.full(10, 0.02).mean()  # distinct values stay apart
    # so the signed-rank test sees the tie: scipy on the exact means (-0.03 three times,
    # 0.02) gives the same p-value, by the normal approximation that ties call for
    exact = np.array([-0.03, -0.03, 0.03, 0.02])
    got = wilcoxon_test(means, scale="raw")
    want = stats.wilcoxon(exact, method="auto")
    assert got.pvalue == pytest.approx(want.pvalue, rel=1e-12)


def test_mean_differences_of_large_raw_scores_need_their_size():
    # scores near 12345 (an RMSE, say) read as 3-decimal numbers: each difference carries a
    # rounding error of the size of the scores' last bits, about 12345 * eps, far above the
    # bound for fractions; score_size says how large the scores are
    steps = np.array([0.03, -0.03, 0.012, -0.012, 0.005, -0.005, 0.02, -0.02, 0.001, -0.001])
    rng = np.random.default_rng(0)
    b1, b2 = (np.round(12345 + rng.uniform(0, 1, 10), 3) for _ in range(2))
    zero = (np.round(b1 + steps, 3) - b1)[None, :]  # decimal mean exactly 0
    assert mean_differences(zero)[0] != 0.0  # the noise, left by the bound for fractions
    assert mean_differences(zero, score_size=12346)[0] == 0.0
    # equal decimal means of 0.03 on two data sets
    y = np.vstack([np.round(b + steps + 0.03, 3) - b for b in (b1, b2)])
    plain = mean_differences(y)
    assert plain[0] != plain[1]
    tied = mean_differences(y, score_size=12346)
    assert tied[0] == tied[1] == pytest.approx(0.03, abs=1e-9)
    with pytest.raises(ValueError, match="score_size"):
        mean_differences(y, score_size=-1.0)


def test_mean_differences_take_one_score_size_per_data_set():
    # data set 0: scores near 2e10, its decimal mean 0 read with noise of their last bits;
    # data set 1: scores below 1 with a real mean difference of 3e-5, below the tolerance of
    # the first's size (4 * 12 * eps * 2e10 = 2.1e-4) but far above its own (1.1e-14)
    rng = np.random.default_rng(1)
    base = 2e10 + np.round(rng.uniform(0, 1e6, 10), 3)
    steps = np.array([0.5, -0.5, 0.25, -0.25, 0.125, -0.125, 2.0, -2.0, 1.0, -1.0])
    noisy_zero = (base + steps) - base
    real = np.full(10, 3e-5) + rng.normal(0, 1e-6, 10)
    x = np.vstack([noisy_zero, real])
    means = mean_differences(x, score_size=np.array([2e10 + 1e6, 1.0]))
    assert means[0] == 0.0
    assert means[1] == pytest.approx(real.mean(), rel=1e-12)
    assert mean_differences(x, score_size=2e10 + 1e6)[1] == 0.0  # one size erases it
    # two data sets tie where their means lie within the smaller of their two tolerances:
    # no mean moves by more than its own (1.1e-14 for scores below 1, 1e-5 for scores of 1e9)
    close = np.array([[0.03] * 10, [0.03 + 1e-7] * 10])
    tied = mean_differences(close, score_size=np.array([1e9, 1e9]))
    assert tied[0] == tied[1] == pytest.approx(0.03, abs=1e-15)
    for sizes in ([1.0, 1e9], [1e9, 1.0]):  # the smallest with either tolerance
        apart = mean_differences(close, score_size=np.array(sizes))
        assert apart[1] - apart[0] == pytest.approx(1e-7, rel=1e-6)
    with pytest.raises(ValueError, match=r"score_size: expected one number or one per data"):
        mean_differences(x, score_size=np.ones(3))


def test_mean_difference_ties_grow_from_their_smallest_member_only():
    # magnitudes 0.9 tolerance apart do not chain into one tie: each group spans at most
    # one tolerance above its smallest member
    tolerance = 4 * (1 + 2) * np.finfo(float).eps
    values = 0.1 + 0.9 * tolerance * np.arange(6)
    means = mean_differences(values[:, None])
    assert np.all(means - values[:, None].mean(axis=1) <= 0)
    assert np.all(values - means <= tolerance)
    assert len(set(means)) == 3  # groups {0, 1}, {2, 3}, {4, 5}
    with pytest.raises(ValueError, match="x:"):
        mean_differences(np.zeros((3, 0)))


@needs_real
def test_real_file_zero_mean_differences_are_exact():
    # j48 and j48gr: per data set, the exact mean difference (decimal strings as Fractions)
    # is zero exactly where mean_differences returns zero
    from fractions import Fraction

    raw = _raw_lines(REAL)
    headers = [i for i, toks in enumerate(raw) if len(toks) == 1]
    block = {raw[i][0]: {t[0]: t[1:] for t in raw[i + 1 : i + 55][::-1]} for i in headers}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        x, datasets = fold_differences(read_accuracies(REAL, as_fraction=True), "j48", "j48gr")
    exact = [
        sum(
            Fraction(u) - Fraction(v)
            for u, v in zip(block["j48"][d], block["j48gr"][d], strict=True)
        )
        for d in datasets
    ]
    means = mean_differences(x)
    assert np.array_equal(means == 0, np.array(exact) == 0)
    assert np.sum(means == 0) == 15
    # equal magnitudes (ties of the signed-rank test) exactly where the exact means tie
    size, exact_size = np.abs(means), [abs(e) for e in exact]
    for i in range(len(exact)):
        for j in range(i):
            assert (size[i] == size[j]) == (exact_size[i] == exact_size[j]), (i, j)


def test_tables_built_in_code_are_checked_like_files(tmp_path):
    # a DataFrame made by hand, not read by read_csv_scores: a repeated row is refused
    # (rather than averaged into the means by mean_score_matrix, or failing in pandas' words
    # in fold_differences); text, booleans and NaN as scores, and empty labels, are refused
    table = read_csv_scores(_csv(tmp_path, _tidy_rows()))
    calls = (lambda t: fold_differences(t, "rf", "svm"), mean_score_matrix)
    repeated = pd.concat([table, table.iloc[:1]], ignore_index=True)
    for call in calls:
        with pytest.raises(
            ValueError, match=r"^table: \(learner, dataset, fold\) = \(rf, iris, 0\) appears"
        ):
            call(repeated)
        for bad, error, found in (
            (table.assign(score=table["score"] > 0.8), TypeError, "booleans"),
            (table.assign(score=table["score"].astype(str)), TypeError, "found '"),
            (table.assign(score=table["score"].where(table.index != 2)), ValueError, "finite"),
        ):
            with pytest.raises(error, match=rf"^table: column 'score': .*{found}"):
                call(bad)
        no_label = table.assign(fold=table["fold"].where(table.index != 1))
        with pytest.raises(ValueError, match="^table: learner, dataset and fold must not be empty"):
            call(no_label)
    # an empty table: no score to rank, no learner to pair
    with pytest.raises(ValueError, match="^table: column 'score': expected a non-empty array"):
        mean_score_matrix(table.iloc[:0])
    with pytest.raises(ValueError, match=r"^a: unknown learner 'rf'; the table has \[\]"):
        fold_differences(table.iloc[:0], "rf", "svm")


def test_an_empty_csv_file_is_named_as_empty(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("")
    with pytest.raises(ValueError, match=rf"^{path}: the file is empty; expected a header learner"):
        read_csv_scores(path)
    path.write_text("learner,dataset,fold,score\n")
    with pytest.raises(ValueError, match=rf"^{path}: no rows"):
        read_csv_scores(path)
