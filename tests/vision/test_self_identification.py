"""Every enrollment image names its own card, on every deck the tests enroll.

Flat scans fill the whole image (a printed frame near the border must not be taken for the
card's outline); photos show the card on a table with perspective and are cut out along its
outline. Both are enrolled exactly as `houston enroll --from` does (read_folder), and each image
is then identified as it is.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from device.hardware.vision import decks, heldout_world
from device.hardware.vision.calibration import thresholds_at
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import build_reference_set, read_folder

DECKS = {
    decks.SYNTHETIC_DECK: (decks.synthetic_deck(), lambda c: render_card(decks.SYNTHETIC_DECK, c)),
    decks.FOREIGN_DECK: (decks.synthetic_foreign_deck(), lambda c: render_card(decks.FOREIGN_DECK, c)),
    decks.SHARED_FRAME_DECK: (decks.shared_frame_deck(), lambda c: render_card(decks.SHARED_FRAME_DECK, c)),
    heldout_world.DECK_NAME: (heldout_world.deck(), heldout_world.render),
}


def photo(face: np.ndarray, seed: int) -> np.ndarray:
    """The card lying on a table, photographed from a little off straight above (900 x 700)."""
    rng = np.random.default_rng(seed)
    scene = cv2.resize(heldout_world.table_scene(rng), (900, 700))
    h, w = face.shape[:2]
    s = 560 / h
    cx, cy = 450 + rng.uniform(-60, 60), 350 + rng.uniform(-20, 20)
    corners = np.float32([[-w * s / 2, -280], [w * s / 2, -280], [w * s / 2, 280], [-w * s / 2, 280]])
    corners += rng.uniform(-25, 25, (4, 2)).astype(np.float32) + np.float32([cx, cy])
    src = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    m = cv2.getPerspectiveTransform(src, corners)
    warped = cv2.warpPerspective(face, m, (900, 700))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (900, 700)) > 127
    scene[mask] = warped[mask]
    return scene


def _self_identify(folder: Path, deck: str, thresholds: Thresholds | None = None) -> list[tuple[str, str | None, str]]:
    faces, _, _ = read_folder(folder)
    ident = Identifier([build_reference_set(deck, faces)], thresholds)
    wrong = []
    for path in sorted(folder.iterdir()):
        card = path.stem.split("__")[0]
        r = ident.identify(cv2.imread(str(path)))
        if not (r.is_match and r.card == card):
            wrong.append((card, r.card, r.status))
    return wrong


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_every_scan_names_its_own_card(deck: str, tmp_path: Path) -> None:
    cards, render = DECKS[deck]
    for card in cards:
        cv2.imwrite(str(tmp_path / f"{card}.png"), render(card))
    assert _self_identify(tmp_path, deck) == []


@pytest.mark.parametrize("deck", [decks.SYNTHETIC_DECK, decks.SHARED_FRAME_DECK])
def test_every_scan_names_its_own_card_at_the_strictest_calibration(deck: str, tmp_path: Path) -> None:
    """Calibration may make a deck strict (the own deck calibrates to 0.7-0.75). A flat scan of a
    badge then lost its look-alike margin (0.111 against 0.175): badges of one design differ by
    colour, which the edge duel hardly sees; where the colours agree with the edges, their margin
    counts (`colour_duel_agree`)."""
    cards, render = DECKS[deck]
    for card in cards:
        cv2.imwrite(str(tmp_path / f"{card}.png"), render(card))
    assert _self_identify(tmp_path, deck, thresholds_at(Thresholds(), 1.0)) == []


_PHOTO_MISSES = pytest.mark.xfail(
    strict=True,
    reason="not met yet (issue 13): photos of the held-out deck enrolled from photos are not all named "
    "as themselves (18 of 60 'unknown' when this was written); synthetic-shared's pass since OpenCV 4.14 "
    "on this project's machines (docs/vision.md, stop 22)",
)


@pytest.mark.parametrize(
    "deck",
    [
        pytest.param(d, marks=_PHOTO_MISSES) if d == heldout_world.DECK_NAME else d
        for d in sorted(DECKS)
    ],
)
def test_every_photo_names_its_own_card(deck: str, tmp_path: Path) -> None:
    cards, render = DECKS[deck]
    for i, card in enumerate(cards):
        cv2.imwrite(str(tmp_path / f"{card}__1.jpg"), photo(render(card), i))
    assert _self_identify(tmp_path, deck) == []
