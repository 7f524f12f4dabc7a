"""Frame sources: each is an object with `read() -> frame | None` and `close()`, and iterates.

The recogniser (device/hardware/vision) takes any iterator of frames, so the Pi camera, a USB webcam, a
folder of photos and a video file all plug in the same way. A source raises `CameraError` when it
cannot be opened or has died; `read()` returning None means "no new frame right now".

picamera2 is imported only when the Pi camera is asked for: it comes from Debian's
python3-picamera2 (the venv sees it through --system-site-packages) and does not exist elsewhere.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

Frame = np.ndarray
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")


class CameraError(RuntimeError):
    """The camera could not be opened or stopped delivering; str() says what to check."""


class _Iterable:
    """`for frame in source` yields frames until the source ends (raises CameraError on death)."""

    def read(self) -> Frame | None:
        raise NotImplementedError

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame


class PiCameraSource(_Iterable):
    """The Raspberry Pi camera module through picamera2, tuned for latency.

    A video configuration with a small YUV420 `lores` stream, converted to BGR per frame (about
    half a millisecond at 640×480): recognition needs colour to tell the team badges apart, which
    differ only in colour. One request is captured at a
    time (`queue=False`), so a frame is never older than the request for it; exposure is capped
    so a moving hand stays sharp."""

    name = "picamera"

    def __init__(self, size: tuple[int, int] = (640, 480), max_exposure_us: int = 10_000) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError("picamera2 is not installed (apt install python3-picamera2)") from exc
        if not Picamera2.global_camera_info():
            raise CameraError("no Pi camera detected: check the ribbon cable and camera_auto_detect=1")
        try:
            self.cam = Picamera2()
            config = self.cam.create_video_configuration(
                main={"size": (1280, 960), "format": "YUV420"},
                lores={"size": size, "format": "YUV420"},
                buffer_count=4,
                queue=False,
                controls={"FrameDurationLimits": (16_666, 33_333), "ExposureTime": max_exposure_us},
            )
            self.cam.configure(config)
            self.cam.start()
        except Exception as exc:  # libcamera raises a variety of errors
            raise CameraError(f"Pi camera failed to start: {exc}") from exc
        self.height = size[1]

    def read(self) -> Frame | None:
        try:
            yuv = self.cam.capture_array("lores")
        except Exception as exc:
            raise CameraError(f"Pi camera stopped: {exc}") from exc
        if yuv is None:
            return None
        import cv2

        return cv2.cvtColor(yuv, cv2.COLOR_YUV2BGR_I420)  # lores YUV420 is planar I420

    def close(self) -> None:
        try:
            self.cam.stop()
        finally:
            self.cam.close()


class OpenCVSource(_Iterable):
    """A USB webcam (device index or /dev/videoN) or a video file, through OpenCV."""

    def __init__(self, target: int | str, *, grey: bool = False, loop: bool = False) -> None:
        import cv2

        self.cv2 = cv2
        self.target = target
        self.grey = grey
        self.loop = loop
        self.name = f"opencv:{target}"
        self.cap = cv2.VideoCapture(target)
        if not self.cap.isOpened():
            raise CameraError(f"cannot open {target!r} with OpenCV (is the webcam plugged in?)")
        if isinstance(target, int):
            self.cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a queued old one
        self.ended = False

    def read(self) -> Frame | None:
        ok, frame = self.cap.read()
        if not ok and self.loop:
            self.cap.set(self.cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self.cap.read()
        if not ok:
            if isinstance(self.target, int):
                raise CameraError(f"webcam {self.target} stopped delivering frames")
            self.ended = True
            return None
        if self.grey and frame.ndim == 3:
            frame = self.cv2.cvtColor(frame, self.cv2.COLOR_BGR2GRAY)
        return frame

    def close(self) -> None:
        self.cap.release()


class ImageFolderSource(_Iterable):
    """Every image in a folder, in name order (once, or looping): tests and offline trials."""

    def __init__(self, folder: Path, *, grey: bool = False, loop: bool = False) -> None:
        import cv2

        self.cv2 = cv2
        self.folder = Path(folder)
        self.name = f"folder:{folder}"
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraError(f"no images in {folder}")
        self.grey = grey
        self.loop = loop
        self._next = 0

    def read(self) -> Frame | None:
        if self._next >= len(self.files):
            if not self.loop:
                return None
            self._next = 0
        path = self.files[self._next]
        self._next += 1
        frame = self.cv2.imread(str(path), self.cv2.IMREAD_GRAYSCALE if self.grey else self.cv2.IMREAD_COLOR)
        if frame is None:
            raise CameraError(f"cannot read image {path}")
        return frame

    def close(self) -> None:
        pass


class ThreadedSource(_Iterable):
    """Capture on a thread of its own and hand out only the newest frame (older ones are dropped),
    so recognition never works on a stale picture. A failure in the capture thread is raised by the
    next read()."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self._frame: Frame | None = None
        self._error: Exception | None = None
        self._fresh = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"camera-{self.name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                frame = self.inner.read()
            except Exception as exc:
                with self._fresh:
                    self._error = exc
                    self._fresh.notify_all()
                return
            if frame is not None:
                with self._fresh:
                    self._frame = frame
                    self._fresh.notify_all()

    def read(self, timeout: float = 0.2) -> Frame | None:
        with self._fresh:
            if self._frame is None and self._error is None:
                self._fresh.wait(timeout)
            if self._error is not None:
                raise CameraError(str(self._error)) from self._error
            frame, self._frame = self._frame, None
        return frame

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2.0)
        self.inner.close()


def open_source(spec: str) -> Any:
    """A source from its config string: `picamera`, `usb:0` (or `usb:/dev/video0`),
    `folder:/path`, `video:/path/file.mp4`, or `auto` (the Pi camera, else the first webcam)."""
    kind, _, arg = spec.partition(":")
    if kind == "picamera":
        return ThreadedSource(PiCameraSource())
    if kind == "usb":
        target: int | str = int(arg) if arg.isdigit() else (arg or 0)
        return ThreadedSource(OpenCVSource(target))
    if kind == "folder":
        return ImageFolderSource(Path(arg), loop=True)
    if kind == "video":
        return OpenCVSource(arg, loop=True)
    if kind == "auto":
        try:
            return ThreadedSource(PiCameraSource())
        except CameraError as pi_problem:
            try:
                return ThreadedSource(OpenCVSource(0))
            except CameraError:
                raise CameraError(f"no camera: {pi_problem}; no USB webcam either") from pi_problem
    raise CameraError(f"unknown camera source {spec!r} (picamera, usb:N, folder:PATH, video:PATH, auto, none)")
