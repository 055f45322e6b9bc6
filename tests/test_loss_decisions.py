"""Loss-based decisions of the signed-rank tests (Benavoli et al. 2014) in the experiments.

The adapters against the library called directly; grid axes setting test settings;
metrics restricted to the runs where another test's column is true; the summaries of a
claim over grid points (area under a curve, pooled rate); the W-F2 experiment at smoke
fidelity, end to end in-process.
"""

import copy
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cvcompare.experiments import (
    SpecError,
    aggregate,
    comparison_table,
    load_experiment,
    load_yaml,
    run_chunk,
)
from cvcompare.experiments.comparison import summary_weights
from cvcompare.experiments.registry import TESTS
from cvcompare.experiments.spec import ExperimentSpec
from cvcompare.simulate.scenario import simulate_comparison
from cvcompare.stats import dp_signed_rank, idp_signed_rank, wilcoxon_test

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = load_yaml(ROOT / "workflow" / "schemas" / "experiment.schema.yaml")
W_SCENARIO = {
    "generator": {"name": "bivariate_normal", "sd": 0.12, "corr": 0.0},
    "delta": {"distribution": "fixed", "value": 0.0},
}


def _sim(delta, seed):
    scen = dict(W_SCENARIO, delta={"distribution": "fixed", "value": delta})
    return simulate_comparison(scen, q=30, rng=seed)


def _expected_loss(prefer_y, delta, l1):
    if delta > 0:
        return 0.0 if prefer_y else 1.0
    return float(l1) if prefer_y else 0.0


# --- adapters against the library ----------------------------------------------------------


@pytest.mark.parametrize("delta", [-0.03, 0.0, 0.02, 0.06])
@pytest.mark.parametrize("l1", [1, 4, 19])
def test_dp_and_idp_adapters_decide_as_the_library(delta, l1):
    for seed in range(4):
        sim = _sim(delta, seed)
        settings = {"l1": l1, "n_samples": 1000}
        dp_row = TESTS["dp_signed_rank"](sim, settings, np.random.default_rng(100 + seed))
        dp = dp_signed_rank(sim.mean_diffs, n_samples=1000, rng=100 + seed, scale="raw")
        assert dp_row["prob_greater"] == dp.prob_greater
        assert dp_row["decision"] == dp.decide(1.0, l1)
        assert dp_row["prefer_y"] == (dp.prob_greater > l1 / (1 + l1))
        assert dp_row["loss"] == _expected_loss(dp_row["prefer_y"], delta, l1)
        assert dp_row["error"] == (dp_row["loss"] > 0)

        idp_row = TESTS["idp_signed_rank"](sim, settings, np.random.default_rng(200 + seed))
        idp = idp_signed_rank(sim.mean_diffs, n_samples=1000, rng=200 + seed, scale="raw")
        assert (idp_row["lower_prob"], idp_row["upper_prob"]) == (idp.lower_prob, idp.upper_prob)
        assert idp_row["decision"] == idp.decide(1.0, l1)
        t = l1 / (1 + l1)
        indeterminate = idp.lower_prob <= t < idp.upper_prob
        assert idp_row["indeterminate"] is indeterminate
        assert idp_row["determinate"] is (not indeterminate)
        if indeterminate:
            assert math.isnan(idp_row["loss"]) and idp_row["error"] is None
        else:
            assert idp_row["loss"] == _expected_loss(idp_row["prefer_y"], delta, l1)


@pytest.mark.parametrize("delta", [-0.02, 0.0, 0.05])
def test_wilcoxon_loss_adapter_is_the_one_sided_test_whatever_the_loss(delta):
    for seed in range(5):
        sim = _sim(delta, seed)
        ref = wilcoxon_test(sim.mean_diffs, alternative="greater")
        for l1 in (1, 19):
            row = TESTS["wilcoxon_loss"](sim, {"l1": l1}, np.random.default_rng(0))
            assert row["pvalue"] == ref.pvalue
            assert row["prefer_y"] == row["reject"] == (ref.pvalue < 0.05)
            assert row["loss"] == _expected_loss(row["prefer_y"], delta, l1)


def test_loss_settings_are_checked_by_the_library():
    sim = _sim(0.0, 1)
    with pytest.raises(ValueError, match="l1"):
        TESTS["dp_signed_rank"](sim, {"l1": -1, "n_samples": 100}, np.random.default_rng(0))
    with pytest.raises(ValueError, match="l0"):
        TESTS["wilcoxon_loss"](sim, {"l0": 0}, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"unknown setting\(s\) \['l2'\]"):
        TESTS["idp_signed_rank"](sim, {"l2": 1}, np.random.default_rng(0))


# --- experiment machinery ------------------------------------------------------------------

SMALL_W = {
    "id": "T-w",
    "title": "a small loss experiment",
    "source": {"paper": "W", "item": "none"},
    "scenario": {**copy.deepcopy(W_SCENARIO), "q": 30},
    "grid": [
        {"name": "delta", "path": "delta.value", "values": [-0.02, 0.0, 0.02, 0.04]},
        {"name": "l1", "paths": ["tests.dp.l1", "tests.idp.l1"], "values": [1, 9]},
    ],
    "replications": {"smoke": 40, "quick": 40, "paper": 40},
    "tests": [
        {"id": "dp", "test": "dp_signed_rank", "settings": {"n_samples": 300}},
        {"id": "idp", "test": "idp_signed_rank", "settings": {"n_samples": 300}},
    ],
    "metrics": [
        {"id": "loss", "kind": "mean", "column": "loss", "tests": ["dp"]},
        {
            "id": "loss_det",
            "kind": "mean",
            "column": "loss",
            "tests": ["dp", "idp"],
            "given": {"test": "idp", "column": "determinate"},
        },
        {
            "id": "err_ind",
            "kind": "rate",
            "column": "error",
            "tests": ["dp"],
            "given": {"test": "idp", "column": "indeterminate"},
        },
    ],
    "table": {
        "rows": ["metric", "test", "delta"],
        "columns": ["l1"],
        "metrics": ["loss"],
        "caption": "W-F2.rst",
    },
}


def _spec(raw=SMALL_W):
    return ExperimentSpec.from_mapping(copy.deepcopy(raw), schema=SCHEMA, what="T-w.yaml")


def test_a_grid_axis_sets_a_setting_of_the_tests_it_names():
    spec = _spec()
    point = spec.point("delta~0.02/l1~9")
    assert point.settings == {"dp": {"l1": 9}, "idp": {"l1": 9}}
    assert "tests" not in point.scenario
    tests = {t["id"]: t["settings"] for t in spec.job(point, "smoke", 1)["tests"]}
    assert tests == {"dp": {"n_samples": 300, "l1": 9}, "idp": {"n_samples": 300, "l1": 9}}


@pytest.mark.parametrize(
    ("paths", "message"),
    [
        (["tests.bsr.l1"], r"path 'tests.bsr.l1': expected tests.<test id>.<setting> with a test"),
        (["tests.dp.l3"], r"test 'dp' has no setting 'l3'; allowed: \['l0', 'l1', 'n_samples'\]"),
        (["tests.dp"], r"expected tests.<test id>.<setting>"),
    ],
)
def test_bad_test_setting_paths_are_refused(paths, message):
    raw = copy.deepcopy(SMALL_W)
    raw["grid"][1]["paths"] = paths
    with pytest.raises(SpecError, match=message):
        _spec(raw)


def test_a_given_metric_names_a_known_test_and_column():
    raw = copy.deepcopy(SMALL_W)
    raw["metrics"][1]["given"] = {"test": "idp", "column": "undecided"}
    with pytest.raises(SpecError, match="given test 'idp' writes no column 'undecided'"):
        _spec(raw)
    raw["metrics"][1]["given"] = {"test": "wilcoxon", "column": "reject"}
    with pytest.raises(SpecError, match="test 'wilcoxon' is not among the tests"):
        _spec(raw)


def _rows(spec):
    return pd.concat(
        [run_chunk(**spec.job(p, "smoke", 5), start=0, stop=40) for p in spec.points()],
        ignore_index=True,
    )


def test_given_metrics_use_exactly_the_runs_where_the_column_is_true():
    spec = _spec()
    rows = _rows(spec)
    agg = aggregate(rows, spec.metrics, ["delta", "l1"])
    for point, at in rows.groupby("point"):
        idp = at[at.test == "idp"].set_index("replication")
        dp = at[at.test == "dp"].set_index("replication")
        det = idp.index[idp.determinate.astype(bool)]
        ind = idp.index[idp.indeterminate.astype(bool)]

        def value(metric, test, agg=agg, point=point):
            sel = agg[(agg.point == point) & (agg.metric == metric) & (agg.test == test)]
            return sel.iloc[0]

        row = value("loss_det", "dp")
        assert row.n == len(det)
        assert row.value == pytest.approx(dp.loc[det, "loss"].mean())
        # where IDP is determinate, Dp(s = 0) decides alike but for Monte Carlo error of the
        # posterior probabilities (separate streams, 300 draws): allow 2 of 40 runs to differ
        same = (dp.loc[det, "decision"] == idp.loc[det, "decision"]).sum()
        assert same >= len(det) - 2
        row = value("err_ind", "dp")
        assert row.n == len(ind)
        if len(ind):
            assert row.value == pytest.approx(dp.loc[ind, "error"].astype(bool).mean())
        else:
            assert math.isnan(row.value)


def _fake_w_f2_aggregate(spec, gen):
    """A synthetic aggregate table of W-F2: every metric of every test at every point, with
    random values, standard errors and replication counts (none at one point)."""
    ids = [t.id for t in spec.tests]
    rows = []
    for p in spec.points():
        for m in spec.metrics:
            for test in m.get("tests", ids):
                n = int(gen.integers(0, 3)) if m["id"] == "error_indeterminate" else 100
                value = float(gen.random()) if n else float("nan")
                rows.append(
                    {"experiment": "W-F2", "point": p.label, **p.params, "test": test,
                     "metric": m["id"], "value": value, "se": 0.1 * gen.random() if n else
                     float("nan"), "n": n, "uncertainty": "Monte Carlo"}
                )  # fmt: skip
    return pd.DataFrame(rows)


def test_summary_tables_are_the_claims_summaries_and_the_papers_layout():
    from cvcompare.experiments.tables import (
        experiment_markdown,
        pivot_table,
        summary_markdown,
        summary_table,
        table_key,
    )

    spec = load_experiment(ROOT / "config" / "experiments" / "W-F2.yaml", schema=SCHEMA)
    agg = _fake_w_f2_aggregate(spec, np.random.default_rng(5))
    table1, table2, first, second = spec.table["summaries"]
    # Table 1 by hand: the Riemann sum of dp's loss over the 29 Delta values, step 0.005
    t1 = summary_table(agg, spec, table1)
    assert list(t1.columns[:2]) == ["test", "l1"] and set(t1["test"]) == {"dp", "wilcoxon"}
    curve = agg[(agg.metric == "loss") & (agg.test == "dp") & (agg.l1 == 4)]
    cell = t1[(t1.test == "dp") & (t1.l1 == 4)].iloc[0]
    assert len(curve) == 29
    assert cell.value == pytest.approx(0.005 * curve["value"].sum(), rel=1e-12)
    assert cell.se == pytest.approx(0.005 * np.sqrt((curve["se"] ** 2).sum()), rel=1e-12)
    # Table 3, first number by hand: pooled over Delta > 0 (n-weighted; n = 0 points count
    # for nothing)
    t3 = summary_table(agg, spec, first)
    sel = agg[(agg.metric == "error_indeterminate") & (agg.test == "wilcoxon") & (agg.l1 == 19)]
    sel = sel[(sel.delta > 0) & (sel.n > 0)]
    cell = t3[(t3.test == "wilcoxon") & (t3.l1 == 19)].iloc[0]
    assert cell.value == pytest.approx((sel.value * sel.n).sum() / sel.n.sum(), rel=1e-12)
    # every cell equals the comparison table's claim about it
    claims = comparison_table([spec], {"W-F2": agg})
    for entry, text in ((table1, "Table 1"), (table2, "Table 2"), (first, "(first number)"),
                        (second, "(second number)")):  # fmt: skip
        cells = summary_table(agg, spec, entry).set_index(["test", "l1"])
        mine = claims[claims.source.str.contains(text, regex=False) | claims.claim.str.contains(
            text, regex=False)]  # fmt: skip
        assert len(mine) > 0
        for claim in mine.itertuples():
            l1 = int(claim.at.rsplit("l1=", 1)[1])
            assert cells.loc[(claim.test, l1), "value"] == pytest.approx(claim.reproduced)
    # the Markdown: one section per summary, the paper's tables first, then the declared
    # table of every number they summarise
    md = summary_markdown(agg, spec)
    assert md.count("\n## ") == 4 and "| test | l1 = 1 | l1 = 2 | l1 = 4 | l1 = 9 | l1 = 19 |" in md
    long = pivot_table(agg, spec.table, {axis.name: axis.values for axis in spec.grid})
    page = experiment_markdown(long, agg, spec, table_key(spec, "paper"))
    headings = [line for line in page.splitlines() if line.startswith("#")]
    assert headings[0] == f"# {spec.title}" and headings[1].startswith("## Table 1: ")
    assert headings[-1] == "## Every number they summarise" and len(headings) == 6
    assert page.index(md.strip()) < page.index("## Every number they summarise")
    # a fidelity that runs part of the grid (smoke: three Delta values, l1 = 1 and 19) has
    # the columns it ran, and its areas, which need every Delta, are undefined
    partial = agg[agg.delta.isin([-0.05, 0.0, 0.05]) & agg.l1.isin([1, 19])]
    smoke = summary_table(partial, spec, table1)
    assert smoke["l1"].tolist() == [1, 19, 1, 19] and smoke["value"].isna().all()


def test_claims_summarise_points_by_area_or_pooled_rate():
    raw = copy.deepcopy(SMALL_W)
    raw["paper_numbers"] = [
        {
            "claim": "area",
            "source": "s",
            "metric": "loss",
            "test": "dp",
            "at": {"delta": [-0.02, 0.0, 0.02, 0.04], "l1": 1},
            "summary": "area",
            "over": "delta",
            "paper": ".03",
            "relation": "~",
            "value": 0.03,
        },
        {
            "claim": "pooled",
            "source": "s",
            "metric": "err_ind",
            "test": "dp",
            "at": {"delta": [0.02, 0.04], "l1": [1, 9]},
            "summary": "pooled",
            "paper": "45%",
            "relation": "~",
            "value": 0.45,
        },
    ]
    spec = _spec(raw)
    agg = pd.DataFrame(
        [
            {"point": p.label, **p.params, "test": "dp", "metric": m, "value": v, "se": 0.1, "n": n}
            for k, p in enumerate(spec.points())
            for m, v, n in (("loss", 0.1 * k, 40), ("err_ind", 0.5 if k % 2 else 0.2, k))
        ]
    ).assign(uncertainty="Monte Carlo")
    table = comparison_table([spec], {"T-w": agg})
    # points with l1 = 1 are k = 0, 2, 4, 6 (loss 0, .2, .4, .6): area = 1.2 * 0.02
    area = table.iloc[0]
    assert area.reproduced == pytest.approx(1.2 * 0.02)
    assert area.se == pytest.approx(0.02 * 0.1 * 2)
    # err_ind at delta 0.02, 0.04 are k = 4..7 (n = k): (0.2*4 + 0.5*5 + 0.2*6 + 0.5*7) / 22
    pooled = table.iloc[1]
    assert pooled.reproduced == pytest.approx((0.8 + 2.5 + 1.2 + 3.5) / 22)
    assert pooled.se == pytest.approx(0.1 * math.sqrt(16 + 25 + 36 + 49) / 22)
    # an area needs two or more uniformly spaced values of `over`: refused when the file
    # is loaded (and by summary_weights, for a claim built otherwise)
    for bad in ([-0.02, 0.0, 0.04], 0.0):
        raw["paper_numbers"][0]["at"]["delta"] = bad
        with pytest.raises(SpecError, match="summary 'area' needs `over` naming a grid axis"):
            _spec(raw)
    sel = pd.DataFrame({"delta": [-0.02, 0.0, 0.04], "n": [1, 1, 1]})
    with pytest.raises(ValueError, match="needs at least two uniformly spaced values"):
        summary_weights({"summary": "area", "over": "delta", "claim": "c"}, sel)


# --- the W-F2 experiment at smoke fidelity -------------------------------------------------


def test_w_f2_runs_end_to_end_at_smoke_fidelity(tmp_path):
    from cvcompare.experiments.tables import pivot_table, table_markdown
    from cvcompare.plots.figures import FIGURES

    spec = load_experiment(ROOT / "config" / "experiments" / "W-F2.yaml", schema=SCHEMA)
    assert len(spec.points()) == 29 * 5 and spec.n_replications("paper") == 500
    points = spec.points("smoke")
    assert len(points) == 6
    n = spec.n_replications("smoke")
    rows = pd.concat(
        [run_chunk(**spec.job(p, "smoke", 3), start=0, stop=n) for p in points],
        ignore_index=True,
    )
    assert len(rows) == 6 * n * 3
    assert rows.groupby("point")["l1"].first().isin([1, 19]).all()
    # the tests ran with the loss of their grid point
    for test in ("dp", "idp"):
        sel = rows[rows.test == test]
        assert (
            sel.loss.dropna().isin([0.0, 1.0]) | (sel.loss.dropna() == sel.l1[sel.loss.notna()])
        ).all()
    agg = aggregate(rows, spec.metrics, ["delta", "l1"])
    full = agg[agg.metric.isin(["loss", "indeterminacy"])]
    assert full["n"].eq(n).all()
    assert agg[agg.metric == "loss_determinate"]["n"].le(n).all()
    table = comparison_table([spec], {"W-F2": agg})
    assert len(table) == 46
    # smoke runs part of the Delta grid: the table claims are listed as not run at this
    # fidelity; the indeterminacy at Delta = 0.05, l1 = 19 is estimated
    assert table["note"].iloc[1:].str.startswith("not run at this fidelity").all()
    assert 0 <= table["reproduced"].iloc[0] <= 1 and table["n"].iloc[0] == n
    fig = FIGURES["figure_w_f2"](agg, title=spec.title)
    assert len(fig.axes) == 1 and len(fig.axes[0].containers) == 4  # l1 = 19 only at smoke
    # the losses' bars stop at 0 (aggregate's `low`), and the legend says so
    losses = agg[agg.metric.isin(["loss", "loss_determinate"])]
    assert (losses["low"] >= 0).all()
    (legend,) = fig.legends
    assert legend.get_title().get_text() == (
        "error bars: ± 2 Monte Carlo standard errors, cut at 0 for the losses "
        "(shares: Wilson's interval)"
    )
    long = pivot_table(agg, spec.table, {"delta": spec.grid[0].values, "l1": spec.grid[1].values})
    header = "| metric | test | delta | l1 = 1 | l1 = 19 |"
    assert header in table_markdown(long, spec.table, spec.title)


def test_the_loss_panels_are_figure_settings_checked_against_the_grid():

    raw = load_yaml(ROOT / "config" / "experiments" / "W-F2.yaml")
    assert raw["figure"]["settings"] == {"losses": [4, 19]}
    for key in ("paper_numbers", "table"):  # they name values of l1 too
        raw.pop(key)

    def load(edit):
        bad = copy.deepcopy(raw)
        edit(bad)
        return ExperimentSpec.from_mapping(bad, schema=SCHEMA, what="W-F2.yaml")

    def grid(values, smoke):
        return lambda r: r["grid"][1].update(values=values, by_fidelity={"smoke": smoke})

    refused = [
        # other losses on the grid, the figure's default left: refused before any job runs
        (lambda r: (grid([2, 9], [2])(r), r["figure"].pop("settings")), r"\[4, 19\] are not"),
        (lambda r: r["figure"]["settings"].update(losses=[4, 5]), r"\[5\] are not values"),
        (lambda r: r["figure"]["settings"].update(losses=[]), "a non-empty list"),
        (lambda r: r["figure"]["settings"].update(losses=4), "a non-empty list"),
        (lambda r: r["figure"]["settings"].update(loses=[4]), r"no setting \['loses'\]"),
        (lambda r: r["figure"]["settings"].update(losses=[4]), "the smoke fidelity runs none"),
    ]
    for edit, message in refused:
        with pytest.raises(SpecError, match=message) as info:
            load(edit)
        assert str(info.value).startswith("W-F2.yaml: figure.settings")
    # a grid of other losses draws them when the file says so
    spec = load(lambda r: (grid([2, 9], [2])(r), r["figure"].update(settings={"losses": [9, 2]})))
    agg = _fake_w_f2_aggregate(spec, np.random.default_rng(1))
    fig = spec.draw_figure(agg)  # as the workflow draws it: with the file's settings
    assert [ax.get_title().split("= ")[1].split(" ")[0] for ax in fig.axes] == ["9", "2"]
    # the paper's file with its panels in the other order: the settings reach the function
    spec = load(lambda r: r["figure"]["settings"].update(losses=[19, 4]))
    fig = spec.draw_figure(_fake_w_f2_aggregate(spec, np.random.default_rng(1)))
    assert [ax.get_title().split("= ")[1].split(" ")[0] for ax in fig.axes] == ["19", "4"]
    assert " ".join(fig.get_suptitle().split()) == spec.title
    # an experiment without a figure has none to draw
    spec = load(lambda r: (r.pop("figure"), r.update(table={"rows": ["delta"], "columns":
                ["metric", "test", "l1"], "caption": "W-F2-table.rst"})))  # fmt: skip
    with pytest.raises(ValueError, match="W-F2: the experiment file has no `figure`"):
        spec.draw_figure(agg)
