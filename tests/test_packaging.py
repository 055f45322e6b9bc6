"""Packaging: the conda environment and pyproject.toml agree; the extras fit the user.

``pip install .`` gives the library and the ``cvcompare`` command with the core
dependencies only; the extras ``stan`` (the hierarchical model), ``workflow`` (the Snakemake
suite), ``slurm`` and ``all`` add the rest, and ``dev`` (what the tests need) includes
``all``. Without the ``stan`` extra, asking for the hierarchical model says what to install.
"""

import ast
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from cvcompare.hierarchical import fit_hierarchical, runners

ROOT = Path(__file__).resolve().parents[1]

# conda-forge names that differ from the PyPI names
CONDA_NAME = {"pyyaml": "pyyaml"}
# packages only in environment.yml, and why
CONDA_ONLY = {"python", "pip", "cmdstan"}  # interpreter, installer, CmdStan binaries


def _split(req: str) -> tuple[str, str]:
    m = re.match(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*)$", req)
    assert m, req
    return m.group(1).lower().replace("_", "-"), m.group(2).replace(" ", "")


#: The core dependencies: what the library and the command import (numpy, scipy, pandas,
#: matplotlib; tqdm for the command's progress bar).
CORE = {"numpy", "scipy", "pandas", "matplotlib", "tqdm"}
#: Import names of packages that only the extras bring, by extra.
EXTRA_MODULES = {
    "stan": {"stan", "httpstan", "cmdstanpy"},
    "workflow": {
        "snakemake",
        "jsonschema",
        "yaml",
        "joblib",
        "pyarrow",
        "sklearn",
        "threadpoolctl",
    },
}
#: Parts of the package that need the workflow extra (not imported by the library).
#: Modules only the workflow imports (the Friedman trees are compiled with numba, imported
#: by pruned_tree only when a tree is grown).
WORKFLOW_ONLY = ("experiments/", "simulate/presorted_tree.py")


def _meta() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _extras() -> dict[str, list[str]]:
    return _meta()["optional-dependencies"]


def _is_self(req: str) -> bool:
    return _split(req)[0] == "cvcompare"


def _self_extras(req: str) -> set[str]:
    """The extras named by a requirement on the package itself, ``cvcompare[a,b]``."""
    return set(re.search(r"\[(.*)\]", req).group(1).replace(" ", "").split(","))


def _closure(extras: set[str]) -> set[str]:
    """The extras installed by asking for ``extras`` (following ``cvcompare[...]``)."""
    todo, seen = list(extras), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += [e for r in _extras()[name] if _is_self(r) for e in _self_extras(r)]
    return seen


def _pyproject() -> dict[str, str]:
    """Every requirement of pyproject.toml: dependencies and all extras."""
    reqs = list(_meta()["dependencies"])
    for extra in _extras().values():
        reqs += [r for r in extra if not _is_self(r)]
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
    assert _conda()["python"] == _meta()["requires-python"]


def test_core_dependencies_are_the_library_s_and_the_extras_hold_the_rest():
    assert {_split(r)[0] for r in _meta()["dependencies"]} == CORE
    extras = _extras()
    stan = {_split(r)[0] for r in extras["stan"]}
    assert stan == {"pystan", "cmdstanpy"}
    workflow = {_split(r)[0] for r in extras["workflow"] if not _is_self(r)}
    assert {
        "snakemake",
        "jsonschema",
        "pyyaml",
        "joblib",
        "pyarrow",
        "scikit-learn",
        "threadpoolctl",
    } <= workflow
    assert "stan" in _closure({"workflow"})  # the H experiments fit the hierarchical model
    assert "workflow" in _closure({"slurm"})  # the workflow on a cluster
    assert _closure({"all"}) == {"all", "stan", "workflow", "slurm"}
    assert _closure({"dev"}) == set(extras)  # the tests exercise everything


def test_setup_script_installs_every_extra():
    """The README's two commands go through scripts/setup-env.sh: it installs everything."""
    script = (ROOT / "scripts" / "setup-env.sh").read_text()
    installs = re.findall(r"pip install .*-e '\.\[([a-z,]+)\]'", script)
    assert installs, "setup-env.sh installs no extras"
    assert _closure(set(installs[-1].split(","))) == set(_extras())


def _module_level_imports(path: Path) -> set[str]:
    """Top-level package names imported at module level (not inside functions)."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_library_modules_import_only_core_dependencies_at_module_level():
    """Optional packages are imported inside the functions that need them, never on import."""
    allowed = CORE | set(sys.stdlib_module_names) | {"cvcompare", "__future__", "mpl_toolkits"}
    src = ROOT / "src" / "cvcompare"
    for path in sorted(src.rglob("*.py")):
        if path.relative_to(src).as_posix().startswith(WORKFLOW_ONLY):
            continue
        extra = _module_level_imports(path) - allowed
        assert not extra, f"{path.relative_to(ROOT)} imports {sorted(extra)} at module level"


_BLOCKER = """
import importlib.abc, sys
BLOCKED = {blocked!r}
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Blocker())
"""


def _run_without_extras(code: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter where no package of any extra can be imported."""
    blocked = set().union(*EXTRA_MODULES.values())
    script = tmp_path / "without_extras.py"
    script.write_text(_BLOCKER.format(blocked=sorted(blocked)) + code)
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )


def test_library_and_command_work_without_any_extra(tmp_path):
    """As after ``pip install .``: every test but the hierarchical model runs."""
    gen = np.random.default_rng(17)
    rows = [
        (learner, f"d{d}", f, gen.uniform(0.6, 0.9) + shift)
        for d in range(6)
        for f in range(10)
        for learner, shift in (("a", 0.02), ("b", 0.0), ("c", -0.01))
    ]
    csv = tmp_path / "scores.csv"
    pd.DataFrame(rows, columns=["learner", "dataset", "fold", "score"]).to_csv(csv, index=False)
    done = _run_without_extras(
        f"""
import cvcompare.cli, cvcompare.hierarchical, cvcompare.io, cvcompare.plots.cd_diagram
import cvcompare.simulate.scenario, cvcompare.stats
assert cvcompare.cli.main(["compare", {str(csv)!r}, "--a", "a", "--b", "b", "--test", "all"]) == 0
assert cvcompare.cli.main(["rank", {str(csv)!r}, "--cd-diagram", "cd.png"]) == 0
assert cvcompare.cli.main(["compare", {str(csv)!r}, "--a", "a", "--b", "b",
                           "--test", "hierarchical"]) == 2
try:
    cvcompare.hierarchical.fit_hierarchical([[0.01, 0.02], [0.0, 0.01]], rho=0.1, seed=1)
except ImportError as exc:
    print("MESSAGE:", exc)
""",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert f"cvcompare: error: {runners.STAN_MISSING}" in done.stderr
    assert f"MESSAGE: {runners.STAN_MISSING}" in done.stdout
    assert (tmp_path / "cd.png").stat().st_size > 0


def test_importing_the_library_loads_no_optional_package():
    code = (
        "import sys, cvcompare, cvcompare.stats, cvcompare.io, cvcompare.cli, "
        "cvcompare.hierarchical, cvcompare.plots.cd_diagram; "
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    # pyarrow is left out: pandas itself imports it where it is installed
    optional = set().union(*EXTRA_MODULES.values()) - {"pyarrow"}
    assert not loaded & optional, sorted(loaded & optional)


@pytest.mark.parametrize("runner", ["auto", "pystan", "native", "cmdstanpy"])
def test_hierarchical_model_without_stan_says_what_to_install(monkeypatch, runner):
    """``import stan``, ``httpstan`` and ``cmdstanpy`` fail (``sys.modules[name] = None``)."""
    for name in EXTRA_MODULES["stan"]:
        monkeypatch.setitem(sys.modules, name, None)
    assert runners.STAN_MISSING == (
        "the hierarchical model needs Stan, which is not installed: pip install '.[stan]' in "
        "cvcompare's repository (PyStan and cmdstanpy)"
    )
    with pytest.raises(ImportError) as info:
        fit_hierarchical([[0.01, 0.02, 0.0], [0.0, 0.01, 0.02]], rho=0.1, runner=runner, seed=1)
    assert str(info.value) == runners.STAN_MISSING
