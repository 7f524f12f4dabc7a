"""`houston enroll` / `houston identify` through an argparse parser built by register()."""

from __future__ import annotations

import argparse
import contextlib
import io
import shutil
from pathlib import Path

import cv2
import pytest

from device.hardware.vision import cli
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card

CARDS = ["engineer-ada", "engineer-ben", "pilot-otto", "medic-zed", "badge-red", "badge-blue"]


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="houston")
    cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


@pytest.fixture(scope="module")
def enrolled_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One enrollment for the module (it calibrates on augmented views: seconds), copied per test."""
    root = tmp_path_factory.mktemp("enrolled")
    (root / "photos").mkdir()
    for card in CARDS:
        cv2.imwrite(str(root / "photos" / f"{card}.png"), render_card("synthetic", card))
    data = root / "data"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert _run(["enroll", "--deck", "table", "--from", str(root / "photos"), "--data-dir", str(data)]) == 0
    assert "enrolled 6 cards" in out.getvalue() and "look-alike group" in out.getvalue()
    return data


@pytest.fixture
def enrolled(tmp_path: Path, enrolled_once: Path) -> Path:
    """The module's enrolled store, a copy of its own (a test may damage it)."""
    return Path(shutil.copytree(enrolled_once, tmp_path / "data"))


def test_identify_prints_one_line_per_image_in_order(tmp_path: Path, enrolled: Path, capsys) -> None:
    paths = []
    for i, card in enumerate(["pilot-otto", None, "engineer-ben"]):
        p = tmp_path / f"img{i}.png"
        cv2.imwrite(str(p), single_frame(render_card("synthetic", card) if card else None, 70 + i, "easy"))
        paths.append(str(p))
    assert _run(["identify", "--deck", "table", "--data-dir", str(enrolled), *paths]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("\t")[:2] for line in lines] == [
        [paths[0], "pilot-otto"],
        [paths[1], "unknown"],
        [paths[2], "engineer-ben"],
    ]
    for line in lines:
        score = float(line.split("\t")[2])
        assert 0.0 <= score <= 1.0


def test_identify_unreadable_image_exits_nonzero(tmp_path: Path, enrolled: Path, capsys) -> None:
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"not a png")
    assert _run(["identify", "--deck", "table", "--data-dir", str(enrolled), str(bad)]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_many_images_are_shared_between_processes_and_stay_in_order(tmp_path: Path, enrolled: Path, capsys) -> None:
    """From 40 images on, two processes share the work; lines keep the order of the arguments,
    and a 1x1 image and a garbage file each get one clear line on stderr (no traceback)."""
    frame = single_frame(render_card("synthetic", "pilot-otto"), 90, "easy")
    paths = []
    for i in range(cli._PARALLEL_FROM):
        p = tmp_path / f"many{i:02d}.jpg"
        cv2.imwrite(str(p), frame)
        paths.append(str(p))
    tiny, junk = tmp_path / "tiny.png", tmp_path / "junk.jpg"
    cv2.imwrite(str(tiny), frame[:1, :1])
    junk.write_bytes(b"\x00garbage")
    paths[5:5] = [str(tiny)]
    paths[20:20] = [str(junk)]
    assert _run(["identify", "--deck", "table", "--data-dir", str(enrolled), *paths]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    good = [p for p in paths if p not in (str(tiny), str(junk))]
    assert [line.split("\t")[0] for line in lines] == good
    assert all(line.split("\t")[1] == "pilot-otto" for line in lines)
    err = captured.err.splitlines()
    assert len(err) == 2 and "1x1" in err[0] and "cannot read" in err[1] and "Traceback" not in captured.err


def test_identify_without_enrollment_says_what_to_do(tmp_path: Path, capsys) -> None:
    img = tmp_path / "x.png"
    cv2.imwrite(str(img), single_frame(None, 1, "easy"))
    assert _run(["identify", "--deck", "table", "--data-dir", str(tmp_path), str(img)]) == 2
    assert "houston enroll" in capsys.readouterr().err


def test_identify_with_a_corrupt_store_is_a_message_not_a_crash(enrolled: Path, tmp_path: Path, capsys) -> None:
    (enrolled / "vision" / "table.npz").write_bytes(b"PK\x03\x04garbage")
    img = tmp_path / "x.png"
    cv2.imwrite(str(img), single_frame(None, 1, "easy"))
    assert _run(["identify", "--deck", "table", "--data-dir", str(enrolled), str(img)]) == 2
    err = capsys.readouterr().err
    assert "unreadable" in err and "enroll" in err


def test_data_dir_from_environment(tmp_path: Path, card_folder, monkeypatch, capsys) -> None:
    card_folder(tmp_path / "photos", "synthetic", CARDS[:2])
    monkeypatch.setenv("HOUSTON_DATA_DIR", str(tmp_path / "env-data"))
    assert _run(["enroll", "--deck", "x", "--from", str(tmp_path / "photos")]) == 0
    assert (tmp_path / "env-data" / "vision" / "x.npz").exists()


def test_enroll_from_a_missing_folder(tmp_path: Path, capsys) -> None:
    assert _run(["enroll", "--deck", "x", "--from", str(tmp_path / "nope"), "--data-dir", str(tmp_path)]) == 2


def test_enroll_refuses_card_ids_with_tabs_or_line_breaks(enrolled: Path, tmp_path: Path, capsys) -> None:
    """A file name with a tab or a line break would put it into the card id, and `houston
    identify` prints ids between tabs, one image a line: the folder is refused, naming the file,
    and the deck already enrolled under that name is left as it was."""
    store = enrolled / "vision" / "table.npz"
    before = store.read_bytes()
    for bad in ("pilot\totto.png", "medic\nzed__2.png"):
        folder = tmp_path / f"photos-{len(bad)}"
        folder.mkdir()
        cv2.imwrite(str(folder / "engineer-ada.png"), render_card("synthetic", "engineer-ada"))
        cv2.imwrite(str(folder / bad), render_card("synthetic", "pilot-otto"))
        assert _run(["enroll", "--deck", "table", "--from", str(folder), "--data-dir", str(enrolled)]) == 1
        err = capsys.readouterr().err
        assert repr(bad) in err and "unprintable" in err
        assert store.read_bytes() == before
    spaced = tmp_path / "spaced"
    spaced.mkdir()
    cv2.imwrite(str(spaced / "red dragon.png"), render_card("synthetic", "pilot-otto"))
    assert _run(["enroll", "--deck", "spaced", "--from", str(spaced), "--data-dir", str(tmp_path / "d")]) == 0
    assert "enrolled 1 cards" in capsys.readouterr().out
