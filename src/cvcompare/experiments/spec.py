"""Declarative experiment files: loading, validation and grid expansion.

An experiment file (``config/experiments/<id>.yaml``) is one replication target. Its
``kind`` says how its numbers are obtained:

``simulation`` (the default)
    A base scenario for :func:`cvcompare.simulate.scenario.simulate_comparison`, a grid of
    scenario parameters, the number of replications per fidelity, the tests to run on
    every replication and the metrics (with Monte Carlo standard errors) to aggregate.
``analysis``
    A registered analysis (:data:`cvcompare.experiments.analyses.ANALYSES`) run once per
    grid point on its ``settings``: a closed form, a fixed example whose input table is
    in the file, or an analysis of the real cross-validation results. It reports the
    declared metrics directly, each with its own uncertainty ("exact", "Monte Carlo" or
    "posterior sampling").

Both kinds name the figure and/or the table they feed and the numbers the paper states.
A file is checked completely when it is loaded: against a JSON Schema (structure and
types) and then for consistency (:mod:`cvcompare.experiments.checks`: every scenario of
the grid is a valid scenario, every test or analysis setting is known, every metric reads a
column its tests write, the figure function exists, a claim names a metric, test and grid
point that exist). Every step raises :class:`SpecError` with a message that names the file,
the place in it and what was expected, so that a dry run (``snakemake -n``) catches every
mistake.

Grid points are labelled Paramspace-style, ``name~value`` joined by ``/`` in the order of
the ``grid`` list (e.g. ``delta~0.02/m~10/q~50``); the label is part of each replication's
random-stream key (:func:`cvcompare.seeding.replication_rng`). An axis sets one entry of
the scenario (or of an analysis' settings) to its value (``path``), several entries to
the same value (``paths``, e.g. a Cauchy's location and scale together), or, for each
value, a mapping of entries (``sets``: ``{a2_b0.1: {alpha: 2, beta: 0.1}, ...}``). In a
simulation, a path ``tests.<test id>.<setting>`` sets a setting of one test instead of a
scenario entry (e.g. the loss ``l1`` of a loss-based decision), so the same tests can be
run at several settings without declaring one test per setting.
"""

from __future__ import annotations

import copy
import difflib
import itertools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from cvcompare.experiments.registry import TESTS

__all__ = [
    "FIDELITIES",
    "AnalysisSpec",
    "ExperimentSpec",
    "GridAxis",
    "GridPoint",
    "SpecError",
    "TestSpec",
    "chunk_ranges",
    "format_value",
    "load_experiment",
    "load_yaml",
    "point_label",
    "point_text",
    "validate_with_schema",
]

FIDELITIES = ("smoke", "quick", "paper")
_SAFE_TEXT = re.compile(r"^[A-Za-z0-9_.+-]+$")


class SpecError(ValueError):
    """An experiment or configuration file is malformed; the message says where and why."""


def load_yaml(path: str | Path) -> Any:
    """Read a YAML file, naming the file in any parse error."""
    p = Path(path)
    if not p.is_file():
        raise SpecError(f"{p}: file not found")
    try:
        return yaml.safe_load(p.read_text())
    except yaml.YAMLError as exc:
        raise SpecError(f"{p}: not valid YAML ({exc})") from None


def _where(error: jsonschema.ValidationError) -> str:
    parts = []
    for item in error.absolute_path:
        parts.append(f"[{item}]" if isinstance(item, int) else f".{item}")
    return "".join(parts).lstrip(".") or "(top level)"


def _misspelling(error: jsonschema.ValidationError) -> str:
    """For a missing required key or a key the entry does not take, the one it looks like a
    misspelling of (``generater`` for ``generator``), in words; else nothing."""
    entry = error.instance
    if error.validator not in ("required", "additionalProperties") or not isinstance(
        entry, Mapping
    ):
        return ""
    known = set(error.schema.get("properties", {}))
    unknown = [str(key) for key in entry if key not in known]
    if error.validator == "required":  # the missing key the message names
        keys, names = unknown, [n for n in error.validator_value if repr(n) in error.message]
    else:  # the unexpected key the message names
        keys, names = [k for k in unknown if repr(k) in error.message], sorted(known)
    for key in keys:
        close = difflib.get_close_matches(key, names, n=1)
        if close:
            return f" (found {key!r}: a misspelling of {close[0]!r}?)"
    return ""


def validate_with_schema(instance: Any, schema: Mapping[str, Any], what: str) -> None:
    """Validate ``instance`` against a JSON Schema and report every problem at once.

    Parameters
    ----------
    instance : object
        The parsed YAML document.
    schema : mapping
        A JSON Schema (draft 2020-12).
    what : str
        What the document is, for the message (usually its file name).

    Raises
    ------
    SpecError
        Listing each violation as ``location: message`` (with the schema's
        ``description`` of the offending entry where it has one).
    """
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(map(str, e.path)))
    if not errors:
        return
    lines = []
    for err in errors[:20]:
        hint = err.schema.get("description") if isinstance(err.schema, Mapping) else None
        line = f"  - {_where(err)}: {err.message}{_misspelling(err)}"
        if hint:
            line += f" (expected: {hint})"
        lines.append(line)
    if len(errors) > 20:
        lines.append(f"  ... and {len(errors) - 20} more")
    raise SpecError(f"{what} is not valid:\n" + "\n".join(lines))


def format_value(value: object) -> str:
    """Format a grid value for a Paramspace-style label (``0.01`` -> ``"0.01"``).

    Integers and finite floats are written as Python writes them (``repr``); text must
    be made of letters, digits and ``_.+-``. Anything else is refused so that labels are
    valid, unambiguous path components.
    """
    if isinstance(value, bool):
        raise SpecError(f"grid value {value!r}: booleans are not allowed, use 0/1 or text")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise SpecError(f"grid value {value!r}: must be finite")
        return repr(value)
    if isinstance(value, str) and _SAFE_TEXT.match(value):
        return value
    raise SpecError(
        f"grid value {value!r}: expected a number or text made of letters, digits and _.+-"
    )


def _set_path(mapping: dict[str, Any], path: str, value: object, what: str, where: str) -> None:
    """Set the entry at the dotted ``path`` of ``mapping`` (``where`` says what it is, for
    the message) to ``value``; a path to no entry is refused, with the key it looks like a
    misspelling of."""
    keys = path.split(".")
    node: Any = mapping
    for depth, key in enumerate(keys):
        if not isinstance(node, dict) or key not in node:
            close = difflib.get_close_matches(key, list(node) if isinstance(node, dict) else [])
            hint = f"; did you mean {'.'.join([*keys[:depth], close[0]])!r}?" if close else ""
            if not close and isinstance(node, dict):  # e.g. `mu` written for `mean`
                hint = f"; {'.'.join(keys[:depth]) or where} has the keys {sorted(node)}"
            raise SpecError(
                f"{what}: path {path!r} does not exist in {where} (give the key a default "
                f"value there first){hint}"
            )
        if depth < len(keys) - 1:
            node = node[key]
    node[keys[-1]] = value


def point_label(params: Mapping[str, object]) -> str:
    """Paramspace-style label of a grid point, ``name~value`` joined by ``/``.

    Examples
    --------
    >>> point_label({"delta": 0.02, "m": 10})
    'delta~0.02/m~10'
    """
    return "/".join(f"{name}~{format_value(v)}" for name, v in params.items()) or "all"


def point_text(label: str) -> str:
    """A :func:`point_label` as a reader writes it.

    Examples
    --------
    >>> point_text("delta~0.02/m~10")
    'delta = 0.02, m = 10'
    """
    return label.replace("~", " = ").replace("/", ", ")


@dataclass(frozen=True)
class GridAxis:
    """One scenario parameter varied over the grid.

    Attributes
    ----------
    name : str
        Short name used in labels and table columns (e.g. ``"delta"``).
    paths : tuple of str
        Dotted paths of the entries set to the axis value (e.g. ``("delta.value",)``).
    values : tuple
        The values taken, in order.
    by_fidelity : dict
        Optional subsets of ``values`` run at a fidelity (e.g. fewer points at ``smoke``);
        a point keeps its label, hence its random streams, at every fidelity.
    sets : dict
        For each value (by its label), a mapping of dotted paths to the values it sets;
        used instead of ``paths`` when one axis value stands for several settings.
    """

    name: str
    paths: tuple[str, ...]
    values: tuple[Any, ...]
    by_fidelity: dict[str, tuple[Any, ...]] = field(default_factory=dict, hash=False)
    sets: dict[str, dict[str, Any]] = field(default_factory=dict, hash=False)

    def assignments(self, value: object) -> dict[str, Any]:
        """The entries (dotted path -> value) that the axis value sets."""
        if self.sets:
            return dict(self.sets[format_value(value)])
        return {path: value for path in self.paths}

    def values_at(self, fidelity: str | None) -> tuple[Any, ...]:
        """The values run at ``fidelity`` (all values when it is None or not listed)."""
        return self.by_fidelity.get(fidelity, self.values) if fidelity else self.values


@dataclass(frozen=True)
class GridPoint:
    """One point of an experiment's grid.

    Attributes
    ----------
    label : str
        Paramspace-style label, e.g. ``"delta~0.02/m~10/q~50"``.
    params : dict
        Grid values by axis name, in grid order.
    scenario : dict
        The full scenario mapping with the grid values filled in (including ``q``).
    settings : dict
        Simulation only: test id -> the settings the point's axes set for that test
        (paths ``tests.<id>.<setting>``); they override the test's own settings.
    """

    label: str
    params: dict[str, Any] = field(hash=False)
    scenario: dict[str, Any] = field(hash=False)
    settings: dict[str, dict[str, Any]] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class TestSpec:
    """A test run on every replication.

    Attributes
    ----------
    id : str
        The label of the test in result tables (e.g. ``"signed_rank"``).
    test : str
        The registry name (a key of :data:`cvcompare.experiments.registry.TESTS`).
    settings : dict
        Settings common to all fidelities.
    by_fidelity : dict
        Settings overridden per fidelity (e.g. Stan chains and draws).
    """

    id: str
    test: str
    settings: dict[str, Any] = field(hash=False)
    by_fidelity: dict[str, dict[str, Any]] = field(hash=False)

    def resolved(self, fidelity: str) -> dict[str, Any]:
        """Return ``{"id", "test", "settings"}`` with the fidelity's overrides applied."""
        settings = {**self.settings, **self.by_fidelity.get(fidelity, {})}
        return {"id": self.id, "test": self.test, "settings": settings}


@dataclass(frozen=True)
class AnalysisSpec:
    """The analysis of an ``analysis`` experiment.

    Attributes
    ----------
    function : str
        A key of :data:`cvcompare.experiments.analyses.ANALYSES`.
    settings : dict
        Settings common to all fidelities; grid axes set entries of this mapping.
    by_fidelity : dict
        Settings overridden per fidelity (e.g. fewer Monte Carlo draws at ``smoke``).
    """

    function: str
    settings: dict[str, Any] = field(hash=False)
    by_fidelity: dict[str, dict[str, Any]] = field(hash=False)


@dataclass(frozen=True)
class ExperimentSpec:
    """A validated experiment file.

    Use :func:`load_experiment` to build one from a YAML file.
    """

    id: str
    title: str
    kind: str
    source: dict[str, Any] = field(hash=False)
    scenario: dict[str, Any] = field(hash=False)
    analysis: AnalysisSpec | None
    grid: tuple[GridAxis, ...]
    replications: dict[str, int] = field(hash=False)
    tests: tuple[TestSpec, ...]
    metrics: tuple[dict[str, Any], ...] = field(hash=False)
    figure: dict[str, Any] = field(hash=False)
    table: dict[str, Any] = field(hash=False)
    paper_numbers: tuple[dict[str, Any], ...] = field(hash=False)
    notes: str = ""

    def caption(self, output: str, directory: str | Path) -> str:
        """The caption of the experiment's figure or table.

        Parameters
        ----------
        output : {"figure", "table"}
            Which output's caption.
        directory : str or pathlib.Path
            Where caption files are (the workflow's ``report/``).

        Returns
        -------
        str
            The text of the output's ``caption`` file in ``directory``, or, where the file
            names none, the experiment's title as a sentence (with a full stop).

        Raises
        ------
        SpecError
            When the caption file named is not in ``directory``.
        """
        name = getattr(self, output).get("caption")
        if name is None:  # a sentence: one full stop, also after a title that has one
            return self.title if self.title.endswith((".", "?", "!")) else f"{self.title}."
        path = Path(directory) / name
        if not path.is_file():
            raise SpecError(f"{output}.caption: caption file {name!r} not found in {directory}")
        return path.read_text()

    @property
    def needs_real_data(self) -> bool:
        """Whether the experiment reads the real cross-validation results."""
        if self.analysis is None:
            return False
        from cvcompare.experiments.analyses import ANALYSES

        return ANALYSES[self.analysis.function].needs_data

    def draw_figure(self, aggregate: Any, data: Any = None) -> Any:
        """Draw the experiment's figure: its ``figure.function``, titled with its ``title``,
        with its ``figure.settings``, on the aggregate's rows in the order of the grid's
        points (so that panels, bars and legends that follow the rows' order follow the
        order of the values in the experiment file, as its table does).

        Parameters
        ----------
        aggregate : pandas.DataFrame
            The experiment's aggregate table.
        data : pandas.DataFrame, optional
            An analysis' figure data, for the figure functions that draw it.

        Returns
        -------
        matplotlib.figure.Figure

        Raises
        ------
        ValueError
            If the experiment has no figure.
        """
        if not self.figure:
            raise ValueError(f"{self.id}: the experiment file has no `figure`")
        from cvcompare.plots.figures import FIGURES

        extra = {} if data is None else {"data": data}
        settings = self.figure.get("settings", {})
        if "point" in aggregate:
            rank = {p.label: i for i, p in enumerate(self.points())}
            order = aggregate["point"].map(rank).fillna(len(rank))
            aggregate = aggregate.iloc[order.argsort(kind="stable")].reset_index(drop=True)
        return FIGURES[self.figure["function"]](aggregate, title=self.title, **extra, **settings)

    @classmethod
    def from_mapping(
        cls, raw: Mapping[str, Any], *, schema: Mapping[str, Any], what: str = "experiment"
    ) -> ExperimentSpec:
        """Validate a parsed experiment file and build the spec.

        Parameters
        ----------
        raw : mapping
            The parsed YAML document.
        schema : mapping
            The experiment JSON Schema (``workflow/schemas/experiment.schema.yaml``).
        what : str
            Name of the document in error messages.
        """
        validate_with_schema(raw, schema, what)
        grid = tuple(
            GridAxis(
                name=a["name"],
                paths=tuple(a["paths"]) if "paths" in a else ((a["path"],) if "path" in a else ()),
                values=tuple(a["values"]),
                by_fidelity={k: tuple(v) for k, v in a.get("by_fidelity", {}).items()},
                sets={format_value(k): dict(v) for k, v in a.get("sets", {}).items()},
            )
            for a in raw.get("grid", [])
        )
        tests = tuple(
            TestSpec(
                id=t["id"],
                test=t["test"],
                settings=dict(t.get("settings", {})),
                by_fidelity={k: dict(v) for k, v in t.get("by_fidelity", {}).items()},
            )
            for t in raw.get("tests", [])
        )
        analysis = None
        if "analysis" in raw:
            a = raw["analysis"]
            analysis = AnalysisSpec(
                function=a["function"],
                settings=copy.deepcopy(dict(a.get("settings", {}))),
                by_fidelity={k: dict(v) for k, v in a.get("by_fidelity", {}).items()},
            )
        spec = cls(
            id=raw["id"],
            title=raw["title"],
            kind=raw.get("kind", "simulation"),
            source=dict(raw.get("source", {})),
            scenario=copy.deepcopy(dict(raw.get("scenario", {}))),
            analysis=analysis,
            grid=grid,
            replications=dict(raw.get("replications", {})),
            tests=tests,
            metrics=tuple(dict(m) for m in raw["metrics"]),
            figure=dict(raw.get("figure", {})),
            table=dict(raw.get("table", {})),
            paper_numbers=tuple(dict(p) for p in raw.get("paper_numbers", [])),
            notes=raw.get("notes", ""),
        )
        from cvcompare.experiments.checks import check_consistency  # it imports this module

        check_consistency(spec, what)
        return spec

    def points(self, fidelity: str | None = None) -> list[GridPoint]:
        """Expand the grid into its points (Cartesian product, in grid order).

        Parameters
        ----------
        fidelity : str, optional
            Restrict each axis to the values it runs at this fidelity
            (``by_fidelity``); all points when omitted.

        Returns
        -------
        list of GridPoint
            Each with the base mapping (the scenario of a simulation, the analysis'
            settings of an analysis) filled in with the point's values.

        Examples
        --------
        An experiment with ``grid: [{name: q, path: q, values: [10, 20]}]`` has the points
        labelled ``"q~10"`` and ``"q~20"``.
        """
        out = []
        base, where = self.scenario, "the scenario"
        if self.analysis is not None:
            from cvcompare.experiments.analyses import ANALYSES

            entry = ANALYSES.get(self.analysis.function)
            base = {**(entry.defaults if entry else {}), **self.analysis.settings}
            where = "the analysis' settings"
        for combo in itertools.product(*(a.values_at(fidelity) for a in self.grid)):
            mapping = copy.deepcopy(base)
            params: dict[str, Any] = {}
            settings: dict[str, dict[str, Any]] = {}
            for axis, value in zip(self.grid, combo, strict=True):
                what = f"grid axis {axis.name!r}"
                for path, val in axis.assignments(value).items():
                    if self.analysis is None and path.startswith("tests."):
                        test_id, key = self._test_setting_path(path, what)
                        settings.setdefault(test_id, {})[key] = val
                    else:
                        _set_path(mapping, path, val, what, where)
                params[axis.name] = value
            out.append(
                GridPoint(
                    label=point_label(params), params=params, scenario=mapping, settings=settings
                )
            )
        return out

    def grid_test_settings(self) -> dict[tuple[str, str], str]:
        """The test settings the grid varies: ``(test id, setting)`` -> the axis that sets
        it (paths ``tests.<id>.<setting>`` of a simulation's grid)."""
        varied = {}
        for axis in self.grid if self.analysis is None else ():
            what = f"{self.id}: grid axis {axis.name!r}"
            for value in axis.values:
                for path in axis.assignments(value):
                    if path.startswith("tests."):
                        varied[self._test_setting_path(path, what)] = axis.name
        return varied

    def _test_setting_path(self, path: str, what: str) -> tuple[str, str]:
        """Split ``tests.<id>.<setting>`` after checking the test and the setting exist."""
        parts = path.split(".")
        tests = {t.id: t for t in self.tests}
        if len(parts) != 3 or parts[1] not in tests:
            raise SpecError(
                f"{what}: path {path!r}: expected tests.<test id>.<setting> with a test id "
                f"among {sorted(tests)}"
            )
        registered = TESTS.get(tests[parts[1]].test)
        if registered is not None and parts[2] not in registered.defaults:
            raise SpecError(
                f"{what}: path {path!r}: test {parts[1]!r} has no setting {parts[2]!r}; "
                f"allowed: {sorted(registered.defaults)}"
            )
        return parts[1], parts[2]

    def point(self, label: str) -> GridPoint:
        """Return the grid point with this label."""
        for p in self.points():
            if p.label == label:
                return p
        raise SpecError(f"{self.id}: no grid point labelled {label!r}")

    def settings_at(self, point: GridPoint, fidelity: str) -> dict[str, Any]:
        """An analysis' settings at a grid point, with the fidelity's overrides applied."""
        assert self.analysis is not None
        return {**point.scenario, **self.analysis.by_fidelity.get(fidelity, {})}

    def n_replications(self, fidelity: str) -> int:
        """Number of replications per grid point at a fidelity."""
        if fidelity not in self.replications:
            raise SpecError(
                f"{self.id}: fidelity {fidelity!r} unknown; expected one of {FIDELITIES}"
            )
        return int(self.replications[fidelity])

    def job(self, point: GridPoint, fidelity: str, root_seed: int) -> dict[str, Any]:
        """Everything a chunk of replications at ``point`` depends on, as plain data.

        The mapping is the keyword arguments of
        :func:`cvcompare.experiments.run.run_chunk` apart from the replication range;
        the workflow passes it as a rule parameter so that editing one grid point or one
        test's settings reruns exactly the jobs it affects.

        Parameters
        ----------
        point : GridPoint
            A point of the grid (:meth:`points`, :meth:`point`).
        fidelity : {"smoke", "quick", "paper"}
            The fidelity whose test settings apply.
        root_seed : int
            The root seed of the replications' random streams.

        Returns
        -------
        dict
            ``experiment`` (the id), ``point`` (the label), ``params`` (grid values by
            axis), ``scenario`` (with the grid values filled in), ``tests`` (``{"id",
            "test", "settings"}`` of each test, resolved at the fidelity and point:
            :meth:`test_at`) and ``root_seed``.
        """
        return {
            "experiment": self.id,
            "point": point.label,
            "params": dict(point.params),
            "scenario": copy.deepcopy(point.scenario),
            "tests": [self.test_at(t, point, fidelity) for t in self.tests],
            "root_seed": int(root_seed),
        }

    @staticmethod
    def test_at(test: TestSpec, point: GridPoint, fidelity: str) -> dict[str, Any]:
        """A test resolved at a fidelity, with the settings the grid point sets for it."""
        resolved = test.resolved(fidelity)
        resolved["settings"].update(point.settings.get(test.id, {}))
        return resolved

    def analysis_job(self, fidelity: str, root_seed: int) -> dict[str, Any]:
        """Everything an analysis experiment's results depend on, as plain data.

        The keyword arguments of :func:`cvcompare.experiments.analyses.run_analysis` apart
        from the data; a workflow parameter, so editing a setting reruns the analysis.
        """
        assert self.analysis is not None
        return {
            "experiment": self.id,
            "function": self.analysis.function,
            "points": [
                {
                    "point": p.label,
                    "params": dict(p.params),
                    "settings": self.settings_at(p, fidelity),
                }
                for p in self.points(fidelity)
            ],
            "metrics": [{"id": m["id"], "tests": list(m["tests"])} for m in self.metrics],
            "root_seed": int(root_seed),
        }


def load_experiment(path: str | Path, *, schema: Mapping[str, Any]) -> ExperimentSpec:
    """Load and validate an experiment file.

    Parameters
    ----------
    path : path-like
        The YAML file; its name without extension must equal its ``id``.
    schema : mapping
        The experiment JSON Schema.

    Returns
    -------
    ExperimentSpec

    Raises
    ------
    SpecError
        With the file name, the location of the problem and what was expected.
    """
    p = Path(path)
    spec = ExperimentSpec.from_mapping(load_yaml(p), schema=schema, what=str(p))
    if spec.id != p.stem:
        raise SpecError(f"{p}: id {spec.id!r} must equal the file name {p.stem!r}")
    return spec


def chunk_ranges(n: int, size: int) -> list[tuple[int, int]]:
    """Split replications ``0..n-1`` into consecutive ``(start, stop)`` ranges.

    Examples
    --------
    >>> chunk_ranges(5, 2)
    [(0, 2), (2, 4), (4, 5)]
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise SpecError(f"replications: expected a positive integer, got {n!r}")
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise SpecError(f"chunk_size: expected a positive integer, got {size!r}")
    return [(s, min(s + size, n)) for s in range(0, n, size)]
