"""One function per paper figure, and one laid out by its settings, drawn from an
experiment's results.

Every module of this package registers its figure functions in :data:`FIGURES` (see
:mod:`._registry` for the contract); the modules are imported here, so a new module is
found without editing this file.
"""

import importlib
import pkgutil

from cvcompare.plots.figures._registry import (
    FIGURES,
    READS,
    FigureReads,
    figure_settings,
    reads_of,
    register_figure,
    select,
)

for _module in pkgutil.iter_modules(__path__):
    if not _module.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = [
    "FIGURES",
    "READS",
    "FigureReads",
    "figure_settings",
    "reads_of",
    "register_figure",
    "select",
]
