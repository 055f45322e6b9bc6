"""Simulate one replication of a scenario: ``q`` data sets, each cross-validated.

A scenario is the declarative mapping of an experiment file, e.g.::

    generator: {name: nb_features, theta_star: 0.9}
    delta: {distribution: cauchy, location: 0.0, scale: 0.003333, cap: 0.1}
    n_instances: 500
    cv: {runs: 10, folds: 10}

Generators (``generator.name``):

``nb_features``
    Corani et al. (2017), App. 6.1: naive Bayes ``C -> F`` (learner a) vs ``C -> G``
    (learner b); keys ``theta_star`` (0.9), ``alpha`` (Laplace count, 1),
    ``regenerate_degenerate`` (True: a data set whose differences are all zero is drawn
    again with the same ``delta``, as in the authors' code). ``n_instances`` defaults to 500.
    ``delta`` must lie in ``[theta_star - 1, theta_star - 0.5)`` (``[-0.1, 0.4)`` at 0.9),
    so that ``P(G = C) = theta_star - delta`` is in (0.5, 1].
``bn_vs_zeror``
    Corani & Benavoli (2015), Sec. 4: the learned Bayesian network ``C -> F`` with
    ``theta = 0.5 + delta`` (learner a) vs zeroR (learner b); keys ``alpha`` (1),
    ``regenerate_degenerate`` (False), ``negative_delta``: ``"swap"`` (default) realises a
    negative ``delta`` as ``theta = 0.5 + |delta|`` with the learners swapped, so that
    the population difference of ``acc_a - acc_b`` is still ``delta`` and ``acc_a`` is
    zeroR's accuracy on those data sets; ``"error"`` refuses negative values. (The paper
    draws negative values from its Cauchy but does not say how it realised them:
    ``theta < 0.5`` would make the feature informative again, with accuracy
    ``0.5 + |delta|``.)
    ``n_instances`` is required; ``|delta|`` must be at most 0.5 (``theta <= 1``).

    ``delta`` is the *population* difference ``theta - 0.5``; the expected
    cross-validated difference is smaller on small data sets, for two reasons. ZeroR
    predicts the data set's own majority class and stratified folds carry that majority
    into every test fold, so its expected CV accuracy exceeds 0.5 (it tends to
    ``E[max(n_0, n_1)] / n = 0.5 + O(n^-1/2)`` as ``n`` grows): about 0.558, 0.545, 0.538,
    0.524, 0.518 and 0.513 for ``n`` = 25, 50, 100, 250, 500 and 1000 (exact enumeration
    over the class counts ``n_0 ~ Bin(n, 1/2)``, ties included). The learned network
    has the same majority-class advantage but often misreads a weak feature, so it falls
    short of ``theta``. Simulated means of ``acc_a - acc_b`` (10-fold CV): about -0.011
    (``n`` = 25 to 100) and -0.003 (``n`` = 1000) at ``delta = 0``; about 0.000, 0.007 and
    0.037 for ``n`` = 25, 100 and 1000 at ``delta = 0.05``; 0.028, 0.053 and 0.088 at
    ``delta = 0.1``. The null case ``delta = 0`` therefore lies slightly inside the null
    hypothesis "the network is not more accurate than zeroR" of the one-sided tests.
``friedman``
    Corani et al. (2017), Sec. 4.7: LDA vs CART on Friedman-function data sets. Keys
    ``learners`` (two of the learners ``lda`` and ``cart``, ``[lda, cart]`` by default; the
    difference is ``acc(learners[0]) - acc(learners[1])``), ``settings`` (ids of
    :func:`~.friedman.friedman_settings`, e.g. ``F1_sd1_n30_r0``, forming
    the pool; all 54 by default), ``per_function`` (draw that many settings of each
    function without replacement, so ``q`` must be ``3 * per_function``; without it ``q``
    settings are drawn from the pool without replacement), ``ground_truth`` (mapping
    setting id -> true difference, e.g. from :func:`~.friedman.friedman_ground_truth`;
    may instead be passed as the ``ground_truth`` argument, which takes precedence),
    ``truth`` (how the true differences are measured, ``{repetitions: 500, n_test: 5000}``
    as in the paper: a :class:`~.friedman.TruthDesign`; an experiment file declares it and
    the workflow computes the truth of every setting of the pool once, see
    :func:`required_ground_truth`) and ``regenerate_degenerate`` (False). ``delta`` and
    ``n_instances`` are not used.
``gaussian_folds``
    Corani & Benavoli (2015), Secs. 2.3 and 3: no classifiers; the fold differences are
    drawn directly, Gaussian and equicorrelated; keys ``mean`` (the true difference, which a
    grid varies through the path ``generator.mean``), ``sd``, ``rho`` (see
    :mod:`~.gaussian_folds`). ``delta`` and ``n_instances`` are refused.
``bivariate_normal``
    Benavoli et al. (2014), Sec. 4, Eq. (10): accuracies drawn directly, without
    cross-validation; keys ``sd`` (0.12) and ``corr`` (0). See :mod:`.direct`.

``delta`` is a mapping for :func:`~.deltas.delta_distribution`; ``n_instances`` an int or
a list of sizes drawn uniformly and independently per data set; ``cv`` has ``runs`` and
``folds`` (10 and 10 by default) and, for ``nb_features`` and ``bn_vs_zeror``,
``stratify`` (True: stratified folds as in the authors' code of Corani et al. 2017;
False: plain random folds, see :func:`~.cv.stratified_fold_ids`).

References
----------
Corani et al. (2017), Sec. 4 and App. 6.1; Corani & Benavoli (2015), Sec. 4.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .._validation import check_choice, check_int
from ..io import mean_differences
from ..seeding import RngLike, as_generator
from .classifiers import ZERO_R
from .cv import PairedCVResult, check_cv_design, paired_cv_binary, paired_cv_estimators
from .deltas import FixedDelta, delta_distribution
from .direct import GENERATOR_KEYS as _DIRECT_KEYS
from .direct import BivariateNormalPlan, bivariate_normal_plan
from .friedman import (
    FRIEDMAN_LEARNERS,
    GroundTruth,
    TruthDesign,
    friedman_data,
    friedman_settings,
    make_learner,
)
from .gaussian_folds import GENERATOR_KEYS as GAUSSIAN_FOLDS_KEYS
from .gaussian_folds import GaussianFoldsPlan, gaussian_folds_plan
from .generators import bn_data, check_theta_star, nb_features_data

__all__ = [
    "GENERATOR_KEYS",
    "SimulatedComparison",
    "check_scenario",
    "required_ground_truth",
    "simulate_comparison",
]

#: A data set is redrawn at most this many times before the simulation gives up.
MAX_REGENERATIONS = 1000

_TOP_KEYS = {"generator", "delta", "n_instances", "cv"}
#: The keys each generator (``generator.name``) takes besides ``name``.
GENERATOR_KEYS = {
    "nb_features": {"theta_star", "alpha", "regenerate_degenerate"},
    "bn_vs_zeror": {"alpha", "regenerate_degenerate", "negative_delta"},
    "friedman": {
        "learners",
        "settings",
        "per_function",
        "ground_truth",
        "truth",
        "regenerate_degenerate",
    },
    "gaussian_folds": GAUSSIAN_FOLDS_KEYS,
    "bivariate_normal": set(_DIRECT_KEYS),
}


@dataclass(frozen=True)
class SimulatedComparison:
    """Cross-validation results of two learners on ``q`` simulated data sets.

    Attributes
    ----------
    diffs : numpy.ndarray
        ``(q, m*k)`` fold-level differences ``acc_a - acc_b`` (fractions), run-major.
    acc_a, acc_b : numpy.ndarray
        ``(q, m*k)`` fold-level accuracies (NaN where the differences are drawn directly).
    rho : numpy.ndarray
        ``(q,)`` mean test-fold size over data set size (``1/k``); for
        ``gaussian_folds``, the correlation the differences were drawn with.
    true_delta : numpy.ndarray
        ``(q,)`` the known accuracy difference of each data set: the population
        difference of the two classifiers as given by the generator (for ``bn_vs_zeror``
        ``theta - 0.5``, which exceeds the expected cross-validated difference on small
        data sets; see the module docstring).
    n_instances : numpy.ndarray
        ``(q,)`` data set sizes.
    n_regenerated : int
        Data sets redrawn because all their differences were zero.
    labels : tuple of str
        For the ``friedman`` generator, the setting id of each data set; empty otherwise.
    """

    diffs: np.ndarray
    acc_a: np.ndarray
    acc_b: np.ndarray
    rho: np.ndarray
    true_delta: np.ndarray
    n_instances: np.ndarray
    n_regenerated: int
    labels: tuple[str, ...] = ()

    @property
    def mean_diffs(self) -> np.ndarray:
        """``(q,)`` per-data-set means of ``diffs``, exactly 0 where the folds cancel.

        The input of the tests on data-set means (signed-rank, sign, Bayesian signed-rank):
        see :func:`cvcompare.io.mean_differences` for the rounding noise it removes.
        """
        return mean_differences(self.diffs)


def _require_mapping(value: object, key: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise TypeError(f"{key}: expected a mapping, got {value!r}")
    return value


def _check_keys(mapping: Mapping, allowed: set[str], where: str) -> None:
    unknown = sorted(set(mapping) - allowed)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(allowed)}")


def _check_bool(value: object, key: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{key}: expected true or false, got {value!r}")
    return value


def _regenerate(gen_spec: Mapping, default: bool) -> bool:
    return _check_bool(
        gen_spec.get("regenerate_degenerate", default), "generator.regenerate_degenerate"
    )


def _still_degenerate(what: str) -> RuntimeError:
    return RuntimeError(
        f"regenerate_degenerate: {what} still gave all-zero differences after "
        f"{MAX_REGENERATIONS} draws"
    )


def _sizes(spec: object, q: int, gen: np.random.Generator) -> np.ndarray:
    if isinstance(spec, Sequence) and not isinstance(spec, str):
        if len(spec) == 0:
            raise ValueError("n_instances: expected a non-empty list of sizes")
        choices = np.array([check_int(v, "n_instances", minimum=2) for v in spec])
        return gen.choice(choices, size=q)
    return np.full(q, check_int(spec, "n_instances", minimum=2))


def _cv_design(scenario: Mapping) -> tuple[int, int]:
    cv = _require_mapping(scenario.get("cv", {}), "cv")
    _check_keys(cv, {"runs", "folds", "stratify"}, "cv")
    return check_int(cv.get("runs", 10), "cv.runs", minimum=1), check_int(
        cv.get("folds", 10), "cv.folds", minimum=2
    )


def _stack(results: list[PairedCVResult]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    acc_a = np.concatenate([r.acc_a for r in results])
    acc_b = np.concatenate([r.acc_b for r in results])
    rho = np.concatenate([r.rho for r in results])
    return acc_a, acc_b, rho


@dataclass(frozen=True)
class _BinaryPlan:
    """A checked scenario of the ``nb_features`` or ``bn_vs_zeror`` generator."""

    name: str
    runs: int
    folds: int
    dist: object
    alpha: int
    theta_star: float
    regenerate: bool
    size_spec: object
    negative: str
    stratify: bool = True


def _binary_plan(gen_spec: Mapping, scenario: Mapping) -> _BinaryPlan:
    name = gen_spec["name"]
    runs, folds = _cv_design(scenario)
    if "delta" not in scenario:
        raise ValueError(f"delta: required by the {name!r} generator")
    dist = delta_distribution(_require_mapping(scenario["delta"], "delta"))
    alpha = check_int(gen_spec.get("alpha", 1), "generator.alpha", minimum=1)
    theta_star, negative = float("nan"), "swap"
    if name == "nb_features":
        theta_star = check_theta_star(gen_spec.get("theta_star", 0.9))
        regenerate = _regenerate(gen_spec, True)
        size_spec = scenario.get("n_instances", 500)
    else:
        negative = gen_spec.get("negative_delta", "swap")
        if negative not in ("swap", "error"):
            raise ValueError(
                f"generator.negative_delta: expected 'swap' or 'error', got {negative!r}"
            )
        regenerate = _regenerate(gen_spec, False)
        if "n_instances" not in scenario:
            raise ValueError("n_instances: required by the 'bn_vs_zeror' generator")
        size_spec = scenario["n_instances"]
    sizes = (
        size_spec
        if isinstance(size_spec, Sequence) and not isinstance(size_spec, str)
        else [size_spec]
    )
    if len(sizes) == 0:
        raise ValueError("n_instances: expected a non-empty list of sizes")
    smallest = min(check_int(v, "n_instances", minimum=2) for v in sizes)
    check_cv_design(runs, folds, smallest)
    stratify = _check_bool(scenario.get("cv", {}).get("stratify", True), "cv.stratify")
    plan = _BinaryPlan(
        name, runs, folds, dist, alpha, theta_star, regenerate, size_spec, negative, stratify
    )
    return plan


#: The largest probability of a draw the generator cannot realise that a file may leave:
#: at most 1 in 10,000 even for a campaign of a million draws of ``delta_i``.
_MAX_MASS_OUTSIDE = 1e-10


def _last_float(ok: Callable[[float], bool], inside: float, outside: float) -> float:
    """The float nearest ``outside`` for which ``ok`` holds, by bisection between a float
    where the monotone ``ok`` holds (``inside``) and one where it does not (``outside``)."""
    while (middle := (inside + outside) / 2) not in (inside, outside):
        inside, outside = (middle, outside) if ok(middle) else (inside, middle)
    return inside


def _realisable_interval(plan: _BinaryPlan) -> tuple[float, float, str]:
    """The closed interval of differences the plan's generator realises, and its text.

    For ``nb_features`` the ends are the floats that :func:`~.generators.nb_theta_g`
    accepts (``theta* - delta`` in (0.5, 1] as computed), so that a cap at ``theta* - 1``
    counts as inside whatever its rounding.
    """
    if plan.name == "nb_features":
        theta = plan.theta_star

        def ok(d: float) -> bool:
            return 0.5 < theta - d <= 1.0

        middle = theta - 0.75  # theta* - delta = 0.75: inside
        low, high = _last_float(ok, middle, theta - 2), _last_float(ok, middle, theta)
        return low, high, f"[{theta - 1:g}, {theta - 0.5:g}) (theta_star = {theta:g})"
    if plan.negative == "error":
        return 0.0, 0.5, "[0, 0.5] (negative_delta: error)"
    return -0.5, 0.5, "[-0.5, 0.5] (theta = 0.5 + |delta| <= 1)"


def _check_support(plan: _BinaryPlan) -> None:
    """Refuse, when the file loads, a distribution whose draws the generator cannot realise.

    A fixed difference outside the generator's range is refused as a draw would be; any
    other distribution is refused when more than :data:`_MAX_MASS_OUTSIDE` of its draws
    fall outside (the exact tail mass, :meth:`~.deltas.DeltaDistribution.mass_outside`).
    """
    if isinstance(plan.dist, FixedDelta):
        _check_realisable(plan, np.array([plan.dist.value]))
        return
    low, high, text = _realisable_interval(plan)
    mass = plan.dist.mass_outside(low, high)
    if mass > _MAX_MASS_OUTSIDE:
        raise ValueError(
            f"delta: the {plan.name!r} generator can only realise differences in {text}, "
            f"and {mass:.3g} of the draws of {plan.dist} fall outside it (at most "
            f"{_MAX_MASS_OUTSIDE:g} allowed); give the distribution a cap within that range "
            "(a pair [low, high] where the range is not symmetric about 0) or make it narrower"
        )


def _check_realisable(plan: _BinaryPlan, delta: np.ndarray) -> None:
    """Refuse true differences ``delta`` that the plan's generator cannot realise."""
    low, high, text = _realisable_interval(plan)
    bad = (delta < low) | (delta > high)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"delta: the {plan.name!r} generator can only realise differences in {text}; got "
            f"delta[{i}] = {delta[i]:g} ({int(bad.sum())} value(s) outside); choose values "
            "within that range, or a distribution with a cap"
        )


def _binary_comparison(plan: _BinaryPlan, q: int, gen: np.random.Generator) -> SimulatedComparison:
    name, runs, folds, alpha = plan.name, plan.runs, plan.folds, plan.alpha
    theta_star, regenerate = plan.theta_star, plan.regenerate
    cv_args = {"runs": runs, "folds": folds, "alpha": alpha, "stratify": plan.stratify}
    delta = plan.dist.sample(q, gen)
    sizes = _sizes(plan.size_spec, q, gen)
    _check_realisable(plan, delta)  # before simulating

    def simulate(n: int, d: np.ndarray) -> PairedCVResult:
        if name == "nb_features":
            data = nb_features_data(n, d, gen, theta_star=theta_star)
            return paired_cv_binary(data, 0, 1, rng=gen, **cv_args)
        data = bn_data(n, 0.5 + np.abs(d), gen)
        res = paired_cv_binary(data, 0, ZERO_R, rng=gen, **cv_args)
        swap = (d < 0)[:, None]
        return PairedCVResult(
            acc_a=np.where(swap, res.acc_b, res.acc_a),
            acc_b=np.where(swap, res.acc_a, res.acc_b),
            n_test=res.n_test,
            n_total=res.n_total,
        )

    acc_a = np.empty((q, runs * folds))
    acc_b = np.empty((q, runs * folds))
    rho = np.empty(q)
    n_regenerated = 0
    for n in np.unique(sizes):
        rows = np.flatnonzero(sizes == n)
        res = simulate(int(n), delta[rows])
        acc_a[rows], acc_b[rows], rho[rows] = res.acc_a, res.acc_b, res.rho
        if not regenerate:
            continue
        for _ in range(MAX_REGENERATIONS):
            degenerate = rows[np.all(acc_a[rows] == acc_b[rows], axis=1)]
            if degenerate.size == 0:
                break
            n_regenerated += degenerate.size
            res = simulate(int(n), delta[degenerate])
            acc_a[degenerate], acc_b[degenerate], rho[degenerate] = res.acc_a, res.acc_b, res.rho
        else:
            raise _still_degenerate(f"data sets of size {n}")
    return SimulatedComparison(
        diffs=acc_a - acc_b,
        acc_a=acc_a,
        acc_b=acc_b,
        rho=rho,
        true_delta=delta,
        n_instances=sizes,
        n_regenerated=n_regenerated,
    )


@dataclass(frozen=True)
class _FriedmanPlan:
    """A checked scenario of the ``friedman`` generator."""

    runs: int
    folds: int
    learners: tuple[str, str]
    regenerate: bool
    pool: tuple
    per_function: int | None
    truth: Mapping
    design: TruthDesign | None


def _friedman_plan(gen_spec: Mapping, scenario: Mapping, q: int) -> _FriedmanPlan:
    for key in ("delta", "n_instances"):
        if key in scenario:
            raise ValueError(f"{key}: not used by the 'friedman' generator (settings fix it)")
    runs, folds = _cv_design(scenario)
    if "stratify" in scenario.get("cv", {}):
        raise ValueError("cv.stratify: the 'friedman' generator always uses stratified folds")
    learners = tuple(gen_spec.get("learners", ("lda", "cart")))
    if len(learners) != 2:
        raise ValueError(f"generator.learners: expected two learner names, got {learners!r}")
    for name in learners:
        if name not in FRIEDMAN_LEARNERS:
            raise ValueError(
                f"generator.learners: expected names from {sorted(FRIEDMAN_LEARNERS)}, got {name!r}"
            )
    regenerate = _regenerate(gen_spec, False)
    all_settings = {s.id: s for s in friedman_settings()}
    ids = gen_spec.get("settings", list(all_settings))
    unknown = [s for s in ids if s not in all_settings]
    if unknown:
        raise ValueError(f"generator.settings: unknown setting id(s) {unknown[:5]}")
    pool = tuple(all_settings[s] for s in ids)
    per = None
    if "per_function" in gen_spec:
        per = check_int(gen_spec["per_function"], "generator.per_function", minimum=1)
        if q != 3 * per:
            raise ValueError(f"q: expected 3 * per_function = {3 * per} data sets, got {q}")
        for f in (1, 2, 3):
            available = sum(s.function == f for s in pool)
            if available < per:
                raise ValueError(
                    f"generator.per_function: {per} settings of F#{f} requested but the pool "
                    f"has {available}"
                )
    elif q > len(pool):
        raise ValueError(f"q: at most {len(pool)} settings in the pool, got {q}")
    truth = _require_mapping(gen_spec.get("ground_truth", {}), "generator.ground_truth")
    design = None
    if "truth" in gen_spec:
        design_spec = _require_mapping(gen_spec["truth"], "generator.truth")
        _check_keys(design_spec, {"repetitions", "n_test"}, "generator.truth")
        design = TruthDesign(
            learners=learners,
            repetitions=check_int(
                design_spec.get("repetitions", 500), "generator.truth.repetitions", minimum=2
            ),
            n_test=check_int(design_spec.get("n_test", 5000), "generator.truth.n_test", minimum=1),
        )
    return _FriedmanPlan(runs, folds, learners, regenerate, pool, per, truth, design)


def _friedman_comparison(
    plan: _FriedmanPlan, q: int, gen: np.random.Generator, ground_truth: Mapping | None
) -> SimulatedComparison:
    runs, folds, learners, regenerate = plan.runs, plan.folds, plan.learners, plan.regenerate
    pool, per = list(plan.pool), plan.per_function
    if per is not None:
        chosen = []
        for f in (1, 2, 3):
            candidates = [s for s in pool if s.function == f]
            chosen += [candidates[i] for i in gen.choice(len(candidates), per, replace=False)]
    else:
        chosen = [pool[i] for i in gen.choice(len(pool), q, replace=False)]

    truth = dict(plan.truth)
    truth.update(_require_mapping(ground_truth or {}, "ground_truth"))
    missing = [s.id for s in chosen if s.id not in truth]
    if missing:
        raise ValueError(
            f"ground_truth: no true difference for setting(s) {missing[:5]}; compute them "
            "with friedman_ground_truth and pass them as generator.ground_truth or the "
            "ground_truth argument"
        )
    true_delta = np.array(
        [t.delta if isinstance(t, GroundTruth) else float(t) for t in (truth[s.id] for s in chosen)]
    )
    make_a, make_b = (make_learner(name) for name in learners)
    results, n_regenerated = [], 0
    for setting in chosen:
        for _ in range(MAX_REGENERATIONS):
            X, y = friedman_data(setting, gen)
            res = paired_cv_estimators(X, y, make_a, make_b, runs=runs, folds=folds, rng=gen)
            if not (regenerate and np.all(res.diffs == 0)):
                break
            n_regenerated += 1
        else:
            raise _still_degenerate(f"setting {setting.id}")
        results.append(res)
    acc_a, acc_b, rho = _stack(results)
    return SimulatedComparison(
        diffs=acc_a - acc_b,
        acc_a=acc_a,
        acc_b=acc_b,
        rho=rho,
        true_delta=true_delta,
        n_instances=np.array([s.n for s in chosen]),
        n_regenerated=n_regenerated,
        labels=tuple(s.id for s in chosen),
    )


def simulate_comparison(
    scenario: Mapping, q: int, rng: RngLike, *, ground_truth: Mapping | None = None
) -> SimulatedComparison:
    """Simulate ``q`` data sets of a scenario and cross-validate two learners on each.

    Parameters
    ----------
    scenario : Mapping
        See the module docstring for the keys of each generator.
    q : int
        Number of data sets (>= 1).
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness.
    ground_truth : Mapping, optional
        ``friedman`` generator only: setting id -> true difference (a float or a
        :class:`~.friedman.GroundTruth`), e.g. loaded from a cache of
        :func:`~.friedman.friedman_ground_truth` results.

    Returns
    -------
    SimulatedComparison

    References
    ----------
    Corani et al. (2017), Sec. 4, 4.7 and App. 6.1; Corani & Benavoli (2015), Sec. 4.

    Examples
    --------
    >>> sim = simulate_comparison(
    ...     {"generator": {"name": "nb_features"},
    ...      "delta": {"distribution": "fixed", "value": 0.02},
    ...      "cv": {"runs": 10, "folds": 10}}, q=3, rng=7)
    >>> sim.diffs.shape
    (3, 100)
    """
    q = check_int(q, "q", minimum=1)
    plan = _plan(scenario, q)
    gen = as_generator(rng)
    if isinstance(plan, _FriedmanPlan):
        return _friedman_comparison(plan, q, gen, ground_truth)
    if ground_truth is not None:
        name = scenario["generator"]["name"]
        raise ValueError(f"ground_truth: only used by the 'friedman' generator, not {name!r}")
    if isinstance(plan, GaussianFoldsPlan):
        return SimulatedComparison(**plan.draw(gen))
    if isinstance(plan, BivariateNormalPlan):
        return plan.simulate(q, gen)
    return _binary_comparison(plan, q, gen)


def _plan(
    scenario: Mapping, q: int
) -> _BinaryPlan | _FriedmanPlan | BivariateNormalPlan | GaussianFoldsPlan:
    scenario = _require_mapping(scenario, "scenario")
    _check_keys(scenario, _TOP_KEYS, "scenario")
    if "generator" not in scenario:
        raise ValueError("generator: missing; expected a mapping with a 'name' key")
    gen_spec = _require_mapping(scenario["generator"], "generator")
    name = gen_spec.get("name")
    check_choice(name, "generator.name", sorted(GENERATOR_KEYS))
    _check_keys(gen_spec, GENERATOR_KEYS[name] | {"name"}, "generator")
    if name == "friedman":
        return _friedman_plan(gen_spec, scenario, q)
    if name == "gaussian_folds":
        if "stratify" in scenario.get("cv", {}):
            raise ValueError("cv.stratify: the 'gaussian_folds' generator has no folds to stratify")
        return gaussian_folds_plan(gen_spec, scenario, q, _cv_design(scenario))
    if name == "bivariate_normal":
        return bivariate_normal_plan(gen_spec, scenario)
    return _binary_plan(gen_spec, scenario)


def required_ground_truth(scenario: Mapping, q: int) -> tuple[TruthDesign, tuple[str, ...]] | None:
    """The ground truth a scenario needs from outside, if any.

    Parameters
    ----------
    scenario : Mapping
        As for :func:`simulate_comparison`.
    q : int
        Number of data sets.

    Returns
    -------
    tuple or None
        For a ``friedman`` scenario with a ``truth`` design: the design and the ids of the
        settings of the pool, whose true differences must be passed as the
        ``ground_truth`` argument of :func:`simulate_comparison`; None otherwise.
    """
    plan = _plan(scenario, check_int(q, "q", minimum=1))
    if not isinstance(plan, _FriedmanPlan) or plan.design is None:
        return None
    return plan.design, tuple(s.id for s in plan.pool)


def check_scenario(scenario: Mapping, q: int) -> None:
    """Check a scenario completely without simulating anything.

    Every key, the generator's settings, the delta distribution and the cross-validation
    design are checked exactly as :func:`simulate_comparison` checks them, so an experiment
    file can be refused when it is loaded rather than in every simulation job; and, what a
    simulation only finds when a draw falls outside, that the generator realises all but
    1e-10 of the delta distribution's draws (its exact tail mass).

    Parameters
    ----------
    scenario : Mapping
        As for :func:`simulate_comparison`.
    q : int
        Number of data sets, >= 1.

    Raises
    ------
    ValueError, TypeError
        Naming the scenario entry and what was expected; in particular a ``friedman``
        scenario must either declare its ``truth`` design or give the true difference of
        every setting of its pool in ``ground_truth`` (a file has no other way to); a delta
    distribution that puts more than 1e-10 of its draws outside what the generator can
    realise.
    """
    plan = _plan(scenario, check_int(q, "q", minimum=1))
    if isinstance(plan, _BinaryPlan):  # here, not per replication: its tails cost ~0.5 ms
        _check_support(plan)
    if isinstance(plan, _FriedmanPlan) and plan.design is None:
        missing = [s.id for s in plan.pool if s.id not in plan.truth]
        if missing:
            raise ValueError(
                f"generator.truth: required (e.g. {{repetitions: 500, n_test: 5000}}) unless "
                f"generator.ground_truth gives every setting of the pool; missing {missing[:3]}"
            )
