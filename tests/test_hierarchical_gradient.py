"""The native runner's hand-written log density and gradient of ``hierarchical.stan``
(``hierarchical_gradient.hpp``) against Stan's autodiff of the same program and against
central differences of itself; the sampler's layout that both read."""

from __future__ import annotations

import numpy as np
import pytest
from reference_hierarchical import h_scenario

from cvcompare.hierarchical.cache import program_code
from cvcompare.hierarchical.layout import sampler_layout
from cvcompare.hierarchical.native import native_available
from cvcompare.hierarchical.priors import scale_data, stan_data
from cvcompare.hierarchical.runners import NativeRunner

needs_native = pytest.mark.skipif(not native_available(), reason="no C++ compiler on PATH")


def variant_data(q: int, n: int, *, student: bool, nu_hyper: bool, outliers: int, seed: int):
    gen = np.random.default_rng(seed)
    x = h_scenario(q, 0.005, gen, n=n)
    x[:outliers] += 0.4  # far beyond 10 robust spreads of the means: centred data sets
    return stan_data(scale_data(x, (-0.01, 0.01), gen), rho=0.1, student=student, nu_hyper=nu_hyper)


VARIANTS = {
    "student, uniform alpha and beta": dict(q=20, n=100, student=True, nu_hyper=True, outliers=0),
    "student, two centred data sets": dict(q=20, n=100, student=True, nu_hyper=True, outliers=2),
    "student, fixed Gamma(2, 0.1)": dict(q=8, n=10, student=True, nu_hyper=False, outliers=1),
    "gaussian top level": dict(q=20, n=100, student=False, nu_hyper=True, outliers=2),
    "two data sets, two folds": dict(q=2, n=2, student=True, nu_hyper=True, outliers=0),
    "fifty data sets": dict(q=50, n=100, student=True, nu_hyper=True, outliers=0),
}


@needs_native
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_hand_written_gradient_equals_autodiff_and_central_differences(variant):
    # 25 random points, uniform on [-2, 2] in every unconstrained coordinate (the sampler's
    # parameters have unit posterior scale around their offsets). Tolerances:
    # * log density vs Stan's: Stan's trigamma is its asymptotic series cut after B8 at
    #   x >= 5 (relative error below 1e-8), which enters through log s and k s w_i for each
    #   data set: |difference| <= 1e-6 + 1e-13 |lp| (1e-13: rounding of sums of q terms of up
    #   to |lp|); observed about 2e-8 at q = 20.
    # * gradient vs Stan's autodiff: the same approximation, differentiated (its derivative
    #   is within 1e-7 of tetragamma's, relative, at x >= 5): |difference| <= 1e-7
    #   max|gradient| per point; observed about 1.3e-8.
    # * gradient vs central differences (step h = 1e-4) of the hand-written density, which
    #   do not involve Stan's approximation: truncation h^2 / 6 |f'''| and rounding
    #   1e-16 |lp| / h, so |difference| <= 2e-7 (1 + |gradient|) + 1e-11 |lp|; observed
    #   about 2e-8 (1 + |gradient|). (A tetragamma series with wrong coefficients, relative
    #   error 1e-6 to 1e-5, gave differences of 1e-6 (1 + |gradient|) on nu_raw.)
    data = variant_data(**VARIANTS[variant], seed=len(variant))
    check = NativeRunner().check_gradient(data, points=25, seed=7, radius=2.0)
    lp = check.log_density_stan
    assert np.all(np.isfinite(lp)) and np.all(np.isfinite(check.gradient))
    assert np.all(np.abs(check.log_density - lp) <= 1e-6 + 1e-13 * np.abs(lp))
    scale = np.abs(check.gradient_stan).max(axis=1, keepdims=True)
    assert np.all(np.abs(check.gradient - check.gradient_stan) <= 1e-7 * scale)
    differences = np.abs(check.gradient - check.gradient_differences)
    bound = 2e-7 * (1 + np.abs(check.gradient)) + 1e-11 * np.abs(lp)[:, None]
    worst = np.unravel_index(np.argmax(differences / bound), bound.shape)
    assert np.all(differences <= bound), (worst, differences[worst], bound[worst])


def test_hand_written_gradient_is_only_for_the_package_program():
    other = "parameters { real y; } model { y ~ normal(0, 1); }"
    with pytest.raises(ValueError, match="hand_written_gradient: .*package's"):
        NativeRunner(other, hand_written_gradient=True)
    assert NativeRunner().hand_written_gradient
    assert not NativeRunner(program_code(), hand_written_gradient=False).hand_written_gradient
    assert not NativeRunner(other).hand_written_gradient


def test_layout_centres_only_far_data_sets_of_a_student_top_level():
    # Data set 0 lies 60 units from the others, whose means spread by about 1: it is centred
    # (slot q), the others keep their order in the first slots. A Gaussian top level has no
    # weights to centre.
    gen = np.random.default_rng(5)
    q, n = 6, 20
    x = gen.normal(0.0, 1.0, (q, n))
    x[0] += 60.0
    xbar = x.mean(axis=1)
    ss = ((x - xbar[:, None]) ** 2).sum(axis=1)
    data = {"xbar": xbar, "ss": ss, "n": n, "rho": 0.1, "delta0_lo": -70.0, "delta0_hi": 70.0}
    data |= {"sigma_hi": 1000.0, "sigma0_hi": 1000.0}
    student = sampler_layout(data | {"student": 1})
    assert student["n_c"] == 1
    assert student["slot_of"].tolist() == [6, 1, 2, 3, 4, 5]
    assert len(student["log_lambda_offset"]) == 1
    gaussian = sampler_layout(data | {"student": 0})
    assert gaussian["n_c"] == 0
    assert gaussian["slot_of"].tolist() == [1, 2, 3, 4, 5, 6]
    # the sigma guesses follow the slots
    np.testing.assert_array_equal(
        student["sigma_offset"], gaussian["sigma_offset"][[1, 2, 3, 4, 5, 0]]
    )


@needs_native
def test_program_refuses_a_slot_layout_that_is_not_a_permutation():
    data = dict(variant_data(**VARIANTS["two data sets, two folds"], seed=1))
    data["slot_of"] = [1, 1]
    with pytest.raises(RuntimeError, match="slot_of: expected a permutation"):
        NativeRunner().sample(data, chains=1, warmup=10, draws=10, seed=1)


@needs_native
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_hand_written_density_is_non_finite_where_stans_is(variant):
    # Far out (uniform on [-1000, 1000]: nu - 1, the lambda_i and the sigma_i under- and
    # overflow), the sampler must reject the same proposals with either gradient: a
    # non-finite log density (or, for Stan, a rejection) is a rejection. The driver must not
    # stop there (Boost's digamma of an infinite nu once threw from the hand-written code).
    # Where both are finite they agree to 1e-6 relative (Stan's trigamma approximation).
    data = variant_data(**VARIANTS[variant], seed=len(variant))
    check = NativeRunner().check_gradient(data, points=40, seed=11, radius=1000.0)
    finite = np.isfinite(check.log_density_stan)
    np.testing.assert_array_equal(np.isfinite(check.log_density), finite)
    lp, lp_stan = check.log_density[finite], check.log_density_stan[finite]
    assert np.all(np.abs(lp - lp_stan) <= 1e-6 * (1 + np.abs(lp_stan)))
