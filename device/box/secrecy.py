"""What a refusal sent back to a command may say: nothing the public view does not already show.

A command's refusal is answered on MQTT, published on the public events topic and spoken in the
room, so whoever sent it learns what it says. A refusal that names a card, or that is about a card
(a scan or a choice naming it), tells something about a card the table cannot see — where it is,
or where it is not — unless the public view already shows that card. Such a refusal is replaced by
the plain "Not now." The hidden strings are the game's secrecy oracle (`Game.secrets`) and every
card id of its deck that does not appear in the public view.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.core import Choose, Input, RuleError, Scan
from games.session import Session


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _strings(item)


def hidden_strings(session: Session) -> frozenset[str]:
    """Card ids (and the game's secrets) the public view does not show, with the cards' names."""
    game, state = session.game, session.state
    public = set(_strings(game.public_view(state)))
    cards = game.cards()
    hidden = (set(game.secrets(state)) | set(cards.ids)) - public
    names = {cards.name(c) for c in hidden if c in cards.ids} - public
    return frozenset(h for h in hidden | names if h)


def refusal_reveals(session: Session | None, exc: RuleError, text: str, inp: Input | None) -> bool:
    """True when this refusal of `inp` would tell something about a card the table cannot see."""
    if session is None:
        return False
    hidden = hidden_strings(session)
    if not hidden:
        return False
    if isinstance(inp, Scan) and inp.card in hidden:
        return True
    if isinstance(inp, Choose) and inp.option in hidden:
        return True
    said = [text, *_strings(exc.params)]
    return any(h in s for h in hidden for s in said)
