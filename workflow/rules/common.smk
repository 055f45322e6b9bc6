# Configuration validation, experiment loading and path helpers shared by all rules.
import re
import sys
from pathlib import Path

from cvcompare import __version__ as VERSION
from cvcompare.experiments import (
    SpecError,
    chunk_ranges,
    load_experiment,
    load_yaml,
    validate_with_schema,
)

SCHEMAS = Path(workflow.basedir) / "schemas"
EXPERIMENT_SCHEMA = SCHEMAS / "experiment.schema.yaml"
CAPTIONS = Path(workflow.basedir) / "report"
# Every rule that runs the package's code has the package's version among its params, so
# that results computed by another version are recomputed (Snakemake's params trigger).


def experiment_file(eid):
    """The YAML file of an experiment."""
    return Path(config["experiments_dir"]) / f"{eid}.yaml"


def load_experiments():
    """The configured experiments, after checking the configuration, every experiment file
    and their caption files (raises SpecError naming the file and the entry)."""
    validate_with_schema(
        config,
        load_yaml(SCHEMAS / "config.schema.yaml"),
        "the workflow configuration (config/config.yaml with any --config overrides)",
    )
    schema = load_yaml(EXPERIMENT_SCHEMA)
    experiments = {
        eid: load_experiment(experiment_file(eid), schema=schema)
        for eid in config["experiments"]
    }
    for spec in experiments.values():
        for output in ("figure", "table"):
            try:
                if getattr(spec, output):
                    spec.caption(output, CAPTIONS)
            except SpecError as error:
                raise SpecError(f"{experiment_file(spec.id)}: {error}") from None
    return experiments


try:
    EXPERIMENTS = load_experiments()
except SpecError as error:
    # the message names the file and the entry: a traceback would only add noise
    sys.exit(f"cvcompare: {error}")


def unlisted_experiments():
    """Experiment files that neither the run's configuration nor config/config.yaml lists
    under `experiments` (a new file someone forgot to list; a run of a chosen subset does
    not count the default list's files)."""
    default = Path("config/config.yaml")
    listed = set(EXPERIMENTS) | set(
        load_yaml(default).get("experiments", []) if default.is_file() else []
    )
    found = Path(config["experiments_dir"]).glob("*.yaml")
    return sorted(path.stem for path in found if path.stem not in listed)


UNLISTED = unlisted_experiments()
if UNLISTED:
    print(
        f"cvcompare: not run, since no configuration lists them under `experiments`: "
        f"{', '.join(UNLISTED)} (add them to config/config.yaml, or run them with "
        "--config 'experiments=[ID,...]')",
        file=sys.stderr,
    )
FIDELITY = config["fidelity"]
SIMULATIONS = [eid for eid, spec in EXPERIMENTS.items() if spec.kind == "simulation"]
# Simulations that fit the hierarchical model (their sampler health is reported).
HIERARCHICAL = [
    eid
    for eid in SIMULATIONS
    if any(t.test == "hierarchical" for t in EXPERIMENTS[eid].tests)
]
ANALYSES = [eid for eid, spec in EXPERIMENTS.items() if spec.kind == "analysis"]

# The real cross-validation results (read by the real-data analyses). Where the file is
# absent when the run starts, rule fetch_accuracies tries to download it; the comparison
# table of this run then lists the real-data claims as not run (rerun to include them).
# Without network that job fails with a message saying where to put the file; the
# workflow profile's keep-going then lets every other job run (without it, Snakemake
# starts no new job after the failure).
ACCURACIES = config["accuracies"]
REAL_DATA = [eid for eid in ANALYSES if EXPERIMENTS[eid].needs_real_data]
REAL_DATA_PRESENT = Path(ACCURACIES).is_file()
if REAL_DATA and REAL_DATA_PRESENT:
    # what the analyses ask of the real results (their learners, as many data sets as
    # they count) is checked now, so that a dry run catches it
    from cvcompare.experiments.analyses import read_real_results
    from cvcompare.experiments.checks import check_against_data

    try:
        _real = read_real_results(ACCURACIES)
        for eid in REAL_DATA:
            check_against_data(EXPERIMENTS[eid], _real, str(experiment_file(eid)))
    except SpecError as error:
        sys.exit(f"cvcompare: {error}")
    except ValueError as error:  # the file itself, which the analyses could not read
        sys.exit(f"cvcompare: accuracies: {error}")
    del _real


def chunk_size(eid):
    """Replications per job for an experiment."""
    return config["chunk_size"].get(eid, config["chunk_size"]["default"])


def chunk_names(fidelity, eid):
    """``<experiment>/<point>/reps-<start>-<stop>`` of every chunk job of an experiment."""
    spec = EXPERIMENTS[eid]
    ranges = chunk_ranges(spec.n_replications(fidelity), chunk_size(eid))
    return [
        f"{spec.id}/{point.label}/reps-{start}-{stop}"
        for point in spec.points(fidelity)
        for start, stop in ranges
    ]


def job_minutes(wildcards):
    """Wall-clock minutes a simulation job of an experiment may take (measured)."""
    return config["job_minutes"].get(
        wildcards.experiment, config["job_minutes"]["default"]
    )


def chunk_files(wildcards):
    """Every chunk of replications of an experiment at a fidelity."""
    return [
        f"results/{wildcards.fidelity}/{name}.parquet"
        for name in chunk_names(wildcards.fidelity, wildcards.experiment)
    ]


def benchmark_files(wildcards):
    """The benchmark file of every chunk job of every simulation at a fidelity."""
    return [
        f"results/{wildcards.fidelity}/benchmarks/{name}.tsv"
        for eid in SIMULATIONS
        for name in chunk_names(wildcards.fidelity, eid)
    ]


def chunk_job(wildcards):
    """The keyword arguments of run_chunk for a job.

    Passed as a parameter, so that editing a point's scenario or a test's settings reruns
    exactly the jobs it affects.
    """
    spec = EXPERIMENTS[wildcards.experiment]
    return spec.job(spec.point(wildcards.point), wildcards.fidelity, config["seed"])


# Key of a cached Friedman ground truth (under results/ground_truth/, logs/ground_truth/).
TRUTH_KEY = "friedman/{learner_a}-{learner_b}/reps~{repetitions}/test~{n_test}/seed~{seed}/{setting}"


def ground_truth_files(wildcards):
    """The cached ground-truth files a chunk's scenario reads (none for most scenarios).

    Keyed by the truth design and the root seed only, not by the fidelity, so every
    fidelity (and experiment) with the same design reuses them.
    """
    from cvcompare.simulate import required_ground_truth

    scenario = dict(EXPERIMENTS[wildcards.experiment].point(wildcards.point).scenario)
    needed = required_ground_truth(scenario, scenario.pop("q"))
    if needed is None:
        return []
    design, settings = needed
    learner_a, learner_b = design.learners
    keys = (
        TRUTH_KEY.format(
            learner_a=learner_a,
            learner_b=learner_b,
            repetitions=design.repetitions,
            n_test=design.n_test,
            seed=config["seed"],
            setting=setting,
        )
        for setting in settings
    )
    return [f"results/ground_truth/{key}.json" for key in keys]


def current_aggregate(wildcards):
    """The aggregate table of an experiment at the configured fidelity."""
    return f"results/{FIDELITY}/{wildcards.experiment}/aggregate.csv"


def figure_inputs(wildcards):
    """The aggregate table, and for an analysis its figure data."""
    inputs = {"aggregate": current_aggregate(wildcards)}
    if EXPERIMENTS[wildcards.experiment].kind == "analysis":
        inputs["data"] = (
            f"results/{FIDELITY}/{wildcards.experiment}/figure_data.parquet"
        )
    return inputs


def analysis_inputs(wildcards):
    """The experiment file, and the real results where the analysis reads them."""
    inputs = {"spec": experiment_file(wildcards.experiment)}
    if EXPERIMENTS[wildcards.experiment].needs_real_data:
        inputs["data"] = ACCURACIES
    return inputs


def analysis_job(wildcards):
    """The keyword arguments of run_analysis for an analysis experiment (a parameter)."""
    spec = EXPERIMENTS[wildcards.experiment]
    return spec.analysis_job(wildcards.fidelity, config["seed"])


def compared_experiments():
    """Experiments whose aggregates enter this run's comparison table."""
    return [eid for eid in EXPERIMENTS if REAL_DATA_PRESENT or eid not in REAL_DATA]


def caption_text(wildcards, output_kind="figure"):
    """The caption of an experiment's figure or table (workflow/report/<caption>, or its
    title)."""
    return EXPERIMENTS[wildcards.experiment].caption(output_kind, CAPTIONS)


def all_targets():
    """Figures and tables of every configured experiment, and the comparison table."""
    out = []
    for eid, spec in EXPERIMENTS.items():
        if spec.figure:
            out += [f"figures/{eid}.pdf", f"figures/{eid}.png"]
        if spec.table:
            out += [f"figures/{eid}.csv", f"figures/{eid}.md"]
    out += ["figures/comparison.csv", "figures/comparison.md"]
    if HIERARCHICAL:
        out += ["figures/sampler_health.csv", "figures/sampler_health.md"]
    if SIMULATIONS:
        out.append(f"results/{FIDELITY}/benchmarks/summary.csv")
    return out
