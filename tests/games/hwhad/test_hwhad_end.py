"""Rule 9: how the game ends, who wins, and that the end reveals everything."""

from hwhad_kit import cid, step, table, walk, words

from games.core import Choose, GameOver, Press, Reveal, Scan
from games.hwhad.rules import GAME
from games.hwhad.state import OVER


def order_and_vote(state, order):
    state, e1 = step(state, Choose(order))
    state, e2 = step(state, Press("ok"))
    return state, e1 + e2


def over(effects):
    (end,) = [e for e in effects if isinstance(e, GameOver)]
    return end.reason, end.winners


def test_humans_win_by_reset_after_three_modules():
    hands = {"red": ["glue", "max"], "blue": ["paul", "jimmy"], "green": ["flipper", "sheila"]}
    state, _ = walk(table(hands, modules=("", "", ""), detached=3), "paul", "sheila", "jimmy")
    state, effects = order_and_vote(state, "reset")
    assert over(effects) == ("humans_win_reset", ("red", "blue"))
    assert words(effects)[-2:] == ["The spaceship is reset. The humans win!", "Winners: Red and Blue."]
    assert state.phase == OVER and GAME.prompt(state).finished and GAME.legal_inputs(state) == []


def test_dolphins_win_by_flood_even_once_their_dolphin_is_gone():
    hands = {"red": ["glue", "max"], "blue": ["paul", "jimmy"], "green": ["sheila", "lou"]}
    state = table(hands, dolphinized=("green",))  # green's dolphin died earlier: still dolphinized
    state, _ = walk(state, "paul", "sheila", "jimmy")
    state, effects = order_and_vote(state, "flood")
    assert over(effects) == ("dolphins_win_flood", ("green",))


def test_flood_with_nobody_dolphinized_ends_with_nobody_winning():
    hands = {"red": ["glue", "max"], "blue": ["paul", "jimmy"], "green": ["sheila", "lou"]}
    state, _ = walk(table(hands, modules=("flipper", "bubbles", "brave")), "paul", "sheila", "jimmy")
    state, effects = order_and_vote(state, "flood")
    assert over(effects) == ("nobody_wins_flood", ())
    assert "Nobody wins." in words(effects)[-1]


def test_humans_win_when_every_dolphinized_team_has_no_astronauts():
    hands = {"red": ["glue", "max"], "blue": ["paul", "jimmy"], "green": ["flipper"], "yellow": ["lou"]}
    state, _ = walk(table(hands), "paul", "lou", "jimmy")  # nothing happens
    state, _ = step(state, Choose("sacrifice"))
    state, _ = step(state, Press("green"))
    state, _ = step(state, Press("ok"))
    state, effects = step(state, Scan(cid("flipper")))
    assert over(effects) == ("humans_win_elimination", ("red", "blue", "yellow"))


def test_no_elimination_win_while_nobody_was_ever_dolphinized():
    hands = {"red": ["glue", "max"], "blue": ["paul", "jimmy"], "green": ["lou"]}
    state, _ = walk(table(hands), "paul", "lou", "jimmy")
    state, _ = step(state, Choose("sacrifice"))
    state, _ = step(state, Press("green"))
    state, _ = step(state, Press("ok"))
    state, effects = step(state, Scan(cid("lou")))
    assert not any(isinstance(e, GameOver) for e in effects) and state.phase != OVER


def test_dolphins_win_when_every_human_team_has_no_astronauts():
    # Blue's last astronaut is killed by green's dolphin; red (captain) is dolphinized too.
    hands = {"red": ["glue", "flipper"], "blue": ["max"], "green": ["bubbles", "sheila"]}
    _state, effects = walk(table(hands), "bubbles", "max", "sheila")
    assert over(effects) == ("dolphins_win_elimination", ("red", "green"))


def test_the_last_human_team_saving_a_dolphin_hands_the_game_to_the_dolphins():
    hands = {"red": ["glue", "bubbles"], "blue": ["lou", "number5"], "green": ["dowell", "paul"]}
    state = table(hands, modules=("flipper", "", ""), dolphinized=("blue",))
    state, _ = walk(state, "lou", "dowell", "number5")
    state, effects = step(state, Scan(cid("flipper")))
    assert over(effects) == ("dolphins_win_elimination", ("red", "blue", "green"))


def test_both_sides_wiped_out_at_once_nobody_wins():
    # A card-less temporary captain; Mr. Microwave takes the last astronauts of both sides.
    hands = {"red": [], "blue": ["max"], "green": ["microwave"], "yellow": ["jimmy"]}
    state = table(hands, captain="red", captain_card="", unlocked=("microwave",), dolphinized=("blue",))
    state, effects = walk(state, "max", "microwave", "jimmy")
    assert over(effects) == ("nobody_wins_wipeout", ())


def test_the_end_reveals_the_layout_and_how_each_spacewalk_went():
    hands = {"red": ["glue", "max"], "blue": ["paul", "jimmy"], "green": ["flipper", "sheila"]}
    state, _ = walk(table(hands), "paul", "sheila", "jimmy", hit="A")
    before = GAME.public_view(state)
    assert "revealed" not in before
    state, effects = order_and_vote(state, "flood")
    view = GAME.public_view(state)
    assert any(isinstance(e, Reveal) for e in effects)
    assert view["result"] == {"reason": "dolphins_win_flood", "winners": ["green"]}
    assert view["revealed"]["dolphinized"] == ["green"]
    assert view["revealed"]["spacewalks"] == [["asteroid:A"]]
    assert view["revealed"]["chances"][-1] == ["asteroid", 1]
    assert [c["name"] for c in view["revealed"]["hands"]["green"]] == ["Flipper", "Sheila"]
