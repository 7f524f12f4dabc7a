"""`houston campaign show|export|import`: a game's campaign as a JSON file a table can back up.

Export writes the stored snapshot (a new campaign if none is stored yet) in a stable form, so
export -> import -> export gives the same bytes. Import parses the file and the snapshot field by
field (the game's own check) before anything is written; a bad file is refused with one line and
the store is unchanged.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from device.box.campaign_store import MAX_SNAPSHOT_BYTES, CampaignError, CampaignStore, check_game_id, store_path
from games.core import Game, RuleError
from games.registry import UnknownGame, load_game

FORMAT = "houston-campaign"
FORMAT_VERSION = 1


def register(sub: Any) -> None:
    p = sub.add_parser("campaign", help="show, export or import a game's campaign")
    p.add_argument("action", choices=("show", "export", "import"))
    p.add_argument("file", nargs="?", help="export: file to write (default: standard output); import: file to read")
    p.add_argument("--game", required=True, help="the game id (e.g. as listed by the box)")
    p.add_argument("--data-dir", help="where the box keeps its data")
    p.add_argument("--config", help="directory with houston.toml")
    p.set_defaults(func=campaign_command)


def export_text(game_id: str, snapshot: dict[str, Any]) -> str:
    document = {"format": FORMAT, "version": FORMAT_VERSION, "game": game_id, "snapshot": snapshot}
    return json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def parse_export(text: str, game: Game) -> dict[str, Any]:
    """The snapshot of an export file, parsed field by field; CampaignError says what is wrong."""
    if len(text.encode()) > 2 * MAX_SNAPSHOT_BYTES:
        raise CampaignError("the file is too large to be a campaign")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CampaignError(f"not JSON: {exc.msg} at line {exc.lineno}") from exc
    if not isinstance(document, dict) or set(document) != {"format", "version", "game", "snapshot"}:
        raise CampaignError("not a campaign export (needs format, version, game, snapshot)")
    if document["format"] != FORMAT or document["version"] != FORMAT_VERSION:
        raise CampaignError(f"not a {FORMAT} file of version {FORMAT_VERSION}")
    if document["game"] != game.info.id:
        raise CampaignError(f"the file is a campaign of {document['game']!r}, not {game.info.id!r}")
    try:
        return game.campaign_check(document["snapshot"])
    except RuleError as exc:
        detail = ", ".join(f"{k}: {v}" for k, v in exc.params.items())
        raise CampaignError(f"the campaign is not valid ({exc.key}{': ' + detail if detail else ''})") from exc


def campaign_command(args: argparse.Namespace) -> int:
    from device.cli import default_data_dir

    try:
        game = load_game(check_game_id(args.game))
        if game.campaign_initial() is None:
            raise CampaignError(f"the game {args.game!r} keeps no campaign")
        store = CampaignStore(store_path(default_data_dir(args.data_dir, args.config)))
    except (UnknownGame, CampaignError) as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 2
    try:
        return _run(args, game, store)
    except (CampaignError, OSError) as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()


def _current(game: Game, store: CampaignStore) -> tuple[dict[str, Any], str]:
    stored = store.load(game.info.id)
    if stored is None:
        initial = game.campaign_initial()
        assert initial is not None
        return game.campaign_check(initial), "new campaign (nothing stored yet)"
    try:
        return game.campaign_check(stored.data), f"saved from {stored.source}"
    except RuleError as exc:
        raise CampaignError(f"the stored campaign is not valid ({exc.key}); import a backup") from exc


def _run(args: argparse.Namespace, game: Game, store: CampaignStore) -> int:
    if args.action == "import":
        if not args.file:
            raise CampaignError("import needs a FILE")
        snapshot = parse_export(Path(args.file).read_text(encoding="utf-8"), game)
        store.save(game.info.id, snapshot, f"import {Path(args.file).name}"[:200])
        print(f"houston: imported the campaign of {game.info.id} from {args.file}", file=sys.stderr)
        return 0
    snapshot, where = _current(game, store)
    if args.action == "show":
        print(f"{game.info.title} ({game.info.id}): {where}")
        print(json.dumps(snapshot, sort_keys=True, indent=2, ensure_ascii=False))
        return 0
    text = export_text(game.info.id, snapshot)
    if args.file:
        Path(args.file).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
