"""Put every number the papers state beside the reproduced one (CSV and Markdown)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402
import pandas as pd  # noqa: E402

from cvcompare.experiments import (  # noqa: E402
    atomic_path,
    comparison_table,
    load_experiment,
    load_yaml,
    to_markdown,
    write_table,
)
from cvcompare.hierarchical.diagnostics import PASS_RULE  # noqa: E402

log = _log.setup(snakemake.log[0])  # noqa: F821
schema = load_yaml(snakemake.params.schema)  # noqa: F821
specs = [load_experiment(p, schema=schema) for p in snakemake.input.specs]  # noqa: F821
# results/<fidelity>/<experiment>/aggregate.csv
aggregates = {Path(p).parent.name: pd.read_csv(p) for p in snakemake.input.aggregates}  # noqa: F821
table = comparison_table(specs, aggregates, missing=snakemake.params.missing)  # noqa: F821
write_table(table, snakemake.output.csv)  # noqa: F821
with atomic_path(snakemake.output.md) as tmp:  # noqa: F821
    tmp.write_text(
        f"# Paper numbers vs reproduction (fidelity: {snakemake.params.fidelity})\n\n"  # noqa: F821
        "Reproduced values are shown with their uncertainty: ± one Monte Carlo standard "
        "error for simulations (n replications), ± one posterior-sampling standard error for "
        "numbers read from Stan draws, or exact; where a paper prints a rounded number, the "
        "reproduced one is shown rounded the same way first. A claim is consistent when it "
        "holds within two standard errors (for a share of replications that is 0 or 1, "
        "within its exact 95% bound) and its stated tolerance (half a unit of the last "
        "printed digit for rounded numbers). For experiments that fit the hierarchical "
        f"model, the share of fits passing the sampler diagnostics ({PASS_RULE}) is given."
        "\n\n" + to_markdown(table)
    )
log.info("%d claims, %d consistent", len(table), int(table["consistent"].sum()))
