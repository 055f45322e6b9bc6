"""Reading fold-level cross-validation results into tidy tables.

Two formats are read:

- :func:`read_accuracies`: the whitespace-separated block format of the per-fold accuracies
  published with baycomp (``accuracies.txt``): a line holding a single word starts the block
  of a classifier; every following line is ``<dataset> <one accuracy per fold, in percent>``;
- :func:`read_csv_scores`: a user's own results as a tidy CSV with one row per learner, data
  set and fold.

:func:`fold_differences` turns either table into the ``(q, n_folds)`` matrix of paired
differences that the tests of :mod:`cvcompare.stats` take.

References
----------
Benavoli, A., Corani, G., Demsar, J. & Zaffalon, M. (2017). Time for a change: a tutorial for
comparing multiple classifiers through Bayesian analysis. JMLR 18(77); data file
``docs/code/accuracies.txt`` of the baycomp repository (MIT licence).
"""

from __future__ import annotations

import contextlib
import gzip
import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from cvcompare._validation import (
    check_array,
    check_bool,
    check_choice,
    check_scale,
    check_score_scale,
    check_score_size,
    constant_within_rounding,
    rounding_tolerance,
)

__all__ = [
    "COMPRESSIONS",
    "HEADER_SEPARATORS",
    "check_learner",
    "learners",
    "fold_differences",
    "pair_score_sizes",
    "header_separator",
    "mean_differences",
    "mean_score_matrix",
    "read_accuracies",
    "read_csv_scores",
    "select_learners",
]

# the columns of the tidy table both readers return
_SCORE_COLUMNS = ("learner", "dataset", "fold", "score")
#: The extensions of the compressions pandas reads a CSV in by its name (and the standard
#: library can: no zstandard).
COMPRESSIONS = (".gz", ".bz2", ".xz", ".zip")


def read_accuracies(
    path: str | PathLike[str],
    *,
    duplicates: Literal["drop", "keep", "error"] = "drop",
    as_fraction: bool = True,
) -> pd.DataFrame:
    """Read per-fold accuracies in the block format of baycomp's ``accuracies.txt``.

    Parameters
    ----------
    path : str or path-like
        The text file.
    duplicates : {"drop", "keep", "error"}, default "drop"
        What to do with a data set listed more than once in a block with identical values
        (``credit`` in the published file): ``"drop"`` keeps the first occurrence and warns;
        ``"keep"`` keeps every occurrence as a separate data set, renaming the k-th
        occurrence ``"<name>#k"`` (this gives the 54 data sets the papers count); ``"error"``
        refuses the file. A repeated name with different values is always an error.
    as_fraction : bool, default True
        By default accuracies are divided by 100, to the fractions that the tests of
        :mod:`cvcompare.stats` take; false returns them in percent, as in the file (exact
        decimal ties, e.g. for ranking), which :func:`fold_differences` then takes with
        ``scale="percent"``.

    Returns
    -------
    pandas.DataFrame
        Columns ``learner`` (the classifier of each block), ``dataset`` (in file order),
        ``fold`` (0, 1, ...) and ``score`` (the accuracy), as :func:`read_csv_scores` gives
        them; one row per classifier, data set and fold.

    Raises
    ------
    ValueError
        On a malformed file (the message names the line), a file that is not UTF-8 text,
        accuracies outside [0, 100] or all in [0, 1] (fractions, not the percentages of the
        format), blocks with different data sets, or lines with different numbers of folds.
    """
    if duplicates not in ("drop", "keep", "error"):
        raise ValueError(f"duplicates: expected 'drop', 'keep' or 'error', got {duplicates!r}")
    as_fraction = check_bool(as_fraction, "as_fraction")
    path = Path(path)
    blocks: dict[str, dict[str, np.ndarray]] = {}
    dropped: list[str] = []
    current: str | None = None
    n_folds: int | None = None
    first_line = ""  # the first data line, which sets n_folds
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is no name's
    except UnicodeDecodeError:
        raise _not_utf8(path, by_name=False) from None
    for lineno, line in enumerate(text.splitlines(), start=1):
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) == 1:
            _check_not_separated(tokens[0], f"{path}:{lineno}")
            current = tokens[0]
            if current in blocks:
                raise ValueError(f"{path}:{lineno}: classifier {current!r} appears twice")
            blocks[current] = {}
            continue
        if current is None:
            raise ValueError(f"{path}:{lineno}: data line before the first classifier name")
        name = tokens[0]
        try:
            values = np.array([float(t) for t in tokens[1:]])
        except ValueError:
            raise ValueError(f"{path}:{lineno}: accuracies of {name!r} must be numbers") from None
        if not np.all(np.isfinite(values)):
            raise ValueError(
                f"{path}:{lineno}: accuracies of {name!r} must be finite numbers, found "
                f"{values[~np.isfinite(values)][0]}"
            )
        if np.any((values < 0) | (values > 100)):
            raise ValueError(
                f"{path}:{lineno}: accuracies of {name!r} must lie in [0, 100] (percent)"
            )
        if n_folds is None:
            n_folds, first_line = values.size, f"{name!r} (line {lineno})"
        elif values.size != n_folds:
            raise ValueError(
                f"{path}:{lineno}: {name!r} has {values.size} folds, the first data line, "
                f"{first_line}, has {n_folds}: every line needs as many"
            )
        block = blocks[current]
        if name in block:
            stored = _resolve_duplicate(block, name, values, duplicates, f"{path}:{lineno}")
            if stored is None:
                dropped.append(f"{name!r} (line {lineno})")
                continue
            name = stored
        block[name] = values
    if not blocks or n_folds is None:
        raise ValueError(f"{path}: no accuracies found")
    if dropped:
        warnings.warn(
            f"{path}: dropped {len(dropped)} repeated data set line(s) with values identical "
            f"to an earlier line of the same block: {', '.join(dropped)} "
            "(duplicates='keep' keeps them as separate data sets)",
            UserWarning,
            stacklevel=2,
        )
    datasets = list(next(iter(blocks.values())))
    for clf, block in blocks.items():
        if sorted(block) != sorted(datasets):
            missing = sorted(set(datasets) ^ set(block))
            raise ValueError(
                f"{path}: classifier {clf!r} does not list the same data sets as the first "
                f"block (differences: {missing})"
            )
    frames = [
        pd.DataFrame(
            {
                "learner": clf,
                "dataset": np.repeat(datasets, n_folds),
                "fold": np.tile(np.arange(n_folds), len(datasets)),
                "score": np.concatenate([block[d] for d in datasets]),
            }
        )
        for clf, block in blocks.items()
    ]
    table = pd.concat(frames, ignore_index=True)
    if np.all(table["score"] <= 1):
        raise ValueError(
            f"{path}: every accuracy lies in [0, 1]; the format holds percentages, and these "
            "look like fractions (give fractions as a tidy CSV, columns learner, dataset, "
            "fold, score: read_csv_scores reads it, and the command line under a name ending "
            "in .csv)"
        )
    if as_fraction:
        table["score"] /= 100.0
    return table


def _check_not_separated(token: str, where: str) -> None:
    """Refuse a line of the block format whose values are joined by semicolons or commas
    into one word, which would otherwise be read as a classifier's name."""
    for sep, name in ((";", "semicolons"), (",", "commas")):
        parts = token.split(sep)
        try:
            [float(p.replace(",", ".")) for p in parts[1:]]
        except ValueError:
            continue
        if len(parts) >= 3:
            raise ValueError(
                f"{where}: the values are separated by {name} ({token[:40]!r}"
                f"{'...' if len(token) > 40 else ''}); the block "
                "format separates a data set's name and its accuracies by spaces or tabs "
                "(a file separated by commas with a header learner,dataset,fold,score is a "
                "tidy CSV: name it '*.csv')"
            )


def _resolve_duplicate(
    block: dict[str, np.ndarray], name: str, values: np.ndarray, duplicates: str, where: str
) -> str | None:
    """Return the name under which a repeated data set is stored, or None to drop it."""
    if not np.array_equal(block[name], values):
        raise ValueError(f"{where}: data set {name!r} appears twice with different accuracies")
    if duplicates == "error":
        raise ValueError(
            f"{where}: data set {name!r} appears twice (identical values); pass "
            "duplicates='drop' or duplicates='keep'"
        )
    if duplicates == "drop":
        return None
    k = 2
    while f"{name}#{k}" in block:
        k += 1
    return f"{name}#{k}"


#: The separators a table of scores may be written with, and their names in words.
HEADER_SEPARATORS = {",": "commas", "\t": "tabs", ";": "semicolons"}


def header_separator(line: str) -> str | None:
    """The separator (a key of :data:`HEADER_SEPARATORS`) under which ``line`` names the
    columns of a tidy table of scores (``learner``, ``dataset``, ``fold``, ``score``, in any
    case), or None where it names them under none."""
    return next(
        (
            sep
            for sep in HEADER_SEPARATORS
            if set(_SCORE_COLUMNS) <= {c.strip().lower() for c in line.split(sep)}
        ),
        None,
    )


def _not_utf8(path: Path, *, by_name: bool) -> ValueError:
    """The error for a file that is not UTF-8 text, with the line and value of its first
    byte that is not UTF-8 where the text can be read, and what to do.

    ``by_name``: whether the reader decompresses a file by its name's extension (pandas,
    for a tidy CSV), so that a ``.gz`` file's text is its decompressed bytes; the block
    format is read as plain text, and gzip's bytes then get the advice to decompress.
    """
    raw = path.read_bytes()
    gzipped = raw[:2] == b"\x1f\x8b"
    text: bytes | None = raw
    if by_name and path.suffix.lower() in COMPRESSIONS:
        text = None  # compressed: its bytes locate nothing, unless gzip's are read below
        if gzipped:
            with contextlib.suppress(OSError, EOFError):
                text = gzip.decompress(raw)
    where = ""
    if text is not None:
        try:
            text.decode("utf-8")
        except UnicodeDecodeError as bad:
            line = text.count(b"\n", 0, bad.start) + 1
            where = f" (line {line}: byte 0x{text[bad.start]:02x})"
    if gzipped and not (by_name and path.suffix.lower() == ".gz"):
        hint = "it is compressed with gzip: decompress it, or name a tidy CSV '*.csv.gz'"
    else:
        hint = "save it as UTF-8 (e.g. from a spreadsheet, as 'CSV UTF-8')"
    return ValueError(f"{path}: not UTF-8 text{where}; {hint}")


def _header_hint(columns: Sequence[object]) -> str:
    """Why a CSV's header lacks the score columns, where it can be told: another separator
    than the comma, or the names in another case."""
    sep = header_separator(",".join(map(str, columns)))
    if sep is None:
        return ""
    if sep == ",":
        spaced = [str(c) for c in columns if str(c) != str(c).strip()]
        if spaced:
            return (
                f" (the names {spaced} have spaces around them: write the header and the rows "
                "without spaces around the commas)"
            )
        return " (the column names must be written in lower case)"
    return (
        f" (the file looks separated by {HEADER_SEPARATORS[sep]}; a tidy CSV is separated by "
        "commas)"
    )


def read_csv_scores(
    path: str | PathLike[str],
    *,
    scale: Literal["fraction", "percent", "raw"] = "fraction",
) -> pd.DataFrame:
    """Read a user's fold-level results from a tidy CSV file.

    Parameters
    ----------
    path : str or path-like
        A CSV file with a header and the columns ``learner``, ``dataset``, ``fold`` and
        ``score`` (other columns are ignored). Every (learner, dataset, fold) appears once;
        the folds of a data set are paired across learners by their ``fold`` label.
        Learner and data set names are kept as written (``001`` is not the number 1, and
        ``NA`` is a name, not a missing value); an empty cell is missing.
    scale : {"fraction", "percent", "raw"}, default "fraction"
        Scale of the scores: accuracy-like fractions in [0, 1] (values outside are refused:
        pass ``scale="percent"`` for percentages), percentages, which are divided by 100 (a
        file whose scores all lie in [0, 1] is refused as percentages: it holds fractions),
        or ``"raw"`` for any other score (AUC, F1, RMSE, log-loss, ...), kept in its unit.

    Returns
    -------
    pandas.DataFrame
        Columns ``learner``, ``dataset``, ``fold`` (as read) and ``score`` (fractions, or
        as read for ``"raw"``).

    Raises
    ------
    ValueError
        On an empty file, a file that is not UTF-8 text (a compressed one is read by its
        name's extension, e.g. ``.csv.gz``), missing columns, non-numeric or non-finite scores,
        repeated rows, or scores on a scale other than ``scale``.
    """
    try:
        # learner and data set names are read as written: "001" stays "001" (not 1), and
        # "NA" or "None" are names; only an empty cell is missing
        table = pd.read_csv(
            path,
            dtype={"learner": str, "dataset": str},
            keep_default_na=False,
            na_values={column: [""] for column in _SCORE_COLUMNS},
        )
    except pd.errors.EmptyDataError:
        raise ValueError(
            f"{path}: the file is empty; expected a header {','.join(_SCORE_COLUMNS)} and a row "
            "per score"
        ) from None
    except UnicodeDecodeError:
        raise _not_utf8(Path(path), by_name=True) from None
    except (EOFError, gzip.BadGzipFile) as exc:  # a damaged or cut compressed file
        raise ValueError(f"{path}: cannot be decompressed ({exc})") from None
    missing = [c for c in _SCORE_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(
            f"{path}: missing column(s) {missing}; expected {list(_SCORE_COLUMNS)}, "
            f"found {list(table.columns)}{_header_hint(table.columns)}"
        )
    ignored = [c for c in table.columns if c not in _SCORE_COLUMNS]
    table = table[list(_SCORE_COLUMNS)].copy()
    if table.empty:
        raise ValueError(f"{path}: no rows")
    if table[["learner", "dataset", "fold"]].isna().any().any():
        raise ValueError(f"{path}: learner, dataset and fold must not be empty")
    if pd.api.types.is_bool_dtype(table["score"]):
        raise ValueError(
            f"{path}: score must be a number in every row, got {table['score'].iloc[0].item()!r} "
            "in data row 1 (a column of True and False is no score)"
        )
    scores = pd.to_numeric(table["score"], errors="coerce").to_numpy(dtype=float)
    if not np.all(np.isfinite(scores)):
        bad = int(np.flatnonzero(~np.isfinite(scores))[0])
        value = table["score"].iloc[bad]
        value = value.item() if isinstance(value, np.generic) else value  # nan, not np.float64(nan)
        raise ValueError(
            f"{path}: score must be a finite number in every row, got {value!r} in data row "
            f"{bad + 1}"
        )
    table["learner"] = table["learner"].astype(str)
    table["dataset"] = table["dataset"].astype(str)
    dup = table.duplicated(["learner", "dataset", "fold"])
    if dup.any():
        row = table[dup].iloc[0]
        also = f"; the other column(s) {ignored} are ignored" if ignored else ""
        raise ValueError(
            f"{path}: (learner, dataset, fold) = ({row['learner']}, {row['dataset']}, "
            f"{row['fold']}) appears more than once; fold must label each fold result of a "
            f"data set once (number the folds of m runs of k-fold cross-validation 0 to "
            f"m k - 1){also}"
        )
    scale = check_choice(scale, "scale", ("fraction", "percent", "raw"))
    check_score_scale(scores, f"{path}: column 'score'", scale)
    table["score"] = check_scale(scores, "score", scale=scale)
    return table


def _check_columns(table: object) -> None:
    """Check that ``table`` is a DataFrame with the columns of both readers (``learner``,
    ``dataset``, ``fold``, ``score``); the message names them."""
    if not isinstance(table, pd.DataFrame):
        raise TypeError(
            "table: expected a pandas DataFrame from read_csv_scores or read_accuracies, got "
            f"{type(table).__name__}"
        )
    if not set(_SCORE_COLUMNS) <= set(table.columns):
        raise ValueError(
            "table: expected the columns of read_csv_scores and read_accuracies (learner, "
            f"dataset, fold, score), got {list(table.columns)}"
        )


def _check_table(table: pd.DataFrame) -> None:
    """Check a table whose rows can be paired (:func:`_check_columns`): real, finite
    scores, no empty label and no (learner, dataset, fold) twice (a repeat would be averaged
    in, or make the pairing fail)."""
    _check_columns(table)
    check_array(table["score"].to_numpy(), "table: column 'score'", min_size=1)
    keys = ["learner", "dataset", "fold"]
    if table[keys].isna().any().any():
        raise ValueError("table: learner, dataset and fold must not be empty")
    dup = table.duplicated(keys)
    if dup.any():
        row = table[dup].iloc[0]
        raise ValueError(
            f"table: (learner, dataset, fold) = ({row['learner']}, {row['dataset']}, "
            f"{row['fold']}) appears more than once"
        )


def learners(table: pd.DataFrame) -> list[str]:
    """The learners of a tidy table from either reader, in order of first appearance.

    Parameters
    ----------
    table : pandas.DataFrame
        A tidy table from :func:`read_csv_scores` or :func:`read_accuracies`.

    Returns
    -------
    list of str
        Each learner once (the labels as stored in the table's learner column).

    Raises
    ------
    TypeError, ValueError
        If ``table`` is not a DataFrame with the columns of the readers.
    """
    _check_columns(table)
    return list(pd.unique(table["learner"]))  # in order of appearance


def check_learner(value: object, name: str, known: list[str]) -> None:
    """Check that the argument or setting ``name`` is one of the ``known`` learners.

    Parameters
    ----------
    value : object
        The learner given.
    name : str
        The argument or setting name used in the error message.
    known : list of str
        The learners of the table, e.g. from :func:`learners`.

    Raises
    ------
    ValueError
        If ``value`` is not in ``known``; the message lists ``known``.
    """
    if value not in known:
        raise ValueError(f"{name}: unknown learner {value!r}; the table has {known}")


def _ordered_names(names: object, name: str) -> list:
    """``names`` as a list, refusing a single string and collections without an order (a
    set, a mapping), whose order, which decides the sign of every difference, could
    change from one run to the next."""
    if isinstance(names, str):
        raise TypeError(f"{name}: expected a sequence of learner names, got the string {names!r}")
    if isinstance(names, (set, frozenset, Mapping)) or not isinstance(names, Iterable):
        raise TypeError(
            f"{name}: expected a sequence of learner names in the order wanted (a list or a "
            f"tuple), got a {type(names).__name__}"
        )
    return list(names)


def select_learners(
    table: pd.DataFrame, chosen: Sequence[str] | None = None
) -> tuple[pd.DataFrame, list[str]]:
    """The learners to compare and the rows of the table that hold them.

    Parameters
    ----------
    table : pandas.DataFrame
        A tidy table from :func:`read_accuracies` or :func:`read_csv_scores`.
    chosen : sequence of str, optional
        At least two different learners of the table, in the order wanted; every learner by
        default, in order of first appearance.

    Returns
    -------
    rows : pandas.DataFrame
        The rows of ``table`` whose learner is one of ``chosen``, in the table's order.
    chosen : list of str
        The learners, in the order given.

    Raises
    ------
    ValueError
        If a learner is not in the table or is chosen twice, or fewer than two different
        learners are chosen (the argument is named ``learners`` in the message).
    TypeError
        If ``chosen`` is a single string, or a collection without an order (a set).
    """
    known = learners(table)
    chosen = known if chosen is None else _ordered_names(chosen, "learners")
    for name in chosen:
        check_learner(name, "learners", known)
    if len(set(chosen)) < 2:
        raise ValueError(f"learners: expected at least two different learners, got {chosen}")
    repeated = next((name for i, name in enumerate(chosen) if name in chosen[:i]), None)
    if repeated is not None:
        raise ValueError(f"learners: {repeated!r} is given twice; name each learner once")
    return table[table["learner"].isin(chosen)], chosen


def fold_differences(
    table: pd.DataFrame,
    a: str,
    b: str,
    *,
    higher_is_better: bool = True,
    scale: Literal["fraction", "percent", "raw"] = "fraction",
) -> tuple[np.ndarray, list[str]]:
    """Paired fold-level differences ``score(a) - score(b)`` for every data set.

    Parameters
    ----------
    table : pandas.DataFrame
        A tidy table from :func:`read_accuracies` or :func:`read_csv_scores`.
    a, b : str
        The two learners. Positive differences mean that ``a`` is better.
    higher_is_better : bool, default True
        True for scores such as accuracy or AUC; False for losses (RMSE, log-loss), whose
        differences are then ``score(b) - score(a)``, so that positive still means that
        ``a`` is better.
    scale : {"fraction", "percent", "raw"}, default "fraction"
        The scale of the table's scores: accuracies as fractions (a score outside [0, 1]
        is refused, as the tests refuse differences beyond 1: a table read with
        ``read_accuracies(as_fraction=False)`` needs ``"percent"``), as percentages (the
        differences are returned as fractions, what the tests take by default; a table
        whose scores all lie in [0, 1] is refused: those are fractions), or
        ``"raw"`` for any other score (the differences in its unit; pass ``scale="raw"``
        to the tests too).

    Returns
    -------
    x : numpy.ndarray, shape (q, n_folds)
        Differences as fractions (in the score's unit for ``scale="raw"``), one row per
        data set, folds in the order of their labels. A data set whose differences agree
        within the rounding error of a difference (``12 eps s``, ``s`` the largest magnitude
        of the two learners' scores on it;
        :func:`cvcompare._validation.constant_within_rounding`) gets their mean on every
        fold: constant, as the decimals it was read from are, so that the tests see no
        variance.
    datasets : list of str
        The data sets of the rows, in the order of their first appearance among ``a``'s
        rows of the table.

    Raises
    ------
    ValueError
        If a learner is unknown, ``a == b``, the two learners do not share the same folds on
        a data set, the data sets have different numbers of folds, a score of the two is
        not finite, a score of the table is not on ``scale``, a label of the two is empty,
        or a (learner, dataset, fold) of the two appears twice (the other learners' rows
        are not used, nor checked, but for the scale).
    TypeError
        If ``table`` is not a DataFrame, or a score of the two learners is not a real
        number (text, booleans).
    """
    higher_is_better = check_bool(higher_is_better, "higher_is_better")
    known = learners(table)
    for name, value in (("a", a), ("b", b)):
        check_learner(value, name, known)
    if a == b:
        raise ValueError(f"a, b: expected two different learners, got {a!r} twice")
    scale = check_choice(scale, "scale", ("fraction", "percent", "raw"))
    pair = table[table["learner"].isin([a, b])]
    _check_table(pair)
    # the scale of the whole table's scores (those that are numbers): percentages all within
    # [0, 1] are fractions, though two learners' alone may all lie there (error rates below 1%)
    numeric = pd.to_numeric(table["score"], errors="coerce").to_numpy(float)
    check_score_scale(numeric, "table: column 'score'", scale)
    paired = pair.set_index(["learner", "dataset", "fold"])["score"].unstack("learner")
    if paired.isna().any().any():
        gaps = paired[paired.isna().any(axis=1)]
        lacking = a if gaps[a].isna().iloc[0] else b
        unpaired = gaps.index[gaps[lacking].isna()][:3].tolist()
        raise ValueError(
            f"a, b: learners {a!r} and {b!r} do not have the same (dataset, fold) pairs: "
            f"{lacking!r} has no score for {len(gaps[gaps[lacking].isna()])} of the other's, "
            f"e.g. (dataset, fold) = {', '.join(map(str, unpaired))}; compare them on the "
            "folds both have: remove the others from the table"
        )
    # each data set's differences in the order of its fold labels, which may be numbered
    # per data set (0, ..., n - 1) or across them
    diff = (paired[a] - paired[b]).groupby(level="dataset", sort=False)
    datasets = list(dict.fromkeys(pair.loc[pair["learner"] == a, "dataset"]))
    counts = diff.size()
    if counts.nunique() > 1:
        usual = counts.mode().iloc[0]
        odd = counts[counts != usual]
        raise ValueError(
            f"table: the data sets have different numbers of folds ({sorted(set(counts))}): "
            f"{usual} on {len(counts) - len(odd)} of the {len(counts)}, but "
            f"{', '.join(f'{n} on {d!r}' for d, n in odd[:3].items())}"
            f"{' and others' if len(odd) > 3 else ''}; every data set needs the same "
            "cross-validation design: remove the data sets, or the folds, that differ"
        )
    x = np.stack([diff.get_group(d).to_numpy(dtype=float) for d in datasets])
    x = constant_within_rounding(x, pair_score_sizes(pair, a, b, datasets))
    x = x / (100.0 if scale == "percent" else 1.0)
    return (x if higher_is_better else -x) + 0.0, datasets  # + 0.0: no -0.0 (printed "-0")


def pair_score_sizes(table: pd.DataFrame, a: str, b: str, datasets: Sequence[str]) -> np.ndarray:
    """The largest magnitude of the two learners' scores on each data set.

    The ``s`` of the rounding tolerance of their differences (:func:`rounding_tolerance`),
    which is relative to the scores' size, as the rounding of floating point is; the scores
    of other learners do not enter it.

    Parameters
    ----------
    table : pandas.DataFrame
        A tidy table from :func:`read_accuracies` or :func:`read_csv_scores`.
    a, b : str
        The two learners.
    datasets : sequence of str
        The data sets, in the order of the sizes returned (e.g. from
        :func:`fold_differences`).

    Returns
    -------
    numpy.ndarray, shape (len(datasets),)
        In the unit of the table's scores.
    """
    pair = table[table["learner"].isin([a, b])]
    return pair["score"].abs().groupby(pair["dataset"]).max().reindex(datasets).to_numpy(float)


def mean_differences(x: np.ndarray, *, score_size: float | np.ndarray | None = None) -> np.ndarray:
    """Mean of the fold differences of every data set, with rounding noise removed.

    Accuracies are stored as binary approximations of decimals read from text or of ratios
    of counts, so fold differences that cancel exactly (``+0.025`` and ``-0.025``, or
    ``1/3 + 1/3 - 2/3``) can leave a mean of about ``1e-17`` instead of 0, which a rank
    test would count as a difference; and two data sets with the same mean difference, summed
    in another order, can get means that differ in the last bits, which a rank test would
    rank apart instead of as a tie (and then use an exact null distribution that ties make
    invalid). The floating-point error of the mean of ``n`` differences of scores in
    ``[-s, s]`` is within ``4 (n + 2) eps s`` (``eps`` the double-precision machine epsilon;
    two roundings per difference, ``n`` in the sum), with ``s = score_size`` of the data
    set. A mean within its tolerance of 0 is set to 0, and the magnitudes within the
    smaller of the two tolerances of the smallest magnitude of their group are set equal to
    it (their signs kept), so they tie; a group starts wherever a magnitude exceeds the
    group's smallest by more. No mean moves by more than its own tolerance: the scores of
    another data set, however large, do not blur it. Genuine differences of accuracies
    (ratios of counts) are many orders of magnitude larger.

    Parameters
    ----------
    x : numpy.ndarray, shape (q, n_folds)
        Fold differences, e.g. from :func:`fold_differences`.
    score_size : float or numpy.ndarray of shape (q,), optional
        The largest magnitude of the scores the differences come from, for all data sets or
        one per data set (:func:`cvcompare._validation.check_score_size`; by default 1, or a
        data set's largest ``|x|`` where larger): 1 for accuracies as fractions (or
        percentages divided by 100), the largest absolute score for scores on another
        scale (however small: 1e-13 for scores of 1e-13), whose rounding errors are
        relative to their size. Give one per data set where their scales differ (an RMSE
        of thousands on one, of hundredths on another): the tolerance of the largest would
        erase the differences of the smallest.

    Returns
    -------
    numpy.ndarray, shape (q,)
        The per-data-set means, the input of the signed-rank and sign tests.

    Raises
    ------
    TypeError
        If ``x`` or ``score_size`` holds values that are not real numbers.
    ValueError
        If ``x`` is not 2-D, has no folds or a value that is not finite, or ``score_size``
        is negative or not finite, or is not one number or one per data set.

    References
    ----------
    Higham, N. J. (2002), *Accuracy and Stability of Numerical Algorithms*, Sec. 4.2
    (error bound of recursive summation).
    """
    x = check_array(x, "x", ndim=2, min_size=1)
    sizes = check_score_size(x, score_size)
    means = x.mean(axis=1)
    tolerance = np.broadcast_to(rounding_tolerance(x.shape[1], sizes), means.shape)
    size = _tie_close(np.where(np.abs(means) <= tolerance, 0.0, np.abs(means)), tolerance)
    return np.where(means < 0, -size, size) + 0.0


def mean_score_matrix(
    table: pd.DataFrame, order: Sequence[str] | None = None
) -> tuple[np.ndarray, list[str], list[str]]:
    """Mean score over the folds of every learner on every data set.

    Parameters
    ----------
    table : pandas.DataFrame
        A tidy table from :func:`read_accuracies` or :func:`read_csv_scores` (or its rows
        of some learners, from :func:`select_learners`).
    order : sequence of str, optional
        The table's learners in the order of the columns; by default in order of first
        appearance.

    Returns
    -------
    scores : numpy.ndarray, shape (N, k)
        Mean score of each of ``k`` learners (columns) on each of ``N`` data sets (rows), the
        input of :func:`cvcompare.stats.friedman_test`. Sums are exactly rounded
        (:func:`math.fsum`), so learners whose fold scores have equal exact totals tie; and
        means of a data set within the rounding tolerance of :func:`mean_differences`
        (``4 (n + 2) eps s``, ``n`` the data set's number of folds, ``s`` the largest
        magnitude of the learner's scores on it) of the smallest of their group (the
        smaller of the two tolerances, :func:`mean_differences`) are set equal to
        it, so that accuracies with equal totals of correct predictions over different folds
        (``153/200`` as ``0.765`` and as ``0.7649999999999999``) tie.
    datasets, learners : list of str
        Row and column labels: data sets in the order of first appearance in the table,
        learners in ``order``.

    Raises
    ------
    ValueError
        If some learner has no result on some data set, or lacks a fold that another
        learner has on it (the means would then be over different folds); if ``order`` is
        not the table's learners, each once; if the table is empty, a score is not finite,
        a label is empty, or a (learner, dataset, fold) appears twice (it would be averaged
        in).
    TypeError
        If ``table`` is not a DataFrame, a score is not a real number (text, booleans), or
        ``order`` is a single string or a collection without an order (a set).
    """
    _check_table(table)
    groups = table.groupby(["learner", "dataset"], sort=False)["score"]
    # exactly rounded sums: equal multisets of fold scores give bit-identical means (a tie
    # for the rank tests) whatever the order of the folds
    means = (groups.agg(math.fsum) / groups.size()).unstack("learner")
    names = learners(table)
    if order is not None:
        order = _ordered_names(order, "order")
        if sorted(order) != sorted(names):
            raise ValueError(f"order: expected the table's learners {names}, got {order}")
        names = order
    datasets = list(dict.fromkeys(table["dataset"]))
    means = means.reindex(index=datasets, columns=names)
    if means.isna().any().any():
        gaps = means.isna().stack()
        learner, dataset = gaps[gaps].index[0][::-1]
        raise ValueError(
            f"table: learner {learner!r} has no result on data set {dataset!r}; rank the "
            "learners on the data sets they all have: remove the others from the table, or "
            "leave that learner out"
        )
    cover = table.groupby(["dataset", "fold"], sort=False)["learner"].nunique()
    if (cover < len(names)).any():
        dataset, fold = cover.index[np.argmax(cover.to_numpy() < len(names))]
        fold = fold.item() if isinstance(fold, np.generic) else fold
        rows = table[(table["dataset"] == dataset) & (table["fold"] == fold)]
        missing = next(name for name in names if name not in set(rows["learner"]))
        raise ValueError(
            f"table: learner {missing!r} has no score for fold {fold!r} of data set "
            f"{dataset!r}, which other learners have; the folds must be paired"
        )
    values = means.to_numpy(dtype=float)
    # each mean's rounding tolerance, from its own folds and scores: a data set (or learner)
    # of small scores (an RMSE of 1e-3) keeps differences that large scores would blur
    size = table["score"].abs().groupby([table["dataset"], table["learner"]]).max()
    size = size.unstack("learner").reindex(index=datasets, columns=names).to_numpy(float)
    n = table.groupby("dataset", sort=False)["fold"].nunique().reindex(datasets).to_numpy()
    tolerance = rounding_tolerance(n[:, None], size)
    tied = [_tie_close(row, tol) for row, tol in zip(values, tolerance, strict=True)]
    return np.array(tied), datasets, names


def _tie_close(values: np.ndarray, tolerance: float | np.ndarray) -> np.ndarray:
    """``values`` with those within ``tolerance`` (one, or one per value) of the smallest of
    their group set equal to it, so that they tie; a group starts wherever a value exceeds
    the group's smallest by more than the smaller of their two tolerances, so that no value
    moves by more than its own. With tolerances that differ, whether two values tie can
    depend on a third between them that starts a group of its own."""
    order = np.argsort(values, kind="stable")
    ranked = values[order]
    tolerance = np.broadcast_to(tolerance, values.shape)[order]
    tied = ranked.copy()
    smallest = 0  # the position of the current group's smallest value
    for i in range(1, ranked.size):
        if ranked[i] - tied[smallest] <= min(tolerance[i], tolerance[smallest]):
            tied[i] = tied[smallest]
        else:
            smallest = i
    out = np.empty_like(values)
    out[order] = tied
    return out
