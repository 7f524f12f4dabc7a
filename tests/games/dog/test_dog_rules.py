"""Here Comes the Dog, rule by rule, from the rulebook (shared/rulebooks/here-comes-the-dog.txt)."""

import random
import re
from pathlib import Path

import pytest
from dog_kit import TEAMS4, Table, keys, line

from games.core import (
    BadOutcome,
    Chance,
    Choose,
    GameOver,
    IllegalInput,
    Light,
    NotExpected,
    NothingToUndo,
    Press,
    Say,
    SetupError,
    check_outcomes,
)
from games.data import messages
from games.dog.dice import classify, load_dice, read_roll
from games.dog.events import assault_count, feed_count
from games.dog.rules import GAME
from games.dog.state import EXCHANGE, ORDER, OVER, STEAL, TAKE, TURN, VICTIM
from games.dog.views import words
from games.session import Session

GAMES_DOG = Path(__file__).resolve().parents[3] / "games" / "dog"

# --- the rulebook's two examples -----------------------------------------------------------


def test_example_feed_five_meat_tame_two_dogs_one_wasted():
    assert feed_count(5, 25) == (2, 1)
    t = Table(("blue", "red"))
    t.set(hands=((5, 0, 0), (0, 0, 0)), bonfire=(1, 7, 5), current=0)
    effects = t.roll("meat", "meat", "charcoal")  # the only meat left is taken: the round ends, Feed
    assert t.state.phase == TAKE
    effects = t.submit(Choose("take:meat+charcoal"))
    blue = line(effects, "feed_player")[0]
    assert blue == {"team": "blue", "meat": 6, "tamed": 3, "wasted": 0}
    # the example itself, as the round end counts it, and spoken in one sentence
    t = Table(("blue", "red"))
    t.set(hands=((4, 0, 0), (0, 1, 0)), bonfire=(1, 6, 5))
    t.roll("meat", "fire", "fire")
    effects = t.submit(Choose("take:meat+fire"))
    assert "round_end_feed" in keys(effects)
    blue = next(e for e in effects if isinstance(e, Say) and e.key == "feed_player")
    assert dict(blue.params) == {"team": "blue", "meat": 5, "tamed": 2, "wasted": 1}
    assert words(blue) == "Blue: 5 meat, 2 dogs tamed, 1 wasted."
    assert t.state.dogs == (2, 0) and t.state.pack == 23


def test_example_assault_five_meat_two_fire_two_charcoal_one_villager_faints():
    assert assault_count((5, 2, 2)) == (2, 2, 1)
    t = Table(("blue", "red"))
    t.set(hands=((5, 1, 2), (0, 0, 0)), bonfire=(4, 1, 3))
    t.roll("charcoal", "meat", "meat")
    effects = t.submit(Choose("take:meat+charcoal"))
    assert "round_end_assault" in keys(effects)
    # blue took meat + charcoal: 6 meat, 2 charcoal, 2 fire -> 6 dogs, 3 by meat, 2 by pairs, 1 faints
    assert line(effects, "assault_player")[0] == {"team": "blue", "dogs": 6, "by_meat": 3, "by_pairs": 2,
                                                  "faint": 1}
    t = Table(("blue", "red"))
    t.set(hands=((5, 1, 2), (0, 0, 0)), bonfire=(4, 1, 3))
    effects = t.roll("charcoal", "fire", "fire")
    effects = t.submit(Choose("take:charcoal+fire"))
    blue = line(effects, "assault_player")[0]
    assert blue == {"team": "blue", "dogs": 5, "by_meat": 2, "by_pairs": 2, "faint": 1}
    assert t.state.villagers == (2, 3)


# --- set-up -------------------------------------------------------------------------------


def test_play_order_by_team_buttons_then_ok():
    s = Session.start(GAME, {})
    assert s.state.phase == ORDER
    with pytest.raises(IllegalInput) as err:
        s.check(Press("ok"))
    assert err.value.key == "too_few_players"
    for n, colour in enumerate(("green", "red", "blue"), 1):
        s.submit(Press(colour), {}, n)
    with pytest.raises(IllegalInput) as err:
        s.check(Press("red"))
    assert err.value.key == "already_in_order"
    effects = s.submit(Press("ok"), {}, 4)
    assert s.state.teams == ("green", "red", "blue") and s.state.phase == TURN
    assert s.state.bonfire == (9, 7, 5) and s.state.pack == 25 and s.state.round == 1
    assert s.state.villagers == (3, 3, 3) and s.state.dogs == (0, 0, 0)
    assert s.state.team() == "green"
    assert "play_order_3" in keys(effects)


def test_a_fifth_player_is_refused_with_the_reason():
    s = Session.start(GAME, {})
    for n, colour in enumerate(TEAMS4, 1):
        s.submit(Press(colour), {}, n)
    with pytest.raises(IllegalInput) as err:
        s.check(Press("purple"))
    assert err.value.key == "too_many_players" and err.value.params["max"] == 4
    with pytest.raises(SetupError) as err:
        GAME.setup({"teams": [*TEAMS4, "purple"]})
    assert err.value.key == "too_many_players"
    with pytest.raises(SetupError):
        GAME.setup({"teams": ["red"]})
    with pytest.raises(SetupError):
        GAME.setup({"teams": ["red", "red"]})
    with pytest.raises(SetupError):
        GAME.setup({"rounds": 0})


@pytest.mark.parametrize("teams", [("red", "blue"), TEAMS4])
def test_two_and_four_players_take_turns_in_order(teams):
    t = Table(teams)
    seen = []
    for _ in range(len(teams) + 1):
        seen.append(t.state.team())
        t.roll("meat", "fire", "fire")
        t.press("ok")
    assert seen == [*teams, teams[0]]
    assert GAME.prompt(t.state).lights == (teams[1], "ok")


# --- a turn: rolling and taking -----------------------------------------------------------


def test_a_roll_is_three_uniform_chance_requests_and_lights_the_slots():
    t = Table()
    assert t.session.check(Press("ok")) == tuple(Chance(f"die_{n}", (1,) * 6) for n in "ABC")
    effects = t.roll("meat", "charcoal", "charcoal")
    lights = {e.target: e.colour for e in effects if isinstance(e, Light)}
    assert lights == {"slot:A": "tan", "slot:B": "dim-white", "slot:C": "dim-white"}
    assert t.state.phase == TAKE and t.state.offers == ("meat+charcoal", "charcoal+charcoal")


def test_cycling_offers_with_the_team_button_and_ok_takes():
    t = Table()
    t.roll("meat", "charcoal", "charcoal")
    assert GAME.prompt(t.state).ask.key == "take_offer_two"
    t.press("red")
    assert GAME.prompt(t.state).ask.key == "take_offer_pair"
    t.press("red")
    assert t.state.pick == 0
    t.press("red")
    t.press("ok")
    assert t.state.hands[0] == (0, 2, 0) and t.state.bonfire == (9, 5, 5)
    assert t.state.phase == TURN and t.state.team() == "blue"


def test_a_colour_gone_from_the_bonfire_means_one_stick_only():
    t = Table()
    t.set(bonfire=(5, 4, 0))
    t.roll("meat", "fire", "meat")
    assert t.state.offers == ("meat",)
    t.press("ok")
    assert t.state.hands[0] == (1, 0, 0)


def test_only_takes_the_bonfire_can_give():
    assert classify(("meat", "meat", "fire")) == "take"
    t = Table()
    t.set(bonfire=(1, 4, 3))
    t.roll("meat", "meat", "fire")
    assert t.state.offers == ("meat+fire",)


def test_back_never_crosses_a_roll_but_takes_back_a_cycle():
    t = Table()
    t.roll("meat", "charcoal", "charcoal")
    with pytest.raises(NothingToUndo):
        t.session.undo()
    before = t.state
    t.press("red")
    t.session.undo()
    assert t.state == before


def test_wrong_inputs_are_refused_before_the_rules_change_anything():
    t = Table()
    before = t.state
    for bad in (Press("blue"), Press("red"), Press("repeat", hold=True)):
        with pytest.raises(NotExpected):
            t.session.check(bad)
    assert t.state is before


def test_outcomes_that_do_not_answer_the_roll_are_refused():
    requests = GAME.validate(GAME.setup({"teams": ["red", "blue"]}), Press("ok"))
    for bad in ({"die_A": 0, "die_B": 0}, {"die_A": 6, "die_B": 0, "die_C": 0},
                {"die_A": True, "die_B": 0, "die_C": 0}, {"die_A": "0", "die_B": 0, "die_C": 0}):
        with pytest.raises(BadOutcome):
            check_outcomes(requests, bad)


def test_dice_data_two_faces_of_each_colour():
    dice = load_dice()
    assert [d.name for d in dice] == ["A", "B", "C"]
    for die in dice:
        assert sorted(die.faces) == sorted(["meat", "meat", "charcoal", "charcoal", "fire", "fire"])
    assert read_roll(dice, {"die_A": 1, "die_B": 3, "die_C": 5}) == ("meat", "charcoal", "fire")


# --- exchanges ----------------------------------------------------------------------------


def test_exchange_by_holding_ok_cycling_and_confirming():
    t = Table()
    t.set(hands=((0, 1, 1), (0, 0, 0)))
    t.press("ok", hold=True)
    assert t.state.phase == EXCHANGE and t.state.offers == ("charcoal-meat", "fire-meat", "fire-charcoal")
    t.press("red")
    t.press("ok")
    assert t.state.hands[0] == (1, 1, 0) and t.state.bonfire == (8, 7, 6)
    assert t.state.team() == "blue"


def test_back_cancels_an_exchange_before_it_is_made():
    t = Table()
    t.set(hands=((0, 1, 0), (0, 0, 0)))
    before = t.state
    t.press("ok", hold=True)
    t.session.undo()
    assert t.state == before


@pytest.mark.parametrize(("hand", "bonfire", "option", "key"), [
    ((1, 1, 1), (9, 7, 5), "meat-charcoal", "exchange_not_mutual"),
    ((1, 1, 1), (9, 7, 5), "charcoal-fire", "exchange_not_mutual"),
    ((1, 0, 0), (9, 7, 5), "charcoal-meat", "exchange_no_stick"),
    ((0, 0, 0), (9, 7, 5), "fire-charcoal", "exchange_no_stick"),
    ((0, 1, 1), (1, 7, 5), "charcoal-meat", "exchange_ends_round"),
    ((0, 1, 1), (9, 1, 5), "fire-charcoal", "exchange_ends_round"),
])
def test_exchange_refusals_with_the_rulebooks_reason(hand, bonfire, option, key):
    t = Table()
    t.set(hands=(hand, (0, 0, 0)), bonfire=bonfire)
    before = t.state
    with pytest.raises(IllegalInput) as err:
        t.session.check(Choose(f"exchange:{option}"))
    assert err.value.key == key
    assert t.state is before


@pytest.mark.parametrize(("hand", "bonfire", "key"), [
    ((3, 0, 0), (6, 7, 5), "no_exchange_sticks"),
    ((0, 1, 1), (1, 1, 5), "no_exchange_ends_round"),
])
def test_holding_ok_with_no_exchange_possible_is_refused(hand, bonfire, key):
    t = Table()
    t.set(hands=(hand, (0, 0, 0)), bonfire=bonfire)
    with pytest.raises(IllegalInput) as err:
        t.session.check(Press("ok", hold=True))
    assert err.value.key == key


# --- round ends ---------------------------------------------------------------------------


def test_charcoal_all_taken_ends_the_round_with_an_assault_and_sticks_return():
    t = Table(("red", "blue", "green"))
    t.set(hands=((2, 0, 0), (3, 1, 1), (1, 5, 0)), bonfire=(3, 1, 4), current=1)
    t.roll("charcoal", "fire", "fire")
    effects = t.submit(Choose("take:charcoal+fire"))
    counts = {p["team"]: p for p in line(effects, "assault_player")}
    assert counts["red"] == {"team": "red", "dogs": 2, "by_meat": 1, "by_pairs": 0, "faint": 1}
    assert counts["blue"] == {"team": "blue", "dogs": 3, "by_meat": 1, "by_pairs": 2, "faint": 0}
    assert counts["green"] == {"team": "green", "dogs": 1, "by_meat": 0, "by_pairs": 0, "faint": 1}
    s = t.state
    assert s.villagers == (2, 3, 2) and s.round == 2
    assert s.bonfire == (9, 7, 5) and s.hands == ((0, 0, 0),) * 3
    assert s.team() == "green"  # the player after the one who ended the round


def test_meat_and_charcoal_run_out_together_no_event():
    t = Table()
    t.set(hands=((4, 3, 0), (4, 3, 0)), bonfire=(1, 1, 5))
    t.roll("meat", "charcoal", "charcoal")
    effects = t.submit(Choose("take:meat+charcoal"))
    assert "round_end_none" in keys(effects)
    assert "feed_player" not in keys(effects) and "assault_player" not in keys(effects)
    assert t.state.dogs == (0, 0) and t.state.villagers == (3, 3) and t.state.round == 2
    assert t.state.team() == "blue"


def test_five_rounds_then_the_game_ends():
    t = Table()
    for expected in range(1, 6):
        assert t.state.round == expected
        t.set(bonfire=(1, 7, 5))
        t.roll("meat", "fire", "fire")
        effects = t.submit(Choose("take:meat+fire"))
    assert t.state.phase == OVER and t.session.over is not None
    assert any(isinstance(e, GameOver) for e in effects)
    assert GAME.prompt(t.state).finished


# --- incidents ----------------------------------------------------------------------------


def test_incident_feed_returns_the_meat_used_and_the_same_player_rolls_again():
    t = Table(("red", "blue", "green"))
    t.set(hands=((5, 1, 0), (1, 0, 0), (2, 0, 3)), bonfire=(1, 6, 2))
    effects = t.roll("meat", "meat", "meat")
    assert "incident_feed" in keys(effects)
    assert line(effects, "feed_player") == [
        {"team": "red", "meat": 5, "tamed": 2, "wasted": 1},
        {"team": "blue", "meat": 1, "tamed": 0, "wasted": 1},
        {"team": "green", "meat": 2, "tamed": 1, "wasted": 0}]
    s = t.state
    assert s.hands == ((1, 1, 0), (1, 0, 0), (0, 0, 3)) and s.bonfire == (7, 6, 2)
    assert s.dogs == (2, 0, 1) and s.pack == 22
    assert s.team() == "red" and s.must_roll
    assert GAME.prompt(s).accepts == ("press:ok",)  # no exchange: the same player rolls again
    t.roll("fire", "fire", "fire")  # incidents again: handled each time
    assert t.state.hands == ((1, 1, 0), (1, 0, 0), (0, 0, 0)) and t.state.must_roll
    t.roll("meat", "charcoal", "charcoal")
    assert t.state.phase == TAKE and t.state.team() == "red"


def test_incident_assault_returns_only_the_sticks_used_for_defence():
    t = Table()
    t.set(hands=((5, 3, 2), (1, 0, 0)), bonfire=(3, 4, 3))
    effects = t.roll("charcoal", "charcoal", "charcoal")
    assert line(effects, "assault_player") == [
        {"team": "red", "dogs": 5, "by_meat": 2, "by_pairs": 2, "faint": 1},
        {"team": "blue", "dogs": 1, "by_meat": 0, "by_pairs": 0, "faint": 1}]
    s = t.state
    # red used 4 meat and 2 (fire + charcoal) pairs; blue's single meat was not used: it stays
    assert s.hands == ((1, 1, 0), (1, 0, 0)) and s.bonfire == (7, 6, 5)
    assert s.villagers == (2, 2) and s.must_roll


def test_assault_uses_only_as_many_pairs_as_dogs_left():
    assert assault_count((2, 3, 3)) == (1, 1, 0)
    t = Table()
    t.set(hands=((2, 3, 3), (0, 0, 0)), bonfire=(7, 4, 2))
    t.roll("charcoal", "charcoal", "charcoal")
    assert t.state.hands[0] == (0, 2, 2) and t.state.villagers == (3, 3)


def test_incident_fire_fest_returns_fire_sticks():
    t = Table()
    t.set(hands=((0, 0, 2), (1, 0, 3)), bonfire=(8, 7, 0))
    effects = t.roll("fire", "fire", "fire")
    assert line(effects, "fire_fest_player") == [{"team": "red", "fire": 2}, {"team": "blue", "fire": 3}]
    assert t.state.hands == ((0, 0, 0), (1, 0, 0)) and t.state.bonfire == (8, 7, 5)


@pytest.mark.parametrize("colour", ["meat", "charcoal", "fire"])
def test_no_one_can_be_counted_roll_again(colour):
    t = Table()
    before = t.state
    effects = t.roll(colour, colour, colour)
    assert "nobody_counted" in keys(effects) and "roll_again" in keys(effects)
    assert t.state.hands == before.hands and t.state.must_roll and t.state.team() == "red"


# --- theft --------------------------------------------------------------------------------


def test_theft_victim_by_team_button_colour_from_what_they_hold():
    t = Table(("red", "blue", "green"))
    t.set(hands=((0, 0, 0), (0, 2, 1), (0, 0, 0)))
    effects = t.roll("fire", "meat", "charcoal")
    assert "theft" in keys(effects) and t.state.phase == VICTIM
    assert GAME.prompt(t.state).lights == ("blue",)
    with pytest.raises(IllegalInput) as err:
        t.session.check(Press("green"))
    assert err.value.key == "nothing_to_steal"
    with pytest.raises(NotExpected):
        t.session.check(Press("red"))  # not from yourself
    t.press("blue")
    assert t.state.phase == STEAL and t.state.offers == ("charcoal", "fire")
    t.press("red")
    effects = t.press("ok")
    assert line(effects, "stole") == [{"team": "red", "victim": "blue", "colour": "fire"}]
    assert t.state.hands == ((0, 0, 1), (0, 2, 0), (0, 0, 0)) and t.state.bonfire == (9, 7, 5)
    assert t.state.team() == "blue"


def test_theft_in_one_step_by_a_dashboard_choice_of_victim_and_colour():
    t = Table(("red", "blue", "green"))
    t.set(hands=((0, 0, 0), (0, 2, 1), (0, 0, 0)))
    t.roll("fire", "meat", "charcoal")
    prompt = GAME.prompt(t.state)
    assert {"choose:steal:blue:charcoal", "choose:steal:blue:fire"} <= set(prompt.accepts)
    assert not any(a.startswith("choose:steal:green") or a == "choose:steal:blue:meat" for a in prompt.accepts)
    assert [i for i in GAME.legal_inputs(t.state) if isinstance(i, Choose)] == [
        Choose("steal:blue:charcoal"), Choose("steal:blue:fire")]
    with pytest.raises(IllegalInput) as err:
        GAME.validate(t.state, Choose("steal:blue:meat"))  # blue holds no meat
    assert err.value.key == "nothing_to_steal"
    effects = t.submit(Choose("steal:blue:fire"))
    assert line(effects, "stole") == [{"team": "red", "victim": "blue", "colour": "fire"}]
    assert t.state.hands == ((0, 0, 1), (0, 2, 0), (0, 0, 0)) and t.state.victim == -1
    assert t.state.phase == TURN and t.state.team() == "blue"


def test_the_random_player_decides_in_one_legal_input():
    """Takes, steals and exchanges by their one-step choice; a roll otherwise; never a cycle."""
    rng = random.Random(5)
    s = GAME.setup({"teams": list(TEAMS4)})
    seen = set()
    for _ in range(3000):
        legal = GAME.legal_inputs(s)
        if not legal:
            break
        inp = GAME.random_input(s, legal, rng.randrange)
        assert inp in legal
        if len(legal) > 1:
            assert isinstance(inp, Choose) or inp == Press("ok"), (s.phase, inp)
        seen.add((s.phase, inp.option.split(":")[0] if isinstance(inp, Choose) else "press"))
        requests = GAME.validate(s, inp)
        s, _ = GAME.apply(s, inp, {r.name: rng.randrange(len(r.weights)) for r in requests})
    assert s.phase == OVER
    assert {(TURN, "press"), (TURN, "exchange"), (TAKE, "take"), (VICTIM, "steal")} <= seen


def test_theft_with_nobody_to_rob_rolls_again():
    t = Table()
    t.set(hands=((2, 0, 0), (0, 0, 0)))
    effects = t.roll("charcoal", "meat", "fire")
    assert "theft_nobody" in keys(effects)
    assert t.state.phase == TURN and t.state.must_roll and t.state.team() == "red"


# --- villagers ----------------------------------------------------------------------------


def test_all_fainted_restore_two_then_one_then_knocked_out():
    t = Table(("red", "blue", "green"))
    t.set(hands=((6, 0, 0), (0, 0, 0), (0, 0, 0)), villagers=(3, 3, 3), dogs=(4, 1, 0), pack=20,
          bonfire=(3, 7, 5))
    effects = t.roll("charcoal", "charcoal", "charcoal")  # 6 dogs, 3 fended by meat: 3 faint
    assert line(effects, "all_fainted") == [{"team": "red", "dogs": 4, "restored": 2}]
    assert t.state.villagers[0] == 2 and t.state.dogs[0] == 0 and t.state.pack == 24
    t.set(hands=((2, 0, 0), (0, 0, 0), (0, 0, 0)), villagers=(1, 3, 3), dogs=(3, 1, 0), pack=21,
          bonfire=(7, 7, 5))
    t.roll("charcoal", "charcoal", "charcoal")  # 2 dogs, 1 fended: the last one faints
    assert t.state.villagers[0] == 1 and t.state.faints[0] == 2 and t.state.pack == 24
    t.set(hands=((1, 0, 1), (0, 0, 0), (0, 0, 0)), dogs=(2, 1, 0), pack=22, bonfire=(8, 7, 4))
    effects = t.roll("charcoal", "charcoal", "charcoal")
    assert line(effects, "knocked_out") == [{"team": "red", "dogs": 2}]
    s = t.state
    assert s.out(0) and s.villagers[0] == 0 and s.dogs[0] == 0 and s.hands[0] == (0, 0, 0)
    assert s.bonfire == (9, 7, 5) and s.pack == 24
    assert s.team() == "blue" and not s.must_roll  # the roller is out: the next player's turn
    t.roll("meat", "fire", "fire")
    t.press("ok")
    t.roll("meat", "fire", "fire")
    t.press("ok")
    assert t.state.team() == "blue"  # red is skipped from then on


def test_everyone_knocked_out_ends_the_game_without_a_winner():
    t = Table()
    t.set(hands=((3, 0, 0), (3, 0, 0)), villagers=(1, 1), faints=(2, 2), bonfire=(3, 7, 5))
    effects = t.roll("charcoal", "charcoal", "charcoal")
    assert t.session.over == GameOver("all_knocked_out", ())
    assert "all_knocked_out" in keys(effects)


# --- the winner ---------------------------------------------------------------------------


def _last_round(t, dogs, villagers):
    t.set(round=5, dogs=dogs, villagers=villagers, pack=25 - sum(dogs), bonfire=(9, 1, 5),
          hands=((0,) * 3,) * len(dogs))
    t.roll("charcoal", "fire", "fire")
    return t.submit(Choose("take:charcoal+fire"))


def test_most_dogs_wins():
    t = Table(("red", "blue", "green"))
    effects = _last_round(t, (3, 5, 4), (3, 1, 3))
    assert t.session.over == GameOver("rounds_played", ("blue",))
    assert line(effects, "winner") == [{"x1": "blue", "dogs": 5, "villagers": 1}]
    assert [p["team"] for p in line(effects, "standing")] == ["blue", "green", "red"]


def test_a_tie_on_dogs_is_decided_by_standing_villagers():
    t = Table(("red", "blue", "green"))
    _last_round(t, (5, 5, 4), (2, 3, 3))
    assert t.session.over.winners == ("blue",)


def test_a_tie_on_both_is_shared():
    t = Table(("red", "blue", "green"))
    effects = _last_round(t, (5, 5, 4), (3, 3, 3))
    assert t.session.over.winners == ("red", "blue")
    assert "winner_2" in keys(effects)
    assert GAME.public_view(t.state)["winners"] == ["red", "blue"]


def test_every_message_key_has_words():
    texts = messages("games.dog")
    source = "".join((GAMES_DOG / f"{m}.py").read_text() for m in ("phases", "events", "rules"))
    for key in set(re.findall(r'(?<![a-z_])say\(\s*"([a-z_0-9]+)"', source)):
        assert key in texts, key
    for stem in ("take_offer", "took"):
        for n in ("one", "two", "pair"):
            assert f"{stem}_{n}" in texts
    for name in ("too_many_players", "too_few_players", "already_in_order", "nothing_to_steal",
                 "exchange_not_mutual", "exchange_no_stick", "exchange_bonfire_empty", "exchange_ends_round",
                 "no_exchange_sticks", "no_exchange_ends_round", "no_exchange_bonfire", "incident_feed",
                 "incident_assault", "incident_fire_fest", "play_order_2", "play_order_4", "winner_3",
                 "winner_4"):
        assert name in texts, name


def test_no_hidden_information():
    state = GAME.setup({"teams": ["red", "blue"]})
    assert GAME.secrets(state) == frozenset()
    assert GAME.info.order == 2 and not GAME.info.hidden_information


def test_public_view_carries_the_contract_fields_and_widgets():
    t = Table()
    t.roll("meat", "meat", "fire")
    view = GAME.public_view(t.state)
    assert view["round"] == 1 and view["turn"] == "red" and view["scores"] == {"red": 0, "blue": 0}
    kinds = [w["kind"] for w in view["widgets"]]
    assert kinds == ["dice", "counters", "teams", "log"]
    rows = view["widgets"][2]["rows"]
    assert rows[0]["active"] and not rows[1]["active"]
    assert view["dice"] == ["meat", "meat", "fire"]
