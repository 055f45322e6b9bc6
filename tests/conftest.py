"""Test-session set-up: a Stan cache directory of the session's own.

The native and CmdStan runners compile their programs into ``$CVCOMPARE_CACHE_DIR``. Tests
use a fresh temporary directory for it, so that they never read or wait on a build of the
machine-wide cache (``~/.cache/cvcompare``) that another process is making or has made, and
so that they test the build itself; the first fit of a session therefore compiles the
program (one to two minutes). A developer who wants to reuse builds between sessions sets
``CVCOMPARE_TEST_CACHE_DIR`` to a directory of their choice, which is then used instead.
Subprocesses (joblib workers, Snakemake jobs) inherit the setting.
"""

from __future__ import annotations

import os
import tempfile

_SESSION_CACHE: tempfile.TemporaryDirectory | None = None


def pytest_configure(config) -> None:
    global _SESSION_CACHE
    chosen = os.environ.get("CVCOMPARE_TEST_CACHE_DIR")
    if chosen:
        os.environ["CVCOMPARE_CACHE_DIR"] = chosen
    else:
        _SESSION_CACHE = tempfile.TemporaryDirectory(prefix="cvcompare-test-cache-")
        os.environ["CVCOMPARE_CACHE_DIR"] = _SESSION_CACHE.name


def pytest_unconfigure(config) -> None:
    if _SESSION_CACHE is not None:
        _SESSION_CACHE.cleanup()
