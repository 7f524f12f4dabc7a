"""Read the TOML data files shipped beside each game's rules (catalogues, odds, texts).

This is the one place games/ touches files, and only its own package data, read through
importlib.resources so it works from a wheel as well as from a checkout.
"""

from __future__ import annotations

import tomllib
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
