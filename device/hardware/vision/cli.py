"""`houston enroll` and `houston identify`: the vision tools of the command line."""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import cv2

from device.hardware.vision.decks import card_ids_for
from device.hardware.vision.enrollment import enroll_from_camera, enroll_from_folder
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import ReferenceSet, ReferenceStoreError, default_data_dir, load


def register(subparsers: Any) -> None:
    """Add `enroll` and `identify` to the houston command line."""
    p = subparsers.add_parser("enroll", help="enroll a deck's cards from images or the camera")
    p.add_argument("--deck", required=True, help="deck name (a game's deck, or any name for a custom deck)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--from", dest="folder", type=Path, help="folder of <card-id>.<ext> or <card-id>__<n>.<ext> photos or scans"
    )
    src.add_argument("--camera", action="store_true", help="walk through the catalogue in front of the camera")
    p.add_argument("--source", default="auto", help="camera source for --camera (picamera, usb:N, folder:PATH)")
    p.add_argument("--views", type=int, default=3, help="views taken of each card with --camera")
    p.add_argument("--data-dir", help="reference store (default $HOUSTON_DATA_DIR, else box.data_dir of houston.toml)")
    p.set_defaults(func=enroll_command)

    q = subparsers.add_parser("identify", help="name the card in each image (diagnosis)")
    q.add_argument("--deck", required=True)
    q.add_argument("--data-dir")
    q.add_argument("images", nargs="+", metavar="IMAGE")
    q.set_defaults(func=identify_command)


def enroll_command(args: argparse.Namespace) -> int:
    data_dir = default_data_dir(args.data_dir)
    try:
        if args.camera:
            report = _enroll_camera(args, data_dir)
        else:
            if not args.folder.is_dir():
                print(f"houston enroll: {args.folder} is not a folder", file=sys.stderr)
                return 2
            report = enroll_from_folder(args.deck, args.folder, data_dir)
    except ValueError as exc:
        print(f"houston enroll: {exc}", file=sys.stderr)
        return 1
    for line in report.lines():
        print(line)
    return 0


def _enroll_camera(args: argparse.Namespace, data_dir: Path):
    cards = card_ids_for(args.deck)
    if not cards:
        raise ValueError(f"deck {args.deck!r} has no catalogue; enroll a custom deck with --from DIR")
    from device.hardware.camera.sources import open_source

    source = open_source(args.source)

    def progress(n: int, total: int, card: str, got: int, want: int) -> None:
        bar = "#" * got + "." * (want - got)
        print(f"\r[{n}/{total}] {card:<24} {bar}", end="", file=sys.stderr, flush=True)

    speaker = _speaker(data_dir)

    def say(text: str) -> None:
        print(f"\n{text}", file=sys.stderr)
        if speaker is not None:
            speaker.say(text)

    from games.catalog import card_name

    try:
        return enroll_from_camera(
            args.deck, cards, iter(source), data_dir, say=say, name_of=card_name, progress=progress, views=args.views
        )
    finally:
        source.close()
        if speaker is not None:
            speaker.close(drain=True, timeout=10)


def _speaker(data_dir: Path):
    """The box's voice for the walk-through, when there is an audio device (else print only)."""
    try:
        from device.hardware.voice.clips import ClipCache, VoiceStyle
        from device.hardware.voice.speaker import Speaker

        speaker = Speaker(ClipCache(data_dir / "voice", VoiceStyle()))
    except Exception:
        return None
    if not speaker.mixer.ok:
        speaker.close()
        return None
    return speaker


def identify_command(args: argparse.Namespace) -> int:
    """One line per image, in the order given.

    The identifier is built once, here; many images are then shared between forked processes
    (one per core this process may use: `_worker_count`) that inherit it (building it again per
    process cost ~1 s of CPU each), fed in chunks, and the lines still come out in the order of
    the arguments."""
    data_dir = default_data_dir(args.data_dir)
    try:
        refs = load(data_dir, args.deck)
    except ReferenceStoreError as exc:
        print(f"houston identify: {exc}", file=sys.stderr)
        return 2
    _init_identify(refs)
    status = 0
    for path, (out, err) in zip(args.images, _identify_all(args.images), strict=True):
        status = _emit(path, out, err) or status
    return status


_PARALLEL_FROM = 40  # images; below this, starting a second process costs more than it saves
_CHUNK = 10  # images per task: small enough that the processes finish together
_MAX_WORKERS = 8  # a big machine's cores: past this, forking and loading cost more than they save
_identifier: dict[str, Identifier] = {}


def _usable_cores() -> int:
    """The cores this process may run on (taskset, a container's CPU set), else all of them."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def _worker_count(images: int, cores: int) -> int:
    """Forked workers for a list of images: one per core (a Pi 4 or 5 has four; this was fixed
    at two), no more than there are chunks to share, and none for a short list."""
    if images < _PARALLEL_FROM:
        return 1
    return max(1, min(cores, _MAX_WORKERS, -(-images // _CHUNK)))


def _identify_all(paths: list[str]) -> Iterator[tuple[str | None, str | None]]:
    """(stdout line, stderr line) per path, in order; forked workers for long lists."""
    workers = _worker_count(len(paths), _usable_cores())
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        yield from map(_identify_one, paths)
        return
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        yield from pool.map(_identify_one, paths, chunksize=_CHUNK)


def _init_identify(refs: ReferenceSet) -> None:
    cv2.setNumThreads(1)
    _identifier["it"] = Identifier([refs])


def _identify_one(path: str) -> tuple[str | None, str | None]:
    """(stdout line, None) or (None, stderr line) for one image."""
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        return None, f"houston identify: cannot read image {path} (missing, or not an image file)"
    if min(img.shape[:2]) < 32:
        return None, f"houston identify: image {path} is {img.shape[1]}x{img.shape[0]}, too small to show a card"
    result = _identifier["it"].identify(img)
    name = result.card if result.is_match and result.card else "unknown"
    return f"{path}\t{name}\t{result.score:.3f}", None


def _emit(path: str, out: str | None, err: str | None) -> int:
    if out is not None:
        print(out, flush=True)
        return 0
    print(err, file=sys.stderr, flush=True)
    return 1
