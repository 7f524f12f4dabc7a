"""The mechanics the phases share: temperament, refresh, help, damage, whose turn, the log."""

from __future__ import annotations

from dataclasses import replace

from games.core import Effect, IllegalInput, Reveal, say
from games.spacedogs import damage
from games.spacedogs.catalog import DOMESTICATED, ENRAGED, Catalog
from games.spacedogs.commands import Attack
from games.spacedogs.state import (
    ACTIVATION,
    DISCARD,
    GR,
    GREEN,
    PLAYERS,
    TRASHED,
    Activation,
    Dog,
    SDState,
)


def log(state: SDState, cat: Catalog, line: str) -> SDState:
    """Append a line to the table log (bounded by the data's log_lines)."""
    return replace(state, log=(*state.log, line)[-cat.numbers.log_lines:])


def side(cat: Catalog, dog: Dog) -> str | None:
    return cat.stance_side(dog.id, dog.stance) if dog.stance else None


def shift_temperament(state: SDState, cat: Catalog) -> tuple[SDState, list[Effect]]:
    """Temperament phase: one step toward the active stance's side; an end applies at once."""
    last = cat.numbers.scale_length - 1
    effects: list[Effect] = []
    for dog in state.dogs:
        s = side(cat, dog)
        if s is None:
            continue
        temper = max(0, dog.temper - 1) if s == "wild" else min(last, dog.temper + 1)
        stance = dog.stance
        if temper == 0 and dog.stance != ENRAGED:
            stance = ENRAGED
            effects.append(say("becomes_enraged", dog=dog.id))
        elif temper == last and dog.stance != DOMESTICATED:
            stance = DOMESTICATED
            effects.append(say("becomes_domesticated", dog=dog.id))
        state = state.with_dog(replace(dog, temper=temper, stance=stance))
        if stance != dog.stance:
            state = log(state, cat, f"{dog.id} is {stance}")
    return state, effects


def refresh(state: SDState) -> SDState:
    """Refresh phase: tokens green unless incapacitated or Enraged; enemy groups refreshed."""
    dogs = tuple(replace(d, acted=False, token=TRASHED if d.incapacitated or d.enraged else GREEN)
                 for d in state.dogs)
    groups = tuple(replace(g, activated=False) for g in state.groups)
    return replace(state, dogs=dogs, groups=groups, active=None, turn=PLAYERS)


def replacement_stance(cat: Catalog, dog: Dog, wanted: str) -> str:
    """The stance a helped dog swaps its Enraged/Domesticated stance for."""
    if wanted:
        if wanted not in dog.stances:
            raise IllegalInput("stance_not_taken", {"dog": dog.id, "stance": wanted})
        return wanted
    away = "tame" if dog.enraged else "wild"
    for stance in dog.stances:
        if cat.dogs[dog.id].stances[stance].side == away:
            return stance
    return dog.stances[0] if dog.stances else ""


def check_help(state: SDState, cat: Catalog, helper: str | None, target: str, wanted: str) -> None:
    dog = state.dog(target)
    if helper == target:
        raise IllegalInput("help_self", {"dog": target})
    if not dog.helpless:
        raise IllegalInput("help_not_needed", {"dog": target})
    if wanted and not (dog.enraged or dog.domesticated):
        raise IllegalInput("help_no_stance", {"dog": target})
    if dog.enraged or dog.domesticated:
        replacement_stance(cat, dog, wanted)


def help_dog(state: SDState, cat: Catalog, target: str, wanted: str) -> tuple[SDState, list[Effect]]:
    """Help: from an end of the scale one step toward Balanced and the stance swap; at 0 health +1.
    Both when both apply."""
    dog = state.dog(target)
    effects: list[Effect] = []
    if dog.enraged or dog.domesticated:
        step = 1 if dog.enraged else -1
        stance = replacement_stance(cat, dog, wanted)
        dog = replace(dog, temper=dog.temper + step, stance=stance)
        effects.append(say("helped_temper", dog=target, stance=stance or "none"))
    if dog.incapacitated:
        dog = replace(dog, health=1)
        effects.append(say("helped_health", dog=target))
    state = log(state.with_dog(dog), cat, f"{target} is helped")
    return state, effects


def check_attack(state: SDState, attack: Attack) -> None:
    for fig in attack.figures:
        if fig.group is not None and not state.group(fig.group).placed:
            raise IllegalInput("group_not_placed")  # no name: the table must not learn of it
        if fig.group is not None and state.group(fig.group).health[fig.index] == 0:
            raise IllegalInput("figure_defeated", {"figure": fig.name()})


def place_group(state: SDState, cat: Catalog, group_id: str) -> tuple[SDState, list[Effect]]:
    """The Scenario Book says to set up a waiting group: the table sees it from now on."""
    group = state.group(group_id)
    state = log(state.with_group(replace(group, placed=True)), cat, f"{group.name} ({group_id}) appear")
    effects: list[Effect] = [Reveal("enemies"), say("group_placed", group=group.name, figures=len(group.health))]
    if state.phase == ACTIVATION and state.exploring is None:
        state, more = settle(state, cat)
        effects += more
    return state, effects


def apply_attack(state: SDState, cat: Catalog, attack: Attack) -> tuple[SDState, list[Effect]]:
    """Each named figure receives (reductions apply) or suffers the full amount."""
    effects: list[Effect] = []
    for fig in attack.figures:
        if fig.dog is not None:
            dog = state.dog(fig.dog)
            lost = (damage.received(attack.amount, plating=dog.plating, cover=attack.cover,
                                    shields=attack.shields) if attack.receive else attack.amount)
            health = damage.suffer(dog.health, lost)
            state = state.with_dog(replace(dog, health=health))
            effects.append(say("dog_suffers", dog=dog.id, damage=lost, health=health))
            if health == 0 and not dog.incapacitated:
                effects.append(say("incapacitated", dog=dog.id))
                if state.active is not None and state.active.dog == dog.id:
                    state, more = end_activation(state, cat)
                    effects += more
            state = log(state, cat, f"{dog.id} suffers {lost} (health {health})")
        else:
            assert fig.group is not None
            group = state.group(fig.group)
            before = group.health[fig.index]
            lost = (damage.received(attack.amount, plating=group.plating, cover=attack.cover,
                                    shields=attack.shields) if attack.receive else attack.amount)
            after = damage.suffer(before, lost)
            figures = tuple(after if i == fig.index else h for i, h in enumerate(group.health))
            state = state.with_group(replace(group, health=figures))
            effects.append(say("enemy_suffers", figure=fig.name(), damage=lost, health=after))
            if after == 0 and before > 0:
                effects.append(say("enemy_defeated", figure=fig.name()))
            state = log(state, cat, f"{fig.name()} suffers {lost} (health {after})")
    if state.phase == ACTIVATION and state.exploring is None:
        state, more = settle(state, cat)
        effects += more
    return state, effects


def actions_for(cat: Catalog, dog: Dog) -> int:
    """Domesticated (and Enraged) dogs cannot gain actions."""
    return 0 if dog.domesticated or dog.enraged else cat.numbers.actions


def start_activation(state: SDState, cat: Catalog, dog_id: str) -> tuple[SDState, list[Effect]]:
    dog = state.dog(dog_id)
    actions = actions_for(cat, dog)
    state = replace(state, active=Activation(dog_id, actions), last_dog=dog_id)
    state = log(state, cat, f"{dog_id} activates")
    if actions == 0:
        state, effects = end_activation(state, cat)
        return state, [say("no_actions", dog=dog_id), *effects]
    return state, [say("dog_activates", dog=dog_id, actions=actions)]


def spend_action(state: SDState, cat: Catalog) -> tuple[SDState, list[Effect]]:
    assert state.active is not None
    left = state.active.actions - 1
    state = replace(state, active=replace(state.active, actions=left))
    if left == 0:
        return end_activation(state, cat)
    return state, []  # the prompt that follows says how many actions are left


def end_activation(state: SDState, cat: Catalog) -> tuple[SDState, list[Effect]]:
    """The dog's token goes to the trashed side; unused actions are lost; the GR's turn follows."""
    assert state.active is not None
    dog = state.dog(state.active.dog)
    state = state.with_dog(replace(dog, token=TRASHED, acted=True))
    state = replace(state, active=None, turn=GR)
    effects: list[Effect] = [say("activation_done", dog=dog.id)]
    state, more = settle(state, cat)
    return state, effects + more


def activate_group(state: SDState, cat: Catalog, group_id: str) -> tuple[SDState, list[Effect]]:
    group = state.group(group_id)
    state = state.with_group(replace(group, activated=True))
    state = replace(state, turn=PLAYERS)
    state = log(state, cat, f"{group_id} activated")
    effects: list[Effect] = [say("group_activated", group=group.name, figures=sum(1 for h in group.health if h),
                                 actions=cat.numbers.enemy_actions)]
    state, more = settle(state, cat)
    return state, effects + more


def settle(state: SDState, cat: Catalog) -> tuple[SDState, list[Effect]]:
    """Whose turn: the side due if it has figures left, else the other; none left ends the phase."""
    if state.phase != ACTIVATION or state.active is not None:
        return state, []
    dogs_left = any(d.can_activate for d in state.dogs)
    groups_left = any(g.can_activate for g in state.groups)
    if not dogs_left and not groups_left:
        state = log(replace(state, phase=DISCARD, turn=PLAYERS), cat, f"round {state.round}: every figure acted")
        return state, [say("all_acted")]
    if state.turn == PLAYERS and not dogs_left:
        state = replace(state, turn=GR)
    elif state.turn == GR and not groups_left:
        state = replace(state, turn=PLAYERS)
    return state, []
