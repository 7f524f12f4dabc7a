"""Synthetic camera captures: a card held face-down over the lid window, seen from below.

The model draws a busy background (ceiling, lamps, faces, hands), places the card with a random
rotation, tilt up to 45 degrees and a size from 15% of the frame to overflowing it, lays fingers
over its edges, adds glare, low light, colour casts, motion/focus blur and sensor noise. A *pose*
(background, placement, fingers, glare, light) is fixed for a hold; each frame of a hold redraws
blur, noise and a small jitter, as a real hand does.

Seeds: tuning and tests use seeds below `EVAL_SEED_BASE`; the benchmark evaluates only on seeds
from `EVAL_SEED_BASE` up, so no threshold is tuned on the evaluation captures.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from device.hardware.vision.card_art import CARD_H, CARD_W

FRAME_W, FRAME_H = 640, 480
EVAL_SEED_BASE = 1_000_000_000
# Scene styles. "ceiling" is the capture model the thresholds were first tuned on (a card held
# over the lid, seen against the room). "table" widens the tuning world towards other cameras:
# a card over a textured table top with a mug, a pen or a phone, a cast shadow, a colour
# temperature, defocus as a disc, and JPEG. Both are tuning worlds (OpenCV/numpy only); the
# held-out world (heldout_world.py) is a separate generator that nothing is tuned on.
STYLES = ("ceiling", "table")


@dataclass(frozen=True)
class Difficulty:
    """Ranges the capture model draws from (area is the card's share of the frame area)."""

    name: str
    area: tuple[float, float]
    tilt_deg: float
    blur_px: float
    light: tuple[float, float]
    cast: float
    finger_max: float  # share of the card area fingers may cover
    glare_p: float
    noise: float
    jitter_px: float


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty("easy", (0.25, 0.6), 20, 1.5, (0.75, 1.0), 0.08, 0.0, 0.0, 2.0, 1.0),
    "medium": Difficulty("medium", (0.2, 0.9), 35, 4.0, (0.45, 1.0), 0.18, 0.15, 0.3, 4.0, 2.0),
    "hard": Difficulty("hard", (0.15, 1.3), 45, 7.0, (0.3, 1.0), 0.3, 0.25, 0.5, 6.0, 3.0),
}


@dataclass(frozen=True)
class Pose:
    """Everything fixed during one hold of a card."""

    corners: np.ndarray  # 4x2 frame positions of the card corners (TL, TR, BR, BL)
    fingers: tuple[tuple[float, float, float, float, float], ...]  # card-space ellipses
    finger_bgr: tuple[int, int, int]
    glare: tuple[float, float, float, float] | None  # x, y, radius, strength (frame space)
    gain: tuple[float, float, float]  # per-channel light x colour cast
    gamma: float
    difficulty: Difficulty


# --- backgrounds ------------------------------------------------------------------------------


def _skin(rng: np.random.Generator) -> tuple[int, int, int]:
    base = np.array([90, 130, 190]) * rng.uniform(0.45, 1.15)
    return tuple(int(v) for v in np.clip(base + rng.normal(0, 12, 3), 0, 255))  # type: ignore[return-value]


def draw_face(img: np.ndarray, rng: np.random.Generator, cx: int, cy: int, r: int) -> None:
    """A face seen from below: skin oval, hair, eyes, nostrils, mouth."""
    skin = _skin(rng)
    hair = tuple(int(v) for v in rng.integers(10, 90, 3))
    cv2.ellipse(img, (cx, cy - r // 3), (int(r * 1.05), int(r * 1.0)), 0, 180, 360, hair, -1)
    cv2.ellipse(img, (cx, cy), (int(r * 0.8), r), 0, 0, 360, skin, -1)
    for dx in (-r // 3, r // 3):
        cv2.ellipse(img, (cx + dx, cy - r // 5), (r // 7, r // 12), 0, 0, 360, (240, 240, 240), -1)
        cv2.circle(img, (cx + dx, cy - r // 5), max(2, r // 14), (30, 20, 20), -1)
        cv2.line(img, (cx + dx - r // 6, cy - r // 3), (cx + dx + r // 6, cy - r // 3), hair, 3)
    cv2.circle(img, (cx - r // 10, cy + r // 6), max(2, r // 16), (40, 40, 60), -1)
    cv2.circle(img, (cx + r // 10, cy + r // 6), max(2, r // 16), (40, 40, 60), -1)
    cv2.ellipse(img, (cx, cy + r // 2), (r // 3, r // 8), 0, 0, 360, (60, 60, 150), -1)


def draw_hand(img: np.ndarray, rng: np.random.Generator, cx: int, cy: int, r: int) -> None:
    """A palm with fingers, in skin colour with knuckle lines."""
    skin = _skin(rng)
    ang = rng.uniform(0, 2 * np.pi)
    cv2.ellipse(img, (cx, cy), (r, int(r * 1.2)), float(np.degrees(ang)), 0, 360, skin, -1)
    for k in range(5):
        a = ang + (k - 2) * 0.35 - np.pi / 2
        length = r * rng.uniform(1.2, 1.8)
        tip = (int(cx + np.cos(a) * length * 1.4), int(cy + np.sin(a) * length * 1.4))
        cv2.line(img, (cx, cy), tip, skin, max(4, r // 3))
        mid = (int(cx + np.cos(a) * length), int(cy + np.sin(a) * length))
        cv2.circle(img, mid, max(2, r // 12), tuple(int(v * 0.7) for v in skin), 1)


def draw_lamp(img: np.ndarray, rng: np.random.Generator, cx: int, cy: int, r: int) -> None:
    """A ceiling lamp: a saturated disc with a soft halo and a fixture ring."""
    halo = _soft_disc(img.shape[:2], cx, cy, r * 2.2, r * 0.8)
    warm = np.array([200, 235, 255], np.float32) * rng.uniform(0.8, 1.0)
    img[:] = np.clip(img + halo[..., None] * warm * 0.6, 0, 255).astype(np.uint8)
    cv2.circle(img, (cx, cy), r, (245, 252, 255), -1)
    cv2.circle(img, (cx, cy), int(r * 1.25), (90, 90, 90), 3)


def draw_clutter(img: np.ndarray, rng: np.random.Generator, count: int) -> None:
    """Ceiling panels, shelves, posters: lines, boxes and text with plenty of corners."""
    h, w = img.shape[:2]
    for _ in range(count):
        kind = int(rng.integers(4))
        c = tuple(int(v) for v in rng.integers(0, 256, 3))
        p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        q = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        if kind == 0:
            cv2.line(img, p, q, c, int(rng.integers(1, 6)))
        elif kind == 1:
            cv2.rectangle(img, p, (p[0] + int(rng.integers(10, 120)), p[1] + int(rng.integers(10, 90))), c, -1)
        elif kind == 2:
            text = "".join(chr(int(x)) for x in rng.integers(65, 91, int(rng.integers(3, 9))))
            cv2.putText(img, text, p, cv2.FONT_HERSHEY_SIMPLEX, float(rng.uniform(0.5, 1.6)), c, 2)
        else:
            cv2.circle(img, p, int(rng.integers(5, 50)), c, int(rng.integers(-1, 4)))


def background(rng: np.random.Generator, kinds: tuple[str, ...] = ()) -> np.ndarray:
    """A 640x480 scene above the box: a ceiling gradient plus clutter, faces, hands and lamps."""
    top, bottom = rng.integers(40, 220, 3), rng.integers(20, 200, 3)
    t = np.linspace(0, 1, FRAME_H, dtype=np.float32)[:, None, None]
    img = (top * (1 - t) + bottom * t).astype(np.uint8).repeat(FRAME_W, axis=1)
    img = np.ascontiguousarray(img)
    draw_clutter(img, rng, int(rng.integers(4, 20)))
    if not kinds:
        pool = ("face", "hand", "lamp", "clutter")
        kinds = tuple(pool[i] for i in rng.integers(0, 4, int(rng.integers(1, 4))))
    for kind in kinds:
        cx, cy = int(rng.integers(0, FRAME_W)), int(rng.integers(0, FRAME_H))
        if kind == "face":
            draw_face(img, rng, cx, cy, int(rng.integers(50, 170)))
        elif kind == "hand":
            draw_hand(img, rng, cx, cy, int(rng.integers(40, 110)))
        elif kind == "lamp":
            draw_lamp(img, rng, cx, cy, int(rng.integers(15, 60)))
        else:
            draw_clutter(img, rng, 10)
    return img


def _soft_disc(shape: tuple[int, ...], cx: float, cy: float, radius: float, sigma: float) -> np.ndarray:
    """A blurred disc (float32, 0..1), drawn and blurred at quarter size for speed."""
    h, w = shape[0], shape[1]
    small = np.zeros(((h + 3) // 4, (w + 3) // 4), np.float32)
    cv2.circle(small, (int(cx / 4), int(cy / 4)), max(1, int(radius / 4)), 1.0, -1)
    small = cv2.GaussianBlur(small, (0, 0), max(0.5, sigma / 4))
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


# --- poses ------------------------------------------------------------------------------------


def _card_corners(rng: np.random.Generator, diff: Difficulty) -> np.ndarray:
    """Project a tilted, rotated card of the drawn frame share through a pinhole camera."""
    area = rng.uniform(*diff.area)
    tilt = np.radians(rng.uniform(0, diff.tilt_deg))
    axis = rng.uniform(0, 2 * np.pi)
    spin = rng.uniform(0, 2 * np.pi)
    w, h = CARD_W / 2, CARD_H / 2
    pts = np.array([[-w, -h, 0], [w, -h, 0], [w, h, 0], [-w, h, 0]], np.float64)
    cs, sn = np.cos(spin), np.sin(spin)
    rz = np.array([[cs, -sn, 0], [sn, cs, 0], [0, 0, 1]])
    ax = np.array([np.cos(axis), np.sin(axis), 0.0])
    rtilt, _ = cv2.Rodrigues(ax * tilt)
    pts = pts @ rz.T @ rtilt.T
    focal, dist = 500.0, 900.0
    proj = focal * pts[:, :2] / (dist + pts[:, 2:3])
    quad_area = cv2.contourArea(proj.astype(np.float32))
    proj *= np.sqrt(area * FRAME_W * FRAME_H / max(quad_area, 1.0))
    # Centre: anywhere that keeps at least ~half the card in view.
    span = np.ptp(proj, axis=0)
    cx = rng.uniform(
        FRAME_W / 2 - max(0, FRAME_W - span[0]) / 2 - span[0] * 0.15,
        FRAME_W / 2 + max(0, FRAME_W - span[0]) / 2 + span[0] * 0.15,
    )
    cy = rng.uniform(
        FRAME_H / 2 - max(0, FRAME_H - span[1]) / 2 - span[1] * 0.15,
        FRAME_H / 2 + max(0, FRAME_H - span[1]) / 2 + span[1] * 0.15,
    )
    return (proj + np.array([cx, cy])).astype(np.float32)


def random_pose(rng: np.random.Generator, difficulty: str | Difficulty = "medium") -> Pose:
    """Draw the fixed part of one hold: placement, fingers, glare and light."""
    diff = DIFFICULTIES[difficulty] if isinstance(difficulty, str) else difficulty
    corners = _card_corners(rng, diff)
    fingers: list[tuple[float, float, float, float, float]] = []
    if diff.finger_max > 0:
        budget = rng.uniform(0, diff.finger_max) * CARD_W * CARD_H
        while budget > 500 and len(fingers) < 3:
            side = int(rng.integers(4))
            along = rng.uniform(0.15, 0.85)
            fw = rng.uniform(20, 34)
            reach = min(rng.uniform(40, 140), budget / (fw * 2) * 1.27)
            x, y = {
                0: (along * CARD_W, 0),
                1: (CARD_W, along * CARD_H),
                2: (along * CARD_W, CARD_H),
                3: (0, along * CARD_H),
            }[side]
            angle = {0: 90.0, 1: 0.0, 2: 90.0, 3: 0.0}[side] + rng.uniform(-20, 20)
            fingers.append((float(x), float(y), float(reach), float(fw), float(angle)))
            budget -= np.pi * reach * fw / 2
    glare = None
    if rng.random() < diff.glare_p:
        c = corners.mean(axis=0) + rng.normal(0, 40, 2)
        glare = (float(c[0]), float(c[1]), float(rng.uniform(25, 80)), float(rng.uniform(0.5, 1.0)))
    light = rng.uniform(*diff.light)
    cast = 1 + rng.uniform(-diff.cast, diff.cast, 3)
    gain = tuple(float(v) for v in light * cast)
    return Pose(corners, tuple(fingers), _skin(rng), glare, gain, float(rng.uniform(0.8, 1.25)), diff)  # type: ignore[arg-type]


# --- rendering --------------------------------------------------------------------------------

_MARGIN = 60


def card_layer(card: np.ndarray, pose: Pose) -> tuple[np.ndarray, np.ndarray]:
    """The card with fingers over it, on a transparent margin, in card space (colour, alpha)."""
    h, w = card.shape[:2]
    layer = np.zeros((h + 2 * _MARGIN, w + 2 * _MARGIN, 3), np.uint8)
    alpha = np.zeros(layer.shape[:2], np.uint8)
    sx, sy = w / CARD_W, h / CARD_H
    layer[_MARGIN : _MARGIN + h, _MARGIN : _MARGIN + w] = card
    alpha[_MARGIN : _MARGIN + h, _MARGIN : _MARGIN + w] = 255
    for x, y, reach, fw, angle in pose.fingers:
        c = (int(_MARGIN + x * sx), int(_MARGIN + y * sy))
        axes = (int(reach * sx), int(fw * sx))
        cv2.ellipse(layer, c, axes, angle, 0, 360, pose.finger_bgr, -1)
        cv2.ellipse(
            layer,
            c,
            (max(1, axes[0] // 3), max(1, axes[1] // 2)),
            angle,
            0,
            360,
            tuple(int(v * 0.85) for v in pose.finger_bgr),
            2,
        )
        cv2.ellipse(alpha, c, axes, angle, 0, 360, 255, -1)
    return layer, alpha


def render_frame(
    card: np.ndarray | None,
    pose: Pose | None,
    bg: np.ndarray,
    rng: np.random.Generator,
    layer: tuple[np.ndarray, np.ndarray] | None = None,
    defocus_disc: bool = False,
) -> np.ndarray:
    """One 640x480 BGR frame: the card (if any) in its pose, then per-frame blur, noise, jitter.

    `layer` is `card_layer(card, pose)` when the caller renders many frames of one hold;
    `defocus_disc` draws focus blur as a lens's disc instead of a Gaussian."""
    diff = pose.difficulty if pose is not None else DIFFICULTIES["medium"]
    img = bg
    if card is not None and pose is not None:
        layer, alpha = layer or card_layer(card, pose)
        h, w = card.shape[:2]
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + _MARGIN
        dst = pose.corners + rng.normal(0, diff.jitter_px, (4, 2)).astype(np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(layer, m, (FRAME_W, FRAME_H), flags=cv2.INTER_LINEAR)
        a = cv2.warpPerspective(alpha, m, (FRAME_W, FRAME_H), flags=cv2.INTER_LINEAR)
        img = _blend(bg, warped, a)
    if pose is not None:  # the lamp light on the scene: level and colour cast
        channels = zip(cv2.split(img), pose.gain, strict=True)
        img = cv2.merge([cv2.LUT(ch, _light_lut(gain, pose.gamma)) for ch, gain in channels])
    if card is not None and pose is not None and pose.glare is not None:
        # A specular reflection of the lamp: added on top of the lit scene, so it saturates.
        gx, gy, gr, gs = pose.glare
        g = _soft_disc(img.shape, gx, gy, gr, gr / 2.5) * np.float32(255 * gs)
        img = cv2.add(img, cv2.merge([g, g, g]), dtype=cv2.CV_8U)
    # Per-frame blur: motion (hand shake) or focus.
    blur = rng.uniform(0, diff.blur_px)
    if blur >= 1.0:
        if rng.random() < 0.6:
            k = int(blur) * 2 + 1
            kernel = np.zeros((k, k), np.float32)
            kernel[k // 2, :] = 1.0 / k
            rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
            kernel = cv2.warpAffine(kernel, rot, (k, k))
            kernel /= max(kernel.sum(), 1e-6)
            img = cv2.filter2D(img, -1, kernel)
        elif defocus_disc:
            r = max(1, round(blur / 2))
            disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
            cv2.circle(disc, (r, r), r, 1.0, -1)
            img = cv2.filter2D(img, -1, disc / disc.sum())
        else:
            img = cv2.GaussianBlur(img, (0, 0), blur / 2)
    light = float(np.mean(pose.gain)) if pose is not None else 1.0
    sigma = diff.noise * (1.0 + (1.0 - light) * 2.0)
    noise = np.empty(img.shape, np.int16)
    cv2.setRNGSeed(int(rng.integers(1 << 31)))  # OpenCV's fast normal generator, seeded from ours
    cv2.randn(noise, 0, sigma)
    return cv2.add(img, noise, dtype=cv2.CV_8U)


def _blend(bg: np.ndarray, fg: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    a = cv2.merge([alpha, alpha, alpha])
    return cv2.add(cv2.multiply(fg, a, scale=1 / 255), cv2.multiply(bg, cv2.bitwise_not(a), scale=1 / 255))


def _light_lut(gain: float, gamma: float) -> np.ndarray:
    v = np.clip(np.arange(256, dtype=np.float32) * gain, 0, 255) / 255
    return (255 * v**gamma).astype(np.uint8)


def hold_sequence(
    card: np.ndarray | None,
    seed: int,
    frames: int = 20,
    difficulty: str = "medium",
    bg_kinds: tuple[str, ...] = (),
    style: str = "ceiling",
) -> list[np.ndarray]:
    """Frames of one hold: a fixed pose and background, blur/noise/jitter redrawn per frame."""
    hold = iter_hold(card, seed, difficulty, bg_kinds, style)
    return [next(hold) for _ in range(frames)]


def iter_hold(
    card: np.ndarray | None,
    seed: int,
    difficulty: str = "medium",
    bg_kinds: tuple[str, ...] = (),
    style: str = "ceiling",
) -> Iterator[np.ndarray]:
    """Like `hold_sequence` but lazy and endless, so a benchmark can stop at the decision."""
    if style not in STYLES:
        raise ValueError(f"unknown capture style {style!r}")
    rng = np.random.default_rng(seed)
    bg = background(rng, bg_kinds) if style == "ceiling" else table_background(rng)
    pose = random_pose(rng, difficulty) if card is not None else None
    layer = card_layer(card, pose) if card is not None and pose is not None else None
    scene = _table_scene_effects(rng, difficulty) if style == "table" else None
    while True:
        frame = render_frame(card, pose, bg, rng, layer, defocus_disc=scene is not None)
        yield frame if scene is None else _apply_table_effects(frame, scene, rng)


def single_frame(card: np.ndarray | None, seed: int, difficulty: str = "medium", style: str = "ceiling") -> np.ndarray:
    """One capture with its own background and pose."""
    return hold_sequence(card, seed, 1, difficulty, style=style)[0]


# --- the "table" style (a wider tuning world) --------------------------------------------------


def table_background(rng: np.random.Generator) -> np.ndarray:
    """A table top: wood grain, woven cloth or mottled paper, with a mug, a pen or a phone."""
    h, w = FRAME_H, FRAME_W
    kind = int(rng.integers(3))
    base = rng.integers(40, 210, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 0:  # wood: wavy stripes along a random direction
        ang = rng.uniform(0, np.pi)
        u = xx * np.cos(ang) + yy * np.sin(ang)
        v = -xx * np.sin(ang) + yy * np.cos(ang)
        warp = cv2.resize(rng.normal(0, 1, (8, 10)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        grain = np.sin(u / rng.uniform(3, 9) + warp * rng.uniform(2, 6) + np.sin(v / 60.0))
        tex = 0.5 + 0.5 * grain
        img = base * (0.7 + 0.45 * tex[..., None])
    elif kind == 1:  # cloth: a fine weave with noise
        period = rng.uniform(3, 7)
        weave = np.sin(xx / period * np.pi) * np.sin(yy / period * np.pi)
        img = base * (0.85 + 0.12 * weave[..., None]) + rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    else:  # paper or felt: mottled low-frequency noise
        mott = cv2.resize(rng.normal(0, 1, (12, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
        img = base * (0.9 + 0.12 * mott[..., None]) + rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    img = np.ascontiguousarray(np.clip(img, 0, 255).astype(np.uint8))
    for _ in range(int(rng.integers(0, 4))):
        thing = int(rng.integers(3))
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        if thing == 0:  # a mug seen from above: a ring and its handle
            r = int(rng.integers(30, 70))
            cv2.circle(img, (cx, cy), r, colour, -1)
            cv2.circle(img, (cx, cy), int(r * 0.8), tuple(int(c * 0.5) for c in colour), -1)
            cv2.ellipse(img, (cx + r, cy), (r // 3, r // 4), 0, -90, 90, colour, 6)
        elif thing == 1:  # a pen
            ang = rng.uniform(0, np.pi)
            d = np.array([np.cos(ang), np.sin(ang)]) * rng.uniform(60, 160)
            p, q = (int(cx - d[0]), int(cy - d[1])), (int(cx + d[0]), int(cy + d[1]))
            cv2.line(img, p, q, colour, int(rng.integers(5, 11)))
            cv2.line(img, p, q, (235, 235, 235), 1)
        else:  # a phone: a dark slab with a lit screen
            box = ((cx, cy), (float(rng.uniform(70, 110)), float(rng.uniform(140, 200))), float(rng.uniform(0, 180)))
            pts = cv2.boxPoints(box).astype(np.int32)
            cv2.fillConvexPoly(img, pts, (25, 25, 30))
            inner = cv2.boxPoints((box[0], (box[1][0] * 0.85, box[1][1] * 0.8), box[2])).astype(np.int32)
            cv2.fillConvexPoly(img, inner, tuple(int(v) for v in rng.integers(60, 200, 3)))
    return img


@dataclass(frozen=True)
class _TableEffects:
    shadow: np.ndarray | None  # per-pixel light factor (float32, 0..1), fixed for a hold
    temperature: tuple[float, float, float]  # per-channel gain of the light's colour
    jpeg: int  # quality


def _table_scene_effects(rng: np.random.Generator, difficulty: str | Difficulty) -> _TableEffects:
    diff = DIFFICULTIES[difficulty] if isinstance(difficulty, str) else difficulty
    shadow = None
    if rng.random() < 0.5:
        mask = np.zeros((FRAME_H // 4, FRAME_W // 4), np.float32)
        n = int(rng.integers(3, 7))
        pts = np.stack([rng.uniform(-20, FRAME_W // 4 + 20, n), rng.uniform(-20, FRAME_H // 4 + 20, n)], axis=1)
        cv2.fillConvexPoly(mask, cv2.convexHull(pts.astype(np.int32)), 1.0)
        mask = cv2.GaussianBlur(mask, (0, 0), float(rng.uniform(1, 4)))
        shadow = 1.0 - float(rng.uniform(0.25, 0.55)) * cv2.resize(mask, (FRAME_W, FRAME_H))
    warm = rng.uniform(-1, 1) * (0.6 if diff.name != "easy" else 0.3)  # blue-ish (-) to amber (+)
    temperature = (1.0 - 0.25 * warm, 1.0 - 0.03 * abs(warm), 1.0 + 0.2 * warm)  # B, G, R
    jpeg = int(rng.integers(45, 91))
    return _TableEffects(shadow, temperature, jpeg)


def _apply_table_effects(frame: np.ndarray, fx: _TableEffects, rng: np.random.Generator) -> np.ndarray:
    img = frame.astype(np.float32) * np.float32(fx.temperature)
    if fx.shadow is not None:
        img *= fx.shadow[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, fx.jpeg])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return decoded if decoded is not None else img
