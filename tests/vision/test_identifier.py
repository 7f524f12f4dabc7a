"""Recognition of every built-in deck from synthetic captures, and rejection of what is not there."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from device.hardware.vision import decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier


def _sample(cards: list[str], n: int) -> list[str]:
    """n cards spread over the deck, always including a badge when the deck has them."""
    picks = [cards[i] for i in np.linspace(0, len(cards) - 1, n).astype(int)]
    badges = [c for c in cards if c.startswith("badge-")]
    if badges and not any(p.startswith("badge-") for p in picks):
        picks[-1] = badges[0]
    return picks


# The plain-probe tuning deck's sample holds a text-frame near-twin, `tale-otto-ii`, which an easy
# frame (seed 105) names as `tale-otto`: the text-frame art's twin weakness (its tuning figures show
# it too), with stop 51's settings as with stop 52's. Strict: when twins are fixed, this passes.
_TWIN_NAMED_WRONG = pytest.mark.xfail(strict=True, reason="tale-otto-ii named as tale-otto (text-frame twins)")


_DECKS = [
    pytest.param(d, marks=_TWIN_NAMED_WRONG) if d == decks.PLAIN_PROBE_DECK else d
    for d in sorted(decks.builtin_decks())
]


@pytest.mark.parametrize("deck", _DECKS)
def test_each_builtin_deck_is_recognised(deck: str, identifier: Identifier, make_refs) -> None:
    cards = decks.builtin_decks()[deck]
    if deck in (decks.SYNTHETIC_DECK, decks.FOREIGN_DECK):
        ident = identifier
    else:
        ident = Identifier([make_refs(deck, cards)])
    picks = _sample(cards, 8)
    results = [ident.identify(single_frame(render_card(deck, c), 100 + i, "easy")) for i, c in enumerate(picks)]
    named = [(r.card if r.is_match else None) for r in results]
    pairs = list(zip(picks, named, strict=True))
    assert not [(c, n) for c, n in pairs if n is not None and n != c]
    assert sum(n == c for c, n in pairs) >= 7, pairs


def test_medium_captures_mostly_named_never_wrong(identifier: Identifier) -> None:
    deck = decks.synthetic_deck()
    right = 0
    for i in range(30):
        card = deck[(i * 7) % len(deck)]
        r = identifier.identify(single_frame(render_card("synthetic", card), 500 + i, "medium"))
        assert not (r.is_match and r.card != card), (card, r)
        right += r.is_match
    assert right >= 20


def test_rejects_empty_scenes_and_unenrolled_look_alikes(identifier: Identifier) -> None:
    unenrolled = decks.synthetic_unenrolled()
    for i in range(12):
        scene = single_frame(None, 900 + i, "medium")
        assert not identifier.identify(scene).is_match
        stranger = single_frame(render_card("synthetic", unenrolled[i]), 950 + i, "medium")
        r = identifier.identify(stranger)
        assert not r.is_match, (unenrolled[i], r)


def test_a_foreign_deck_card_is_named_with_its_deck(identifier: Identifier) -> None:
    card = decks.synthetic_foreign_deck()[0]
    r = identifier.identify(single_frame(render_card(decks.FOREIGN_DECK, card), 31, "easy"))
    assert r.is_match and (r.deck, r.card) == (decks.FOREIGN_DECK, card)


def test_grey_frames_work_for_textured_cards(identifier: Identifier) -> None:
    frame = single_frame(render_card("synthetic", "pilot-otto"), 41, "easy")
    r = identifier.identify(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert r.is_match and r.card == "pilot-otto"


def test_look_alike_groups_follow_the_role_frames(identifier: Identifier) -> None:
    groups = identifier.look_alike_groups()
    engineers = next(g for g in groups if "engineer-ada" in g)
    assert {c for c in decks.synthetic_deck() if c.startswith("engineer-")} <= set(engineers)
    badges = next(g for g in groups if "badge-red" in g)
    assert set(decks.BADGES) <= set(badges)
    assert identifier.too_alike() == []


def test_score_is_a_confidence_in_unit_range(identifier: Identifier) -> None:
    r = identifier.identify(single_frame(render_card("synthetic", "medic-zed"), 61, "easy"))
    assert 0.5 < r.score <= 1.0
    blank = identifier.identify(np.zeros((480, 640, 3), np.uint8))
    assert blank.status == "none" and blank.score == 0.0


def test_a_blank_twin_needs_the_larger_margin(identifier: Identifier) -> None:
    """Absence (no "II", no mark) is weaker evidence than presence: the same duel margin that
    names the marked twin leaves the blank one undecided."""
    t = identifier.t
    margin = (t.min_twin_margin + t.min_twin_margin_blank) / 2
    assert t.min_twin_margin_blank > t.min_twin_margin
    assert identifier._twin_decided(margin, 1.0, blank=False)
    assert not identifier._twin_decided(margin, 1.0, blank=True)
    assert identifier._twin_decided(t.min_twin_margin_blank, 1.0, blank=True)
