"""Speed-only shortcuts (issue 13) change what is computed, never what is decided."""

from __future__ import annotations

import cv2
import numpy as np

from device.hardware.vision import decks
from device.hardware.vision.appearance import FaceRows, correlate, standardise
from device.hardware.vision.badge_finder import BadgeColour, BadgeFinder, _chroma_planes, _near
from device.hardware.vision.captures import iter_hold, single_frame
from device.hardware.vision.card_art import BADGE_BGR, render_card
from device.hardware.vision.features import Features
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet


def _judgements(ident: Identifier, frame: np.ndarray) -> tuple[object, int]:
    """The badge path's answer for a frame and how many fits it judged."""
    calls = 0
    judge = ident._judge

    def counting(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        return judge(*args, **kwargs)  # type: ignore[arg-type]

    ident._judge = counting  # type: ignore[method-assign]
    try:
        ident._views_of, ident._in_identify = None, True
        return ident._badge_by_field(frame), calls
    finally:
        ident._in_identify = False
        del ident._judge


def test_a_badge_coloured_patch_without_the_badge_is_not_judged(synthetic_refs: ReferenceSet) -> None:
    """A flat green patch on this ceiling: aligned to the green badge's field every way, its view
    anti-correlates with the badge's face, so no judgement is spent on it (without the shortcut,
    four were). Flat patches on other ceilings can correlate up to ~0.8 (field against
    background) and are judged as before: the shortcut is for patches that look like nothing.
    The slow identifier also turns off the rough-view gate, which would skip this patch before
    alignment and so hide whether the aligned-view shortcut works."""
    fast = Identifier([synthetic_refs])
    slow = Identifier([synthetic_refs], Thresholds(badge_min_view=-2.0, badge_min_rough_view=-2.0))
    frame = single_frame(None, 1202, "easy")
    cv2.fillConvexPoly(frame, np.int32([[180, 110], [420, 140], [400, 400], [170, 370]]), BADGE_BGR["green"])
    assert fast._badge_finder.candidates(frame)
    (r_fast, n_fast), (r_slow, n_slow) = _judgements(fast, frame), _judgements(slow, frame)
    assert r_fast is None and r_slow is None
    assert n_fast == 0 and n_slow > 0


def test_a_badge_the_features_miss_is_still_judged_and_named(synthetic_refs: ReferenceSet) -> None:
    """The red-badge hold of test_badge_finder (tuning seed 1494): found by its field only."""
    ident = Identifier([synthetic_refs])
    frames = iter_hold(render_card(decks.SYNTHETIC_DECK, "badge-red"), 1494, "medium")
    for _ in range(4):
        result, calls = _judgements(ident, next(frames))
        assert calls > 0 and result is not None and result.card == "badge-red"


def _field_mask_by_definition(finder: BadgeFinder, small: np.ndarray, badge: BadgeColour) -> np.ndarray:
    """The field mask as first written: the median of each lit pixel's chromaticity distance
    (unlit ones far), under the tolerance."""
    chroma = small / (small.sum(axis=2)[..., None] + 1e-3)
    dist = np.abs(chroma - badge.chroma.astype(np.float32)).sum(axis=2)
    dist = np.where(small.sum(axis=2) >= 60, dist, 9.0).astype(np.float32)
    return cv2.medianBlur(dist, 5) <= finder.tolerance


def test_the_badge_field_mask_is_its_definition_bit_for_bit(synthetic_refs: ReferenceSet) -> None:
    """The finder thresholds each channel plane, then takes the median of the thresholded mask
    (cheaper, and the same pixels: both monotone); a badge hold and badge-coloured patches, with
    a patch of the same hue too dark to count."""
    ident = Identifier([synthetic_refs])
    finder = ident._badge_finder
    frames = [next(iter_hold(render_card(decks.SYNTHETIC_DECK, "badge-red"), 1494, "medium"))]
    for i, colour in enumerate(("red", "blue", "green", "yellow", "purple")):
        frame = single_frame(None, 1200 + i, "medium")
        cv2.fillConvexPoly(frame, np.int32([[180, 110], [420, 140], [400, 400], [170, 370]]), BADGE_BGR[colour])
        dim = tuple(int(c) // 12 for c in BADGE_BGR[colour])  # its hue, too dark for chromaticity to count
        cv2.rectangle(frame, (20, 20), (140, 100), dim, -1)
        frames.append(frame)
    compared = 0
    for frame in frames:
        small = cv2.pyrDown(frame).astype(np.float32)
        planes, lit = _chroma_planes(small)
        for badge in finder.badges:
            want = _field_mask_by_definition(finder, small, badge)
            near = _near(planes, lit, badge.chroma.astype(np.float32), finder.tolerance)
            got = cv2.medianBlur(near.view(np.uint8), 5).astype(bool)
            assert np.array_equal(got, want), ident.labels[badge.card]
            compared += int(want.any())
        assert len(finder.candidates(frame)) == len(finder.candidates(frame, cv2.pyrDown(frame)))
    assert compared >= 6  # the masks compared were not all empty


def _standardise_by_definition(x: np.ndarray) -> np.ndarray:
    x = x.astype(np.float64)
    x = x - x.mean(axis=-2, keepdims=True)
    return x / (np.sqrt((x * x).mean(axis=-2, keepdims=True)) + 1e-3)


def _correlate_by_definition(obs: np.ndarray, refs: np.ndarray, trim: float) -> np.ndarray:
    """The trimmed correlation as first written: each reference's worst-fitting pixels dropped by
    index, the rest gathered and correlated again (in float64 here)."""
    n = len(obs)
    zo, zr = _standardise_by_definition(obs), _standardise_by_definition(refs)
    rho = np.einsum("nc,mnc->mc", zo, zr) / n
    if trim <= 0:
        return rho.mean(axis=1)
    keep_n = max(20, int(n * (1.0 - trim)))
    out = np.empty(len(refs))
    for m in range(len(refs)):
        resid = np.abs(zo - rho[m] * zr[m]).sum(axis=1)
        keep = np.argsort(resid, kind="stable")[:keep_n]
        a, b = _standardise_by_definition(obs[keep]), _standardise_by_definition(refs[m][keep])
        out[m] = (a * b).sum() / (3 * keep_n)
    return out


def test_standardise_is_its_definition_to_float_rounding() -> None:
    """Channel-major rows with pairwise sums, in any memory layout."""
    rng = np.random.default_rng(13)
    for n, lead in ((20, ()), (700, ()), (2500, (2,)), (1300, (60,)), (5000, (1,))):
        for dtype in (np.float32, np.float64):
            x = (rng.normal(size=(*lead, n, 3)) * 40 + 90).astype(dtype)
            got = standardise(x)
            assert got.dtype == dtype and got.shape == x.shape
            assert np.allclose(got, _standardise_by_definition(x), atol=2e-5), (n, lead, dtype)
    faces = rng.normal(size=(60, 88, 63, 3)).astype(np.float32)
    masked = faces[np.arange(5, 60)][:, rng.random((88, 63)) < 0.4]  # pixels outermost in memory
    assert not masked.flags.c_contiguous
    assert np.allclose(standardise(masked), _standardise_by_definition(masked), atol=2e-5)


def test_the_trimmed_correlation_is_its_definition_to_float_rounding() -> None:
    """The masked, channel-major correlation against the gathered one it replaced: views that are a
    lit, noisy reference under a finger (a block of one value), against it and another face, with
    and without trimming; too few pixels give zeros."""
    rng = np.random.default_rng(63)
    for n in (20, 57, 800, 2100, 4800):
        ref = cv2.GaussianBlur(rng.normal(0, 25, (n, 1, 3)).astype(np.float32), (0, 0), 2).reshape(n, 3) + 90
        other = rng.normal(90, 25, (n, 3)).astype(np.float32)
        view = (ref * np.float32([0.6, 0.9, 1.1]) + 12 + rng.normal(0, 6, ref.shape)).astype(np.float32)
        view[: n // 6] = 230  # a finger
        for refs in (ref[None], np.stack([ref, other]), np.stack([other, ref, ref * 0.5])):
            for trim in (0.0, 0.25):
                got = correlate(view, refs, trim)
                assert got.shape == (len(refs),)
                assert np.allclose(got, _correlate_by_definition(view, refs, trim), atol=1e-5), (n, len(refs), trim)
    assert np.array_equal(correlate(np.ones((19, 3), np.float32), np.ones((2, 19, 3), np.float32), 0.25), [0, 0])


def test_ranking_a_family_by_matrix_products_gives_the_gathered_correlations() -> None:
    """FaceRows.correlate (the tournament's ranking of every enrolled face) against `correlate` on
    the gathered pixels, for the whole deck and for small families, under masks of any size: the
    same values to float32 rounding, and so the same ranking; too few pixels give zeros as before."""
    rng = np.random.default_rng(5)
    faces = np.stack(
        [cv2.GaussianBlur(rng.normal(0, 20, (40, 30, 3)).astype(np.float32), (0, 0), 1) for _ in range(50)]
    )
    rows = FaceRows(faces)
    for share in (0.9, 0.3, 0.05):
        mask = rng.random((40, 30)) < share
        view = (faces[7] * 0.6 + 15 + rng.normal(0, 8, faces[7].shape)).astype(np.float32)  # a lit, noisy face 7
        for members in (np.arange(50), np.array([3, 7, 11]), np.array([40, 2, 7, 19, 33, 8, 1, 0, 25, 14, 9, 30])):
            expected = correlate(view[mask], faces[members][:, mask])
            got = rows.correlate(view, mask, members)
            assert got.shape == expected.shape
            assert np.abs(got - expected).max() < 1e-5, (share, members)
            assert members[int(np.argmax(got))] == 7
    nothing = FaceRows(np.zeros((0, 40, 30, 3), np.float32))  # an identifier with no cards enrolled
    assert nothing.correlate(faces[7], np.ones((40, 30), bool), np.zeros(0, np.int64)).shape == (0,)
    nineteen = np.zeros((40, 30), bool)
    nineteen[:19, 0] = True
    assert not rows.correlate(faces[7], nineteen, np.arange(50)).any()


_Votes = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _votes_by_definition(ident: Identifier, feats: Features) -> _Votes | None:
    """Each query's nearest candidate (the lowest reference row among equals) and its nearest
    candidate of a card that is no look-alike of the first's, one query at a time in Python."""
    cand = ident.index.candidates(feats.descriptors)
    rows, refs, cards = [], [], []
    for q in np.unique(cand.query):
        pairs = sorted(zip(cand.dist[cand.query == q].tolist(), cand.ref[cand.query == q].tolist(), strict=True))
        d1, best = pairs[0]
        card = int(ident.owner[best])
        others = [d for d, r in pairs if not ident.alike[card, int(ident.owner[r])]]
        d2 = min(min(others, default=1 << 20), 256)
        if d1 <= ident.t.max_dist and d1 < ident.t.ratio * d2:
            rows.append(int(q))
            refs.append(best)
            cards.append(card)
    if not rows:
        return None
    q_card = np.array(cards, np.int64)
    return np.bincount(q_card, minlength=len(ident.labels)), feats.points[rows], ident.points[refs], q_card


def test_the_votes_are_their_per_query_definition(identifier: Identifier) -> None:
    """`Identifier._votes` (flat look-ups over every candidate pair at once) against the nearest
    and the nearest outside the family found query by query: the same votes, points and cards,
    on frames with a card and empty tables, with two decks enrolled (so families span decks)."""
    cards = decks.card_ids_for(decks.SYNTHETIC_DECK) or []
    frames = [single_frame(render_card(decks.SYNTHETIC_DECK, cards[k]), 900 + k, "medium") for k in (0, 9, 23, 41)]
    frames += [single_frame(None, 950 + k, "medium", "table") for k in range(2)]
    voted = 0
    for frame in frames:
        feats = identifier.extractor.frame(frame)
        got, expected = identifier._votes(feats), _votes_by_definition(identifier, feats)
        assert (got is None) == (expected is None)
        if got is not None and expected is not None:
            voted += 1
            for a, b in zip(got, expected, strict=True):
                assert np.array_equal(a, b)
    assert voted >= 4  # (the frames with a card vote)
