"""The dice are fair, through the real chance path, and the rules never see the generator.

60,000 rolls (with the takes and thefts between them) go through the service (validate → secrets
draw → journal → apply), the faces are read back from the journal, and a chi-square test per die at
alpha = 0.0001 checks uniformity (critical value for 5 degrees of freedom: 25.745; a fair die fails
once in 10,000 runs).
"""

import json
import os
import secrets
import tempfile
from collections import Counter
from pathlib import Path

import pytest

import device.box.chance
from device.box.journal import Journal, journal_path
from device.box.service import Service
from games.core import Press
from games.dog.dice import load_dice, read_roll
from games.dog.rules import GAME

ROLLS = 60_000
CRITICAL_5DF_ALPHA_1E4 = 25.745


def chi_square(counts, n, k):
    expected = n / k
    return sum((counts.get(i, 0) - expected) ** 2 / expected for i in range(k))


@pytest.fixture
def fast_dir():
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=base) as d:
        yield Path(d)


def table_input(state):
    """Any legal input that keeps the game going: OK (roll, take, steal), or the first victim."""
    if state.phase == "victim":
        return GAME.legal_inputs(state)[0]
    return Press("ok")


@pytest.mark.slow
def test_sixty_thousand_rolls_are_uniform_per_die(fast_dir):
    journal = Journal(journal_path(fast_dir))
    service = Service(journal, default_game="dog")
    service.resume()
    options = {"teams": ["red", "blue"], "rounds": 20}
    service.start_game("dog", options)
    rolls = 0
    while rolls < ROLLS:
        if service.session is None:
            service.start_game("dog", options)
        inp = table_input(service.session.state)
        requests = service.session.check(inp)
        assert service.submit(inp)["status"] == "ok"
        rolls += bool(requests)
    faces = {d: Counter() for d in "ABC"}
    rows = journal.conn.execute("SELECT outcomes FROM entries WHERE kind='input' AND outcomes != '{}'").fetchall()
    assert len(rows) == ROLLS
    for (outcomes,) in rows:
        for name, face in json.loads(outcomes).items():
            faces[name[-1]][face] += 1
    for die, counts in faces.items():
        stat = chi_square(counts, ROLLS, 6)
        assert stat < CRITICAL_5DF_ALPHA_1E4, f"die {die}: chi-square {stat:.1f} on {dict(counts)}"
    # and the colours the rules showed are the faces the journal holds (the rules used the drawn faces)
    last = json.loads(rows[-1][0])
    shown = service.session.state.roll if service.session else service.finished.state.roll
    assert shown == read_roll(load_dice(), last)
    journal.close()


def test_the_chi_square_check_does_catch_a_loaded_die():
    loaded = Counter({0: 11500, 1: 9700, 2: 9700, 3: 9700, 4: 9700, 5: 9700})  # face 0 at p=0.19
    assert chi_square(loaded, 60_000, 6) > CRITICAL_5DF_ALPHA_1E4


def test_the_rules_never_touch_the_generator(monkeypatch):
    calls = []
    real = secrets.randbelow

    def spy(n):
        calls.append(n)
        return real(n)

    monkeypatch.setattr(device.box.chance.secrets, "randbelow", spy)
    state = GAME.setup({"teams": ["red", "blue"]})
    requests = GAME.validate(state, Press("ok"))
    assert calls == []  # asking costs no draw
    GAME.apply(state, Press("ok"), {"die_A": 0, "die_B": 2, "die_C": 4})
    assert calls == []  # applying costs no draw: the outcome comes in
    device.box.chance.draw_all(requests)
    assert calls == [6, 6, 6]  # only the box draws, one unbiased randbelow per die
    # same outcomes in, same state out: nothing hidden inside the rules varies
    a = GAME.apply(state, Press("ok"), {"die_A": 1, "die_B": 3, "die_C": 5})
    b = GAME.apply(state, Press("ok"), {"die_A": 1, "die_B": 3, "die_C": 5})
    assert a == b
    assert "rng" not in repr(state).lower() and "random" not in repr(state).lower()
