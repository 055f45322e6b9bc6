"""Friedman's benchmark functions as classification problems, and LDA vs CART on them.

Friedman (1991) defines three regression functions (the same as R's ``mlbench`` and
scikit-learn's ``make_friedman1/2/3``). Corani et al. (2017), Sec. 4.7, turn each into a
binary problem by thresholding ``y`` at its median, estimated once per function on 10,000
instances, and vary noise sd, sample size and the number of added standard-normal
features over 54 settings (Table 4). The true difference of accuracy between LDA and CART
in a setting is measured on fresh data (:func:`friedman_ground_truth`).

The median of each function is estimated with the function's original noise sd (1, 125,
0.1) from a fixed seed (:data:`MEDIAN_SEED`), so it is the same in every replication.

References
----------
Friedman, J. H. (1991), *Multivariate adaptive regression splines*, Ann. Statist. 19(1).
Corani, Benavoli, Demšar, Mangili & Zaffalon (2017), Sec. 4.7 and Table 4.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from .._validation import check_choice, check_int, check_non_negative
from ..seeding import RngLike, as_generator, replication_rng
from .lda import LinearDiscriminant
from .pruned_tree import OneSETreeClassifier

__all__ = [
    "FRIEDMAN_LEARNERS",
    "MEDIAN_SEED",
    "FriedmanSetting",
    "GroundTruth",
    "TruthDesign",
    "friedman_data",
    "friedman_ground_truth",
    "friedman_median",
    "friedman_regression",
    "friedman_settings",
    "load_ground_truth",
    "make_learner",
]

#: Seed of the 10,000 instances on which each function's median is estimated.
MEDIAN_SEED = 19910301
_ORIGINAL_NOISE = {1: 1.0, 2: 125.0, 3: 0.1}
_N_BASE_FEATURES = {1: 10, 2: 4, 3: 4}


@dataclass(frozen=True)
class FriedmanSetting:
    """One setting of Table 4: function, noise sd, sample size, added random features.

    Parameters
    ----------
    function : int
        Friedman's function: 1, 2 or 3.
    noise : float
        Standard deviation of the Gaussian noise added to the response, finite and >= 0.
    n : int
        Number of training instances, >= 2.
    n_random : int
        Number of added standard-normal features, >= 0.

    Raises
    ------
    TypeError
        If ``function``, ``n`` or ``n_random`` is not an integer, or ``noise`` is not a
        real number (booleans and strings are refused).
    ValueError
        If a value is out of range, or ``noise`` is NaN or infinite.
    """

    function: int
    noise: float
    n: int
    n_random: int

    def __post_init__(self) -> None:
        if check_int(self.function, "function") not in (1, 2, 3):
            raise ValueError(f"function: expected 1, 2 or 3, got {self.function!r}")
        check_int(self.n, "n", minimum=2)
        check_int(self.n_random, "n_random", minimum=0)
        check_non_negative(self.noise, "noise")

    @property
    def id(self) -> str:
        """A stable label, e.g. ``"F1_sd1_n100_r20"``."""
        return f"F{self.function}_sd{self.noise:g}_n{self.n}_r{self.n_random}"


def friedman_settings() -> list[FriedmanSetting]:
    """The 54 settings of Corani et al. (2017), Table 4 (18 per function).

    Noise sd: half, once and twice the original (1, 125, 0.1); ``n`` in {30, 100, 1000};
    0 or 20 added standard-normal features.

    Returns
    -------
    list of FriedmanSetting
        54 settings, ordered by function, noise, ``n``, then ``n_random``.
    """
    return [
        FriedmanSetting(function=f, noise=factor * _ORIGINAL_NOISE[f], n=n, n_random=r)
        for f in (1, 2, 3)
        for factor in (0.5, 1.0, 2.0)
        for n in (30, 100, 1000)
        for r in (0, 20)
    ]


def friedman_regression(X: np.ndarray, function: int) -> np.ndarray:
    """Noise-free value of Friedman's function ``function`` on the base features ``X``.

    ``F#1 = 10 sin(pi x1 x2) + 20 (x3 - 0.5)^2 + 10 x4 + 5 x5``;
    ``F#2 = sqrt(x1^2 + (x2 x3 - 1 / (x2 x4))^2)``;
    ``F#3 = arctan((x2 x3 - 1 / (x2 x4)) / x1)``.

    Parameters
    ----------
    X : numpy.ndarray, shape (n, p)
        The base features: ``p = 10`` for F#1 (only the first five enter the function),
        ``p = 4`` for F#2 and F#3.
    function : int
        1, 2 or 3.

    Returns
    -------
    numpy.ndarray, shape (n,)
        The response without noise.

    Raises
    ------
    ValueError
        If ``function`` is not 1, 2 or 3.
    """
    if function == 1:
        return (
            10 * np.sin(np.pi * X[:, 0] * X[:, 1])
            + 20 * (X[:, 2] - 0.5) ** 2
            + 10 * X[:, 3]
            + 5 * X[:, 4]
        )
    inner = X[:, 1] * X[:, 2] - 1.0 / (X[:, 1] * X[:, 3])
    if function == 2:
        return np.sqrt(X[:, 0] ** 2 + inner**2)
    if function == 3:
        return np.arctan(inner / X[:, 0])
    raise ValueError(f"function: expected 1, 2 or 3, got {function!r}")


def _base_features(gen: np.random.Generator, n: int, function: int) -> np.ndarray:
    if function == 1:
        return gen.random((n, _N_BASE_FEATURES[function]))
    u = gen.random((n, _N_BASE_FEATURES[function]))
    low = np.array([0.0, 40 * np.pi, 0.0, 1.0])
    high = np.array([100.0, 560 * np.pi, 1.0, 11.0])
    return low + u * (high - low)


def _regression_sample(
    gen: np.random.Generator, n: int, function: int, noise: float
) -> tuple[np.ndarray, np.ndarray]:
    X = _base_features(gen, n, function)
    return X, friedman_regression(X, function) + noise * gen.standard_normal(n)


@functools.cache
def friedman_median(function: int) -> float:
    """The class threshold of a function: the median of ``y`` over 10,000 instances.

    Uses the function's original noise sd and the fixed seed :data:`MEDIAN_SEED`, so it is
    computed once.
    """
    gen = np.random.default_rng(MEDIAN_SEED)
    _, y = _regression_sample(gen, 10_000, function, _ORIGINAL_NOISE[function])
    return float(np.median(y))


def friedman_data(
    setting: FriedmanSetting, rng: RngLike, *, n: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Sample a classification data set of a setting.

    Parameters
    ----------
    setting : FriedmanSetting
        The function, noise and number of added random features.
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of randomness.
    n : int, optional
        Number of instances; ``setting.n`` by default (a larger ``n`` draws a test set).

    Returns
    -------
    X : numpy.ndarray
        ``(n, p)``: the base features (10 for F#1, 4 for F#2/F#3) then ``n_random``
        standard-normal features.
    y : numpy.ndarray
        ``(n,)`` class, 1 when the noisy response exceeds the function's median.
    """
    gen = as_generator(rng)
    n = setting.n if n is None else check_int(n, "n", minimum=1)
    X, y = _regression_sample(gen, n, setting.function, setting.noise)
    if setting.n_random:
        X = np.hstack([X, gen.standard_normal((n, setting.n_random))])
    return X, (y > friedman_median(setting.function)).astype(np.int8)


def _make_lda(gen: np.random.Generator) -> LinearDiscriminant:
    return LinearDiscriminant()


def _make_cart(gen: np.random.Generator) -> OneSETreeClassifier:
    return OneSETreeClassifier(rng=gen)


#: Learners of the Friedman experiments: ``name -> factory(generator) -> estimator``.
FRIEDMAN_LEARNERS: Mapping = {"lda": _make_lda, "cart": _make_cart}


def make_learner(name: str):
    """Factory of a Friedman learner by name (``"lda"`` or ``"cart"``).

    Parameters
    ----------
    name : str
        A key of :data:`FRIEDMAN_LEARNERS`.

    Returns
    -------
    callable
        ``factory(generator) -> estimator``: a new, unfitted :class:`LinearDiscriminant`
        or :class:`OneSETreeClassifier` (the tree drawing from the generator).

    Raises
    ------
    ValueError
        If ``name`` is not a known learner.
    """
    check_choice(name, "learner", sorted(FRIEDMAN_LEARNERS))
    return FRIEDMAN_LEARNERS[name]


@dataclass(frozen=True)
class GroundTruth:
    """The true difference of accuracy of two learners in one setting.

    Attributes
    ----------
    delta : float
        Mean over repetitions of ``acc_a - acc_b`` on a fresh test set.
    std_err : float
        Its Monte Carlo standard error (sd of the repetitions / sqrt(repetitions)).
    repetitions : int
        Number of repetitions averaged.
    """

    delta: float
    std_err: float
    repetitions: int


def friedman_ground_truth(
    setting: FriedmanSetting,
    rng: RngLike,
    *,
    learners: tuple[str, str] = ("lda", "cart"),
    repetitions: int = 500,
    n_test: int = 5000,
) -> GroundTruth:
    """Measure the true accuracy difference of two learners in a setting.

    Each repetition trains both learners on a fresh sample of ``setting.n`` instances and
    tests them on ``n_test`` fresh instances.

    Parameters
    ----------
    setting : FriedmanSetting
        The function, noise, training-sample size and added random features.
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        Source of the samples and of the learners' randomness.
    learners : tuple of str, default ("lda", "cart")
        The two learners (keys of :data:`FRIEDMAN_LEARNERS`); the difference is the first's
        accuracy minus the second's.
    repetitions : int, default 500
        Number of repetitions (at least 2).
    n_test : int, default 5000
        Number of test instances of each repetition.

    Returns
    -------
    GroundTruth
        The mean difference of accuracy over the repetitions and its Monte Carlo standard
        error.

    References
    ----------
    Corani et al. (2017), Sec. 4.7, "Measuring delta_i" (500 repetitions, 5000 test
    instances).
    """
    repetitions = check_int(repetitions, "repetitions", minimum=2)
    n_test = check_int(n_test, "n_test", minimum=1)
    make_a, make_b = (make_learner(name) for name in learners)
    gen = as_generator(rng)
    diffs = np.empty(repetitions)
    for j in range(repetitions):
        X, y = friedman_data(setting, gen)
        X_test, y_test = friedman_data(setting, gen, n=n_test)
        acc = [np.mean(make(gen).fit(X, y).predict(X_test) == y_test) for make in (make_a, make_b)]
        diffs[j] = acc[0] - acc[1]
    return GroundTruth(
        delta=float(diffs.mean()),
        std_err=float(diffs.std(ddof=1) / np.sqrt(repetitions)),
        repetitions=repetitions,
    )


@dataclass(frozen=True)
class TruthDesign:
    """How the true differences of a Friedman experiment are measured.

    The ground truth of a setting depends only on this design, the setting and the root
    seed (not on the fidelity of the experiment that uses it), so it is computed once
    per setting and reused: the workflow caches one file per setting, keyed by these
    values.

    Attributes
    ----------
    learners : tuple of str
        The two learners; the difference is ``acc(learners[0]) - acc(learners[1])``.
    repetitions : int
        Training samples per setting (500 in Corani et al. 2017, Sec. 4.7).
    n_test : int
        Fresh test instances per repetition (5000).
    """

    learners: tuple[str, str] = ("lda", "cart")
    repetitions: int = 500
    n_test: int = 5000

    def __post_init__(self) -> None:
        if len(self.learners) != 2 or any(n not in FRIEDMAN_LEARNERS for n in self.learners):
            raise ValueError(
                f"learners: expected two names from {sorted(FRIEDMAN_LEARNERS)}, "
                f"got {self.learners!r}"
            )
        check_int(self.repetitions, "repetitions", minimum=2)
        check_int(self.n_test, "n_test", minimum=1)

    def rng(self, root_seed: int, setting_id: str) -> np.random.Generator:
        """The random stream of a setting's ground truth, keyed by learners and setting.

        Parameters
        ----------
        root_seed : int
            The project's root seed, >= 0.
        setting_id : str
            :attr:`FriedmanSetting.id` of the setting.

        Returns
        -------
        numpy.random.Generator
            :func:`~cvcompare.seeding.replication_rng` of ``root_seed`` and the keys
            ``("friedman_ground_truth", *learners, setting_id)``.
        """
        return replication_rng(root_seed, "friedman_ground_truth", *self.learners, setting_id)

    def measure(self, setting: FriedmanSetting, root_seed: int) -> GroundTruth:
        """Measure the ground truth of ``setting`` (:func:`friedman_ground_truth`).

        Parameters
        ----------
        setting : FriedmanSetting
            The setting.
        root_seed : int
            The project's root seed, >= 0; the stream is :meth:`rng`.

        Returns
        -------
        GroundTruth
            The mean of ``acc(learners[0]) - acc(learners[1])`` over the repetitions and
            its standard error.
        """
        return friedman_ground_truth(
            setting,
            self.rng(root_seed, setting.id),
            learners=self.learners,
            repetitions=self.repetitions,
            n_test=self.n_test,
        )

    def write(self, truth: GroundTruth, setting: FriedmanSetting, path: str | Path) -> None:
        """Write one setting's ground truth as JSON (with the design it came from).

        Parameters
        ----------
        truth : GroundTruth
            The measured truth.
        setting : FriedmanSetting
            Its setting, recorded by :attr:`~FriedmanSetting.id`.
        path : str or pathlib.Path
            The file, replaced if it exists.
        """
        record = {"setting": setting.id, **asdict(truth), "design": asdict(self)}
        Path(path).write_text(json.dumps(record, indent=1) + "\n")


def load_ground_truth(paths: Iterable[str | Path]) -> dict[str, GroundTruth]:
    """Read ground-truth files written by :meth:`TruthDesign.write`.

    The design recorded in each file is not read back or checked, because the path of a
    file already fixes it. The workflow writes the truth of a setting under
    ``results/ground_truth/`` at

    ``friedman/{learner_a}-{learner_b}/reps~{repetitions}/test~{n_test}/seed~{seed}/{setting}.json``

    and builds the :class:`TruthDesign` it measures (and records) from those same parts
    of the path; a scenario reads the paths built from the design it declares and the
    root seed. A file measured under another design or root seed (the seed is not even
    recorded) lies at another path, so a file left from earlier settings is never read in
    place of the one asked for, and the setting id in a file is the one in its name.
    Files gathered in some other way must share one design: this function cannot tell.

    Parameters
    ----------
    paths : iterable of str or pathlib.Path
        The files.

    Returns
    -------
    dict of str to GroundTruth
        Setting id -> truth; a setting found in several files keeps the last one.
    """
    out = {}
    for path in paths:
        record = json.loads(Path(path).read_text())
        out[record["setting"]] = GroundTruth(
            delta=float(record["delta"]),
            std_err=float(record["std_err"]),
            repetitions=int(record["repetitions"]),
        )
    return out
