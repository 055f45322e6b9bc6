"""Atomic file output: a file appears complete or not at all.

A job killed while writing (out of memory, time limit, Ctrl-C) must not leave a truncated
file that a workflow manager would take for a finished result. Output is therefore written
to a temporary file in the same directory and moved into place with :func:`os.replace`,
which is atomic on POSIX file systems. A writer killed outright (``kill -9``, a node lost)
cannot remove its temporary file; the next writer of the same path removes such leftovers
(``.<name>.*.tmp`` beside it) before it starts, so a rerun leaves no trace of the crash.
The workflow never runs two jobs for the same output at once, which makes that safe.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

__all__ = ["atomic_path", "write_table"]


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path that is renamed to ``path`` when the block succeeds.

    The temporary file lives in the directory of ``path`` (so the final rename does not
    cross file systems), is created with the permissions the process's umask gives new
    files, and is removed if the block raises. Temporary files that an
    earlier, killed writer of the same path left behind are removed first.

    Parameters
    ----------
    path : path-like
        The final location of the file. Missing parent directories are created.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_path(target) as tmp:
    ...     _ = tmp.write_text("done")
    >>> target.read_text()
    'done'
    """
    final = Path(path)
    final.parent.mkdir(parents=True, exist_ok=True)
    for stale in final.parent.glob(f".{glob.escape(final.name)}.*.tmp"):
        stale.unlink(missing_ok=True)
    tmp = final.parent / f".{final.name}.{secrets.token_hex(8)}.tmp"
    # created as any new file is, with the permissions the umask leaves (tempfile's are
    # private to the owner, and would stay so once moved into place)
    os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
    try:
        yield tmp
        os.replace(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)


def write_table(table: pd.DataFrame, path: str | os.PathLike[str]) -> None:
    """Write a table atomically as Parquet (``.parquet``) or CSV (``.csv``).

    Parameters
    ----------
    table : pandas.DataFrame
    path : path-like
        Ends in ``.parquet`` or ``.csv``.
    """
    suffix = Path(path).suffix
    if suffix not in (".parquet", ".csv"):
        raise ValueError(f"path: expected a .parquet or .csv file name, got {str(path)!r}")
    with atomic_path(path) as tmp:
        if suffix == ".parquet":
            table.to_parquet(tmp, index=False)
        else:
            table.to_csv(tmp, index=False)
