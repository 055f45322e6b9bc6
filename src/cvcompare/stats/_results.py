"""Shared base for the results of Bayesian comparisons of two learners.

A Bayesian comparison ends in three posterior probabilities: the first learner is
practically worse (``p_left``), practically equivalent (``p_rope``) or practically better
(``p_right``) than the second. The base class below turns them into a tuple and a
decision, so that every Bayesian test of the package reports them the same way.

References
----------
Benavoli, A., Corani, G., Demsar, J. & Zaffalon, M. (2017). Time for a change: a tutorial
for comparing multiple classifiers through Bayesian analysis. JMLR 18(77), Sec. 3.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

import numpy as np

from cvcompare._validation import check_probability

__all__ = ["BayesianDecisionMixin", "ReadOnlyArrays", "region_counts"]

Decision = Literal["left", "rope", "right", "none"]


class ReadOnlyArrays:
    """Mixin of the frozen result dataclasses that hold NumPy arrays: each array field is
    kept as a read-only view, so that a result cannot be changed through its arrays any
    more than through its fields (the arrays the result was built from are not touched)."""

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            if isinstance(value, np.ndarray) and value.flags.writeable:
                view = value.view()
                view.flags.writeable = False
                object.__setattr__(self, field.name, view)

    def __setstate__(self, state: dict) -> None:
        """Unpickled or deep-copied (which do not call ``__post_init__``): read-only again."""
        self.__dict__.update(state)
        self.__post_init__()


def region_counts(values: np.ndarray, rope: tuple[float, float]) -> np.ndarray:
    """How many of ``values`` (along the first axis) lie left of, inside and right of the
    rope ``(low, high)``, its ends counting as inside: shape ``(3,) + values.shape[1:]``.

    The one rule of the package's regions: the Bayesian sign test's counts (Benavoli et al.
    2017, Sec. 3.1), the hierarchical model's posterior shares and the true differences of
    a simulation.
    """
    low, high = rope
    left = np.count_nonzero(values < low, axis=0)
    right = np.count_nonzero(values > high, axis=0)
    return np.stack([left, len(values) - left - right, right])


class BayesianDecisionMixin:
    """Mixin giving ``probs()`` and ``decision()`` to a result with three probabilities.

    Subclasses (usually frozen dataclasses) must define the attributes ``p_left``,
    ``p_rope`` and ``p_right``: the posterior probabilities that the mean difference
    lies left of, inside and right of the region of practical equivalence.
    """

    p_left: float
    p_rope: float
    p_right: float

    def probs(self) -> tuple[float, float, float]:
        """Return ``(p_left, p_rope, p_right)``.

        Returns
        -------
        tuple of float
            The posterior probabilities that the first learner is practically worse than,
            practically equivalent to and practically better than the second.
        """
        return (float(self.p_left), float(self.p_rope), float(self.p_right))

    def decision(self, threshold: float = 0.95) -> Decision:
        """Return the region whose posterior probability exceeds ``threshold``.

        Parameters
        ----------
        threshold : float, default 0.95
            Probability in (0, 1) above which a region is declared; the default 0.95
            is the one used by Benavoli et al. (2017).

        Returns
        -------
        {"left", "rope", "right", "none"}
            ``"none"`` when no region is probable enough. With ``threshold >= 0.5`` at most
            one region can qualify; below 0.5 the most probable qualifying region is
            returned.

        Raises
        ------
        TypeError, ValueError
            If ``threshold`` is not a number in (0, 1).
        """
        threshold = check_probability(threshold, "threshold")
        names: tuple[Decision, Decision, Decision] = ("left", "rope", "right")
        best = max(range(3), key=lambda i: self.probs()[i])
        return names[best] if self.probs()[best] > threshold else "none"
