"""cvcompare: statistical tests for comparing cross-validated learners."""

__version__ = "0.1.0"
