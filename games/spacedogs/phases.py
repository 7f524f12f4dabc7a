"""The phase table's functions: what the box asks in each phase, what it accepts, what follows.

Rows: the seven phases of the round (Beginning .. End, advanced with OK; Activation by turns),
Exploration Mode (a pause of the round), and the rewards after the end scene. Commands typed on a
dashboard (games/spacedogs/commands.py) are accepted wherever the rulebook lets them happen.
"""

from __future__ import annotations

from dataclasses import replace

from games.core import (
    OK,
    ChanceRequest,
    Choose,
    Effect,
    GameOver,
    IllegalInput,
    Input,
    Outcomes,
    Press,
    Prompt,
    Reveal,
    Sound,
    say,
)
from games.spacedogs import play
from games.spacedogs.catalog import Catalog, catalog
from games.spacedogs.commands import Attack, Command, parse
from games.spacedogs.state import (
    ACTIVATION,
    BEGINNING,
    DRAW,
    END,
    GR,
    OVER,
    PLAYERS,
    REFRESH,
    REWARDS,
    ROUND,
    TEMPERAMENT,
    Exploration,
    SDState,
)

NO_CHANCE: tuple[ChanceRequest, ...] = ()
ROUND_COMMANDS = ("choose:damage:*", "choose:area:*", "choose:goal:*", "choose:item:*", "choose:place:*",
                  "choose:end")
REWARD_COMMANDS = ("choose:goal:*", "choose:xp:*", "choose:story:*", "choose:upgrade:*")


def _colour(state: SDState, dog: str) -> str:
    return state.dog(dog).colour


def _dog_of(state: SDState, colour: str) -> str | None:
    for d in state.dogs:
        if d.colour == colour:
            return d.id
    return None


def _refuse_press(inp: Input) -> IllegalInput:
    return IllegalInput("not_now", {"input": inp.button if isinstance(inp, Press) else "choose"})


# --- commands shared by the round's phases and exploration -------------------------------------


def check_command(state: SDState, option: str, cat: Catalog, allowed: tuple[str, ...]) -> Attack | Command:
    cmd = parse(option, state, cat)
    verb = "damage" if isinstance(cmd, Attack) else cmd.verb
    if verb not in allowed:
        raise IllegalInput("command_not_now", {"command": verb})
    if isinstance(cmd, Attack):
        play.check_attack(state, cmd)
    elif cmd.verb == "goal":
        if not any(g.id == cmd.target for g in state.goals):
            raise IllegalInput("bad_command", {"option": option, "reason": "no such goal"})
    elif cmd.verb == "item":
        _check_item(state, cat, cmd)
    elif cmd.verb == "explore" and (cmd.value == "end") != (state.exploring is not None):
        raise IllegalInput("command_not_now", {"command": f"explore:{cmd.value}"})
    elif cmd.verb == "place" and (
            not any(g.id == cmd.target for g in state.groups) or state.group(cmd.target).placed):
        raise IllegalInput("group_placed_already", {"group": cmd.target})
    return cmd


def _check_item(state: SDState, cat: Catalog, cmd: Command) -> None:
    dog = state.dog(cmd.target)
    if cmd.value in ("drop", "use"):
        if dog.item is None:
            raise IllegalInput("no_item", {"dog": dog.id})
        if cmd.value == "use" and (state.active is None or state.active.dog != dog.id):
            raise IllegalInput("item_in_activation", {"dog": dog.id})
    elif cmd.value not in cat.items:
        raise IllegalInput("bad_command", {"option": f"item:{dog.id}:{cmd.value}", "reason": "no such item"})
    elif dog.item is not None:
        raise IllegalInput("item_limit", {"dog": dog.id, "item": dog.item})


def apply_command(state: SDState, cmd: Attack | Command, cat: Catalog) -> tuple[SDState, list[Effect]]:
    if isinstance(cmd, Attack):
        return play.apply_attack(state, cat, cmd)
    if cmd.verb == "goal":
        goals = tuple(replace(g, achieved=not g.achieved) if g.id == cmd.target else g for g in state.goals)
        return replace(state, goals=goals), [Sound("confirm")]  # silent: the goals are secret
    if cmd.verb == "item":
        dog = state.dog(cmd.target)
        item = None if cmd.value in ("drop", "use") else cmd.value
        key = {"drop": "item_dropped", "use": "item_used"}.get(cmd.value, "item_taken")
        state = play.log(state.with_dog(replace(dog, item=item)), cat, f"{dog.id}: {key.replace('_', ' ')}")
        return state, [say(key, dog=dog.id, item=cat.items.get(item or dog.item or "", ""))]
    if cmd.verb == "explore":
        return (start_exploration(state, cat) if cmd.value == "start" else end_exploration(state, cat))
    if cmd.verb == "end":
        return end_scenario(state, cat)
    if cmd.verb == "stance":
        return change_stance(state, cat, cmd.value)
    if cmd.verb == "help":
        return give_help(state, cat, cmd.target, cmd.value)
    if cmd.verb == "activate":
        return play.activate_group(state, cat, cmd.target)
    if cmd.verb == "place":
        return play.place_group(state, cat, cmd.target)
    return apply_reward(state, cat, cmd)


# --- Beginning, Temperament, Refresh, Draw, Discard, End: spoken, advanced with OK ------------


def step_prompt(state: SDState) -> Prompt:
    cat = catalog()
    params: dict[str, object] = {"round": state.round}
    if state.phase == BEGINNING:
        params["reminder"] = cat.scenarios[state.scenario].reminder
    if state.phase == DRAW:
        params["cards"] = cat.numbers.hand_size
    return Prompt(say(f"phase_{state.phase}", **params),
                  accepts=("press:ok", "hold:ok", *ROUND_COMMANDS, "choose:explore"), lights=(OK,))


def step_check(state: SDState, inp: Input) -> tuple[ChanceRequest, ...]:
    if isinstance(inp, Choose):
        check_command(state, inp.option, catalog(), ("damage", "goal", "item", "place", "explore", "end"))
    return NO_CHANCE


def step_apply(state: SDState, inp: Input, outcomes: Outcomes) -> tuple[SDState, list[Effect]]:
    cat = catalog()
    if isinstance(inp, Choose):
        return apply_command(state, parse(inp.option, state, cat), cat)
    assert isinstance(inp, Press)
    if inp.hold:
        return start_exploration(state, cat)
    return advance(state, cat)


def advance(state: SDState, cat: Catalog) -> tuple[SDState, list[Effect]]:
    """OK: the next phase of the round, with what happens as it begins."""
    if state.phase == END:
        state = replace(state, phase=BEGINNING, round=state.round + 1)
        return play.log(state, cat, f"round {state.round}"), []
    nxt = ROUND[ROUND.index(state.phase) + 1]
    state = replace(state, phase=nxt)
    effects: list[Effect] = []
    if nxt == TEMPERAMENT:
        state, effects = play.shift_temperament(state, cat)
    elif nxt == REFRESH:
        state = play.refresh(state)
    elif nxt == DRAW:
        for dog in state.dogs:
            if dog.domesticated:
                effects.append(say("no_draw_domesticated", dog=dog.id))
            elif dog.enraged:
                effects.append(say("enraged_draw", dog=dog.id))
    elif nxt == ACTIVATION:
        state = replace(state, turn=PLAYERS)
        state, effects = play.settle(state, cat)
    return state, effects


def step_legal(state: SDState) -> list[Input]:
    return [Press(OK), Press(OK, hold=True), *command_samples(state)]


def command_samples(state: SDState) -> list[Input]:
    """A few of the Game Runner's commands that are legal now (random play and tests)."""
    out: list[Input] = []
    for dog in state.dogs:
        out.append(Choose(f"damage:{dog.id}:3:receive:1:1"))
        out.append(Choose(f"damage:{dog.id}:2:suffer"))
    for group in state.groups:
        if not group.placed:
            out.append(Choose(f"place:{group.id}"))
            continue
        for i, h in enumerate(group.health):
            if h:
                out.append(Choose(f"damage:{group.id}.{i + 1}:2:receive"))
    out.append(Choose("area:2:receive:" + "+".join(d.id for d in state.dogs)))
    out += [Choose(f"goal:{g.id}") for g in state.goals]
    out.append(Choose("end"))
    return out


# --- Activation: players, then the Game Runner, alternating -----------------------------------


def activation_prompt(state: SDState) -> Prompt:
    common = (*ROUND_COMMANDS, "choose:explore", "hold:ok")
    if state.active is not None:
        dog = state.dog(state.active.dog)
        others = tuple(f"press:{d.colour}" for d in state.dogs if d.id != dog.id)
        return Prompt(say("activation_turn", dog=dog.id, actions=state.active.actions),
                      accepts=(f"press:{dog.colour}", f"hold:{dog.colour}", *others, "press:ok",
                               "choose:stance:*", "choose:help:*", *common),
                      lights=(dog.colour, OK))
    if state.turn == GR:
        return Prompt(say("gr_turn", groups=sum(1 for g in state.groups if g.can_activate)),
                      accepts=("press:ok", "choose:activate:*", *common), lights=(OK,))
    ready = tuple(d.colour for d in state.dogs if d.can_activate)
    return Prompt(say("players_turn", dogs=len(ready)),
                  accepts=(*(f"press:{d.colour}" for d in state.dogs), *common), lights=ready)


def activation_check(state: SDState, inp: Input) -> tuple[ChanceRequest, ...]:
    cat = catalog()
    if isinstance(inp, Choose):
        allowed = ["damage", "goal", "item", "place", "explore", "end"]
        if state.active is not None:
            allowed += ["stance", "help"]
        if state.active is None and state.turn == GR:
            allowed.append("activate")
        cmd = check_command(state, inp.option, cat, tuple(allowed))
        if isinstance(cmd, Command):
            _check_activation_command(state, cat, cmd)
        return NO_CHANCE
    assert isinstance(inp, Press)
    if inp.button == OK:
        return NO_CHANCE  # end this activation / activate the next group / explore (hold)
    dog = _dog_of(state, inp.button)
    assert dog is not None
    if state.active is None:
        d = state.dog(dog)
        if not d.can_activate:
            key = "dog_incapacitated" if d.incapacitated else "dog_enraged" if d.enraged else "dog_acted"
            raise IllegalInput(key, {"dog": dog})
    elif dog == state.active.dog:
        if inp.hold:
            _next_stance(state)
    else:
        play.check_help(state, cat, state.active.dog, dog, "")
    return NO_CHANCE


def _check_activation_command(state: SDState, cat: Catalog, cmd: Command) -> None:
    if cmd.verb == "stance":
        assert state.active is not None
        if cmd.target != state.active.dog:
            raise IllegalInput("not_your_activation", {"dog": cmd.target})
        dog = state.dog(cmd.target)
        if cmd.value not in dog.stances or cmd.value == dog.stance:
            raise IllegalInput("stance_not_taken", {"dog": dog.id, "stance": cmd.value})
    elif cmd.verb == "help":
        assert state.active is not None
        play.check_help(state, cat, state.active.dog, cmd.target, cmd.value)
    elif cmd.verb == "activate" and (
            not any(g.id == cmd.target for g in state.groups) or not state.group(cmd.target).can_activate):
        raise IllegalInput("group_cannot_activate", {"group": cmd.target})


def _next_stance(state: SDState) -> str:
    assert state.active is not None
    dog = state.dog(state.active.dog)
    others = [s for s in dog.stances if s != dog.stance]
    if not others:
        raise IllegalInput("no_other_stance", {"dog": dog.id})
    if dog.stance in dog.stances:
        i = dog.stances.index(dog.stance)
        return dog.stances[(i + 1) % len(dog.stances)]
    return others[0]


def change_stance(state: SDState, cat: Catalog, stance: str) -> tuple[SDState, list[Effect]]:
    """Activate Stance (one action): the abilities apply now, the temperament shifts next round."""
    assert state.active is not None
    dog = state.dog(state.active.dog)
    state = play.log(state.with_dog(replace(dog, stance=stance)), cat, f"{dog.id} takes stance {stance}")
    state, effects = play.spend_action(state, cat)
    return state, [say("stance_changed", dog=dog.id, stance=stance), *effects]


def give_help(state: SDState, cat: Catalog, target: str, wanted: str) -> tuple[SDState, list[Effect]]:
    state, effects = play.help_dog(state, cat, target, wanted)
    if state.exploring is not None:
        return next_explorer(state, cat, effects)
    more: list[Effect] = []
    if state.active is not None:
        state, more = play.spend_action(state, cat)
    return state, effects + more


def activation_apply(state: SDState, inp: Input, outcomes: Outcomes) -> tuple[SDState, list[Effect]]:
    cat = catalog()
    if isinstance(inp, Choose):
        return apply_command(state, parse(inp.option, state, cat), cat)
    assert isinstance(inp, Press)
    if inp.button == OK:
        if inp.hold:
            return start_exploration(state, cat)
        if state.active is not None:
            return play.end_activation(state, cat)
        group = next(g for g in state.groups if g.can_activate)
        return play.activate_group(state, cat, group.id)
    dog = _dog_of(state, inp.button)
    assert dog is not None
    if state.active is None:
        return play.start_activation(state, cat, dog)
    if dog == state.active.dog:
        if inp.hold:
            return change_stance(state, cat, _next_stance(state))
        state = play.log(state, cat, f"{dog} takes an action")
        return play.spend_action(state, cat)
    return give_help(state, cat, dog, "")


def activation_legal(state: SDState) -> list[Input]:
    out: list[Input] = []
    cat = catalog()
    if state.active is not None:
        dog = state.dog(state.active.dog)
        out += [Press(dog.colour), Press(OK)]
        if len(dog.stances) > 1 or (dog.stances and dog.stance not in dog.stances):
            out.append(Press(dog.colour, hold=True))
        for other in state.dogs:
            if other.id != dog.id and other.helpless:
                out.append(Press(other.colour))
    elif state.turn == GR:
        out.append(Press(OK))
        out += [Choose(f"activate:{g.id}") for g in state.groups if g.can_activate]
    else:
        out += [Press(d.colour) for d in state.dogs if d.can_activate]
    out.append(Press(OK, hold=True))
    out += command_samples(state)
    return [i for i in out if _accepted(state, i, cat)]


def _accepted(state: SDState, inp: Input, cat: Catalog) -> bool:
    try:
        activation_check(state, inp) if state.exploring is None else explore_check(state, inp)
    except IllegalInput:
        return False
    return True


# --- Exploration Mode: the round paused ---------------------------------------------------------


def start_exploration(state: SDState, cat: Catalog) -> tuple[SDState, list[Effect]]:
    """Clockwise from the last active player (the first dog seated if none has been active)."""
    ids = [d.id for d in state.dogs]
    first = ids.index(state.last_dog) if state.last_dog in ids else 0
    order = tuple(ids[first:] + ids[:first])
    state = play.log(replace(state, exploring=Exploration(order)), cat, "exploration mode")
    state = _skip_incapacitated(state)
    return state, [say("exploration_starts")]


def _skip_incapacitated(state: SDState) -> SDState:
    ex = state.exploring
    assert ex is not None
    for step in range(len(ex.order)):
        if not state.dog(ex.order[(ex.index + step) % len(ex.order)]).incapacitated:
            return replace(state, exploring=replace(ex, index=(ex.index + step) % len(ex.order)))
    return state


def next_explorer(state: SDState, cat: Catalog, effects: list[Effect]) -> tuple[SDState, list[Effect]]:
    ex = state.exploring
    assert ex is not None
    state = replace(state, last_dog=ex.current, exploring=replace(ex, index=(ex.index + 1) % len(ex.order)))
    return _skip_incapacitated(state), effects


def end_exploration(state: SDState, cat: Catalog) -> tuple[SDState, list[Effect]]:
    """The round resumes exactly where it was paused (hands and tokens as they were)."""
    state = play.log(replace(state, exploring=None), cat, "exploration ends")
    state, effects = play.settle(state, cat)
    return state, [say("exploration_ends", phase=state.phase), *effects]


def _explorer(state: SDState) -> str | None:
    ex = state.exploring
    assert ex is not None
    return None if state.dog(ex.current).incapacitated else ex.current


def explore_prompt(state: SDState) -> Prompt:
    explorer = _explorer(state)
    common = ("choose:damage:*", "choose:area:*", "choose:goal:*", "choose:item:*", "choose:place:*",
              "choose:end", "choose:explore:end", "hold:ok")
    if explorer is None:
        return Prompt(say("explore_nobody"), accepts=common, lights=(OK,))
    colour = _colour(state, explorer)
    others = tuple(f"press:{d.colour}" for d in state.dogs if d.id != explorer)
    return Prompt(say("explore_turn", dog=explorer),
                  accepts=(f"press:{colour}", f"hold:{colour}", *others, "choose:help:*", *common),
                  lights=(colour,))


def explore_check(state: SDState, inp: Input) -> tuple[ChanceRequest, ...]:
    cat = catalog()
    explorer = _explorer(state)
    if isinstance(inp, Choose):
        allowed = ("damage", "goal", "item", "place", "explore", "end", *(("help",) if explorer else ()))
        cmd = check_command(state, inp.option, cat, allowed)
        if isinstance(cmd, Command) and cmd.verb == "help":
            play.check_help(state, cat, explorer, cmd.target, cmd.value)
        return NO_CHANCE
    assert isinstance(inp, Press)
    if inp.button == OK:
        return NO_CHANCE
    dog = _dog_of(state, inp.button)
    if dog is not None and dog != explorer:
        play.check_help(state, cat, explorer, dog, "")
    return NO_CHANCE


def explore_apply(state: SDState, inp: Input, outcomes: Outcomes) -> tuple[SDState, list[Effect]]:
    cat = catalog()
    if isinstance(inp, Choose):
        return apply_command(state, parse(inp.option, state, cat), cat)
    assert isinstance(inp, Press)
    if inp.button == OK:
        return end_exploration(state, cat)
    dog = _dog_of(state, inp.button)
    explorer = _explorer(state)
    assert dog is not None and explorer is not None
    if dog == explorer:
        key = "explore_interact" if inp.hold else "explore_move"
        state = play.log(state, cat, f"{dog}: {'interact' if inp.hold else 'move 1'}")
        return next_explorer(state, cat, [say(key, dog=dog)])
    return give_help(state, cat, dog, "")


def explore_legal(state: SDState) -> list[Input]:
    out: list[Input] = [Press(OK, hold=True)]
    explorer = _explorer(state)
    if explorer is not None:
        colour = _colour(state, explorer)
        out += [Press(colour), Press(colour, hold=True)]
        out += [Press(d.colour) for d in state.dogs if d.id != explorer and d.helpless]
    out += command_samples(state)
    return [i for i in out if _accepted(state, i, catalog())]


# --- The end scene and the rewards ---------------------------------------------------------------


def end_scenario(state: SDState, cat: Catalog) -> tuple[SDState, list[Effect]]:
    """The end scene: the Game Runner's hidden agenda goals are revealed to all."""
    state = replace(state, phase=REWARDS, exploring=None, active=None, revealed=True)
    state = play.log(state, cat, "the scenario ends")
    effects: list[Effect] = [Reveal("agenda"), Sound("fanfare"), say("scenario_ends")]
    for goal in state.goals:
        effects.append(say("goal_achieved" if goal.achieved else "goal_missed", goal=goal.text, xp=goal.xp))
    return state, effects


def rewards_prompt(state: SDState) -> Prompt:
    return Prompt(say("rewards", xp=state.gr_earned()), accepts=("press:ok", *REWARD_COMMANDS), lights=(OK,))


def rewards_check(state: SDState, inp: Input) -> tuple[ChanceRequest, ...]:
    cat = catalog()
    spec = cat.scenarios[state.scenario]
    if isinstance(inp, Press):
        if spec.choices and state.choice is None:
            raise IllegalInput("story_needed", {"choices": " / ".join(spec.choices)})
        return NO_CHANCE
    assert isinstance(inp, Choose)
    cmd = check_command(state, inp.option, cat, ("goal", "xp", "story", "upgrade"))
    assert isinstance(cmd, Command)
    if cmd.verb == "story" and cmd.target not in spec.choices:
        raise IllegalInput("bad_command", {"option": inp.option, "reason": "not a choice of this scenario"})
    if cmd.verb == "upgrade":
        if cmd.target not in cat.upgrades:
            raise IllegalInput("bad_command", {"option": inp.option, "reason": "no such upgrade"})
        if cat.upgrades[cmd.target].cost > gr_available(state, cat):
            raise IllegalInput("not_enough_xp", {"cost": cat.upgrades[cmd.target].cost,
                                                 "xp": gr_available(state, cat)})
    return NO_CHANCE


def gr_available(state: SDState, cat: Catalog) -> int:
    return state.campaign.gr_xp + state.gr_earned() - sum(cat.upgrades[u].cost for u in state.bought)


def apply_reward(state: SDState, cat: Catalog, cmd: Command) -> tuple[SDState, list[Effect]]:
    if cmd.verb == "xp":
        awarded = dict(state.awarded)
        awarded[cmd.target] = cmd.number
        state = replace(state, awarded=tuple(sorted(awarded.items())))
        return state, [say("xp_entered", dog=cmd.target, xp=cmd.number)]
    if cmd.verb == "story":
        return replace(state, choice=cmd.target), [say("story_chosen", choice=cmd.target)]
    assert cmd.verb == "upgrade"
    state = replace(state, bought=(*state.bought, cmd.target))
    return state, [say("upgrade_bought", upgrade=cat.upgrades[cmd.target].text)]


def rewards_apply(state: SDState, inp: Input, outcomes: Outcomes) -> tuple[SDState, list[Effect]]:
    cat = catalog()
    if isinstance(inp, Choose):
        return apply_command(state, parse(inp.option, state, cat), cat)
    state = play.log(replace(state, phase=OVER), cat, "rewards recorded")
    return state, [say("campaign_saved", gr_xp=state.gr_earned()), GameOver("scenario_complete")]


def rewards_legal(state: SDState) -> list[Input]:
    cat = catalog()
    spec = cat.scenarios[state.scenario]
    out: list[Input] = [Choose(f"xp:{d.id}:{n}") for d in state.dogs for n in (0, 3)]
    out += [Choose(f"story:{c}") for c in spec.choices]
    out += [Choose(f"upgrade:{u}") for u in cat.upgrades]
    out += [Choose(f"goal:{g.id}") for g in state.goals]
    out.append(Press(OK))
    legal = []
    for inp in out:
        try:
            rewards_check(state, inp)
        except IllegalInput:
            continue
        legal.append(inp)
    return legal
