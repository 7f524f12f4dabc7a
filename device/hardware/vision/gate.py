"""Is a card likely in view? The first stage's evidence decides which expensive paths may run.

An empty table is what the camera sees most (on a Pi, mostly the inside of the lid), so its cost
is the pipeline's common case. The plain pass (ORB, the per-card votes, the families' homographies,
the pooled localiser on the same corners, the badge finder's colour pre-look) is cheap and stays
on every frame: it is where almost every card is found. What costs on an empty table are the
retries made for degraded views: denser corners (a second ORB and a second match of 1,500
descriptors), exhaustive matching, dense alignment. They run only with evidence above what empty
scenes give:

- a family's votes at least `retry_min_votes` (measured at enrollment as 1.25 x the most any of
  the calibration's empty scenes gave: calibration.py), or
- the plain pass already found a card-like face (an "unknown": a fit whose warped face looks like
  a card's layout), which says a card is there even with few votes.

A frame with too few corners to fit a homography has nothing for the retries either: only the
colour finder (plain-field badges) looks at it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Evidence:
    """What the plain pass saw in one frame."""

    corners: int  # ORB corners of the frame
    support: int  # the best family's votes (a card's votes plus its look-alikes')
    card_like: bool  # some fit's warped face looked like a card's layout ("unknown")


@dataclass(frozen=True)
class Gate:
    """The bar the evidence must clear before the retries run (per identifier, from calibration)."""

    retry_min_votes: int  # family votes above every calibration empty scene
    min_corners: int  # fewer corners cannot give a homography

    def card_likely(self, ev: Evidence) -> bool:
        """Whether the retries for degraded views may run on this frame."""
        if ev.corners < self.min_corners:
            return False
        return ev.card_like or ev.support >= self.retry_min_votes
