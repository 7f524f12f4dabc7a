"""A blank near-twin's win is undecided when a part of what the twins differ by, judged alone,
shows the marked twin's mark (stop 58): the duel sums its error over every part, so a finger over
the dot (flat, as the blank twin is there) outweighs a "II" in plain view. Frames are the first
frames of text-frame holds (tuning seeds) in which the blank twin was named."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from device.hardware.vision import decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import _CANONICAL, Identifier
from device.hardware.vision.references import ReferenceSet
from tests.support.text_frames import unenrolled_and_empty

# (style, seed, the card shown): a "-ii" card named as its blank twin without the rule.
_MARK_IN_PART = (
    ("table", 306021, "tale-lena-ii"),
    ("table", 311033, "tale-quin-ii"),
    ("ceiling", 306027, "tale-lena-ii"),
    ("ceiling", 307028, "tale-max-ii"),
    ("ceiling", 308023, "tale-nia-ii"),
    ("ceiling", 309032, "tale-otto-ii"),
)
# ... of which these are then named rightly by the rest of the pipeline.
_NAMED_AFTER = (("ceiling", 307022, "tale-max-ii"), ("ceiling", 308001, "tale-nia-ii"))
# Blank twins shown and named: a part that shows no mark does not undo them (303029: the "II" part
# leans to the marked twin by 0.2, under the bar).
_BLANK = (
    ("table", 300006, "tale-lena"),
    ("table", 301007, "tale-max"),
    ("table", 302015, "tale-nia"),
    ("table", 303009, "tale-otto"),
    ("table", 304003, "tale-pia"),
    ("table", 305032, "tale-quin"),
    ("ceiling", 300034, "tale-lena"),
    ("ceiling", 301021, "tale-max"),
    ("ceiling", 303029, "tale-otto"),
)


def _pair(refs: ReferenceSet) -> tuple[Identifier, Identifier]:
    on = Identifier([refs])
    off = Identifier([refs])
    off.t = replace(on.t, twin_part_bar=0.0)
    return on, off


def _frame(style: str, seed: int, card: str) -> np.ndarray:
    return single_frame(render_card(decks.TEXT_FRAME_DECK, card), seed, "medium", style)


def _blank_of(card: str) -> str:
    return card.removesuffix("-ii")


def test_a_mark_seen_in_one_part_undoes_the_blank_twin(text_refs: ReferenceSet) -> None:
    on, off = _pair(text_refs)
    for style, seed, card in _MARK_IN_PART:
        frame = _frame(style, seed, card)
        before, after = off.identify(frame), on.identify(frame)
        assert (before.status, before.card) == ("match", _blank_of(card)), (seed, before)
        assert not after.is_match, (seed, after)


def test_undecided_blank_twins_leave_the_rest_of_the_pipeline_to_name_the_card(text_refs: ReferenceSet) -> None:
    on, off = _pair(text_refs)
    for style, seed, card in _NAMED_AFTER:
        frame = _frame(style, seed, card)
        assert off.identify(frame).card == _blank_of(card), seed
        after = on.identify(frame)
        assert (after.status, after.card) == ("match", card), (seed, after)


def test_blank_twins_in_view_are_still_named(text_refs: ReferenceSet) -> None:
    on, off = _pair(text_refs)
    for style, seed, card in _BLANK:
        frame = _frame(style, seed, card)
        before, after = off.identify(frame), on.identify(frame)
        assert (before.status, before.card) == ("match", card), (seed, before)
        assert (after.status, after.card, after.score) == (before.status, before.card, before.score), seed


def test_the_part_check_reads_each_part_alone(text_refs: ReferenceSet) -> None:
    """At the fit that named the blank twin, the whole duel favours it while one part, alone,
    favours the marked twin past the bar."""
    on, off = _pair(text_refs)
    style, seed, card = _MARK_IN_PART[0]
    frame = _frame(style, seed, card)
    named = off.identify(frame)
    assert named.corners is not None
    h = cv2.getPerspectiveTransform(named.corners.astype(np.float32), _CANONICAL)
    blank, marked = on._index_of[(decks.TEXT_FRAME_DECK, named.card)], on._index_of[(decks.TEXT_FRAME_DECK, card)]
    on._views_of, on._in_identify = None, True
    off._views_of, off._in_identify = None, True
    try:
        leader, _, margin_off, _, is_blank = off._twin_duels(frame, h, blank, named.similarity)
        assert (leader, is_blank) == (blank, True) and margin_off >= off.t.min_twin_margin_blank
        assert len(on._detail_parts(blank, marked)) >= 2  # the "II" and the dot
        assert on._twin_duels(frame, h, blank, named.similarity)[2] == 0.0
    finally:
        on._views_of, on._in_identify = None, False
        off._views_of, off._in_identify = None, False


def test_no_unenrolled_card_or_empty_table_is_named(text_refs: ReferenceSet) -> None:
    """A refused blank twin lets the rest of the pipeline look on: it still names nothing it
    should not (unenrolled cards of the same frame at medium and hard, empty tables)."""
    on, _ = _pair(text_refs)
    for frame in unenrolled_and_empty(958000, 30, 959000, 20):
        assert not on.identify(frame).is_match
