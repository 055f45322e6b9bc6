"""Friedman-function data, the 1-SE pruned tree, ground truth and the friedman scenario."""

import numpy as np
import pytest
from sklearn.datasets import make_friedman1, make_friedman2, make_friedman3
from sklearn.tree import DecisionTreeClassifier

from cvcompare.seeding import replication_rng
from cvcompare.simulate.friedman import (
    MEDIAN_SEED,
    FriedmanSetting,
    TruthDesign,
    friedman_data,
    friedman_ground_truth,
    friedman_median,
    friedman_regression,
    friedman_settings,
    load_ground_truth,
)
from cvcompare.simulate.presorted_tree import PresortedTree, presort
from cvcompare.simulate.pruned_tree import OneSETreeClassifier, weakest_link_cp
from cvcompare.simulate.scenario import (
    check_scenario,
    required_ground_truth,
    simulate_comparison,
)


@pytest.mark.parametrize(
    "function, maker", [(1, make_friedman1), (2, make_friedman2), (3, make_friedman3)]
)
def test_functions_equal_scikit_learn(function, maker):
    X, y = maker(n_samples=500, noise=0.0, random_state=function)
    assert np.allclose(friedman_regression(X, function), y, rtol=1e-12, atol=1e-12)


def test_feature_ranges_and_shapes():
    s1 = FriedmanSetting(function=1, noise=1.0, n=2000, n_random=20)
    X, y = friedman_data(s1, rng=1)
    assert X.shape == (2000, 30) and y.shape == (2000,)
    assert X[:, :10].min() >= 0 and X[:, :10].max() <= 1
    # the added features are standard normal: 4 standard errors on mean and sd
    assert abs(X[:, 10:].mean()) < 4 / np.sqrt(2000 * 20)
    assert abs(X[:, 10:].std() - 1) < 4 / np.sqrt(2 * 2000 * 20)
    X2, _ = friedman_data(FriedmanSetting(function=2, noise=125.0, n=2000, n_random=0), rng=1)
    assert X2.shape == (2000, 4)
    low, high = [0, 40 * np.pi, 0, 1], [100, 560 * np.pi, 1, 11]
    assert np.all(X2.min(axis=0) >= low) and np.all(X2.max(axis=0) <= high)


def test_the_54_settings_of_table_4():
    settings = friedman_settings()
    assert len(settings) == 54 and len({s.id for s in settings}) == 54
    for f, noises in ((1, {0.5, 1, 2}), (2, {62.5, 125, 250}), (3, {0.05, 0.1, 0.2})):
        mine = [s for s in settings if s.function == f]
        assert len(mine) == 18
        assert {s.noise for s in mine} == noises
        assert {s.n for s in mine} == {30, 100, 1000}
        assert {s.n_random for s in mine} == {0, 20}


@pytest.mark.parametrize(
    "change, error, match",
    [
        ({"function": True}, TypeError, "function: expected an integer, got True"),
        ({"function": 1.0}, TypeError, "function: expected an integer, got 1.0"),
        ({"function": 4}, ValueError, "function: expected 1, 2 or 3, got 4"),
        ({"noise": True}, TypeError, "noise: expected a non-negative number, got True"),
        ({"noise": "1.0"}, TypeError, "noise: expected a non-negative number, got '1.0'"),
        ({"noise": float("nan")}, ValueError, "noise: expected a non-negative finite number"),
        ({"noise": -1.0}, ValueError, "noise: expected a non-negative finite number"),
    ],
)
def test_settings_refuse_booleans_and_non_numbers_naming_the_field(change, error, match):
    with pytest.raises(error, match="^" + match):
        FriedmanSetting(**{"function": 1, "noise": 1.0, "n": 30, "n_random": 0, **change})
    same = FriedmanSetting(function=np.int64(1), noise=np.float64(1.0), n=30, n_random=0)
    assert same.id == "F1_sd1_n30_r0"


@pytest.mark.parametrize("function", [1, 2, 3])
def test_class_balance_is_one_half(function):
    # Fresh data (a different seed from the median's): the share of class 1 is 1/2 up to
    # the binomial error of the N instances and the error of the median estimated on
    # 10,000 instances (which moves P(y > median) by about 0.5 / sqrt(10,000)).
    n = 20_000
    setting = FriedmanSetting(
        function=function, noise=[1.0, 125.0, 0.1][function - 1], n=n, n_random=0
    )
    _, y = friedman_data(setting, rng=MEDIAN_SEED + 1)
    se = np.sqrt(0.25 / n + 0.25 / 10_000)
    assert abs(y.mean() - 0.5) < 4 * se
    # the cached threshold is a fixed-seed estimate: recomputing it gives the same value
    assert friedman_median.__wrapped__(function) == friedman_median(function)


def _dp_optimal_leaves(tree, alpha):
    """Brute force: the smallest subtree minimising R(T) + alpha |leaves(T)|."""
    counts = tree.value[:, 0, :] * tree.weighted_n_node_samples[:, None]
    risk = tree.weighted_n_node_samples - counts.max(axis=1)

    def best(t):
        if tree.children_left[t] < 0:
            return risk[t] + alpha, [t]
        cost_l, leaves_l = best(tree.children_left[t])
        cost_r, leaves_r = best(tree.children_right[t])
        if risk[t] + alpha <= cost_l + cost_r + 1e-9:
            return risk[t] + alpha, [t]
        return cost_l + cost_r, leaves_l + leaves_r

    return set(best(0)[1]), risk[0]


def _predict_with_leaves(fitted, X, leaves):
    """Walk each sample down from the root until it reaches one of ``leaves``."""
    tree = fitted.tree_
    out = []
    for path in fitted.decision_path(X):
        node = next(t for t in path.indices if t in leaves)  # indices are in preorder
        out.append(fitted.classes_[np.argmax(tree.value[node, 0])])
    return np.array(out)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("min_leaf", [3, 7])
def test_weakest_link_equals_brute_force_optimal_subtrees(seed, min_leaf):
    # min_leaf = 7 (rpart's minbucket) grows nested splits with zero gain, whose nodes
    # are weakest links at the same time
    X, y = friedman_data(
        FriedmanSetting(function=1 + seed, noise=[1.0, 125.0, 0.1][seed], n=400, n_random=5),
        rng=seed,
    )
    tree = (
        DecisionTreeClassifier(min_samples_leaf=min_leaf, min_samples_split=20, random_state=seed)
        .fit(X, y)
        .tree_
    )
    collapse = weakest_link_cp(tree)
    leaves_full = np.flatnonzero(tree.children_left < 0)
    for cp in np.random.default_rng(seed).uniform(0, 1.2 * collapse.max(), 40):
        leaves, root_risk = _dp_optimal_leaves(tree, cp * root_risk_of(tree))
        # pruned tree at cp: nodes with collapse <= cp whose parent is not collapsed,
        # i.e. the shallowest collapsed node on each path
        mine = set()
        for leaf in leaves_full:
            path = _path_to(tree, leaf)
            mine.add(next(t for t in path if collapse[t] <= cp))
        assert mine == leaves


def root_risk_of(tree):
    counts = tree.value[0, 0] * tree.weighted_n_node_samples[0]
    return tree.weighted_n_node_samples[0] - counts.max()


def _path_to(tree, leaf):
    parent = {}
    for t in range(tree.node_count):
        if tree.children_left[t] >= 0:
            parent[tree.children_left[t]] = t
            parent[tree.children_right[t]] = t
    path = [leaf]
    while path[-1] in parent:
        path.append(parent[path[-1]])
    return path[::-1]


@pytest.mark.parametrize(("n", "seed"), [(300, 3), (100, 32)])
def test_one_se_choice_equals_an_explicit_reimplementation(n, seed):
    # Re-derive the choice with brute-force pruning (DP) and explicit loops, replaying the
    # classifier's random stream: full-tree seed, internal fold permutation, fold seeds.
    # (n = 100, seed 32: pruning each fold's tree at the whole sample's cp relative to its
    # own root risk, without rpart's scaling, chose cp 0.01 instead of 0.087)
    X, y = friedman_data(FriedmanSetting(function=1, noise=1.0, n=n, n_random=20), rng=seed)
    model = OneSETreeClassifier(rng=np.random.default_rng(42), grower="sklearn").fit(X, y)
    gen = np.random.default_rng(42)

    def grow(Xs, ys):
        return DecisionTreeClassifier(
            min_samples_split=20,
            min_samples_leaf=7,
            max_depth=30,
            random_state=int(gen.integers(2**31 - 1)),
        ).fit(Xs, ys)

    full = grow(X, y)
    cps = sorted({c for c in weakest_link_cp(full.tree_) if c >= 0.01}, reverse=True)
    if cps[-1] > 0.01:
        cps.append(0.01)
    # rpart's xval.c: the first probe ten times the largest cp, then geometric means; the
    # complexity alpha = cp R(root) of the whole sample, scaled by n_v / n in fold v
    probes = [10 * cps[0]] + [np.sqrt(a * b) for a, b in zip(cps[1:], cps[:-1], strict=True)]
    folds = gen.permutation(np.arange(y.size) % 10)
    errors = np.zeros(len(cps))
    for v in range(10):
        test = folds == v
        tree = grow(X[~test], y[~test])
        for i, cp in enumerate(probes):
            alpha = cp * root_risk_of(full.tree_) * (~test).sum() / y.size
            leaves, _ = _dp_optimal_leaves(tree.tree_, alpha)
            errors[i] += np.sum(_predict_with_leaves(tree, X[test], leaves) != y[test])
    xerror = errors / y.size
    best = int(np.argmin(xerror))
    threshold = xerror[best] + np.sqrt(xerror[best] * (1 - xerror[best]) / y.size)
    chosen = next(cp for cp, e in zip(cps, xerror, strict=True) if e <= threshold + 1e-12)
    assert model.cp_ == pytest.approx(chosen)
    # the presorted grower, which grows each fold's tree only down to rpart's scaled cp_min
    fast = OneSETreeClassifier(rng=np.random.default_rng(42)).fit(X, y)
    assert fast.cp_ == model.cp_
    leaves, _ = _dp_optimal_leaves(full.tree_, chosen * root_risk_of(full.tree_))
    assert np.array_equal(model.predict(X), _predict_with_leaves(full, X, leaves))


def test_internal_folds_grow_and_prune_at_rpart_s_complexities(monkeypatch):
    # rpart's xval.c: the candidates are probed at 10 cp_1 ("close enough to infinity") and
    # the geometric means of the cp intervals, and each fold's tree is grown and pruned at
    # the same complexity per instance: relative to its own root risk, cp times
    # (R(root) / n) / (R_v(root) / n_v). Classes of unequal size make the factor differ from 1.
    import cvcompare.simulate.presorted_tree as presorted_tree
    import cvcompare.simulate.pruned_tree as pruned_tree

    X, y = friedman_data(FriedmanSetting(function=1, noise=1.0, n=100, n_random=20), rng=32)
    grown, pruned = [], []
    grow_subset = presorted_tree.PresortedTree.grow_subset.__func__
    leaf_map = pruned_tree._pruned_leaf_map

    def spy_grow(cls, X32, labels, order, rows, **kwargs):
        grown.append((rows.copy(), kwargs["min_cp"]))
        return grow_subset(cls, X32, labels, order, rows, **kwargs)

    def spy_prune(tree, collapse, cps):
        pruned.append(np.array(cps))
        return leaf_map(tree, collapse, cps)

    monkeypatch.setattr(presorted_tree.PresortedTree, "grow_subset", classmethod(spy_grow))
    monkeypatch.setattr(pruned_tree, "_pruned_leaf_map", spy_prune)
    OneSETreeClassifier(rng=np.random.default_rng(42)).fit(X, y)

    def risk(labels):  # misclassification risk of a root per instance
        return 1 - np.bincount(labels.astype(int)).max() / labels.size

    full = grow_subset(
        PresortedTree,
        X.astype(np.float32),
        y,
        presort(X.astype(np.float32)),
        np.ones(y.size, dtype=bool),
        min_split=20,
        min_leaf=7,
        max_depth=30,
    )
    cps = sorted({c for c in weakest_link_cp(full.tree_) if c >= 0.01}, reverse=True)
    cps += [0.01] if cps[-1] > 0.01 else []
    probes = [10 * cps[0]] + [np.sqrt(a * b) for a, b in zip(cps[1:], cps[:-1], strict=True)]
    assert grown[0][1] == 0.01 and len(grown) == len(pruned) == 11  # the whole sample, 10 folds
    scales = []
    for (rows, min_cp), cp in zip(grown[1:], pruned[:-1], strict=True):
        scale = risk(y) / risk(y[rows])
        scales.append(scale)
        assert min_cp == pytest.approx(0.01 * scale)
        assert cp == pytest.approx(np.array(probes) * scale)
    assert min(scales) < 1 < max(scales)


def _structure(tree):
    return (tuple(tree.children_left), tuple(tree.feature), tuple(np.round(tree.threshold, 12)))


def test_presorted_grower_grows_scikit_learn_s_tree_wherever_its_tree_is_unique():
    # scikit-learn breaks ties between features of exactly equal gain in a random order:
    # where four of its random states give the same tree no tie mattered, and the
    # presorted grower must give that tree exactly (structure, thresholds, proportions).
    # Ties are common (small nodes), so the test also requires enough unique cases.
    compared = 0
    for k, setting in enumerate(friedman_settings()[::3]):
        X, y = friedman_data(setting, rng=k)
        X32 = X.astype(np.float32)
        refs = [
            DecisionTreeClassifier(
                min_samples_split=20, min_samples_leaf=7, max_depth=30, random_state=r
            )
            .fit(X, y)
            .tree_
            for r in range(4)
        ]
        if len({_structure(t) for t in refs}) > 1:
            continue
        fast = PresortedTree(X32, y, presort(X32), min_split=20, min_leaf=7, max_depth=30)
        assert _structure(fast) == _structure(refs[0]), setting.id
        assert np.allclose(fast.value, refs[0].value, rtol=0, atol=1e-15)
        assert np.array_equal(fast.weighted_n_node_samples, refs[0].weighted_n_node_samples)
        X_new, _ = friedman_data(setting, rng=100 + k, n=500)
        assert np.array_equal(fast.apply(X_new), refs[0].apply(X_new.astype(np.float32)))
        compared += 1
    assert compared >= 5


def test_trees_not_split_below_cp_min_have_the_same_candidate_subtrees():
    # Nodes with risk <= cp_min * R(root) are left unsplit: the weakest-link values >= cp_min
    # and the pruned trees at every cp >= cp_min must equal those of the full tree.
    from cvcompare.simulate.pruned_tree import _pruned_leaf_map

    for k, setting in enumerate(friedman_settings()[2::5]):
        X, y = friedman_data(setting, rng=k)
        X32 = X.astype(np.float32)
        kw = {"min_split": 20, "min_leaf": 7, "max_depth": 30}
        full = PresortedTree(X32, y, presort(X32), **kw)
        cut = PresortedTree(X32, y, presort(X32), min_cp=0.01, **kw)
        assert cut.node_count <= full.node_count
        cps = [np.unique(c[c >= 0.01]) for c in map(weakest_link_cp, (full, cut))]
        assert np.allclose(cps[0], cps[1], rtol=1e-12, atol=0), setting.id
        probes = np.concatenate([cps[0], [0.01, np.inf]])
        X_new, _ = friedman_data(setting, rng=50 + k, n=300)
        preds = []
        for tree in (full, cut):
            rep = _pruned_leaf_map(tree, weakest_link_cp(tree), probes)
            node_class = np.argmax(tree.value[:, 0, :], axis=1)
            preds.append(node_class[rep[:, tree.apply(X_new)]])
        assert np.array_equal(*preds), setting.id


def test_presorted_subsets_reuse_the_sorting_of_the_whole_sample():
    X, y = friedman_data(FriedmanSetting(function=2, noise=125.0, n=200, n_random=5), rng=4)
    X32 = X.astype(np.float32)
    rows = np.random.default_rng(0).random(200) < 0.8
    sub = PresortedTree.grow_subset(
        X32, y, presort(X32), rows, min_split=20, min_leaf=7, max_depth=30
    )
    direct = PresortedTree(
        X32[rows], y[rows], presort(X32[rows]), min_split=20, min_leaf=7, max_depth=30
    )
    assert _structure(sub) == _structure(direct)


def test_one_se_tree_growers_agree_and_draw_the_same_random_numbers():
    # Same random stream, hence the same internal folds: the two growers choose the same
    # pruned tree unless a tie between features changed a tree (at most 1 in 10 here).
    setting = FriedmanSetting(function=1, noise=1.0, n=300, n_random=20)
    X, y = friedman_data(setting, rng=5)
    X_new, _ = friedman_data(setting, rng=6, n=1000)
    agree = 0
    for seed in range(10):
        gens = [np.random.default_rng(seed) for _ in range(2)]
        ref = OneSETreeClassifier(rng=gens[0], grower="sklearn").fit(X, y)
        fast = OneSETreeClassifier(rng=gens[1], grower="presorted").fit(X, y)
        assert gens[0].integers(2**31) == gens[1].integers(2**31)
        agree += ref.cp_ == fast.cp_ and np.array_equal(ref.predict(X_new), fast.predict(X_new))
    assert agree >= 9
    with pytest.raises(ValueError, match="grower: expected 'presorted' or 'sklearn'"):
        OneSETreeClassifier(rng=1, grower="rpart")


def test_one_se_tree_finds_a_single_clean_split():
    gen = np.random.default_rng(0)
    X = gen.random((400, 6))
    y = (X[:, 2] > 0.5).astype(int)
    model = OneSETreeClassifier(rng=1).fit(X, y)
    assert model.n_leaves_ == 2
    X_new = gen.random((1000, 6))
    assert np.array_equal(model.predict(X_new), (X_new[:, 2] > 0.5).astype(int))


def test_ground_truth_of_identical_learners_is_exactly_zero():
    s = FriedmanSetting(function=2, noise=125.0, n=30, n_random=0)
    gt = friedman_ground_truth(s, rng=1, learners=("lda", "lda"), repetitions=3, n_test=200)
    assert gt.delta == 0.0 and gt.std_err == 0.0 and gt.repetitions == 3


def test_ground_truth_is_reproducible_and_has_its_standard_error():
    s = FriedmanSetting(function=3, noise=0.1, n=100, n_random=0)
    a = friedman_ground_truth(s, rng=4, repetitions=4, n_test=500)
    b = friedman_ground_truth(s, rng=4, repetitions=4, n_test=500)
    assert a == b and a.std_err > 0
    with pytest.raises(ValueError, match="repetitions: expected an integer >= 2"):
        friedman_ground_truth(s, rng=4, repetitions=1)


def _truth():
    return {s.id: 0.01 * i for i, s in enumerate(friedman_settings())}


def test_friedman_scenario_draws_per_function_and_uses_the_ground_truth():
    scen = {
        "generator": {
            "name": "friedman",
            "per_function": 1,
            "settings": [s.id for s in friedman_settings() if s.n == 30],
        },
        "cv": {"runs": 1, "folds": 3},
    }
    truth = _truth()
    sim = simulate_comparison(scen, q=3, rng=2, ground_truth=truth)
    assert sim.diffs.shape == (3, 3)
    assert [label[:2] for label in sim.labels] == ["F1", "F2", "F3"]
    assert np.array_equal(sim.true_delta, [truth[label] for label in sim.labels])
    assert np.all(sim.n_instances == 30) and np.allclose(sim.rho, 1 / 3)
    again = simulate_comparison(scen, q=3, rng=2, ground_truth=truth)
    assert np.array_equal(sim.diffs, again.diffs) and sim.labels == again.labels


@pytest.mark.parametrize(
    "generator, q, kwargs, match",
    [
        ({"name": "friedman", "per_function": 12}, 30, {"ground_truth": {}}, "q: expected 3 "),
        ({"name": "friedman", "settings": ["F9"]}, 1, {}, "generator.settings: unknown"),
        ({"name": "friedman"}, 2, {}, "ground_truth: no true difference"),
        ({"name": "friedman", "learners": ["lda", "svm"]}, 2, {}, "generator.learners"),
        ({"name": "friedman", "ground_truth": [0.1]}, 2, {}, "generator.ground_truth: expected"),
    ],
)
def test_friedman_scenario_errors(generator, q, kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        simulate_comparison({"generator": generator}, q=q, rng=1, **kwargs)


def test_friedman_scenario_refuses_delta_and_sizes():
    with pytest.raises(ValueError, match="n_instances: not used by the 'friedman'"):
        simulate_comparison({"generator": {"name": "friedman"}, "n_instances": 30}, q=2, rng=1)


def test_one_se_tree_with_fewer_instances_than_internal_folds():
    # 8 instances, 10 internal folds: cross-validation degenerates to leave-one-out
    X = np.arange(8.0)[:, None]
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    model = OneSETreeClassifier(rng=1, min_split=2, min_leaf=1).fit(X, y)
    assert np.array_equal(model.predict(X), y)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"xval": 1}, "xval: expected an integer >= 2"),
        ({"cp_min": 0.0}, "cp_min: expected a complexity > 0"),
        ({"min_split": 1}, "min_split: expected an integer >= 2"),
        ({"min_leaf": 0}, "min_leaf: expected an integer >= 1"),
    ],
)
def test_one_se_tree_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        OneSETreeClassifier(rng=1, **kwargs)


def test_truth_design_is_keyed_by_root_seed_learners_and_setting(tmp_path):
    s1, s2 = (FriedmanSetting(function=3, noise=0.1, n=30, n_random=r) for r in (0, 20))
    design = TruthDesign(repetitions=2, n_test=300)
    a = design.measure(s1, root_seed=5)
    # the stream is replication_rng(root seed, "friedman_ground_truth", learners, setting)
    direct = friedman_ground_truth(
        s1,
        replication_rng(5, "friedman_ground_truth", "lda", "cart", s1.id),
        repetitions=2,
        n_test=300,
    )
    assert a == direct
    assert design.measure(s1, root_seed=6) != a and design.measure(s2, root_seed=5) != a
    design.write(a, s1, tmp_path / "a.json")
    design.write(design.measure(s2, root_seed=5), s2, tmp_path / "b.json")
    loaded = load_ground_truth([tmp_path / "a.json", tmp_path / "b.json"])
    assert loaded[s1.id] == a and set(loaded) == {s1.id, s2.id}
    with pytest.raises(ValueError, match="learners: expected two names"):
        TruthDesign(learners=("lda", "knn"))
    with pytest.raises(ValueError, match="repetitions: expected an integer >= 2"):
        TruthDesign(repetitions=1)


def test_a_scenario_declares_its_truth_design_and_pool():
    pool = [s.id for s in friedman_settings() if s.n == 30]
    scen = {
        "generator": {
            "name": "friedman",
            "per_function": 2,
            "settings": pool,
            "truth": {"repetitions": 7, "n_test": 100},
        },
    }
    design, ids = required_ground_truth(scen, 6)
    assert design == TruthDesign(repetitions=7, n_test=100) and list(ids) == pool
    check_scenario(scen, 6)
    assert (
        required_ground_truth(
            {
                "generator": {"name": "nb_features"},
                "delta": {"distribution": "fixed", "value": 0.0},
            },
            2,
        )
        is None
    )
    # without a truth design, an experiment file must give every setting's truth
    no_design = {"generator": {"name": "friedman", "settings": pool[:2]}}
    with pytest.raises(ValueError, match="generator.truth: required"):
        check_scenario(no_design, 2)
    no_design["generator"]["ground_truth"] = {pool[0]: 0.01, pool[1]: 0.02}
    check_scenario(no_design, 2)
    assert required_ground_truth(no_design, 2) is None
    bad = {"generator": {"name": "friedman", "truth": {"repetition": 5}}}
    with pytest.raises(ValueError, match=r"generator.truth: unknown key\(s\) \['repetition'\]"):
        check_scenario(bad, 3)
    bad = {"generator": {"name": "friedman", "truth": {"n_test": 0}}}
    with pytest.raises(ValueError, match="generator.truth.n_test: expected an integer >= 1"):
        check_scenario(bad, 3)


def test_linear_discriminant_equals_scikit_learn_s_svd_solver():
    # Same arithmetic as LinearDiscriminantAnalysis(solver="svd"): identical decision
    # values (to rounding) and predictions, also with fewer training instances than
    # features (n = 30 with 20 added features: 27 instances, 30 features).
    import warnings

    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    from cvcompare.simulate.lda import LinearDiscriminant

    for k, setting in enumerate(friedman_settings()[::4]):
        X, y = friedman_data(setting, rng=k)
        X_new, _ = friedman_data(setting, rng=k + 99, n=500)
        train = np.arange(setting.n) % 10 != 0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = LinearDiscriminantAnalysis().fit(X[train], y[train])
        mine = LinearDiscriminant().fit(X[train], y[train])
        scores = ref.decision_function(X_new)
        assert np.allclose(mine.decision_function(X_new), scores, rtol=1e-9, atol=1e-9)
        assert np.array_equal(mine.predict(X_new), ref.predict(X_new))
    X = np.random.default_rng(1).normal(size=(60, 3))
    y = np.repeat(["a", "b", "c"], 20)
    X[y == "b"] += 2.0
    ref = LinearDiscriminantAnalysis().fit(X, y)
    assert np.array_equal(LinearDiscriminant().fit(X, y).predict(X), ref.predict(X))
    with pytest.raises(ValueError, match="y: expected at least two classes"):
        LinearDiscriminant().fit(X, np.zeros(60))


def test_linear_discriminant_fits_with_one_blas_thread(monkeypatch):
    # the SVDs of a fit run on one BLAS thread even where the process allows more, and the
    # process's setting is restored afterwards
    import scipy.linalg
    from threadpoolctl import threadpool_info, threadpool_limits

    from cvcompare.simulate.lda import LinearDiscriminant

    def blas_threads():
        return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}

    seen = []
    svd = scipy.linalg.svd

    def spy(*args, **kwargs):
        seen.append(blas_threads())
        return svd(*args, **kwargs)

    monkeypatch.setattr(scipy.linalg, "svd", spy)
    X = np.random.default_rng(2).normal(size=(200, 5))
    y = np.arange(200) % 2
    with threadpool_limits(limits=2, user_api="blas"):
        before = blas_threads()
        LinearDiscriminant().fit(X, y)
        assert blas_threads() == before
    assert seen and all(threads == {1} for threads in seen)


def test_the_ground_truth_path_encodes_the_whole_truth_design():
    # load_ground_truth trusts the path to fix the design: every field of TruthDesign,
    # the root seed and the setting must be part of it
    import dataclasses
    import re
    from pathlib import Path

    rules = Path(__file__).resolve().parents[1] / "workflow" / "rules" / "common.smk"
    key = re.search(r'^TRUTH_KEY = "([^"]+)"', rules.read_text(), re.MULTILINE).group(1)
    parts = set(re.findall(r"\{(\w+)\}", key))
    fields = {f.name for f in dataclasses.fields(TruthDesign)} - {"learners"}
    assert parts == fields | {"learner_a", "learner_b", "seed", "setting"}
