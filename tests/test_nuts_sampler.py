"""The native runner's NUTS transition (``nuts_sampler.hpp``, the package's copy of Stan's
code without allocations) against Stan's own code (``stan::mcmc::adapt_diag_e_nuts``), both
run by the same executable: the same draws and sampler columns, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from test_hierarchical_gradient import VARIANTS, variant_data

from cvcompare.hierarchical.runners import NativeRunner, native_available

needs_native = pytest.mark.skipif(not native_available(), reason="no C++ compiler on PATH")

SETTINGS = {
    # four chains with windowed metric adaptation (warm-up of 300 iterations: the metric is
    # re-estimated, and the step size re-initialised, at the end of each window)
    "fifty data sets, four chains": (
        "fifty data sets",
        dict(seed=7, chains=4, warmup=300, draws=200),
    ),
    # a small target acceptance rate and tree depth: divergent subtrees and trees cut at the
    # maximum depth, the sampler's other two ways of ending a trajectory
    "divergences and maximum depth, one chain": (
        "student, fixed Gamma(2, 0.1)",
        dict(seed=11, chains=1, warmup=200, draws=300, adapt_delta=0.5, max_treedepth=4),
    ),
}


@needs_native
@pytest.mark.parametrize("hand_written", [True, False], ids=["hand-written", "autodiff"])
@pytest.mark.parametrize("setting", list(SETTINGS))
def test_package_transition_draws_are_stans_bit_for_bit(setting, hand_written):
    variant, nuts = SETTINGS[setting]
    data = variant_data(**VARIANTS[variant], seed=3)
    package = NativeRunner(hand_written_gradient=hand_written).sample(data, **nuts)
    stan = NativeRunner(hand_written_gradient=hand_written, stan_transition=True).sample(
        data, **nuts
    )
    assert package.draws.keys() == stan.draws.keys()
    for name in package.draws:
        np.testing.assert_array_equal(package.draws[name], stan.draws[name], err_msg=name)
    for column in ("divergent", "treedepth", "energy"):
        np.testing.assert_array_equal(getattr(package, column), getattr(stan, column), column)
    if "divergences" in setting:  # the setting reaches the paths it is there for
        assert package.divergent.sum() > 0
        assert (package.treedepth == nuts["max_treedepth"]).any()
