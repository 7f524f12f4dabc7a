"""The outlet that turns service updates into speech and sounds on the Speaker's queue."""

from __future__ import annotations

from device.box.service import Update
from device.hardware.voice.speaker import Speaker

SPOKEN = ("say", "prompt", "error")


class SpeakerOutlet:
    """Say every announcement, prompt and refusal, and play every sound, in the order they came."""

    def __init__(self, speaker: Speaker) -> None:
        self.speaker = speaker

    def deliver(self, update: Update) -> None:
        for event in update.events:
            if event["type"] == "sound":
                self.speaker.sound(event["name"])
            elif event["type"] in SPOKEN and event.get("text"):
                self.speaker.say(event["text"])
