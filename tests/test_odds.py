"""Posterior odds and grades of evidence (Corani et al. 2017, Sec. 4.6 and Table 3)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cvcompare.stats.odds import evidence_grade, posterior_odds


def test_odds_values():
    assert posterior_odds(0.6, 0.2) == pytest.approx(3.0, rel=1e-15)
    assert posterior_odds(0.0, 0.5) == 0.0
    assert posterior_odds(0.3, 0.0) == math.inf
    assert posterior_odds(0.0, 0.0) == 1.0  # no support for either: no evidence


@given(st.floats(1e-12, 1.0), st.floats(1e-12, 1.0))
def test_odds_are_reciprocal(p_a, share):
    p_b = share * (1.0 - p_a)  # two disjoint hypotheses: p_a + p_b <= 1
    if p_b == 0.0:
        return
    assert posterior_odds(p_a, p_b) * posterior_odds(p_b, p_a) == pytest.approx(1.0)
    assert posterior_odds(p_a, p_b) == pytest.approx(p_a / p_b)


def test_odds_of_hypotheses_that_are_not_disjoint_are_refused():
    # p(left) = 0.7 and p(rope) = 0.6 cannot both hold: their sum is 1.3
    with pytest.raises(ValueError, match=r"p_a, p_b: expected the probabilities of two disjoint"):
        posterior_odds(0.7, 0.6)
    assert posterior_odds(0.7, 0.3 + 1e-15) == pytest.approx(0.7 / 0.3)  # rounding of a sum


@pytest.mark.parametrize(
    ("odds", "grade"),
    [
        (0.0, "none"),
        (0.5, "none"),
        (1.0, "none"),
        (1.0001, "weak"),
        (3.0, "weak"),
        (3.0001, "positive"),
        (20.0, "positive"),
        (20.0001, "strong"),
        (math.inf, "strong"),
    ],
)
def test_grades_follow_table_3(odds, grade):
    # Table 3: 1-3 weak, 3-20 positive, > 20 strong; the text counts "> 3" as positive and
    # "> 20" as strong, so each bound belongs to the lower grade.
    assert evidence_grade(odds) == grade


@given(st.floats(0.0, 1e6), st.floats(0.0, 1e6))
def test_grades_are_monotone(a, b):
    order = ["none", "weak", "positive", "strong"]
    lo, hi = sorted((a, b))
    assert order.index(evidence_grade(lo)) <= order.index(evidence_grade(hi))


@pytest.mark.parametrize(("p_a", "p_b"), [(1.1, 0.5), (0.5, -0.1), (float("nan"), 0.5)])
def test_bad_probabilities(p_a, p_b):
    with pytest.raises(ValueError, match="p_a|p_b"):
        posterior_odds(p_a, p_b)


def test_bad_odds():
    with pytest.raises(ValueError, match="odds"):
        evidence_grade(-1.0)
    with pytest.raises(ValueError, match="odds"):
        evidence_grade(float("nan"))
    with pytest.raises(TypeError, match="odds"):
        evidence_grade("strong")
