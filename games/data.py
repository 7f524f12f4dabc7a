"""Read the TOML data files shipped beside each game's rules (catalogues, odds, texts).

This is the one place games/ touches files, and only its own package data, read through
importlib.resources so it works from a wheel as well as from a checkout.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any


@cache
def load_toml(package: str, name: str) -> dict[str, Any]:
    """The parsed TOML file `name` inside `package` (cached: data files never change at run time)."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


def messages(package: str, language: str = "en") -> dict[str, str]:
    """A game's message catalogue: message key -> text with {param} fields."""
    try:
        data = load_toml(package, f"messages.{language}.toml")
    except FileNotFoundError:
        data = load_toml(package, "messages.en.toml")
    return {str(k): str(v) for k, v in data.get("messages", {}).items()}


def display_words(package: str, language: str = "en") -> dict[str, str]:
    """A game's words for screens (the `[display]` table of its catalogue) over its spoken
    messages: labels and sentences a view shows but the box never says."""
    try:
        data = load_toml(package, f"messages.{language}.toml")
    except FileNotFoundError:
        data = load_toml(package, "messages.en.toml")
    words = messages(package, language)
    words.update({str(k): str(v) for k, v in data.get("display", {}).items()})
    return words


def plural_key(texts: Mapping[str, str], key: str, params: Mapping[str, Any]) -> str:
    """The catalogue entry to speak for `key`: with an integer `count` parameter, `key.one` for 1
    and `key.other` otherwise, when the catalogue has those forms ("takes 1 panic token", "takes 3
    panic tokens"); else `key` itself. Catalogues write the forms as quoted keys: "tokens.one"."""
    count = params.get("count")
    if isinstance(count, int) and not isinstance(count, bool):
        form = f"{key}.one" if count == 1 else f"{key}.other"
        if form in texts:
            return form
    return key


class _Lenient(dict[str, Any]):
    """Parameters for a template: one the template names but the caller did not give stays
    visible as `{name}`, so a missing value is seen, never a crash."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(template: str, params: Mapping[str, Any]) -> str:
    """A catalogue template with its parameters, by str.format's own parser (no Python-level
    parsing per line: Dog re-renders its log on every view)."""
    return template.format_map(_Lenient(params))
