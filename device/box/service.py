"""The box's service loop: one thread owns the game; adapters post jobs to its queue.

For every input: ask the rules whether it is legal now (a refusal is spoken and changes nothing),
draw the chance outcomes it needs, commit input and outcomes to the journal, and only then apply
the rules and show the effects (lights, words, MQTT). On start it replays the journal, so a
pulled plug costs nothing the box had acknowledged.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from device.box.chance import Drawer, draw_all
from device.box.journal import GameRecord, Journal, JournalError
from device.box.recovery import replay_record, result_of
from device.hardware.voice.render import render
from games.core import (
    BACK,
    OK,
    PANEL_BUTTONS,
    REPEAT,
    Choose,
    Effect,
    GameOver,
    Input,
    Light,
    MalformedInput,
    Press,
    Prompt,
    RuleError,
    Say,
    Scan,
    Sound,
    input_from_data,
    say,
)
from games.registry import UnknownGame, game_ids, load_game
from games.session import Session

log = logging.getLogger("houston.service")

PUBLIC_SCHEMA = 1
MAX_QUEUED_JOBS = 512  # a command flood is answered "busy" beyond this, never queued without end
Reply = dict[str, Any]


@dataclass
class Update:
    """What every outlet receives after each handled job. Everything here is public except
    `teams`, which maps each team to its private view (for that team's eyes only)."""

    seq: int
    public: dict[str, Any]
    teams: dict[str, dict[str, Any]]
    events: list[dict[str, Any]]
    effects: list[Effect] = field(default_factory=list)
    lights: dict[str, tuple[str, str]] = field(default_factory=dict)


class Outlet(Protocol):
    def deliver(self, update: Update) -> None: ...


@dataclass
class Job:
    action: str  # press | input | undo | repeat | command | tick | call
    data: Any = None
    reply: Callable[[Reply], None] | None = None


class Service:
    """The referee: current game session, journal, and the outlets that show what happens."""

    def __init__(
        self,
        journal: Journal,
        *,
        box_id: str = "houston-1",
        default_game: str = "dog",
        language: str = "en",
        drawer: Drawer | None = None,
        outlets: Iterable[Outlet] = (),
        notes: Iterable[str] = (),
    ) -> None:
        if default_game not in game_ids():
            raise UnknownGame(f"unknown game {default_game!r}; installed: {', '.join(game_ids())}")
        self.journal = journal
        self.box_id = box_id
        self.language = language
        self.drawer = drawer
        self.outlets: list[Outlet] = list(outlets)
        self.selected = default_game
        self.session: Session | None = None
        self.record: GameRecord | None = None
        self.finished: Session | None = None  # the last game played, shown at idle
        self.last_spoken: list[str] = []
        self._last_prompt: tuple[str, str] | None = None
        self._updates = 0
        self._queue: queue.Queue[Job] = queue.Queue(MAX_QUEUED_JOBS)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.tick_hooks: list[Callable[[], None]] = []
        self.tick_seconds = 0.5
        self.notes = [say(key) for key in notes]  # said once at start (e.g. journal damaged)

    # --- thread and queue ------------------------------------------------------------------

    def post(self, job: Job) -> None:
        """Hand a job to the service thread (safe from any thread). When the queue is full the
        job is refused at once with "busy" (the box's own calls wait for room instead)."""
        if job.action == "call":
            self._queue.put(job)
            return
        try:
            self._queue.put_nowait(job)
        except queue.Full:
            log.warning("service queue full: %s job refused", job.action)
            if job.reply:
                job.reply({"status": "error", "error": "busy", "message": self._render(say("busy"))})

    def post_press(self, press: Press) -> None:
        self.post(Job("press", press))

    def start(self) -> None:
        """Resume from the journal, then run the loop on a thread of its own."""
        self.resume()
        self._thread = threading.Thread(target=self._loop, name="houston-service", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the job in hand, then stop the loop (the journal stays open for the caller)."""
        self._stop.set()
        with contextlib.suppress(queue.Full):  # a full queue wakes the loop anyway
            self._queue.put_nowait(Job("wake"))
        if self._thread is not None:
            self._thread.join(timeout)

    def wait_idle(self, timeout: float = 10.0) -> None:
        """Block until every posted job has been handled (tests and the simulator use this)."""
        done = threading.Event()
        self.post(Job("call", done.set))
        if not done.wait(timeout):
            raise TimeoutError("service did not drain its queue")

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                job = self._queue.get(timeout=self.tick_seconds)
            except queue.Empty:
                job = Job("tick")
            try:
                self.handle(job)
            except Exception:  # the loop must survive anything one job does
                log.exception("job %s failed", job.action)
                if job.reply:
                    job.reply({"status": "error", "error": "internal_error"})
            for hook in self.tick_hooks:
                try:
                    hook()
                except Exception:
                    log.exception("tick hook failed")

    def handle(self, job: Job) -> Reply:
        """Handle one job on the service thread and answer its reply callback."""
        if job.action == "call":
            job.data()
            return {"status": "ok"}
        if job.action in ("tick", "wake"):
            return {"status": "ok"}
        if job.action == "press":
            reply = self.press(job.data)
        elif job.action == "input":
            reply = self.submit(job.data)
        elif job.action == "undo":
            reply = self.undo()
        elif job.action == "repeat":
            reply = self.repeat()
        elif job.action == "command":
            name, payload, privileged = job.data
            reply = self.command(name, payload, privileged=privileged)
        elif job.action == "say":
            reply = self.announce_only(job.data)
        else:
            reply = {"status": "error", "error": "unknown_job"}
        if job.reply:
            job.reply(reply)
        return reply

    # --- the panel ---------------------------------------------------------------------------

    def press(self, press: Press) -> Reply:
        """A button from the panel: BACK undoes, REPEAT repeats, the rest goes to the game."""
        if press.button not in PANEL_BUTTONS:
            return self._refuse(RuleError("unknown_button", {"button": press.button}))
        if press.button == BACK and not press.hold:
            return self.undo()
        if press.button == REPEAT:
            if press.hold and self.session is None:
                return self.next_game()
            return self.repeat(prompt_only=press.hold)
        if self.session is None:
            if press.button == OK and not press.hold:
                return self.start_game(self.selected, {})
            return self._refuse(RuleError("no_game"))
        return self.submit(press)

    # --- games -------------------------------------------------------------------------------

    def resume(self) -> None:
        """On start: rebuild the unfinished game from the journal, or wait at idle."""
        record = self.journal.unfinished()
        notes, self.notes = self.notes, []
        if record is None:
            self._emit([say("box_online"), *notes, *self._idle_words()], [])
            return
        try:
            game = load_game(record.game)
            session = Session.start(game, record.options)
        except (UnknownGame, RuleError) as exc:
            log.error("cannot resume game %s: %s", record.id, exc)
            self.journal.end_game(record.id, {"reason": "abandoned", "error": str(exc)})
            self._emit([say("box_online"), *self._idle_words()], [])
            return
        words: list[Say] = list(notes)
        got = replay_record(self.journal, record, session)
        if got.voided_from is not None:
            words.append(say("journal_entry_unreadable", seq=got.voided_from))
        self._last_prompt = None
        if session.over is not None:  # killed between the final input and the game's end
            self.journal.end_game(record.id, result_of(session.over))
            self.finished = session
            self._emit([*words, *got.unheard, say("game_closed_on_resume", title=game.info.title)], [])
        else:
            self.session, self.record = session, record
            self._emit([say("game_resumed", title=game.info.title), *words, *got.unheard], [], force_prompt=True)
            if got.last_result and not got.unheard:  # REPEAT gives the last result, then the prompt
                self.last_spoken = [self._render(w) for w in got.last_result] + [self._render(self._prompt_say())]
        self.journal.mark_announced(record.id, got.last_seq)

    def start_game(self, game_id: str, options: Mapping[str, Any]) -> Reply:
        if self.session is not None:
            return self._refuse(RuleError("game_running"))
        try:
            game = load_game(game_id)
            session = Session.start(game, dict(options))
        except UnknownGame:
            return self._refuse(RuleError("unknown_game", {"game": game_id}))
        except RuleError as exc:
            return self._refuse(exc)
        try:
            game_row = self.journal.begin_game(game_id, dict(options))
        except Exception as exc:
            return self._journal_failed(exc)
        self.selected = game_id
        self.session, self.record, self.finished = session, self.journal.game(game_row), None
        self._last_prompt = None
        self._emit([say("game_starting", title=game.info.title)], [], force_prompt=True)
        return {"status": "ok", "game": game_id}

    def next_game(self) -> Reply:
        ids = game_ids()
        self.selected = ids[(ids.index(self.selected) + 1) % len(ids)] if self.selected in ids else ids[0]
        self._emit([], [])  # the idle prompt names the newly selected game
        return {"status": "ok", "selected": self.selected}

    def select_game(self, game_id: str) -> Reply:
        if self.session is not None:
            return self._refuse(RuleError("game_running"))
        if game_id not in game_ids():
            return self._refuse(RuleError("unknown_game", {"game": game_id}))
        self.selected = game_id
        self._emit([], [])
        return {"status": "ok", "selected": game_id}

    def submit(self, inp: Input) -> Reply:
        """Validate, draw, journal (durably), apply, show. A refusal changes nothing."""
        session, record = self.session, self.record
        if session is None or record is None:
            return self._refuse(RuleError("no_game"))
        try:
            requests = session.check(inp)
        except RuleError as exc:
            return self._refuse(exc)
        outcomes = draw_all(requests, self.drawer)
        # Apply on a copy first, so the game's end (if this input ends it) is journaled in the
        # same commit as the input: no kill can leave a finished game marked open.
        trial = replace(session, undo_stack=list(session.undo_stack))
        try:
            effects = trial.submit(inp, outcomes, self.journal.next_seq(record.id))
            end = result_of(trial.over) if trial.over is not None else None
            seq = self.journal.append(record.id, "input", inp, outcomes, end=end)
        except Exception as exc:
            return self._journal_failed(exc)
        self.session = session = trial
        words = [e for e in effects if isinstance(e, Say)]
        self._emit(words, effects)
        self.journal.mark_announced(record.id, seq)
        if session.over is not None:
            self._finish(session)
        return {"status": "ok", "seq": seq}

    def _finish(self, session: Session) -> None:
        self.finished, self.session, self.record = session, None, None
        self._emit([], [])  # the idle prompt that follows says the game is over

    def undo(self) -> Reply:
        session, record = self.session, self.record
        if session is None or record is None:
            return self._refuse(RuleError("nothing_to_undo"))
        if not session.undo_stack:
            return self._refuse(RuleError("nothing_to_undo"))
        try:
            seq = self.journal.append(record.id, "undo", None, {})
        except Exception as exc:
            return self._journal_failed(exc)
        undone = session.undo()
        self._last_prompt = None
        self._emit([say("undone", what=self._render(_describe(undone.inp)))], [], force_prompt=True)
        self.journal.mark_announced(record.id, seq)
        return {"status": "ok", "undone": undone.seq}

    def repeat(self, prompt_only: bool = False) -> Reply:
        """REPEAT: say the last announcement again (a long press: what the box waits for)."""
        texts = [] if prompt_only else list(self.last_spoken)
        if not texts:
            texts = [self._render(self._prompt_say())]
        self._deliver([{"type": "say", "text": t, "repeat": True} for t in texts], [])
        self.last_spoken = texts
        return {"status": "ok"}

    def announce_only(self, words: Iterable[Say]) -> Reply:
        """Say something from an adapter (e.g. the camera's 'I don't know that card')."""
        self._emit(list(words), [])
        return {"status": "ok"}

    # --- commands (MQTT) ---------------------------------------------------------------------

    def command(self, name: str, payload: Any, *, privileged: bool = False) -> Reply:
        """A command from a display: the same inputs a button gives, through the same checks."""
        try:
            if not isinstance(payload, dict):
                raise MalformedInput("malformed_input", {"reason": "payload must be a JSON object"})
            if name in INPUT_FIELDS:
                if name == "scan" and not privileged:
                    return self._refuse(RuleError("not_allowed", {"command": name}))
                inp = _input_of(name, payload)
                return self.press(inp) if isinstance(inp, Press) else self.submit(inp)
            if name == "undo":
                return self.undo()
            if name == "repeat":
                return self.repeat()
            if name == "select_game":
                game = payload.get("game")
                if not isinstance(game, str):
                    raise MalformedInput("malformed_input", {"reason": "select_game needs game"})
                return self.select_game(game)
            if name == "start_game":
                game = payload.get("game", self.selected)
                options = payload.get("options", {})
                if not isinstance(game, str) or not isinstance(options, dict):
                    raise MalformedInput("malformed_input", {"reason": "start_game needs game, options"})
                return self.start_game(game, options)
            raise MalformedInput("malformed_input", {"reason": f"unknown command {name!r}"})
        except RuleError as exc:
            return self._refuse(exc)

    # --- showing -----------------------------------------------------------------------------

    def _prompt(self) -> Prompt | None:
        return self.session.prompt() if self.session is not None else None

    def _prompt_say(self) -> Say:
        prompt = self._prompt()
        if prompt is not None:
            return prompt.ask
        return self._idle_words()[0]

    def _idle_words(self) -> list[Say]:
        title = load_game(self.selected).info.title
        if self.finished is not None and self.finished.game.info.id == self.selected:
            return [say("game_finished", title=title)]
        return [say("idle_selected", title=title)]

    def _game_id(self) -> str | None:
        if self.session is not None:
            return self.session.game.info.id
        return None

    def _render(self, words: Say) -> str:
        return render(words, self._game_id() or self.selected, self.language)

    def public_view(self) -> dict[str, Any]:
        """The box's public state: mode, the game's public view, the prompt. Nothing else."""
        prompt = self._prompt()
        session = self.session or self.finished
        ask = self._prompt_say()
        return {
            "schema": PUBLIC_SCHEMA,
            "box": self.box_id,
            "mode": "game" if self.session is not None else "idle",
            "selected": self.selected,
            "games": [{"id": g, "title": load_game(g).info.title} for g in game_ids()],
            "game": session.game.public_view(session.state) if session is not None else None,
            "prompt": {
                "key": ask.key,
                "text": self._render(ask),
                "accepts": list(prompt.accepts) if prompt else ["press:ok", "hold:repeat"],
                "lights": list(prompt.lights) if prompt else ["ok"],
            },
            "can_undo": bool(self.session and self.session.undo_stack),
        }

    def team_views(self) -> dict[str, dict[str, Any]]:
        session = self.session or self.finished
        if session is None:
            return {}
        return {team: session.game.team_view(session.state, team) for team in session.game.teams(session.state)}

    def _emit(self, words: list[Say], effects: list[Effect], force_prompt: bool = False) -> None:
        """Speak `words`, then the prompt if it changed, and deliver everything to the outlets."""
        events: list[dict[str, Any]] = []
        spoken: list[str] = []
        for effect in effects:
            if isinstance(effect, Say):
                continue
            if isinstance(effect, Sound):
                events.append({"type": "sound", "name": effect.name})
            elif isinstance(effect, Light):
                events.append({"type": "light", "target": effect.target, "colour": effect.colour,
                               "pattern": effect.pattern})
            elif isinstance(effect, GameOver):
                events.append({"type": "game_over", "reason": effect.reason, "winners": list(effect.winners)})
        for words_ in words:
            text = self._render(words_)
            spoken.append(text)
            events.append({"type": "say", "key": words_.key, "text": text})
        ask = self._prompt_say()
        prompt_id = (ask.key, repr(sorted(ask.params.items())))
        if force_prompt or prompt_id != self._last_prompt:
            text = self._render(ask)
            if text not in spoken:
                spoken.append(text)
                events.append({"type": "prompt", "key": ask.key, "text": text})
        self._last_prompt = prompt_id
        if spoken:
            self.last_spoken = spoken
        self._deliver(events, effects)

    def _refuse(self, exc: RuleError) -> Reply:
        """A refused input: an error sound, the reason spoken, nothing else changes."""
        text = self._render(Say(exc.key, exc.params))
        events = [
            {"type": "sound", "name": "error"},
            {"type": "error", "key": exc.key, "text": text},
        ]
        self._deliver(events, [Sound("error"), Light("status", "on", "error")])
        return {"status": "error", "error": exc.key, "message": text}

    def _journal_failed(self, exc: Exception) -> Reply:
        log.error("journal write failed: %s", exc)
        return self._refuse(RuleError("journal_write_failed"))

    def _deliver(self, events: list[dict[str, Any]], effects: list[Effect]) -> None:
        self._updates += 1
        update = Update(self._updates, self.public_view(), self.team_views(), events, effects)
        for outlet in self.outlets:
            try:
                outlet.deliver(update)
            except Exception:
                log.exception("outlet %s failed", type(outlet).__name__)


# command -> the only fields its input is built from ("kind" may repeat the command, nothing else)
INPUT_FIELDS: dict[str, tuple[str, ...]] = {"press": ("button", "hold"), "choose": ("option",), "scan": ("card",)}


def _input_of(name: str, payload: Mapping[str, Any]) -> Input:
    """The input a command names, field by field: a payload never adds or overrides a field."""
    extra = set(payload) - {"kind", *INPUT_FIELDS[name]}
    if payload.get("kind", name) != name or extra:
        reason = f"{name} takes only {', '.join(INPUT_FIELDS[name])}"
        raise MalformedInput("malformed_input", {"reason": reason})
    fields = {key: payload[key] for key in INPUT_FIELDS[name] if key in payload}
    return input_from_data({"kind": name, **fields})


def _describe(inp: Input) -> Say:
    if isinstance(inp, Press):
        return say("undo_hold" if inp.hold else "undo_press", button=inp.button)
    if isinstance(inp, Scan):
        return say("undo_scan")
    assert isinstance(inp, Choose)
    return say("undo_choose", option=inp.option)


__all__ = ["Job", "JournalError", "Outlet", "Service", "Update"]
