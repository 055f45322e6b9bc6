"""The report's page as a list of blocks, one section after another in the page's order.

:func:`page_blocks` writes the page once; :mod:`cvcompare.report.render` renders the same blocks
as HTML and as Markdown. A block is a tuple whose first item is its kind:

* ``("h", level, text)`` - a heading;
* ``("p", text)`` - a paragraph;
* ``("list", items)`` - a bulleted list;
* ``("fig", file name, caption)`` - a figure, its PNG under that name in the figures
  returned beside the blocks;
* ``("table", header, rows)`` - a table;
* ``("details", summary, header, rows)`` - a table folded under a one-line summary.

Text between backquotes in a paragraph or a list item is code.
"""

from __future__ import annotations

import itertools

import numpy as np

from cvcompare.hierarchical.remedy import refit_rates
from cvcompare.plots.posterior import difference_text

from .analysis import ComparisonResults, PairResult, Settings, idp_verdict, poisson_verdict
from .figures import cd_figures, heatmap_figures, pair_figures
from .rerun import rerun_command
from .sentences import (
    DIRICHLET_MASS,
    FEW_DATASETS,
    no_rope,
    pair_lines,
    probability_text,
    scale_spread_note,
    short_decision,
    signed_text,
    smallest_p_clause,
)


def _fmt(v) -> str:
    """A value as text: a float to three significant digits (``.3g``, as every p-value of
    the page), anything else as ``str`` writes it."""
    return f"{v:.3g}" if isinstance(v, float) else str(v)


def _ties_note(results: ComparisonResults) -> str:
    """Where models tie on some data sets: that the Friedman statistic shown is Demsar's,
    which ties make conservative, and the statistic corrected for them."""
    fr, tied = results.friedman, results.friedman_ties
    if tied is None:
        return ""
    return (
        f" (Demsar's formula, not corrected for the ties on {fr.tied_datasets} of "
        f"{fr.n_datasets} data sets, which make it conservative; corrected for them, "
        f"chi-square = {tied.statistic:.3f}, p = {_fmt(tied.pvalue)})"
    )


def _summary_table(results: ComparisonResults):
    """The header and rows of the table of every test's decision on every pair; no rows when
    the tests across data sets did not run (one data set)."""
    thr, several = results.settings.threshold, len(results.pairs) > 1
    holm = " (Holm)" if several else ""
    header = [
        "first",
        "second",
        "hierarchical",
        "Bayesian signed-rank",
        "Bayesian sign",
        "IDP (no rope)",
        "Poisson-binomial (no rope)",
        f"Wilcoxon p{holm}",
        f"sign p{holm}",
    ]
    rows = []
    for p in results.pairs:
        if p.bayes_signed_rank is None:
            continue
        rows.append(
            [
                p.first,
                p.second,
                _hierarchical_cell(p, thr),
                short_decision(p.first, p.second, p.bayes_signed_rank, thr),
                short_decision(p.first, p.second, p.bayes_sign, thr),
                _verdict_cell(p, idp_verdict(p.idp, thr)),
                _verdict_cell(p, poisson_verdict(p.poisson)),
                _two_sided_cell(p, "wilcoxon", results.settings.alpha, several),
                _two_sided_cell(p, "sign", results.settings.alpha, several),
            ]
        )
    return header, rows


def _verdict_cell(pair: PairResult, verdict: str) -> str:
    """A cell of a test without a rope: ``"<learner> better"``, ``"undecided"`` or
    ``"indeterminate"`` (the IDP's priors disagree), worded as the Bayesian tests' cells so
    that no learner's name reads as a verdict."""
    if verdict in ("first", "second"):
        return f"{pair.learner(verdict)} better"
    return "undecided" if verdict == "none" else verdict


def _hierarchical_cell(pair: PairResult, threshold: float) -> str:
    """The hierarchical model's cell: its decision, marked where the fit failed its
    sampler's diagnostics; or why there is none."""
    fit = pair.hierarchical
    if fit is None:
        return "not fitted" if pair.hierarchical_skipped else "not run"
    decision = short_decision(pair.first, pair.second, fit, threshold)
    return decision if fit.diagnostics.ok else f"{decision} (diagnostics failed)"


def _two_sided_cell(pair: PairResult, test: str, alpha: float, several: bool) -> str:
    """A two-sided test's cell: its p-value and, over ``several`` pairs, in brackets the
    Holm-adjusted one (over one pair, the p-value itself), after the learner its statistic
    favours where the adjusted p-value is below ``alpha``."""
    res, holm = getattr(pair, test), pair.holm[test]
    verdict = pair.two_sided_verdict(test, alpha)
    named = "" if verdict == "none" else f"{pair.learner(verdict)} better, "
    return f"{named}{res.pvalue:.3g}" + (f" ({holm:.3g})" if several else "")


def _rho_origin(settings, n_folds: int) -> str:
    """Where rho came from: given, or assumed for 10-fold cross-validation."""
    if not settings.rho_assumed:
        return "correlation of the fold differences, Nadeau & Bengio"
    return (
        f"not given: {n_folds} fold results per data set, 10-fold cross-validation assumed; "
        "use 1/k for k-fold, 0.5 for 5x2 with --rho"
    )


def _unit(scale: str) -> str:
    """The unit of the differences, in words."""
    if scale == "raw":
        return "score in its own unit"
    return "accuracy-like fractions: 0.01 is one percentage point"


def _names(learners: list[str]) -> str:
    """The learners as a list in words, each quoted if a name holds a comma."""
    if any("," in name for name in learners):
        return ", ".join(f"'{name}'" for name in learners)
    return ", ".join(learners)


def _figure_blocks(drawn: list[tuple[str, str, bytes]], figures: dict[str, bytes]) -> list[tuple]:
    """The blocks of figures drawn as (file name, caption, PNG); their PNGs go to ``figures``."""
    blocks = []
    for name, caption, png in drawn:
        figures[name] = png
        blocks.append(("fig", name, caption))
    return blocks


def _heading(results: ComparisonResults) -> list[tuple]:
    """The page's title and the paragraph on its scores and learners."""
    s = results.settings
    k, q = len(results.learners), len(results.datasets)
    return [
        ("h", 1, f"Comparison of {k} learners on {q} data set{'s' * (q != 1)}"),
        (
            "p",
            f"Scores: {results.source or 'given table'}; {results.n_folds} fold results "
            f"per data set; {'higher' if s.higher_is_better else 'lower'} is better "
            f"({_unit(s.scale)}). Learners: {_names(results.learners)}. Mean score over "
            f"{'the data sets' if q > 1 else 'the folds'}: "
            + ", ".join(
                f"{name} {score:.6g}"
                for name, score in zip(results.learners, results.mean_scores, strict=True)
            )
            + ".",
        ),
    ]


def _dataset_scores(results: ComparisonResults) -> list[tuple]:
    """The folded table of each learner's mean score on each data set, with the standard
    deviation over its folds (a paper's table of results); none for results without them."""
    if results.dataset_means is None or results.dataset_sds is None:
        return []
    rows = [
        [
            str(dataset),
            *(
                _score_text(m, 4) + (f" ± {_score_text(sd, 2)}" if np.isfinite(sd) else "")
                for m, sd in zip(means, sds, strict=True)
            ),
        ]
        for dataset, means, sds in zip(
            results.datasets, results.dataset_means, results.dataset_sds, strict=True
        )
    ]
    return [
        (
            "details",
            f"Mean score on each data set ({len(rows)}), ± its standard deviation over the "
            f"{results.n_folds} folds",
            ["data set", *results.learners],
            rows,
        )
    ]


def _score_text(value: float, digits: int) -> str:
    """A score to ``digits`` significant digits, without an exponent from 1e-4 to 1e9
    (an RMSE of 12240.3 as 12240, not 1.224e+04)."""
    if value == 0 or 1e-4 <= abs(value) < 1e9:
        return np.format_float_positional(
            value, precision=digits, unique=False, fractional=False, trim="-"
        )
    return f"{value:.{digits - 1}e}"


def _how_to_read(results: ComparisonResults) -> list[tuple]:
    """The paragraph on how to read the differences, the probabilities and the decisions
    (of the hierarchical model's, where it was fitted)."""
    s = results.settings
    hierarchical = (
        " For the hierarchical model these are, as in Corani et al. (2017, Sec. 3.2), the "
        "posterior probabilities that each region is the most probable one for the "
        "difference on a new data set."
        if any(p.hierarchical is not None for p in results.pairs)
        else ""
    )
    losses = (
        ""
        if s.higher_is_better
        else (" (the scores being losses, the second learner's score minus the first's)")
    )
    return [
        (
            "p",
            "How to read: every difference is first learner minus second, oriented so "
            f"that a positive difference favours the first learner{losses}. A Bayesian test "
            "gives three "
            "probabilities, listed everywhere in this order (left, rope, right): that the "
            f"second learner is practically better (left: difference below {s.rope[0]:g}), "
            "that the two are practically equivalent (rope: difference in "
            f"[{s.rope[0]:g}, {s.rope[1]:g}]), and that the first learner is practically "
            f"better (right: difference above {s.rope[1]:g}); it decides when one of them "
            f"exceeds {s.threshold:g}.{hierarchical} Frequentist tests are two-sided at "
            f"{s.alpha:g}.",
        )
    ]


def _friedman_line(results: ComparisonResults) -> str:
    """The Friedman and Iman-Davenport tests of all learners in words, decided by their
    exact p-value where the design is small enough to enumerate it (the large-sample
    approximations fail with few data sets), by Iman-Davenport's otherwise
    (:meth:`~cvcompare.stats.FriedmanResult.rejects`)."""
    s, fr = results.settings, results.friedman
    return (
        f"Friedman test: chi-square = {fr.statistic:.3f}, p = {_fmt(fr.pvalue)}"
        + _ties_note(results)
        + "; "
        f"Iman-Davenport F({fr.ff_df[0]}, {fr.ff_df[1]}) = {fr.ff_statistic:.3f}"
        # F divides by the spread of ranks that chi-square leaves, none when ranks agree
        + (" (every data set ranks the learners alike)" if np.isinf(fr.ff_statistic) else "")
        + f", p = {_fmt(fr.ff_pvalue)}"
        + (
            ""
            if np.isnan(fr.exact_pvalue)
            else f"; exact p = {_fmt(fr.exact_pvalue)} (of both statistics, by enumerating "
            "every ordering of each data set's ranks; the two above are large-sample "
            "approximations)"
        )
        + ": "
        + ("the learners differ" if fr.rejects(s.alpha) else "no significant difference")
        + f" at {s.alpha:g}"
        + (
            # too few data sets for any outcome to be significant
            f" (out of reach on {fr.n_datasets} data sets: no outcome has an exact p-value "
            f"below {_fmt(fr.exact_floor)})"
            if fr.exact_floor >= s.alpha
            else ""
        )
    )


def _all_learners(results: ComparisonResults, figures: dict[str, bytes]) -> list[tuple]:
    """The section on all learners (Friedman, Iman-Davenport, Nemenyi), its critical-difference
    diagram added to ``figures``."""
    nem, k = results.nemenyi, len(results.learners)
    order = np.argsort(nem.avg_ranks, kind="stable")
    names, sig = results.learners, []
    for i, j in itertools.combinations(range(k), 2):
        if nem.significant[i, j]:  # the better learner (the lower average rank) first
            better, worse = (i, j) if nem.rank_differences[i, j] < 0 else (j, i)
            sig.append(
                f"{names[better]} better than {names[worse]} (rank difference "
                f"{nem.rank_differences[worse, better]:.2f})"
            )
    lines = [
        _friedman_line(results),
        "Average ranks (1 = best): "
        + ", ".join(f"{results.learners[i]} {nem.avg_ranks[i]:.2f}" for i in order),
        f"Nemenyi critical difference CD = {nem.cd:.3f} (q_alpha = {nem.q_alpha:.3f})",
        "Significantly different pairs: "
        + (
            # the post-hoc test follows only where the test of all learners rejects
            f"none: the learners do not differ, as above ({len(sig)} pair"
            f"{'s' * (len(sig) > 1)} beyond CD, which the Nemenyi test does not look at then)"
            if sig and not results.friedman.rejects(results.settings.alpha)
            else "; ".join(sig)
            if sig
            else "none"
        ),
    ]
    return [
        ("h", 2, "All learners: Friedman, Iman-Davenport and Nemenyi"),
        ("list", lines),
        *_figure_blocks(cd_figures(results), figures),
    ]


def _decisions(
    results: ComparisonResults, header: list[str], rows: list[list[str]], figures: dict[str, bytes]
) -> list[tuple]:
    """The section of the decisions on every pair: their table, its legend and, with three
    learners or more, the heat maps of the pairs' probabilities (added to ``figures``)."""
    p_cells = (
        "the p-value and, in brackets, the p-value Holm-adjusted over the pairs, per test"
        if len(results.pairs) > 1
        else "the p-value (one pair: no adjustment)"
    )
    blocks = [
        ("h", 2, "Decisions for every pair"),
        ("table", header, rows),
        (
            "p",
            "Bayesian cells: the decision and its probability, or, when undecided, "
            "P(second better) / P(equivalent) / P(first better), the order (left, rope, "
            f"right). {no_rope('The IDP and Poisson-binomial tests', plural=True)}. Wilcoxon and "
            "sign cells: "
            f"{p_cells}; where that is below {results.settings.alpha:g}, first the learner "
            "the test favours (the larger rank sum, the more wins).",
        ),
    ]
    sizes, rope = results.size_range, results.settings.rope
    spread = scale_spread_note(*sizes, rope) if sizes else ""
    notes = [*_out_of_reach(results), *_few_datasets(results), *([spread] if spread else [])]
    blocks += [("p", note) for note in notes]
    if len(results.learners) >= 3:
        blocks += _figure_blocks(heatmap_figures(results), figures)
    return blocks


def _out_of_reach(results: ComparisonResults) -> list[str]:
    """A note where the data sets and pairs leave the Wilcoxon or sign test no p-value below
    alpha after Holm's adjustment (``PairResult.holm_floor``), else nothing."""
    alpha, pair, n = results.settings.alpha, results.pairs[0], len(results.pairs)
    names = {"wilcoxon": "Wilcoxon signed-rank", "sign": "sign"}
    out = {names[test]: floor for test, floor in pair.holm_floor.items() if floor >= alpha}
    if not out:
        return []
    tests = " and ".join(out) + " test" + "s" * (len(out) > 1)
    if len(set(out.values())) == 1:
        floors = f"{next(iter(out.values())):.3g}"
    else:
        floors = " and ".join(f"{floor:.3g} ({name})" for name, floor in out.items())
    pairs = f" and {n} pairs" if n > 1 else ""
    return [
        f"With {pair.q} data sets{pairs}, the {tests} cannot find a significant difference at "
        f"{alpha:g}: the smallest p-value these data sets allow {smallest_p_clause(n)} is "
        f"{floors}."
    ]


def _few_datasets(results: ComparisonResults) -> list[str]:
    """A note where the Bayesian signed-rank or sign test decides on fewer than
    :data:`.sentences.FEW_DATASETS` data sets (:data:`.sentences.DIRICHLET_MASS`), else
    nothing."""
    q, thr = results.pairs[0].q, results.settings.threshold
    decided = any(
        test is not None and test.decision(thr) != "none"
        for pair in results.pairs
        for test in (pair.bayes_signed_rank, pair.bayes_sign)
    )
    if q >= FEW_DATASETS or not decided:
        return []
    fitted = any(pair.hierarchical is not None for pair in results.pairs)
    return [
        f"With only {q} data sets, read the decisions of the Bayesian signed-rank and sign "
        f"tests with care: {DIRICHLET_MASS} (a few data sets in the rope give P(equivalent) "
        "near 1)."
        + (" The hierarchical model also weighs the spread between data sets." if fitted else "")
    ]


def _ttest_details(pair: PairResult, s: Settings) -> tuple:
    """The folded table of a pair's correlated t-tests, one row per data set."""
    rows = [
        [
            d,
            _fmt(res.mean),
            _fmt(res.pvalue),
            *(probability_text(p, s.threshold) for p in (post.p_left, post.p_rope, post.p_right)),
        ]
        for d, (res, post) in zip(pair.datasets, pair.ttests, strict=True)
    ]
    # the regions in the report's order (left, rope, right)
    better = [f"P({pair.second} better)", "P(equivalent)", f"P({pair.first} better)"]
    return (
        "details",
        f"Correlated t-tests on each data set ({pair.q})",
        [
            "data set",
            "mean difference ("
            + difference_text(pair.first, pair.second, s.higher_is_better)
            + ")",
            "p (two-sided)",
            *better,
        ],
        rows,
    )


def _pair_section(
    pair: PairResult, results: ComparisonResults, figures: dict[str, bytes]
) -> list[tuple]:
    """The section of one pair of the ``results``: its decisions, its figures (added to
    ``figures``) and its correlated t-tests."""
    s = results.settings
    return [
        ("h", 2, f"{pair.first} vs {pair.second}"),
        ("p", _differences_line(pair, s)),
        ("list", pair_lines(pair, s, len(results.pairs))),
        *_figure_blocks(pair_figures(pair, s, results.learners), figures),
        _ttest_details(pair, s),
    ]


def _differences_line(pair: PairResult, s: Settings) -> str:
    """The size of a pair's differences: their mean, median and range over the data sets,
    and on how many each learner scores better."""
    d, text = pair.means, difference_text(pair.first, pair.second, s.higher_is_better)
    if d.size == 1:
        return f"Mean difference ({text}) on the one data set: {signed_text(d[0])}."
    return (
        f"Mean difference ({text}) over the data sets: {signed_text(d.mean())}, median "
        f"{signed_text(np.median(d))}, from {signed_text(d.min())} to {signed_text(d.max())}; "
        f"{pair.first} better on {np.sum(d > 0)}, {pair.second} on {np.sum(d < 0)}, neither "
        f"on {np.sum(d == 0)} of {d.size} data sets."
    )


def _hierarchical_line(pairs: list, s: Settings) -> str:
    """The hierarchical model's settings and the diagnostics of the fits of ``pairs``, in
    one line; each fit's failures under its pair's name."""
    fits = [p.hierarchical for p in pairs]
    worst_rhat = max(max(f.diagnostics.rhat.values()) for f in fits)
    min_ess = min(min(f.diagnostics.ess_bulk.values()) for f in fits)
    divergences = sum(f.diagnostics.divergences for f in fits)
    problems = [
        f"{p.first} vs {p.second} ({'; '.join(p.hierarchical.diagnostics.problems)})"
        for p in pairs
        if p.hierarchical.diagnostics.problems
    ]
    return (
        f"Hierarchical model (Corani et al. 2017): nu prior '{fits[0].nu_prior}', "
        "delta0 ~ U(-max|x|, max|x|) over the pair's fold differences (the authors' code; "
        "the paper writes U(-1, 1)), "
        f"{s.chains} chains x ({s.warmup} warm-up + {s.draws} draws; {_refits_text(s)}), "
        f"Stan runner '{fits[0].runner}'; diagnostics of "
        f"{', '.join(fits[0].diagnostics.rhat)} over {len(fits)} fit{'s' * (len(fits) > 1)}: "
        f"max R-hat {worst_rhat:.4f}, min bulk ESS {min_ess:.0f}, {divergences} divergent "
        "transitions" + (f"; warnings: {', '.join(problems)}" if problems else "; no warnings")
    )


def _refits_text(s: Settings) -> str:
    """How a hierarchical fit failing its diagnostics was run again
    (:func:`cvcompare.hierarchical.fit_with_remedy`), in words."""
    if s.refits == 0:
        return "a fit failing its diagnostics is kept as it is"
    rates = refit_rates(s.refit_adapt_delta, s.refits)
    times = "once," if s.refits == 1 else f"up to {s.refits} times, each time"
    return (
        f"a fit failing its diagnostics is run again {times} with "
        f"{s.refit_scale:g} times the warm-up and draws, at adapt_delta "
        + ", then ".join(f"{rate:g}" for rate in rates)
    )


def _settings(results: ComparisonResults) -> list[tuple]:
    """The last section: the settings to cite and the command that reruns the report."""
    s = results.settings
    across = results.pairs[0].bayes_signed_rank is not None  # the tests across data sets ran
    settings = [
        f"cvcompare {s.version}; root seed {s.seed}"
        + (f"; Monte Carlo draws {s.n_samples}" if across else ""),
        f"rho = {s.rho:g} ({_rho_origin(s, results.n_folds)}); rope = "
        f"[{s.rope[0]:g}, {s.rope[1]:g}]; alpha = {s.alpha:g}; decision probability "
        f"{s.threshold:g}",
        "Bayesian correlated t-test prior: matching (Corani & Benavoli 2015, Corollary 1)",
    ]
    if across:
        settings.append(
            f"Bayesian signed-rank prior: pseudo-observation at 0 of weight "
            f"{s.signed_rank_prior:g}; Bayesian sign test prior: {s.sign_prior:g} "
            f"pseudo-observation in the rope (+1e-4 in each region); IDP prior strength "
            f"s = {s.idp_s:.4f}"
        )
        settings.append(
            "Wilcoxon signed-rank and sign tests: data sets without a difference "
            + (
                "left out (as scipy and R)"
                if s.zero_method == "drop"
                else "split between the learners (Demsar 2006, Secs. 3.1.3-3.1.4): half "
                "their ranks to each rank sum (all of them, as scipy's zsplit), half of them "
                "to each learner's wins (one left out of an odd number)"
            )
        )
    fitted = [p for p in results.pairs if p.hierarchical is not None]
    if fitted:
        settings.append(_hierarchical_line(fitted, s))
    # the command names the results file as the page does, without the folder it was in
    settings.append(
        "Rerun: `" + rerun_command(results) + "`, in the folder that holds the results file"
    )
    return [("h", 2, "Settings (to cite and rerun)"), ("list", settings)]


def page_blocks(results: ComparisonResults) -> tuple[list[tuple], dict[str, bytes]]:
    """The page's blocks, section after section, and its figures (PNG by file name)."""
    figures: dict[str, bytes] = {}
    blocks = _heading(results) + _dataset_scores(results) + _how_to_read(results)
    if results.nemenyi is not None:
        blocks += _all_learners(results, figures)
    header, rows = _summary_table(results)
    if rows:
        blocks += _decisions(results, header, rows, figures)
    for pair in results.pairs:
        blocks += _pair_section(pair, results, figures)
    return blocks + _settings(results), figures
