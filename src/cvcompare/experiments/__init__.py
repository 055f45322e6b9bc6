"""Declarative simulation experiments: specs, chunks of replications, metrics, comparisons.

The workflow (``Snakefile``) is a thin layer over this package: it loads experiment files
with :func:`load_experiment`, runs :func:`run_chunk` for each (grid point, chunk of
replications), computes :func:`aggregate` tables of metrics with Monte Carlo standard
errors and puts the papers' numbers beside them with :func:`comparison_table`.
"""

from cvcompare.experiments.atomic import atomic_path, write_table
from cvcompare.experiments.comparison import comparison_page, comparison_table, to_markdown
from cvcompare.experiments.metrics import (
    METRIC_KINDS,
    Estimate,
    aggregate,
    mean_estimate,
    rate_estimate,
    replicability_estimate,
)
from cvcompare.experiments.registry import TESTS, register
from cvcompare.experiments.run import run_chunk, run_replication
from cvcompare.experiments.spec import (
    FIDELITIES,
    ExperimentSpec,
    GridAxis,
    GridPoint,
    SpecError,
    TestSpec,
    chunk_ranges,
    load_experiment,
    load_yaml,
    validate_with_schema,
)

__all__ = [
    "FIDELITIES",
    "METRIC_KINDS",
    "TESTS",
    "Estimate",
    "ExperimentSpec",
    "GridAxis",
    "GridPoint",
    "SpecError",
    "TestSpec",
    "aggregate",
    "atomic_path",
    "chunk_ranges",
    "comparison_page",
    "comparison_table",
    "load_experiment",
    "load_yaml",
    "mean_estimate",
    "rate_estimate",
    "register",
    "replicability_estimate",
    "run_chunk",
    "run_replication",
    "to_markdown",
    "validate_with_schema",
    "write_table",
]
