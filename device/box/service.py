"""The box's service loop: one thread owns the game; adapters post jobs to its queue.

For every input: ask the rules whether it is legal now (a refusal is spoken and changes nothing),
draw the chance outcomes it needs, commit input and outcomes to the journal, and only then apply
the rules and show the effects (lights, words, MQTT). On start it replays the journal, so a
pulled plug costs nothing the box had acknowledged.

What a button means lives in device/box/buttons.py, how commands from outside are parsed in
device/box/commands.py, what is said about it all in device/box/narration.py.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, wait
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from device.box import views
from device.box.buttons import Meaning, meaning
from device.box.campaign_store import CampaignError
from device.box.campaigns import Campaigns, source_of
from device.box.chance import Drawer, draw_all
from device.box.commands import (
    ADMIN_SENDER,
    ChooseCommand,
    Command,
    NotAllowed,
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
from device.box.journal import UNSETTLED_MAX, GameRecord, Journal, JournalError
from device.box.meanwhile import MEANWHILE, Pace
from device.box.narration import Event, Narrator, describe_undone, refused_kind
from device.box.recovery import replay_record, result_of
from device.box.secrecy import refusal_reveals
from device.box.views import PUBLIC_SCHEMA
from games.core import (
    Effect,
    Input,
    Light,
    NotExpected,
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
from games.session import Session

log = logging.getLogger("houston.service")

MAX_QUEUED_JOBS = 512  # a command flood is answered "busy" beyond this, never queued without end
SETTLE_IDLE_SECONDS = 0.05  # no job for this long: fold the journal's WAL in (device/box/journal.py)


@dataclass
class Update:
    """What every outlet receives after each handled job. Everything here is public except
    `teams`, which maps each team to its private view (for that team's eyes only)."""

    seq: int
    public: dict[str, Any]
    teams: dict[str, dict[str, Any]]
    events: list[Event]
    effects: list[Effect] = field(default_factory=list)
    public_json: bytes | None = None  # `views.public_json(seq, public)` when made while the disk synced


# what the helper makes while an input's commit syncs: events, public view, team views, and the
# public view encoded for the update that will carry it (its seq, its JSON)
Shown = tuple[list[Event], dict[str, Any], dict[str, dict[str, Any]], tuple[int, bytes]]
Timed = tuple[Shown, float, float]  # and the CPU seconds it took, and when it was done (perf_counter)


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
        campaigns: Campaigns | None = None,
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
        self.last_result = _result_of(journal.last_finished())  # kept at idle, across restarts
        self._updates = 0
        self._queue: queue.Queue[Job] = queue.Queue(MAX_QUEUED_JOBS)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.tick_hooks: list[Callable[[], object]] = []
        self.tick_seconds = 0.5
        self.notes = [say(key) for key in notes]  # said once at start (e.g. journal damaged)
        self.campaigns = campaigns or Campaigns(journal.path.parent)  # beside the journal
        self._answering = False  # a command is being handled (its refusals are guarded)
        self._command_input: Input | None = None
        self.pace = Pace()  # whether an input's views are made while its commit syncs

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
        """Hand a job to the service thread (safe from any thread). When the queue is full the
        job is refused at once with "busy" (the box's own calls wait for room instead)."""
        if isinstance(job, CallJob):
            self._queue.put(job)
            return
        try:
            self._queue.put_nowait(job)
        except queue.Full:
            log.warning("service queue full: %s refused", type(job).__name__)
            if job.reply:
                message = self.narrator.render(say("busy"), self.selected)
                job.reply({"status": "error", "error": "busy", "message": message})

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
        with contextlib.suppress(queue.Full):  # a full queue wakes the loop anyway
            self._queue.put_nowait(TickJob())
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
            unsettled = self.journal.unsettled > 0
            try:
                job: Job = self._queue.get(timeout=SETTLE_IDLE_SECONDS if unsettled else self.tick_seconds)
            except queue.Empty:
                if unsettled:  # a quiet moment: fold the WAL in before the next input comes
                    self._settle()
                    if not self.journal.unsettled:
                        continue
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
            with self._answering_a_command(job.command):
                reply = self.command(job.command)
        elif isinstance(job, RefuseJob):
            with self._answering_a_command(None):
                reply = self._refuse(job.error)
        elif isinstance(job, SayJob):
            reply = self.announce_only(job.words)
        else:  # pragma: no cover - the Job union is closed; mypy checks every kind is handled
            raise TypeError(f"not a job: {job!r}")
        if job.reply:
            job.reply(reply)
        if self.journal.unsettled >= UNSETTLED_MAX:
            self._settle()
        elif self._queue.empty():
            # the answer is out and nothing waits: the mark's sync starts now, on the journal's
            # thread, off the path from an input to what it shows (device/box/marks.py)
            self.journal.sync_mark_soon()
        return reply

    def _settle(self) -> None:
        """Fold the WAL into the journal's main file (device/box/journal.py), after an answer and
        never between an input and what the table sees and hears of it."""
        try:
            self.journal.settle()
        except Exception as exc:  # the entries are durable in the WAL; the next fold retries
            log.error("journal WAL not folded in: %s", exc)

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
        try:  # campaign hook: a finished game whose campaign the box stopped before saving
            if self.campaigns.recover(self.journal):
                notes.append(say("campaign_recovered"))
        except Exception as exc:  # a damaged store or journal must not stop the box from starting
            log.error("campaign not recovered: %s", exc)
        if record is None:
            self._emit([say("box_online"), *notes, *self._idle_words()], [])
            return
        words: list[Say] = list(notes)
        try:
            game = load_game(record.game)
            session = Session.start(game, record.options)
        except RuleError as exc:  # not installed, or options it no longer starts with
            log.error("cannot resume game %s: %s %s", record.id, exc.key, exc.params)
            self.journal.end_game(record.id, {"reason": "abandoned", "error": exc.key})
            self._emit([say("box_online"), *self._idle_words()], [])
            return
        got = replay_record(self.journal, record, session)  # voids a bad entry, never raises
        if got.voided_from is not None:
            words.append(say("journal_entry_unreadable", seq=got.voided_from))
        self.selected = game.info.id
        self.narrator.forget_prompt()
        if session.over is not None:  # killed between the final input and the game's end
            self.journal.end_game(record.id, result_of(session.over))
            self._finish(session)
            self._emit([*words, *got.unheard, say("game_closed_on_resume", title=game.info.title)], [])
        else:
            self.session, self.record = session, record
            self._emit([say("game_resumed", title=game.info.title), *words, *got.unheard], [], force_prompt=True)
            if got.last_result and not got.unheard:  # REPEAT gives the last result, then the prompt
                texts = [self._render(w) for w in [*got.last_result, self._prompt_say()]]
                self.narrator.last_spoken = texts
        self.journal.mark_announced(record.id, got.last_seq)

    def start_game(self, game_id: str, options: Mapping[str, Any]) -> Reply:
        if self.session is not None:
            return self._refuse(RuleError("game_running"))
        try:
            game = load_game(game_id)
            options = self.campaigns.options_for(game, options)  # campaign hook: journaled with the game
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
        # Apply on a copy first, so the game's end (if this input ends it) is journaled in the
        # same commit as the input: no kill can leave a finished game marked open.
        trial = replace(session, undo_stack=list(session.undo_stack))
        shown: Future[Timed] | None = None
        memory = self.narrator.memory()
        helper = self.pace.use_helper()

        def prepare() -> None:  # while the commit syncs: what the table will see (device/box/meanwhile.py)
            nonlocal shown
            if trial.over is None and helper:  # a game's end changes more than the views: after the commit
                shown = MEANWHILE.submit(lambda: self._timed_prepare(trial, effects))

        try:
            effects = trial.submit(inp, outcomes, self.journal.next_seq(record.id))
            end = result_of(trial.over) if trial.over is not None else None
            seq = self.journal.append(record.id, "input", inp, outcomes, end=end, meanwhile=prepare)
        except Exception as exc:
            if shown is not None:  # never shown: its narration is forgotten
                wait([shown])
                self.narrator.recall(memory)
            return self._journal_failed(exc)
        self.session = session = trial
        synced, synced_at = self.journal.last_sync
        if shown is not None:
            (events, public, teams, encoded), work, done_at = shown.result()
            self.pace.threaded(synced, work, synced_at - done_at)
            self._hand_out(events, public, teams, effects, encoded)
        elif session.over is None:  # the disk is quicker than the hand-off: made here, after the commit
            (events, public, teams, _), work, _ = self._timed_prepare(session, effects, encode=False)
            self.pace.inline(synced, work)
            self._hand_out(events, public, teams, effects)  # the state's JSON: by the MQTT outlet, as ever
        else:
            self._finish(session)  # so the prompt said next is the idle one
            self._emit([e for e in effects if isinstance(e, Say)], effects)
        self.journal.mark_announced(record.id, seq)
        return {"status": "ok", "seq": seq}

    def _timed_prepare(self, running: Session, effects: list[Effect], encode: bool = True) -> Timed:
        """`_prepare`, with the CPU time it took and when it finished (for the pace)."""
        started = time.thread_time()
        shown = self._prepare(running, effects, encode)
        return shown, time.thread_time() - started, time.perf_counter()

    def _prepare(self, running: Session, effects: list[Effect], encode: bool = True) -> Shown:
        """Events, public view and team views for `running` as the game in progress (what
        `_emit` would deliver once `self.session` is `running`), made without touching the
        service's own fields, on the helper thread. With `encode`, also the public view's JSON
        (for the helper, which has the disk's wait to hide it in; without, the seq is 0 and the
        JSON empty: the MQTT outlet encodes the view itself, after the update is handed out)."""
        prompt = running.prompt()
        ask = prompt.ask if prompt is not None else self._idle_words()[0]
        game_id = running.game.info.id
        events = self.narrator.narrate([e for e in effects if isinstance(e, Say)], effects, ask, game_id)
        public = views.public_view(box_id=self.box_id, selected=self.selected, running=running, shown=running,
                                   prompt=prompt, ask_key=ask.key, ask_text=self.narrator.render(ask, game_id),
                                   last_result=self.last_result)
        seq = self._updates + 1  # the service thread hands nothing out while it waits for the disk
        encoded = (seq, views.public_json(seq, public)) if encode else (0, b"")
        return events, public, views.team_views(running), encoded

    def _finish(self, session: Session) -> None:
        """The game's end is already journaled (with its final input): show the idle prompt."""
        over = session.over
        assert over is not None
        if self.record is not None:
            try:  # campaign hook: what a finished game leaves for the next one (the end is journaled)
                self.campaigns.finish(session.game, session.state, source_of(self.record.id))
            except (CampaignError, RuleError) as exc:
                log.error("campaign not saved: %s", exc)
                self._emit([say("campaign_save_failed")], [])
        self.finished, self.session, self.record = session, None, None
        self.last_result = {"game": session.game.info.id, "title": session.game.info.title,
                            "winners": list(over.winners), "reason": over.reason}

    def undo(self) -> Reply:
        session, record = self.session, self.record
        if session is None or record is None or not session.undo_stack:
            return self._refuse(NothingToUndo("nothing_to_undo"))
        try:
            seq = self.journal.append(record.id, "undo", None, {})
        except Exception as exc:
            return self._journal_failed(exc)
        undone = session.undo()
        self.narrator.forget_prompt()
        self._emit([say("undone", what=self._render(describe_undone(undone.inp)))], [], force_prompt=True)
        self.journal.mark_announced(record.id, seq)
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
            refusal = self._choice_refusal(command)
            return self._refuse(refusal) if refusal is not None else self.submit(command.choice)
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

    def _choice_refusal(self, command: ChooseCommand) -> RuleError | None:
        """A choice the game keeps for one audience (e.g. its game runner) from anyone else."""
        if self.session is None:
            return None
        audience = getattr(self.session.game, "choice_audience", None)  # pre-contract games: none
        wanted = audience(command.choice.option) if audience is not None else None
        if wanted is None or command.sender in (wanted, ADMIN_SENDER):
            return None
        return NotAllowed("not_allowed", {"command": "choose"})

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

    def _shown(self) -> Session | None:
        """The game the table sees: the running one, or at idle the finished one while it is still
        the selected game (choosing another game leaves nothing of the old one on screens)."""
        if self.session is not None:
            return self.session
        if self.finished is not None and self.finished.game.info.id == self.selected:
            return self.finished
        return None

    def public_view(self) -> dict[str, Any]:
        """The box's public state (device/box/views.py): nothing else leaves it for everyone."""
        ask = self._prompt_say()
        return views.public_view(box_id=self.box_id, selected=self.selected, running=self.session,
                                 shown=self._shown(), prompt=self._prompt(), ask_key=ask.key,
                                 ask_text=self._render(ask), last_result=self.last_result)

    def team_views(self) -> dict[str, dict[str, Any]]:
        return views.team_views(self._shown())

    def _emit(self, words: Sequence[Say], effects: list[Effect], force_prompt: bool = False) -> None:
        """Narrate `words` and `effects` (then the prompt, if it changed) to every outlet."""
        events = self.narrator.narrate(words, effects, self._prompt_say(), self.game_id, force_prompt)
        self._deliver(events, effects)

    @contextlib.contextmanager
    def _answering_a_command(self, command: Command | None) -> Iterator[None]:
        """While a command is handled, its refusals may tell nothing about unseen cards."""
        self._command_input = _input_of(command) if command is not None else None
        self._answering = True
        try:
            yield
        finally:
            self._answering, self._command_input = False, None

    def _refuse(self, exc: RuleError) -> Reply:
        """A refused input or command: an error sound, the reason spoken, nothing else changes."""
        events, text = self.narrator.refusal(exc, self.game_id)
        if self._answering and refusal_reveals(self.session, exc, text, self._command_input):
            exc = NotExpected("not_expected")  # device/box/secrecy.py: the plain "Not now."
            events, text = self.narrator.refusal(exc, self.game_id)
        self._deliver(events, [Sound("error"), Light("status", "on", "error")])
        return {"status": "error", "error": exc.key, "refused": refused_kind(exc), "message": text}

    def _journal_failed(self, exc: Exception) -> Reply:
        log.error("journal write failed: %s", exc)
        return self._refuse(RuleError("journal_write_failed"))

    def _deliver(self, events: list[Event], effects: list[Effect]) -> None:
        self._hand_out(events, self.public_view(), self.team_views(), effects)

    def _hand_out(self, events: list[Event], public: dict[str, Any], teams: dict[str, dict[str, Any]],
                  effects: list[Effect], encoded: tuple[int, bytes] | None = None) -> None:
        self._updates += 1
        update = Update(self._updates, public, teams, events, effects)
        if encoded is not None and encoded[0] == update.seq:
            update.public_json = encoded[1]
        for outlet in self.outlets:
            try:
                outlet.deliver(update)
            except Exception:
                log.exception("outlet %s failed", type(outlet).__name__)


def _input_of(command: Command) -> Input | None:
    if isinstance(command, PressCommand):
        return command.press
    if isinstance(command, ChooseCommand):
        return command.choice
    if isinstance(command, ScanCommand):
        return command.scan
    return None


def _result_of(record: GameRecord | None) -> dict[str, Any] | None:
    """The public result of a finished game from its journal record (None for an abandoned one)."""
    if record is None or not record.result or "winners" not in record.result:
        return None
    try:
        title = load_game(record.game).info.title
    except UnknownGame:
        return None
    return {"game": record.game, "title": title, "winners": list(record.result["winners"]),
            "reason": record.result.get("reason")}


__all__ = ["PUBLIC_SCHEMA", "JournalError", "Outlet", "Service", "Update"]
