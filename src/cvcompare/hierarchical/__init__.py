"""Bayesian hierarchical model for comparing two learners on multiple data sets.

* :func:`fit_hierarchical` - fit the model of Corani et al. (2017) with Stan;
* :class:`HierarchicalResult` - posterior draws, ``probs()`` for the next data set,
  per-data-set probabilities, shrinkage estimates, posterior odds, diagnostics;
* :mod:`.diagnostics` - rank-normalised split R-hat, bulk / tail ESS, E-BFMI;
* :mod:`.runners` - the same Stan program run natively (compiled with PyStan's Stan), through
  cmdstanpy or through PyStan 3; :mod:`.native` builds and runs the native executable,
  :mod:`.cache` keeps the builds once per machine;
* :func:`fit_with_remedy` - the same, refitted with a longer, finer run where the first fit
  fails its diagnostics (:class:`RefitRecord` says how the kept fit was run);
* :mod:`.priors` - scaling of the data and the priors' bounds;
* :mod:`.layout` - how the Stan program lays out its parameters for the sampler (offsets,
  multipliers, centred data sets), chosen from the data.

References
----------
Corani, G., Benavoli, A., Demsar, J., Mangili, F. & Zaffalon, M. (2017). Statistical
comparison of classifiers through Bayesian hierarchical modelling. Machine Learning 106,
1817-1837.
"""

from .diagnostics import (
    ConvergenceWarning,
    HierarchicalDiagnostics,
    ess_bulk,
    ess_tail,
    mcse_probability,
    rhat,
)
from .fit import fit_hierarchical
from .remedy import RefitRecord, fit_with_remedy
from .result import HierarchicalResult, next_dataset_probs, next_dataset_votes
from .runners import get_runner

__all__ = [
    "ConvergenceWarning",
    "HierarchicalDiagnostics",
    "HierarchicalResult",
    "RefitRecord",
    "ess_bulk",
    "ess_tail",
    "fit_hierarchical",
    "fit_with_remedy",
    "get_runner",
    "mcse_probability",
    "next_dataset_probs",
    "next_dataset_votes",
    "rhat",
]
