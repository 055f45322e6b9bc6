"""Run a chunk of replications of one grid point of an experiment.

Replication ``r`` of grid point ``point`` of experiment ``experiment`` draws its data from
``replication_rng(root_seed, experiment, point, r)`` and gives test ``t`` the stream
``replication_rng(root_seed, experiment, point, r, t)``. Nothing else enters the random
streams, so the rows of a replication are the same whether it runs alone, in any chunk,
on any number of workers, or next to other tests.
"""

from __future__ import annotations

import copy
import logging
import resource
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from joblib import Parallel, delayed

from cvcompare import __version__
from cvcompare._validation import check_int
from cvcompare.experiments.registry import TESTS
from cvcompare.seeding import replication_rng

__all__ = ["TIMING_COLUMNS", "cpu_seconds", "run_chunk", "run_replication"]

#: Columns that measure time; they differ between runs of the same replication.
TIMING_COLUMNS = ["seconds", "cpu_seconds", "simulation_cpu_seconds"]

log = logging.getLogger(__name__)


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of its finished child processes.

    The native Stan runner samples in a child process with one thread per chain, so the
    cost of a fit is its CPU time, children included, not its wall time on a shared
    machine.
    """
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run_replication(
    *,
    experiment: str,
    point: str,
    params: Mapping[str, Any],
    scenario: Mapping[str, Any],
    tests: Sequence[Mapping[str, Any]],
    root_seed: int,
    replication: int,
    ground_truth: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Simulate one comparison and run every test on it.

    Parameters
    ----------
    experiment, point : str
        Experiment id and grid-point label (keys of the random streams).
    params : mapping
        Grid values of the point, copied into every row.
    scenario : mapping
        Scenario for :func:`cvcompare.simulate.scenario.simulate_comparison`, with the
        number of data sets under the key ``q``.
    tests : sequence of mapping
        ``{"id", "test", "settings"}`` for each test (see
        :meth:`cvcompare.experiments.spec.TestSpec.resolved`).
    root_seed : int
        The project's root seed.
    replication : int
        Replication index (>= 0).
    ground_truth : mapping, optional
        Setting id -> true difference, for scenarios whose truth is measured outside the
        replication (the ``friedman`` generator's ``truth`` design, computed once by the
        workflow); passed to :func:`~cvcompare.simulate.scenario.simulate_comparison`.

    Returns
    -------
    list of dict
        One flat row per test: ids, seed keys, simulation summaries and test outputs.
    """
    from cvcompare.simulate.scenario import simulate_comparison

    replication = check_int(replication, "replication", minimum=0)
    scen = copy.deepcopy(dict(scenario))
    if "q" not in scen:
        raise ValueError("scenario: expected the number of data sets under the key 'q'")
    q = check_int(scen.pop("q"), "scenario.q", minimum=1)
    cpu_start = cpu_seconds()
    sim = simulate_comparison(
        scen,
        q,
        replication_rng(root_seed, experiment, point, replication),
        ground_truth=ground_truth,
    )
    simulation_cpu = cpu_seconds() - cpu_start
    common = {
        "experiment": experiment,
        "point": point,
        **params,
        "replication": replication,
        "root_seed": int(root_seed),
        "q": q,
        "mean_true_delta": float(np.mean(sim.true_delta)),
        "n_regenerated": int(np.sum(sim.n_regenerated)),
        "simulation_cpu_seconds": simulation_cpu,
        "cvcompare_version": __version__,
    }
    rows = []
    for t in tests:
        if t["test"] not in TESTS:
            raise ValueError(f"tests: unknown test {t['test']!r}; known: {sorted(TESTS)}")
        rng = replication_rng(root_seed, experiment, point, replication, t["id"])
        start, cpu_start = time.perf_counter(), cpu_seconds()
        out = TESTS[t["test"]](sim, dict(t.get("settings", {})), rng)
        rows.append(
            {
                **common,
                "test": t["id"],
                **out,
                "seconds": time.perf_counter() - start,
                "cpu_seconds": cpu_seconds() - cpu_start,
            }
        )
    return rows


def run_chunk(
    *,
    experiment: str,
    point: str,
    params: Mapping[str, Any],
    scenario: Mapping[str, Any],
    tests: Sequence[Mapping[str, Any]],
    root_seed: int,
    start: int,
    stop: int,
    n_jobs: int = 1,
    ground_truth: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Run replications ``start, ..., stop - 1`` of one grid point.

    Parameters
    ----------
    experiment, point, params, scenario, tests, root_seed
        As in :func:`run_replication` (the output of
        :meth:`cvcompare.experiments.spec.ExperimentSpec.job`).
    start, stop : int
        The half-open range of replication indices.
    n_jobs : int
        joblib worker processes; 1 runs in this process. Results do not depend on it.
    ground_truth : mapping, optional
        As in :func:`run_replication`.

    Returns
    -------
    pandas.DataFrame
        One row per replication and test, sorted by replication then test order.
    """
    start = check_int(start, "start", minimum=0)
    stop = check_int(stop, "stop", minimum=start + 1)
    n_jobs = check_int(n_jobs, "n_jobs", minimum=1)
    job = {
        "experiment": experiment,
        "point": point,
        "params": params,
        "scenario": scenario,
        "tests": tests,
        "root_seed": root_seed,
        "ground_truth": ground_truth,
    }
    log.info(
        "%s %s: replications %d..%d on %d worker(s)", experiment, point, start, stop - 1, n_jobs
    )
    t0 = time.perf_counter()
    if n_jobs == 1:
        results = []
        for r in range(start, stop):
            results.append(run_replication(**job, replication=r))
            log.info(
                "replication %d done (%d/%d, %.1f s)",
                r,
                r - start + 1,
                stop - start,
                time.perf_counter() - t0,
            )
    else:
        parallel = Parallel(n_jobs=n_jobs, return_as="generator", verbose=0)
        results = []
        for i, res in enumerate(
            parallel(delayed(run_replication)(**job, replication=r) for r in range(start, stop))
        ):
            results.append(res)
            log.info(
                "replication %d done (%d/%d, %.1f s)",
                start + i,
                i + 1,
                stop - start,
                time.perf_counter() - t0,
            )
    return _tidy(pd.DataFrame([row for rows in results for row in rows]))


def _tidy(table: pd.DataFrame) -> pd.DataFrame:
    """Give columns of decisions a nullable boolean type (tests without the column: NA)."""
    for col in table.columns:
        values = table[col].dropna()
        if (
            table[col].dtype == object
            and len(values)
            and all(isinstance(v, (bool, np.bool_)) for v in values)
        ):
            table[col] = table[col].astype("boolean")
    return table
