"""Fixtures: one real Mosquitto for the folder, and boxes linked to it under unique box ids
(shared with the game folders' MQTT tests: tests/support/broker.py)."""

from tests.support.broker import broker, linked, probes

__all__ = ["broker", "linked", "probes"]
