"""What the table sees of Here Comes the Dog: dice, the bonfire's stock, each player's sticks,
villagers and dogs, whose turn, and a log of events in the catalogue's words."""

from __future__ import annotations

from functools import cache
from typing import Any

from games import widgets
from games.core import GameInfo, Say
from games.data import fill, messages
from games.dog.data import CSS_COLOURS
from games.dog.state import CHARCOAL, FIRE, LOG_KEPT, LOG_LINES, MEAT, OVER, DogState

# Every view shows the last LOG_LINES lines of the log and a new state shares the old one's line
# objects, so a line's words are kept by identity and most views render one new line, not thirty.
# The entry holds the line itself, so its id cannot be reused while the entry lives; the whole
# cache goes when full (bounded: a view needs LOG_KEPT lines at most).
_SAID_MAX = 4 * LOG_KEPT
_said: dict[int, tuple[Say, str]] = {}


@cache
def _texts() -> dict[str, str]:
    return messages("games.dog")


def words(line: Say) -> str:
    """A log line in the catalogue's words (a parameter that is a key is said in its words)."""
    texts = _texts()
    template = texts.get(line.key, line.key.replace("_", " "))
    params = {k: texts.get(v, v) if isinstance(v, str) else v for k, v in line.params.items()}
    return fill(template, params)


def said(line: Say) -> str:
    """`words(line)`, remembered for this very line object (a Say never changes)."""
    hit = _said.get(id(line))
    if hit is not None and hit[0] is line:
        return hit[1]
    text = words(line)
    if len(_said) >= _SAID_MAX:
        _said.clear()
    _said[id(line)] = (line, text)
    return text


def public_view(s: DogState, info: GameInfo) -> dict[str, Any]:
    playing = bool(s.hands)
    turn = s.teams[s.current] if playing and s.phase != OVER else None
    rows = [
        widgets.team_row(
            team,
            [widgets.counter("meat", s.hands[i][MEAT]), widgets.counter("charcoal", s.hands[i][CHARCOAL]),
             widgets.counter("fire", s.hands[i][FIRE]), widgets.counter("villagers", s.villagers[i]),
             widgets.counter("dogs", s.dogs[i])],
            badges=("winner",) if team in s.winners else ("out",) if s.out(i) else (),
            active=team == turn,
            out=s.out(i),
        )
        for i, team in enumerate(s.teams)
    ] if playing else [widgets.team_row(team) for team in s.teams]
    shown: list[dict[str, Any]] = [
        widgets.dice("Dice", [(colour, CSS_COLOURS[colour]) for colour in s.roll]),
        widgets.counters("Bonfire", [widgets.counter("meat", s.bonfire[MEAT]),
                                     widgets.counter("charcoal", s.bonfire[CHARCOAL]),
                                     widgets.counter("fire", s.bonfire[FIRE]),
                                     widgets.counter("dogs in the pack", s.pack),
                                     widgets.counter("round", f"{s.round} of {s.rounds}")]),
        widgets.teams("Players", rows),
        widgets.log("Events", [said(line) for line in s.log[-LOG_LINES:]]),
    ]
    if s.phase == OVER:
        shown.insert(0, widgets.banner("Result", said(s.log[-1]) if s.log else "The game is over."))
    return widgets.view(
        info.id, info.title, s.phase, shown,
        round=s.round if playing else None,
        turn=turn,
        scores={team: s.dogs[i] for i, team in enumerate(s.teams)} if playing else {},
        winners=s.winners,
        rounds=s.rounds,
        rolls=s.rolls,
        dice=list(s.roll),
        bonfire={"meat": s.bonfire[MEAT], "charcoal": s.bonfire[CHARCOAL], "fire": s.bonfire[FIRE]},
        pack=s.pack,
        offer=s.offers[s.pick] if s.offers and s.phase != OVER else None,
    )


def team_view(s: DogState, team: str, info: GameInfo) -> dict[str, Any]:
    """Nothing is private in this game: a team's view is its own row of the public one."""
    if team not in s.teams or not s.hands:
        return {"game": info.id, "team": team}
    i = s.teams.index(team)
    return {"game": info.id, "team": team, "meat": s.hands[i][MEAT], "charcoal": s.hands[i][CHARCOAL],
            "fire": s.hands[i][FIRE], "villagers": s.villagers[i], "dogs": s.dogs[i], "out": s.out(i),
            "your_turn": s.phase != OVER and s.teams[s.current] == team}
