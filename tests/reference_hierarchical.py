"""Reference densities and simulated data for the tests of ``cvcompare.hierarchical``.

The reference model is the hierarchical model of Corani et al. (2017), Eqs. (2)-(4), with
the full multivariate normal likelihood (``reference_hierarchical.stan`` and
:func:`reference_log_density`); it is used to check the fast Stan program, which works on
sufficient statistics and integrates the delta_i out.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy import special, stats

REFERENCE_STAN = Path(__file__).with_name("reference_hierarchical.stan")


def correlated_folds(delta, sd, n: int, rho: float, gen: np.random.Generator) -> np.ndarray:
    """Fold differences ``x_i ~ MVN(1 delta_i, sd_i^2 ((1 - rho) I + rho 1 1'))``."""
    delta = np.asarray(delta, dtype=float)
    sd = np.broadcast_to(np.asarray(sd, dtype=float), delta.shape)
    q = delta.size
    noise = np.sqrt(rho) * gen.standard_normal((q, 1)) + np.sqrt(1 - rho) * gen.standard_normal(
        (q, n)
    )
    return delta[:, None] + sd[:, None] * noise


def h_scenario(q: int, location: float, gen: np.random.Generator, *, n: int = 100, rho=0.1):
    """Data of the H experiments: Cauchy(location, 0.0033) deltas (clipped to +-0.5, as
    differences of accuracy must be), sd ~ U(0.03, 0.05)."""
    delta = np.clip(location + 0.0033 * gen.standard_cauchy(q), -0.5, 0.5)
    return correlated_folds(delta, gen.uniform(0.03, 0.05, q), n, rho, gen)


def corr_matrix(n: int, rho: float) -> np.ndarray:
    return (1 - rho) * np.eye(n) + rho * np.ones((n, n))


def mvn_loglik(x: np.ndarray, mean: np.ndarray, sigma: np.ndarray, rho: float, extra=0.0):
    """Sum over data sets of log MVN(x_i | 1 mean_i, sigma_i^2 C + extra_i 1 1') by scipy."""
    q, n = x.shape
    extra = np.broadcast_to(np.asarray(extra, dtype=float), (q,))
    c = corr_matrix(n, rho)
    ones = np.ones((n, n))
    return sum(
        stats.multivariate_normal(np.full(n, mean[i]), sigma[i] ** 2 * c + extra[i] * ones).logpdf(
            x[i]
        )
        for i in range(q)
    )


def log_lambda(nu: float, w: np.ndarray) -> np.ndarray:
    """``log lambda = digamma(nu/2) - log(nu/2) + sqrt(trigamma(nu/2)) w``."""
    h = nu / 2
    return special.digamma(h) - np.log(h) + np.sqrt(special.polygamma(1, h)) * w


def fast_log_density(x: np.ndarray, rho: float, p: dict, *, student: bool = True) -> float:
    """Log density of the fast program's parameters, computed from the full MVN (scipy).

    ``p`` holds ``delta0, sigma0, sigma`` and, with a Student top level, ``nu, alpha, beta,
    w``. The delta_i are integrated out: ``x_i ~ MVN(1 delta0, sigma_i^2 C + t_i 1 1')`` with
    ``t_i = sigma0^2 / lambda_i``; ``w_i`` has the density of the change of variables from
    ``lambda_i ~ Gamma(nu/2, nu/2)``; uniform priors are constants and left out.
    """
    q = x.shape[0]
    if not student:
        return mvn_loglik(x, np.full(q, p["delta0"]), p["sigma"], rho, p["sigma0"] ** 2)
    nu = p["nu"]
    ll = log_lambda(nu, p["w"])
    lam = np.exp(ll)
    lp = mvn_loglik(x, np.full(q, p["delta0"]), p["sigma"], rho, p["sigma0"] ** 2 / lam)
    lp += stats.gamma.logpdf(nu - 1, p["alpha"], scale=1 / p["beta"])
    lp += np.sum(stats.gamma.logpdf(lam, nu / 2, scale=2 / nu) + ll)
    lp += q * 0.5 * np.log(special.polygamma(1, nu / 2))
    return float(lp)


def reference_log_density(x: np.ndarray, rho: float, p: dict) -> float:
    """Log density of the centred reference model (uniform priors left out)."""
    lp = mvn_loglik(x, p["delta"], p["sigma"], rho)
    lp += np.sum(stats.t.logpdf(p["delta"], p["nu"], p["delta0"], p["sigma0"]))
    lp += stats.gamma.logpdf(p["nu"] - 1, p["alpha"], scale=1 / p["beta"])
    return float(lp)
