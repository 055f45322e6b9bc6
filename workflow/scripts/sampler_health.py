"""Gather the share of Stan fits passing the sampler diagnostics per grid point."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402
import pandas as pd  # noqa: E402

from cvcompare.experiments import atomic_path, write_table  # noqa: E402
from cvcompare.experiments.health import (  # noqa: E402
    health_markdown,
    health_warnings,
    sampler_health,
)

log = _log.setup(snakemake.log[0])  # noqa: F821
# results/<fidelity>/<experiment>/aggregate.csv
aggregates = {Path(p).parent.name: pd.read_csv(p) for p in snakemake.input.aggregates}  # noqa: F821
table = sampler_health(aggregates)
write_table(table, snakemake.output.csv)  # noqa: F821
with atomic_path(snakemake.output.md) as tmp:  # noqa: F821
    tmp.write_text(health_markdown(table, snakemake.params.fidelity))  # noqa: F821
for line in health_warnings(table):
    _log.warn(log, f"sampler health: {line}")
log.info("%d grid points, %d below target", len(table), int((~table["meets_target"]).sum()))
