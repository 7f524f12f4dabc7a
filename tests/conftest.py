"""One BLAS thread for the whole test run, as the `houston` command has (device/blas.py): imported
before any test module imports numpy."""

from device import blas  # noqa: F401
