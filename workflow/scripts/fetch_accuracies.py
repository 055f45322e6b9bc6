"""Download the real cross-validation results from their public source, or say where to put them."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir)))  # noqa: F821
import _log  # noqa: E402

from cvcompare.experiments.atomic import atomic_path  # noqa: E402
from cvcompare.io import read_accuracies  # noqa: E402

log = _log.setup(snakemake.log[0])  # noqa: F821
target = Path(snakemake.output[0])  # noqa: F821
url = snakemake.params.url  # noqa: F821
with atomic_path(target) as tmp:
    try:
        import urllib.request

        with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310
            tmp.write_bytes(response.read())
        read_accuracies(tmp, duplicates="keep")  # refuse anything that is not the expected file
    except Exception as exc:  # noqa: BLE001 - any failure gets the same advice
        message = (
            f"The real cross-validation results are not at {target} and could not be "
            f"downloaded from {url} ({type(exc).__name__}: {exc}). Put the file there (the "
            "per-fold accuracies of 5 classifiers on 54 data sets, docs/code/accuracies.txt "
            "of the public repository janezd/baycomp, MIT licence) or point the workflow at "
            "it with --config accuracies=PATH. The real-data targets need it; every other "
            "target runs without it."
        )
        # the advice once on the console; the log keeps the technical cause
        print(message, file=sys.__stderr__)
        log.error("download of %s failed: %s: %s", url, type(exc).__name__, exc)
        raise SystemExit(1) from None
log.info("downloaded %s to %s", url, target)
