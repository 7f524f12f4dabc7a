"""Shared pieces for building what the box says and accepts: names, lists, cached inputs."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from games.core import TEAM_COLOURS, Press, Prompt, Say, Scan
from games.data import fill, messages
from games.whales.cards import catalogue

SCANS: dict[str, Scan] = {card: Scan(card) for card in catalogue()}
PRESSES: dict[str, Press] = {b: Press(b) for b in (*TEAM_COLOURS, "ok")}
PRESS_PATTERNS: dict[str, str] = {b: f"press:{b}" for b in (*TEAM_COLOURS, "ok")}


def asking(key: str, accepts: tuple[str, ...], lights: tuple[str, ...], **params: object) -> Prompt:
    """The prompt `key` with `params`, accepting `accepts`, lighting `lights` (one shared object
    per distinct prompt: prompts are asked on every input of every simulated game)."""
    return _prompt(key, accepts, lights, tuple(params.items()))


@lru_cache(maxsize=4096)
def _prompt(key: str, accepts: tuple[str, ...], lights: tuple[str, ...], params: tuple) -> Prompt:
    return Prompt(Say(key, dict(params)), accepts, lights)


def name(card: str) -> str:
    """The printed name of a card, as the box speaks it."""
    return catalogue()[card].name


def listing(prefix: str, items: Sequence[str], **extra: object) -> Say:
    """`prefix_<n>` with the items as x1..xn (`prefix_0` for none), so each language phrases lists."""
    params: dict[str, object] = {f"x{i}": item for i, item in enumerate(items, start=1)}
    params.update(extra)
    return Say(f"{prefix}_{min(len(items), 6)}", params)


def render(words: Say) -> str:
    """The English words of an announcement, for the public log (a string parameter that is a
    message key, e.g. a team colour, is spoken in the catalogue's words)."""
    texts = catalogue_words()
    template = texts.get(words.key, words.key.replace("_", " "))
    params = {k: texts.get(v, v) if isinstance(v, str) else v for k, v in words.params.items()}
    return fill(template, params)


@cache
def catalogue_words() -> dict[str, str]:
    return messages("games.whales")
