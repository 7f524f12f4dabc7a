"""The presence gate: retries for degraded views run only with evidence of a card."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from device.hardware.vision import captures, decks
from device.hardware.vision.calibration import thresholds_at
from device.hardware.vision.card_art import render_card
from device.hardware.vision.gate import Evidence, Gate
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet


def test_the_gate_wants_votes_above_empty_scenes_or_a_card_like_face() -> None:
    gate = Gate(retry_min_votes=67, min_corners=10)
    assert not gate.card_likely(Evidence(corners=600, support=50, card_like=False))
    assert gate.card_likely(Evidence(corners=600, support=67, card_like=False))
    assert gate.card_likely(Evidence(corners=600, support=3, card_like=True))
    assert not gate.card_likely(Evidence(corners=4, support=500, card_like=True))
    assert Gate(retry_min_votes=0, min_corners=10).card_likely(Evidence(600, 0, False))  # uncalibrated: always


def _counting_dense(ident: Identifier) -> list[int]:
    calls: list[int] = []
    dense = ident.extractor.frame_dense

    def counted(frame: np.ndarray):
        calls.append(1)
        return dense(frame)

    ident.extractor.frame_dense = counted  # type: ignore[method-assign]
    return calls


def test_empty_scenes_skip_the_dense_retry_and_cards_are_still_named(synthetic_refs: ReferenceSet) -> None:
    t = thresholds_at(Thresholds(), 0.5)
    open_gate = Identifier([synthetic_refs], replace(t, retry_min_votes=0))
    gated = Identifier([synthetic_refs], replace(t, retry_min_votes=67))  # the own deck's calibrated bar
    open_calls, gated_calls = _counting_dense(open_gate), _counting_dense(gated)
    scenes = [captures.single_frame(None, 7100 + i, "medium") for i in range(12)]
    for frame in scenes:
        assert open_gate.identify(frame).status == gated.identify(frame).status == "none"
    assert len(open_calls) > 0  # without the gate, empty scenes pay for denser corners...
    assert len(gated_calls) == 0  # ... with it, they do not
    cards = decks.synthetic_deck()
    named = {"open": 0, "gated": 0}
    for i in range(12):
        card = cards[(i * 5) % len(cards)]
        frame = captures.single_frame(render_card(decks.SYNTHETIC_DECK, card), 7200 + i, "medium")
        for name, ident in (("open", open_gate), ("gated", gated)):
            r = ident.identify(frame)
            assert not (r.is_match and r.card != card)
            named[name] += r.is_match
    assert named["gated"] >= max(9, named["open"] - 1)  # the gate hides at most a rare degraded view
