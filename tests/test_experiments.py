"""Experiment files, grid expansion, chunks of replications, the atomic writer, the
comparison table and the figures."""

import copy
import io
import itertools
import math
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from shared_data import SMALL_SCENARIO

from cvcompare.experiments import (
    SpecError,
    aggregate,
    atomic_path,
    chunk_ranges,
    comparison_table,
    load_experiment,
    load_yaml,
    run_chunk,
    to_markdown,
    validate_with_schema,
    write_table,
)
from cvcompare.experiments.metrics import error_bounds
from cvcompare.experiments.run import TIMING_COLUMNS
from cvcompare.experiments.spec import ExperimentSpec
from cvcompare.plots.figures.curves import figure_curves

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = load_yaml(ROOT / "workflow" / "schemas" / "experiment.schema.yaml")
CONFIG_SCHEMA = load_yaml(ROOT / "workflow" / "schemas" / "config.schema.yaml")

SMALL = {
    "id": "T-small",
    "title": "a small experiment",
    "source": {"paper": "P", "item": "none"},
    "scenario": copy.deepcopy(SMALL_SCENARIO),
    "grid": [
        {"name": "delta", "path": "delta.value", "values": [0.0, 0.1]},
        {"name": "m", "path": "cv.runs", "values": [1, 2]},
    ],
    "replications": {"smoke": 4, "quick": 10, "paper": 100},
    "tests": [
        {"id": "poisson", "test": "poisson_binomial", "settings": {"alpha": 0.05}},
        {"id": "signed_rank", "test": "wilcoxon", "settings": {"alternative": "greater"}},
    ],
    "metrics": [
        {"id": "power", "kind": "rate", "column": "reject"},
        {
            "id": "gap",
            "kind": "paired_difference",
            "column": "reject",
            "tests": ["poisson"],
            "baseline": "signed_rank",
        },
    ],
    "table": {
        "rows": ["delta", "m"],
        "columns": ["test"],
        "metrics": ["power"],
        "caption": "P-F2a.rst",
    },
    "paper_numbers": [
        {
            "claim": "calibrated",
            "source": "nowhere",
            "metric": "power",
            "test": "poisson",
            "at": {"delta": 0.0, "m": [1, 2]},
            "paper": "< 0.05",
            "relation": "<=",
            "value": 0.05,
        },
    ],
}


def _summary(**changes):
    """A summary table of SMALL's table (the power of each test, per m, pooled over delta)."""
    return {"title": "t", "metric": "power", "rows": ["test"], "columns": ["m"],
            "summary": "pooled", **changes}  # fmt: skip


#: The settings of figure_curves drawing SMALL's power against delta (m left out).
_CURVES = {"metric": "power", "x": "delta", "xlabel": "difference", "ylabel": "power"}


def _curves(**changes):
    """An edit of SMALL: its figure drawn by figure_curves with the settings :data:`_CURVES`
    changed by ``changes`` (a setting given None left out)."""
    settings = {k: v for k, v in {**_CURVES, **changes}.items() if v is not None}
    return lambda r: r.update(figure={"function": "figure_curves", "settings": settings})


def spec_of(raw=SMALL):
    return ExperimentSpec.from_mapping(copy.deepcopy(raw), schema=SCHEMA, what="T-small.yaml")


# --- experiment files and grid expansion -------------------------------------------------


def test_grid_is_the_cartesian_product_in_grid_order():
    spec = spec_of()
    points = spec.points()
    assert [p.label for p in points] == [
        "delta~0.0/m~1",
        "delta~0.0/m~2",
        "delta~0.1/m~1",
        "delta~0.1/m~2",
    ]
    assert points[2].scenario["delta"] == {"distribution": "fixed", "value": 0.1}
    assert points[2].scenario["cv"] == {"runs": 1, "folds": 5}
    assert points[2].params == {"delta": 0.1, "m": 1}
    assert spec.scenario["delta"]["value"] == 0.0  # the base scenario is not modified
    assert spec.point("delta~0.1/m~2").params == {"delta": 0.1, "m": 2}
    with pytest.raises(SpecError, match="no grid point labelled"):
        spec.point("delta~0.3/m~2")


def test_a_fidelity_can_run_part_of_the_grid_with_the_same_labels():
    raw = copy.deepcopy(SMALL)
    raw["grid"][0]["by_fidelity"] = {"smoke": [0.1]}
    spec = spec_of(raw)
    assert [p.label for p in spec.points("smoke")] == ["delta~0.1/m~1", "delta~0.1/m~2"]
    assert len(spec.points("quick")) == len(spec.points()) == 4
    raw["grid"][0]["by_fidelity"] = {"smoke": [0.2]}
    with pytest.raises(SpecError, match=r"by_fidelity.smoke values \[0.2\] are not among"):
        spec_of(raw)
    # a claim about points a fidelity did not run is reported as not run
    spec = spec_of(copy.deepcopy(SMALL))
    agg = _fake_aggregate(spec)
    row = comparison_table([spec], {"T-small": agg[agg.delta == 0.1]}).iloc[0]
    assert math.isnan(row.reproduced) and row.consistent is None
    missing = "not run at this fidelity: (delta = 0.0, m = 1), (delta = 0.0, m = 2)"
    assert row.note.startswith(missing)
    assert "| not run |  | not run |" in to_markdown(
        comparison_table([spec], {"T-small": agg[agg.delta == 0.1]})
    )
    # a claim over a whole curve names a few of the points missing and counts the rest
    raw = copy.deepcopy(SMALL)
    raw["grid"][0]["values"] = [0.0, 0.1, 0.2, 0.3, 0.4]
    raw["paper_numbers"][0]["at"] = {"m": [1, 2]}
    spec = spec_of(raw)
    agg = _fake_aggregate(spec)
    row = comparison_table([spec], {"T-small": agg[agg.delta == 0.1]}).iloc[0]
    assert row.note == f"{missing}, (delta = 0.2, m = 1) and 5 more grid points."


def test_repository_experiment_files_are_valid():
    pf2a = load_experiment(ROOT / "config" / "experiments" / "P-F2a.yaml", schema=SCHEMA)
    assert len(pf2a.points()) == 11 * 2 * 2
    assert pf2a.n_replications("paper") == 5000
    hf2 = load_experiment(ROOT / "config" / "experiments" / "H-F2.yaml", schema=SCHEMA)
    assert [p.params["q"] for p in hf2.points()] == [10, 20, 30, 40, 50]
    assert hf2.n_replications("paper") == 500
    # Stan settings per fidelity: smoke overrides, paper keeps the paper's 4 x (1000 + 1000)
    tests = {t["id"]: t for t in hf2.job(hf2.points()[0], "smoke", 1)["tests"]}
    assert tests["hierarchical"]["settings"]["chains"] == 2
    tests = {t["id"]: t for t in hf2.job(hf2.points()[0], "paper", 1)["tests"]}
    assert tests["hierarchical"]["settings"]["draws"] == 1000


def test_friedman_experiment_runs_its_smoke_point_on_its_cached_truth():
    from cvcompare.simulate import required_ground_truth
    from cvcompare.simulate.friedman import friedman_settings

    spec = load_experiment(ROOT / "config" / "experiments" / "H-F6.yaml", schema=SCHEMA)
    assert [p.label for p in spec.points("paper")] == ["q~36"]
    paper = spec.points("paper")[0].scenario
    assert paper["q"] == 36 and paper["generator"]["per_function"] == 12
    assert paper["generator"]["truth"] == {"repetitions": 500, "n_test": 5000}
    assert len(paper["generator"]["settings"]) == 54 and spec.n_replications("paper") == 200
    (point,) = spec.points("smoke")
    scenario = dict(point.scenario)
    design, pool = required_ground_truth(scenario, scenario.pop("q"))
    settings = {s.id: s for s in friedman_settings()}
    truth = {sid: design.measure(settings[sid], 11) for sid in pool}
    job = spec.job(point, "smoke", 11)
    job["tests"] = [t for t in job["tests"] if t["id"] in ("signed_rank", "truth")]
    rows = run_chunk(**job, start=0, stop=2, ground_truth=truth)
    assert len(rows) == 4
    tr = rows[rows.test == "truth"]
    assert np.allclose(tr["true_mean"], tr["mean_true_delta"])
    shares = tr[["true_share_left", "true_share_rope", "true_share_right"]].sum(axis=1)
    assert np.allclose(shares, 1.0)
    # every value is a mean over q = 6 of the cached truths of the pool
    assert (
        tr["true_share_right"].mul(6).sub(tr["true_share_right"].mul(6).round()).abs().max() < 1e-9
    )
    lo, hi = min(t.delta for t in truth.values()), max(t.delta for t in truth.values())
    assert tr["true_mean"].between(lo, hi).all()
    with pytest.raises(ValueError, match="ground_truth: no true difference"):
        run_chunk(**job, start=0, stop=1)


def test_a_caption_is_its_file_or_else_the_experiment_s_title(tmp_path):
    (tmp_path / "mine.rst").write_text("What the table shows.\n")
    named = copy.deepcopy(SMALL)
    named["table"]["caption"] = "mine.rst"
    assert spec_of(named).caption("table", tmp_path) == "What the table shows.\n"
    unnamed = copy.deepcopy(SMALL)
    del unnamed["table"]["caption"]
    assert spec_of(unnamed).caption("table", tmp_path) == "a small experiment."
    unnamed["title"] = "A small experiment."  # not "experiment.."
    assert spec_of(unnamed).caption("table", tmp_path) == "A small experiment."
    named["table"]["caption"] = "missing.rst"
    with pytest.raises(SpecError, match=r"table.caption: caption file 'missing.rst' not found"):
        spec_of(named).caption("table", tmp_path)


def test_true_delta_summary_counts_the_rope_bounds_as_inside():
    from types import SimpleNamespace

    from cvcompare.experiments.registry import TESTS

    sim = SimpleNamespace(true_delta=np.array([-0.02, -0.01, 0.0, 0.01, 0.0101, 0.05]))
    out = TESTS["true_delta_summary"](sim, {"rope": (-0.01, 0.01)}, np.random.default_rng(0))
    assert out == {
        "true_mean": pytest.approx(np.mean(sim.true_delta)),
        "true_share_left": pytest.approx(1 / 6),
        "true_share_rope": pytest.approx(3 / 6),
        "true_share_right": pytest.approx(2 / 6),
    }


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r["grid"][0]["values"].append([1]), r"grid\[0\]\.values\[2\]"),
        (lambda r: r["replications"].pop("paper"), r"replications: 'paper' is a required"),
        (
            lambda r: r["metrics"][0].update(kind="median"),
            r"metrics\[0\]\.kind: 'median' is not one of",
        ),
        (lambda r: r["tests"][0].update(test="magic"), r"unknown test 'magic'; known tests: \["),
        (
            lambda r: r["grid"][0].update(path="delta.values"),
            r"grid axis 'delta': path 'delta.values' does not exist in the scenario \(give the "
            r"key a default value there first\); did you mean 'delta.value'\?",
        ),
        (  # no key like it: the keys there are listed
            lambda r: r["grid"][0].update(path="delta.mean"),
            r"path 'delta.mean' does not exist in the scenario .*\); delta has the keys "
            r"\['distribution', 'value'\]$",
        ),
        (
            lambda r: r["grid"][0].update(path="delt.value"),
            r"path 'delt.value' does not exist in the scenario .*; did you mean 'delta'\?",
        ),
        (lambda r: r["metrics"][1].update(baseline="nope"), r"test 'nope' is not among the tests"),
        (
            lambda r: r["paper_numbers"][0]["at"].update(delta=0.5),
            r"0.5 is not among the grid values",
        ),
        (lambda r: r["paper_numbers"][0].update(test="x"), r"has no test 'x'"),
        (lambda r: r["grid"][1].update(name="replication"), r"reserved for result columns"),
        # a column a test writes: the tidy table would hold the axis and the tests' values
        (lambda r: r["grid"][1].update(name="statistic"), r"\['statistic'\] are reserved"),
        (lambda r: r.update(colour="red"), r"Additional properties are not allowed \('colour'"),
        (
            lambda r: r["table"].update(row=["delta"]),
            r"table: Additional properties are not allowed \('row' was unexpected\) \(found "
            r"'row': a misspelling of 'rows'\?\)",
        ),
        # mistakes that only the simulation or the figure would otherwise reveal
        (
            lambda r: r["scenario"]["delta"].update(distribution="lognormal"),
            r"scenario at grid point delta~0.0/m~1: delta.distribution",
        ),
        (
            lambda r: r["tests"][0]["settings"].update(alpah=0.1),
            r"test 'poisson': unknown setting\(s\) \['alpah'\]",
        ),
        (lambda r: r["scenario"]["cv"].update(fold=10), r"cv: unknown key\(s\) \['fold'\]"),
        # a fixed difference the generator cannot realise (theta = 0.5 + |delta| <= 1)
        (
            lambda r: r["grid"][0].update(values=[0.0, 0.6]),
            r"scenario at grid point delta~0.6/m~1: delta: the 'bn_vs_zeror' generator can only "
            r"realise differences in \[-0.5, 0.5\] \(theta = 0.5 \+ \|delta\| <= 1\); got "
            r"delta\[0\] = 0.6",
        ),
        # a distribution too wide for the generator (it failed only in the simulation jobs):
        # 2 Phi(-0.5 / 0.2) = 0.0124 of the draws are beyond +-0.5
        (
            lambda r: (
                r["scenario"].update(delta={"distribution": "gaussian", "mean": 0.0, "sd": 0.2}),
                r["grid"][0].update(path="delta.mean"),
            ),
            r"scenario at grid point delta~0.0/m~1: delta: the 'bn_vs_zeror' generator can only "
            r"realise differences in \[-0.5, 0.5\] \(theta = 0.5 \+ \|delta\| <= 1\), and 0.0124 "
            r"of the draws",
        ),
        (
            lambda r: r["metrics"][0].update(column="rejected"),
            r"metric 'power': test 'poisson' writes no column 'rejected'",
        ),
        (
            lambda r: r.update(figure={"function": "figure_x", "caption": "P-F2a.rst"}),
            r"figure.function: unknown figure 'figure_x'",
        ),
        (
            lambda r: r["scenario"]["generator"].update(theta=0.8),
            r"generator: unknown key\(s\) \['theta'\]",
        ),
        (lambda r: r.pop("table"), r"expected a `figure`, a `table` or both"),
        # the figure laid out by its settings: what they name must be there
        (
            _curves(),
            r"figure.settings: figure_curves draws the grid axes \['delta'\], but the grid "
            r"axis 'm' has several values too: draw it as well, as the figure's settings allow "
            r"\(figure_curves: `panels` or `lines`\), or give it one value",
        ),
        (
            _curves(xlabel=None, ylabel=None),
            r"figure.settings: figure_curves needs the setting\(s\) \['xlabel', 'ylabel'\]",
        ),
        (
            _curves(metric="powr", panels="m"),
            r"figure.settings.metric: figure_curves draws the metric 'powr', which `metrics` "
            r"does not define",
        ),
        (
            _curves(lines="n"),
            r"figure.settings.lines: figure_curves draws against the grid axes \['n'\], which "
            r"`grid` does not have",
        ),
        # ... each grid axis once, names that are names, tests its metric covers, and one
        # number per grid point
        (
            _curves(panels="delta"),
            r"figure_curves: x, panels and lines must name different grid axes, got "
            r"\('delta', 'delta'\)",
        ),
        (
            _curves(panels="m", names={"n": "runs"}),
            r"figure_curves: names: \['n'\] are not the grid axes drawn as panels or lines "
            r"\(\['m'\]\)",
        ),
        (_curves(panels="m", names=["m"]), r"names must map grid axes to their names in words"),
        (
            _curves(metric=["power"], panels="m"),
            r"figure_curves: metric must name a metric, or map test ids to metric ids, got "
            r"\['power'\]",
        ),
        (
            _curves(lines=["m"]),
            r"figure_curves: \['lines'\] must each name a grid axis",
        ),
        # each test's own metric: the metric must list the test, labels name mapped tests
        (
            _curves(panels="m", metric={"signed_rank": "gap"}),
            r"figure.settings.metric: figure_curves draws the metric 'gap' of the "
            r"test\(s\) \['signed_rank'\], which that metric does not list",
        ),
        (
            _curves(panels="m", metric={"poisson": "power"}, labels={"signed_rank": "SR"}),
            r"figure_curves: labels: \['signed_rank'\] are not tests that metric maps",
        ),
        (
            _curves(panels="m", metric={"poisson": "gaps"}),
            r"figure.settings.metric: figure_curves draws the metric 'gaps', which `metrics` "
            r"does not define",
        ),
        (
            _curves(panels="m", labels={"signed-rank": "SR"}),
            r"figure.settings.labels: figure_curves draws the metric 'power' of the "
            r"test\(s\) \['signed-rank'\], which that metric does not list",
        ),
        (
            _curves(panels="m", reference="0.05"),
            r"figure_curves: reference must be a number, got '0.05'",
        ),
        # one number per grid point: a histogram, one per bin, is refused before the run
        (
            lambda r: (
                r["metrics"].append(
                    {
                        "id": "p_hist",
                        "kind": "histogram",
                        "column": "pvalue",
                        "tests": ["signed_rank"],
                        "bins": [0.0, 0.5, 1.0],
                    }
                ),
                _curves(metric="p_hist", panels="m")(r),
            ),  # fmt: skip
            r"figure_curves draws one number per grid point, but the metric 'p_hist' is a "
            r"histogram \(one number per bin\)",
        ),
        # what the figure function reads: its metrics (with their tests) and grid axes
        (
            lambda r: r.update(figure={"function": "figure_p_f2a", "caption": "P-F2a.rst"}),
            r"figure.function: figure_p_f2a draws against the grid axes \['q'\], which `grid` "
            r"does not have \(it has \['delta', 'm'\]\)",
        ),
        (
            lambda r: (
                r["metrics"][0].update(id="rejection"),
                r.update(figure={"function": "figure_p_f2a", "caption": "P-F2a.rst"}),
            ),
            r"figure.function: figure_p_f2a draws the metric 'power', which `metrics` does not "
            r"define \(it "
            r"defines \['gap', 'rejection'\]\)",
        ),
        (
            lambda r: (
                r["metrics"][0].update(id="mean_p_rope", tests=["poisson"]),
                r.update(figure={"function": "figure_h_f2", "caption": "P-F2a.rst"}),
            ),
            r"figure_h_f2 draws the metric 'mean_p_rope' of the test\(s\) \['hierarchical'\], "
            r"which that metric does not list \(it lists \['poisson'\]\)",
        ),
        (
            lambda r: r["metrics"].append({"id": "odds", "kind": "evidence", "column": "reject"}),
            r"metrics\[2\]: 'columns' is a required property \(found 'column': a misspelling "
            r"of 'columns'\?\)",
        ),
        (
            lambda r: r["scenario"].update(generater=r["scenario"].pop("generator")),
            r"scenario: 'generator' is a required property \(found 'generater': a misspelling "
            r"of 'generator'\?\)",
        ),
        (
            lambda r: r["metrics"][0].update(grades=["strong"]),
            r"metrics\[0\]: .* should not be valid",
        ),
        (
            lambda r: r["metrics"].append(
                {"id": "red", "kind": "reduction", "column": "pvalue", "reference": "statistc"}
            ),
            r"metric 'red': test 'poisson' writes no column 'pvalue'",
        ),
        (
            lambda r: r["metrics"].append({"id": "q", "kind": "quantile", "column": "reject"}),
            r"metrics\[2\]: 'probability' is a required property",
        ),
        (
            lambda r: r["grid"][0].update(paths=["delta.value"]),
            r"grid\[0\]: .* is valid under each of",
        ),
        (
            lambda r: r["grid"][0].pop("path"),
            r"grid\[0\]: .* is not valid under any of the given schemas \(expected: a grid "
            r"axis: \{name, values, and exactly one of path, paths or sets; by_fidelity\?\}\)",
        ),
        # setting values, at every fidelity and grid point, as a job would check them
        (
            lambda r: r["tests"][1]["settings"].update(alternative="two_sided"),
            r"test 'signed_rank': alternative: expected one of 'two-sided', 'greater', 'less', "
            r"got 'two_sided' \(at smoke fidelity, grid point delta~0.0/m~1\)",
        ),
        (
            lambda r: r["tests"][0]["settings"].update(alpha="0.05"),
            r"test 'poisson': alpha: expected a test size in \(0, 0.5\), got '0.05'",
        ),
        (
            lambda r: r["tests"][0].update(by_fidelity={"paper": {"alpha": 5}}),
            r"test 'poisson': alpha: expected a test size in \(0, 0.5\), got 5.0 \(at paper",
        ),
        (
            lambda r: r["grid"].append(
                {"name": "level", "path": "tests.poisson.alpha", "values": [0.05, 1.5]}
            ),
            r"alpha: expected a test size in \(0, 0.5\), got 1.5 \(at smoke fidelity, grid point "
            r"delta~0.0/m~1/level~1.5\)",
        ),
        (
            lambda r: r["tests"].append({"id": "t", "test": "correlated_ttest"}),
            r"test 't': correlated_ttest compares learners on one data set; expected scenario "
            r"q = 1, got 8",
        ),
        (
            lambda r: r["tests"].append(
                {"id": "bsr", "test": "bayesian_signed_rank", "settings": {"rope": [-1, 1]}}
            ),
            r"test 'bsr': rope: the ends must be fractions of accuracy with \|end\| < 1",
        ),
        # a column a test leaves empty in some runs needs a `given`
        (
            lambda r: (
                r["metrics"][0].update(tests=["poisson", "signed_rank"]),
                r["tests"].append({"id": "idp", "test": "idp_signed_rank"}),
                r["metrics"].append(
                    {"id": "e", "kind": "rate", "column": "error", "tests": ["idp"]}
                ),
            ),
            r"metric 'e': test 'idp' leaves column 'error' empty in some runs; restrict",
        ),
        # a rate reads decisions, not numbers
        (
            lambda r: r["metrics"].append(
                {"id": "p", "kind": "rate", "column": "pvalue", "tests": ["signed_rank"]}
            ),
            r"metric 'p': column 'pvalue' holds no decisions \(True or False\), which a "
            r"rate.*read; columns of decisions of test\(s\) \['signed_rank'\]: \['reject'\]$",
        ),  # fmt: skip
        # a table whose rows and columns leave several numbers per cell
        (
            lambda r: r["table"].update(rows=["delta"]),
            r"table: add the grid axis 'm' to the rows or columns, so that each cell holds one",
        ),
        (
            lambda r: r["table"].update(columns=["m"]),
            r"table: add `test` to the rows or columns, .* \(metric 'power' is computed for "
            r"\['poisson', 'signed_rank'\]\)",
        ),
        # summary tables under the table
        (
            lambda r: r["table"].update(summaries=[_summary(metric="nope")]),
            r"table.summaries\[0\].metric: unknown metric 'nope'",
        ),
        (
            lambda r: r["table"].update(summaries=[_summary(rows=["m"])]),
            r"table.summaries\[0\]: add `test` to the rows or columns",
        ),
        (
            lambda r: r["table"].update(summaries=[_summary(summary="area", over="m")]),
            r"table.summaries\[0\].over: expected a grid axis not in the rows or columns",
        ),
        (
            lambda r: r["table"].update(summaries=[_summary(at={"delta": [0.0, 0.3]})]),
            r"table.summaries\[0\].at.delta: 0.3 is not among the grid values",
        ),
        (
            lambda r: (
                r["grid"][1].update(values=[1, 2, 4]),
                r["table"].update(
                    summaries=[_summary(columns=["delta"], summary="area", over="m")]
                ),
            ),
            r"table.summaries\[0\]: summary 'area' needs `over` naming a grid axis with two "
            r"or more uniformly spaced numbers",
        ),
        (
            lambda r: r["table"].update(summaries=[_summary(summary="area")]),
            r"table.summaries\[0\]: 'over' is a required property",
        ),
        (
            lambda r: r["table"].pop("metrics"),
            r"table: add `metric` to the rows or columns, .* \(metrics shown: \['power', 'gap'\]\)",
        ),
        (lambda r: r["source"].update(paper="001"), r"source.paper: '001' is not one of"),
        # a missing scenario is named, not the grid path it would hold
        (lambda r: r.pop("scenario"), r"yaml: scenario: required by a simulation experiment"),
        # an entry the metric's kind does not read would be ignored
        (
            lambda r: r["metrics"][0].update(threshold=0.5),
            r"metric 'power': a rate metric does not read `threshold` \(read only by "
            r"share_above and paired_difference\)",
        ),
        (
            lambda r: r["metrics"][0].update(baseline="signed_rank"),
            r"metric 'power': a rate metric does not read `baseline`",
        ),
        (
            lambda r: (r["metrics"][0].pop("column"), r["metrics"][0].update(columns=["reject"])),
            r"metric 'power': a rate metric does not read `columns`",
        ),
        # two axes setting one entry: the later one would silently win
        (
            lambda r: r["grid"].append({"name": "runs", "path": "cv.runs", "values": [3, 5]}),
            r"grid axis 'runs': path 'cv.runs' is already set by the axis 'm'",
        ),
        (
            lambda r: r["grid"].append(
                {"name": "s", "values": ["a"], "sets": {"a": {"delta.value": 0.2}}}
            ),
            r"grid axis 's': path 'delta.value' is already set by the axis 'delta'",
        ),
    ],
)
def test_bad_experiment_files_give_helpful_messages(edit, message):
    raw = copy.deepcopy(SMALL)
    edit(raw)
    with pytest.raises(SpecError, match=message) as info:
        spec_of(raw)
    assert "T-small.yaml" in str(info.value)


def test_a_figure_whose_labels_state_other_settings_is_refused():
    # figure_h_f5 labels its curves "signed-rank (alpha = 0.05)" and "p(right) > 0.95"
    raw = load_yaml(ROOT / "config" / "experiments" / "H-F5.yaml")
    ExperimentSpec.from_mapping(copy.deepcopy(raw), schema=SCHEMA, what="H-F5.yaml")
    edits = [
        (lambda r: r["tests"][0]["settings"].update(alpha=0.01), "signed_rank.alpha = 0.01"),
        (
            lambda r: next(m for m in r["metrics"] if m["id"] == "power_right").update(
                threshold=0.9
            ),
            "power_right.threshold = 0.9",
        ),
    ]
    for edit, found in edits:
        bad = copy.deepcopy(raw)
        edit(bad)
        assert bad["tests"][0]["id"] == "signed_rank"
        with pytest.raises(SpecError, match="figure_h_f5 labels its curves for") as info:
            ExperimentSpec.from_mapping(bad, schema=SCHEMA, what="H-F5.yaml")
        assert f"but this file has {found}; keep" in str(info.value)
        # the same results in a table only are fine
        bad.pop("figure")
        if "table" not in bad:
            bad["table"] = {"rows": ["delta0"], "columns": ["metric", "test"],
                            "caption": "H-F5.rst"}  # fmt: skip
        ExperimentSpec.from_mapping(bad, schema=SCHEMA, what="H-F5.yaml")


def test_the_power_figures_state_the_size_their_grey_line_marks():
    # figure_p_f2a draws its grey line at the tests' nominal size 0.05 and says so
    from cvcompare.plots.figures import FIGURES

    raw = load_yaml(ROOT / "config" / "experiments" / "P-F2a.yaml")
    for test in (0, 1):
        bad = copy.deepcopy(raw)
        bad["tests"][test]["settings"]["alpha"] = 0.01
        name = bad["tests"][test]["id"]
        with pytest.raises(SpecError, match=f"but this file has {name}.alpha = 0.01; keep"):
            ExperimentSpec.from_mapping(bad, schema=SCHEMA, what="P-F2a.yaml")
    agg = _fake_aggregate(spec_of()).assign(q=8)
    (ax,) = FIGURES["figure_p_f2a"](agg, title="t").axes
    assert [t.get_text() for t in ax.texts] == [r"nominal $\alpha$ = 0.05"]
    # the horizontal axis says in words what delta_acc is, the legend what m is
    assert ax.get_xlabel() == r"difference of accuracy $\delta_{acc}$ (on every data set)"
    (legend,) = ax.figure.legends
    assert legend.get_title().get_text().startswith("m: runs of cross-validation; ")
    assert any(list(line.get_ydata()) == [0.05, 0.05] for line in ax.lines)


def test_the_power_figures_draw_each_number_of_runs_in_a_style_of_its_own():
    # m = 1 dashed and the largest m solid, as in the paper; any other m must not look
    # like either (a grid m = [1, 3, 10] drew m = 3 and m = 10 alike)
    from cvcompare.plots.figures import FIGURES

    raw = copy.deepcopy(SMALL)
    raw["grid"][1]["values"] = [1, 3, 10]
    raw["paper_numbers"][0]["at"]["m"] = 1
    agg = _fake_aggregate(spec_of(raw)).assign(q=8)
    (ax,) = FIGURES["figure_p_f2a"](agg, title="t").axes
    styles = {c.get_label(): c.lines[0].get_linestyle() for c in ax.containers}
    assert styles["signed-rank, m = 1"] == "--"
    assert styles["signed-rank, m = 10"] == "-"
    assert len({styles[f"signed-rank, m = {m}"] for m in (1, 3, 10)}) == 3


def test_the_figure_laid_out_by_its_settings_draws_every_grid_point_once():
    # a scenario of one's own draws its metric without a figure function of its own
    raw = copy.deepcopy(SMALL)
    settings = {**_CURVES, "panels": "m", "labels": {"poisson": "Poisson-binomial"},
                "reference": 0.05}  # fmt: skip
    raw["figure"] = {"function": "figure_curves", "settings": settings}
    spec = spec_of(raw)
    agg = _fake_aggregate(spec)
    fig = spec.draw_figure(agg)
    assert [ax.get_title() for ax in fig.axes] == ["m = 1", "m = 2"]
    assert fig.axes[0].get_xlabel() == "difference" and fig.axes[0].get_ylabel() == "power"
    for ax, m in zip(fig.axes, (1, 2), strict=True):
        drawn = {c.get_label(): c.lines[0].get_ydata() for c in ax.containers}
        assert sorted(drawn) == ["Poisson-binomial", "signed_rank"]
        expected = agg[(agg["m"] == m) & (agg["test"] == "poisson")].sort_values("delta")
        np.testing.assert_array_equal(drawn["Poisson-binomial"], expected["value"])
        # the two tests' curves are 0.8% of the span of delta apart, centred on its values,
        # so that equal values do not hide one of them
        at = {c.get_label(): np.asarray(c.lines[0].get_xdata(), float) for c in ax.containers}
        span = np.ptp(expected["delta"])
        np.testing.assert_allclose(at["Poisson-binomial"], expected["delta"] - 0.004 * span)
        np.testing.assert_allclose(at["signed_rank"], expected["delta"] + 0.004 * span)
        np.testing.assert_array_equal(ax.get_xticks(), expected["delta"])  # on the grid
        assert any(list(line.get_ydata()) == [0.05, 0.05] for line in ax.lines)
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == [
        "Poisson-binomial", "signed_rank", "reference value 0.05"
    ]  # fmt: skip
    assert " ".join(fig.get_suptitle().split()) == spec.title  # broken to the width
    # lines instead of panels: one style per m, in one panel
    settings = {**_CURVES, "lines": "m"}
    (ax,) = figure_curves(agg, title="t", **settings).axes
    styles = {c.get_label(): c.lines[0].get_linestyle() for c in ax.containers}
    assert styles["poisson, m = 1"] == styles["signed_rank, m = 1"] != styles["poisson, m = 2"]
    # the axes of panels and lines named in words
    worded = {**_CURVES, "panels": "m", "names": {"m": "runs"}}
    assert [ax.get_title() for ax in figure_curves(agg, title="t", **worded).axes] == [
        "runs = 1", "runs = 2"
    ]  # fmt: skip
    (legend,) = figure_curves(agg, title="t", **_CURVES, lines="m", names={"m": "runs"}).legends
    assert legend.get_texts()[0].get_text() == "poisson, runs = 1"
    # the tests `labels` names come first in its order (signed_rank before poisson here),
    # then the others alphabetically
    settings = {**_CURVES, "lines": "m", "labels": {"signed_rank": "Wilcoxon"}}
    (legend,) = figure_curves(agg, title="t", **settings).legends
    assert [t.get_text() for t in legend.get_texts()] == [
        "Wilcoxon, m = 1", "poisson, m = 1", "Wilcoxon, m = 2", "poisson, m = 2"
    ]  # fmt: skip
    # ticks on the grid values only where their labels have room: not for q = 5, 10, 25,
    # 50, 100 (5 and 10 are 1/19 of the span apart), nor for 13 values
    from cvcompare.plots.figures.curves import _grid_ticks

    assert _grid_ticks(pd.Series([5, 10, 25, 50, 100])) == []
    assert _grid_ticks(pd.Series(np.arange(13.0))) == []
    assert _grid_ticks(pd.Series([0.0, 0.01, 0.02, 0.03])) == [0.0, 0.01, 0.02, 0.03]
    # an axis of words (or of numbers written as text) is drawn as it is, not shifted
    for words in (["1-27", "all"], ["5", "10"]):
        text = agg[agg["m"] == 1].assign(delta=lambda t, w=words: t["delta"].map(
            dict(zip(sorted(t["delta"].unique()), w, strict=True))))  # fmt: skip
        (ax,) = figure_curves(text, title="t", **_CURVES).axes
        assert [list(c.lines[0].get_xdata()) for c in ax.containers] == [sorted(words)] * 2
    # an axis left out gives two rows per point: refused, not drawn over each other
    with pytest.raises(ValueError, match="several rows at one value of 'delta'"):
        figure_curves(agg, title="t", **_CURVES)


def test_the_figure_laid_out_by_its_settings_draws_each_test_s_own_metric():
    """A test's rejection rate beside another's mean p-value (as a frequentist test's
    power beside a Bayesian test's share of runs above a threshold), in one figure: metric
    maps each test to its metric, and only those tests are drawn, each with its own
    metric's values."""
    raw = copy.deepcopy(SMALL)
    raw["metrics"].append(
        {"id": "mean_p", "kind": "mean", "column": "pvalue", "tests": ["signed_rank"]}
    )
    mapping = {"poisson": "power", "signed_rank": "mean_p"}
    settings = {**_CURVES, "metric": mapping, "panels": "m", "labels": {"poisson": "P-B"}}
    raw["figure"] = {"function": "figure_curves", "settings": settings}
    spec = spec_of(raw)
    agg = _fake_aggregate(spec)
    mean_p = agg[agg["test"] == "signed_rank"].assign(
        metric="mean_p", value=lambda t: 1 - t["value"]
    )
    agg = pd.concat([agg, mean_p], ignore_index=True)
    fig = spec.draw_figure(agg)
    for ax, m in zip(fig.axes, (1, 2), strict=True):
        drawn = {c.get_label(): list(c.lines[0].get_ydata()) for c in ax.containers}
        assert sorted(drawn) == ["P-B", "signed_rank"]
        for label, (test, metric) in zip(("P-B", "signed_rank"), mapping.items(), strict=True):
            rows = agg[(agg["m"] == m) & (agg["test"] == test) & (agg["metric"] == metric)]
            assert drawn[label] == list(rows.sort_values("delta")["value"])
    # one test in the mapping: only it is drawn
    one = {**_CURVES, "metric": {"signed_rank": "mean_p"}}
    (ax,) = figure_curves(agg[agg["m"] == 1], title="t", **one).axes
    assert [c.get_label() for c in ax.containers] == ["signed_rank"]
    # a test the metric has no rows of, or no test at all: refused, not left out
    with pytest.raises(ValueError, match="metric 'mean_p' has no rows of test 'poisson'"):
        figure_curves(agg, title="t", **{**_CURVES, "metric": {"poisson": "mean_p"}})
    with pytest.raises(ValueError, match="metric: expected a metric id, or test ids mapped"):
        figure_curves(agg, title="t", **{**_CURVES, "metric": {}})


def test_the_figure_laid_out_by_its_settings_draws_no_two_tests_or_lines_alike():
    # seven tests and seven values of `lines`: six colours, markers and named line styles
    # would repeat the first
    from cvcompare.plots.figures.curves import _line_styles

    agg = pd.DataFrame(
        [
            {"delta": d, "m": m, "test": f"t{t}", "metric": "power", "value": 0.1 * t,
             "se": 0.01}
            for t in range(7) for m in range(7) for d in (0.0, 0.1)
        ]
    )  # fmt: skip
    (ax,) = figure_curves(agg, title="t", **_CURVES, lines="m").axes
    looks = {(c.lines[0].get_color(), c.lines[0].get_marker()) for c in ax.containers}
    assert len(looks) == 7
    assert len({str(style) for style in _line_styles(list(range(7))).values()}) == 7


def _equivalence_aggregate():
    """An aggregate of H-F2 / H-F3's metrics at q = 10 and 20 (every value 0.5 +- 0.1)."""
    return pd.DataFrame(
        {
            "point": f"q~{q}",
            "q": q,
            "test": test,
            "metric": metric,
            "value": 0.5,
            "se": 0.1,
            "n": 10,
        }
        for q in (10, 20)
        for metric, test in (
            ("mean_p_rope", "hierarchical"),
            ("recognition", "hierarchical"),
            ("decisive", "hierarchical"),
            ("rejection", "signed_rank"),
            ("mean_p_rope_next", "hierarchical"),
        )
    )


def test_the_signed_rank_panel_of_h_f3_names_its_grey_line():
    from cvcompare.plots.figures import FIGURES

    left = FIGURES["figure_h_f3"](_equivalence_aggregate(), title="t").axes[0]
    assert any(list(line.get_ydata()) == [0.05, 0.05] for line in left.lines)
    labels = [t.get_text() for t in left.get_legend().texts]
    assert sorted(labels) == [r"nominal $\alpha$ = 0.05", "signed-rank rejection rate"]


def test_a_legend_below_the_axes_fits_their_place_and_leaves_them_their_width():
    # H-F5's labels in two columns are wider than the figure: the layout had shrunk its axes
    # to a sixth of the figure's width to make room; in one column they fit
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from cvcompare.plots.figures import FIGURES

    power = pd.DataFrame(
        {"point": f"delta0~{d}", "delta0": d, "test": test, "metric": metric,
         "value": 0.5, "se": 0.1, "n": 10}
        for d in (0.015, 0.02)
        for metric, test in (("rejection", "signed_rank"), ("power_right", "hierarchical"),
                             ("power_right_next", "hierarchical"))
    )  # fmt: skip
    figures = [
        FIGURES["figure_h_f5"](power, title="t"),
        FIGURES["figure_h_f2"](_equivalence_aggregate(), title="t"),
        FIGURES["figure_h_f3"](_equivalence_aggregate(), title="t"),
    ]
    for fig in figures:
        renderer = FigureCanvasAgg(fig).get_renderer()
        fig.draw_without_rendering()
        for ax in fig.axes:
            column = 1 / ax.get_subplotspec().get_gridspec().ncols  # of the figure's width
            assert ax.get_legend().get_window_extent(renderer).width <= column * fig.bbox.width
            assert ax.get_position().width > 0.75 * column


def test_the_replicability_figure_names_its_grey_line_and_the_direction_of_h1():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from cvcompare.plots.figures import FIGURES

    pairs = ("nbc-aode", "aode-hnb", "j48-j48gr", "nbc-hnb")  # W-T5's, the widest titles
    rows = [
        {"pair": p, "metric": m, "test": t, "value": 0.7, "se": 0.02, "n": 100}
        for p in pairs
        for m in ("replicability_determinate", "replicability_indeterminate")
        for t in ("wilcoxon", "dp")
    ]
    for p in pairs:
        rows.append({"pair": p, "metric": "share_h1", "test": "wilcoxon", "value": 0.4})
        rows.append({"pair": p, "metric": "share_indeterminate", "test": "idp", "value": 0.2})
    agg = pd.DataFrame(rows).assign(point=lambda d: d["pair"])
    fig = FIGURES["figure_replicability_split"](agg, title="t")
    labels = [t.get_text() for t in fig.legends[0].texts]
    assert labels == ["random guesser", "IDP determinate", "IDP indeterminate"]
    # each panel names its pair as the table does and the direction of H1
    assert fig.axes[2].get_title().splitlines() == [
        "j48-j48gr: H1 = j48gr more accurate",
        "Wilcoxon accepts H1 in 40%",
        "IDP indeterminate in 20%",
    ]
    # and the panel titles do not run into each other
    FigureCanvasAgg(fig).draw()
    boxes = [ax.title.get_window_extent() for ax in fig.axes]
    assert all(left.x1 < right.x0 for left, right in itertools.pairwise(boxes))
    # two standard errors each way, the upper bar cut at 1, which no replicability exceeds
    near_one = (agg["pair"] == "nbc-aode") & (agg["test"] == "dp")
    near_one &= agg["metric"] == "replicability_indeterminate"
    agg.loc[near_one, ["value", "se"]] = [0.95, 0.05]
    ax = FIGURES["figure_replicability_split"](agg, title="t").axes[0]
    ends = sorted(
        (round(y0, 12), round(y1, 12))
        for container in ax.containers
        if hasattr(container, "has_yerr")
        for (_, y0), (_, y1) in container.lines[2][0].get_segments()
    )
    assert ends == [(0.66, 0.74)] * 3 + [(0.85, 1.0)]


def test_file_name_must_match_id(tmp_path):
    import yaml

    path = tmp_path / "Other.yaml"
    path.write_text(yaml.safe_dump(SMALL))
    with pytest.raises(SpecError, match="must equal the file name 'Other'"):
        load_experiment(path, schema=SCHEMA)


def test_bad_workflow_config_names_the_entry_and_the_choices():
    config = load_yaml(ROOT / "config" / "config.yaml")
    validate_with_schema(config, CONFIG_SCHEMA, "config")
    bad = {**config, "fidelity": "fast", "workers": 0}
    with pytest.raises(SpecError) as info:
        validate_with_schema(bad, CONFIG_SCHEMA, "config")
    text = str(info.value)
    assert "fidelity: 'fast' is not one of ['smoke', 'quick', 'paper']" in text
    assert "workers: 0 is less than the minimum of 1" in text


def test_chunk_ranges_cover_every_replication_once():
    for n, size in [(1, 1), (10, 3), (10, 10), (10, 50), (500, 7)]:
        ranges = chunk_ranges(n, size)
        assert [r for s, e in ranges for r in range(s, e)] == list(range(n))
        assert all(0 < e - s <= size for s, e in ranges)
    with pytest.raises(SpecError, match="chunk_size"):
        chunk_ranges(10, 0)


# --- running chunks ------------------------------------------------------------------------


def _job(point="delta~0.1/m~2", fidelity="smoke"):
    spec = spec_of()
    return spec.job(spec.point(point), fidelity, 2024)


def test_chunks_give_the_same_rows_whatever_the_split_and_the_workers():
    whole = run_chunk(**_job(), start=0, stop=4).drop(columns=TIMING_COLUMNS)
    parts = pd.concat(
        [run_chunk(**_job(), start=0, stop=1), run_chunk(**_job(), start=1, stop=4, n_jobs=2)],
        ignore_index=True,
    ).drop(columns=TIMING_COLUMNS)
    pd.testing.assert_frame_equal(whole, parts)
    assert list(whole["replication"]) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert list(whole["test"]) == ["poisson", "signed_rank"] * 4


def test_a_test_s_rows_do_not_depend_on_the_other_tests():
    job = _job()
    alone = dict(job, tests=[job["tests"][1]])
    both = run_chunk(**job, start=0, stop=3)
    single = run_chunk(**alone, start=0, stop=3)
    cols = ["replication", "statistic", "pvalue", "reject", "mean_true_delta"]
    pd.testing.assert_frame_equal(
        both[both.test == "signed_rank"][cols].reset_index(drop=True), single[cols]
    )


def test_adapters_match_direct_computations():
    from cvcompare.seeding import replication_rng
    from cvcompare.simulate.scenario import simulate_comparison

    job = _job()
    rows = run_chunk(**job, start=0, stop=3)
    for r in range(3):
        scen = copy.deepcopy(job["scenario"])
        q = scen.pop("q")
        sim = simulate_comparison(scen, q, replication_rng(2024, "T-small", job["point"], r))
        means = sim.diffs.mean(axis=1)
        # folds that cancel exactly can leave a mean of ~1e-17; the adapters treat it as 0
        means = np.where(np.abs(means) < 1e-12, 0.0, means)
        sr = rows[(rows.replication == r) & (rows.test == "signed_rank")].iloc[0]
        ref = stats.wilcoxon(means, alternative="greater", zero_method="wilcox")
        assert sr.pvalue == pytest.approx(ref.pvalue)
        assert bool(sr.reject) == (ref.pvalue < 0.05)
        assert sr.mean_true_delta == pytest.approx(0.1)
        po = rows[(rows.replication == r) & (rows.test == "poisson")].iloc[0]
        assert bool(po.reject) == (po.prob_majority > 0.95)


def test_bayesian_signed_rank_and_sign_test_adapters():
    job = _job()
    job["tests"] = [
        {"id": "bsr", "test": "bayesian_signed_rank", "settings": {"n_samples": 2000}},
        {"id": "sign", "test": "sign_test", "settings": {"alternative": "greater"}},
    ]
    rows = run_chunk(**job, start=0, stop=2)
    bsr = rows[rows.test == "bsr"]
    total = bsr[["p_left", "p_rope", "p_right"]].sum(axis=1)
    assert (total - 1).abs().max() < 1e-9
    sign = rows[rows.test == "sign"]
    assert (sign.reject == (sign.pvalue < 0.05)).all()
    # the sign statistic counts the data sets where the first learner wins (q = 8)
    assert sign.statistic.between(0, 8).all()


def test_run_chunk_refuses_bad_ranges_and_unknown_tests():
    with pytest.raises(ValueError, match="stop: expected an integer >= 3"):
        run_chunk(**_job(), start=2, stop=2)
    bad = _job()
    bad["tests"] = [{"id": "x", "test": "magic", "settings": {}}]
    with pytest.raises(ValueError, match="unknown test 'magic'"):
        run_chunk(**bad, start=0, stop=1)
    bad = _job()
    bad["tests"][1]["settings"]["alfa"] = 0.1
    with pytest.raises(ValueError, match=r"unknown setting\(s\) \['alfa'\]"):
        run_chunk(**bad, start=0, stop=1)


# --- atomic output -------------------------------------------------------------------------


def test_atomic_path_leaves_nothing_when_the_block_fails(tmp_path):
    target = tmp_path / "out" / "table.csv"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("partial")
        raise RuntimeError("killed")
    assert not target.exists()
    assert list(target.parent.iterdir()) == []


def test_a_process_killed_mid_write_leaves_no_output(tmp_path):
    # The child writes half a table through atomic_path and is then SIGKILLed, as a job
    # killed by the scheduler would be: the target must not exist (only a hidden
    # temporary file may remain, which no rule declares as output), and the next writer
    # of the same path removes that leftover.
    target = tmp_path / "reps-0-4.parquet"
    code = (
        "import os, signal\n"
        "from cvcompare.experiments import atomic_path\n"
        f"with atomic_path({str(target)!r}) as tmp:\n"
        "    tmp.write_bytes(b'PAR1' + b'x' * 1000)\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], check=False)
    assert proc.returncode == -signal.SIGKILL
    assert not target.exists()
    leftovers = list(tmp_path.iterdir())
    assert len(leftovers) == 1 and leftovers[0].name.startswith(".reps-0-4.parquet.")
    (tmp_path / ".other.parquet.x.tmp").write_bytes(b"")  # another output's: kept
    with atomic_path(target) as tmp:
        tmp.write_bytes(b"done")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.parquet.x.tmp", target.name]


def test_atomic_output_has_the_permissions_of_any_new_file(tmp_path):
    old = os.umask(0o022)
    try:
        with atomic_path(tmp_path / "shared.csv") as tmp:
            tmp.write_text("a\n1\n")
        (tmp_path / "plain.csv").write_text("a\n1\n")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "shared.csv").stat().st_mode)
    assert mode == stat.S_IMODE((tmp_path / "plain.csv").stat().st_mode) == 0o644


def test_write_table_round_trips_and_checks_the_suffix(tmp_path):
    table = pd.DataFrame({"a": [1, 2], "b": pd.array([True, pd.NA], dtype="boolean")})
    write_table(table, tmp_path / "t.parquet")
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "t.parquet"), table)
    with pytest.raises(ValueError, match=r"\.parquet or \.csv"):
        write_table(table, tmp_path / "t.xlsx")
    assert os.listdir(tmp_path) == ["t.parquet"]


# --- comparison table and figures ----------------------------------------------------------


def _fake_aggregate(spec):
    rows = []
    for k, p in enumerate(spec.points()):
        for test, value, se in (("poisson", 0.01 * (k + 1), 0.01), ("signed_rank", 0.2, 0.02)):
            rows.append(
                {
                    "point": p.label,
                    **p.params,
                    "test": test,
                    "metric": "power",
                    "value": value,
                    "se": se,
                    "n": 100,
                    "uncertainty": "Monte Carlo",
                }
            )
    return pd.DataFrame(rows)


def test_a_figure_s_error_bars_of_a_rate_stay_within_0_and_1():
    # a rejection rate of 0.01 +/- 0.01 (n = 100) had a bar down to -0.01; its bar is now
    # Wilson's interval: from above 0, and longer upwards than downwards
    raw = copy.deepcopy(SMALL)
    raw["figure"] = {"function": "figure_curves", "settings": {**_CURVES, "panels": "m"}}
    spec = spec_of(raw)
    agg = error_bounds(_fake_aggregate(spec), {"power": "rate"})  # as aggregate() adds them
    fig = spec.draw_figure(agg)
    lows, highs = [], []
    for ax in fig.axes:
        for container in ax.containers:
            (bars,) = container.lines[2]  # the vertical segments of the error bars
            for (_, y0), (_, y1) in bars.get_segments():
                lows.append(min(y0, y1))
                highs.append(max(y0, y1))
    assert len(lows) == len(agg) and min(lows) > 0 and max(highs) < 1
    smallest = agg["value"].min()
    assert smallest - 2 * 0.01 < 0  # what two standard errors would have drawn
    assert min(lows) < smallest < min(highs)
    # a table without the bounds (an analysis' numbers) gets two standard errors
    (ax,) = spec.draw_figure(agg.drop(columns=["low", "high"])).axes[:1]
    (bars,) = ax.containers[0].lines[2]
    y0, y1 = bars.get_segments()[0][:, 1]
    assert abs(y1 - y0) == pytest.approx(4 * 0.01)


def test_a_table_naming_no_metrics_groups_its_rows_by_metric_in_the_file_s_order():
    # rows [metric, delta, m] without table.metrics: every row of "zeta" first, as the file
    # lists it (the metrics were interleaved row by row)
    from cvcompare.experiments.tables import pivot_table

    raw = copy.deepcopy(SMALL)
    raw["metrics"] = [{"id": "zeta", "kind": "rate", "column": "reject"},
                      {"id": "alpha", "kind": "rate", "column": "reject"}]  # fmt: skip
    raw["table"] = {"rows": ["metric", "delta", "m"], "columns": ["test"]}
    raw["paper_numbers"] = []
    spec = spec_of(raw)
    agg = _fake_aggregate(spec)
    agg = pd.concat([agg.assign(metric="zeta"), agg.assign(metric="alpha")])
    long = pivot_table(agg, spec.table, {axis.name: axis.values for axis in spec.grid})
    assert list(long["metric"]) == ["zeta"] * 8 + ["alpha"] * 8
    assert list(long["delta"][:8]) == [0.0] * 4 + [0.1] * 4


def test_table_markdown_says_what_grid_values_standing_for_several_settings_mean():
    from cvcompare.experiments.tables import pivot_table, table_key, table_markdown

    # Table 1 of Corani et al. (2017): a row named after a source is only readable with
    # the Gamma prior it stands for
    spec = load_experiment(ROOT / "config" / "experiments" / "H-T1.yaml", schema=SCHEMA)
    agg = pd.DataFrame(
        [
            {"point": f"prior~{v}", "prior": v, "test": "gamma", "metric": m, "value": 1.0,
             "se": 0.0, "n": 1, "uncertainty": "exact"}
            for v in spec.grid[0].values
            for m in ("mean", "sd", "p_below")
        ]
    )  # fmt: skip
    long = pivot_table(agg, spec.table, {a.name: a.values for a in spec.grid})
    lines = table_markdown(long, spec.table, spec.title, table_key(spec, "quick")).splitlines()
    key = lines[lines.index("Values of prior:") :]
    assert key[1:3] == [
        "- `a2_b0.1`: alpha = 2.0, beta = 0.1",
        "- `a1_b0.0345`: alpha = 1.0, beta = 0.0345",
    ]
    assert len(key) == 7
    # values setting lists or mappings (a whole design) are not spelt out
    h_f6 = load_experiment(ROOT / "config" / "experiments" / "H-F6.yaml", schema=SCHEMA)
    assert "q" not in table_key(h_f6, "quick")["values"]


def test_a_split_table_writes_one_dense_table_per_set_of_rows_its_columns_fill():
    from cvcompare.experiments.tables import pivot_table, table_markdown

    def row(test, metric, value):
        return {
            "test": test,
            "metric": metric,
            "value": value,
            "se": 0.0,
            "n": 1,
            "uncertainty": "exact",
        }

    # as F-T1: ranks of models, differences of pairs, and statistics of omnibus tests
    agg = pd.DataFrame(
        [
            row("a", "rank", 1.0),
            row("b", "rank", 2.0),
            row("a - b", "diff", 1.0),
            row("friedman", "chi2", 3.0),
            row("friedman", "pvalue", np.nan),
        ]
    )
    spec = {"rows": ["test"], "columns": ["metric"], "digits": 1}
    long = pivot_table(agg, spec)
    assert table_markdown(long, spec, "t").splitlines()[2:8] == [
        "| test | rank | diff | chi2 | pvalue |",
        "|---|---|---|---|---|",
        "| a | 1.0 |  |  |  |",
        "| a - b |  | 1.0 |  |  |",
        "| b | 2.0 |  |  |  |",
        "| friedman |  |  | 3.0 | – |",
    ]
    split = table_markdown(long, {**spec, "split": True}, "t").splitlines()
    # an undefined value (–) fills its cell: pvalue stays beside chi2
    assert split[:16] == [
        "# t",
        "",
        "| test | rank |",
        "|---|---|",
        "| a | 1.0 |",
        "| b | 2.0 |",
        "",
        "| test | diff |",
        "|---|---|",
        "| a - b | 1.0 |",
        "",
        "| test | chi2 | pvalue |",
        "|---|---|---|",
        "| friedman | 3.0 | – |",
        "",
        "Exact numbers. –: undefined, since no replication met the condition the metric is "
        "restricted to, or this fidelity does not run every grid point the number covers.",
    ]
    # F-T1 declares it, and a non-boolean is refused by the schema
    schema = load_yaml(ROOT / "workflow" / "schemas" / "experiment.schema.yaml")
    assert (
        load_experiment(ROOT / "config" / "experiments" / "F-T1.yaml", schema=schema).table["split"]
        is True
    )
    raw = load_yaml(ROOT / "config" / "experiments" / "F-T1.yaml")
    raw["table"]["split"] = "yes"
    with pytest.raises(SpecError, match="split"):
        spec_of(raw)


def test_table_markdown_keeps_integer_axes_heads_grid_values_and_explains_the_ids():
    from cvcompare.experiments.tables import pivot_table, table_key, table_markdown

    raw = copy.deepcopy(SMALL)
    raw["metrics"][0]["description"] = "rejection rate"
    raw["metrics"][1]["description"] = "power of poisson minus that of signed_rank"
    raw["table"] = {**raw["table"], "rows": ["delta"], "columns": ["m", "test"]}
    raw["tests"][0]["by_fidelity"] = {"smoke": {"alpha": 0.1}}
    spec = spec_of(raw)
    agg = _fake_aggregate(spec)
    # read back as the workflow reads it: delta a float column beside the integer m
    agg = pd.read_csv(io.StringIO(agg.to_csv(index=False)))
    assert agg["m"].dtype.kind == "i" and agg["delta"].dtype.kind == "f"
    long = pivot_table(agg, spec.table, {a.name: a.values for a in spec.grid})
    lines = table_markdown(long, spec.table, spec.title, table_key(spec, "quick")).splitlines()
    assert lines[2] == (
        "| delta | m = 1, poisson | m = 1, signed_rank | m = 2, poisson | m = 2, signed_rank |"
    )
    assert lines[4] == "| 0.0 | 0.010 ± 0.010 | 0.200 ± 0.020 | 0.020 ± 0.010 | 0.200 ± 0.020 |"
    key = lines[lines.index("Tests:") :]
    assert key == [
        "Tests:",
        "- `poisson`: Poisson-binomial test (alpha = 0.05)",
        "- `signed_rank`: Wilcoxon signed-rank test (alternative = greater)",
        "",
        "Metrics:",
        "- `power`: rejection rate",
    ]
    # the settings of the fidelity the table was computed at
    smoke = table_markdown(long, spec.table, spec.title, table_key(spec, "smoke"))
    assert "- `poisson`: Poisson-binomial test (alpha = 0.1)" in smoke
    # with rows over both axes and no test column, m stays an integer beside the float
    # delta, and the key names the test behind the metric shown
    one = {"rows": ["delta", "m"], "columns": [], "metrics": ["gap"]}
    gap = agg.assign(metric="gap")[agg.test == "poisson"]
    md = table_markdown(pivot_table(gap, one), one, "t", table_key(spec, "quick"))
    assert "| 0.1 | 2 | 0.040 ± 0.010 |" in md
    assert "- `poisson`: Poisson-binomial test" in md and "- `signed_rank`" not in md
    assert md.index("Tests:") < md.index("Metrics:")
    # a metric of its own precision (e.g. counts with none), the others at `digits`
    counted = {**spec.table, "columns": ["m", "test", "metric"], "metric_digits": {"power": 1}}
    lines = table_markdown(pivot_table(agg, counted), counted, "t").splitlines()
    # an error that rounds to 0 would read as certainty: the cell gives the runs behind it
    n = agg["n"].iloc[0]
    assert (
        lines[4]
        == "| 0.0 | "
        + " | ".join(f"{v} ± 0.0 (n = {n})" for v in ("0.0", "0.2", "0.0", "0.2"))
        + " |"
    )
    assert any(line.endswith("n of runs or draws they rest on where that error rounds to 0.")
               for line in lines)  # fmt: skip
    raw_digits = copy.deepcopy(raw)
    raw_digits["table"]["metric_digits"] = {"nope": 0}
    with pytest.raises(SpecError, match="table.metric_digits: unknown metric 'nope'"):
        spec_of(raw_digits)
    # a row key headed in words; a heading of a key that is not a row is refused
    worded = {**one, "headings": {"delta": "difference of accuracy"}}
    md = table_markdown(pivot_table(gap, worded), worded, "t")
    assert "| difference of accuracy | m | value |" in md
    raw_headings = copy.deepcopy(raw)
    raw_headings["table"]["headings"] = {"nope": "x"}
    with pytest.raises(SpecError, match=r"table.headings: \['nope'\] are not among the rows"):
        spec_of(raw_headings)
    # a metric restricted to runs of which there were none has no value: a dash, explained
    first = long.index == 0
    undefined = long.assign(
        value=long["value"].mask(first), se=long["se"].mask(first), n=long["n"].mask(first, 0)
    )
    lines = table_markdown(undefined, spec.table, spec.title).splitlines()
    assert lines[4] == "| 0.0 | – | 0.200 ± 0.020 | 0.020 ± 0.010 | 0.200 ± 0.020 |"
    assert "–: undefined, since no replication met the condition the metric is" in lines[-1]
    assert "nan" not in "\n".join(lines) and "–" not in table_markdown(long, spec.table, "t")
    # ids without a meaning (no key, or a metric without a description) are not listed
    assert "Tests:" not in table_markdown(long, spec.table, "t")
    assert "Metrics:" not in table_markdown(long, spec.table, "t", table_key(spec_of(), "quick"))
    # a test setting a grid axis sets is named as such
    raw["grid"][1] = {"name": "level", "path": "tests.poisson.alpha", "values": [0.05, 0.1]}
    raw["table"]["columns"] = ["level", "test"]
    raw["paper_numbers"] = []
    assert table_key(spec_of(raw), "quick")["test"]["poisson"] == (
        "Poisson-binomial test (alpha = grid axis level)"
    )


def test_comparison_averages_over_listed_points_with_independent_errors():
    spec = spec_of()
    agg = _fake_aggregate(spec)
    table = comparison_table([spec], {"T-small": agg})
    row = table.iloc[0]
    # the claim is at delta = 0 and m in {1, 2}: points 0 and 1 (values 0.01 and 0.02)
    assert row.reproduced == pytest.approx(0.015)
    assert row.se == pytest.approx(math.sqrt(0.01**2 + 0.01**2) / 2)
    assert row.n == 200
    assert bool(row.consistent)
    md = to_markdown(table)
    assert (
        "| T-small | calibrated |" in md
        and "0.015 ± 0.0071 (Monte Carlo, n = 200) |  | consistent |" in md
    )
    assert "| calibrated | nowhere | < 0.05 | 0.015" in md  # no tolerance: none shown
    loose = copy.deepcopy(SMALL)
    loose["paper_numbers"][0]["tolerance"] = 0.01
    md = to_markdown(comparison_table([spec_of(loose)], {"T-small": agg}))
    assert "| calibrated | nowhere | < 0.05 (tolerance 0.01) | 0.015" in md
    # a run whose experiments state no number says so, not an empty table
    none = to_markdown(
        comparison_table([spec_of({**SMALL, "paper_numbers": []})], {"T-small": agg})
    )
    assert none == "No experiment of this run states a number to compare (`paper_numbers`).\n"


@pytest.mark.parametrize(
    ("relation", "value", "tol", "expected"),
    [
        ("<=", 0.001, 0.0, True),
        ("<=", 0.0, 0.0, False),
        (">=", 0.029, 0.0, True),
        (">=", 0.03, 0.0, False),
        ("~", 0.028, 0.0, True),
        ("~", 0.03, 0.0, False),
        ("~", 0.03, 0.001, True),
    ],
)
def test_consistency_allows_two_standard_errors_and_the_tolerance(relation, value, tol, expected):
    raw = copy.deepcopy(SMALL)
    raw["paper_numbers"][0].update(relation=relation, value=value, tolerance=tol)
    spec = spec_of(raw)
    row = comparison_table([spec], {"T-small": _fake_aggregate(spec)}).iloc[0]
    # reproduced 0.015 with se 0.00707: the 2-SE band is [0.00086, 0.0291]
    assert bool(row.consistent) is expected


@pytest.mark.parametrize(
    ("metric", "value", "expected"),
    [("power", 0.02, True), ("power", 0.11, False), ("gap", 0.02, False)],
)
def test_a_share_of_no_replication_allows_its_exact_bound(metric, value, expected):
    # 0 of 40 replications at each of two points: the plug-in error is 0, but a rate of 2%
    # gives 0 of 80 with probability 0.98^80 = 0.20 and 11% with 0.89^80 = 9e-5; the
    # two-sided 95% Clopper-Pearson bound 1 - 0.025^(1/80) = 0.0451 decides. A difference of
    # two rates (kind paired_difference) has no such bound.
    raw = copy.deepcopy(SMALL)
    test = "poisson" if metric == "power" else "poisson - signed_rank"
    raw["paper_numbers"][0].update(metric=metric, test=test, relation="~", value=value)
    spec = spec_of(raw)
    agg = _fake_aggregate(spec).assign(value=0.0, se=0.0, n=40)
    agg = pd.concat([agg, agg.assign(metric="gap", test="poisson - signed_rank")])
    row = comparison_table([spec], {"T-small": agg}).iloc[0]
    assert bool(row.consistent) is expected
    if metric == "power":
        assert row.note == "0 of 80 replications: judged with the exact 95% bound."
        # the verdict turns exactly at the bound of 0 in 80
        bound = 1 - 0.025 ** (1 / 80)
        for paper, consistent in ((bound - 1e-6, True), (bound + 1e-6, False)):
            raw["paper_numbers"][0]["value"] = paper
            row = comparison_table([spec_of(raw)], {"T-small": agg}).iloc[0]
            assert bool(row.consistent) is consistent
    else:
        assert row.note == ""


@pytest.mark.parametrize(
    ("n", "value", "summary", "relation", "expected"),
    [
        # 0 of 80 at a mean rate of 6% has probability 0.94^80 = 0.007: the mean of the two
        # points' bounds, 1 - 0.025^(1/40) = 0.088, let it pass
        ((40, 40), 0.0, "mean", ("~", 0.06), False),
        ((40, 40), 0.0, "mean", (">=", 0.06), False),
        ((40, 40), 0.0, "mean", ("~", 0.04), True),
        # 80 of 80 at a mean rate of 94%: the same bound from above
        ((40, 40), 1.0, "mean", ("<=", 0.94), False),
        ((40, 40), 1.0, "mean", ("<=", 0.96), True),
        # 0 of 1 + 16 pooled: 1 - 0.025^(1/17) = 0.195, not the n-weighted mean of the
        # points' bounds (0.975 and 0.206), 0.251
        ((1, 16), 0.0, "pooled", ("~", 0.22), False),
        ((1, 16), 0.0, "pooled", ("~", 0.19), True),
        # a mean over points of unequal n: the most likely rates with the given mean put more
        # on the point of fewer replications (0.168, found by optimising, not 0.204)
        ((9, 49), 0.0, "mean", ("~", 0.18), False),
        ((9, 49), 0.0, "mean", ("~", 0.16), True),
    ],
)
def test_the_exact_bound_of_a_summary_is_not_a_summary_of_the_points_bounds(
    n, value, summary, relation, expected
):
    raw = copy.deepcopy(SMALL)
    raw["paper_numbers"][0].update(relation=relation[0], value=relation[1], summary=summary)
    spec = spec_of(raw)
    agg = _fake_aggregate(spec).assign(value=value, se=0.0)
    agg["n"] = [n[0] if p.endswith("m~1") else n[1] for p in agg["point"]]
    row = comparison_table([spec], {"T-small": agg}).iloc[0]
    assert bool(row.consistent) is expected
    assert row.note.startswith(f"{int(value * sum(n))} of {sum(n)} replications")


def test_figures_draw_one_errorbar_series_per_line():
    from cvcompare.plots.figures import FIGURES

    spec = spec_of()
    agg = _fake_aggregate(spec).assign(q=8)
    fig = FIGURES["figure_p_f2a"](agg, title="t")
    ax = fig.axes[0]
    assert len(ax.containers) == 4  # {poisson, signed_rank} x {m = 1, m = 2}
    x, y = ax.lines[0].get_data()
    assert len(x) == 2
    with pytest.raises(ValueError, match="no rows for metric 'power'"):
        FIGURES["figure_p_f2a"](agg.assign(metric="other"))
    # a further test of the file's own gets a colour no other test has
    sign = agg[agg["test"] == "poisson"].assign(test="sign")
    ax = FIGURES["figure_p_f2a"](pd.concat([agg, sign]), title="t").axes[0]
    colours = {c.get_label().split(",")[0]: c.lines[0].get_color() for c in ax.containers}
    assert set(colours) == {"Poisson-binomial", "signed-rank", "sign"}
    assert len(set(colours.values())) == 3
    fig = FIGURES["figure_h_f2"](_equivalence_aggregate())
    assert len(fig.axes[0].containers) == 5
    assert [float(v) for v in fig.axes[0].lines[0].get_xdata()] == [10.0, 20.0]


def test_friedman_figure_draws_the_quantile_boxes_and_the_means():
    from cvcompare.plots.figures import FIGURES

    rows = []
    for prefix, scale in (("mse_mle", 2.0), ("mse_shrinkage", 1.0)):
        for q, v in (("q05", 1), ("q25", 2), ("q50", 3), ("q75", 4), ("q95", 5)):
            rows.append({"metric": f"{prefix}_{q}", "value": scale * v})
        rows.append({"metric": prefix, "value": scale * 3.2, "se": 0.1})
    agg = pd.DataFrame(rows).assign(point="q~36", q=36, test="hierarchical", n=200)
    agg["se"] = agg["se"].fillna(0.5)
    fig = FIGURES["figure_h_f6"](agg, title="t")
    ax = fig.axes[0]
    # one box per estimator with its median at the q50 quantile; the means with error bars
    medians = sorted(
        line.get_ydata()[0]
        for line in ax.lines
        if len(set(line.get_ydata())) == 1
        and line.get_xdata()[1] - line.get_xdata()[0] == pytest.approx(0.5)
    )
    assert 3.0 in medians and 6.0 in medians
    (means,) = ax.containers
    assert list(means.lines[0].get_ydata()) == [6.4, 3.2]
    # the whiskers are not R's default: the legend says what they mark
    (legend,) = fig.legends
    assert "whiskers: 5% and 95% quantiles" in legend.get_title().get_text()
    assert [t.get_text() for t in legend.texts] == ["mean (2 Monte Carlo SE)"]
    with pytest.raises(ValueError, match="no rows for metric 'mse_mle_q05'"):
        FIGURES["figure_h_f6"](agg[agg.metric != "mse_mle_q05"])


def test_aggregate_of_a_small_run_has_one_row_per_point_test_and_metric():
    spec = spec_of()
    rows = pd.concat(
        [run_chunk(**spec.job(p, "smoke", 7), start=0, stop=3) for p in spec.points()],
        ignore_index=True,
    )
    agg = aggregate(rows, spec.metrics, ["delta", "m"])
    assert len(agg) == 4 * (2 + 1)
    assert agg["n"].eq(3).all()
    assert agg[agg.metric == "power"]["value"].between(0, 1).all()


@pytest.mark.parametrize(
    ("eid", "axis", "values"),
    [
        ("H-T2", "q", [5, 10, 50]),
        ("H-F3", "q", [10, 20, 30, 40, 50]),
        ("H-F5", "delta0", [0.015, 0.02, 0.025, 0.03]),
    ],
)
def test_hierarchical_simulations_run_at_smoke_fidelity(eid, axis, values):
    from cvcompare.experiments.tables import pivot_table, table_markdown
    from cvcompare.plots.figures import FIGURES

    spec = load_experiment(ROOT / "config" / "experiments" / f"{eid}.yaml", schema=SCHEMA)
    assert [p.params[axis] for p in spec.points()] == values
    assert spec.n_replications("paper") == 500
    hier = {t["id"]: t for t in spec.job(spec.points()[0], "paper", 1)["tests"]}["hierarchical"]
    assert (hier["settings"]["chains"], hier["settings"]["draws"]) == (4, 1000)
    assert hier["settings"].get("refits", 1) == 1  # the remedy is on at every fidelity
    point = spec.points("smoke")[0]
    rows = run_chunk(**spec.job(point, "smoke", 7), start=0, stop=2)
    agg = aggregate(rows, spec.metrics, [axis])
    assert set(agg["metric"]) == {m["id"] for m in spec.metrics}
    assert agg["n"].eq(2).all()
    fits = rows[rows.test == "hierarchical"]
    assert fits["attempts"].between(1, 2).all() and fits["cpu_seconds"].gt(0).all()
    if spec.figure:
        fig = FIGURES[spec.figure["function"]](agg, title=spec.title)
        assert fig.axes and all(ax.containers for ax in fig.axes)
    if spec.table:
        long = pivot_table(agg, spec.table, {a.name: a.values for a in spec.grid})
        assert "| 5 |" in table_markdown(long, spec.table, spec.title)


def test_a_sum_summary_counts_over_the_grid_points():
    # e.g. P-T4's number of pairs found different: the sum of the points' values, errors
    # added in quadrature
    from cvcompare.experiments.comparison import summarise

    sel = pd.DataFrame({"value": [1.0, 0.0, 1.0], "se": [0.0, 0.1, 0.2], "n": [1, 1, 1]})
    value, se = summarise({"summary": "sum"}, sel)
    assert value == 2.0 and se == pytest.approx(np.hypot(0.1, 0.2), rel=1e-12)
    mean, _ = summarise({}, sel)
    assert mean == pytest.approx(value / 3, rel=1e-12)


def test_a_figure_gets_the_rows_in_the_grids_order_and_a_title_that_fits(monkeypatch):
    # W-T5's pairs are listed nbc-aode, aode-hnb, nbc-hnb, j48-j48gr; its aggregate comes
    # sorted by point label (alphabetically), a label the grid does not know goes last
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from cvcompare.plots import figures
    from cvcompare.plots.figures._registry import set_title

    spec = load_experiment(ROOT / "config" / "experiments" / "W-T5.yaml", schema=SCHEMA)
    pairs = sorted(spec.grid[0].values) + ["zz-other"]
    agg = pd.DataFrame({"point": [f"pair~{p}" for p in pairs], "pair": pairs})
    seen = []
    monkeypatch.setitem(
        figures.FIGURES,
        spec.figure["function"],
        lambda a, *, title: seen.append(list(a["pair"])) or Figure(figsize=(3, 2)),
    )
    spec.draw_figure(agg)
    assert seen == [[*spec.grid[0].values, "zz-other"]]
    # a title longer than the figure is wide is broken into lines that fit in it
    fig = Figure(figsize=(3, 2), layout="constrained")
    fig.add_subplot()
    set_title(fig, spec.title)
    FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    box = fig._suptitle.get_window_extent()
    assert fig.get_suptitle().count("\n") >= 1 and 0 <= box.x0 and box.x1 <= fig.bbox.x1
