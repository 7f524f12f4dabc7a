"""Commands in: a message on houston/<box>/cmd/<user>/<name> (or admin/cmd/<name>) becomes a job.

Parsing happens here, at the edge: size, JSON, an object, then field by field against the
command's allow-list (device/box/commands.py). The meaning (press, choose, undo, start a game...)
and every rule check happen in `Service.command` on the service thread, through the same
validation and journal as a button; a command that does not parse is refused there too, so the
table hears why. The answer goes to `<command topic>/reply` (so to the sender alone: the ACL lets
each user read only replies under its own cmd/<user>/), zigbee2mqtt style:
{"status": "ok"|"error", ...}, echoing a "transaction" field if the request carried one.
Privilege comes from the topic alone: only `admin` may write admin/cmd (the broker's ACL), so a
scan (which names a card) is accepted from there and refused from cmd/.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from device.box.commands import User, parse_command
from device.box.jobs import CommandJob, Job, RefuseJob
from device.network.mqtt.topics import Topics, encode
from games.core import RuleError

MAX_COMMAND_BYTES = 4096
TRANSACTION = "transaction"


def error_reply(error: str, message: str) -> dict[str, Any]:
    return {"status": "error", "error": error, "message": message}


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # NaN, Infinity: Python accepts them, JSON does not


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")  # 1e999 would be echoed back as Infinity
    return value


class CommandHandler:
    """Turn command messages into jobs; publish each job's reply."""

    def __init__(
        self,
        topics: Topics,
        post: Callable[[Job], None],
        publish: Callable[[str, bytes], Any],
        max_bytes: int = MAX_COMMAND_BYTES,
    ) -> None:
        self.topics = topics
        self.post = post
        self.publish = publish
        self.max_bytes = max_bytes

    def handle(self, topic: str, payload: bytes) -> bool:
        """Handle one message; False if `topic` is not a command topic of this box."""
        parsed = self.topics.parse_command(topic)
        if parsed is None:
            return False
        name, privileged = parsed
        reply_topic = Topics.reply(topic)
        body, problem = self._parse(payload)
        transaction = body.pop(TRANSACTION, None) if body is not None else None
        answer = self._answerer(reply_topic, transaction)
        if body is None:
            answer(problem or error_reply("malformed_input", "not understood"))
            return True
        try:
            command = parse_command(name, body, User.ADMIN if privileged else User.DISPLAY)
        except RuleError as exc:
            self.post(RefuseJob(exc, answer))
            return True
        self.post(CommandJob(command, answer))
        return True

    def _parse(self, payload: bytes) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        if len(payload) > self.max_bytes:
            return None, error_reply("payload_too_large", f"commands are at most {self.max_bytes} bytes")
        if not payload.strip():
            return {}, None  # an empty message means no arguments (e.g. undo)
        try:
            body = json.loads(payload.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite)
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None, error_reply("malformed_input", "the payload is not valid JSON")
        if not isinstance(body, dict):
            return None, error_reply("malformed_input", "the payload must be a JSON object")
        return body, None

    def _answerer(self, reply_topic: str, transaction: Any) -> Callable[[dict[str, Any]], None]:
        def answer(reply: dict[str, Any]) -> None:
            out = dict(reply)
            if transaction is not None:
                out[TRANSACTION] = transaction
            try:
                data = encode(out)
            except (TypeError, ValueError):
                data = encode({**reply, TRANSACTION: None})
            self.publish(reply_topic, data)

        return answer
