"""The rulebook's worked examples, as exact announcements."""

from hwhad_kit import cid, table, walk, words

from games.core import Light
from games.hwhad.text import render


def test_example_1_an_observer_is_killed():
    # No asteroid; the observer (B) looks left at Lou, an engineer hitting right; Number 5 hits
    # left from C: the observer is encircled and eliminated; no dolphin.
    state = table({"red": ["glue", "max"], "blue": ["lou", "number5", "jimmy"], "green": ["eagle", "paul"]})
    state, effects = walk(state, "lou", "eagle", "number5")
    assert [render(s) for s in state.report] == ["Lou was seen and Astronaut B disappears in the void."]
    assert words(effects)[0] == "Lou was seen and Astronaut B disappears in the void."
    assert cid("eagle") in state.void
    assert state.history[-1] == ("observe:B>A", "engineering:B")
    assert Light("slot:B", "red", "blink") in effects


def test_example_2_the_dolphin_gets_his_turn():
    # No asteroid, no observer, nobody encircled; the dolphin (B) kills his right neighbour, the
    # right-hitting captain (C).
    state = table({"red": ["glue", "max"], "blue": ["paul", "jimmy"], "green": ["bubbles", "sheila"]})
    state, effects = walk(state, "paul", "bubbles", "glue")
    assert [render(s) for s in state.report] == ["Astronaut C disappeared in the void."]
    assert words(effects)[0] == "Astronaut C disappeared in the void."
    assert cid("glue") in state.void and state.history[-1] == ("dolphin:B>C",)
    assert "The captain is lost!" in words(effects)
