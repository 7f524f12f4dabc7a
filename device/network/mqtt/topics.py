"""Topic names and payloads: the one place that decides what goes where on the broker.

Public topics carry only what the service put in `Update.public` and `Update.events` (plus a
sequence number and the schema version); a team's view goes to that team's topic alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from device.box.views import PUBLIC_SCHEMA, public_json

ROOT = "houston"
ONLINE = b"online"
OFFLINE = b"offline"


@dataclass(frozen=True)
class Topics:
    """The box's topics under houston/<box>/."""

    box: str

    @property
    def base(self) -> str:
        return f"{ROOT}/{self.box}"

    @property
    def availability(self) -> str:
        return f"{self.base}/availability"

    @property
    def state(self) -> str:
        return f"{self.base}/state"

    @property
    def events(self) -> str:
        return f"{self.base}/events"

    @property
    def log(self) -> str:
        """This game's public events, retained and bounded (the page's history after a reload)."""
        return f"{self.base}/log"

    @property
    def summary(self) -> str:
        """A flat, retained digest of the state for Home Assistant's sensors (device/network/mqtt/summary.py)."""
        return f"{self.base}/summary"

    @property
    def results(self) -> str:
        """Results only (game over, round result), never retained: Home Assistant's event entity."""
        return f"{self.base}/results"

    def team(self, team: str) -> str:
        return f"{self.base}/team/{team}"

    @property
    def commands(self) -> str:
        """Ordinary commands, one level per sender: houston/<box>/cmd/<user>/<name>. The ACL lets
        each user write only its own level and read only its own replies, so a refusal meant for
        red is never read by blue."""
        return f"{self.base}/cmd/+/+"

    @property
    def admin_commands(self) -> str:
        """Privileged commands: only `admin` may write here (firmware_config/mosquitto/acl)."""
        return f"{self.base}/admin/cmd/+"

    def command(self, name: str, *, user: str | None = None, admin: bool = False) -> str:
        """The topic `user` sends command `name` on (or the admin's privileged one)."""
        if admin:
            return f"{self.base}/admin/cmd/{name}"
        if not user or "/" in user or "+" in user or "#" in user:
            raise ValueError("an ordinary command topic needs the sending user's name")
        return f"{self.base}/cmd/{user}/{name}"

    @staticmethod
    def reply(command_topic: str) -> str:
        return f"{command_topic}/reply"

    def parse_command(self, topic: str) -> tuple[str, bool] | None:
        """(command name, privileged) for a command topic, None for anything else (replies
        included). Ordinary commands are cmd/<user>/<name>; privileged ones admin/cmd/<name>."""
        admin = f"{self.base}/admin/cmd/"
        if topic.startswith(admin):
            name = topic[len(admin):]
            return (name, True) if name and "/" not in name else None
        ordinary = f"{self.base}/cmd/"
        if topic.startswith(ordinary):
            user, _, name = topic[len(ordinary):].partition("/")
            if user and name and "/" not in name:
                return name, False
        return None


def command_user(topics: Topics, topic: str) -> str | None:
    """The sending user of an ordinary command topic cmd/<user>/<name> (the ACL lets only <user>
    write there), None for anything else."""
    ordinary = f"{topics.base}/cmd/"
    if not topic.startswith(ordinary):
        return None
    user, _, name = topic[len(ordinary):].partition("/")
    return user if user and name and "/" not in name else None


def encode(value: Any) -> bytes:
    """Compact JSON, keys in a stable order, so equal views give byte-equal payloads."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")


def state_payload(seq: int, public: dict[str, Any]) -> bytes:
    return public_json(seq, public)


def event_payload(seq: int, event: dict[str, Any]) -> bytes:
    return encode({**event, "schema": PUBLIC_SCHEMA, "seq": seq})


def team_payload(seq: int, team: str, view: dict[str, Any]) -> bytes:
    return encode({"schema": PUBLIC_SCHEMA, "seq": seq, "team": team, "view": view})
