"""Helpers and fixtures more than one test folder uses (a real broker, Chromium's launch line)."""
