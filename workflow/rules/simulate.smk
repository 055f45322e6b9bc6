# Simulate and analyse: one job per (experiment, grid point, chunk of replications).


rule run_chunk:
    input:
        ground_truth=ground_truth_files,
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
    # measured with the benchmark files (results/<fidelity>/benchmarks/): a chunk peaks at
    # 230-380 MB; its minutes are `job_minutes` of config/config.yaml
    resources:
        mem_mb=800,
        runtime=job_minutes,
    params:
        version=VERSION,
        job=chunk_job,
    script:
        "../scripts/run_chunk.py"


# The true difference of two learners in one Friedman setting (Corani et al. 2017,
# Sec. 4.7), computed once per (learners, repetitions, test size, root seed) and reused by
# every fidelity and experiment that reads it.
rule friedman_ground_truth:
    output:
        f"results/ground_truth/{TRUTH_KEY}.json",
    log:
        f"logs/ground_truth/{TRUTH_KEY}.log",
    benchmark:
        f"results/ground_truth/benchmarks/{TRUTH_KEY}.tsv"
    wildcard_constraints:
        learner_a=r"[a-z_]+",
        learner_b=r"[a-z_]+",
        repetitions=r"\d+",
        n_test=r"\d+",
        seed=r"\d+",
        setting=r"F[123]_[A-Za-z0-9_.]+",
    conda:
        "../../environment.yml"
    resources:
        mem_mb=1000,
        runtime=30,
    params:
        version=VERSION,
    script:
        "../scripts/friedman_ground_truth.py"
