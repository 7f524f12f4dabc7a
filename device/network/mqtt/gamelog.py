"""The game log: this game's public events, kept bounded and published retained.

Events on houston/<box>/events are not retained, so a page that reloads (or a broker that
restarts) would lose the history; the log topic carries the last `LIMIT` announcements of the
game in progress (or of the game just finished) so a page can draw them at once. A new game
starts a new log; a prompt repeated word for word is not logged twice; a REPEAT is not logged.
Each line is encoded once, when it is logged: the payload, sent after every update that logs a
line, is then joined from those bytes instead of encoding the whole log again each time.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from device.network.mqtt.topics import encode

LIMIT = 40
LOGGED = ("say", "prompt", "game_over")


class GameLog:
    def __init__(self, limit: int = LIMIT) -> None:
        self.game: str | None = None
        self.title: str | None = None
        self.lines: deque[dict[str, Any]] = deque(maxlen=limit)
        self._encoded: deque[bytes] = deque(maxlen=limit)  # each of `lines`, encoded
        self._mode: str | None = None

    def update(self, seq: int, public: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> bool:
        """Take one update; True when the log changed (publish it)."""
        mode = public.get("mode")
        game = public.get("game") if isinstance(public.get("game"), Mapping) else None
        changed = False
        if mode == "game" and self._mode != "game" and game is not None:
            # a game starts (or resumes after a restart): a log of its own
            self.game, self.title = game.get("game"), game.get("title")
            self.lines.clear()
            self._encoded.clear()
            changed = True
        self._mode = mode
        if self.game is None:
            return changed
        for event in events:
            kind = event.get("type")
            if kind not in LOGGED or event.get("repeat"):
                continue
            if kind == "game_over":
                winners = [str(w) for w in event.get("winners", [])]
                text = f"Game over: {', '.join(w.capitalize() for w in winners)} won." if winners else "Game over."
            else:
                text = str(event.get("text", ""))
            if not text or (self.lines and self.lines[-1]["text"] == text):
                continue
            line = {"seq": seq, "type": kind, "text": text}
            self.lines.append(line)
            self._encoded.append(encode(line))
            changed = True
        return changed

    def payload(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "lines": list(self.lines)}

    def encoded(self, schema: int, seq: int) -> bytes:
        """The log topic's payload: byte for byte `encode({**payload(), "schema": schema, "seq": seq})`
        (keys in sorted order), joined from the lines' bytes."""
        return b"".join([b'{"game":', encode(self.game), b',"lines":[', b",".join(self._encoded),
                         b'],"schema":', encode(schema), b',"seq":', encode(seq),
                         b',"title":', encode(self.title), b"}"])
