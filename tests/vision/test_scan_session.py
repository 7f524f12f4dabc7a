"""The consensus, no-double-scan, unknown and foreign rules, on scripted identifications."""

from __future__ import annotations

import numpy as np

from device.hardware.vision.identifier import Identification
from device.hardware.vision.scan_session import Decision, ScanSession

FPS = 15.0


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _match(card: str, deck: str = "synthetic") -> Identification:
    return Identification("match", card, deck, 0.9)


UNKNOWN = Identification("unknown", "engineer-ada", "synthetic", 0.3)
NONE = Identification("none")


def _run(script: list[Identification], **kw) -> list[tuple[int, Decision]]:
    clock = Clock()
    session = ScanSession(
        lambda frame: frame,
        clock=clock,
        deck=kw.pop("deck", "synthetic"),
        deck_cards=kw.pop("deck_cards", lambda d: None),
        **kw,
    )
    out = []
    for i, ident in enumerate(script):
        d = session.feed(ident)  # the "frame" is the identification itself
        if d is not None:
            out.append((i, d))
        clock.now += 1 / FPS
    return out


def test_three_agreeing_frames_decide_once() -> None:
    got = _run([_match("pilot-otto")] * 10)
    assert got == [(2, Decision("card", "pilot-otto", "synthetic", 0.9))]


def test_disagreeing_frames_do_not_decide() -> None:
    flicker = [_match("pilot-otto"), _match("pilot-pia")] * 5
    assert _run(flicker) == []


def test_three_of_five_with_gaps_decides() -> None:
    script = [_match("medic-zed"), NONE, _match("medic-zed"), NONE, _match("medic-zed")]
    assert [d.card for _, d in _run(script)] == ["medic-zed"]


def test_same_card_again_only_after_it_left_the_view() -> None:
    held = [_match("pilot-otto")] * 6
    brief_gap = [NONE] * 3  # 0.2 s: still the same presentation
    long_gap = [NONE] * 12  # 0.8 s: the card was taken away
    assert len(_run(held + brief_gap + held)) == 1
    got = _run(held + long_gap + held)
    assert [i for i, _ in got] == [2, len(held) + len(long_gap) + 2]


def test_flickering_recognition_of_a_held_card_is_not_a_second_scan() -> None:
    script = [_match("pilot-otto")] * 4 + [Identification("unknown", "pilot-otto", "synthetic")] * 20
    script += [_match("pilot-otto")] * 4
    assert len(_run(script)) == 1


def test_another_card_is_decided_while_the_first_is_still_near() -> None:
    got = _run([_match("pilot-otto")] * 4 + [_match("badge-red")] * 4)
    assert [d.card for _, d in got] == ["pilot-otto", "badge-red"]


def test_card_like_object_matching_nothing_for_a_second_is_unknown_once() -> None:
    got = _run([UNKNOWN] * 40)
    assert len(got) == 1
    i, d = got[0]
    assert d.kind == "unknown" and i / FPS >= 1.0 and i / FPS < 1.2


def test_short_card_like_glimpses_say_nothing() -> None:
    assert _run(([UNKNOWN] * 8 + [NONE] * 12) * 3) == []


def test_no_unknown_for_a_card_that_was_recognised() -> None:
    assert [d.kind for _, d in _run([_match("pilot-otto")] * 3 + [UNKNOWN] * 30)] == ["card"]


def test_card_of_another_deck_is_foreign_but_shared_badges_are_not() -> None:
    cards = {"synthetic": ["pilot-otto", "badge-red"]}
    got = _run(
        [_match("scout-uma", "synthetic-other")] * 3 + [NONE] * 12 + [_match("badge-red", "synthetic-other")] * 3,
        deck_cards=cards.get,
    )
    assert [(d.kind, d.card) for _, d in got] == [("foreign", "scout-uma"), ("card", "badge-red")]


def test_deck_follows_the_running_game() -> None:
    current = {"deck": "synthetic"}
    clock = Clock()
    session = ScanSession(lambda f: f, deck=lambda: current["deck"], deck_cards=lambda d: None, clock=clock)
    for _ in range(3):
        d = session.feed(_match("scout-uma", "synthetic-other"))
        clock.now += 0.1
    assert d is not None and d.kind == "foreign"
    current["deck"] = "synthetic-other"
    clock.now += 5
    for _ in range(3):
        d = session.feed(_match("scout-uma", "synthetic-other"))
        clock.now += 0.1
    assert d is not None and d.kind == "card"


def test_session_counts_frames() -> None:
    clock = Clock()
    session = ScanSession(lambda f: NONE, clock=clock)
    for _ in range(5):
        session.feed(np.zeros((4, 4, 3), np.uint8))
    assert session.frames == 5 and session.last is NONE


def test_sparse_card_like_flicker_is_not_an_unknown_card() -> None:
    assert _run(([UNKNOWN] + [NONE] * 2) * 20) == []


def _lid(seed: int, card: bool = False) -> np.ndarray:
    """An empty grey lid with fresh sensor noise per frame; optionally a bright card on it."""
    rng = np.random.default_rng(seed)
    frame = np.clip(90 + rng.normal(0, 6, (480, 640, 3)), 0, 255).astype(np.uint8)
    if card:
        frame[300:420, 500:590] = 230
    return frame


class _Counting:
    """An identify function that counts its calls and says what it is told to."""

    def __init__(self) -> None:
        self.calls = 0
        self.answer = NONE

    def __call__(self, frame: np.ndarray) -> Identification:
        self.calls += 1
        return self.answer


def test_an_unchanged_empty_view_is_not_identified_again_for_a_bounded_run() -> None:
    ident, clock = _Counting(), Clock()
    session = ScanSession(ident, clock=clock, still_frames=4)
    for i in range(10):
        session.feed(_lid(i))
        clock.now += 1 / FPS
    # frames 0 and 5 identified (after 4 reused in a row the view is looked at again), 1-4 and 6-9 reused
    assert ident.calls == 2 and session.reused == 8 and session.frames == 10


def test_a_card_entering_an_unchanged_view_is_identified_at_once() -> None:
    ident, clock = _Counting(), Clock()
    session = ScanSession(ident, clock=clock, still_frames=15)
    session.feed(_lid(0))
    session.feed(_lid(1))
    assert ident.calls == 1
    ident.answer = _match("pilot-otto")
    for i in range(3):
        clock.now += 1 / FPS
        d = session.feed(_lid(2 + i, card=True))
    assert ident.calls == 4 and d is not None and d.card == "pilot-otto"


def test_only_empty_views_are_reused_and_by_default_nothing_is() -> None:
    ident, clock = _Counting(), Clock()
    ident.answer = UNKNOWN
    session = ScanSession(ident, clock=clock, still_frames=15)
    for i in range(5):
        session.feed(_lid(i))
    assert ident.calls == 5
    ident2 = _Counting()
    plain = ScanSession(ident2, clock=Clock())
    for i in range(5):
        plain.feed(_lid(i))
    assert ident2.calls == 5 and plain.reused == 0
