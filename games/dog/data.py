"""Here Comes the Dog's numbers, read once from dog.toml (the game's data file)."""

from __future__ import annotations

from games.data import load_toml

_DATA = load_toml("games.dog", "dog.toml")

ORDER: int = int(_DATA["game"]["order"])
ROUNDS: int = int(_DATA["game"]["rounds"])
MIN_ROUNDS: int = int(_DATA["game"]["min_rounds"])
MAX_ROUNDS: int = int(_DATA["game"]["max_rounds"])
MIN_PLAYERS: int = int(_DATA["players"]["min"])
MAX_PLAYERS: int = int(_DATA["players"]["max"])
VILLAGERS: int = int(_DATA["players"]["villagers"])
RESTORE: tuple[int, ...] = tuple(int(n) for n in _DATA["players"]["restore"])
BONFIRE: tuple[int, int, int] = (int(_DATA["bonfire"]["meat"]), int(_DATA["bonfire"]["charcoal"]),
                                 int(_DATA["bonfire"]["fire"]))
DOGS: int = int(_DATA["bonfire"]["dogs"])
LED_COLOURS: dict[str, str] = {str(k): str(v) for k, v in _DATA["led_colours"].items()}
CSS_COLOURS: dict[str, str] = {str(k): str(v) for k, v in _DATA["css_colours"].items()}
