"""What an experiment file can name: one Markdown page written from the registries.

``docs/building-blocks.md`` lists the scenario generators and their keys, the
distributions of the true differences, the tests with their settings (and defaults) and
the result columns they write, the metric kinds, the figure functions with what they
draw, and the analyses of the real data. It is written from the code's own registries and
docstrings (:func:`reference_markdown`), so it cannot drift from them:
``python -m cvcompare.experiments.reference > docs/building-blocks.md``, and a test checks
that the committed page is up to date.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["docstring_entries", "reference_markdown"]

_ENTRY = re.compile(r"^``(\w+)``$")
_ROLE = re.compile(r":\w+:`~?([\w.]+)`")


def _qualified(target: str, module: str) -> str:
    """The full name of a Sphinx role's ``target`` written in ``module``'s docstrings
    (``.friedman.friedman_settings`` in ``cvcompare.simulate.scenario`` is
    ``cvcompare.simulate.friedman.friedman_settings``), so that a reader of the page can
    find it; its last name where it cannot be found."""
    package = module.rpartition(".")[0]
    if target.startswith("."):
        candidates = [package + target, module + target]
    else:
        candidates = [f"{module}.{target}", f"{package}.{target}", target]
    for name in candidates:
        if _exists(name):
            return name
    return target.rpartition(".")[2]


def _exists(name: str) -> bool:
    """Whether ``name`` is an importable module or an attribute of one."""
    owner, _, attribute = name.rpartition(".")
    for path, attr in ((name, None), (owner, attribute)):
        try:
            found = importlib.import_module(path)
        except (ImportError, ValueError):  # no such module, or an empty name
            continue
        return attr is None or hasattr(found, attr)
    return False


def _plain(text: str, module: str) -> str:
    """Docstring text of ``module`` as one Markdown paragraph: Sphinx roles become code
    spans of the object's full name, double backquotes single ones, whitespace one space."""
    text = _ROLE.sub(lambda m: f"`{_qualified(m.group(1), module)}`", text)
    return " ".join(text.replace("``", "`").split())


def docstring_entries(doc: str, module: str = "cvcompare") -> dict[str, str]:
    """The entries of a definition list in a docstring (of ``module``, whose names its
    roles are resolved in): a line holding only ````name```` followed by indented lines;
    each entry's text up to its first blank line.

    Examples
    --------
    >>> docstring_entries("Kinds:\\n\\n``rate``\\n    Share of true values.\\n``mean``\\n    Mean.")
    {'rate': 'Share of true values.', 'mean': 'Mean.'}
    """
    entries: dict[str, list[str]] = {}
    name = None
    for line in inspect.cleandoc(doc).splitlines():
        match = _ENTRY.match(line)
        if match:
            name = match.group(1)
            entries[name] = []
        elif name is not None and line.startswith(" ") and line.strip():
            entries[name].append(line)
        else:  # a blank or unindented line ends the entry's first paragraph
            name = None
    return {key: _plain(" ".join(text), module) for key, text in entries.items()}


def _summary(obj: Any) -> str:
    """The first paragraph of an object's docstring, as plain text."""
    doc = inspect.getdoc(obj) or ""
    return _plain(doc.split("\n\n")[0], obj.__module__)


def _value(value: Any) -> str:
    """A default as YAML would read it: a tuple as a list, an empty string as ``""``."""
    if value == "":
        return '`""`'
    return f"`{list(value) if isinstance(value, tuple) else value}`"


def _section(title: str, text: str, columns: Sequence[str] = ()) -> list[str]:
    """The lines opening a section: its heading, its paragraph and, given ``columns``, the
    head of its table."""
    head = [f"| {' | '.join(columns)} |", "|" + "---|" * len(columns)] if columns else []
    return [f"## {title}", "", text, "", *head]


def _settings(defaults: Mapping[str, Any]) -> str:
    """Settings with their defaults, ``name (default)``."""
    return ", ".join(f"`{k}` ({_value(v)})" for k, v in defaults.items())


def _generators() -> list[str]:
    from cvcompare.simulate import scenario

    described = docstring_entries(scenario.__doc__ or "", scenario.__name__)
    lines = _section(
        "Scenario generators (`scenario.generator.name`)",
        "The generator makes the data sets of one replication; `scenario` also takes "
        "`delta` (below), `n_instances` (an integer, or a list of sizes from which each "
        "data set's size is drawn uniformly), `cv` (`runs` and `folds`, 10 and 10 by "
        "default, and for `nb_features` and `bn_vs_zeror` `stratify`: true, the default, "
        "for stratified folds as in the authors' code of Corani et al. 2017, false for "
        "plain random folds) and `q` (the number of data sets).",
    )
    for name, keys in scenario.GENERATOR_KEYS.items():
        lines += [f"### `{name}`", "", described[name], "", f"Keys: {_names(keys)}.", ""]
    return lines


def _names(keys: Any) -> str:
    return ", ".join(f"`{k}`" for k in sorted(keys))


def _distributions() -> list[str]:
    from cvcompare.simulate.deltas import DISTRIBUTIONS, distribution_keys

    lines = _section(
        "True differences (`scenario.delta.distribution`)",
        "The distribution from which each data set's true difference is drawn. A `cap` "
        "clips the draws: a number `c` to `[-c, c]` (around 0, not around the distribution's "
        "centre), a pair `[low, high]` to that interval; clipped, not truncated, so the mass "
        "beyond the cap sits on its ends and moves the distribution's mean. No cap is the "
        "default (`cap: null`; write it out to make the cap a grid axis). A dry run refuses a "
        "distribution of which more than 1e-10 of the draws fall outside the differences "
        "its generator can realise (the exact tail mass); a cap inside that range makes it 0.",
        ("distribution", "keys", "what it draws"),
    )
    for name, (cls, _) in DISTRIBUTIONS.items():
        required, optional = distribution_keys(name)
        keys = _names(required) or "none required"
        if optional:
            keys += f"; optional {_names(optional)}"
        lines.append(f"| `{name}` | {keys} | {_summary(cls)} |")
    return [*lines, ""]


def _tests() -> list[str]:
    from cvcompare.experiments.registry import BOOLEAN_COLUMNS, COMMON_COLUMNS, TESTS

    lines = _section(
        "Tests (`tests[].test`)",
        "Each test runs on every replication and writes one row of result columns; a "
        "metric reads them. Columns of decisions (True or False) are marked *decision*: "
        "only they can be read by a `rate`, a `replicability` or a `given` condition. "
        f"Every row also has {_names(COMMON_COLUMNS)} and the grid axes.",
    )
    for name, test in TESTS.items():
        doc = inspect.getdoc(test.adapter) or ""
        settings = _settings(test.defaults)
        columns = ", ".join(
            f"`{c}`" + (" (*decision*)" if c in BOOLEAN_COLUMNS else "")
            for c in sorted(test.columns)
        )
        lines += [f"### `{name}`: {test.title}", "", _plain(doc, test.adapter.__module__), ""]
        if test.single_data_set:
            lines += ["One data set: the scenario must have `q: 1`.", ""]
        lines += [f"Settings (default): {settings}.", "", f"Columns: {columns}.", ""]
    return lines


def _metric_kinds() -> list[str]:
    from cvcompare.experiments import metrics

    described = docstring_entries(metrics.__doc__ or "", metrics.__name__)
    lines = _section(
        "Metric kinds (`metrics[].kind`)",
        "A metric summarises the replications of one grid point for each test it lists "
        "(`tests`, all by default), with its Monte Carlo standard error.",
        ("kind", "what it computes"),
    )
    lines += [f"| `{kind}` | {described[kind]} |" for kind in metrics.METRIC_KINDS]
    given = _plain(
        (metrics.__doc__ or "").split("Any metric may be restricted")[1].split("\n\n")[0],
        metrics.__name__,
    )
    return [*lines, "", f"Any metric may be restricted {given}", ""]


def _figures() -> list[str]:
    from cvcompare.plots.figures import FIGURES, READS, figure_settings

    lines = _section(
        "Figure functions (`figure.function`)",
        "Each draws one figure of a paper, with that figure's axes, series and labels, "
        "except `figure_curves`, which its settings lay out (for a scenario of one's own); "
        "an experiment file that names one must define the metrics (for the tests) and "
        "grid axes it reads, and have the settings its labels state; `figure.settings` "
        "gives the function's keyword settings.",
        ("function", "what it draws", "reads"),
    )
    for name, fn in sorted(FIGURES.items()):
        reads = READS.get(name)
        if reads is None:
            what = "an analysis' figure data"
        elif callable(reads):
            takes = figure_settings(fn)
            needed = [k for k, d in takes.items() if d is inspect.Parameter.empty]
            optional = [k for k in takes if k not in needed]
            what = (
                f"what its settings name: {_names(needed)}, optionally {_names(optional)} "
                "(every grid axis with several values named)"
            )
        else:
            metrics = "; ".join(
                f"`{m}`" + (f" of {_names(tests)}" if tests else "")
                for m, tests in reads.metrics.items()
            )
            what = f"metrics {metrics}" + (f"; axes {_names(reads.axes)}" if reads.axes else "")
            if reads.states:
                stated = ", ".join(f"`{k} = {v}`" for k, v in reads.states.items())
                what += f"; its labels state {stated}"
            for key, axis in reads.picks.items():
                default = figure_settings(fn)[key]
                what += (
                    f"; `figure.settings.{key}`: the values of `{axis}` drawn, one panel each "
                    f"(default {list(default)})"
                )
        lines.append(f"| `{name}` | {_summary(fn)} | {what} |")
    return [*lines, ""]


def _analyses() -> list[str]:
    from cvcompare.experiments.analyses import ANALYSES

    lines = _section(
        "Analyses (`analysis.function`, `kind: analysis`)",
        "An analysis computes a target from the real cross-validation results or from a "
        "worked example, and reports its metrics directly (kind `reported`).",
        ("analysis", "what it computes", "settings (default)", "metrics"),
    )
    for name, entry in ANALYSES.items():
        data = " Reads the real results." if entry.needs_data else ""
        lines.append(
            f"| `{name}` | {_summary(entry.function)}{data} | {_settings(entry.defaults)} | "
            f"{_names(entry.metrics)} |"
        )
    return [*lines, ""]


def reference_markdown() -> str:
    """The page of building blocks an experiment file can name (module docstring)."""
    lines = [
        "# Building blocks of an experiment file",
        "",
        "What an experiment file in `config/experiments/` can name, written from the "
        "package's registries (regenerate this page with "
        "`python -m cvcompare.experiments.reference > docs/building-blocks.md`). "
        "[`workflow/README.md`](../workflow/README.md) shows how an experiment file is put "
        "together; "
        "[`targets.md`](targets.md) lists the files there are.",
        "",
        *_generators(),
        *_distributions(),
        *_tests(),
        *_metric_kinds(),
        *_figures(),
        *_analyses(),
    ]
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Print the page (it takes no arguments)."""
    if list(sys.argv[1:] if argv is None else argv):
        sys.stderr.write("usage: python -m cvcompare.experiments.reference\n")
        return 2
    sys.stdout.write(reference_markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
