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
    conda:
        "../../environment.yml"
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        schema=str(EXPERIMENT_SCHEMA),
    script:
        "../scripts/aggregate.py"


rule comparison:
    input:
        aggregates=expand(
            "results/{fidelity}/{experiment}/aggregate.csv",
            fidelity=FIDELITY,
            experiment=list(EXPERIMENTS),
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
        schema=str(EXPERIMENT_SCHEMA),
        fidelity=FIDELITY,
    script:
        "../scripts/comparison.py"
