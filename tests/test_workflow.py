"""The Snakemake workflow end to end at smoke fidelity, its reproducibility and restarts."""

import copy
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from shared_data import REAL, SMALL_SCENARIO

from cvcompare.experiments import load_experiment, load_yaml
from cvcompare.experiments.run import TIMING_COLUMNS

pytestmark = pytest.mark.workflow

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SMALL = {
    "id": "T-small",
    "title": "a small experiment for workflow tests",
    "source": {"paper": "P", "item": "none"},
    "scenario": copy.deepcopy(SMALL_SCENARIO),
    "grid": [{"name": "delta", "path": "delta.value", "values": [0.0, 0.1]}],
    "replications": {"smoke": 6, "quick": 10, "paper": 100},
    "tests": [
        {"id": "poisson", "test": "poisson_binomial"},
        {"id": "signed_rank", "test": "wilcoxon", "settings": {"alternative": "greater"}},
    ],
    "metrics": [{"id": "power", "kind": "rate", "column": "reject"}],
    # no caption files: the captions are the title; the figure is laid out by its settings
    "table": {"rows": ["delta"], "columns": ["test"], "metrics": ["power"]},
    "figure": {
        "function": "figure_curves",
        "settings": {
            "metric": "power",
            "x": "delta",
            "xlabel": "difference of accuracy",
            "ylabel": "rejection rate",
        },
    },
}


def snakemake_command(workdir, *args):
    """The command running the project's workflow in ``workdir`` with ``args``."""
    return [
        str(BIN / "snakemake"),
        "--snakefile",
        str(ROOT / "workflow" / "Snakefile"),
        "--directory",
        str(workdir),
        *args,
    ]


def snakemake(workdir, *args, check=True, timeout=900):
    cmd = snakemake_command(workdir, *args)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}"
        )
    return proc


def workdir_with_config(path):
    shutil.copytree(ROOT / "config", path / "config")
    (path / "config" / "experiments" / "T-small.yaml").write_text(yaml.safe_dump(SMALL))
    return path


def runnable_here(work):
    """The ``--config`` entries that run ``work``'s campaign on this machine.

    With the real accuracies they are passed on; without them, the experiments that need
    them are dropped from the workdir's config (test_workflow_real_data.py: the rest).
    """
    if REAL.is_file():
        return [f"accuracies={REAL}"]
    path = work / "config" / "config.yaml"
    config = yaml.safe_load(path.read_text())
    schema = load_yaml(ROOT / "workflow" / "schemas" / "experiment.schema.yaml")
    config["experiments"] = [
        eid
        for eid in config["experiments"]
        if not load_experiment(
            work / "config" / "experiments" / f"{eid}.yaml", schema=schema
        ).needs_real_data
    ]
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return []


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    work = workdir_with_config(tmp_path_factory.mktemp("smoke"))
    extra = runnable_here(work)
    snakemake(work, "--cores", "2", "--keep-going", "--config", "fidelity=smoke", *extra)
    return work


def test_smoke_run_produces_well_formed_outputs(smoke):
    # smoke runs part of each grid (by_fidelity): 3 x 2 x 2 points of P-F2a, 2 of H-F2,
    # 3 x 2 of W-F2, 1 of H-F6 ...
    expected = (
        ("P-F2a", 12, 2),
        ("H-F2", 2, 2),
        ("H-T2", 1, 1),
        ("H-F3", 2, 2),
        ("H-F5", 2, 2),
        ("W-F2", 6, 3),
        ("H-F6", 1, 4),
    )
    for eid, n_points, n_tests in expected:
        spec = yaml.safe_load((smoke / "config" / "experiments" / f"{eid}.yaml").read_text())
        reps = spec["replications"]["smoke"]
        rows = pd.read_parquet(smoke / "results" / "smoke" / eid / "replications.parquet")
        assert len(rows) == n_points * reps * n_tests
        assert rows.groupby("point")["replication"].nunique().eq(reps).all()
        agg = pd.read_csv(smoke / "results" / "smoke" / eid / "aggregate.csv")
        assert list(agg.columns[:2]) == ["experiment", "point"]
        assert {"test", "metric", "value", "se", "n"} <= set(agg.columns)
        # a metric restricted to some runs (`given`) counts only those
        given = [m["id"] for m in spec["metrics"] if "given" in m]
        assert agg[~agg.metric.isin(given)]["n"].eq(reps).all()
        assert agg[agg.metric.isin(given)]["n"].le(reps).all()
        n_rows = sum(
            n_points * len(m.get("tests", [t["id"] for t in spec["tests"]]))
            for m in spec["metrics"]
        )
        assert len(agg) == n_rows
        for col in ("p_left", "p_rope", "p_right", "prob_majority", "pvalue"):
            if col in rows:
                vals = rows[col].dropna()
                assert vals.between(0, 1).all(), col
        if "p_rope" in rows:
            hier = rows[rows.test == "hierarchical"]
            total = hier[["p_left", "p_rope", "p_right"]].sum(axis=1)
            assert (total - 1).abs().max() < 1e-9
        for ext in ("pdf", "png") if "figure" in spec else ():
            assert (smoke / "figures" / f"{eid}.{ext}").stat().st_size > 10_000
    # sampler health per grid point of every hierarchical simulation, and the cost summary
    health = pd.read_csv(smoke / "figures" / "sampler_health.csv")
    assert set(health.experiment) == {"H-F2", "H-T2", "H-F3", "H-F5", "H-F6"}
    assert len(health) == 2 + 1 + 2 + 2 + 1 and health["diagnostics_ok"].between(0, 1).all()
    cost = pd.read_csv(smoke / "results" / "smoke" / "benchmarks" / "summary.csv")
    config = yaml.safe_load((smoke / "config" / "config.yaml").read_text())
    simulations = {
        eid
        for eid in config["experiments"]
        if yaml.safe_load((smoke / "config" / "experiments" / f"{eid}.yaml").read_text()).get(
            "kind", "simulation"
        )
        == "simulation"
    }
    assert set(cost.experiment) == simulations
    assert cost.set_index("experiment").loc["H-F3", "fits"] >= 2 * 3
    assert (cost["cpu_seconds"] > 0).all() and (cost["jobs"] > 0).all()
    comparison = pd.read_csv(smoke / "figures" / "comparison.csv")
    config = yaml.safe_load((smoke / "config" / "config.yaml").read_text())
    with_claims = {
        eid
        for eid in config["experiments"]
        if yaml.safe_load((smoke / "config" / "experiments" / f"{eid}.yaml").read_text()).get(
            "paper_numbers"
        )
    }
    assert set(comparison.experiment) == with_claims
    for eid in config["experiments"]:
        spec = yaml.safe_load((smoke / "config" / "experiments" / f"{eid}.yaml").read_text())
        outputs = (["pdf", "png"] if "figure" in spec else []) + (
            ["csv", "md"] if "table" in spec else []
        )
        for ext in outputs:
            assert (smoke / "figures" / f"{eid}.{ext}").stat().st_size > 200, (eid, ext)
    # claims about points smoke does not run are listed as such; the others have numbers
    not_run = comparison["note"].fillna("").str.startswith("not run")
    probability = comparison["metric"].isin(["rejection", "power", "mean_p_rope", "recognition"])
    assert comparison.loc[~not_run & probability, "reproduced"].between(0, 1).all()
    assert comparison.loc[~not_run, "reproduced"].notna().all()
    assert comparison.loc[not_run, "reproduced"].isna().all()
    assert (~not_run).sum() >= 3
    comparison_md = (smoke / "figures" / "comparison.md").read_text()
    assert "| Experiment | Claim |" in comparison_md
    assert "no tree-depth hit and E-BFMI >= 0.3 in every chain) is given" in comparison_md
    # a table says what its test ran with at this fidelity (H-T2: fewer draws at smoke)
    h_t2 = (smoke / "figures" / "H-T2.md").read_text()
    assert "| q | mse_mle | mse_shrinkage |" in h_t2
    assert "- `hierarchical`: Bayesian hierarchical model (" in h_t2
    assert "chains = 2, warmup = 200, draws = 200" in h_t2
    log = smoke / "logs" / "smoke" / "H-F2" / "q~10" / "reps-0-3.log"
    assert "replication 2 done" in log.read_text()


@pytest.mark.slow
def test_the_campaign_is_the_same_bytes_on_one_cpu_and_other_chunks(smoke, tmp_path):
    # The whole smoke campaign again, on one visible CPU (taskset), one core, and other
    # chunk sizes: every table and figure (CSV, Markdown, PNG, PDF) and every aggregate
    # must be byte-identical to the first run.
    if shutil.which("taskset") is None:
        pytest.skip("taskset (util-linux) is absent")
    work = workdir_with_config(tmp_path)
    path = work / "config" / "config.yaml"
    config = yaml.safe_load(path.read_text())
    config["chunk_size"] = {"default": 3}
    path.write_text(yaml.safe_dump(config))
    extra = [f"accuracies={REAL}"] if REAL.is_file() else []
    cmd = [
        "taskset",
        "-c",
        "0",
        *snakemake_command(work, "--cores", "1", "--config", "fidelity=smoke", *extra),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    first = sorted(p.relative_to(smoke) for p in (smoke / "figures").iterdir())
    assert first == sorted(p.relative_to(work) for p in (work / "figures").iterdir())
    first += sorted(p.relative_to(smoke) for p in smoke.glob("results/smoke/*/aggregate.csv"))
    for rel in first:
        assert (work / rel).read_bytes() == (smoke / rel).read_bytes(), rel


def _small(work, cores, chunk, workers=1, *extra):
    # nested entries cannot be given with --config (Snakemake reads them as text): edit
    # the work directory's copy of the configuration instead
    path = work / "config" / "config.yaml"
    config = yaml.safe_load(path.read_text())
    config.update(fidelity="smoke", experiments=["T-small"], workers=workers)
    config["chunk_size"] = {"default": chunk}
    path.write_text(yaml.safe_dump(config))
    snakemake(work, "--cores", str(cores), *extra, "--", "results/smoke/T-small/aggregate.csv")
    base = work / "results" / "smoke" / "T-small"
    rows = pd.read_parquet(base / "replications.parquet").drop(columns=TIMING_COLUMNS)
    return rows, (base / "aggregate.csv").read_text()


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    work = workdir_with_config(tmp_path_factory.mktemp("small"))
    rows, agg = _small(work, cores=1, chunk=3)
    return work, rows, agg


def test_results_do_not_depend_on_cores_or_chunking(small_run, tmp_path):
    work, rows1, agg1 = small_run
    rows2, agg2 = _small(workdir_with_config(tmp_path), cores=2, chunk=6)
    assert agg1 == agg2
    pd.testing.assert_frame_equal(rows1, rows2)
    assert len(list((work / "results" / "smoke" / "T-small").glob("*/reps-*.parquet"))) == 4
    assert len(list((tmp_path / "results" / "smoke" / "T-small").glob("*/reps-*.parquet"))) == 2


def test_rerun_after_an_interruption_computes_only_what_is_missing(small_run):
    # As after a run killed part-way: one chunk and the aggregate tables are missing, and a
    # killed writer left a hidden temporary file. Rerunning must compute that chunk and
    # the aggregate only, and give the same tables.
    work, _, before = small_run
    base = work / "results" / "smoke" / "T-small"
    chunks = sorted(base.glob("*/reps-*.parquet"))
    stamps = {p: p.stat().st_mtime_ns for p in chunks}
    victim = chunks[1]
    victim.unlink()
    for name in ("replications.parquet", "aggregate.csv", "runtime.csv"):
        (base / name).unlink()
    (victim.parent / f".{victim.name}.abc.tmp").write_bytes(b"PAR1 partial")
    _, after = _small(work, 1, 3, 1, "--rerun-triggers", "mtime")
    assert after == before
    assert victim.exists()
    for p in chunks:
        if p != victim:
            assert p.stat().st_mtime_ns == stamps[p], f"{p} was recomputed"
    dry = snakemake(work, "-n", "--", "results/smoke/T-small/aggregate.csv")
    assert "Nothing to be done" in dry.stdout + dry.stderr


def test_another_version_of_the_package_recomputes_the_results(small_run, tmp_path):
    # The same run seen by another version of cvcompare (a sitecustomize changes the
    # version every Python process of the run imports): every job is out of date, by its
    # params; with the installed version, none is.
    work = small_run[0]
    target = "results/smoke/T-small/aggregate.csv"
    assert "Nothing to be done" in "".join(snakemake(work, "-n", "--", target).stdout)
    (tmp_path / "sitecustomize.py").write_text(
        "import cvcompare\ncvcompare.__version__ = '0.0.0+another'\n"
    )
    env = os.environ | {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    }
    cmd = snakemake_command(work, "-n", "--", target)
    dry = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300, check=True)
    out = dry.stdout + dry.stderr
    assert "Params have changed since last execution" in out, out[-3000:]
    chunks = len(list((work / "results" / "smoke" / "T-small").glob("*/reps-*.parquet")))
    assert re.search(rf"run_chunk\s+{chunks}\b", out), out[-3000:]


def test_a_run_killed_outright_resumes_after_unlock_with_the_same_results(small_run, tmp_path):
    # kill -9 of the whole Snakemake process group while jobs run, as an out-of-memory
    # kill or a lost login would: the rerun is refused because the directory is still
    # locked, `snakemake --unlock` (what the READMEs tell users to type) releases it, and
    # the rerun completes with the same tables and no leftover temporary files.
    _, _, before = small_run
    work = workdir_with_config(tmp_path)
    path = work / "config" / "config.yaml"
    config = yaml.safe_load(path.read_text())
    config.update(fidelity="smoke", experiments=["T-small"], chunk_size={"default": 2})
    path.write_text(yaml.safe_dump(config))
    cmd = snakemake_command(work, "--cores", "1", "--", "results/smoke/T-small/aggregate.csv")
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    base = work / "results" / "smoke" / "T-small"
    deadline = time.monotonic() + 300
    while not list(base.glob("*/reps-*.parquet")):
        assert proc.poll() is None, "the run ended before it could be killed"
        assert time.monotonic() < deadline, "no chunk was written within 300 s"
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (base / "aggregate.csv").exists()
    refused = snakemake(
        work, "--cores", "1", "--", "results/smoke/T-small/aggregate.csv", check=False
    )
    assert refused.returncode != 0
    assert "--unlock" in refused.stdout + refused.stderr
    snakemake(work, "--unlock")
    snakemake(work, "--cores", "1", "--", "results/smoke/T-small/aggregate.csv")
    assert (base / "aggregate.csv").read_text() == before
    assert not list(base.rglob("*.tmp"))


#: Friedman settings of the ground-truth test: LDA vs CART on 30 instances.
FRIEDMAN_POOL = ["F1_sd1_n30_r0", "F2_sd125_n30_r0", "F3_sd0.1_n30_r0"]
FRIEDMAN = {
    "id": "T-friedman",
    "title": "a small Friedman experiment for workflow tests",
    "source": {"paper": "H", "item": "none"},
    "scenario": {
        "generator": {
            "name": "friedman",
            "per_function": 1,
            "settings": FRIEDMAN_POOL,
            "truth": {"repetitions": 2, "n_test": 200},
        },
        "cv": {"runs": 1, "folds": 3},
        "q": 3,
    },
    "grid": [{"name": "q", "path": "q", "values": [3]}],
    "replications": {"smoke": 2, "quick": 3, "paper": 4},
    "tests": [
        {"id": "signed_rank", "test": "wilcoxon"},
        {"id": "truth", "test": "true_delta_summary"},
    ],
    "metrics": [{"id": "truth_mean", "kind": "mean", "column": "true_mean", "tests": ["truth"]}],
    "table": {"rows": ["test"], "columns": ["metric"], "caption": "H-F6-table.rst"},
}


def test_the_ground_truth_is_computed_once_and_reused_by_every_fidelity(tmp_path):
    work = workdir_with_config(tmp_path)
    (work / "config" / "experiments" / "T-friedman.yaml").write_text(yaml.safe_dump(FRIEDMAN))
    path = work / "config" / "config.yaml"
    config = yaml.safe_load(path.read_text())
    config.update(experiments=["T-friedman"])
    path.write_text(yaml.safe_dump(config))
    runs = {}
    for fidelity in ("smoke", "quick"):
        target = f"results/{fidelity}/T-friedman/aggregate.csv"
        proc = snakemake(work, "--cores", "2", "--config", f"fidelity={fidelity}", "--", target)
        runs[fidelity] = proc.stdout + proc.stderr
        if fidelity == "smoke":
            truth_dir = (
                work
                / "results"
                / "ground_truth"
                / "friedman"
                / "lda-cart"
                / "reps~2"
                / "test~200"
                / f"seed~{config['seed']}"
            )
            files = sorted(truth_dir.glob("*.json"))
            stamps = {p: p.stat().st_mtime_ns for p in files}
    # one job per setting of the pool, in the first run only; the files are untouched after
    assert [p.stem for p in files] == sorted(FRIEDMAN_POOL)
    assert "friedman_ground_truth" in runs["smoke"]
    assert "friedman_ground_truth" not in runs["quick"]
    assert {p: p.stat().st_mtime_ns for p in files} == stamps
    # both fidelities read the same truth: each row's mean true difference is the mean of
    # the cached values (one setting per function, so the same three settings every time)
    mean_truth = np.mean([json.loads(p.read_text())["delta"] for p in files])
    for fidelity, reps in (("smoke", 2), ("quick", 3)):
        rows = pd.read_parquet(work / "results" / fidelity / "T-friedman" / "replications.parquet")
        assert rows["replication"].nunique() == reps
        assert np.allclose(rows["mean_true_delta"], mean_truth, rtol=0, atol=1e-12)


def test_a_bad_configuration_stops_with_a_helpful_message(tmp_path):
    work = workdir_with_config(tmp_path)
    proc = snakemake(work, "-n", "--config", "fidelity=fast", check=False)
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "fidelity: 'fast' is not one of ['smoke', 'quick', 'paper']" in out
    assert 'File "' not in out  # the message alone, no traceback
    # a mistake in an experiment file: its message, naming the file, and nothing else
    bad = copy.deepcopy(SMALL)
    bad["metrics"][0]["column"] = "rejected"
    (work / "config" / "experiments" / "T-small.yaml").write_text(yaml.safe_dump(bad))
    config = work / "config" / "config.yaml"
    settings = yaml.safe_load(config.read_text())
    config.write_text(yaml.safe_dump({**settings, "experiments": ["T-small"]}, sort_keys=False))
    proc = snakemake(work, "-n", check=False)
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert "T-small.yaml: metric 'power': test 'poisson' writes no column 'rejected'" in out
    assert 'File "' not in out and "Traceback" not in out


def test_a_dry_run_names_experiment_files_no_configuration_lists(tmp_path):
    work = workdir_with_config(tmp_path)  # adds T-small.yaml, listed nowhere
    proc = snakemake(work, "-n", "--config", "experiments=[P-F2a]", check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (line,) = [x for x in (proc.stdout + proc.stderr).splitlines() if "not run, since" in x]
    # the default list's other experiments are a chosen subset's, not forgotten files
    assert line.startswith(
        "cvcompare: not run, since no configuration lists them under `experiments`: T-small ("
    )


def test_a_scenario_of_one_s_own_is_one_file_with_its_figure_table_and_captions(tmp_path):
    # T-small has no caption files and draws its figure with figure_curves: a new scenario
    # needs no code and no file beside its own
    work = workdir_with_config(tmp_path)
    outputs = ["figures/T-small.png", "figures/T-small.pdf", "figures/T-small.md"]
    run = ("--config", "fidelity=smoke", "experiments=[T-small]", "--", *outputs)
    snakemake(work, "--cores", "2", *run)
    assert all((work / name).stat().st_size > 0 for name in outputs)
    snakemake(work, "--report", "report.html", *run)
    page = (work / "report.html").read_text()
    title = re.escape(SMALL["title"])
    assert re.search(title + r"\.</p>\\n<p>Fidelity: smoke\. Error bars", page)  # figure
    assert re.search(title + r"\.</p>\\n<p>Fidelity: smoke\. Estimated numbers", page)


def _check_in_root(tool, *args):
    """Run ``tool`` of the environment in the project root; return its output if it passes."""
    proc = subprocess.run(
        [str(BIN / tool), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout + proc.stderr


def test_lint_and_snakefmt_are_clean():
    assert "Congratulations" in _check_in_root("snakemake", "--lint")
    _check_in_root("snakefmt", "--check", "workflow")


def test_plain_snakemake_reads_the_default_profile(tmp_path):
    # `snakemake` with no option at all, in the project root, must find the workflow and
    # its default profile (which sets the cores): Snakemake looks for a workflow profile in
    # profiles/default beside the Snakefile.
    profile = yaml.safe_load(
        (ROOT / "workflow" / "profiles" / "default" / "config.yaml").read_text()
    )
    assert profile["cores"] == "all"
    out = _check_in_root("snakemake", "-n")
    assert "Using workflow specific profile workflow/profiles/default" in out
    assert os.access(ROOT / "scripts" / "run-workflow.sh", os.R_OK)


def _slurm_unavailable():
    """Why the SLURM test cannot run here, or None."""
    if shutil.which("sbatch") is None:
        return "sbatch is absent (bash scripts/slurm-local.sh start installs a local SLURM)"
    try:
        import snakemake_executor_plugin_slurm  # noqa: F401
    except ImportError:
        return "snakemake-executor-plugin-slurm is not installed (pip install '.[slurm]')"
    probe = subprocess.run(
        ["bash", str(ROOT / "scripts" / "slurm-local.sh"), "status"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if probe.returncode != 0:
        return f"SLURM does not accept jobs (bash scripts/slurm-local.sh start): {probe.stderr}"
    return None


def filled_slurm_profile(directory):
    """The shipped SLURM profile with its account and partition filled in for the local SLURM
    of ``scripts/slurm-local.sh`` (no accounts, partition ``debug``), written to
    ``directory``."""
    profile = yaml.safe_load((ROOT / "workflow" / "profiles" / "slurm" / "config.yaml").read_text())
    del profile["default-resources"]["slurm_account"]
    profile["slurm-no-account"] = True
    profile["default-resources"]["slurm_partition"] = "debug"
    profile["slurm-init-seconds-before-status-checks"] = 1
    directory.mkdir()
    (directory / "config.yaml").write_text(yaml.safe_dump(profile))
    return directory


def test_the_slurm_profile_groups_the_chunks_of_one_experiment(tmp_path):
    # A dry run of the paper campaign through the SLURM profile (no cluster needed): every
    # simulation chunk runs in a cluster job of chunks of its own experiment only, as few
    # jobs per experiment as the profile's group size allows, so that a job's length is
    # predictable; the costly Friedman study (H-F6, about 2.5 minutes per chunk) spreads
    # over several jobs instead of one of two hours.
    profile = filled_slurm_profile(tmp_path / "profile")
    size = yaml.safe_load((profile / "config.yaml").read_text())["group-components"]
    size = size["simulations-{experiment}"]
    work = workdir_with_config(tmp_path / "work")
    extra = runnable_here(work)
    run = snakemake(
        work, "-n", "--workflow-profile", str(profile), "--config", "fidelity=paper", *extra
    )
    groups, ungrouped_chunks = [], 0
    for line in run.stdout.splitlines():
        if " Group job " in line:
            groups.append((line.split(" Group job ")[1].split()[0], []))
        elif "wildcards: fidelity=paper, experiment=" in line and groups:
            groups[-1][1].append(line.split("experiment=")[1].split(",")[0])
        elif line.startswith(("rule ", "localrule ")):  # a job outside any group
            ungrouped_chunks += line.startswith("rule run_chunk:")
            groups.append((None, []))
    grouped = [(name, members) for name, members in groups if name is not None]
    assert ungrouped_chunks == 0
    chunks, jobs = {}, {}
    for name, members in grouped:
        assert {f"simulations-{e}" for e in members} == {name}, (name, set(members))
        chunks[members[0]] = chunks.get(members[0], 0) + len(members)
        jobs[members[0]] = jobs.get(members[0], 0) + 1
    assert len(chunks) >= 8, run.stdout[-2000:]  # the simulation experiments
    assert jobs == {e: -(-n // size) for e, n in chunks.items()}
    assert jobs["H-F6"] >= 2


@pytest.mark.slurm
def test_the_slurm_profile_gives_the_local_results_byte_for_byte(smoke, tmp_path):
    # The shipped profile with only its account and partition filled in, on a real SLURM:
    # every table and figure of the smoke campaign is the same bytes as the local run.
    reason = _slurm_unavailable()
    if reason:
        pytest.skip(reason)
    profile = filled_slurm_profile(tmp_path / "profile")
    work = workdir_with_config(tmp_path / "work")
    extra = runnable_here(work)
    run = snakemake(
        work,
        "--workflow-profile",
        str(profile),
        "--config",
        "fidelity=smoke",
        *extra,
    )
    produced = sorted(p.relative_to(smoke) for p in (smoke / "figures").iterdir())
    assert produced == sorted(p.relative_to(work) for p in (work / "figures").iterdir())
    for rel in produced:
        assert (work / rel).read_bytes() == (smoke / rel).read_bytes(), rel
    log = run.stdout + run.stderr
    assert "has been submitted with SLURM jobid" in log, "no job went through SLURM"
    assert "localrule comparison" in log  # small rules stay on the submitting node
    if REAL.is_file():  # the analyses of the real data, which fit Stan, do not
        assert "\nrule analyse:" in log and "localrule analyse" not in log


def _accuracies_file(path, learners, n_datasets):
    """A file in the block format of the real results: ``learners`` on ``n_datasets``
    data sets, 10 folds each."""
    gen = np.random.default_rng(0)
    lines = []
    for learner in learners:
        lines.append(learner)
        for d in range(n_datasets):
            values = " ".join(f"{v:.3f}" for v in gen.uniform(70, 90, 10))
            lines.append(f"  data{d:02d} {values}")
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    ("learners", "n_datasets", "message"),
    [
        # P-T4 compares on data sets 1-27, 28-54 and all 54
        (
            ["nbc", "aode", "hnb", "j48", "j48gr"],
            30,
            "at grid point pair~nbc-aode/subset~28-54 (smoke), on the real results: stop: the "
            "real results have 30 data sets, got stop=54",
        ),
        (
            ["nbc", "aode", "hnb", "j48"],
            54,
            "on the real results: second: unknown learner 'j48gr'; the table has ['nbc', "
            "'aode', 'hnb', 'j48']",
        ),
    ],
)
def test_a_dry_run_checks_the_real_data_analyses_against_the_results(
    tmp_path, learners, n_datasets, message
):
    """An analysis of the real results that they cannot serve (a learner they lack, more
    data sets than they hold) is refused before any job runs, naming the file, the grid
    point and the setting, not when its job runs."""
    work = workdir_with_config(tmp_path)
    data = _accuracies_file(tmp_path / "accuracies.txt", learners, n_datasets)
    config = ("--config", "experiments=[P-T4]", "fidelity=smoke", f"accuracies={data}")
    proc = snakemake(work, "-n", *config, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    (line,) = [x for x in out.splitlines() if x.startswith("cvcompare: config/experiments/P-T4")]
    assert line.startswith("cvcompare: config/experiments/P-T4.yaml: analysis 'pair_decisions'")
    assert line.endswith(message) and "Traceback" not in out
