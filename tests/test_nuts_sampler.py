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

from cvcompare.hierarchical.native import driver_environment, driver_files, native_available
from cvcompare.hierarchical.runners import NativeRunner, _Nuts

needs_native = pytest.mark.skipif(not native_available(), reason="no C++ compiler on PATH")

SETTINGS = {
    # four chains with windowed metric adaptation (warm-up of 300 iterations: the metric is
    # re-estimated, and the step size re-initialised, at the end of each window), on as many
    # threads as the machine allows
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


def driver_output(data: dict, nuts: dict, *, hand_written: bool, stan_transition: bool) -> bytes:
    """The native driver's output file for one fit of the package's program, run with the
    runner's own command."""
    runner = NativeRunner(hand_written_gradient=hand_written, stan_transition=stan_transition)
    with driver_files(data) as (data_path, out_path):
        command = runner._command(data_path, out_path, _Nuts(**nuts))
        subprocess.run(command, check=True, capture_output=True, env=driver_environment())
        return out_path.read_bytes()


def sampler_columns(output: bytes) -> dict[str, np.ndarray]:
    header, _, values = output.partition(b"\n")
    names = header.decode().split(",")
    table = np.frombuffer(values, dtype="<f8").reshape(-1, len(names))
    return {name: table[:, i] for i, name in enumerate(names) if name.endswith("__")}


@needs_native
@pytest.mark.parametrize("hand_written", [True, False], ids=["hand-written", "autodiff"])
@pytest.mark.parametrize("setting", list(SETTINGS))
def test_package_transition_output_is_stans_byte_for_byte(setting, hand_written):
    variant, nuts = SETTINGS[setting]
    data = variant_data(**VARIANTS[variant], seed=3)
    package = driver_output(data, nuts, hand_written=hand_written, stan_transition=False)
    stan = driver_output(data, nuts, hand_written=hand_written, stan_transition=True)
    columns = sampler_columns(package)
    assert len(columns["lp__"]) == nuts["chains"] * nuts["draws"]
    assert package == stan
    if "divergences" in setting:  # the setting reaches the paths it is there for
        assert columns["divergent__"].sum() > 0
        assert (columns["treedepth__"] == nuts["max_treedepth"]).any()


@needs_native
@pytest.mark.parametrize("stan_transition", [False, True])
def test_runner_passes_the_transition_to_the_driver(stan_transition, tmp_path):
    runner = NativeRunner(stan_transition=stan_transition)
    nuts = _Nuts(chains=1, warmup=20, draws=10, seed=5, adapt_delta=0.8, max_treedepth=10)
    command = runner._command(tmp_path / "data.json", tmp_path / "output", nuts)
    assert command[-2:] == ["hierarchical", "stan" if stan_transition else "package"]
