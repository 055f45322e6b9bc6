"""Measure the true difference of two learners in one Friedman setting (cached JSON)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402

from cvcompare.experiments import atomic_path  # noqa: E402
from cvcompare.simulate import TruthDesign, friedman_settings  # noqa: E402

log = _log.setup(snakemake.log[0])  # noqa: F821
wc = snakemake.wildcards  # noqa: F821
design = TruthDesign(
    learners=(wc.learner_a, wc.learner_b),
    repetitions=int(wc.repetitions),
    n_test=int(wc.n_test),
)
setting = {s.id: s for s in friedman_settings()}[wc.setting]
truth = design.measure(setting, int(wc.seed))
with atomic_path(snakemake.output[0]) as tmp:  # noqa: F821
    design.write(truth, setting, tmp)
log.info("%s: delta = %.5f (MC SE %.5f)", setting.id, truth.delta, truth.std_err)
