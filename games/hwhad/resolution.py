"""What happens on a spacewalk, in the rulebook's hierarchy: asteroid, observe, engineering, dolphins.

A pure function of the three cards and the asteroid outcome. It returns *what* happened (the
report the box may speak) and *how* (kept hidden until the game ends). Decisions beside the
rulebook's words are in docs/rules/hwhad.md (R1-R6).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import SLOTS, Say, say
from games.hwhad.cards import catalogue
from games.hwhad.text import listing

LEFT, RIGHT = "left", "right"


@dataclass(frozen=True, slots=True)
class Resolution:
    """lost: slot indexes sent to the void; opened: a hero opened a module (slot index or -1);
    seen: what observers named (card names, or message keys 'the_dolphin'/'an_asteroid');
    how: the hidden account, e.g. ('asteroid:A', 'observe:B>A', 'engineering:B', 'dolphin:B>C')."""

    lost: tuple[int, ...]
    opened: int
    seen: tuple[str, ...]
    how: tuple[str, ...]


def _neighbour(index: int, facing: str) -> int:
    """The slot a card faces, or -1 off the edge of the spacewalk."""
    other = index - 1 if facing == LEFT else index + 1
    return other if 0 <= other < len(SLOTS) else -1


def resolve(cards: tuple[str, ...], hit: int, modules_left: bool) -> Resolution:
    """Resolve a spacewalk of three cards; `hit` is the asteroid's slot index or -1."""
    cat = catalogue()
    info = [cat[c] for c in cards]
    alive = [True, True, True]
    how: list[str] = []
    if hit >= 0:
        alive[hit] = False
        how.append(f"asteroid:{SLOTS[hit]}")

    seen: list[str] = []
    for i, card in enumerate(info):
        if card.role == "observer" and alive[i]:
            j = _neighbour(i, card.facing)
            if j < 0:
                continue
            if j == hit:
                seen.append("an_asteroid")
            else:
                seen.append("the_dolphin" if info[j].role == "dolphin" else info[j].name)
            how.append(f"observe:{SLOTS[i]}>{SLOTS[j]}")

    opened = -1
    for i in range(1, len(SLOTS) - 1):
        left, right = info[i - 1], info[i + 1]
        if not (alive[i - 1] and alive[i + 1] and alive[i]):
            continue
        if left.wrench != RIGHT or right.wrench != LEFT:
            continue
        target = info[i]
        if target.role == "hero" and modules_left:
            opened = i
            how.append(f"module:{SLOTS[i]}")
        elif target.role == "microwave":
            alive = [False, False, False]
            how.append(f"microwave:{SLOTS[i]}")
        elif target.role == "doggo":
            how.append(f"doggo_survives:{SLOTS[i]}")
        else:
            alive[i] = False
            how.append(f"engineering:{SLOTS[i]}")

    attacks = []
    for i, card in enumerate(info):
        if card.role == "dolphin" and alive[i]:
            j = _neighbour(i, card.facing)
            if j >= 0 and alive[j]:
                attacks.append((i, j))
    for i, j in attacks:  # dolphins strike together: two facing dolphins take each other out
        alive[j] = False
        how.append(f"dolphin:{SLOTS[i]}>{SLOTS[j]}")

    lost = tuple(i for i in range(len(SLOTS)) if not alive[i])
    return Resolution(lost=lost, opened=opened, seen=tuple(seen), how=tuple(how))


def report(result: Resolution) -> tuple[Say, ...]:
    """What the box says: sightings, losses ("Lou was seen and Astronaut B disappears in the
    void." when both), a module opened, or that nothing happened. Never how."""
    lost = [SLOTS[i] for i in result.lost]
    sentences: list[Say] = [say("seen", name=name) for name in result.seen]
    if lost and sentences:
        last = sentences.pop()
        sentences.append(listing("seen_and_lost", lost, name=last.params["name"]))
    elif lost:
        sentences.append(listing("lost", lost))
    if result.opened >= 0:
        sentences.append(say("module_opened"))
    if not sentences:
        sentences.append(say("nothing_happened"))
    return tuple(sentences)
