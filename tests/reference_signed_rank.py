"""The O(q^2) evaluation of the Bayesian signed-rank posteriors, kept as a test reference.

This is the package's former implementation: every draw of the Dirichlet weights ``w`` is
turned into ``theta = w A w^T`` with the ``q x q`` matrix ``A_ij = H(z_i + z_j - c)``
(``H(0) = 1/2``) built explicitly, and the forms of a block of draws are one matrix product.
It consumes the random stream exactly as :mod:`cvcompare.stats.signed_rank` does (Gamma
weights of the observations row by row, the pseudo-observation's weights first for the rope
variant and last for the IDP), so for a given seed both give the same draws up to rounding.
Its memory and time grow as q^2; use it on small q only.
"""

from __future__ import annotations

import numpy as np

from cvcompare.seeding import as_generator


def heaviside_pairs(z: np.ndarray, shift: float = 0.0) -> np.ndarray:
    """Matrix ``H(z_i + z_j - shift)`` with ``H(0) = 1/2``."""
    return np.heaviside(np.add.outer(z, z) - shift, 0.5)


def quadratic_forms(w: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``w_k A_l w_k^T`` for every draw ``k`` (rows of ``w``) and matrix ``A_l`` of ``a``."""
    n_forms, m, _ = a.shape
    wa = w @ a.transpose(1, 0, 2).reshape(m, n_forms * m)
    return np.einsum("knj,kj->kn", wa.reshape(-1, n_forms, m), w)


def dirichlet_quadratic_mean(alpha: np.ndarray, a: np.ndarray) -> float:
    """Exact ``E[w A w^T]`` for ``w ~ Dir(alpha)``."""
    a0 = float(alpha.sum())
    return float((alpha @ a @ alpha + alpha @ np.diag(a)) / (a0 * (a0 + 1.0)))


def dp_theta_draws(z, n_samples, rng) -> tuple[np.ndarray, np.ndarray]:
    """Draws of ``theta`` under ``Dp(s -> 0)`` and the sums of the Gamma weights."""
    gen = as_generator(rng)
    g_obs = gen.standard_exponential((n_samples, z.size))
    total = g_obs.sum(axis=1)
    d = quadratic_forms(g_obs / total[:, None], (heaviside_pairs(z) - 0.5)[None])[:, 0]
    return 0.5 + np.clip(d, -0.5, 0.5), total


def idp_draws(z, s, n_samples, rng) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper draws of the IDP (Theorem 4 of Benavoli et al., 2014)."""
    gen = as_generator(rng)
    theta, total = dp_theta_draws(z, n_samples, gen)
    g0 = gen.standard_gamma(s, n_samples)
    w0 = g0 / (g0 + total)
    return theta * (1.0 - w0) ** 2, theta + w0 * (2.0 - w0) * (1.0 - theta)


def idp_means(z, s) -> tuple[float, float]:
    """Exact lower and upper posterior means of the IDP from the explicit matrices."""
    alpha = np.concatenate([[s], np.ones(z.size)])
    return tuple(
        dirichlet_quadratic_mean(alpha, heaviside_pairs(np.concatenate([[z0], z])))
        for z0 in (-np.inf, np.inf)
    )


def rope_forms(z, rope) -> np.ndarray:
    """The matrices of ``(theta_left, theta_rope, theta_right)`` over ``(0, z_1, ..., z_q)``."""
    low, high = rope
    z_aug = np.concatenate([[0.0], z])
    right = heaviside_pairs(z_aug, 2.0 * high)
    left = 1.0 - heaviside_pairs(z_aug, 2.0 * low)
    return np.stack([left, 1.0 - left - right, right])


def rope_draws(z, rope, s, n_samples, rng) -> np.ndarray:
    """Draws of ``(theta_left, theta_rope, theta_right)``, shape (n_samples, 3)."""
    gen = as_generator(rng)
    g0 = gen.standard_gamma(s, n_samples)
    w = np.column_stack([g0, gen.standard_exponential((n_samples, z.size))])
    w /= w.sum(axis=1, keepdims=True)
    return quadratic_forms(w, rope_forms(z, rope))


def rope_means(z, rope, s) -> tuple[float, float, float]:
    """Exact posterior means of ``(theta_left, theta_rope, theta_right)``."""
    alpha = np.concatenate([[s], np.ones(z.size)])
    return tuple(dirichlet_quadratic_mean(alpha, m) for m in rope_forms(z, rope))
