"""Answer the rules' chance requests with the operating system's randomness.

Every draw goes through `secrets` (never Mersenne Twister) and is scaled without bias by
`secrets.randbelow`. The rules never see this module: they get the drawn outcomes, journaled.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Any, Protocol

from games.core import Chance, ChanceRequest, Shuffle


class Drawer(Protocol):
    def below(self, n: int) -> int: ...


class SecretDrawer:
    """The box's source of chance."""

    def below(self, n: int) -> int:
        return secrets.randbelow(n)


class SeededDrawer:
    """A reproducible source for `houston simulate --seed` and tests: never used by the box, whose
    draws must not be predictable. The outcomes still go through `draw_one`, the box's own code."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.below = rng.randrange  # bound once: the simulator draws millions of times


def draw_one(request: ChanceRequest, drawer: Drawer) -> Any:
    """One outcome: an index with the request's exact integer odds, or a uniform permutation."""
    if isinstance(request, Chance):
        weights = request.weights
        if not weights:
            raise ValueError(f"chance {request.name}: weights must be non-negative with a positive sum")
        total = sum(weights)
        first = weights[0]
        if first > 0 and weights.count(first) == len(weights):  # equal odds (a die, a deal): no walk
            return drawer.below(total) // first
        if min(weights) < 0:
            raise ValueError(f"chance {request.name}: weights must be non-negative with a positive sum")
        if total <= 0:
            raise ValueError(f"chance {request.name}: weights must be non-negative with a positive sum")
        ticket = drawer.below(total)
        for index, weight in enumerate(weights):
            if ticket < weight:
                return index
            ticket -= weight
        raise AssertionError("unreachable")
    if isinstance(request, Shuffle):
        order = list(range(request.size))
        for i in range(request.size - 1, 0, -1):  # Fisher-Yates
            j = drawer.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order
    raise TypeError(f"not a chance request: {request!r}")


def draw_all(requests: Sequence[ChanceRequest], drawer: Drawer | None = None) -> dict[str, Any]:
    """Outcomes for every request, by name: what the box journals (and the simulator applies)."""
    if not requests:
        return {}
    drawer = drawer or SecretDrawer()
    return {request.name: draw_one(request, drawer) for request in requests}
