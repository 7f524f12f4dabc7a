"""Procedural card faces: stand-ins for the real card art, which we cannot ship.

Cards of one role share a frame (border, pattern, role icon and title) and differ only in the name
banner and the portrait, so that e.g. all engineers look alike: the hard case for recognition.
Team badges are a plain coloured field with the same emblem, i.e. low texture and told apart by
colour alone. Everything is derived from stable hashes of the ids, so a card always looks the same.
"""

from __future__ import annotations

import hashlib

import cv2
import numpy as np

from device.hardware.vision.decks import BADGE_COLOURS, PLAIN_PROBE_DECK, TEXT_FRAME_DECK

CARD_W, CARD_H = 252, 352  # 63 x 88 mm at 4 px/mm
CARD_CORNERS = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])  # clockwise from top-left
CARD_CORNERS.setflags(write=False)  # shared by the finder and the identifier

BADGE_BGR: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 210),
    "blue": (200, 90, 30),
    "green": (60, 170, 50),
    "yellow": (40, 215, 235),
    "purple": (160, 50, 130),
    "white": (235, 235, 235),
}
assert set(BADGE_BGR) == set(BADGE_COLOURS)

_FONT = cv2.FONT_HERSHEY_SIMPLEX


def stable_rng(*parts: str) -> np.random.Generator:
    """A generator seeded by a hash of the given strings (stable across runs and machines)."""
    digest = hashlib.sha256("\x1f".join(parts).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def _colour(rng: np.random.Generator, lo: int = 30, hi: int = 230) -> tuple[int, int, int]:
    c = rng.integers(lo, hi, size=3)
    return int(c[0]), int(c[1]), int(c[2])


TWIN_SUFFIX = "-ii"  # a near-twin of the card without it (the shared-frame tuning deck)


def role_of(card_id: str) -> str:
    """The role (frame) a card id is drawn in: the part before the first '-'."""
    return card_id.split("-", 1)[0] if "-" in card_id else card_id


def _draw_frame(img: np.ndarray, deck: str, role: str) -> None:
    rng = stable_rng("frame", deck, role)
    bg = _colour(rng, 60, 200)
    accent = _colour(rng, 0, 255)
    dark = tuple(int(v * 0.35) for v in bg)
    img[:] = (245, 245, 245)
    cv2.rectangle(img, (10, 10), (CARD_W - 11, CARD_H - 11), bg, -1)
    cv2.rectangle(img, (10, 10), (CARD_W - 11, CARD_H - 11), dark, 3)
    # Side pattern: stripes/chevrons/dots chosen per role, shared by every card of the role.
    kind = int(rng.integers(3))
    for y in range(60, CARD_H - 70, 18):
        for x0 in (14, CARD_W - 34):
            if kind == 0:
                cv2.line(img, (x0, y), (x0 + 20, y + 9), accent, 3)
            elif kind == 1:
                cv2.circle(img, (x0 + 10, y + 5), 5, accent, -1)
            else:
                cv2.rectangle(img, (x0 + 3, y), (x0 + 17, y + 8), accent, -1)
    # Role icon: a polygon in the top-left corner.
    n = int(rng.integers(3, 7))
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False) + rng.uniform(0, np.pi)
    pts = np.stack([34 + 18 * np.cos(ang), 36 + 18 * np.sin(ang)], axis=1).astype(np.int32)
    cv2.fillPoly(img, [pts], accent)
    cv2.polylines(img, [pts], True, dark, 2)
    # Role title band at the bottom.
    cv2.rectangle(img, (16, CARD_H - 64), (CARD_W - 17, CARD_H - 18), dark, -1)
    title = role.upper()[:10]
    scale = 0.9 if len(title) <= 8 else 0.75
    size = cv2.getTextSize(title, _FONT, scale, 2)[0]
    cv2.putText(img, title, ((CARD_W - size[0]) // 2, CARD_H - 32), _FONT, scale, (250, 250, 250), 2)
    # Rule lines and a few role marks under the portrait.
    for i in range(4):
        x = 40 + i * 48
        cv2.circle(img, (x, CARD_H - 82), 7, accent, -1)
        cv2.circle(img, (x, CARD_H - 82), 7, dark, 2)


def _draw_portrait(img: np.ndarray, deck: str, card_id: str) -> None:
    rng = stable_rng("portrait", deck, card_id)
    x0, y0, x1, y1 = 40, 74, CARD_W - 41, CARD_H - 98
    roi = img[y0:y1, x0:x1]
    h, w = roi.shape[:2]
    top, bottom = np.array(_colour(rng)), np.array(_colour(rng))
    t = np.linspace(0, 1, h)[:, None, None]
    roi[:] = (top * (1 - t) + bottom * t).astype(np.uint8)
    for _ in range(int(rng.integers(7, 11))):
        kind = int(rng.integers(4))
        c = _colour(rng, 0, 256)
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        if kind == 0:
            axes = (int(rng.integers(8, 45)), int(rng.integers(8, 45)))
            cv2.ellipse(roi, (cx, cy), axes, float(rng.uniform(0, 180)), 0, 360, c, -1)
        elif kind == 1:
            k = int(rng.integers(3, 6))
            pts = np.stack([rng.integers(0, w, k), rng.integers(0, h, k)], axis=1).astype(np.int32)
            cv2.fillPoly(roi, [pts], c)
        elif kind == 2:
            p2 = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.line(roi, (cx, cy), p2, c, int(rng.integers(2, 6)))
        else:
            s = int(rng.integers(8, 30))
            cv2.rectangle(roi, (cx, cy), (cx + s, cy + int(rng.integers(8, 30))), c, -1)
    # A stylised head: every portrait has one, in a different place, size and colour.
    hx, hy = int(rng.integers(w // 4, 3 * w // 4)), int(rng.integers(h // 3, 2 * h // 3))
    r = int(rng.integers(18, 32))
    skin = _colour(rng, 60, 240)
    cv2.circle(roi, (hx, hy), r, skin, -1)
    cv2.circle(roi, (hx - r // 3, hy - r // 4), 3, (20, 20, 20), -1)
    cv2.circle(roi, (hx + r // 3, hy - r // 4), 3, (20, 20, 20), -1)
    cv2.ellipse(roi, (hx, hy + r // 3), (r // 3, r // 6), 0, 0, 180, (20, 20, 20), 2)
    cv2.rectangle(img, (x0, y0), (x1, y1), (30, 30, 30), 2)


def _draw_name(img: np.ndarray, card_id: str) -> None:
    name = card_id.split("-", 1)[1] if "-" in card_id else card_id
    name = name.upper()[:9]
    cv2.rectangle(img, (62, 20), (CARD_W - 21, 64), (250, 250, 240), -1)
    cv2.rectangle(img, (62, 20), (CARD_W - 21, 64), (30, 30, 30), 2)
    scale = 1.0 if len(name) <= 6 else 0.75
    size = cv2.getTextSize(name, _FONT, scale, 2)[0]
    x = 62 + (CARD_W - 83 - size[0]) // 2
    cv2.putText(img, name, (x, 54), _FONT, scale, (20, 20, 20), 2)


def draw_badge(img: np.ndarray, bgr: tuple[int, int, int]) -> None:
    """A team badge's face in field colour `bgr` (an enrolled colour, or any other for negatives)."""
    img[:] = (245, 245, 245)
    cv2.rectangle(img, (12, 12), (CARD_W - 13, CARD_H - 13), bgr, -1)
    cv2.rectangle(img, (12, 12), (CARD_W - 13, CARD_H - 13), (25, 25, 25), 3)
    c = (CARD_W // 2, CARD_H // 2 - 20)
    cv2.circle(img, c, 62, (250, 250, 250), 6)
    ang = np.linspace(-np.pi / 2, 1.5 * np.pi, 10, endpoint=False)
    rad = np.where(np.arange(10) % 2 == 0, 48, 20)
    star = np.stack([c[0] + rad * np.cos(ang), c[1] + rad * np.sin(ang)], axis=1).astype(np.int32)
    cv2.fillPoly(img, [star], (25, 25, 25))
    size = cv2.getTextSize("TEAM", _FONT, 1.2, 3)[0]
    cv2.putText(img, "TEAM", ((CARD_W - size[0]) // 2, CARD_H - 60), _FONT, 1.2, (25, 25, 25), 3)


_PLAIN_BGR: dict[str, tuple[int, int, int]] = {
    "red": (50, 45, 200),
    "blue": (190, 100, 40),
    "green": (70, 160, 60),
    "yellow": (50, 200, 225),
    "grey": (130, 130, 130),
    "orange": (40, 130, 235),
    "teal": (160, 150, 30),
    "pink": (170, 120, 235),
}


def _draw_text_card(img: np.ndarray, card_id: str) -> None:
    """The text-frame tuning deck: a border, a title bar, a soft illustration in the upper part and
    a rules-text box (the same for every card) in the lower half."""
    frame = stable_rng("text-frame")
    border = _colour(frame, 40, 120)
    paper = (200, 215, 225)
    img[:] = border
    cv2.rectangle(img, (9, 9), (CARD_W - 10, CARD_H - 10), paper, -1)
    cv2.rectangle(img, (14, 14), (CARD_W - 15, 38), (235, 240, 240), -1)
    cv2.rectangle(img, (14, 14), (CARD_W - 15, 38), border, 1)
    base = card_id.removesuffix(TWIN_SUFFIX)
    title = base.split("-", 1)[1].upper() if "-" in base else base.upper()
    if card_id.endswith(TWIN_SUFFIX):
        title += " II"
    cv2.putText(img, title[:12], (20, 32), _FONT, 0.5, (25, 25, 25), 1, cv2.LINE_AA)
    cv2.circle(img, (CARD_W - 26, 26), 6, (40, 40, 170), -1, cv2.LINE_AA)
    # The illustration: a sky gradient, soft blobs, a few thin strokes (painted, not cut out).
    rng = stable_rng("text-art", base)
    x0, y0, x1, y1 = 16, 44, CARD_W - 17, 176
    art = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
    top, bottom = np.float32(_colour(rng, 60, 240)), np.float32(_colour(rng, 30, 200))
    t = np.linspace(0, 1, y1 - y0, dtype=np.float32)[:, None, None]
    art[:] = top * (1 - t) + bottom * t
    for _ in range(int(rng.integers(4, 8))):
        blob = np.zeros(art.shape[:2], np.float32)
        c = (int(rng.integers(0, x1 - x0)), int(rng.integers(0, y1 - y0)))
        axes = (int(rng.integers(10, 50)), int(rng.integers(8, 35)))
        cv2.ellipse(blob, c, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        blob = cv2.GaussianBlur(blob, (0, 0), float(rng.uniform(1.0, 4.0)))[..., None]
        art = art * (1 - blob) + np.float32(_colour(rng, 0, 255)) * blob
    art_u8 = np.ascontiguousarray(np.clip(art, 0, 255).astype(np.uint8))
    for _ in range(int(rng.integers(5, 12))):
        p = (int(rng.integers(0, x1 - x0)), int(rng.integers(0, y1 - y0)))
        q = (int(rng.integers(0, x1 - x0)), int(rng.integers(0, y1 - y0)))
        cv2.line(art_u8, p, q, _colour(rng, 0, 255), int(rng.integers(1, 3)), cv2.LINE_AA)
    img[y0:y1, x0:x1] = art_u8
    cv2.rectangle(img, (x0 - 1, y0 - 1), (x1, y1), (40, 40, 40), 1)
    cv2.rectangle(img, (14, 182), (CARD_W - 15, 198), (175, 190, 200), -1)
    cv2.putText(img, "CREATURE - TALE", (20, 194), _FONT, 0.35, (40, 40, 40), 1, cv2.LINE_AA)
    for k in range(6):  # rules text: the same lines on every card
        y = 214 + k * 19
        width = CARD_W - 40 - int(frame.integers(0, 60))
        cv2.line(img, (20, y), (20 + width, y), (70, 70, 70), 2)
    if card_id.endswith(TWIN_SUFFIX):  # one small mark
        cv2.circle(img, (CARD_W - 30, CARD_H - 24), 4, (20, 20, 20), -1, cv2.LINE_AA)


def _draw_plain(img: np.ndarray, colour: str, shape: str) -> None:
    """A plain low-texture card: a coloured field, a thin light border and one simple shape."""
    img[:] = (240, 240, 240)
    cv2.rectangle(img, (6, 6), (CARD_W - 7, CARD_H - 7), _PLAIN_BGR[colour], -1)
    c = (CARD_W // 2, CARD_H // 2)
    light = (245, 245, 245)
    if shape == "square":
        cv2.rectangle(img, (c[0] - 40, c[1] - 40), (c[0] + 40, c[1] + 40), light, -1)
    elif shape == "triangle":
        pts = np.int32([[c[0], c[1] - 50], [c[0] + 48, c[1] + 35], [c[0] - 48, c[1] + 35]])
        cv2.fillPoly(img, [pts], light, cv2.LINE_AA)
    else:
        cv2.rectangle(img, (c[0] - 70, c[1] - 14), (c[0] + 70, c[1] + 14), light, -1)


_FIELD_KINDS = ("chromatic", "chromatic", "pale", "grey", "dark")
_EMBLEMS = ("star", "disc", "hexagon", "triangle", "diamond", "ring", "cross")


def _field_colour(rng: np.random.Generator, kind: str) -> tuple[int, int, int]:
    """A plain field's BGR colour of one kind: chromatic (saturated), pale (a light tint), grey or dark."""
    if kind in ("chromatic", "pale"):
        sat, val = ((120, 230), (110, 230)) if kind == "chromatic" else ((25, 60), (205, 240))
        hsv = np.uint8([[[rng.integers(0, 180), rng.integers(*sat), rng.integers(*val)]]])
        b, g, r = (int(v) for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
        return b, g, r
    v = int(rng.integers(110, 190) if kind == "grey" else rng.integers(45, 90))
    tint = 4 if kind == "grey" else 6
    return v + int(rng.integers(-tint, tint + 1)), v, v + int(rng.integers(-tint, tint + 1))


def _emblem_points(shape: str, c: tuple[int, int], r: int) -> np.ndarray:
    """A polygonal emblem's vertices around centre c at radius r."""
    count, inner = {"star": (10, 0.45), "hexagon": (6, 1.0), "triangle": (3, 1.0), "diamond": (4, 0.6)}[shape]
    start = 0.0 if shape in ("hexagon", "diamond") else -np.pi / 2
    a = start + np.linspace(0, 2 * np.pi, count, endpoint=False)
    rad = np.where(np.arange(count) % 2 == 0, r, r * inner)
    return np.column_stack([c[0] + rad * np.cos(a), c[1] + rad * np.sin(a)]).astype(np.int32)


def _draw_random_plain(img: np.ndarray, card_id: str) -> None:
    """A plain card of a design drawn at random from its id (the plain-probe tuning deck): a field
    of one kind, a light or dark border or none, one emblem of a random shape, size and place."""
    rng = stable_rng("plain-probe", card_id)
    kind = _FIELD_KINDS[int(rng.integers(len(_FIELD_KINDS)))]
    img[:] = _field_colour(rng, kind)
    border = int(rng.integers(3))  # 0 none, 1 light, 2 dark
    if border:
        colour = (240, 240, 240) if border == 1 else (30, 30, 30)
        cv2.rectangle(img, (8, 8), (CARD_W - 9, CARD_H - 9), colour, int(rng.integers(2, 6)))
    shape = _EMBLEMS[int(rng.integers(len(_EMBLEMS)))]
    dark_ink = rng.random() < (0.35 if kind == "chromatic" else 0.5 if kind == "pale" else 0.0)
    ink = (30, 30, 30) if dark_ink else (245, 245, 245)
    c = (CARD_W // 2 + int(rng.integers(-15, 16)), CARD_H // 2 + int(rng.integers(-30, 31)))
    r = int(rng.integers(40, 70))
    if shape == "disc":
        cv2.circle(img, c, r, ink, -1, cv2.LINE_AA)
    elif shape == "ring":
        cv2.circle(img, c, r, ink, int(rng.integers(8, 16)), cv2.LINE_AA)
    elif shape == "cross":
        w = r // 3
        cv2.rectangle(img, (c[0] - r, c[1] - w), (c[0] + r, c[1] + w), ink, -1)
        cv2.rectangle(img, (c[0] - w, c[1] - r), (c[0] + w, c[1] + r), ink, -1)
    else:
        cv2.fillPoly(img, [_emblem_points(shape, c, r)], ink, cv2.LINE_AA)


def render_card(deck: str, card_id: str) -> np.ndarray:
    """The face of a card as a CARD_H x CARD_W BGR image (badges: `badge-<colour>`)."""
    img = np.zeros((CARD_H, CARD_W, 3), np.uint8)
    if deck == PLAIN_PROBE_DECK:
        if card_id.startswith("field-"):
            _draw_random_plain(img, card_id)
        else:
            _draw_text_card(img, card_id)
        return img
    if deck == TEXT_FRAME_DECK:
        parts = card_id.split("-")
        if parts[0] == "plain" and len(parts) == 3 and parts[1] in _PLAIN_BGR:
            _draw_plain(img, parts[1], parts[2])
        else:
            _draw_text_card(img, card_id)
        return img
    if card_id.startswith("badge-") and card_id[6:] in BADGE_BGR:
        draw_badge(img, BADGE_BGR[card_id[6:]])
        return img
    _draw_frame(img, deck, role_of(card_id))
    twin = card_id.endswith(TWIN_SUFFIX)
    _draw_portrait(img, deck, card_id.removesuffix(TWIN_SUFFIX))  # a twin: the same portrait...
    _draw_name(img, card_id)
    if twin:  # ...and one small mark
        cv2.circle(img, (CARD_W - 40, CARD_H - 40), 7, (20, 20, 20), -1, cv2.LINE_AA)
    return img
