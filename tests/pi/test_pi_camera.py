"""Camera sources and the watchdog: a camera that freezes and one that dies are noticed within
2 s of virtual time, said once through the service, the game goes on, and the camera comes back."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from device.hardware.camera.feed import CameraFeed, decision_input, start_camera
from device.hardware.camera.sources import CameraError, ImageFolderSource, OpenCVSource, open_source
from device.hardware.camera.watchdog import CameraWatchdog
from device.simulation.simbox import VirtualClock
from device.simulation.testing import make_box
from games.core import Scan

LOST = "I lost the camera. Keep playing with the buttons; I will keep trying to reconnect."
BACK = "The camera is back."


class FakeCamera:
    """A scriptable camera: live (noisy frames), frozen (the same frame), or dead (raises)."""

    opened = 0

    def __init__(self, mode: str = "live") -> None:
        self.mode = mode
        self.name = "fake"
        self.rng = np.random.default_rng(FakeCamera.opened)
        self.frozen = self.rng.integers(0, 255, (48, 64), dtype=np.uint8)
        self.closed = False
        FakeCamera.opened += 1

    def read(self):
        if self.mode == "dead":
            raise CameraError("device unplugged")
        if self.mode == "frozen":
            return self.frozen.copy()
        if self.mode == "silent":
            return None
        return self.rng.integers(0, 255, (48, 64), dtype=np.uint8)

    def close(self):
        self.closed = True


class Rig:
    """A watchdog over a factory whose next camera's mode the test sets."""

    def __init__(self, first: str = "live") -> None:
        self.clock = VirtualClock()
        self.next_mode = first
        self.cameras: list[FakeCamera] = []
        self.events: list[str] = []
        self.refuse = False
        self.dog = CameraWatchdog(self.open, clock=self.clock, on_lost=lambda r: self.events.append(f"lost: {r}"),
                                  on_back=lambda: self.events.append("back"), stale_after=2.0, retry_every=1.0)

    def open(self):
        if self.refuse:
            raise CameraError("no camera on the bus")
        cam = FakeCamera(self.next_mode)
        self.cameras.append(cam)
        return cam

    def run(self, seconds: float, step: float = 0.1) -> int:
        fresh = 0
        for _ in range(round(seconds / step)):
            fresh += self.dog.poll() is not None
            self.clock.advance(step)
        return fresh


def test_a_live_camera_gives_fresh_frames_and_no_alarm():
    rig = Rig()
    assert rig.run(5) == 50
    assert rig.events == [] and len(rig.cameras) == 1


def test_a_frozen_camera_is_noticed_after_two_seconds_reopened_and_back_when_live():
    rig = Rig()
    rig.run(1)
    rig.cameras[0].mode = "frozen"
    rig.next_mode = "frozen"
    rig.run(1.9)
    assert rig.events == []  # not yet: 1.9 s without a new picture
    rig.run(0.3)
    assert len(rig.events) == 1 and "frozen" in rig.events[0]
    assert rig.cameras[0].closed  # a frozen camera is closed and reopened, not waited on
    rig.run(3)
    assert len(rig.events) == 1  # said once, not every retry
    assert len(rig.cameras) >= 3  # reconnect attempts every second
    rig.next_mode = "live"
    rig.run(1.5)
    assert rig.events[-1] == "back" and not rig.dog.lost


def test_a_camera_that_dies_is_noticed_and_reconnected_when_it_returns():
    rig = Rig()
    rig.run(1)
    rig.cameras[0].mode = "dead"
    rig.refuse = True  # unplugged: reopening fails too
    rig.run(1.9)
    assert rig.events == []
    rig.run(0.3)
    assert len(rig.events) == 1
    assert "device unplugged" in rig.events[0] or "no camera on the bus" in rig.events[0]
    rig.refuse = False
    rig.run(1.5)
    assert rig.events[-1] == "back"


def test_a_camera_missing_from_the_start_is_reported_after_two_seconds():
    rig = Rig()
    rig.refuse = True
    rig.run(2.2)
    assert len(rig.events) == 1 and "no camera on the bus" in rig.events[0]


def test_through_the_service_the_box_says_camera_lost_once_and_buttons_keep_working(tmp_path):
    box = make_box(tmp_path, game="dog")
    clock = VirtualClock()
    cams: list[FakeCamera] = []

    def opener():
        cams.append(FakeCamera("live" if len(cams) == 0 else "dead"))
        return cams[-1]

    feed = CameraFeed(box.service, opener, data_dir=tmp_path, clock=clock)
    try:
        for _ in range(10):
            feed.watchdog.poll()
            clock.advance(0.1)
        cams[0].mode = "frozen"
        for _ in range(40):
            feed.watchdog.poll()
            clock.advance(0.1)
        box.service.wait_idle()
        assert box.said.count(LOST) == 1
        for button in ("ok", "red", "blue", "ok", "ok"):  # the game starts and runs on buttons
            box.press(button)
        assert box.session is not None and box.session.state.rolls == 1
        cams.append(FakeCamera("live"))
        feed.watchdog.source = None  # make the next connect pick a live camera
        feed.watchdog.open_source = lambda: cams[-1]
        for _ in range(20):
            feed.watchdog.poll()
            clock.advance(0.1)
        box.service.wait_idle()
        assert box.said.count(BACK) == 1
    finally:
        box.close()


def test_a_recognised_card_becomes_a_scan_input():
    assert decision_input("max") == Scan("max")
    assert decision_input(Scan("max")) == Scan("max")
    assert decision_input(type("D", (), {"card": "rex"})()) == Scan("rex")
    assert decision_input(type("D", (), {"card": "unknown"})()) is None
    assert decision_input(None) is None


def test_the_feed_thread_runs_and_stops_without_recognition_installed(tmp_path, monkeypatch):
    box = make_box(tmp_path, game="dog")
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i}.png"), np.full((24, 32), i * 80, np.uint8))
    try:
        feed = start_camera(f"folder:{folder}", box.service, tmp_path)
        assert feed is not None and feed.thread.is_alive()
        feed.stop()
        assert not feed.thread.is_alive()
        assert start_camera("none", box.service, tmp_path) is None
    finally:
        box.close()


def test_image_folder_source_reads_in_name_order_and_can_loop(tmp_path):
    for name, value in (("b.png", 20), ("a.jpg", 10), ("notes.txt", 0)):
        if name.endswith("txt"):
            (tmp_path / name).write_text("not an image")
        else:
            cv2.imwrite(str(tmp_path / name), np.full((8, 8), value, np.uint8))
    once = list(ImageFolderSource(tmp_path))
    assert [f.shape for f in once] == [(8, 8, 3)] * 2  # colour: badges differ only in colour
    assert [int(f[0, 0, 0]) for f in once] == [10, 20]
    looping = ImageFolderSource(tmp_path, loop=True, grey=True)
    assert [int(looping.read()[0, 0]) for _ in range(3)] == [10, 20, 10]


def test_video_file_source_gives_colour_frames_then_ends(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(5):
        writer.write(np.full((48, 64, 3), i * 40, np.uint8))
    writer.release()
    frames = list(OpenCVSource(str(path)))
    assert len(frames) == 5 and frames[0].shape == (48, 64, 3)
    assert next(iter(OpenCVSource(str(path), grey=True))).ndim == 2


def test_bad_sources_are_refused_with_a_reason(tmp_path):
    with pytest.raises(CameraError, match="no images"):
        open_source(f"folder:{tmp_path}")
    with pytest.raises(CameraError, match="unknown camera source"):
        open_source("webcam")
    with pytest.raises(CameraError, match=r"picamera2 is not installed|no Pi camera"):
        open_source("picamera")


def test_watchdog_frames_stream_stops_on_the_event():
    rig = Rig()
    stop = threading.Event()
    got = 0
    for _ in rig.dog.frames(stop):
        got += 1
        if got == 3:
            stop.set()
    assert got == 3


def test_recognition_decisions_reach_the_service_as_scans_and_words(tmp_path):
    from device.box.jobs import InputJob, SayJob
    from device.hardware.vision.scan_session import CARD, UNKNOWN, Decision

    box = make_box(tmp_path, game="dog")
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), np.zeros((8, 8), np.uint8))
    posted: list = []
    box.service.post = posted.append  # what the feed hands the service, without running it
    feed = CameraFeed(box.service, lambda: ImageFolderSource(folder), data_dir=tmp_path / "no-refs")
    try:
        assert feed._recognition() == (None, None)  # nothing enrolled: the camera is only watched
        feed.on_decision(Decision(CARD, card="max", deck="dog"))
        feed.on_decision(Decision(UNKNOWN))
        assert [type(j) for j in posted] == [InputJob, SayJob]
        assert posted[0].inp == Scan("max") and posted[1].words[0].key == "unknown_card"
    finally:
        del box.service.post
        box.close()


def test_the_status_light_is_told_while_a_card_is_in_view(tmp_path):
    from types import SimpleNamespace

    box = make_box(tmp_path, game="dog")
    told: list[bool] = []
    session = SimpleNamespace(last=None)
    statuses = ["none", "unknown", "match", "match", "none", "none"]
    feed = CameraFeed(box.service, FakeCamera, data_dir=tmp_path, on_scanning=told.append)
    try:
        for frame, status in zip(feed.watch_scanning(iter(range(6)), session), statuses, strict=True):
            session.last = SimpleNamespace(status=status)
            assert frame is not None
        assert told == [True, False]
    finally:
        box.close()
