"""The catalogue of replication targets: one Markdown page written from the experiment files.

``docs/targets.md`` lists every target of the workflow with the paper item it replicates,
what is computed, its outputs, the paper numbers it is compared with and the choices made
where the paper is silent or its text and its authors' code disagree. It is written from
the experiment files (:func:`targets_markdown`), so it cannot drift from them:
``python -m cvcompare.experiments.catalogue config/experiments > docs/targets.md``, and a
test checks that the committed page is up to date.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from cvcompare.experiments.spec import ExperimentSpec, format_value, load_experiment, load_yaml

__all__ = ["PAPERS", "load_all", "targets_markdown"]

#: The papers, by the ``source.paper`` of an experiment file, in the catalogue's order.
PAPERS = {
    "H": "Corani, Benavoli, Demšar, Mangili & Zaffalon (2017), *Statistical comparison of "
    "classifiers through Bayesian hierarchical modelling*, Machine Learning 106",
    "P": "Corani & Benavoli (2015), *A Bayesian approach for comparing cross-validated "
    "algorithms on multiple data sets*, Machine Learning 100",
    "W": "Benavoli, Mangili, Corani, Zaffalon & Ruggeri (2014), *A Bayesian Wilcoxon "
    "signed-rank test based on the Dirichlet process*, ICML",
    "F": "Demšar (2006), *Statistical comparisons of classifiers over multiple data sets*, "
    "JMLR 7, as presented in a Friedman / Nemenyi tutorial",
}


#: What the catalogue says of an experiment without a ``source``: a scenario of one's own.
OWN_SCENARIO = "own scenario"


def load_all(directory: str | Path, schema: str | Path) -> list[ExperimentSpec]:
    """Load every experiment file of a directory, ordered by paper then id (experiments
    without a paper last)."""
    schema_doc = load_yaml(schema)
    specs = [load_experiment(p, schema=schema_doc) for p in sorted(Path(directory).glob("*.yaml"))]
    order = list(PAPERS)
    return sorted(
        specs,
        key=lambda s: (order.index(s.source["paper"]) if s.source else len(order), s.id),
    )


def _grid(spec: ExperimentSpec) -> str:
    if not spec.grid:
        return "one point"
    return "; ".join(
        f"{a.name} in {{{', '.join(format_value(v) for v in a.values)}}}" for a in spec.grid
    )


def _outputs(spec: ExperimentSpec) -> str:
    out = []
    if spec.figure:
        out.append(f"`figures/{spec.id}.pdf`, `.png`")
    if spec.table:
        out.append(f"`figures/{spec.id}.csv`, `.md`")
    return "; ".join(out)


def _what(spec: ExperimentSpec) -> str:
    if spec.kind == "analysis":
        assert spec.analysis is not None
        return f"analysis `{spec.analysis.function}`"
    tests = ", ".join(f"{t.id} (`{t.test}`)" for t in spec.tests)
    reps = ", ".join(f"{k} {v}" for k, v in spec.replications.items())
    return f"simulation; tests: {tests}; replications per grid point: {reps}"


def targets_markdown(specs: Sequence[ExperimentSpec]) -> str:
    """The catalogue page of the given experiments (Markdown).

    Parameters
    ----------
    specs : sequence of ExperimentSpec
        The experiments, in the order they are listed.

    Returns
    -------
    str
        A summary table (id, paper item, title, outputs, number of paper numbers compared)
        and one section per target with its source, grid, computation, outputs, notes and
        the paper's claims.
    """
    lines = [
        "# Replication targets",
        "",
        "Every target of the workflow, written from its experiment file in",
        "`config/experiments/` (regenerate this page with",
        "`python -m cvcompare.experiments.catalogue config/experiments > docs/targets.md`).",
        "Each paper number listed here is put beside the reproduced one, with its",
        "uncertainty and a verdict, in `figures/comparison.md`.",
        "",
        "Papers:",
        "",
    ]
    papers = dict.fromkeys(spec.source["paper"] for spec in specs if spec.source)
    lines += [f"- {PAPERS[p]}" for p in papers]
    lines += [
        "",
        "| target | paper item | title | outputs | paper numbers |",
        "|---|---|---|---|---|",
    ]
    for spec in specs:
        lines.append(
            f"| [{spec.id}](#{spec.id.lower()}) | {spec.source.get('item', OWN_SCENARIO)} | "
            f"{spec.title} | "
            f"{_outputs(spec)} | {len(spec.paper_numbers)} |"
        )
    for spec in specs:
        src = spec.source
        where = ", ".join(x for x in (src.get("item"), src.get("section")) if x)
        lines += [
            "",
            f"## {spec.id}",
            "",
            f"**{spec.title}**",
            "",
            f"- Source: {PAPERS[src['paper']]}; {where}." if src else f"- Source: {OWN_SCENARIO}.",
            f"- Computed: {_what(spec)}.",
            f"- Grid: {_grid(spec)}.",
            f"- Outputs: {_outputs(spec)}.",
        ]
        if spec.notes:
            lines += ["", " ".join(spec.notes.split())]
        if spec.paper_numbers:  # a scenario of one's own states what it expects
            stated = "paper" if src else "expected"
            lines += ["", f"{stated.capitalize()} numbers compared:", ""]
            for claim in spec.paper_numbers:
                note = f" ({claim['note']})" if claim.get("note") else ""
                claimed = claim["claim"].rstrip(".")
                lines.append(f"- {claimed}. {stated.capitalize()}: {claim['paper']}{note}.")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Print the catalogue of the experiment files in a directory (default
    ``config/experiments``), validated against ``workflow/schemas/experiment.schema.yaml``."""
    args = list(sys.argv[1:] if argv is None else argv)
    directory = Path(args[0]) if args else Path("config/experiments")
    schema = Path(args[1]) if len(args) > 1 else Path("workflow/schemas/experiment.schema.yaml")
    sys.stdout.write(targets_markdown(load_all(directory, schema)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
