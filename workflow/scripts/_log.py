"""Send a script's logging, warnings and uncaught errors to the rule's log file."""

import logging
import sys


def setup(path):
    """Log to ``path`` (progress lines at INFO level) and capture warnings and stderr."""
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
