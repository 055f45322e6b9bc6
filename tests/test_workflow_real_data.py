"""The workflow without the real data: one clear message, every other target still made;
and an existing data file is never a job's output (so never deleted by a rerun)."""

import shutil

import pandas as pd
import pytest
import yaml
from test_workflow import ROOT, _accuracies_file, snakemake

pytestmark = pytest.mark.workflow

#: Nothing listens on the discard port of the loopback interface: the download fails at
#: once, and the test never touches the network.
UNREACHABLE = "http://127.0.0.1:9/"
EXPERIMENTS = "experiments=[H-T1, F-T1, P-T4]"


def _workdir(path):
    shutil.copytree(ROOT / "config", path / "config")
    return path


def test_a_missing_data_file_stops_only_the_real_data_targets(tmp_path):
    work = _workdir(tmp_path)
    absent = tmp_path / "nowhere" / "accuracies.txt"
    # no --keep-going on the command line: the workflow profile supplies it
    proc = snakemake(
        work,
        "--cores",
        "1",
        "--config",
        "fidelity=smoke",
        EXPERIMENTS,
        f"accuracies={absent}",
        f"accuracies_url={UNREACHABLE}",
        check=False,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0  # the real-data target failed ...
    advice = f"The real cross-validation results are not at {absent} and could not be downloaded"
    assert out.count(advice) == 1, out[-3000:]
    assert "--config accuracies=PATH" in out
    assert not absent.exists()
    # ... and every other target was made
    for eid in ("H-T1", "F-T1"):
        for ext in ("csv", "md"):
            assert (work / "figures" / f"{eid}.{ext}").is_file(), (eid, ext)
    for ext in ("pdf", "png"):
        assert (work / "figures" / f"F-T1.{ext}").is_file()
    assert not (work / "figures" / "P-T4.csv").exists()
    comparison = pd.read_csv(work / "figures" / "comparison.csv")
    real = comparison[comparison["experiment"] == "P-T4"]
    assert len(real) > 0 and real["verdict"].eq("not run").all()
    assert real["note"].str.contains(f"not at {absent}").all()
    assert comparison.loc[comparison["experiment"] == "F-T1", "reproduced"].notna().all()


def test_an_existing_data_file_is_never_fetched_again(tmp_path):
    work = _workdir(tmp_path)
    present = _accuracies_file(
        tmp_path / "accuracies.txt", ["nbc", "aode", "hnb", "j48", "j48gr"], 54
    )  # the user's, in the format of the real results
    before = present.read_bytes()
    # a changed source URL (a params change) must not schedule a download over the file
    args = ("--config", EXPERIMENTS, f"accuracies={present}", f"accuracies_url={UNREACHABLE}")
    proc = snakemake(work, "-n", *args)
    assert "fetch_accuracies" not in proc.stdout + proc.stderr
    assert present.read_bytes() == before
    # a file that is not the results is refused by the dry run, naming it, and kept
    present.write_text("a file the user put there\n")
    proc = snakemake(work, "-n", *args, check=False)
    assert proc.returncode != 0 and "fetch_accuracies" not in proc.stdout + proc.stderr
    assert f"cvcompare: accuracies: {present}:1: data line before the first" in proc.stderr
    assert present.read_text() == "a file the user put there\n"
    config = yaml.safe_load((work / "config" / "config.yaml").read_text())
    assert config["accuracies_url"].startswith("https://")  # the default is the public source
