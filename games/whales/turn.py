"""Joining, the deal and the turn: draw 2, discard 1 face up, offer the other face down, keep or
refuse, and the army rules that follow (wild colour, turtle, a third whale and its steal).

Each phase is four plain functions (`<phase>_prompt/check/apply/legal`); rules.py lists them in
the phase table. The offered card is scanned face down (the camera sees it, the table does not):
nothing said or refused while it is hidden names it.
"""

from __future__ import annotations

from games.core import (
    OK,
    TEAM_COLOURS,
    ChanceRequest,
    Effect,
    GameOver,
    Input,
    Outcomes,
    Press,
    Prompt,
    Reveal,
    Scan,
    UnknownCard,
    say,
)
from games.whales import army as rules_of_army
from games.whales import ending
from games.whales.cards import SHIELD, WILD, catalogue, deck_for, numbers
from games.whales.errors import CannotSteal, NotAWhale, NotInPlay, NotPlaying, NotTheOffered, TooFewPlayers
from games.whales.state import (
    DEAL,
    DECIDE,
    DISCARD,
    OFFER_CARD,
    OFFER_TO,
    OVER,
    RETURN,
    STEAL_CARD,
    STEAL_FROM,
    TURTLE,
    TURTLE_CLAIM,
    WILD_SET,
    WState,
    current,
    evolve,
    logged,
    set_at,
)
from games.whales.text import PRESS_PATTERNS, PRESSES, SCANS, asking, name

Result = tuple[WState, list[Effect]]
# The wild card's colour by button: red and blue have their own; grey is the white button.
WILD_BUTTONS: dict[str, str] = {"red": "red", "blue": "blue", "white": "grey"}


_WHALES: frozenset[str] = frozenset(c.id for c in catalogue().values() if c.kind == "whale")


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """`cards` less one `card` (which it holds)."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _known(card: str) -> None:
    if card not in catalogue():
        raise UnknownCard("unknown_card")


def _in_deck(state: WState, card: str) -> None:
    """A face-up card must come from the deck; say where it is instead."""
    _known(card)
    if card in state.deck:
        return
    if card in state.out:
        raise NotInPlay("card_left_out", {"card": name(card)})
    raise NotInPlay("card_not_in_deck", {"card": name(card)})


def _added(state: WState, team: str, card: str, colour: str) -> tuple:
    """The armies with `card` sorted into `colour` ('' for none) of `team`'s army."""
    i = state.teams.index(team)
    return set_at(state.armies, i, (*state.armies[i], (card, colour)))


def _removed(state: WState, team: str, card: str) -> tuple:
    i = state.teams.index(team)
    return set_at(state.armies, i, tuple(e for e in state.armies[i] if e[0] != card))


# --- joining -------------------------------------------------------------------------------------


def join_prompt(state: WState) -> Prompt:
    accepts = (*(PRESS_PATTERNS[c] for c in TEAM_COLOURS), PRESS_PATTERNS[OK])
    return asking("join_prompt", accepts, (*TEAM_COLOURS, OK), count=len(state.teams))


def join_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Press)
    if inp.button == OK:
        limits = numbers()
        count = len(state.teams)
        if not limits.min_teams <= count <= limits.max_teams:
            raise TooFewPlayers("join_count", {"count": count, "min": limits.min_teams, "max": limits.max_teams})
        if "werewhale" in state.roles and count < limits.werewhale_from:
            raise TooFewPlayers("werewhale_needs", {"count": limits.werewhale_from})
    return ()


def join_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    assert isinstance(inp, Press)
    if inp.button == OK:
        return start_deal(state)
    if inp.button in state.teams:
        return evolve(state, teams=tuple(t for t in state.teams if t != inp.button)), [
            say("team_left", team=inp.button)]
    return evolve(state, teams=(*state.teams, inp.button)), [say("team_joined", team=inp.button)]


def join_legal(state: WState) -> list[Input]:
    legal: list[Input] = [PRESSES[c] for c in TEAM_COLOURS]
    try:
        join_check(state, PRESSES[OK])
        legal.append(PRESSES[OK])
    except TooFewPlayers:
        pass
    return legal


def start_deal(state: WState) -> Result:
    """Teams are seated: take the 5+ cards out as the table size asks and start the deal."""
    deck, out = deck_for(len(state.teams), state.expansion)
    state = evolve(state, phase=DEAL, deck=deck, out=out, armies=((),) * len(state.teams), dealt=0)
    words = say("deal_start", cards=len(deck), out=len(out), whales=numbers().whales_each)
    return evolve(state, log=logged(state, words)), [words]


# --- the deal ------------------------------------------------------------------------------------


def dealing_to(state: WState) -> str:
    return state.teams[state.dealt % len(state.teams)]


def deal_prompt(state: WState) -> Prompt:
    team = dealing_to(state)
    left = numbers().whales_each * len(state.teams) - state.dealt
    return asking("deal_prompt", ("scan",), (team,), team=team, left=left)


def deal_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Scan)
    _in_deck(state, inp.card)
    if catalogue()[inp.card].kind != "whale":
        # "While dealing, put aside other cards (superheroes, turtles) and shuffle them back to the deck."
        raise NotAWhale("deal_put_aside", {"card": name(inp.card)})
    return ()


def deal_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    assert isinstance(inp, Scan)
    card = inp.card
    team = dealing_to(state)
    words = say("dealt", team=team, card=name(card))
    changes = {"armies": _added(state, team, card, catalogue()[card].colour),
               "deck": without(state.deck, card), "dealt": state.dealt + 1}
    if state.dealt + 1 < numbers().whales_each * len(state.teams):
        return evolve(state, log=logged(state, words), **changes), [words]
    more = say("deal_done", team=state.teams[0])
    state, effects = begin_turn(state, player=0, log=logged(state, words, more), **changes)
    return state, [words, more, *effects]


def deal_legal(state: WState) -> list[Input]:
    return [SCANS[c] for c in state.deck if c in _WHALES]


# --- a turn --------------------------------------------------------------------------------------


def begin_turn(state: WState, **changes: object) -> Result:
    """The next turn (with `changes` made to the state first). "A player is not able to draw 2
    cards from the deck" ends the game before the turn."""
    state = evolve(state, phase=DISCARD, drawn=False, receiver="", actor="", pending="", victim="", **changes)
    if len(state.deck) < 2:
        return ending.whales_end(state, "end_deck_short", current(state))
    return state, []


def can_claim_turtle(state: WState, team: str) -> bool:
    """The Turtle role wins "When you have no whale cards in your army": the player claims it by
    holding their own button at the start of a turn (the box knows no roles)."""
    return "turtle" in state.roles and rules_of_army.whales(state.armies[state.teams.index(team)]) == 0


def discard_prompt(state: WState) -> Prompt:
    team = current(state)
    claims = tuple(f"hold:{t}" for t in state.teams if can_claim_turtle(state, t))
    return asking("discard_prompt", ("scan", *claims), (team,), team=team, deck=len(state.deck))


def discard_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    if isinstance(inp, Scan):
        _in_deck(state, inp.card)
    return ()


def discard_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    if isinstance(inp, Press):  # a turtle's claim (the prompt admits only those holds)
        team = inp.button
        words = say(TURTLE_CLAIM, team=team)
        state = evolve(state, phase=OVER, end=TURTLE_CLAIM, ender=team, declared=((team, "turtle"),),
                       winners=(team,), log=logged(state, words))
        return state, [words, GameOver(TURTLE_CLAIM, (team,))]
    assert isinstance(inp, Scan)
    card = inp.card
    words = say("discarded", team=current(state), card=name(card))
    state = evolve(state, phase=OFFER_CARD, deck=without(state.deck, card),
                   discard=(*state.discard, card), drawn=True, log=logged(state, words))
    return state, [words]


def discard_legal(state: WState) -> list[Input]:
    legal: list[Input] = [SCANS[c] for c in state.deck]
    legal += [Press(t, hold=True) for t in state.teams if can_claim_turtle(state, t)]
    return legal


def offer_card_prompt(state: WState) -> Prompt:
    return asking("offer_card_prompt", ("scan",), (current(state),), team=current(state))


def offer_card_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Scan)
    _known(inp.card)
    if inp.card not in state.deck:
        raise NotInPlay("offer_not_drawn")  # never name a card scanned face down
    return ()


def offer_card_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    assert isinstance(inp, Scan)
    card = inp.card
    state = evolve(state, phase=OFFER_TO, deck=without(state.deck, card), offered=card,
                   drawn=False)
    return state, [say("offer_noted")]


def offer_card_legal(state: WState) -> list[Input]:
    return [SCANS[c] for c in state.deck]


def offer_to_prompt(state: WState) -> Prompt:
    team = current(state)
    others = tuple(t for t in state.teams if t != team)
    return asking("offer_to_prompt", tuple(PRESS_PATTERNS[t] for t in others), others, team=team)


def offer_to_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Press)
    if inp.button not in state.teams:
        raise NotPlaying("not_playing", {"team": inp.button})
    if inp.button == current(state):
        raise NotPlaying("offer_self", {"team": inp.button})
    return ()


def offer_to_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    assert isinstance(inp, Press)
    words = say("offered", team=current(state), to=inp.button)
    return evolve(state, phase=DECIDE, receiver=inp.button, log=logged(state, words)), [words]


def offer_to_legal(state: WState) -> list[Input]:
    return [PRESSES[t] for t in state.teams if t != current(state)]


def decide_prompt(state: WState) -> Prompt:
    offerer = current(state)
    return asking("decide_prompt", ("scan", PRESS_PATTERNS[offerer]), (offerer,), team=state.receiver,
                  offerer=offerer)


def decide_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    if isinstance(inp, Scan) and inp.card != state.offered:
        _known(inp.card)
        raise NotTheOffered("not_offered_card")
    return ()


def decide_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    if isinstance(inp, Press):
        words = say("refused", team=state.receiver, offerer=current(state))
        return evolve(state, phase=RETURN, log=logged(state, words)), [words]
    return _reveal(state, state.receiver, "kept")


def decide_legal(state: WState) -> list[Input]:
    return [SCANS[state.offered], PRESSES[current(state)]]


def return_prompt(state: WState) -> Prompt:
    return asking("return_prompt", ("scan",), (current(state),), team=current(state))


def return_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Scan)
    if inp.card != state.offered:
        _known(inp.card)
        raise NotTheOffered("not_offered_card")
    return ()


def return_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    return _reveal(state, current(state), "returned")


def return_legal(state: WState) -> list[Input]:
    return [SCANS[state.offered]]


def _reveal(state: WState, team: str, key: str) -> Result:
    """The offered card is flipped face up into `team`'s army: no BACK past this."""
    card = state.offered
    words = say(key, team=team, card=name(card))
    state, effects = place(state, team, card, offered="", log=logged(state, words))
    return state, [Reveal("offered_card"), words, *effects]


# --- army rules ----------------------------------------------------------------------------------


def place(state: WState, team: str, card: str, **changes: object) -> Result:
    """A card joins `team`'s army (kept, sent back or stolen; `changes` made to the state with it)
    and the army rules apply."""
    info = catalogue()[card]
    if info.special == WILD:
        return evolve(state, phase=WILD_SET, actor=team, pending=card, **changes), []
    if info.kind == "turtle":
        state = evolve(state, **changes)
        if not state.armies[state.teams.index(team)]:
            words = say("turtle_nothing", team=team)
            state = evolve(state, discard=(*state.discard, card), log=logged(state, words))
            return finish_turn(state, [words])
        return evolve(state, phase=TURTLE, actor=team, pending=card), []
    return after_add(evolve(state, armies=_added(state, team, card, info.colour), **changes), team, [])


def after_add(state: WState, team: str, effects: list[Effect]) -> Result:
    """ "If a player gets the third card of the same color, all 3 cards are discarded. Then they
    choose any player and steal a card." """
    i = state.teams.index(team)
    colour = rules_of_army.overflowing(state.armies[i])
    if not colour:
        return finish_turn(state, effects, gained=team)
    gone = tuple(c for c, col in state.armies[i] if col == colour)
    kept = tuple(e for e in state.armies[i] if e[1] != colour)
    words = say("overflow", team=team, colour=colour, count=len(gone))
    state = evolve(state, armies=set_at(state.armies, i, kept), discard=(*state.discard, *gone),
                   log=logged(state, words))
    effects = [*effects, words]
    if not victims(state, team):
        more = say("nothing_to_steal", team=team)
        return finish_turn(evolve(state, log=logged(state, more)), [*effects, more])
    return evolve(state, phase=STEAL_FROM, actor=team, victim=""), effects


def victims(state: WState, thief: str) -> tuple[str, ...]:
    return tuple(t for t, a in zip(state.teams, state.armies, strict=True)
                 if t != thief and rules_of_army.stealable(a))


def finish_turn(state: WState, effects: list[Effect], gained: str = "") -> Result:
    """The offered card is in an army: check the ends, else the next player's turn.

    Only the army that `gained` a card can newly hold 3 superheroes or 6 whales: every other army
    only kept or lost cards since the last check, and losing a card never ends the game."""
    if gained:
        army = state.armies[state.teams.index(gained)]
        cleared = {"actor": "", "pending": "", "victim": "", "receiver": ""}
        if rules_of_army.superheroes(army) >= numbers().superheroes_to_end:
            state, more = ending.superspy_end(evolve(state, **cleared), gained)
            return state, [*effects, *more]
        if rules_of_army.complete(army):
            state, more = ending.whales_end(evolve(state, **cleared), "end_six_whales", gained)
            return state, [*effects, *more]
    state, more = begin_turn(state, player=(state.player + 1) % len(state.teams), turns=state.turns + 1)
    return state, [*effects, *more]


def wild_prompt(state: WState) -> Prompt:
    accepts = tuple(PRESS_PATTERNS[b] for b in WILD_BUTTONS)
    return asking("wild_prompt", accepts, tuple(WILD_BUTTONS), team=state.actor, card=name(state.pending))


def wild_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    return ()


def wild_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    """ "When getting it, you must decide in which set to put it. You can't move the card later." """
    assert isinstance(inp, Press)
    colour = WILD_BUTTONS[inp.button]
    team, card = state.actor, state.pending
    words = say("wild_placed", team=team, colour=colour)
    state = evolve(state, armies=_added(state, team, card, colour), pending="", log=logged(state, words))
    return after_add(state, team, [words])


def wild_legal(state: WState) -> list[Input]:
    return [PRESSES[b] for b in WILD_BUTTONS]


def turtle_prompt(state: WState) -> Prompt:
    return asking("turtle_prompt", ("scan",), (state.actor,), team=state.actor)


def turtle_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Scan)
    _known(inp.card)
    if inp.card not in (c for c, _ in state.armies[state.teams.index(state.actor)]):
        raise NotInPlay("turtle_not_own", {"team": state.actor, "card": name(inp.card)})
    return ()


def turtle_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    """ "Players who is supposed to add this card to their army must discard one card of their own
    to the discard pile. They may even discard a superhero card. The turtle is also discarded." """
    assert isinstance(inp, Scan)
    team, turtle = state.actor, state.pending
    words = say("turtle_discarded", team=team, card=name(inp.card))
    state = evolve(state, armies=_removed(state, team, inp.card), discard=(*state.discard, inp.card, turtle),
                   pending="", log=logged(state, words))
    return finish_turn(state, [words])


def turtle_legal(state: WState) -> list[Input]:
    return [SCANS[c] for c, _ in state.armies[state.teams.index(state.actor)]]


def steal_from_prompt(state: WState) -> Prompt:
    targets = victims(state, state.actor)
    return asking("steal_from_prompt", tuple(PRESS_PATTERNS[t] for t in targets), targets, team=state.actor)


def steal_from_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Press)
    return ()  # the prompt lists exactly the teams with something to steal


def steal_from_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    assert isinstance(inp, Press)
    return evolve(state, phase=STEAL_CARD, victim=inp.button), [
        say("steal_from", team=state.actor, victim=inp.button)]


def steal_from_legal(state: WState) -> list[Input]:
    return [PRESSES[t] for t in victims(state, state.actor)]


def steal_card_prompt(state: WState) -> Prompt:
    return asking("steal_card_prompt", ("scan",), (state.victim,), team=state.actor, victim=state.victim)


def steal_card_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Scan)
    _known(inp.card)
    army = state.armies[state.teams.index(state.victim)]
    card = catalogue()[inp.card]
    colour = next((col for c, col in army if c == inp.card), None)
    if colour is None:
        raise NotInPlay("steal_not_there", {"victim": state.victim, "card": card.name})
    if card.special == SHIELD:
        raise CannotSteal("steal_shield")
    if inp.card not in rules_of_army.stealable(army):
        lowest = min(rules_of_army.in_colour(army, colour), key=lambda c: catalogue()[c].strength)
        raise CannotSteal("steal_not_lowest", {"card": card.name, "colour": colour, "lowest": name(lowest)})
    return ()


def steal_card_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    assert isinstance(inp, Scan)
    thief, victim, card = state.actor, state.victim, inp.card
    words = say("stolen", team=thief, victim=victim, card=name(card))
    state = evolve(state, armies=_removed(state, victim, card), victim="", log=logged(state, words))
    state, effects = place(state, thief, card)
    return state, [words, *effects]


def steal_card_legal(state: WState) -> list[Input]:
    return [SCANS[c] for c in rules_of_army.stealable(state.armies[state.teams.index(state.victim)])]
