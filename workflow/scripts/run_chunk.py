"""Run one chunk of replications of one grid point and write its tidy table."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402

from cvcompare.experiments import run_chunk, write_table  # noqa: E402
from cvcompare.simulate import load_ground_truth  # noqa: E402

# the job's `threads` are its worker processes, each fitting on one thread
log = _log.setup(snakemake.log[0], threads=1)  # noqa: F821
wc = snakemake.wildcards  # noqa: F821
truth_files = list(snakemake.input.ground_truth)  # noqa: F821
table = run_chunk(
    **snakemake.params.job,  # noqa: F821
    start=int(wc.start),
    stop=int(wc.stop),
    n_jobs=snakemake.threads,  # noqa: F821
    ground_truth=load_ground_truth(truth_files) if truth_files else None,
)
write_table(table, snakemake.output[0])  # noqa: F821
log.info("wrote %d rows to %s", len(table), snakemake.output[0])  # noqa: F821
