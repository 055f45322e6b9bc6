"""Friedman and Iman-Davenport tests, and the Nemenyi post-hoc test, for k models on N data sets.

The models are ranked on every data set (rank 1 = best; ties get the average of the
ranks they span). Under the null hypothesis that all models are equivalent their average
ranks ``R_j`` are equal; the Friedman statistic measures how far they are apart, the
Iman-Davenport statistic is its less conservative F form, and the Nemenyi test declares
two models different when their average ranks differ by more than the critical
difference ``CD``.

References
----------
Demsar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
Journal of Machine Learning Research 7, 1-30, Sec. 3.2.2 and Table 5.

Friedman, M. (1937). The use of ranks to avoid the assumption of normality implicit in
the analysis of variance. JASA 32, 675-701.

Iman, R. L. & Davenport, J. M. (1980). Approximations of the critical region of the
Friedman statistic. Communications in Statistics 9, 571-595.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
from scipy import stats

from cvcompare._validation import check_array, check_bool, check_int, check_real, check_test_size
from cvcompare.stats._results import ReadOnlyArrays

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "FriedmanResult",
    "NemenyiResult",
    "critical_difference_cliques",
    "friedman_test",
    "nemenyi_q_alpha",
    "nemenyi_test",
]


def _rank_scores(scores: object, higher_is_better: bool) -> tuple[np.ndarray, tuple[str, ...]]:
    """Validate an (N data sets x k models) table and rank the models on each data set.

    Returns the ranks and the models' names: a DataFrame's column labels, otherwise the
    column numbers ``"0"``, ..., ``"k - 1"``."""
    arr = check_array(scores, "scores", ndim=2, min_size=2, axis_names=("data sets", "models"))
    if arr.shape[0] < 2:
        raise ValueError(f"scores: expected at least 2 data sets (rows), got {arr.shape[0]}")
    check_bool(higher_is_better, "higher_is_better")
    labels = getattr(scores, "columns", range(arr.shape[1]))
    models = tuple(str(c) for c in labels)
    if len(set(models)) < len(models):
        raise ValueError(f"scores: expected one column per model, got the columns {models}")
    return stats.rankdata(-arr if higher_is_better else arr, method="average", axis=1), models


def _tie_sum(ranks: np.ndarray) -> int:
    """``sum (t^3 - t)`` over the groups of ``t`` equal ranks in one data set's ranks."""
    t = np.unique(ranks, return_counts=True)[1].astype(np.int64)
    return int((t**3 - t).sum())


def _n_orderings(ranks: np.ndarray) -> int:
    """``M = k! / prod t!``: the distinct orderings of one data set's ranks (``t``: the sizes
    of its groups of ties)."""
    tied = np.unique(ranks, return_counts=True)[1]
    return math.factorial(len(ranks)) // math.prod(math.factorial(int(t)) for t in tied)


def _distinct_orderings(values: tuple[int, ...]) -> np.ndarray:
    """Every distinct ordering of ``values`` (a multiset), each once, shape ``(M, k)``:
    built value by value, never listing the ``k!`` orderings of which ties make repeats."""
    if len(values) <= 1:
        return np.array([values], dtype=np.int64).reshape(1, len(values))
    rows = []
    for v in sorted(set(values)):
        rest = list(values)
        rest.remove(v)
        tails = _distinct_orderings(tuple(rest))
        rows.append(np.column_stack([np.full(len(tails), v, dtype=np.int64), tails]))
    return np.vstack(rows)


#: The most rows (kept outcomes times a data set's orderings, summed over the data sets,
#: which are taken in an order fixed by their ties: the most orderings first) that
#: :func:`_exact_pvalue` enumerates before it gives up: at most a few tenths of a second.
#: Without ties, two models are enumerated on hundreds of data sets, three on 66, four on
#: 16, five on 6, six on 3 and seven on 2.
EXACT_WORK = 300_000


def _exact_pvalue(ranks: np.ndarray) -> float:
    """The exact p-value of the Friedman statistic under its permutation distribution (each
    data set orders its ranks at random, all ``M_i`` orderings equally likely), or NaN
    where enumerating it would take more than :data:`EXACT_WORK` rows.

    The statistic is an increasing function of ``sum_j S_j^2`` (``S_j``: the rank sums),
    whatever the ties and their correction, which are the same in every outcome; so is
    Iman-Davenport's ``F_F``, which has the same exact p-value. The distribution of the
    rank sums is built one data set at a time, each outcome kept as its sorted rank sums
    with the number of outcomes that lead to it: the sums' distribution after adding a
    data set's random ordering depends on the sums so far only through their sorted
    values, and the first data set's ordering can be fixed (relabelling the models changes
    no statistic). The data sets are taken with the most orderings first (the least work,
    and an order that does not depend on the table's). Ranks are doubled, so that
    mid-ranks are integers, and outcomes are counted in integers: the comparison with the
    observed statistic and the share of outcomes are exact (the share rounded once).
    """
    doubled = np.rint(2 * ranks).astype(np.int64)
    k = doubled.shape[1]
    observed = doubled.sum(axis=0)
    patterns = [tuple(sorted(row.tolist())) for row in doubled]
    sizes = [_n_orderings(row) for row in ranks]
    order = sorted(range(len(doubled)), key=lambda i: (-sizes[i], patterns[i]))
    states, counts = np.array([patterns[order[0]]], dtype=np.int64), np.array([1], dtype=object)
    work, orderings = 0, {}
    for i in order[1:]:
        work += len(states) * sizes[i]
        if work > EXACT_WORK:
            return math.nan
        if patterns[i] not in orderings:
            orderings[patterns[i]] = _distinct_orderings(patterns[i])
        ways = orderings[patterns[i]]
        sums = np.sort((states[:, None, :] + ways[None, :, :]).reshape(-1, k), axis=1)
        states, index = np.unique(sums, axis=0, return_inverse=True)
        counts, totals = np.repeat(counts, len(ways)), np.zeros(len(states), dtype=object)
        np.add.at(totals, index.ravel(), counts)
        counts = totals
    reach = (states**2).sum(axis=1) >= observed @ observed
    outcomes = math.prod(sizes[i] for i in order[1:])
    return float(Fraction(int(counts[reach].sum()), outcomes))


@dataclass(frozen=True)
class FriedmanResult(ReadOnlyArrays):
    """Result of :func:`friedman_test`.

    Attributes
    ----------
    statistic : float
        Friedman's ``chi2_F`` (Demsar 2006, Eq. before Table 5), divided by the tie
        correction ``C`` when ``tie_correction`` is true.
    pvalue : float
        Upper tail of the chi-square distribution with ``k - 1`` degrees of freedom.
    ff_statistic : float
        Iman-Davenport ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``; ``inf`` when the
        models are ranked identically on every data set.
    ff_pvalue : float
        Upper tail of ``F(k - 1, (k - 1)(N - 1))`` at ``ff_statistic``.
    ff_critical_value : float
        The ``1 - alpha`` quantile of ``F(k - 1, (k - 1)(N - 1))``.
    alpha : float
        Level of ``ff_critical_value``.
    tie_correction : bool
        Whether ``statistic`` (and so ``F_F``) is corrected for ties.
    avg_ranks : numpy.ndarray, shape (k,)
        Average rank of each model (1 = best).
    ranks : numpy.ndarray, shape (N, k)
        Ranks on each data set (mid-ranks for ties).
    n_datasets, n_models : int
        ``N`` and ``k``.
    models : tuple of str
        The models' names, in the order of ``avg_ranks``: the column labels of a DataFrame
        of scores, otherwise ``"0"``, ..., ``"k - 1"``.
    """

    statistic: float
    pvalue: float
    ff_statistic: float
    ff_pvalue: float
    ff_critical_value: float
    alpha: float
    tie_correction: bool
    avg_ranks: np.ndarray
    ranks: np.ndarray
    n_datasets: int
    n_models: int
    models: tuple[str, ...]

    @property
    def ff_df(self) -> tuple[int, int]:
        """Degrees of freedom ``(k - 1, (k - 1)(N - 1))`` of the Iman-Davenport F."""
        return (self.n_models - 1, (self.n_models - 1) * (self.n_datasets - 1))

    @property
    def tied_datasets(self) -> int:
        """Number of data sets on which some models tie."""
        return sum(_tie_sum(row) > 0 for row in self.ranks)

    @functools.cached_property
    def exact_pvalue(self) -> float:
        """The exact p-value of ``chi2_F`` and of ``F_F`` (the same: ``F_F`` increases with
        ``chi2_F``) under the permutation distribution that ``pvalue`` and ``ff_pvalue``
        approximate, in which each data set orders its ranks at random; NaN for a design
        too large to enumerate (:data:`EXACT_WORK`), where the approximations serve.
        Computed when first asked for (up to a few tenths of a second)."""
        return _exact_pvalue(self.ranks)

    def rejects(self, alpha: float) -> bool:
        """Whether the models differ at ``alpha``: by the exact p-value where the design is
        small enough to enumerate it, by Iman-Davenport's F approximation otherwise
        (Demsar 2006, Sec. 3.2.2); a post-hoc test such as Nemenyi's follows only where
        this rejects."""
        exact = not math.isnan(self.exact_pvalue)
        return (self.exact_pvalue if exact else self.ff_pvalue) < check_test_size(alpha)

    @property
    def exact_floor(self) -> float:
        """The smallest p-value that any outcome on these data sets can have under the
        exact (permutation) distribution that the chi-square and F distributions
        approximate, in which each data set orders its ranks at random.

        With ``M_i = k! / prod t!`` the distinct orderings of data set ``i``'s ranks
        (``t``: the sizes of its groups of ties), every outcome has probability
        ``1 / prod M_i`` and is one of at least ``max M_i`` outcomes as extreme (itself
        with the models relabelled, itself included), so no p-value is below
        ``max M_i / prod M_i``:
        ``(k!)^(1 - N)`` without ties, the exact p-value of rankings alike on every data
        set. Where it is at least ``alpha`` no outcome is significant, whatever the F
        approximation gives: three models ranked alike on two data sets have ``F_F = inf``
        and an F tail of 0, but an exact p-value of 1/6. The same floor holds for any
        statistic that relabelling the models leaves unchanged, such as the range of the
        average ranks that Nemenyi's critical difference bounds.
        """
        orderings = [_n_orderings(row) for row in self.ranks]
        return float(Fraction(max(orderings), math.prod(orderings)))


def friedman_test(
    scores: object,
    *,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    tie_correction: bool = False,
) -> FriedmanResult:
    """Friedman test and Iman-Davenport F test of k models over N data sets.

    ``chi2_F = 12 N / (k (k + 1)) [sum_j R_j^2 - k (k + 1)^2 / 4]`` with ``R_j`` the
    average ranks, and ``F_F = (N - 1) chi2_F / (N (k - 1) - chi2_F)``. With
    ``tie_correction``, ``chi2_F`` is divided by ``C = 1 - sum (t^3 - t) / (N k (k^2 -
    1))``, the sum over every group of ``t`` models tied on one data set (Friedman 1937;
    as :func:`scipy.stats.friedmanchisquare` and R's ``friedman.test``), before ``F_F``
    is computed from it.

    Parameters
    ----------
    scores : array_like or pandas.DataFrame, shape (N, k)
        Score of each of ``k >= 2`` models on each of ``N >= 2`` data sets; a DataFrame's
        column labels name the models (``FriedmanResult.models``).
    alpha : float
        Level of the reported critical value of ``F_F``, in (0, 0.5).
    higher_is_better : bool
        ``True`` for accuracies (the highest score gets rank 1), ``False`` for errors.
    tie_correction : bool
        Divide ``chi2_F`` by the tie correction ``C``. The default, ``False``, is Demsar's
        formula, which the literature comparing classifiers uses; without ties both agree.
        Ties make the uncorrected statistic smaller than the corrected one, and the test
        conservative.

    Returns
    -------
    FriedmanResult

    Notes
    -----
    Ties get average ranks. When every data set ranks the models the same way (ties
    included, with the correction), ``chi2_F = N (k - 1)``, ``F_F = inf`` and its p-value
    is 0; when every data set ties all the models, both statistics are 0 and the p-values 1.
    Both p-values are large-sample approximations, which fail with few data sets (three
    models ranked alike on two data sets: ``F_F = inf`` and p-value 0, an exact p-value of
    1/6; one swap from alike on three: 0.049 against an exact 7/36). Where the design is
    small enough to enumerate, ``exact_pvalue`` gives the exact one; and no outcome's exact
    p-value is below :attr:`FriedmanResult.exact_floor`.

    References
    ----------
    Demsar (2006), Sec. 3.2.2; Iman & Davenport (1980).

    Examples
    --------
    >>> res = friedman_test([[0.9, 0.8, 0.7], [0.8, 0.85, 0.6], [0.7, 0.6, 0.5]])
    >>> res.avg_ranks.tolist(), round(res.statistic, 4)
    ([1.3333333333333333, 1.6666666666666667, 3.0], 4.6667)
    """
    ranks, models = _rank_scores(scores, higher_is_better)
    alpha = check_test_size(alpha)
    tie_correction = check_bool(tie_correction, "tie_correction")
    n, k = ranks.shape
    avg_ranks = ranks.mean(axis=0)
    # With rank sums S_j = N R_j, num = 12 sum S_j^2 - 3 N^2 k (k + 1)^2 and full =
    # N k (k^2 - 1) (with the correction minus T = sum (t^3 - t)): chi2_F = (k - 1) num /
    # full and F_F = (N - 1) num / (N full - num). Mid-ranks are multiples of 1/2, so num,
    # full and N full - num are integers, exact in floating point: identical rankings give
    # F_F = inf and all ties chi2_F = 0 exactly.
    rank_sums = ranks.sum(axis=0)
    num = 12.0 * float(rank_sums @ rank_sums) - 3.0 * n * n * k * (k + 1) ** 2
    full = float(n * k * (k * k - 1))  # N k (k + 1) (k - 1)
    if tie_correction:
        full -= float(sum(_tie_sum(row) for row in ranks))
    if full > 0:
        chi2 = (k - 1) * num / full
        den = n * full - num
        ff = (n - 1) * num / den if den > 0 else math.inf
    else:  # every data set ties all the models (corrected: 0 / 0)
        chi2 = ff = 0.0
    df1, df2 = k - 1, (k - 1) * (n - 1)
    return FriedmanResult(
        statistic=chi2,
        pvalue=float(stats.chi2.sf(chi2, df1)),
        ff_statistic=float(ff),
        ff_pvalue=float(stats.f.sf(ff, df1, df2)),
        ff_critical_value=float(stats.f.ppf(1.0 - alpha, df1, df2)),
        alpha=alpha,
        tie_correction=tie_correction,
        avg_ranks=avg_ranks,
        ranks=ranks,
        n_datasets=n,
        n_models=k,
        models=models,
    )


def nemenyi_q_alpha(k: int, *, alpha: float = 0.05) -> float:
    """Critical value ``q_alpha`` of the Nemenyi test for ``k`` models.

    ``q_alpha`` is the ``1 - alpha`` quantile of the studentized range of ``k``
    independent standard normals (infinite degrees of freedom) divided by ``sqrt(2)``.

    Parameters
    ----------
    k : int
        Number of models, ``>= 2``.
    alpha : float, default 0.05
        Family-wise level, in (0, 0.5).

    Returns
    -------
    float
        ``q_alpha``; the critical difference of average ranks is
        ``q_alpha sqrt(k (k + 1) / (6 N))``.

    References
    ----------
    Demsar (2006), Sec. 3.2.2 and Table 5.

    Examples
    --------
    >>> round(nemenyi_q_alpha(4), 3)
    2.569
    """
    k = check_int(k, "k", minimum=2)
    alpha = check_test_size(alpha)
    return float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / math.sqrt(2.0))


def critical_difference_cliques(avg_ranks: object, cd: float) -> tuple[tuple[int, ...], ...]:
    """Maximal groups of models whose average ranks differ pairwise by at most ``cd``.

    These are the groups joined by a bar in a critical-difference diagram. Because the
    relation "not significantly different" is decided on a line (the rank axis), every
    maximal group is a run of consecutive models in rank order whose span is ``<= cd``.

    Parameters
    ----------
    avg_ranks : array_like, shape (k,)
        Average rank of each model.
    cd : float
        Critical difference, ``>= 0``.

    Returns
    -------
    tuple of tuple of int
        Model indices of each maximal group with at least two models, each group in
        increasing order of average rank, groups ordered by their best rank.

    References
    ----------
    Demsar (2006), Sec. 3.2.2 and Fig. 1.

    Examples
    --------
    >>> critical_difference_cliques([3.67, 3.33, 1.83, 1.17], 1.915)
    ((3, 2), (2, 1, 0))
    """
    ranks = check_array(avg_ranks, "avg_ranks", ndim=1, min_size=2, axis_names=("models",))
    cd = check_real(cd, "cd", "a number >= 0")
    if not (math.isfinite(cd) and cd >= 0):
        raise ValueError(f"cd: expected a finite number >= 0, got {cd}")
    order = np.argsort(ranks, kind="stable")
    sorted_ranks = ranks[order]
    # last[i]: position (in rank order) of the worst model within cd of model i; the
    # differences are formed as in the pairwise significance matrix so the two agree.
    last = ((sorted_ranks[None, :] - sorted_ranks[:, None]) <= cd).sum(axis=1) - 1
    cliques = []
    previous_last = -1
    for i, j in enumerate(last):
        if j > i and j > previous_last:
            cliques.append(tuple(int(m) for m in order[i : j + 1]))
        previous_last = max(previous_last, int(j))
    return tuple(cliques)


@dataclass(frozen=True)
class NemenyiResult(ReadOnlyArrays):
    """Result of :func:`nemenyi_test`.

    Attributes
    ----------
    avg_ranks : numpy.ndarray, shape (k,)
        Average rank of each model (1 = best).
    q_alpha : float
        Studentized-range critical value divided by ``sqrt(2)``.
    cd : float
        Critical difference ``q_alpha sqrt(k (k + 1) / (6 N))``.
    alpha : float
        Family-wise level.
    rank_differences : numpy.ndarray, shape (k, k)
        ``avg_ranks[i] - avg_ranks[j]``.
    significant : numpy.ndarray of bool, shape (k, k)
        ``|avg_ranks[i] - avg_ranks[j]| > cd``.
    cliques : tuple of tuple of int
        Maximal groups of models not significantly different from each other (see
        :func:`critical_difference_cliques`).
    n_datasets, n_models : int
        ``N`` and ``k``.
    models : tuple of str
        The models' names, in the order of ``avg_ranks`` (see :class:`FriedmanResult`).
    """

    avg_ranks: np.ndarray
    q_alpha: float
    cd: float
    alpha: float
    rank_differences: np.ndarray
    significant: np.ndarray
    cliques: tuple[tuple[int, ...], ...]
    n_datasets: int
    n_models: int
    models: tuple[str, ...]

    def plot(self, ax: Axes | None = None) -> Axes:
        """The critical-difference diagram of this result, its models named
        (:func:`~cvcompare.plots.cd_diagram.plot_cd_diagram`); ``ax``: where to draw."""
        # imported on use: the tests themselves need no plotting library
        from cvcompare.plots.cd_diagram import plot_cd_diagram

        return plot_cd_diagram(self.avg_ranks, self.models, self.cd, cliques=self.cliques, ax=ax)


def nemenyi_test(
    scores: object, *, alpha: float = 0.05, higher_is_better: bool = True
) -> NemenyiResult:
    """Nemenyi post-hoc test: all pairwise comparisons of k models over N data sets.

    Two models differ significantly when their average ranks differ by more than
    ``CD = q_alpha sqrt(k (k + 1) / (6 N))``.

    Parameters
    ----------
    scores : array_like or pandas.DataFrame, shape (N, k)
        Score of each of ``k >= 2`` models on each of ``N >= 2`` data sets; a DataFrame's
        column labels name the models (``NemenyiResult.models``).
    alpha : float
        Family-wise level, in (0, 0.5) (Demsar tabulates 0.05 and 0.10).
    higher_is_better : bool
        ``True`` for accuracies, ``False`` for errors.

    Returns
    -------
    NemenyiResult

    References
    ----------
    Demsar (2006), Sec. 3.2.2 and Table 5; Nemenyi, P. B. (1963). Distribution-free
    multiple comparisons. PhD thesis, Princeton University.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame({"rf": [0.9, 0.8, 0.7], "svm": [0.8, 0.85, 0.6],
    ...                        "knn": [0.7, 0.6, 0.5]})
    >>> res = nemenyi_test(scores)
    >>> round(res.cd, 4), res.cliques, res.models
    (1.9136, ((0, 1, 2),), ('rf', 'svm', 'knn'))
    """
    ranks, models = _rank_scores(scores, higher_is_better)
    n, k = ranks.shape
    avg_ranks = ranks.mean(axis=0)
    q_alpha = nemenyi_q_alpha(k, alpha=alpha)
    cd = q_alpha * math.sqrt(k * (k + 1) / (6.0 * n))
    differences = avg_ranks[:, None] - avg_ranks[None, :]
    return NemenyiResult(
        avg_ranks=avg_ranks,
        q_alpha=q_alpha,
        cd=cd,
        alpha=float(alpha),
        rank_differences=differences,
        significant=np.abs(differences) > cd,
        cliques=critical_difference_cliques(avg_ranks, cd),
        n_datasets=n,
        n_models=k,
        models=models,
    )
