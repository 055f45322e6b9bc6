"""Simulation-based calibration of the hierarchical Stan program (slow: a few minutes with
the native runner, much longer through PyStan)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "sbc_hierarchical.py"


@pytest.mark.slow
def test_ranks_of_prior_draws_are_uniform(tmp_path):
    # Talts et al. (2018): 200 simulations from the (narrowed, documented) prior; the ranks of
    # delta0, sigma0, nu, delta_1 and delta_2 among 99 thinned draws must pass a chi-square
    # test of uniformity at level 0.001 each (family-wise false alarm about 0.005 when the
    # program samples its posterior correctly). Fits with divergent transitions are kept.
    out = tmp_path / "sbc.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--sims", "200", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(out.read_text())
    assert len(result["ranks"]) == 200
    for name, p in result["pvalues"].items():
        assert p > 0.001, (name, p, done.stdout)
