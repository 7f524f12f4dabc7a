"""The `houston` command runs numpy's OpenBLAS on one thread (device/cli/__init__.py): on 2 cores
its second thread only spun beside the identifier, a third more CPU than the work itself."""

from __future__ import annotations

import os
import subprocess
import sys

_THREADS = """
import ctypes, glob, os
import device.cli
import numpy as np
lib = glob.glob(os.path.join(os.path.dirname(np.__file__) + ".libs", "libscipy_openblas*.so"))
print(ctypes.CDLL(lib[0]).scipy_openblas_get_num_threads64_() if lib else "no-openblas")
"""


def _threads(env: dict[str, str]) -> str:
    out = subprocess.run([sys.executable, "-c", _THREADS], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_the_houston_command_uses_one_blas_thread_unless_told_otherwise() -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    assert _threads(env) == "1"
    assert _threads({**env, "OPENBLAS_NUM_THREADS": "2"}) == "2"  # an explicit setting wins
