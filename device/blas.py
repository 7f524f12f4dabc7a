"""Importing this sets one BLAS thread for the process; import it before anything imports numpy.

The identifier works on one core by design; numpy's OpenBLAS otherwise starts a thread per core
whose spinning took a third more CPU than the identification itself on 2 cores, and the vision
bench's two workers slowed each other by that much (docs/vision.md, stop 22). Forked workers
inherit it; an explicit OPENBLAS_NUM_THREADS in the environment wins.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
