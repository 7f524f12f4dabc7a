"""The box's service loop: one thread owns the game; adapters post jobs to its queue.

For every input: ask the rules whether it is legal now (a refusal is spoken and changes nothing),
draw the chance outcomes it needs, commit input and outcomes to the journal, and only then apply
the rules and show the effects (lights, words, MQTT). On start it replays the journal, so a
pulled plug costs nothing the box had acknowledged.

What a button means lives in device/box/buttons.py, how commands from outside are parsed in
device/box/commands.py, what is said about it all in device/box/narration.py.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from device.box.buttons import Meaning, meaning
from device.box.chance import Drawer, draw_all
from device.box.commands import (
    ChooseCommand,
    Command,
    PressCommand,
    RepeatCommand,
    ScanCommand,
    SelectGameCommand,
    StartGameCommand,
    UndoCommand,
)
from device.box.jobs import (
    CallJob,
    CommandJob,
    InputJob,
    Job,
    PressJob,
    RefuseJob,
    RepeatJob,
    Reply,
    SayJob,
    TickJob,
    UndoJob,
)
from device.box.journal import GameRecord, Journal, JournalError
from device.box.narration import Event, Narrator, describe_undone, refused_kind
from games.core import (
    Effect,
    GameOver,
    Input,
    Light,
    NothingToUndo,
    Press,
    Prompt,
    RuleError,
    Say,
    SetupError,
    Sound,
    UnknownGame,
    say,
)
from games.registry import game_ids, load_game
from games.session import EntryRefused, Session, replay

log = logging.getLogger("houston.service")

PUBLIC_SCHEMA = 1


@dataclass
class Update:
    """What every outlet receives after each handled job. Everything here is public except
    `teams`, which maps each team to its private view (for that team's eyes only)."""

    seq: int
    public: dict[str, Any]
    teams: dict[str, dict[str, Any]]
    events: list[Event]
    effects: list[Effect] = field(default_factory=list)


class Outlet(Protocol):
    def deliver(self, update: Update) -> None: ...


class Service:
    """The referee: current game session, journal, and the outlets that show what happens."""

    def __init__(
        self,
        journal: Journal,
        *,
        box_id: str = "houston-1",
        default_game: str | None = None,
        language: str = "en",
        drawer: Drawer | None = None,
        outlets: Iterable[Outlet] = (),
        notes: Iterable[str] = (),
    ) -> None:
        installed = game_ids()
        if not installed:
            raise UnknownGame("no_games_installed")
        selected = default_game or installed[0]
        if selected not in installed:
            raise UnknownGame("unknown_game", {"game": selected, "installed": ", ".join(installed)})
        self.journal = journal
        self.box_id = box_id
        self.narrator = Narrator(language)
        self.drawer = drawer
        self.outlets: list[Outlet] = list(outlets)
        self.selected = selected
        self.session: Session | None = None
        self.record: GameRecord | None = None
        self.finished: Session | None = None  # the last game played, shown at idle
        self._updates = 0
        self._queue: queue.Queue[Job] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.tick_hooks: list[Callable[[], object]] = []
        self.tick_seconds = 0.5
        self.notes = [say(key) for key in notes]  # said once at start (e.g. journal damaged)

    @property
    def language(self) -> str:
        return self.narrator.language

    @property
    def last_spoken(self) -> list[str]:
        return self.narrator.last_spoken

    @property
    def game_id(self) -> str:
        """The game the box is about: the one in progress, else the one selected at idle (its deck
        is the camera's, its catalogue the voice's)."""
        return self.session.game.info.id if self.session is not None else self.selected

    # --- thread and queue ------------------------------------------------------------------

    def post(self, job: Job) -> None:
        """Hand a job to the service thread (safe from any thread)."""
        self._queue.put(job)

    def post_press(self, press: Press) -> None:
        self.post(PressJob(press))

    def start(self) -> None:
        """Resume from the journal, then run the loop on a thread of its own."""
        self.resume()
        self._thread = threading.Thread(target=self._loop, name="houston-service", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the job in hand, then stop the loop (the journal stays open for the caller)."""
        self._stop.set()
        self._queue.put(TickJob())
        if self._thread is not None:
            self._thread.join(timeout)

    def wait_idle(self, timeout: float = 10.0) -> None:
        """Block until every posted job has been handled (tests and the simulator use this)."""
        done = threading.Event()
        self.post(CallJob(done.set))
        if not done.wait(timeout):
            raise TimeoutError("service did not drain its queue")

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                job: Job = self._queue.get(timeout=self.tick_seconds)
            except queue.Empty:
                job = TickJob()
            try:
                self.handle(job)
            except Exception:  # the loop must survive anything one job does
                log.exception("job %s failed", type(job).__name__)
                if job.reply:
                    job.reply({"status": "error", "error": "internal_error"})
            for hook in self.tick_hooks:
                try:
                    hook()
                except Exception:
                    log.exception("tick hook failed")

    def handle(self, job: Job) -> Reply:
        """Handle one job on the service thread and answer its reply callback."""
        reply: Reply
        if isinstance(job, CallJob):
            job.fn()
            reply = {"status": "ok"}
        elif isinstance(job, TickJob):
            reply = {"status": "ok"}
        elif isinstance(job, PressJob):
            reply = self.press(job.press)
        elif isinstance(job, InputJob):
            reply = self.submit(job.inp)
        elif isinstance(job, UndoJob):
            reply = self.undo()
        elif isinstance(job, RepeatJob):
            reply = self.repeat()
        elif isinstance(job, CommandJob):
            reply = self.command(job.command)
        elif isinstance(job, RefuseJob):
            reply = self._refuse(job.error)
        elif isinstance(job, SayJob):
            reply = self.announce_only(job.words)
        else:  # pragma: no cover - the Job union is closed; mypy checks every kind is handled
            raise TypeError(f"not a job: {job!r}")
        if job.reply:
            job.reply(reply)
        return reply

    # --- the panel ---------------------------------------------------------------------------

    def press(self, press: Press) -> Reply:
        """A button from the panel (or a display): see device/box/buttons.py for what it means."""
        what = meaning(press, idle=self.session is None)
        if what is Meaning.UNKNOWN_BUTTON:
            return self._refuse(RuleError("unknown_button", {"button": press.button}))
        if what is Meaning.UNDO:
            return self.undo()
        if what is Meaning.REPEAT:
            return self.repeat()
        if what is Meaning.PROMPT_AGAIN:
            return self.repeat(prompt_only=True)
        if what is Meaning.NEXT_GAME:
            return self.next_game()
        if what is Meaning.START_GAME:
            return self.start_game(self.selected, {})
        if what is Meaning.NO_GAME:
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
        words: list[Say] = list(notes)
        entries, unreadable = self.journal.readable_entries(record.id)
        bad_seq = unreadable.seq if unreadable is not None else None
        try:
            game = load_game(record.game)
            try:
                session = replay(game, record.options, entries)
            except EntryRefused as exc:
                session, bad_seq = exc.session, exc.seq
        except RuleError as exc:  # not installed, or options it no longer starts with
            log.error("cannot resume game %s: %s %s", record.id, exc.key, exc.params)
            self.journal.end_game(record.id, {"reason": "abandoned", "error": exc.key})
            self._emit([say("box_online"), *self._idle_words()], [])
            return
        if bad_seq is not None:
            log.error("journal entry %s of game %s does not replay", bad_seq, record.id)
            self.journal.void_from(record.id, bad_seq)
            words.append(say("journal_entry_unreadable", seq=bad_seq))
        self.session, self.record, self.selected = session, record, game.info.id
        self.narrator.forget_prompt()
        self._emit([say("game_resumed", title=game.info.title), *words], [], force_prompt=True)

    def start_game(self, game_id: str, options: Mapping[str, Any]) -> Reply:
        if self.session is not None:
            return self._refuse(RuleError("game_running"))
        try:
            game = load_game(game_id)
            session = Session.start(game, dict(options))
        except UnknownGame:
            return self._refuse(RuleError("unknown_game", {"game": game_id}))
        except RuleError as exc:
            return self._refuse(exc if isinstance(exc, SetupError) else SetupError(exc.key, exc.params))
        try:
            game_row = self.journal.begin_game(game_id, dict(options))
        except Exception as exc:
            return self._journal_failed(exc)
        self.selected = game_id
        self.session, self.record, self.finished = session, self.journal.game(game_row), None
        self.narrator.forget_prompt()
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
        try:
            seq = self.journal.append(record.id, "input", inp, outcomes)
        except Exception as exc:
            return self._journal_failed(exc)
        effects = session.submit(inp, outcomes, seq)
        if session.over is not None:
            self._finish(session, session.over)  # so the prompt said next is the idle one
        self._emit([e for e in effects if isinstance(e, Say)], effects)
        return {"status": "ok", "seq": seq}

    def _finish(self, session: Session, over: GameOver) -> None:
        if self.record is not None:
            self.journal.end_game(self.record.id, {"reason": over.reason, "winners": list(over.winners)})
        self.finished, self.session, self.record = session, None, None

    def undo(self) -> Reply:
        session, record = self.session, self.record
        if session is None or record is None or not session.undo_stack:
            return self._refuse(NothingToUndo("nothing_to_undo"))
        try:
            self.journal.append(record.id, "undo", None, {})
        except Exception as exc:
            return self._journal_failed(exc)
        undone = session.undo()
        self.narrator.forget_prompt()
        self._emit([say("undone", what=self._render(describe_undone(undone.inp)))], [], force_prompt=True)
        return {"status": "ok", "undone": undone.seq}

    def repeat(self, prompt_only: bool = False) -> Reply:
        """REPEAT: say the last announcement again (a long press: what the box waits for)."""
        self._deliver(self.narrator.repeat(self._prompt_say(), self.game_id, prompt_only), [])
        return {"status": "ok"}

    def announce_only(self, words: Iterable[Say]) -> Reply:
        """Say something from an adapter (e.g. the camera's 'I don't know that card')."""
        self._emit(list(words), [])
        return {"status": "ok"}

    # --- commands (MQTT, the admin, the simulator) -----------------------------------------

    def command(self, command: Command) -> Reply:
        """A parsed command: the same inputs a button gives, through the same checks."""
        if isinstance(command, PressCommand):
            return self.press(command.press)
        if isinstance(command, ChooseCommand):
            return self.submit(command.choice)
        if isinstance(command, ScanCommand):
            return self.submit(command.scan)
        if isinstance(command, UndoCommand):
            return self.undo()
        if isinstance(command, RepeatCommand):
            return self.repeat()
        if isinstance(command, SelectGameCommand):
            return self.select_game(command.game)
        if isinstance(command, StartGameCommand):
            return self.start_game(command.game or self.selected, command.options)
        raise TypeError(f"not a command: {command!r}")  # pragma: no cover - the union is closed

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

    def _render(self, words: Say) -> str:
        return self.narrator.render(words, self.game_id)

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

    def _emit(self, words: Sequence[Say], effects: list[Effect], force_prompt: bool = False) -> None:
        """Narrate `words` and `effects` (then the prompt, if it changed) to every outlet."""
        events = self.narrator.narrate(words, effects, self._prompt_say(), self.game_id, force_prompt)
        self._deliver(events, effects)

    def _refuse(self, exc: RuleError) -> Reply:
        """A refused input or command: an error sound, the reason spoken, nothing else changes."""
        events, text = self.narrator.refusal(exc, self.game_id)
        self._deliver(events, [Sound("error"), Light("status", "on", "error")])
        return {"status": "error", "error": exc.key, "refused": refused_kind(exc), "message": text}

    def _journal_failed(self, exc: Exception) -> Reply:
        log.error("journal write failed: %s", exc)
        return self._refuse(RuleError("journal_write_failed"))

    def _deliver(self, events: list[Event], effects: list[Effect]) -> None:
        self._updates += 1
        update = Update(self._updates, self.public_view(), self.team_views(), events, effects)
        for outlet in self.outlets:
            try:
                outlet.deliver(update)
            except Exception:
                log.exception("outlet %s failed", type(outlet).__name__)


__all__ = ["JournalError", "Outlet", "Service", "Update"]
