"""Figures: one function per paper figure, and the critical-difference diagram."""
