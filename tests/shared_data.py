"""Where the tests find the real per-fold accuracies the papers analyse.

The file is not part of the project: it lies in ``shared/data/`` beside the checkout
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
