"""simulate_comparison: shapes, seeding, regeneration, sign conventions, validation."""

import numpy as np
import pytest
from test_simulate_cv import _expected_zero_r_cv_accuracy

from cvcompare.simulate.scenario import SimulatedComparison, check_scenario, simulate_comparison

H = {
    "generator": {"name": "nb_features", "theta_star": 0.9},
    "delta": {"distribution": "cauchy", "location": 0.0, "scale": 0.01 / 6, "cap": 0.1},
    "n_instances": 500,
    "cv": {"runs": 10, "folds": 10},
}
P = {
    "generator": {"name": "bn_vs_zeror"},
    "delta": {"distribution": "cauchy", "location": 0.02, "scale": 0.02, "cap": 0.5},
    "n_instances": [25, 50, 100, 250, 500, 1000],
    "cv": {"runs": 1, "folds": 10},
}


def test_h_scenario_shapes_and_fields():
    sim = simulate_comparison(H, q=20, rng=1)
    assert isinstance(sim, SimulatedComparison)
    assert sim.diffs.shape == sim.acc_a.shape == sim.acc_b.shape == (20, 100)
    assert np.array_equal(sim.diffs, sim.acc_a - sim.acc_b)
    assert np.allclose(sim.rho, 0.1)
    assert np.all(sim.n_instances == 500)
    assert np.all(np.abs(sim.true_delta) <= 0.1)
    assert sim.labels == ()


def test_same_seed_same_output_for_every_field():
    a, b = simulate_comparison(P, q=30, rng=5), simulate_comparison(P, q=30, rng=5)
    for field in ("diffs", "acc_a", "acc_b", "rho", "true_delta", "n_instances"):
        assert np.array_equal(getattr(a, field), getattr(b, field))
    assert not np.array_equal(a.diffs, simulate_comparison(P, q=30, rng=6).diffs)


def test_sizes_are_drawn_from_the_list():
    sim = simulate_comparison(P, q=600, rng=2)
    counts = np.array([np.sum(sim.n_instances == s) for s in (25, 50, 100, 250, 500, 1000)])
    # each size has probability 1/6: 4 binomial standard errors
    assert np.all(np.abs(counts / 600 - 1 / 6) < 4 * np.sqrt((1 / 6) * (5 / 6) / 600))


def test_degenerate_data_sets_are_regenerated_and_counted():
    # 2-fold CV of 8 instances, theta* = 0.9, delta = 0: F and G often predict every test
    # instance alike, so many data sets are degenerate
    scen = {
        "generator": {"name": "nb_features"},
        "delta": {"distribution": "fixed", "value": 0.0},
        "n_instances": 8,
        "cv": {"runs": 1, "folds": 2},
    }
    sim = simulate_comparison(scen, q=200, rng=3)
    assert sim.n_regenerated > 0
    assert not np.any(np.all(sim.diffs == 0, axis=1))
    off = dict(scen, generator={"name": "nb_features", "regenerate_degenerate": False})
    kept = simulate_comparison(off, q=200, rng=3)
    assert kept.n_regenerated == 0 and np.any(np.all(kept.diffs == 0, axis=1))


def test_regeneration_gives_up_when_every_draw_is_degenerate():
    scen = {
        "generator": {"name": "nb_features", "theta_star": 1.0},
        "delta": {"distribution": "fixed", "value": 0.0},
        "n_instances": 20,
        "cv": {"runs": 1, "folds": 2},
    }
    with pytest.raises(RuntimeError, match="regenerate_degenerate"):
        simulate_comparison(scen, q=1, rng=1)


@pytest.mark.parametrize("sign", [1, -1])
def test_bn_generator_difference_and_the_swap_of_negative_deltas(sign):
    # theta = 0.5 + |delta| = 0.8 at n = 1000: the learned network predicts class = feature
    # in every fold, so its expected CV accuracy is 0.8, and zeroR's is the exact
    # enumeration of test_simulate_cv. A negative delta swaps the learners, so the mean
    # difference flips sign and the network's accuracies move to slot b. Tolerance: 4
    # Monte Carlo standard errors of the mean over data sets.
    scen = dict(P, delta={"distribution": "fixed", "value": sign * 0.3}, n_instances=1000)
    sim = simulate_comparison(scen, q=300, rng=4)
    assert np.all(sim.true_delta == sign * 0.3)
    means = sim.diffs.mean(axis=1)
    expected = sign * (0.8 - _expected_zero_r_cv_accuracy(1000, 10))
    assert abs(means.mean() - expected) < 4 * means.std(ddof=1) / np.sqrt(means.size)
    network = sim.acc_a if sign > 0 else sim.acc_b
    assert np.all(network.mean(axis=1) > 0.7)
    if sign < 0:
        err = dict(scen, generator={"name": "bn_vs_zeror", "negative_delta": "error"})
        with pytest.raises(
            ValueError,
            match=r"differences in \[0, 0.5\] \(negative_delta: error\); got delta\[0\] = -0.3",
        ):
            simulate_comparison(err, q=5, rng=4)


@pytest.mark.parametrize(
    "change, match",
    [
        ({"generator": None}, "generator: expected a mapping"),
        ({"generator": {"name": "svm"}}, "generator.name: expected one of"),
        ({"generator": {"name": "nb_features", "theta": 0.9}}, "generator: unknown key"),
        ({"generator": {"name": "nb_features", "theta_star": 0.4}}, "theta_star: expected"),
        ({"generator": {"name": "nb_features", "alpha": 0}}, "generator.alpha: expected"),
        ({"generator": {"name": "nb_features", "regenerate_degenerate": "yes"}}, "true or false"),
        ({"cv": {"runs": 10, "folds": 1}}, "cv.folds: expected an integer >= 2"),
        ({"cv": {"runs": 10, "folds": 600}}, "folds: expected at most as many folds"),
        ({"cv": {"repeats": 10}}, "cv: unknown key"),
        ({"n_instances": -5}, "n_instances: expected an integer >= 2"),
        ({"n_instances": []}, "n_instances: expected a non-empty list"),
        (
            {"delta": {"distribution": "fixed", "value": 0.45}},
            r"in \[-0.1, 0.4\) \(theta_star = 0.9\)",
        ),
        (
            {"delta": {"distribution": "cauchy", "location": 0, "scale": 1}},
            r"delta: the .nb_features. generator can only realise differences in \[-0.1, 0.4\)",
        ),
        ({"seed": 1}, "scenario: unknown key"),
    ],
)
def test_bad_scenarios_name_the_key(change, match):
    scen = {k: v for k, v in (H | change).items()}
    with pytest.raises((ValueError, TypeError), match=match):
        simulate_comparison(scen, q=50, rng=1)


def test_missing_keys_and_bad_q():
    with pytest.raises(ValueError, match="generator: missing"):
        simulate_comparison({"delta": H["delta"]}, q=2, rng=1)
    with pytest.raises(ValueError, match="delta: required"):
        simulate_comparison({"generator": {"name": "nb_features"}}, q=2, rng=1)
    with pytest.raises(ValueError, match="n_instances: required"):
        simulate_comparison({k: v for k, v in P.items() if k != "n_instances"}, q=2, rng=1)
    with pytest.raises(ValueError, match="q: expected an integer >= 1"):
        simulate_comparison(H, q=0, rng=1)
    with pytest.raises(ValueError, match="ground_truth: only used by the 'friedman'"):
        simulate_comparison(H, q=2, rng=1, ground_truth={})
    with pytest.raises(ValueError, match=r"\[-0.5, 0.5\] \(theta = 0.5 \+ \|delta\| <= 1\)"):
        simulate_comparison(P | {"delta": {"distribution": "fixed", "value": 0.6}}, q=2, rng=1)


@pytest.mark.parametrize(
    ("generator", "value", "message"),
    [
        (
            {"name": "bn_vs_zeror"},
            0.6,
            r"in \[-0.5, 0.5\] \(theta = 0.5 \+ \|delta\| <= 1\); got delta\[0\] = 0.6",
        ),
        (
            {"name": "bn_vs_zeror", "negative_delta": "error"},
            -0.1,
            r"in \[0, 0.5\] \(negative_delta: error\)",
        ),
        (
            {"name": "nb_features"},
            0.4,
            r"in \[-0.1, 0.4\) \(theta_star = 0.9\); got delta\[0\] = 0.4",
        ),
        (
            {"name": "nb_features", "theta_star": 0.8},
            -0.25,
            r"in \[-0.2, 0.3\) \(theta_star = 0.8\)",
        ),
    ],
)
def test_a_fixed_difference_the_generator_cannot_realise_is_refused_before_any_draw(
    generator, value, message
):
    # a fixed delta is known without drawing: check_scenario (an experiment file's dry run)
    # refuses it, as a simulation would
    scenario = P | {"generator": generator, "delta": {"distribution": "fixed", "value": value}}
    with pytest.raises(ValueError, match=message):
        check_scenario(scenario, q=2)
    inside = scenario | {"delta": {"distribution": "fixed", "value": 0.05}}
    check_scenario(inside, q=2)


@pytest.mark.parametrize(
    ("generator", "delta", "message"),
    [
        (
            {"name": "nb_features"},
            {"distribution": "gaussian", "mean": 0.0, "sd": 0.02},
            r"realise differences in \[-0.1, 0.4\) \(theta_star = 0.9\), and 2.87e-07 of the draws",
        ),
        (
            {"name": "bn_vs_zeror", "negative_delta": "error"},
            {"distribution": "mixture", "means": [0.1], "sds": [0.03], "weights": [1]},
            r"realise differences in \[0, 0.5\] \(negative_delta: error\), and 0.000429 of the "
            r"draws",
        ),
        (
            {"name": "bn_vs_zeror"},
            {"distribution": "cauchy", "location": 0.0, "scale": 0.01, "cap": 0.6},
            r"realise differences in \[-0.5, 0.5\] \(theta = 0.5 \+ \|delta\| <= 1\), and "
            r"0.0127 of the draws",
        ),
    ],
)
def test_a_distribution_whose_draws_the_generator_cannot_realise_is_refused_when_it_loads(
    generator, delta, message
):
    # the masses in the messages are closed forms: Phi(-0.1 / 0.02) = 2.87e-07 (the upper
    # end is 20 sd away); Phi(-0.1 / 0.03) = 0.000429; 2 (1/2 - arctan(0.5 / 0.01) / pi) =
    # 0.0127 (a cap beyond the range leaves the tails beyond it)
    scenario = P | {"generator": generator, "delta": delta}
    with pytest.raises(
        ValueError, match=message + r".*give the distribution a cap within that range"
    ):
        check_scenario(scenario, q=2)
    # a cap inside the generator's range makes it realisable (the simulation runs)
    low = 0.0 if generator.get("negative_delta") == "error" else -0.1
    capped = scenario | {"delta": delta | {"cap": [low, 0.3]}}
    check_scenario(capped, q=2)
    assert simulate_comparison(capped | {"n_instances": 40}, q=3, rng=1).true_delta.min() >= low


def test_the_realisable_range_is_exactly_what_the_generator_accepts():
    # theta* - 1 rounds: with theta* = 0.9 it is -0.09999999999999998, yet a cap at -0.1 is
    # realisable (0.9 + 0.1 = 1.0 exactly); the ends are the last floats nb_theta_g accepts
    from cvcompare.simulate.generators import nb_theta_g
    from cvcompare.simulate.scenario import _binary_plan, _realisable_interval

    for theta in (0.9, 0.7, 1.0, 0.51):
        fixed = {"delta": {"distribution": "fixed", "value": theta - 0.75}}
        plan = _binary_plan({"name": "nb_features", "theta_star": theta}, H | fixed)
        low, high, _ = _realisable_interval(plan)
        nb_theta_g(theta, np.array([low, high]))
        for outside in (np.nextafter(low, -1), np.nextafter(high, 1)):
            with pytest.raises(ValueError, match="delta: theta_star - delta"):
                nb_theta_g(theta, np.array([outside]))
    capped = {"distribution": "cauchy", "location": 0.0, "scale": 0.01, "cap": 0.1}
    check_scenario(H | {"delta": capped}, q=2)


@pytest.mark.parametrize("n", [50, 500])
def test_h_scenario_tracks_the_true_deltas(n):
    # per data set, E[mean CV difference] = delta_i (see test_simulate_cv); over q data sets
    # the mean of (x_bar_i - delta_i) is within 4 Monte Carlo SEs of 0
    scen = H | {"n_instances": n, "delta": {"distribution": "mixture"}}
    sim = simulate_comparison(scen, q=1000, rng=n)
    err = sim.diffs.mean(axis=1) - sim.true_delta
    assert abs(err.mean()) < 4 * err.std(ddof=1) / np.sqrt(err.size)


def test_mean_diffs_are_zero_and_tie_exactly_where_the_rational_means_do():
    # theta = 0.5: the network and zeroR often tie on a whole data set. Fold accuracies are
    # c / n_test with n_test <= 10, so 2520 * accuracy (2520 = lcm(1..10)) is an integer,
    # recovered exactly by rounding; a data set's mean is zero iff the integer sum is.
    scen = dict(P, delta={"distribution": "fixed", "value": 0.0}, n_instances=50)
    scen["cv"] = {"runs": 10, "folds": 10}
    sim = simulate_comparison(scen, q=1500, rng=7)
    units = np.rint(2520 * sim.acc_a).astype(np.int64) - np.rint(2520 * sim.acc_b).astype(np.int64)
    np.testing.assert_allclose(units / 2520, sim.diffs, rtol=0, atol=1e-12)
    exact = units.sum(axis=1) == 0
    plain = sim.diffs.mean(axis=1)
    assert np.any(exact & (plain != 0))  # the rounding noise occurs in this sample
    assert np.array_equal(sim.mean_diffs == 0, exact)
    # the other means move by rounding noise only, and tie exactly where the integer sums
    # have equal magnitudes (so a rank test ranks them as ties)
    np.testing.assert_allclose(sim.mean_diffs, plain, rtol=0, atol=1e-15)
    _, tie_of_exact = np.unique(np.abs(units.sum(axis=1)), return_inverse=True)
    _, tie_of_means = np.unique(np.abs(sim.mean_diffs), return_inverse=True)
    np.testing.assert_array_equal(tie_of_means, tie_of_exact)
