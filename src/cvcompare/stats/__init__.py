"""Statistical tests for comparing cross-validated learners.

One module per test family: correlated t-tests (:mod:`.ttest`), the Poisson-binomial
test (:mod:`.poisson_binomial`), posterior odds (:mod:`.odds`), Friedman / Iman-Davenport
/ Nemenyi (:mod:`.friedman`), the frequentist and Bayesian signed-rank tests
(:mod:`.signed_rank`), the frequentist and Bayesian sign tests (:mod:`.sign`) and Holm's
adjustment (:mod:`.multiple`). Every test returns a frozen result object.
"""

from cvcompare.stats.friedman import (
    FriedmanResult,
    NemenyiResult,
    critical_difference_cliques,
    friedman_test,
    nemenyi_q_alpha,
    nemenyi_test,
)
from cvcompare.stats.multiple import holm_adjust
from cvcompare.stats.odds import evidence_grade, posterior_odds
from cvcompare.stats.poisson_binomial import (
    PoissonBinomialResult,
    poisson_binomial_pmf,
    poisson_binomial_test,
)
from cvcompare.stats.sign import (
    SignPosterior,
    SignTestResult,
    bayesian_sign_test,
    dirichlet_max_probs,
    sign_test,
)
from cvcompare.stats.signed_rank import (
    DPSignedRankPosterior,
    IDPSignedRankPosterior,
    SignedRankPosterior,
    SignedRankTestResult,
    bayesian_signed_rank,
    dp_signed_rank,
    idp_signed_rank,
    wilcoxon_test,
)
from cvcompare.stats.ttest import (
    CorrelatedTPosterior,
    CorrelatedTTestResult,
    NormalGammaPrior,
    bayesian_correlated_ttest,
    correlated_ttest,
)

__all__ = [
    "CorrelatedTPosterior",
    "CorrelatedTTestResult",
    "DPSignedRankPosterior",
    "FriedmanResult",
    "IDPSignedRankPosterior",
    "NemenyiResult",
    "NormalGammaPrior",
    "PoissonBinomialResult",
    "SignPosterior",
    "SignTestResult",
    "SignedRankPosterior",
    "SignedRankTestResult",
    "bayesian_correlated_ttest",
    "bayesian_sign_test",
    "bayesian_signed_rank",
    "correlated_ttest",
    "critical_difference_cliques",
    "dirichlet_max_probs",
    "dp_signed_rank",
    "evidence_grade",
    "friedman_test",
    "holm_adjust",
    "idp_signed_rank",
    "nemenyi_q_alpha",
    "nemenyi_test",
    "poisson_binomial_pmf",
    "poisson_binomial_test",
    "posterior_odds",
    "sign_test",
    "wilcoxon_test",
]
