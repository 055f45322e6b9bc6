"""The report: its decisions and numbers equal the library's, on small known tables."""

from __future__ import annotations

import html
import json
import os
import re
import shlex
import warnings
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from cvcompare.cli import main
from cvcompare.io import (
    fold_differences,
    mean_differences,
    mean_score_matrix,
    pair_score_sizes,
    read_csv_scores,
)
from cvcompare.report import Report, bayes_sentence, build_report, compare_learners, report
from cvcompare.report.analysis import (
    correlated_t_tallies,
    holm_floor,
    idp_verdict,
    poisson_verdict,
    seed_key,
)
from cvcompare.report.sentences import pair_lines, short_decision
from cvcompare.stats import (
    bayesian_sign_test,
    bayesian_signed_rank,
    friedman_test,
    holm_adjust,
    idp_signed_rank,
)
from cvcompare.stats._results import BayesianDecisionMixin

N = 4000  # Monte Carlo draws: enough for the checks, fast


def _table(seed=11, q=8, folds=10, learners=(("rf", 0.03), ("svm", 0.0), ("knn", -0.02))):
    gen = np.random.default_rng(seed)
    rows = []
    for d in range(q):
        for f in range(folds):
            base = gen.uniform(0.6, 0.9)
            for learner, shift in learners:
                rows.append((learner, f"d{d}", f, base + shift + gen.normal(0, 0.01)))
    return pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])


@pytest.fixture(scope="module")
def small():
    table = _table()
    results = compare_learners(table, hierarchical=False, n_samples=N, seed=3)
    return table, results, build_report(results)


@dataclass(frozen=True)
class _Probs(BayesianDecisionMixin):
    """A Bayesian result with the given (p_left, p_rope, p_right)."""

    p_left: float
    p_rope: float
    p_right: float


def test_idp_bounds_near_the_threshold_show_their_side_of_it():
    from types import SimpleNamespace

    from cvcompare.report.sentences import _idp_sentence

    # lower 0.9496 < 0.95: indeterminate, and not printed as 0.950
    idp = SimpleNamespace(lower_prob=0.9496, upper_prob=0.99, decision=lambda t: "none")
    line = _idp_sentence("a", "b", idp, 0.95, equivalent=False)
    assert "lower 0.9496, upper 0.990" in line


def test_sentence_vocabulary():
    assert (
        bayes_sentence("hnb", "nbc", _Probs(0.001, 0.002, 0.997), (-0.01, 0.01), 0.95)
        == "hnb is practically better than nbc: probability 0.997; rope 0.01"
    )
    assert bayes_sentence("a", "b", _Probs(0.96, 0.04, 0.0), (-0.01, 0.01), 0.95).startswith(
        "b is practically better than a: probability 0.960"
    )
    assert "practically equivalent: probability 0.990" in bayes_sentence(
        "a", "b", _Probs(0.0, 0.99, 0.01), (-0.01, 0.01), 0.95
    )
    # undecided: the three probabilities in the order (left, rope, right)
    assert bayes_sentence("a", "b", _Probs(0.3, 0.25, 0.45), (-0.01, 0.02), 0.95).startswith(
        "no decision (needs a probability above 0.95): b better 0.300, equivalent 0.250, "
        "a better 0.450"
    )
    # near the threshold, enough digits to show on which side of it a probability lies
    assert bayes_sentence("a", "b", _Probs(0.0, 0.0504, 0.9496), (-0.01, 0.01), 0.95) == (
        "no decision (needs a probability above 0.95): b better 0.000, equivalent 0.050, "
        "a better 0.9496; rope 0.01"
    )
    assert bayes_sentence("a", "b", _Probs(0.04996, 0.0, 0.95004), (-0.01, 0.01), 0.95) == (
        "a is practically better than b: probability 0.95004; rope 0.01"
    )


def test_sentences_follow_the_results_own_decision():
    class Undecided(_Probs):
        def decision(self, threshold=0.95):
            return "none"

    sentence = bayes_sentence("a", "b", Undecided(0.0, 0.0, 1.0), (-0.01, 0.01), 0.95)
    assert sentence.startswith("no decision")


def test_undecided_cells_list_the_probabilities_left_rope_right():
    table = _table(q=5, learners=(("a", 0.015), ("b", 0.0)))
    results = compare_learners(table, hierarchical=False, n_samples=N, seed=1)
    md = build_report(results).markdown
    assert "when undecided, P(second better) / P(equivalent) / P(first better)" in md
    assert "in this order (left, rope, right)" in md
    (pair,) = results.pairs
    row = next(line for line in md.splitlines() if line.startswith("| a | b |"))
    cells = row.split(" | ")[3:5]  # Bayesian signed-rank and sign
    undecided = 0
    for cell, post in zip(cells, (pair.bayes_signed_rank, pair.bayes_sign), strict=True):
        if post.decision() == "none":
            undecided += 1
            assert cell == "undecided ({:.2f}/{:.2f}/{:.2f})".format(*post.probs())
    assert undecided


def test_report_decisions_equal_the_library(small):
    table, results, page = small
    assert [(p.first, p.second) for p in results.pairs] == [
        ("rf", "svm"),
        ("rf", "knn"),
        ("svm", "knn"),
    ]
    wil, sgn = [], []
    for pair in results.pairs:
        x, _ = fold_differences(table, pair.first, pair.second)
        means = mean_differences(x)
        key = (3, pair.first, pair.second)
        srank = bayesian_signed_rank(means, n_samples=N, rng=seed_key(*key, "bayes-signed-rank"))
        sign = bayesian_sign_test(means, n_samples=N, rng=seed_key(*key, "bayes-sign"))
        idp = idp_signed_rank(means, n_samples=N, rng=seed_key(*key, "idp-signed-rank"))
        assert pair.bayes_signed_rank.probs() == srank.probs()
        assert pair.bayes_sign.probs() == sign.probs()
        assert pair.idp.lower_prob == idp.lower_prob
        # the IDP sentence names the learner the library's two-sided decision names
        better = {"right": pair.first, "left": pair.second}.get(idp.decision(0.95))
        idp_line = next(
            line
            for line in page.markdown.splitlines()
            if "IDP signed-rank:" in line and f"P({pair.first} better than {pair.second})" in line
        )
        if better is None:
            assert ("neither" if idp.decision(0.95) == "none" else "indeterminate") in idp_line
        else:
            assert f"IDP signed-rank: {better} is better with probability above 0.95" in idp_line
        # differences of 0.02 and more: no test with a rope finds equivalence, so the
        # IDP's having no rope needs no word here (test_tests_without_a_rope_say_why_...)
        assert "no rope" not in idp_line
        for post, name in ((srank, "Bayesian signed-rank test"), (sign, "Bayesian sign test")):
            sentence = f"{name}: " + bayes_sentence(
                pair.first, pair.second, post, (-0.01, 0.01), 0.95
            )
            assert sentence in page.markdown and html.escape(sentence) in page.html
        wil.append(stats.wilcoxon(means).pvalue)
        sgn.append(stats.binomtest(int((means > 0).sum()), int((means != 0).sum())).pvalue)
    for pair, p, adj in zip(results.pairs, wil, holm_adjust(wil), strict=True):
        assert pair.wilcoxon.pvalue == pytest.approx(p, rel=1e-12)
        assert pair.holm["wilcoxon"] == pytest.approx(adj, rel=1e-12)
        assert f"{pair.wilcoxon.pvalue:.3g} ({adj:.3g})" in page.markdown
    for pair, adj in zip(results.pairs, holm_adjust(sgn), strict=True):
        assert pair.holm["sign"] == pytest.approx(adj, rel=1e-12)
    # rf beats knn by 0.05 on every data set: every Bayesian test decides for rf
    rf_knn = results.pairs[1]
    assert "rf is practically better than knn" in page.markdown
    assert rf_knn.bayes_signed_rank.decision() == "right"


def test_report_says_why_the_iman_davenport_statistic_is_infinite():
    # learners 0.05 apart, each data set's mean over 10 folds with noise 0.0045: every data
    # set ranks them rf, svm, knn, so the Friedman chi-square takes its largest value
    # N (k - 1) and F_F divides by zero
    table = _table(learners=(("rf", 0.05), ("svm", 0.0), ("knn", -0.05)))
    results = compare_learners(table, hierarchical=False, n_samples=N)
    assert results.friedman.statistic == pytest.approx(8 * 2, rel=1e-12)
    assert np.isinf(results.friedman.ff_statistic)
    assert (
        "Iman-Davenport F(2, 14) = inf (every data set ranks the learners alike), p = 0; "
        "exact p = 3.57e-06 (of both statistics, by enumerating every ordering of each data "
        "set's ranks; the two above are large-sample approximations): the learners differ at "
        "0.05" in build_report(results).markdown
    )  # the exact p-value of rankings alike: 3!^(1 - 8) = 3.57e-06
    # on two data sets rankings alike are a chance of 1 in 3! = 6 (the exact test): no
    # outcome can be significant at 0.05, whatever the F approximation's p of 0
    two = table[table["dataset"].isin(table["dataset"].unique()[:2])]
    results = compare_learners(two, hierarchical=False, n_samples=N)
    assert results.friedman.ff_pvalue == 0 and results.friedman.exact_floor == 1 / 6
    assert (
        "p = 0; exact p = 0.167 (of both statistics, by enumerating every ordering of each "
        "data set's ranks; the two above are large-sample approximations): no significant "
        "difference at 0.05 (out of reach on 2 data sets: no outcome has an exact p-value "
        "below 0.167)" in build_report(results).markdown
    )
    # one swap from alike on three data sets: the F approximation's p = 0.049 would say
    # they differ, the exact p-value is 7/36 (tests/test_friedman.py enumerates it)
    gen = np.random.default_rng(3)
    rows = [
        (name, f"d{d}", f, mean + 0.005 * gen.standard_normal())
        for d, means in enumerate(((0.9, 0.8, 0.7), (0.9, 0.8, 0.7), (0.8, 0.9, 0.7)))
        for f in range(10)
        for name, mean in zip(("rf", "svm", "knn"), means, strict=True)
    ]
    swap = pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])
    results = compare_learners(swap, hierarchical=False, n_samples=N)
    assert results.friedman.ff_pvalue < 0.05
    assert (
        "Iman-Davenport F(2, 4) = 7.000, p = 0.0494; exact p = 0.194 (of both statistics"
        in build_report(results).markdown
    )
    assert "approximations): no significant difference at 0.05\n" in build_report(results).markdown
    # at alpha 0.15 Nemenyi's CD, 1.86, lies below rf's and knn's rank difference of 2,
    # but the test of all learners does not reject (exact p = 1/6): no pair is listed
    results = compare_learners(two, hierarchical=False, n_samples=N, alpha=0.15)
    assert results.nemenyi.significant.any()
    assert (
        "Significantly different pairs: none: the learners do not differ, as above (1 pair "
        "beyond CD, which the Nemenyi test does not look at then)" in build_report(results).markdown
    )


def test_report_friedman_and_nemenyi(small):
    table, results, page = small
    scores = table.groupby(["dataset", "learner"], sort=False)["score"].mean().unstack()
    fr = friedman_test(scores[["rf", "svm", "knn"]].to_numpy())
    assert results.friedman.statistic == pytest.approx(fr.statistic, rel=1e-12)
    assert f"chi-square = {fr.statistic:.3f}" in page.markdown
    # F_F with its degrees of freedom k - 1 and (k - 1)(N - 1): 3 learners, N data sets
    n = len(scores)
    assert f"Iman-Davenport F(2, {2 * (n - 1)}) = {fr.ff_statistic:.3f}" in page.markdown
    # the better learner first: rf (accuracies 0.05 above knn) has the lower average rank
    assert "Significantly different pairs: rf better than knn (rank difference" in page.markdown
    assert (
        "| IDP (no rope) | Poisson-binomial (no rope) |" in page.markdown
        and "right). The IDP and Poisson-binomial tests have no rope: they ask which learner "
        "is better, not whether by more than the rope, so their decisions do not contradict "
        "'equivalent' elsewhere."
        in page.markdown
    )
    # a pair's Poisson-binomial line says so only where a test with a rope finds the two
    # equivalent (below): none does here
    poisson = [line for line in page.markdown.splitlines() if "Poisson-binomial test:" in line]
    assert len(poisson) == 3 and not any("no rope" in line for line in poisson)
    assert {"cd-diagram.png", "heatmap-better.png", "heatmap-rope.png"} <= set(page.figures)
    # no ties: nothing said about them
    assert results.friedman_ties is None
    assert "not corrected for the ties" not in page.markdown


def test_report_says_when_ties_make_the_friedman_statistic_conservative():
    # svm and knn score the same on every fold of d0 and d3: their means tie there
    table = _table()
    tied = table["dataset"].isin(["d0", "d3"]) & (table["learner"] == "knn")
    table.loc[tied, "score"] = table.loc[
        table["dataset"].isin(["d0", "d3"]) & (table["learner"] == "svm"), "score"
    ].to_numpy()
    results = compare_learners(table, hierarchical=False, n_samples=N, seed=3)
    markdown = build_report(results).markdown
    scores = table.groupby(["dataset", "learner"], sort=False)["score"].mean().unstack()
    ref = stats.friedmanchisquare(*scores[["rf", "svm", "knn"]].to_numpy().T)
    assert results.friedman.tied_datasets == 2
    assert results.friedman_ties.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert f"chi-square = {results.friedman.statistic:.3f}, p = " in markdown
    assert (
        "(Demsar's formula, not corrected for the ties on 2 of 8 data sets, which make it "
        f"conservative; corrected for them, chi-square = {ref.statistic:.3f}, p = " in markdown
    )


def test_report_takes_rank_differences_and_cliques_from_the_nemenyi_result(small, monkeypatch):
    from cvcompare.plots import cd_diagram

    _, results, _ = small
    nem = results.nemenyi
    assert nem.models == results.friedman.models == tuple(results.learners)
    # a result whose differences and cliques the ranks would not give: the report shows them
    given = replace(nem, rank_differences=nem.rank_differences * 2, cliques=((0, 1, 2),))
    drawn = []
    plot = cd_diagram.plot_cd_diagram
    monkeypatch.setattr(
        cd_diagram,
        "plot_cd_diagram",
        lambda *a, **k: drawn.append((a[1], k["cliques"])) or plot(*a, **k),
    )
    md = build_report(replace(results, nemenyi=given)).markdown
    assert f"rf better than knn (rank difference {abs(2 * nem.rank_differences[0, 2]):.2f})" in md
    assert drawn == [(("rf", "svm", "knn"), ((0, 1, 2),))]  # named by the learners


def test_report_states_settings_and_orientation(small):
    _, results, page = small
    md = page.markdown
    assert "every difference is first learner minus second" in md
    assert "root seed 3" in md and "rope = [-0.01, 0.01]" in md
    # rho was not given: the report says that it assumed 10-fold cross-validation
    assert (
        "rho = 0.1 (not given: 10 fold results per data set, 10-fold cross-validation "
        "assumed; use 1/k for k-fold, 0.5 for 5x2 with --rho)" in md
    )
    assert "prior" in md and "IDP prior strength s = 0.5616" in md
    rerun = re.search(r"Rerun: `(.*)`", md).group(1)
    assert "--rho" not in rerun  # assumed again by the rerun
    assert "--seed 3" in rerun and "--rope 0.01" in rerun and "--no-hierarchical" in rerun
    # per-test summary line across data sets
    assert "Bayesian correlated t-test per data set (probability > 0.95): rf practically" in md


def test_an_asymmetric_rope_is_read_with_the_bound_of_each_side():
    results = compare_learners(_table(), rope=(-0.01, 0.03), hierarchical=False, n_samples=N)
    md = build_report(results).markdown
    assert "practically better (left: difference below -0.01)" in md
    assert "practically equivalent (rope: difference in [-0.01, 0.03])" in md
    assert "practically better (right: difference above 0.03)" in md


def test_a_given_rho_is_not_called_assumed():
    results = compare_learners(_table(), rho=0.1, hierarchical=False, n_samples=N)
    md = build_report(results).markdown
    assert "rho = 0.1 (correlation of the fold differences, Nadeau & Bengio)" in md
    assert "assumed" not in md


def test_per_data_set_table_orders_the_regions_left_rope_right(small):
    from cvcompare.stats import bayesian_correlated_ttest

    table, results, page = small
    pair = results.pairs[1]  # rf vs knn: rf better by 0.05 on every data set
    md = page.markdown
    section = md[md.index(f"## {pair.first} vs {pair.second}") :]
    header = "| p (two-sided) | P(knn better) | P(equivalent) | P(rf better) |"
    assert f"| data set | mean difference (rf minus knn) {header}" in section
    x, datasets = fold_differences(table, pair.first, pair.second)
    for name, folds in zip(datasets, x, strict=True):
        post = bayesian_correlated_ttest(folds, rho=0.1, rope=(-0.01, 0.01))
        probs = f"| {post.p_left:.3f} | {post.p_rope:.3f} | {post.p_right:.3f} |"
        row = next(line for line in section.splitlines() if line.startswith(f"| {name} |"))
        assert row.endswith(probs)
        assert post.p_right > 0.95  # the first learner's column holds its large probability


def test_correlated_t_tallies_are_the_reports_and_the_command_lines(small, tmp_path, capsys):
    table, results, page = small
    pair = results.pairs[2]  # svm vs knn: decided on some data sets only
    n = correlated_t_tallies(pair.ttests, 0.95, 0.05)
    decisions = [post.decision(0.95) for _, post in pair.ttests]
    assert [n[f"n_{d}"] for d in ("right", "rope", "left")] == [
        decisions.count(d) for d in ("right", "rope", "left")
    ]
    assert n["n_undecided"] == decisions.count("none") == 6
    significant = [res.mean for res, _ in pair.ttests if res.pvalue < 0.05]
    assert (n["n_significant_a"], n["n_significant_b"]) == (
        sum(m > 0 for m in significant),
        sum(m < 0 for m in significant),
    )
    assert (
        f"svm practically better on {n['n_right']}, equivalent on {n['n_rope']}, knn "
        f"practically better on {n['n_left']}, undecided on 6 of 8 data sets" in page.markdown
    )
    table.to_csv(tmp_path / "s.csv", index=False)
    argv = ["compare", str(tmp_path / "s.csv"), "--a", "svm", "--b", "knn"]
    assert main([*argv, "--test", "correlated-t", "--format", "json"]) == 0
    (summary,) = [r for r in json.loads(capsys.readouterr().out) if "n_right" in r]
    assert {key: summary[key] for key in n} == n


def test_html_is_self_contained(small):
    _, _, page = small
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page.html)
    assert "<script" not in page.html and "@import" not in page.html
    images = re.findall(r'<img [^>]*src="([^"]+)"', page.html)
    assert len(images) == page.markdown.count("](figures/") == len(page.figures)
    assert all(src.startswith("data:image/png;base64,") for src in images)


def test_lower_is_better_mirrors_negated_scores():
    table = _table(seed=5)
    loss = table.assign(score=1.0 - table["score"])  # an error rate: lower is better
    negated = loss.assign(score=-loss["score"])
    raw = {"scale": "raw", "rope": (-0.01, 0.01)}  # raw scores need their rope given
    a = compare_learners(loss, hierarchical=False, n_samples=N, higher_is_better=False, **raw)
    b = compare_learners(negated, hierarchical=False, n_samples=N, **raw)
    for pa, pb in zip(a.pairs, b.pairs, strict=True):
        np.testing.assert_array_equal(pa.x, pb.x)
        assert pa.bayes_signed_rank.probs() == pb.bayes_signed_rank.probs()
        assert pa.bayes_sign.probs() == pb.bayes_sign.probs()
        assert pa.poisson.prob_majority == pb.poisson.prob_majority
        assert pa.wilcoxon.pvalue == pb.wilcoxon.pvalue
    np.testing.assert_array_equal(a.nemenyi.avg_ranks, b.nemenyi.avg_ranks)
    ma, mb = build_report(a).markdown, build_report(b).markdown
    # the per-data-set tables name the subtraction of the raw scores: the losses' reversed
    for pair in a.pairs:
        loss_diff = f"({pair.second} minus {pair.first}; lower scores are better)"
        assert f"| mean difference {loss_diff} |" in ma
        assert f"| mean difference ({pair.first} minus {pair.second}) |" in mb
        ma = ma.replace(loss_diff, f"({pair.first} minus {pair.second})")
    # the mean scores are the raw ones: the losses' are the negated scores' with their sign,
    # and so are those of each data set (their standard deviations the same)
    assert a.mean_scores == tuple(-m for m in b.mean_scores)
    np.testing.assert_array_equal(a.dataset_means, -b.dataset_means)
    np.testing.assert_array_equal(a.dataset_sds, b.dataset_sds)
    strip = re.compile(
        r"lower is better|higher is better|lower scores are better| --lower-is-better|"
        r" \(the scores being losses, the second learner's score minus the first's\)|"
        r"Mean score over the data sets: .*|^\| d\d+ \| .* ± .*$",
        re.MULTILINE,
    )
    assert strip.sub("", ma) == strip.sub("", mb)


def test_raw_scores_set_the_rounding_tolerance_of_the_mean_differences():
    # the same differences on scores shifted to about 12345: the means carry rounding noise
    # of that size, which the comparison removes given the pair's scores' size
    table = _table(seed=5)
    shifted = table.assign(score=np.round(12345 + table["score"], 6))
    large = compare_learners(shifted, hierarchical=False, n_samples=N, scale="raw", rope=(-1, 1))
    for pair in large.pairs:
        sizes = pair_score_sizes(shifted, pair.first, pair.second, pair.datasets)
        assert np.all((sizes > 12345) & (sizes < 12346))
        np.testing.assert_array_equal(pair.means, mean_differences(pair.x, score_size=sizes))


def test_a_pairs_means_do_not_depend_on_the_other_learners_scores():
    # a third learner with scores of 1e14 on every data set: its size, 4 (n + 2) eps 1e14 =
    # 1.1 of rounding tolerance, used to erase the a - b mean differences of about 1e-3
    gen = np.random.default_rng(7)
    rows = []
    for d in range(8):
        for f in range(10):
            a = 0.5 + gen.normal(0, 0.01)
            rows += [("a", f"d{d}", f, a), ("b", f"d{d}", f, a - 1e-3 * (d + 1))]
            rows += [("c", f"d{d}", f, 1e14 * (1 + gen.uniform()))]
    with_c = pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])
    without_c = with_c[with_c["learner"] != "c"]
    options = {"hierarchical": False, "n_samples": N, "scale": "raw", "rope": (-1e-4, 1e-4)}
    pair = compare_learners(with_c, **options).pairs[0]
    alone = compare_learners(without_c, **options).pairs[0]
    assert (pair.first, pair.second) == ("a", "b")
    np.testing.assert_array_equal(pair.means, alone.means)
    assert pair.wilcoxon.n_zero == 0 and pair.wilcoxon.pvalue == alone.wilcoxon.pvalue
    # and the ranks: a and b apart by 1e-5 on each data set, beside c
    close = with_c.copy()
    close.loc[close["learner"] == "a", "score"] = 0.5
    close.loc[close["learner"] == "b", "score"] = 0.50001
    scores, _, names = mean_score_matrix(close)
    assert names == ["a", "b", "c"] and np.all(scores[:, 1] - scores[:, 0] > 9e-6)


def test_each_data_set_has_the_rounding_tolerance_of_its_own_scores():
    # a squared error near 2e10 on one data set, of about 1e-3 on the others: the tolerance
    # of the large scores (4 (n + 2) eps 2e10 = 2e-4 for 10 folds) would erase the others'
    # mean differences (about 3e-5), which are ratios of nothing like rounding noise
    table = _table(seed=5)
    big = table["dataset"] == "d0"
    raw = table.assign(score=np.where(big, 2e10 + 1e6 * table["score"], 1e-3 * table["score"]))
    res = compare_learners(raw, hierarchical=False, n_samples=N, scale="raw", rope=(-1e-6, 1e-6))
    for pair in res.pairs:
        plain = pair.x.mean(axis=1)
        assert pair.datasets[0] == "d0" and np.all(np.abs(plain[1:]) < 2e-4)
        np.testing.assert_allclose(pair.means[1:], plain[1:], rtol=1e-9)
        assert np.all(pair.means[1:] != 0)
        # one size for the table, the largest, takes them for rounding noise
        one_size = mean_differences(pair.x, score_size=2e10 + 1e6)
        assert np.all(one_size[1:] == 0)
    # the signed-rank test ranks all 8 data sets: none is taken for a zero difference
    assert res.pairs[0].wilcoxon.n_zero == 0


@pytest.mark.parametrize("factor", [1e-13, 1e13])
def test_the_rank_tests_do_not_depend_on_the_size_of_raw_scores(factor):
    # the rounding tolerance is relative to the scores' size: scores of 1e-13 are not taken
    # for ties (a tolerance floored at 1, 5e-15, made every mean difference 0), nor scores
    # of 1e13 for distinct; the ranks and the rank tests' p-values are the accuracies'
    table = _table(seed=5)
    base = compare_learners(table, hierarchical=False, n_samples=N)
    scaled = table.assign(score=table["score"] * factor)
    rope = (-0.01 * factor, 0.01 * factor)
    res = compare_learners(scaled, hierarchical=False, n_samples=N, scale="raw", rope=rope)
    np.testing.assert_array_equal(res.friedman.avg_ranks, base.friedman.avg_ranks)
    assert res.friedman.pvalue == pytest.approx(base.friedman.pvalue, rel=1e-12)
    for got, want in zip(res.pairs, base.pairs, strict=True):
        assert got.wilcoxon.n_zero == want.wilcoxon.n_zero == 0
        assert got.wilcoxon.pvalue == pytest.approx(want.wilcoxon.pvalue, rel=1e-12)
        assert got.sign.pvalue == pytest.approx(want.sign.pvalue, rel=1e-12)


def _record_xlabels(monkeypatch, names=("plot_idp", "plot_posterior_density", "plot_shrinkage")):
    """Make the report's plots record their x-axis labels, by plot."""
    from cvcompare.report import figures

    labels = {}

    def recording(name, plot):
        def wrapped(*args, **kwargs):
            ax = plot(*args, **kwargs)
            labels.setdefault(name, []).append(ax.get_xlabel())
            return ax

        return wrapped

    for name in names:
        monkeypatch.setattr(figures, name, recording(name, getattr(figures, name)))
    return labels


@pytest.mark.parametrize("q", [1, 8])
def test_lower_is_better_figures_name_the_reversed_subtraction(monkeypatch, q):
    loss = _table(seed=5, q=q).assign(score=lambda t: 1.0 - t["score"])
    results = compare_learners(
        loss, hierarchical=False, n_samples=N, scale="raw", rope=(-0.01, 0.01),
        higher_is_better=False,
    )  # fmt: skip
    labels = _record_xlabels(monkeypatch)
    build_report(results)
    drawn = [label for plot in labels.values() for label in plot]
    assert len(drawn) == len(results.pairs)  # the IDP plots, or the t-test densities
    for pair, label in zip(results.pairs, drawn, strict=True):
        assert f"({pair.second} minus {pair.first}; lower scores are better)" in label


def test_raw_scores_outside_unit_interval_with_rope_in_their_unit(tmp_path):
    table = _table(learners=(("a", 0.0), ("b", 0.5)))
    rmse = table.assign(score=10 * table["score"])  # e.g. RMSE in units of 10
    path = tmp_path / "rmse.csv"
    rmse.to_csv(path, index=False)
    with pytest.raises(ValueError, match="column 'score'.*scale='raw'"):
        read_csv_scores(path)
    got = read_csv_scores(path, scale="raw")
    results = compare_learners(
        got, hierarchical=False, n_samples=N, scale="raw", rope=(-1.0, 1.0), higher_is_better=False
    )
    # b has a higher RMSE by 5 units: a is better, far outside the rope of 1 unit
    (pair,) = results.pairs
    assert pair.bayes_sign.counts == (0, 0, 8)
    assert "a is practically better than b" in build_report(results).markdown


def test_scores_off_the_stated_scale_and_bad_options_are_refused(tmp_path):
    table = _table()
    percent = table.assign(score=100 * table["score"])
    path = tmp_path / "percent.csv"
    percent.to_csv(path, index=False)
    converted = read_csv_scores(path, scale="percent")  # already fractions
    options = {"hierarchical": False, "n_samples": N}
    # the percent scale applied twice would make every difference 100 times too small
    with pytest.raises(ValueError, match="column 'score' holds only values in \\[0, 1\\] although"):
        compare_learners(converted, scale="percent", **options)
    with pytest.raises(ValueError, match="column 'score' holds 6.*outside \\[0, 1\\]"):
        compare_learners(percent, **options)
    # stated as percent, the same results as the converted table
    a = compare_learners(percent, scale="percent", **options)
    b = compare_learners(converted, **options)
    assert [p.bayes_sign.probs() for p in a.pairs] == [p.bayes_sign.probs() for p in b.pairs]
    # the default rho fits runs of 10-fold cross-validation only
    five = _table(folds=5)
    with pytest.raises(ValueError, match="rho: the default 0.1 assumes 10-fold.* 5 fold"):
        compare_learners(five, **options)
    assert compare_learners(five, rho=0.2, **options).settings.rho == 0.2
    bad = [
        ({"hierarchical": "no"}, TypeError, "hierarchical: expected True or False"),
        ({"learners": "rs"}, TypeError, "learners: expected a sequence of learner names"),
        # a set's order (which learner is first) could change from run to run
        ({"learners": {"r", "s"}}, TypeError, "learners: .* in the order wanted .* got a set"),
        ({"source": 3}, TypeError, "source: expected the input's name as a string"),
        ({"reading": "abc"}, TypeError, "reading: expected a tuple of command-line options"),
        # one point of accuracy means nothing in a raw score's unit: the rope must be given
        ({"scale": "raw"}, ValueError, "^rope: scale='raw' needs a rope in the score's unit"),
    ]
    for kwargs, error, match in bad:
        with pytest.raises(error, match=match):
            compare_learners(table, **{**options, **kwargs})
    with pytest.raises(TypeError, match="table: expected a pandas DataFrame"):
        compare_learners(table.to_numpy(), **options)


def test_one_fold_a_progress_flag_and_results_of_another_kind_are_refused_naming_them():
    options = {"hierarchical": False, "n_samples": N}
    # one fold per data set: named as the table's, not as the t-test's internal argument x
    with pytest.raises(ValueError, match="^table: the correlated t-tests need at least 2 folds"):
        compare_learners(_table(folds=1), rho=0.1, **options)
    with pytest.raises(TypeError, match="^progress: expected True, False or None, got 'yes'"):
        compare_learners(_table(q=2), progress="yes", **options)
    for bad in (None, "results", _table()):
        with pytest.raises(TypeError, match="^results: expected the ComparisonResults"):
            build_report(bad)


def test_single_data_set_runs_the_correlated_t_test():
    table = _table(q=1, learners=(("a", 0.05), ("b", 0.0)))
    page = report(table, hierarchical=False, n_samples=N)
    (pair,) = page.results.pairs
    assert pair.poisson is None and pair.bayes_signed_rank is None
    assert "Bayesian correlated t-test: a is practically better than b" in page.markdown
    assert "need at least two data sets" in page.markdown
    assert list(page.figures) == ["a-b-ttest-density.png"]
    # the page speaks of the folds and of the tests that ran, not of a hierarchical model
    assert "Mean score over the folds: a " in page.markdown
    (reading,) = [x for x in page.markdown.splitlines() if x.startswith("How to read")]
    assert "hierarchical" not in reading
    # the settings are those of the tests that ran
    settings = page.markdown[page.markdown.index("## Settings") :]
    assert "Bayesian correlated t-test prior" in settings
    for other in ("signed-rank", "sign test", "IDP", "Monte Carlo", "Hierarchical"):
        assert other not in settings


def test_cli_report_writes_both_pages_equal_to_the_library(tmp_path, capsys):
    table = _table()
    path = tmp_path / "scores.csv"
    table.to_csv(path, index=False)
    out = tmp_path / "rep"
    same = ["--n-samples", str(N), "--seed", "3", "--format", "json"]
    code = main(["report", str(path), "-o", str(out), "--no-hierarchical", *same])
    printed, err = capsys.readouterr()
    # the one line on stderr: rho assumed, as the page says too
    assert code == 0 and err.startswith("cvcompare: note: --rho not given") and err.count("\n") == 1
    assert json.loads(printed)[0]["pairs"] == 3
    md = (out / "report.md").read_text()
    lib = build_report(
        compare_learners(
            read_csv_scores(path),
            hierarchical=False,
            n_samples=N,
            seed=3,
            source="scores.csv",
            reading=("--scale", "fraction"),
        )
    )
    assert md == lib.markdown
    assert (out / "report.html").read_text() == lib.html
    for name in lib.figures:
        assert (out / "figures" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # compare prints the same probabilities for a pair (same seed streams)
    main(["compare", str(path), "--a", "rf", "--b", "svm", "--test", "bayes-signed-rank", *same])
    (row,) = json.loads(capsys.readouterr()[0])
    first_pair = lib.results.pairs[0]
    assert (row["p_left"], row["p_rope"], row["p_right"]) == first_pair.bayes_signed_rank.probs()


@pytest.mark.parametrize(
    ("rope", "shown"),
    [(["--rope", "0.02"], "[-0.02, 0.02]"), (["--rope=-0.01,0.02"], "[-0.01, 0.02]")],
)
def test_rerun_command_gives_the_same_report(tmp_path, capsys, monkeypatch, rope, shown):
    # scores in percent, two of the three learners in another order than the file's
    (tmp_path / "first").mkdir()
    table = _table()
    table.assign(score=100 * table["score"]).to_csv(tmp_path / "scores.csv", index=False)
    monkeypatch.chdir(tmp_path)
    argv = ["report", "scores.csv", "-o", "first", "--scale", "percent", "--learners", "knn"]
    argv += ["rf", "--no-hierarchical", "--n-samples", str(N), "--seed", "5", *rope]
    argv += ["--rho", "0.0666666667"]
    assert main(argv) == 0
    md = (tmp_path / "first" / "report.md").read_text()
    assert f"rope = {shown}" in md
    rerun = shlex.split(re.search(r"Rerun: `(.*)`", md).group(1))
    # the file is named without its folder, which the page says
    assert "`, in the folder that holds the results file" in md
    assert rerun[:2] == ["cvcompare", "report"] and rerun[rerun.index("-o") + 1] == "DIR"
    assert rerun[rerun.index("--scale") + 1] == "percent"
    assert rerun[rerun.index("--rho") + 1] == "0.0666666667"  # every digit given
    assert rerun[rerun.index("--learners") + 1 :][:2] == ["knn", "rf"]
    rerun[rerun.index("-o") + 1] = "second"
    assert main(rerun[1:]) == 0
    capsys.readouterr()
    for name in ("report.md", "report.html"):
        assert (tmp_path / "second" / name).read_bytes() == (tmp_path / "first" / name).read_bytes()


def test_rerun_command_names_learners_and_a_file_that_start_with_a_minus(
    tmp_path, capsys, monkeypatch
):
    # argparse reads a word starting with "-" as an option: the rerun command must still
    # give these learners (in the chosen order) and this file
    (tmp_path / "first").mkdir()
    table = _table().replace({"learner": {"rf": "-rf", "svm": "-svm"}})
    table.to_csv(tmp_path / "-scores.csv", index=False)
    monkeypatch.chdir(tmp_path)
    argv = ["report", "-o", "first", "--no-hierarchical", "--n-samples", str(N), "--seed", "2"]
    argv += ["--learners=-svm", "--learners", "knn", "--learners=-rf", "--", "-scores.csv"]
    assert main(argv) == 0
    md = (tmp_path / "first" / "report.md").read_text()
    rerun = shlex.split(re.search(r"Rerun: `(.*)`", md).group(1))
    assert rerun[2] == "./-scores.csv"
    assert [w for w in rerun if "svm" in w or "knn" in w or "rf" in w] == [
        "--learners=-svm",
        "knn",
        "--learners=-rf",
    ]
    rerun[rerun.index("-o") + 1] = "second"
    assert main(rerun[1:]) == 0
    capsys.readouterr()
    for name in ("report.md", "report.html"):
        assert (tmp_path / "second" / name).read_bytes() == (tmp_path / "first" / name).read_bytes()


def test_report_directory_is_replaced_whole_or_not_at_all(tmp_path, capsys, monkeypatch):
    path = tmp_path / "scores.csv"
    _table().to_csv(path, index=False)
    out = tmp_path / "rep"
    common = ["--no-hierarchical", "--n-samples", str(N), "--quiet"]
    assert main(["report", str(path), "-o", str(out), *common]) == 0
    three = {f.name for f in (out / "figures").iterdir()}
    assert any(name.startswith("svm-knn") for name in three)
    # a report of two learners in the same directory: no figure of the earlier one is left
    assert main(["report", str(path), "-o", str(out), "--learners", "rf", "svm", *common]) == 0
    two = {f.name for f in (out / "figures").iterdir()}
    assert two < three and not any(name.startswith("svm-knn") for name in two)
    assert sorted(p.name for p in out.iterdir()) == ["figures", "report.html", "report.md"]
    # a failure while writing, or while moving the new report in, leaves the earlier report
    # as it was, and nothing else
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    page = build_report(compare_learners(_table(), hierarchical=False, n_samples=N))
    broken = Report(
        markdown=page.markdown,
        html=page.html,
        figures=page.figures | {"broken.png": None},
        results=page.results,
    )
    with pytest.raises(TypeError):
        broken.write(out)  # None is not bytes
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    real_replace = os.replace

    def fail_on_markdown(src, dst):
        if Path(src).parent.name == "new" and Path(src).name == "report.md":
            raise OSError("disk full")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", fail_on_markdown)
    with pytest.raises(OSError, match="disk full"):
        page.write(out)
    monkeypatch.setattr(os, "replace", real_replace)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    # a figures directory that is not an earlier report's is refused, never deleted: beside
    # no report, or with files a report does not write
    for mine, why in (
        (tmp_path / "mine", "figures is not part of an earlier report of cvcompare"),
        (out, "figures is not an earlier report's figures"),
    ):
        (mine / "figures").mkdir(parents=True, exist_ok=True)
        (mine / "figures" / "paper.pdf").write_bytes(b"%PDF")
        with pytest.raises(ValueError, match=why):
            page.write(mine)
        assert (mine / "figures" / "paper.pdf").read_bytes() == b"%PDF"
    # so are a report.html or report.md that this package did not write
    for name in ("report.html", "report.md"):
        theirs = tmp_path / f"theirs-{name}"
        theirs.mkdir()
        (theirs / name).write_text("<p>my own page</p>")
        with pytest.raises(ValueError, match=f"{name} is not part of an earlier report"):
            page.write(theirs)
        assert [p.name for p in theirs.iterdir()] == [name]
        assert (theirs / name).read_text() == "<p>my own page</p>"
    # ... also beside an earlier report
    page.write(theirs := tmp_path / "beside")
    (theirs / "report.md").write_text("my notes")
    with pytest.raises(ValueError, match="report.md is not part of an earlier report"):
        page.write(theirs)
    assert (theirs / "report.md").read_text() == "my notes"
    # -o naming a file
    capsys.readouterr()
    assert main(["report", str(path), "-o", str(path), *common]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cvcompare: error: -o: ") and "is a file" in err


def test_identical_learners_skip_only_the_hierarchical_model():
    # a learner and a copy of it: every fold difference is 0, which leaves the hierarchical
    # model without a scale; the pair's other tests still run, and the report says why
    table = _table()
    copy = table[table["learner"] == "rf"].assign(learner="rf2")
    results = compare_learners(pd.concat([table, copy]), learners=["rf", "rf2"], n_samples=N)
    (pair,) = results.pairs
    assert (
        pair.hierarchical is None and "constant within every data set" in pair.hierarchical_skipped
    )
    # ties only: theta = 1/2 but for the prior's pseudo-observation, which decides alone
    assert pair.wilcoxon.pvalue == 1 and pair.idp.decision() == "indeterminate"
    md = build_report(results).markdown
    assert f"Hierarchical model: {pair.hierarchical_skipped}" in md


def test_learners_equivalent_on_every_one_of_many_data_sets_get_a_report():
    # 120 data sets, all in the rope: the Bayesian sign test's P(rope) is 1 (its quadrature
    # once gave 1 + 4e-15, which the simplex plot refused, so no report was written)
    gen = np.random.default_rng(5)
    table = _table(q=120, learners=(("rf", 0.0), ("svm", 0.0005)))
    table["score"] += gen.normal(0, 1e-4, len(table))
    results = compare_learners(table, learners=["rf", "svm"], hierarchical=False, n_samples=N)
    (pair,) = results.pairs
    assert pair.bayes_sign.counts == (0, 120, 0)
    assert all(0.0 <= p <= 1.0 for p in pair.bayes_sign.probs())
    md = build_report(results).markdown
    assert "Bayesian sign test: rf and svm are practically equivalent: probability 1.000" in md


@pytest.mark.filterwarnings("ignore::cvcompare.hierarchical.ConvergenceWarning")
def test_heat_maps_keep_the_hierarchical_model_and_mark_its_unfitted_pairs(monkeypatch):
    pytest.importorskip("httpstan")
    from cvcompare.report import figures

    table = _table(q=6)
    copy = table[table["learner"] == "rf"].assign(learner="rf2")
    results = compare_learners(
        pd.concat([table, copy]),
        learners=["rf", "rf2", "svm"],
        n_samples=N,
        chains=2,
        warmup=200,
        draws=200,
    )
    drawn = []
    plot = figures.plot_pairwise_heatmap
    monkeypatch.setattr(
        figures,
        "plot_pairwise_heatmap",
        lambda m, *a, **k: drawn.append((m, k)) or plot(m, *a, **k),
    )
    md = build_report(results).markdown
    rf_svm, rf_rf2, rf2_svm = (results.pairs[i] for i in (1, 0, 2))
    assert rf_rf2.hierarchical is None and rf_svm.hierarchical is not None
    (better, better_kw), (rope, _) = drawn
    assert better[0, 2] == rf_svm.hierarchical.p_right
    assert better[2, 1] == rf2_svm.hierarchical.p_left
    assert rope[0, 2] == rf_svm.hierarchical.p_rope
    missing = np.zeros((3, 3), dtype=bool)
    missing[0, 1] = missing[1, 0] = True
    np.testing.assert_array_equal(better_kw["missing"], missing)
    assert np.isnan(better[missing]).all()
    assert md.count("from the hierarchical model; cells marked 'not fitted' are pairs the") == 2
    assert "(rf vs rf2; see their sections)" in md
    # a fit that failed its diagnostics is named in the captions (here none did, so one is
    # made to)
    assert "failed their sampler diagnostics" not in md
    fit = rf_svm.hierarchical
    failing = replace(fit, diagnostics=replace(fit.diagnostics, problems=("1 divergent",)))
    pairs = [replace(p, hierarchical=failing) if p is rf_svm else p for p in results.pairs]
    captions = [c for _, c, _ in figures.heatmap_figures(replace(results, pairs=pairs))]
    end = "; the fits of rf vs svm failed their sampler diagnostics (see their sections)."
    assert len(captions) == 2 and all(c.endswith(end) for c in captions)
    # the table of results: a hierarchical row for each fitted pair, with its errors
    frame = results.to_frame().set_index(["first", "second", "test"])
    assert ("rf", "rf2", "hierarchical") not in frame.index
    row = frame.loc[("rf", "svm", "hierarchical")]
    fit = rf_svm.hierarchical
    assert (row.p_left, row.p_rope, row.p_right) == fit.probs()
    assert (row.p_left_se, row.p_rope_se, row.p_right_se) == fit.probs_se()
    assert row.diagnostics_ok == fit.diagnostics.ok
    verdict = {"right": "first", "left": "second", "rope": "equivalent"}.get(fit.decision(), "none")
    assert row.verdict == verdict
    assert row.better == {"first": "rf", "second": "svm"}.get(verdict, "")


def test_report_with_hierarchical_model_and_diagnostics(capsys, monkeypatch):
    pytest.importorskip("httpstan")
    from cvcompare.hierarchical import ConvergenceWarning

    table = _table(q=6, learners=(("a", 0.03), ("b", 0.0)))
    # the warning of a fit that failed its diagnostics names its pair
    with pytest.warns(ConvergenceWarning, match="^a vs b: hierarchical model: "):
        results = compare_learners(table, n_samples=N, chains=2, warmup=30, draws=30, progress=True)
    assert "hierarchical model: 100%" in capsys.readouterr().err  # the progress bar over pairs
    (pair,) = results.pairs
    fit = pair.hierarchical
    from cvcompare.report import figures

    grids = []
    plot = figures.plot_posterior_density
    monkeypatch.setattr(
        figures, "plot_posterior_density", lambda x, *a, **k: grids.append(x) or plot(x, *a, **k)
    )
    page = build_report(results)
    # the predictive density is drawn where at least 99% of its mass lies (the mean over the
    # draws of the Student-t masses there), with the rope and every data set's mean
    (grid,) = grids
    window = np.mean(
        stats.t.cdf(grid[-1], fit.nu, fit.delta0, fit.sigma0)
        - stats.t.cdf(grid[0], fit.nu, fit.delta0, fit.sigma0)
    )
    assert window >= 0.99
    assert grid[0] < min(-0.01, pair.means.min()) and grid[-1] > max(0.01, pair.means.max())
    sentence = "Hierarchical model (next data set): " + bayes_sentence(
        "a", "b", fit, (-0.01, 0.01), 0.95
    )
    assert sentence in page.markdown
    assert "For the hierarchical model these are, as in Corani et al." in page.markdown
    assert f"Stan runner '{fit.runner}'" in page.markdown
    # R-hat to the digits its limit 1.01 is checked to, over one fit
    assert f"over 1 fit: max R-hat {max(fit.diagnostics.rhat.values()):.4f}," in page.markdown
    # a fit that failed its diagnostics, and again when refitted with 2 x (60 + 60) draws at
    # adapt_delta 0.95 and 2 x (120 + 120) at 0.99 (too few draws for an ESS of 400), says
    # so beside its decision, with the refit
    (line,) = [x for x in page.markdown.splitlines() if sentence in x]
    assert fit.diagnostics.problems  # the case this test is for
    assert (
        f" ({pair.hierarchical_refit}; the refit fails them too: "
        f"{'; '.join(fit.diagnostics.problems)}); mean difference over data sets" in line
    )
    assert pair.hierarchical_refit.startswith(
        "refit 2 of 2 (warmup 120, draws 120, adapt_delta 0.99)"
    )
    # the estimate of the mean difference over data sets, and the predictive masses
    low, high = np.quantile(fit.delta0, [0.025, 0.975])
    assert line.endswith(
        f"; mean difference over data sets (delta0): {np.mean(fit.delta0):+.3g}, 95% credible "
        f"interval {low:+.3g} to {high:+.3g}; predictive probability that the next data set's "
        "difference lies left of, in or right of the rope: "
        + ", ".join(f"{m:.3f}" for m in fit.next_dataset_masses)
        + " (the decision rests instead on the shares of posterior draws under which each "
        "region is the most probable)"
    )
    # and in the table of decisions, and among the settings under its pair's name
    assert f"| {short_decision('a', 'b', fit, 0.95)} (diagnostics failed) |" in page.markdown
    assert f"; warnings: a vs b ({'; '.join(fit.diagnostics.problems)})" in page.markdown
    assert {"a-b-hierarchical-density.png", "a-b-shrinkage.png"} <= set(page.figures)
    # the predictive density's mass in the rope is the mean over the draws of the Student-t
    # masses there (closed form); trapezoid rule on a fine grid
    grid = np.linspace(-0.01, 0.01, 4001)
    mass = np.mean(
        stats.t.cdf(0.01, fit.nu, fit.delta0, fit.sigma0)
        - stats.t.cdf(-0.01, fit.nu, fit.delta0, fit.sigma0)
    )
    assert np.trapezoid(fit.next_dataset_density(grid), grid) == pytest.approx(mass, rel=1e-6)


def test_tests_without_a_rope_say_why_they_decide_where_tests_with_one_find_equivalence():
    # a better by 0.003 on every data set, within the rope of 0.01: the signed-rank and
    # sign tests find the two equivalent, the IDP and Poisson-binomial tests find a better
    gen = np.random.default_rng(5)
    rows = [
        row
        for d in range(12)
        for f in range(10)
        for row in (("a", f"d{d}", f, 0.803 + gen.normal(0, 0.002)), ("b", f"d{d}", f, 0.8))
    ]
    table = pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])
    results = compare_learners(table, hierarchical=False, n_samples=N)
    (pair,) = results.pairs
    assert pair.bayes_signed_rank.decision(0.95) == "rope" and pair.idp.decision(0.95) == "right"
    assert pair.poisson.decision
    lines = build_report(results).markdown.splitlines()
    for start, test in (
        ("IDP signed-rank: a is better", "the IDP test"),
        ("Poisson-binomial test: a is better", "the Poisson-binomial test"),
    ):
        (line,) = [x for x in lines if x.lstrip("- ").startswith(start)]
        assert line.endswith(
            f"; {test} has no rope: it asks which learner is better, not whether by more "
            "than the rope, so a decision here does not contradict 'equivalent' elsewhere)"
        )


def test_the_scores_line_says_the_unit_and_quotes_names_with_commas():
    table = _table(learners=(("svm, rbf", 0.0), ("random forest", 0.02)))
    results = compare_learners(table, hierarchical=False, n_samples=N)
    markdown = build_report(results).markdown
    assert "Learners: 'svm, rbf', 'random forest'." in markdown
    assert "(accuracy-like fractions: 0.01 is one percentage point)" in markdown
    plain = build_report(compare_learners(_table(), hierarchical=False, n_samples=N)).markdown
    assert "Learners: rf, svm, knn." in plain


def test_wilcoxon_and_sign_sentences_name_the_learner_their_statistic_favours():
    # rf - knn: 16 small negative mean differences and 14 large positive ones (fold noise
    # +-0.01 that cancels within each data set). The median is negative, but the rank sums
    # favour rf (R+ = 329 > R- = 136, p = 0.047) and the sign test knn (16 wins of 30)
    z = np.r_[-np.linspace(0.001, 0.002, 16), np.linspace(0.05, 0.08, 14)]
    noise = np.tile([0.01, -0.01], 5)
    rows = [
        row
        for i, d in enumerate(z)
        for f in range(10)
        for row in (("rf", f"d{i}", f, 0.8 + d + noise[f]), ("knn", f"d{i}", f, 0.8))
    ]
    table = pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])
    results = compare_learners(table, hierarchical=False, n_samples=N, seed=1)
    (pair,) = results.pairs
    assert np.median(pair.means) < 0 and (pair.wilcoxon.r_plus, pair.wilcoxon.r_minus) == (
        329,
        136,
    )
    page = build_report(results).markdown
    assert "Wilcoxon signed-rank test: rf and knn differ significantly, rf better" in page
    assert "Sign test: no significant difference" in page


def test_summary_table_names_the_learner_a_significant_two_sided_test_favours():
    # rf is better than knn by 0.05 on every data set: both tests reject after Holm, for rf;
    # rf against svm (0.03) too; svm against knn (0.02) is left to the data
    results = compare_learners(_table(q=12), hierarchical=False, n_samples=N, seed=3)
    page = build_report(results).markdown
    rows = {
        (cells[1], cells[2]): cells
        for line in page.splitlines()
        if line.startswith("| ") and len(cells := [c.strip() for c in line.split("|")]) > 9
    }
    shift = {"rf": 0.03, "svm": 0.0, "knn": -0.02}  # _table's: the better learner by design
    for pair in results.pairs:
        cells = rows[(pair.first, pair.second)]
        for test, cell in (("wilcoxon", cells[8]), ("sign", cells[9])):
            res, holm = getattr(pair, test), pair.holm[test]
            winner = max((pair.first, pair.second), key=shift.get)
            expected = f"{res.pvalue:.3g} ({holm:.3g})"
            assert cell == (f"{winner} better, {expected}" if holm < 0.05 else expected)
    rf_knn = rows[("rf", "knn")]
    assert rf_knn[8].startswith("rf better, ") and rf_knn[9].startswith("rf better, ")
    # the IDP and Poisson-binomial cells name the learner as the other cells do
    for pair in results.pairs:
        cells = rows[(pair.first, pair.second)]
        for verdict, cell in (
            (idp_verdict(pair.idp, 0.95), cells[6]),
            (poisson_verdict(pair.poisson), cells[7]),
        ):
            named = {"first": f"{pair.first} better", "second": f"{pair.second} better"}
            assert cell == named.get(verdict, {"none": "undecided"}.get(verdict, verdict))
    assert rf_knn[6] == rf_knn[7] == "rf better"


def test_exchanging_two_learners_scores_mirrors_their_pair():
    # rf's and knn's scores exchanged, the asymmetric rope mirrored: the pair (rf, knn) gets
    # every probability mirrored, every decision for the other learner, and the ranks swap
    table = _table(seed=8, q=10, learners=(("rf", 0.02), ("svm", 0.0), ("knn", 0.0)))
    swapped = table.assign(learner=table["learner"].replace({"rf": "knn", "knn": "rf"}))
    options = {"learners": ["rf", "svm", "knn"], "hierarchical": False, "n_samples": N}
    a = compare_learners(table, rope=(-0.01, 0.02), **options)
    b = compare_learners(swapped, rope=(-0.02, 0.01), **options)
    pa, pb = a.pairs[1], b.pairs[1]
    assert (pa.first, pa.second) == (pb.first, pb.second) == ("rf", "knn")
    np.testing.assert_array_equal(pa.x, -pb.x)
    for test in ("bayes_signed_rank", "bayes_sign"):
        assert getattr(pb, test).probs() == pytest.approx(getattr(pa, test).probs()[::-1])
    assert pb.bayes_sign.counts == pa.bayes_sign.counts[::-1]
    assert (pb.idp.lower_prob, pb.idp.upper_prob) == pytest.approx(
        (1 - pa.idp.upper_prob, 1 - pa.idp.lower_prob)
    )
    assert (pb.poisson.prob_majority, pb.poisson.prob_majority_negative) == pytest.approx(
        (pa.poisson.prob_majority_negative, pa.poisson.prob_majority)
    )
    for test in ("wilcoxon", "sign"):
        assert getattr(pb, test).pvalue == getattr(pa, test).pvalue
        assert getattr(pb, test).side == -getattr(pa, test).side == -1
    np.testing.assert_array_equal(a.nemenyi.avg_ranks, b.nemenyi.avg_ranks[::-1])
    # every test's decision in words names the other learner
    winners_a, winners_b = (
        re.findall(r"(?<!P\()\b(rf|knn) (?:is (?:practically )?)?better\b", line)
        for pair, settings in ((pa, a.settings), (pb, b.settings))
        for line in [
            "\n".join(
                x for x in pair_lines(pair, settings, len(a.pairs)) if "per data set" not in x
            )
        ]
    )
    assert set(winners_a) == {"rf"} and set(winners_b) == {"knn"}
    assert len(winners_a) == len(winners_b) >= 4


@pytest.mark.parametrize("names", [("svm rbf", "svm,rbf"), ("SVM", "svm")])
def test_learners_whose_names_differ_only_in_punctuation_or_case_get_their_own_figures(names):
    # "svm rbf" and "svm,rbf" are both "svm_rbf" once their punctuation is replaced, "SVM"
    # and "svm" one file on a case-insensitive file system: each pair with knn must still
    # keep its own figures, in the figures directory and the page
    table = _table(learners=((names[0], 0.03), (names[1], -0.02), ("knn", 0.0)))
    page = build_report(compare_learners(table, hierarchical=False, n_samples=N))
    referenced = re.findall(r"\]\(figures/([^)]+\.png)\)", page.markdown)
    assert len(referenced) == len({r.lower() for r in referenced}) == len(page.figures)
    embedded = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page.html)
    assert len(set(embedded)) == len(embedded)


@pytest.mark.parametrize("n_learners", [2, 3])
def test_the_rank_tests_are_said_holm_adjusted_only_over_several_pairs(n_learners):
    # Holm's adjustment over one pair is its p-value: with two learners the report names no
    # adjustment; with three it gives every pair's adjusted p-value, as before. On 5 data
    # sets no pair can differ significantly (the smallest p-value is 2 / 2^5)
    learners = (("rf", 0.03), ("svm", 0.0), ("knn", -0.02))[:n_learners]
    results = compare_learners(_table(q=5, learners=learners), hierarchical=False, n_samples=N)
    page = build_report(results)
    several = n_learners > 2
    assert len(results.pairs) == (3 if several else 1)
    assert ("Holm" in page.markdown) is several and ("Holm" in page.html) is several
    for pair in results.pairs:
        for name, test in (("Wilcoxon signed-rank test", "wilcoxon"), ("Sign test", "sign")):
            res, holm, floor = getattr(pair, test), pair.holm[test], pair.holm_floor[test]
            adjusted = f", Holm-adjusted over the pairs p = {holm:.3g}" if several else ""
            over = ", Holm-adjusted over the pairs," if several else ""
            sentence = (
                f"{name}: no significant difference at 0.05 (p = {res.pvalue:.3g}{adjusted}; "
                f"out of reach on these data sets: no p-value{over} can be below {floor:.3g})"
            )
            assert sentence in page.markdown and html.escape(sentence) in page.html
    lines = page.markdown.splitlines()
    holm = " (Holm)" if several else ""
    header = next(line for line in lines if line.startswith("| first |"))
    assert header.endswith(f"| Poisson-binomial (no rope) | Wilcoxon p{holm} | sign p{holm} |")
    for pair in results.pairs:
        cells = [
            f"{getattr(pair, test).pvalue:.3g}" + (f" ({pair.holm[test]:.3g})" if several else "")
            for test in ("wilcoxon", "sign")
        ]
        (row,) = [line for line in lines if line.startswith(f"| {pair.first} | {pair.second} |")]
        assert row.endswith(f"| {cells[0]} | {cells[1]} |")
    legend = (
        "Wilcoxon and sign cells: the p-value and, in brackets, the p-value Holm-adjusted over "
        "the pairs, per test; where"
        if several
        else "Wilcoxon and sign cells: the p-value (one pair: no adjustment); where"
    )
    assert legend in page.markdown
    pairs, times = (
        (" and 3 pairs", ", times 3 pairs for Holm's adjustment,") if several else ("", "")
    )
    note = (
        f"With 5 data sets{pairs}, the Wilcoxon signed-rank and sign tests cannot find a "
        "significant difference at 0.05: the smallest p-value these data sets allow (every "
        "data set with a difference favouring one learner)"
        f"{times} is {min(1, len(results.pairs) * 2 / 2**5):.3g}."
    )
    assert note in page.markdown


@pytest.mark.parametrize(("q", "reachable"), [(8, False), (12, True)])
def test_report_says_when_the_rank_tests_cannot_reach_significance(q, reachable):
    # five learners 0.01 apart (0.0045 a data set's standard error): no Wilcoxon or sign
    # p-value is below the exact tests' smallest, 2 / 2^q, and Holm's adjustment over the 10
    # pairs multiplies the smallest p-value by 10, so with 8 data sets no pair can be
    # significant at 0.05 (0.078); with 12 (0.0049) every pair is, here
    learners = tuple((f"l{i}", 0.01 * i) for i in range(5))
    results = compare_learners(_table(q=q, learners=learners), hierarchical=False, n_samples=200)
    floor = 10 * 2 / 2**q
    means = [pair.means for pair in results.pairs]
    assert holm_floor("wilcoxon", means) == pytest.approx(floor, rel=1e-12)
    with pytest.raises(ValueError, match=r"^test: expected one of \('wilcoxon', 'sign'\)"):
        holm_floor("signed-rank", means)  # the command line's name is not the field's
    for pair in results.pairs:
        assert pair.holm_floor == pytest.approx({"wilcoxon": floor, "sign": floor}, rel=1e-12)
        assert min(pair.holm.values()) >= floor * (1 - 1e-12)  # Holm never goes below it
        assert (pair.holm["wilcoxon"] < 0.05) is reachable
    markdown = build_report(results).markdown
    note = (
        f"With {q} data sets and 10 pairs, the Wilcoxon signed-rank and sign tests cannot find "
        "a significant difference at 0.05: the smallest p-value these data sets allow (every "
        "data set with a difference favouring one learner), times 10 pairs for Holm's "
        f"adjustment, is {floor:.3g}."
    )
    assert (note in markdown) is not reachable
    reach = "out of reach on these data sets: no p-value, Holm-adjusted over the pairs, can be "
    reach += f"below {floor:.3g})"
    assert markdown.count(reach) == (0 if reachable else 2 * 10)  # both tests, every pair


def test_learners_named_in_letters_and_digits_keep_their_names_in_figure_names():
    # a hash is added only where a name had to change or another learner's differs in case
    table = _table(learners=(("RandomForest", 0.03), ("SVM", -0.02)))
    page = build_report(compare_learners(table, hierarchical=False, n_samples=N))
    pair = [name for name in page.figures if not name.startswith(("cd-", "heatmap-"))]
    assert pair and all(name.startswith("RandomForest-SVM-") for name in pair)


def test_learners_with_long_names_get_figure_names_a_file_system_takes(tmp_path):
    # a learner named by a long description (a pipeline's repr) made file names over the
    # 255 bytes a file name may have, and the report could not be written
    names = ("n" * 200, "h" * 200)
    table = _table(learners=((names[0], 0.03), (names[1], -0.02)))
    page = build_report(compare_learners(table, hierarchical=False, n_samples=N))
    assert max(len(name.encode()) for name in page.figures) <= 255
    page.write(tmp_path / "out")
    assert len(list((tmp_path / "out" / "figures").iterdir())) == len(page.figures)


def test_the_rank_tests_count_the_data_sets_they_leave_out():
    # svm's scores copied to "copy" on 3 of 8 data sets: those differences are zero, and
    # the Wilcoxon and sign tests leave them out (as scipy does by default)
    table = _table(learners=(("svm", 0.0), ("copy", 0.01)))
    svm = table[table["learner"] == "svm"]
    same = table["dataset"].isin(["d0", "d1", "d2"]) & (table["learner"] == "copy")
    table.loc[same, "score"] = svm[svm["dataset"].isin(["d0", "d1", "d2"])]["score"].to_numpy()
    results = compare_learners(table, hierarchical=False, n_samples=N, seed=3)
    (pair,) = results.pairs
    means = table.groupby(["learner", "dataset"])["score"].mean().unstack()
    x = (means.loc["svm"] - means.loc["copy"]).to_numpy()
    assert np.sum(x == 0) == 3
    assert pair.wilcoxon.pvalue == pytest.approx(stats.wilcoxon(x).pvalue, rel=1e-12)
    assert pair.sign.pvalue == pytest.approx(stats.binomtest(5, 5).pvalue, rel=1e-12)
    md = build_report(results).markdown
    for name, res in (("Wilcoxon signed-rank test", pair.wilcoxon), ("Sign test", pair.sign)):
        assert f"{name}: " in md
        line = next(line for line in md.splitlines() if line.lstrip("- ").startswith(name))
        assert f"(p = {res.pvalue:.3g}; 3 data sets without a difference left out" in line


def test_a_decision_of_the_dirichlet_tests_on_few_data_sets_gets_a_note():
    # two data sets whose mean differences lie in the rope: the Bayesian signed-rank test's
    # posterior has no mass outside the observed differences (and its pseudo-observation at
    # zero), so P(rope) = 1 exactly
    table = _table(q=2, learners=(("a", 0.0), ("b", 0.002)))
    results = compare_learners(table, hierarchical=False, n_samples=N, seed=3)
    (pair,) = results.pairs
    assert np.all(np.abs(pair.means) < 0.01)
    assert pair.bayes_signed_rank.probs() == (0.0, 1.0, 0.0)
    md = build_report(results).markdown
    assert "With only 2 data sets, read the decisions of the Bayesian signed-rank and sign" in md
    # the hierarchical model, not fitted here, is not named as the other view
    assert "near 1)." in md and "The hierarchical model also weighs" not in md
    # on 10 data sets, or where neither decides, nothing is said
    for q, shift in ((10, 0.002), (2, 0.011)):
        table = _table(q=q, learners=(("a", 0.0), ("b", shift)))
        results = compare_learners(table, hierarchical=False, n_samples=N, seed=3)
        (pair,) = results.pairs
        decided = {pair.bayes_signed_rank.decision(), pair.bayes_sign.decision()}
        assert decided != {"none"} if q == 10 else decided == {"none"}
        assert "With only" not in build_report(results).markdown


def test_the_report_gives_the_size_of_the_differences(small):
    # each learner's mean score and each pair's mean, median and range of differences,
    # recomputed from the table
    table, results, page = small
    means = table.groupby(["learner", "dataset"])["score"].mean().unstack()
    heading = ", ".join(f"{n} {means.loc[n].mean():.6g}" for n in ("rf", "svm", "knn"))
    assert f"Mean score over the data sets: {heading}." in page.markdown
    for first, second in (("rf", "svm"), ("rf", "knn"), ("svm", "knn")):
        d = (means.loc[first] - means.loc[second]).to_numpy()
        assert (
            f"Mean difference ({first} minus {second}) over the data sets: {d.mean():+.3g}, "
            f"median {np.median(d):+.3g}, from {d.min():+.3g} to {d.max():+.3g}; {first} "
            f"better on {np.sum(d > 0)}, {second} on {np.sum(d < 0)}, neither on 0 of 8 "
            "data sets." in page.markdown
        )


def test_the_better_learner_of_a_significantly_different_pair_is_named_first():
    # the best learner last in the table's order: the report names it first, with the
    # difference of average ranks (1 = best) recomputed from the scores
    table = _table(learners=(("weak", -0.02), ("mid", 0.0), ("strong", 0.03)))
    results = compare_learners(table, hierarchical=False, n_samples=N, seed=3)
    scores = table.groupby(["dataset", "learner"])["score"].mean().unstack()
    ranks = stats.rankdata(-scores[["weak", "mid", "strong"]].to_numpy(), axis=1).mean(axis=0)
    assert ranks[2] < ranks[0]
    md = build_report(results).markdown
    assert f"strong better than weak (rank difference {ranks[0] - ranks[2]:.2f})" in md


@pytest.mark.filterwarnings("ignore::cvcompare.hierarchical.ConvergenceWarning")
def test_the_hierarchical_line_gives_its_errors_its_refit_and_its_noisy_data_sets():
    pytest.importorskip("httpstan")
    # b a copy of a on d1 and d4: their fold differences are all 0, and the fit adds noise
    # from the rope to them; 2 chains x (20 + 20) cannot pass the diagnostics, so the fit
    # is run again with twice the warm-up and draws and adapt_delta 0.95, then twice that
    # at 0.99
    table = _table(q=6, learners=(("a", 0.02), ("b", 0.0)))
    copied = table["dataset"].isin(["d1", "d4"]) & (table["learner"] == "b")
    a_rows = table[table["dataset"].isin(["d1", "d4"]) & (table["learner"] == "a")]
    table.loc[copied, "score"] = a_rows["score"].to_numpy()
    results = compare_learners(table, n_samples=N, chains=2, warmup=20, draws=20)
    (pair,) = results.pairs
    fit = pair.hierarchical
    assert [pair.datasets[i] for i in fit.noisy] == ["d1", "d4"]
    assert pair.hierarchical_refit.startswith(
        "refit 2 of 2 (warmup 80, draws 80, adapt_delta 0.99) after: "
    )
    line = next(
        line
        for line in build_report(results).markdown.splitlines()
        if "Hierarchical model (next data set):" in line
    )
    se = ", ".join(  # an error of 0 says why: every draw's vote, or none, went there
        f"{region} {e:.2g}" + ("" if e else f" ({'every' if p == 1 else 'no'} draw voted for it)")
        for region, p, e in zip(("left", "rope", "right"), fit.probs(), fit.probs_se(), strict=True)
    )
    assert f" (posterior-sampling standard errors: {se})" in line
    # the refit's settings and the first fit's problems, then the refit's own verdict
    verdict = (
        f"fails them too: {'; '.join(fit.diagnostics.problems)}"
        if fit.diagnostics.problems
        else "passes them"
    )
    assert f" ({pair.hierarchical_refit}; the refit {verdict})" in line
    assert line.endswith(
        "; 2 data sets with all fold differences equal (d1, d4) got noise drawn from the "
        "rope, as in the authors' code, so the fit depends on the rope: compare with another "
        "rope"
    )


def test_results_as_a_table_of_every_test_on_every_pair(small):
    table, results, _ = small
    frame = results.to_frame()
    pairs = [(p.first, p.second) for p in results.pairs]
    tests = ["bayes_signed_rank", "bayes_sign", "dp", "idp", "poisson", "wilcoxon", "sign"]
    assert list(frame["test"]) == tests * len(pairs)  # hierarchical=False: no such rows
    assert list(zip(frame["first"], frame["second"], strict=True))[:: len(tests)] == pairs
    rows = frame.set_index(["first", "second", "test"])
    # the two-sided tests against scipy on the mean differences, Holm by hand over the pairs
    means = {(p.first, p.second): p.means for p in results.pairs}
    for test, scipy_p in (
        ("wilcoxon", lambda m: stats.wilcoxon(m).pvalue),
        ("sign", lambda m: stats.binomtest(int((m > 0).sum()), int((m != 0).sum())).pvalue),
    ):
        raw = np.array([scipy_p(means[pair]) for pair in pairs])
        order = np.argsort(raw)
        holm = np.maximum.accumulate((len(raw) - np.arange(len(raw))) * raw[order])
        adjusted = np.empty_like(raw)
        adjusted[order] = np.minimum(holm, 1)
        for pair, p, h in zip(pairs, raw, adjusted, strict=True):
            row = rows.loc[(*pair, test)]
            assert (row.pvalue, row.pvalue_holm) == pytest.approx((p, h), rel=1e-12)
            m = means[pair]
            if test == "sign":  # the side with more wins
                side = "first" if np.sum(m > 0) > np.sum(m < 0) else "second"
            else:  # the side with the larger rank sum of the absolute differences
                ranks = stats.rankdata(np.abs(m[m != 0]))
                larger = ranks[m[m != 0] > 0].sum() > ranks[m[m != 0] < 0].sum()
                side = "first" if larger else "second"
            assert row.verdict == (side if h < 0.05 else "none")
            named = pair[0] if side == "first" else pair[1]
            assert row.better == (named if h < 0.05 else "")
    for pair in results.pairs:
        key = (pair.first, pair.second)
        bsr = rows.loc[(*key, "bayes_signed_rank")]
        assert (bsr.p_left, bsr.p_rope, bsr.p_right) == pair.bayes_signed_rank.probs()
        assert (bsr.p_left_se, bsr.p_rope_se, bsr.p_right_se) == pair.bayes_signed_rank.probs_se()
        # the DP's two probabilities and their binomial errors over its n_samples draws
        dp, draws = rows.loc[(*key, "dp")], pair.dp.sample()
        for p, se, event in ((dp.p_left, dp.p_left_se, draws < 0.5),
                             (dp.p_right, dp.p_right_se, draws > 0.5)):  # fmt: skip
            assert p == np.mean(event)
            assert se == pytest.approx(np.sqrt(p * (1 - p) / draws.size), rel=1e-12)
        idp = rows.loc[(*key, "idp")]
        assert (idp.p_right_lower, idp.p_right_upper) == (pair.idp.lower_prob, pair.idp.upper_prob)
        assert (idp.p_right_lower_se, idp.p_right_upper_se) == (
            pair.idp.lower_mc_se, pair.idp.upper_mc_se
        )  # fmt: skip
        poisson = rows.loc[(*key, "poisson")]
        assert poisson.p_right == pair.poisson.prob_majority
        assert poisson.verdict == (
            "first" if pair.poisson.prob_majority > 0.95 else
            "second" if pair.poisson.prob_majority_negative > 0.95 else "none"
        )  # fmt: skip
    # two learners alike: within the rope for the Bayesian tests with one; no significant
    # difference for the two-sided tests (p 0.055 and 0.070 here: their "none" branch)
    alike = (
        compare_learners(
            _table(learners=(("a", 0.0), ("b", 0.0))), hierarchical=False, n_samples=N, seed=3
        )
        .to_frame()
        .set_index("test")["verdict"]
    )
    assert (alike[["bayes_signed_rank", "bayes_sign"]] == "equivalent").all()
    assert (alike[["wilcoxon", "sign", "poisson"]] == "none").all()
    # learners named like verdicts: the verdict says which side, `better` names it
    named_results = compare_learners(
        _table(learners=(("none", 0.03), ("equivalent", 0.0))),
        hierarchical=False,
        n_samples=N,
        seed=3,
    )
    named = named_results.to_frame()
    assert (named["verdict"] == "first").all() and (named["better"] == "none").all()
    # and the report's sentence names the learner, not a verdict's word
    (pair,) = named_results.pairs
    (poisson,) = [x for x in pair_lines(pair, named_results.settings, 1) if "Poisson" in x]
    assert poisson.startswith("Poisson-binomial test: none is better (P(none wins")
    # a short repr: the learners and pairs, not every array of every result
    text = repr(results)
    assert text.startswith("ComparisonResults(learners=['rf', 'svm', 'knn']") and len(text) < 400


def test_a_report_of_raw_scores_of_very_different_scales_says_so():
    table = _table(seed=5)
    mixed = table.assign(score=table["score"] * np.where(table["dataset"] < "d2", 3e4, 1e-3))
    options = {"hierarchical": False, "n_samples": N, "scale": "raw", "rope": (-1e-3, 1e-3)}
    results = compare_learners(mixed, **options)
    page = build_report(results).markdown
    assert "The data sets' scores vary on very different scales (" in page
    assert "one rope (0.001)" in page
    low, high = results.size_range
    assert high / low == pytest.approx(3e7, rel=0.5)  # the spread of each data set's scores
    # accuracies, or raw scores of one scale: no such note
    assert compare_learners(table, hierarchical=False, n_samples=N).size_range == ()
    same = table.assign(score=table["score"] * 3e4)
    plain = build_report(compare_learners(same, **options | {"rope": (-30, 30)})).markdown
    assert "different scales" not in plain


@pytest.mark.parametrize(
    ("test", "field", "value", "attribute"),
    [
        ("idp-signed-rank", "idp_s", 5.0, "lower_prob"),
        ("bayes-signed-rank", "signed_rank_prior", 3.0, "p_right"),
        ("bayes-sign", "sign_prior", 6.0, "p_rope"),
    ],
)
def test_prior_settings_reach_the_tests(test, field, value, attribute):
    """Each prior the report states among its settings is the one its tests use: a
    different value changes the test's result (the IDP's lower probability moves with s,
    Benavoli et al. 2014, Sec. 3), so no report states a prior it did not compute with."""
    from dataclasses import replace

    from cvcompare.report.analysis import Settings, run_test

    gen = np.random.default_rng(4)
    x = 0.01 + 0.02 * gen.standard_normal((12, 10))
    sizes = np.ones(12)
    base = Settings(
        rho=0.1, rope=(-0.01, 0.01), alpha=0.05, threshold=0.95, seed=1, n_samples=4000,
        scale="fraction",
    )  # fmt: skip

    def result(settings):
        res = run_test(test, x, sizes, settings, "a", "b")
        return res[1] if test == "idp-signed-rank" else res

    changed = result(replace(base, **{field: value}))
    assert getattr(changed, attribute) != getattr(result(base), attribute)
    if test == "idp-signed-rank":
        assert changed.s == value


def test_the_tally_of_per_data_set_t_tests_says_they_are_not_adjusted(small):
    # 8 data sets each tested at 0.05: 0.4 of them expected significant by chance alone
    page = small[2]
    assert (
        "; each data set's test at 0.05, not adjusted for the 8 tests: about 0.4 of them "
        "significant where the learners do not differ)" in page.markdown
    )


def test_the_page_gives_each_learner_s_mean_score_and_spread_on_each_data_set(small):
    # a paper's table of results: the mean over the folds of each data set, +- the standard
    # deviation over them (pandas' own, with ddof 1), in a folded table
    table, results, page = small
    grouped = table.groupby(["dataset", "learner"])["score"]
    means, sds = grouped.mean().unstack(), grouped.std().unstack()
    assert results.learners == ["rf", "svm", "knn"]
    for got, expected in ((results.dataset_means, means), (results.dataset_sds, sds)):
        expected = expected.loc[results.datasets, results.learners].to_numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-12)
        with pytest.raises(ValueError, match="read-only"):
            got[0, 0] = 99.0
    # results without them (built by hand) have no such table
    bare = build_report(replace(results, dataset_means=None, dataset_sds=None)).markdown
    assert "Mean score on each data set" not in bare
    assert (
        "<details><summary>Mean score on each data set (8), ± its standard deviation over "
        "the 10 folds</summary>" in page.markdown
    )
    row = (
        "| d3 | "
        + " | ".join(f"{means.loc['d3', k]:.4g} ± {sds.loc['d3', k]:.2g}" for k in results.learners)
        + " |"
    )
    assert row in page.markdown


def test_one_data_set_of_constant_large_raw_differences_is_drawn():
    # a difference of 1000 on every fold: the t-test's posterior is a point mass, drawn on a
    # narrow grid about it, which was narrower than double precision's spacing at 1000
    # (repeated points, refused by the density plot)
    rows = [
        row
        for f in range(10)
        for row in (("a", "d0", f, 5000.0 + 7 * f), ("b", "d0", f, 4000.0 + 7 * f))
    ]
    table = pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])
    results = compare_learners(table, scale="raw", rope=(-10.0, 10.0), hierarchical=False, rho=0.1)
    assert results.pairs[0].ttests[0][1].is_point_mass
    assert "a-b-ttest-density.png" in build_report(results).figures


def test_percentages_of_the_chosen_learners_below_one_are_judged_with_the_whole_table():
    # error rates in percent: a and b below 1% everywhere, c at 5-20%; comparing a and b
    # alone out of the table takes them as percentages, as fold_differences does; a table
    # of a and b alone is refused (they look like fractions), naming the way to give them
    gen = np.random.default_rng(2)
    rows = [
        (learner, f"d{d}", f, float(gen.uniform(*bounds)))
        for d in range(6)
        for f in range(10)
        for learner, bounds in (("a", (0.1, 0.9)), ("b", (0.1, 0.9)), ("c", (5, 20)))
    ]
    table = pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"])
    options = {"scale": "percent", "higher_is_better": False, "hierarchical": False}
    results = compare_learners(table, learners=["a", "b"], n_samples=N, **options)
    x, _ = fold_differences(table, "a", "b", scale="percent", higher_is_better=False)
    np.testing.assert_array_equal(results.pairs[0].x, x)
    two = table[table["learner"] != "c"]
    for call in (
        lambda: compare_learners(two, n_samples=N, **options),
        lambda: fold_differences(two, "a", "b", scale="percent"),
    ):
        with pytest.raises(ValueError, match="percentages that all lie below 1 .* scale='raw'"):
            call()


def test_a_fit_s_warnings_name_its_pair_also_when_the_fit_then_fails(monkeypatch):
    from cvcompare.report import analysis

    real = analysis.run_test

    def warns_then_fails(test, *args):
        if test != "hierarchical":
            return real(test, *args)
        warnings.warn("first fit: R-hat 1.2", UserWarning, stacklevel=1)
        raise RuntimeError("the sampler stopped")

    monkeypatch.setattr(analysis, "run_test", warns_then_fails)
    table = _table(q=3, learners=(("a", 0.02), ("b", 0.0)))
    with pytest.warns(UserWarning, match="^a vs b: first fit: R-hat 1.2$"):
        with pytest.raises(RuntimeError, match="the sampler stopped"):
            compare_learners(table, n_samples=N)


def test_rows_of_learners_not_compared_are_not_checked_but_for_the_scale():
    # a Python caller's table whose third learner has a missing score and a repeated row:
    # comparing the other two uses, and checks, only their rows
    table = _table(q=4)
    c = table[table["learner"] == "knn"]
    broken = pd.concat([table, c.iloc[:1]]).reset_index(drop=True)
    broken.loc[broken.index[c.index[1]], "score"] = np.nan
    options = {"learners": ["rf", "svm"], "hierarchical": False, "n_samples": N}
    results = compare_learners(broken, **options)
    np.testing.assert_array_equal(results.pairs[0].x, compare_learners(table, **options).pairs[0].x)
    with pytest.raises(ValueError, match="table: column 'score': all values must be finite"):
        compare_learners(broken, learners=["rf", "knn"], hierarchical=False, n_samples=N)


def test_the_settings_say_how_a_failing_fit_is_run_again_whatever_the_remedy():
    from cvcompare.report.analysis import Settings
    from cvcompare.report.blocks import _refits_text

    base = Settings(rho=0.1, rope=(-0.01, 0.01), alpha=0.05, threshold=0.95, seed=0,
                    n_samples=10, scale="fraction")  # fmt: skip
    assert _refits_text(base) == (
        "a fit failing its diagnostics is run again up to 2 times, each time with 2 times "
        "the warm-up and draws, at adapt_delta 0.95, then 0.99"
    )
    once = replace(base, refits=1, refit_adapt_delta=0.9)
    assert _refits_text(once).endswith(
        "run again once, with 2 times the warm-up and draws, at adapt_delta 0.9"
    )
    assert _refits_text(replace(base, refits=0)) == "a fit failing its diagnostics is kept as it is"
