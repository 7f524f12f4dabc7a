"""One BLAS thread for the whole test run, as the `houston` command sets for itself
(device/cli/__init__.py): set before any test module imports numpy."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
