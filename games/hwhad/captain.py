"""The Captain's phase (order, threatened team, panic vote, sacrifice) and captain successions."""

from __future__ import annotations

from functools import lru_cache

from games.core import (
    OK,
    ChanceRequest,
    Choose,
    Effect,
    Input,
    Light,
    Outcomes,
    Press,
    Prompt,
    Reveal,
    Scan,
    Sound,
    UnknownCard,
    say,
)
from games.hwhad.cards import catalogue, scans
from games.hwhad.ending import by_order, elimination, finish
from games.hwhad.errors import CardNotInHand, NotEnoughTokens, OrderRefused, WrongTeam
from games.hwhad.state import (
    START_SPACEWALK,
    SUCCESSOR_CARD,
    SUCCESSOR_TIE,
    THREATEN,
    VICTIM,
    VOTE,
    HState,
    counts,
    evolve,
    hand_of,
    remove_from_hand,
)
from games.hwhad.text import listing

ORDERS = ("sacrifice", "flood", "reset", "no_order")
NO_ORDER = "no_order"  # "The captain *may* announce his order": decision C6 in docs/rules/hwhad.md


def _scan_from_hand(state: HState, inp: Input, team: str) -> None:
    """Refuse a scan that is not an astronaut in `team`'s hand."""
    assert isinstance(inp, Scan)
    if inp.card not in catalogue():
        raise UnknownCard("unknown_card")
    if inp.card not in hand_of(state, team):
        raise CardNotInHand("not_in_team_hand", {"team": team})


# --- Captain succession ---------------------------------------------------------------------


def begin_succession(state: HState, pool: tuple[str, ...], then: str) -> tuple[HState, list[Effect]]:
    """The team of `pool` with most astronauts provides the new captain; ties: the former captain
    chooses by button. With no astronauts anywhere the captain's team keeps command, card-less."""
    cnt = counts(state)
    most = max(cnt[state.teams.index(t)] for t in pool)
    if most == 0:
        return evolve(state, captain_card="", phase=then), [say("no_captain_card", team=state.captain)]
    tied = tuple(t for t in pool if cnt[state.teams.index(t)] == most)
    if len(tied) == 1:
        return (evolve(state, phase=SUCCESSOR_CARD, actor=tied[0], candidates=(), then=then),
                [say("successor", team=tied[0])])
    return (evolve(state, phase=SUCCESSOR_TIE, actor=state.captain, candidates=tied, then=then),
            [listing("successor_tie", tied, team=state.captain)])


def successor_tie_prompt(state: HState) -> Prompt:
    accepts = tuple(f"press:{t}" for t in state.teams)
    return Prompt(listing("choose_successor", state.candidates, team=state.actor), accepts, state.candidates)


def successor_tie_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Press)
    if inp.button not in state.candidates:
        raise WrongTeam("not_a_candidate", {"team": inp.button})
    return ()


def successor_tie_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    assert isinstance(inp, Press)
    chosen = evolve(state, phase=SUCCESSOR_CARD, actor=inp.button, candidates=())
    return chosen, [Sound("confirm"), say("successor", team=inp.button)]


def successor_tie_legal(state: HState) -> list[Input]:
    return [Press(t) for t in state.candidates]


def successor_card_prompt(state: HState) -> Prompt:
    return Prompt(say("successor_card", team=state.actor), ("scan",), (state.actor,))


def successor_card_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    _scan_from_hand(state, inp, state.actor)
    return ()


def successor_card_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    assert isinstance(inp, Scan)
    new = evolve(state, captain=state.actor, captain_card=inp.card, actor="", phase=state.then, then="",
                 face_up=(*state.face_up, inp.card))
    return new, [Reveal("captain_card"), Sound("confirm"),
                 say("new_captain", team=new.captain, name=catalogue()[inp.card].name)]


def successor_card_legal(state: HState) -> list[Input]:
    scan = scans()
    return [scan[c] for c in hand_of(state, state.actor)]


# --- The captain's order --------------------------------------------------------------------


def _targets(state: HState) -> tuple[str, ...]:
    """Teams the captain may threaten: any other team with astronauts."""
    return tuple(t for t, h in zip(state.teams, state.hands, strict=True) if t != state.captain and h)


def order_prompt(state: HState) -> Prompt:
    return _order_prompt(state.teams, state.captain, _targets(state))


@lru_cache(maxsize=1024)
def _order_prompt(teams: tuple[str, ...], captain: str, targets: tuple[str, ...]) -> Prompt:
    accepts = (*(f"choose:{o}" for o in ORDERS), *(f"press:{t}" for t in teams),
               f"hold:{captain}", "hold:ok", "press:ok")
    return Prompt(say("order_prompt", team=captain), accepts, (*targets, OK))


def _order_of(state: HState, inp: Input) -> tuple[str, str]:
    """(order, threatened team) an input gives. On the panel alone: a team's button sacrifices
    from that team, the captain holding their own button floods, holding OK resets, a short OK
    gives no order."""
    if isinstance(inp, Choose):
        return inp.option, ""
    assert isinstance(inp, Press)
    if inp.button == OK and not inp.hold:
        return NO_ORDER, ""
    if inp.hold:
        return ("reset", "") if inp.button == OK else ("flood", "")
    return "sacrifice", inp.button


def order_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    order, threatened = _order_of(state, inp)
    if order == "reset" and state.detached < 3:
        raise OrderRefused("reset_needs_modules", {"detached": state.detached})
    if order == "sacrifice" and not _targets(state):
        raise OrderRefused("no_one_to_sacrifice")
    if threatened:
        threaten_check(state, inp)
    return ()


def order_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    order, threatened = _order_of(state, inp)
    if order == "sacrifice" and not threatened:
        return evolve(state, phase=THREATEN, order="sacrifice"), [say("order_sacrifice")]
    if threatened:
        state, effects = threaten_apply(evolve(state, order=order), inp, outcomes)
        return state, [say("order_sacrifice"), *effects]
    state, effects = begin_vote(evolve(state, order=order))
    return state, [say(f"order_{order}"), *effects]


def is_no_order(inp: Input) -> bool:
    """True for the inputs that give no order (the dashboard's choice, the panel's short OK)."""
    if isinstance(inp, Choose):
        return inp.option == NO_ORDER
    return isinstance(inp, Press) and inp.button == OK and not inp.hold


def order_legal(state: HState) -> list[Input]:
    legal: list[Input] = [Choose("flood"), Press(state.captain, hold=True), Choose(NO_ORDER), Press(OK)]
    if state.detached >= 3:
        legal += [Choose("reset"), Press(OK, hold=True)]
    if _targets(state):
        legal += [Choose("sacrifice"), *(Press(t) for t in _targets(state))]
    return legal


def threaten_prompt(state: HState) -> Prompt:
    return Prompt(say("threaten_prompt", team=state.captain),
                  tuple(f"press:{t}" for t in state.teams), _targets(state))


def threaten_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Press)
    if inp.button == state.captain:
        raise WrongTeam("cannot_threaten_own")
    if not hand_of(state, inp.button):
        raise WrongTeam("team_has_no_astronauts", {"team": inp.button})
    return ()


def threaten_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    assert isinstance(inp, Press)
    state, effects = begin_vote(evolve(state, threatened=inp.button))
    return state, [Sound("confirm"), say("threatened", team=inp.button), *effects]


def threaten_legal(state: HState) -> list[Input]:
    return [Press(t) for t in _targets(state)]


# --- The panic vote -------------------------------------------------------------------------


def voters(state: HState) -> tuple[str, ...]:
    """Every team but the captain's that still has astronauts (decision C3)."""
    return _targets(state)


def begin_vote(state: HState) -> tuple[HState, list[Effect]]:
    if not voters(state):
        key = "no_voters_no_order" if state.order == NO_ORDER else "no_voters"
        state, effects = execute_order(state)
        return state, [say(key), *effects]
    return evolve(state, phase=VOTE, votes=(0,) * len(state.teams)), []


def vote_prompt(state: HState) -> Prompt:
    return _vote_prompt(state.teams, voters(state), sum(state.votes))


@lru_cache(maxsize=1024)
def _vote_prompt(teams: tuple[str, ...], crowd: tuple[str, ...], total: int) -> Prompt:
    accepts = (*(f"press:{t}" for t in teams), "press:ok")
    return Prompt(say("vote_prompt", total=total, voters=len(crowd)), accepts, (*crowd, OK))


def vote_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Press)
    if inp.button == OK:
        return ()
    if inp.button not in voters(state):
        raise WrongTeam("not_a_voter", {"team": inp.button})
    i = state.teams.index(inp.button)
    if state.votes[i] >= state.tokens[i]:
        raise NotEnoughTokens("not_enough_tokens", {"team": inp.button, "count": state.tokens[i]})
    return ()


def vote_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    assert isinstance(inp, Press)
    if inp.button != OK:
        i = state.teams.index(inp.button)
        votes = (*state.votes[:i], state.votes[i] + 1, *state.votes[i + 1:])
        return evolve(state, votes=votes), [Sound("confirm"), Light(f"team:{inp.button}", "on", "flash")]
    return tally(state)


def vote_legal(state: HState) -> list[Input]:
    legal: list[Input] = [Press(OK)]
    for t in voters(state):
        i = state.teams.index(t)
        if state.votes[i] < state.tokens[i]:
            legal.append(Press(t))
    return legal


def tally(state: HState) -> tuple[HState, list[Effect]]:
    """Count the open hands; revolt when the total reaches the number of voters. Spent tokens go
    back to the tray either way."""
    total, crowd = sum(state.votes), voters(state)
    tokens = tuple(t - v for t, v in zip(state.tokens, state.votes, strict=True))
    spent = evolve(state, tokens=tokens, tray=state.tray + total, votes=(0,) * len(state.teams))
    if total < len(crowd):
        key = "no_revolt_no_order" if spent.order == NO_ORDER else "no_revolt"
        state, stands = execute_order(spent)
        return state, [say(key, total=total, voters=len(crowd)), *stands]
    most = max(state.votes[state.teams.index(t)] for t in crowd)
    top = tuple(t for t in crowd if state.votes[state.teams.index(t)] == most)
    effects: list[Effect] = [Sound("alarm"), say("revolt", total=total, voters=len(crowd))]
    hands, void, card = spent.hands, spent.void, spent.captain_card
    if card:
        effects.append(say("captain_to_void", name=catalogue()[card].name))
        hands = remove_from_hand(hands, spent.teams.index(spent.captain), card)
        void = (*void, card)
    spent = evolve(spent, hands=hands, void=void, captain_card="", order="", threatened="")
    ended = elimination(spent)
    if ended:
        over, more = finish(spent, *ended)
        return over, effects + more
    state, more = begin_succession(spent, top, START_SPACEWALK)
    return state, effects + more


def execute_order(state: HState) -> tuple[HState, list[Effect]]:
    """The order stands: flood and reset end the game, a sacrifice waits for the victim's scan,
    no order goes on to the next spacewalk."""
    if state.order == NO_ORDER:
        return evolve(state, phase=START_SPACEWALK, order=""), []
    if state.order == "sacrifice":
        return evolve(state, phase=VICTIM, actor=state.threatened), []
    return finish(state, *by_order(state, state.order))


# --- The sacrifice --------------------------------------------------------------------------


def victim_prompt(state: HState) -> Prompt:
    return Prompt(say("victim_prompt", team=state.actor), ("scan",), (state.actor,))


def victim_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    _scan_from_hand(state, inp, state.actor)
    return ()


def victim_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    assert isinstance(inp, Scan)
    team = state.actor
    i = state.teams.index(team)
    state = evolve(state, hands=remove_from_hand(state.hands, i, inp.card), void=(*state.void, inp.card),
                    order="", threatened="", actor="")
    effects: list[Effect] = [Sound("confirm"), say("sacrificed", team=team)]
    ended = elimination(state)
    if ended:
        over, more = finish(state, *ended)
        return over, effects + more
    return evolve(state, phase=START_SPACEWALK), effects


def victim_legal(state: HState) -> list[Input]:
    scan = scans()
    return [scan[c] for c in hand_of(state, state.actor)]

