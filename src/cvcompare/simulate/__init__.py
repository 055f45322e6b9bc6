"""Simulated comparisons of two learners with a known difference of accuracy.

* :mod:`.deltas` - distributions of the true differences ``delta_i``;
* :mod:`.generators` - binary data for naive Bayes / zeroR, bivariate normal accuracies;
* :mod:`.classifiers` - naive Bayes and zeroR from counts, vectorised over folds;
* :mod:`.cv` - paired, repeated, stratified cross-validation;
* :mod:`.friedman`, :mod:`.pruned_tree` - Friedman-function data, LDA vs CART (1-SE);
* :mod:`.direct` - accuracies drawn directly, without cross-validation;
* :mod:`.scenario` - one replication of an experiment's scenario.
"""

from .classifiers import ZERO_R, fold_correct_counts
from .cv import PairedCVResult, paired_cv_binary, paired_cv_estimators, stratified_fold_ids
from .deltas import (
    CauchyDelta,
    DeltaDistribution,
    FixedDelta,
    GaussianDelta,
    GaussianMixtureDelta,
    delta_distribution,
)
from .friedman import (
    FriedmanSetting,
    GroundTruth,
    friedman_data,
    friedman_ground_truth,
    friedman_settings,
)
from .generators import BinaryData, bivariate_normal_accuracies, bn_data, nb_features_data
from .pruned_tree import OneSETreeClassifier
from .scenario import SimulatedComparison, simulate_comparison

__all__ = [
    "ZERO_R",
    "BinaryData",
    "CauchyDelta",
    "DeltaDistribution",
    "FixedDelta",
    "FriedmanSetting",
    "GaussianDelta",
    "GaussianMixtureDelta",
    "GroundTruth",
    "OneSETreeClassifier",
    "PairedCVResult",
    "SimulatedComparison",
    "bivariate_normal_accuracies",
    "bn_data",
    "delta_distribution",
    "fold_correct_counts",
    "friedman_data",
    "friedman_ground_truth",
    "friedman_settings",
    "nb_features_data",
    "paired_cv_binary",
    "paired_cv_estimators",
    "simulate_comparison",
    "stratified_fold_ids",
]
