"""Rebuild the game that was running when the box stopped, and say what the table missed.

Replaying the journal must never stop the box: an entry that cannot be decoded or replayed (and
every entry after it, which depended on it) is voided — kept in the file for inspection, skipped
from then on — and the box starts and says so. What the entries after the `announced` mark said
was committed but never heard (the box was killed between the two): it is said on resume. A game
whose last entry ended it is closed, never left half-open.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from device.box.journal import EntryUnreadable, GameRecord, Journal
from games.core import GameOver, Say
from games.session import Session

log = logging.getLogger("houston.recovery")


@dataclass
class Recovered:
    session: Session
    unheard: list[Say] = field(default_factory=list)  # results committed but never announced
    last_result: list[Say] = field(default_factory=list)  # the last input's words, for REPEAT
    voided_from: int | None = None
    last_seq: int = 0


def result_of(over: GameOver) -> dict[str, object]:
    """How the journal records a game's end."""
    return {"reason": over.reason, "winners": list(over.winners)}


def replay_record(journal: Journal, record: GameRecord, session: Session) -> Recovered:
    """Replay `record`'s entries into `session` (fresh from setup), voiding the first bad one."""
    announced = journal.announced(record.id)
    out = Recovered(session)
    entries, unreadable = journal.readable_entries(record.id)
    bad: EntryUnreadable | None = unreadable
    for entry in entries:
        try:
            if entry.kind == "undo":
                session.undo()
                words: list[Say] = []
            elif entry.inp is not None:
                words = [e for e in session.submit(entry.inp, entry.outcomes, entry.seq) if isinstance(e, Say)]
            else:
                raise ValueError("an input entry without its input")
        except Exception as exc:  # a rule's refusal, or a game that cannot take this entry at all
            bad = EntryUnreadable(entry.seq, f"{type(exc).__name__}: {exc}")
            break
        out.last_seq = entry.seq
        if entry.kind == "input":
            out.last_result = words
        if announced is not None and entry.seq > announced:
            out.unheard += words
    if bad is not None:
        log.error("journal entry %s of game %s does not replay: %s", bad.seq, record.id, bad)
        journal.void_from(record.id, bad.seq)
        out.voided_from = bad.seq
    return out
