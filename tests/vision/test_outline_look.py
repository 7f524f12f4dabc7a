"""The last look at a frame where nothing card-like was fitted: card-shaped outlines found by their
straight edges, judged among the cards that are not plain (stop 59). A blurred card under glare and
fingers gives ORB almost nothing of its own; its outline is still plain to see."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from device.hardware.vision import decks, outline_finder
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identification, Identifier
from device.hardware.vision.references import ReferenceSet
from tests.support.text_frames import unenrolled_and_empty

# Text-frame frames (tuning seeds, medium) in which the identifier without the look fits nothing
# card-like at all, while the card at its true pose passes every check.
_BY_OUTLINE = (
    (30140, "tale-pia-ii", "table"),
    (30156, "tale-lena", "table"),
    (30052, "tale-lena", "ceiling"),
    (30091, "tale-yara", "ceiling"),
)


def _pair(refs: ReferenceSet) -> tuple[Identifier, Identifier]:
    on = Identifier([refs])
    off = Identifier([refs])
    off.t = replace(on.t, outline_look=False)
    return on, off


def _frame(seed: int, card: str, style: str) -> np.ndarray:
    return single_frame(render_card(decks.TEXT_FRAME_DECK, card), seed, "medium", style)


def test_cards_nothing_else_fitted_are_named_by_their_outline(text_refs: ReferenceSet) -> None:
    on, off = _pair(text_refs)
    frames = [(card, _frame(seed, card, style)) for seed, card, style in _BY_OUTLINE]
    before = [off.identify(f) for _, f in frames]
    after = [on.identify(f) for _, f in frames]
    assert [r.status for r in before] == ["none"] * len(frames), before
    assert [(r.status, r.card) for r in after] == [("match", card) for card, _ in frames], after


def test_the_look_names_no_unenrolled_card_and_no_empty_table(text_refs: ReferenceSet, monkeypatch) -> None:
    """Unenrolled cards of the same frame (medium and hard) and empty tables, tuning seeds: never
    named, though the look is reached on some of them."""
    on, _ = _pair(text_refs)
    reached = []
    look = Identifier._outline_look

    def counted(self: Identifier, frame: np.ndarray) -> Identification:
        reached.append(1)
        return look(self, frame)

    monkeypatch.setattr(Identifier, "_outline_look", counted)
    answers = [on.identify(f) for f in unenrolled_and_empty(937000, 10, 938000, 6)]
    assert not any(r.is_match for r in answers), [r.card for r in answers if r.is_match]
    assert reached, "no frame reached the look: the test would not see it accept anything"


def test_only_frames_ending_none_change(text_refs: ReferenceSet) -> None:
    """The look runs last and only where nothing card-like was fitted: every frame named or left
    "unknown" without it gets the same answer with it, and a "none" frame is only ever named."""
    on, off = _pair(text_refs)
    art = [c for c in decks.text_frame_deck() if not c.startswith("plain")]
    for i in range(24):
        card = art[(i * 5) % len(art)]
        frame = _frame(939000 + i, card, ("table", "ceiling")[i % 2])
        a, b = off.identify(frame), on.identify(frame)
        if a.status != "none":
            assert (b.status, b.card, b.score) == (a.status, a.card, a.score), (i, a, b)
        else:
            assert b.status in ("none", "match"), (i, b)


def test_a_plain_card_is_never_named_by_its_outline(probe_refs: ReferenceSet) -> None:
    """A flat field fits any flat rectangle once it is placed exactly, so the look judges only the
    cards with structure over most of their face: on the plain-probe deck (two of whose plain
    cards the plain checks do not cover) it names none of its plain cards, its unenrolled
    near-copies or an empty table (tuning seeds), though it finds their outlines."""
    on, _ = _pair(probe_refs)
    plain = [c for c in decks.plain_probe_deck() if c.startswith("field")]
    unenrolled = [c for c in decks.plain_probe_unenrolled() if c.startswith("field")]
    textured = {on.labels[k][1] for k in on._textured}
    assert textured and not textured & set(plain), sorted(textured & set(plain))
    outlined = 0
    for i, card in enumerate([*plain[:12], *unenrolled[:6], None, None, None, None]):
        for style in ("table", "ceiling"):
            face = render_card(decks.PLAIN_PROBE_DECK, card) if card is not None else None
            frame = single_frame(face, 940000 + 2 * i + (style == "ceiling"), "medium", style)
            on._views_of, on._in_identify = None, True
            try:
                grey = cv2.cvtColor(on._half(frame), cv2.COLOR_BGR2GRAY)
                outlined += bool(outline_finder.card_quads(grey, on._lines))
                result = on._outline_look(frame)
            finally:
                on._views_of, on._in_identify = None, False
            assert not result.is_match or result.card in textured, (card, style, result)
            assert result.card not in plain
    assert outlined, "no plain card was outlined: the test would not see the look name one"


def test_at_most_outline_judged_ways_round_are_judged(text_refs: ReferenceSet, monkeypatch) -> None:
    """Each judgement of an outline costs 7-25 ms, and a plain card's outline can correlate with an
    illustrated card (stop 60): only the best-correlated `outline_judged` ways round are judged,
    however many ways round of the outlines found correlate (text-frame art cards, whose outer edge
    and inner frame are both outlined, tuning seeds)."""
    on, _ = _pair(text_refs)
    judged: list[int] = []
    ranked: list[int] = []
    realigning = [False]  # the dense looks after the judgements judge their own fits
    judge, rank = Identifier._judge, Identifier._best_correlation

    def counted_judge(self: Identifier, *a, **k):  # type: ignore[no-untyped-def]
        judged[-1] += not realigning[0]
        return judge(self, *a, **k)

    def realign(look):  # type: ignore[no-untyped-def]
        def inner(self: Identifier, *a, **k):  # type: ignore[no-untyped-def]
            realigning[0] = True
            try:
                return look(self, *a, **k)
            finally:
                realigning[0] = False

        return inner

    def counted_rank(self: Identifier, *a, **k):  # type: ignore[no-untyped-def]
        c = rank(self, *a, **k)
        ranked[-1] += c >= self.t.outline_min_correlation
        return c

    monkeypatch.setattr(Identifier, "_judge", counted_judge)
    monkeypatch.setattr(Identifier, "_best_correlation", counted_rank)
    for name in ("_second_look", "_shading_free_look"):
        monkeypatch.setattr(Identifier, name, realign(getattr(Identifier, name)))
    art = [c for c in decks.text_frame_deck() if not c.startswith("plain")]
    for i in range(24):
        frame = _frame(941000 + i, art[(i * 5) % len(art)], ("table", "ceiling")[i % 2])
        on._views_of, on._in_identify = None, True
        judged.append(0)
        ranked.append(0)
        try:
            on._outline_look(frame)
        finally:
            on._views_of, on._in_identify = None, False
    pairs = list(zip(judged, ranked, strict=True))
    assert all(j <= min(r, on.t.outline_judged) and (j == 0) == (r == 0) for j, r in pairs), pairs
    assert max(ranked) > on.t.outline_judged, "no frame had more ways round worth judging than are judged"
