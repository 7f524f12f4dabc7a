"""Answer the rules' chance requests with the operating system's randomness.

Every draw goes through `secrets` (never Mersenne Twister) and is scaled without bias by
`secrets.randbelow`. The rules never see this module: they get the drawn outcomes, journaled.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from games.core import Chance, ChanceRequest, Shuffle, check_outcomes


class Drawer(Protocol):
    def below(self, n: int) -> int: ...


class SecretDrawer:
    """The box's source of chance."""

    def below(self, n: int) -> int:
        return secrets.randbelow(n)


class SeededDrawer:
    """A reproducible source for `houston simulate --seed` and tests: never used by the box, whose
    draws must not be predictable. The outcomes still go through `draw_one`, the box's own code,
    or through a `DrawPlan` made from it for requests that come again and again (the dice)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.below = seeded_below(rng)  # bound once: the simulator draws millions of times
        self._seen: Sequence[ChanceRequest] | None = None  # the last request tuple drawn
        self._planned: Sequence[ChanceRequest] | None = None  # the tuple `_plan` was made for
        self._plan: DrawPlan | None = None
        self._sure_bits: tuple[tuple[str, int, int, int], ...] | None = None
        self._getrandbits = rng.getrandbits

    def outcomes(self, requests: Sequence[ChanceRequest]) -> dict[str, Any]:
        """What `houston simulate` applies: `draw_all`'s outcomes, checked with `check_outcomes`
        unless a plan vouches for them (the dice: drawn by the plan, one call a roll)."""
        if requests is self._planned and self._sure_bits is not None:
            return self._draw_bits(self._sure_bits)
        outcomes, valid = self.draw_all(requests)
        if not valid:
            check_outcomes(requests, outcomes)
        return outcomes

    def draw_all(self, requests: Sequence[ChanceRequest]) -> tuple[dict[str, Any], bool]:
        """Outcomes for every request, by name, and whether they answer the requests by
        construction (True: no `check_outcomes` needed; False: check them, as the box would).
        A request tuple that comes back as the same object (the rules hand out one constant tuple
        for a roll) gets a plan, worked out once; one plan is kept, the latest."""
        if requests is not self._planned:
            if requests is not self._seen:
                self._seen = requests
                return draw_all(requests, self), False
            self._plan = DrawPlan(requests)
            self._planned = requests
            self._sure_bits = self._plan.bits if self._plan.valid else None  # what `outcomes` draws in place
        plan = self._plan
        assert plan is not None
        if plan.bits is None:
            return plan.draw(self), plan.valid
        return self._draw_bits(plan.bits), plan.valid

    def _draw_bits(self, bits: Sequence[tuple[str, int, int, int]]) -> dict[str, Any]:
        """A plan's equal-odds outcomes: `below(total) // first` for each, written out
        (randrange's numbers without its argument handling)."""
        getrandbits = self._getrandbits
        outcomes = {}
        for name, total, first, k in bits:
            r = getrandbits(k)
            while r >= total:
                r = getrandbits(k)
            outcomes[name] = r // first
        return outcomes


def seeded_below(rng: random.Random) -> Callable[[int], int]:
    """`rng.randrange(n)` for n >= 1, the same numbers from the same state (CPython's rejection
    sampling on `getrandbits`: k = n.bit_length() bits, again while >= n), without randrange's
    argument handling, which costs twice the draw. tests/simulation checks it against randrange."""
    getrandbits = rng.getrandbits

    def below(n: int) -> int:
        if n <= 0:
            raise ValueError("empty range for randrange()")
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    return below


class DrawPlan:
    """How to draw the outcomes of one tuple of requests, worked out once: equal-odds chances
    (dice) become (name, total, first) rows drawn as `below(total) // first`, exactly what
    `draw_one` does; anything else is drawn by `draw_one`. `valid` says the outcomes answer the
    requests by construction: names are distinct and every weight list is well-formed (an index
    drawn is then in range with a positive weight, a shuffle a permutation)."""

    def __init__(self, requests: Sequence[ChanceRequest]) -> None:
        self.requests = tuple(requests)
        names = [request.name for request in self.requests]
        self.valid = len(set(names)) == len(names) and all(_well_formed(r) for r in self.requests)
        uniform = [_uniform(r) for r in self.requests]
        self.uniform: tuple[tuple[str, int, int], ...] | None = (
            tuple(u for u in uniform if u is not None) if all(u is not None for u in uniform) else None)
        # the same rows with the bits `below(total)` draws at a time (see seeded_below)
        self.bits: tuple[tuple[str, int, int, int], ...] | None = (
            tuple((name, total, first, total.bit_length()) for name, total, first in self.uniform)
            if self.uniform is not None else None)

    def draw(self, drawer: Drawer) -> dict[str, Any]:
        if self.uniform is not None:
            below = drawer.below
            return {name: below(total) // first for name, total, first in self.uniform}
        return {request.name: draw_one(request, drawer) for request in self.requests}


def _uniform(request: ChanceRequest) -> tuple[str, int, int] | None:
    """(name, total, first) for a chance with equal positive weights, else None."""
    if not isinstance(request, Chance) or not request.weights:
        return None
    first = request.weights[0]
    if first <= 0 or request.weights.count(first) != len(request.weights):
        return None
    return request.name, sum(request.weights), first


def _well_formed(request: ChanceRequest) -> bool:
    if isinstance(request, Chance):
        return (bool(request.weights) and all(isinstance(w, int) and w >= 0 for w in request.weights)
                and sum(request.weights) > 0)
    return isinstance(request, Shuffle) and isinstance(request.size, int) and request.size >= 0


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
