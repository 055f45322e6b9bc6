# Replication suite of cvcompare: simulations of the papers' experiments, their figures,
# and a table putting the papers' numbers beside the reproduced ones.
# Usage: snakemake --cores N [--config fidelity=smoke|quick|paper]; see workflow/README.md.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"


# Wildcards: experiment ids, Paramspace-style grid-point labels, replication ranges.
wildcard_constraints:
    fidelity="smoke|quick|paper",
    experiment="|".join(map(re.escape, EXPERIMENTS)),
    point=r"(all|[A-Za-z][A-Za-z0-9_]*~[A-Za-z0-9_.+-]+(/[A-Za-z][A-Za-z0-9_]*~[A-Za-z0-9_.+-]+)*)",
    start=r"\d+",
    stop=r"\d+",


include: "workflow/rules/data.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/figures.smk"


rule all:
    default_target: True
    input:
        all_targets(),
