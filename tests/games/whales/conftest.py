"""Fixtures: one real Mosquitto for the folder (as tests/mqtt has), boxes linked to it, recording
clients (tests/support/broker.py)."""

from tests.support.broker import broker, linked, probes

__all__ = ["broker", "linked", "probes"]
