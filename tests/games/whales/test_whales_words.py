"""Every announcement, prompt and refusal the rules can make has words in a catalogue."""

import re
from importlib import resources

from hypothesis import given, settings
from hypothesis import strategies as st
from whales_kit import random_game

from device.hardware.voice.render import box_messages
from games.whales.text import catalogue_words, render

KEY = re.compile(r'(?:\bsay|\basking|\b(?!Reveal\b)[A-Z]\w*)\(\s*"([a-z_0-9]+)"')  # say("key"), SomeError("key")


def test_every_literal_key_in_the_rules_has_words():
    words = {**box_messages(), **catalogue_words()}
    found = set()
    for source in resources.files("games.whales").iterdir():
        if source.name.endswith(".py"):
            found |= set(KEY.findall(source.read_text()))
    assert {"deal_put_aside", "not_offered_card", "discard_prompt", "need_superspy"} <= found
    assert sorted(k for k in found if k not in words) == []


@given(st.integers(0, 2**32 - 1), st.integers(3, 6))
@settings(max_examples=20, deadline=None)
def test_every_prompt_and_announcement_of_a_random_game_renders(seed, teams):
    from games.whales.rules import GAME

    for state, _, effects in random_game(seed, teams):
        for words in [GAME.prompt(state).ask, *(e for e in effects if hasattr(e, "key") and hasattr(e, "params"))]:
            text = render(words)
            assert "{" not in text and words.key in catalogue_words(), words
