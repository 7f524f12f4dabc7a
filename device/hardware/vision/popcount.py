"""Set bits per element of an unsigned integer array, for Hamming distances between descriptors.

numpy 2 counts them with `np.bitwise_count`. The Pi runs Debian's numpy 1.24 (picamera2 is built
against it, so pip is held below numpy 2 there; docs/hardware.md), which has no such function:
there a byte table does the same count.
"""

from __future__ import annotations

import numpy as np

_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], np.uint8)


def bit_count(x: np.ndarray) -> np.ndarray:
    """The number of set bits in each element of an unsigned integer array (uint8, same shape)."""
    count = getattr(np, "bitwise_count", None)
    return count(x) if count is not None else table_bit_count(x)


def table_bit_count(x: np.ndarray) -> np.ndarray:
    """`bit_count` by a 256-entry byte table (numpy before 2)."""
    x = np.ascontiguousarray(x)
    by_byte = x.view(np.uint8).reshape(*x.shape, x.dtype.itemsize)
    return _BYTE_BITS[by_byte].sum(axis=-1, dtype=np.uint8)
