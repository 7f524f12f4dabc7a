"""The dice slice of Here Comes the Dog, as pure rules."""

import pytest

from games.core import BadOutcome, Chance, GameOver, Light, NotExpected, Press, Say, Scan, check_outcomes
from games.dog.dice import classify, load_dice, read_roll
from games.dog.rules import GAME
from games.session import NothingToUndo, Session

FACE = {"meat": 0, "charcoal": 2, "fire": 4}  # first face index of each colour on the default dice


def roll(session, a, b, c, seq=1):
    return session.submit(Press("ok"), {"die_A": FACE[a], "die_B": FACE[b], "die_C": FACE[c]}, seq)


def says(effects):
    return [e.key for e in effects if isinstance(e, Say)]


def test_dice_data_two_faces_of_each_colour():
    dice = load_dice()
    assert [d.name for d in dice] == ["A", "B", "C"]
    for die in dice:
        assert sorted(die.faces) == sorted(["meat", "meat", "charcoal", "charcoal", "fire", "fire"])


@pytest.mark.parametrize(
    ("roll_", "result"),
    [
        (("meat", "meat", "meat"), "feed"),
        (("charcoal", "charcoal", "charcoal"), "assault"),
        (("fire", "fire", "fire"), "fire_fest"),
        (("fire", "meat", "charcoal"), "theft"),
        (("meat", "meat", "charcoal"), "take"),
        (("fire", "charcoal", "fire"), "take"),
    ],
)
def test_classify_by_the_rulebook(roll_, result):
    assert classify(roll_) == result


def test_ok_asks_for_one_uniform_chance_per_die():
    s = Session.start(GAME, {})
    requests = s.check(Press("ok"))
    assert requests == tuple(Chance(f"die_{n}", (1,) * 6) for n in "ABC")
    assert s.check(Press("ok", hold=True)) == ()


def test_a_roll_announces_colours_and_lights_slots():
    s = Session.start(GAME, {})
    effects = roll(s, "meat", "charcoal", "fire")
    assert says(effects) == ["dice_rolled", "theft"]
    lights = {e.target: e.colour for e in effects if isinstance(e, Light)}
    assert lights == {"slot:A": "tan", "slot:B": "dim-white", "slot:C": "red"}
    assert s.state.last_roll == ("meat", "charcoal", "fire")


@pytest.mark.parametrize(("colour", "key"), [("meat", "incident_feed"), ("charcoal", "incident_assault"),
                                              ("fire", "incident_fire_fest")])
def test_a_triple_is_an_incident_and_the_same_player_rolls_again(colour, key):
    s = Session.start(GAME, {})
    effects = roll(s, colour, colour, colour)
    assert key in says(effects)
    assert s.prompt().ask.key == "press_ok_to_roll_again"
    roll(s, "meat", "meat", "fire", seq=2)
    assert s.prompt().ask.key == "press_ok_to_roll"


def test_rounds_run_one_to_five_then_the_game_ends():
    s = Session.start(GAME, {})
    for expected in range(1, 6):
        assert s.state.round == expected
        effects = s.submit(Press("ok", hold=True), {}, expected)
    assert s.over == GameOver("rounds_played")
    assert any(isinstance(e, GameOver) for e in effects)
    assert s.prompt().finished
    with pytest.raises(NotExpected):
        s.check(Press("ok"))


def test_wrong_inputs_are_refused_before_the_rules_change_anything():
    s = Session.start(GAME, {})
    before = s.state
    for bad in (Press("red"), Scan("max"), Press("repeat", hold=True)):
        with pytest.raises(NotExpected) as err:
            s.check(bad)
        assert err.value.key == "not_expected"
    assert s.state is before


def test_a_roll_cannot_be_undone_but_a_round_end_can():
    s = Session.start(GAME, {})
    roll(s, "meat", "fire", "fire")
    with pytest.raises(NothingToUndo):
        s.undo()
    before = s.state
    s.submit(Press("ok", hold=True), {}, 2)
    assert s.state.round == 2
    s.undo()
    assert s.state == before


def test_outcomes_that_do_not_answer_the_request_are_refused():
    requests = GAME.validate(GAME.setup({}), Press("ok"))
    for bad in ({"die_A": 0, "die_B": 0}, {"die_A": 6, "die_B": 0, "die_C": 0},
                {"die_A": True, "die_B": 0, "die_C": 0}, {"die_A": "0", "die_B": 0, "die_C": 0}):
        with pytest.raises(BadOutcome):
            check_outcomes(requests, bad)


def test_read_roll_uses_the_data_faces():
    dice = load_dice()
    assert read_roll(dice, {"die_A": 1, "die_B": 3, "die_C": 5}) == ("meat", "charcoal", "fire")


def test_bad_round_option_is_refused():
    with pytest.raises(ValueError):
        GAME.setup({"rounds": 0})
    assert GAME.setup({"rounds": 3}).rounds == 3
