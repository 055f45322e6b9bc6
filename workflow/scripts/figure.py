"""Draw an experiment's figure from its aggregate table (PDF and PNG)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import pandas as pd  # noqa: E402

from cvcompare.experiments import atomic_path, load_experiment, load_yaml  # noqa: E402

log = _log.setup(snakemake.log[0])  # noqa: F821
spec = load_experiment(snakemake.input.spec, schema=load_yaml(snakemake.params.schema))  # noqa: F821
table = pd.read_csv(snakemake.input.aggregate)  # noqa: F821
data = None
if "data" in snakemake.input.keys():  # noqa: F821
    data = pd.read_parquet(snakemake.input.data)  # noqa: F821
fig = spec.draw_figure(table, data)
# No creation date or software version in the files: the same figure gives the same bytes.
metadata = {"pdf": {"CreationDate": None, "Producer": None}, "png": {"Software": None}}
for key in ("pdf", "png"):
    with atomic_path(snakemake.output[key]) as tmp:  # noqa: F821
        fig.savefig(tmp, format=key, dpi=150, bbox_inches="tight", metadata=metadata[key])
log.info("drew %s with %s", spec.id, spec.figure["function"])
