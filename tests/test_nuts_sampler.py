"""The native runner's NUTS transition (``nuts_sampler.hpp``, the package's copy of Stan's
code without allocations, run by the driver's own chain loop) against Stan's own code
throughout (``stan::services::sample::hmc_nuts_diag_e_adapt``), both run by the same
executable: the same output file, byte for byte (every draw and every sampler column:
``lp__``, ``accept_stat__``, ``stepsize__``, ``treedepth__``, ``n_leapfrog__``,
``divergent__``, ``energy__``)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from test_hierarchical_gradient import VARIANTS, variant_data

from cvcompare.hierarchical import runners
from cvcompare.hierarchical.runners import (
    INIT_RADIUS,
    NativeRunner,
    _driver_environment,
    _driver_files,
    native_available,
)

needs_native = pytest.mark.skipif(not native_available(), reason="no C++ compiler on PATH")

SETTINGS = {
    # four chains with windowed metric adaptation (warm-up of 300 iterations: the metric is
    # re-estimated, and the step size re-initialised, at the end of each window), two threads
    "fifty data sets, four chains": (
        "fifty data sets",
        dict(seed=7, chains=4, warmup=300, draws=200, adapt_delta=0.8, max_treedepth=10),
    ),
    # a small target acceptance rate and tree depth: divergent subtrees and trees cut at the
    # maximum depth, the sampler's other two ways of ending a trajectory
    "divergences and maximum depth, one chain": (
        "student, fixed Gamma(2, 0.1)",
        dict(seed=11, chains=1, warmup=200, draws=300, adapt_delta=0.5, max_treedepth=4),
    ),
}


def driver_output(data: dict, nuts: dict, *, gradient: str, transition: str) -> bytes:
    """The native driver's output file for the package's program (the runner's command)."""
    exe = NativeRunner().executable()
    with _driver_files(data) as (data_path, out_path):
        args = (nuts["seed"], nuts["chains"], nuts["warmup"], nuts["draws"], 1)
        args += (nuts["adapt_delta"], nuts["max_treedepth"], 2, INIT_RADIUS, gradient, transition)
        command = [str(exe), str(data_path), str(out_path), *map(str, args)]
        subprocess.run(command, check=True, capture_output=True, env=_driver_environment())
        return out_path.read_bytes()


def sampler_columns(output: bytes) -> dict[str, np.ndarray]:
    header, _, values = output.partition(b"\n")
    names = header.decode().split(",")
    table = np.frombuffer(values, dtype="<f8").reshape(-1, len(names))
    return {name: table[:, i] for i, name in enumerate(names) if name.endswith("__")}


@needs_native
@pytest.mark.parametrize("gradient", ["hierarchical", "autodiff"])
@pytest.mark.parametrize("setting", list(SETTINGS))
def test_package_transition_output_is_stans_byte_for_byte(setting, gradient):
    variant, nuts = SETTINGS[setting]
    data = variant_data(**VARIANTS[variant], seed=3)
    package = driver_output(data, nuts, gradient=gradient, transition="package")
    stan = driver_output(data, nuts, gradient=gradient, transition="stan")
    columns = sampler_columns(package)
    assert len(columns["lp__"]) == nuts["chains"] * nuts["draws"]
    assert package == stan
    if "divergences" in setting:  # the setting reaches the paths it is there for
        assert columns["divergent__"].sum() > 0
        assert (columns["treedepth__"] == nuts["max_treedepth"]).any()


@needs_native
@pytest.mark.parametrize("stan_transition", [False, True])
def test_runner_passes_the_transition_to_the_driver(monkeypatch, stan_transition):
    commands = []
    real = runners._check_call

    def recording(command, *args, **kwargs):
        commands.append(command)
        return real(command, *args, **kwargs)

    monkeypatch.setattr(runners, "_check_call", recording)
    runner = NativeRunner(stan_transition=stan_transition)
    runner.executable()  # built before, so that the only command is the fit's
    data = variant_data(**VARIANTS["two data sets, two folds"], seed=3)
    runner.sample(data, seed=5, chains=1, warmup=20, draws=10)
    assert commands[-1][-1] == ("stan" if stan_transition else "package")
