"""The conda environment and pyproject.toml name the same packages with the same bounds."""

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]

# conda-forge names that differ from the PyPI names
CONDA_NAME = {"pyyaml": "pyyaml"}
# packages only in environment.yml, and why
CONDA_ONLY = {"python", "pip", "cmdstan"}  # interpreter, installer, CmdStan binaries


def _split(req: str) -> tuple[str, str]:
    m = re.match(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*)$", req)
    assert m, req
    return m.group(1).lower().replace("_", "-"), m.group(2).replace(" ", "")


def _pyproject() -> dict[str, str]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(meta["dependencies"]) + list(meta["optional-dependencies"]["dev"])
    return dict(_split(r) for r in reqs)


def _conda() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    return dict(_split(d) for d in env["dependencies"] if isinstance(d, str))


def test_every_pyproject_requirement_is_in_environment_yml_with_the_same_bound():
    conda = _conda()
    for name, bound in _pyproject().items():
        cname = CONDA_NAME.get(name, name)
        assert cname in conda, f"{name} is in pyproject.toml but not in environment.yml"
        assert conda[cname] == bound, (
            f"{name}: pyproject {bound!r} vs environment.yml {conda[cname]!r}"
        )


def test_environment_yml_has_nothing_pyproject_lacks():
    extra = set(_conda()) - {CONDA_NAME.get(n, n) for n in _pyproject()} - CONDA_ONLY
    assert not extra, f"in environment.yml only: {sorted(extra)}"


def test_python_bound_matches():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert _conda()["python"] == meta["requires-python"]
