#!/usr/bin/env bash
# Create the project's virtual environment in .venv (once) and install cvcompare with
# everything it needs: the extras "all" (PyStan and cmdstanpy for the Stan model, the
# Snakemake workflow, SLURM) and "dev" (the test tools).
# Needs only Python >= 3.11 and a C++ compiler. Re-running it is cheap: pip skips what is
# already installed.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "cvcompare needs Python >= 3.11, found " + sys.version.split()[0])'
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[all,dev]'
