"""Summarise the CPU time, jobs and Stan fits of every simulation at a fidelity."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402
import pandas as pd  # noqa: E402

from cvcompare.experiments import write_table  # noqa: E402
from cvcompare.experiments.cost import cost_summary  # noqa: E402

log = _log.setup(snakemake.log[0])  # noqa: F821
# results/<fidelity>/<experiment>/replications.parquet
rows = {Path(p).parent.name: pd.read_parquet(p) for p in snakemake.input.replications}  # noqa: F821
benchmarks = {eid: [] for eid in rows}
for path in snakemake.input.benchmarks:  # noqa: F821
    # results/<fidelity>/benchmarks/<experiment>/<point...>/reps-a-b.tsv
    eid = Path(path).parts[3]
    benchmarks[eid].append(pd.read_csv(path, sep="\t"))
table = cost_summary(rows, benchmarks, snakemake.params.hierarchical)  # noqa: F821
write_table(table, snakemake.output.csv)  # noqa: F821
for r in table.itertuples(index=False):
    log.info(
        "%s: %d jobs, %d fits, %.0f CPU s (%.2f CPU s per fit), about %.0f s on 2 cores",
        r.experiment, r.jobs, r.fits, r.cpu_seconds, r.cpu_seconds_per_fit,
        r.wall_seconds_on_2_cores,
    )  # fmt: skip
