"""A plain-field card with no white of its own beside its field (a white field, a thin ring) is
judged by its field's hue against its own dark ink (stop 31): before, a white badge had no colour
evidence at all and the others only an absolute chromaticity, which a colour cast moves."""

from __future__ import annotations

import pytest

from device.hardware.vision import decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet
from tests.support.badges import badge_face

# Unenrolled badge colours beside enrolled ones: pink beside white (no colour evidence before),
# lime beside yellow and maroon beside red (the chromaticity bar let them through).
_NEARBY = {"pink": (180, 130, 240), "lime": (40, 230, 160), "maroon": (40, 30, 130)}


def test_every_own_badge_is_judged_against_its_ink(synthetic_refs: ReferenceSet) -> None:
    """Measured on each badge's own face: its dark star and letters, the hue relative to them."""
    ident = Identifier([synthetic_refs])
    layouts = {ident.labels[k][1]: lay for k, lay in ident._plain_layouts.items()}
    badges = {c for c in decks.synthetic_deck() if c.startswith("badge-")}
    assert set(layouts) == badges
    assert all(lay.by_ink and lay.white is not None and lay.white.sum() >= 15 for lay in layouts.values())
    neutral = Identifier([synthetic_refs], Thresholds(plain_ink="neutral"))
    by_ink = {neutral.labels[k][1] for k, lay in neutral._plain_layouts.items() if lay.by_ink}
    assert by_ink == {"badge-white"}
    off = Identifier([synthetic_refs], Thresholds(plain_ink="off"))
    assert "badge-white" not in {off.labels[k][1] for k in off._plain_layouts}


def test_unenrolled_badges_of_nearby_colours_are_not_named(synthetic_refs: ReferenceSet) -> None:
    """Tuning seeds of the stop-31 probe (36000+): without the ink the old judge names some."""
    frames = [
        (name, single_frame(badge_face(bgr), 36000 + 100 * i + 10 * j + s, difficulty, "ceiling"))
        for i, (name, bgr) in enumerate(_NEARBY.items())
        for j, difficulty in enumerate(("easy", "medium"))
        for s in range(4)
    ]
    off = Identifier([synthetic_refs], Thresholds(plain_ink="off"))
    fooled = [(name, r.card) for name, f in frames if (r := off.identify(f)).is_match]
    assert fooled  # hard negatives: the judge without the ink names some of them
    on = Identifier([synthetic_refs])
    named = [(name, r.card) for name, f in frames if (r := on.identify(f)).is_match]
    assert named == [], named


@pytest.mark.parametrize("card", ["badge-white", "badge-red", "badge-purple"])
def test_enrolled_badges_keep_their_names_on_easy_frames(synthetic_refs: ReferenceSet, card: str) -> None:
    ident = Identifier([synthetic_refs])
    face = render_card(decks.SYNTHETIC_DECK, card)
    named = [ident.identify(single_frame(face, 39600 + s, "easy", "ceiling")) for s in range(4)]
    assert [r.card for r in named if r.is_match] == [card] * 4, named


def test_an_unknown_plain_ink_setting_is_refused() -> None:
    """A misspelt trial (`tuning --set plain_ink=al`) must fail, not quietly mean "off"."""
    with pytest.raises(ValueError, match="plain_ink"):
        Thresholds(plain_ink="al")
    assert Thresholds(plain_ink="neutral").plain_ink == "neutral"
