"""The widget kinds a game's view asks displays to draw, and the fields every public view carries.

The dashboard renders kinds, not field names: a view lists `widgets`, each a plain dict with a
`kind` and a `title`, and a new game adds no JavaScript unless it needs a new kind. Keep these
builders the only way views make widgets, so the kinds stay few and documented (docs/mqtt.md).

Kinds:
- `teams`    one row per team: counters (label/value), badges (short words), active (whose turn),
             out (knocked out / not playing)
- `counters` a row of labelled numbers (a bonfire's stock, a deck count)
- `dice`     coloured dice faces
- `disc`     a ring of segments, one per team (Alien's guessing disc)
- `slots`    a row of slots (a ship's A, B, C), each maybe held by a team, maybe showing text
- `table`    a score table: columns and rows of cells
- `log`      a list of lines, newest last
- `cards`    named cards with a line of text each (private views: a hand)
- `banner`   one big line (the winner, a reveal) with an optional detail line
- `controls` (private views only) forms of commands a private audience sends (a game runner's
             numbers); drawn by device/network/dashboard/controls.js, sent as `choose` on the
             user's own command topic
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Widget = dict[str, Any]
KINDS: tuple[str, ...] = ("teams", "counters", "dice", "disc", "slots", "table", "log", "cards", "banner")
# Kinds only a private (team) view carries: they act, not just show (controls.js sends commands).
PRIVATE_KINDS: tuple[str, ...] = ("controls",)


def counter(label: str, value: int | str) -> dict[str, Any]:
    return {"label": label, "value": value}


def team_row(
    team: str,
    counters: Sequence[Mapping[str, Any]] = (),
    *,
    badges: Sequence[str] = (),
    active: bool = False,
    out: bool = False,
) -> dict[str, Any]:
    return {"team": team, "counters": [dict(c) for c in counters], "badges": list(badges), "active": active,
            "out": out}


def teams(title: str, rows: Sequence[Mapping[str, Any]]) -> Widget:
    return {"kind": "teams", "title": title, "rows": [dict(r) for r in rows]}


def counters(title: str, items: Sequence[Mapping[str, Any]]) -> Widget:
    return {"kind": "counters", "title": title, "items": [dict(i) for i in items]}


def dice(title: str, faces: Sequence[tuple[str, str]]) -> Widget:
    """faces: (label, colour) pairs; colour is a CSS colour the page may map to its palette."""
    return {"kind": "dice", "title": title, "faces": [{"label": lab, "colour": col} for lab, col in faces]}


def disc(title: str, segments: Sequence[Mapping[str, Any]], centre: str = "") -> Widget:
    """segments: {"team", "label", "marked": bool}."""
    return {"kind": "disc", "title": title, "segments": [dict(s) for s in segments], "centre": centre}


def slots(title: str, items: Sequence[Mapping[str, Any]]) -> Widget:
    """items: {"label", "team" (or None), "text" (or "")}."""
    return {"kind": "slots", "title": title, "items": [dict(i) for i in items]}


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> Widget:
    return {"kind": "table", "title": title, "columns": list(columns), "rows": [list(r) for r in rows]}


def log(title: str, lines: Sequence[str], limit: int = 50) -> Widget:
    return {"kind": "log", "title": title, "lines": list(lines)[-limit:]}


def cards(title: str, items: Sequence[Mapping[str, Any]]) -> Widget:
    """items: {"name", "text"}."""
    return {"kind": "cards", "title": title, "items": [dict(i) for i in items]}


def banner(title: str, text: str, detail: str = "") -> Widget:
    return {"kind": "banner", "title": title, "text": text, "detail": detail}


def controls(title: str, forms: Sequence[Mapping[str, Any]]) -> Widget:
    """forms: {"command", "label", "fields": [{"name", "type": "number"|"choice", "min", "options"}]};
    a form sends `choose` with the option "<command>:<field>:<field>..." (the game parses it)."""
    return {"kind": "controls", "title": title, "forms": [dict(f) for f in forms]}


def view(
    game_id: str,
    title: str,
    phase: str,
    widgets: Sequence[Widget],
    *,
    round: int | None = None,
    turn: str | None = None,
    scores: Mapping[str, int | float] | None = None,
    winners: Sequence[str] = (),
    **extra: Any,
) -> dict[str, Any]:
    """The fields every public view carries (displays and Home Assistant read these by name):
    game, title, phase, round (None before the first), turn (the team the box waits for, or None),
    scores (team -> number, for per-team sensors), winners (once over), widgets; plus the game's
    own `extra` fields."""
    return {"game": game_id, "title": title, "phase": phase, "round": round, "turn": turn,
            "scores": dict(scores or {}), "winners": list(winners), "widgets": list(widgets), **extra}
