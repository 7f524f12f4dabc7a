"""Enrollment from a folder (both file name forms), the look-alike report, and the store's errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from device.hardware.vision.captures import background
from device.hardware.vision.card_art import render_card
from device.hardware.vision.enrollment import enroll_from_camera, enroll_from_folder
from device.hardware.vision.references import (
    ReferenceStoreError,
    card_id_from_filename,
    load,
    normalise_card_image,
    store_path,
)

CUSTOM = ["engineer-ada", "engineer-ben", "pilot-otto", "medic-zed", "badge-red"]


def test_file_names_give_card_ids() -> None:
    assert card_id_from_filename(Path("max.png")) == "max"
    assert card_id_from_filename(Path("max__2.jpg")) == "max"
    assert card_id_from_filename(Path("badge-red__front.png")) == "badge-red"


def test_custom_deck_from_mixed_names(tmp_path: Path, card_folder) -> None:
    folder = tmp_path / "photos"
    card_folder(folder, "synthetic", CUSTOM[:3])
    card_folder(folder, "synthetic", CUSTOM[3:])
    (folder / "pilot-otto.png").rename(folder / "pilot-otto__1.png")
    cv2.imwrite(str(folder / "pilot-otto__2.jpg"), render_card("synthetic", "pilot-otto"))
    (folder / "notes.txt").write_text("not an image")
    report = enroll_from_folder("my-table", folder, tmp_path / "data")
    refs = load(tmp_path / "data", "my-table")
    assert sorted(refs.cards) == sorted(CUSTOM)
    assert report.cards == 5 and report.views == 6
    assert any("engineer-ada" in g and "engineer-ben" in g for g in report.groups)
    assert report.too_alike == []
    assert report.path == store_path(tmp_path / "data", "my-table")


def test_twins_are_reported_as_too_alike(tmp_path: Path, card_folder) -> None:
    folder = tmp_path / "photos"
    card_folder(folder, "synthetic", ["pilot-otto", "medic-zed"])
    cv2.imwrite(str(folder / "pilot-twin.png"), render_card("synthetic", "pilot-otto"))
    report = enroll_from_folder("twins", folder, tmp_path / "data")
    assert ("pilot-otto", "pilot-twin") in report.too_alike
    assert any("WARNING" in line and "pilot-twin" in line for line in report.lines())


def test_builtin_deck_skips_strangers_and_lists_missing(tmp_path: Path, card_folder) -> None:
    folder = tmp_path / "photos"
    card_folder(folder, "synthetic-other", ["scout-uma", "scout-vik"])
    card_folder(folder, "synthetic", ["engineer-ada"])
    report = enroll_from_folder("synthetic-other", folder, tmp_path / "data")
    assert report.cards == 2
    assert report.unknown == ["engineer-ada"]
    assert "guard-abe" in " ".join(report.missing) or report.missing


def test_photo_of_a_card_is_cut_out(tmp_path: Path) -> None:
    face = render_card("synthetic", "medic-zed")
    photo = np.full((600, 800, 3), 40, np.uint8)
    src = np.float32([[0, 0], [252, 0], [252, 352], [0, 352]])
    dst = np.float32([[420, 80], [700, 140], [640, 520], [330, 450]])
    m = cv2.getPerspectiveTransform(src, dst)
    cv2.warpPerspective(face, m, (800, 600), photo, borderMode=cv2.BORDER_TRANSPARENT)
    out = normalise_card_image(photo)
    assert out.shape == face.shape
    assert np.abs(out.astype(int) - face.astype(int)).mean() < 25


def test_missing_and_corrupt_store_say_re_enroll(tmp_path: Path, card_folder) -> None:
    with pytest.raises(ReferenceStoreError, match="houston enroll"):
        load(tmp_path, "nothing")
    folder = tmp_path / "photos"
    card_folder(folder, "synthetic", CUSTOM[:2])
    enroll_from_folder("deck", folder, tmp_path)
    path = store_path(tmp_path, "deck")
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ReferenceStoreError, match="enroll"):
        load(tmp_path, "deck")
    path.write_bytes(b"")
    with pytest.raises(ReferenceStoreError, match="enroll"):
        load(tmp_path, "deck")


def test_camera_walkthrough_takes_views_and_reports(tmp_path: Path) -> None:
    def frames():
        rng = np.random.default_rng(5)
        for card in ["scout-uma", "scout-vik"]:
            for i in range(4):
                scene = background(rng, ("lamp",)) // 3
                face = render_card("synthetic-other", card)
                x, y = 150 + 5 * i, 60
                scene[y : y + face.shape[0], x : x + face.shape[1]] = face
                yield scene

    said: list[str] = []
    progress: list[tuple[int, int, str, int, int]] = []
    clock = iter(np.arange(0, 100, 0.5))
    report = enroll_from_camera(
        "synthetic-other",
        ["scout-uma", "scout-vik"],
        frames(),
        tmp_path,
        say=said.append,
        progress=lambda *a: progress.append(a),
        views=3,
        clock=lambda: float(next(clock)),
    )
    assert report.cards == 2 and report.views == 6
    assert said == ["Hold scout-uma over the box.", "Got it.", "Hold scout-vik over the box.", "Got it."]
    assert progress[-1] == (2, 2, "scout-vik", 3, 3)
    assert load(tmp_path, "synthetic-other").cards == ("scout-uma", "scout-vik")
