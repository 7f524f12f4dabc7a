"""`houston identify` on many images: forked workers (one per usable core) give the same lines, in
the same order, as one process, with one clear stderr line per unusable image."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from device.hardware.vision import cli
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.references import build_reference_set, load, save

DECK = "table"
CARDS = ["engineer-ada", "engineer-ben", "pilot-otto", "medic-zed", "badge-red", "badge-blue"]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("data")
    save(build_reference_set(DECK, {c: [render_card("synthetic", c)] for c in CARDS}), data)
    return data


@pytest.fixture(scope="module")
def images(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Different cards and empty scenes, with a 1x1 image and a garbage file among them."""
    folder = tmp_path_factory.mktemp("images")
    paths = []
    for i in range(cli._PARALLEL_FROM + 4):
        card = [*CARDS, None][i % (len(CARDS) + 1)]
        p = folder / f"img{i:03d}.jpg"
        cv2.imwrite(str(p), single_frame(render_card("synthetic", card) if card else None, 300 + i, "easy"))
        paths.append(str(p))
    tiny, junk = folder / "tiny.png", folder / "junk.jpg"
    cv2.imwrite(str(tiny), cv2.imread(paths[0])[:1, :1])
    junk.write_bytes(b"\x00 not an image")
    paths[3:3] = [str(tiny)]
    paths[30:30] = [str(junk)]
    return paths


def test_two_workers_answer_exactly_as_one_process(store: Path, images: list[str]) -> None:
    cli._init_identify(load(store, DECK))
    one = [cli._identify_one(p) for p in images]
    two = list(cli._identify_all(images))
    assert two == one
    assert [out.split("\t")[0] for out, _ in two if out] == [
        p for p in images if not p.endswith(("tiny.png", "junk.jpg"))
    ]
    errors = [err for _, err in two if err]
    assert len(errors) == 2 and "1x1" in errors[0] and "cannot read" in errors[1]
    named = {out.split("\t")[1] for out, _ in two if out}
    assert len(named & set(CARDS)) >= 4 and "unknown" in named  # not one answer repeated


def test_the_command_prints_in_argument_order(store: Path, images: list[str], capsys) -> None:
    parser = argparse.ArgumentParser(prog="houston")
    cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["identify", "--deck", DECK, "--data-dir", str(store), *images])
    assert args.func(args) == 1  # two unusable images
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == len(images) - 2
    assert [line.split("\t")[0] for line in lines] == [p for p in images if not p.endswith(("tiny.png", "junk.jpg"))]
    for line in lines:
        _path, name, score = line.split("\t")
        assert name in CARDS or name == "unknown"
        assert 0.0 <= float(score) <= 1.0
    assert captured.err.count("\n") == 2 and "Traceback" not in captured.err


def test_one_worker_per_usable_core_for_long_lists() -> None:
    """A Pi 4 or 5 has four cores: a long list uses all of them (it was fixed at two), never more
    workers than chunks of images, never more than the cap, and a short list no second process."""
    many = 30 * cli._CHUNK
    assert cli._worker_count(many, 4) == 4
    assert cli._worker_count(many, 2) == 2
    assert cli._worker_count(many, 1) == 1
    assert cli._worker_count(many, 64) == cli._MAX_WORKERS
    assert cli._worker_count(cli._PARALLEL_FROM + 1, 64) == -(-(cli._PARALLEL_FROM + 1) // cli._CHUNK)
    assert cli._worker_count(cli._PARALLEL_FROM - 1, 64) == 1


def test_the_cores_counted_are_the_ones_the_process_may_use() -> None:
    """A process pinned to one core (as `taskset -c 0` or a container's CPU set does) counts one,
    however many the machine has."""
    code = "from device.hardware.vision.cli import _usable_cores; print(_usable_cores())"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}),
    )
    assert out.stdout.strip() == "1"
    assert cli._usable_cores() == len(os.sched_getaffinity(0))
