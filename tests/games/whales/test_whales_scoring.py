"""Scoring and winners: superheroes drop the lowest whales, the shield, the wild card, declared
roles, ties, two superspies, and the expansion roles."""

import pytest
from whales_kit import entry, keys, over, press, table

from games.core import OK, RuleError
from games.whales import ending
from games.whales.army import score
from games.whales.state import DECLARE, GUESS, OVER

SIX = ("red", "blue", "green", "yellow", "purple", "white")


def army_of(*shorts):
    return tuple(entry(s) for s in shorts)


@pytest.mark.parametrize(("cards", "points"), [
    (("red-1", "red-5", "blue-3", "blue-6", "grey-2"), 17),                       # plain sum
    (("red-1", "red-5", "blue-3", "blue-6", "grey-2", "hero-net"), 16),           # the 1 is dropped
    (("red-1", "red-5", "blue-3", "blue-6", "grey-2", "hero-net", "hero-aqua"), 14),  # the 1 and the 2
    (("red-1", "red-5", "blue-3", "hero-net", "hero-aqua", "hero-sonar", "hero-krill"), 0),  # nothing left
    (("red-1", "red-5", "blue-3", "blue-6", "grey-2", "hero-net", "shield"), 17),  # shield cancels one hero
    (("red-1", "red-5", "blue-3", "hero-net", "hero-aqua", "shield"), 8),          # ... only one
    (("red-1", "wild:grey", "hero-net"), 4),                                       # the wild card scores 4
    (("red-5", "wild:red", "hero-net", "hero-aqua"), 0),
    (("dolphin-blue-6", "set-of-three", "blue-1", "hero-net"), 9),                # dolphins and the set of 3
])
def test_scores(cards, points):
    assert score(army_of(*cards)) == points


def ended(armies, **kw):
    """Whales win (the deck ran out) with these armies; the roles are next."""
    state, effects = ending.whales_end(table(armies, **kw), "end_deck_short", next(iter(armies)))
    return state, effects


ARMIES = {"red": ["red-6", "blue-6", "grey-6"], "blue": ["red-4", "blue-4"], "green": ["red-1", "grey-3"],
          "yellow": ["red-2", "grey-2"]}


def test_every_army_score_is_announced_and_the_superspy_does_not_compete():
    state, effects = ended(ARMIES)
    assert [e.params["score"] for e in effects if e.key == "army_score"] == [18, 8, 4, 4]
    assert state.phase == DECLARE and state.questions == ("superspy",)
    state, effects = press(state, "red", OK)
    assert state.phase == OVER and over(effects).winners == ("blue",) and "whales_top_1" in keys(effects)


def test_a_tie_is_shared_and_announced_as_a_tie():
    state, _ = ended(ARMIES)
    state, effects = press(state, "blue", OK)
    assert over(effects).winners == ("red",)
    tie = {**ARMIES, "blue": ["red-4", "blue-4", "grey-4", "grey-5", "blue-1"]}  # 18 as well
    state, _ = ended(tie)
    state, effects = press(state, "green", OK)
    assert over(effects).winners == ("red", "blue") and "whales_tie_2" in keys(effects)


def test_declarations_the_role_deck_cannot_produce_are_refused():
    state, _ = ended(ARMIES)
    with pytest.raises(RuleError) as err:
        press(state, OK)
    assert err.value.key == "need_superspy"
    with pytest.raises(RuleError) as err:
        press(state, "red", "blue")
    assert err.value.key == "role_full"  # one superspy under 6 players
    state, _ = press(state, "red", "red", "blue")  # red pressed by mistake, taken back
    assert state.marked == ("blue",)


def test_superspy_wins_when_any_army_has_three_superheroes():
    heroes = {"red": ["hero-net", "hero-aqua", "hero-sonar"], "blue": ["red-1"], "green": ["red-2"]}
    state, effects = ending.superspy_end(table(heroes), "red")
    assert "end_three_superheroes" in keys(effects)
    state, effects = press(state, "green", OK)
    assert over(effects).winners == ("green",) and over(effects).reason == "superspy_wins"


def six(heroes_at):
    armies = {t: ["red-1"] for t in SIX}
    armies[heroes_at] = ["hero-net", "hero-aqua", "hero-sonar"]
    return ending.superspy_end(table(armies), heroes_at)[0]


def test_two_superspies_compete_for_their_own_three_superheroes():
    _, effects = press(six("red"), "red", "blue", OK)
    assert over(effects).winners == ("red",)


def test_two_superspies_share_when_a_whale_player_has_three_superheroes():
    _, effects = press(six("green"), "red", "blue", OK)
    assert over(effects).winners == ("red", "blue") and "superspy_wins_2" in keys(effects)


def test_the_sidekick_wins_when_the_superspy_holds_three_superheroes():
    heroes = {"red": ["hero-net", "hero-aqua", "hero-sonar"], "blue": ["red-1"], "green": ["red-2"]}
    state = ending.superspy_end(table(heroes, expansion=True, roles=["sidekick"]), "red")[0]
    assert state.questions == ("superspy", "sidekick")
    state, effects = press(state, "red", OK, "blue", OK)
    assert over(effects).winners == ("blue",) and over(effects).reason == "sidekick_wins"
    state = ending.superspy_end(table(heroes, expansion=True, roles=["sidekick"]), "red")[0]
    state, effects = press(state, "green", OK, "blue", OK)  # red is a whale: the superspy wins
    assert over(effects).winners == ("green",)


def test_the_dolphin_role_wins_with_three_completed_sets_whatever_the_score():
    armies = {"red": ["red-1", "red-2", "blue-1", "blue-2", "grey-1", "grey-2", "hero-net"],
              "blue": ["red-6", "blue-6"], "green": ["grey-3"], "yellow": ["grey-4"]}
    state, _ = ended(armies, expansion=True, roles=["dolphin"])
    state, effects = press(state, "yellow", OK, "red", OK)
    assert over(effects).winners == ("red", "blue") and "dolphin_wins" in keys(effects)


def test_the_werewhale_wins_by_guessing_every_role_and_is_checked_against_the_declaration():
    armies = {t: ["red-1"] for t in SIX[:5]}
    armies["blue"] = ["red-6"]
    state, _ = ended(armies, expansion=True, roles=["werewhale", "sidekick"])
    assert state.phase == GUESS and state.questions == ("superspy", "sidekick")
    state, _ = press(state, "green", OK, "yellow", OK)        # the werewhale's guesses
    assert state.phase == DECLARE and state.questions == ("superspy", "sidekick", "werewhale")
    state, effects = press(state, "green", OK, "yellow", OK, "red", OK)
    assert over(effects).winners == ("red", "blue") and "werewhale_right" in keys(effects)

    state, _ = ended(armies, expansion=True, roles=["werewhale", "sidekick"])
    state, _ = press(state, "green", OK, OK)                   # guessed: no sidekick
    state, effects = press(state, "green", OK, "yellow", OK, "red", OK)
    assert over(effects).winners == ("blue",) and "werewhale_wrong" in keys(effects)


def test_a_declaration_keeps_at_least_one_whale_and_one_role_per_player():
    armies = {"red": ["red-1"], "blue": ["red-2"], "green": ["red-3"]}
    state, _ = ended(armies, expansion=True, roles=["sidekick", "dolphin"])
    state, _ = press(state, "red", OK)
    with pytest.raises(RuleError) as err:
        press(state, "red")
    assert err.value.key == "role_taken"
    state, _ = press(state, "blue", OK)
    with pytest.raises(RuleError) as err:
        press(state, "green")
    assert err.value.key == "need_a_whale"


def test_a_declared_turtle_without_whales_also_wins_when_whales_win():
    armies = {"red": ["red-6"], "blue": ["hero-net"], "green": ["red-1"]}
    state, _ = ended(armies, expansion=True, roles=["turtle"])
    state, effects = press(state, "green", OK, "blue", OK)
    assert over(effects).winners == ("red", "blue") and "turtle_wins" in keys(effects)
