"""What leaves the box: the public view for the table and each team's private view.

The one choke point for secrets. The public view carries what the table may know: phase, teams,
hand sizes, tokens, detached modules, the captain and the open captain card, slots filled (and by
which team, which the table saw), what each spacewalk announced. Hands, slot and module contents,
the void's contents, dolphinized teams, chance outcomes and how spacewalks went appear only once
the game is over. `widgets` declares what displays draw (games/widgets.py); the older named fields
stay beside them for the displays that read them.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from games import widgets as w
from games.core import SLOTS, Say, to_data
from games.data import display_words
from games.hwhad.cards import catalogue
from games.hwhad.state import (
    BOARDING,
    DETACH,
    ORDER,
    OVER,
    SPACEWALK,
    SUCCESSOR_CARD,
    SUCCESSOR_TIE,
    THREATEN,
    VICTIM,
    VOTE,
    HState,
    counts,
)
from games.hwhad.text import listing, render


def _card(card: str) -> dict[str, Any]:
    info = catalogue()[card]
    return {"id": info.id, "name": info.name, "role": info.role, "facing": info.facing}


@cache
def _words() -> dict[str, str]:
    return display_words("games.hwhad")


def _word(key: str, **params: Any) -> str:
    """A screen's words: the catalogue's `[display]` table over the spoken messages."""
    return _filled(key, tuple(params.items()))


@lru_cache(maxsize=4096)
def _filled(key: str, items: tuple[tuple[str, Any], ...]) -> str:
    """_word's work, cached: every view draws the same labels again."""
    return render(Say(key, dict(items)), _words())


def turn(state: HState) -> str | None:
    """The team the box waits for: the captain while they call slot A or give an order, the team
    that just played for the next slot, the deciding team (hero, successor, victim). None while any
    team may press (crewing, the temporary captain, the vote) or the dealer scans."""
    if state.phase == SPACEWALK:
        return state.slots[-1][1] if state.slots else state.captain
    if state.phase in (ORDER, THREATEN):
        return state.captain
    if state.phase in (DETACH, SUCCESSOR_TIE, SUCCESSOR_CARD, VICTIM):
        return state.actor or None
    return None


def card_sentence(card: str) -> str:
    """One line telling what a card does, e.g. "Engineer: the wrench faces left."."""
    info = catalogue()[card]
    return _word(f"card_{info.role}", facing=info.facing)


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
    waiting = turn(state)
    alive = counts(state) if state.hands else (0,) * len(state.teams)
    extra: dict[str, Any] = {
        "teams": teams,
        "unlockables": [c.removeprefix("hwhad-") for c in state.unlocked],  # option words, not card ids
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
        extra["deal"] = {"dealt": len(state.deck) - len(state.stack), "cards": len(state.deck)}
    if state.phase == OVER:
        extra["result"] = {"reason": state.result, "winners": list(state.winners)}
        extra["revealed"] = revealed(state)
    return w.view(
        "hwhad", title, state.phase, _widgets(state, waiting),
        round=state.spacewalks or None,
        turn=waiting,
        scores=dict(zip(state.teams, alive, strict=True)),
        winners=state.winners,
        **extra,
    )


def _widgets(state: HState, waiting: str | None) -> list[w.Widget]:
    rows = []
    for i, team in enumerate(state.teams):
        counters = []
        if state.hands:
            counters = [w.counter(_word("w_astronauts"), len(state.hands[i])),
                        w.counter(_word("w_tokens"), state.tokens[i])]
        if state.phase == VOTE:
            counters.append(w.counter(_word("w_votes"), state.votes[i]))
        badges = [_word("w_captain")] if team == state.captain else []
        out = bool(state.hands) and not state.hands[i] and all(t != team for _, t in state.slots)
        rows.append(w.team_row(team, counters, badges=badges, active=team == waiting, out=out))
    ship = [w.counter(_word("w_modules"), state.detached), w.counter(_word("w_tray"), state.tray),
            w.counter(_word("w_void"), len(state.void))]
    if state.phase == BOARDING:
        ship.append(w.counter(_word("w_dealt"), f"{len(state.deck) - len(state.stack)}/{len(state.deck)}"))
    items = []
    for i, slot in enumerate(SLOTS):
        card, team = state.slots[i] if i < len(state.slots) else ("", "")
        text = catalogue()[card].name if card and card == state.captain_card else ""
        items.append({"label": slot, "team": team or None, "text": text})
    lines = [_word("log_spacewalk", number=n, text=" ".join(render(s) for s in said))
             for n, said in enumerate(state.reports, start=1)]
    result = [w.teams(_word("w_crew"), rows), w.counters(_word("w_ship"), ship),
              w.slots(f"{_word('w_spacewalk')} {state.spacewalks}" if state.spacewalks else _word("w_spacewalk"),
                      items),
              w.log(_word("w_log"), lines)]
    if state.phase == OVER:
        detail = render(listing("winners", state.winners)) if state.winners else _word("w_nobody_wins")
        result.insert(0, w.banner(_word("w_over"), _word(state.result), detail))
        result.append(_reveal_table(state))
    return result


def _reveal_table(state: HState) -> w.Widget:
    """Who held what, which side each team ended on, what waited in the modules and the void."""
    rows: list[list[Any]] = []
    for team, hand, dolphin in zip(state.teams, state.hands, state.dolphinized, strict=True):
        side = _word("side_dolphin" if dolphin else "side_human")
        rows.append([_word(team), side, ", ".join(catalogue()[c].name for c in hand)])
    for n, card in enumerate(state.modules, start=1):
        rows.append([_word("w_module", number=n), "", catalogue()[card].name if card else ""])
    rows.append([_word("w_void_row"), "", ", ".join(catalogue()[c].name for c in state.void)])
    return w.table(_word("w_reveal"), [_word("w_team"), _word("w_side"), _word("w_hand")], rows)


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
    """A team sees its own hand (and whether it is dolphinized, which it knows); nothing else.
    Its widgets draw the hand as cards, each with a sentence of what it does."""
    view: dict[str, Any] = {"game": "hwhad", "team": team, "playing": team in state.teams, "widgets": []}
    if team in state.teams and state.hands:
        i = state.teams.index(team)
        view["hand"] = [_card(c) for c in state.hands[i]]
        view["on_spacewalk"] = [_card(c) for c, t in state.slots if t == team]
        view["dolphinized"] = state.dolphinized[i]
        view["tokens"] = state.tokens[i]
        hand = [{"name": catalogue()[c].name, "text": card_sentence(c)} for c in state.hands[i]]
        out = [{"name": catalogue()[c].name, "text": card_sentence(c)} for c, t in state.slots if t == team]
        view["widgets"] = [w.cards(_word("w_hand_title"), hand)]
        if state.dolphinized[i]:  # the team knows: it holds or held a dolphin
            view["widgets"].insert(0, w.banner(_word(team), _word("w_you_are_dolphinized")))
        if out:
            view["widgets"].append(w.cards(_word("w_on_spacewalk"), out))
    return view


