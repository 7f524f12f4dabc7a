"""`houston export` and `houston replay`: journals out as JSON lines, and back into a state.

An export is how a table files a bug report; replay rebuilds the exact game from it with no new
draws, so the report reproduces on any desktop.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from device.box.journal import SCHEMA_VERSION, Journal, JournalError, entry_from_data, journal_path
from games.core import RuleError, canonical_json, digest
from games.registry import UnknownGame, describe, load_game
from games.session import Session, replay


class ReplayError(ValueError):
    """An export that does not replay; str() says where."""


def register(sub: Any) -> None:
    p = sub.add_parser("export", help="write a journaled game as JSON lines")
    p.add_argument("--game", type=int, help="journal game number (default: the latest)")
    p.add_argument("--data-dir", help="where the journal lives")
    p.add_argument("--config", help="directory with houston.toml")
    p.add_argument("-o", "--output", help="file to write (default: standard output)")
    p.set_defaults(func=export_command)
    r = sub.add_parser("replay", help="rebuild a game from an export (or journal) and print its public view")
    r.add_argument("file", help="a JSON-lines export, or a journal.sqlite file")
    r.add_argument("--game", type=int, help="journal game number when FILE is a journal")
    r.set_defaults(func=replay_command)


def export_lines(journal: Journal, game_id: int | None = None) -> Iterator[dict[str, Any]]:
    """The header line, then one line per entry (void entries included, marked)."""
    records = journal.games()
    if not records:
        raise JournalError("the journal holds no games yet")
    record = records[-1] if game_id is None else journal.game(game_id)
    if record is None:
        raise JournalError(f"no game {game_id} in the journal (games: 1..{records[-1].id})")
    yield {
        "type": "game", "schema": SCHEMA_VERSION, "id": record.id, "game": record.game,
        "options": record.options, "started_at": record.started_at, "ended_at": record.ended_at,
        "result": record.result,
    }
    for raw in journal.raw_entries(record.id, include_void=True):
        yield {"type": "entry", **raw}


def export_command(args: argparse.Namespace) -> int:
    from device.cli import default_data_dir

    path = journal_path(default_data_dir(args.data_dir, args.config))
    if not path.is_file():
        print(f"houston: no journal at {path}", file=sys.stderr)
        return 2
    try:
        journal = Journal(path)
        lines = list(export_lines(journal, args.game))
    except JournalError as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 2
    out: TextIO = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    try:
        for line in lines:
            out.write(json.dumps(line, sort_keys=True) + "\n")
    finally:
        if args.output:
            out.close()
    return 0


def replay_lines(lines: Iterable[dict[str, Any]]) -> Session:
    """Rebuild a session from export lines; refuses unknown schema versions and bad entries."""
    it = iter(lines)
    header = next(it, None)
    if not header or header.get("type") != "game":
        raise ReplayError("the first line must be the game header")
    if int(header.get("schema", 0)) > SCHEMA_VERSION:
        raise ReplayError(f"written by a newer Houston (schema {header['schema']})")
    try:
        game = load_game(str(header["game"]))
    except UnknownGame as exc:
        raise ReplayError(describe(exc)) from exc
    entries = [entry_from_data(line) for line in it if line.get("type") == "entry" and not line.get("void")]
    try:
        return replay(game, header.get("options") or {}, entries)
    except RuleError as exc:
        raise ReplayError(f"entry does not replay: {exc.key} {exc.params}") from exc


def read_export(path: Path) -> list[dict[str, Any]]:
    lines = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text.strip():
            try:
                lines.append(json.loads(text))
            except json.JSONDecodeError as exc:
                raise ReplayError(f"{path}:{number}: not JSON ({exc.msg})") from exc
    return lines


def replay_command(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        if path.suffix in (".sqlite", ".db"):
            lines = list(export_lines(Journal(path), args.game))
        else:
            lines = read_export(path)
        session = replay_lines(lines)
    except (OSError, JournalError, ReplayError) as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 2
    view = session.game.public_view(session.state)
    print(json.dumps({"public": view, "digest": digest(session.state)}, sort_keys=True))
    return 0


__all__ = ["canonical_json", "export_lines", "replay_lines"]
