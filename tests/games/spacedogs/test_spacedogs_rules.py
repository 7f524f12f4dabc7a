"""One test per rule the box keeps (docs/rules/spacedogs.md lists them with the rulebook's words)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from spacedogs_kit import Driver, keys

from games.core import Choose, Press, Reveal, SetupError, canonical_json
from games.spacedogs.catalog import DOMESTICATED, ENRAGED, catalog
from games.spacedogs.rules import GAME
from games.spacedogs.state import GREEN, TRASHED

CAT = catalog()
LAST = CAT.numbers.scale_length - 1
FULL = CAT.numbers.max_health


def test_one_team_button_per_dog_and_the_gr_audience() -> None:
    state = GAME.setup({"dogs": ["nova", "orion"]})
    assert GAME.teams(state) == (CAT.dogs["nova"].colour, CAT.dogs["orion"].colour, "gr")


def test_scenario_starts_with_full_health_balanced_temperament_green_tokens() -> None:
    state = GAME.setup({})
    assert [d.id for d in state.dogs] == list(CAT.dogs)
    assert all(d.health == FULL and d.temper == CAT.numbers.balanced and d.token == GREEN for d in state.dogs)


@pytest.mark.parametrize("options,key", [
    ({"dogs": []}, "dog_count"),
    ({"dogs": ["nova", "nova"]}, "bad_option"),
    ({"dogs": ["rex"]}, "bad_option"),
    ({"scenario": "s99"}, "bad_option"),
    ({"campaign": {"version": 1}}, "bad_campaign"),
    ({"dogs": ["nova"], "loadouts": {"orion": {}}}, "bad_option"),
])
def test_bad_options_are_refused_at_setup(options: dict, key: str) -> None:
    with pytest.raises(SetupError) as err:
        GAME.setup(options)
    assert err.value.key == key


def test_round_phases_in_order_with_ok() -> None:
    d = Driver({"dogs": ["nova"], "scenario": "s02"})
    seen = [d.state.phase]
    while d.state.phase != "activation":
        d.send(Press("ok"))
        seen.append(d.state.phase)
    assert seen == ["beginning", "temperament", "refresh", "draw", "activation"]
    assert "Sparks" in GAME.prompt(Driver({"scenario": "s02"}).state).ask.params["reminder"]


def test_temperament_shifts_one_step_toward_the_stance_side() -> None:
    d = Driver({"dogs": ["nova", "orion"]})  # nova_reckless is wild, orion_roar is wild
    s = d.state.with_dog(replace(d.state.dog("orion"), stance="orion_guard"))
    d.session.state = s
    d.send(Press("ok"))
    assert d.state.dog("nova").temper == CAT.numbers.balanced - 1
    assert d.state.dog("orion").temper == CAT.numbers.balanced + 1


def test_hitting_the_wild_end_enrages_at_once() -> None:
    d = Driver({"dogs": ["nova"]})
    d.session.state = d.state.with_dog(replace(d.state.dog("nova"), temper=1))
    effects = d.send(Press("ok"))
    assert d.state.dog("nova").temper == 0 and d.state.dog("nova").stance == ENRAGED
    assert "becomes_enraged" in keys(effects)


def test_hitting_the_tame_end_domesticates_at_once() -> None:
    d = Driver({"dogs": ["orion"]})
    d.session.state = d.state.with_dog(replace(d.state.dog("orion"), temper=LAST - 1, stance="orion_guard"))
    effects = d.send(Press("ok"))
    assert d.state.dog("orion").stance == DOMESTICATED and "becomes_domesticated" in keys(effects)


def test_refresh_skips_incapacitated_and_enraged_and_refreshes_groups() -> None:
    d = Driver({"dogs": ["nova", "orion", "cosmo"]})
    s = d.state.with_dog(replace(d.state.dog("nova"), health=0, token=TRASHED))
    s = s.with_dog(replace(s.dog("orion"), stance=ENRAGED, temper=1, token=TRASHED))
    s = s.with_dog(replace(s.dog("cosmo"), token=TRASHED, acted=True))
    s = s.with_group(replace(s.groups[0], activated=True))
    d.session.state = s
    d.run([Press("ok"), Press("ok")])
    assert d.state.phase == "refresh"
    assert [x.token for x in d.state.dogs] == [TRASHED, TRASHED, GREEN]
    assert not any(g.activated for g in d.state.groups)


def test_draw_phase_names_domesticated_and_enraged_dogs() -> None:
    d = Driver({"dogs": ["nova", "orion"]})
    s = d.state.with_dog(replace(d.state.dog("nova"), stance=ENRAGED, temper=0))
    d.session.state = s.with_dog(replace(s.dog("orion"), stance=DOMESTICATED, temper=LAST))
    effects = d.run([Press("ok")] * 3)
    assert d.state.phase == "draw"
    assert {"enraged_draw", "no_draw_domesticated"} <= set(keys(effects))
    assert GAME.prompt(d.state).ask.params["cards"] == CAT.numbers.hand_size


def test_activation_players_then_gr_alternating_two_actions_each() -> None:
    d = Driver({"dogs": ["nova", "orion"]})  # s01: thugs and a turret
    d.to_activation()
    assert d.state.turn == "players" and GAME.public_view(d.state)["turn"] is None
    d.send(Press("yellow"))
    assert d.state.active is not None and d.state.active.actions == CAT.numbers.actions
    d.run([Press("yellow")] * CAT.numbers.actions)  # the second action ends the activation
    assert d.state.dog("nova").token == TRASHED and d.state.turn == "gr"
    assert GAME.public_view(d.state)["turn"] == "gr"
    d.send(Press("ok"))  # the next group
    assert d.state.group("thugs").activated and d.state.turn == "players"
    d.run([Press("green"), Press("ok")])  # Orion ends early: the unused action is lost
    assert d.state.dog("orion").acted and d.state.turn == "gr"
    effects = d.send(Choose("activate:turret"))
    assert "all_acted" in keys(effects) and d.state.phase == "discard"


def test_a_dog_activates_once_per_round_and_the_refusal_changes_nothing() -> None:
    d = Driver({"dogs": ["nova", "orion"]})
    d.to_activation()
    d.run([Press("yellow"), Press("ok"), Press("ok")])
    assert d.refused(Press("yellow")).key == "dog_acted"


def test_when_one_side_is_out_the_other_goes_on() -> None:
    d = Driver({"dogs": ["nova"], "scenario": "s03"})  # two groups on the map against one dog
    d.to_activation()
    d.run([Press("yellow"), Press("ok")])
    d.send(Press("ok"))  # the goons; the players have no figure left
    assert d.state.turn == "gr" and d.state.phase == "activation"
    d.send(Press("ok"))  # the snipers; the queen waits off the map and does not count
    assert d.state.phase == "discard"


def test_a_waiting_group_is_the_gr_secret_until_placed() -> None:
    d = Driver({"dogs": ["nova"], "scenario": "s03"})
    assert not d.state.group("queen").placed
    assert "queen" not in canonical_json(GAME.public_view(d.state))
    assert "queen" in canonical_json(GAME.team_view(d.state, "gr"))
    assert d.refused(Choose("damage:queen.1:3:suffer")).key == "group_not_placed"
    d.to_activation()
    d.run([Press("yellow"), Press("ok")])
    effects = d.send(Choose("place:queen"))
    assert any(isinstance(e, Reveal) for e in effects) and "group_placed" in keys(effects)
    assert "Pirate Queen" in canonical_json(GAME.public_view(d.state))
    assert d.refused(Choose("place:queen")).key == "group_placed_already"
    d.run([Press("ok"), Press("ok")])
    assert d.state.phase == "activation" and d.state.turn == "gr"  # the queen acts this round too
    d.send(Choose("activate:queen"))
    assert d.state.phase == "discard"


def test_incapacitated_and_enraged_dogs_cannot_activate() -> None:
    d = Driver({"dogs": ["nova", "orion", "cosmo"]})
    d.to_activation()
    d.send(Choose("damage:nova:16:suffer"))
    assert d.refused(Press("yellow")).key == "dog_incapacitated"
    d.session.state = d.state.with_dog(replace(d.state.dog("orion"), stance=ENRAGED, temper=0))
    assert d.refused(Press("green")).key == "dog_enraged"


def test_domesticated_dog_gains_no_actions() -> None:
    d = Driver({"dogs": ["orion", "nova"]})
    d.to_activation()
    d.session.state = d.state.with_dog(replace(d.state.dog("orion"), stance=DOMESTICATED, temper=LAST))
    effects = d.send(Press("green"))
    assert "no_actions" in keys(effects) and d.state.dog("orion").acted and d.state.active is None


def test_stance_change_costs_an_action_and_shifts_only_next_round() -> None:
    d = Driver({"dogs": ["nova"]})
    d.to_activation()
    temper = d.state.dog("nova").temper
    d.run([Press("yellow"), Press("yellow", hold=True)])
    assert d.state.dog("nova").stance == "nova_steady" and d.state.dog("nova").temper == temper
    assert d.state.active is not None and d.state.active.actions == CAT.numbers.actions - 1
    d.send(Choose("stance:nova:nova_reckless"))
    assert d.state.active is None and d.state.dog("nova").stance == "nova_reckless"


def test_help_from_an_end_steps_toward_balanced_and_swaps_the_stance() -> None:
    d = Driver({"dogs": ["nova", "orion"]})
    d.to_activation()
    d.session.state = d.state.with_dog(replace(d.state.dog("orion"), stance=ENRAGED, temper=0, token=TRASHED))
    d.run([Press("yellow"), Press("green")])
    orion = d.state.dog("orion")
    assert orion.temper == 1 and orion.stance == "orion_guard"  # the tame stance he brought
    assert d.state.active is not None and d.state.active.actions == CAT.numbers.actions - 1


def test_help_at_zero_health_gives_one_and_both_apply() -> None:
    d = Driver({"dogs": ["nova", "orion"]})
    d.to_activation()
    d.session.state = d.state.with_dog(replace(d.state.dog("orion"), health=0, stance=DOMESTICATED, temper=LAST))
    d.run([Press("yellow"), Choose("help:orion:orion_roar")])
    orion = d.state.dog("orion")
    assert (orion.health, orion.temper, orion.stance) == (1, LAST - 1, "orion_roar")


def test_help_is_refused_for_a_dog_that_needs_none() -> None:
    d = Driver({"dogs": ["nova", "orion"]})
    d.to_activation()
    d.send(Press("yellow"))
    assert d.refused(Press("green")).key == "help_not_needed"


def test_suffered_damage_is_direct_and_cannot_be_reduced() -> None:
    d = Driver({"dogs": ["aurora"]})  # Heavy Metal: 1 plating
    d.send(Choose("damage:aurora:3:suffer"))
    assert d.state.dog("aurora").health == FULL - 3
    assert d.refused(Choose("damage:aurora:3:suffer:1:2")).key == "bad_command"


def test_plating_reduces_every_received_attack() -> None:
    d = Driver({"dogs": ["aurora"]})
    assert d.state.dog("aurora").plating == CAT.equipment["heavy_metal"].plating == 1
    d.run([Choose("damage:aurora:3:receive"), Choose("damage:aurora:3:receive")])
    assert d.state.dog("aurora").health == FULL - 4


def test_area_attack_hits_every_figure_named_with_the_full_damage() -> None:
    d = Driver({"dogs": ["nova", "orion"]})
    d.send(Choose("area:3:receive:nova+orion+thugs.1"))
    assert [x.health for x in d.state.dogs] == [FULL - 3, FULL - 3]
    assert d.state.group("thugs").health == (0, CAT.enemies["thug"].health)


def test_enemy_figures_have_health_and_a_defeated_figure_takes_no_damage() -> None:
    d = Driver({"dogs": ["nova"]})
    turret = CAT.enemies["turret"]
    d.send(Choose("damage:turret.1:3:receive"))  # its plating reduces
    assert d.state.group("turret").health == (turret.health - (3 - turret.plating),)
    effects = d.send(Choose(f"damage:turret.1:{turret.health}:suffer"))
    assert "enemy_defeated" in keys(effects)
    assert d.refused(Choose("damage:turret.1:1:suffer")).key == "figure_defeated"


@pytest.mark.parametrize("option", [
    "damage:orion:3:receive",  # orion is not playing
    "damage:nova:x:receive", "damage:nova:0:receive", "damage:nova:999:receive", "damage:nova:3:hit",
    "damage:thugs.9:1:suffer", "area:2:receive:nova+nova", "damage:nova:3:receive:2",
])
def test_malformed_commands_are_refused(option: str) -> None:
    d = Driver({"dogs": ["nova"]})
    assert d.refused(Choose(option)).key == "bad_command"


def test_a_command_the_phase_does_not_take_is_not_expected() -> None:
    d = Driver({"dogs": ["nova"]})
    assert d.refused(Choose("frobnicate")).key == "not_expected"
    assert d.refused(Choose("xp:nova:3")).key == "not_expected"  # rewards come after the end scene


def test_exploration_pauses_the_round_and_resumes_exactly() -> None:
    d = Driver({"dogs": ["nova", "orion", "cosmo"]})
    d.to_activation()
    d.run([Press("green"), Press("green")])  # Orion activates, spends one action
    paused = d.state
    d.send(Press("ok", hold=True))
    assert GAME.phase_of(d.state) == "exploration"
    assert d.state.exploring is not None and d.state.exploring.order == ("orion", "cosmo", "nova")
    assert d.refused(Press("yellow", hold=True)).key  # not Nova's go: Orion (last active) starts
    d.run([Press("green"), Press("blue", hold=True)])
    d.session.state = d.state.with_dog(replace(d.state.dog("orion"), health=0))
    d.send(Press("green"))  # Nova helps Orion back to 1 health
    assert d.state.dog("orion").health == 1
    d.send(Choose("explore:end"))
    resumed = d.state
    assert (resumed.phase, resumed.active, resumed.turn) == (paused.phase, paused.active, paused.turn)
    assert [x.token for x in resumed.dogs] == [x.token for x in paused.dogs]


def test_item_limit_is_one() -> None:
    d = Driver({"dogs": ["nova"]})
    d.send(Choose("item:nova:stim"))
    assert d.refused(Choose("item:nova:grenade")).key == "item_limit"
    assert d.refused(Choose("item:nova:use")).key == "item_in_activation"
    d.send(Choose("item:nova:drop"))
    d.send(Choose("item:nova:grenade"))
    assert d.state.dog("nova").item == "grenade"


def test_enemy_groups_come_from_the_scenario_with_upgrades() -> None:
    campaign = GAME.campaign_initial()
    assert campaign is not None
    campaign = {**campaign, "upgrades": ["thug_tough"]}
    state = GAME.setup({"scenario": "s01", "campaign": campaign})
    thugs = state.group("thugs")
    assert thugs.health == (CAT.enemies["thug"].health + 1,) * 2 and not thugs.activated


@pytest.mark.parametrize("change,key", [
    ({"weapon": "heavy_metal"}, "loadout_slot"),
    ({"weapon": "acid_sprayer"}, "loadout_locked"),
    ({"powers": ["nova_dash", "nova_loot", "nova_blast"]}, "loadout_powers"),
    ({"stances": ["aurora_tinker"]}, "loadout_unknown"),
])
def test_loadout_rules(change: dict, key: str) -> None:
    base = {"weapon": "blaster", "armor": "flak_vest", "tool": "grapple", "powers": [], "stances": []}
    with pytest.raises(SetupError) as err:
        GAME.setup({"dogs": ["nova"], "loadouts": {"nova": {**base, **change}}})
    assert err.value.key == key


def test_each_equipment_goes_with_one_dog() -> None:
    nova = {"weapon": "blaster", "armor": "flak_vest", "tool": "grapple", "powers": [], "stances": []}
    cosmo = {**nova, "weapon": "shock_baton"}
    with pytest.raises(SetupError) as err:
        GAME.setup({"dogs": ["nova", "cosmo"], "loadouts": {"nova": nova, "cosmo": cosmo}})
    assert err.value.key == "loadout_shared"


def test_any_number_of_stances_within_the_points() -> None:
    many = {"weapon": "blaster", "armor": "flak_vest", "tool": "grapple", "powers": [],
            "stances": ["nova_reckless", "nova_steady", "nova_frenzy"]}
    state = GAME.setup({"dogs": ["nova"], "loadouts": {"nova": many}})
    assert len(state.dog("nova").stances) == 3


def test_goals_stay_with_the_gr_until_the_end_scene() -> None:
    d = Driver({"dogs": ["nova"]})
    d.send(Choose("goal:s01a"))
    text = CAT.scenarios["s01"].goals[0].text
    assert text in GAME.secrets(d.state)
    assert text not in canonical_json(GAME.public_view(d.state))
    assert text not in canonical_json(GAME.team_view(d.state, "yellow"))
    assert text in canonical_json(GAME.team_view(d.state, "gr"))
    assert GAME.team_view(d.state, "gr")["xp"] == CAT.scenarios["s01"].goals[0].xp
    effects = d.send(Choose("end"))
    assert any(isinstance(e, Reveal) for e in effects) and GAME.secrets(d.state) == frozenset()
    assert text in canonical_json(GAME.public_view(d.state))


def test_rewards_need_the_story_choice_and_update_the_campaign() -> None:
    d = Driver({"dogs": ["nova", "orion"]})
    d.run([Choose("goal:s01b"), Choose("end"), Choose("xp:nova:12"), Choose("xp:orion:3")])
    assert d.refused(Press("ok")).key == "story_needed"
    assert d.refused(Choose("upgrade:turret_core")).key == "not_enough_xp"  # 3 XP earned, costs 5
    d.run([Choose("upgrade:thug_tough"), Choose("story:spare"), Press("ok")])
    assert GAME.is_over(d.state)
    after = GAME.campaign_after(d.state)
    assert after is not None
    assert after["scenarios"] == ["s01"] and after["choices"] == {"s01": "spare"}
    assert after["dogs"]["nova"] == {"xp": 12, "level": CAT.level_for(12)} and CAT.level_for(12) == 10
    assert after["gr_xp"] == 0 and after["upgrades"] == ["thug_tough"]
    assert "acid_sprayer" in after["unlocked"] and after["stickers"] == ["sharp_edge"]
    assert GAME.campaign_check(after) == after
