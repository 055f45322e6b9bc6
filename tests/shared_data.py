"""Data shared by several test modules: what the papers analyse, and a small scenario.

``TUTORIAL`` is the accuracy table of the Friedman/Nemenyi tutorial (seed 004), an input
of the tests only. ``REAL`` is where the tests find the real per-fold accuracies; that file
is not part of the project: it lies in ``shared/data/`` beside the checkout
(``../shared/data/uci_cv_accuracies.txt``), or wherever ``CVCOMPARE_ACCURACIES`` points.
Tests that need it skip with a reason when it is absent.
"""

import os
from pathlib import Path

import pytest

REAL = Path(
    os.environ.get(
        "CVCOMPARE_ACCURACIES",
        Path(__file__).resolve().parents[2] / "shared" / "data" / "uci_cv_accuracies.txt",
    )
)
needs_real = pytest.mark.skipif(not REAL.is_file(), reason=f"shared data file {REAL} is absent")

#: The tutorial's 4 models x 6 data sets accuracy table (input only).
TUTORIAL = [
    [0.8937, 0.8839, 0.9072, 0.9102],
    [0.8023, 0.8024, 0.8229, 0.8238],
    [0.7130, 0.7132, 0.7198, 0.7206],
    [0.5084, 0.5085, 0.5232, 0.5273],
    [0.2331, 0.2326, 0.3620, 0.3952],
    [0.5174, 0.5175, 0.5307, 0.5178],
]


#: A small P-style scenario (BN vs zeroR, 8 data sets, 2 x 5-fold CV) shared by the
#: experiment-engine and workflow tests; copy it before changing it.
SMALL_SCENARIO = {
    "generator": {"name": "bn_vs_zeror"},
    "delta": {"distribution": "fixed", "value": 0.0},
    "n_instances": [50, 100],
    "cv": {"runs": 2, "folds": 5},
    "q": 8,
}
