# Configuration validation, experiment loading and path helpers shared by all rules.
import re
from pathlib import Path

from cvcompare.experiments import (
    chunk_ranges,
    load_experiment,
    load_yaml,
    validate_with_schema,
)

SCHEMAS = Path(workflow.basedir) / "workflow" / "schemas"
EXPERIMENT_SCHEMA = SCHEMAS / "experiment.schema.yaml"
CAPTIONS = Path(workflow.basedir) / "workflow" / "report"

validate_with_schema(
    config,
    load_yaml(SCHEMAS / "config.schema.yaml"),
    "the workflow configuration (config/config.yaml with any --config overrides)",
)


def experiment_file(eid):
    """The YAML file of an experiment."""
    return Path(config["experiments_dir"]) / f"{eid}.yaml"


FIDELITY = config["fidelity"]
_experiment_schema = load_yaml(EXPERIMENT_SCHEMA)
EXPERIMENTS = {
    eid: load_experiment(experiment_file(eid), schema=_experiment_schema)
    for eid in config["experiments"]
}


def chunk_size(eid):
    """Replications per job for an experiment."""
    return config["chunk_size"].get(eid, config["chunk_size"]["default"])


def chunk_files(wildcards):
    """Every chunk of replications of an experiment at a fidelity."""
    spec = EXPERIMENTS[wildcards.experiment]
    ranges = chunk_ranges(
        spec.n_replications(wildcards.fidelity), chunk_size(wildcards.experiment)
    )
    return [
        f"results/{wildcards.fidelity}/{spec.id}/{point.label}/reps-{start}-{stop}.parquet"
        for point in spec.points(wildcards.fidelity)
        for start, stop in ranges
    ]


def chunk_job(wildcards):
    """The keyword arguments of run_chunk for a job.

    Passed as a parameter, so that editing a point's scenario or a test's settings reruns
    exactly the jobs it affects.
    """
    spec = EXPERIMENTS[wildcards.experiment]
    return spec.job(spec.point(wildcards.point), wildcards.fidelity, config["seed"])


def current_aggregate(wildcards):
    """The aggregate table of an experiment at the configured fidelity."""
    return f"results/{FIDELITY}/{wildcards.experiment}/aggregate.csv"


def caption_text(wildcards):
    """The figure caption of an experiment (workflow/report/<caption>)."""
    name = EXPERIMENTS[wildcards.experiment].figure["caption"]
    return (CAPTIONS / name).read_text()


def all_targets():
    """Figures of every configured experiment and the comparison table."""
    figures = [f"figures/{eid}.{ext}" for eid in EXPERIMENTS for ext in ("pdf", "png")]
    return figures + ["figures/comparison.csv", "figures/comparison.md"]
