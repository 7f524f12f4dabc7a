"""Rule 1 (the catalogue) and rule 10 (unlockables join the deal only when enabled)."""

from collections import Counter

import pytest
from hwhad_kit import cid

from games.catalog import deck_cards
from games.core import SetupError
from games.hwhad.cards import asteroid_weights, astronauts, catalogue, numbers, unlockables
from games.hwhad.rules import GAME
from games.registry import load_game


def test_twenty_astronauts_by_role_and_four_unlockables():
    roles = Counter(catalogue()[c].role for c in astronauts())
    assert roles == {"engineer": 10, "hero": 5, "observer": 2, "dolphin": 2, "captain": 1}
    assert len(unlockables()) == 4
    assert [catalogue()[c].name for c in unlockables(enabled_only=True)] == ["Doggo", "Mr. Microwave"]


def test_facings_the_rulebook_names():
    cards = catalogue()
    assert cards[cid("max")].wrench == "right" and cards[cid("number5")].wrench == "left"
    assert cards[cid("lou")].wrench == "right"  # example 1: "an engineer hitting to the right", Lou
    assert cards[cid("glue")].wrench == "right"  # example 2: "the right hitting captain"
    assert cards[cid("glue")].name == "Cpt. E. Glue" and cards[cid("dowell")].role == "hero"
    engineers = [c for c in cards.values() if c.role == "engineer"]
    assert Counter(c.facing for c in engineers) == {"left": 5, "right": 5}
    for role in ("observer", "dolphin"):
        assert {c.facing for c in cards.values() if c.role == role} == {"left", "right"}
    assert not cards[cid("dowell")].wrench and not cards[cid("doggo")].wrench


def test_registered_with_its_deck_and_badges():
    game = load_game("hwhad")
    assert game is GAME and game.info.deck == "hwhad"
    assert set(GAME.cards().ids) == set(astronauts()) | set(unlockables())
    assert "badge-red" in deck_cards("hwhad") and cid("unlockable3") in deck_cards("hwhad")


def test_numbers_come_from_data():
    n = numbers()
    assert n.hand_size == {2: 6, 3: 5, 4: 4, 5: 3} and n.tray == 16 and n.panic_raise == 3
    assert asteroid_weights(20) == (240, 20, 20, 20)  # 20% that one of three slots is hit
    assert sum(asteroid_weights(50)[1:]) * 2 == sum(asteroid_weights(50))


def test_unlockables_join_the_deal_only_when_enabled():
    assert GAME.setup({}).deck == astronauts()
    both = GAME.setup({"unlockables": ["doggo", "hwhad-microwave"]})
    assert both.deck == (*astronauts(), cid("doggo"), cid("microwave"))
    assert GAME.setup({"unlockables": ["doggo"]}).deck == (*astronauts(), cid("doggo"))


@pytest.mark.parametrize("value", [["unlockable3"], ["teleporter"], "doggo", 3])
def test_undefined_or_malformed_unlockables_are_refused(value):
    with pytest.raises(SetupError) as err:
        GAME.setup({"unlockables": value})
    assert err.value.key == "bad_option"


def test_cards_are_called_by_their_printed_names_when_enrolling_by_voice():
    from games.catalog import card_name

    assert card_name("hwhad-glue") == "Cpt. E. Glue"
    assert card_name("hwhad-number5") == "Number 5"
    assert card_name("badge-red") == "the red team badge"
    assert card_name("not-a-card") == "not-a-card"
