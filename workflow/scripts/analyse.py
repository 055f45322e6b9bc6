"""Run an analysis experiment (closed form, fixed example or real data) at every grid point."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402

from cvcompare.experiments import write_table  # noqa: E402
from cvcompare.experiments.analyses import read_real_results, run_analysis  # noqa: E402

log = _log.setup(snakemake.log[0], snakemake.threads)  # noqa: F821
job = snakemake.params.job  # noqa: F821
data = None
if "data" in snakemake.input.keys():  # noqa: F821
    data = read_real_results(snakemake.input.data)  # noqa: F821
    log.info(
        "read %d data sets of %d learners", data["dataset"].nunique(), data["learner"].nunique()
    )
aggregate, figure_data = run_analysis(**job, data=data)
write_table(aggregate, snakemake.output.aggregate)  # noqa: F821
write_table(figure_data, snakemake.output.figure_data)  # noqa: F821
log.info(
    "%s: %d numbers at %d grid point(s)", job["experiment"], len(aggregate), len(job["points"])
)
