"""What leaves the box: the public view for the table and each team's private view.

The one choke point for secrets. The public view carries what the table may know: phase, teams,
hand sizes, tokens, detached modules, the captain and the open captain card, slots filled (and by
which team, which the table saw), the last announcements. Hands, slot and module contents, the
void's contents, dolphinized teams, chance outcomes and how spacewalks went appear only once the
game is over.
"""

from __future__ import annotations

from typing import Any

from games.core import SLOTS, to_data
from games.hwhad.cards import catalogue
from games.hwhad.state import BOARDING, OVER, VOTE, HState


def _card(card: str) -> dict[str, Any]:
    info = catalogue()[card]
    return {"id": info.id, "name": info.name, "role": info.role, "facing": info.facing}


def public_view(state: HState, title: str) -> dict[str, Any]:
    teams = []
    for i, team in enumerate(state.teams):
        entry: dict[str, Any] = {"team": team, "captain": team == state.captain}
        if state.hands:
            entry["astronauts"] = len(state.hands[i])
            entry["tokens"] = state.tokens[i]
        if state.phase == VOTE:
            entry["votes"] = state.votes[i]
        teams.append(entry)
    slots = []
    for i, slot in enumerate(SLOTS):
        filled = i < len(state.slots)
        card, team = state.slots[i] if filled else ("", "")
        slots.append({
            "slot": slot,
            "filled": filled,
            "team": team or None,
            "open_card": _card(card) if filled and card == state.captain_card else None,
        })
    view: dict[str, Any] = {
        "game": "hwhad",
        "title": title,
        "phase": state.phase,
        "teams": teams,
        "unlockables": list(state.unlocked),
        "tray": state.tray,
        "modules": [{"module": n + 1, "detached": n < state.detached} for n in range(3)],
        "void": len(state.void),
        "captain": state.captain or None,
        "captain_card": _card(state.captain_card) if state.captain_card else None,
        "spacewalk": state.spacewalks,
        "slots": slots,
        "report": [to_data(s) for s in state.report],
        "order": state.order or None,
        "threatened": state.threatened or None,
        "waiting_for": state.actor or None,
        "candidates": list(state.candidates),
    }
    if state.phase == BOARDING:
        view["deal"] = {"dealt": len(state.deck) - len(state.stack), "cards": len(state.deck)}
    if state.phase == OVER:
        view["result"] = {"reason": state.result, "winners": list(state.winners)}
        view["revealed"] = revealed(state)
    return view


def revealed(state: HState) -> dict[str, Any]:
    """The whole layout and history, shown when the game is over."""
    return {
        "hands": {t: [_card(c) for c in h] for t, h in zip(state.teams, state.hands, strict=True)},
        "modules": [_card(c) if c else None for c in state.modules],
        "void": [_card(c) for c in state.void],
        "dolphinized": [t for t, d in zip(state.teams, state.dolphinized, strict=True) if d],
        "spacewalks": [list(h) for h in state.history],
        "chances": [[name, to_data(value)] for name, value in state.chances],
    }


def team_view(state: HState, team: str) -> dict[str, Any]:
    """A team sees its own hand (and whether it is dolphinized, which it knows); nothing else."""
    view: dict[str, Any] = {"game": "hwhad", "team": team, "playing": team in state.teams}
    if team in state.teams and state.hands:
        i = state.teams.index(team)
        view["hand"] = [_card(c) for c in state.hands[i]]
        view["on_spacewalk"] = [_card(c) for c, t in state.slots if t == team]
        view["dolphinized"] = state.dolphinized[i]
        view["tokens"] = state.tokens[i]
    return view
