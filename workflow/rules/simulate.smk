# Simulate and analyse: one job per (experiment, grid point, chunk of replications).


rule run_chunk:
    output:
        "results/{fidelity}/{experiment}/{point}/reps-{start}-{stop}.parquet",
    log:
        "logs/{fidelity}/{experiment}/{point}/reps-{start}-{stop}.log",
    benchmark:
        "results/{fidelity}/benchmarks/{experiment}/{point}/reps-{start}-{stop}.tsv"
    wildcard_constraints:
        experiment="|".join(map(re.escape, SIMULATIONS)) or "^$",
    conda:
        "../../environment.yml"
    threads: config["workers"]
    resources:
        mem_mb=2000,
        runtime=60,
    params:
        job=chunk_job,
    script:
        "../scripts/run_chunk.py"
