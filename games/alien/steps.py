"""How each accepted input changes the game, phase by phase, with what the box says about it.

Called by rules.apply after validate has passed, so every function here may assume a legal input.
The effects carry the whole narration (who commands, whose rocket is called next) so the table
hears the next step without asking; where that is also the new prompt, the effect is the very same
Say, and the service speaks it once.
"""

from __future__ import annotations

from dataclasses import replace

from games.alien import scoring
from games.alien.settings import settings
from games.alien.state import COMMANDER, GUESSING, OVER, QUESTIONING, REVEAL, AlienState, RoundResult
from games.core import Effect, GameOver, Reveal, Sound, say

Step = tuple[AlienState, list[Effect]]


def toggle_player(state: AlienState, colour: str) -> Step:
    """Join at the next seat, or leave if already joined (a mistaken press is pressed again)."""
    if colour in state.players:
        players = tuple(p for p in state.players if p != colour)
        return replace(state, players=players), [say("left", team=colour, count=len(players))]
    players = (*state.players, colour)
    return replace(state, players=players), [say("joined", team=colour, count=len(players))]


def cycle_rounds(state: AlienState) -> Step:
    rounds = settings().next_round_choice(state.rounds)
    return replace(state, rounds=rounds), [say("rounds_set", rounds=rounds)]


def start(state: AlienState) -> Step:
    started = replace(state, phase=COMMANDER, totals=tuple(0 for _ in state.players))
    words = say("starting", count=len(state.players), rounds=state.rounds)
    return started, [Sound("confirm"), words, say("choose_commander")]


def first_commander(state: AlienState, colour: str) -> Step:
    return _begin_round(state, 1, colour)


def expose(state: AlienState) -> Step:
    exposing = replace(state, phase=GUESSING, guesses=())
    return exposing, [say("expose"), say("guess_prompt", team=exposing.awaited())]


def enter_guess(state: AlienState, colour: str) -> Step:
    player = state.awaited()
    assert player is not None  # the guessing phase always awaits someone until the last guess
    guessed = replace(state, guesses=(*state.guesses, (player, colour)))
    effects: list[Effect] = [say("guess_entered", team=player, guess=colour)]
    nxt = guessed.awaited()
    if nxt is None:
        return replace(guessed, phase=REVEAL), [*effects, say("reveal_prompt")]
    return guessed, [*effects, say("guess_prompt", team=nxt)]


def reveal(state: AlienState, alien: str) -> Step:
    """Score the round the alien just revealed; a barrier for BACK, since the alien is now known."""
    guesses = dict(state.guesses)
    scored = scoring.score_round(state.players, alien, guesses)
    totals = tuple(t + p for t, p in zip(state.totals, scored.points, strict=True))
    result = RoundResult(
        round=state.round,
        commander=state.commander,
        alien=alien,
        guesses=tuple((p, guesses[p]) for p in state.players),
        points=scored.points,
        correct=scored.correct,
        verdict=scored.verdict,
    )
    after = replace(state, totals=totals, history=(*state.history, result), guesses=())
    effects: list[Effect] = [
        Reveal("alien"),
        say("alien_revealed", team=alien),
        say(f"verdict_{scored.verdict}", correct=scored.correct, crew=scored.crew),
    ]
    effects += [
        say("round_points", team=p, points=pts, total=tot)
        for p, pts, tot in zip(state.players, scored.points, totals, strict=True)
    ]
    if state.round >= state.rounds:
        return _finish(after, effects)
    nxt, begun = _begin_round(after, state.round + 1, alien)
    return nxt, effects + begun


def _begin_round(state: AlienState, number: int, commander: str) -> Step:
    """"The Commander of the new round is the person who was the Alien in the last round."""
    begun = replace(state, phase=QUESTIONING, round=number, commander=commander, guesses=())
    return begun, [say("questioning_prompt", round=number, rounds=state.rounds, team=commander)]


def _finish(state: AlienState, effects: list[Effect]) -> Step:
    over = replace(state, phase=OVER)
    won = scoring.winners(over.players, over.totals)
    best = max(over.totals)
    effects = [*effects, Sound("fanfare"), say("game_over", rounds=over.rounds)]
    if len(won) == 1:
        effects.append(say("winner", team=won[0], points=best))
    else:
        effects += [say("shared_victory", points=best), *(say("shares_victory", team=w) for w in won)]
    return over, [*effects, GameOver("most_points", won)]
