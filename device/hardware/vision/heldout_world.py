"""The held-out evaluation world: a second deck generator and a second camera, never tuned on.

The own world (card_art.py, captures.py) is what the identifier was developed against. This one
is written separately to look like the decks and cameras an outside evaluation uses, so the gap
between the two says how much the figures owe to the own world:

- **Deck** (`heldout`, 60 cards): 44 illustrated cards on ONE shared frame template (border,
  title box, type line, text box, corner gems), differing by illustration and title; 8 of them
  have a near-twin (same illustration and frame, a different title and one small mark); 8
  low-texture badges (a plain field and a simple emblem, told apart by colour and emblem).
  Unenrolled look-alikes (12 more illustrated cards, 3 more badges) are the hard negatives.
  Scans are rendered at 500 x 700, not at the canonical size.
- **Camera**: a table-top scene (wood, cloth or paper textures, a mug, a pen, a phone), the card
  placed by a random pinhole pose (size and tilt by difficulty, partly out of view when hard)
  with fingers over an edge, then an albumentations 2.0 pipeline: perspective jitter, motion and
  defocus blur, a sun-flare glare, shadows, colour temperature (Planckian), brightness/contrast,
  ISO sensor noise and JPEG. albumentations works on RGB images, so each frame is passed to it
  as RGB (and JPEG-encoded as BGR, as OpenCV's encoder reads it). Until stop 43 the BGR frame
  went in as it was: its colour temperature was then no lamp's (at "3,000 K" the red channel
  times 0.003, a blue frame), a bug of this world, not a property of any camera.

Nothing here may be used to choose thresholds: the bench reports it beside the own world.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

SCAN_W, SCAN_H = 500, 700
DECK_NAME = "heldout"
FRAME_W, FRAME_H = 640, 480

_TITLES = (
    "ember", "frost", "gale", "quake", "tide", "spark", "thorn", "shade", "glow", "drift",
    "crag", "bloom", "rune", "fang", "mist", "ash", "vale", "husk", "pike", "wisp",
    "brine", "cinder", "dune", "echo", "flint", "grove", "haze", "iris", "jade", "knoll",
    "lumen", "moss", "nettle", "onyx", "pyre", "quill", "reef", "sable", "talon", "umber",
    "vigil", "wren", "yarrow", "zephyr", "aurora", "basalt", "cobalt", "delta", "ember2", "fable",
    "garnet", "helix", "ivory", "juniper", "kelp", "lotus", "marrow", "nimbus",
)  # fmt: skip
_BADGE_COLOURS = {
    "crimson": (40, 30, 190),
    "azure": (200, 120, 30),
    "emerald": (70, 160, 40),
    "amber": (30, 170, 235),
    "violet": (150, 50, 120),
    "teal": (150, 140, 20),
    "slate": (110, 100, 90),
    "ivory": (210, 225, 235),
    # unenrolled
    "coral": (90, 110, 240),
    "olive": (40, 120, 120),
    "navy": (110, 40, 20),
}
_EMBLEMS = ("circle", "diamond", "cross", "ring", "circle", "diamond", "cross", "ring", "circle", "diamond", "cross")


def deck() -> list[str]:
    """The 60 enrolled card ids: 44 illustrated, 8 twins, 8 badges."""
    cards = [f"art-{t}" for t in _TITLES[:44]]
    cards += [f"art-{t}-twin" for t in _TITLES[:8]]
    cards += [f"emblem-{c}" for c in list(_BADGE_COLOURS)[:8]]
    return cards


def unenrolled() -> list[str]:
    """Cards of the same deck that are never enrolled (same frame template; more badges)."""
    return [f"art-{t}" for t in _TITLES[44:56]] + [f"emblem-{c}" for c in list(_BADGE_COLOURS)[8:]]


def _rng(*parts: str) -> np.random.Generator:
    digest = hashlib.sha256("/".join(parts).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


def _illustration(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A painted-looking scene: a sky gradient, hills, a few bodies and strokes."""
    img = np.zeros((h, w, 3), np.uint8)
    top, bottom = rng.integers(40, 230, 3), rng.integers(20, 200, 3)
    ramp = np.linspace(0, 1, h)[:, None, None]
    img[:] = (top * (1 - ramp) + bottom * ramp).astype(np.uint8)
    for _ in range(int(rng.integers(2, 4))):  # hills
        base = int(rng.integers(h // 2, h))
        xs = np.arange(0, w + 20, 20)
        ys = base + (rng.normal(0, h * 0.08, len(xs))).cumsum() * 0.3
        poly = np.array([[0, h]] + [[int(x), int(y)] for x, y in zip(xs, ys, strict=True)] + [[w, h]], np.int32)
        cv2.fillPoly(img, [poly], tuple(int(c) for c in rng.integers(20, 220, 3)), cv2.LINE_AA)
    for _ in range(int(rng.integers(5, 10))):  # bodies
        c = tuple(int(v) for v in rng.integers(0, 255, 3))
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        if rng.random() < 0.5:
            axes = (int(rng.integers(8, w // 4)), int(rng.integers(8, h // 4)))
            cv2.ellipse(img, (x, y), axes, float(rng.uniform(0, 180)), 0, 360, c, -1, cv2.LINE_AA)
        else:
            pts = rng.integers(0, [w, h], (int(rng.integers(3, 6)), 2)).astype(np.int32)
            cv2.fillPoly(img, [pts], c, cv2.LINE_AA)
    for _ in range(int(rng.integers(6, 14))):  # strokes
        c = tuple(int(v) for v in rng.integers(0, 255, 3))
        p1 = tuple(int(v) for v in rng.integers(0, [w, h]))
        p2 = tuple(int(v) for v in rng.integers(0, [w, h]))
        cv2.line(img, p1, p2, c, int(rng.integers(1, 5)), cv2.LINE_AA)
    return img


def _frame_template(img: np.ndarray) -> None:
    """The frame every illustrated card shares (the same for all: deliberately)."""
    h, w = img.shape[:2]
    img[:] = (38, 62, 92)  # dark bronze border
    cv2.rectangle(img, (18, 18), (w - 19, h - 19), (120, 170, 200), -1)  # parchment body
    cv2.rectangle(img, (18, 18), (w - 19, h - 19), (20, 30, 50), 3)
    cv2.rectangle(img, (30, 30), (w - 31, 80), (70, 110, 150), -1)  # title box
    cv2.rectangle(img, (30, 30), (w - 31, 80), (20, 30, 50), 2)
    cv2.rectangle(img, (30, 390), (w - 31, 430), (70, 110, 150), -1)  # type line
    cv2.putText(img, "CREATURE - SPIRIT", (44, 418), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (20, 30, 50), 2, cv2.LINE_AA)
    for k in range(5):  # rules text (the same on every card: flavour of a frame)
        y = 470 + 40 * k
        cv2.line(img, (48, y), (w - 48 - 30 * (k % 3), y), (60, 80, 100), 3, cv2.LINE_AA)
    for cx, cy in ((18, 18), (w - 19, 18), (18, h - 19), (w - 19, h - 19)):  # corner gems
        cv2.circle(img, (cx, cy), 12, (60, 160, 220), -1, cv2.LINE_AA)
        cv2.circle(img, (cx, cy), 12, (20, 30, 50), 2, cv2.LINE_AA)
    cv2.circle(img, (w - 60, 55), 16, (40, 40, 160), -1, cv2.LINE_AA)  # cost gem


def render(card_id: str) -> np.ndarray:
    """A card's face as a 500 x 700 BGR scan."""
    img = np.zeros((SCAN_H, SCAN_W, 3), np.uint8)
    if card_id.startswith("emblem-"):
        colour = card_id.removeprefix("emblem-")
        k = list(_BADGE_COLOURS).index(colour)
        img[:] = _BADGE_COLOURS[colour]
        cv2.rectangle(img, (10, 10), (SCAN_W - 11, SCAN_H - 11), (235, 235, 235), 6)
        c, e = (SCAN_W // 2, SCAN_H // 2), _EMBLEMS[k]
        white = (245, 245, 245)
        if e == "circle":
            cv2.circle(img, c, 90, white, -1, cv2.LINE_AA)
        elif e == "diamond":
            pts = np.array([[c[0], c[1] - 120], [c[0] + 90, c[1]], [c[0], c[1] + 120], [c[0] - 90, c[1]]], np.int32)
            cv2.fillPoly(img, [pts], white, cv2.LINE_AA)
        elif e == "cross":
            cv2.rectangle(img, (c[0] - 25, c[1] - 110), (c[0] + 25, c[1] + 110), white, -1)
            cv2.rectangle(img, (c[0] - 90, c[1] - 25), (c[0] + 90, c[1] + 25), white, -1)
        else:
            cv2.circle(img, c, 100, white, 28, cv2.LINE_AA)
        return img
    base = card_id.removesuffix("-twin")
    _frame_template(img)
    art = _illustration(_rng("heldout-art", base), SCAN_W - 72, 290)
    img[92:382, 36 : SCAN_W - 36] = art
    cv2.rectangle(img, (36, 92), (SCAN_W - 37, 381), (20, 30, 50), 2)
    title = card_id.removeprefix("art-").replace("-twin", " II").upper()
    cv2.putText(img, title, (42, 68), cv2.FONT_HERSHEY_DUPLEX, 1.0, (15, 20, 30), 2, cv2.LINE_AA)
    if card_id.endswith("-twin"):  # one small mark besides the title
        cv2.circle(img, (SCAN_W - 110, 410), 9, (30, 30, 30), -1, cv2.LINE_AA)
    return img


# --- the camera -----------------------------------------------------------------------------


@dataclass(frozen=True)
class HeldoutDifficulty:
    area: tuple[float, float]  # card area as a share of the frame
    tilt: float  # degrees, out of plane
    out_of_view: float  # how far the centre may move towards the border (share of the frame)
    fingers: int
    blur: tuple[int, int]  # motion blur kernel
    defocus: tuple[int, int]


DIFFICULTIES = {
    "easy": HeldoutDifficulty((0.25, 0.5), 15, 0.1, 0, (3, 5), (1, 2)),
    "medium": HeldoutDifficulty((0.18, 0.7), 30, 0.2, 1, (3, 9), (1, 3)),
    "hard": HeldoutDifficulty((0.12, 1.0), 45, 0.35, 2, (5, 15), (2, 5)),
}


def _albumentations(difficulty: HeldoutDifficulty):
    import albumentations as A  # type: ignore[import-untyped]  # the held-out camera only; not on the device

    return A.Compose(
        [
            A.Perspective(scale=(0.01, 0.03), p=0.5),
            A.OneOf(
                [
                    A.MotionBlur(blur_limit=difficulty.blur, p=1.0),
                    A.Defocus(radius=difficulty.defocus, alias_blur=(0.1, 0.3), p=1.0),
                ],
                p=0.8,
            ),
            A.RandomSunFlare(flare_roi=(0.0, 0.0, 1.0, 1.0), src_radius=120, num_flare_circles_range=(2, 5), p=0.25),
            A.RandomShadow(shadow_roi=(0, 0, 1, 1), num_shadows_limit=(1, 2), shadow_intensity_range=(0.2, 0.5), p=0.3),
            A.PlanckianJitter(mode="blackbody", temperature_limit=(3000, 9000), p=0.7),
            A.RandomBrightnessContrast(brightness_limit=(-0.3, 0.15), contrast_limit=(-0.3, 0.1), p=0.7),
            A.ISONoise(color_shift=(0.01, 0.04), intensity=(0.1, 0.5), p=0.6),
            _rgb_jpeg(quality_range=(45, 90), p=0.8),
        ]
    )


def _rgb_jpeg(**kwargs: Any) -> Any:
    """albumentations' JPEG for an RGB image: its ImageCompression hands the array to OpenCV's
    encoder as it is, which reads BGR (the luma weights and the chroma it subsamples would be
    those of the swapped channels). The same parameters, drawn the same way."""
    import albumentations as A  # type: ignore[import-untyped]

    class RgbImageCompression(A.ImageCompression):
        def apply(self, img: np.ndarray, *args: Any, **params: Any) -> np.ndarray:
            out = super().apply(np.ascontiguousarray(img[..., ::-1]), *args, **params)
            return np.ascontiguousarray(out[..., ::-1])

    return RgbImageCompression(**kwargs)


def camera(pipe: Callable[..., dict[str, Any]], frame: np.ndarray) -> np.ndarray:
    """A BGR frame through an albumentations pipeline, which works on RGB images."""
    rgb = cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)
    return cv2.cvtColor(pipe(image=rgb)["image"], cv2.COLOR_RGB2BGR)


_PIPELINES: dict[str, object] = {}


def _pipeline(difficulty: str):
    if difficulty not in _PIPELINES:
        _PIPELINES[difficulty] = _albumentations(DIFFICULTIES[difficulty])
    return _PIPELINES[difficulty]


def table_scene(rng: np.random.Generator) -> np.ndarray:
    """A table top seen from above: a textured surface and a few everyday things."""
    h, w = FRAME_H, FRAME_W
    kind = int(rng.integers(3))
    base = rng.integers(60, 200, 3).astype(np.float32)
    noise = cv2.resize(rng.normal(0, 1, (h // 16, w // 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img = base[None, None, :] + 18 * noise[..., None]
    if kind == 0:  # wood grain
        y = np.arange(h, dtype=np.float32)[:, None]
        grain = np.sin(y / rng.uniform(3, 8) + 3 * noise) * 14
        img += grain[..., None]
    elif kind == 1:  # cloth weave
        yy, xx = np.indices((h, w))
        img += (((yy // 3 + xx // 3) % 2) * 10 - 5)[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(1, 4))):
        thing = int(rng.integers(3))
        c = tuple(int(v) for v in rng.integers(0, 255, 3))
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        if thing == 0:  # a mug seen from above
            r = int(rng.integers(30, 60))
            cv2.circle(img, (x, y), r, c, -1, cv2.LINE_AA)
            cv2.circle(img, (x, y), r - 8, tuple(v // 2 for v in c), -1, cv2.LINE_AA)
        elif thing == 1:  # a pen
            dx, dy = rng.normal(0, 1, 2)
            n = max(1e-6, float(np.hypot(dx, dy)))
            p2 = (int(x + 120 * dx / n), int(y + 120 * dy / n))
            cv2.line(img, (x, y), p2, c, 8, cv2.LINE_AA)
        else:  # a phone
            box = cv2.boxPoints(((x, y), (70, 140), float(rng.uniform(0, 180)))).astype(np.int32)
            cv2.fillPoly(img, [box], (25, 25, 25), cv2.LINE_AA)
    return img


def _pose(rng: np.random.Generator, d: HeldoutDifficulty) -> np.ndarray:
    """Frame corners of the card (TL, TR, BR, BL) for a random pose."""
    area = rng.uniform(*d.area) * FRAME_W * FRAME_H
    ch = np.sqrt(area * SCAN_H / SCAN_W)
    cw = ch * SCAN_W / SCAN_H
    square = np.float32([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]])
    ang = rng.uniform(0, 2 * np.pi)
    rot = np.float32([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    pts = square @ rot.T
    # out-of-plane tilt as a foreshortening along a random axis
    tilt = np.radians(rng.uniform(0, d.tilt))
    axis = rng.uniform(0, 2 * np.pi)
    u = np.float32([np.cos(axis), np.sin(axis)])
    along = pts @ u
    depth = 1.0 + np.sin(tilt) * along / max(cw, ch)
    pts = pts / depth[:, None]
    pts -= np.outer(along * (1 - np.cos(tilt)) / depth, u)
    cx = FRAME_W / 2 + rng.uniform(-1, 1) * d.out_of_view * FRAME_W
    cy = FRAME_H / 2 + rng.uniform(-1, 1) * d.out_of_view * FRAME_H
    return (pts + np.float32([cx, cy])).astype(np.float32)


def _fingers(img: np.ndarray, corners: np.ndarray, rng: np.random.Generator, n: int) -> None:
    skin = tuple(int(v) for v in (rng.integers(60, 140), rng.integers(100, 170), rng.integers(150, 230)))
    for _ in range(n):
        k = int(rng.integers(4))
        a, b = corners[k], corners[(k + 1) % 4]
        t = rng.uniform(0.2, 0.8)
        p = a + t * (b - a)
        centre = corners.mean(axis=0)
        inward = (centre - p) / max(1e-6, float(np.linalg.norm(centre - p)))
        side = float(np.linalg.norm(b - a))
        tip = p + inward * side * rng.uniform(0.08, 0.2)
        back = p - inward * side * 0.6
        cv2.line(img, tuple(int(v) for v in back), tuple(int(v) for v in tip), skin, int(side * 0.12), cv2.LINE_AA)


def _compose(card: np.ndarray | None, scene: np.ndarray, corners: np.ndarray | None) -> np.ndarray:
    img = scene.copy()
    if card is None or corners is None:
        return img
    src = np.float32([[0, 0], [SCAN_W - 1, 0], [SCAN_W - 1, SCAN_H - 1], [0, SCAN_H - 1]])
    m = cv2.getPerspectiveTransform(src, corners)
    face = (
        cv2.resize(card, (SCAN_W, SCAN_H), interpolation=cv2.INTER_AREA) if card.shape[:2] != (SCAN_H, SCAN_W) else card
    )
    warped = cv2.warpPerspective(face, m, (FRAME_W, FRAME_H), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((SCAN_H, SCAN_W), 255, np.uint8), m, (FRAME_W, FRAME_H)) > 127
    img[mask] = warped[mask]
    return img


def iter_hold(card: np.ndarray | None, seed: int, difficulty: str = "medium") -> Iterator[np.ndarray]:
    """Frames of one presentation: a fixed scene and pose; camera effects redrawn per frame."""
    rng = np.random.default_rng(seed)
    d = DIFFICULTIES[difficulty]
    scene = table_scene(rng)
    corners = _pose(rng, d) if card is not None else None
    base = _compose(card, scene, corners)
    if corners is not None:
        _fingers(base, corners, rng, int(rng.integers(0, d.fingers + 1)))
    pipe = _pipeline(difficulty)
    k = 0
    while True:
        jitter = base if k == 0 else np.roll(base, tuple(int(v) for v in rng.integers(-2, 3, 2)), axis=(0, 1))
        pipe.set_random_seed(int(seed * 31 + k) % (2**31))
        yield camera(pipe, jitter)
        k += 1


def single_frame(card: np.ndarray | None, seed: int, difficulty: str = "medium") -> np.ndarray:
    return next(iter_hold(card, seed, difficulty))
