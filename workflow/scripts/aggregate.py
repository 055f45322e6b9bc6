"""Gather an experiment's chunks, compute its metrics and its runtime table."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402
import pandas as pd  # noqa: E402

from cvcompare.experiments import aggregate, load_experiment, load_yaml, write_table  # noqa: E402
from cvcompare.experiments.cost import runtime_table  # noqa: E402
from cvcompare.experiments.health import health_warnings, sampler_health  # noqa: E402

log = _log.setup(snakemake.log[0])  # noqa: F821
spec = load_experiment(snakemake.input.spec, schema=load_yaml(snakemake.params.schema))  # noqa: F821
rows = pd.concat([pd.read_parquet(p) for p in snakemake.input.chunks], ignore_index=True)  # noqa: F821
rows = rows.sort_values(["point", "replication", "test"], kind="stable").reset_index(drop=True)
log.info("%s: %d rows from %d chunks", spec.id, len(rows), len(snakemake.input.chunks))  # noqa: F821
grid = [axis.name for axis in spec.grid]
write_table(rows, snakemake.output.replications)  # noqa: F821
agg = aggregate(rows, spec.metrics, grid)
write_table(agg, snakemake.output.aggregate)  # noqa: F821
for line in health_warnings(sampler_health({spec.id: agg})):
    _log.warn(log, f"sampler health: {line}")
write_table(runtime_table(rows, grid), snakemake.output.runtime)  # noqa: F821
log.info("wrote %s", snakemake.output.aggregate)  # noqa: F821
