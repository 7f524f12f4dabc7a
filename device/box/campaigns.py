"""Where a game with a campaign gets it at start and leaves it at the end (the service's hook).

At start the store's snapshot (or the game's new campaign) becomes option `campaign`, so it is
journaled with the game and a replay needs nothing else; at game over the game's
`campaign_after` is saved. A game without a campaign (`campaign_initial()` is None) is untouched,
and no store file is opened for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from device.box.campaign_store import CampaignError, CampaignStore, store_path
from device.box.journal import Journal
from games.core import Game, RuleError, State
from games.registry import load_game
from games.session import replay

OPTION = "campaign"


def _initial(game: Game) -> dict[str, Any] | None:
    """The game's new campaign; None (games/core.Game's default) for a game that keeps none."""
    return game.campaign_initial()


def source_of(game_row: int) -> str:
    """How a saved snapshot names the journaled game it came from."""
    return f"journal game {game_row}"


class Campaigns:
    """The campaign store of one box, opened on first use."""

    def __init__(self, data_dir: Path) -> None:
        self.path = store_path(data_dir)
        self._store: CampaignStore | None = None

    def store(self) -> CampaignStore:
        if self._store is None:
            self._store = CampaignStore(self.path)
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def current(self, game: Game) -> dict[str, Any] | None:
        """The game's campaign as parsed by the game (the store's, else a new one); None if the
        game keeps no campaign. A damaged snapshot raises RuleError('campaign_unreadable')."""
        initial = _initial(game)
        if initial is None:
            return None
        try:
            stored = self.store().load(game.info.id)
            return game.campaign_check(stored.data if stored is not None else initial)
        except (CampaignError, RuleError) as exc:
            raise RuleError("campaign_unreadable", {"reason": str(exc)[:200]}) from exc

    def options_for(self, game: Game, options: Mapping[str, Any]) -> dict[str, Any]:
        """Start options with the box's campaign in them (a client's own `campaign` is replaced:
        the store is the one source of a campaign)."""
        snapshot = self.current(game)
        if snapshot is None:
            return dict(options)
        return {**{k: v for k, v in options.items() if k != OPTION}, OPTION: snapshot}

    def recover(self, journal: Journal) -> bool:
        """Save the campaign of the last finished game if the box stopped after journaling its end
        and before saving (the end is committed with the final input, the store is another file).
        Only when the store still holds the snapshot that game started from: a later save or an
        import is never overwritten. True if something was saved."""
        record = journal.last_finished()
        if record is None:
            return False
        try:
            game = load_game(record.game)
        except RuleError:
            return False
        if _initial(game) is None:
            return False
        stored = self.store().load(game.info.id)
        if stored is not None and (stored.source == source_of(record.id) or stored.data != record.options.get(OPTION)):
            return False
        if stored is None and record.options.get(OPTION) != game.campaign_check(_initial(game)):
            return False
        session = replay(game, record.options, list(journal.entries(record.id)))
        if session.over is None:
            return False
        self.finish(game, session.state, source_of(record.id))
        return True

    def finish(self, game: Game, state: State, source: str) -> None:
        """Save the campaign a finished game leaves (before the journal closes the game, so a
        crash in between saves the same snapshot again on the next finish: it is idempotent)."""
        if _initial(game) is None:
            return
        after = game.campaign_after(state)
        if after is not None:
            self.store().save(game.info.id, game.campaign_check(after), source)
