"""A spacewalk: filling slots A, B, C by scans, resolving it, detaching a module, the return."""

from __future__ import annotations

from functools import lru_cache

from games.core import (
    SLOTS,
    Chance,
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
from games.hwhad.captain import begin_succession
from games.hwhad.cards import CAPTAIN_ID, asteroid_weights, catalogue, numbers, scans
from games.hwhad.ending import elimination, finish
from games.hwhad.errors import CardNotInHand, SlotTaken, WrongTeam
from games.hwhad.resolution import report, resolve
from games.hwhad.state import (
    DETACH,
    ORDER,
    SPACEWALK,
    HState,
    add_to_hand,
    evolve,
    give_tokens,
    holder,
    remove_from_hand,
    set_at,
)
from games.hwhad.text import listing

ASTEROID = "asteroid"
SLOTS_OFF: tuple[Light, ...] = tuple(Light(f"slot:{s}", "off") for s in SLOTS)


# --- Who may fill the next slot -------------------------------------------------------------


def _can_finish(teams: tuple[str, ...], cnt: list[int], last: str, remaining: int) -> bool:
    """Whether `remaining` slots can still be filled, each by a team other than the one before."""
    if remaining == 0:
        return True
    for i, team in enumerate(teams):
        if cnt[i] and team != last:
            cnt[i] -= 1
            ok = _can_finish(teams, cnt, team, remaining - 1)
            cnt[i] += 1
            if ok:
                return True
    return False


def _last_team(state: HState) -> str:
    """Slot A's team may not be the captain's; B's not A's; C's not B's."""
    return state.slots[-1][1] if state.slots else state.captain


def callable_teams(state: HState) -> tuple[str, ...]:
    """Teams that may fill the next slot and still leave the spacewalk completable."""
    last = _last_team(state)
    sizes = tuple(len(h) for h in state.hands)
    remaining = len(SLOTS) - len(state.slots) - 1
    return _callable(state.teams, sizes, last, remaining)


@lru_cache(maxsize=4096)
def _callable(teams: tuple[str, ...], sizes: tuple[int, ...], last: str, remaining: int) -> tuple[str, ...]:
    """callable_teams on the numbers alone (hand sizes, the last team, slots left), cached: random
    play asks it for every scan, and the same few counts come back again and again."""
    cnt = list(sizes)
    result = []
    for i, team in enumerate(teams):
        if cnt[i] and team != last:
            cnt[i] -= 1
            if _can_finish(teams, cnt, team, remaining):
                result.append(team)
            cnt[i] += 1
    return tuple(result)


# --- Starting a spacewalk -------------------------------------------------------------------


def start(state: HState) -> tuple[HState, list[Effect]]:
    """Begin the next spacewalk; with no way to send three astronauts out, go to the captain."""
    effects: list[Effect] = list(SLOTS_OFF)
    if state.slots:
        state = evolve(state, slots=())
    if not callable_teams(state):
        return evolve(state, phase=ORDER), [*effects, say("no_spacewalk")]
    number = state.spacewalks + 1
    state = evolve(state, phase=SPACEWALK, spacewalks=number)
    return state, [*effects, say("spacewalk_begins", number=number, team=state.captain)]


# --- Filling the slots ----------------------------------------------------------------------


SLOT_PROMPTS: tuple[Prompt, ...] = tuple(Prompt(say("slot_prompt", slot=s), ("scan",)) for s in SLOTS)


def spacewalk_prompt(state: HState) -> Prompt:
    return SLOT_PROMPTS[len(state.slots)]


def spacewalk_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Scan)
    card = inp.card
    if card not in catalogue():
        raise UnknownCard("unknown_card")
    if any(card == c for c, _ in state.slots):
        raise SlotTaken("already_on_spacewalk")
    team = holder(state, card)
    if not team:
        raise CardNotInHand("not_in_a_hand")
    if team == _last_team(state):
        raise WrongTeam("captain_calls_other" if not state.slots else "no_calling_yourself", {"team": team})
    if team not in callable_teams(state):
        raise WrongTeam("no_team_next", {"team": team})
    if len(state.slots) < len(SLOTS) - 1:
        return ()
    return (Chance(ASTEROID, asteroid_weights(_asteroid_percent(state))),)


def _asteroid_percent(state: HState) -> int:
    """Higher odds while no team holds a dolphin (cards out on this spacewalk count as held)."""
    cards = catalogue()
    held = [c for hand in state.hands for c in hand] + [c for c, _ in state.slots]
    if any(cards[c].role == "dolphin" for c in held):
        return numbers().asteroid_percent
    return numbers().asteroid_percent_without_dolphins


def spacewalk_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    assert isinstance(inp, Scan)
    team = holder(state, inp.card)
    i = state.teams.index(team)
    slot = SLOTS[len(state.slots)]
    state = evolve(state, hands=remove_from_hand(state.hands, i, inp.card), slots=(*state.slots, (inp.card, team)))
    effects: list[Effect] = [Sound("confirm"), Light(f"slot:{slot}", "white")]
    if len(state.slots) < len(SLOTS):
        return state, effects
    state, more = _resolve(state, int(outcomes[ASTEROID]))
    return state, effects + more


def spacewalk_legal(state: HState) -> list[Input]:
    teams = callable_teams(state)
    scan = scans()
    return [scan[c] for t, hand in zip(state.teams, state.hands, strict=True) if t in teams for c in hand]


# --- Resolution -----------------------------------------------------------------------------


def _resolve(state: HState, outcome: int) -> tuple[HState, list[Effect]]:
    cards = tuple(c for c, _ in state.slots)
    result = resolve(cards, outcome - 1, modules_left=state.detached < 3)
    said = report(result)
    voided = tuple(state.slots[i][0] for i in result.lost)
    state = evolve(state, report=said, reports=(*state.reports, said), history=(*state.history, result.how),
                   chances=(*state.chances, (ASTEROID, outcome)), void=(*state.void, *voided))
    effects: list[Effect] = [Sound("alarm")] if result.lost else []
    effects += said
    for i, slot in enumerate(SLOTS):
        if i in result.lost:
            effects.append(Light(f"slot:{slot}", "red", "blink"))
        elif i == result.opened:
            effects.append(Light(f"slot:{slot}", "blue", "pulse"))
        else:
            effects.append(Light(f"slot:{slot}", "green"))
    if result.opened >= 0:
        # Two living wrenches around a living hero leave no dolphin or observer on this
        # spacewalk and nobody lost: the detachment is the only incident.
        assert not result.lost
        hero_team = state.slots[result.opened][1]
        return evolve(state, phase=DETACH, actor=hero_team), effects
    involved = tuple(t for _, t in state.slots)
    home = tuple(s for i, s in enumerate(state.slots) if i not in result.lost)
    lost = tuple(SLOTS[i] for i in result.lost)
    state, more = _return(state, involved, home, lost)
    return state, effects + more


# --- Detaching a module ---------------------------------------------------------------------


def detach_prompt(state: HState) -> Prompt:
    accepts = ("scan", *(f"hold:{t}" for t in state.teams))
    return Prompt(say("detach_prompt", team=state.actor, module=state.detached + 1), accepts, (state.actor,))


def detach_check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    if isinstance(inp, Press):
        if inp.button != state.actor:
            raise WrongTeam("only_team_decides", {"team": state.actor})
        return ()
    assert isinstance(inp, Scan)
    if inp.card not in catalogue():
        raise UnknownCard("unknown_card")
    if inp.card != state.modules[state.detached]:
        raise CardNotInHand("not_module_card", {"module": state.detached + 1})
    return ()


def detach_apply(state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
    n = state.detached
    team, i = state.actor, state.teams.index(state.actor)
    inside = state.modules[n]
    hero_card, _ = state.slots[1]
    involved = tuple(t for _, t in state.slots)
    home = tuple(s for s in state.slots if s[0] != hero_card)
    lost = ["B"]
    state = evolve(state, modules=set_at(state.modules, n, ""), detached=n + 1, actor="",
                    void=(*state.void, hero_card))
    effects: list[Effect] = [Sound("confirm")]
    if isinstance(inp, Scan):
        effects.append(say("module_saved", team=team, module=n + 1))
        state = evolve(state, hands=add_to_hand(state.hands, i, inside))
        if catalogue()[inside].role == "dolphin":
            state = evolve(state, dolphinized=set_at(state.dolphinized, i, True))
        if inside == CAPTAIN_ID:
            former = state.captain_card
            state = evolve(state, captain=team, captain_card=CAPTAIN_ID, face_up=(*state.face_up, CAPTAIN_ID))
            effects += [Reveal("captain"), Sound("fanfare"),
                        say("captain_saved", team=team, name=catalogue()[CAPTAIN_ID].name)]
            if former and former != hero_card:
                # "The former captain is sent into the void", from a hand or from this spacewalk
                # (a hero captain card that opened this module is in the void already).
                lost += [SLOTS[k] for k, (c, _) in enumerate(state.slots) if c == former]
                home = tuple(s for s in home if s[0] != former)
                hands = tuple(tuple(c for c in h if c != former) for h in state.hands)
                state = evolve(state, hands=hands, void=(*state.void, former))
    else:
        tokens, tray, _ = give_tokens(state, (team,), numbers().panic_raise)
        taken = tokens[i] - state.tokens[i]
        state = evolve(state, tokens=tokens, tray=tray, void=(*state.void, inside))
        effects += [Sound("alarm"), say("panic_raised", team=team, count=taken, module=n + 1)]
    state, more = _return(state, involved, home, tuple(sorted(lost)))
    return state, effects + more


def detach_legal(state: HState) -> list[Input]:
    return [Scan(state.modules[state.detached]), Press(state.actor, hold=True)]


# --- The return -----------------------------------------------------------------------------


def _return(state: HState, involved: tuple[str, ...], home: tuple[tuple[str, str], ...],
            lost: tuple[str, ...]) -> tuple[HState, list[Effect]]:
    """Survivors go home, idle teams take a token, then: the end, a new captain, or the orders."""
    hands = state.hands
    for card, team in home:
        hands = add_to_hand(hands, state.teams.index(team), card)
    effects: list[Effect] = [listing("to_void", lost) if lost else say("all_return")]
    idle = tuple(t for t, h in zip(state.teams, hands, strict=True) if h and t not in involved)
    tokens, tray, got = give_tokens(state, idle, 1)
    if got:
        effects.append(listing("tokens", got))
    died = bool(state.captain_card) and state.captain_card in state.void
    if died:
        effects.append(say("captain_lost"))
    # phase ORDER unless the end or a succession below says otherwise
    state = evolve(state, hands=hands, slots=(), tokens=tokens, tray=tray,
                   captain_card="" if died else state.captain_card, phase=ORDER)
    ended = elimination(state)
    if ended:
        over, more = finish(state, *ended)
        return over, effects + more
    if died:
        state, more = begin_succession(state, state.teams, ORDER)
        return state, effects + more
    return state, effects
