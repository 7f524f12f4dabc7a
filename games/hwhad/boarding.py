"""Crewing (teams join), boarding (the guided deal) and the Captain's appearance."""

from __future__ import annotations

from functools import lru_cache

from games.badges import badge_of, team_of_badge
from games.core import (
    OK,
    TEAM_COLOURS,
    ChanceRequest,
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
from games.hwhad.cards import CAPTAIN_ID, catalogue, numbers, scans
from games.hwhad.deal import ORDER, SPECIALS, deal_requests, plan_deal
from games.hwhad.errors import CardNotInDeal, CrewRefused
from games.hwhad.state import (
    BOARDING,
    MODULES,
    START_SPACEWALK,
    TEMP_CAPTAIN,
    VOID,
    HState,
    add_to_hand,
    evolve,
    give_tokens,
    holder,
    set_at,
)
from games.hwhad.text import listing

# --- Crewing --------------------------------------------------------------------------------


def crewing_prompt(state: HState) -> Prompt:
    if state.locked:
        return _ready_prompt(state.teams)
    free = tuple(c for c in TEAM_COLOURS if c not in state.teams)
    accepts = (*(f"press:{c}" for c in TEAM_COLOURS), "scan", "press:ok")
    return Prompt(say("crewing", count=len(state.teams)), accepts=accepts, lights=(*free, OK))


@lru_cache(maxsize=512)
def _ready_prompt(teams: tuple[str, ...]) -> Prompt:
    """The crew set by the options: only OK is awaited (asked once per simulated game)."""
    return Prompt(listing("crew_ready", teams), accepts=("press:ok",), lights=(OK,))


def _joining_team(inp: Input) -> str:
    """The colour a press or badge scan names; refuses a scanned astronaut or unknown card."""
    if isinstance(inp, Press):
        return inp.button
    assert isinstance(inp, Scan)
    team = team_of_badge(inp.card)
    if team is not None:
        return team
    if inp.card in catalogue():
        raise CrewRefused("scan_badge_first")
    raise UnknownCard("unknown_card")


def crewing_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    if isinstance(inp, Press) and inp.button == OK:
        if len(state.teams) < numbers().min_teams:
            raise CrewRefused("need_teams", {"teams": numbers().min_teams})
        return deal_requests(state.teams, state.deck)
    team = _joining_team(inp)
    if team in state.teams:
        raise CrewRefused("already_joined", {"team": team})
    if len(state.teams) >= numbers().max_teams:
        raise CrewRefused("too_many_teams", {"teams": numbers().max_teams})
    return ()


def crewing_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    if isinstance(inp, Press) and inp.button == OK:
        plan = plan_deal(state.teams, state.deck, outcomes)
        n = len(state.teams)
        boarded = evolve(
            state,
            phase=BOARDING,
            plan=plan,
            stack=state.deck,
            hands=((),) * n,
            tokens=(0,) * n,
            votes=(0,) * n,
            dolphinized=(False,) * n,
            tray=numbers().tray,
            chances=((SPECIALS, outcomes[SPECIALS]), (ORDER, tuple(outcomes[ORDER]))),
        )
        return boarded, [Sound("confirm"), say("boarding_starts", cards=len(state.deck))]
    team = _joining_team(inp)
    joined = evolve(state, teams=(*state.teams, team))
    return joined, [Sound("confirm"), Light(f"team:{team}", "on"), say("team_joined", team=team)]


def crewing_legal(state: HState) -> list[Input]:
    legal: list[Input] = []
    if len(state.teams) >= numbers().min_teams:
        legal.append(Press(OK))
    if not state.locked and len(state.teams) < numbers().max_teams:
        for colour in TEAM_COLOURS:
            if colour not in state.teams:
                legal += [Press(colour), Scan(badge_of(colour))]
    return legal


# --- Boarding -------------------------------------------------------------------------------


def boarding_prompt(state: HState) -> Prompt:
    return _boarding_prompt(len(state.stack))


@lru_cache(maxsize=64)
def _boarding_prompt(left: int) -> Prompt:
    """One prompt per number of cards left (asked at every step of every deal)."""
    return Prompt(say("boarding", count=left), accepts=("scan",))


def boarding_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Scan)
    if inp.card in state.stack:
        return ()
    if inp.card in state.deck:
        raise CardNotInDeal("already_dealt")
    if inp.card in catalogue():
        raise CardNotInDeal("not_in_this_game")
    raise UnknownCard("unknown_card")


def boarding_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    assert isinstance(inp, Scan)
    card = inp.card
    where = state.plan[state.deck.index(card)]
    at = state.stack.index(card)
    stack = state.stack[:at] + state.stack[at + 1:]
    if where == VOID:
        state = evolve(state, stack=stack, void=(*state.void, card))
    elif where in MODULES:
        state = evolve(state, stack=stack, modules=set_at(state.modules, MODULES.index(where), card))
    else:
        index = state.teams.index(where)
        dolphinized = state.dolphinized
        if catalogue()[card].role == "dolphin":
            dolphinized = set_at(dolphinized, index, True)
        state = evolve(state, stack=stack, hands=add_to_hand(state.hands, index, card), dolphinized=dolphinized)
    effects: list[Effect] = list(_dealt_to(where))
    if not stack:
        state, more = captain_appears(state)
        effects += more
    return state, effects


@lru_cache(maxsize=64)
def _dealt_to(where: str) -> tuple[Effect, ...]:
    """What the box does when a card is dealt to `where` (a team, a module, the void): the same
    few effects every deal, built once."""
    if where == VOID:
        return (Sound("confirm"), say("deal_void"))
    if where in MODULES:
        return (Sound("confirm"), say("deal_module", module=MODULES.index(where) + 1))
    return (Sound("confirm"), Light(f"team:{where}", "on", "flash"), say("deal_team", team=where))


def boarding_legal(state: HState) -> list[Input]:
    scan = scans()
    return [scan[card] for card in state.stack]


# --- The Captain's appearance ---------------------------------------------------------------


def _welcome_captain(state: HState, team: str) -> tuple[HState, list[Effect]]:
    """Every other team takes one panic token; then the first spacewalk."""
    others = tuple(t for t in state.teams if t != team)
    tokens, tray, got = give_tokens(state, others, 1)
    effects: list[Effect] = [listing("tokens", got)] if got else []
    return evolve(state, captain=team, tokens=tokens, tray=tray, phase=START_SPACEWALK), effects


def captain_appears(state: HState) -> tuple[HState, list[Effect]]:
    """The team holding Cpt. E. Glue reveals him; if he waits in a module, "Don't panic!"."""
    team = holder(state, CAPTAIN_ID)
    if not team:
        return evolve(state, phase=TEMP_CAPTAIN), [Sound("alarm")]
    state = evolve(state, captain_card=CAPTAIN_ID, face_up=(*state.face_up, CAPTAIN_ID))
    state, effects = _welcome_captain(state, team)
    reveal: list[Effect] = [Reveal("captain"), Sound("fanfare"),
                            say("captain_revealed", team=team, name=catalogue()[CAPTAIN_ID].name)]
    return state, reveal + effects


def temp_captain_prompt(state: HState) -> Prompt:
    return Prompt(say("dont_panic"), accepts=tuple(f"press:{t}" for t in state.teams), lights=state.teams)


def temp_captain_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    return ()


def temp_captain_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    assert isinstance(inp, Press)
    state, effects = _welcome_captain(state, inp.button)
    first: list[Effect] = [Sound("confirm"), say("temporary_captain", team=inp.button)]
    return state, first + effects


def temp_captain_legal(state: HState) -> list[Input]:
    return [Press(t) for t in state.teams]
