"""Scripted table sessions for `houston demo`, one module per game with a `play(box)` function."""
