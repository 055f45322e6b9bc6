"""Real-data analyses (P-T4, W-T5) on tiny tables whose answers are known, and on the real
results at smoke fidelity."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from shared_data import REAL, needs_real

from cvcompare.experiments import load_experiment, load_yaml
from cvcompare.experiments.analyses import ANALYSES, run_analysis
from cvcompare.io import read_accuracies
from cvcompare.plots.figures import FIGURES

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = load_yaml(ROOT / "workflow" / "schemas" / "experiment.schema.yaml")


def tiny_table(n_datasets=6, n_folds=10):
    """Three learners: ``up`` beats ``base`` by a different margin on every data set (every
    fold), ``same`` equals ``base`` on every fold."""
    rng = np.random.default_rng(0)
    rows = []
    for d in range(n_datasets):
        base = rng.uniform(0.6, 0.8, n_folds)
        margin = 0.02 + 0.01 * d
        for learner, acc in (("base", base), ("up", base + margin), ("same", base)):
            rows += [
                {"learner": learner, "dataset": f"d{d}", "fold": f, "score": a}
                for f, a in enumerate(acc)
            ]
    return pd.DataFrame(rows)


def _run(function, settings, data):
    entry = ANALYSES[function]
    out = entry.function(entry.check(settings, data), data, np.random.default_rng(1))
    return {(r["test"], r["metric"]): r for r in out.rows}, out.figure_data


def test_pair_decisions_on_a_table_with_a_known_answer():
    data = tiny_table()
    # up - base > 0 on every fold of all 6 data sets: p_i = 1, so P(X > 3) = 1; the
    # two-sided signed-rank p-value of 6 positive differences is 2 / 2^6
    got, _ = _run("pair_decisions", {"first": "base", "second": "up"}, data)
    assert got["poisson", "p_second_better"]["value"] == pytest.approx(1.0)
    assert got["poisson", "decision"]["value"] == 1.0
    assert got["signed_rank", "pvalue"]["value"] == pytest.approx(2 / 64)
    assert got["signed_rank", "decision"]["value"] == 1.0
    assert got["poisson", "n_datasets"]["value"] == 6
    # the first 4 data sets: the smallest two-sided p-value is 2 / 2^4 > 0.05
    got, _ = _run("pair_decisions", {"first": "base", "second": "up", "start": 1, "stop": 4}, data)
    assert got["signed_rank", "pvalue"]["value"] == pytest.approx(2 / 16)
    assert got["signed_rank", "decision"]["value"] == 0.0
    assert got["poisson", "decision"]["value"] == 1.0
    # identical learners: p_i = 1/2 everywhere, X ~ Binomial(6, 1/2), P(X > 3) = 22 / 64
    got, _ = _run("pair_decisions", {"first": "base", "second": "same"}, data)
    assert got["poisson", "p_second_better"]["value"] == pytest.approx(22 / 64)
    assert got["poisson", "p_first_better"]["value"] == pytest.approx(22 / 64)
    assert got["poisson", "decision"]["value"] == 0.0
    assert got["signed_rank", "pvalue"]["value"] == 1.0
    assert all(r["uncertainty"] == "exact" for r in got.values())


def test_replicability_split_on_tables_with_known_answers():
    data = tiny_table(n_datasets=8)
    settings = {"q": 6, "n_draws": 30, "n_samples": 2000}
    # every difference positive: Wilcoxon (p = 1 / 64) and Dp(s = 0) (theta = 1) always
    # accept H1, so both are perfectly replicable
    got, per_draw = _run("replicability_split", {"first": "base", "second": "up", **settings}, data)
    for test in ("wilcoxon", "dp"):
        assert got[test, "share_h1"]["value"] == 1.0
        assert got[test, "replicability"]["value"] == 1.0
        assert got[test, "replicability"]["se"] == 0.0
    assert len(per_draw) == 30 and per_draw["pvalue"].eq(1 / 64).all()
    # all differences zero: theta = 1/2 exactly, so the lower posterior is always below
    # 1/2 and the upper always above: the IDP is indeterminate in every draw, while both
    # other tests always keep H0
    got, _ = _run("replicability_split", {"first": "base", "second": "same", **settings}, data)
    assert got["idp", "share_indeterminate"]["value"] == 1.0
    for test in ("wilcoxon", "dp"):
        assert got[test, "share_h1"]["value"] == 0.0
        assert got[test, "replicability_indeterminate"]["value"] == 1.0
        assert np.isnan(got[test, "replicability_determinate"]["value"])
        assert got[test, "replicability_determinate"]["n"] == 0


def test_real_data_analyses_refuse_bad_settings():
    data = tiny_table()
    with pytest.raises(ValueError, match="stop: the real results have 6 data sets"):
        _run("pair_decisions", {"first": "base", "second": "up", "stop": 9}, data)
    with pytest.raises(ValueError, match="start: the real results have 6 data sets, so a "):
        _run("pair_decisions", {"first": "base", "second": "up", "start": 6}, data)
    _run("pair_decisions", {"first": "base", "second": "up", "start": 5}, data)  # two
    with pytest.raises(ValueError, match="two different learners"):
        ANALYSES["pair_decisions"].check({"first": "up", "second": "up"})
    with pytest.raises(ValueError, match="stop: expected an integer >= 3"):
        ANALYSES["pair_decisions"].check({"first": "a", "second": "b", "start": 2, "stop": 2})
    # the setting is named, whichever way round the analysis subtracts
    with pytest.raises(ValueError, match="^second: unknown learner 'nope'"):
        _run("pair_decisions", {"first": "base", "second": "nope"}, data)
    with pytest.raises(ValueError, match="^first: unknown learner 'nope'"):
        _run("replicability_split", {"first": "nope", "second": "up"}, data)
    with pytest.raises(ValueError, match="q: the real results have 6 data sets"):
        _run("replicability_split", {"first": "base", "second": "up", "q": 7}, data)


@needs_real
@pytest.mark.parametrize("eid", ["P-T4", "W-T5"])
def test_real_data_targets_at_smoke_fidelity(eid):
    spec = load_experiment(ROOT / "config" / "experiments" / f"{eid}.yaml", schema=SCHEMA)
    assert spec.needs_real_data
    data = read_accuracies(REAL, duplicates="keep", as_fraction=True)
    assert data["dataset"].nunique() == 54  # both copies of credit
    agg, figure_data = run_analysis(**spec.analysis_job("smoke", 20150601), data=data)
    n_points = len(spec.points("smoke"))
    expected = n_points * sum(len(m["tests"]) for m in spec.metrics)
    assert len(agg) == expected
    if eid == "P-T4":
        assert n_points == 30 and set(agg.loc[agg.metric == "decision", "value"]) <= {0.0, 1.0}
        assert set(agg.loc[agg.metric == "n_datasets", "value"]) == {27.0, 54.0}
    else:
        assert len(figure_data) == 20 * n_points
        fig = FIGURES[spec.figure["function"]](agg, title=spec.title, data=figure_data)
        assert " ".join(fig.get_suptitle().split()) == spec.title and len(fig.axes) == n_points


@needs_real
def test_the_readings_p_t4_s_notes_list_give_the_counts_they_state():
    # the notes explain the gap to the paper's counts by the readings tried on this file;
    # recomputed here (the signed-rank test through scipy, independently of the package)
    from scipy import stats

    from cvcompare.stats.poisson_binomial import poisson_binomial_test

    data = read_accuracies(REAL, duplicates="keep", as_fraction=True)
    learners = ["nbc", "aode", "hnb", "j48", "j48gr"]
    acc = {
        c: np.stack([g["score"].to_numpy() for _, g in rows.groupby("dataset", sort=False)])
        for c, rows in data.groupby("learner")
    }
    pairs = [(a, b) for i, a in enumerate(learners) for b in learners[i + 1 :]]
    subsets = (slice(0, 27), slice(27, 54), slice(0, 54))

    def counts(decides):
        first, second, every = (
            sum(decides(acc[b][s] - acc[a][s]) for a, b in pairs) for s in subsets
        )
        return f"{first}, {second} and {every}"

    def poisson(rho, drop_constant=False):
        def decides(x):
            x = x[x.var(axis=1) > 0] if drop_constant else x
            res = poisson_binomial_test(x, rho=rho)
            return max(res.prob_majority, res.prob_majority_negative) > 0.95

        return decides

    def signed_rank(alpha):
        def decides(x):  # the same decision whichever treatment of zeros and p-value
            ps = {
                stats.wilcoxon(x.mean(axis=1), zero_method=zeros, method=method).pvalue < alpha
                for zeros in ("wilcox", "zsplit")
                for method in ("auto", "approx")
            }
            assert len(ps) == 1, "the readings disagree"
            return ps.pop()

        return decides

    notes = " ".join(
        load_experiment(ROOT / "config/experiments/P-T4.yaml", schema=SCHEMA).notes.split()
    )
    assert f"one-sided at 0.95 either way they are {counts(poisson(0.1))}" in notes
    assert counts(poisson(0.1)) == "2, 6 and 3"
    assert f"counted as even coins, {counts(poisson(0.1, drop_constant=True))}" in notes
    assert f"(the folds taken as independent), {counts(poisson(0.0))}" in notes
    assert f"two-sided at 0.05 it finds {counts(signed_rank(0.05))} differences" in notes
    # one-sided at 0.05 either way: two-sided at 0.10
    assert f"one-sided at 0.05 either way {counts(signed_rank(0.10))}" in notes
