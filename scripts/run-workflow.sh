#!/usr/bin/env bash
# Install everything (scripts/setup-env.sh) and run the simulation workflow.
# Extra arguments go to snakemake, e.g.
#   bash scripts/run-workflow.sh --config fidelity=paper
#   bash scripts/run-workflow.sh --cores 8
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh
source .venv/bin/activate
exec snakemake "$@"
