"""Narration: turning the rules' effects and prompts into the events outlets show and speak.

The service decides what happened; this module decides what is said about it: each announcement
rendered from the game's message catalogue, then the prompt again if it changed (never the same
words twice in a row), sounds, lights and the end of a game as events. It remembers what was
last said, for REPEAT.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from device.hardware.voice.render import render
from games.core import Choose, Effect, GameOver, Input, Light, Press, RuleError, Say, Scan, SetupError, Sound, say

Event = dict[str, Any]
MAX_REMEMBERED = 16  # lines REPEAT may say again


class Narrator:
    """Renders words in one language and remembers what it last said and asked."""

    def __init__(self, language: str = "en") -> None:
        self.language = language
        self.last_spoken: list[str] = []
        self._last_prompt: tuple[str, str] | None = None

    def render(self, words: Say, game_id: str) -> str:
        return render(words, game_id, self.language)

    def memory(self) -> tuple[tuple[str, str] | None, list[str]]:
        """What narrating changes (the last prompt, the last words), to put back with `recall`."""
        return self._last_prompt, self.last_spoken

    def recall(self, memory: tuple[tuple[str, str] | None, list[str]]) -> None:
        """Forget a narration that was never shown (its input did not reach the journal)."""
        self._last_prompt, self.last_spoken = memory

    def forget_prompt(self) -> None:
        """The next narration says the prompt even if it has not changed (after an undo, a resume)."""
        self._last_prompt = None

    def narrate(self, words: Sequence[Say], effects: Sequence[Effect], ask: Say, game_id: str,
                force_prompt: bool = False) -> list[Event]:
        """Events for one handled job: sounds, lights and the end of a game from `effects`, then
        `words` spoken, then `ask` (the prompt) if it changed or `force_prompt`."""
        events: list[Event] = []
        spoken: list[str] = []
        for effect in effects:
            if isinstance(effect, Sound):
                events.append({"type": "sound", "name": effect.name})
            elif isinstance(effect, Light):
                events.append({"type": "light", "target": effect.target, "colour": effect.colour,
                               "pattern": effect.pattern})
            elif isinstance(effect, GameOver):
                events.append({"type": "game_over", "reason": effect.reason, "winners": list(effect.winners)})
        for words_ in words:
            text = self.render(words_, game_id)
            spoken.append(text)
            events.append({"type": "say", "key": words_.key, "text": text})
        prompt_id = (ask.key, repr(sorted(ask.params.items())))
        if force_prompt or prompt_id != self._last_prompt:
            text = self.render(ask, game_id)
            if text not in spoken:
                spoken.append(text)
                events.append({"type": "prompt", "key": ask.key, "text": text})
        self._last_prompt = prompt_id
        if spoken:
            self.last_spoken = spoken[-MAX_REMEMBERED:]
        return events

    def repeat(self, ask: Say, game_id: str, prompt_only: bool = False) -> list[Event]:
        """REPEAT: the last announcement again (or, held, only what the box waits for)."""
        texts = [] if prompt_only else list(self.last_spoken)
        if not texts:
            texts = [self.render(ask, game_id)]
        self.last_spoken = texts
        return [{"type": "say", "text": t, "repeat": True} for t in texts]

    def refusal(self, exc: RuleError, game_id: str) -> tuple[list[Event], str]:
        """A refused input or command: an error sound and the reason. Bad set-up options are told
        apart from refused inputs (`refused`: `setup` or `input`) so displays can point at the options."""
        text = self.render(Say(exc.key, exc.params), game_id)
        return [{"type": "sound", "name": "error"},
                {"type": "error", "key": exc.key, "text": text, "refused": refused_kind(exc)}], text


def refused_kind(exc: RuleError) -> str:
    """`setup` for options a game cannot start with, `input` for everything else refused."""
    return "setup" if isinstance(exc, SetupError) else "input"


def describe_undone(inp: Input) -> Say:
    """The words that name an input BACK took back."""
    if isinstance(inp, Press):
        return say("undo_hold" if inp.hold else "undo_press", button=inp.button)
    if isinstance(inp, Scan):
        return say("undo_scan")
    if isinstance(inp, Choose):
        return say("undo_choose", option=inp.option)
    raise TypeError(f"not an input: {inp!r}")
