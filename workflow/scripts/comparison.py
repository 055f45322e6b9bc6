"""Put every number the papers state beside the reproduced one (CSV and Markdown)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402
import pandas as pd  # noqa: E402

from cvcompare.experiments import (  # noqa: E402
    atomic_path,
    comparison_page,
    comparison_table,
    load_experiment,
    load_yaml,
    write_table,
)

log = _log.setup(snakemake.log[0])  # noqa: F821
schema = load_yaml(snakemake.params.schema)  # noqa: F821
specs = [load_experiment(p, schema=schema) for p in snakemake.input.specs]  # noqa: F821
# results/<fidelity>/<experiment>/aggregate.csv
aggregates = {Path(p).parent.name: pd.read_csv(p) for p in snakemake.input.aggregates}  # noqa: F821
table = comparison_table(specs, aggregates, missing=snakemake.params.missing)  # noqa: F821
write_table(table, snakemake.output.csv)  # noqa: F821
with atomic_path(snakemake.output.md) as tmp:  # noqa: F821
    tmp.write_text(comparison_page(table, snakemake.params.fidelity))  # noqa: F821
log.info("%d claims, %d consistent", len(table), int(table["consistent"].sum()))
