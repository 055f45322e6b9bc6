"""Write an experiment's declared table (CSV and Markdown) from its aggregate table."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402
import pandas as pd  # noqa: E402

from cvcompare.experiments import atomic_path, load_experiment, load_yaml, write_table  # noqa: E402
from cvcompare.experiments.tables import (  # noqa: E402
    experiment_markdown,
    pivot_table,
    table_key,
)

log = _log.setup(snakemake.log[0])  # noqa: F821
spec = load_experiment(snakemake.input.spec, schema=load_yaml(snakemake.params.schema))  # noqa: F821
aggregate = pd.read_csv(snakemake.input.aggregate)  # noqa: F821
long = pivot_table(aggregate, spec.table, {axis.name: axis.values for axis in spec.grid})
write_table(long, snakemake.output.csv)  # noqa: F821
key = table_key(spec, snakemake.params.fidelity)  # noqa: F821
with atomic_path(snakemake.output.md) as tmp:  # noqa: F821
    tmp.write_text(experiment_markdown(long, aggregate, spec, key))
log.info("%s: table of %d cells", spec.id, len(long))
