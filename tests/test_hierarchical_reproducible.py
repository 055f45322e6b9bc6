"""A hierarchical fit is a pure function of (data, settings, seed): the same draws, bit for
bit, whatever the number of threads, the CPUs the process may use, the process, or other
fits running at the same time; and no runner logs errors at initialisation."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from reference_hierarchical import h_scenario

from cvcompare.hierarchical import ConvergenceWarning, fit_hierarchical, native
from cvcompare.hierarchical.native import native_available
from cvcompare.hierarchical.runners import cmdstan_available

needs_native = pytest.mark.skipif(not native_available(), reason="no C++ compiler on PATH")

#: 4 chains, as in the paper, so that two threads hold two chains each and one thread all four
SETTINGS = {"chains": 4, "warmup": 300, "draws": 200, "runner": "native"}
FIELDS = ("delta0", "sigma0", "nu", "delta", "sigma")


@pytest.fixture(scope="module")
def x():
    # heavy-tailed deltas (Cauchy): where a build that is not reproducible differs most often
    return h_scenario(20, 0.01, np.random.default_rng(16), n=30)


def fit(x, seed=7):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fit_hierarchical(x, rho=0.1, seed=seed, **SETTINGS)


def assert_same_draws(a, b):
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


@needs_native
def test_repeated_fits_in_one_process_are_identical(x):
    first = fit(x)
    for _ in range(2):
        assert_same_draws(first, fit(x))


@needs_native
@pytest.mark.parametrize("cpus", [1, 3])
def test_draws_do_not_depend_on_the_number_of_threads(x, cpus, monkeypatch):
    # the native runner runs min(chains, CPUs) threads: 1 thread runs the four chains one
    # after another, 3 threads share them unevenly, the default (2 here) two each
    default = fit(x)
    monkeypatch.setattr(native, "usable_cpus", lambda: cpus)
    assert_same_draws(default, fit(x))


@needs_native
def test_fits_running_at_the_same_time_are_identical(x):
    # two fits at once on the shared CPUs (other load, other thread interleaving)
    alone = fit(x)
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(lambda _: fit(x), range(2)))
    for other in together:
        assert_same_draws(alone, other)


FIT_SCRIPT = """
import sys, warnings
import numpy as np
from cvcompare.hierarchical import ConvergenceWarning, fit_hierarchical
x = np.load(sys.argv[1])
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)
    res = fit_hierarchical(x, rho=0.1, seed=7, **{settings!r})
np.savez(sys.argv[2], **{{name: getattr(res, name) for name in {fields!r}}})
"""


def fit_elsewhere(x, settings: dict, tmp_path, prefix: tuple[str, ...] = ()) -> dict:
    """Draws of the same fit made by a fresh Python process (started with ``prefix``)."""
    data, out = tmp_path / "x.npy", tmp_path / "draws.npz"
    np.save(data, x)
    script = FIT_SCRIPT.format(settings=settings, fields=FIELDS)
    command = [*prefix, sys.executable, "-c", script, str(data), str(out)]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    with np.load(out) as there:
        return {name: there[name] for name in FIELDS}


@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset (util-linux) not found")
@pytest.mark.parametrize(
    "runner",
    [
        pytest.param("native", marks=needs_native),
        pytest.param(
            "cmdstanpy",
            marks=[
                pytest.mark.cmdstan,
                pytest.mark.skipif(not cmdstan_available(), reason="CmdStan is not installed"),
            ],
        ),
    ],
)
def test_draws_with_one_visible_cpu_in_another_process_are_identical(x, tmp_path, runner):
    # a fresh process restricted to CPU 0 (as in a 1-CPU container or SLURM allocation);
    # CmdStan, run by cmdstanpy as one process with a thread per chain, is expected to hold
    # this too in its default build (SSE2, whose alignment every malloc provides)
    settings = SETTINGS | {"runner": runner}
    there = fit_elsewhere(x, settings, tmp_path, ("taskset", "-c", "0"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        here = fit_hierarchical(x, rho=0.1, seed=7, **settings)
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(here, name), there[name], err_msg=name)


def test_pystan_draws_in_another_process_are_identical(x, tmp_path):
    # PyStan runs each chain in a forked single-threaded process, compiled for SSE2: its
    # draws are reproducible across processes too (they differ from the native runner's)
    settings = SETTINGS | {"runner": "pystan", "chains": 2}
    there = fit_elsewhere(x, settings, tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        here = fit_hierarchical(x, rho=0.1, seed=7, **settings)
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(here, name), there[name], err_msg=name)


@needs_native
@pytest.mark.parametrize("seed", range(4))
def test_no_errors_are_logged_at_initialisation(x, seed, caplog):
    # Stan's messages (rejected proposals: "gamma_lpdf: Random variable is 0", "normal_lpdf:
    # Scale parameter is nan") are passed on as warnings by the native runner; the initial
    # values and the program keep the start of warm-up inside the nu map's safe range
    with caplog.at_level(logging.WARNING, logger="cvcompare.hierarchical"):
        fit(x, seed=seed)
    assert [r for r in caplog.records if "Stan's messages" in r.getMessage()] == []


def test_the_thread_cap_bounds_the_threads_and_refuses_nonsense(monkeypatch):
    # CVCOMPARE_THREADS (set by the workflow to a job's reserved threads) caps the threads
    # of a fit below the CPUs the process may use; it never raises the count above them.
    available = native.usable_cpus()
    monkeypatch.setenv("CVCOMPARE_THREADS", "1")
    assert native.usable_cpus() == 1
    monkeypatch.setenv("CVCOMPARE_THREADS", str(available + 5))
    assert native.usable_cpus() == available
    for bad in ("0", "two", "-1", ""):
        monkeypatch.setenv("CVCOMPARE_THREADS", bad)
        with pytest.raises(ValueError, match="CVCOMPARE_THREADS: expected a whole number"):
            native.usable_cpus()
