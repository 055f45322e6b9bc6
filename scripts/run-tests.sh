#!/usr/bin/env bash
# Install everything (scripts/setup-env.sh) and run the test suite.
# The default run leaves out the slow statistical checks; run them with
#   bash scripts/run-tests.sh -m slow
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-env.sh
source .venv/bin/activate
exec python -m pytest "$@"
