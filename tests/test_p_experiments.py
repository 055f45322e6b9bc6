"""The P-paper simulations beside P-F2a: the correlated/naive t-test adapter, histogram
metrics, claims about a change between grid points, and smoke runs of P-F1, P-F2b and
P-naive (figure, comparison rows)."""

import copy
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from cvcompare.experiments import aggregate, comparison_table, load_experiment, load_yaml, run_chunk
from cvcompare.experiments.metrics import histogram_estimates
from cvcompare.experiments.registry import TESTS
from cvcompare.experiments.spec import ExperimentSpec, SpecError
from cvcompare.plots.figures import FIGURES
from cvcompare.simulate.scenario import simulate_comparison
from cvcompare.stats import correlated_ttest

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = load_yaml(ROOT / "workflow" / "schemas" / "experiment.schema.yaml")


def _experiment(eid):
    return load_experiment(ROOT / "config" / "experiments" / f"{eid}.yaml", schema=SCHEMA)


def _gaussian(q=1, runs=3, rho=0.1):
    scenario = {
        "generator": {"name": "gaussian_folds", "mean": 0.01, "sd": 0.03, "rho": rho},
        "cv": {"runs": runs, "folds": 10},
    }
    return simulate_comparison(scenario, q, 11)


def test_correlated_ttest_adapter_matches_the_library_and_scipy():
    sim = _gaussian()
    rng = np.random.default_rng(0)
    for alternative in ("greater", "two-sided"):
        row = TESTS["correlated_ttest"](sim, {"alternative": alternative}, rng)
        lib = correlated_ttest(sim.diffs[0], rho=0.1, alternative=alternative)
        assert row["statistic"] == lib.statistic and row["pvalue"] == lib.pvalue
        assert row["reject"] == (lib.pvalue < 0.05)
        # rho = 0 is the naive paired t-test: scipy's one-sample t-test, independently
        naive = TESTS["correlated_ttest"](sim, {"alternative": alternative, "rho": 0.0}, rng)
        ref = stats.ttest_1samp(sim.diffs[0], 0.0, alternative=alternative)
        assert naive["statistic"] == pytest.approx(ref.statistic, rel=1e-12)
        assert naive["pvalue"] == pytest.approx(ref.pvalue, rel=1e-9)
    # the correlated statistic is the naive one shrunk by sqrt(1 + n rho / (1 - rho))
    n = sim.diffs.shape[1]
    assert row["statistic"] * np.sqrt(1 + n * 0.1 / 0.9) == pytest.approx(naive["statistic"])


def test_correlated_ttest_adapter_refuses_several_data_sets_and_bad_rho():
    with pytest.raises(ValueError, match="expected a scenario with q = 1, got q = 2"):
        TESTS["correlated_ttest"](_gaussian(q=2), {}, None)
    with pytest.raises(TypeError, match="rho: expected 'heuristic' or a number"):
        TESTS["correlated_ttest"](_gaussian(), {"rho": "nadeau"}, None)
    with pytest.raises(ValueError, match=r"unknown setting\(s\) \['rh'\]"):
        TESTS["correlated_ttest"](_gaussian(), {"rh": 0.1}, None)


def test_histogram_estimates_match_numpy_and_refuse_values_outside():
    values = np.random.default_rng(1).random(500)
    edges = np.linspace(0, 1, 11)
    est = histogram_estimates(values, edges)
    counts, _ = np.histogram(values, edges)  # numpy's last bin is closed too
    np.testing.assert_allclose([e.value for _, _, e in est], counts / 500)
    p = counts[3] / 500
    assert est[3][2].se == pytest.approx(np.sqrt(p * (1 - p) / 500))
    assert [(lo, hi) for lo, hi, _ in est][-1] == (0.9, 1.0)
    assert histogram_estimates([1.0, 0.0], [0, 0.5, 1])[1][2].value == 0.5
    with pytest.raises(ValueError, match=r"1 value\(s\) outside the bins \[0, 1\]"):
        histogram_estimates([0.5, 1.2], [0, 1])
    with pytest.raises(ValueError, match="bins: expected at least two increasing edges"):
        histogram_estimates([0.5], [0, 0])


def _p_f1_raw():
    return yaml_raw("P-F1")


def yaml_raw(eid):
    return load_yaml(ROOT / "config" / "experiments" / f"{eid}.yaml")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda r: r["metrics"][0].update(bins=[0.0, 0.5, 0.5, 1.0]), "bins must increase"),
        (lambda r: r["metrics"][0].pop("bins"), "'bins' is a required property"),
        (
            lambda r: r["paper_numbers"][0].update(metric="distribution", test="poisson"),
            "is a histogram; a summary needs one number",
        ),
        (lambda r: r["paper_numbers"][0].update(minus={"case": 3}), "minus.case: 3 is not among"),
        (lambda r: r["paper_numbers"][0].update(minus={"k": 1}), "minus: 'k' is not a grid axis"),
    ],
)
def test_bad_histogram_metrics_and_claims_are_refused_at_load(edit, message):
    raw = copy.deepcopy(_p_f1_raw())
    edit(raw)
    with pytest.raises(SpecError, match=message):
        ExperimentSpec.from_mapping(raw, schema=SCHEMA, what="P-F1.yaml")


def test_a_claim_about_a_change_subtracts_points_with_independent_errors():
    spec = _experiment("P-F1")
    rows = []
    for p in spec.points():
        value = 0.3 + 0.1 * p.params["case"] + p.params["rho"]
        for metric, test in (("mean_prob", "poisson"), ("mean_pvalue", "signed_rank")):
            rows.append(
                {
                    "point": p.label,
                    **p.params,
                    "test": test,
                    "metric": metric,
                    "value": value,
                    "se": 0.01 * p.params["case"],
                    "n": 10,
                    "uncertainty": "Monte Carlo",
                }
            )
    table = comparison_table([spec], {"P-F1": pd.DataFrame(rows)})
    first = table.iloc[0]  # case 2 minus case 1 at rho = 0: 0.5 - 0.4
    assert first.reproduced == pytest.approx(0.1)
    assert first.se == pytest.approx(np.sqrt(0.01**2 + 0.02**2))
    assert first["at"] == "case=2, rho=0.0 minus case=1"
    assert first.n == 20


def _smoke(eid):
    spec = _experiment(eid)
    frames = [
        run_chunk(**spec.job(p, "smoke", 3), start=0, stop=spec.n_replications("smoke"))
        for p in spec.points("smoke")
    ]
    rows = pd.concat(frames, ignore_index=True)
    return spec, rows, aggregate(rows, spec.metrics, [a.name for a in spec.grid])


@pytest.mark.parametrize(("eid", "n_points"), [("P-F1", 4), ("P-F2b", 4), ("P-naive", 4)])
def test_smoke_runs_give_figures_and_every_claim_a_number(eid, n_points):
    spec, rows, agg = _smoke(eid)
    assert agg["point"].nunique() == n_points
    fig = FIGURES[spec.figure["function"]](agg, title=spec.title)
    assert fig.axes and " ".join(fig.get_suptitle().split()) == spec.title
    table = comparison_table([spec], {eid: agg})
    ran = table[~table["note"].str.startswith("not run")]
    assert len(ran) > 0 and ran["reproduced"].notna().all() and ran["se"].notna().all()


def test_p_f1_histograms_cover_every_run_and_the_cases_differ_in_sd_only():
    spec, rows, agg = _smoke("P-F1")
    hist = agg[agg["metric"] == "distribution"]
    assert len(hist) == 4 * 20
    sums = hist.groupby("point")["value"].sum()
    np.testing.assert_allclose(sums, 1.0)
    case1, case2 = (spec.point(f"case~{c}/rho~0.0").scenario["generator"] for c in (1, 2))
    assert case1["mean"] == case2["mean"]
    assert np.allclose(np.array(case2["sd"]) / np.array(case1["sd"]), [1] * 5 + [3] * 5)


def test_p_f1_legend_lists_the_values_of_rho_in_order():
    from cvcompare.plots.figures import FIGURES

    rows = [
        {"point": f"case~{c}/rho~{r}", "case": c, "rho": r, "metric": m, "test": t,
         "bin_low": b / 4, "bin_high": (b + 1) / 4, "value": 0.25, "se": 0.01, "n": 40}
        for c in (1, 2)
        for r in (0.0, 0.1)
        for m, t in (("pvalue_distribution", "signed_rank"), ("distribution", "poisson"))
        for b in range(4)
    ]  # fmt: skip
    fig = FIGURES["figure_p_f1"](pd.DataFrame(rows), title="t")
    (legend,) = fig.legends
    assert [t.get_text() for t in legend.texts] == [r"$\rho$ = 0", r"$\rho$ = 0.1"]


def test_p_naive_correlated_test_is_calibrated_and_the_naive_one_matches_its_closed_form():
    # 2000 replications at m = 10, rho = 0.1 (n = 100 folds): the correlated t statistic
    # is exactly Student(99) under the intraclass model, the naive one is it times
    # c = sqrt(1 + n rho / (1 - rho)), so P(naive rejects) = P(T > t_0.95 / c).
    spec = _experiment("P-naive")
    rows = run_chunk(**spec.job(spec.point("m~10/rho~0.1"), "quick", 5), start=0, stop=2000)
    rates = rows.groupby("test")["reject"].mean()
    n, rho = 100, 0.1
    naive = stats.t.sf(stats.t.ppf(0.95, n - 1) / np.sqrt(1 + n * rho / (1 - rho)), n - 1)
    for test, p in (("correlated", 0.05), ("naive", naive)):
        assert abs(rates[test] - p) < 4 * np.sqrt(p * (1 - p) / 2000), (test, rates[test], p)
