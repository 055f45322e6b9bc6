"""Reproducible random streams keyed by what a replication *is*.

Every random quantity in the project is drawn from a :class:`numpy.random.Generator`
derived from one root seed and a tuple of keys naming the replication (experiment id,
grid point, replication index, ...) through :class:`numpy.random.SeedSequence`.
Because the stream depends only on the keys, results are identical whatever the number
of cores, the chunking of replications into jobs, or the order in which jobs run.

References
----------
NumPy, "Parallel random number generation",
https://numpy.org/doc/stable/reference/random/parallel.html
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

import numpy as np

__all__ = ["as_generator", "key_to_int", "replication_rng", "replication_seed_sequence"]

RngLike = int | np.integer | np.random.Generator | np.random.SeedSequence


def key_to_int(key: object) -> int:
    """Map one key to a non-negative integer usable in a ``spawn_key``.

    Non-negative integers are used as they are; anything else (strings, floats, tuples,
    mappings) is hashed with SHA-256 of its canonical text, so the mapping is stable
    across Python processes (unlike :func:`hash`).

    Parameters
    ----------
    key : object
        An experiment id, a grid-point label, a replication index, ...

    Returns
    -------
    int
        The key itself for a non-negative integer; otherwise a non-negative integer
        below ``2**64``.

    Raises
    ------
    TypeError
        If ``key`` is a boolean.
    ValueError
        If ``key`` is a negative integer.
    """
    if isinstance(key, bool):
        raise TypeError("key: booleans are ambiguous as replication keys; use an int or str")
    if isinstance(key, (int, np.integer)):
        if key < 0:
            raise ValueError(f"key: integer keys must be non-negative, got {key}")
        return int(key)
    if isinstance(key, Mapping):
        text = repr(sorted((str(k), repr(v)) for k, v in key.items()))
    else:
        text = repr(key)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def replication_seed_sequence(root_seed: int, *keys: object) -> np.random.SeedSequence:
    """Return the :class:`~numpy.random.SeedSequence` of one replication.

    Parameters
    ----------
    root_seed : int
        The project's single root seed (``config/config.yaml: seed``).
    *keys : object
        What the replication is, e.g. ``("P-F2a", "delta~0.02/m~10/q~50", 17)``.

    Returns
    -------
    numpy.random.SeedSequence
        Entropy ``root_seed``, spawn key the keys mapped by :func:`key_to_int`.

    Raises
    ------
    TypeError
        If ``root_seed`` is not an int (booleans included), or a key is a boolean.
    ValueError
        If ``root_seed`` or an integer key is negative.
    """
    if isinstance(root_seed, bool) or not isinstance(root_seed, (int, np.integer)):
        raise TypeError(f"root_seed: expected a non-negative int, got {root_seed!r}")
    if root_seed < 0:
        raise ValueError(f"root_seed: expected a non-negative int, got {root_seed}")
    return np.random.SeedSequence(int(root_seed), spawn_key=tuple(key_to_int(k) for k in keys))


def replication_rng(root_seed: int, *keys: object) -> np.random.Generator:
    """Return the :class:`~numpy.random.Generator` of one replication.

    A PCG64 generator seeded with :func:`replication_seed_sequence`.

    Parameters
    ----------
    root_seed : int
        The project's single root seed (``config/config.yaml: seed``), >= 0.
    *keys : object
        What the replication is, e.g. ``("P-F2a", "delta~0.02/m~10/q~50", 17)``; each key is
        mapped by :func:`key_to_int`.

    Returns
    -------
    numpy.random.Generator
        The same stream for the same ``root_seed`` and ``keys``.

    Raises
    ------
    TypeError
        If ``root_seed`` is not an int (booleans included), or a key is a boolean.
    ValueError
        If ``root_seed`` or an integer key is negative.

    Examples
    --------
    >>> a = replication_rng(2026, "H-F2", "q~10", 3).random()
    >>> b = replication_rng(2026, "H-F2", "q~10", 3).random()
    >>> a == b
    True
    """
    return np.random.Generator(np.random.PCG64(replication_seed_sequence(root_seed, *keys)))


def as_generator(rng: RngLike, name: str = "rng") -> np.random.Generator:
    """Turn a seed, a ``SeedSequence`` or a ``Generator`` into a ``Generator``.

    ``None`` is refused: every random function of the project must be seeded explicitly,
    and global random state is never used.

    Parameters
    ----------
    rng : int, numpy.random.SeedSequence or numpy.random.Generator
        A non-negative seed, a seed sequence, or a generator (returned as it is, not
        copied: drawing from the result advances it).
    name : str, default "rng"
        The argument name used in error messages.

    Returns
    -------
    numpy.random.Generator
        ``rng`` itself if it is a generator; otherwise :func:`numpy.random.default_rng` of
        it.

    Raises
    ------
    TypeError
        If ``rng`` is ``None``, a boolean, a negative int or anything else.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool) and rng >= 0:
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"{name}: expected a non-negative int seed, a numpy SeedSequence or a numpy "
        f"Generator, got {rng!r}"
    )
