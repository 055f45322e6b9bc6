"""The decisions of the report's tests in words: one sentence per test, or a few words for a
table's cell.

One vocabulary is used throughout: differences are *first learner minus second*; *right*:
the first learner is practically better (by more than the rope), *rope*: practically
equivalent, *left*: the second is practically better. Decisions are written in the
learners' names.
"""

from __future__ import annotations

import numpy as np

from .analysis import PairResult, correlated_t_tallies, poisson_verdict

__all__ = [
    "DIRICHLET_MASS",
    "FEW_DATASETS",
    "NOISE_FROM_ROPE",
    "SCALE_SPREAD",
    "bayes_sentence",
    "masses_text",
    "no_rope",
    "noisy_note",
    "pair_lines",
    "probability_text",
    "scale_spread_note",
    "rope_half_width",
    "short_decision",
    "signed_text",
    "smallest_p_clause",
]


def rope_half_width(rope: tuple[float, float]) -> float | None:
    """The half-width of a symmetric rope; None for an asymmetric one."""
    low, high = map(float, rope)
    return high if low == -high else None


def _rope_text(rope: tuple[float, float]) -> str:
    """The rope as written after a decision: its half-width, or its ends if asymmetric."""
    half = rope_half_width(rope)
    return f"[{rope[0]:g}, {rope[1]:g}]" if half is None else f"{half:g}"


def probability_text(p: float, threshold: float, digits: int = 3) -> str:
    """``p`` with ``digits`` decimals, or as many more as it takes for the shown value to be
    below, equal to or above ``threshold`` as ``p`` is (0.9496 is not shown as 0.950 against
    0.95).

    Examples
    --------
    >>> [probability_text(p, 0.95) for p in (0.9496, 0.95004, 0.951, 0.95)]
    ['0.9496', '0.95004', '0.951', '0.950']
    """
    side = np.sign(p - threshold)
    while np.sign(float(f"{p:.{digits}f}") - threshold) != side and digits < 17:
        digits += 1
    return f"{p:.{digits}f}"


def bayes_sentence(first: str, second: str, result, rope, threshold: float) -> str:
    """One decision in words from a Bayesian test's result.

    Probabilities are shown to three decimals, or to more where three would put them on the
    other side of ``threshold``.

    Parameters
    ----------
    first, second : str
        The learners (differences first minus second).
    result : BayesianDecisionMixin
        Any of the package's Bayesian results: its ``probs()`` and ``decision(threshold)``.
    rope : tuple of float
        The rope of the test, written after the decision.
    threshold : float
        The decision probability.

    Returns
    -------
    str
        The decision (``right``: ``first`` practically better, ``left``: ``second``,
        ``rope``: practically equivalent, or none) with its probability, followed by the
        rope.

    Examples
    --------
    >>> from cvcompare.stats import bayesian_signed_rank
    >>> res = bayesian_signed_rank([0.05, 0.04, 0.06, 0.05, 0.07, 0.03], rng=0)
    >>> bayes_sentence("hnb", "nbc", res, res.rope, 0.95)
    'hnb is practically better than nbc: probability 1.000; rope 0.01'
    """
    p_left, p_rope, p_right = (probability_text(p, threshold) for p in result.probs())
    rope_t = _rope_text(rope)
    return {
        "right": f"{first} is practically better than {second}: probability {p_right}",
        "left": f"{second} is practically better than {first}: probability {p_left}",
        "rope": f"{first} and {second} are practically equivalent: probability {p_rope}",
        "none": f"no decision (needs a probability above {threshold:g}): {second} better "
        f"{p_left}, equivalent {p_rope}, {first} better {p_right}",
    }[result.decision(threshold)] + f"; rope {rope_t}"


def short_decision(first: str, second: str, result, threshold: float) -> str:
    """A decision of :func:`bayes_sentence` in a few words, for a table's cell."""
    p_left, p_rope, p_right = (probability_text(p, threshold) for p in result.probs())
    return {
        "right": f"{first} better ({p_right})",
        "left": f"{second} better ({p_left})",
        "rope": f"equivalent ({p_rope})",
        "none": "undecided ({}/{}/{})".format(
            *(probability_text(p, threshold, 2) for p in result.probs())
        ),
    }[result.decision(threshold)]


#: What a rank test did with the data sets without a difference, by its ``zero_method``.
_ZEROS = {
    "wilcox": "left out",
    "drop": "left out",
    "zsplit": "split between the learners",
    "split": "split between the learners",
    "pratt": "ranked with the others (Pratt)",
}


def _freq_sentence(first, second, name, res, side, adjusted, alpha, floor=0.0) -> str:
    """A frequentist test's decision in words; the sign of ``side`` says which learner its
    statistic favours (positive: the first), ``adjusted`` is its Holm-adjusted p-value
    (None for a single test, or a single pair: nothing to adjust over) and ``floor`` the
    smallest (adjusted) p-value the data sets and pairs allow (``PairResult.holm_floor``),
    named where it is not below ``alpha``. The data sets without a difference that a rank
    test left out or split between the learners (``res.n_zero``) are counted."""
    better = first if side > 0 else second
    adj = "" if adjusted is None else f", Holm-adjusted over the pairs p = {adjusted:.3g}"
    if zeros := getattr(res, "n_zero", 0):  # the rank tests leave them out, or split them
        adj += (
            f"; {zeros} data set{'s' * (zeros > 1)} without a difference {_ZEROS[res.zero_method]}"
        )
    p = res.pvalue if adjusted is None else adjusted
    if p < alpha:
        return (
            f"{name}: {first} and {second} differ significantly, {better} better "
            f"(p = {res.pvalue:.3g}{adj})"
        )
    over = "" if adjusted is None else ", Holm-adjusted over the pairs,"
    reach = (
        f"; out of reach on these data sets: no p-value{over} can be below {floor:.3g}"
        if floor >= alpha
        else ""
    )
    return f"{name}: no significant difference at {alpha:g} (p = {res.pvalue:.3g}{adj}{reach})"


def _errors_text(fit) -> str:
    """The posterior-sampling standard errors of a hierarchical fit's three probabilities,
    each named; one of 0 says why (every draw's vote, or none, went to that region)."""
    parts = []
    for region, p, se in zip(("left", "rope", "right"), fit.probs(), fit.probs_se(), strict=True):
        why = "" if se > 0 else f" ({'every' if p == 1 else 'no'} draw voted for it)"
        parts.append(f"{region} {se:.2g}{why}")
    return ", ".join(parts)


def _estimates_text(fit) -> str:
    """A hierarchical fit's estimate of the mean difference over data sets, ``delta0``, with
    its 95% credible interval, and the predictive probabilities of the next data set's
    difference lying left of, in and right of the rope (Corani et al. 2017, Sec. 3.2)."""
    low, high = np.quantile(fit.delta0, [0.025, 0.975])
    return (
        f"; mean difference over data sets (delta0): {signed_text(float(np.mean(fit.delta0)))}, "
        f"95% credible interval {signed_text(float(low))} to {signed_text(float(high))}; "
        f"predictive probability that the next data set's difference lies left of, in or "
        f"right of the rope: {masses_text(fit)} (the decision rests instead on the shares of "
        "posterior draws under which each region is the most probable)"
    )


def masses_text(fit) -> str:
    """A hierarchical fit's predictive probabilities of the next data set's difference lying
    left of, in and right of the rope, as the line and the density figure's caption give
    them."""
    return ", ".join(f"{m:.3f}" for m in fit.next_dataset_masses)


def signed_text(value: float) -> str:
    """A difference with its sign, to three significant digits (zero without one)."""
    return f"{value:+.3g}" if value else "0"


def _diagnostics_text(problems: tuple[str, ...], refit: str) -> str:
    """What a hierarchical fit's diagnostics say beside its decision: nothing where the first
    fit passed them; the refit (``refit``: how it was run, after which problems of the first
    fit) and whether it passed; or the problems of a fit not refitted."""
    if refit:
        verdict = f"fails them too: {'; '.join(problems)}" if problems else "passes them"
        return f" ({refit}; the refit {verdict})"
    return f" (the fit failed its diagnostics: {'; '.join(problems)})" if problems else ""


#: Below this many data sets, a decision of the Bayesian signed-rank or sign test gets a
#: note on what its posterior cannot know (a rule of thumb, not a theorem).
FEW_DATASETS = 10

#: What the posterior of the Bayesian signed-rank and sign tests cannot know, a Dirichlet
#: process (Benavoli et al. 2017, Sec. 5): two data sets in the rope give the signed-rank
#: test P(rope) = 1 exactly.
DIRICHLET_MASS = (
    "their posterior (a Dirichlet process) puts its mass on the data sets observed and on "
    "the prior's pseudo-observation at zero, and on no other, so it cannot doubt that "
    "further data sets would behave like these"
)


#: Above this ratio between the scales of the data sets' raw scores, a note says that the
#: tests across data sets may be dominated by the data sets of the largest scale (a rule of
#: thumb, not a theorem).
SCALE_SPREAD = 100.0


def scale_spread_note(
    smallest: float, largest: float, rope: tuple[float, float] | None = None
) -> str:
    """A note where the scales of the data sets' raw scores (``smallest`` and ``largest``,
    e.g. the standard deviations of their scores) differ by more than
    :data:`SCALE_SPREAD`, else nothing: the signed-rank tests rank the differences of all
    data sets together and one ``rope`` (None where no test used one) serves them all,
    while Demsar (2006, Sec. 3.1.3) asks for differences commensurable across data sets."""
    if not largest > SCALE_SPREAD * smallest:
        return ""
    roped = f", and one rope ({_rope_text(rope)}) serves them all" if rope is not None else ""
    return (
        f"The data sets' scores vary on very different scales (their standard deviations "
        f"range from {smallest:.3g} to {largest:.3g}, {largest / smallest:.3g} times): the "
        f"signed-rank tests rank the differences of all data sets together{roped}, so the "
        "data sets of the largest scale may dominate them; differences relative to each "
        "data set's scale (e.g. log-ratios of losses) would be commensurable (Demsar 2006, "
        "Sec. 3.1.3). The correlated t-test of each data set, the sign test and the "
        "Poisson-binomial test do not depend on the scales."
    )


def smallest_p_clause(n_pairs: int) -> str:
    """How the smallest p-value of the Wilcoxon and sign tests comes about on ``n_pairs``
    pairs (:func:`cvcompare.report.analysis.holm_floor`), as a clause."""
    holm = f", times {n_pairs} pairs for Holm's adjustment," if n_pairs > 1 else ""
    return f"(every data set with a difference favouring one learner){holm}"


#: What the hierarchical model does with a data set whose fold differences are all equal
#: (:func:`cvcompare.hierarchical.fit_hierarchical`), and what follows.
NOISE_FROM_ROPE = "got noise drawn from the rope, as in the authors' code, so"


def noisy_note(datasets: list[str]) -> str:
    """What a hierarchical fit did with the ``datasets`` whose fold differences are all
    equal, as a clause (empty where there are none): noise drawn from the rope, as in the
    authors' code (:func:`cvcompare.hierarchical.fit_hierarchical`), which makes the fit
    depend on the rope beyond the decision."""
    if not datasets:
        return ""
    n = len(datasets)
    return (
        f"; {n} data set{'s' * (n > 1)} with all fold differences equal ({', '.join(datasets)}) "
        f"{NOISE_FROM_ROPE} the fit depends on the rope: compare with another rope"
    )


def no_rope(tests: str, plural: bool = False) -> str:
    """Why ``tests`` (the IDP test, the Poisson-binomial test) can decide for a learner
    where the tests with a rope find equivalence: they have no rope."""
    has, they, what = ("have", "they ask", "their decisions do") if plural else (
        "has", "it asks", "a decision here does"
    )  # fmt: skip
    return (
        f"{tests} {has} no rope: {they} which learner is better, not whether by more than the "
        f"rope, so {what} not contradict 'equivalent' elsewhere"
    )


def _idp_sentence(first: str, second: str, idp, threshold: float, equivalent: bool) -> str:
    """The IDP signed-rank test's decision in words, with its lower and upper probabilities;
    where it decides for a learner and a test with a rope finds the two ``equivalent``, why
    that is no contradiction (:func:`no_rope`)."""
    verdict = idp.decision(threshold)
    bounds = (
        f"P({first} better than {second}): lower {probability_text(idp.lower_prob, threshold)}, "
        f"upper {probability_text(idp.upper_prob, 1 - threshold)}"
    )
    if verdict in ("right", "left"):
        bounds += f"; {no_rope('the IDP test')}" if equivalent else ""
        better = first if verdict == "right" else second
        return (
            f"IDP signed-rank: {better} is better with probability above {threshold:g} under "
            f"every prior of the set ({bounds})"
        )
    if verdict == "none":
        return (
            f"IDP signed-rank: neither is better with probability above {threshold:g} under "
            f"any prior of the set ({bounds})"
        )
    return (
        f"IDP signed-rank: indeterminate, whether one is better with probability above "
        f"{threshold:g} depends on the prior ({bounds})"
    )


def _ttest_summary(pair: PairResult, settings) -> list[str]:
    """The correlated t-tests of a pair, Bayesian and frequentist, tallied over its data sets."""
    thr, alpha = settings.threshold, settings.alpha
    n = correlated_t_tallies(pair.ttests, thr, alpha)
    return [
        f"Bayesian correlated t-test per data set (probability > {thr:g}): {pair.first} "
        f"practically better on {n['n_right']}, equivalent on {n['n_rope']}, {pair.second} "
        f"practically better on {n['n_left']}, undecided on {n['n_undecided']} of {pair.q} "
        "data sets",
        f"Frequentist correlated t-test per data set (two-sided, {alpha:g}): significant on "
        f"{n['n_significant_a'] + n['n_significant_b']} of {pair.q} ({n['n_significant_a']} "
        f"for {pair.first}, {n['n_significant_b']} for {pair.second}; each data set's test "
        f"at {alpha:g}, not adjusted for the {pair.q} tests: about {alpha * pair.q:.2g} of "
        "them significant where the learners do not differ)",
    ]


def pair_lines(pair: PairResult, settings, n_pairs: int) -> list[str]:
    """Every test's decision on a pair in words, one line per test.

    Parameters
    ----------
    pair : PairResult
        The pair's tests.
    settings : Settings
        The settings of the comparison.
    n_pairs : int
        The number of pairs compared, over which the Wilcoxon and sign p-values are
        Holm-adjusted; with one there is nothing to adjust over, and no adjustment is named.

    Returns
    -------
    list of str
        One sentence per test.
    """
    a, b, thr, rope = pair.first, pair.second, settings.threshold, settings.rope
    lines = []
    if pair.hierarchical is not None:
        fit = pair.hierarchical
        lines.append(
            "Hierarchical model (next data set): "
            + bayes_sentence(a, b, fit, rope, thr)
            + f" (posterior-sampling standard errors: {_errors_text(fit)})"
            + _diagnostics_text(fit.diagnostics.problems, pair.hierarchical_refit)
            + _estimates_text(fit)
            + noisy_note([pair.datasets[i] for i in fit.noisy])
        )
    elif pair.hierarchical_skipped:
        lines.append(f"Hierarchical model: {pair.hierarchical_skipped}")
    if pair.bayes_signed_rank is not None:
        lines.append(
            "Bayesian signed-rank test: " + bayes_sentence(a, b, pair.bayes_signed_rank, rope, thr)
        )
        lines.append("Bayesian sign test: " + bayes_sentence(a, b, pair.bayes_sign, rope, thr))
        # the tests without a rope may decide for a learner that one with a rope finds
        # equivalent: said where it happens
        equivalent = any(
            test is not None and test.decision(thr) == "rope"
            for test in (pair.hierarchical, pair.bayes_signed_rank, pair.bayes_sign)
        )
        lines.append(_idp_sentence(a, b, pair.idp, thr, equivalent))
        pb, verdict = pair.poisson, poisson_verdict(pair.poisson)
        why = (
            f"; {no_rope('the Poisson-binomial test')}" if equivalent and verdict != "none" else ""
        )
        verdict = "no decision" if verdict == "none" else f"{pair.learner(verdict)} is better"
        lines.append(
            f"Poisson-binomial test: {verdict} (P({a} wins on more than half the data sets) = "
            f"{probability_text(pb.prob_majority, 1 - pb.alpha)}, P({b} does) = "
            f"{probability_text(pb.prob_majority_negative, 1 - pb.alpha)}; "
            f"threshold {1 - pb.alpha:g}{why})"
        )
        for name, test in (("Wilcoxon signed-rank test", "wilcoxon"), ("Sign test", "sign")):
            res = getattr(pair, test)
            floor = pair.holm_floor.get(test, 0.0)
            adjusted = pair.holm.get(test) if n_pairs > 1 else None
            lines.append(_freq_sentence(a, b, name, res, res.side, adjusted, settings.alpha, floor))
    else:
        res, post = pair.ttests[0]
        lines.append("Bayesian correlated t-test: " + bayes_sentence(a, b, post, rope, thr))
        lines.append(_freq_sentence(a, b, "Correlated t-test", res, res.mean, None, settings.alpha))
        lines.append("The tests across data sets need at least two data sets; this table has one.")
    return lines + (_ttest_summary(pair, settings) if pair.q >= 2 else [])
