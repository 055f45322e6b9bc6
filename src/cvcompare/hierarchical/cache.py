"""Where the runners build their Stan programs, once per machine.

The native and CmdStan runners compile the program into the package's user cache directory
(``$XDG_CACHE_HOME/cvcompare`` or ``~/.cache/cvcompare``, or ``$CVCOMPARE_CACHE_DIR``), in a
subdirectory named after a digest of everything the build depends on, under an exclusive
file lock so that processes starting at the same time never compile concurrently; PyStan's
build takes the same kind of lock in httpstan's cache directory. A build, and waiting for
another process's build, is announced as a warning of the ``cvcompare.hierarchical`` logger.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import numpy as np

__all__ = [
    "BUILD_DURATION",
    "STANC_OPTIMISATION",
    "announce_build",
    "cache_directory",
    "digest",
    "file_lock",
    "json_data",
    "program_code",
    "waiting_message",
]

#: Logger of the one-time builds; its warnings reach the console (or the workflow's log).
_log = logging.getLogger("cvcompare.hierarchical")

#: What a user is told to expect of the one-time build of the Stan program.
BUILD_DURATION = "about 2 minutes, up to 5 on a busy machine"
#: Options of the Stan compiler for the native and CmdStan builds: its level-1 optimisations
#: (see :mod:`.runners`).
STANC_OPTIMISATION = "O1"


def program_code() -> str:
    """Text of the package's Stan program, ``hierarchical.stan``.

    Returns
    -------
    str
        The program, as shipped with the package.
    """
    return resources.files("cvcompare.hierarchical").joinpath("hierarchical.stan").read_text()


def cache_directory() -> Path:
    """The package's user cache directory (created on demand).

    Returns
    -------
    pathlib.Path
        ``$CVCOMPARE_CACHE_DIR`` if set and not empty, else ``$XDG_CACHE_HOME/cvcompare``,
        else ``~/.cache/cvcompare``; it exists on return.
    """
    root = os.environ.get("CVCOMPARE_CACHE_DIR")
    if root:
        path = Path(root)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        path = Path(base) / "cvcompare"
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextlib.contextmanager
def file_lock(path: Path, waiting: str | None = None) -> Iterator[None]:
    """Hold an exclusive advisory lock (``fcntl.flock``) on ``path`` while in the block.

    Parameters
    ----------
    path : pathlib.Path
        The lock file; it and its parent directory are created if needed.
    waiting : str, optional
        Logged as a warning of the ``cvcompare.hierarchical`` logger when another process
        holds the lock; nothing is logged by default.

    Yields
    ------
    None
        Control, once the lock is held; the lock is released when the block ends.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting:
                _log.warning("%s; waiting for the lock %s", waiting, path)
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def waiting_message(runner: str) -> str:
    """The line said while this process waits for another one's build of the model for
    ``runner`` (the ``waiting`` line of :func:`file_lock` on the build lock)."""
    return (
        f"cvcompare: waiting for another process that is building the hierarchical model's "
        f"Stan program ({runner} runner; a one-time build of {BUILD_DURATION})"
    )


def announce_build(runner: str, where: Path) -> None:
    """Say that the one-time build starts, how long it takes, and where it is kept."""
    _log.warning(
        "cvcompare: building the hierarchical model's Stan program for this machine "
        "(%s runner): a one-time build of %s; later fits reuse it from %s",
        runner,
        BUILD_DURATION,
        where,
    )


def digest(*parts: str) -> str:
    """SHA-256 hex digest of ``parts``, each ended by a NUL byte (so that ``("ab", "c")``
    and ``("a", "bc")`` differ): the key of a build in the cache."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def json_data(data: dict[str, object]) -> str:
    """Stan data as JSON text, keys sorted (the same data give the same bytes); numpy
    arrays and scalars become lists and numbers, anything else is a TypeError."""

    def default(obj: object) -> object:
        if isinstance(obj, np.ndarray):
            return obj.tolist()
        if isinstance(obj, np.generic):
            return obj.item()
        raise TypeError(f"cannot encode {type(obj).__name__} as Stan data")

    return json.dumps(data, default=default, sort_keys=True)
