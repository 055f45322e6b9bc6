"""Set up a workflow script's process: its log file, and the threads its Stan fits may use."""

import logging
import os
import sys


def setup(path, threads=1):
    """Log to ``path`` (progress lines at INFO level), capture warnings and stderr, and
    let every Stan fit of this process (and of its worker processes) use at most
    ``threads`` threads (``CVCOMPARE_THREADS``), so a job never runs more threads than it
    reserved; the draws do not depend on it."""
    os.environ["CVCOMPARE_THREADS"] = str(threads)
    handle = open(path, "a", buffering=1)  # noqa: SIM115 - lives as long as the job
    sys.stderr = handle
    logging.basicConfig(
        stream=handle,
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        force=True,
    )
    logging.captureWarnings(True)
    return logging.getLogger("workflow")


def warn(log, message):
    """Log a warning and show it on the console too (the job's stderr goes to its log)."""
    log.warning(message)
    print(f"WARNING {message}", file=sys.__stderr__)
