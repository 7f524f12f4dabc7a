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

With `still_frames` (the device's camera feed turns it on), a view that has not changed since the
last frame that was identified and showed nothing (every cell of a 32 x 24 grey thumbnail within
`still_level` grey levels) is not identified again, for at most `still_frames` frames in a row:
an empty lid costs a thumbnail instead of an identification. The comparison is with the last
*identified* frame, so a slow drift adds up and is looked at. Off by default, so the bench's
hold sequences still measure identification on every frame.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import cv2
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
        still_frames: int = 0,
        still_level: float = 6.0,
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
        self.still_frames = still_frames  # an unchanged empty view reuses its identification this often in a row
        self.still_level = still_level  # grey levels a thumbnail cell may move in an unchanged view
        self._still_ref: np.ndarray | None = None  # thumbnail of the last identified frame
        self._still_run = 0
        self.reused = 0  # frames not identified again (unchanged empty view)
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
        """Identify one frame (unless it is an unchanged empty view, see above) and apply the rules."""
        thumb = _thumbnail(frame) if self.still_frames > 0 else None
        if (
            thumb is not None
            and self._still_ref is not None
            and self.last is not None
            and self.last.status == "none"
            and self._still_run < self.still_frames
            and float(np.abs(thumb - self._still_ref).max()) <= self.still_level
        ):
            self._still_run += 1
            self.reused += 1
            return self.observe(self.last)
        ident = self._identify(frame)
        self._still_ref, self._still_run = thumb, 0
        return self.observe(ident)

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


def _thumbnail(frame: object) -> np.ndarray | None:
    """A 32 x 24 grey thumbnail (cell means: sensor noise averages out), or None for no image."""
    if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or min(frame.shape[:2]) < 32:
        return None
    if frame.ndim == 3 and frame.shape[2] != 3:
        return None
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return cv2.resize(grey, (32, 24), interpolation=cv2.INTER_AREA).astype(np.float32)
