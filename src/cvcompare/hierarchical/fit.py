"""Fit the Bayesian hierarchical model to the cross-validation results of two learners.

References
----------
Corani, G., Benavoli, A., Demsar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from cvcompare._validation import (
    check_array,
    check_choice,
    check_int,
    check_probability,
    check_rho,
    check_scale,
    check_scaled_rope,
    check_score_size,
    constant_within_rounding,
)
from cvcompare.seeding import RngLike, as_generator

from .diagnostics import HierarchicalDiagnostics
from .priors import scale_data, stan_data
from .result import HierarchicalResult, next_dataset_probs
from .runners import get_runner

__all__ = ["fit_hierarchical"]

NU_PRIORS = ("hyper", "gamma")
TOP_LEVELS = ("student", "gaussian")


def fit_hierarchical(
    x: object,
    *,
    rho: float,
    rope: tuple[float, float] | None = None,
    nu_prior: Literal["hyper", "gamma"] = "hyper",
    top_level: Literal["student", "gaussian"] = "student",
    runner: Literal["auto", "native", "pystan", "cmdstanpy"] = "auto",
    chains: int = 4,
    warmup: int = 1000,
    draws: int = 1000,
    seed: RngLike,
    scale: Literal["fraction", "percent", "raw"] = "fraction",
    score_size: float | object | None = None,
    adapt_delta: float = 0.8,
    max_treedepth: int = 10,
) -> HierarchicalResult:
    """Fit the hierarchical model of Corani et al. (2017) to fold differences of q data sets.

    The model (Sec. 3, Eqs. (2)-(4)): ``delta_i ~ t(nu, delta0, sigma0)``,
    ``sigma_i ~ U(0, 1000 s)``, ``x_i ~ MVN(1 delta_i, Sigma_i)`` with
    ``Sigma_i = sigma_i^2 ((1 - rho) I + rho 1 1')``, ``delta0 ~ U(-max|x|, max|x|)``,
    ``sigma0 ~ U(0, 1000 s_xbar)`` and ``nu - 1 ~ Gamma(alpha, beta)`` with
    ``alpha ~ U(0.5, 5)``, ``beta ~ U(0.05, 0.15)`` (all on the scale of ``x / s``, ``s``
    the mean per-data-set standard deviation, as in the authors' code).

    The likelihood is evaluated on each data set's mean ``xbar_i`` and sum of squared
    deviations ``ss_i``, which is exact: since ``Sigma_i^{-1} = (I - rho / (1 + (n - 1) rho)
    1 1') / (sigma_i^2 (1 - rho))`` and ``det Sigma_i = sigma_i^{2n} (1 - rho)^(n - 1)
    (1 + (n - 1) rho)``,

    ``log MVN(x_i | 1 delta_i, Sigma_i) = log N(xbar_i | delta_i, sigma_i^2 (1 + (n - 1) rho)
    / n) - (n - 1) log sigma_i - ss_i / (2 sigma_i^2 (1 - rho)) + const``.

    The Stan program integrates the ``delta_i`` out given the Student-t scale-mixture
    weights and draws them from their exact conditional posterior, which leaves the
    posterior unchanged and avoids the divergent transitions of the centred model; it
    samples ``delta0``, ``sigma0`` and the ``sigma_i`` through exact logistic maps of
    parameters scaled from the data, so that the sampler sees parameters of unit scale (see
    the comments in ``hierarchical.stan``).

    Parameters
    ----------
    x : array_like, shape (q, n)
        Differences of accuracy (first learner minus second) on each of the ``n = runs x
        folds`` folds of each of ``q >= 2`` data sets.
    rho : float
        Correlation between fold differences, in [0, 1); ``1 / folds`` is the usual
        heuristic (Nadeau & Bengio 2003).
    rope : tuple of float, optional
        Region of practical equivalence, as fractions for ``"fraction"`` and ``"percent"``
        (by default ``(-0.01, 0.01)``, one point of accuracy), in the score's unit for
        ``"raw"``, where it must be given.
    nu_prior : {"hyper", "gamma"}
        ``"hyper"``: ``nu - 1 ~ Gamma(alpha, beta)`` with uniform ``alpha, beta`` (Sec. 3);
        ``"gamma"``: ``nu - 1 ~ Gamma(2, 0.1)`` (Table 5). Not used with a Gaussian top
        level.
    top_level : {"student", "gaussian"}
        Distribution of the ``delta_i``.
    runner : {"auto", "native", "pystan", "cmdstanpy"}
        Stan interface; ``"auto"`` takes the fastest available: the native runner (the
        program compiled with PyStan's Stan and the local C++ compiler, all chains in one
        process; about 2.2x faster than cmdstanpy) when a C++ compiler is found, otherwise
        cmdstanpy when CmdStan is installed, otherwise PyStan. All run the same program
        with the same sampler. The choice and its version are recorded in the result.
    chains, warmup, draws : int
        Number of chains, warm-up iterations and kept draws per chain (paper: 4, 1000,
        1000).
    seed : int, numpy.random.SeedSequence or numpy.random.Generator
        Seeds the sampler and the zero-variance noise: the same data and seed give the same
        draws on the same runner.
    scale : {"fraction", "percent", "raw"}
        Scale of ``x``; percentages are divided by 100; ``"raw"``: any score in its own
        unit (the model is fitted on ``x / s`` whatever the unit).
    score_size : float or array_like of shape (q,), optional
        The largest magnitude of the scores the differences come from (one, or one per data
        set), in the unit the model takes them in: a data set whose differences agree
        within its rounding is constant (and gets the rope's noise). By default 1, or a
        data set's largest ``|x|`` where larger (:func:`cvcompare.io.pair_score_sizes`
        gives those of raw scores).
    adapt_delta : float
        Target acceptance rate of NUTS's step-size adaptation, in (0, 1); Stan's default
        0.8 gives no divergent transitions on the H scenarios of the paper.
    max_treedepth : int
        Maximum tree depth of NUTS.

    Returns
    -------
    HierarchicalResult
        Posterior draws on the original scale, ``probs()`` for the next data set,
        ``per_dataset_probs``, ``shrinkage``, ``posterior_odds`` and ``diagnostics``.

    Raises
    ------
    ImportError
        If Stan's Python packages are not installed (the ``stan`` extra); the message says
        what to install (:data:`~cvcompare.hierarchical.runners.STAN_MISSING`).
    ValueError
        If ``x`` is not a 2-D array of finite values with at least 2 data sets and 2 folds,
        ``rho`` is outside [0, 1), the rope is not an interval containing 0, or every data
        set has zero variance.

    Warns
    -----
    ConvergenceWarning
        When a diagnostic fails (R-hat >= 1.01, bulk or tail ESS < 400, any divergence,
        tree-depth hits, E-BFMI < 0.3); the problems are also in ``result.diagnostics``.

    Notes
    -----
    A data set whose differences are all equal has zero variance; the authors add noise
    ``u_j ~ U(rope)`` to the first half of its differences and subtract it from the second
    half, which keeps its mean. This function does the same, with noise drawn from
    ``seed``; the indices of such data sets are in ``result.noisy``.

    The PyStan runner cannot run inside an already running event loop (e.g. Jupyter)
    unless ``nest_asyncio.apply()`` was called first; the native and cmdstanpy runners can.

    References
    ----------
    Corani et al. (2017), Sec. 3 (model, Eqs. (2)-(4), priors), Sec. 3.2 (inference on the
    next data set), Sec. 3.3 (shrinkage).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> x = 0.02 + 0.04 * rng.standard_normal((10, 100))
    >>> res = fit_hierarchical(x, rho=0.1, seed=1, draws=500)  # doctest: +SKIP
    >>> res.probs()  # doctest: +SKIP
    """
    arr = check_array(x, "x", ndim=2, min_size=2, axis_names=("data sets", "folds"))
    if arr.shape[0] < 2:
        raise ValueError(f"x: expected at least 2 data sets (rows), got {arr.shape[0]}")
    # a data set whose differences agree within rounding is constant (given the rope's noise)
    arr = check_scale(arr, "x", scale=scale)
    arr = constant_within_rounding(arr, check_score_size(arr, score_size))
    rope = check_scaled_rope(rope, scale)
    rho = check_rho(rho)
    nu_prior = check_choice(nu_prior, "nu_prior", NU_PRIORS)
    top_level = check_choice(top_level, "top_level", TOP_LEVELS)
    chains = check_int(chains, "chains", minimum=1)
    warmup = check_int(warmup, "warmup", minimum=1)
    draws = check_int(draws, "draws", minimum=4)
    adapt_delta = check_probability(adapt_delta, "adapt_delta")
    max_treedepth = check_int(max_treedepth, "max_treedepth", minimum=1)
    gen = as_generator(seed, "seed")
    stan_seed = int(gen.integers(1, 2**31 - 1))
    scaled = scale_data(arr.copy(), rope, gen)  # refuses data sets that all have zero variance
    # the runner last: bad input is named even where Stan is missing or not yet built
    stan_runner = get_runner(runner)
    student = top_level == "student"
    data = stan_data(scaled, rho=rho, student=student, nu_hyper=nu_prior == "hyper")
    out = stan_runner.sample(
        data,
        chains=chains,
        warmup=warmup,
        draws=draws,
        seed=stan_seed,
        adapt_delta=adapt_delta,
        max_treedepth=max_treedepth,
    )

    s = scaled.scale
    d0 = out.draws["delta0"]
    s0 = out.draws["sigma0"]
    nu = out.draws["nu_minus_one"][..., 0] + 1.0 if student else np.full_like(d0, np.inf)
    top = {"delta0": d0, "sigma0": s0}
    if student:
        top["nu"] = nu
    diagnostics = HierarchicalDiagnostics.from_draws(
        top,
        divergent=out.divergent,
        treedepth=out.treedepth,
        max_treedepth=out.max_treedepth,
        energy=out.energy,
    )
    diagnostics.warn(stacklevel=2)
    q = arr.shape[0]
    delta0 = s * d0.reshape(-1)
    sigma0 = s * s0.reshape(-1)
    nu = nu.reshape(-1)
    p_left, p_rope, p_right = next_dataset_probs(delta0, sigma0, nu, rope)
    return HierarchicalResult(
        delta0=delta0,
        sigma0=sigma0,
        nu=nu,
        delta=s * out.draws["delta"].reshape(-1, q),
        sigma=s * out.draws["sigma"].reshape(-1, q),
        p_left=p_left,
        p_rope=p_rope,
        p_right=p_right,
        rope=rope,
        rho=rho,
        divisor=s,
        nu_prior=nu_prior,
        top_level=top_level,
        runner=out.runner,
        runner_version=out.runner_version,
        chains=chains,
        noisy=scaled.noisy,
        diagnostics=diagnostics,
    )
