"""`houston bench crash --kills N --json`: pull the plug N times and count what was lost.

A child process runs the real service on a real journal and plays scripted games of every
installed game (each game's own random policy through the generic contract, BACK now and then),
printing one `ACK` line per input the service acknowledged (journaled and shown). The child dies
by SIGKILL, at one of four kinds of moment, in turn:

- `external`: the parent kills it after a random delay (anywhere, the commit included);
- `announce`: the child kills itself in the first outlet of a random update — after the journal
  commit and before anyone saw or heard it (the window defect 7 of issue 12 is about);
- `game_end`: in the update that shows a game's end (defect 1's window);
- `undo`: in the update that shows an undo.

After each kill the parent checks the journal read-only (integrity_check; every ACK line present
and replaying to the digest the child printed; every entry journaled before still there with the
same outcomes: no re-rolled chance), then restarts the child, which first reports how it resumed:
a box is stuck if it resumes a finished game as running, or a game with nothing to accept.
Children are forked from this process (imports done once), so a kill costs milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import random
import select
import signal
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.box.jobs import InputJob, UndoJob
from device.box.journal import Journal, JournalError, entry_from_data, journal_path, open_journal
from device.box.service import Service, Update
from games.core import RuleError, digest
from games.registry import game_ids, load_game
from games.session import Session, replay

MODES = ("external", "announce", "game_end", "undo")
UNDO_SHARE = 0.12  # of steps that press BACK when something can be undone
STEP_LIMIT = 400  # inputs per child life (a life normally ends by a kill long before)


# --- the child ---------------------------------------------------------------------------------


def table_options(game_id: str) -> dict[str, Any]:
    """The options of the smallest table the game accepts (its own simulation options)."""
    game = load_game(game_id)
    for teams in range(2, 7):
        options = game.simulation_options(teams)
        try:
            game.setup(options)
        except RuleError:
            continue
        return dict(options)
    return {}


class Killer:
    """The first outlet: dies (SIGKILL, no clean-up) at the chosen kind of moment."""

    def __init__(self, mode: str, rng: random.Random) -> None:
        self.mode = mode
        self.countdown = rng.randrange(1, 40)

    def deliver(self, update: Update) -> None:
        kinds = {e.get("type") for e in update.events} | {e.get("key") for e in update.events}
        if self.mode == "announce":
            self.countdown -= 1
            hit = self.countdown <= 0
        elif self.mode == "game_end":
            hit = "game_over" in kinds
        elif self.mode == "undo":
            hit = "undone" in kinds
        else:
            hit = False
        if hit:
            os.kill(os.getpid(), signal.SIGKILL)


def child(data_dir: Path, mode: str, seed: int, out: int) -> None:
    """One life of the box: resume, report how, then play until killed."""
    rng = random.Random(seed)
    logging.getLogger("houston").setLevel(logging.CRITICAL)  # refusals after a cut are expected

    def emit(line: str) -> None:
        os.write(out, (line + "\n").encode())

    journal, _notes = open_journal(data_dir)
    ids = game_ids()
    service = Service(journal, default_game=ids[0], outlets=[Killer(mode, rng)])
    was_open = journal.unfinished()
    heard = journal.announced(was_open.id) if was_open is not None else None
    unheard = was_open is not None and heard is not None and journal.last_seq(was_open.id) > heard
    service.resume()
    open_row = journal.unfinished()
    session = service.session
    legal = len(session.game.legal_inputs(session.state)) if session is not None else 0
    stuck = (open_row is not None and session is None) or (
        session is not None and (session.over is not None or legal == 0)
    )
    emit(f"RESUMED stuck={int(stuck)} unheard={int(unheard)} lost={journal.lost_entries}")
    started = journal.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    for _step in range(STEP_LIMIT):
        if service.session is None:
            game_id = ids[started % len(ids)]
            started += 1
            if service.start_game(game_id, table_options(game_id))["status"] != "ok":
                emit(f"ERROR cannot start {game_id}")
                return
        session, record = service.session, service.record
        assert session is not None and record is not None
        # through `handle`, as the service loop does: the answer, then the WAL fold when it is due
        if session.undo_stack and rng.random() < UNDO_SHARE:
            reply = service.handle(UndoJob())
        else:
            legal_inputs = session.game.legal_inputs(session.state)
            inp = session.game.random_input(session.state, legal_inputs, rng.randrange)
            reply = service.handle(InputJob(inp))
        if reply.get("status") != "ok":
            emit(f"REFUSED {reply.get('error')}")
            continue
        shown = service.session or service.finished
        assert shown is not None
        emit(f"ACK game={record.id} seq={journal.last_seq(record.id)} digest={digest(shown.state)}")


# --- the parent --------------------------------------------------------------------------------


Rows = dict[tuple[int, int], tuple[str, str | None, str, int]]


def journal_rows(path: Path) -> Rows:
    """(game, seq) -> (kind, input, outcomes, void) of every entry, read without writing."""
    if not path.exists():
        return {}
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT game_id, seq, kind, input, outcomes, void FROM entries").fetchall()
    except sqlite3.DatabaseError:
        return {}  # no readable journal: every entry counts as lost
    finally:
        conn.close()
    return {(g, s): (k, i, o, v) for g, s, k, i, o, v in rows}


def integrity_ok(path: Path) -> bool:
    if not path.exists():
        return True
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()


def replay_digest(path: Path, game_id: int, seq: int) -> str | None:
    """The digest of game `game_id` rebuilt from its journal up to entry `seq` (None: cannot)."""
    try:
        journal = Journal.read_only(path)
    except JournalError:
        return None
    try:
        record = journal.game(game_id)
        if record is None:
            return None
        raw = [r for r in journal.raw_entries(game_id) if r["seq"] <= seq]
        if not raw or raw[-1]["seq"] != seq:
            return None
        session: Session = replay(load_game(record.game), record.options, [entry_from_data(r) for r in raw])
        return digest(session.state)
    except (RuleError, ValueError):
        return None
    finally:
        journal.close()


@dataclass(frozen=True)
class Life:
    """What one child printed: `lines` all of it, `before_cut` how many of them came before the
    cut/kill (what a child says after its disk is gone is the cut speaking, not the box)."""

    lines: list[str]
    before_cut: int


def one_life(
    data_dir: Path, mode: str, seed: int, rng: random.Random, cut: Callable[[], None] | None = None,
    longest: float = 0.4,
) -> Life:
    """Fork a child, let it run until it dies (or kill it), and return what it printed. `cut`,
    if given, runs just before the kill (the power-cut bench drops the disk's unsynced writes)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        try:
            child(data_dir, mode, seed, write_fd)
        except BaseException as exc:  # report anything to the parent, then die
            os.write(write_fd, f"ERROR {type(exc).__name__}: {exc}\n".encode())
        os._exit(0)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + (rng.uniform(0.01, longest) if mode == "external" else 20.0)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([read_fd], [], [], left)
        if ready:
            data = os.read(read_fd, 65536)
            if not data:
                break
            chunks.append(data)
    before_cut = sum(chunk.count(b"\n") for chunk in chunks)  # whole lines read before the cut
    if cut is not None:
        cut()
    with contextlib.suppress(ProcessLookupError):  # it may have died by its own hand
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    while data := os.read(read_fd, 65536):
        chunks.append(data)
    os.close(read_fd)
    return Life(b"".join(chunks).decode(errors="replace").splitlines(), before_cut)


def fields(line: str) -> dict[str, str]:
    """The `key=value` fields after the first word of a child's line."""
    return dict(part.split("=", 1) for part in line.split()[1:])


def child_errors(lines: list[str], bench: str) -> int:
    """How many of `lines` report an exception in the child (each is also printed to stderr)."""
    errors = [line for line in lines if line.startswith("ERROR")]
    for line in errors:
        print(f"{bench} bench: child: {line}", file=sys.stderr)
    return len(errors)


def acknowledged_lost(path: Path, acks: list[dict[str, str]], after: Rows) -> int:
    """How many of the child's acknowledgements the journal at `path` (whose rows are `after`)
    broke: an acknowledged entry missing or void, or a game whose last acknowledged entry does not
    replay to the digest the child printed for it."""
    lost = 0
    last_per_game: dict[int, dict[str, str]] = {}
    for ack in acks:
        last_per_game[int(ack["game"])] = ack
        row = after.get((int(ack["game"]), int(ack["seq"])))
        if row is None or row[3]:
            lost += 1
    for game, ack in last_per_game.items():
        if replay_digest(path, game, int(ack["seq"])) != ack["digest"]:
            lost += 1
    return lost


def bench_parser(name: str, count: str, default: int, dir_help: str) -> argparse.ArgumentParser:
    """`houston bench NAME --COUNT N [--seed S] [--dir D] [--json]`."""
    parser = argparse.ArgumentParser(prog=f"houston bench {name}")
    parser.add_argument(f"--{count}", type=int, default=default)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--dir", help=dir_help)
    parser.add_argument("--json", action="store_true")
    return parser


def print_figures(figures: dict[str, Any], as_json: bool) -> None:
    """The figures as one JSON line (for tools), or one `key: value` line each (for people)."""
    print(json.dumps(figures) if as_json else "\n".join(f"{k}: {v}" for k, v in figures.items()))


def run(kills: int, seed: int, data_dir: Path) -> dict[str, Any]:
    rng = random.Random(seed)
    path = journal_path(data_dir)
    figures: dict[str, Any] = {
        "kills": 0, "by_mode": dict.fromkeys(MODES, 0), "acknowledged_inputs": 0,
        "acknowledged_lost": 0, "stuck_boxes": 0, "integrity_failures": 0, "rerolled_chance": 0,
        "journaled_entries_changed": 0, "results_announced_on_resume": 0, "games_started": 0,
        "games_finished": 0, "undos_journaled": 0, "child_errors": 0,
    }
    before = journal_rows(path)
    t0 = time.monotonic()
    for i in range(kills):
        mode = MODES[i % len(MODES)]
        lines = one_life(data_dir, mode, rng.randrange(2**31), rng).lines
        figures["kills"] += 1
        figures["by_mode"][mode] += 1
        for resumed in [fields(line) for line in lines if line.startswith("RESUMED")]:
            figures["stuck_boxes"] += int(resumed["stuck"])
            figures["results_announced_on_resume"] += int(resumed["unheard"])
        figures["child_errors"] += child_errors(lines, "crash")
        if not integrity_ok(path):
            figures["integrity_failures"] += 1
        acks = [fields(line) for line in lines if line.startswith("ACK")]
        figures["acknowledged_inputs"] += len(acks)
        after = journal_rows(path)
        figures["acknowledged_lost"] += acknowledged_lost(path, acks, after)
        for key, (kind, inp, outcomes, void) in before.items():
            now = after.get(key)
            if now is None or now[:3] != (kind, inp, outcomes) or (now[3] and not void):
                figures["journaled_entries_changed"] += 1
                if now is not None and now[2] != outcomes:
                    figures["rerolled_chance"] += 1
        before = after
    conn_rows = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        figures["games_started"] = conn_rows.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        figures["games_finished"] = conn_rows.execute(
            "SELECT COUNT(*) FROM games WHERE ended_at IS NOT NULL").fetchone()[0]
        figures["undos_journaled"] = conn_rows.execute(
            "SELECT COUNT(*) FROM entries WHERE kind='undo'").fetchone()[0]
    finally:
        conn_rows.close()
    figures["games"] = list(game_ids())
    figures["seconds"] = round(time.monotonic() - t0, 1)
    figures["seed"] = seed
    return figures


def main(argv: list[str]) -> int:
    args = bench_parser("crash", "kills", 100, "directory on the disk to use (default: a temp dir)").parse_args(argv)
    if args.kills < 1:
        print("houston bench crash: --kills must be at least 1", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        figures = run(args.kills, args.seed, Path(tmp))
    print_figures(figures, args.json)
    bad = figures["acknowledged_lost"] + figures["stuck_boxes"] + figures["integrity_failures"]
    return 1 if bad + figures["rerolled_chance"] + figures["child_errors"] else 0
