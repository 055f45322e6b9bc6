"""The README's code runs as written.

Every fenced block of README.md is either run here or listed in ``SKIPPED`` with the reason:
Python blocks are executed in a temporary directory holding the files they read, and every
line of a shell block is a ``cvcompare`` command run through :func:`cvcompare.cli.main`,
which must succeed. The files: ``accuracies.txt``, the real per-fold accuracies;
``results.csv``, the real results of nbc, hnb and aode (three of the five learners, so that
the reports fit three pairs rather than ten) as a tidy CSV of fractions; ``rmse.csv``, the
same learners' error rates (``1 - accuracy``), a loss in its own unit.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from shared_data import REAL, needs_real

from cvcompare.cli import main
from cvcompare.hierarchical import runners
from cvcompare.io import read_accuracies

README = Path(__file__).resolve().parents[1] / "README.md"

#: Blocks not run, by their first line, and why.
SKIPPED = {
    "pip install .": "installs packages",
    "bash scripts/run-workflow.sh        # install": "installs the environment and runs the "
    "whole workflow and test suite",
    "bash scripts/run-workflow.sh --cores 8": "runs the workflow at the papers' fidelity",
    "snakemake --unlock": "acts on an interrupted run of the whole workflow",
}
SHELLS = {"bash", "sh", "shell", "console"}
#: The learners of the README's examples (its snippet compares hnb with nbc).
README_LEARNERS = ("nbc", "hnb", "aode")


def _blocks() -> list[tuple[str, str]]:
    """(language, code) of every fenced block of the README."""
    return re.findall(r"^```(\w*)\n(.*?)^```", README.read_text(), flags=re.M | re.S)


def _skip_reason(code: str) -> str | None:
    first = code.splitlines()[0]
    return next((why for start, why in SKIPPED.items() if first.startswith(start)), None)


def _stan_available() -> bool:
    if runners.cmdstan_available() or runners.native_available():
        return True
    try:
        import stan  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture
def readme_dir(tmp_path, monkeypatch) -> Path:
    """A working directory with the files the README reads."""
    (tmp_path / "accuracies.txt").write_text(REAL.read_text())
    with pytest.warns(UserWarning, match="credit"):
        table = read_accuracies(REAL, as_fraction=True)
    table = table[table["learner"].isin(README_LEARNERS)]
    table.to_csv(tmp_path / "results.csv", index=False)
    table.assign(score=1.0 - table["score"]).to_csv(tmp_path / "rmse.csv", index=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_every_block_is_run_or_skipped_for_a_stated_reason():
    blocks = _blocks()
    firsts = [code.splitlines()[0] for _, code in blocks]
    for start in SKIPPED:  # no stale entry
        assert any(f.startswith(start) for f in firsts), f"no README block starts with {start!r}"
    languages = {lang for lang, code in blocks if _skip_reason(code) is None}
    assert languages <= {"python", "", *SHELLS}, languages
    assert any(lang == "python" for lang, _ in blocks)
    for lang, code in blocks:
        if lang == "":  # text (the layout of the repository): no command in it
            assert not re.search(r"^\s*(\$ |cvcompare |python |pip )", code, flags=re.M), code


@needs_real
def test_python_blocks_run_on_the_real_data(readme_dir, capsys):
    if not _stan_available():
        pytest.skip("the README's snippet fits the hierarchical model: Stan is not installed")
    codes = [code for lang, code in _blocks() if lang == "python" and _skip_reason(code) is None]
    assert codes
    for code in codes:
        exec(compile(code, str(README), "exec"), {"__name__": "__readme__"})
    out = capsys.readouterr().out
    assert out.count("\n") >= 5, out  # every print ran
    assert "'hnb':" in out and (readme_dir / "cd.png").stat().st_size > 0  # the ranking block


@needs_real
def test_shell_blocks_run_on_the_real_data(readme_dir, capsys):
    if not _stan_available():
        pytest.skip("the README's cvcompare report fits the hierarchical model: no Stan")
    commands = []
    for lang, code in _blocks():
        if lang not in SHELLS or _skip_reason(code) is not None:
            continue
        for line in code.splitlines():
            words = shlex.split(line, comments=True)
            if words:
                assert words[0] == "cvcompare", f"README shell line not run by this test: {line}"
                commands.append(words)
    assert commands
    for words in commands:
        code = main(words[1:])
        out, err = capsys.readouterr()
        assert code == 0, (words, err)
        assert out.strip(), words
    assert (readme_dir / "cd.png").stat().st_size > 0
