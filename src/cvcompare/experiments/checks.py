"""Consistency checks of an experiment file, beyond its JSON Schema.

:meth:`ExperimentSpec.from_mapping <cvcompare.experiments.spec.ExperimentSpec.from_mapping>`
runs :func:`check_consistency` on every experiment it builds; each check calls ``fail``
with a message that names the place in the file and what was expected, and ``fail`` raises
:class:`~cvcompare.experiments.spec.SpecError`.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from cvcompare.experiments.metrics import METRIC_KINDS
from cvcompare.experiments.registry import BOOLEAN_COLUMNS, COMMON_COLUMNS, TESTS
from cvcompare.experiments.spec import (
    FIDELITIES,
    ExperimentSpec,
    GridPoint,
    SpecError,
    TestSpec,
    format_value,
)

__all__ = ["check_against_data", "check_consistency"]

#: Result columns that grid axes may not be named after (``q`` may be an axis): those of
#: every row and those any registered test writes (an axis ``statistic`` would share its
#: column with the tests' statistics in the tidy table of replications).
RESERVED_COLUMNS = (COMMON_COLUMNS - {"q"}).union(*(t.columns for t in TESTS.values()))

#: Metric entries that only some kinds read (the schema checks the other kinds' own keys).
KIND_KEYS = {
    "columns": ("share_above", "evidence"),
    "threshold": ("share_above", "paired_difference"),
    "baseline": ("paired_difference",),
}


def check_consistency(spec: ExperimentSpec, what: str) -> None:
    """Check that the parts of a schema-valid experiment file fit together.

    Every scenario of the grid is a valid scenario, every test or analysis setting is
    known and valid at every fidelity and grid point, every metric reads a column its tests
    write, the table names one number per cell, the figure function exists and reads the
    metrics and axes it declares, and a claim names a metric, test and grid point that
    exist.

    Parameters
    ----------
    spec : ExperimentSpec
        The experiment, as built from the file.
    what : str
        Name of the document in error messages.

    Raises
    ------
    SpecError
        At the first inconsistency, with a message naming the place in the file.
    """

    def fail(msg: str) -> None:
        raise SpecError(f"{what}: {msg}")

    if spec.kind == "analysis" and spec.analysis is not None:
        from cvcompare.experiments.analyses import ANALYSES

        if spec.analysis.function not in ANALYSES:
            fail(
                f"analysis.function: unknown analysis {spec.analysis.function!r}; known: "
                f"{sorted(ANALYSES)}"
            )
    _check_parts(spec, fail)
    _check_grid(spec, fail)
    if spec.kind == "simulation":
        metric_labels = _check_simulation(spec, fail)
    else:
        metric_labels = _check_analysis(spec, fail)
    _check_outputs(spec, fail, metric_labels)
    _check_claims(spec, fail, metric_labels)


def _check_parts(spec: ExperimentSpec, fail: Callable[[str], None]) -> None:
    """The parts an experiment of its kind needs and those it does not take, checked before
    the grid sets entries of them (a missing scenario is named as such)."""
    simulation = spec.kind == "simulation"
    if not simulation and spec.analysis is None:
        fail("analysis: required by an `analysis` experiment")
    for key in ("scenario", "replications", "tests"):
        if simulation and not getattr(spec, key):
            fail(f"{key}: required by a simulation experiment")
        if not simulation and getattr(spec, key):
            fail(f"{key}: not used by an `analysis` experiment (it has `analysis`)")
    if simulation and spec.analysis is not None:
        fail("analysis: only an `analysis` experiment has one (set `kind: analysis`)")


def _check_grid(spec: ExperimentSpec, fail: Callable[[str], None]) -> None:
    names = [a.name for a in spec.grid]
    if len(set(names)) != len(names):
        fail(f"grid: axis names must be unique, got {names}")
    clash = set(names) & RESERVED_COLUMNS
    if clash:
        fail(f"grid: axis names {sorted(clash)} are reserved for result columns")
    for axis in spec.grid:
        labels = list(map(format_value, axis.values))
        if len(set(labels)) != len(labels):
            fail(f"grid axis {axis.name!r}: values must be distinct, got {list(axis.values)}")
        if axis.sets and set(axis.sets) != set(labels):
            fail(
                f"grid axis {axis.name!r}: `sets` must have one entry per value; values "
                f"{labels}, entries {sorted(axis.sets)}"
            )
        for fid, subset in axis.by_fidelity.items():
            extra = [v for v in subset if format_value(v) not in labels]
            if extra:
                fail(
                    f"grid axis {axis.name!r}: by_fidelity.{fid} values {extra} are not "
                    f"among the axis values {list(axis.values)}"
                )
    _check_grid_paths(spec, fail)
    try:
        spec.points()
    except SpecError as exc:
        fail(str(exc))


def _check_grid_paths(spec: ExperimentSpec, fail: Callable[[str], None]) -> None:
    """Refuse an entry set by two grid axes, where the later one would silently win."""
    setter: dict[str, str] = {}
    for axis in spec.grid:
        paths = {path for value in axis.values for path in axis.assignments(value)}
        for path in sorted(paths):
            if setter.setdefault(path, axis.name) != axis.name:
                fail(
                    f"grid axis {axis.name!r}: path {path!r} is already set by the axis "
                    f"{setter[path]!r}; each entry may be set by one axis only"
                )


def _check_kind_keys(m: Mapping[str, Any], fail: Callable[[str], None]) -> None:
    """Refuse an entry that the metric's kind does not read (it would be ignored)."""
    for key, kinds in KIND_KEYS.items():
        if key in m and m["kind"] not in kinds:
            fail(
                f"metric {m['id']!r}: a {m['kind']} metric does not read `{key}` (read "
                f"only by {' and '.join(kinds)})"
            )


def _check_simulation(spec: ExperimentSpec, fail: Callable[[str], None]) -> dict[str, set[str]]:
    from cvcompare.simulate.scenario import check_scenario

    for p in spec.points():
        scenario = dict(p.scenario)
        if "q" not in scenario:
            fail("scenario: expected the number of data sets under the key 'q'")
        q = scenario.pop("q")
        try:
            check_scenario(scenario, q)
        except (ValueError, TypeError) as exc:
            fail(f"scenario at grid point {p.label}: {exc}")
    ids = [t.id for t in spec.tests]
    if len(set(ids)) != len(ids):
        fail(f"tests: ids must be unique, got {ids}")
    columns: dict[str, frozenset[str]] = {}
    for t in spec.tests:
        if t.test not in TESTS:
            fail(f"test {t.id!r}: unknown test {t.test!r}; known tests: {sorted(TESTS)}")
        unknown = set(t.by_fidelity) - set(FIDELITIES)
        if unknown:
            fail(f"test {t.id!r}: by_fidelity keys must be among {FIDELITIES}, got {unknown}")
        registered = TESTS[t.test]
        # the settings every job of every fidelity would run with, values included
        for fid, p, settings in _test_settings_everywhere(spec, t):
            where = f"{fid} fidelity, grid point {p.label}"
            try:
                registered.check(settings, f"test {t.id!r}")
            except (TypeError, ValueError) as exc:
                fail(f"{exc} (at {where})")
            if registered.single_data_set and p.scenario.get("q") != 1:
                fail(
                    f"test {t.id!r}: {t.test} compares learners on one data set; "
                    f"expected scenario q = 1, got {p.scenario.get('q')} (at {where})"
                )
        columns[t.id] = TESTS[t.test].columns | COMMON_COLUMNS | _grid_names(spec)
    registered_of = {t.id: t.test for t in spec.tests}
    metric_labels: dict[str, set[str]] = {}
    for m in spec.metrics:
        if m["id"] in metric_labels:
            fail(f"metrics: duplicate id {m['id']!r}")
        if m["kind"] not in METRIC_KINDS:
            fail(
                f"metric {m['id']!r}: unknown kind {m['kind']!r} for a simulation; known: "
                f"{sorted(METRIC_KINDS)}"
            )
        _check_kind_keys(m, fail)
        used = list(m.get("tests", ids))
        given = [m["given"]["test"]] if "given" in m else []
        for tid in used + ([m["baseline"]] if "baseline" in m else []) + given:
            if tid not in ids:
                fail(f"metric {m['id']!r}: test {tid!r} is not among the tests {ids}")
        if given and m["given"]["column"] not in columns[given[0]]:
            fail(
                f"metric {m['id']!r}: given test {given[0]!r} writes no column "
                f"{m['given']['column']!r}; its columns: {sorted(columns[given[0]])}"
            )
        read = [m[k] for k in ("column", "reference") if k in m] + list(m.get("columns", []))
        for tid in used:
            for col in read:
                if col not in columns[tid]:
                    fail(
                        f"metric {m['id']!r}: test {tid!r} writes no column {col!r}; its "
                        f"columns: {sorted(columns[tid])}"
                    )
            empty = [c for c in read if c in TESTS[registered_of[tid]].nullable]
            if empty and not given:
                fail(
                    f"metric {m['id']!r}: test {tid!r} leaves column {empty[0]!r} empty in "
                    "some runs; restrict the metric with `given` to the runs where it is "
                    "filled (e.g. `given: {test: idp, column: determinate}`)"
                )
        decisions = [(m["given"]["column"], given)] if given else []
        if m["kind"] in ("rate", "replicability"):
            decisions.append((m["column"], used))
        for col, writers in decisions:
            if col not in BOOLEAN_COLUMNS:
                written = BOOLEAN_COLUMNS.intersection(*(columns[t] for t in writers))
                fail(
                    f"metric {m['id']!r}: column {col!r} holds no decisions (True or "
                    "False), which a rate, a replicability and a `given` condition "
                    f"read; columns of decisions of test(s) {writers}: {sorted(written)}"
                )
        edges = m.get("bins", [])
        if any(b <= a for a, b in itertools.pairwise(edges)):
            fail(f"metric {m['id']!r}: bins must increase, got {m['bins']}")
        if m["kind"] == "paired_difference":
            if "baseline" not in m:
                fail(f"metric {m['id']!r}: kind paired_difference needs a `baseline` test")
            col = m.get("baseline_column", m["column"])
            if col not in columns[m["baseline"]]:
                fail(
                    f"metric {m['id']!r}: baseline test {m['baseline']!r} writes no column "
                    f"{col!r}; its columns: {sorted(columns[m['baseline']])}"
                )
            metric_labels[m["id"]] = {f"{t} - {m['baseline']}" for t in used}
        else:
            metric_labels[m["id"]] = set(used)
    return metric_labels


def check_against_data(spec: ExperimentSpec, data: Any, what: str) -> None:
    """Check an analysis of the real results against those results, at every fidelity and
    grid point: the learners it names are among theirs, and it counts no more data sets
    than they hold (the analysis' own ``validate_data``, which runs again before it runs).
    The workflow runs this when the results are at hand, so that a dry run catches what
    :func:`check_consistency`, which does not read them, cannot.

    Parameters
    ----------
    spec : ExperimentSpec
        An experiment whose analysis reads the real results.
    data : pandas.DataFrame
        The real results (:func:`cvcompare.io.read_accuracies`, as the workflow reads them).
    what : str
        Name of the document in error messages.

    Raises
    ------
    SpecError
        At the first setting the results cannot serve, naming the grid point.
    """
    from cvcompare.experiments.analyses import ANALYSES

    entry = ANALYSES[spec.analysis.function]
    for fid in FIDELITIES:
        for p in spec.points(fid):
            try:
                entry.check(spec.settings_at(p, fid), data)
            except (ValueError, TypeError) as exc:
                raise SpecError(
                    f"{what}: analysis {spec.analysis.function!r} at grid point {p.label} "
                    f"({fid}), on the real results: {exc}"
                ) from None


def _check_analysis(spec: ExperimentSpec, fail: Callable[[str], None]) -> dict[str, set[str]]:
    from cvcompare.experiments.analyses import ANALYSES

    name = spec.analysis.function
    if name not in ANALYSES:
        fail(f"analysis.function: unknown analysis {name!r}; known: {sorted(ANALYSES)}")
    entry = ANALYSES[name]
    unknown = set(spec.analysis.by_fidelity) - set(FIDELITIES)
    if unknown:
        fail(f"analysis.by_fidelity keys must be among {FIDELITIES}, got {unknown}")
    for fid in FIDELITIES:
        for p in spec.points(fid):
            try:
                entry.check(spec.settings_at(p, fid))
            except (ValueError, TypeError) as exc:
                fail(f"analysis {name!r} at grid point {p.label} ({fid}): {exc}")
    metric_labels: dict[str, set[str]] = {}
    for m in spec.metrics:
        if m["id"] in metric_labels:
            fail(f"metrics: duplicate id {m['id']!r}")
        if m["kind"] != "reported":
            fail(
                f"metric {m['id']!r}: an analysis reports its metrics directly; expected "
                f"kind `reported`, got {m['kind']!r}"
            )
        if m["id"] not in entry.metrics:
            fail(
                f"metric {m['id']!r}: analysis {name!r} does not report it; it reports "
                f"{sorted(entry.metrics)}"
            )
        if "tests" not in m:
            fail(f"metric {m['id']!r}: list the `tests` (row labels) it is reported for")
        metric_labels[m["id"]] = set(m["tests"])
    return metric_labels


def _same_value(a: object, b: object) -> bool:
    """Whether two settings are equal, numbers by value (``1`` and ``1.0`` alike)."""
    numbers = (int, float)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool):
        return float(a) == float(b)
    return a == b


def _grid_names(spec: ExperimentSpec) -> set[str]:
    return {a.name for a in spec.grid}


def _check_outputs(
    spec: ExperimentSpec, fail: Callable[[str], None], metrics: dict[str, set[str]]
) -> None:
    if not spec.figure and not spec.table:
        fail("expected a `figure`, a `table` or both")
    if spec.figure:
        _check_figure(spec, fail, metrics)
    if spec.table:
        allowed = _grid_names(spec) | {"test", "metric"}
        for key in ("rows", "columns"):
            bad = [c for c in spec.table[key] if c not in allowed]
            if bad:
                fail(f"table.{key}: {bad} are not among {sorted(allowed)}")
        for key in ("metrics", "metric_digits"):
            for mid in spec.table.get(key, []):
                if mid not in metrics:
                    fail(f"table.{key}: unknown metric {mid!r}; known: {sorted(metrics)}")
        unknown = sorted(set(spec.table.get("headings", {})) - set(spec.table["rows"]))
        if unknown:
            fail(f"table.headings: {unknown} are not among the rows {spec.table['rows']}")
        _check_table_cells(spec, fail, metrics)
        for i, entry in enumerate(spec.table.get("summaries", [])):
            _check_summary(spec, fail, metrics, entry, f"table.summaries[{i}]")


def _test_settings_everywhere(
    spec: ExperimentSpec, test: TestSpec
) -> list[tuple[str, GridPoint, dict]]:
    """``(fidelity, grid point, settings)`` of every job of ``test``: the settings it
    runs with at each fidelity's grid points (:meth:`ExperimentSpec.test_at`)."""
    return [
        (fid, p, spec.test_at(test, p, fid)["settings"])
        for fid in FIDELITIES
        for p in spec.points(fid)
    ]


def _check_summary(
    spec: ExperimentSpec,
    fail: Callable[[str], None],
    metrics: dict[str, set[str]],
    entry: Mapping[str, Any],
    where: str,
) -> None:
    """A summary table names a metric, its rows and columns are ``test`` and grid axes
    (``test`` wherever the metric covers several tests), and what it summarises over
    (``over``, ``at``) are the other grid axes, at values on the grid."""
    grid = {a.name: [format_value(v) for v in a.values] for a in spec.grid}
    keys = [*entry["rows"], *entry["columns"]]
    if entry["metric"] not in metrics:
        fail(f"{where}.metric: unknown metric {entry['metric']!r}; known: {sorted(metrics)}")
    bad = [k for k in keys if k != "test" and k not in grid]
    if bad:
        fail(f"{where}: rows and columns {bad} are not among {sorted({'test', *grid})}")
    if "test" not in keys and len(metrics[entry["metric"]]) > 1:
        fail(
            f"{where}: add `test` to the rows or columns (metric {entry['metric']!r} is "
            f"computed for {sorted(metrics[entry['metric']])})"
        )
    open_axes = [name for name in grid if name not in keys]
    if "over" in entry and entry["over"] not in open_axes:
        fail(f"{where}.over: expected a grid axis not in the rows or columns, {open_axes}")
    outside = [axis for axis in entry.get("at", {}) if axis not in open_axes]
    if outside:
        fail(f"{where}.at: {outside} are not grid axes outside the rows and columns")
    _check_summarised(spec, fail, where, entry)


def _check_summarised(
    spec: ExperimentSpec, fail: Callable[[str], None], where: str, entry: Mapping[str, Any]
) -> None:
    """What a claim or a summary table combines: one number per grid point (not a
    histogram), grid points on the grid (``at``, and a claim's ``minus``), and for an
    area, two or more uniformly spaced numbers along ``over`` (its values in ``at``, or
    all of the axis)."""
    grid = {a.name: list(a.values) for a in spec.grid}
    if any(m["kind"] == "histogram" for m in spec.metrics if m["id"] == entry["metric"]):
        fail(f"{where}: metric {entry['metric']!r} is a histogram; a summary needs one number")
    for part in ("at", "minus"):
        for axis, values in entry.get(part, {}).items():
            if axis not in grid:
                fail(f"{where}.{part}: {axis!r} is not a grid axis ({sorted(grid)})")
            labels = {format_value(v) for v in grid[axis]}
            for v in values if isinstance(values, list) else [values]:
                if format_value(v) not in labels:
                    fail(f"{where}.{part}.{axis}: {v!r} is not among the grid values")
    over = entry.get("over")
    if entry.get("summary") != "area":
        if over is not None:
            fail(f"{where}: `over` is only used with summary 'area'")
        return
    values = entry.get("at", {}).get(over, grid.get(over))
    numbers = values if isinstance(values, list) else []
    real = all(isinstance(v, int | float) and not isinstance(v, bool) for v in numbers)
    steps = np.diff(np.sort(np.asarray(numbers, dtype=float))) if real else np.array([])
    if len(numbers) < 2 or not real or not np.allclose(steps, steps[0], rtol=1e-9, atol=0):
        fail(
            f"{where}: summary 'area' needs `over` naming a grid axis with two or more "
            f"uniformly spaced numbers (in `at`, or all of the axis), got over={over!r}"
        )


def _check_table_cells(
    spec: ExperimentSpec, fail: Callable[[str], None], metrics: dict[str, set[str]]
) -> None:
    """The table's rows and columns together name one number per cell: every grid axis
    with several values, ``metric`` for several metrics, ``test`` for a metric of
    several tests."""
    keys = {*spec.table["rows"], *spec.table["columns"]}
    shown = list(spec.table.get("metrics", metrics))
    why = "so that each cell holds one number"
    if "metric" not in keys and len(shown) > 1:
        fail(f"table: add `metric` to the rows or columns, {why} (metrics shown: {shown})")
    several = [m for m in shown if len(metrics[m]) > 1]
    if "test" not in keys and several:
        fail(
            f"table: add `test` to the rows or columns, {why} (metric {several[0]!r} is "
            f"computed for {sorted(metrics[several[0]])})"
        )
    for axis in spec.grid:
        if axis.name not in keys and any(len(axis.values_at(f)) > 1 for f in FIDELITIES):
            fail(f"table: add the grid axis {axis.name!r} to the rows or columns, {why}")


def _check_figure(
    spec: ExperimentSpec, fail: Callable[[str], None], metrics: dict[str, set[str]]
) -> None:
    """The figure function exists and takes the settings given, and the metrics (with their
    tests), grid axes and axis values it declares it reads are the experiment's."""
    from cvcompare.plots.figures import FIGURES, figure_settings, reads_of

    name = spec.figure["function"]
    if name not in FIGURES:
        fail(f"figure.function: unknown figure {name!r}; known: {sorted(FIGURES)}")
    takes = figure_settings(FIGURES[name])
    settings = spec.figure.get("settings", {})
    unknown = [key for key in settings if key not in takes]
    if unknown:
        fail(f"figure.settings: {name} takes no setting {unknown}; it takes {sorted(takes)}")
    if missing := sorted(
        k for k, d in takes.items() if d is inspect.Parameter.empty and k not in settings
    ):
        fail(f"figure.settings: {name} needs the setting(s) {missing}")
    try:
        reads = reads_of(name, settings)
    except ValueError as exc:
        fail(f"figure.settings: {name}: {exc}")
    if reads is None:
        return
    for key, axis in reads.picks.items():
        picked = settings.get(key, takes[key])
        _check_picked(spec, fail, f"figure.settings.{key}", picked, axis)
    for metric, tests in reads.metrics.items():
        if metric not in metrics:
            fail(
                f"{_where(settings, metric)}: {name} draws the metric {metric!r}, which "
                f"`metrics` does not define (it defines {sorted(metrics)})"
            )
        if missing := [t for t in tests if t not in metrics[metric]]:
            fail(
                f"{_where(settings, missing[0])}: {name} draws the metric {metric!r} of the "
                f"test(s) {missing}, which that metric does not list (it lists "
                f"{sorted(metrics[metric])})"
            )
    if axes := [a for a in reads.axes if a not in _grid_names(spec)]:
        fail(
            f"{_where(settings, axes[0])}: {name} draws against the grid axes {axes}, which "
            f"`grid` does not have (it has {sorted(_grid_names(spec))})"
        )
    several = [a.name for a in spec.grid if len(a.values) > 1 and a.name not in reads.axes]
    if reads.covers_grid and several:
        fail(
            f"figure.settings: {name} draws the grid axes {list(reads.axes)}, but the grid "
            f"axis {several[0]!r} has several values too: draw it as well, as the figure's "
            "settings allow (figure_curves: `panels` or `lines`), or give it one value"
        )
    histograms = [m["id"] for m in spec.metrics if m["kind"] == "histogram"]
    if reads.covers_grid and (drawn := [m for m in reads.metrics if m in histograms]):
        fail(
            f"figure.settings: {name} draws one number per grid point, but the metric "
            f"{drawn[0]!r} is a histogram (one number per bin)"
        )
    for path, value in reads.states.items():
        found = _stated_values(spec, path)
        if not found or any(not _same_value(v, value) for v in found):
            shown = ", ".join(sorted({str(v) for v in found})) or "nothing"
            fail(
                f"figure.function: {name} labels its curves for {path} = {value}, but "
                f"this file has {path} = {shown}; keep {value}, or show these results in "
                "a `table` only"
            )


def _where(settings: Mapping[str, Any], name: str) -> str:
    """Where a figure's file names ``name`` (a test or grid axis the figure reads): the
    setting whose value is that name or a mapping with that key or value, else its
    function."""
    for key, value in settings.items():
        if value == name or (isinstance(value, Mapping) and name in (*value, *value.values())):
            return f"figure.settings.{key}"
    return "figure.function"


def _check_picked(
    spec: ExperimentSpec, fail: Callable[[str], None], where: str, picked: object, axis: str
) -> None:
    """The values of the grid axis ``axis`` that a figure setting picks are on the axis, and
    every fidelity runs at least one of them."""
    grid = {a.name: a for a in spec.grid}
    if axis not in grid:
        return  # reported with the axes the figure draws against
    if isinstance(picked, (str, bytes)) or not isinstance(picked, Sequence) or not picked:
        fail(f"{where}: expected a non-empty list of values of the grid axis {axis}")
    values = grid[axis].values
    off = [v for v in picked if not any(_same_value(v, w) for w in values)]
    if off:
        fail(f"{where}: {off} are not values of the grid axis {axis} {list(values)}")
    for fidelity in FIDELITIES:
        run = grid[axis].values_at(fidelity)
        if not any(_same_value(v, w) for v in picked for w in run):
            fail(
                f"{where}: the {fidelity} fidelity runs none of {list(picked)} (it runs "
                f"{axis} = {list(run)}); draw at least one value it runs"
            )


def _stated_values(spec: ExperimentSpec, path: str) -> list[Any]:
    """The values ``<test id>.<setting>`` takes at every fidelity and grid point, or
    the entry ``<metric id>.<key>`` of a metric (none where there is no such entry)."""
    owner, key = path.split(".", 1)
    tests = {t.id: t for t in spec.tests}
    if owner in tests:
        default = TESTS[tests[owner].test].defaults.get(key)
        return [
            settings.get(key, default)
            for _, _, settings in _test_settings_everywhere(spec, tests[owner])
        ]
    metric = next((m for m in spec.metrics if m["id"] == owner), {})
    return [metric[key]] if key in metric else []


def _check_claims(
    spec: ExperimentSpec, fail: Callable[[str], None], metric_labels: dict[str, set[str]]
) -> None:
    for i, claim in enumerate(spec.paper_numbers):
        where = f"paper_numbers[{i}]"
        if claim["metric"] not in metric_labels:
            fail(f"{where}: unknown metric {claim['metric']!r}; known: {sorted(metric_labels)}")
        if claim["test"] not in metric_labels[claim["metric"]]:
            fail(
                f"{where}: metric {claim['metric']!r} has no test {claim['test']!r}; "
                f"it has {sorted(metric_labels[claim['metric']])}"
            )
        _check_summarised(spec, fail, where, claim)
