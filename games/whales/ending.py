"""The end: which way the game ended, the werewhale's guesses, the roles declared, the winners.

The box never knows a role before the table declares it. When the game ends it says why and, when
whales win, every army's score; then it asks, one role at a time, who holds it (team buttons, then
OK). Everyone not named is a whale. The winners follow from the declared roles and the armies.
"""

from __future__ import annotations

from games.core import OK, ChanceRequest, Effect, GameOver, Input, Outcomes, Press, Prompt, Say, say
from games.whales import army as rules_of_army
from games.whales.cards import numbers
from games.whales.errors import BadDeclaration, NotPlaying
from games.whales.state import DECLARE, GUESS, OVER, THREE_SUPERHEROES, WState, evolve, logged
from games.whales.text import PRESS_PATTERNS, PRESSES, asking, listing

Result = tuple[WState, list[Effect]]
WHALE = "whale"
SUPERSPY = "superspy"


def scores(state: WState) -> tuple[int, ...]:
    return tuple(rules_of_army.score(a) for a in state.armies)


def declare_questions(state: WState) -> tuple[str, ...]:
    """Roles to ask about, superspy first; after a superspy win only the roles that can change it."""
    if state.end == THREE_SUPERHEROES:
        return (SUPERSPY, *(("sidekick",) if "sidekick" in state.roles else ()))
    return (SUPERSPY, *(r for r in numbers().extra_roles if r in state.roles))


def whales_end(state: WState, reason: str, ender: str) -> Result:
    """Whales win: score every army (public by rule), then the werewhale's guesses (if the role may
    be in play) and the declaration."""
    state = evolve(state, end=reason, ender=ender, offered="", drawn=False)
    words: list[Say] = [say(reason, team=ender)]
    words += [say("army_score", team=t, score=s) for t, s in zip(state.teams, scores(state), strict=True)]
    if "werewhale" in state.roles:
        questions = (SUPERSPY, *(r for r in numbers().extra_roles if r in state.roles and r != "werewhale"))
        state = evolve(state, phase=GUESS, questions=questions, marked=())
    else:
        state = evolve(state, phase=DECLARE, questions=declare_questions(state), marked=())
    return evolve(state, log=logged(state, *words)), list(words)


def superspy_end(state: WState, ender: str) -> Result:
    """ "If ANY player collects three superhero cards, the game ends and the superspy player wins." """
    state = evolve(state, end=THREE_SUPERHEROES, ender=ender, offered="", drawn=False)
    words = say(THREE_SUPERHEROES, team=ender)
    state = evolve(state, phase=DECLARE, questions=declare_questions(state), marked=(), log=logged(state, words))
    return state, [words]


def max_holders(state: WState, role: str) -> int:
    """ "2 Superspies in the Game (Only in 6 Players)"; every other role card is single."""
    if role == SUPERSPY and len(state.teams) >= numbers().two_superspies_at:
        return 2
    return 1


def _guessing(state: WState) -> bool:
    return state.phase == GUESS


def roles_prompt(state: WState) -> Prompt:
    role = state.questions[0]
    key = "guess_prompt" if _guessing(state) else "declare_prompt"
    accepts = (*(PRESS_PATTERNS[t] for t in state.teams), PRESS_PATTERNS[OK])
    return asking(key, accepts, (*state.teams, OK), role=role, marked=len(state.marked))


def roles_check(state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Press)
    role = state.questions[0]
    if inp.button == OK:
        if role == SUPERSPY and not state.marked:
            raise BadDeclaration("need_superspy")
        return ()
    team = inp.button
    if team not in state.teams:
        raise NotPlaying("not_playing", {"team": team})
    if team in state.marked:
        return ()  # taking a press back is always allowed
    if len(state.marked) >= max_holders(state, role):
        raise BadDeclaration("role_full", {"role": role, "count": max_holders(state, role)})
    if not _guessing(state):
        if team in dict(state.declared):
            raise BadDeclaration("role_taken", {"team": team, "role": dict(state.declared)[team]})
        if len(state.declared) + len(state.marked) + 1 >= len(state.teams):
            # "make sure there is always at least one whale and one superspy in every game"
            raise BadDeclaration("need_a_whale")
    return ()


def roles_apply(state: WState, inp: Input, outcomes: Outcomes) -> Result:
    assert isinstance(inp, Press)
    role = state.questions[0]
    if inp.button != OK:
        team = inp.button
        marked = tuple(t for t in state.marked if t != team) if team in state.marked else (*state.marked, team)
        return evolve(state, marked=marked), []
    pairs = tuple((t, role) for t in state.marked)
    rest = state.questions[1:]
    if _guessing(state):
        state = evolve(state, guesses=(*state.guesses, *pairs), questions=rest, marked=())
        if rest:
            return state, []
        words = say("guesses_noted")
        state = evolve(state, phase=DECLARE, questions=declare_questions(state), log=logged(state, words))
        return state, [words]
    words = listing(f"declared_{role}", state.marked) if pairs else say("declared_nobody", role=role)
    state = evolve(state, declared=(*state.declared, *pairs), questions=rest, marked=(), log=logged(state, words))
    if rest:
        return state, [words]
    state, more = resolve(state)
    return state, [words, *more]


def roles_legal(state: WState) -> list[Input]:
    legal: list[Input] = []
    for inp in (*(PRESSES[t] for t in state.teams), PRESSES[OK]):
        try:
            roles_check(state, inp)
        except BadDeclaration:
            continue
        legal.append(inp)
    return legal


def resolve(state: WState) -> Result:
    """The winners from the declared roles and the armies; ties are shared and said to be ties."""
    roles = dict(state.declared)
    holders = {role: tuple(t for t in state.teams if roles.get(t) == role) for role in set(roles.values())}
    words: list[Say] = []
    if state.end == THREE_SUPERHEROES:
        spies = holders.get(SUPERSPY, ())
        sidekick = holders.get("sidekick", ())
        if sidekick and state.ender in spies:
            # "Sidekick: You immediately win when the superspy player has 3 superhero cards in
            # their army. Superspy loses."
            winners, reason = sidekick, "sidekick_wins"
        elif len(spies) == 2 and state.ender in spies:
            # "they compete to collect 3 superhero cards in their own army"
            winners, reason = (state.ender,), "superspy_wins"
        else:
            # one superspy; or two who "share the victory" when a whale player has 3 superheroes
            winners, reason = spies, "superspy_wins"
        words.append(listing(reason, winners))
    else:
        reason = "whales_win"
        points = dict(zip(state.teams, scores(state), strict=True))
        whales = [t for t in state.teams if t not in roles]
        best = max(points[t] for t in whales) if whales else 0
        top = tuple(t for t in whales if points[t] == best)
        words.append(listing("whales_top" if len(top) == 1 else "whales_tie", top, score=best))
        extra: list[str] = []
        for team in holders.get("dolphin", ()):
            if rules_of_army.complete(state.armies[state.teams.index(team)]):
                extra.append(team)
                words.append(say("dolphin_wins", team=team))
        for team in holders.get("turtle", ()):
            if rules_of_army.whales(state.armies[state.teams.index(team)]) == 0:
                extra.append(team)
                words.append(say("turtle_wins", team=team))
        guesses = dict(state.guesses)
        for team in holders.get("werewhale", ()):
            right = all(guesses.get(t, WHALE) == roles.get(t, WHALE) for t in state.teams if t != team)
            if right:
                extra.append(team)
            words.append(say("werewhale_right" if right else "werewhale_wrong", team=team))
        winners = tuple(t for t in state.teams if t in top or t in extra)
    state = evolve(state, phase=OVER, winners=winners, log=logged(state, *words))
    return state, [*words, GameOver(reason, winners)]
