"""The card catalogue and the game's facts come from data (cards.toml, game.toml)."""

from importlib import resources

from games.catalog import deck_cards, deck_names
from games.registry import load_game
from games.whales.cards import COLOURS, catalogue, deck_for
from games.whales.rules import GAME


def test_info_comes_from_the_data_file():
    assert GAME.info.order == 4 and GAME.info.deck == "whales"
    assert (GAME.info.min_teams, GAME.info.max_teams) == (3, 6)
    assert load_game("whales") is GAME


def test_every_card_has_id_name_kind_colour_strength_and_marks():
    cards = catalogue()
    assert all(c.id.startswith("whales-") for c in cards.values())
    assert len({c.name for c in cards.values()}) == len(cards)
    for card in cards.values():
        assert card.kind in ("whale", "superhero", "turtle", "special")
        if card.kind == "whale":
            assert card.colour in COLOURS and card.strength > 0
    assert {c.special for c in cards.values() if c.kind == "special"} == {"shield", "set_of_three", "wild"}
    assert all(c.expansion for c in cards.values() if c.kind == "special" or "dolphin" in c.id)


def test_the_composition_is_marked_as_a_placeholder():
    text = resources.files("games.whales").joinpath("cards.toml").read_text()
    assert "PLACEHOLDER COMPOSITION" in text


def test_cards_gives_ids_printed_names_and_the_deck():
    cards = GAME.cards()
    assert cards.deck == "whales"
    assert cards.ids == tuple(catalogue())
    assert cards.name("whales-red-3") == "Red Whale 3"


def test_the_camera_can_enroll_the_deck():
    assert "whales" in deck_names()
    enrolled = deck_cards("whales")
    assert enrolled is not None and set(catalogue()) <= set(enrolled)


def test_five_plus_cards_stay_out_under_five_players():
    play, out = deck_for(4, expansion=False)
    assert out and all(catalogue()[c].five_plus for c in out)
    assert not any(catalogue()[c].five_plus for c in play)
    play5, out5 = deck_for(5, expansion=False)
    assert out5 == () and set(out) <= set(play5)
    assert not any(catalogue()[c].expansion for c in play5)


def test_expansion_keeps_five_plus_superheroes_and_drops_five_plus_whales_at_any_size():
    for teams in (3, 4, 5, 6):
        play, out = deck_for(teams, expansion=True)
        assert all(catalogue()[c].kind == "superhero" for c in play if catalogue()[c].five_plus)
        assert all(catalogue()[c].kind != "superhero" for c in out)
        assert {c for c in catalogue() if catalogue()[c].expansion} <= set(play)
