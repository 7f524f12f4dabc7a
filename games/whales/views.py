"""What leaves the box: the public view, each team's view, and the secrecy oracle.

Armies and the discard pile are public by rule ("Every player's army is public information"), so
the public view shows every card in them. The offered card is the one secret the box holds: the
public view says who offered a card to whom, never which card, until it is flipped face up. Roles
appear only as the table declares them.
"""

from __future__ import annotations

from typing import Any

from games import widgets as w
from games.core import Say
from games.whales import army as rules_of_army
from games.whales.cards import COLOURS, catalogue
from games.whales.ending import scores
from games.whales.state import (
    DEAL,
    DECIDE,
    DISCARD,
    JOIN,
    OFFER_CARD,
    OFFER_TO,
    RETURN,
    STEAL_CARD,
    STEAL_FROM,
    TURTLE,
    WILD_SET,
    WState,
    current,
)
from games.whales.text import name, render


def awaited(state: WState) -> str | None:
    """The team the box waits for now (None when anyone may press: joining, declaring)."""
    if state.phase == DEAL:
        return state.teams[state.dealt % len(state.teams)]
    if state.phase in (DISCARD, OFFER_CARD, OFFER_TO, RETURN):
        return current(state)
    if state.phase == DECIDE:
        return state.receiver
    if state.phase in (WILD_SET, TURTLE, STEAL_FROM, STEAL_CARD):
        return state.actor
    return None


def deck_count(state: WState) -> int:
    """Cards left in the deck as the table sees it (a drawn card the box has not seen is out)."""
    return len(state.deck) - (1 if state.drawn else 0)


def _army_cells(state: WState, index: int) -> list[Any]:
    army = state.armies[index] if state.armies else ()
    cat = catalogue()
    cells: list[Any] = [state.teams[index]]
    for colour in COLOURS:
        cells.append(", ".join(name(c) for c, col in army if col == colour))
    cells.append(", ".join(name(c) for c, col in army if not col and cat[c].kind == "superhero"))
    cells.append(", ".join(name(c) for c, col in army if not col and cat[c].kind != "superhero"))
    cells.append(rules_of_army.score(army))
    return cells


def _army_data(state: WState, index: int) -> list[dict[str, Any]]:
    cat = catalogue()
    return [{"id": c, "name": cat[c].name, "kind": cat[c].kind, "set": col, "strength": cat[c].strength}
            for c, col in (state.armies[index] if state.armies else ())]


def public_view(state: WState, game_id: str, title: str) -> dict[str, Any]:
    turn = awaited(state)
    playing = bool(state.armies)
    points = dict(zip(state.teams, scores(state), strict=True)) if playing else {}
    rows = []
    for i, team in enumerate(state.teams):
        army = state.armies[i] if playing else ()
        badges = []
        if state.phase == DECIDE and team == state.receiver:
            badges.append("offered a card")
        if team in state.winners:
            badges.append("winner")
        role = dict(state.declared).get(team)
        if role:
            badges.append(role)
        counters = [w.counter("whales", rules_of_army.whales(army)),
                    w.counter("superheroes", rules_of_army.superheroes(army)),
                    w.counter("score", points.get(team, 0))]
        rows.append(w.team_row(team, counters, badges=badges, active=team == turn))
    widgets = [
        w.teams("Armies", rows),
        w.table("Cards in each army", ("team", *COLOURS, "superheroes", "other", "score"),
                [_army_cells(state, i) for i in range(len(state.teams))] if playing else []),
        w.counters("Cards", [w.counter("deck", deck_count(state)), w.counter("discard pile", len(state.discard)),
                             w.counter("left in the box (5+)", len(state.out))]),
        w.cards("Discard pile (newest last)", [{"name": name(c), "text": catalogue()[c].kind}
                                              for c in state.discard[-10:]]),
        w.log("What happened", [render(s) for s in state.log]),
    ]
    if state.end:
        detail = f"winners: {', '.join(state.winners)}" if state.winners else "the roles are being declared"
        widgets.insert(0, w.banner("The end", render(Say(state.end, {"team": state.ender})), detail))
    offer = None
    if state.phase == DECIDE or state.phase == RETURN:
        offer = {"from": current(state), "to": state.receiver, "refused": state.phase == RETURN}
    elif state.phase == OFFER_TO:
        offer = {"from": current(state), "to": None, "refused": False}
    return w.view(
        game_id, title, state.phase, widgets,
        round=(state.turns // len(state.teams) + 1) if state.phase not in (JOIN, DEAL) and state.teams else None,
        turn=turn,
        scores=points,
        winners=state.winners,
        teams=list(state.teams),
        expansion=state.expansion,
        roles_in_deck=list(state.roles),
        armies={t: _army_data(state, i) for i, t in enumerate(state.teams)},
        deck=deck_count(state),
        discard=[{"id": c, "name": name(c)} for c in state.discard],
        left_out=len(state.out),
        player=current(state) if state.phase not in (JOIN, DEAL) else None,
        offer=offer,
        holding_card=state.phase == OFFER_CARD,
        end=state.end or None,
        ended_by=state.ender or None,
        asking=state.questions[0] if state.questions else None,
        marked=list(state.marked),
        guesses=[list(g) for g in state.guesses],
        declared=[list(d) for d in state.declared],
    )


def team_view(state: WState, team: str, game_id: str) -> dict[str, Any]:
    """A team sees what only it knows: the card it is offering face down (it drew it)."""
    view: dict[str, Any] = {"game": game_id, "team": team, "playing": team in state.teams}
    if state.offered and state.teams and team == current(state):
        view["offering"] = {"id": state.offered, "name": name(state.offered)}
    return view


def secrets(state: WState) -> frozenset[str]:
    """The offered card's id and printed name while it lies face down. The box holds no role before
    the table declares it, so there is nothing about roles to keep."""
    if not state.offered:
        return frozenset()
    return frozenset({state.offered, name(state.offered)})
