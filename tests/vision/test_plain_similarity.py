"""A plain card with its own white beside its field is judged by that evidence (field hue, level
and emblem layout) with a lower duel similarity bar (stop 32): its flat field band-passes to noise
in the duel, so right fits with a clean colour were refused. The lower bar holds only for a close
field colour, so a nearby colour (sky beside blue) is not let through by it."""

from __future__ import annotations

import numpy as np

from device.hardware.vision import card_art, decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet

_TEXT = decks.TEXT_FRAME_DECK


def _named(ident: Identifier, frames: list[tuple[str, np.ndarray]]) -> list[str | None]:
    return [r.card if (r := ident.identify(f)).is_match else None for _, f in frames]


def test_plain_cards_with_clean_evidence_are_named_despite_a_weak_duel(text_refs: ReferenceSet) -> None:
    plain = [c for c in decks.text_frame_deck() if c.startswith("plain-") and "grey" not in c]
    frames = [(card, single_frame(render_card(_TEXT, card), 1600 + 10 * i + s, d, "table"))
              for d in ("easy", "medium") for i, card in enumerate(plain) for s in range(4)]
    truth = [card for card, _ in frames]
    before = _named(Identifier([text_refs], Thresholds(plain_min_similarity=0.0)), frames)
    after = _named(Identifier([text_refs]), frames)
    assert all(a in (None, t) for a, t in zip(after, truth, strict=True)), after  # nothing wrong
    assert all(a == t for a, b, t in zip(after, before, truth, strict=True) if b == t)  # nothing lost
    right = sum(a == t for a, t in zip(after, truth, strict=True))
    assert right > sum(b == t for b, t in zip(before, truth, strict=True)), (before, after)


def test_a_nearby_colour_is_not_let_through_by_the_lower_bar(text_refs: ReferenceSet, monkeypatch) -> None:
    """Sky triangles beside the enrolled blue one: the low bar without the colour guard names some."""
    monkeypatch.setitem(card_art._PLAIN_BGR, "sky", (210, 140, 70))
    face = render_card(_TEXT, "plain-sky-triangle")
    frames = [("plain-sky-triangle", single_frame(face, 1700 + s, d, "table"))
              for d in ("easy", "medium") for s in range(6)]
    off = sum(c is not None for c in _named(Identifier([text_refs], Thresholds(plain_min_similarity=0.0)), frames))
    unguarded = Identifier([text_refs], Thresholds(plain_sure_colour=1.0))
    assert sum(c is not None for c in _named(unguarded, frames)) > off
    assert sum(c is not None for c in _named(Identifier([text_refs]), frames)) <= off
