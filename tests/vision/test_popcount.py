"""The Pi's numpy (Debian's 1.24) has no `np.bitwise_count`: descriptor distances must come out
the same by the byte table, and the identifier must work end to end without it."""

from __future__ import annotations

import numpy as np
import pytest

from device.hardware.vision import decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.popcount import bit_count, table_bit_count
from device.hardware.vision.references import ReferenceSet


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_the_byte_table_counts_as_numpy_does(dtype: type) -> None:
    rng = np.random.default_rng(5)
    info = np.iinfo(dtype)
    x = rng.integers(0, int(info.max), (37, 4), dtype=dtype, endpoint=True)
    x[0, 0], x[0, 1] = 0, info.max  # no bits, every bit
    expected = np.bitwise_count(x)
    assert table_bit_count(x).dtype == np.uint8
    assert np.array_equal(table_bit_count(x), expected)
    assert np.array_equal(table_bit_count(x[:, ::2]), expected[:, ::2])  # a strided view
    assert np.array_equal(bit_count(x), expected)


def test_the_identifier_names_the_same_cards_without_bitwise_count(
    synthetic_refs: ReferenceSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = decks.synthetic_deck()[:6]
    frames = [single_frame(render_card(decks.SYNTHETIC_DECK, c), 941500 + i, "medium") for i, c in enumerate(cards)]
    with_numpy_2 = [(r.status, r.card, r.inliers) for r in map(Identifier([synthetic_refs]).identify, frames)]
    monkeypatch.delattr(np, "bitwise_count")
    without = [(r.status, r.card, r.inliers) for r in map(Identifier([synthetic_refs]).identify, frames)]
    assert without == with_numpy_2
    assert sum(status == "match" for status, _, _ in without) >= 4, without
