"""Widths of texts and their wrapping to a width, measured without drawing a figure.

Plots lay out learners' names, which may be long (``RandomForest(n_estimators=500)``): they
measure them with the font's metrics (:class:`~matplotlib.textpath.TextToPath`, any
backend) and break them into lines that fit.
"""

from __future__ import annotations

import re

from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

__all__ = ["text_width", "wrap_text"]

#: Measures texts with the fonts' metrics, in points, without a figure.
_PATHS = TextToPath()

#: The places a line may break, from the best: after spaces, after the punctuation of
#: learners' names, between any two characters.
_BREAKS = (re.compile(r"\S*\s*"), re.compile(r"[^(,=_/-]*[(,=_/-]*"), re.compile(r"."))


def text_width(text: str, size: object = "medium") -> float:
    """Width in points of the widest line of ``text`` in the default font at ``size``.

    Parameters
    ----------
    text : str
        The text, lines separated by ``"\\n"``.
    size : float or str
        A font size in points or a relative size (``"small"``, ``"large"``, ...).

    Returns
    -------
    float

    Examples
    --------
    >>> text_width("ab") > text_width("a") > 0.0
    True
    """
    prop = FontProperties(size=size)
    # advance widths, as text is laid out: spaces count, glyphs' side bearings too
    return max(
        _PATHS.get_text_width_height_descent(line, prop, ismath=False)[0]
        for line in text.split("\n")
    )


def wrap_text(text: str, width: float, size: object = "medium") -> str:
    """Break ``text`` into lines no wider than ``width`` points where it can be broken.

    Lines break after spaces; a word wider than ``width`` is broken after the punctuation
    of learners' names (``( , = _ / -``), and a piece still wider between characters.

    Parameters
    ----------
    text : str
        The text; its lines (separated by ``"\\n"``) are broken one by one.
    width : float
        The widest a line may be, in points.
    size : float or str
        The font size, as for :func:`text_width`.

    Returns
    -------
    str
        The lines joined by ``"\\n"`` (``text`` itself when it fits).

    Examples
    --------
    >>> wrap_text("RandomForest(n_estimators=500) better", 100.0)
    'RandomForest(n_\\nestimators=500)\\nbetter'
    """
    lines = (line.rstrip() for part in text.split("\n") for line in _wrap(part, width, size, 0))
    return "\n".join(lines)


def _wrap(text: str, width: float, size: object, level: int) -> list[str]:
    """Lines of ``text`` broken at the places of ``_BREAKS[level]`` and, for a piece too
    wide on a line of its own, at those of the next levels; the last line keeps its
    trailing spaces (the next piece may follow it)."""
    lines: list[str] = []
    line = ""
    for piece in _BREAKS[level].findall(text):
        if text_width((line + piece).rstrip(), size) <= width:
            line += piece
            continue
        if line.strip():
            lines.append(line.rstrip())
        line = piece.lstrip()  # a new line does not start with the spaces of its break
        if level + 1 < len(_BREAKS) and text_width(line.rstrip(), size) > width:
            *full, line = _wrap(line, width, size, level + 1)
            lines += full
    if line.strip() or not lines:
        lines.append(line)
    return lines
