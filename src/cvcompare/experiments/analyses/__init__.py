"""Analyses: experiment targets that are computed once rather than simulated.

An ``analysis`` experiment file names one of :data:`ANALYSES` and its settings; the
workflow runs it once per grid point with :func:`run_analysis`. Three families live here:

- :mod:`~.closed_form`: numbers that follow from a formula (e.g. the Gamma priors on the
  degrees of freedom, Corani et al. 2017, Table 1);
- :mod:`~.examples`: fixed worked examples whose input table is part of the experiment
  file (the Friedman / Nemenyi tutorial, the signed-rank example of Benavoli et al. 2014);
- analyses of the real cross-validation results (learner pairs, data-set subsets), read
  with :func:`cvcompare.io.read_accuracies`: :mod:`~.hierarchical_real` (the hierarchical
  model, Corani et al. 2017, Tables 5-6, Figs. 7-8) and :mod:`~.real_data_tests` (decisions
  of the Poisson-binomial and signed-rank tests and replicability, Corani & Benavoli 2015,
  Table 4; Benavoli et al. 2014, Table 5).

An analysis function ``fn(settings, data, rng) -> AnalysisOutput`` gets its checked
settings (defaults filled in), the real results as a tidy table (or ``None`` if it does
not read them) and a random generator keyed by the experiment and the grid point; it
reports each number with its uncertainty: ``"exact"`` (a closed form or a deterministic
computation, standard error 0), ``"Monte Carlo"`` or ``"posterior sampling"`` (the
standard error of a posterior mean estimated from Stan draws). Figure data (densities,
boxplot inputs) go in ``figure_data``, so that figure functions compute no statistics.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from cvcompare._validation import check_choice
from cvcompare.experiments.registry import check_settings
from cvcompare.seeding import replication_rng

__all__ = [
    "ANALYSES",
    "UNCERTAINTIES",
    "AnalysisOutput",
    "RegisteredAnalysis",
    "check_dataset_count",
    "check_learner_pair",
    "check_pair_in_data",
    "learner_pair_differences",
    "read_real_results",
    "register_analysis",
    "reported",
    "run_analysis",
]

#: The kinds of uncertainty a reported number may carry.
UNCERTAINTIES = ("exact", "Monte Carlo", "posterior sampling")


def reported(
    test: str,
    metric: str,
    value: float,
    *,
    se: float = 0.0,
    n: int = 1,
    uncertainty: str = "exact",
) -> dict[str, Any]:
    """One reported number: a row of the aggregate table.

    Parameters
    ----------
    test : str
        The row label (a test, a model variant or a learner), as listed in the experiment
        file's ``metrics[].tests``.
    metric : str
        The metric id.
    value, se : float
        The number and its standard error (0 for an exact number).
    n : int
        What the number is based on (draws, replications; 1 for a closed form).
    uncertainty : str
        One of :data:`UNCERTAINTIES`.
    """
    check_choice(uncertainty, "uncertainty", UNCERTAINTIES)
    return {
        "test": test,
        "metric": metric,
        "value": float(value),
        "se": float(se),
        "n": int(n),
        "uncertainty": uncertainty,
    }


@dataclass(frozen=True)
class AnalysisOutput:
    """What an analysis returns for one grid point.

    Attributes
    ----------
    rows : list of dict
        Reported numbers (:func:`reported`).
    figure_data : pandas.DataFrame or None
        Tidy data a figure draws (no statistics left to compute), or None.
    """

    rows: list[dict[str, Any]]
    figure_data: pd.DataFrame | None = None


Analysis = Callable[[dict[str, Any], pd.DataFrame | None, np.random.Generator], AnalysisOutput]


@dataclass(frozen=True)
class RegisteredAnalysis:
    """An analysis an experiment file can name.

    Attributes
    ----------
    function : callable
        ``function(settings, data, rng) -> AnalysisOutput``.
    defaults : mapping
        Every setting it accepts, with its default.
    metrics : frozenset of str
        The metric ids it can report.
    needs_data : bool
        Whether it reads the real cross-validation results.
    validate : callable or None
        ``validate(settings)`` raising ``ValueError`` on a bad (complete) setting, so that
        a dry run catches it.
    validate_data : callable or None
        ``validate_data(settings, data)`` raising ``ValueError`` on a setting the real
        results cannot serve (a learner they do not have, more data sets than they hold),
        so that a dry run with the results at hand catches it too.
    """

    function: Analysis
    defaults: Mapping[str, Any]
    metrics: frozenset[str]
    needs_data: bool
    validate: Callable[[dict[str, Any]], None] | None = field(default=None)
    validate_data: Callable[[dict[str, Any], pd.DataFrame], None] | None = field(default=None)

    def check(
        self, settings: Mapping[str, Any], data: pd.DataFrame | None = None
    ) -> dict[str, Any]:
        """Check settings, against the real results ``data`` too where given; return them
        with the defaults filled in."""
        full = check_settings(self, settings, "analysis")
        if self.validate is not None:
            self.validate(full)
        if data is not None and self.validate_data is not None:
            self.validate_data(full, data)
        return full


ANALYSES: dict[str, RegisteredAnalysis] = {}


def check_learner_pair(settings: Mapping[str, Any]) -> None:
    """Check that the settings ``first`` and ``second`` name two different learners."""
    for key in ("first", "second"):
        if not isinstance(settings[key], str) or not settings[key]:
            raise ValueError(f"{key}: expected a learner's name, got {settings[key]!r}")
    if settings["first"] == settings["second"]:
        raise ValueError(
            f"first, second: expected two different learners, got {settings['first']!r} twice"
        )


def read_real_results(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The real cross-validation results as the analyses read them: the accuracies file
    (:func:`cvcompare.io.read_accuracies`) as fractions, the repeated ``credit`` block line
    kept as ``credit#2``, since the papers count 54 data sets."""
    from cvcompare.io import read_accuracies

    return read_accuracies(path, duplicates="keep", as_fraction=True)


def check_pair_in_data(settings: Mapping[str, Any], data: pd.DataFrame) -> None:
    """Check that the real results ``data`` have the learners ``first`` and ``second`` of
    the settings (naming the setting)."""
    from cvcompare.io import check_learner, learners

    known = learners(data)
    for key in ("first", "second"):
        check_learner(settings[key], key, known)


def check_dataset_count(settings: Mapping[str, Any], data: pd.DataFrame, key: str) -> int:
    """Check that the real results ``data`` hold at least as many data sets as the setting
    ``key`` counts (None: all of them); return how many they hold."""
    count, held = settings[key], data["dataset"].nunique()
    if count is not None and count > held:
        raise ValueError(f"{key}: the real results have {held} data sets, got {key}={count}")
    return held


def learner_pair_differences(
    data: pd.DataFrame, settings: Mapping[str, Any], *, second_minus_first: bool = False
) -> tuple[np.ndarray, list[str]]:
    """Fold differences of the learners ``first`` and ``second`` of the settings.

    Parameters
    ----------
    data : pandas.DataFrame
        The real results, a tidy table from :func:`cvcompare.io.read_accuracies`.
    settings : mapping
        Checked settings with the learners ``first`` and ``second``.
    second_minus_first : bool
        False for ``first - second``, True for ``second - first``.

    Returns
    -------
    x : numpy.ndarray, shape (q, n_folds)
        The differences, one row per data set.
    datasets : list of str
        The data sets of the rows, in file order.

    The learners are those :func:`check_pair_in_data` checked (as :func:`run_analysis`
    does before it runs an analysis).
    """
    from cvcompare.io import fold_differences

    pair = (settings["second"], settings["first"])
    return fold_differences(data, *(pair if second_minus_first else pair[::-1]))


def register_analysis(
    name: str,
    *,
    defaults: Mapping[str, Any],
    metrics: Sequence[str],
    needs_data: bool = False,
    validate: Callable[[dict[str, Any]], None] | None = None,
    validate_data: Callable[[dict[str, Any], pd.DataFrame], None] | None = None,
) -> Callable[[Analysis], Analysis]:
    """Register an analysis under ``name`` (a decorator; the arguments are the fields of
    :class:`RegisteredAnalysis`)."""

    def deco(fn: Analysis) -> Analysis:
        if name in ANALYSES:
            raise ValueError(f"analysis {name!r} is registered twice")
        ANALYSES[name] = RegisteredAnalysis(
            fn, dict(defaults), frozenset(metrics), needs_data, validate, validate_data
        )
        return fn

    return deco


def run_analysis(
    *,
    experiment: str,
    function: str,
    points: Sequence[Mapping[str, Any]],
    metrics: Sequence[Mapping[str, Any]],
    root_seed: int,
    data: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run an analysis at every grid point.

    Parameters
    ----------
    experiment, function : str
        The experiment id and the analysis name (a key of :data:`ANALYSES`).
    points : sequence of mapping
        ``{"point", "params", "settings"}`` of each grid point
        (:meth:`cvcompare.experiments.spec.ExperimentSpec.analysis_job`).
    metrics : sequence of mapping
        ``{"id", "tests"}``: the numbers to keep; each must be reported.
    root_seed : int
        The project's root seed; point ``p`` uses ``replication_rng(root_seed, experiment,
        p, 0)``.
    data : pandas.DataFrame, optional
        The real cross-validation results (:func:`cvcompare.io.read_accuracies`), for an
        analysis that reads them.

    Returns
    -------
    aggregate : pandas.DataFrame
        One row per grid point, test and metric: ``experiment``, ``point``, the grid
        columns, ``test``, ``metric``, ``value``, ``se``, ``n``, ``uncertainty``.
    figure_data : pandas.DataFrame
        The points' figure data with ``experiment``, ``point`` and the grid columns in
        front (empty when the analysis draws nothing).
    """
    if function not in ANALYSES:
        raise ValueError(f"function: unknown analysis {function!r}; known: {sorted(ANALYSES)}")
    entry = ANALYSES[function]
    if entry.needs_data and data is None:
        raise ValueError(f"data: analysis {function!r} reads the real cross-validation results")
    wanted = {(t, m["id"]) for m in metrics for t in m["tests"]}
    rows, figure_parts = [], []
    for p in points:
        settings = entry.check(p["settings"], data if entry.needs_data else None)
        rng = replication_rng(root_seed, experiment, p["point"], 0)
        out = entry.function(settings, data if entry.needs_data else None, rng)
        front = {"experiment": experiment, "point": p["point"], **p["params"]}
        got = {(r["test"], r["metric"]) for r in out.rows}
        missing = sorted(wanted - got)
        if missing:
            raise ValueError(
                f"{experiment} at {p['point']}: analysis {function!r} did not report "
                f"(test, metric) {missing[:5]}"
            )
        rows += [{**front, **r} for r in out.rows if (r["test"], r["metric"]) in wanted]
        if out.figure_data is not None:
            part = out.figure_data.copy()
            for i, (key, val) in enumerate(front.items()):
                part.insert(i, key, val)
            figure_parts.append(part)
    grid = list(points[0]["params"]) if points else []
    columns = ["experiment", "point", *grid, "test", "metric", "value", "se", "n", "uncertainty"]
    aggregate = (
        pd.DataFrame(rows, columns=columns)
        .sort_values(["point", "metric", "test"], kind="stable")
        .reset_index(drop=True)
    )
    figure_data = pd.concat(figure_parts, ignore_index=True) if figure_parts else pd.DataFrame()
    return aggregate, figure_data


# Every module of this package registers its analyses in ANALYSES when imported; a new
# module is found without editing this file.
for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
