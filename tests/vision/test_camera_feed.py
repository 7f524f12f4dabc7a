"""The camera loop end to end: synthetic captures written to an image folder, real recognition,
the session's rules, and decisions turned into what the service takes."""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import pytest

from device.hardware.vision.camera_feed import make_scan_session, run_camera_feed, service_message
from device.hardware.vision.captures import hold_sequence
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import ReferenceStoreError, save
from device.hardware.vision.scan_session import Decision, ScanSession
from device.hardware.vision.sources import image_folder, synthetic_captures, video_file


class FrameClock:
    """Advances one frame period (1/15 s) per reading: the session reads it once per frame."""

    def __init__(self) -> None:
        self.frames = 0

    def __call__(self) -> float:
        self.frames += 1
        return self.frames / 15.0


def _write_script(folder: Path, script: list[tuple[str | None, int, int]]) -> None:
    folder.mkdir()
    n = 0
    for card, seed, count in script:
        face = render_card("synthetic", card) if card else None
        for frame in hold_sequence(face, seed, count, "easy"):
            cv2.imwrite(str(folder / f"{n:04d}.png"), frame)
            n += 1


def test_folder_camera_scans_each_presentation_once(tmp_path: Path, identifier: Identifier) -> None:
    folder = tmp_path / "frames"
    _write_script(
        folder,
        [
            ("pilot-otto", 11, 8),
            (None, 12, 12),  # held, then taken away for 0.8 s
            ("pilot-otto", 13, 8),  # shown again: a second scan
            ("medic-zed", 14, 8),
            (None, 15, 4),
        ],
    )
    session = ScanSession(identifier.identify, deck="synthetic", clock=FrameClock())
    decisions: list[Decision] = []
    count = run_camera_feed(image_folder(folder), session, decisions.append, threading.Event())
    assert count == 40
    assert [(d.kind, d.card) for d in decisions] == [
        ("card", "pilot-otto"),
        ("card", "pilot-otto"),
        ("card", "medic-zed"),
    ]


def test_stop_event_ends_the_loop_and_bad_callbacks_do_not(identifier: Identifier) -> None:
    stop = threading.Event()
    frames = synthetic_captures(
        "synthetic", ["badge-red", "pilot-pia"], seed=3, frames_per_card=6, gap_frames=12, difficulty="easy"
    )
    session = ScanSession(identifier.identify, deck="synthetic", clock=FrameClock())
    seen: list[Decision] = []

    def on_decision(d: Decision) -> None:
        seen.append(d)
        stop.set()
        raise RuntimeError("a broken consumer must not kill the camera")

    count = run_camera_feed(frames, session, on_decision, stop)
    assert len(seen) == 1 and count < 36


def test_none_frames_are_skipped(identifier: Identifier) -> None:
    session = ScanSession(identifier.identify, clock=FrameClock())
    assert run_camera_feed(iter([None, None]), session, print, threading.Event()) == 0


def test_video_file_source(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    frames = hold_sequence(render_card("synthetic", "pilot-otto"), 5, 5, "easy")
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15, (640, 480))
    if not writer.isOpened():
        pytest.skip("no MJPG writer in this OpenCV build")
    for f in frames:
        writer.write(f)
    writer.release()
    assert len(list(video_file(path))) == 5


def test_session_factory_reads_the_data_dir(tmp_path: Path, synthetic_refs) -> None:
    with pytest.raises(ReferenceStoreError, match="enroll"):
        make_scan_session(data_dir=tmp_path)
    save(synthetic_refs, tmp_path)
    session = make_scan_session(data_dir=tmp_path, deck="synthetic")
    assert session.current_deck() == "synthetic"


def test_service_messages() -> None:
    from games.core import Say, Scan

    assert service_message(Decision("card", "pilot-otto")) == Scan("pilot-otto")
    foreign = service_message(Decision("foreign", "scout-uma"))
    unknown = service_message(Decision("unknown"))
    assert isinstance(foreign[0], Say) and foreign[0].key == "foreign_card"
    assert unknown[0].key == "unknown_card"
