# Gather the chunks of an experiment into one tidy table and compute its metrics.


rule aggregate:
    input:
        chunks=chunk_files,
        spec=lambda wildcards: experiment_file(wildcards.experiment),
    output:
        replications="results/{fidelity}/{experiment}/replications.parquet",
        aggregate="results/{fidelity}/{experiment}/aggregate.csv",
        runtime="results/{fidelity}/{experiment}/runtime.csv",
    log:
        "logs/{fidelity}/{experiment}/aggregate.log",
    wildcard_constraints:
        experiment="|".join(map(re.escape, SIMULATIONS)) or "^$",
    conda:
        "../../environment.yml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        version=VERSION,
        schema=str(EXPERIMENT_SCHEMA),
    script:
        "../scripts/aggregate.py"


# An analysis (closed form, fixed example, real data) is run once per grid point.
rule analyse:
    input:
        unpack(analysis_inputs),
    output:
        aggregate="results/{fidelity}/{experiment}/aggregate.csv",
        figure_data="results/{fidelity}/{experiment}/figure_data.parquet",
    log:
        "logs/{fidelity}/{experiment}/analyse.log",
    benchmark:
        "results/{fidelity}/benchmarks/{experiment}/analyse.tsv"
    wildcard_constraints:
        experiment="|".join(map(re.escape, ANALYSES)) or "^$",
    conda:
        "../../environment.yml"
    threads: 2
    # Measured at paper fidelity (results/paper/benchmarks/<experiment>/analyse.tsv): at
    # most 9 min of wall time (on a loaded machine) and 2.6 GB (H-F7), counting the Stan
    # processes the job starts.
    resources:
        mem_mb=3500,
        runtime=30,
    params:
        version=VERSION,
        job=analysis_job,
    script:
        "../scripts/analyse.py"


rule comparison:
    input:
        aggregates=expand(
            "results/{fidelity}/{experiment}/aggregate.csv",
            fidelity=FIDELITY,
            experiment=compared_experiments(),
        ),
        specs=[experiment_file(eid) for eid in EXPERIMENTS],
    output:
        csv=report(
            "figures/comparison.csv",
            caption="../report/comparison.rst",
            category="Comparison with the papers",
        ),
        md="figures/comparison.md",
    log:
        "logs/comparison.log",
    conda:
        "../../environment.yml"
    params:
        version=VERSION,
        schema=str(EXPERIMENT_SCHEMA),
        fidelity=FIDELITY,
        missing={
            eid: f"the real cross-validation results were not at {ACCURACIES} when the run "
            "started; put the file there (or set `accuracies`) and rerun."
            for eid in EXPERIMENTS
            if eid not in compared_experiments()
        },
    script:
        "../scripts/comparison.py"


# Share of Stan fits passing the sampler diagnostics, per experiment and grid point.
rule sampler_health:
    input:
        aggregates=expand(
            "results/{fidelity}/{experiment}/aggregate.csv",
            fidelity=FIDELITY,
            experiment=HIERARCHICAL,
        ),
    output:
        csv=report(
            "figures/sampler_health.csv",
            caption="../report/sampler_health.rst",
            category="Comparison with the papers",
        ),
        md="figures/sampler_health.md",
    log:
        "logs/sampler_health.log",
    conda:
        "../../environment.yml"
    params:
        version=VERSION,
        fidelity=FIDELITY,
    script:
        "../scripts/sampler_health.py"


# CPU time, jobs and Stan fits of each simulation at a fidelity (from the rows and the
# jobs' benchmark files).
rule benchmark_summary:
    input:
        replications=lambda wildcards: expand(
            "results/{fidelity}/{experiment}/replications.parquet",
            fidelity=wildcards.fidelity,
            experiment=SIMULATIONS,
        ),
        benchmarks=benchmark_files,
    output:
        csv="results/{fidelity}/benchmarks/summary.csv",
    log:
        "logs/{fidelity}/benchmark_summary.log",
    conda:
        "../../environment.yml"
    params:
        version=VERSION,
        hierarchical={
            eid: [t.id for t in EXPERIMENTS[eid].tests if t.test == "hierarchical"]
            for eid in SIMULATIONS
        },
    script:
        "../scripts/benchmark_summary.py"
