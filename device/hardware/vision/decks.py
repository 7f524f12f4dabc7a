"""Which card ids make up a deck: the games' catalogues, the built-in synthetic decks, or custom.

The vision code never hard-codes a game's cards; it asks here. A deck name that no game and no
synthetic deck provides is a *custom* deck, whose card ids come from the enrollment file names.
"""

from __future__ import annotations

from games.badges import BADGES
from games.core import TEAM_COLOURS

BADGE_COLOURS: tuple[str, ...] = TEAM_COLOURS  # the synthetic art draws one badge per team colour

# Roles of the synthetic deck and how many named cards share each role frame (look-alike groups).
_SYNTHETIC_ROLES: tuple[tuple[str, int], ...] = (
    ("engineer", 14),
    ("pilot", 10),
    ("medic", 9),
    ("scientist", 8),
    ("commander", 7),
    ("navigator", 6),
)
_NAMES: tuple[str, ...] = (
    "ada", "ben", "cleo", "dax", "eve", "finn", "gus", "hana", "ivo", "jun", "kai", "lena",
    "max", "nia", "otto", "pia", "quin", "rosa", "sami", "tara", "uma", "vik", "wren", "xia",
    "yara", "zed", "abe", "bea", "cyd", "dora", "eli", "fay", "gil", "hugo", "ines", "jett",
    "kira", "leo", "mona", "ned", "ola", "pax", "rex", "sia", "tom", "ula", "val", "wim",
    "yuri", "zoe", "arlo", "bo", "cara", "dino", "edda", "fritz", "gwen", "hal", "isa", "jo",
    "kit", "lou", "mika", "nora", "oz", "pol", "ray", "sol", "tess", "ugo", "vera", "will",
)  # fmt: skip

SYNTHETIC_DECK = "synthetic"
FOREIGN_DECK = "synthetic-other"
SHARED_FRAME_DECK = "synthetic-shared"  # one frame for every card, near-twins: a tuning deck
TEXT_FRAME_DECK = "synthetic-text"  # one frame with a rules-text box, soft art, plain cards: a tuning deck
PLAIN_PROBE_DECK = "synthetic-plain"  # the text-frame deck's art cards and random plain cards: a tuning deck
PLAIN_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "grey", "orange", "teal", "pink")
PLAIN_SHAPES: tuple[str, ...] = ("square", "triangle", "bar")


def _role_cards(roles: tuple[tuple[str, int], ...], offset: int) -> list[str]:
    cards: list[str] = []
    i = offset
    for role, count in roles:
        for _ in range(count):
            cards.append(f"{role}-{_NAMES[i % len(_NAMES)]}")
            i += 1
    return cards


def synthetic_deck() -> list[str]:
    """The benchmark deck: 54 role cards in six look-alike role groups plus the six badges."""
    return [*_role_cards(_SYNTHETIC_ROLES, 0), *BADGES]


def synthetic_unenrolled() -> list[str]:
    """Cards drawn in the synthetic deck's role frames but never enrolled (negatives)."""
    roles = tuple((role, 3) for role, _ in _SYNTHETIC_ROLES)
    return _role_cards(roles, 54)


def synthetic_foreign_deck() -> list[str]:
    """A second game's deck with its own frame designs, to test 'not from this game'."""
    return _role_cards((("scout", 4), ("trader", 4), ("guard", 4)), 20)


def synthetic_extra(count: int) -> list[str]:
    """More role cards in extra roles, for measuring how time grows with the deck size."""
    roles = tuple((f"crew{i}", 10) for i in range((count + 9) // 10))
    return _role_cards(roles, 7)[:count]


def shared_frame_deck() -> list[str]:
    """A tuning deck shaped like most real decks: 40 cards in one frame, 6 near-twins, 6 badges."""
    crew = _role_cards((("crew", 40),), 3)
    return [*crew, *(f"{c}-ii" for c in crew[:6]), *BADGES]


def shared_frame_unenrolled() -> list[str]:
    """Cards in the shared-frame deck's frame that are never enrolled."""
    return _role_cards((("crew", 10),), 43)


def text_frame_deck() -> list[str]:
    """A tuning deck shaped like card-game decks: 40 cards in one frame whose lower half is a
    rules-text box shared by all, soft illustrations, 6 near-twins, 6 plain low-texture cards."""
    tales = _role_cards((("tale", 40),), 11)
    plains = [f"plain-{c}-{PLAIN_SHAPES[i % 3]}" for i, c in enumerate(PLAIN_COLOURS[:6])]
    return [*tales, *(f"{c}-ii" for c in tales[:6]), *plains]


def text_frame_unenrolled() -> list[str]:
    """Cards in the text-frame deck's frame (and two plain cards) that are never enrolled."""
    return [*_role_cards((("tale", 10),), 51), *(f"plain-{c}-square" for c in PLAIN_COLOURS[6:])]


def plain_probe_deck() -> list[str]:
    """A tuning deck for plain cards of designs no one chose: the text-frame deck's 40 art cards and
    6 near-twins beside 16 plain cards each drawn at random from its id (a field of any colour,
    pale, grey or dark, one emblem of one of seven shapes, light or dark, a border or none).
    The deck's own plain cards are few and were tuned on; these measure how that carries over."""
    art = [c for c in text_frame_deck() if not c.startswith("plain-")]
    return [*art, *(f"field-{i:02d}" for i in range(16))]


def plain_probe_unenrolled() -> list[str]:
    """Art cards and random plain cards (drawn the same way) that are never enrolled."""
    art = [c for c in text_frame_unenrolled() if not c.startswith("plain-")][:6]
    return [*art, *(f"field-{i:02d}" for i in range(16, 26))]


_SYNTHETIC: dict[str, list[str]] = {}


def builtin_synthetic_decks() -> dict[str, list[str]]:
    """Synthetic decks by name (built lazily, the lists are small)."""
    if not _SYNTHETIC:
        _SYNTHETIC[SYNTHETIC_DECK] = synthetic_deck()
        _SYNTHETIC[FOREIGN_DECK] = synthetic_foreign_deck()
        _SYNTHETIC[SHARED_FRAME_DECK] = shared_frame_deck()
        _SYNTHETIC[TEXT_FRAME_DECK] = text_frame_deck()
        _SYNTHETIC[PLAIN_PROBE_DECK] = plain_probe_deck()
    return _SYNTHETIC


def game_deck_names() -> tuple[str, ...]:
    """Decks the installed games provide (empty while games.catalog is unavailable)."""
    try:
        from games import catalog
    except ImportError:
        return ()
    try:
        return tuple(catalog.deck_names())
    except Exception:  # a broken game must not take the camera down
        return ()


def card_ids_for(deck: str) -> list[str] | None:
    """Card ids of a known deck (game catalogue or synthetic), None for a custom deck."""
    synthetic = builtin_synthetic_decks().get(deck)
    if synthetic is not None:
        return list(synthetic)
    try:
        from games import catalog
    except ImportError:
        return None
    try:
        cards = catalog.deck_cards(deck)
    except Exception:
        return None
    return list(cards) if cards is not None else None


def builtin_decks() -> dict[str, list[str]]:
    """Every deck the box knows about without enrollment files: games' decks and synthetic ones."""
    decks = dict(builtin_synthetic_decks())
    for name in game_deck_names():
        cards = card_ids_for(name)
        if cards:
            decks[name] = cards
    return decks
