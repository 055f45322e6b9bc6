"""The command line that reruns a report: ``cvcompare report`` with the file and every
setting that the report was written with, quoted for a POSIX shell."""

from __future__ import annotations

import shlex

from .analysis import ComparisonResults
from .sentences import rope_half_width


def _rope_option(rope: tuple[float, float]) -> list[str]:
    """The command-line option giving ``rope``: its half-width where it is symmetric, its
    ends otherwise (``--rope=LOW,HIGH``, one word, since LOW starts with a minus)."""
    half = rope_half_width(rope)
    if half is None:
        return [f"--rope={float(rope[0])!r},{float(rope[1])!r}"]
    return ["--rope", repr(half)]


def _learners_option(learners: list[str]) -> list[str]:
    """The command-line words giving ``learners`` in order: ``--learners A B``, with a name
    that starts with a minus as its own word ``--learners=-NAME`` (the option extends its
    list), which would otherwise be read as an option."""
    words: list[str] = []
    listing = False
    for name in learners:
        if name.startswith("-"):
            words.append(f"--learners={name}")
            listing = False
        else:
            if not listing:
                words.append("--learners")
                listing = True
            words.append(name)
    return words


def rerun_command(results: ComparisonResults) -> str:
    """The ``cvcompare report`` command, one line, that writes this report again."""
    s = results.settings
    source = results.source or "RESULTS.csv"
    args = [
        "cvcompare",
        "report",
        # a relative path that starts with a minus would be read as an option
        f"./{source}" if source.startswith("-") else source,
        "-o",
        "DIR",
        # an assumed rho is left to be assumed again, so that the report says the same
        *(() if s.rho_assumed else ("--rho", repr(float(s.rho)))),
        *_rope_option(s.rope),
        "--alpha",
        repr(float(s.alpha)),
        "--seed",
        str(s.seed),
        "--n-samples",
        str(s.n_samples),
        *(results.reading or ("--scale", s.scale)),
        *_learners_option(results.learners),
    ]
    if not s.higher_is_better:
        args.append("--lower-is-better")
    if not s.hierarchical:
        args.append("--no-hierarchical")
    if s.zero_method != "drop":
        args += ["--zero-method", s.zero_method]
    return " ".join(shlex.quote(a) for a in args)
