"""Guided matching (stop 40; landed in stop 41's cheaper form): a card-like pooled fit that decided
nothing is matched again, each frame corner paired with the pooled descriptor nearest in Hamming
distance among those near its predicted place on the card, then refitted and judged; only when
the fit's winner already looks somewhat like it (an unenrolled card's fit is not worth the call)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from device.hardware.vision import decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.localiser import PooledLocaliser
from device.hardware.vision.references import ReferenceSet
from tests.support.text_frames import unenrolled_and_empty

# Text-frame table frames (tuning seeds, medium) named only with guided matching.
_GUIDED = ((925158, "tale-zed"), (925183, "tale-tom"), (925213, "tale-val"))


def _deck(rng: np.random.Generator, n: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """Pooled entries spread over a 252 x 352 card, with random 256-bit descriptors."""
    points = np.column_stack([rng.uniform(0, 252, n), rng.uniform(0, 352, n)]).astype(np.float32)
    return points, rng.integers(0, 256, (n, 32), dtype=np.uint8)


def _flip_bits(desc: np.ndarray, bits: int, rng: np.random.Generator) -> np.ndarray:
    out = desc.copy()
    for row in out:
        for b in rng.choice(256, bits, replace=False):
            row[b // 8] ^= np.uint8(1 << (b % 8))
    return out


def _to_frame() -> np.ndarray:
    """card -> frame: a card held a little rotated and foreshortened."""
    card = np.array([[0, 0], [252, 0], [252, 352], [0, 352]], np.float32)
    frame = np.array([[200, 80], [420, 110], [400, 420], [170, 390]], np.float32)
    return cv2.getPerspectiveTransform(card, frame)


def _seen(rng: np.random.Generator, n: int) -> tuple[PooledLocaliser, np.ndarray, np.ndarray]:
    """A pooled deck, `n` of its entries taken, and where the held card puts them in the frame."""
    points, desc = _deck(rng)
    loc = PooledLocaliser(points, desc)
    take = rng.choice(len(loc.points), n, replace=False)
    frame_pts = cv2.perspectiveTransform(loc.points[take].reshape(-1, 1, 2).astype(np.float64), _to_frame())
    return loc, take, frame_pts.reshape(-1, 2).astype(np.float32)


def test_corners_find_their_entries_near_the_predicted_place() -> None:
    rng = np.random.default_rng(3)
    loc, take, frame_pts = _seen(rng, 60)
    frame_desc = _flip_bits(loc.descriptors[take], 20, rng)  # seen through a camera: 20 bits off
    # A prior fit a few card px off (the frame shifted by 3, 4 px): the pairs are still found within 12.
    prior = np.linalg.inv(_to_frame()) @ np.array([[1.0, 0.0, 3.0], [0.0, 1.0, 4.0], [0.0, 0.0, 1.0]])
    corr = loc.match_near(frame_pts, frame_desc, prior, 12.0)
    assert len(corr) == 60
    expected = {tuple(np.round(p, 2)) for p in loc.points[take]}
    assert {tuple(np.round(p, 2)) for p in corr.card} == expected


def test_nothing_far_from_the_predicted_place_or_too_different_is_paired() -> None:
    rng = np.random.default_rng(4)
    loc, take, frame_pts = _seen(rng, 30)
    # A prior 40 card px off: the true entries are outside the 12 px window; random neighbours
    # there differ by ~128 bits, beyond the 64-bit bar.
    far = np.array([[1.0, 0.0, 40.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]) @ np.linalg.inv(_to_frame())
    assert len(loc.match_near(frame_pts, loc.descriptors[take], far, 12.0)) == 0
    # The right place but descriptors 100 bits off: not paired either.
    right = np.linalg.inv(_to_frame())
    assert len(loc.match_near(frame_pts, _flip_bits(loc.descriptors[take], 100, rng), right, 12.0)) == 0
    assert len(loc.match_near(frame_pts, loc.descriptors[take], right, 12.0)) == 30


def _nearest_by_brute_force(loc: PooledLocaliser, pts: np.ndarray, desc: np.ndarray, h: np.ndarray, radius: float):
    """What match_near must give, entry by entry over the whole pooled deck: per frame point, the
    smallest Hamming distance among entries within `radius` (both axes) of its place on the card."""
    at = cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)
    bits = np.unpackbits(desc[:, None, :] ^ loc.descriptors[None, :, :], axis=2).sum(axis=2)
    reach = (np.abs(loc.points[None, :, :] - at[:, None, :]) <= radius).all(axis=2)
    best = np.where(reach, bits, 1 << 20).min(axis=1)
    return {i: int(d) for i, d in enumerate(best) if d <= loc.max_dist}


def test_guided_pairs_are_the_nearest_descriptors_within_reach_whatever_the_density() -> None:
    """Dense places (many entries within reach of each point, ties in distance) and points
    off the card: the pairs are each point's nearest entry in reach, most distinctive first."""
    rng = np.random.default_rng(11)
    points = np.column_stack([rng.uniform(0, 60, 3000), rng.uniform(0, 80, 3000)]).astype(np.float32)
    base = rng.integers(0, 256, (40, 32), dtype=np.uint8)  # few descriptor families: many ties
    loc = PooledLocaliser(points, _flip_bits(base[rng.integers(0, 40, 3000)], 6, rng))
    pts = np.column_stack([rng.uniform(-30, 90, 500), rng.uniform(-30, 110, 500)]).astype(np.float32)
    desc = _flip_bits(base[rng.integers(0, 40, 500)], 12, rng)
    h = np.array([[1.0, 0.02, 1.5], [-0.01, 1.0, -2.0], [0.0, 0.0, 1.0]])
    expected = _nearest_by_brute_force(loc, pts, desc, h, 12.0)
    corr = loc.match_near(pts, desc, h, 12.0)
    at = cv2.perspectiveTransform(corr.frame.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)
    assert len(corr) == len(expected) > 150
    index_of = {tuple(p): i for i, p in enumerate(pts)}
    dists = []
    for frame_pt, card_pt, place in zip(corr.frame, corr.card, at, strict=True):
        i = index_of[tuple(frame_pt)]
        entry = int(np.flatnonzero((loc.points == card_pt).all(axis=1))[0])
        d = int(np.unpackbits(desc[i] ^ loc.descriptors[entry]).sum())
        assert d == expected[i] and np.abs(card_pt - place).max() <= 12.0
        dists.append(d)
    assert dists == sorted(dists)


def _pair(refs: ReferenceSet) -> tuple[Identifier, Identifier]:
    on = Identifier([refs])
    off = Identifier([refs])
    off.t = replace(on.t, pooled_guided_radius=0.0)
    return on, off


def test_cards_whose_fit_decided_nothing_are_named_by_guided_matching(text_refs: ReferenceSet) -> None:
    on, off = _pair(text_refs)
    # The shading-free last look (stop 56) names one of these frames without guided matching too:
    # the frames were chosen before it, so the identifier "before" has neither.
    off.t = replace(off.t, refine_highpass=0.0)
    frames = [
        (card, single_frame(render_card(decks.TEXT_FRAME_DECK, card), seed, "medium", "table"))
        for seed, card in _GUIDED
    ]
    before = [off.identify(f) for _, f in frames]
    after = [on.identify(f) for _, f in frames]
    assert not any(r.is_match for r in before), before
    assert [(r.status, r.card) for r in after] == [("match", card) for card, _ in frames], after


def _counting(ident: Identifier) -> list[int]:
    """Counts the identifier's guided matchings (calls of its localiser's match_near)."""
    calls = [0]
    near = ident._localiser.match_near

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return near(*args, **kwargs)

    ident._localiser.match_near = counted  # type: ignore[method-assign]
    return calls


def test_guided_matching_names_no_unenrolled_card_and_is_mostly_spared_on_them(text_refs: ReferenceSet) -> None:
    """Unenrolled cards of the same frame and empty tables (tuning seeds, medium and hard): never
    accepted; and the similarity bar turns most of their card-like fits away before the call."""
    on = Identifier([text_refs])
    every = Identifier([text_refs])
    every.t = replace(on.t, pooled_guided_min_similarity=0.0)
    on_calls, every_calls = _counting(on), _counting(every)
    frames = unenrolled_and_empty(928000, 10, 929000, 6)
    answers = [on.identify(f) for f in frames] + [every.identify(f) for f in frames]
    assert not any(r.is_match for r in answers), [r.card for r in answers if r.is_match]
    assert every_calls[0] >= 6, every_calls  # the unenrolled cards' fits do reach guided matching ...
    assert on_calls[0] <= every_calls[0] // 2, (on_calls, every_calls)  # ... and the bar spares most
