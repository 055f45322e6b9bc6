"""The computing cost of an experiment: jobs, CPU time, Stan fits and fits per CPU second.

Two measurements are kept side by side. Every result row carries the CPU time (user +
system, child processes included, so that the native Stan runner's sampling threads count)
of its test (``cpu_seconds``) and of the simulation of its data (``simulation_cpu_seconds``,
repeated on each test's row of a replication); Snakemake's ``benchmark:`` files give each
job's wall time and the CPU time it sampled (``s``, ``cpu_time``), which also counts the
start-up of the job's Python process. On a machine shared with other work the wall time
is inflated by waiting; the CPU time is what the computation costs, and
``cpu_seconds / cores`` is the wall time it needs on ``cores`` otherwise idle cores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

__all__ = ["COST_COLUMNS", "cost_summary", "runtime_table"]

COST_COLUMNS = [
    "experiment",
    "jobs",
    "job_wall_seconds",
    "job_cpu_seconds",
    "replications",
    "fits",
    "refits",
    "simulation_cpu_seconds",
    "fit_cpu_seconds",
    "cpu_seconds",
    "cpu_seconds_per_fit",
    "fits_per_cpu_second",
    "wall_seconds_on_2_cores",
]


def runtime_table(rows: pd.DataFrame, grid: Sequence[str]) -> pd.DataFrame:
    """Seconds per replication of each test at each grid point: the mean and largest of the
    rows' ``seconds`` and the number of replications, by ``point``, the ``grid`` axes and
    ``test`` (``results/<fidelity>/<experiment>/runtime.csv``)."""
    return (
        rows.groupby(["point", *grid, "test"], sort=True)["seconds"]
        .agg(mean_seconds="mean", max_seconds="max", replications="count")
        .reset_index()
    )


def cost_summary(
    rows: Mapping[str, pd.DataFrame],
    benchmarks: Mapping[str, Sequence[pd.DataFrame]],
    hierarchical: Mapping[str, Sequence[str]],
) -> pd.DataFrame:
    """One row per experiment: its jobs, CPU time and Stan fits.

    Parameters
    ----------
    rows : mapping
        Experiment id -> its result rows (``replications.parquet``): columns ``point``,
        ``replication``, ``test``, ``cpu_seconds``, ``simulation_cpu_seconds`` and, for
        hierarchical tests, ``attempts``.
    benchmarks : mapping
        Experiment id -> the Snakemake benchmark tables of its jobs (columns ``s`` and
        ``cpu_time``).
    hierarchical : mapping
        Experiment id -> ids of its tests that fit the hierarchical model.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COST_COLUMNS`. ``fits`` counts every Stan fit run (refits
        included), ``cpu_seconds`` is the CPU time of the simulations and of all tests,
        ``fits_per_cpu_second`` is ``fits / fit_cpu_seconds`` and
        ``wall_seconds_on_2_cores`` is ``max(cpu_seconds, job_cpu_seconds) / 2``, an
        estimate of the wall time on two otherwise idle cores from the larger of the two
        CPU measurements (each misses something: the rows miss the jobs' start-up, the
        benchmark samples the process tree and can miss a short-lived child process).
    """
    out = []
    for eid, table in rows.items():
        for col in ("point", "replication", "test", "cpu_seconds", "simulation_cpu_seconds"):
            if col not in table.columns:
                raise ValueError(f"rows[{eid!r}]: missing column {col!r}")
        bench = list(benchmarks.get(eid, []))
        for i, b in enumerate(bench):
            if not {"s", "cpu_time"} <= set(b.columns):
                raise ValueError(f"benchmarks[{eid!r}][{i}]: expected columns 's', 'cpu_time'")
        fit_rows = table[table["test"].isin(list(hierarchical.get(eid, [])))]
        attempts = fit_rows["attempts"] if "attempts" in fit_rows else pd.Series(dtype=float)
        fits = int(attempts.sum()) if len(attempts) else len(fit_rows)
        sims = table.drop_duplicates(["point", "replication"])["simulation_cpu_seconds"].sum()
        fit_cpu = float(fit_rows["cpu_seconds"].sum())
        cpu = float(sims + table["cpu_seconds"].sum())
        job_cpu = float(sum(b["cpu_time"].sum() for b in bench))
        out.append(
            {
                "experiment": eid,
                "jobs": len(bench),
                "job_wall_seconds": float(sum(b["s"].sum() for b in bench)),
                "job_cpu_seconds": job_cpu,
                "replications": int(table[["point", "replication"]].drop_duplicates().shape[0]),
                "fits": fits,
                "refits": fits - len(fit_rows),
                "simulation_cpu_seconds": float(sims),
                "fit_cpu_seconds": fit_cpu,
                "cpu_seconds": cpu,
                "cpu_seconds_per_fit": fit_cpu / fits if fits else float("nan"),
                "fits_per_cpu_second": fits / fit_cpu if fit_cpu > 0 else float("nan"),
                "wall_seconds_on_2_cores": max(cpu, job_cpu) / 2.0,
            }
        )
    return pd.DataFrame(out, columns=COST_COLUMNS)
