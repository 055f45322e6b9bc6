"""The fixed worked examples (F-T1, W-F1) against closed forms computed here, independently
of the library, and their figures."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from shared_data import TUTORIAL

from cvcompare.experiments import comparison_table, load_experiment, load_yaml
from cvcompare.experiments.analyses import run_analysis
from cvcompare.plots.figures import FIGURES

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = load_yaml(ROOT / "workflow" / "schemas" / "experiment.schema.yaml")
ROOT_SEED = 20150601


def _run(eid, fidelity="smoke"):
    spec = load_experiment(ROOT / "config" / "experiments" / f"{eid}.yaml", schema=SCHEMA)
    agg, figure_data = run_analysis(**spec.analysis_job(fidelity, ROOT_SEED))
    return spec, agg, figure_data


def _value(agg, test, metric):
    row = agg[(agg["test"] == test) & (agg["metric"] == metric)]
    assert len(row) == 1, (test, metric)
    return float(row["value"].iloc[0])


def test_f_t1_matches_closed_forms_computed_by_hand():
    spec, agg, figure_data = _run("F-T1")
    assert spec.analysis.settings["scores"] == TUTORIAL  # the tutorial's table, unchanged
    assert figure_data.empty and set(agg["uncertainty"]) == {"exact"}
    # ranks by hand: no ties in this table, so rank j = 1 + number of larger accuracies
    scores = np.array(TUTORIAL)
    ranks = np.array([[1 + np.sum(row > v) for v in row] for row in scores], dtype=float)
    avg = ranks.mean(axis=0)
    np.testing.assert_allclose(avg, [11 / 3, 10 / 3, 11 / 6, 7 / 6], rtol=1e-15)
    models = spec.analysis.settings["models"]
    for m, r in zip(models, avg, strict=True):
        assert _value(agg, m, "avg_rank") == pytest.approx(r, rel=1e-14)
    n, k = scores.shape
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(avg**2) - k * (k + 1) ** 2 / 4)
    assert chi2 == pytest.approx(15.4, rel=1e-12)  # 72 / 20 * (1054 / 36 - 25)
    ff = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert _value(agg, "friedman", "chi2") == pytest.approx(chi2, rel=1e-12)
    # upper tail of chi-square with 3 degrees of freedom in closed form
    tail = math.erfc(math.sqrt(chi2 / 2)) + math.sqrt(2 * chi2 / math.pi) * math.exp(-chi2 / 2)
    assert _value(agg, "friedman", "pvalue") == pytest.approx(tail, rel=1e-10)
    assert _value(agg, "iman_davenport", "ff") == pytest.approx(ff, rel=1e-12)
    assert _value(agg, "iman_davenport", "ff_critical") == pytest.approx(
        stats.f.ppf(0.99, k - 1, (k - 1) * (n - 1)), rel=1e-12
    )
    for alpha in (0.05, 0.1):
        q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2)
        cd = q * math.sqrt(k * (k + 1) / (6 * n))
        assert _value(agg, f"nemenyi_{alpha:g}", "cd") == pytest.approx(cd, rel=1e-10)
        for i, j in [(2, 0), (3, 1), (3, 0), (2, 1), (3, 2), (1, 0)]:
            label = f"{models[i]} - {models[j]}"
            assert _value(agg, label, "rank_difference") == pytest.approx(avg[j] - avg[i])
            significant = float(avg[j] - avg[i] > cd)
            assert _value(agg, f"{label} (alpha {alpha:g})", "significant") == significant
    table = comparison_table([spec], {"F-T1": agg}).set_index("metric")
    # the tutorial's chi-square and F_F are off (documented); everything else agrees
    bad = table[~table["consistent"].astype(bool)]
    assert sorted(bad.index) == ["chi2", "ff"] and bad["note"].str.contains("exact").all()


def test_w_f1_means_are_theorem_3_and_probabilities_match_direct_dirichlet_sampling():
    spec, agg, figure_data = _run("W-F1")
    z = figure_data.loc[figure_data["posterior"] == "sample", "x"].to_numpy()
    # the sample is 20 standard normals of the experiment's seeded stream, selected by its
    # lower probability (given_lower: within 0.005 of 0.76)
    assert z.size == 20 and len(set(z)) == 20
    assert abs(_value(agg, "idp", "lower_prob") - 0.76) <= 0.005
    n, s = z.size, (math.sqrt(17) - 3) / 2
    # Theorem 3, Eqs. (6)-(7), with H(0) = 1/2 (no ties here)
    pairs = np.sum(z[:, None] + z[None, :] > 0) + np.sum(z > 0)
    lower = pairs / ((s + n) * (s + n + 1))
    upper = lower + (s**2 + 2 * n * s + s) / ((s + n) * (s + n + 1))
    assert _value(agg, "idp", "lower_mean") == pytest.approx(lower, rel=1e-12)
    assert _value(agg, "idp", "upper_mean") == pytest.approx(upper, rel=1e-12)
    # Theorem 4 sampled directly with numpy's Dirichlet, independently of the library
    w = np.random.default_rng(5).dirichlet(np.r_[s, np.ones(n)], size=40_000)
    h = (z[:, None] + z[None, :] > 0).astype(float)
    g_low = np.einsum("ri,ij,rj->r", w[:, 1:], h, w[:, 1:])
    g_up = w[:, 0] * (2 - w[:, 0]) + g_low
    for name, g in (("lower", g_low), ("upper", g_up)):
        p_direct = np.mean(g > 0.5)
        p = _value(agg, "idp", f"{name}_prob")
        se = agg.loc[agg["metric"] == f"{name}_prob", "se"].iloc[0]
        # two independent estimates: within 4 combined binomial standard errors
        combined = math.sqrt(se**2 + p_direct * (1 - p_direct) / g.size)
        assert abs(p - p_direct) <= 4 * combined + 1e-12, (name, p, p_direct)
    # the densities integrate to one over [0, 1]
    for name in ("lower", "upper"):
        d = figure_data[figure_data["posterior"] == name]
        assert d["density"].sum() * (d["x"].iloc[1] - d["x"].iloc[0]) == pytest.approx(1.0)


def test_w_f1_conditions_the_samples_on_the_lower_probability():
    spec, agg, _ = _run("W-F1")
    assert spec.analysis.settings["given_lower"] == {"value": 0.76, "within": 0.005, "samples": 20}
    (point,) = spec.analysis_job("smoke", ROOT_SEED)["points"]
    k = point["settings"]["given_lower"]["samples"]
    rows = agg.set_index("metric")
    # every selected sample's lower probability lies in the window, so does their mean
    assert abs(rows.loc["lower_prob_given", "value"] - 0.76) <= 0.005
    assert rows.loc["lower_prob_given", "n"] == k and rows.loc["upper_prob_given", "se"] > 0
    # a window of 0.01 holds about 1% of samples of 20 standard normals
    assert k <= rows.loc["samples_drawn", "value"] <= 2000 * k
    # the upper probability exceeds the lower one by the prior's weight (Theorem 4)
    assert rows.loc["upper_prob_given", "value"] > rows.loc["lower_prob_given", "value"]
    # a fresh sample is the default; a bad window is refused
    from cvcompare.experiments.analyses import ANALYSES

    check = ANALYSES["idp_posteriors"].validate
    base = {"n": 20, "s": 1.0, "n_samples": 1000, "bins": 10}
    check({**base, "given_lower": None})
    for bad, message in (
        ({"value": 0.76, "within": 0.005}, "expected null or"),
        ({"value": 0.99, "within": 0.05, "samples": 2}, "inside"),
        ({"value": 0.5, "within": 0.01, "samples": 1}, "given_lower.samples"),
    ):
        with pytest.raises(ValueError, match=message):
            check({**base, "given_lower": bad})


@pytest.mark.parametrize(
    ("eid", "function"),
    [("F-T1", "figure_cd_diagrams"), ("W-F1", "figure_idp_posteriors")],
)
def test_example_figures_are_drawn_from_the_results(eid, function):
    spec, agg, figure_data = _run(eid)
    assert spec.figure["function"] == function
    fig = FIGURES[function](agg, title=spec.title, data=figure_data)
    assert " ".join(fig.get_suptitle().split()) == spec.title  # broken to the width
    if eid == "F-T1":  # one diagram per level, each with its CD bar
        assert len(fig.axes) == 2
        assert all(any(line.get_gid() == "cd-bar" for line in ax.lines) for ax in fig.axes)
    else:
        labels = [t.get_text() for t in fig.legends[0].texts]
        assert len(labels) == 2 and all("2 SE" in t for t in labels)
    with pytest.raises(ValueError, match="no rows for metric"):
        FIGURES[function](pd.DataFrame(columns=agg.columns), title="t", data=figure_data)
