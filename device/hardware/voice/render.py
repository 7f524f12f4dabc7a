"""Render announcement effects to words from the box's and the game's message catalogues."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from games.core import Say
from games.data import fill, plural_key
from games.data import messages as game_messages

BOX_CATALOGUE_DIR = Path(__file__).resolve().parents[2] / "box"


@cache
def box_messages(language: str = "en") -> dict[str, str]:
    path = BOX_CATALOGUE_DIR / f"messages.{language}.toml"
    if not path.is_file():
        path = BOX_CATALOGUE_DIR / "messages.en.toml"
    return dict(tomllib.loads(path.read_text(encoding="utf-8"))["messages"])


@cache
def catalogue(game_id: str | None, language: str = "en") -> dict[str, str]:
    """The box's phrases with the game's on top (a game may reword a box phrase)."""
    merged = dict(box_messages(language))
    if game_id:
        merged |= game_messages(f"games.{game_id}", language)
    return merged


def render(effect: Say, game_id: str | None, language: str = "en") -> str:
    """The words for one announcement. A string parameter that is itself a message key is spoken
    in the catalogue's words (so rules say `a="meat"` and the catalogue decides how meat sounds).
    An unknown key is spoken as the key itself, so a missing text is heard, never silent. An
    integer `count` parameter picks the plural form `key.one`/`key.other` when the catalogue has it
    (games/data.py `plural_key`)."""
    texts = catalogue(game_id, language)
    template = texts.get(plural_key(texts, effect.key, effect.params))
    if template is None:
        return effect.key.replace("_", " ")
    params = {
        name: texts.get(value, value) if isinstance(value, str) else value
        for name, value in effect.params.items()
    }
    return fill(template, params)
