"""Metrics with Monte Carlo standard errors, checked against closed forms and simulation."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from cvcompare.experiments.metrics import (
    aggregate,
    error_bounds,
    mean_estimate,
    rate_estimate,
    replicability_estimate,
)


def test_rate_estimate_is_the_binomial_proportion_and_its_plug_in_error():
    x = np.array([True] * 7 + [False] * 13)
    est = rate_estimate(x)
    assert est.value == pytest.approx(7 / 20)
    assert est.se == pytest.approx(np.sqrt(0.35 * 0.65 / 20))
    assert est.n == 20


def test_rate_standard_error_matches_the_spread_of_simulated_proportions():
    # 20,000 simulated studies of n = 50 Bernoulli(0.3) decisions. The variance of the
    # estimated rate is p(1-p)/n; the mean squared plug-in SE is (n-1)/n of it. The
    # sample variance of 20,000 proportions has relative SE sqrt(2/19999) = 1%, so a 5%
    # relative tolerance is five standard errors.
    rng = np.random.default_rng(1)
    n, p, reps = 50, 0.3, 20_000
    draws = rng.random((reps, n)) < p
    ests = [rate_estimate(row) for row in draws]
    values = np.array([e.value for e in ests])
    se2 = np.array([e.se**2 for e in ests])
    assert values.var(ddof=1) == pytest.approx(p * (1 - p) / n, rel=0.05)
    assert se2.mean() * n / (n - 1) == pytest.approx(values.var(ddof=1), rel=0.05)


def test_mean_estimate_matches_scipy_sem():
    x = np.random.default_rng(2).normal(size=37)
    est = mean_estimate(x)
    assert est.value == pytest.approx(x.mean())
    assert est.se == pytest.approx(stats.sem(x))
    assert np.isnan(mean_estimate([0.5]).se)


def test_replicability_equals_its_definition():
    # R = 1 - 2 sum (e_i - mean e)^2 / (n - 1)  (Benavoli et al. 2014, Sec. 4.2)
    e = np.random.default_rng(3).random(40) < 0.3
    direct = 1 - 2 * np.sum((e - e.mean()) ** 2) / (e.size - 1)
    assert replicability_estimate(e).value == pytest.approx(direct)
    assert replicability_estimate(np.ones(10, bool)).value == 1.0
    assert replicability_estimate(np.array([True, False] * 50)).value == pytest.approx(
        1 - 2 * 100 * 0.25 / 99
    )


def test_replicability_error_is_its_spread_over_sets_of_decisions():
    # exact: every one of the 2^10 sets of 10 decisions, weighted by its probability at the
    # share observed, its R from the definition; at p = 1/2, where the delta method gives 0
    for count in (5, 3, 1, 0):
        e = np.arange(10) < count
        p = e.mean()
        sets = (np.arange(2**10)[:, None] >> np.arange(10)) & 1
        k = sets.sum(axis=1)
        weights = p**k * (1 - p) ** (10 - k)
        r = 1 - 2 * np.sum((sets - sets.mean(axis=1, keepdims=True)) ** 2, axis=1) / 9
        sd = np.sqrt(np.sum(weights * (r - np.sum(weights * r)) ** 2))
        assert replicability_estimate(e).se == pytest.approx(sd, rel=1e-12, abs=1e-15)
    assert replicability_estimate(np.arange(10) < 5).se > 0.07


def test_replicability_error_matches_simulation():
    # 4,000 simulated sets of n = 400 decisions with p = 0.2: the sd of R over the sets
    # (relative SE 1/sqrt(2 * 3999) = 1.1%) must match the error computed at each set's own
    # share up to that plug-in's O(1/n) bias; 8% is about seven standard errors.
    rng = np.random.default_rng(4)
    n, p, reps = 400, 0.2, 4000
    draws = rng.random((reps, n)) < p
    ests = [replicability_estimate(row) for row in draws]
    spread = np.std([e.value for e in ests], ddof=1)
    assert np.mean([e.se for e in ests]) == pytest.approx(spread, rel=0.08)


def test_bad_inputs_are_refused_with_the_argument_named():
    with pytest.raises(TypeError, match="decisions"):
        rate_estimate([0.1, 0.2])
    with pytest.raises(ValueError, match="non-empty"):
        rate_estimate(np.array([], bool))
    with pytest.raises(ValueError, match="p_rope: 1 of 3 values are NaN"):
        mean_estimate([0.1, np.nan, 0.3], "p_rope")
    with pytest.raises(ValueError, match="at least 2"):
        replicability_estimate(np.array([True]))


def _rows(rng, n=30):
    rows = []
    for point, q in (("q~10", 10), ("q~20", 20)):
        a = rng.random(n) < 0.6
        b = a & (rng.random(n) < 0.7)
        for r in range(n):
            common = {"experiment": "X", "point": point, "q": q, "replication": r}
            rows.append({**common, "test": "a", "reject": a[r], "p_rope": rng.random()})
            rows.append({**common, "test": "b", "reject": b[r], "p_rope": rng.random()})
    return pd.DataFrame(rows)


METRICS = [
    {"id": "power", "kind": "rate", "column": "reject"},
    {"id": "gap", "kind": "paired_difference", "column": "reject", "tests": ["a"], "baseline": "b"},
    {"id": "mean_p", "kind": "mean", "column": "p_rope", "tests": ["a"]},
    {"id": "recog", "kind": "share_above", "column": "p_rope", "threshold": 0.9},
]


def test_aggregate_values_and_paired_errors():
    rows = _rows(np.random.default_rng(5))
    agg = aggregate(rows, METRICS, ["q"])
    assert len(agg) == 2 * (2 + 1 + 1 + 2)
    at = rows[rows.point == "q~10"]
    a = at[at.test == "a"].sort_values("replication")
    b = at[at.test == "b"].sort_values("replication")
    gap = agg[(agg.point == "q~10") & (agg.metric == "gap")].iloc[0]
    d = a.reject.to_numpy(float) - b.reject.to_numpy(float)
    assert gap.test == "a - b"
    assert gap.value == pytest.approx(d.mean())
    # paired SE = sqrt((var_a + var_b - 2 cov_ab) / n), smaller than the unpaired one here
    va, vb = a.reject.to_numpy(float).var(ddof=1), b.reject.to_numpy(float).var(ddof=1)
    cov = np.cov(a.reject.to_numpy(float), b.reject.to_numpy(float))[0, 1]
    assert gap.se == pytest.approx(np.sqrt((va + vb - 2 * cov) / len(d)))
    recog = agg[(agg.point == "q~20") & (agg.metric == "recog") & (agg.test == "b")].iloc[0]
    sel = rows[(rows.point == "q~20") & (rows.test == "b")]
    assert recog.value == pytest.approx((sel.p_rope > 0.9).mean())
    assert set(agg.q) == {10, 20}
    # each row's error bar: Wilson's interval for a share (recog), 2 SE for a difference
    assert (recog.low, recog.high) == tuple(
        error_bounds(pd.DataFrame([recog]), {"recog": "share_above"}).iloc[0][["low", "high"]]
    )
    assert (gap.low, gap.high) == pytest.approx((gap.value - 2 * gap.se, gap.value + 2 * gap.se))
    assert list(agg.columns[-6:]) == ["value", "se", "low", "high", "n", "uncertainty"]


def test_aggregate_does_not_depend_on_row_order():
    rows = _rows(np.random.default_rng(6))
    shuffled = rows.sample(frac=1.0, random_state=1)
    pd.testing.assert_frame_equal(
        aggregate(rows, METRICS, ["q"]), aggregate(shuffled, METRICS, ["q"])
    )


def test_aggregate_reads_in_the_grids_order_and_cuts_a_losss_bar_at_zero():
    # points q~5, q~10, q~50: in the grid's order, not the labels' (q~10 < q~5 as text);
    # one loss of 19 in 40 runs: 0.475 -/+ 2 x 0.475 would reach below 0
    rows = pd.DataFrame(
        [
            {"experiment": "X", "point": f"q~{q}", "q": q, "replication": r, "test": "dp",
             "loss": 19.0 if r == 0 else 0.0}
            for q in (50, 10, 5) for r in range(40)
        ]
    )  # fmt: skip
    metrics = [{"id": "loss", "kind": "mean", "column": "loss"}]
    agg = aggregate(rows, metrics, ["q"])
    assert list(agg["point"]) == ["q~5", "q~10", "q~50"]
    se = 19.0 * np.sqrt(1 / 40 * 39 / 40 / 39)  # sd (ddof=1) of one 19 in 40, over sqrt(40)
    assert agg["se"].to_numpy() == pytest.approx([se] * 3, rel=1e-12)
    assert (agg["low"] == 0.0).all() and agg["high"].to_numpy() == pytest.approx(
        [0.475 + 2 * se] * 3, rel=1e-12
    )


def test_aggregate_sorts_a_grid_of_numbers_and_words_numbers_first():
    # q: [50, 10, 5, all] (a word among numbers, as a schema allows): 5, 10, 50, all
    rows = pd.DataFrame(
        [
            {"experiment": "X", "point": f"q~{q}", "q": q, "replication": r, "test": "a",
             "reject": r % 2 == 0}
            for q in (50, 10, 5, "all") for r in range(4)
        ]
    )  # fmt: skip
    agg = aggregate(rows, [{"id": "power", "kind": "rate", "column": "reject"}], ["q"])
    assert list(agg["q"]) == [5, 10, 50, "all"]


def test_aggregate_names_a_missing_column():
    rows = _rows(np.random.default_rng(7))
    with pytest.raises(ValueError, match="column 'p_left' is not in the results"):
        aggregate(rows, [{"id": "m", "kind": "mean", "column": "p_left"}], ["q"])


# --- evidence, reduction and quantile metrics -----------------------------------------


def _grade_by_hand(odds):
    # Corani et al. (2017), Table 3: 1-3 weak, 3-20 positive, > 20 strong
    return "none" if odds <= 1 else "weak" if odds <= 3 else "positive" if odds <= 20 else "strong"


def test_evidence_estimate_counts_the_grades_of_the_smallest_or_largest_odds():
    from cvcompare.experiments.metrics import evidence_estimate

    probs = np.random.default_rng(4).dirichlet([1.0, 0.3, 2.0], size=300)  # left, rope, right
    left, rope, right = probs.T
    for over, pick in (("all", min), ("any", max)):
        for grades in (["strong"], ["positive"], ["positive", "strong"]):
            for unless in (None, 0.95):
                est = evidence_estimate(right, [rope, left], grades, over=over, unless_above=unless)
                expected = [
                    _grade_by_hand(pick(r / o, r / lf)) in grades
                    and (unless is None or r <= unless)
                    for lf, o, r in probs
                ]
                assert est.value == pytest.approx(np.mean(expected)) and est.n == 300
                assert est.se == pytest.approx(np.sqrt(est.value * (1 - est.value) / 300))
    # a zero rival gives infinite odds (strong evidence), two zeros give odds 1 (none)
    est = evidence_estimate([0.5, 0.0], [[0.0, 0.0]], ["strong"])
    assert est.value == pytest.approx(0.5)
    with pytest.raises(ValueError, match="grades: expected grades among"):
        evidence_estimate(right, [rope], ["huge"])
    with pytest.raises(ValueError, match="over: expected 'all' or 'any'"):
        evidence_estimate(right, [rope], ["weak"], over="most")


def test_reduction_estimate_and_its_delta_method_error_match_simulation():
    # 4,000 simulated studies of n = 60 correlated pairs (x, y = 0.4 x + noise): the spread
    # of the estimated reduction matches the mean delta-method variance within 10%
    # (relative SE of a variance from 4,000 draws: sqrt(2/3999) = 2.2%, plus the O(1/n)
    # bias of the delta method).
    from cvcompare.experiments.metrics import reduction_estimate

    rng = np.random.default_rng(5)
    n, reps = 60, 4000
    x = rng.gamma(2.0, 1.0, size=(reps, n))
    y = 0.4 * x + rng.gamma(1.0, 0.2, size=(reps, n))
    ests = [reduction_estimate(yi, xi) for xi, yi in zip(x, y, strict=True)]
    values = np.array([e.value for e in ests])
    se2 = np.array([e.se**2 for e in ests])
    assert values.mean() == pytest.approx(1 - (0.4 * 2.0 + 0.2) / 2.0, abs=4 * values.std() / 63)
    assert se2.mean() == pytest.approx(values.var(ddof=1), rel=0.10)
    assert ests[0].value == pytest.approx(1 - y[0].mean() / x[0].mean())
    with pytest.raises(ValueError, match="expected equal shapes"):
        reduction_estimate([1.0, 2.0], [1.0, 2.0, 3.0])


def test_quantile_estimate_error_matches_normal_theory():
    # For N(0, 1) samples of n = 400 the median has SE sqrt(pi / 2) / sqrt(n) and the
    # quartile sqrt(p (1 - p) / n) / phi(z_p); the estimated error is within 15%
    # of them on average over 500 samples (its own spread is about 10% per sample).
    from cvcompare.experiments.metrics import quantile_estimate

    rng = np.random.default_rng(6)
    n = 400
    samples = rng.standard_normal((500, n))
    for p in (0.5, 0.25, 0.05):
        ests = [quantile_estimate(s, p) for s in samples]
        theory = np.sqrt(p * (1 - p) / n) / stats.norm.pdf(stats.norm.ppf(p))
        assert np.mean([e.se for e in ests]) == pytest.approx(theory, rel=0.15)
        assert np.std([e.value for e in ests]) == pytest.approx(theory, rel=0.15)
        assert ests[0].value == pytest.approx(np.quantile(samples[0], p))
    with pytest.raises(ValueError, match="probability: expected a number in"):
        quantile_estimate([1.0, 2.0], 1.5)


def test_quantile_estimate_error_is_not_inflated_at_200_replications():
    # H-F6 draws its boxplot quantiles from 200 replications: at p = 0.05 and 0.95 the
    # error must match the normal-theory one (and the spread of the estimates), not exceed
    # it by the ~17% that rounding the ranks outwards to order statistics adds.
    from cvcompare.experiments.metrics import quantile_estimate

    rng = np.random.default_rng(11)
    n = 200
    samples = rng.standard_normal((2000, n))
    for p in (0.05, 0.5, 0.95):
        theory = np.sqrt(p * (1 - p) / n) / stats.norm.pdf(stats.norm.ppf(p))
        mean_se = np.mean([quantile_estimate(s, p).se for s in samples])
        assert mean_se == pytest.approx(theory, rel=0.06)


def test_paired_difference_of_a_probability_rule_against_another_test_s_decisions():
    # power gap of "p_rope > 0.5" (test a) against test b's rejections, on the same runs
    rows = _rows(np.random.default_rng(8))
    metric = {
        "id": "gap", "kind": "paired_difference", "column": "p_rope", "tests": ["a"],
        "baseline": "b", "baseline_column": "reject", "threshold": 0.5,
    }  # fmt: skip
    agg = aggregate(rows, [metric], ["q"])
    at = rows[rows.point == "q~10"]
    a = at[at.test == "a"].sort_values("replication").p_rope.to_numpy() > 0.5
    b = at[at.test == "b"].sort_values("replication").reject.to_numpy(bool)
    d = a.astype(float) - b.astype(float)
    gap = agg[agg.point == "q~10"].iloc[0]
    assert gap.value == pytest.approx(d.mean())
    assert gap.se == pytest.approx(d.std(ddof=1) / np.sqrt(d.size))


def test_error_bounds_are_wilson_s_interval_for_shares_and_two_se_otherwise():
    # Wilson's score interval is the set of p with (value - p)^2 <= z^2 p (1 - p) / n; its
    # ends are found here independently, by root-finding on that quadratic with scipy
    from scipy.optimize import brentq

    counts = [(0, 40), (1, 40), (7, 20), (19, 20), (20, 20), (3, 1000)]
    table = pd.DataFrame(
        [{"metric": "power", "value": k / n, "se": np.sqrt(k / n * (1 - k / n) / n), "n": n}
         for k, n in counts]
        + [{"metric": "loss", "value": 0.01, "se": 0.02, "n": 40},
           {"metric": "power", "value": np.nan, "se": np.nan, "n": 0}]
    )  # fmt: skip
    out = error_bounds(table, {"power": "rate", "loss": "mean"})
    assert list(out.columns) == [*table.columns, "low", "high"]
    for (k, n), row in zip(counts, out.itertuples(), strict=False):
        p = k / n

        def score(x, p=p, n=n):
            return (p - x) ** 2 - 4 * x * (1 - x) / n

        inside = min(max(p, 1e-9), 1 - 1e-9)  # score < 0 there: a bracket of each end
        low = 0.0 if k == 0 else brentq(score, 0.0, inside, xtol=1e-15)
        high = 1.0 if k == n else brentq(score, inside, 1.0, xtol=1e-15)
        assert row.low == pytest.approx(low, abs=1e-12)
        assert row.high == pytest.approx(high, abs=1e-12)
        assert 0 <= row.low <= p <= row.high <= 1 and row.high > row.low
    # no success in 40: the upper end is z^2 / (n + z^2) (closed form), not 0
    assert out["high"].iloc[0] == pytest.approx(4 / 44, rel=1e-12)
    # a mean (not a share) keeps value -/+ 2 se, below 0 included; no replication: NaN
    assert out["low"].iloc[-2] == pytest.approx(-0.03) and out["high"].iloc[-2] == pytest.approx(
        0.05
    )
    assert np.isnan(out["low"].iloc[-1]) and np.isnan(out["high"].iloc[-1])
    # a mean that cannot be negative (a loss) is cut at 0 below, unchanged above
    cut = error_bounds(table, {"power": "rate", "loss": "mean"}, non_negative=["loss"])
    assert (cut["low"].iloc[-2], cut["high"].iloc[-2]) == (0.0, pytest.approx(0.05))
    pd.testing.assert_frame_equal(cut.drop(index=len(counts)), out.drop(index=len(counts)))
    # a metric the mapping does not list (an analysis' number) is not a share: 0 of 40
    # keeps 0 +/- 2 x 0, not Wilson's upper end 4 / 44
    assert error_bounds(table, {})["high"].iloc[0] == 0.0
    # a share with a value but no replication counted (n = 0) gets no bar, not a flat one
    odd = error_bounds(pd.DataFrame([{"metric": "power", "value": 0.3, "se": 0.1, "n": 0}]),
                       {"power": "rate"})  # fmt: skip
    assert odd[["low", "high"]].isna().all(axis=None)
