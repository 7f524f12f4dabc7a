"""Connect the camera's scan session to the service: decisions become jobs on its queue.

A recognised card becomes a `Scan(card)` input (validated, journaled and applied like a button);
"I don't know that card" and "that card is not from this game" are spoken and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from device.service import Job, Service
from games.core import Scan, say


def decision_job(decision: Any) -> Job | None:
    """The service job for one vision decision (kind card / unknown / foreign)."""
    if decision.kind == "card" and decision.card:
        return Job("input", Scan(decision.card))
    if decision.kind == "unknown":
        return Job("say", [say("unknown_card")])
    if decision.kind == "foreign":
        return Job("say", [say("foreign_card")])
    return None


def post_decisions(service: Service) -> Callable[[Any], None]:
    """An `on_decision` callback for device.vision.camera_feed.run_camera_feed."""

    def on_decision(decision: Any) -> None:
        job = decision_job(decision)
        if job is not None:
            service.post(job)

    return on_decision


def active_deck(service: Service) -> Callable[[], str | None]:
    """The deck the current game plays with, for the scan session's 'not from this game'."""

    def deck() -> str | None:
        session = service.session
        return session.game.info.deck if session is not None else None

    return deck
