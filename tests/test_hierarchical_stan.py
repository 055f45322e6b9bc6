"""The Stan program of cvcompare.hierarchical run through the native and PyStan runners: log
density against the full multivariate normal, posterior against the reference model, the
runners against each other, seeding, parallel use."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import warnings

import joblib
import numpy as np
import pytest
from reference_hierarchical import (
    REFERENCE_STAN,
    correlated_folds,
    fast_log_density,
    h_scenario,
    log_lambda,
    reference_log_density,
)
from scipy import optimize, special

from cvcompare.hierarchical import ConvergenceWarning, fit_hierarchical
from cvcompare.hierarchical.cache import program_code
from cvcompare.hierarchical.diagnostics import ess_bulk
from cvcompare.hierarchical.native import (
    _compiler,
    _host_cpu_flags,
    _inlining_flags,
    native_available,
)
from cvcompare.hierarchical.priors import (
    ALPHA_BOUNDS,
    BETA_BOUNDS,
    model_data,
    scale_data,
    stan_data,
)
from cvcompare.hierarchical.runners import NativeRunner, _column_dims, cmdstan_available
from cvcompare.hierarchical.runners import build_pystan as build

SMALL = {"chains": 2, "warmup": 200, "draws": 150}
LOCAL_RUNNERS = [
    pytest.param(
        "native",
        marks=pytest.mark.skipif(not native_available(), reason="no C++ compiler on PATH"),
    ),
    "pystan",
]


def random_point(gen: np.random.Generator, q: int, student: bool) -> dict:
    p = {
        "delta0": gen.uniform(-0.5, 0.5),
        "sigma0": gen.uniform(0.05, 1.0),
        "sigma": gen.uniform(0.5, 2.0, q),
        "nu": 1 + gen.gamma(2, 10),
        "alpha": gen.uniform(*ALPHA_BOUNDS),
        "beta": gen.uniform(*BETA_BOUNDS),
        "w": gen.standard_normal(q),
    }
    p["delta"] = p["delta0"] + p["sigma0"] * gen.standard_t(3, q)
    return p


def raw_parameters(p: dict, bounds: dict) -> tuple[dict, float]:
    """The program's raw parameters at the point ``p`` and the log Jacobian of the maps
    delta0 = lo + (hi - lo) inv_logit(raw), sigma0 = hi inv_logit(raw), sigma_i = hi
    inv_logit(raw_i): log |d theta / d raw| = log(width * u * (1 - u)), u = (theta - lo) / width."""
    raw, log_jacobian = {}, 0.0
    for name, (lo, hi) in bounds.items():
        u = (np.asarray(p[name]) - lo) / (hi - lo)
        raw[f"{name}_raw"] = special.logit(u).tolist()
        log_jacobian += float(np.sum(np.log((hi - lo) * u * (1 - u))))
    return raw, log_jacobian


def nu_raw(nu: float) -> tuple[float, float]:
    """The program's nu_raw for ``nu`` (its note 7: nu - 1 = exp(z), z = u - g(u)^2 / 2,
    g(u) = log(1 + exp(-u)), inverted by root finding) and the log Jacobian
    log |d (nu - 1) / d u| = z + log(1 + g(u) / (1 + exp(u)))."""
    z = np.log(nu - 1)

    def g(u: float) -> float:
        return np.logaddexp(0.0, -u)

    u = optimize.brentq(lambda u: u - g(u) ** 2 / 2 - z, -10.0, max(z, 0.0) + 10.0, xtol=1e-14)
    return u, z + np.log1p(g(u) * special.expit(-u))


@pytest.mark.parametrize(("student", "outlier"), [(True, False), (False, False), (True, True)])
def test_fast_log_density_equals_the_full_mvn_model(student, outlier):
    # The fast program's log density must equal, up to a constant, the density written from
    # the paper's equations with scipy's full MVN: x_i ~ MVN(1 delta0, sigma_i^2 C + t_i 1 1')
    # after integrating delta_i out. The program samples delta0, sigma0 and sigma_i through
    # logistic maps of raw parameters, and nu through nu_raw, and adds their log Jacobians
    # itself, so its density (without Stan's own transforms) minus those Jacobians, computed
    # here independently, is the density of the constrained parameters. Differences between
    # points cancel the constant; tolerance 1e-8 (double rounding is ~1e-12 here).
    # With an outlier (data set 0 shifted by 60, far beyond 10 robust spreads) the program
    # centres that data set: its parameter is log lambda_0 = m + s w_0 instead of w_0, whose
    # density is the reference's divided by s = sqrt(trigamma(nu / 2)), and the program holds
    # the data sets in the slots (1, 2, 0), so sigma_raw follows that order.
    gen = np.random.default_rng(30)
    q, n, rho = 3, 8, 0.2
    x = gen.normal(0.0, 1.0, (q, n))
    if outlier:
        x[0] += 60.0
    n_c = int(outlier)  # centred data sets
    slots = [1, 2, 0] if outlier else [0, 1, 2]
    xbar = x.mean(axis=1)
    data = model_data(
        xbar, ((x - xbar[:, None]) ** 2).sum(axis=1), n, rho=rho, delta0_bound=3.0,
        sigma_hi=10.0, sigma0_hi=5.0, student=student, nu_hyper=True,
    )  # fmt: skip
    bounds = {"delta0": (-3.0, 3.0), "sigma0": (0.0, 5.0), "sigma": (0.0, 10.0)}
    model = build(program_code(), data)
    lp_stan, lp_ref = [], []
    for _ in range(4):
        p = random_point(gen, q, student)
        pars, log_jacobian = raw_parameters(p, bounds)
        pars["sigma_raw"] = [pars["sigma_raw"][i] for i in slots]
        ref = fast_log_density(x, rho, p, student=student)
        if student:
            u, nu_log_jacobian = nu_raw(p["nu"])
            log_jacobian += nu_log_jacobian
            pars |= {"nu_raw": [u], "gamma_alpha": [p["alpha"]]}
            pars |= {"gamma_beta": [p["beta"]], "w": p["w"][slots[: q - n_c]].tolist()}
            pars["log_lambda_c"] = log_lambda(p["nu"], p["w"][:n_c]).tolist()
            ref -= n_c * 0.5 * np.log(special.polygamma(1, p["nu"] / 2))
        else:
            pars |= {"nu_raw": [], "gamma_alpha": [], "gamma_beta": [], "w": []}
            pars["log_lambda_c"] = []
        u = model.unconstrain_pars(pars)
        lp_stan.append(model.log_prob(u, adjust_transform=False) - log_jacobian)
        lp_ref.append(ref)
    lp_stan, lp_ref = np.array(lp_stan), np.array(lp_ref)
    np.testing.assert_allclose(lp_stan - lp_stan[0], lp_ref - lp_ref[0], rtol=0, atol=1e-8)


@pytest.mark.slow  # compiles the reference program (minutes on a first run)
def test_reference_program_log_density_equals_the_paper_equations():
    gen = np.random.default_rng(31)
    q, n, rho = 3, 6, 0.1
    x = gen.normal(0.0, 1.0, (q, n))
    data = {
        "q": q, "n": n, "x": x, "rho": rho, "delta0_lo": -3.0, "delta0_hi": 3.0,
        "sigma_hi": 10.0, "sigma0_hi": 5.0, "alpha_lo": ALPHA_BOUNDS[0],
        "alpha_hi": ALPHA_BOUNDS[1], "beta_lo": BETA_BOUNDS[0], "beta_hi": BETA_BOUNDS[1],
    }  # fmt: skip
    model = build(REFERENCE_STAN.read_text(), data)
    lp_stan, lp_ref = [], []
    for _ in range(4):
        p = random_point(gen, q, True)
        pars = {
            "delta0": p["delta0"], "sigma0": p["sigma0"], "nu_minus_one": p["nu"] - 1,
            "gamma_alpha": p["alpha"], "gamma_beta": p["beta"], "sigma": p["sigma"].tolist(),
            "delta": p["delta"].tolist(),
        }  # fmt: skip
        lp_stan.append(model.log_prob(model.unconstrain_pars(pars), adjust_transform=False))
        lp_ref.append(reference_log_density(x, rho, p))
    lp_stan, lp_ref = np.array(lp_stan), np.array(lp_ref)
    np.testing.assert_allclose(lp_stan - lp_stan[0], lp_ref - lp_ref[0], rtol=0, atol=1e-8)


def assert_means_agree(a: dict[str, np.ndarray], b: dict[str, np.ndarray], z: float = 4.5):
    """Posterior means of every variable of two samples, each ``(chains, draws)``, differ by
    less than ``z`` combined Monte Carlo standard errors (sd / sqrt(bulk ESS) each)."""
    for name in a:
        se = [arr.std() / np.sqrt(ess_bulk(arr)) for arr in (a[name], b[name])]
        diff = a[name].mean() - b[name].mean()
        assert abs(diff) < z * np.hypot(*se), (name, a[name].mean(), b[name].mean(), se)


@pytest.mark.slow
def test_fast_and_reference_posteriors_agree_within_monte_carlo_error():
    # q = 10 data sets, 4 x (1000 + 1000) draws of each program on the same scaled data and
    # bounds. Posterior means of delta0, sigma0, nu and every delta_i must agree within
    # 4.5 combined Monte Carlo standard errors (13 comparisons: family-wise false alarm
    # probability about 1e-4).
    gen = np.random.default_rng(32)
    q, n, rho = 10, 20, 0.1
    x = correlated_folds(gen.normal(0.01, 0.02, q), 0.04, n, rho, gen)
    scaled = scale_data(x, (-0.01, 0.01), gen)
    data = stan_data(scaled, rho=rho, student=True, nu_hyper=True)
    fast = build(program_code(), data).sample(num_chains=4, num_warmup=1000, num_samples=1000)
    ref_data = {k: data[k] for k in ("q", "n", "rho", "delta0_lo", "delta0_hi", "sigma_hi")}
    ref_data |= {k: data[k] for k in ("sigma0_hi", "alpha_lo", "alpha_hi", "beta_lo", "beta_hi")}
    ref_data["x"] = scaled.x
    ref = build(REFERENCE_STAN.read_text(), ref_data).sample(
        num_chains=4, num_warmup=1000, num_samples=1000
    )

    def by_chain(fit, name, index=None):
        arr = fit[name] if index is None else fit[name][index][None, :]
        return arr.reshape(-1, 4).T  # PyStan interleaves chains

    names = {"delta0": None, "sigma0": None} | {f"delta[{i}]": i for i in range(q)}
    draws_fast = {k: by_chain(fast, k.split("[")[0], i) for k, i in names.items()}
    draws_ref = {k: by_chain(ref, k.split("[")[0], i) for k, i in names.items()}
    draws_fast["nu"] = by_chain(fast, "nu_minus_one")
    draws_ref["nu"] = by_chain(ref, "nu_minus_one")
    assert_means_agree(draws_fast, draws_ref)


@pytest.fixture(scope="module")
def small_x():
    return h_scenario(5, 0.005, np.random.default_rng(33), n=20)


def quiet_fit(x, seed, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return fit_hierarchical(x, rho=0.1, seed=seed, **(SMALL | kwargs))


@pytest.mark.parametrize("runner", LOCAL_RUNNERS)
def test_same_seed_gives_the_same_draws_and_results_are_complete(small_x, runner, tmp_path):
    # Hermetic: the runners' temporary files go to a directory of this test, and the
    # httpstan fit files checked are those of this fit (recorded as the runner deletes them),
    # never the machine-wide caches that other processes use at the same time.
    import httpstan.cache
    import stan.common

    work, temp = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    temp.mkdir()
    deleted = []
    delete = stan.common.HttpstanClient.delete

    async def recording_delete(self, path, *args, **kwargs):
        deleted.append(path.lstrip("/"))
        return await delete(self, path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(work)
        mp.setattr(tempfile, "tempdir", str(temp))
        mp.setattr(stan.common.HttpstanClient, "delete", recording_delete)
        a = quiet_fit(small_x, 5, runner=runner)
    # seeded httpstan fits are cached on disk: the runner deletes this fit's files; the
    # native runner removes its temporary directory; neither writes to the working directory
    assert len(deleted) == (SMALL["chains"] if runner == "pystan" else 0)
    assert not any(httpstan.cache.fit_path(name).exists() for name in deleted)
    assert [p for p in temp.iterdir() if p.name.startswith("cvcompare-")] == []
    assert list(work.iterdir()) == []
    b = quiet_fit(small_x, 5, runner=runner)
    c = quiet_fit(small_x, 6, runner=runner)
    np.testing.assert_array_equal(a.delta0, b.delta0)
    np.testing.assert_array_equal(a.delta, b.delta)
    assert not np.array_equal(a.delta0, c.delta0)
    s = SMALL["chains"] * SMALL["draws"]
    assert a.runner == runner
    assert a.delta0.shape == a.sigma0.shape == a.nu.shape == (s,)
    assert a.delta.shape == a.sigma.shape == (s, 5)
    assert np.all(a.nu >= 1) and np.all(a.sigma0 > 0) and np.all(a.sigma > 0)
    assert sum(a.probs()) == pytest.approx(1.0)
    # draws are on the original scale: the per-data-set sd is close to the sample sd
    np.testing.assert_allclose(np.median(a.sigma, axis=0), small_x.std(axis=1, ddof=1), rtol=0.5)


def test_auto_runner_prefers_native_then_cmdstan_and_records_versions(small_x):
    # the native runner is the fastest (about 2.2x cmdstanpy on the same program)
    expected = "native" if native_available() else "cmdstanpy" if cmdstan_available() else "pystan"
    res = quiet_fit(small_x, 5, chains=1, warmup=20, draws=10)
    assert res.runner == expected
    assert re.fullmatch(r"(Stan|CmdStan) \d+\.\d+\.\d+, .+ \d+\.\d+.*", res.runner_version)


def test_native_and_pystan_runners_give_the_same_posterior(small_x):
    # Both run Stan's NUTS on the same program, the native build with stanc's --O1
    # translation and PyStan without it: the rounding differs, so the draws differ, but the
    # posterior must not. Posterior means of delta0, sigma0 and the 5 delta_i must agree
    # within 4.5 combined Monte Carlo standard errors (7 comparisons: family-wise false
    # alarm rate below 7 * 6.8e-6).
    if not native_available():
        pytest.skip("no C++ compiler on PATH")
    draws = []
    for runner in ("native", "pystan"):
        fit = quiet_fit(small_x, 12, runner=runner, chains=4, warmup=1000, draws=1000)
        d = {"delta0": fit.delta0, "sigma0": fit.sigma0}
        d |= {f"delta_{i}": col for i, col in enumerate(fit.delta.T)}
        draws.append({k: v.reshape(4, -1) for k, v in d.items()})  # stored chain after chain
    assert_means_agree(*draws)


def test_native_runner_reports_stan_errors():
    if not native_available():
        pytest.skip("no C++ compiler on PATH")
    with pytest.raises(RuntimeError, match="stanc failed"):
        NativeRunner("parameters { real y; } model { y ~ normal(0, 1) }}").executable()
    data = stan_data(scale_data(np.eye(3) + 0.1, (-0.01, 0.01), np.random.default_rng(0)),
                     rho=0.1, student=True, nu_hyper=True)  # fmt: skip
    del data["ss"]
    with pytest.raises(RuntimeError, match="(?s)Stan failed.*variable name=ss"):
        NativeRunner().sample(data, chains=1, warmup=10, draws=10, seed=1)


def test_native_build_targets_the_host_cpu_and_names_it():
    if not native_available():
        pytest.skip("no C++ compiler on PATH")
    flags, cpu = _host_cpu_flags(_compiler())
    if flags:  # GCC and Clang expand -march=native to the CPU's name and instruction sets
        assert flags == ("-march=native",)
        assert re.search(r"march=(?!native)|target-cpu", cpu), cpu
    # a compiler that refuses the flag builds for the generic target instead
    assert _host_cpu_flags(shutil.which("false")) == ((), "")


def test_native_build_asks_gcc_for_more_inlining_and_only_gcc():
    if not native_available():
        pytest.skip("no C++ compiler on PATH")
    compiler = _compiler()
    version = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout
    if "Free Software Foundation" in version:  # GCC accepts the --param name
        assert _inlining_flags(compiler) == ("--param=inline-unit-growth=150",)
    assert _inlining_flags(shutil.which("false")) == ()


def test_column_names_give_variable_shapes():
    cols = ["lp__", "delta0", "nu_minus_one.1", "sigma.1", "sigma.2", "sigma.3", "w[1]"]
    assert _column_dims(cols) == {
        "lp__": (), "delta0": (), "nu_minus_one": (1,), "sigma": (3,), "w": (1,)
    }  # fmt: skip


def test_short_runs_are_flagged_with_a_warning(small_x):
    with pytest.warns(ConvergenceWarning, match="ESS"):
        res = fit_hierarchical(small_x, rho=0.1, seed=1, chains=2, warmup=50, draws=20)
    assert not res.diagnostics.ok
    assert any("ESS" in p for p in res.diagnostics.problems)


def test_model_variants_run(small_x):
    gauss = quiet_fit(small_x, 7, top_level="gaussian")
    assert gauss.top_level == "gaussian" and np.all(np.isinf(gauss.nu))
    assert set(gauss.diagnostics.rhat) == {"delta0", "sigma0"}
    gamma = quiet_fit(small_x, 7, nu_prior="gamma")
    assert gamma.nu_prior == "gamma" and np.all(gamma.nu >= 1)


def test_zero_variance_data_set_gets_noise_and_keeps_its_mean(small_x):
    x = small_x.copy()
    x[1] = 0.004
    res = quiet_fit(x, 8)
    assert res.noisy == (1,)
    assert np.all(np.isfinite(res.delta))


def _delta0_draws(x, seed, runner):
    return quiet_fit(x, seed, runner=runner).delta0


@pytest.mark.parametrize("runner", LOCAL_RUNNERS)
def test_fits_in_parallel_loky_workers_match_and_do_not_collide(small_x, runner):
    # two worker processes run the very same fit at the same time (same httpstan fit name),
    # a third a different seed; all must match the same fits made in this process
    jobs = (joblib.delayed(_delta0_draws)(small_x, s, runner) for s in (9, 9, 10))
    out = joblib.Parallel(n_jobs=2, backend="loky")(jobs)
    here = _delta0_draws(small_x, 9, runner)
    np.testing.assert_array_equal(out[0], here)
    np.testing.assert_array_equal(out[1], here)
    np.testing.assert_array_equal(out[2], _delta0_draws(small_x, 10, runner))


EXITS_AFTER_FIT = """
import multiprocessing, sys, warnings
import numpy as np
from cvcompare.hierarchical import fit_hierarchical

def fit():
    x = np.random.default_rng(0).normal(0.01, 0.05, (3, 10))
    warnings.simplefilter("ignore")
    fit_hierarchical(x, rho=0.1, seed=1, chains=2, warmup=50, draws=50, runner="pystan")

if __name__ == "__main__":
    child = multiprocessing.get_context("fork").Process(target=fit)
    child.start()
    child.join(timeout=120)
    if child.is_alive():
        child.kill()
        sys.exit("the worker did not exit within 120 s of starting its fit")
    sys.exit(child.exitcode)
"""


def test_a_worker_process_that_fits_can_exit():
    # a multiprocessing (or loky) worker ends without the threading exit hooks that stop
    # httpstan's chain processes; it must not wait for them forever after a fit
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", EXITS_AFTER_FIT], timeout=300, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"x": np.zeros(10)}, "x: expected a 2-D array"),
        ({"x": np.full((3, 1), 0.1)}, "at least 2 folds"),
        ({"x": np.full((1, 10), 0.1)}, "at least 2 data sets"),
        ({"x": np.array([[0.1, np.nan], [0.1, 0.2]])}, "finite"),
        ({"x": np.full((3, 10), 5.0)}, "scale='percent'"),
        ({"rho": 1.0}, "rho: expected a number in \\[0, 1\\)"),
        ({"rho": -0.1}, "rho"),
        ({"rope": (0.01, 0.02)}, "rope: expected an interval"),
        ({"rope": 0.01}, "rope: expected an interval"),
        ({"rope": (-1, 1)}, r"rope: .*\|end\| < 1"),  # one accuracy point given in percent
        ({"rope": (-1, 1), "scale": "percent"}, r"rope: .*\|end\| < 1"),
        ({"nu_prior": "exp"}, "nu_prior: expected one of"),
        ({"top_level": "cauchy"}, "top_level: expected one of"),
        ({"runner": "rstan"}, "runner: expected one of"),
        ({"x": np.full((3, 10), 0.02)}, "every data set has zero variance"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(kwargs, match):
    gen = np.random.default_rng(34)
    args = {"x": gen.normal(0, 0.04, (3, 10)), "rho": 0.1, "seed": 1} | kwargs
    with pytest.raises(ValueError, match=match):
        fit_hierarchical(**args)


def test_seed_is_required_and_typed():
    x = np.random.default_rng(35).normal(0, 0.04, (3, 10))
    with pytest.raises(TypeError, match="seed"):
        fit_hierarchical(x, rho=0.1, seed=None)


@pytest.mark.skipif(cmdstan_available(), reason="CmdStan is installed here")
def test_cmdstanpy_runner_without_cmdstan_is_a_clear_error():
    x = np.random.default_rng(36).normal(0, 0.04, (3, 10))
    with pytest.raises(ValueError, match="needs a CmdStan installation"):
        fit_hierarchical(x, rho=0.1, seed=1, runner="cmdstanpy")


def test_percent_scale_is_converted(small_x):
    percent = 100 * small_x
    a = quiet_fit(percent / 100, 11)
    b = quiet_fit(percent, 11, scale="percent")
    np.testing.assert_array_equal(a.delta0, b.delta0)


@pytest.mark.slow
@pytest.mark.parametrize("q", [10, 30, 50])
@pytest.mark.parametrize("location", [0.0, 0.005])
def test_no_divergences_on_the_h_scenarios(q, location):
    # Corani et al. (2017), Sec. 4.3-4.4: Cauchy(location, 0.0033) deltas, n = 100, rho = 0.1;
    # the centred model of the paper diverges on such data (0.1-15% of its transitions), the
    # fast program must not. Without the centring of outlying data sets (note 6 of the
    # program) 6 of 80 seeded fits on the q = 30, location 0.005 data set below had one
    # divergent transition; with it, none of 80.
    x = h_scenario(q, location, np.random.default_rng(q + int(1000 * location)))
    res = fit_hierarchical(x, rho=0.1, seed=q)
    assert res.diagnostics.divergences == 0
    assert res.diagnostics.ok, res.diagnostics.problems


def test_input_is_checked_before_a_runner_is_chosen(monkeypatch):
    # a missing Stan (or a runner that cannot run here) must not hide what is wrong with
    # the input, nor come first
    def no_stan(runner):
        raise ImportError("Stan is not installed")

    monkeypatch.setattr("cvcompare.hierarchical.fit.get_runner", no_stan)
    x = np.random.default_rng(37).normal(0, 0.04, (3, 10))
    for seed in (None, -1, "1", 1.5):
        with pytest.raises(TypeError, match="^seed: expected a non-negative int seed"):
            fit_hierarchical(x, rho=0.1, seed=seed)
    with pytest.raises(ValueError, match="^x: every data set has zero variance"):
        fit_hierarchical(np.full((3, 10), 0.02), rho=0.1, seed=1)
    # differences computed by the caller, constant within rounding (0.81 - 0.80, 0.71 - 0.70,
    # ...): no variance either, not one of rounding noise that the model's scale would take
    a = np.array([0.81, 0.71, 0.61, 0.51, 0.41, 0.91, 0.31, 0.21, 0.11, 0.99])
    rounded = np.vstack([a - (a - 0.01), a - (a - 0.02), (a + 0.3) - 0.3 - a])
    assert np.all(np.ptp(rounded, axis=1) > 0)
    with pytest.raises(ValueError, match="^x: every data set has zero variance"):
        fit_hierarchical(rounded, rho=0.1, seed=1)
    constant = np.vstack([x[:2], np.full(10, 0.02)])
    with pytest.raises(ValueError, match=r"^x: data set\(s\) \[2\] have zero variance .* rope"):
        fit_hierarchical(constant, rho=0.1, seed=1, rope=(0, 0))
    with pytest.raises(ImportError, match="Stan is not installed"):
        fit_hierarchical(x, rho=0.1, seed=1)
