"""The secrecy oracle of Houston, We Have a Dolphin!: what must never be published publicly now.

Secret during play: where each card is. So the id and the printed name of every card in a hand, a
module, the void or face down on a slot, except the cards the table has seen face up — the open
captain card and every card shown so before (Cpt. E. Glue once revealed; a fallen captain's card
goes to the void by name), and a card an observer's sighting named aloud (the table heard it; the
public log of spacewalks keeps saying it). Also secret until the end: how each spacewalk went (the hidden
accounts such as `engineering:B`), and the fields that would say which teams are dolphinized and
which chance outcomes were drawn (`dolphinized`, `chances`: the public view carries neither before
the reveal). Once the game is over the layout is revealed and nothing is secret any more.
"""

from __future__ import annotations

from games.hwhad.cards import catalogue
from games.hwhad.state import CREWING, OVER, HState

HIDDEN_FIELDS = ("dolphinized", "chances")


def secrets(state: HState) -> frozenset[str]:
    if state.phase in (OVER, CREWING):
        return frozenset()
    cards = catalogue()
    hidden = {c for hand in state.hands for c in hand}
    hidden.update(c for c in state.modules if c)
    hidden.update(state.void)
    hidden.update(c for c, _ in state.slots)
    hidden.difference_update(state.face_up)
    seen = {str(s.params.get("name", "")) for said in state.reports for s in said}
    ids = {c for c in hidden if cards[c].name not in seen}
    result = ids | {cards[c].name for c in ids}
    result.update(step for how in state.history for step in how)
    result.update(HIDDEN_FIELDS)
    return frozenset(result)
