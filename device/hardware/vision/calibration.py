"""Per-deck acceptance thresholds, measured at enrollment on the deck's own images.

Fixed thresholds are tuned to one deck's art and one camera: on a deck with another frame or
other colours they either refuse most true views or let look-alikes through. So each deck is
calibrated when it is enrolled:

- **positives**: every enrolled face rendered into a few synthetic captures (pose, blur, light,
  noise, glare; the own-world capture model) and identified with the loosest thresholds;
- **negatives**: the deck's own cards seen by an identifier that was built *without* them
  (leave-a-fold-out: an unenrolled card in the same frame template, the hardest negative), cards
  of other decks, and empty scenes.

One strictness `t` in [0, 1] moves all four decision thresholds together (a piecewise-linear path
through today's values at t = 0.5). The smallest `t` at which no negative is accepted is found on
the loose run's statistics, checked by identifying the negatives again at that `t`, and a safety
step is added. Pairs the enrollment report already calls "too alike to tell apart" are not used
as leave-out negatives (no threshold can tell a card from its unenrolled twin).

The result is stored with the references (`ReferenceSet.calibration`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from device.hardware.vision.identifier import Identification, Identifier, Thresholds
    from device.hardware.vision.references import ReferenceSet

# (min_similarity, min_margin, min_whole, min_outsider_margin) at t = 0, 0.5, 1.
_PATH = np.array(
    [
        [0.55, 0.02, 0.45, 0.0],
        [0.80, 0.10, 0.70, 0.03],
        [0.93, 0.25, 0.86, 0.10],
    ]
)
DEFAULT_STRICTNESS = 0.5  # references enrolled before calibration existed: today's thresholds
SAFETY_STEP = 0.1  # added to the loosest strictness that refused every negative: the sample is small
MIN_STRICTNESS = 0.3  # a floor for the same reason (similarity 0.70, margin 0.07, whole face 0.60)
RETRY_VOTE_FACTOR = 1.25  # retries need this many times the best family votes seen in empty scenes
_GRID = np.round(np.arange(0.0, 1.0001, 0.025), 3)


def thresholds_at(base: Thresholds, t: float) -> Thresholds:
    """The decision thresholds at strictness t (0 loosest, 1 strictest)."""
    v = _values(t)
    return replace(base, min_similarity=v[0], min_margin=v[1], min_whole=v[2], min_outsider_margin=v[3])


def _accepts(r: Identification, t: float) -> bool:
    th = _values(t)
    return r.similarity >= th[0] and r.margin >= th[1] and r.whole >= th[2] and r.outsider_margin >= th[3]


def _values(t: float) -> np.ndarray:
    t = float(np.clip(t, 0.0, 1.0))
    lo, k = (0, t / 0.5) if t <= 0.5 else (1, (t - 0.5) / 0.5)
    return _PATH[lo] + k * (_PATH[lo + 1] - _PATH[lo])


@dataclass(frozen=True)
class Calibration:
    """What enrollment measured: the strictness and the evidence it was chosen on."""

    strictness: float
    positives: int
    positives_accepted: int
    negatives: int
    loose_false_accepts: int
    retry_min_votes: int

    def as_dict(self) -> dict[str, float]:
        return {
            "strictness": self.strictness,
            "positives": self.positives,
            "positives_accepted": self.positives_accepted,
            "negatives": self.negatives,
            "loose_false_accepts": self.loose_false_accepts,
            "retry_min_votes": self.retry_min_votes,
        }


def calibrate(
    refs: ReferenceSet,
    faces: dict[str, list[np.ndarray]],
    make_identifier: Callable[[list[ReferenceSet], Thresholds | None, np.ndarray | None], Identifier],
    *,
    views_per_card: int = 1,
    folds: int = 3,
    empty_scenes: int = 24,
    other_cards: int = 24,
    seed: int = 7,
) -> Calibration:
    """Choose the deck's strictness (see the module docstring)."""
    from device.hardware.vision import captures, decks
    from device.hardware.vision.card_art import render_card
    from device.hardware.vision.identifier import Thresholds

    cards = list(refs.cards)
    rng = np.random.default_rng(seed)
    ident = make_identifier([refs], thresholds_at(Thresholds(), 0.0), None)
    too_alike = {c for pair in ident.too_alike() for c in pair}

    # Empty scenes first: the votes clutter alone gives the best family set the bar for the
    # expensive retries; everything after runs with that bar, as the running box will.
    empty = [captures.single_frame(None, seed * 9000 + j, "medium") for j in range(empty_scenes)]
    empty_support = [ident.support(frame) for frame in empty]
    retry_min_votes = int(np.ceil(RETRY_VOTE_FACTOR * max(empty_support, default=0)))
    loose = replace(thresholds_at(Thresholds(), 0.0), retry_min_votes=retry_min_votes)
    ident.t = loose

    pos_stats: list[Identification] = []
    pos_total = 0
    for i, card in enumerate(cards):
        face = faces[card][0]
        for j in range(views_per_card):
            frame = captures.single_frame(face, seed * 1000 + i * 7 + j, ("easy", "medium")[j % 2])
            pos_total += 1
            r = ident.identify(frame)
            if r.is_match and r.card == card:
                pos_stats.append(r)

    negatives: list[tuple[list[ReferenceSet], np.ndarray]] = [([refs], frame) for frame in empty]
    order = rng.permutation(len(cards))
    sub_alike: dict[int, np.ndarray] = {}
    for f in range(folds if len(cards) >= 2 * folds else 0):
        out = [cards[k] for k in order[f::folds]]
        kept = [c for c in cards if c not in out]
        sub = _subset(refs, kept)
        idx = [cards.index(c) for c in kept]
        sub_alike[id(sub)] = ident.alike[np.ix_(idx, idx)]
        for j, card in enumerate(out):
            if card in too_alike:
                continue
            negatives.append(([sub], captures.single_frame(faces[card][0], seed * 5000 + f * 997 + j, "easy")))
    own = set(cards)
    unenrolled = decks.synthetic_unenrolled()
    others = [c for c in unenrolled + decks.synthetic_foreign_deck() if c not in own][:other_cards]
    for j, card in enumerate(others):
        deck = decks.SYNTHETIC_DECK if card in unenrolled else decks.FOREIGN_DECK
        negatives.append(([refs], captures.single_frame(render_card(deck, card), seed * 7000 + j, "easy")))

    built: dict[int, Identifier] = {id(refs): ident}
    neg_stats: list[tuple[list[ReferenceSet], np.ndarray, Identification]] = []
    for sets, frame in negatives:
        key = id(sets[0])
        if key not in built:
            built[key] = make_identifier(sets, loose, sub_alike[key])
        r = built[key].identify(frame)
        if r.is_match:
            neg_stats.append((sets, frame, r))

    t = next((float(t) for t in _GRID if not any(_accepts(r, t) for _, _, r in neg_stats)), 1.0)
    t = min(1.0, max(MIN_STRICTNESS, t + SAFETY_STEP))
    # Check: identify the negatives that matched loosely again at the chosen strictness.
    while t < 1.0:
        strict = thresholds_at(loose, t)
        fooled = False
        for sets, frame, _ in neg_stats:
            judge = built[id(sets[0])]
            judge.t = strict
            fooled = judge.identify(frame).is_match
            judge.t = loose
            if fooled:
                break
        if not fooled:
            break
        t = min(1.0, t + 0.05)
    accepted = sum(_accepts(r, t) for r in pos_stats)
    return Calibration(round(t, 3), pos_total, int(accepted), len(negatives), len(neg_stats), retry_min_votes)


def _subset(refs: ReferenceSet, cards: list[str]) -> ReferenceSet:
    from device.hardware.vision.references import ReferenceSet

    idx = [refs.cards.index(c) for c in cards]
    rows = np.isin(refs.owner, idx)
    remap = np.full(len(refs.cards), -1, np.int32)
    remap[idx] = np.arange(len(idx), dtype=np.int32)
    return ReferenceSet(
        refs.deck,
        tuple(cards),
        refs.thumbs[idx],
        refs.points[rows],
        refs.descriptors[rows],
        remap[refs.owner[rows]],
        details=refs.details[idx] if refs.details is not None else None,
    )
