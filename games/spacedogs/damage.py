"""Damage: "receive" (reductions apply, each per attack, excess lost) versus "suffer" (direct)."""

from __future__ import annotations


def received(amount: int, *, plating: int = 0, cover: bool = False, shields: int = 0) -> int:
    """The damage suffered from one attack that is received: plating reduces every attack, cover
    counts as 1 plating against an attacker in its cone, played shields reduce by their stated
    amount; a reduction larger than the attack is lost (it never carries to the next attack)."""
    reduction = plating + (1 if cover else 0) + shields
    return max(0, amount - reduction)


def suffer(health: int, amount: int) -> int:
    """Health after suffering `amount`: never below 0 (0 = incapacitated or defeated)."""
    return max(0, health - amount)
