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
from typing import Any

from device.box.journal import (
    SCHEMA_VERSION,
    EntryUnreadable,
    Journal,
    JournalError,
    entry_from_data,
    journal_path,
)
from games.core import RuleError, canonical_json, digest
from games.registry import UnknownGame, describe, load_game
from games.session import Session


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
    output = Path(args.output) if args.output else None
    if output is not None and not output.parent.is_dir():
        print(f"houston: -o {output}: folder {output.parent} does not exist", file=sys.stderr)
        return 2
    try:
        lines = _journal_lines(path, args.game)
    except JournalError as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 2
    text = "".join(json.dumps(line, sort_keys=True) + "\n" for line in lines)
    if output is None:
        sys.stdout.write(text)
        return 0
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"houston: -o {output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


def replay_lines(lines: Iterable[Any], warnings: list[str] | None = None) -> Session:
    """Rebuild a session from export lines; refuses unknown schema versions and malformed lines.
    An entry that cannot be read or replayed ends the replay there, as the box voids it on
    resume; `warnings` (if given) receives one line saying so."""
    it = iter(lines)
    header = next(it, None)
    if not isinstance(header, dict) or header.get("type") != "game":
        raise ReplayError("the first line must be the game header (a JSON object with type game)")
    schema = header.get("schema", 0)
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise ReplayError(f"header: schema must be a whole number, not {schema!r}")
    if schema > SCHEMA_VERSION:
        raise ReplayError(f"written by a newer Houston (schema {schema})")
    options = header.get("options") or {}
    if not isinstance(header.get("game"), str) or not isinstance(options, dict):
        raise ReplayError("header: game must be a game id and options an object")
    try:
        game = load_game(header["game"])
    except UnknownGame as exc:
        raise ReplayError(describe(exc)) from exc
    try:
        session = Session.start(game, options)
    except RuleError as exc:
        raise ReplayError(f"header: options refused: {exc.key} {exc.params}") from exc
    for number, line in enumerate(it, 2):
        if not isinstance(line, dict):
            raise ReplayError(f"line {number}: an entry must be a JSON object")
        if line.get("type") != "entry" or line.get("void"):
            continue
        try:
            entry = entry_from_data(line)
            if entry.kind == "undo":
                session.undo()
            elif entry.inp is not None:
                session.submit(entry.inp, entry.outcomes, entry.seq)
        except (EntryUnreadable, RuleError) as exc:
            if warnings is not None:
                warnings.append(f"line {number}: entry {line.get('seq')!r} does not replay ({exc})")
            break
    return session


def read_export(path: Path) -> list[Any]:
    lines = []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{path}: not a text export (byte {exc.start} is not UTF-8)") from exc
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                lines.append(json.loads(line))
            except (ValueError, RecursionError) as exc:
                raise ReplayError(f"{path}:{number}: not JSON ({exc})") from exc
    return lines


def replay_command(args: argparse.Namespace) -> int:
    path = Path(args.file)
    warnings: list[str] = []
    try:
        if not path.is_file():
            raise ReplayError(f"{path}: no such file")
        if path.suffix in (".sqlite", ".db"):
            lines = _journal_lines(path, args.game)
        else:
            lines = read_export(path)
        session = replay_lines(lines, warnings)
    except (OSError, JournalError, ReplayError) as exc:
        where = "" if str(path) in str(exc) else f"{path}: "
        print(f"houston: {where}{exc}", file=sys.stderr)
        return 2
    if warnings:  # the box would void this entry on resume; a replay says where and stops
        print(f"houston: {path}: {warnings[0]}", file=sys.stderr)
        return 2
    view = session.game.public_view(session.state)
    print(json.dumps({"public": view, "digest": digest(session.state)}, sort_keys=True))
    return 0


def _journal_lines(path: Path, game_id: int | None) -> list[dict[str, Any]]:
    """Export lines straight from a journal file, opened read-only (replay never writes)."""
    journal = Journal.read_only(path)
    try:
        return list(export_lines(journal, game_id))
    finally:
        journal.close()


__all__ = ["canonical_json", "export_lines", "replay_lines"]
