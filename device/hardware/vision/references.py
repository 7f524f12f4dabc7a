"""Enrolled card references: normalising enrollment images and storing them in the data dir.

A reference set is one deck's cards, each with ORB features in canonical card coordinates (from
every view taken of it) and a small colour thumbnail for the appearance and colour checks. The
store is one `.npz` per deck under `<data dir>/vision/`, written atomically; anything unreadable or
from another format version raises `ReferenceStoreError`, whose message says to re-enroll.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from device.hardware.vision.card_art import CARD_H, CARD_W
from device.hardware.vision.features import FeatureExtractor, Features

STORE_VERSION = 1
THUMB_SCALE = 0.25
THUMB_W, THUMB_H = round(CARD_W * THUMB_SCALE), round(CARD_H * THUMB_SCALE)
DETAIL_SCALE = 0.5  # twice the thumbnail: where near-twins (a title, a small mark) can be told apart
DETAIL_W, DETAIL_H = round(CARD_W * DETAIL_SCALE), round(CARD_H * DETAIL_SCALE)
MAX_FEATURES_PER_CARD = 1600  # two described views of ~500 each, plus room for extra photos
IMAGE_EXTS = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
_NAME_RE = re.compile(r"^(?P<card>.+?)(?:__(?P<n>[^.]*))?$")


class ReferenceStoreError(Exception):
    """The reference store is missing, corrupt or stale; the fix is to enroll the deck again."""


@dataclass(frozen=True)
class ReferenceSet:
    """One deck's enrolled cards (`owner[i]` is the card index of feature row i)."""

    deck: str
    cards: tuple[str, ...]
    thumbs: np.ndarray  # C x THUMB_H x THUMB_W x 3 uint8
    points: np.ndarray  # K x 2 float32, canonical card coordinates
    descriptors: np.ndarray  # K x 32 uint8
    owner: np.ndarray  # K int32
    calibration: dict[str, float] | None = None  # measured at enrollment (calibration.py)
    look_alikes: np.ndarray | None = None  # C x C bool, measured at enrollment (saves ~2 s per load)
    details: np.ndarray | None = None  # C x DETAIL_H x DETAIL_W x 3 uint8, for near-twin duels

    @property
    def strictness(self) -> float:
        """The deck's calibrated strictness (0.5, today's thresholds, if never calibrated)."""
        from device.hardware.vision.calibration import DEFAULT_STRICTNESS

        return float(self.calibration["strictness"]) if self.calibration else DEFAULT_STRICTNESS

    @property
    def retry_min_votes(self) -> int:
        """Votes that earn the expensive retries (0, always, if never calibrated)."""
        return int((self.calibration or {}).get("retry_min_votes", 0))


def default_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """--data-dir, else $HOUSTON_DATA_DIR, else houston.toml's box.data_dir: the same place the
    running box looks for its references."""
    from device.box.config import resolve_data_dir

    return resolve_data_dir(explicit)


def store_path(data_dir: Path, deck: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", deck)
    return Path(data_dir) / "vision" / f"{safe}.npz"


def detail(card_img: np.ndarray) -> np.ndarray:
    """The face at twice the thumbnail's resolution, for duels between near-twins."""
    small = cv2.resize(card_img, (DETAIL_W, DETAIL_H), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0)


def thumbnail(card_img: np.ndarray) -> np.ndarray:
    """The small, slightly smoothed colour image the appearance check compares against."""
    small = cv2.resize(card_img, (THUMB_W, THUMB_H), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0)


# --- normalising enrollment images -------------------------------------------------------------


def _order_corners(quad: np.ndarray) -> np.ndarray:
    """TL, TR, BR, BL order, with the long side vertical (cards are portrait)."""
    pts = quad.reshape(4, 2).astype(np.float32)
    centre = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(ang)]  # clockwise in image coordinates, starting near TL
    start = int(np.argmin(pts.sum(axis=1)))
    pts = np.roll(pts, -start, axis=0)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[3] - pts[0]):  # landscape: turn
        pts = np.roll(pts, -1, axis=0)
    return pts


def normalise_card_image(img: np.ndarray) -> np.ndarray:
    """Warp a photo of one card to the canonical CARD_H x CARD_W face.

    A scan (the whole image is the card) is just resized; a photo of a card on a contrasting
    surface is cut out along the largest four-cornered outline.
    """
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    h, w = img.shape[:2]
    grey = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(grey, 40, 120), None)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best = None
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
        area = cv2.contourArea(c)
        if area < 0.2 * h * w or area > 0.97 * h * w:
            continue
        quad = cv2.approxPolyDP(c, 0.02 * cv2.arcLength(c, True), True)
        if len(quad) == 4 and cv2.isContourConvex(quad):
            best = quad
            break
    if best is not None and _inner_frame_of_scan(best, w, h):
        best = None  # a scan's own printed frame, not a card on a table
    if best is None:
        if w > h:
            img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
        return cv2.resize(img, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    src = _order_corners(best)
    dst = np.float32([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]])
    return cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (CARD_W, CARD_H))


def _inner_frame_of_scan(quad: np.ndarray, w: int, h: int) -> bool:
    """A big, upright rectangle hugging every image border is a frame printed on a scan (most
    decks print one), not the outline of a card photographed on a table."""
    pts = _order_corners(quad)
    if w > h:
        return False
    corners = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    near = np.abs(pts - corners) <= np.float32([0.08 * w, 0.08 * h])
    return bool(near.all())


def card_id_from_filename(path: Path) -> str:
    """`<card-id>.<ext>` or `<card-id>__<n>.<ext>` -> card id. A tab, a line break or another
    unprintable character is refused (ValueError): `houston identify` prints the id between tabs,
    one image a line, for the programs that read its output."""
    m = _NAME_RE.match(path.stem)
    card = m.group("card") if m else path.stem
    if not card.isprintable():
        raise ValueError(f"the card id in {path.name!r} has a tab, a line break or another unprintable character")
    return card


def images_by_card(folder: Path) -> dict[str, list[Path]]:
    """Enrollment images in a folder, grouped by the card id in their names (sorted, stable)."""
    found: dict[str, list[Path]] = {}
    for p in sorted(Path(folder).iterdir()):
        if p.is_file() and p.suffix.lower() in IMAGE_EXTS:
            found.setdefault(card_id_from_filename(p), []).append(p)
    return found


def build_reference_set(
    deck: str, views: dict[str, list[np.ndarray]], extractor: FeatureExtractor | None = None
) -> ReferenceSet:
    """Reference set from canonical card faces (several views per card are pooled)."""
    extractor = extractor or FeatureExtractor()
    cards = tuple(views)
    thumbs, pts, descs, owner, details = [], [], [], [], []
    for i, card in enumerate(cards):
        faces = views[card]
        if not faces:
            raise ValueError(f"no image for card {card!r}")
        feats = [extractor.card(face) for face in faces]
        p = np.concatenate([f.points for f in feats]) if feats else Features.empty().points
        d = np.concatenate([f.descriptors for f in feats])
        if len(p) > MAX_FEATURES_PER_CARD:
            keep = np.linspace(0, len(p) - 1, MAX_FEATURES_PER_CARD).astype(int)
            p, d = p[keep], d[keep]
        thumbs.append(np.mean([thumbnail(f) for f in faces], axis=0).astype(np.uint8))
        details.append(np.mean([detail(f) for f in faces], axis=0).astype(np.uint8))
        pts.append(p)
        descs.append(d)
        owner.append(np.full(len(p), i, np.int32))
    return ReferenceSet(
        deck,
        cards,
        np.stack(thumbs) if thumbs else np.zeros((0, THUMB_H, THUMB_W, 3), np.uint8),
        np.concatenate(pts).astype(np.float32) if pts else np.zeros((0, 2), np.float32),
        np.concatenate(descs) if descs else np.zeros((0, 32), np.uint8),
        np.concatenate(owner) if owner else np.zeros(0, np.int32),
        details=np.stack(details) if details else np.zeros((0, DETAIL_H, DETAIL_W, 3), np.uint8),
    )


def read_folder(
    folder: Path, expected: Iterable[str] | None = None
) -> tuple[dict[str, list[np.ndarray]], list[str], list[str]]:
    """Canonical faces from `<card-id>[__n].<ext>` images; also (unknown ids, missing ids).

    With a known catalogue (`expected`), files naming other ids are skipped and reported.
    """
    found = images_by_card(folder)
    unknown: list[str] = []
    missing: list[str] = []
    if expected is not None:
        allowed = list(expected)
        unknown = sorted(set(found) - set(allowed))
        missing = [c for c in allowed if c not in found]
        found = {c: found[c] for c in allowed if c in found}
    views: dict[str, list[np.ndarray]] = {}
    for card, paths in found.items():
        faces = []
        for p in paths:
            img = cv2.imread(str(p), cv2.IMREAD_COLOR)
            if img is None or min(img.shape[:2]) < 16:
                raise ValueError(f"cannot read image {p} (not an image, or too small to be a card)")
            faces.append(normalise_card_image(img))
        views[card] = faces
    return views, unknown, missing


def enroll_folder(
    deck: str, folder: Path, expected: Iterable[str] | None = None
) -> tuple[ReferenceSet, list[str], list[str]]:
    """Reference set from a folder (see `read_folder`), uncalibrated."""
    views, unknown, missing = read_folder(folder, expected)
    return build_reference_set(deck, views), unknown, missing


# --- the store ------------------------------------------------------------------------------


def save(refs: ReferenceSet, data_dir: Path) -> Path:
    """Write a deck's references atomically (temp file, fsync, rename, fsync the directory)."""
    path = store_path(data_dir, refs.deck)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(
                f,
                version=np.int64(STORE_VERSION),
                deck=np.array(refs.deck),
                cards=np.array(refs.cards, dtype=str),
                thumbs=refs.thumbs,
                points=refs.points,
                descriptors=refs.descriptors,
                owner=refs.owner,
                calibration=np.array(json.dumps(refs.calibration or {})),
                look_alikes=refs.look_alikes if refs.look_alikes is not None else np.zeros((0, 0), bool),
                details=refs.details if refs.details is not None else np.zeros((0, DETAIL_H, DETAIL_W, 3), np.uint8),
            )
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load(data_dir: Path, deck: str) -> ReferenceSet:
    """Read a deck's references; a clear `ReferenceStoreError` instead of a crash if broken."""
    path = store_path(data_dir, deck)
    hint = f"run: houston enroll --deck {deck} --from DIR"
    if not path.exists():
        raise ReferenceStoreError(f"no enrolled cards for deck {deck!r} in {path.parent} ({hint})")
    try:
        with np.load(path, allow_pickle=False) as z:
            version = int(z["version"])
            if version != STORE_VERSION:
                raise ReferenceStoreError(
                    f"references for deck {deck!r} are format {version}, need {STORE_VERSION}; {hint}"
                )
            refs = ReferenceSet(
                str(z["deck"]),
                tuple(str(c) for c in z["cards"]),
                z["thumbs"].astype(np.uint8),
                z["points"].astype(np.float32),
                z["descriptors"].astype(np.uint8),
                z["owner"].astype(np.int32),
                _calibration(z),
                _look_alikes(z),
                _details(z),
            )
    except ReferenceStoreError:
        raise
    except Exception as exc:  # zip, pickle, key and shape errors all mean the same to the user
        raise ReferenceStoreError(f"reference store {path} is unreadable ({exc}); {hint}") from exc
    ok = (
        refs.thumbs.shape[1:] == (THUMB_H, THUMB_W, 3)
        and len(refs.thumbs) == len(refs.cards)
        and refs.points.shape == (len(refs.descriptors), 2)
        and refs.descriptors.shape[1:] == (32,)
        and refs.owner.shape == (len(refs.points),)
        and (len(refs.owner) == 0 or 0 <= refs.owner.min() <= refs.owner.max() < len(refs.cards))
    )
    if not ok:
        raise ReferenceStoreError(f"reference store {path} is inconsistent; {hint}")
    return refs


def _details(z) -> np.ndarray | None:
    """The stored detail faces, if any (older stores: near-twins are dueled on thumbnails)."""
    if "details" not in z.files:
        return None
    d = z["details"].astype(np.uint8)
    return d if d.shape == (len(z["cards"]), DETAIL_H, DETAIL_W, 3) else None


def _look_alikes(z) -> np.ndarray | None:
    """The stored look-alike matrix, if any (older stores: measured again when loaded)."""
    if "look_alikes" not in z.files:
        return None
    alike = z["look_alikes"].astype(bool)
    n = len(z["cards"])
    return alike if alike.shape == (n, n) else None


def _calibration(z) -> dict[str, float] | None:
    """The stored calibration (None for stores written before calibration existed)."""
    if "calibration" not in z.files:
        return None
    data = json.loads(str(z["calibration"]))
    if not data:
        return None
    strictness = float(data["strictness"])
    if not 0.0 <= strictness <= 1.0:
        raise ValueError(f"strictness {strictness} out of range")
    return {k: float(v) for k, v in data.items()}


def enrolled_decks(data_dir: Path) -> list[str]:
    """Deck names with a reference file (file stems; decks with odd characters are escaped)."""
    folder = Path(data_dir) / "vision"
    return sorted(p.stem for p in folder.glob("*.npz")) if folder.is_dir() else []


def load_all(data_dir: Path, decks: Iterable[str] | None = None) -> list[ReferenceSet]:
    """Every enrolled deck (or the named ones); errors name the deck and say to re-enroll."""
    names = list(decks) if decks is not None else enrolled_decks(data_dir)
    if not names:
        raise ReferenceStoreError(
            f"no enrolled cards in {Path(data_dir) / 'vision'} (run: houston enroll --deck NAME --from DIR)"
        )
    return [load(data_dir, name) for name in names]
