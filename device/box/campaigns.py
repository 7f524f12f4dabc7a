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
from games.core import Game, RuleError, State

OPTION = "campaign"


def _initial(game: Game) -> dict[str, Any] | None:
    """games/core.Game's default says "no campaign"; a game object still on the older duck-typed
    contract (not yet a Game subclass) has no such method and keeps no campaign either."""
    initial = getattr(game, "campaign_initial", None)
    return initial() if initial is not None else None


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

    def finish(self, game: Game, state: State, source: str) -> None:
        """Save the campaign a finished game leaves (before the journal closes the game, so a
        crash in between saves the same snapshot again on the next finish: it is idempotent)."""
        if _initial(game) is None:
            return
        after = game.campaign_after(state)
        if after is not None:
            self.store().save(game.info.id, game.campaign_check(after), source)
