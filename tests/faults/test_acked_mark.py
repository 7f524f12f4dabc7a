"""The `acked` mark (device/box/marks.py): written after each commit, never ahead of the journal,
and synced once the answer is out (or, in a burst, while the next commit syncs, or when the journal
settles), not as a second wait between an input and its answer (issue 12 defect 4, issue 11 latency)."""

import os

from device.box import marks as marks_module
from device.box.jobs import InputJob, PressJob, TickJob
from device.box.journal import Journal, journal_path
from device.box.marks import RECORD_BYTES, _decode
from device.simulation.simbox import SimBox
from games.core import Press, Scan


def record_syncs(monkeypatch) -> list[int | None]:
    """The acked entry the marks record named at each `fdatasync` of it, from now on."""
    synced: list[int | None] = []
    real = os.fdatasync

    def fdatasync(fd):
        real(fd)
        acked = _decode(os.pread(fd, RECORD_BYTES, 0)).acked
        synced.append(acked.seq if acked else None)

    monkeypatch.setattr(marks_module.os, "fdatasync", fdatasync)
    return synced


def test_the_acked_mark_is_synced_beside_the_next_commit_and_when_settled(tmp_path, monkeypatch):
    journal = Journal(journal_path(tmp_path))
    game = journal.begin_game("dog", {})
    synced = record_syncs(monkeypatch)
    on_disk = []
    for _ in range(3):
        journal.append(game, "input", Press("ok"), {})
        with open(journal.marks.path, "rb") as f:  # what the file holds when the box answers
            on_disk.append(_decode(f.read(RECORD_BYTES)).acked.seq)
        assert journal.marks.unsynced
    assert on_disk == [1, 2, 3]  # written after each commit: never ahead, never behind
    assert synced == [1, 2]  # entry N's record synced during entry N+1's commit, none for 3 yet
    journal.settle()
    assert synced == [1, 2, 3] and not journal.marks.unsynced
    journal.settle()  # nothing new: no sync
    assert synced == [1, 2, 3]
    journal.close()


def test_a_clean_close_syncs_the_last_mark(tmp_path, monkeypatch):
    journal = Journal(journal_path(tmp_path))
    game = journal.begin_game("dog", {})
    journal.append(game, "input", Press("ok"), {})
    calls = []
    real = os.fdatasync
    monkeypatch.setattr(marks_module.os, "fdatasync", lambda fd: (calls.append(fd), real(fd)))
    journal.close()
    assert len(calls) == 1


def test_the_service_syncs_the_mark_once_answered_when_no_job_waits(tmp_path, monkeypatch):
    """At a table the next input comes seconds later: the mark is made durable right after the
    answer, not 50 ms later when the box settles. In a burst (a job waiting) it is left for the
    next commit to sync beside its own."""
    box = SimBox(tmp_path / "data", game="hwhad", start=False)  # the test thread handles the jobs
    try:
        box.service.resume()
        assert box.service.start_game("hwhad", {"teams": ["red", "blue"]})["status"] == "ok"
        box.service.handle(PressJob(Press("ok")))  # the deal begins: cards to scan
        journal = box.service.journal
        synced = record_syncs(monkeypatch)
        game_id = box.service.record.id
        box.service.handle(InputJob(Scan(box.session.state.stack[0])))
        first = journal.last_seq(game_id)
        journal.wait_mark()  # the sync started once the answer was out, on the mark thread
        assert not journal.marks.unsynced and synced[-1] == first  # synced once answered
        box.service.post(TickJob())  # something waits: a burst
        box.service.handle(InputJob(Scan(box.session.state.stack[0])))
        assert journal.last_seq(game_id) == first + 1
        assert journal.marks.unsynced and synced[-1] == first  # left for the next commit
    finally:
        box.close()


def test_a_failed_mark_sync_after_an_answer_is_logged_and_retried_not_raised(tmp_path, monkeypatch, caplog):
    journal = Journal(journal_path(tmp_path))
    game = journal.begin_game("dog", {})
    journal.append(game, "input", Press("ok"), {})
    real = os.fdatasync
    failing = [True]

    def fdatasync(fd):
        if failing[0]:
            failing[0] = False
            raise OSError(5, "Input/output error")
        real(fd)

    monkeypatch.setattr(marks_module.os, "fdatasync", fdatasync)
    journal.sync_mark_soon()
    assert journal.append(game, "input", Press("ok"), {}) == 2  # the entry is durable: no error for it
    assert "journal mark not synced" in caplog.text
    assert journal.marks.unsynced  # entry 2's record, still to be synced
    journal.settle()
    assert not journal.marks.unsynced
    journal.close()


def test_a_failed_mark_sync_beside_a_commit_does_not_refuse_the_committed_entry(tmp_path, monkeypatch, caplog):
    """In a burst the previous mark is synced while the next commit syncs: if that sync fails,
    the commit is still durable, so `append` returns its seq (an error would refuse an input the
    journal holds)."""
    journal = Journal(journal_path(tmp_path))
    game = journal.begin_game("dog", {})
    journal.append(game, "input", Press("ok"), {})
    assert journal.marks.unsynced  # entry 1's record, to be synced beside entry 2's commit

    def fdatasync(fd):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(marks_module.os, "fdatasync", fdatasync)
    assert journal.append(game, "input", Press("ok"), {}) == 2
    assert "journal mark not synced" in caplog.text
    assert journal.last_seq(game) == 2 and journal.marks.unsynced
    monkeypatch.undo()
    journal.close()
