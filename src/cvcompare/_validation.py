"""Input validation shared by every public function.

Each checker names the offending argument and says what was expected. Nothing is coerced
silently: a value that looks like a percentage where a fraction is expected is refused,
unless the caller states the scale explicitly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "rounding_tolerance",
    "constant_within_rounding",
    "check_score_size",
    "check_array",
    "check_bool",
    "check_real",
    "check_choice",
    "check_data_set_differences",
    "check_fraction_rope",
    "check_finite",
    "check_int",
    "check_non_negative",
    "check_positive",
    "check_probability",
    "check_rho",
    "check_rope",
    "check_scale",
    "check_scaled_rope",
    "check_score_scale",
    "check_test_size",
]

#: The correlation of the fold differences of 10-fold cross-validation, ``1/k``, taken
#: when none is given and the number of folds fits that design.
DEFAULT_RHO = 0.1

#: The region of practical equivalence of accuracies when none is given: one point.
DEFAULT_ROPE = (-0.01, 0.01)


def rounding_tolerance(n: Any, size: Any) -> Any:
    """The bound ``4 (n + 2) eps s`` on the rounding error of a mean of ``n`` values (or
    differences) of scores of magnitude at most ``s``: two roundings per difference (one
    reading each score, one subtracting), ``n`` in the sum (Higham 2002, Sec. 4.2). With
    ``n = 1``, ``12 eps s`` bounds how far one difference lies from its decimal value, and
    two differences equal in decimal from each other."""
    return 4 * (n + 2) * np.finfo(float).eps * size


def constant_within_rounding(x: np.ndarray, size: Any) -> np.ndarray:
    """``x`` with every row (along the last axis) whose values lie within the rounding
    error of one difference of each other (:func:`rounding_tolerance` with ``n = 1``, for
    scores of magnitude at most ``size``: one, or one per row) set to the row's mean.

    Differences equal in decimal (``0.81 - 0.80`` and ``0.71 - 0.70``, or percentages divided
    by 100) can differ in their last bits, which would give the correlated t-test a variance
    of rounding noise (about 1e-33) where the data have none: its probabilities would come
    from the noise. ``x`` itself is not changed.
    """
    spread = np.ptp(x, axis=-1)
    flat = (spread > 0) & (spread <= rounding_tolerance(1, size))
    return np.where(flat[..., None], x.mean(axis=-1, keepdims=True), x)


def check_score_size(x: np.ndarray, score_size: object) -> np.ndarray:
    """The magnitude of the scores that the fold differences ``x`` (rows along the last
    axis) come from, for their rounding tolerance (:func:`rounding_tolerance`).

    ``score_size`` where given (one number, or one per row of a 2-D ``x``); by default, per
    row, 1 (accuracies, and any score in [0, 1] such as an AUC) or the row's largest
    ``|x|`` where that is larger, which is all the differences tell of their scores.
    """
    if score_size is None:
        return np.maximum(1.0, np.abs(x).max(axis=-1))
    sizes = check_array(score_size, "score_size", ndim=(0, 1) if x.ndim == 2 else 0)
    if sizes.ndim == 1 and sizes.size != x.shape[0]:
        raise ValueError(
            f"score_size: expected one number or one per data set ({x.shape[0]}), got {sizes.size}"
        )
    if np.any(sizes < 0):
        raise ValueError(f"score_size: expected sizes of at least 0, got {sizes.min()!r}")
    return sizes


def check_array(
    x: object,
    name: str,
    *,
    ndim: int | Sequence[int] = 1,
    min_size: int | None = None,
    axis_names: Sequence[str] | None = None,
    allow_nan: bool = False,
) -> np.ndarray:
    """Return ``x`` as a float array after checking dimensions, size and finiteness.

    Parameters
    ----------
    x : array_like
        The values to check.
    name : str
        The argument name used in error messages.
    ndim : int or sequence of int, default 1
        Allowed numbers of dimensions.
    min_size : int, optional
        Minimum length along the last axis (e.g. the number of folds).
    axis_names : sequence of str, optional
        Names of the axes, used in error messages (e.g. ``("data sets", "folds")``).
    allow_nan : bool, default False
        Accept NaN (e.g. a blank cell); infinite values are refused all the same.

    Returns
    -------
    numpy.ndarray
        ``x`` as a float array, of the shape given.

    Raises
    ------
    TypeError
        If ``x`` is not real-valued: booleans, strings, complex numbers, dates and times.
    ValueError
        If the shape is wrong, the last axis is too short, any value is infinite or (unless
        ``allow_nan``) NaN, or
        ``x`` is a masked array with masked values (the mask would be dropped).
    """
    _refuse_non_numbers(x, name)
    if np.ma.is_masked(x):
        # numpy's masked arrays, and pandas' nullable arrays, whose missing values count
        what = "masked" if isinstance(x, np.ma.MaskedArray) else "missing"
        raise ValueError(
            f"{name}: found {int(np.ma.count_masked(x))} {what} value(s); remove those "
            "values or fill them first"
        )
    try:
        arr = np.asarray(x, dtype=float)
    except ValueError as exc:
        if "inhomogeneous" in str(exc):  # rows of different lengths
            raise ValueError(
                f"{name}: expected rows of equal length (a rectangular array), got rows of "
                f"lengths {_row_lengths(x)}"
            ) from None
        raise TypeError(f"{name}: expected an array of real numbers ({exc})") from None
    except TypeError as exc:
        raise TypeError(f"{name}: expected an array of real numbers ({exc})") from None
    allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
    if arr.ndim not in allowed:
        shape = f" ({' x '.join(axis_names)})" if axis_names else ""
        raise ValueError(
            f"{name}: expected a {'/'.join(map(str, allowed))}-D array{shape}, "
            f"got shape {arr.shape}"
        )
    if min_size is not None and (arr.ndim == 0 or arr.shape[-1] < min_size):
        what = axis_names[-1] if axis_names else "values"
        got = 0 if arr.ndim == 0 else arr.shape[-1]
        if min_size == 1:
            raise ValueError(f"{name}: expected a non-empty array ({what}), got none")
        raise ValueError(f"{name}: expected at least {min_size} {what}, got {got}")
    bad = np.isinf(arr) if allow_nan else ~np.isfinite(arr)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        value = "None (a missing value)" if _element(x, idx) is None else arr[idx]
        raise ValueError(
            f"{name}: all values must be finite, found {value} at index {idx} "
            f"({int(bad.sum())} non-finite value(s) in all)"
        )
    return arr


def _row_lengths(x: object) -> str:
    """The lengths of the rows of a ragged sequence, for its error message."""
    try:
        lengths = [len(row) for row in x]  # type: ignore[union-attr, arg-type]
    except TypeError:
        return "that differ"
    shown = ", ".join(map(str, lengths[:6]))
    return shown + (", ..." if len(lengths) > 6 else "")


def _element(x: object, idx: tuple[int, ...]) -> object:
    """The element of ``x`` at ``idx`` as given (``None`` stays ``None``, which NumPy reads
    as NaN)."""
    return np.asarray(x, dtype=object)[idx] if not isinstance(x, np.ndarray) else x[idx]


#: Values that NumPy would silently turn into real numbers: booleans and strings become 0/1
#: and numbers, complex numbers lose their imaginary part, dates and times become counts.
_NOT_REAL = (bool, np.bool_, str, bytes, complex, np.complexfloating, np.datetime64, np.timedelta64)
_NOT_REAL_KINDS = {
    "b": "booleans",
    "U": "strings",
    "S": "strings",
    "c": "complex numbers",
    "m": "time spans",
    "M": "dates",
}


def _is_not_real(value: object) -> bool:
    """Whether ``value`` is a boolean, string, complex number, date or time span, or a 0-d
    array of one, which ``float`` would silently turn into a real number."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        if value.dtype.kind == "O":
            return _is_not_real(value.item())
        return value.dtype.kind in _NOT_REAL_KINDS
    return isinstance(value, _NOT_REAL)


def _refuse_non_numbers(x: object, name: str) -> None:
    """Refuse booleans, strings, complex numbers, dates and time spans, which NumPy would
    silently turn into real numbers."""
    if isinstance(x, _NOT_REAL):
        raise TypeError(f"{name}: expected a real number, got {x!r} ({type(x).__name__})")
    if isinstance(x, np.ndarray):
        kinds = {x.dtype.kind} if x.dtype.kind != "O" else None
    else:
        kinds = None
    if kinds is None:
        try:
            raw = np.asarray(x, dtype=object).ravel()
        except (TypeError, ValueError):
            return
        if raw.size > 100_000:  # large inputs: inspect the dtype NumPy infers instead
            kinds = {np.asarray(x).dtype.kind}
        else:
            for value in raw:
                if isinstance(value, _NOT_REAL):
                    raise TypeError(
                        f"{name}: expected an array of real numbers, found {value!r} "
                        f"({type(value).__name__}); booleans, strings, complex numbers, "
                        "dates and times are refused"
                    )
            return
    refused = sorted(kinds & _NOT_REAL_KINDS.keys())
    if refused:
        raise TypeError(
            f"{name}: expected an array of real numbers, got an array of "
            f"{_NOT_REAL_KINDS[refused[0]]}"
        )


def check_data_set_differences(x: object, scale: str) -> np.ndarray:
    """Check one difference per data set, for a test across data sets, on ``scale``.

    ``scale="raw"`` accepts any finite real numbers unchanged (scores that are not
    accuracies, or simulated differences). One data set is allowed: the posteriors and
    p-values are defined for it.

    Parameters
    ----------
    x : array_like, shape (q,)
        One difference per data set (positive differences favour the first learner).
    scale : {"fraction", "percent", "raw"}
        The scale of ``x`` (:func:`check_scale`).

    Returns
    -------
    numpy.ndarray, shape (q,)
        The differences as fractions (``"raw"``: as given).

    Raises
    ------
    TypeError
        If ``x`` holds values that are not real numbers.
    ValueError
        If ``scale`` is not one of the three, ``x`` is not 1-D, empty or not finite, or
        its values lie outside the range of ``scale``.
    """
    scale = check_choice(scale, "scale", ("fraction", "percent", "raw"))
    arr = check_array(x, "x", ndim=1, min_size=1, axis_names=("data sets",))
    return arr if scale == "raw" else check_scale(arr, "x", scale=scale)


def check_real(value: object, name: str, expected: str = "a real number") -> float:
    """``float(value)`` for a real number; booleans, strings (even ``"0.5"``), complex numbers,
    dates and times are refused, as are 0-d arrays of them (``np.array(True)``).

    NaN and infinite values are accepted.

    Parameters
    ----------
    value : object
        The value to check.
    name : str
        The argument name used in error messages.
    expected : str, default "a real number"
        What was expected, as the error message states it.

    Returns
    -------
    float
        ``float(value)``.

    Raises
    ------
    TypeError
        If ``value`` is a boolean, string, complex number, date or time, or a 0-d array of
        one, or ``float`` refuses it.
    """
    if _is_not_real(value):
        raise TypeError(f"{name}: expected {expected}, got {value!r} ({type(value).__name__})")
    try:
        return float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected {expected}, got {value!r}") from None


RAW_LIMIT = 1e150
"""The largest magnitude of a raw score or difference (and the inverse of the smallest
non-zero one): the t-tests square the differences, and squares of magnitudes beyond
``1e154`` overflow double precision (below ``1e-154`` they lose digits)."""


def _check_raw_magnitude(arr: np.ndarray, name: str, limit: float = RAW_LIMIT) -> None:
    """Refuse raw values that are neither 0 nor of a magnitude within [1 / :data:`RAW_LIMIT`,
    ``limit``]."""
    magnitude = np.abs(arr)
    odd = magnitude[(magnitude > limit) | ((magnitude > 0) & (magnitude < 1 / RAW_LIMIT))]
    if odd.size:
        raise ValueError(
            f"{name}: raw values must be 0 or of magnitude between {1 / RAW_LIMIT:g} and "
            f"{limit:g}, whose squares double precision holds, found {odd[0]:g}; "
            "give them in another unit"
        )


def check_scale(arr: np.ndarray, name: str, *, scale: str = "fraction") -> np.ndarray:
    """Check that accuracies or their differences are on the stated scale.

    Parameters
    ----------
    arr : numpy.ndarray
        Accuracies (in [0, 1]) or differences of accuracies (in [-1, 1]).
    name : str
        The argument name used in error messages.
    scale : {"fraction", "percent", "raw"}, default "fraction"
        ``"fraction"``: values must lie in [-1, 1]; ``"percent"``: values in [-100, 100]
        are divided by 100; ``"raw"``: any score that is not an accuracy (AUC, F1, RMSE,
        log-loss, ...), returned unchanged in its own unit, each 0 or of a magnitude
        within [1 / :data:`RAW_LIMIT`, :data:`RAW_LIMIT`].

    Returns
    -------
    numpy.ndarray
        The values as fractions (``"raw"``: as given), of the shape of ``arr``.

    Raises
    ------
    ValueError
        If a value lies outside the range of ``scale``, or ``scale`` is not one of the
        three.
    """
    if scale == "raw":
        _check_raw_magnitude(arr, name)
        return arr
    if scale == "fraction":
        if np.any(np.abs(arr) > 1):
            raise ValueError(
                f"{name}: values must be fractions in [-1, 1] (accuracies or their "
                f"differences), found max |value| = {np.max(np.abs(arr)):g}; if these are "
                "percentages pass scale='percent', if they are of a score that is not an "
                "accuracy (AUC, F1, RMSE, log-loss, ...) pass scale='raw'"
            )
        return arr
    if scale == "percent":
        if np.any(np.abs(arr) > 100):
            raise ValueError(
                f"{name}: percentages must lie in [-100, 100], found max |value| = "
                f"{np.max(np.abs(arr)):g}"
            )
        return arr / 100.0
    raise ValueError(f"scale: expected 'fraction', 'percent' or 'raw', got {scale!r}")


def check_score_scale(scores: np.ndarray, name: str, scale: str) -> None:
    """Check that scores themselves (not their differences) are on the stated scale.

    Parameters
    ----------
    scores : numpy.ndarray
        The scores of a whole table (a part of one, such as two learners' percentages, may
        all lie in [0, 1]: error rates below 1%), of any shape.
    name : str
        The name used in error messages.
    scale : {"fraction", "percent", "raw"}
        ``"fraction"``: accuracies in [0, 1]; ``"percent"``: in [0, 100], and not all of
        them in [0, 1] (those are fractions, which a division by 100 would shrink
        silently); ``"raw"``: any score 0 or of a magnitude within
        [1 / :data:`RAW_LIMIT`, :data:`RAW_LIMIT` / 2] (so that differences stay within
        :data:`RAW_LIMIT`).

    Raises
    ------
    ValueError
        If a score lies outside the range of ``scale``, or, for ``"percent"``, all of them
        lie in [0, 1].
    """
    if scale == "raw":  # half the limit: the differences of two scores stay within it
        _check_raw_magnitude(scores, name, RAW_LIMIT / 2)
        return
    top = 1 if scale == "fraction" else 100
    outside = (scores < 0) | (scores > top)
    if np.any(outside):
        raise ValueError(
            f"{name} holds {scores[outside][0]:g}, outside [0, {top}] of scale={scale!r}; "
            "pass scale='percent' for percentages, or scale='raw' for a score that is not "
            "an accuracy (AUC, F1, RMSE, log-loss, ...)"
        )
    if scale == "percent" and np.all(scores <= 1):
        raise ValueError(
            f"{name} holds only values in [0, 1] although scale='percent'; these look like "
            "fractions (scale='fraction'); percentages that all lie below 1 (error rates "
            "under 1%) are given as scale='raw', with the rope in percentage points"
        )


def check_rope(rope: object, name: str = "rope") -> tuple[float, float]:
    """Check a region of practical equivalence and return it as ``(low, high)``.

    Parameters
    ----------
    rope : object
        An interval ``(low, high)`` of two real numbers with ``low <= 0 <= high`` and
        finite ends; ``(0, 0)`` is allowed and means no rope.
    name : str, default "rope"
        The argument name used in error messages.

    Returns
    -------
    tuple of float
        ``(low, high)``.

    Raises
    ------
    ValueError
        If ``rope`` is not a pair of real numbers (a set has no order), an end is not
        finite, or the interval does not contain 0.
    """
    if isinstance(rope, (set, frozenset, dict)):  # no order: which end is which?
        raise ValueError(
            f"{name}: expected an interval (low, high) of two numbers in order, got a "
            f"{type(rope).__name__} {rope!r}"
        )
    try:
        low, high = (check_real(v, name, "an interval (low, high) of two numbers") for v in rope)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise ValueError(
            f"{name}: expected an interval (low, high) of two numbers, got {rope!r}"
        ) from None
    if not (np.isfinite(low) and np.isfinite(high)):
        raise ValueError(f"{name}: both ends must be finite, got ({low}, {high})")
    if not low <= 0.0 <= high:
        raise ValueError(
            f"{name}: expected an interval (low, high) with low <= 0 <= high, got ({low}, {high})"
        )
    return low, high


def check_probability(
    p: object, name: str, *, open_low: bool = True, open_high: bool = True
) -> float:
    """Check a probability-like scalar (e.g. ``alpha``) and return it as a float.

    Parameters
    ----------
    p : object
        The value to check.
    name : str
        The argument name used in error messages.
    open_low : bool, default True
        Refuse 0.
    open_high : bool, default True
        Refuse 1.

    Returns
    -------
    float
        ``p`` as a float.

    Raises
    ------
    TypeError
        If ``p`` is not a real number (:func:`check_real`).
    ValueError
        If ``p`` is NaN or lies outside the interval.
    """
    interval = f"{'(' if open_low else '['}0, 1{')' if open_high else ']'}"
    val = check_real(p, name, f"a number in {interval}")
    low_ok = val > 0 if open_low else val >= 0
    high_ok = val < 1 if open_high else val <= 1
    if not (low_ok and high_ok and np.isfinite(val)):
        raise ValueError(f"{name}: expected a number in {interval}, got {val}")
    return val


def check_rho(rho: object, n_folds: int | None = None, name: str = "rho") -> float:
    """Check the correlation ``rho`` of the fold differences, a number in [0, 1).

    ``rho = n_test / n_total`` (``1/k`` for k-fold cross-validation; Nadeau & Bengio 2003).

    Parameters
    ----------
    rho : object
        The correlation, or ``None`` for :data:`DEFAULT_RHO` (only when ``n_folds`` is
        given).
    n_folds : int, optional
        The number of fold results per data set. With ``rho=None``, the default
        :data:`DEFAULT_RHO` stands for 10-fold cross-validation: ``m`` runs of it fit only
        if ``n_folds`` is a multiple of 10; any other count means another design, whose
        ``rho`` must be given.
    name : str, default "rho"
        The argument name used in error messages.

    Returns
    -------
    float
        ``rho``, or :data:`DEFAULT_RHO`.

    Raises
    ------
    TypeError
        If ``rho`` is not a real number, or is ``None`` while ``n_folds`` is ``None``.
    ValueError
        If ``rho`` lies outside [0, 1), or is ``None`` while ``n_folds`` is not a multiple
        of 10.
    """
    if rho is not None or n_folds is None:
        return check_probability(rho, name, open_low=False)
    if n_folds % round(1 / DEFAULT_RHO):
        raise ValueError(
            f"{name}: the default {DEFAULT_RHO} assumes 10-fold cross-validation, but the data "
            f"sets have {n_folds} fold results each; state it as n_test / n_total (1/k for "
            "k-fold cross-validation)"
        )
    return DEFAULT_RHO


def check_test_size(alpha: object, name: str = "alpha") -> float:
    """Check the size of a test, in (0, 0.5): a size of 1/2 or more would reject more often
    than it keeps the null hypothesis.

    Parameters
    ----------
    alpha : object
        The size to check.
    name : str, default "alpha"
        The argument name used in error messages.

    Returns
    -------
    float
        ``alpha`` as a float.

    Raises
    ------
    TypeError
        If ``alpha`` is not a real number (:func:`check_real`).
    ValueError
        If ``alpha`` lies outside (0, 0.5) or is NaN.
    """
    val = check_real(alpha, name, "a test size in (0, 0.5)")
    if not 0 < val < 0.5:
        raise ValueError(f"{name}: expected a test size in (0, 0.5), got {val}")
    return val


def check_two_sided_threshold(t: object, name: str = "threshold") -> float:
    """Check a decision probability in [0.5, 1): one above which either of two learners can
    be declared better, but never both.

    Parameters
    ----------
    t : object
        The probability to check.
    name : str, default "threshold"
        The argument name used in error messages.

    Returns
    -------
    float
        ``t`` as a float.

    Raises
    ------
    TypeError
        If ``t`` is not a real number (:func:`check_real`).
    ValueError
        If ``t`` lies outside [0.5, 1) or is NaN.
    """
    val = check_real(t, name, "a number in [0.5, 1)")
    if not 0.5 <= val < 1:
        raise ValueError(f"{name}: expected a number in [0.5, 1), got {val}")
    return val


def check_bool(value: object, name: str) -> bool:
    """Check a flag: True or False (a Python or NumPy bool, not ``1`` or ``"yes"``).

    Parameters
    ----------
    value : object
        The value to check.
    name : str
        The argument name used in error messages.

    Returns
    -------
    bool
        ``value`` as a Python bool.

    Raises
    ------
    TypeError
        If ``value`` is not a bool.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected True or False, got {value!r}")
    return bool(value)


def check_int(v: object, name: str, *, minimum: int | None = None) -> int:
    """Check an integer argument (not a bool, not a float) and an optional minimum.

    Parameters
    ----------
    v : object
        The value to check: a Python or NumPy integer.
    name : str
        The argument name used in error messages.
    minimum : int, optional
        The smallest value allowed; no bound by default.

    Returns
    -------
    int
        ``v`` as a Python int.

    Raises
    ------
    TypeError
        If ``v`` is a bool or not an integer.
    ValueError
        If ``v`` is below ``minimum``.
    """
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{name}: expected an integer, got {v!r}")
    if minimum is not None and v < minimum:
        raise ValueError(f"{name}: expected an integer >= {minimum}, got {v}")
    return int(v)


def check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    """Check that an option is one of ``choices`` and return it.

    Parameters
    ----------
    value : object
        The option given.
    name : str
        The argument name used in error messages.
    choices : sequence of str
        The allowed options.

    Returns
    -------
    str
        ``value``.

    Raises
    ------
    ValueError
        If ``value`` is not a string among ``choices``; the message names the argument
        and lists the allowed values.
    """
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name}: expected one of {', '.join(map(repr, choices))}, got {value!r}")
    return value


def check_finite(value: object, name: str) -> float:
    """Check a finite real number (not a bool) and return it as a float.

    Parameters
    ----------
    value : object
        The value to check.
    name : str
        The argument name used in error messages.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    TypeError
        If ``value`` is not a real number (:func:`check_real`).
    ValueError
        If ``value`` is NaN or infinite.
    """
    val = check_real(value, name, "a finite number")
    if not np.isfinite(val):
        raise ValueError(f"{name}: expected a finite number, got {val}")
    return val


def check_positive(value: object, name: str) -> float:
    """Check a strictly positive, finite real number (not a bool) and return it as a float.

    Parameters
    ----------
    value : object
        The value to check.
    name : str
        The argument name used in error messages.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    TypeError
        If ``value`` is not a real number (:func:`check_real`).
    ValueError
        If ``value`` is NaN, infinite, zero or negative.
    """
    val = check_real(value, name, "a positive number")
    if not (np.isfinite(val) and val > 0):
        raise ValueError(f"{name}: expected a positive finite number, got {val}")
    return val


def check_non_negative(value: object, name: str) -> float:
    """Check a finite real number >= 0 (not a bool) and return it as a float.

    Parameters
    ----------
    value : object
        The value to check.
    name : str
        The argument name used in error messages.

    Returns
    -------
    float
        ``value`` as a float.

    Raises
    ------
    TypeError
        If ``value`` is not a real number (:func:`check_real`).
    ValueError
        If ``value`` is NaN, infinite or negative.
    """
    val = check_real(value, name, "a non-negative number")
    if not (np.isfinite(val) and val >= 0):
        raise ValueError(f"{name}: expected a non-negative finite number, got {val}")
    return val


def check_fraction_rope(rope: object, name: str = "rope") -> tuple[float, float]:
    """Check a rope on the fraction scale of accuracies: as :func:`check_rope`, and ``|end| < 1``.

    Differences of accuracies lie in [-1, 1], so a rope end of magnitude 1 or more covers
    every possible difference: such a rope is almost certainly given in percent and is
    refused rather than used.

    Parameters
    ----------
    rope : object
        An interval ``(low, high)`` of fractions of accuracy, ``low <= 0 <= high``.
    name : str, default "rope"
        The argument name used in error messages.

    Returns
    -------
    tuple of float
        ``(low, high)``.

    Raises
    ------
    ValueError
        As :func:`check_rope`, or if an end has magnitude 1 or more.
    """
    low, high = check_rope(rope, name)
    if max(-low, high) >= 1:
        raise ValueError(
            f"{name}: the ends must be fractions of accuracy with |end| < 1, got ({low}, {high}); "
            "(-0.01, 0.01) is one accuracy point"
        )
    return low, high


def check_scaled_rope(rope: object, scale: str, name: str = "rope") -> tuple[float, float]:
    """Check a rope given for differences on ``scale``.

    Parameters
    ----------
    rope : object
        An interval ``(low, high)`` with ``low <= 0 <= high``: in the unit of the scores
        when ``scale="raw"`` (:func:`check_rope`); otherwise on the fraction scale of
        accuracies (:func:`check_fraction_rope`), also for percentages. None for the
        default, one point of accuracy, ``(-0.01, 0.01)``, which raw scores have not.
    scale : {"fraction", "percent", "raw"}
        The scale of the differences the rope is for; any value other than ``"raw"`` is
        taken as an accuracy scale.
    name : str, default "rope"
        The argument name used in error messages.

    Returns
    -------
    tuple of float
        ``(low, high)``.

    Raises
    ------
    ValueError
        As :func:`check_rope` or :func:`check_fraction_rope`, or if ``rope`` is None for
        ``scale="raw"``.
    """
    if rope is None:
        if scale == "raw":
            raise ValueError(
                f"{name}: scale='raw' needs a rope in the score's unit (the default, "
                "(-0.01, 0.01), is one point of accuracy)"
            )
        rope = DEFAULT_ROPE
    return check_rope(rope, name) if scale == "raw" else check_fraction_rope(rope, name)
