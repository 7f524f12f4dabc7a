"""Turn a stream of per-frame identifications into at most one decision per card presentation.

Rules (all times from the injected clock, so tests do not sleep):
- A card is decided when `agree` of the last `window` frames name it, the newest one does, and
  no other card is named more than once in the last `conflict_window` frames (two look-alikes
  taking turns: no decision).
- The decided card is not decided again until it has left the view: not seen for `gone_after`
  seconds (a card still half-recognised, e.g. "unknown" with that card as best guess, counts as
  seen, so a flickering recognition does not scan twice).
- A card-like object (a card-shaped homography whose face matches nothing) that stays for
  `unknown_after` seconds without a decision, seen in at least `unknown_density` of the frames
  of the last such span, gives one `unknown` decision per presentation.
- A recognised card enrolled for another deck (not in the current deck) gives `foreign`.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from device.hardware.vision.decks import card_ids_for
from device.hardware.vision.identifier import Identification

CARD, UNKNOWN, FOREIGN = "card", "unknown", "foreign"


@dataclass(frozen=True)
class Decision:
    """One decision of the session: kind is "card", "unknown" or "foreign"."""

    kind: str
    card: str | None = None
    deck: str | None = None
    score: float = 0.0


class ScanSession:
    """Frames in, decisions out; one instance per camera."""

    def __init__(
        self,
        identify: Callable[[np.ndarray], Identification],
        *,
        deck: str | Callable[[], str | None] | None = None,
        deck_cards: Callable[[str], list[str] | None] = card_ids_for,
        clock: Callable[[], float] = time.monotonic,
        agree: int = 3,
        window: int = 8,
        conflict_window: int = 5,
        gone_after: float = 0.6,
        unknown_after: float = 1.0,
        unknown_density: float = 0.5,
    ) -> None:
        self._identify = identify
        self._deck = deck
        self._deck_cards = deck_cards
        self._clock = clock
        self.agree = agree
        self.window = window
        self.conflict_window = conflict_window
        self.gone_after = gone_after
        self.unknown_after = unknown_after
        self.unknown_density = unknown_density
        self._history: deque[tuple[float, bool]] = deque()
        self._recent: deque[tuple[str, str] | None] = deque(maxlen=window)
        self._last_seen: dict[tuple[str, str], float] = {}
        self._decided: set[tuple[str, str]] = set()
        self._cardlike_since: float | None = None
        self._cardlike_last = -1e9
        self._unknown_said = False
        self.frames = 0
        self._last_frame = -1e9
        self.last: Identification | None = None

    def current_deck(self) -> str | None:
        return self._deck() if callable(self._deck) else self._deck

    def feed(self, frame: np.ndarray) -> Decision | None:
        """Identify one frame and apply the rules."""
        return self.observe(self._identify(frame))

    def observe(self, ident: Identification) -> Decision | None:
        """Apply the rules to one frame's identification (no image work: testable alone)."""
        now = self._clock()
        self.frames += 1
        self.last = ident
        if now - self._last_frame >= self.gone_after:  # a pause in the stream: old frames say nothing
            self._recent.clear()
        self._last_frame = now
        # Forget decided cards that have left the view (before this frame counts as seeing them).
        for gone in [lab for lab in self._decided if now - self._last_seen.get(lab, -1e9) >= self.gone_after]:
            self._decided.discard(gone)
        label = (ident.deck or "", ident.card) if ident.card else None
        if label is not None and ident.status in ("match", "unknown"):
            self._last_seen[label] = now
        self._recent.append(label if ident.is_match else None)
        if ident.status in ("match", "unknown"):
            if self._cardlike_since is None or now - self._cardlike_last >= self.gone_after:
                self._cardlike_since = now
                self._unknown_said = False
            self._cardlike_last = now
        elif self._cardlike_since is not None and now - self._cardlike_last >= self.gone_after:
            self._cardlike_since = None
            self._unknown_said = False

        self._history.append((now, ident.status in ("match", "unknown")))
        while self._history and now - self._history[0][0] > self.unknown_after:
            self._history.popleft()
        dense = sum(c for _, c in self._history) >= self.unknown_density * len(self._history)

        if label is not None and ident.is_match and label not in self._decided:
            votes = sum(1 for lab in self._recent if lab == label)
            latest = list(self._recent)[-self.conflict_window :]
            rivals = max(
                (latest.count(other) for other in set(latest) if other is not None and other != label), default=0
            )
            if votes >= self.agree and rivals <= 1:  # two cards taking turns: not sure of either
                self._decided.add(label)
                self._unknown_said = True  # this presentation is settled
                return self._decision_for(label, ident.score)
        if (
            ident.status == "unknown"
            and not self._unknown_said
            and not self._decided_in_view(now)
            and self._cardlike_since is not None
            and now - self._cardlike_since >= self.unknown_after
            and dense
        ):
            self._unknown_said = True
            return Decision(UNKNOWN, score=ident.score)
        return None

    def _decided_in_view(self, now: float) -> bool:
        return any(now - self._last_seen.get(lab, -1e9) < self.gone_after for lab in self._decided)

    def _decision_for(self, label: tuple[str, str], score: float) -> Decision:
        deck, card = label
        current = self.current_deck()
        if current is None or deck == current:
            return Decision(CARD, card, deck, score)
        cards = self._deck_cards(current)
        if cards is not None and card in cards:  # e.g. team badges, shared by every game
            return Decision(CARD, card, deck, score)
        return Decision(FOREIGN, card, deck, score)
