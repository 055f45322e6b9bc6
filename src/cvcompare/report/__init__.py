"""A written report of every test on a user's own cross-validation results.

* :func:`compare_learners` - run every test on two learners or on all pairs of several;
* :func:`build_report` - render the results as one self-contained HTML page and a Markdown
  twin with the same content (decisions in words, plots, the settings needed to rerun);
* :func:`report` - both in one call, from a table of scores.

The command ``cvcompare report RESULTS -o DIR`` writes the same page.
"""

from .analysis import ComparisonResults, PairResult, Settings, compare_learners
from .render import Report, build_report
from .sentences import bayes_sentence

__all__ = [
    "ComparisonResults",
    "PairResult",
    "Report",
    "Settings",
    "bayes_sentence",
    "build_report",
    "compare_learners",
    "report",
]


def report(table, **options) -> Report:
    """Run :func:`compare_learners` on ``table`` with ``options`` and render the report.

    Parameters
    ----------
    table : pandas.DataFrame
        A tidy table from :func:`cvcompare.io.read_csv_scores` or
        :func:`cvcompare.io.read_accuracies` (as fractions).
    **options
        The keyword arguments of :func:`compare_learners` (``learners``, ``rho``, ``rope``,
        ``alpha``, ``threshold``, ``scale``, ...), with its defaults.

    Returns
    -------
    Report
        The HTML page, its Markdown twin and their figures (:func:`build_report`).

    Raises
    ------
    TypeError, ValueError
        Those of :func:`compare_learners` for a bad table or option.

    Examples
    --------
    >>> from cvcompare.io import read_accuracies  # doctest: +SKIP
    >>> page = report(read_accuracies("accuracies.txt"), rho=0.1)  # doctest: +SKIP
    >>> page.write("report")  # doctest: +SKIP
    """
    return build_report(compare_learners(table, **options))
