"""Every test of the package on a user's fold-level results: two learners or all pairs.

:func:`compare_learners` runs, for each pair of learners, the per-data-set correlated
t-tests (frequentist and Bayesian), the Poisson-binomial test, the Wilcoxon signed-rank and
sign tests (with Holm-adjusted p-values across the pairs), the Bayesian signed-rank and sign
tests with a rope, the IDP signed-rank test and the hierarchical model; with three or more
learners also the Friedman / Iman-Davenport / Nemenyi procedure. It returns the results
themselves (the library's result objects); :mod:`cvcompare.report.render` writes them out.

Differences are first learner minus second after orienting the scores so that higher is
better (``higher_is_better=False`` negates losses such as RMSE): *right* means that the
first learner is better. The Monte Carlo streams are keyed by ``(seed, first, second,
test)`` exactly as in ``cvcompare compare``, so both give the same numbers for a pair.

References
----------
Corani & Benavoli (2015), Secs. 2-3; Benavoli et al. (2014); Benavoli et al. (2017), Sec. 5;
Corani et al. (2017), Sec. 3; Demsar (2006), Secs. 3.1-3.2; Holm (1979).
"""

from __future__ import annotations

import itertools
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd
from tqdm import tqdm

from cvcompare import __version__
from cvcompare._validation import (
    check_bool,
    check_choice,
    check_int,
    check_rho,
    check_scaled_rope,
    check_test_size,
    check_two_sided_threshold,
)
from cvcompare.hierarchical import HierarchicalResult, fit_with_remedy
from cvcompare.hierarchical.priors import has_scale
from cvcompare.io import (
    fold_differences,
    mean_differences,
    mean_score_matrix,
    pair_score_sizes,
    select_learners,
)
from cvcompare.seeding import replication_seed_sequence
from cvcompare.stats import (
    CorrelatedTPosterior,
    CorrelatedTTestResult,
    DPSignedRankPosterior,
    FriedmanResult,
    IDPSignedRankPosterior,
    NemenyiResult,
    PoissonBinomialResult,
    SignedRankPosterior,
    SignedRankTestResult,
    SignPosterior,
    SignTestResult,
    bayesian_correlated_ttest,
    bayesian_sign_test,
    bayesian_signed_rank,
    correlated_ttest,
    dp_signed_rank,
    friedman_test,
    holm_adjust,
    idp_signed_rank,
    nemenyi_test,
    poisson_binomial_test,
    sign_test,
    wilcoxon_test,
)
from cvcompare.stats._results import ReadOnlyArrays
from cvcompare.stats.signed_rank import IDP_DEFAULT_S

__all__ = [
    "TESTS",
    "ComparisonResults",
    "PairResult",
    "Settings",
    "compare_learners",
    "correlated_t_tallies",
    "difference_scale",
    "favoured",
    "holm_floor",
    "idp_verdict",
    "pair_sizes",
    "poisson_verdict",
    "typical_size_range",
    "run_test",
    "seed_key",
    "two_sided_verdict",
]

#: Key of the Monte Carlo streams, shared with ``cvcompare compare``.
SEED_KEY = "cvcompare-compare"


def seed_key(seed: int, first: str, second: str, test: str):
    """The seed sequence of one test on one pair (the same in ``compare`` and ``report``).

    Keyed by the two learners in sorted order, not in the order compared: comparing the
    second with the first draws the same weights, so the tests whose draws weight the data
    sets (the Bayesian signed-rank and sign tests, the DP and IDP) give that comparison's
    probabilities mirrored (left and right exchanged, lower and upper bounds of the
    other's), not merely within their Monte Carlo error.
    """
    return replication_seed_sequence(seed, SEED_KEY, *sorted((first, second)), test)


@dataclass(frozen=True)
class Settings:
    """Everything needed to cite and rerun a comparison.

    Attributes
    ----------
    rho : float
        Correlation of the fold differences (``1/k`` for k-fold cross-validation).
    rho_assumed : bool
        Whether ``rho`` is the default for 10-fold cross-validation, taken because no rho
        was given.
    rope : tuple of float
        Region of practical equivalence, in the unit of the differences.
    alpha : float
        Size of the frequentist tests.
    threshold : float
        Posterior probability above which a Bayesian test decides (0.95).
    seed : int
        Root seed of every Monte Carlo stream and of the Stan sampler.
    n_samples : int
        Monte Carlo draws of the signed-rank, sign and IDP tests.
    scale : str
        ``"fraction"`` (accuracies), ``"percent"`` or ``"raw"`` (any other score).
    higher_is_better : bool
        Whether higher scores are better (False for losses, whose differences are negated).
    hierarchical : bool
        Whether the hierarchical model was fitted.
    chains, warmup, draws : int
        NUTS settings of the hierarchical model (the paper's 4 x (1000 + 1000) by default).
    refits, refit_scale, refit_adapt_delta
        How a hierarchical fit failing its diagnostics is run again, up to ``refits`` times
        (:func:`cvcompare.hierarchical.fit_with_remedy`): each time with warm-up and draws
        multiplied by ``refit_scale`` and NUTS's target acceptance rate raised to the next of
        ``refit_adapt_delta`` (0.95, then 0.99: the divergences that 0.95 leaves on
        posteriors with a sharply curved region, 0.99 usually removes).
    signed_rank_prior : float
        Weight of the pseudo-observation at 0 of the Bayesian signed-rank test (0.5).
    sign_prior : float
        Pseudo-observations of the Bayesian sign test, placed in the rope (1).
    idp_s : float
        Strength of the IDP prior.
    version : str
        Version of cvcompare.
    zero_method : {"drop", "split"}
        What the Wilcoxon signed-rank and sign tests do with data sets without a difference:
        leave them out (as scipy and R do), or split them between the two learners, as
        Demsar (2006, Secs. 3.1.3-3.1.4) advises: the Wilcoxon test ranks them and gives
        half their ranks to each sum (scipy's ``zsplit``, which keeps them all, where Demsar
        leaves one out of an odd number), the sign test half of them to each learner as
        wins, one left out of an odd number.
    """

    rho: float
    rope: tuple[float, float]
    alpha: float
    threshold: float
    seed: int
    n_samples: int
    scale: str
    higher_is_better: bool = True
    hierarchical: bool = True
    rho_assumed: bool = False
    chains: int = 4
    warmup: int = 1000
    draws: int = 1000
    refits: int = 2
    refit_scale: float = 2.0
    refit_adapt_delta: tuple[float, ...] = (0.95, 0.99)
    signed_rank_prior: float = 0.5
    sign_prior: float = 1.0
    idp_s: float = IDP_DEFAULT_S
    version: str = __version__
    zero_method: str = "drop"


#: The verdict of a Bayesian decision (``"right"``, ``"left"``, ``"rope"``) in the words of
#: :meth:`ComparisonResults.to_frame`, which no learner's name can be mistaken for.
_VERDICTS = {"right": "first", "left": "second", "rope": "equivalent"}


def idp_verdict(idp: IDPSignedRankPosterior, threshold: float) -> str:
    """Which learner the IDP test declares better at ``threshold``: ``"first"``,
    ``"second"``, ``"none"`` or ``"indeterminate"`` (the prior decides;
    :meth:`~cvcompare.stats.IDPSignedRankPosterior.decision`)."""
    verdict = idp.decision(threshold)
    return _VERDICTS.get(verdict, verdict)


def poisson_verdict(res: PoissonBinomialResult) -> str:
    """Which learner the Poisson-binomial test declares better: ``"first"``, ``"second"``
    or ``"none"``."""
    if res.decision:
        return "first"
    return "second" if res.decision_negative else "none"


def favoured(side: int) -> str:
    """The learner that a two-sided rank test's statistic favours (its ``side``: the larger
    rank sum, the more wins): ``"first"`` (1), ``"second"`` (-1) or ``"neither"`` (0)."""
    return {1: "first", -1: "second", 0: "neither"}[side]


def two_sided_verdict(favours: str, pvalue: float, alpha: float) -> str:
    """The decision of a two-sided test whose statistic favours ``favours`` (a learner, in
    the words of :func:`favoured` or the command line's): that learner where ``pvalue``
    (Holm-adjusted, where a family of pairs is tested) is below ``alpha``, else
    ``"none"``."""
    return favours if pvalue < alpha else "none"


@dataclass(frozen=True, eq=False)
class PairResult(ReadOnlyArrays):
    """All tests of one pair; ``None`` for a test that needs more data sets than given.

    Attributes
    ----------
    first, second : str
        The learners; differences are first minus second (oriented so that positive is
        better for the first).
    datasets : list of str
    x : numpy.ndarray, shape (q, n_folds)
        Fold differences.
    means : numpy.ndarray, shape (q,)
        Per-data-set mean differences (rounding noise set to 0).
    sizes : numpy.ndarray, shape (q,)
        The size of the pair's scores on each data set, for the rounding tolerance of
        their differences (:func:`pair_sizes`).
    ttests : list of tuple
        ``(CorrelatedTTestResult, CorrelatedTPosterior)`` for each data set.
    poisson : PoissonBinomialResult or None
        The Poisson-binomial test (Corani & Benavoli 2015).
    wilcoxon, sign : SignedRankTestResult, SignTestResult or None
        The frequentist signed-rank and sign tests of the mean differences.
    bayes_signed_rank, bayes_sign : SignedRankPosterior, SignPosterior or None
        The Bayesian signed-rank and sign tests with the rope.
    dp, idp : DPSignedRankPosterior, IDPSignedRankPosterior or None
        The Dirichlet-process signed-rank test with s = 0 and its imprecise version
        (Benavoli et al. 2014).
    hierarchical : HierarchicalResult or None
        The Bayesian hierarchical model (Corani et al. 2017), when asked for and fitted.
    holm : dict of str to float
        Holm-adjusted p-values of the Wilcoxon and sign tests across all pairs.
    holm_floor : dict of str to float
        The smallest Holm-adjusted p-value that the Wilcoxon and sign tests can give to any
        pair on these data sets: the number of pairs times the smallest p-value of any pair
        when every data set favours the same learner (the test of the absolute mean
        differences, ties and zeros as they are), at most 1. Where it is at least alpha, no
        pair can differ significantly by that test (e.g. 8 data sets and 10 pairs: 10 x
        2 / 2^8 = 0.078).
    hierarchical_skipped : str
        Why the hierarchical model was not fitted to this pair although asked for (empty
        otherwise).
    hierarchical_refit : str
        How the kept hierarchical fit was run where the first failed its diagnostics and
        was refitted (:attr:`cvcompare.hierarchical.RefitRecord.remedy`; empty otherwise).
    """

    first: str
    second: str
    datasets: list[str] = field(repr=False)
    x: np.ndarray = field(repr=False)
    means: np.ndarray = field(repr=False)
    sizes: np.ndarray = field(repr=False)
    ttests: list[tuple[CorrelatedTTestResult, CorrelatedTPosterior]] = field(repr=False)
    poisson: PoissonBinomialResult | None = None
    wilcoxon: SignedRankTestResult | None = None
    sign: SignTestResult | None = None
    bayes_signed_rank: SignedRankPosterior | None = None
    bayes_sign: SignPosterior | None = None
    dp: DPSignedRankPosterior | None = None
    idp: IDPSignedRankPosterior | None = None
    hierarchical: HierarchicalResult | None = None
    holm: dict[str, float] = field(default_factory=dict)
    holm_floor: dict[str, float] = field(default_factory=dict)
    hierarchical_skipped: str = ""
    hierarchical_refit: str = ""

    @property
    def q(self) -> int:
        """Number of data sets."""
        return len(self.datasets)

    def learner(self, verdict: str) -> str:
        """The name of the learner a verdict ``"first"`` or ``"second"`` declares better;
        any other verdict (``"none"``, ``"equivalent"``, ``"indeterminate"``) unchanged."""
        return {"first": self.first, "second": self.second}.get(verdict, verdict)

    def two_sided_verdict(self, test: str, alpha: float) -> str:
        """Which learner the two-sided ``test`` (``"wilcoxon"`` or ``"sign"``) declares
        better where its Holm-adjusted p-value is below ``alpha`` (:func:`two_sided_verdict`);
        on two or more data sets."""
        return two_sided_verdict(favoured(getattr(self, test).side), self.holm[test], alpha)


@dataclass(frozen=True, eq=False)
class ComparisonResults(ReadOnlyArrays):
    """The results of :func:`compare_learners`.

    Attributes
    ----------
    learners : list of str
    datasets : list of str
    n_folds : int
    pairs : list of PairResult
    friedman : FriedmanResult or None
        Demsar's statistic (not corrected for ties).
    friedman_ties : FriedmanResult or None
        The same test corrected for ties, where models tie on some data sets.
    nemenyi : NemenyiResult or None
        With three or more learners and two or more data sets.
    settings : Settings
    source : str
        Where the scores came from (a file name), for the report's header.
    reading : tuple of str
        The command-line options with which ``source`` was read (``--scale`` for a CSV,
        ``--duplicates`` for the block format), repeated in the report's rerun command; empty
        when the table was given directly.
    mean_scores : tuple of float
        Each learner's score averaged over its folds and then over the data sets, in the
        order of ``learners`` and the scores' own unit.
    size_range : tuple of float
        For raw scores, the smallest and the largest scale of a data set's scores
        (:func:`typical_size_range`); empty for accuracies.
    dataset_means, dataset_sds : numpy.ndarray or None
        Each learner's mean score over the folds of each data set, and the standard
        deviation of those scores, shape ``(len(datasets), len(learners))`` in the order of
        ``datasets`` and ``learners``, in the scores' own unit.
    """

    learners: list[str]
    datasets: list[str]
    n_folds: int
    pairs: list[PairResult]
    friedman: FriedmanResult | None
    friedman_ties: FriedmanResult | None
    nemenyi: NemenyiResult | None
    settings: Settings
    source: str = ""
    reading: tuple[str, ...] = ()
    mean_scores: tuple[float, ...] = ()
    size_range: tuple[float, ...] = ()
    dataset_means: np.ndarray | None = None
    dataset_sds: np.ndarray | None = None

    def to_frame(self) -> pd.DataFrame:
        """Every test's result on every pair, one row per pair and test.

        The tests across data sets (not the per-data-set correlated t-tests, which are in
        each pair's ``ttests``), pair by pair, each pair's tests in the order below. A pair
        on one data set has no rows.

        Returns
        -------
        pandas.DataFrame
            Columns ``first``, ``second``, ``test`` (``hierarchical``,
            ``bayes_signed_rank``, ``bayes_sign``, ``dp``, ``idp``, ``poisson``,
            ``wilcoxon``, ``sign``) and, where the test gives them (NaN or empty
            elsewhere):

            - ``p_left``, ``p_rope``, ``p_right``: the probabilities that the first learner
              is practically worse, equivalent or better (the tests with a rope); of the
              second or the first being better for ``dp`` and ``poisson`` (no rope; for
              ``poisson``, that it wins fewer or more than half the data sets, so that
              with an even number of them a tie takes the rest);
            - ``p_left_se``, ``p_rope_se``, ``p_right_se``: their Monte Carlo standard
              errors (``hierarchical``, ``bayes_signed_rank``; ``p_left_se`` and
              ``p_right_se`` for ``dp``);
            - ``p_right_lower``, ``p_right_upper``: the IDP's lower and upper probabilities
              that the first learner is better, and ``p_right_lower_se``,
              ``p_right_upper_se`` their Monte Carlo standard errors;
            - ``pvalue``, ``pvalue_holm``: the two-sided p-value and its Holm adjustment
              over the pairs (``wilcoxon``, ``sign``);
            - ``verdict``: ``"first"`` or ``"second"`` (the learner declared better),
              ``"equivalent"``, ``"none"`` or ``"indeterminate"`` (IDP), at the settings'
              threshold (alpha for ``poisson``, ``wilcoxon`` and ``sign``, on the
              Holm-adjusted p-value); only these words, never a learner's name, so that
              a learner called ``none`` cannot be read as a verdict;
            - ``better``: the name of the learner declared better, empty otherwise;
            - ``diagnostics_ok``: whether the hierarchical fit passed the sampler's checks.
        """
        s, rows = self.settings, []
        for p in self.pairs:
            if p.bayes_signed_rank is None:
                continue
            start = len(rows)
            pair = {"first": p.first, "second": p.second}
            bayes = [("bayes_signed_rank", p.bayes_signed_rank), ("bayes_sign", p.bayes_sign)]
            if p.hierarchical is not None:
                bayes.insert(0, ("hierarchical", p.hierarchical))
            for test, res in bayes:
                row = dict(zip(("p_left", "p_rope", "p_right"), res.probs(), strict=True))
                if hasattr(res, "probs_se"):
                    se = ("p_left_se", "p_rope_se", "p_right_se")
                    row |= dict(zip(se, res.probs_se(), strict=True))
                verdict = _VERDICTS.get(res.decision(s.threshold), "none")
                rows.append(pair | {"test": test} | row | {"verdict": verdict})
                if test == "hierarchical":
                    rows[-1]["diagnostics_ok"] = res.diagnostics.ok
            dp = {"p_left": p.dp.prob_less, "p_right": p.dp.prob_greater}
            dp |= {"p_left_se": p.dp.prob_less_se, "p_right_se": p.dp.mc_se}
            verdict = _VERDICTS.get(p.dp.decision(s.threshold), "none")
            rows.append(pair | {"test": "dp"} | dp | {"verdict": verdict})
            idp = {"p_right_lower": p.idp.lower_prob, "p_right_upper": p.idp.upper_prob}
            idp |= {"p_right_lower_se": p.idp.lower_mc_se, "p_right_upper_se": p.idp.upper_mc_se}
            rows.append(pair | {"test": "idp"} | idp | {"verdict": idp_verdict(p.idp, s.threshold)})
            rows.append(
                pair
                | {"test": "poisson", "p_left": p.poisson.prob_majority_negative}
                | {"p_right": p.poisson.prob_majority, "verdict": poisson_verdict(p.poisson)}
            )
            for test in ("wilcoxon", "sign"):
                pvalues = {"pvalue": getattr(p, test).pvalue, "pvalue_holm": p.holm[test]}
                verdict = p.two_sided_verdict(test, s.alpha)
                rows.append(pair | {"test": test} | pvalues | {"verdict": verdict})
            for row in rows[start:]:
                named = row["verdict"] in ("first", "second")
                row["better"] = p.learner(row["verdict"]) if named else ""
        columns = ["first", "second", "test", "p_left", "p_rope", "p_right"]
        columns += ["p_left_se", "p_rope_se", "p_right_se", "p_right_lower", "p_right_upper"]
        columns += ["p_right_lower_se", "p_right_upper_se"]
        columns += ["pvalue", "pvalue_holm", "verdict", "better", "diagnostics_ok"]
        return pd.DataFrame(rows, columns=columns)

    def __repr__(self) -> str:
        """A one-line summary (the results themselves are in ``pairs`` and ``friedman``)."""
        pairs = ", ".join(f"{p.first} vs {p.second}" for p in self.pairs)
        friedman = "none" if self.friedman is None else f"p = {self.friedman.pvalue:.4g}"
        return (
            f"ComparisonResults(learners={self.learners}, datasets={len(self.datasets)}, "
            f"n_folds={self.n_folds}, pairs=[{pairs}], friedman={friedman}, "
            f"source={self.source!r})"
        )


def typical_size_range(table: pd.DataFrame) -> tuple[float, ...]:
    """The smallest and the largest scale of a data set's scores: the standard deviation of
    its scores over the learners and folds (:func:`.sentences.scale_spread_note`); data sets
    whose scores are all equal are left out. Empty where fewer than two data sets are left.
    """
    spread = table["score"].groupby(table["dataset"]).std(ddof=0)
    spread = spread[spread > 0]
    return (float(spread.min()), float(spread.max())) if spread.size >= 2 else ()


def pair_sizes(
    table: pd.DataFrame, first: str, second: str, datasets: Sequence[str], scale: str
) -> np.ndarray:
    """The size of a pair's scores on each data set, for the rounding tolerance of their
    differences (:func:`cvcompare._validation.check_score_size`).

    Parameters
    ----------
    table : pandas.DataFrame
        The table the pair's fold differences come from
        (:func:`cvcompare.io.fold_differences`).
    first, second : str
        The pair.
    datasets : sequence of str
        The data sets, in the order of the differences' rows.
    scale : {"fraction", "percent", "raw"}
        The scale of the table's scores: accuracies (fractions, or percentages that the
        tests take as fractions) have size 1; raw scores the two learners' largest
        ``|score|`` on each data set (:func:`cvcompare.io.pair_score_sizes`).

    Returns
    -------
    numpy.ndarray, shape (q,)
    """
    if scale != "raw":
        return np.ones(len(datasets))
    return pair_score_sizes(table, first, second, datasets)


def difference_scale(scale: str) -> str:
    """Scale under which the tests take the differences of scores read on ``scale``.

    Parameters
    ----------
    scale : {"fraction", "percent", "raw"}
        The scale of the scores as read.

    Returns
    -------
    {"fraction", "raw"}
        ``"raw"`` for raw scores, ``"fraction"`` otherwise (percentages are fractions once
        read or divided by 100).
    """
    return "raw" if scale == "raw" else "fraction"


def correlated_t_tallies(
    ttests: Sequence[tuple[CorrelatedTTestResult, CorrelatedTPosterior]],
    threshold: float,
    alpha: float,
) -> dict[str, int]:
    """Counts over the data sets of a pair's correlated t-tests (``run_test("correlated-t",
    ...)``).

    Parameters
    ----------
    ttests : sequence of (CorrelatedTTestResult, CorrelatedTPosterior)
        One frequentist and one Bayesian test per data set.
    threshold : float
        Decision probability of the Bayesian tests.
    alpha : float
        Size of the two-sided frequentist tests.

    Returns
    -------
    dict of str to int
        ``n_right``, ``n_rope``, ``n_left``, ``n_undecided``: the data sets on which the
        Bayesian test decides each way or not at all; ``n_significant_a`` and
        ``n_significant_b``: those on which the frequentist test is significant with a
        positive (first learner better) or negative mean difference.
    """
    decisions = [post.decision(threshold) for _, post in ttests]
    significant = [res.mean for res, _ in ttests if res.pvalue < alpha]
    return {
        "n_right": decisions.count("right"),
        "n_rope": decisions.count("rope"),
        "n_left": decisions.count("left"),
        "n_undecided": decisions.count("none"),
        "n_significant_a": sum(m > 0 for m in significant),
        "n_significant_b": sum(m < 0 for m in significant),
    }


def _correlated_t(x, sizes, settings, key):
    scale = difference_scale(settings.scale)
    return [
        (
            correlated_ttest(xi, rho=settings.rho, scale=scale, score_size=size),
            bayesian_correlated_ttest(
                xi, rho=settings.rho, rope=settings.rope, scale=scale, score_size=size
            ),
        )
        for xi, size in zip(x, sizes, strict=True)
    ]


def _dp_and_idp(x, sizes, settings, key):
    means = mean_differences(x, score_size=sizes)
    # the same stream for both: common random numbers, lower <= DP <= upper draw by draw
    return (
        dp_signed_rank(means, n_samples=settings.n_samples, rng=key, scale="raw"),
        idp_signed_rank(
            means, s=settings.idp_s, n_samples=settings.n_samples, rng=key, scale="raw"
        ),
    )


#: Every test of a pair, by its name in ``cvcompare compare --test``: a function of the fold
#: differences, the size of the pair's scores on each data set (:func:`pair_sizes`), the
#: settings and the test's seed sequence, returning the library's result. The rank tests do
#: not depend on the unit of the differences ("raw").
TESTS = {
    "correlated-t": _correlated_t,
    "poisson": lambda x, sizes, s, key: poisson_binomial_test(
        x, rho=s.rho, alpha=s.alpha, scale=difference_scale(s.scale), score_size=sizes
    ),
    "signed-rank": lambda x, sizes, s, key: _two_sided(
        "wilcoxon", mean_differences(x, score_size=sizes), s.zero_method
    ),
    "sign": lambda x, sizes, s, key: _two_sided(
        "sign", mean_differences(x, score_size=sizes), s.zero_method
    ),
    "bayes-signed-rank": lambda x, sizes, s, key: bayesian_signed_rank(
        mean_differences(x, score_size=sizes), rope=s.rope, prior_strength=s.signed_rank_prior,
        n_samples=s.n_samples, rng=key, scale=difference_scale(s.scale),
    ),
    "bayes-sign": lambda x, sizes, s, key: bayesian_sign_test(
        mean_differences(x, score_size=sizes), rope=s.rope, prior_strength=s.sign_prior,
        n_samples=s.n_samples, rng=key, scale=difference_scale(s.scale),
    ),
    "idp-signed-rank": _dp_and_idp,
    "hierarchical": lambda x, sizes, s, key: fit_with_remedy(
        x, rng=np.random.default_rng(key), refits=s.refits, refit_scale=s.refit_scale,
        refit_adapt_delta=s.refit_adapt_delta, rho=s.rho, rope=s.rope, chains=s.chains,
        warmup=s.warmup, draws=s.draws, scale=difference_scale(s.scale), score_size=sizes,
    ),
}  # fmt: skip


def run_test(
    test: str, x: np.ndarray, sizes: np.ndarray, settings: Settings, first: str, second: str
):
    """Run one test of :data:`TESTS` on the fold differences ``x`` of ``first - second``,
    whose scores have the size ``sizes`` on each data set (:func:`pair_sizes`).

    The test's Monte Carlo stream is :func:`seed_key` of the pair and the test, so the result
    does not depend on which other tests or pairs are run.
    """
    return TESTS[test](x, sizes, settings, seed_key(settings.seed, first, second, test))


def _analyse_pair(table: pd.DataFrame, first: str, second: str, settings: Settings) -> PairResult:
    x, datasets = fold_differences(
        table, first, second, higher_is_better=settings.higher_is_better, scale=settings.scale
    )
    sizes = pair_sizes(table, first, second, datasets, settings.scale)
    means = mean_differences(x, score_size=sizes)
    ttests = run_test("correlated-t", x, sizes, settings, first, second)
    if len(datasets) < 2:
        return PairResult(first, second, datasets, x, means, sizes, ttests)
    dp, idp = run_test("idp-signed-rank", x, sizes, settings, first, second)
    return PairResult(
        first,
        second,
        datasets,
        x,
        means,
        sizes,
        ttests,
        poisson=run_test("poisson", x, sizes, settings, first, second),
        wilcoxon=run_test("signed-rank", x, sizes, settings, first, second),
        sign=run_test("sign", x, sizes, settings, first, second),
        bayes_signed_rank=run_test("bayes-signed-rank", x, sizes, settings, first, second),
        bayes_sign=run_test("bayes-sign", x, sizes, settings, first, second),
        dp=dp,
        idp=idp,
    )


def compare_learners(
    table: pd.DataFrame,
    *,
    learners: Sequence[str] | None = None,
    rho: float | None = None,
    rope: tuple[float, float] | None = None,
    alpha: float = 0.05,
    threshold: float = 0.95,
    scale: str = "fraction",
    higher_is_better: bool = True,
    seed: int = 0,
    n_samples: int = 50_000,
    hierarchical: bool = True,
    chains: int = 4,
    warmup: int = 1000,
    draws: int = 1000,
    progress: bool | None = None,
    source: str = "",
    reading: tuple[str, ...] = (),
    zero_method: str = "drop",
) -> ComparisonResults:
    """Run every test of the package on two learners or on all pairs of several.

    Parameters
    ----------
    table : pandas.DataFrame
        A tidy table from :func:`cvcompare.io.read_csv_scores` or
        :func:`cvcompare.io.read_accuracies` (as fractions), scores on ``scale``.
    learners : sequence of str, optional
        The learners to compare, in this order (pairs are ``(learners[i], learners[j])``,
        ``i < j``); all learners of the table by default, in order of appearance.
    rho : float, optional
        Correlation of the fold differences (``1/k`` for k-fold cross-validation). By
        default 0.1, for runs of 10-fold cross-validation; refused as a default where the
        number of folds per data set is not a multiple of 10.
    rope : tuple of float, optional
        Region of practical equivalence, on the fraction scale for accuracies (default
        ``(-0.01, 0.01)``, one point of accuracy), in the score's unit for ``scale="raw"``,
        where it must be given.
    alpha : float
        Size of the frequentist tests, in (0, 0.5).
    threshold : float
        Posterior probability above which a Bayesian test decides, in [0.5, 1).
    scale : {"fraction", "percent", "raw"}
        The scale of the table's scores: accuracies as fractions, or as percentages (the
        differences are divided by 100; the rope stays a fraction), or ``"raw"`` for any
        other score (the rope in its unit).
    higher_is_better : bool
        False for losses (RMSE, log-loss): differences are then ``second - first`` in the
        raw scores, so that *right* still means that the first learner is better.
    seed : int
        Root seed of all Monte Carlo streams and of the Stan sampler. Each test of each
        pair draws from its own stream, keyed by the pair and the test (:func:`seed_key`),
        so its numbers differ from a call of the test itself with ``rng=seed``, within their
        Monte Carlo error.
    n_samples : int
        Monte Carlo draws of the signed-rank, sign and IDP tests.
    hierarchical : bool
        Fit the hierarchical model (Stan) to every pair (True or False).
    chains, warmup, draws : int
        NUTS settings of the hierarchical model.
    zero_method : {"drop", "split"}
        Data sets without a difference in the Wilcoxon signed-rank and sign tests: left out,
        or split between the learners (:attr:`Settings.zero_method`).
    progress : bool, optional
        Show a progress bar over the pairs' hierarchical fits (default: when stderr is a
        terminal).
    source : str
        Name of the input, written in the report.
    reading : tuple of str
        The command-line options with which ``source`` was read, for the report's rerun
        command (the command line passes ``--scale`` for a CSV, ``--duplicates`` for the
        block format).

    Returns
    -------
    ComparisonResults

    Raises
    ------
    ValueError
        On unknown learners, fewer than two learners, learners without the same folds, fewer
        than two folds per data set,
        scores not on ``scale`` (e.g. fractions with ``scale="percent"``, which a table from
        :func:`cvcompare.io.read_csv_scores` with ``scale="percent"`` already holds), or a
        bad setting (naming it).
    TypeError
        If ``table`` is not a DataFrame, ``learners`` a single string or a set, a flag not
        a bool, ``source`` not a string or ``reading`` not a tuple of strings.
    """
    sub, chosen = select_learners(table, learners)
    higher_is_better = check_bool(higher_is_better, "higher_is_better")
    hierarchical = check_bool(hierarchical, "hierarchical")
    if progress is not None and not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress: expected True, False or None, got {progress!r}")
    if not isinstance(source, str):
        raise TypeError(f"source: expected the input's name as a string, got {source!r}")
    if not isinstance(reading, (tuple, list)) or not all(isinstance(o, str) for o in reading):
        raise TypeError(
            f"reading: expected a tuple of command-line options (strings), got {reading!r}"
        )
    scale = check_choice(scale, "scale", ("fraction", "percent", "raw"))
    # the first pair's folds are paired before their number sets the default rho (the
    # other pairs' are, as they are analysed); fold_differences judges the scale on the
    # whole table (the chosen learners' percentages may all lie below 1, as error rates
    # below 1%) and checks each pair's rows
    x, _ = fold_differences(
        table, chosen[0], chosen[1], higher_is_better=higher_is_better, scale=scale
    )
    if x.shape[1] < 2:
        raise ValueError(
            f"table: the correlated t-tests need at least 2 folds per data set, got {x.shape[1]}"
        )
    settings = Settings(
        rho=check_rho(rho, x.shape[1]),
        rope=check_scaled_rope(rope, scale),
        alpha=check_test_size(alpha),
        threshold=check_two_sided_threshold(threshold),
        seed=check_int(seed, "seed", minimum=0),
        n_samples=check_int(n_samples, "n_samples", minimum=1),
        scale=scale,
        higher_is_better=higher_is_better,
        hierarchical=hierarchical,
        rho_assumed=rho is None,
        chains=check_int(chains, "chains", minimum=1),
        warmup=check_int(warmup, "warmup", minimum=1),
        draws=check_int(draws, "draws", minimum=4),
        zero_method=check_choice(zero_method, "zero_method", tuple(WILCOXON_ZEROS)),
    )
    pairs = [_analyse_pair(table, a, b, settings) for a, b in itertools.combinations(chosen, 2)]
    if hierarchical and pairs[0].q >= 2:
        pairs = _fit_hierarchical(pairs, settings, progress)
    pairs = _with_holm(pairs, settings.zero_method)
    friedman = friedman_ties = nemenyi = None
    scores, datasets, _ = mean_score_matrix(sub, chosen)
    scores = pd.DataFrame(scores, index=datasets, columns=chosen)  # the results name them
    if len(chosen) >= 3 and len(datasets) >= 2:
        ranking = {"alpha": settings.alpha, "higher_is_better": higher_is_better}
        friedman = friedman_test(scores, **ranking)
        if friedman.tied_datasets:
            friedman_ties = friedman_test(scores, **ranking, tie_correction=True)
        nemenyi = nemenyi_test(scores, **ranking)
    return ComparisonResults(
        learners=chosen,
        datasets=pairs[0].datasets,
        n_folds=int(pairs[0].x.shape[1]),
        pairs=pairs,
        friedman=friedman,
        friedman_ties=friedman_ties,
        nemenyi=nemenyi,
        settings=settings,
        source=source,
        reading=tuple(reading),
        mean_scores=tuple(map(float, scores.mean(axis=0))),
        size_range=typical_size_range(sub) if scale == "raw" else (),
        dataset_means=scores.reindex(pairs[0].datasets).to_numpy(),
        dataset_sds=_dataset_sds(sub, scores.reindex(pairs[0].datasets)),
    )


def _dataset_sds(table: pd.DataFrame, means: pd.DataFrame) -> np.ndarray:
    """The standard deviation of each learner's scores over the folds of each data set, in
    the order of ``means`` (data sets x learners, :func:`mean_score_matrix`'s):
    :attr:`ComparisonResults.dataset_sds`."""
    sds = table.groupby(["dataset", "learner"], sort=False)["score"].std(ddof=1).unstack()
    return sds.reindex(index=means.index, columns=means.columns).to_numpy()


def _fit_hierarchical(
    pairs: list[PairResult], settings: Settings, progress: bool | None
) -> list[PairResult]:
    show = sys.stderr.isatty() if progress is None else progress
    fitted = []
    for pair in tqdm(
        pairs, desc="hierarchical model", unit="pair", disable=not show, file=sys.stderr
    ):
        if not has_scale(pair.x):
            fitted.append(replace(pair, hierarchical_skipped=_NO_SCALE))
            continue
        caught: list = []
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                fit, record = run_test(
                    "hierarchical", pair.x, pair.sizes, settings, pair.first, pair.second
                )
        finally:  # a fit that failed its diagnostics: which pair's (even if one then fails)
            for warning in caught:
                warnings.warn_explicit(
                    f"{pair.first} vs {pair.second}: {warning.message}",
                    warning.category,
                    warning.filename,
                    warning.lineno,
                )
        fitted.append(replace(pair, hierarchical=fit, hierarchical_refit=record.remedy))
    return fitted


#: Why a pair whose fold differences are constant within every data set has no
#: hierarchical fit (the other tests run as usual).
_NO_SCALE = (
    "not fitted: the fold differences are constant within every data set (identical "
    "scores?), which leaves the model without a scale"
)


#: The two-sided tests across data sets, by their field of :class:`PairResult`.
_TWO_SIDED = ("wilcoxon", "sign")
#: :attr:`Settings.zero_method` as :func:`cvcompare.stats.wilcoxon_test` names it (the sign
#: test's own names are the same as the settings').
WILCOXON_ZEROS = {"drop": "wilcox", "split": "zsplit"}


def _two_sided(test: str, means: np.ndarray, zero_method: str):
    """The two-sided test ``test`` (``"wilcoxon"`` or ``"sign"``) on the mean differences of
    the data sets, those without a difference treated by ``zero_method`` (as
    :attr:`Settings.zero_method` names it: ``"drop"`` or ``"split"``)."""
    if test == "wilcoxon":
        return wilcoxon_test(means, zero_method=WILCOXON_ZEROS[zero_method], scale="raw")
    if test == "sign":
        return sign_test(means, zero_method=zero_method, scale="raw")
    raise ValueError(f"test: expected one of {_TWO_SIDED}, got {test!r}")


def holm_floor(test: str, means: Sequence[np.ndarray], zero_method: str = "drop") -> float:
    """The smallest Holm-adjusted p-value the two-sided test ``test`` (``"wilcoxon"`` or
    ``"sign"``) can give over pairs with these mean differences (one array per pair).

    A pair's smallest p-value is the test's p-value where every data set with a difference
    favours one learner (the differences' absolute values; those that are zero stay zero,
    treated by ``zero_method`` as in :attr:`Settings.zero_method`); Holm's smallest
    adjusted p-value is the number of pairs times the smallest of those (Holm 1979), at
    most 1.
    """
    smallest = min(_two_sided(test, np.abs(m), zero_method).pvalue for m in means)
    return float(min(1.0, len(means) * smallest))


def _with_holm(pairs: list[PairResult], zero_method: str) -> list[PairResult]:
    """Holm-adjust the Wilcoxon and sign p-values over the family of all pairs, with the
    smallest adjusted p-value the family allows (``PairResult.holm_floor``) under
    ``zero_method``."""
    if pairs[0].wilcoxon is None:
        return pairs
    adjusted = {test: holm_adjust([getattr(p, test).pvalue for p in pairs]) for test in _TWO_SIDED}
    means = [p.means for p in pairs]
    floor = {test: holm_floor(test, means, zero_method) for test in _TWO_SIDED}
    return [
        replace(p, holm={test: float(adjusted[test][i]) for test in adjusted}, holm_floor=floor)
        for i, p in enumerate(pairs)
    ]
