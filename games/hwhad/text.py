"""Turning announcements into words, and building announcements that list several things.

The rendering rule is the box's: `catalogue[key].format(**params)`, where a string parameter that
is itself a key of the catalogue is spoken in the catalogue's words (a team colour, "the dolphin").
An integer `count` parameter picks `key.one`/`key.other` where the catalogue has them (plural
forms, games/data.py `plural_key`). Lists get one key per length (`lost_2`: "Astronauts {x1} and
{x2} ...") so every language can phrase them its own way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from games.core import Say
from games.data import messages, plural_key

PACKAGE = "games.hwhad"


@cache
def catalogue() -> Mapping[str, str]:
    return messages(PACKAGE)


def render(announcement: Say, words: Mapping[str, str] | None = None) -> str:
    """The words of one announcement."""
    words = catalogue() if words is None else words
    params = {k: words.get(v, v) if isinstance(v, str) else v for k, v in announcement.params.items()}
    return words[plural_key(words, announcement.key, params)].format(**params)


def listing(prefix: str, items: Sequence[str], **extra: object) -> Say:
    """`prefix_<n>` with the items as x1..xn: e.g. listing("lost", ["A", "C"])."""
    params: dict[str, object] = {f"x{i}": item for i, item in enumerate(items, start=1)}
    params.update(extra)
    return Say(f"{prefix}_{len(items)}", params)
