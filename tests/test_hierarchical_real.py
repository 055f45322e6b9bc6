"""The hierarchical model on real cross-validation results (H-T5, H-T6, H-F7, H-F8): the
analyses on small tables whose answers are known, their tables and figures, and the
targets at smoke fidelity on the real data."""

from __future__ import annotations

import copy
from pathlib import Path
from types import SimpleNamespace

import matplotlib
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from shared_data import REAL, needs_real

from cvcompare.experiments import SpecError, comparison_table, load_experiment, load_yaml
from cvcompare.experiments.analyses import ANALYSES, run_analysis
from cvcompare.experiments.analyses.hierarchical_real import (
    _predictive_draws,
    boxplot_stats,
    nrd0_bandwidth,
)
from cvcompare.experiments.spec import ExperimentSpec
from cvcompare.experiments.tables import pivot_table, table_markdown
from cvcompare.plots.figures import FIGURES

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = load_yaml(ROOT / "workflow" / "schemas" / "experiment.schema.yaml")
PAIRS = ["nbc-hnb", "nbc-j48", "nbc-j48gr", "hnb-j48", "hnb-j48gr", "j48-j48gr"]


def spec(eid: str) -> ExperimentSpec:
    return load_experiment(ROOT / "config" / "experiments" / f"{eid}.yaml", schema=SCHEMA)


@pytest.fixture(scope="module")
def tiny() -> pd.DataFrame:
    """8 data sets x 10 folds: ``good`` beats ``base`` by 5 points everywhere; ``same``
    differs from ``base`` by at most 0.1 point (practically equivalent)."""
    gen = np.random.default_rng(5)
    base = gen.uniform(0.6, 0.9, (8, 1)) + gen.normal(0, 0.01, (8, 10))
    scores = {
        "base": base,
        "good": base + 0.05 + gen.normal(0, 0.01, (8, 10)),
        "same": base + gen.uniform(-0.001, 0.001, (8, 10)),
    }
    return pd.DataFrame(
        [
            (name, f"d{i}", fold, acc[i, fold])
            for name, acc in scores.items()
            for i in range(8)
            for fold in range(10)
        ],
        columns=["learner", "dataset", "fold", "score"],
    )


def run(name: str, settings: dict, data: pd.DataFrame, seed: int = 0):
    entry = ANALYSES[name]
    return entry.function(entry.check(settings, data), data, np.random.default_rng(seed))


def by_key(rows: list[dict]) -> dict[tuple[str, str], dict]:
    return {(r["test"], r["metric"]): r for r in rows}


def test_a_clearly_better_learner_and_an_equivalent_one_are_recognised(tiny):
    # paper settings (4 chains x (1000 + 1000)); 8 data sets that all favour `good` by 0.05
    rows = by_key(run("hierarchical_pair", {"first": "good", "second": "base"}, tiny).rows)
    assert rows["hierarchical", "p_right"]["value"] > 0.95
    assert rows["hierarchical", "p_right"]["n"] == 4000
    assert rows["hierarchical", "p_right"]["uncertainty"] == "posterior sampling"
    probs = [rows["hierarchical", f"p_{r}"]["value"] for r in ("left", "rope", "right")]
    assert sum(probs) == pytest.approx(1.0)
    for region in ("left", "rope", "right"):
        p, se = (
            rows["hierarchical", f"p_{region}"]["value"],
            rows["hierarchical", f"p_{region}"]["se"],
        )
        # sqrt(p (1 - p) / ESS) with 0 < ESS <= 4 N (antithetic chains can exceed N)
        assert se == 0.0 if p in (0.0, 1.0) else se >= np.sqrt(p * (1 - p) / (4 * 4000))
    assert rows["hierarchical", "diagnostics_ok"]["value"] in (0.0, 1.0)
    # all 8 mean differences positive: the exact two-sided signed-rank p-value is 2 / 2^8
    assert rows["signed_rank", "pvalue"]["value"] == pytest.approx(2 / 2**8)
    # reversing the pair swaps left and right
    rev = by_key(run("hierarchical_pair", {"first": "base", "second": "good"}, tiny).rows)
    assert rev["hierarchical", "p_left"]["value"] > 0.95
    same = by_key(run("hierarchical_pair", {"first": "same", "second": "base"}, tiny).rows)
    assert same["hierarchical", "p_rope"]["value"] > 0.95


def test_the_same_seed_gives_the_same_fit_and_another_seed_another(tiny):
    settings = {"first": "good", "second": "base", "nu_prior": "gamma"}
    a, b = run("hierarchical_pair", settings, tiny, 1), run("hierarchical_pair", settings, tiny, 1)
    assert a.rows == b.rows
    c = run("hierarchical_pair", settings, tiny, 2)
    assert by_key(c.rows)["hierarchical", "ess_min"] != by_key(a.rows)["hierarchical", "ess_min"]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"first": "base", "second": "base"}, "first, second: expected two different learners"),
        ({"rho": 1.0}, r"rho: expected a number in \[0, 1\)"),
        ({"nu_prior": "flat"}, "nu_prior: expected one of 'hyper', 'gamma'"),
        ({"zero_method": "drop"}, "zero_method: expected one of"),
        ({"rope": [0.01, 0.02]}, "rope"),
        ({"chains": 0}, "chains"),
        # the model's settings are checked as the simulations' hierarchical test checks them
        ({"draws": 2}, "draws: expected an integer >= 4"),
        ({"adapt_delta": 1.5}, r"adapt_delta: expected a number in \(0, 1\)"),
        ({"runner": "fast"}, "runner: expected one of 'auto'"),
        ({"refit_scale": 0.5}, "refit_scale: expected a number >= 1"),
    ],
)
def test_bad_settings_are_refused_naming_the_setting(settings, message):
    with pytest.raises(ValueError, match=message):
        ANALYSES["hierarchical_pair"].check(settings)


def test_an_unknown_learner_is_named(tiny):
    with pytest.raises(ValueError, match=r"second: unknown learner 'j48'; the table has"):
        run("hierarchical_pair", {"first": "base", "second": "j48"}, tiny)


def fivenum(x: np.ndarray) -> np.ndarray:
    """R's fivenum, transcribed from its source (a second implementation)."""
    x = np.sort(x)
    n = x.size
    n4 = np.floor((n + 3) / 2) / 2
    d = np.array([1, n4, (n + 1) / 2, n + 1 - n4, n]) - 1
    return 0.5 * (x[np.floor(d).astype(int)] + x[np.ceil(d).astype(int)])


@pytest.mark.parametrize("n", [5, 10, 11, 54, 100])
def test_boxplot_statistics_follow_r(n):
    gen = np.random.default_rng(n)
    x = np.concatenate([gen.normal(0, 0.01, n - 2), [0.2, -0.15]])
    box = boxplot_stats(x)
    _, hinge_low, median, hinge_high, _ = fivenum(x)
    assert (box["q1"], box["med"], box["q3"]) == pytest.approx((hinge_low, median, hinge_high))
    reach = 1.5 * (hinge_high - hinge_low)
    inside = x[(x >= hinge_low - reach) & (x <= hinge_high + reach)]
    assert (box["whislo"], box["whishi"]) == (inside.min(), inside.max())
    assert sorted(box["fliers"]) == sorted(x[(x < hinge_low - reach) | (x > hinge_high + reach)])
    assert box["mean"] == pytest.approx(x.mean())


def test_bandwidth_is_r_default():
    # R's bw.nrd0(1:10): sd = sqrt(55 / 6) < IQR / 1.34 = (7.75 - 3.25) / 1.34, so the
    # bandwidth is 0.9 sqrt(55 / 6) 10^(-1/5)
    assert nrd0_bandwidth(np.arange(1.0, 11.0)) == pytest.approx(0.9 * np.sqrt(55 / 6) * 10**-0.2)
    # zero interquartile range: the standard deviation alone
    x = np.array([0.0] * 9 + [1.0])
    assert nrd0_bandwidth(x) == pytest.approx(0.9 * np.std(x, ddof=1) * 10**-0.2)


def test_predictive_draws_follow_the_student_distribution_of_each_posterior_draw():
    # constant posterior draws: the 8000 draws are t(nu = 5, 0.01, 0.02) (truncation at
    # |delta| > 1 removes a mass of about 1e-8); Kolmogorov-Smirnov at level 1e-3
    res = SimpleNamespace(
        delta0=np.full(400, 0.01), sigma0=np.full(400, 0.02), nu=np.full(400, 5.0)
    )
    draws = _predictive_draws(res, 8000, np.random.default_rng(3))
    assert draws.size == 8000 and np.all(np.abs(draws) <= 1)
    assert stats.kstest(draws, stats.t(5, 0.01, 0.02).cdf).pvalue > 1e-3
    # a wide distribution is truncated to differences of accuracy, [-1, 1]
    res = SimpleNamespace(delta0=np.zeros(4), sigma0=np.full(4, 2.0), nu=np.full(4, 3.0))
    assert np.all(np.abs(_predictive_draws(res, 500, np.random.default_rng(4))) <= 1)


def test_predictive_densities_and_their_figure(tiny):
    out = run("predictive_densities", {"first": "good", "second": "base", "n_samples": 2000}, tiny)
    rows = by_key(out.rows)
    assert {t for t, _ in rows} == {"hyper", "gamma", "shrinkage"}
    gap = rows["shrinkage", "shrinkage_gap"]
    assert gap["value"] >= 0 and gap["se"] > 0 and gap["uncertainty"] == "posterior sampling"
    data = out.figure_data
    assert set(data["curve"]) == {"shrinkage", "hyper", "gamma"}
    assert (data["density"] >= 0).all() and data.groupby("curve").size().eq(512).all()
    # the shrinkage estimates lie near 0.05, well inside the grid: their density integrates
    # to one up to the trapezoidal rule's error
    shr = data[data["curve"] == "shrinkage"]
    assert np.trapezoid(shr["density"], shr["x"]) == pytest.approx(1.0, abs=0.01)
    fig = FIGURES["figure_h_f7"](
        pd.DataFrame(), title="Densities", data=data.assign(pair="good-base")
    )
    assert fig.axes[0].get_title() == "good vs base" and len(fig.axes[0].lines) == 5
    # the axis says which way the difference goes; the legend says what the dotted lines are
    assert fig.axes[0].get_xlabel() == "difference of accuracy δ, good minus base"
    labels = [t.get_text() for t in fig.legends[0].texts]
    assert labels[-1] == "rope (-0.01, 0.01)" and len(labels) == 4
    assert labels[1] == "δ on a new data set, hierarchical prior on ν"
    # a spike of the shrinkage density more than twice the predicted ones' peak is cut at
    # 1.25 times their peak, and a note gives its height
    peak = data.loc[data["curve"] != "shrinkage", "density"].max()
    spiked = data.assign(
        pair="good-base",
        density=np.where(data["curve"] == "shrinkage", data["density"] * 50, data["density"]),
    )
    cut = FIGURES["figure_h_f7"](pd.DataFrame(), data=spiked).axes[0]
    assert cut.get_ylim() == pytest.approx((0, 1.25 * peak))
    (note,) = cut.texts
    top = spiked.loc[spiked["curve"] == "shrinkage", "density"].max()
    assert note.get_text().endswith(f"it peaks at {top:,.0f}")
    # the figure above is cut only if its own spike is that high
    assert bool(fig.axes[0].texts) == (shr["density"].max() > 2 * peak)


def test_fold_boxplots_count_signs_and_the_rope(tiny):
    out = run("fold_boxplots", {"first": "same", "second": "base"}, tiny)
    diffs = (
        tiny.pivot_table(index=["dataset", "fold"], columns="learner", values="score")
        .eval("same - base")
        .groupby("dataset")
        .mean()
    )
    rows = by_key(out.rows)
    assert rows["data", "share_in_rope"]["value"] == 1.0  # |mean| <= 0.001
    assert rows["data", "share_second_better"]["value"] == pytest.approx(np.mean(diffs < 0))
    assert rows["data", "share_second_better"]["uncertainty"] == "exact"
    data = out.figure_data
    assert data.loc[data["sample"] == "folds", "dataset"].nunique() == 8
    assert list(data.loc[data["sample"] == "means", "dataset"].unique()) == ["all data sets"]
    fig = FIGURES["figure_h_f8"](pd.DataFrame(), title="Boxes", data=data.assign(pair="same-base"))
    assert len(fig.axes) == 2
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == [f"d{i}" for i in range(8)]
    # no outlier far from the boxes: nothing beyond the axis
    assert not fig.axes[0].texts and fig.axes[0].get_title() == "fold differences on each data set"
    # one fold far below every whisker (page-blocks' -0.5 in j48 vs j48gr) goes beyond the
    # axis, marked at its edge, instead of squashing every box; one near the boxes stays
    folds = data[data["sample"] == "folds"].assign(pair="same-base")
    whiskers = folds.loc[folds["stat"].isin(["whislo", "whishi"]), "value"]
    span = max(whiskers.max(), 0.01) - min(whiskers.min(), -0.01)
    row = folds.iloc[[0]].assign(stat="flier")
    far, near = -0.5, whiskers.max() + 0.5 * span
    extra = [row.assign(value=v) for v in (far, far / 2, near)]
    ax = FIGURES["figure_h_f8"](
        pd.DataFrame(), title="Boxes", data=pd.concat([data.assign(pair="same-base"), *extra])
    ).axes[0]
    bottom, top = ax.get_ylim()
    assert far / 2 < bottom < min(whiskers.min(), -0.01) and top > near
    (count,) = ax.texts  # two folds of d0 below the axis: one triangle, marked 2
    assert ax.get_title() == (
        "fold differences on each data set\n"
        "2 fold differences beyond the axis (triangles at its edge), the farthest -0.50 (d0)"
    )
    (edge,) = [line for line in ax.lines if line.get_marker() == "v"]
    assert list(edge.get_xdata()) == [1] and list(edge.get_ydata()) == [bottom]
    assert count.get_text() == "2" and count.xy == (1, bottom)


def test_tables_5_and_6_have_every_cell_of_the_paper():
    t5, t6 = spec("H-T5"), spec("H-T6")
    cells5 = {(c["at"]["pair"], c["at"]["nu_prior"], c["metric"]) for c in t5.paper_numbers}
    assert cells5 == {
        (pair, prior, f"p_{r}")
        for pair in PAIRS
        for prior in ("hyper", "gamma")
        for r in ("left", "rope", "right")
    }
    cells6 = {(c["at"]["pair"], c["test"], c["metric"]) for c in t6.paper_numbers}
    assert cells6 == {
        (pair, "hierarchical", f"p_{r}") for pair in PAIRS for r in ("left", "rope", "right")
    } | {(pair, "signed_rank", "pvalue") for pair in PAIRS}
    for claim in (*t5.paper_numbers, *t6.paper_numbers):
        assert claim["decimals"] == 2 and claim["tolerance"] >= 0.005
    # the papers' Stan settings at every fidelity; smoke runs fewer pairs instead
    for s in (t5, t6, spec("H-F7")):
        for fidelity in ("smoke", "quick", "paper"):
            job = s.analysis_job(fidelity, 1)
            for point in job["points"]:
                got = {k: point["settings"][k] for k in ("chains", "warmup", "draws", "rho")}
                assert got == {"chains": 4, "warmup": 1000, "draws": 1000, "rho": 0.1}
                assert tuple(point["settings"]["rope"]) == (-0.01, 0.01)
        assert len(s.points("smoke")) < len(s.points("paper"))


def fake_aggregate(s: ExperimentSpec) -> pd.DataFrame:
    """An aggregate with every (point, test, metric) the experiment declares."""
    rows = []
    for p in s.points():
        for m in s.metrics:
            for t in m["tests"]:
                rows.append(
                    {"point": p.label, **p.params, "test": t, "metric": m["id"], "value": 0.5,
                     "se": 0.01, "n": 4000, "uncertainty": "posterior sampling"}
                )  # fmt: skip
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("eid", "n_columns"), [("H-T5", 14), ("H-T6", 8)])
def test_the_tables_have_one_row_per_pair(eid, n_columns):
    s = spec(eid)
    long = pivot_table(fake_aggregate(s), s.table, {a.name: a.values for a in s.grid})
    assert list(dict.fromkeys(long["pair"])) == PAIRS
    assert len(long) == len(PAIRS) * n_columns
    md = table_markdown(long, s.table, s.title)
    assert "± 0.010" in md
    if eid == "H-T6":
        assert md.count("\n| nbc-") == 3
        assert "signed_rank, pvalue" in md and "hierarchical, p_rope" in md
    else:  # one row per pair and prior on nu, the probabilities first
        assert md.count("\n| nbc-") == 6 and "\n| nbc-hnb | hyper | " in md
        assert "| pair | nu_prior | p_left | p_rope | p_right | diagnostics_ok |" in md
    table = comparison_table([s], {eid: fake_aggregate(s)})
    assert len(table) == len(s.paper_numbers)
    assert table.loc[table["test"] == "hierarchical", "diagnostics_ok"].eq(0.5).all()


def test_a_wrong_pair_in_a_claim_is_refused_when_loaded():
    raw = load_yaml(ROOT / "config" / "experiments" / "H-T6.yaml")
    raw = copy.deepcopy(raw)
    raw["paper_numbers"][0]["at"] = {"pair": "nbc-aode"}
    with pytest.raises(SpecError, match=r"at.pair: 'nbc-aode' is not among the grid values"):
        ExperimentSpec.from_mapping(raw, schema=SCHEMA, what="H-T6.yaml")


@needs_real
@pytest.mark.parametrize("eid", ["H-T5", "H-T6", "H-F7", "H-F8"])
def test_each_target_runs_at_smoke_fidelity_on_the_real_data(eid):
    from cvcompare.io import read_accuracies

    data = read_accuracies(REAL, duplicates="keep", as_fraction=True)
    assert data["dataset"].nunique() == 54
    s = spec(eid)
    agg, figure_data = run_analysis(**s.analysis_job("smoke", 20150601), data=data)
    assert set(agg["point"]) == {p.label for p in s.points("smoke")}
    assert agg["value"].notna().all()
    table = comparison_table([s], {eid: agg})
    ran = table[~table["note"].str.startswith("not run")]
    assert len(ran) >= (1 if eid != "H-F7" else 0) and ran["reproduced"].notna().all()
    if eid == "H-F8":
        # j48 vs j48gr: 28 of the 39 data sets with a non-zero mean favour j48gr
        got = agg.set_index("metric")["value"]
        assert got["share_second_better"] == pytest.approx(28 / 39)
    if s.figure:
        assert not figure_data.empty
