"""Sampler health per grid point, its place in the comparison table, and the cost summary."""

import numpy as np
import pandas as pd
import pytest
from test_experiments import ROOT, SCHEMA

from cvcompare.experiments import aggregate, comparison_page, comparison_table, load_experiment
from cvcompare.experiments.cost import cost_summary, runtime_table
from cvcompare.experiments.health import health_markdown, health_warnings, sampler_health

METRICS = [
    {"id": "diagnostics_ok", "kind": "rate", "column": "diag_ok", "tests": ["hierarchical"]},
    {"id": "refitted", "kind": "rate", "column": "refitted", "tests": ["hierarchical"]},
    {"id": "mean_p_rope", "kind": "mean", "column": "delta0_p_rope", "tests": ["hierarchical"]},
]


def _rows(failing):
    """200 fits per grid point q~10, q~50; ``failing[q]`` of them fail, twice as many refit."""
    rows = []
    for q in (10, 50):
        for r in range(200):
            rows.append(
                {
                    "experiment": "H-X", "point": f"q~{q}", "q": q, "replication": r,
                    "test": "hierarchical", "diag_ok": r >= failing[q],
                    "refitted": r < 2 * failing[q], "delta0_p_rope": 0.5,
                    "attempts": 2 if r < 2 * failing[q] else 1, "cpu_seconds": 0.5,
                    "simulation_cpu_seconds": 0.25,
                }
            )  # fmt: skip
    return pd.DataFrame(rows)


def test_the_share_of_passing_fits_is_counted_per_grid_point():
    agg = aggregate(_rows({10: 1, 50: 4}), METRICS, ["q"])
    table = sampler_health({"H-X": agg})
    by_point = table.set_index("point")
    # 199 / 200 and 196 / 200 pass; binomial standard errors sqrt(p (1 - p) / n)
    assert by_point.loc["q~10", "diagnostics_ok"] == pytest.approx(0.995)
    assert by_point.loc["q~50", "diagnostics_ok"] == pytest.approx(0.98)
    assert by_point.loc["q~50", "diagnostics_ok_se"] == pytest.approx(np.sqrt(0.98 * 0.02 / 200))
    assert by_point.loc["q~50", "refitted"] == pytest.approx(0.04)
    assert by_point["fits"].eq(200).all()
    assert list(by_point["meets_target"]) == [True, False]
    (line,) = health_warnings(table)
    assert line.startswith("H-X at q = 50 (hierarchical): only 98.0% of 200 fits pass")
    md = health_markdown(table, "quick")
    assert "| H-X | q = 50 | 200 | 0.980 ± 0.010 | 0.040 | NO |" in md
    # the rule stated is the rule applied, tree depth and E-BFMI included
    assert "no tree-depth hit and E-BFMI >= 0.3 in every chain; the target is 99%" in md


def test_experiments_without_fits_have_no_health_rows():
    agg = aggregate(_rows({10: 0, 50: 0}), METRICS[2:], ["q"])
    assert sampler_health({"H-X": agg}).empty


def test_every_simulation_with_fits_reports_the_share_refitted():
    # the health table's "Refitted" column reads the metric `refitted`: an experiment whose
    # fits are counted (a rate over diag_ok) must report it too, or the column stays empty
    for path in sorted((ROOT / "config" / "experiments").glob("*.yaml")):
        spec = load_experiment(path, schema=SCHEMA)
        rates = {m["column"]: m for m in spec.metrics if m["kind"] == "rate"}
        if "diag_ok" in rates:
            assert "refitted" in rates, f"{path.name}: no rate metric over the column refitted"
            assert rates["refitted"]["tests"] == rates["diag_ok"]["tests"], path.name


def test_comparison_rows_carry_the_pooled_and_the_lowest_share():
    spec = load_experiment(ROOT / "config" / "experiments" / "H-F2.yaml", schema=SCHEMA)
    rows = _rows({10: 1, 50: 4}).assign(experiment="H-F2")
    agg = aggregate(rows, METRICS, ["q"])
    table = comparison_table([spec], {"H-F2": agg})
    row = table[table.metric == "mean_p_rope"].iloc[0]  # the claim at q = 50
    assert row.diagnostics_ok == pytest.approx(0.98)
    assert row.diagnostics_ok_min == pytest.approx(0.98)
    # a claim over every q in the file is not run here (q = 20, 30, 40 missing)
    assert table[table.metric == "decisive"].iloc[0].verdict == "not run"
    # the page states the rule and gives the table, the share passing in its column
    page = comparison_page(table, "quick")
    assert page.startswith("# Paper numbers vs reproduction (fidelity: quick)\n\n")
    assert "(R-hat" in page and "| 0.980 (lowest grid point 0.980) |" in page


def test_cost_summary_counts_fits_refits_and_cpu_time():
    rows = _rows({10: 1, 50: 4})
    bench = [pd.DataFrame({"s": [10.0], "cpu_time": [120.0]}) for _ in range(4)]
    table = cost_summary({"H-X": rows}, {"H-X": bench}, {"H-X": ["hierarchical"]})
    r = table.iloc[0]
    assert (r.jobs, r.replications, r.fits, r.refits) == (4, 400, 400 + 10, 10)
    assert r.fit_cpu_seconds == pytest.approx(400 * 0.5)
    assert r.simulation_cpu_seconds == pytest.approx(400 * 0.25)
    assert r.cpu_seconds == pytest.approx(300.0)
    assert r.fits_per_cpu_second == pytest.approx(410 / 200)
    assert r.job_cpu_seconds == pytest.approx(480.0)
    assert r.wall_seconds_on_2_cores == pytest.approx(240.0)
    with pytest.raises(ValueError, match="missing column 'cpu_seconds'"):
        cost_summary({"H-X": rows.drop(columns="cpu_seconds")}, {}, {})


def test_runtime_table_gives_seconds_per_replication_of_each_test():
    rows = pd.DataFrame(
        {
            "point": ["q~10"] * 4 + ["q~50"] * 2,
            "q": [10] * 4 + [50] * 2,
            "test": ["b", "a", "b", "a", "a", "a"],
            "seconds": [1.0, 2.0, 3.0, 6.0, 0.5, 1.5],
        }
    )
    table = runtime_table(rows, ["q"])
    assert table[["point", "test"]].values.tolist() == [["q~10", "a"], ["q~10", "b"], ["q~50", "a"]]
    assert table["mean_seconds"].tolist() == [4.0, 2.0, 1.0]
    assert table["max_seconds"].tolist() == [6.0, 3.0, 1.5]
    assert table["replications"].tolist() == [2, 2, 2]
